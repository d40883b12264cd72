/* pmu/p5/driver.h: the Pentium PMU driver (pmu/p5/driver.c): the ops
 * table, and the P5's own operations that the table is made of.
 *
 * The driver reaches the registers (pmu/p5/regs.h) only through
 * pmu/backend.h, keeps a shadow of the CESR so that programming one
 * counter never disturbs the other, and checks the shadow against the
 * register on every change.  Functions return 0 or -1 with a message in
 * e. */
#ifndef PMU_P5_DRIVER_H
#define PMU_P5_DRIVER_H

#include <stdint.h>
#include "regs.h"
#include "../driver.h"

extern const struct pmu_driver p5_driver;

int p5_init(struct pmu_err *e);
/* SDM Vol. 3B §18.23.1's order: stops the counter (CC=000), clears it,
 * then writes the new ES and PC with CC still 000; the other half is left
 * as it is.  h->cc is kept for p5_start(). */
int p5_program(unsigned ctr, const struct p5_half *h, struct pmu_err *e);
/* Writes the CC that p5_program() was given: the counter counts. */
int p5_start(unsigned ctr, struct pmu_err *e);
/* Stops one counter (CC=000), keeping its event select and pin control. */
int p5_stop(unsigned ctr, struct pmu_err *e);
int p5_read(unsigned ctr, uint64_t *v, struct pmu_err *e);
int p5_write(unsigned ctr, uint64_t v, struct pmu_err *e);
int p5_rdpmc(unsigned ctr, uint64_t *v, struct pmu_err *e);
/* The CPU has the RDPMC instruction (Pentium with MMX technology). */
int p5_has_rdpmc(void);
/* ... and the driver may use it: not on hardware with erratum 74. */
int p5_rdpmc_usable(void);
/* What the driver last wrote to the CESR. */
uint32_t p5_shadow(void);
/* Reads the CESR through the backend. */
int p5_read_cesr(uint32_t *v, struct pmu_err *e);

#endif
