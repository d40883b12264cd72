/* Conformance suite of the P6 family reference model (pmu/p6/model.c),
 * driven directly through its MSR interface (struct pmu_model, pmu/model.h)
 * with scripted single steps, without the driver.
 *
 * Every expectation is restated here from the SDM, never read from
 * pmu/p6/ or pmu/evtsel.c (no P6_* constant, no p6_event_for(),
 * p6_umask_ok(), p6_ctr_written() or evtsel_*()):
 * - SDM Vol. 3B, order no. 253669-060US, §18.22.1 and Figure 18-60 (the
 *   addresses: Vol. 3C Table 35-46, "MSRs in the P6 Family Processors",
 *   which lists ENABLE in 186H only): PerfEvtSel0/1 at 186H/187H: event select 7:0, unit mask 15:8; USR
 *   (16) "events are counted only when the processor is operating at
 *   privilege levels 1, 2 or 3", OS (17) "only when ... at privilege
 *   level 0"; E (18) counts deasserted-to-asserted transitions of the
 *   condition; PC (19); INT (20) "the processor generates an exception
 *   through its local APIC on counter overflow"; EN (22) "enables ... both
 *   performance counters ... This flag is only present in the PerfEvtSel0
 *   MSR"; INV (23) inverts the CMASK comparison; CMASK (31:24): when
 *   nonzero the counter adds 1 in each cycle in which the event count is
 *   at least CMASK, when zero it adds the count;
 * - §18.22.2: PerfCtr0/1 at C1H/C2H, 40 bits; "the lower-order 32 bits of
 *   each MSR may be written with any value, and the high-order 8 bits are
 *   sign-extended according to the value of bit 31"; RDPMC reads them;
 * - §18.22.5: an overflow is the counter passing from 2^40 - 1 to 0;
 * - SDM Vol. 2B WRMSR: #GP(0) for bits "reserved in the MSR" (bit 21 and
 *   bits 63:32 of a P6 PerfEvtSel); RDPMC: "#GP(0) if the current
 *   privilege level is not 0 and the PCE flag in the CR4 register is
 *   clear", #GP(0) for an invalid counter; every P6 has the instruction;
 * - Table 19-37: INST_RETIRED C0H counts instructions retired (a REP
 *   string instruction once), CPU_CLK_UNHALTED 79H cycles (the model
 *   clock: one per traced step), DATA_MEM_REFS 43H loads and stores.
 *
 * Properties and the test that holds each: docs/testing.md, "P5 and P6".
 */
#include <stdio.h>
#include <string.h>

#include "pmu/model.h"
#include "pmu/backend.h"
#include "pmu/detect.h"
#include "arch/x86/trace.h"
#include "arch/x86/trap.h"
#include "tests/host/pmu/p6/stub_cpu.h"
#include "tests/host/pmu/p6/stub_model.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: tests/host/pmu/p6/stub_model.c tests/host/pmu/p6/stub_cpu.c pmu/model.c pmu/noise.c tests/host/arch/x86/stub_smp.c pmu/p6/regs.c pmu/p6/events.c pmu/evtsel.c pmu/sem.c pmu/lbr_model.c pmu/lbr.c tests/host/pmu/stub_pmu_access.c lib/fmt.c lib/string.c pmu/emufault.c lib/escape.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the SDM's facts, in this file's words ---------------------------- */

#define SEL0 0x186
#define SEL1 0x187
#define CTR0 0xc1
#define CTR1 0xc2
#define TOP (1ull << 40)

#define USR (1ull << 16)
#define OS (1ull << 17)
#define EDGE (1ull << 18)
#define PC (1ull << 19)
#define INT (1ull << 20)
#define EN (1ull << 22)
#define INV (1ull << 23)
#define CMASK(c) ((uint64_t)(c) << 24)

#define INST_RETIRED 0xc0
#define CPU_CLK_UNHALTED 0x79
#define DATA_MEM_REFS 0x43

/* ---- stubs ------------------------------------------------------------ */

static const struct pmu_model *m;

/* A fresh family 6 CPU of this model with the P6 model live
 * (stub_model.c). */
static void start(unsigned model)
{
	m = stub_p6_start(model);
}

/* The generations the suite runs on: Pentium Pro, II, III, M. */
static const unsigned models[] = { 1, 3, 8, 13 };

/* ==== USR and OS at each CPL =========================================== */

static void test_usr_os_each_cpl(void **state)
{
	static const uint64_t bits[] = { 0, USR, OS, USR | OS };

	(void)state;
	for (unsigned mi = 0; mi < N(models); mi++)
	for (unsigned b = 0; b < N(bits); b++)
	for (unsigned cpl = 0; cpl < 4; cpl++) {
		int want = cpl == 0 ? !!(bits[b] & OS) : !!(bits[b] & USR);

		start(models[mi]);
		stub_wr(SEL1, INST_RETIRED | bits[b]);
		stub_wr(SEL0, INST_RETIRED | bits[b] | EN);
		stub_steps(cpl, 3);
		if (stub_rd(CTR0) != 3u * want || stub_rd(CTR1) != 3u * want)
			fail_msg("model %u %s%s at CPL %u: %llu/%llu, want %u",
				 models[mi], bits[b] & USR ? "USR " : "",
				 bits[b] & OS ? "OS" : "", cpl,
				 (unsigned long long)stub_rd(CTR0),
				 (unsigned long long)stub_rd(CTR1), 3 * want);
	}
}

/* ==== EN: PerfEvtSel0 only, both counters ============================== */

static void test_en_only_in_evtsel0(void **state)
{
	static const struct {
		int en0, en1;
		uint64_t want0, want1;
	} cases[] = {
		{ 0, 0, 0, 0 },
		{ 0, 1, 0, 0 },		/* EN in PerfEvtSel1 enables nothing */
		{ 1, 0, 4, 4 },		/* EN in PerfEvtSel0 enables both */
		{ 1, 1, 4, 4 },
	};

	(void)state;
	for (unsigned mi = 0; mi < N(models); mi++)
	for (unsigned i = 0; i < N(cases); i++) {
		start(models[mi]);
		stub_wr(SEL1, INST_RETIRED | USR | (cases[i].en1 ? EN : 0));
		stub_wr(SEL0, INST_RETIRED | USR | (cases[i].en0 ? EN : 0));
		stub_steps(3, 4);
		if (stub_rd(CTR0) != cases[i].want0 || stub_rd(CTR1) != cases[i].want1)
			fail_msg("model %u EN0 %d EN1 %d: %llu/%llu, want "
				 "%llu/%llu", models[mi], cases[i].en0,
				 cases[i].en1, (unsigned long long)stub_rd(CTR0),
				 (unsigned long long)stub_rd(CTR1),
				 (unsigned long long)cases[i].want0,
				 (unsigned long long)cases[i].want1);
	}
	/* counter 1 counts with EN in PerfEvtSel0 even when counter 0
	 * counts at no CPL; clearing EN stops both at once */
	start(8);
	stub_wr(SEL1, INST_RETIRED | USR);
	stub_wr(SEL0, INST_RETIRED | EN);
	stub_steps(3, 5);
	assert_int_equal(stub_rd(CTR0), 0);
	assert_int_equal(stub_rd(CTR1), 5);
	stub_wr(SEL0, INST_RETIRED | USR);
	stub_steps(3, 5);
	assert_int_equal(stub_rd(CTR1), 5);
	/* EN in PerfEvtSel1 is kept as written (no fault) */
	stub_wr(SEL1, INST_RETIRED | USR | EN);
	assert_int_equal(stub_rd(SEL1), INST_RETIRED | USR | EN);
}

/* ==== INT and the PMI ================================================== */

/* A counter with INT that passes 2^40 - 1 -> 0 raises one PMI, after the
 * step that overflowed it; without INT none; the other counter's INT does
 * not make this one's wrap interrupt. */
static void test_int_pmi(void **state)
{
	(void)state;
	start(8);
	stub_wr(CTR0, 0xfffffffd);		/* sign-extended: 2^40 - 3 */
	stub_wr(CTR1, 0xfffffffd);
	stub_wr(SEL1, INST_RETIRED | USR);
	stub_wr(SEL0, INST_RETIRED | USR | INT | EN);
	stub_steps(3, 2);
	assert_int_equal(stub_rd(CTR0), TOP - 1);
	assert_int_equal(stub_pmi.calls, 0);
	stub_steps(3, 1);
	assert_int_equal(stub_rd(CTR0), 0);
	assert_int_equal(stub_rd(CTR1), 0);
	assert_int_equal(stub_pmi.calls, 1);
	/* a Pentium III (model 8) leaves the LVTPC unmasked; a Pentium M
	 * masks it on delivery (Linux op_model_ppro.c: "Only P6 based
	 * Pentium M need to re-unmask the apic vector") */
	assert_int_equal(stub_pmi.mask_after, 0);
	stub_steps(3, 50);
	assert_int_equal(stub_pmi.calls, 1);
	start(0xd);
	stub_wr(CTR0, 0xffffffff);		/* 2^40 - 1 */
	stub_wr(SEL0, INST_RETIRED | USR | INT | EN);
	stub_steps(3, 1);
	assert_int_equal(stub_pmi.calls, 1);
	assert_int_equal(stub_pmi.mask_after, 1);

	/* INT on counter 1 only, counter 0 wraps first: no PMI until
	 * counter 1 wraps */
	start(1);
	stub_wr(CTR0, 0xffffffff);		/* 2^40 - 1 */
	stub_wr(CTR1, 0xfffffffe);		/* 2^40 - 2 */
	stub_wr(SEL1, INST_RETIRED | USR | INT);
	stub_wr(SEL0, INST_RETIRED | USR | EN);
	stub_steps(3, 1);
	assert_int_equal(stub_rd(CTR0), 0);
	assert_int_equal(stub_pmi.calls, 0);
	stub_steps(3, 1);
	assert_int_equal(stub_rd(CTR1), 0);
	assert_int_equal(stub_pmi.calls, 1);

	/* no INT anywhere: wraps, no PMI */
	start(13);
	stub_wr(CTR0, 0xffffffff);
	stub_wr(CTR1, 0xffffffff);
	stub_wr(SEL1, INST_RETIRED | USR);
	stub_wr(SEL0, INST_RETIRED | USR | EN);
	stub_steps(3, 2);
	assert_int_equal(stub_rd(CTR0), 1);
	assert_int_equal(stub_rd(CTR1), 1);
	assert_int_equal(stub_pmi.calls, 0);
}

/* ==== INV, CMASK, E ==================================================== */

/* DATA_MEM_REFS over seven steps with 2, 1, 0, 1, 2, 0, 2 accesses, by
 * hand: CMASK c counts the steps with at least c, INV the steps with
 * fewer, E the rises of that condition (the first step rises from
 * deasserted). */
static void test_inv_cmask_edge(void **state)
{
	static const uint8_t loads[] = { 1, 1, 0, 0, 1, 0, 2 };
	static const uint8_t stores[] = { 1, 0, 0, 1, 1, 0, 0 };
	static const struct {
		uint64_t filter, want;
	} cases[] = {
		{ 0, 8 },			/* 2+1+0+1+2+0+2 */
		{ INV, 8 },			/* INV without CMASK: no effect */
		{ CMASK(1), 5 },		/* >= 1: 1 1 0 1 1 0 1 */
		{ CMASK(2), 3 },		/* >= 2: 1 0 0 0 1 0 1 */
		{ CMASK(3), 0 },
		{ CMASK(1) | INV, 2 },		/* < 1:  0 0 1 0 0 1 0 */
		{ CMASK(2) | INV, 4 },		/* < 2:  0 1 1 1 0 1 0 */
		{ CMASK(255) | INV, 7 },
		{ EDGE | CMASK(1), 3 },		/* rises of >= 1 */
		{ EDGE | CMASK(2), 3 },		/* rises of >= 2 */
		{ EDGE | CMASK(2) | INV, 2 },	/* rises of < 2 */
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		start(5);
		stub_wr(SEL0, DATA_MEM_REFS | USR | EN | cases[i].filter);
		for (unsigned k = 0; k < N(loads); k++) {
			struct insn_event e = { .cpl = 3, .retired = 1,
						.loads = loads[k],
						.stores = stores[k] };

			model_feed(&e, NULL);
		}
		if (stub_rd(CTR0) != cases[i].want)
			fail_msg("filter 0x%llx: %llu, want %llu",
				 (unsigned long long)cases[i].filter,
				 (unsigned long long)stub_rd(CTR0),
				 (unsigned long long)cases[i].want);
	}
}

/* CPU_CLK_UNHALTED with CMASK 1 counts every cycle, INV then none; E on
 * an always-true condition counts its one rise. */
static void test_cmask_on_clocks(void **state)
{
	static const struct {
		uint64_t filter, want;
	} cases[] = {
		{ 0, 6 }, { CMASK(1), 6 }, { CMASK(1) | INV, 0 },
		{ CMASK(2), 0 }, { EDGE | CMASK(1), 1 },
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		start(8);
		stub_wr(SEL0, CPU_CLK_UNHALTED | USR | EN | cases[i].filter);
		stub_steps(3, 6);
		if (stub_rd(CTR0) != cases[i].want)
			fail_msg("clocks filter 0x%llx: %llu, want %llu",
				 (unsigned long long)cases[i].filter,
				 (unsigned long long)stub_rd(CTR0),
				 (unsigned long long)cases[i].want);
	}
}

/* ==== PerfCtr writes: 32 bits sign-extended to 40 ===================== */

static void test_ctr_write_sign_extends(void **state)
{
	static const struct {
		uint64_t written, reads;
	} cases[] = {
		{ 0, 0 },
		{ 1, 1 },
		{ 0x7fffffff, 0x7fffffff },
		{ 0x80000000, 0xff80000000ull },
		{ 0xffffffff, 0xffffffffffull },
		{ 0xfffffff0, 0xfffffffff0ull },
		{ 0x1234567890ull, 0x34567890 },	/* EDX ignored */
		{ 0xff00000005ull, 5 },
		{ 0xffffffffffffffffull, 0xffffffffffull },
		{ 0x00000000fedcba98ull, 0xfffedcba98ull },
	};

	(void)state;
	start(3);
	for (unsigned i = 0; i < N(cases); i++)
		for (unsigned c = 0; c < 2; c++) {
			uint64_t got;

			stub_wr(c ? CTR1 : CTR0, cases[i].written);
			got = stub_rd(c ? CTR1 : CTR0);
			if (got != cases[i].reads)
				fail_msg("PerfCtr%u := 0x%llx reads 0x%llx, "
					 "want 0x%llx", c,
					 (unsigned long long)cases[i].written,
					 (unsigned long long)got,
					 (unsigned long long)cases[i].reads);
		}
}

/* ==== reserved PerfEvtSel bits ========================================= */

/* Bit 21 and bits 63:32 raise #GP(0) and change nothing; every defined
 * bit reads back as written, PC and EN in PerfEvtSel1 included. */
static void test_reserved_bits(void **state)
{
	(void)state;
	start(8);
	stub_wr(SEL0, INST_RETIRED | USR);
	stub_wr(SEL1, CPU_CLK_UNHALTED | OS);
	for (unsigned bit = 0; bit < 64; bit++) {
		int reserved = bit == 21 || bit >= 32;
		uint64_t v = 1ull << bit;

		for (unsigned c = 0; c < 2; c++) {
			uint32_t msr = c ? SEL1 : SEL0;
			uint64_t before = stub_rd(msr);
			int vec = m->wrmsr(msr, v);

			if (reserved ? vec != VEC_GP || stub_rd(msr) != before :
				       vec != 0 || stub_rd(msr) != v)
				fail_msg("PerfEvtSel%u bit %u: vector %d, "
					 "reads 0x%llx", c, bit, vec,
					 (unsigned long long)stub_rd(msr));
			if (!reserved)
				stub_wr(msr, before);
		}
	}
	stub_wr(SEL1, 0xffdfffffull);
	assert_int_equal(stub_rd(SEL1), 0xffdfffffull);
}

/* ==== RDPMC ============================================================ */

static const uint8_t rdpmc_insn[] = { 0x0f, 0x33, 0x90 };

static int exec_rdpmc(unsigned cpl, uint32_t idx, uint64_t *v)
{
	struct trap_frame tf;

	memset(&tf, 0, sizeof(tf));
	tf.vector = VEC_GP;
	tf.rip = (uint64_t)(uintptr_t)rdpmc_insn;
	tf.cs = cpl == 3 ? 0x2b : 0x08;
	tf.rcx = idx;
	if (stub_trap_hooks[VEC_GP](&tf)) {
		*v = tf.rdx << 32 | (uint32_t)tf.rax;
		return 0;
	}
	return (int)tf.vector;
}

/* RDPMC 0 and 1 read the 40-bit counters at CPL 0, at CPL 3 only with
 * CR4.PCE set (else #GP(0)); index 2 and up #GP(0); never #UD. */
static void test_rdpmc(void **state)
{
	uint64_t v = 0;

	(void)state;
	for (unsigned mi = 0; mi < N(models); mi++) {
		start(models[mi]);
		stub_wr(CTR0, 0x12345678);
		stub_wr(CTR1, 0x87654321);
		for (int pce = 0; pce < 2; pce++) {
			model_cpl3_pce(pce);
			assert_int_equal(exec_rdpmc(0, 0, &v), 0);
			assert_int_equal(v, 0x12345678);
			assert_int_equal(exec_rdpmc(0, 1, &v), 0);
			assert_int_equal(v, 0xff87654321ull);
			assert_int_equal(exec_rdpmc(0, 2, &v), VEC_GP);
			assert_int_equal(exec_rdpmc(3, 0, &v),
					 pce ? 0 : VEC_GP);
			assert_int_equal(exec_rdpmc(3, 1, &v),
					 pce ? 0 : VEC_GP);
			if (pce)
				assert_int_equal(v, 0xff87654321ull);
			assert_int_equal(exec_rdpmc(3, 2, &v), VEC_GP);
		}
		model_cpl3_pce(-1);
		assert_int_equal(m->rdpmc(0, &v), 0);
		assert_int_equal(v, 0x12345678);
		assert_int_equal(m->rdpmc(2, &v), VEC_GP);
	}
}

/* ==== counting: the window backend=emulated traces ===================== */

/* pmu_model.counting says whether an instruction retiring now would be
 * counted at some CPL: EN (bit 22) of PerfEvtSel0 "enables ... both
 * performance counters" (§18.22.1), and a counter counts at CPL 0 with
 * OS (bit 17), at CPL 1-3 with USR (bit 16).  EN in PerfEvtSel1 enables
 * nothing. */
static void test_counting(void **state)
{
	static const struct {
		uint64_t sel0, sel1;
		int counts;
	} cases[] = {
		{ 0, 0, 0 },
		{ INST_RETIRED | USR | OS, INST_RETIRED | USR | OS, 0 },
		{ INST_RETIRED | EN, INST_RETIRED, 0 },
		{ INST_RETIRED | EN | USR, 0, 1 },
		{ INST_RETIRED | EN | OS, 0, 1 },
		{ INST_RETIRED | EN, INST_RETIRED | USR, 1 },
		{ INST_RETIRED | EN, INST_RETIRED | OS, 1 },
		{ INST_RETIRED | USR, INST_RETIRED | USR | EN, 0 },
		{ CPU_CLK_UNHALTED | EN | USR | OS, 0, 1 },
	};

	(void)state;
	for (unsigned mi = 0; mi < N(models); mi++)
	for (unsigned i = 0; i < N(cases); i++) {
		start(models[mi]);
		assert_non_null(m->counting);
		assert_int_equal(m->counting(), 0);
		stub_wr(SEL1, cases[i].sel1);
		stub_wr(SEL0, cases[i].sel0);
		if (!!m->counting() != cases[i].counts)
			fail_msg("model %u case %u: PerfEvtSel0 0x%llx, "
				 "PerfEvtSel1 0x%llx: counting %d, want %d",
				 models[mi], i,
				 (unsigned long long)cases[i].sel0,
				 (unsigned long long)cases[i].sel1,
				 m->counting(), cases[i].counts);
		stub_wr(SEL0, cases[i].sel0 & ~EN);
		assert_int_equal(m->counting(), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usr_os_each_cpl),
		cmocka_unit_test(test_en_only_in_evtsel0),
		cmocka_unit_test(test_int_pmi),
		cmocka_unit_test(test_inv_cmask_edge),
		cmocka_unit_test(test_cmask_on_clocks),
		cmocka_unit_test(test_ctr_write_sign_extends),
		cmocka_unit_test(test_reserved_bits),
		cmocka_unit_test(test_rdpmc),
		cmocka_unit_test(test_counting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
