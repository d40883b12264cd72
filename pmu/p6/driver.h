/* pmu/p6/driver.h: the P6 family PMU driver (pmu/p6/driver.c): the ops
 * table and the P6's own operations.  Functions return 0 or -1 with a
 * message.
 *
 * Stopping ONE counter: EN stops both, so the driver stops a counter by
 * clearing its USR and OS (it then counts at no CPL) and keeps EN set
 * while the other one runs; EN is cleared only when neither runs, and
 * while an event is being changed (p6_program()).  §18.22.3 offers
 * clearing PerfEvtSel1 to stop counter 1 alone, but has no way to stop
 * counter 0 alone: clearing USR and OS is the one way that works for both
 * and keeps the event programmed. */
#ifndef PMU_P6_DRIVER_H
#define PMU_P6_DRIVER_H

#include <stdint.h>
#include "../driver.h"

extern const struct pmu_driver p6_driver;

int p6_init(struct pmu_err *e);
/* Changes counter ctr's event: EN off in PerfEvtSel0 (both counters
 * stop), the counter cleared, the new PerfEvtSel written with USR and OS
 * clear (so it stays stopped), then EN back on when the other counter
 * runs.  The USR and OS of sel wait for p6_start(). */
int p6_program(unsigned ctr, uint64_t sel, struct pmu_err *e);
/* Writes the counter's USR/OS as programmed and sets EN. */
int p6_start(unsigned ctr, struct pmu_err *e);
/* Clears the counter's USR and OS; clears EN when no counter runs. */
int p6_stop(unsigned ctr, struct pmu_err *e);
int p6_read(unsigned ctr, uint64_t *v, struct pmu_err *e);
/* Presets the counter to v (< 2^31 or >= 2^40 - 2^31): WRMSR with EAX =
 * the low 32 bits of v. */
int p6_write(unsigned ctr, uint64_t v, struct pmu_err *e);
int p6_rdpmc(unsigned ctr, uint64_t *v, struct pmu_err *e);
/* RDPMC may be used: not on hardware with Pentium Pro erratum 26. */
int p6_rdpmc_usable(void);
/* PerfEvtSel0/1 through the backend. */
int p6_read_sel(unsigned ctr, uint64_t *v, struct pmu_err *e);
/* This CPU's generation (P6_* of pmu/p6/regs.h). */
unsigned p6_gen(void);

#endif
