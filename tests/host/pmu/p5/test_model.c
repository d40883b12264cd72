/* Conformance suite of the Pentium (P5) reference model (pmu/p5/model.c),
 * driven directly through its MSR interface (struct pmu_model, pmu/model.h)
 * with scripted single steps, without the driver.
 *
 * Every expectation is restated here from the SDM, never read from
 * pmu/p5/ (no regs.h constant, no p5_event_for(), cesr_get_half() or
 * p5_cc_counts_at()):
 * - SDM Vol. 3B, order no. 253669-060US, §18.23.1 and Figure 18-61: the
 *   CESR at MSR 11H (ES0 bits 5:0, CC0 8:6, PC0 9; ES1 21:16, CC1 24:22,
 *   PC1 25; the rest reserved), CTR0 at 12H and CTR1 at 13H, 40 bits; the
 *   counter-control codes: "the highest order bit selects between counting
 *   events and counting clocks (duration); the middle bit enables counting
 *   when the CPL is 3; and the low-order bit enables counting when the CPL
 *   is 0, 1, or 2"; 000 and 100 count nothing;
 * - Table 19-38 (Table A-19 in older editions), with perfctr's Pentium
 *   list as referee: codes 00H-29H on both counters of every Pentium but
 *   10H, 11H, 20H, 21H; 2AH-3BH on the Pentium with MMX technology, a
 *   different event on each counter, 39H (RETURNS) on CTR0 only; what the
 *   events the trace can see count (their names and descriptions);
 * - SDM Vol. 2B WRMSR: "#GP(0) if ... the value in EDX:EAX sets bits that
 *   are reserved in the MSR"; RDPMC: "#GP(0) if the current privilege
 *   level is not 0 and the PCE flag in the CR4 register is clear", #GP(0)
 *   for an invalid counter; the instruction came with the Pentium with MMX
 *   technology (before it, #UD).
 * The model clock is one cycle per traced step (pmu/model.h): a duration
 * (CC 1xx) is the number of steps in which the event's condition held.
 *
 * Properties and the test that holds each: docs/testing.md, "P5 and P6".
 */
#include <stdio.h>
#include <string.h>

#include "pmu/model.h"
#include "pmu/backend.h"
#include "pmu/detect.h"
#include "arch/x86/trace.h"
#include "arch/x86/decode.h"
#include "arch/x86/trap.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: tests/host/pmu/p5/stub_model.c pmu/model.c pmu/noise.c tests/host/arch/x86/stub_smp.c pmu/p5/regs.c pmu/p5/events.c pmu/sem.c pmu/emufault.c lib/escape.c lib/fmt.c lib/string.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the SDM's facts, in this file's words ---------------------------- */

#define CESR 0x11
#define CTR0 0x12
#define CTR1 0x13
#define CTR_TOP (1ull << 40)

/* One counter's half of the CESR (Figure 18-61). */
static uint64_t half(unsigned ctr, unsigned es, unsigned cc, unsigned pc)
{
	return (uint64_t)(es | cc << 6 | pc << 9) << (ctr ? 16 : 0);
}

/* CC: does it count at this CPL, and clocks rather than events? */
static int cc_counts_at(unsigned cc, unsigned cpl)
{
	return cpl == 3 ? (cc >> 1 & 1) : (cc & 1);
}

static int cc_clocks(unsigned cc)
{
	return cc >> 2 & 1;
}

/* Table 19-38: does code select an event on ctr? */
static int sdm_listed(unsigned code, unsigned ctr, int mmx)
{
	if (code <= 0x29)
		return code != 0x10 && code != 0x11 && code != 0x20 &&
		       code != 0x21;
	if (code <= 0x3b)
		return mmx && !(code == 0x39 && ctr == 1);
	return 0;
}

/* ---- stubs ------------------------------------------------------------ */

static struct cpu_info fake_cpu;

const struct cpu_info *cpu_info(void)
{
	return &fake_cpu;
}

static trap_hook_fn hooks[32];

void trap_set_hook(unsigned vector, trap_hook_fn fn)
{
	assert_true(vector < N(hooks));
	hooks[vector] = fn;
}

#define P54C 2u		/* family 5 model 2: Pentium, no RDPMC */
#define P55C 4u		/* family 5 model 4: with MMX technology */

static const struct pmu_model *m;

static void start(unsigned model)
{
	memset(&fake_cpu, 0, sizeof(fake_cpu));
	memcpy(fake_cpu.vendor_id, "GenuineIntel", 13);
	fake_cpu.vendor = VENDOR_INTEL;
	fake_cpu.sig.family = 5;
	fake_cpu.sig.model = model;
	fake_cpu.pmu = PMU_P5;
	m = model_for(PMU_P5);
	assert_non_null(m);
	model_activate(m);
}

static uint64_t rd(uint32_t msr)
{
	uint64_t v = 0xdeadbeefull;

	assert_int_equal(m->rdmsr(msr, &v), 0);
	return v;
}

static void wr(uint32_t msr, uint64_t v)
{
	assert_int_equal(m->wrmsr(msr, v), 0);
}

static void step(const struct insn_event *e)
{
	model_feed(e, NULL);
}

/* ---- the script ------------------------------------------------------- */

#define BR DEC_BRANCH
#define TK EV_TAKEN

/* Ten steps, each a kind of instruction, counted by hand below. */
static const struct insn_event script[] = {
	/* s1 nop */
	{ .retired = 1 },
	/* s2 cmpsb: two reads */
	{ .retired = 1, .loads = 2 },
	/* s3 push */
	{ .retired = 1, .stores = 1 },
	/* s4 jcc, not taken */
	{ .retired = 1, .flags = BR | DEC_COND },
	/* s5 call rel32 */
	{ .retired = 1, .flags = BR | DEC_CALL | TK, .stores = 1 },
	/* s6 ret */
	{ .retired = 1, .flags = BR | DEC_RET | DEC_INDIRECT | TK,
	  .loads = 1 },
	/* s7 rep movsb, an iteration that is not the last */
	{ .retired = 0, .flags = DEC_REP_STRING, .iterations = 1, .loads = 1,
	  .stores = 1 },
	/* s8 rep movsb, the last iteration */
	{ .retired = 1, .flags = DEC_REP_STRING, .iterations = 1, .loads = 1,
	  .stores = 1 },
	/* s9 mov ds, [mem] */
	{ .retired = 1, .flags = DEC_SEGLOAD, .loads = 1 },
	/* s10 int n: a far transfer, pushes three words (two stores here) */
	{ .retired = 1, .flags = DEC_FAR | TK, .stores = 2 },
};

static void run_script(unsigned cpl)
{
	for (unsigned i = 0; i < N(script); i++) {
		struct insn_event e = script[i];

		e.cpl = (uint8_t)cpl;
		step(&e);
	}
}

/*
 * What each event the trace can see counts over the script, by hand from
 * Table 19-38, and its duration (the steps in which it happened) where it
 * is one kind of count.  dur -1: a sum of kinds, whose duration the trace
 * cannot tell (two kinds in one step may be one condition or two); it is
 * still a number of clocks, at most the script's 10 steps.
 */
static const struct {
	unsigned code, ctrs, mmx;
	uint64_t events;
	int dur;
} meanings[] = {
	/* DATA_READ: s2 2, s6 s7 s8 s9 1 each; steps s2 s6 s7 s8 s9 */
	{ 0x00, 3, 0, 6, 5 },
	/* DATA_WRITE: s3 s5 s7 s8 1 each, s10 2; steps s3 s5 s7 s8 s10 */
	{ 0x01, 3, 0, 6, 5 },
	/* ANY_SEGMENT_REGISTER_LOADED: s9 */
	{ 0x0f, 3, 0, 1, 1 },
	/* BRANCHES, far transfers among them: s4 s5 s6 s10 */
	{ 0x12, 3, 0, 4, -1 },
	/* INSTRUCTIONS_EXECUTED, a REP instruction once: all but s7 */
	{ 0x16, 3, 0, 9, 9 },
	/* DATA_READ_OR_WRITE: 6 + 6 */
	{ 0x28, 3, 0, 12, -1 },
	/* TAKEN_BRANCHES (CTR1, MMX): s5 s6 s10 */
	{ 0x32, 2, 1, 3, -1 },
	/* RETURNS (CTR0, MMX): s6 */
	{ 0x39, 1, 1, 1, 1 },
};

static int meaning_of(unsigned code, unsigned ctr, int mmx)
{
	for (unsigned i = 0; i < N(meanings); i++)
		if (meanings[i].code == code && (meanings[i].ctrs >> ctr & 1) &&
		    (!meanings[i].mmx || mmx))
			return (int)i;
	return -1;
}

/* ==== CC at each CPL =================================================== */

/* One DATA_READ step with two reads at each CPL, under each CC on both
 * counters: 2 (events) or 1 (one clock) where the CC counts at that CPL,
 * else 0.  CPL 1 and 2 count with bit 0, as CPL 0 does. */
static void test_cc_each_cpl(void **state)
{
	(void)state;
	for (unsigned cc = 0; cc < 8; cc++)
		for (unsigned cpl = 0; cpl < 4; cpl++) {
			struct insn_event e = { .cpl = (uint8_t)cpl,
						.retired = 1, .loads = 2 };
			uint64_t want = !cc_counts_at(cc, cpl) ? 0 :
					cc_clocks(cc) ? 1 : 2;

			start(P55C);
			wr(CESR, half(0, 0x00, cc, 0) | half(1, 0x00, cc, 1));
			step(&e);
			if (rd(CTR0) != want || rd(CTR1) != want)
				fail_msg("CC %u%u%u at CPL %u: CTR0 %llu CTR1 "
					 "%llu, want %llu", cc >> 2 & 1,
					 cc >> 1 & 1, cc & 1, cpl,
					 (unsigned long long)rd(CTR0),
					 (unsigned long long)rd(CTR1),
					 (unsigned long long)want);
		}
}

/* CC 000 and 100 count nothing; a stopped counter keeps its value. */
static void test_cc_off_keeps(void **state)
{
	(void)state;
	for (unsigned cc = 0; cc < 8; cc += 4) {
		start(P55C);
		wr(CTR0, 1234);
		wr(CTR1, 5678);
		wr(CESR, half(0, 0x16, cc, 0) | half(1, 0x28, cc, 0));
		for (unsigned cpl = 0; cpl < 4; cpl++)
			run_script(cpl);
		assert_int_equal(rd(CTR0), 1234);
		assert_int_equal(rd(CTR1), 5678);
	}
}

/* ==== the halves are independent ======================================= */

/* Every pair of CCs, CTR0 INSTRUCTIONS_EXECUTED and CTR1
 * DATA_READ_OR_WRITE, over the script at CPL 0 then at CPL 3: each counter
 * follows its own half (9 instructions, 12 accesses per pass; clocks of
 * instructions 9 per pass; the clocks of 28H at most 10 per pass). */
static void test_halves_independent(void **state)
{
	(void)state;
	for (unsigned cc0 = 0; cc0 < 8; cc0++)
		for (unsigned cc1 = 0; cc1 < 8; cc1++) {
			uint64_t w0 = 0, w1 = 0, c0, c1;

			start(P55C);
			wr(CESR, half(0, 0x16, cc0, cc1 & 1) |
				 half(1, 0x28, cc1, cc0 & 1));
			run_script(0);
			run_script(3);
			for (unsigned cpl = 0; cpl <= 3; cpl += 3) {
				w0 += cc_counts_at(cc0, cpl) ? 9 : 0;
				w1 += cc_counts_at(cc1, cpl) ? 12 : 0;
			}
			c0 = rd(CTR0);
			c1 = rd(CTR1);
			if (c0 != w0)
				fail_msg("CC0 %u CC1 %u: CTR0 %llu, want %llu",
					 cc0, cc1, (unsigned long long)c0,
					 (unsigned long long)w0);
			if (cc_clocks(cc1) ? c1 > w1 / 12 * 10 : c1 != w1)
				fail_msg("CC0 %u CC1 %u: CTR1 %llu, want %s "
					 "%llu", cc0, cc1,
					 (unsigned long long)c1,
					 cc_clocks(cc1) ? "at most" : "",
					 (unsigned long long)(cc_clocks(cc1) ?
					 w1 / 12 * 10 : w1));
		}
}

/* ==== what each code counts (Table 19-38) ============================== */

/* Every code on each counter of a P54C and a P55C, CC 011 (events) and
 * 111 (clocks), over the script at CPL 3: the events the test knows count
 * as restated above; listed events the trace cannot see (caches, TLBs,
 * bus, pipes, stalls, FP/MMX) and codes the table does not list count
 * nothing in the model (docs/p5.md). */
static void test_events_as_table(void **state)
{
	static const unsigned cpus[] = { P54C, P55C };

	(void)state;
	for (unsigned ci = 0; ci < N(cpus); ci++)
	for (unsigned ctr = 0; ctr < 2; ctr++)
	for (unsigned code = 0; code < 64; code++)
	for (unsigned cc = 3; cc < 8; cc += 4) {
		int mmx = cpus[ci] == P55C;
		int i = sdm_listed(code, ctr, mmx) ?
			meaning_of(code, ctr, mmx) : -1;
		uint64_t got, want = 0;
		int at_most = 0;

		if (i >= 0 && !cc_clocks(cc))
			want = meanings[i].events;
		else if (i >= 0 && meanings[i].dur >= 0)
			want = (uint64_t)meanings[i].dur;
		else if (i >= 0)
			at_most = 1, want = N(script);
		start(cpus[ci]);
		wr(CESR, half(ctr, code, cc, 0));
		run_script(3);
		got = rd(ctr ? CTR1 : CTR0);
		if (at_most ? got > want : got != want)
			fail_msg("%s code 0x%02x CTR%u CC %u: %llu, want %s%llu",
				 mmx ? "P55C" : "P54C", code, ctr, cc,
				 (unsigned long long)got,
				 at_most ? "at most " : "",
				 (unsigned long long)want);
	}
}

/* ==== 40 bits ========================================================== */

/* The counters are 40 bits: 2^40 - 2 plus three instructions is 1, on
 * both counters, events and clocks; an access pair across the top. */
static void test_wrap_40(void **state)
{
	struct insn_event two = { .cpl = 3, .retired = 1, .loads = 1,
				  .stores = 1 };

	(void)state;
	start(P55C);
	wr(CTR0, CTR_TOP - 2);
	wr(CTR1, CTR_TOP - 2);
	wr(CESR, half(0, 0x16, 2, 0) | half(1, 0x16, 6, 0));
	for (unsigned i = 0; i < 3; i++) {
		struct insn_event e = { .cpl = 3, .retired = 1 };

		step(&e);
	}
	assert_int_equal(rd(CTR0), 1);
	assert_int_equal(rd(CTR1), 1);
	wr(CTR0, CTR_TOP - 1);
	wr(CESR, half(0, 0x28, 3, 0));
	step(&two);
	assert_int_equal(rd(CTR0), 1);
	/* the top value itself is writable, 2^40 is not */
	wr(CTR1, CTR_TOP - 1);
	assert_int_equal(rd(CTR1), CTR_TOP - 1);
	assert_int_equal(m->wrmsr(CTR1, CTR_TOP), VEC_GP);
	assert_int_equal(rd(CTR1), CTR_TOP - 1);
}

/* ==== reserved CESR and counter bits =================================== */

/* Each defined CESR bit reads back as written; each reserved one (10-15,
 * 26-63) raises #GP(0) and changes nothing; counter bits 40-63 too. */
static void test_reserved_bits(void **state)
{
	const uint64_t keep = half(0, 0x16, 3, 1) | half(1, 0x28, 6, 0);

	(void)state;
	start(P55C);
	wr(CESR, keep);
	wr(CTR0, 0x123456789aull);
	for (unsigned bit = 0; bit < 64; bit++) {
		int defined = bit <= 9 || (bit >= 16 && bit <= 25);
		uint64_t v = 1ull << bit;
		int vec = m->wrmsr(CESR, v);

		if (defined) {
			if (vec != 0 || rd(CESR) != v)
				fail_msg("CESR bit %u: vector %d, reads "
					 "0x%llx", bit, vec,
					 (unsigned long long)rd(CESR));
			wr(CESR, keep);
			continue;
		}
		if (vec != VEC_GP || rd(CESR) != keep)
			fail_msg("CESR bit %u (reserved): vector %d, reads "
				 "0x%llx", bit, vec,
				 (unsigned long long)rd(CESR));
	}
	for (unsigned bit = 40; bit < 64; bit++) {
		assert_int_equal(m->wrmsr(CTR0, 1ull << bit), VEC_GP);
		assert_int_equal(m->wrmsr(CTR1, 7 | 1ull << bit), VEC_GP);
	}
	assert_int_equal(rd(CTR0), 0x123456789aull);
	assert_int_equal(rd(CTR1), 0);
}

/* ==== RDPMC ============================================================ */

static const uint8_t rdpmc_insn[] = { 0x0f, 0x33, 0x90 };

/* A real RDPMC instruction, answered by the model layer's #UD/#GP hook
 * (pmu/model.c) as the modelled CPU would: 0 and EDX:EAX, or the fault. */
static int exec_rdpmc(unsigned cpl, uint32_t idx, uint64_t *v)
{
	struct trap_frame tf;
	int vec;

	memset(&tf, 0, sizeof(tf));
	tf.vector = VEC_UD;		/* QEMU has no RDPMC to speak of */
	tf.rip = (uint64_t)(uintptr_t)rdpmc_insn;
	tf.cs = cpl == 3 ? 0x2b : 0x08;
	tf.rcx = idx;
	if (hooks[VEC_UD](&tf)) {
		*v = tf.rdx << 32 | (uint32_t)tf.rax;
		return 0;
	}
	vec = (int)tf.vector;
	return vec;
}

/* The MMX Pentium: RDPMC 0 and 1 read the 40-bit counters at CPL 0, and
 * at CPL 3 only with CR4.PCE set (else #GP(0)); other indices #GP(0).
 * A Pentium without MMX: #UD at any CPL, whatever CR4.PCE says. */
static void test_rdpmc(void **state)
{
	uint64_t v = 0;

	(void)state;
	start(P55C);
	wr(CTR0, 0xab12345678ull);
	wr(CTR1, 0x0011223344ull);
	for (int pce = 0; pce < 2; pce++) {
		model_cpl3_pce(pce);
		assert_int_equal(exec_rdpmc(0, 0, &v), 0);
		assert_int_equal(v, 0xab12345678ull);
		assert_int_equal(exec_rdpmc(0, 1, &v), 0);
		assert_int_equal(v, 0x0011223344ull);
		assert_int_equal(exec_rdpmc(0, 2, &v), VEC_GP);
		if (pce) {
			assert_int_equal(exec_rdpmc(3, 0, &v), 0);
			assert_int_equal(v, 0xab12345678ull);
			assert_int_equal(exec_rdpmc(3, 1, &v), 0);
			assert_int_equal(v, 0x0011223344ull);
		} else {
			assert_int_equal(exec_rdpmc(3, 0, &v), VEC_GP);
			assert_int_equal(exec_rdpmc(3, 1, &v), VEC_GP);
		}
		assert_int_equal(exec_rdpmc(3, 2, &v), VEC_GP);
	}
	/* the model's own op agrees */
	assert_int_equal(m->rdpmc(1, &v), 0);
	assert_int_equal(v, 0x0011223344ull);
	start(P54C);
	for (int pce = 0; pce < 2; pce++) {
		model_cpl3_pce(pce);
		assert_int_equal(exec_rdpmc(0, 0, &v), VEC_UD);
		assert_int_equal(exec_rdpmc(3, 0, &v), VEC_UD);
	}
	model_cpl3_pce(-1);
}

/* ==== a prediction beside the live model (pmu/model.h) ================= */

/* model_predict_begin() gives a model as freshly reset, whatever the live
 * one holds, and model_predict_end() gives the live one back as it was:
 * its registers, its counts and its clock.  Where no model is live the
 * prediction's model is live only while it runs.  A prediction raises no
 * PMI (the host's APIC stub would answer -1). */
static void test_prediction_leaves_live_model(void **state)
{
	struct insn_event e = { .cpl = 3, .retired = 1 };
	uint64_t fresh_cesr, fresh_ctr0, clock_before;
	uint64_t cesr = half(0, 0x16, 2, 0) | half(1, 0x00, 3, 0);

	(void)state;
	start(P55C);
	fresh_cesr = rd(CESR);
	fresh_ctr0 = rd(CTR0);
	wr(CESR, cesr);
	wr(CTR0, 1000);
	step(&e);				/* CTR0 1001 */
	clock_before = model_clock();

	assert_null(model_predict_begin(PMU_P5, &fake_cpu));
	assert_ptr_equal(model_active(), m);
	assert_int_equal(rd(CESR), fresh_cesr);
	assert_int_equal(rd(CTR0), fresh_ctr0);
	assert_int_equal(model_clock(), 0);
	assert_non_null(model_predict_begin(PMU_P5, &fake_cpu));
	wr(CESR, half(0, 0x16, 3, 0));
	step(&e);
	step(&e);
	assert_int_equal(rd(CTR0), fresh_ctr0 + 2);
	assert_int_equal(model_raise_pmi(0), 0);
	model_predict_end();

	assert_int_equal(rd(CESR), cesr);
	assert_int_equal(rd(CTR0), 1001);
	assert_int_equal(model_clock(), clock_before);
	assert_int_equal(model_raise_pmi(0), -1);

	model_activate(NULL);
	assert_null(model_predict_begin(PMU_P5, &fake_cpu));
	assert_ptr_equal(model_active(), m);
	model_predict_end();
	assert_null(model_active());
}

/* counting: pmu_model.counting, the window backend=emulated traces: an
 * instruction retiring now would be counted at some CPL when either CESR
 * half's CC enables CPL 3 (middle bit) or CPL 0-2 (low bit), events or
 * clocks; 000 and 100 count nothing (§18.23.1).  ES alone enables
 * nothing. */
static void test_counting(void **state)
{
	(void)state;
	for (unsigned ctr = 0; ctr < 2; ctr++)
	for (unsigned cc = 0; cc < 8; cc++) {
		int want = cc_counts_at(cc, 0) || cc_counts_at(cc, 3);

		start(P55C);
		assert_non_null(m->counting);
		assert_int_equal(m->counting(), 0);
		wr(CESR, half(ctr, 0x16, cc, 0) | half(!ctr, 0x16, 0, 1));
		if (!!m->counting() != want)
			fail_msg("CC%u=%u%u%u: counting %d, want %d", ctr,
				 cc >> 2 & 1, cc >> 1 & 1, cc & 1,
				 m->counting(), want);
		wr(CESR, half(ctr, 0x16, cc & 4, 0));
		assert_int_equal(m->counting(), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cc_each_cpl),
		cmocka_unit_test(test_cc_off_keeps),
		cmocka_unit_test(test_halves_independent),
		cmocka_unit_test(test_events_as_table),
		cmocka_unit_test(test_wrap_40),
		cmocka_unit_test(test_reserved_bits),
		cmocka_unit_test(test_rdpmc),
		cmocka_unit_test(test_prediction_leaves_live_model),
		cmocka_unit_test(test_counting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
