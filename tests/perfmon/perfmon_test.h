/* perfmon_test: the architectural-perfmon facts the perfmon/ tests share,
 * written out from the SDM rather than taken from the driver, the model
 * or their tables (pmu/perfmon/events.c, caps.c, regs.h), so that a wrong
 * reading there cannot make an expectation wrong too:
 *   - the architectural events (Vol. 3B, order no. 253669-060US,
 *     §18.2.1.2, Table 18-1) and what each fixed counter counts (§18.2.2
 *     Table 18-2, §18.2.5 for FIXED_CTR3), with what each means in the
 *     oracle's semantic counts (pmu/sem.h, the shared truth);
 *   - CPUID.0AH as the SDM reads it (Vol. 2A, order no. 253666, CPUID
 *     leaf 0AH; Vol. 3B §18.2.1-§18.2.5): version, counters, widths,
 *     EBX's unavailable events, the fixed counters, AnyThread;
 *   - the MSR addresses (Vol. 4, order no. 335592, Table 2-2) and the
 *     bits of GLOBAL_STATUS / DEBUGCTL the tests check;
 *   - PerfEvtSel (Figure 18-1) and FIXED_CTR_CTRL (Figure 18-2).
 * Running and comparing is harness/pmu_run.h's. */
#ifndef TESTS_PERFMON_PERFMON_TEST_H
#define TESTS_PERFMON_PERFMON_TEST_H

#include "../../harness/pmu_run.h"
#include "../../harness/need.h"
#include "../../bench/bench.h"
#include "../../pmu/backend.h"
#include "../../pmu/detect.h"
#include "../../pmu/sem.h"
#include "../../pmu/perfmon/caps.h"
#include "../../pmu/perfmon/caps_table.h"
#include "../../pmu/perfmon/driver.h"
#include "../../arch/x86/trap.h"
#include "evtsel_sdm.h"

/* ---- MSRs (Vol. 4 Table 2-2) */
#define PM_MSR_PMC(n) (0xc1u + (n))		/* IA32_PMC0 0C1H */
#define PM_MSR_PERFEVTSEL(n) (0x186u + (n))	/* IA32_PERFEVTSEL0 186H */
#define PM_MSR_A_PMC(n) (0x4c1u + (n))		/* IA32_A_PMC0 4C1H */
#define PM_MSR_FIXED_CTR(i) (0x309u + (i))	/* IA32_FIXED_CTR0 309H */
#define PM_MSR_FIXED_CTR_CTRL 0x38du
#define PM_MSR_GLOBAL_STATUS 0x38eu
#define PM_MSR_GLOBAL_CTRL 0x38fu
/* 390H: IA32_PERF_GLOBAL_OVF_CTRL in v2/v3; v4 renames the same address
 * IA32_PERF_GLOBAL_STATUS_RESET (§18.2.4, Figure 18-8) */
#define PM_MSR_GLOBAL_OVF_CTRL 0x390u
#define PM_MSR_GLOBAL_STATUS_RESET 0x390u
#define PM_MSR_GLOBAL_STATUS_SET 0x391u		/* v4 (Figure 18-9) */
#define PM_MSR_GLOBAL_INUSE 0x392u		/* v4 (Figure 18-10) */
#define PM_MSR_DEBUGCTL 0x1d9u
#define PM_MSR_PERF_CAPABILITIES 0x345u
#define PM_MAX_GP 8		/* IA32_PERFEVTSEL0-7: 186H-18DH */
#define PM_MAX_FIXED 4		/* IA32_FIXED_CTR0-3: 309H-30CH */

/* GLOBAL_CTRL/STATUS (Figures 18-3, 18-4): bit n PMCn, bit 32 + i
 * FIXED_CTRi; v4 GLOBAL_STATUS bit 59 CTR_FRZ (Figure 18-7). */
#define PM_GLOBAL_PMC(n) (1ull << (n))
#define PM_GLOBAL_FIXED(i) (1ull << (32 + (i)))
#define PM_STATUS_CTR_FRZ (1ull << 59)
#define PM_STATUS_COND_CHGD (1ull << 63)
/* IA32_DEBUGCTL bit 12 FREEZE_PERFMON_ON_PMI (Vol. 3B §17.4.1) */
#define PM_DEBUGCTL_FREEZE_PERFMON_ON_PMI (1ull << 12)
/* RDPMC ECX bit 30 selects the fixed counters (Vol. 2B RDPMC) */
#define PM_RDPMC_FIXED (1u << 30)
/* IA32_PERF_CAPABILITIES bit 13 FW_WRITE: IA32_A_PMCx (§18.2.6) */
#define PM_PERF_CAP_FW_WRITE (1ull << 13)

/* ---- the architectural events, Table 18-1, by their CPUID.0AH:EBX
 * bit, and what each counts in the oracle's terms (0: nothing the
 * single-step trace sees; why_not says why).  Instruction Retired counts
 * a REP string instruction once ("the retirement of the instruction",
 * not its iterations); Branch Instruction Retired counts branch
 * instructions at retirement, near and far; the core clock is the model
 * clock, the reference clock SEM_REF_PER_CLOCK per model cycle
 * (pmu/sem.h). */
enum pm_arch_event {
	PM_EV_CORE_CYCLES,	/* EBX bit 0: 3CH/00H */
	PM_EV_INSTRUCTIONS,	/* bit 1: C0H/00H */
	PM_EV_REF_CYCLES,	/* bit 2: 3CH/01H */
	PM_EV_LLC_REFERENCES,	/* bit 3: 2EH/4FH */
	PM_EV_LLC_MISSES,	/* bit 4: 2EH/41H */
	PM_EV_BRANCHES,		/* bit 5: C4H/00H */
	PM_EV_BRANCH_MISSES,	/* bit 6: C5H/00H */
	PM_EV_TOPDOWN_SLOTS,	/* bit 7: A4H/01H (§18.2.5) */
	PM_EV_NR
};

struct pm_event {
	const char *name;
	uint8_t event, umask;
	uint32_t sem;
	const char *why_not;
};

static const struct pm_event pm_events[PM_EV_NR] = {
	[PM_EV_CORE_CYCLES] = { .name = "UnHalted Core Cycles",
		.event = 0x3c, .umask = 0x00, .sem = SEM_BIT(SEM_CLOCKS) },
	[PM_EV_INSTRUCTIONS] = { .name = "Instruction Retired",
		.event = 0xc0, .umask = 0x00,
		.sem = SEM_BIT(SEM_INSTRUCTIONS) },
	[PM_EV_REF_CYCLES] = { .name = "UnHalted Reference Cycles",
		.event = 0x3c, .umask = 0x01,
		.sem = SEM_BIT(SEM_REF_CLOCKS) },
	[PM_EV_LLC_REFERENCES] = { .name = "LLC Reference", .event = 0x2e,
		.umask = 0x4f, .why_not = "the trace has no caches" },
	[PM_EV_LLC_MISSES] = { .name = "LLC Misses", .event = 0x2e,
		.umask = 0x41, .why_not = "the trace has no caches" },
	[PM_EV_BRANCHES] = { .name = "Branch Instruction Retired",
		.event = 0xc4, .umask = 0x00,
		.sem = SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR) },
	[PM_EV_BRANCH_MISSES] = { .name = "Branch Misses Retired",
		.event = 0xc5, .umask = 0x00,
		.why_not = "the trace has no branch predictor" },
	[PM_EV_TOPDOWN_SLOTS] = { .name = "Topdown Slots", .event = 0xa4,
		.umask = 0x01, .why_not = "the trace has no issue slots" },
};

/* Table 18-2 (FIXED_CTR3: §18.2.5): IA32_FIXED_CTR0 INST_RETIRED.ANY,
 * FIXED_CTR1 CPU_CLK_UNHALTED.THREAD (core cycles), FIXED_CTR2
 * CPU_CLK_UNHALTED.REF_TSC (reference cycles), FIXED_CTR3 TOPDOWN.SLOTS:
 * each the architectural event of the same meaning. */
static const enum pm_arch_event pm_fixed_counts[PM_MAX_FIXED] = {
	PM_EV_INSTRUCTIONS, PM_EV_CORE_CYCLES, PM_EV_REF_CYCLES,
	PM_EV_TOPDOWN_SLOTS,
};

/* The architectural event an event select / unit mask names, or NULL. */
static inline const struct pm_event *pm_event_for(unsigned event,
						  unsigned umask)
{
	for (unsigned i = 0; i < PM_EV_NR; i++)
		if (pm_events[i].event == event && pm_events[i].umask == umask)
			return &pm_events[i];
	return 0;
}

/* ---- CPUID.0AH as the SDM reads it */
struct pm_cpuid {
	uint32_t eax, ebx, ecx, edx;
};

struct pm_sdm {
	struct pm_cpuid k;
	unsigned version;		/* EAX[7:0] */
	unsigned gp, gp_width;		/* EAX[15:8], EAX[23:16] */
	unsigned ebx_len;		/* EAX[31:24]: EBX bits defined */
	unsigned n_fixed, fixed_width;	/* v2+: EDX[4:0], EDX[12:5] */
	unsigned fixed[PM_MAX_FIXED];	/* fixed counter i exists */
	unsigned globals;		/* v2+: GLOBAL_CTRL/STATUS/OVF_CTRL */
	unsigned v4;			/* STATUS_RESET/SET, INUSE, CTR_FRZ */
	unsigned any;			/* AnyThread may be set */
	unsigned any_deprecated;	/* v5: EDX[15] */
	uint64_t perf_caps;		/* IA32_PERF_CAPABILITIES, 0 without */
};

/*
 * v1: EDX is not defined; v2: EDX[4:0] fixed counters, the global
 * registers; v3: AnyThread (§18.2.3); v4: §18.2.4; v5 (§18.2.5): fixed
 * counter i exists when ECX[i] is set or EDX[4:0] > i, EDX[15]
 * deprecates AnyThread; ECX is reserved before v5.
 */
static inline struct pm_sdm pm_sdm_read(struct pm_cpuid k)
{
	struct pm_sdm s = { .k = k, .version = k.eax & 0xff,
			    .gp = k.eax >> 8 & 0xff,
			    .gp_width = k.eax >> 16 & 0xff,
			    .ebx_len = k.eax >> 24 };

	s.globals = s.version >= 2;
	s.v4 = s.version >= 4;
	if (s.globals) {
		s.n_fixed = k.edx & 0x1f;
		s.fixed_width = k.edx >> 5 & 0xff;
	}
	s.any_deprecated = s.version >= 5 && (k.edx >> 15 & 1);
	s.any = s.version >= 3 && !s.any_deprecated;
	for (unsigned i = 0; i < PM_MAX_FIXED; i++)
		s.fixed[i] = s.globals && (s.n_fixed > i ||
					   (s.version >= 5 && (k.ecx >> i & 1)));
	return s;
}

/* Is architectural event ev available: EBX bit clear, and within the
 * EAX[31:24] bits EBX defines (Table 18-1, CPUID leaf 0AH)? */
static inline int pm_event_available(const struct pm_sdm *s,
				     enum pm_arch_event ev)
{
	return (unsigned)ev < s->ebx_len && !(s->k.ebx >> ev & 1);
}

/* Why ev is unavailable, for a SKIP: names the bit. */
static inline void pm_skip_unavailable(struct tcase *t,
				       const struct pm_sdm *s,
				       enum pm_arch_event ev)
{
	if ((unsigned)ev >= s->ebx_len)
		skip(t, "%s unavailable: CPUID.0AH:EAX[31:24] = %u defines "
		     "no EBX bit %u", pm_events[ev].name, s->ebx_len, ev);
	else
		skip(t, "%s unavailable: CPUID.0AH:EBX[%u] = 1 (EBX 0x%x)",
		     pm_events[ev].name, ev, s->k.ebx);
}

/*
 * This CPU's CPUID.0AH registers: CPUID's where it reports a version,
 * else - under the model, whose CPU (QEMU TCG) reports none - those of
 * the capability row the model stands in for (the row is the machine
 * the model plays: what its CPUID would say; the reading is this
 * file's).  IA32_PERF_CAPABILITIES likewise.  0 when neither.
 */
static inline int pm_own_cpuid(struct pm_cpuid *k, uint64_t *perf_caps)
{
	const struct cpu_info *ci = cpu_info();
	const struct perfmon_caps_row *row;

	if (ci->arch_version) {
		*k = (struct pm_cpuid){ ci->arch_cpuid[0], ci->arch_cpuid[1],
					ci->arch_cpuid[2], ci->arch_cpuid[3] };
		*perf_caps = ci->perf_caps_valid ? ci->perf_caps : 0;
		return 1;
	}
	row = perfmon_caps_row_for(ci->sig.family, ci->sig.model);
	if (!row)
		return 0;
	*k = (struct pm_cpuid){ row->eax, row->ebx, row->ecx, row->edx };
	*perf_caps = row->has_perf_caps ? row->perf_caps : 0;
	return 1;
}

/* ---- PerfEvtSel as Figure 18-1 draws it. */
struct sdm_sel {
	unsigned event, umask, usr, os, e, pc, intr, any, en, inv, cmask;
};

static inline uint64_t sdm_sel(struct sdm_sel s)
{
	return (uint64_t)(s.event & 0xff) | (uint64_t)(s.umask & 0xff) << 8 |
	       (uint64_t)!!s.usr << 16 | (uint64_t)!!s.os << 17 |
	       (uint64_t)!!s.e << 18 | (uint64_t)!!s.pc << 19 |
	       (uint64_t)!!s.intr << 20 | (uint64_t)!!s.any << 21 |
	       (uint64_t)!!s.en << 22 | (uint64_t)!!s.inv << 23 |
	       (uint64_t)(s.cmask & 0xff) << 24;
}

static inline struct sdm_sel sdm_sel_of(uint64_t v)
{
	return (struct sdm_sel){ v & 0xff, v >> 8 & 0xff, v >> 16 & 1,
				 v >> 17 & 1, v >> 18 & 1, v >> 19 & 1,
				 v >> 20 & 1, v >> 21 & 1, v >> 22 & 1,
				 v >> 23 & 1, v >> 24 & 0xff };
}

/* Event select / unit mask of architectural event ev, USR only. */
static inline struct sdm_sel pm_sel_usr(enum pm_arch_event ev)
{
	return (struct sdm_sel){ .event = pm_events[ev].event,
				 .umask = pm_events[ev].umask, .usr = 1 };
}

/* OS: CPL 0; USR: CPL 1, 2 and 3 (§18.2.1.1; fixed: §18.2.2). */
static inline int sdm_counts_at(unsigned os, unsigned usr, int cpl)
{
	return cpl ? !!usr : !!os;
}

/* The same as a CPL set (pmu/driver.h's encoding, bit n: CPL n). */
static inline unsigned sdm_cpls(unsigned os, unsigned usr)
{
	return (os ? PMU_CPL(0) : 0) |
	       (usr ? PMU_CPL(1) | PMU_CPL(2) | PMU_CPL(3) : 0);
}

/* FIXED_CTR_CTRL field: bit 0 OS, bit 1 USR, bit 2 AnyThread, bit 3 PMI. */
#define SDM_FIX_OS 1u
#define SDM_FIX_USR 2u
#define SDM_FIX_ANY 4u
#define SDM_FIX_PMI 8u

/* The perfmon driver (perfmon_caps, the product's reading, for the bts/
 * tests that share this file), or SKIP. */
static inline const struct pmu_driver *
perfmon_ready(struct tcase *t, const struct perfmon_caps **c)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_ARCH);
	const char *why = 0;

	if (!d)
		return 0;
	/* a test that stood in for another PMU must have gone back */
	if (!check(t, !perfmon_caps_standing_in(), "a previous test left "
		   "the model standing in for another PMU")) {
		perfmon_caps_stand_in(0);
		return 0;
	}
	*c = perfmon_caps(&why);
	if (!*c) {
		skip(t, "no capabilities: %s", why);
		return 0;
	}
	return d;
}

/* The perfmon driver and this CPU's CPUID.0AH read by the SDM into *s,
 * or SKIP. */
static inline const struct pmu_driver *pm_ready(struct tcase *t,
						struct pm_sdm *s)
{
	const struct perfmon_caps *c;
	const struct pmu_driver *d = perfmon_ready(t, &c);
	struct pm_cpuid k = { 0, 0, 0, 0 };
	uint64_t pc = 0;

	if (!d)
		return 0;
	if (!check(t, pm_own_cpuid(&k, &pc), "the driver has capabilities "
		   "(%s) but CPUID.0AH reports no version and no row "
		   "stands in", c->source))
		return 0;
	*s = pm_sdm_read(k);
	s->perf_caps = pc;
	if (!check(t, s->version > 0 && s->gp > 0, "CPUID.0AH EAX 0x%08x: "
		   "version %u, %u GP counters", k.eax, s->version, s->gp))
		return 0;
	return d;
}

/* pm_ready(), with every architectural event of mask (bit: enum
 * pm_arch_event) available, or SKIP naming the first EBX bit that is
 * set. */
static inline const struct pmu_driver *
pm_ready_for(struct tcase *t, struct pm_sdm *s, unsigned mask)
{
	const struct pmu_driver *d = pm_ready(t, s);

	if (!d)
		return 0;
	for (unsigned ev = 0; ev < PM_EV_NR; ev++)
		if ((mask >> ev & 1) && !pm_event_available(s, ev)) {
			pm_skip_unavailable(t, s, ev);
			return 0;
		}
	return d;
}

#define PM_NEED(ev) (1u << (ev))

/* The driver's number of fixed counter i (its ops-table numbering). */
static inline unsigned pm_fixed_ctr(unsigned i)
{
	return perfmon_fixed_ctr(i);
}

static inline uint64_t pm_top(unsigned width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

/* What the trace's counts give an event per cycle: 1 for the model
 * clock, SEM_REF_PER_CLOCK for the reference clock, else 0 or 1. */
static inline unsigned sdm_per_step(uint32_t sem)
{
	if (sem == SEM_BIT(SEM_CLOCKS))
		return 1;
	if (sem == SEM_BIT(SEM_REF_CLOCKS))
		return SEM_REF_PER_CLOCK;
	return 0;
}

/* Is the event a clock (the machine's own on hardware)? */
static inline int pm_is_clock(uint32_t sem)
{
	return sem == SEM_BIT(SEM_CLOCKS) || sem == SEM_BIT(SEM_REF_CLOCKS);
}

/* The architectural event counter ctr's config in r names (this file's
 * tables), or NULL; its OS/USR bits and filter. */
static inline const struct pm_event *
pm_config_event(const struct pmu_run *r, unsigned ctr, unsigned *os,
		unsigned *usr, struct sdm_filter *f)
{
	struct sdm_sel s = sdm_sel_of(r->cfg[ctr].sel);
	unsigned i;

	*f = (struct sdm_filter){ 0, 0, 0 };
	if (perfmon_is_fixed(ctr, &i)) {
		*os = r->cfg[ctr].sel & SDM_FIX_OS;
		*usr = r->cfg[ctr].sel & SDM_FIX_USR;
		return i < PM_MAX_FIXED ? &pm_events[pm_fixed_counts[i]] : 0;
	}
	*os = s.os;
	*usr = s.usr;
	*f = (struct sdm_filter){ s.cmask, s.inv, s.e };
	return pm_event_for(s.event, s.umask);
}

/* Hardware's range for an event count (pmu_run.h); under
 * backend=emulated, Instruction Retired (C0H/00H, Table 18-1: every
 * instruction retired) counts at least the instructions the window traced
 * next to the benchmark at the counted CPLs (pmu_window_near). */
static inline struct pmu_expect pm_expect_window(const struct pmu_run *r,
						 const struct pm_event *ev,
						 uint64_t n, unsigned cpls)
{
	struct pmu_expect x = pmu_expect_window(n, cpls,
						pmu_run_counters(r));
	uint64_t near = pmu_window_near(cpls);

	if (ev == &pm_events[PM_EV_INSTRUCTIONS] && near) {
		x.lo = n + near;
		x.hi = x.hi < x.lo ? x.lo : x.hi;
	}
	return x;
}

/* No core retires more than this many instructions per cycle (the
 * bound the clock expectations below use too). */
#define PM_RETIRE_MAX 8

/*
 * CMASK/INV/E on hardware (evtsel_sdm.h's rule, per real cycle): the
 * oracle's per-step counts are per model cycle, one instruction each,
 * but silicon retires up to PM_RETIRE_MAX per cycle, and the counter
 * sees the driver's code too (pm_expect_window's allowance), so only
 * bounds hold.  With N the unfiltered event range (at most one event per
 * instruction): cycles with >= CMASK events: 0 (CMASK > 1) or
 * ceil(N.lo / PM_RETIRE_MAX) (CMASK <= 1) up to N.hi / CMASK; their
 * rising edges (E): 1 if any event (CMASK <= 1) up to as many; cycles
 * with fewer (INV): up to the core clocks' bound, 4 TSC spans.
 */
static inline struct pmu_expect pm_filtered_hw(const struct pmu_run *r,
					       const struct pm_event *ev,
					       struct sdm_filter f,
					       unsigned cpls)
{
	uint64_t all = sem_sum(ev->sem, r->oc.c[r->cpl]);
	struct pmu_expect u = pm_expect_window(r, ev, cpls & PMU_CPL(r->cpl) ?
					       all : 0, cpls);
	unsigned c = f.cmask ? f.cmask : 1;

	if (f.inv)
		return (struct pmu_expect){ 0, 4 * r->tsc_span + 1,
			"INV: cycles with fewer than CMASK events <= 4 TSC "
			"spans" };
	if (f.edge)
		return (struct pmu_expect){ c == 1 && u.lo ? 1 : 0, u.hi / c,
			"E: rising edges, 1 (an event) .. events / CMASK" };
	return (struct pmu_expect){ c == 1 ? (u.lo + PM_RETIRE_MAX - 1) /
				    PM_RETIRE_MAX : 0, u.hi / c,
		"CMASK: cycles with >= CMASK events, events/8 .. events / "
		"CMASK (<= 8 retire per cycle)" };
}

/*
 * What a counter should count in r: the oracle's count of its event
 * (Table 18-1/18-2 above) at the run's CPL when the config counts there,
 * through CMASK/INV/E by the SDM's rule (evtsel_sdm.h).  Exact on the
 * model.  On hardware: events as pmu_expect_events() says; clocks
 * between instructions/8 (no core retires more per cycle) and 4 TSC spans
 * (turbo above the TSC rate), reference clocks at most the TSC span (they
 * tick at or below the TSC rate).  *modelled: 0 when the model cannot
 * count the event (then no expectation).
 */
static inline struct pmu_expect pm_expect(const struct pmu_run *r,
					  unsigned ctr, int *modelled)
{
	struct sdm_filter f;
	unsigned os, usr;
	const struct pm_event *ev = pm_config_event(r, ctr, &os, &usr, &f);
	uint64_t n = 0;
	int exact = 1;

	*modelled = ev && ev->sem;
	if (!*modelled || !sdm_counts_at(os, usr, r->cpl))
		n = 0;
	else if (!f.cmask && !f.edge)
		n = sem_sum(ev->sem, r->oc.c[r->cpl]);
	else if (ev->sem & (ev->sem - 1))
		exact = 0;	/* a sum: the per-step count is not 0/1 */
	else
		n = sdm_filtered(&r->oc, r->cpl,
				 (enum sem)__builtin_ctz(ev->sem),
				 sdm_per_step(ev->sem), f, &exact);
	*modelled = *modelled && exact;
	if (pmu_on_model() || !*modelled)
		return (struct pmu_expect){ n, n, NULL };
	if (!pm_is_clock(ev->sem) && (f.cmask || f.edge))
		return pm_filtered_hw(r, ev, f, sdm_cpls(os, usr));
	if (pm_is_clock(ev->sem) && (os || usr)) {
		/* the benchmark's instructions, if it counts at their CPL */
		uint64_t ins = sdm_counts_at(os, usr, r->cpl) ?
			       r->oc.c[r->cpl][SEM_INSTRUCTIONS] : 0;

		if (ev->sem == SEM_BIT(SEM_REF_CLOCKS))
			return (struct pmu_expect){ 0, r->tsc_span,
				"reference clocks <= TSC span" };
		return (struct pmu_expect){ ins / 8, 4 * r->tsc_span + 1,
			"instructions/8 <= core clocks <= 4 TSC spans" };
	}
	return pm_expect_window(r, ev, n, sdm_cpls(os, usr));
}

static inline void pm_check(struct tcase *t, const struct pmu_driver *d,
			    const struct pmu_run *r, unsigned ctr)
{
	int modelled;
	struct pmu_expect x = pm_expect(r, ctr, &modelled);

	if (!modelled) {
		value(t, "not_modelled", "counter %u: read %llu, no "
		      "expectation", ctr, (unsigned long long)r->got[ctr]);
		return;
	}
	pmu_check_counter(t, d, r, ctr, &x);
}

/* A run of bench at cpl on counters 0..n-1 with the given configs. */
static inline void pm_setup(struct pmu_run *r, const char *label,
			    const char *bench, uint64_t n, int cpl)
{
	*r = (struct pmu_run){ .label = label, .bench = bench, .n = n,
			       .cpl = cpl, .idle = ~0u };
}

static inline void pm_add(struct pmu_run *r, unsigned ctr, uint64_t sel)
{
	r->cfg[ctr] = (struct pmu_config){ sel, 0 };
	r->idle &= ~(1u << ctr);
	if (ctr + 1 > r->n_ctrs)
		r->n_ctrs = ctr + 1;
}

/* The oracle's counts of bench at cpl, traced before any counter counts
 * (a test that presets a counter from the count it will see). */
static inline int pm_count_first(struct tcase *t, const char *bench,
				 uint64_t n, int cpl, struct oracle_counts *oc)
{
	const struct bench *b = bench_find(bench);
	struct fault f;

	return check(t, b != NULL, "no benchmark %s", bench) &&
	       need_bench_data(t, b) &&
	       check(t, oracle_run(b, n, cpl, oc, &f) == 0, "oracle run of "
		     "%s failed (vector %u)", bench, f.vector);
}

#endif
