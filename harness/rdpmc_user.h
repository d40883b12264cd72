/* rdpmc_user: RDPMC executed at CPL 3, with CR4.PCE set or clear for the
 * one call (SDM Vol. 2B RDPMC: at CPL > 0 with CR4.PCE clear it raises
 * #GP(0)).  For the tests of every generation with RDPMC. */
#ifndef HARNESS_RDPMC_USER_H
#define HARNESS_RDPMC_USER_H

#include <stdint.h>
#include "test.h"

/* Runs RDPMC with ECX = idx at CPL 3 with CR4.PCE = pce, then makes the
 * checks every generation's test makes: logs cr4_pce and rdpmc_vector,
 * checks the vector is want and, when want is 0, logs rdpmc<idx> and
 * checks it read expect (what RDMSR read).  When ring 3 is unavailable
 * or the CPL 3 run itself faulted, that is the one failed check. */
void rdpmc_cpl3_check(struct tcase *t, uint32_t idx, int pce, int want,
		      uint64_t expect);

#endif
