/* p5: the Pentium (P5) PMU - CESR, CTR0 and CTR1 (Intel SDM Vol. 3B,
 * order no. 253669-060US, §18.23.1 and Figure 18-61; events: Table 19-38
 * of the same edition).
 *
 * MSRs: CESR 0x11 (32 bits), CTR0 0x12, CTR1 0x13 (40 bits).  The CESR
 * holds both counters' controls: ES0 bits 5:0, CC0 8:6, PC0 9 for CTR0 and
 * ES1 21:16, CC1 24:22, PC1 25 for CTR1; every other bit is reserved.
 * There is no overflow interrupt; PC selects what the PM0/PM1 pin signals
 * (1: overflow, 0: increment).  RDPMC exists only on the Pentium with MMX
 * technology.  The driver reaches the registers only through
 * pmu/backend.h, keeps a shadow of the CESR so that programming one
 * counter never disturbs the other, and checks the shadow against the
 * register on every change. */
#ifndef PMU_P5_H
#define PMU_P5_H

#include <stdint.h>
#include "../cpu_model.h"
#include "../driver.h"

#define P5_MSR_CESR 0x11
#define P5_MSR_CTR0 0x12
#define P5_MSR_CTR1 0x13
#define P5_COUNTERS 2
#define P5_CTR_BITS 40
#define P5_CTR_MASK ((1ull << P5_CTR_BITS) - 1)

/* CESR layout per counter half (SDM Vol. 3B Figure 18-61). */
#define P5_ES_BITS 6
#define P5_CC_SHIFT 6
#define P5_PC_SHIFT 9
#define P5_HALF_SHIFT 16		/* CTR1's half starts at bit 16 */
#define P5_CESR_DEFINED 0x03ff03ffull	/* ES, CC, PC of both halves */

/* Counter-control codes (SDM Vol. 3B §18.23.1): bit 2 clocks (duration)
 * instead of events,
 * bit 1 count at CPL 3, bit 0 count at CPL 0-2. */
enum p5_cc {
	P5_CC_NONE = 0,		/* 000 count nothing */
	P5_CC_EV_OS = 1,	/* 001 events at CPL 0, 1, 2 */
	P5_CC_EV_USR = 2,	/* 010 events at CPL 3 */
	P5_CC_EV_ANY = 3,	/* 011 events at any CPL */
	P5_CC_NONE2 = 4,	/* 100 count nothing */
	P5_CC_CLK_OS = 5,	/* 101 clocks at CPL 0, 1, 2 */
	P5_CC_CLK_USR = 6,	/* 110 clocks at CPL 3 */
	P5_CC_CLK_ANY = 7,	/* 111 clocks at any CPL */
};
#define P5_CC_CLOCKS 4u
#define P5_CC_CPL3 2u
#define P5_CC_CPL012 1u

struct p5_half {
	unsigned es;		/* event select, 6 bits */
	unsigned cc;		/* counter control, 3 bits */
	unsigned pc;		/* pin control, 1 bit */
};

/* Pure CESR field logic (host-tested). */
uint32_t cesr_set_half(uint32_t cesr, unsigned ctr, const struct p5_half *h);
struct p5_half cesr_get_half(uint32_t cesr, unsigned ctr);
/* Nonzero when v sets a bit the CESR reserves (the upper 32 included). */
int cesr_reserved(uint64_t v);
/* Does the counter count at this CPL under this control code? */
int p5_cc_counts_at(unsigned cc, unsigned cpl);

struct p5_event {
	uint8_t code;
	uint8_t counters;	/* bit n: valid on CTRn */
	uint8_t mmx;		/* added by the Pentium with MMX technology */
	uint8_t duration;	/* counts clocks while a condition holds */
	const char *name;
	uint32_t sem;		/* what it counts, as SEM_BIT()s of pmu/sem.h;
				 * 0: not modelled (the trace cannot see it) */
	const char *why_not;	/* for sem 0: what the trace lacks */
};

#define P5_CTR0_ONLY 1u
#define P5_CTR1_ONLY 2u
#define P5_BOTH 3u

extern const struct p5_event p5_events[];
extern const unsigned p5_n_events;
/* The event a code selects on a counter of this CPU, or NULL (reserved,
 * wrong counter, or an MMX event on a Pentium without MMX). */
const struct p5_event *p5_event_for(unsigned code, unsigned ctr, int mmx_cpu);
/* Counter control 1xx counts the clocks during which the event's
 * condition holds (its duration).  The model, one clock per traced step,
 * can tell that only for an event that is one count of pmu/sem.h (a step
 * either has it or not); for sums of counts and unmodelled events it
 * cannot.  Duration events proper (bus cycles, stalls) are not in the
 * trace at all. */
int p5_duration_modelled(const struct p5_event *ev);
/* The one count whose duration it is (for a modelled duration). */
enum sem p5_duration_sem(const struct p5_event *ev);
/* Pentium with MMX technology: family 5 models 4 (P55C) and 8 (mobile). */
int p5_is_mmx_cpu(const struct cpu_sig *s);
/* RDPMC is unreliable on this stepping (Pentium erratum 74, as perfctr
 * handles it): on hardware the driver reads counters with RDMSR only. */
int p5_erratum74(const struct cpu_sig *s);

/* A counter's pmu_config for the P5: sel holds its CESR half as the
 * half's bits 9:0 (ES 5:0, CC 8:6, PC 9); aux is unused. */
struct pmu_config p5_config(const struct p5_half *h);
struct p5_half p5_half_of(const struct pmu_config *c);

/* The driver (pmu/p5/driver.c): the ops table, and the P5's own operations that
 * the table is made of.  Functions return 0 or -1 with a message in e. */
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
uint32_t p5_shadow(void);
/* Reads the CESR through the backend. */
int p5_read_cesr(uint32_t *v, struct pmu_err *e);

#endif
