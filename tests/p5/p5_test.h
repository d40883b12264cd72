/* p5_test: the P5 facts the p5/ tests share, written out from the SDM
 * (Vol. 3B, order no. 253669-060US: §18.23.1, Figure 18-61 and the CC
 * list; Table 19-38, the events) rather than taken from pmu/p5/ (its
 * regs.h constants, events.c table, p5_config() or p5_cc_counts_at()), so
 * a wrong reading there cannot also make an expectation wrong.  Only the
 * oracle's semantic counts are shared.  Running and comparing is
 * harness/pmu_run.h's. */
#ifndef TESTS_P5_P5_TEST_H
#define TESTS_P5_P5_TEST_H

#include "../../harness/pmu_run.h"
#include "../../pmu/p5/regs.h"
#include "../../pmu/detect.h"
#include "../../pmu/p5/driver.h"

/* The registers (§18.23.1, Figure 18-61): CESR at MSR 11H, CTR0 at 12H,
 * CTR1 at 13H; the counters are 40 bits. */
#define SDM_P5_CESR 0x11
#define SDM_P5_CTR0 0x12
#define SDM_P5_CTR1 0x13
#define SDM_P5_CTR_BITS 40
#define SDM_P5_CTR_TOP (1ull << SDM_P5_CTR_BITS)

/* The counter-control codes by name (§18.23.1): "the highest order bit
 * selects between counting events and counting clocks (duration); the
 * middle bit enables counting when the CPL is 3; and the low-order bit
 * enables counting when the CPL is 0, 1, or 2". */
#define SDM_CC_NONE 0		/* 000 */
#define SDM_CC_EV_USR 2		/* 010 */
#define SDM_CC_EV_ANY 3		/* 011 */
#define SDM_CC_CLK_USR 6	/* 110 */

/* The Pentium with MMX technology (the P55C, family 5 model 4, and its
 * mobile part, model 8: AP-485, Intel Processor Identification and the
 * CPUID Instruction, order no. 241618) has RDPMC (SDM Vol. 2B RDPMC) and
 * the events 2AH-3BH (Table 19-38).  Asked of the signature: QEMU's
 * qemu64 reports the MMX feature flag on every spoofed Pentium. */
static inline int sdm_p5_mmx(void)
{
	const struct cpu_sig *s = &cpu_info()->sig;

	return s->family == 5 && (s->model == 4 || s->model == 8);
}

/* A counter's pmu_config holds its CESR half as bits 9:0 (ES 5:0, CC 8:6,
 * PC 9: the CTR0 half of Figure 18-61), the driver's documented interface
 * (docs/p5.md); written and read here, not with p5_config(). */
static inline struct pmu_config sdm_p5_config(struct p5_half h)
{
	struct pmu_config c = { (h.es & 0x3f) | (h.cc & 7) << 6 |
				(h.pc & 1) << 9, 0 };

	return c;
}

static inline struct p5_half sdm_p5_half(const struct pmu_config *c)
{
	struct p5_half h = { (unsigned)(c->sel & 0x3f),
			     (unsigned)(c->sel >> 6 & 7),
			     (unsigned)(c->sel >> 9 & 1) };

	return h;
}

/* The counter-control codes: { counts at CPL 0-2, at CPL 3, clocks }. */
static const struct {
	uint8_t os, usr, clocks;
} sdm_cc[8] = {
	[0] = { 0, 0, 0 },	/* 000 count nothing */
	[1] = { 1, 0, 0 },	/* 001 event, CPL 0, 1, 2 */
	[2] = { 0, 1, 0 },	/* 010 event, CPL 3 */
	[3] = { 1, 1, 0 },	/* 011 event, any CPL */
	[4] = { 0, 0, 0 },	/* 100 count nothing */
	[5] = { 1, 0, 1 },	/* 101 clocks, CPL 0, 1, 2 */
	[6] = { 0, 1, 1 },	/* 110 clocks, CPL 3 */
	[7] = { 1, 1, 1 },	/* 111 clocks, any CPL */
};

static inline int sdm_cc_counts_at(unsigned cc, int cpl)
{
	return cpl == 3 ? sdm_cc[cc & 7].usr : sdm_cc[cc & 7].os;
}

/* The CPL set a CC counts at (pmu/driver.h's encoding, bit n: CPL n):
 * "while CPL is 0, 1, or 2", "while CPL is 3" (§18.23.1). */
static inline unsigned sdm_cc_cpls(unsigned cc)
{
	return (sdm_cc[cc & 7].os ? PMU_CPL(0) | PMU_CPL(1) | PMU_CPL(2) : 0) |
	       (sdm_cc[cc & 7].usr ? PMU_CPL(3) : 0);
}

/* The CESR for two halves: ES0 bits 0-5, CC0 6-8, PC0 9, ES1 16-21,
 * CC1 22-24, PC1 25. */
static inline uint32_t sdm_cesr(const struct p5_half *h0,
				const struct p5_half *h1)
{
	return h0->es | h0->cc << 6 | h0->pc << 9 |
	       h1->es << 16 | h1->cc << 22 | h1->pc << 25;
}

/* Once both counters count: the CESR holds both halves in the SDM's
 * layout. */
static inline int p5_cesr_as_sdm(struct tcase *t, struct pmu_run *r)
{
	struct p5_half h0 = sdm_p5_half(&r->cfg[0]), h1 = sdm_p5_half(&r->cfg[1]);
	struct pmu_err e;
	uint32_t cesr = 0;

	if (!check(t, p5_read_cesr(&cesr, &e) == 0, "%s", e.msg))
		return 0;
	r->seen[0] = (struct pmu_seen){ "cesr", cesr };
	r->n_seen = 1;
	return check(t, cesr == sdm_cesr(&h0, &h1), "CESR reads 0x%08x, the "
		     "SDM's layout gives 0x%08x", cesr, sdm_cesr(&h0, &h1));
}

/* A two-counter P5 run of bench at cpl. */
static inline void p5_setup(struct pmu_run *r, const char *bench, uint64_t n,
			    int cpl, struct p5_half h0, struct p5_half h1)
{
	*r = (struct pmu_run){ .bench = bench, .n = n, .cpl = cpl,
			       .n_ctrs = 2,
			       .started = p5_cesr_as_sdm };
	r->cfg[0] = sdm_p5_config(h0);
	r->cfg[1] = sdm_p5_config(h1);
}

/*
 * Table 19-38 (SDM Vol. 3B, order no. 253669-060US; Table A-19 in older
 * editions), restated here and not read from pmu/p5/events.c: which codes
 * select an event on which counter.  Codes 00H-29H exist on every Pentium
 * on both counters, except 10H, 11H, 20H and 21H, which the table leaves
 * out; 2AH-3BH came with the Pentium with MMX technology and name a
 * different event on each counter, except 39H (RETURNS), CTR0 only.
 * perfctr's Pentium event list (the referee, docs/p5.md) agrees.
 */
static inline int sdm_p5_has(unsigned code, unsigned ctr, int mmx)
{
	if (code <= 0x29)
		return code != 0x10 && code != 0x11 && code != 0x20 &&
		       code != 0x21;
	if (code <= 0x3b)
		return mmx && !(code == 0x39 && ctr == 1);
	return 0;
}

/*
 * What the events the trace can see count, in the oracle's counts
 * (pmu/sem.h), from the event names and descriptions of Table 19-38:
 * DATA_READ 00H and DATA_WRITE 01H count the data reads and writes,
 * DATA_READ_OR_WRITE 28H both; ANY_SEGMENT_REGISTER_LOADED 0FH the
 * segment loads; INSTRUCTIONS_EXECUTED 16H the instructions (a REP string
 * instruction once); BRANCHES 12H "all branches", far transfers (INT n,
 * IRET, far CALL/JMP/RET) included; TAKEN_BRANCHES 32H (CTR1, MMX) the
 * taken ones, far transfers included (they always transfer); RETURNS 39H
 * (CTR0, MMX) the returns.  ctrs: bit n set, valid on CTRn.
 */
struct sdm_p5_count {
	uint8_t code, ctrs, mmx;
	uint32_t sem;
};

static const struct sdm_p5_count sdm_p5_counts[] = {
	{ .code = 0x00, .ctrs = 3, .sem = SEM_BIT(SEM_LOADS) },
	{ .code = 0x01, .ctrs = 3, .sem = SEM_BIT(SEM_STORES) },
	{ .code = 0x0f, .ctrs = 3, .sem = SEM_BIT(SEM_SEGLOADS) },
	{ .code = 0x12, .ctrs = 3,
	  .sem = SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR) },
	{ .code = 0x16, .ctrs = 3, .sem = SEM_BIT(SEM_INSTRUCTIONS) },
	{ .code = 0x28, .ctrs = 3,
	  .sem = SEM_BIT(SEM_LOADS) | SEM_BIT(SEM_STORES) },
	{ .code = 0x32, .ctrs = 2, .mmx = 1,
	  .sem = SEM_BIT(SEM_TAKEN) | SEM_BIT(SEM_FAR) },
	{ .code = 0x39, .ctrs = 1, .mmx = 1, .sem = SEM_BIT(SEM_RETURNS) },
};

/* The counts a code selects on a counter of this CPU, or 0 when the test
 * does not know them (not an event there, or one the trace cannot see). */
static inline uint32_t sdm_p5_sem(unsigned code, unsigned ctr, int mmx)
{
	for (unsigned i = 0; i < sizeof(sdm_p5_counts) /
				 sizeof(sdm_p5_counts[0]); i++) {
		const struct sdm_p5_count *e = &sdm_p5_counts[i];

		if (e->code == code && (e->ctrs >> ctr & 1) &&
		    (!e->mmx || mmx))
			return e->sem;
	}
	return 0;
}

/* Clocks (duration): "the clocks during which the selected event's
 * condition holds" (§18.23.1, CC 1xx).  The model clock is one cycle per
 * traced step, so the duration of an event that is one oracle count is
 * the steps in which it happened; for a sum of counts (12H, 28H, 32H) the
 * trace cannot tell (two counts in one step may be one condition or two):
 * *modelled = 0, expected 0 as the model documents (docs/p5.md). */
static inline uint64_t p5_duration(const struct pmu_run *r, unsigned ctr,
				   int *modelled)
{
	struct p5_half h = sdm_p5_half(&r->cfg[ctr]);
	uint32_t sem = sdm_p5_sem(h.es, ctr, sdm_p5_mmx());
	unsigned s = 0;

	*modelled = sem && !(sem & (sem - 1));
	if (!*modelled)
		return 0;
	while (!(sem & SEM_BIT(s)))
		s++;
	return r->oc.steps_with[r->cpl][s];
}

/* Events: the oracle's count of the test's meaning of the event. */
static inline uint64_t p5_event_count(const struct pmu_run *r, unsigned ctr,
				      int *modelled)
{
	struct p5_half h = sdm_p5_half(&r->cfg[ctr]);
	uint32_t sem = sdm_p5_sem(h.es, ctr, sdm_p5_mmx());

	*modelled = sem != 0;
	return sem_sum(sem, r->oc.c[r->cpl]);
}

/*
 * What CTRn should count in r.  Events: the oracle's count of the event
 * table's meaning when the CC counts at the run's CPL (pmu_expect_sem()
 * adds hardware's slack for the driver's CPL 0 code and the ring-3
 * trampoline's share of the event).  Clocks: the
 * event's duration, exact on the model (p5_duration()); on hardware the counter sees at most every clock
 * between start and stop, which the TSC counts (on the Pentium the TSC
 * increments with every processor clock, SDM Vol. 3B §17.17), and, when
 * it counts at the benchmark's CPL, at least half the benchmark's
 * instructions with the event (two pipes: at most two instructions
 * retire per clock, SDM Vol. 3B §18.23): instructions/2 for
 * INSTRUCTIONS_EXECUTED, data reads/2 for DATA_READ.
 */
static inline struct pmu_expect p5_expect(const struct pmu_driver *d,
					  const struct pmu_run *r,
					  unsigned ctr, int *modelled)
{
	struct p5_half h = sdm_p5_half(&r->cfg[ctr]);
	unsigned cpls = sdm_cc_cpls(h.cc);
	int here = sdm_cc_counts_at(h.cc, r->cpl);
	struct pmu_expect x;
	uint64_t n;

	*modelled = 1;
	if (!sdm_cc[h.cc].clocks) {
		n = here ? p5_event_count(r, ctr, modelled) : 0;
		return pmu_expect_sem(n, sdm_p5_sem(h.es, ctr, sdm_p5_mmx()),
				      cpls, pmu_run_counters(r));
	}
	n = here ? p5_duration(r, ctr, modelled) : 0;
	x = (struct pmu_expect){ n, n, NULL };
	if (!pmu_on_model() && cpls) {
		x.lo = n / 2;
		x.hi = r->tsc_span;
		x.tolerance = here ? "instructions with the event/2 <= clocks "
				     "<= TSC span" :
				     "clocks <= TSC span (CPL 0 code only)";
	}
	return x;
}

/* Checks CTRn of a finished run against p5_expect(). */
static inline void p5_check(struct tcase *t, const struct pmu_driver *d,
			    const struct pmu_run *r, unsigned ctr)
{
	int modelled;
	struct pmu_expect x = p5_expect(d, r, ctr, &modelled);

	pmu_check_counter(t, d, r, ctr, &x);
}

#endif
