/* Conformance suite of the NetBurst reference model (pmu/netburst/model.c):
 * the model is driven through its MSR interface alone (struct pmu_model:
 * reset, rdmsr, wrmsr, rdpmc, event; pmu/model.h), fed scripted
 * single-step events, without the driver.  Every expected value is
 * written here from the SDM - never from pmu/netburst/regs.c or events.c,
 * whose tables and functions (nb_escr_for, nb_cascade_from,
 * nb_cascade_legal, nb_cccr_filter, nb_escr_counts_at, nb_event_for, ...)
 * are what is under test behind the model.
 *
 * Citations: Intel SDM Vol. 3B, order no. 253669-060US:
 *   §18.15.1 / Figure 18-45 and §18.16.1 / Figure 18-47, the ESCR: T1_USR
 *     0, T1_OS 1, T0_USR 2, T0_OS 3 (without HT bit 2 USR, bit 3 OS, bits
 *     1:0 reserved), event mask 24:9, event select 30:25, bit 31 and
 *     63:32 reserved; "T0_OS ... counted when thread 0 ... is executing at
 *     CPL of 0", "T0_USR ... at a CPL of 1, 2, or 3", T1_* likewise for
 *     thread 1;
 *   §18.15.2, the counters are 40 bits; Table 18-63 "Performance Counter
 *     MSRs and Associated CCCR and ESCR MSRs": counter n at 0x300 + n,
 *     its CCCR at 0x360 + n, and per CCCR ESCR-select value the ESCR
 *     (written out below for the ESCRs used);
 *   §18.15.3 / Figure 18-46 and §18.16.2 / Figure 18-48, the CCCR: bit 11
 *     extended cascade (§18.15.5.7), 12 enable ("when clear, the counter
 *     is disabled"), 15:13 ESCR select ("identifies the ESCR to be used
 *     to select events to be counted with the counter"), 17:16 active
 *     thread, 18 compare, 19 complement ("event counts that are less
 *     than or equal to the threshold value result in a single count ...;
 *     when clear, counts greater than the threshold value result in a
 *     count"; "not active unless the compare flag is set"), 23:20
 *     threshold ("not active unless the compare flag is set"), 24 edge
 *     ("rising edge (false-to-true) edge detection of the threshold
 *     comparison output"; "active only when the compare flag is set"), 25
 *     FORCE_OVF ("forces a counter overflow on every counter increment"),
 *     26 OVF_PMI_T0 (without HT: OVF_PMI), 27 OVF_PMI_T1 (HT only, else
 *     reserved): "the PMI is generated on the next event count after the
 *     counter has overflowed", 30 cascade, 31 OVF ("a sticky flag that
 *     must be explicitly cleared by software"); bits 10:0, 29:28 and
 *     63:32 reserved;
 *   §18.15.5.5 halting: "To halt a cascaded counter ..., either clear the
 *     Cascade flag in the cascaded counter's CCCR MSR or clear the OVF
 *     flag in the alternate counter's CCCR MSR";
 *   §18.15.5.6 cascading: "Counters 0 and 2 can be cascaded in any order,
 *     as can counters 1 and 3 ... The pairing described also applies to
 *     subsequent blocks ... In the IQ block, counter 16 can only be
 *     cascaded from counter 14 (not from 12); counter 14 cannot be
 *     cascaded from counter 16 ... Similar restrictions apply to counter
 *     17" - the cascade flag "enables counting on one counter of a
 *     counter pair when its alternate counter in the other the counter
 *     pair in the same counter group overflows";
 *   §18.15.5.7 extended cascading: CCCR bit 11 on MSR_IQ_CCCR0/3/4/5
 *     (counters 12, 15, 16, 17) of DisplayFamily_DisplayModel 0F_02,
 *     0F_03, 0F_04, 0F_06; and the erratum "performance counters do not
 *     generate PMI in cascade mode or extended cascade mode" on 0F_02, and
 *     on 0F_00/0F_01 with stepping above 09H;
 *   Vol. 3A §10.5.1: on the Pentium 4 and Xeon processors the LVT
 *     performance counter entry's mask bit is set when the counter's
 *     interrupt is delivered;
 *   the Chapter 19 NetBurst event tables ("Performance Monitoring Events
 *     For Intel NetBurst Microarchitecture for Non-Retirement Counting"
 *     and "... for At-Retirement Counting") for the events below.
 *
 * The steps: every step fed is one retired, not-taken conditional near
 * jump (a Jcc), one model clock each (pmu/model.h: the model clock
 * advances one cycle per step), unless a test says otherwise.  One event
 * per block counts such steps (EVENTS below).  Hyper-Threading: a step is
 * thread 1's when the stub says so (stub_model.c).
 *
 * Stubs: cpu_info() returns a signature the test sets; trap_set_hook()
 * does nothing; stub_model.c links the model and answers model_for() with
 * it, counts the PMIs and says whose step is fed. */
#include <stdio.h>
#include <string.h>

#include "pmu/model.h"
#include "pmu/detect.h"
#include "arch/x86/trace.h"
#include "arch/x86/trap.h"
#include "tests/host/pmu/netburst/stub_model.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/host/arch/x86/dec_flags.h"

/* host-sources: tests/host/pmu/netburst/stub_model.c pmu/model.c pmu/noise.c pmu/netburst/regs.c pmu/netburst/events.c pmu/sem.c pmu/lbr_model.c pmu/lbr.c tests/host/pmu/stub_pmu_access.c pmu/cpu_model.c lib/fmt.c lib/string.c pmu/emufault.c lib/escape.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define CTRS 18
#define TOP (1ull << 40)		/* §18.15.2: 40-bit counters */
#define GP 13
#define CTR(n) (0x300u + (n))
#define CCCR(n) (0x360u + (n))

/* ESCR, Figures 18-45 / 18-47 */
#define T1_USR (1ull << 0)
#define T1_OS (1ull << 1)
#define T0_USR (1ull << 2)		/* without HT: USR */
#define T0_OS (1ull << 3)		/* without HT: OS */
#define EMASK(m) ((uint64_t)(m) << 9)
#define EVSEL(e) ((uint64_t)(e) << 25)

/* CCCR, Figures 18-46 / 18-48 */
#define EXT_CASCADE (1ull << 11)
#define ENABLE (1ull << 12)
#define SEL(s) ((uint64_t)(s) << 13)
#define ACTIVE(a) ((uint64_t)(a) << 16)
#define ANY ACTIVE(3)			/* "must be set to 11B" without HT */
#define COMPARE (1ull << 18)
#define COMPLEMENT (1ull << 19)
#define THRESHOLD(t) ((uint64_t)(t) << 20)
#define EDGE (1ull << 24)
#define FORCE_OVF (1ull << 25)
#define OVF_PMI_T0 (1ull << 26)
#define OVF_PMI_T1 (1ull << 27)
#define CASCADE (1ull << 30)
#define OVF (1ull << 31)

/* ---- one event per block that counts the steps fed here ------------
 * Block (§18.15.2): BPU 0-3, MS 4-7, FLAME 8-11, IQ 12-17.  ESCR0 of a
 * pair feeds counters 0, 1, 4, 5, 8, 9, 12, 13, 16; ESCR1 the others
 * (Table 18-63).
 *   BPU:   global_power_events, event select 13H, RUNNING (bit 0): the
 *          clocks the processor is not halted - one per step; FSB_ESCR0
 *          0x3A2 / FSB_ESCR1 0x3A3, CCCR ESCR select 06H;
 *   MS:    retired_branch_type, event select 04H, CONDITIONAL (bit 1):
 *          retired conditional jumps - one per step; TBPU_ESCR0 0x3C2 /
 *          0x3C3, select 02H;
 *   FLAME: x87_FP_uop, event select 04H, ALL (bit 15): x87 uops - none in
 *          a Jcc, so with COMPARE, COMPLEMENT and threshold 0 (0 <= 0)
 *          one per step; FIRM_ESCR0 0x3A4 / 0x3A5, select 01H;
 *   IQ:    instr_retired, event select 02H, NBOGUSNTAG (bit 0): non-bogus
 *          untagged instructions retired - one per step; CRU_ESCR0 0x3B8
 *          / CRU_ESCR1 0x3B9, select 04H. */
struct block_event {
	uint32_t escr[2];		/* the ESCR0 / ESCR1 MSR */
	uint64_t escr_val;		/* without the T0/T1 flags */
	uint64_t cccr;			/* select and filter, no ENABLE */
	int counts_zero;		/* counts clocks where it is 0 */
};

static const struct block_event EVENTS[4] = {
	{ { 0x3a2, 0x3a3 }, EVSEL(0x13) | EMASK(1u << 0), SEL(6) | ANY, 0 },
	{ { 0x3c2, 0x3c3 }, EVSEL(0x04) | EMASK(1u << 1), SEL(2) | ANY, 0 },
	{ { 0x3a4, 0x3a5 }, EVSEL(0x04) | EMASK(1u << 15),
	  SEL(1) | ANY | COMPARE | COMPLEMENT | THRESHOLD(0), 1 },
	{ { 0x3b8, 0x3b9 }, EVSEL(0x02) | EMASK(1u << 0), SEL(4) | ANY, 0 },
};

static unsigned block_of(unsigned c)
{
	return c <= 3 ? 0 : c <= 7 ? 1 : c <= 11 ? 2 : 3;
}

/* 0: the counter takes an ESCR0, 1: an ESCR1 (Table 18-63). */
static unsigned half_of(unsigned c)
{
	static const unsigned char h[CTRS] = {
		0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 1,
	};

	return h[c];
}

/* ---- stubs ------------------------------------------------------------ */

static struct cpu_info fake_cpu;

const struct cpu_info *cpu_info(void)
{
	return &fake_cpu;
}

void trap_set_hook(unsigned vector, trap_hook_fn fn)
{
	(void)vector;
	(void)fn;
}

static const struct pmu_model *nbm;

/* A fresh family 15 CPU of this model and stepping, with Hyper-Threading
 * (CPUID.01H:EDX.HTT, EBX[23:16] = 2) or without, the model live. */
static void start_cpu(unsigned model, unsigned stepping, int ht)
{
	memset(&fake_cpu, 0, sizeof(fake_cpu));
	memcpy(fake_cpu.vendor_id, "GenuineIntel", 13);
	fake_cpu.vendor = VENDOR_INTEL;
	fake_cpu.sig.family = 15;
	fake_cpu.sig.model = model;
	fake_cpu.sig.stepping = stepping;
	fake_cpu.pmu = PMU_NETBURST;
	fake_cpu.counters = CTRS;
	fake_cpu.width = 40;
	if (ht) {
		fake_cpu.f1_edx = 1u << 28;
		fake_cpu.f1_ebx = 2u << 16;
	}
	nbm = model_for(PMU_NETBURST);
	assert_non_null(nbm);
	model_activate(nbm);
	memset(&stub_pmi, 0, sizeof(stub_pmi));
	stub_sibling = 0;
	stub_sibling_spinning = 0;
}

/* Model 3 (0F_03): no HT, no cascade-PMI erratum. */
static void start(void)
{
	start_cpu(3, 4, 0);
}

static uint64_t rd(uint32_t msr)
{
	uint64_t v = 0xdeadbeefull;

	assert_int_equal(nbm->rdmsr(msr, &v), 0);
	return v;
}

static void wr(uint32_t msr, uint64_t v)
{
	assert_int_equal(nbm->wrmsr(msr, v), 0);
}

static void wr_gp(uint32_t msr, uint64_t v)
{
	assert_int_equal(nbm->wrmsr(msr, v), GP);
}

/* n steps at cpl on thread (0, or 1: the sibling) of one retired,
 * not-taken Jcc; retired = 0 makes them steps that retire nothing (a
 * REP iteration that is not the last). */
static void feed_on(unsigned thread, unsigned cpl, unsigned n, int retired)
{
	struct insn_event e = { .cpl = (uint8_t)cpl,
				.retired = (uint8_t)retired,
				.flags = retired ? BR | CND : 0 };

	stub_sibling = (int)thread;
	for (unsigned i = 0; i < n; i++)
		model_feed(&e, NULL);
	stub_sibling = 0;
}

static void feed(unsigned n)
{
	feed_on(0, 3, n, 1);
}

/* Counter c counts its block's event (thread 0 at CPL 3, without HT:
 * USR) with extra CCCR bits; the ESCR is written first. */
static void program(unsigned c, uint64_t cccr_bits)
{
	const struct block_event *b = &EVENTS[block_of(c)];

	wr(b->escr[half_of(c)], b->escr_val | T0_USR);
	wr(CCCR(c), b->cccr | cccr_bits);
}

/* ==== ESCR select: a counter counts its ESCR's event only when the CCCR
 * selects that ESCR and ENABLE is set (§18.15.3, Table 18-63) ========= */

static void test_counts_with_enable_and_select(void **state)
{
	(void)state;
	for (unsigned c = 0; c < CTRS; c++) {
		start();
		program(c, ENABLE);
		feed(5);
		assert_int_equal(rd(CTR(c)), 5);
		/* ENABLE clear: "the counter is disabled" */
		start();
		program(c, 0);
		feed(5);
		assert_int_equal(rd(CTR(c)), 0);
	}
}

/* The ESCR of the other half of the block (the one Table 18-63 does not
 * give this counter for this select) programmed instead: nothing.  Not
 * for the FLAME block, whose event counts the clocks an ESCR delivers 0
 * in, as an ESCR that is not there does. */
static void test_other_half_escr_not_counted(void **state)
{
	(void)state;
	for (unsigned c = 0; c < CTRS; c++) {
		const struct block_event *b = &EVENTS[block_of(c)];

		if (b->counts_zero)
			continue;
		start();
		wr(b->escr[!half_of(c)], b->escr_val | T0_USR);
		wr(CCCR(c), b->cccr | ENABLE);
		feed(5);
		assert_int_equal(rd(CTR(c)), 0);
	}
}

/* The right ESCR programmed, but the CCCR selects another ESCR of the
 * block (or none): nothing.  Per block a select that names another ESCR
 * or none (Table 18-63): BPU 0 (BPU_ESCR), MS 3 (none), IQ 5 (CRU_ESCR2/
 * 3), and for the IQ also 6 (CRU_ESCR4/5) and 7 (none). */
static void test_other_select_not_counted(void **state)
{
	static const struct {
		unsigned block, sel;
	} other[] = { { 0, 0 }, { 0, 7 }, { 1, 0 }, { 1, 3 }, { 1, 7 },
		      { 3, 5 }, { 3, 6 }, { 3, 7 }, { 3, 2 } };

	(void)state;
	for (unsigned c = 0; c < CTRS; c++) {
		for (unsigned i = 0; i < N(other); i++) {
			const struct block_event *b = &EVENTS[block_of(c)];

			if (other[i].block != block_of(c))
				continue;
			start();
			wr(b->escr[half_of(c)], b->escr_val | T0_USR);
			wr(CCCR(c), SEL(other[i].sel) | ANY | ENABLE);
			feed(5);
			assert_int_equal(rd(CTR(c)), 0);
		}
	}
}

/* branch_retired (CRU_ESCR2 0x3CC / CRU_ESCR3 0x3CD, select 05H, event
 * select 06H, MMNP bit 0: not-taken predicted branches) and
 * instr_retired (CRU_ESCR0/1, select 04H) programmed at once: select 05H
 * counts the branches, 04H the instructions.  Steps: 3 Jcc, 4 that
 * retire no branch (a REP iteration that retires nothing: 0 of both). */
static void test_select_picks_the_escr(void **state)
{
	(void)state;
	for (unsigned c = 12; c < CTRS; c++) {
		uint32_t cru01 = half_of(c) ? 0x3b9 : 0x3b8;
		uint32_t cru23 = half_of(c) ? 0x3cd : 0x3cc;
		struct insn_event plain = { .cpl = 3, .retired = 1 };

		for (unsigned sel = 4; sel <= 5; sel++) {
			start();
			wr(cru01, EVSEL(0x02) | EMASK(1u << 0) | T0_USR);
			wr(cru23, EVSEL(0x06) | EMASK(1u << 0) | T0_USR);
			wr(CCCR(c), SEL(sel) | ANY | ENABLE);
			feed(3);
			/* 4 plain retired instructions, no branch */
			for (unsigned i = 0; i < 4; i++)
				model_feed(&plain, NULL);
			assert_int_equal(rd(CTR(c)), sel == 4 ? 7 : 3);
		}
	}
}

/* ==== T0/T1 OS/USR at each CPL (§18.16.1, Figure 18-47) ============ */

/* With HT (model 4): every combination of the four flags, on either
 * thread, at CPL 0-3: counts exactly when the executing thread's OS
 * (CPL 0) or USR (CPL 1-3) flag is set. */
static void test_thread_flags_ht(void **state)
{
	(void)state;
	for (unsigned flags = 0; flags < 16; flags++) {
		for (unsigned thread = 0; thread < 2; thread++) {
			for (unsigned cpl = 0; cpl < 4; cpl++) {
				uint64_t os = thread ? T1_OS : T0_OS;
				uint64_t usr = thread ? T1_USR : T0_USR;
				int want = !!(flags & (cpl ? usr : os));

				start_cpu(4, 1, 1);
				wr(0x3b8, EVSEL(0x02) | EMASK(1u << 0) | flags);
				wr(CCCR(12), SEL(4) | ANY | ENABLE);
				feed_on(thread, cpl, 3, 1);
				assert_int_equal(rd(CTR(12)), want ? 3 : 0);
			}
		}
	}
}

/* Without HT: bit 3 OS (CPL 0), bit 2 USR (CPL 1-3); bits 1:0 reserved
 * (#GP). */
static void test_os_usr_no_ht(void **state)
{
	(void)state;
	for (unsigned flags = 0; flags < 4; flags++) {
		for (unsigned cpl = 0; cpl < 4; cpl++) {
			uint64_t escr = EVSEL(0x02) | EMASK(1u << 0) |
					(uint64_t)flags << 2;
			int want = cpl ? flags & 1 : flags >> 1 & 1;

			start();
			wr(0x3b8, escr);
			wr(CCCR(12), SEL(4) | ANY | ENABLE);
			feed_on(0, cpl, 3, 1);
			assert_int_equal(rd(CTR(12)), want ? 3 : 0);
		}
	}
	start();
	wr_gp(0x3b8, EVSEL(0x02) | EMASK(1u << 0) | T1_USR);
	wr_gp(0x3b8, EVSEL(0x02) | EMASK(1u << 0) | T1_OS);
	wr_gp(0x3b8, EVSEL(0x02) | (1ull << 31));
	wr_gp(CCCR(12), SEL(4) | ANY | OVF_PMI_T1);
}

/* ==== compare, complement, threshold, edge (§18.15.3) ================ */

/* instr_retired on counter 12 over 12 clocks whose event counts are
 * 0 1 1 0 1 0 0 1 1 1 0 1 (1: a retired Jcc, 0: a step that retires
 * nothing): 7 instructions in 7 clocks with a count above 0, 5 with 0,
 * none above 1; the comparison "above 0" turns from false to true at
 * clocks 1, 4 and 7 and 11: 4 rising edges (the first clock's count is 0,
 * so the edge detector's state before it does not matter). */
static const uint8_t PATTERN[12] = { 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1 };

static uint64_t run_pattern(uint64_t filter)
{
	start();
	wr(0x3b8, EVSEL(0x02) | EMASK(1u << 0) | T0_USR);
	wr(CCCR(12), SEL(4) | ANY | ENABLE | filter);
	for (unsigned i = 0; i < N(PATTERN); i++)
		feed_on(0, 3, 1, PATTERN[i]);
	return rd(CTR(12));
}

static void test_compare_complement_threshold_edge(void **state)
{
	static const struct {
		uint64_t filter, want;
	} cases[] = {
		/* no COMPARE: the event count itself */
		{ 0, 7 },
		/* complement, threshold and edge inactive without COMPARE */
		{ COMPLEMENT, 7 },
		{ THRESHOLD(5), 7 },
		{ EDGE, 7 },
		{ COMPLEMENT | THRESHOLD(1) | EDGE, 7 },
		/* COMPARE: one count per clock whose count > threshold */
		{ COMPARE | THRESHOLD(0), 7 },
		{ COMPARE | THRESHOLD(1), 0 },
		{ COMPARE | THRESHOLD(15), 0 },
		/* COMPLEMENT: count <= threshold */
		{ COMPARE | COMPLEMENT | THRESHOLD(0), 5 },
		{ COMPARE | COMPLEMENT | THRESHOLD(1), 12 },
		/* EDGE: rising edges of "count > 0" */
		{ COMPARE | THRESHOLD(0) | EDGE, 4 },
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		uint64_t got = run_pattern(cases[i].filter);

		if (got != cases[i].want)
			fail_msg("CCCR filter 0x%llx: counted %llu, the SDM "
				 "gives %llu", (unsigned long long)
				 cases[i].filter, (unsigned long long)got,
				 (unsigned long long)cases[i].want);
	}
}

/* ==== overflow at 40 bits, OVF, FORCE_OVF (§18.15.2-3) ============== */

static void test_overflow_at_40_bits(void **state)
{
	(void)state;
	for (unsigned c = 0; c < CTRS; c++) {
		/* 2^40 - 5 + 4 = 2^40 - 1: no overflow yet */
		start();
		wr(CTR(c), TOP - 5);
		program(c, ENABLE);
		feed(4);
		assert_int_equal(rd(CTR(c)), TOP - 1);
		assert_int_equal(rd(CCCR(c)) & OVF, 0);
		/* one more: wraps to 0, OVF set */
		feed(1);
		assert_int_equal(rd(CTR(c)), 0);
		assert_int_equal(rd(CCCR(c)) & OVF, OVF);
		/* OVF is sticky: further counts leave it set */
		feed(3);
		assert_int_equal(rd(CTR(c)), 3);
		assert_int_equal(rd(CCCR(c)) & OVF, OVF);
		/* cleared by software writing the CCCR with OVF clear */
		wr(CCCR(c), rd(CCCR(c)) & ~OVF);
		feed(1);
		assert_int_equal(rd(CCCR(c)) & OVF, 0);
		assert_int_equal(rd(CTR(c)), 4);
	}
}

static void test_counter_width(void **state)
{
	uint64_t v = 0;

	(void)state;
	start();
	/* 40 bits; a write's bits 63:40 are ignored, no #GP: oprofile
	 * (op_model_p4.c) and perfctr wrote reset values as -(u32)count with
	 * EDX = -1 on real Pentium 4s */
	wr(CTR(12), TOP - 1);
	assert_int_equal(rd(CTR(12)), TOP - 1);
	wr(CTR(12), 0xfffffffffffffff0ull);
	assert_int_equal(rd(CTR(12)), 0xfffffffff0ull);
	wr(CTR(12), TOP | 5);
	assert_int_equal(rd(CTR(12)), 5);
	/* RDPMC (Vol. 2B): ECX = counter, bit 31 the 32-bit "fast" read */
	wr(CTR(12), 0x12345678abull);
	assert_int_equal(nbm->rdpmc(12, &v), 0);
	assert_int_equal(v, 0x12345678abull);
	assert_int_equal(nbm->rdpmc(12 | 1u << 31, &v), 0);
	assert_int_equal(v, 0x345678abull);
	assert_int_equal(nbm->rdpmc(18, &v), GP);
}

static void test_force_ovf(void **state)
{
	(void)state;
	start();
	program(12, ENABLE | FORCE_OVF);
	feed(1);
	/* no wrap, but "a counter overflow on every counter increment" */
	assert_int_equal(rd(CTR(12)), 1);
	assert_int_equal(rd(CCCR(12)) & OVF, OVF);
	/* with OVF cleared, the next increment sets it again */
	wr(CCCR(12), rd(CCCR(12)) & ~OVF);
	feed(1);
	assert_int_equal(rd(CCCR(12)) & OVF, OVF);
}

/* ==== OVF_PMI (§18.15.3, §18.16.2) ================================= */

/* "The PMI is generated on the next event count after the counter has
 * overflowed"; the LVTPC is masked on delivery (Vol. 3A §10.5.1). */
static void test_ovf_pmi_next_count(void **state)
{
	(void)state;
	for (unsigned c = 0; c < CTRS; c++) {
		start();
		wr(CTR(c), TOP - 2);
		program(c, ENABLE | OVF_PMI_T0);
		feed(2);	/* 2^40 - 1, then the wrap to 0 */
		assert_int_equal(rd(CCCR(c)) & OVF, OVF);
		assert_int_equal(stub_pmi.calls, 0);
		feed(1);	/* the next event count */
		assert_int_equal(stub_pmi.calls, 1);
		assert_int_equal(stub_pmi.mask_after, 1);
		feed(5);	/* one PMI per overflow */
		assert_int_equal(stub_pmi.calls, 1);
		/* OVF_PMI clear: an overflow raises none */
		start();
		wr(CTR(c), TOP - 1);
		program(c, ENABLE);
		feed(4);
		assert_int_equal(rd(CCCR(c)) & OVF, OVF);
		assert_int_equal(stub_pmi.calls, 0);
	}
	/* clocks without an event count (steps retiring nothing, for
	 * instr_retired) are no "next event count": no PMI until one */
	start();
	wr(CTR(12), TOP - 1);
	program(12, ENABLE | OVF_PMI_T0);
	feed(1);
	feed_on(0, 3, 4, 0);
	assert_int_equal(stub_pmi.calls, 0);
	feed(1);
	assert_int_equal(stub_pmi.calls, 1);
}

/* The PMI request is a level: "the NMI line will continue to be asserted
 * while the OVF bit is set.  This causes a second NMI to generate if the
 * LVTPC is unmasked before the OVF bit is cleared" (Linux
 * arch/x86/events/intel/p4.c, p4_pmu_handle_irq(), observed on Pentium 4
 * hardware); the SDM agrees as far as it goes: OVF is "a sticky flag that
 * must be explicitly cleared by software" (§18.15.3) and the service
 * routine must clear the LVTPC mask the delivery set (§18.15.5.8, Vol. 3A
 * §10.5.1).  So: one PMI, the LVTPC masked; unmasked with OVF still set,
 * a second one at the next clock - even with the counter stopped; OVF
 * cleared first, none. */
static void test_ovf_pmi_level(void **state)
{
	(void)state;
	start();
	wr(CTR(12), TOP - 1);
	program(12, ENABLE | OVF_PMI_T0);
	feed(2);
	assert_int_equal(stub_pmi.calls, 1);
	assert_int_equal(stub_pmi.masked, 1);
	feed(3);			/* masked: held back */
	assert_int_equal(stub_pmi.calls, 1);
	stub_pmi.masked = 0;		/* the handler unmasks, OVF set */
	feed(1);
	if (stub_pmi.calls != 2)
		fail_msg("LVTPC unmasked with OVF set: %u PMIs, expected 2 "
			 "(the request stays asserted while OVF is set)",
			 stub_pmi.calls);
	/* stopped (ENABLE clear), OVF still set: still asserted */
	wr(CCCR(12), (rd(CCCR(12)) & ~ENABLE) | OVF);
	stub_pmi.masked = 0;
	feed(1);
	assert_int_equal(stub_pmi.calls, 3);
	/* OVF cleared before the unmask: nothing more */
	wr(CCCR(12), rd(CCCR(12)) & ~OVF);
	stub_pmi.masked = 0;
	feed(4);
	assert_int_equal(stub_pmi.calls, 3);
	/* a PMI not yet raised (before the next count) is no level */
	start();
	wr(CTR(12), TOP - 1);
	program(12, ENABLE | OVF_PMI_T0);
	feed_on(0, 3, 1, 1);		/* the overflow */
	feed_on(0, 3, 3, 0);		/* no count: nothing raised yet */
	assert_int_equal(stub_pmi.calls, 0);
}

/* With HT (model 4): OVF_PMI_T0 interrupts logical processor 0,
 * OVF_PMI_T1 logical processor 1 - never the other one.  The counter
 * counts both threads' instructions (T0_USR | T1_USR). */
static void ht_pmi(uint64_t pmi_bits, unsigned next_thread, unsigned want)
{
	start_cpu(4, 1, 1);
	wr(0x3b8, EVSEL(0x02) | EMASK(1u << 0) | T0_USR | T1_USR);
	wr(CTR(12), TOP - 1);
	wr(CCCR(12), SEL(4) | ANY | ENABLE | pmi_bits);
	feed_on(0, 3, 1, 1);		/* the overflow */
	assert_int_equal(rd(CCCR(12)) & OVF, OVF);
	feed_on(next_thread, 3, 1, 1);	/* the next count */
	if (stub_pmi.calls != want)
		fail_msg("OVF_PMI bits 0x%llx, next count on thread %u: %u "
			 "PMIs on that thread, expected %u",
			 (unsigned long long)pmi_bits, next_thread,
			 stub_pmi.calls, want);
}

/* Which logical processor is thread 0 is the APIC ID's SMT bit, not
 * "the bootstrap processor": T0/T1 name logical processors 0/1 (§18.16.1,
 * "See also: Section 8.4.5, Identifying Logical Processors"); with two
 * logical processors per package (CPUID.01H:EBX[23:16] = 2) the lowest
 * bit of the initial APIC ID, CPUID.01H:EBX[31:24], is the SMT ID (Vol.
 * 3A §8.4.5, §8.9).  A BSP with APIC ID 1 is logical processor 1: its
 * steps are counted by T1_USR, not T0_USR, and OVF_PMI_T1 interrupts it;
 * the sibling (APIC ID 0) is logical processor 0. */
static void test_bsp_is_thread_1(void **state)
{
	(void)state;
	start_cpu(4, 1, 1);
	fake_cpu.f1_ebx |= 1u << 24;		/* initial APIC ID 1 */
	model_activate(nbm);
	wr(0x3b8, EVSEL(0x02) | EMASK(1u << 0) | T1_USR);	/* CRU_ESCR0 */
	wr(0x3b9, EVSEL(0x02) | EMASK(1u << 0) | T0_USR);	/* CRU_ESCR1 */
	wr(CCCR(12), SEL(4) | ANY | ENABLE);
	wr(CCCR(14), SEL(4) | ANY | ENABLE);
	feed_on(0, 3, 5, 1);			/* the BSP's steps */
	feed_on(1, 3, 2, 1);			/* the sibling's */
	if (rd(CTR(12)) != 5 || rd(CTR(14)) != 2)
		fail_msg("BSP with APIC ID 1: T1_USR counted %llu (expected "
			 "the BSP's 5), T0_USR %llu (expected the sibling's "
			 "2)", (unsigned long long)rd(CTR(12)),
			 (unsigned long long)rd(CTR(14)));
	/* OVF_PMI_T1: the BSP's PMI */
	wr(CTR(12), TOP - 1);
	wr(CCCR(12), SEL(4) | ANY | ENABLE | OVF_PMI_T1);
	feed_on(0, 3, 2, 1);
	assert_int_equal(stub_pmi.calls, 1);
}

/* The active-thread field (§18.16.2, Figure 18-48: 00 none, 01 exactly
 * one, 10 both, 11 at least one logical processor active; a halted one
 * is inactive): what counts is how many
 * processors are active, not whose step it is.  Model 4 with HT; the BSP
 * is logical processor 0.  Counter 12 counts both threads' CPL 3
 * instructions (T0_USR | T1_USR) with the field under test. */
static uint64_t active_count(unsigned field, unsigned thread, int spinning)
{
	start_cpu(4, 1, 1);
	wr(0x3b8, EVSEL(0x02) | EMASK(1u << 0) | T0_USR | T1_USR);
	wr(CCCR(12), SEL(4) | ACTIVE(field) | ENABLE);
	stub_sibling_spinning = spinning;
	feed_on(thread, 3, 5, 1);
	stub_sibling_spinning = 0;
	return rd(CTR(12));
}

static void test_active_thread(void **state)
{
	static const struct {
		unsigned thread;	/* 0: the BSP's steps, 1: sibling's */
		int spinning;		/* the sibling spins meanwhile */
		unsigned active;	/* processors active */
	} cases[] = {
		{ 0, 0, 1 },	/* BSP runs, sibling halted */
		{ 0, 1, 2 },	/* BSP runs, sibling spins */
		{ 1, 0, 2 },	/* sibling runs, the BSP waits (executes) */
	};
	static const unsigned counts_with[4][3] = {
		/* active:  0  1  2 */
		[0] = { 1, 0, 0 },	/* 00: none */
		[1] = { 0, 1, 0 },	/* 01: exactly one */
		[2] = { 0, 0, 1 },	/* 10: both */
		[3] = { 0, 1, 1 },	/* 11: at least one */
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		for (unsigned f = 0; f < 4; f++) {
			uint64_t want = counts_with[f][cases[i].active] ? 5 : 0;
			uint64_t got = active_count(f, cases[i].thread,
						    cases[i].spinning);

			if (got != want)
				fail_msg("active thread %u%u, steps of %s, "
					 "sibling %s: %llu, expected %llu",
					 f >> 1, f & 1, cases[i].thread ?
					 "the sibling" : "the BSP",
					 cases[i].spinning ? "spinning" :
					 "halted", (unsigned long long)got,
					 (unsigned long long)want);
		}
	}
}

static void test_ovf_pmi_threads(void **state)
{
	(void)state;
	ht_pmi(OVF_PMI_T0, 0, 1);
	ht_pmi(OVF_PMI_T0, 1, 0);
	ht_pmi(OVF_PMI_T1, 1, 1);
	ht_pmi(OVF_PMI_T1, 0, 0);
	ht_pmi(OVF_PMI_T0 | OVF_PMI_T1, 0, 1);
	ht_pmi(OVF_PMI_T0 | OVF_PMI_T1, 1, 1);
	ht_pmi(0, 0, 0);
	ht_pmi(0, 1, 0);
}

/* ==== cascading (§18.15.5.6) ======================================== */

/* The legal cascades, from -> to, restated from §18.15.5.6: n and n + 2
 * in either order in each block of four (0/2, 1/3, 4/6, 5/7, 8/10, 9/11,
 * and in the IQ block 12/14, 13/15); 16 only from 14, 17 only from 15. */
static const struct {
	unsigned from, to;
} LEGAL[] = {
	{ 0, 2 }, { 2, 0 }, { 1, 3 }, { 3, 1 },
	{ 4, 6 }, { 6, 4 }, { 5, 7 }, { 7, 5 },
	{ 8, 10 }, { 10, 8 }, { 9, 11 }, { 11, 9 },
	{ 12, 14 }, { 14, 12 }, { 13, 15 }, { 15, 13 },
	{ 14, 16 }, { 15, 17 },
};

static int legal(unsigned from, unsigned to)
{
	for (unsigned i = 0; i < N(LEGAL); i++)
		if (LEGAL[i].from == from && LEGAL[i].to == to)
			return 1;
	return 0;
}

#define K 3	/* from starts K counts below the wrap */

/* from counts from 2^40 - K; to has CASCADE set, ENABLE clear. */
static void cascade_setup(unsigned from, unsigned to, uint64_t to_bits)
{
	start();
	program(to, CASCADE | to_bits);
	program(from, ENABLE);
	wr(CTR(from), TOP - K);
}

/* A legal cascade: to counts nothing before from overflows, and from
 * there on every count: K steps bring from to its wrap (its OVF set by
 * the K-th), the J steps after it are to's. */
static void test_cascade_legal_pairs(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(LEGAL); i++) {
		unsigned from = LEGAL[i].from, to = LEGAL[i].to;

		cascade_setup(from, to, 0);
		feed(K - 1);
		assert_int_equal(rd(CCCR(from)) & OVF, 0);
		assert_int_equal(rd(CTR(to)), 0);
		feed(1);
		assert_int_equal(rd(CCCR(from)) & OVF, OVF);
		if (rd(CTR(to)) != 0)
			fail_msg("%u -> %u: counter %u counted the clock in "
				 "which %u overflowed", from, to, to, from);
		feed(4);
		if (rd(CTR(to)) != 4)
			fail_msg("%u -> %u: counter %u has %llu four counts "
				 "after %u overflowed, expected 4", from, to,
				 to, (unsigned long long)rd(CTR(to)), from);
	}
}

/* Every other pair, the CCCR cascade bit written directly: the overflow
 * of from must not start to. */
static void test_cascade_forbidden_pairs(void **state)
{
	unsigned n = 0;

	(void)state;
	for (unsigned from = 0; from < CTRS; from++) {
		for (unsigned to = 0; to < CTRS; to++) {
			if (from == to || legal(from, to))
				continue;
			cascade_setup(from, to, 0);
			feed(K + 4);
			assert_int_equal(rd(CCCR(from)) & OVF, OVF);
			if (rd(CTR(to)) != 0)
				fail_msg("%u -> %u is no cascade of §18.15.5.6,"
					 " but counter %u counted %llu after %u "
					 "overflowed", from, to, to,
					 (unsigned long long)rd(CTR(to)),
					 from);
			n++;
		}
	}
	assert_int_equal(n, CTRS * (CTRS - 1) - N(LEGAL));
}

/* §18.15.5.5: a cascaded counter halts when its CASCADE is cleared, or
 * when the alternate's OVF is cleared. */
static void test_cascade_halting(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(LEGAL); i++) {
		unsigned from = LEGAL[i].from, to = LEGAL[i].to;

		cascade_setup(from, to, 0);
		feed(K + 2);
		assert_int_equal(rd(CTR(to)), 2);
		wr(CCCR(to), rd(CCCR(to)) & ~CASCADE);
		feed(3);
		assert_int_equal(rd(CTR(to)), 2);

		cascade_setup(from, to, 0);
		feed(K + 2);
		assert_int_equal(rd(CTR(to)), 2);
		wr(CCCR(from), rd(CCCR(from)) & ~OVF);
		feed(3);
		assert_int_equal(rd(CTR(to)), 2);
	}
}

/* ==== extended cascading and the cascade-PMI erratum (§18.15.5.7) ==== */

/* CCCR bit 11 exists on counters 12, 15, 16, 17 of models 2, 3, 4, 6;
 * elsewhere it is reserved (#GP). */
static void test_ext_cascade_bit(void **state)
{
	static const unsigned models[] = { 0, 1, 2, 3, 4, 6 };

	(void)state;
	for (unsigned m = 0; m < N(models); m++) {
		int has = models[m] >= 2;

		for (unsigned c = 0; c < CTRS; c++) {
			int there = has && (c == 12 || c == 15 || c == 16 ||
					    c == 17);

			start_cpu(models[m], 1, 0);
			assert_int_equal(nbm->wrmsr(CCCR(c), EXT_CASCADE | ANY),
					 there ? 0 : GP);
		}
	}
}

/* Extended cascading (§18.15.5.7, Table 18-65): bit 11 is CASCNTxINTOy,
 * "allow counter x to cascade into counter y", x and y numbering the IQ
 * block (IQ_COUNTER0-5 = counters 12-17, Table 18-63): CASCNT4INTO0 in
 * IQ_CCCR0, CASCNT5INTO3 in IQ_CCCR3, CASCNT5INTO4 in IQ_CCCR4,
 * CASCNT4INTO5 in IQ_CCCR5.  Example 18-2 programs the cascaded counter
 * (12) with bit 11 set and ENABLE and CASCADE clear; it counts once the
 * initiating counter (16) overflowed, as a cascaded counter does. */
static const struct {
	unsigned from, to;
} EXT[] = {
	{ 16, 12 }, { 17, 15 }, { 17, 16 }, { 16, 17 },
};

static void test_ext_cascade_pairs(void **state)
{
	static const unsigned models[] = { 2, 3, 4, 6 };

	(void)state;
	for (unsigned m = 0; m < N(models); m++) {
		for (unsigned i = 0; i < N(EXT); i++) {
			unsigned from = EXT[i].from, to = EXT[i].to;

			start_cpu(models[m], 1, 0);
			program(to, EXT_CASCADE);
			program(from, ENABLE);
			wr(CTR(from), TOP - K);
			feed(K - 1);
			assert_int_equal(rd(CTR(to)), 0);
			feed(1);
			assert_int_equal(rd(CCCR(from)) & OVF, OVF);
			assert_int_equal(rd(CTR(to)), 0);
			feed(4);
			if (rd(CTR(to)) != 4)
				fail_msg("0F_%02X, %u -> %u by bit 11: counter "
					 "%u has %llu four counts after %u "
					 "overflowed, expected 4", models[m],
					 from, to, to,
					 (unsigned long long)rd(CTR(to)), from);
			/* halted by clearing the initiator's OVF */
			wr(CCCR(from), rd(CCCR(from)) & ~OVF);
			feed(2);
			assert_int_equal(rd(CTR(to)), 4);
		}
	}
}

/* Bit 11 of a counter starts it only from its own initiator: the
 * overflow of any other counter leaves it at 0 (12 and 15, 16, 17 have
 * one each; the CASCADE alternates 14 -> 12 and 13 -> 15 included). */
static void test_ext_cascade_other_counters(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(EXT); i++) {
		for (unsigned from = 0; from < CTRS; from++) {
			if (from == EXT[i].to || from == EXT[i].from)
				continue;
			start();
			program(EXT[i].to, EXT_CASCADE);
			program(from, ENABLE);
			wr(CTR(from), TOP - K);
			feed(K + 3);
			assert_int_equal(rd(CCCR(from)) & OVF, OVF);
			if (rd(CTR(EXT[i].to)) != 0)
				fail_msg("bit 11 of counter %u: started by %u",
					 EXT[i].to, from);
		}
	}
}

/* The erratum CPUs raise no PMI for an overflow in cascade mode; others
 * do; and an enabled (not cascaded) counter raises it on the erratum CPUs
 * too.  Cascade 14 -> 16; 16 overflows K counts into its run. */
static unsigned cascade_pmi(unsigned model, unsigned stepping)
{
	start_cpu(model, stepping, 0);
	program(16, CASCADE | OVF_PMI_T0);
	wr(CTR(16), TOP - 1);
	program(14, ENABLE);
	wr(CTR(14), TOP - 1);
	feed(1);		/* 14 overflows */
	feed(1);		/* 16 counts to its wrap */
	feed(1);		/* the next count */
	assert_int_equal(rd(CCCR(16)) & OVF, OVF);
	return stub_pmi.calls;
}

static void test_cascade_pmi_erratum(void **state)
{
	static const struct {
		unsigned model, stepping, pmis;
	} cases[] = {
		{ 2, 4, 0 }, { 2, 9, 0 }, { 0, 10, 0 }, { 1, 10, 0 },
		{ 0, 9, 1 }, { 1, 3, 1 }, { 3, 4, 1 }, { 4, 1, 1 },
		{ 6, 5, 1 },
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		unsigned got = cascade_pmi(cases[i].model, cases[i].stepping);

		if (got != cases[i].pmis)
			fail_msg("0F_%02X stepping %u: %u PMIs from a cascaded "
				 "counter, expected %u", cases[i].model,
				 cases[i].stepping, got, cases[i].pmis);
	}
	/* not in cascade mode: the PMI comes on the erratum CPU too */
	start_cpu(2, 4, 0);
	wr(CTR(12), TOP - 1);
	program(12, ENABLE | OVF_PMI_T0);
	feed(2);
	assert_int_equal(stub_pmi.calls, 1);
}

/* ==== registers that are not there (Table 18-63) ==================== */

static void test_absent_escrs(void **state)
{
	uint64_t v;

	(void)state;
	/* there is no SSU_ESCR1 */
	start();
	assert_int_equal(nbm->rdmsr(0x3bf, &v), GP);
	/* IQ_ESCR0/1 on models 0-2 only */
	assert_int_equal(nbm->rdmsr(0x3ba, &v), GP);
	assert_int_equal(nbm->wrmsr(0x3bb, 0), GP);
	start_cpu(2, 9, 0);
	assert_int_equal(nbm->rdmsr(0x3ba, &v), 0);
	assert_int_equal(nbm->rdmsr(0x3bb, &v), 0);
	/* CCCR reserved bits 10:0 (bit 11 where it exists), 29:28, 63:32 */
	start();
	wr_gp(CCCR(0), ANY | 1ull << 0);
	wr_gp(CCCR(0), ANY | 1ull << 10);
	wr_gp(CCCR(0), ANY | 1ull << 28);
	wr_gp(CCCR(0), ANY | 1ull << 29);
	wr_gp(CCCR(0), ANY | 1ull << 32);
}

/* ==== counting: the window backend=emulated traces (pmu_model.counting):
 * would an instruction retiring now be counted at some CPL?  A counter
 * counts when its CCCR has ENABLE (bit 12), or CASCADE (bit 30) with its
 * alternate's OVF set (§18.15.3, §18.15.5.6), its active-thread field
 * passes some clock (00: "count only when neither logical processor is
 * active", when nothing retires; §18.16.2), and the ESCR its CCCR selects
 * has an OS or USR flag of a logical processor: T0_OS/T0_USR (bits 3/2,
 * OS/USR without HT), T1_OS/T1_USR (bits 1/0) with HT (§18.15.1,
 * §18.16.1). ================================================= */

/* Counter c's block event, its ESCR with flags, its CCCR with extra. */
static void counting_setup(unsigned c, uint64_t flags, uint64_t cccr)
{
	const struct block_event *b = &EVENTS[block_of(c)];

	wr(b->escr[half_of(c)], b->escr_val | flags);
	wr(CCCR(c), (b->cccr & ~ACTIVE(3)) | cccr);
}

static void test_counting(void **state)
{
	static const struct {
		uint64_t flags, cccr;
		int counts;
	} no_ht[] = {
		{ T0_USR, ANY, 0 },
		{ T0_USR, ANY | ENABLE, 1 },
		{ T0_OS, ANY | ENABLE, 1 },
		{ 0, ANY | ENABLE, 0 },
		{ T0_USR | T0_OS, ACTIVE(0) | ENABLE, 0 },
		{ T0_USR, ACTIVE(1) | ENABLE, 1 },
	}, ht[] = {
		{ T1_OS, ANY | ENABLE, 1 },
		{ T1_USR, ANY | ENABLE, 1 },
		{ T1_USR, ACTIVE(2) | ENABLE, 1 },
		{ 0, ANY | ENABLE, 0 },
		{ T1_OS | T0_USR, ANY, 0 },
	};

	(void)state;
	for (unsigned c = 0; c < CTRS; c++) {
		for (unsigned i = 0; i < N(no_ht); i++) {
			start();
			assert_non_null(nbm->counting);
			assert_int_equal(nbm->counting(), 0);
			counting_setup(c, no_ht[i].flags, no_ht[i].cccr);
			if (!!nbm->counting() != no_ht[i].counts)
				fail_msg("counter %u, no HT, case %u: "
					 "counting %d", c, i, nbm->counting());
		}
		for (unsigned i = 0; i < N(ht); i++) {
			start_cpu(4, 1, 1);
			counting_setup(c, ht[i].flags, ht[i].cccr);
			if (!!nbm->counting() != ht[i].counts)
				fail_msg("counter %u, HT, case %u: counting "
					 "%d", c, i, nbm->counting());
		}
	}
}

/* A counter with CASCADE and no ENABLE counts once its alternate's OVF
 * is set, whether or not the alternate counts (§18.15.5.6). */
static void test_counting_cascade(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(LEGAL); i++) {
		unsigned from = LEGAL[i].from, to = LEGAL[i].to;
		const struct block_event *b = &EVENTS[block_of(from)];

		start();
		counting_setup(to, T0_USR, ANY | CASCADE);
		wr(CCCR(from), b->cccr);
		assert_int_equal(nbm->counting(), 0);
		wr(CCCR(from), b->cccr | OVF);
		if (!nbm->counting())
			fail_msg("%u -> %u: not counting with %u's OVF set",
				 from, to, from);
		wr(CCCR(to), b->cccr);
		assert_int_equal(nbm->counting(), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_with_enable_and_select),
		cmocka_unit_test(test_counting),
		cmocka_unit_test(test_counting_cascade),
		cmocka_unit_test(test_other_half_escr_not_counted),
		cmocka_unit_test(test_other_select_not_counted),
		cmocka_unit_test(test_select_picks_the_escr),
		cmocka_unit_test(test_thread_flags_ht),
		cmocka_unit_test(test_os_usr_no_ht),
		cmocka_unit_test(test_compare_complement_threshold_edge),
		cmocka_unit_test(test_overflow_at_40_bits),
		cmocka_unit_test(test_counter_width),
		cmocka_unit_test(test_force_ovf),
		cmocka_unit_test(test_ovf_pmi_next_count),
		cmocka_unit_test(test_ovf_pmi_level),
		cmocka_unit_test(test_ovf_pmi_threads),
		cmocka_unit_test(test_bsp_is_thread_1),
		cmocka_unit_test(test_active_thread),
		cmocka_unit_test(test_cascade_legal_pairs),
		cmocka_unit_test(test_cascade_forbidden_pairs),
		cmocka_unit_test(test_cascade_halting),
		cmocka_unit_test(test_ext_cascade_bit),
		cmocka_unit_test(test_ext_cascade_pairs),
		cmocka_unit_test(test_ext_cascade_other_counters),
		cmocka_unit_test(test_cascade_pmi_erratum),
		cmocka_unit_test(test_absent_escrs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
