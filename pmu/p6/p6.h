/* p6: the P6 family PMU - Pentium Pro, Pentium II, Pentium III and
 * Pentium M (Intel SDM Vol. 3B, order no. 253669-060US, §18.22 and
 * Figure 18-60; events: §19.17 Table 19-37, Pentium M §19.16 Tables 19-35
 * and 19-36).  Architectural performance monitoring (§18.2.1.1) keeps the
 * PerfEvtSel and PerfCtr addresses, so pmu/detect.c probes the same MSR.
 *
 * MSRs: PerfEvtSel0 0x186, PerfEvtSel1 0x187 (fields: pmu/evtsel.h),
 * PerfCtr0 0xC1, PerfCtr1 0xC2 (40 bits).
 *
 * - EN (bit 22) exists only in PerfEvtSel0 and enables both counters
 *   (§18.22.1).  USR counts at CPL 1, 2 and 3, OS at CPL 0.  AnyThread
 *   (bit 21) does not exist on the P6: reserved, as are bits 63:32.
 * - WRMSR to a counter writes EAX sign-extended from bit 31 into bits
 *   39:32; EDX is ignored (§18.22.2): only values below 2^31 and from
 *   2^40 - 2^31 up can be written.
 * - INT (bit 20): an overflow (the counter wraps from 2^40 - 1 to 0)
 *   raises a PMI through the local APIC's LVTPC (§18.22.5).  There is no
 *   overflow status register: the handler tells which counter overflowed
 *   only from the counts.
 * - RDPMC reads counters 0 and 1 at any CPL, at CPL > 0 only with CR4.PCE
 *   set (§18.22.2; Vol. 2B RDPMC).
 *
 * Stopping ONE counter: EN stops both, so the driver stops a counter by
 * clearing its USR and OS (it then counts at no CPL) and keeps EN set
 * while the other one runs; EN is cleared only when neither runs, and
 * while an event is being changed (p6_program()).  §18.22.3 offers
 * clearing PerfEvtSel1 to stop counter 1 alone, but has no way to stop
 * counter 0 alone: clearing USR and OS is the one way that works for both
 * and keeps the event programmed. */
#ifndef PMU_P6_H
#define PMU_P6_H

#include <stdint.h>
#include "../cpu_model.h"
#include "../driver.h"
#include "../evtsel.h"

#define P6_MSR_PERFEVTSEL0 0x186
#define P6_MSR_PERFEVTSEL1 0x187
#define P6_MSR_PERFCTR0 0xc1
#define P6_MSR_PERFCTR1 0xc2
#define P6_COUNTERS 2
#define P6_CTR_BITS 40
#define P6_CTR_MASK ((1ull << P6_CTR_BITS) - 1)

/* PerfEvtSel fields (Figure 18-60), as pmu/evtsel.h has them. */
#define P6_EVTSEL_EVENT_MASK EVTSEL_EVENT_MASK
#define P6_EVTSEL_UMASK_SHIFT EVTSEL_UMASK_SHIFT
#define P6_EVTSEL_USR EVTSEL_USR
#define P6_EVTSEL_OS EVTSEL_OS
#define P6_EVTSEL_EN EVTSEL_EN
/* Reserved in both PerfEvtSels: bit 21 and bits 63:32.  A WRMSR setting
 * one raises #GP(0) in the model (SDM Vol. 2B WRMSR).  Bit 22 of
 * PerfEvtSel1 is not reserved there: see p6_model.c. */
#define P6_EVTSEL_RESERVED (EVTSEL_ANY | ~0xffffffffull)

/* INST_RETIRED (0xC0) on P6, architectural "instructions retired". */
#define P6_EVENT_INST_RETIRED 0xc0
#define P6_EVENT_CPU_CLK_UNHALTED 0x79

/* The P6 generations, as bits (an event lists those that have it). */
#define P6_PPRO 1u	/* Pentium Pro: family 6 model 1 */
#define P6_PII 2u	/* Pentium II, Celeron: models 3, 5, 6 */
#define P6_PIII 4u	/* Pentium III: models 7, 8, 0xA, 0xB */
#define P6_PM 8u	/* Pentium M: models 9, 0xD */
#define P6_ALL (P6_PPRO | P6_PII | P6_PIII | P6_PM)

/* The generation of a family 6 signature (a model up to 0xD the table
 * does not name: P6_PPRO, the events every P6 has), else 0. */
unsigned p6_gen_of(const struct cpu_sig *s);
const char *p6_gen_name(unsigned gen);

/* A counter's value after WRMSR writes v to it: EAX sign-extended from bit 31
 * to 40 bits, EDX ignored (§18.22.2). */
uint64_t p6_ctr_written(uint64_t v);
/* Can the 40-bit value v be written at all (bits 39:31 all equal)? */
int p6_ctr_writable(uint64_t v);

struct p6_event {
	uint8_t code;
	uint8_t counters;	/* bit n: valid on PerfCtrn */
	uint8_t gens;		/* P6_* generations that have it */
	uint8_t umask_bits;	/* the unit-mask bits it defines (MESI
				 * states, bus agent, type); 0: its unit
				 * mask is 00H */
	const char *name;
	uint32_t sem;		/* what it counts: SEM_BIT()s of pmu/sem.h;
				 * 0: not modelled (the trace cannot see it) */
	const char *why_not;	/* for sem 0: what the trace lacks */
};

#define P6_CTR0_ONLY 1u
#define P6_CTR1_ONLY 2u
#define P6_BOTH 3u

extern const struct p6_event p6_events[];
extern const unsigned p6_n_events;
/* The event a code selects on a counter of a generation, or NULL (not in
 * the SDM's tables for that generation, or the other counter's). */
const struct p6_event *p6_event_for(unsigned code, unsigned ctr,
				    unsigned gen);
/* Is umask one the event defines (no bit outside umask_bits)? */
int p6_umask_ok(const struct p6_event *ev, unsigned umask);

/* A counter's pmu_config for the P6: sel is its PerfEvtSel without EN
 * (the driver owns EN); aux is unused. */
struct pmu_config p6_config(const struct evtsel *s);

/* The driver (pmu/p6/driver.c).  Functions return 0 or -1 with a message. */
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
/* PerfEvtSel0/1 through the backend. */
int p6_read_sel(unsigned ctr, uint64_t *v, struct pmu_err *e);
/* What the driver last wrote to PerfEvtSel0/1. */
uint64_t p6_shadow(unsigned ctr);
/* This CPU's generation (P6_*). */
unsigned p6_gen(void);

#endif
