/* pmu/netburst/driver.h: the NetBurst driver (pmu/netburst/driver.c) - the
 * ops table and what the netburst/ tests use beyond it.
 *
 * A config is { .sel = the ESCR value, .aux = the CCCR value } (layout:
 * regs.h); the CCCR's ENABLE and OVF bits are the driver's (program()
 * refuses them), CASCADE is the config's: start() sets ENABLE, or for a
 * cascaded config CASCADE alone (the counter then starts when its
 * alternate overflows, SDM Vol. 3B §18.15.5.6), and stop() clears both.
 * Functions return 0 or -1 with a message. */
#ifndef PMU_NETBURST_DRIVER_H
#define PMU_NETBURST_DRIVER_H

#include <stdint.h>
#include "../driver.h"

extern const struct pmu_driver nb_driver;

int nb_init(struct pmu_err *e);
int nb_program(unsigned ctr, uint64_t escr, uint64_t cccr,
	       struct pmu_err *e);
int nb_start(unsigned ctr, struct pmu_err *e);
int nb_stop(unsigned ctr, struct pmu_err *e);
/* Programs counter `to` to count, with escr/cccr (cccr without CASCADE,
 * ENABLE, OVF), from the moment counter `from` overflows: CASCADE set,
 * ENABLE clear (§18.15.5.6).  Refuses, writing nothing, a pair that
 * nb_cascade_legal() does not allow (e.g. 12->16, 16->14, 13->17, 17->15,
 * or across blocks).  start(to) then arms it. */
int nb_program_cascaded(unsigned from, unsigned to, uint64_t escr,
			uint64_t cccr, struct pmu_err *e);
/* Stops ctr, clears its CCCR and frees its ESCR for other setups. */
int nb_release(unsigned ctr, struct pmu_err *e);
int nb_read(unsigned ctr, uint64_t *v, struct pmu_err *e);
/* Writes the counter (on hardware twice: erratum N15, doc. 249199). */
int nb_write(unsigned ctr, uint64_t v, struct pmu_err *e);
int nb_read_cccr(unsigned ctr, uint64_t *v, struct pmu_err *e);
/* Writes a CCCR as given, without any check (the tests of halting by
 * clearing CASCADE or OVF by hand, and of the model's #GP). */
int nb_write_cccr_raw(unsigned ctr, uint64_t v, struct pmu_err *e);
int nb_read_escr_of(unsigned ctr, uint64_t *v, struct pmu_err *e);
/* Clears the sticky OVF flag of ctr's CCCR (read-modify-write). */
int nb_clear_ovf(unsigned ctr, struct pmu_err *e);

#endif
