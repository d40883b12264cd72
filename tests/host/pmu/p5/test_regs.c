/* Host tests for the Pentium (P5) PMU: the CESR field logic and the
 * counter-control rule (pmu/p5/regs.c), the event table's semantic counts
 * (pmu/p5/events.c), the reference model (pmu/p5/model.c behind
 * pmu/model.c) fed synthetic single-step events of mixed CPL, and the
 * driver's half/shadow logic (pmu/p5/driver.c: p5_program() leaves the counter
 * stopped, p5_start() sets its CC) over a stub backend that dispatches to
 * the model, counts the accesses and injects faults.  The ops table and
 * the order of p5_program()'s accesses, through the real backend and its
 * access log, are in tests/host/pmu/p5/test_driver.c.
 *
 * Every expected value here is written by hand from the CESR text of SDM
 * Vol. 3B §18.23.1 (seed 001): ES0 bits 5:0, CC0 8:6, PC0 9, ES1 21:16,
 * CC1 24:22, PC1 25, all other bits reserved; CC bit 2 counts clocks
 * (the event's duration) instead of events, bit 1 enables CPL 3, bit 0
 * enables CPL 0-2; CTR0/CTR1 are 40 bits; RDPMC exists only on the
 * Pentium with MMX technology.
 *
 * Stubs: cpu_info() returns a signature the test sets (family 5 model 2 is
 * a P54C without RDPMC, model 4 a P55C with it); be_rdmsr/be_wrmsr/
 * be_rdpmc go to the live model; backend_current() says "model" unless a
 * test plays hardware; trap_set_hook() keeps the model's RDPMC hooks for
 * the test to call; tests/host/pmu/p5/stub_model.c links the model.  The
 * P5's descriptor comes with its driver and model, the P6's alone
 * (tests/host/pmu/p6/stub_generation.c): model_for() has the P5's model
 * only (see stub_model.c why). */
#include <stdio.h>
#include <string.h>
#include <ctype.h>

#include "pmu/p5/regs.h"
#include "pmu/p5/events.h"
#include "pmu/p5/driver.h"
#include "pmu/model.h"
#include "pmu/backend.h"
#include "pmu/detect.h"
#include "arch/x86/trace.h"
#include "arch/x86/trap.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: tests/host/pmu/p5/stub_model.c pmu/model.c pmu/noise.c tests/host/arch/x86/stub_smp.c pmu/p5/regs.c pmu/p5/events.c pmu/p5/driver.c pmu/driver.c pmu/sem.c pmu/cpu_model.c lib/fmt.c lib/string.c pmu/generation.c pmu/p5/generation.c tests/host/pmu/p6/stub_generation.c pmu/emufault.c lib/escape.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define CTR_TOP (1ull << 40)

/* ---- stubs ------------------------------------------------------------ */

static struct cpu_info fake_cpu;

const struct cpu_info *cpu_info(void)
{
	return &fake_cpu;
}

static void set_sig(unsigned family, unsigned model)
{
	memset(&fake_cpu, 0, sizeof(fake_cpu));
	memcpy(fake_cpu.vendor_id, "GenuineIntel", 13);
	fake_cpu.vendor = VENDOR_INTEL;
	fake_cpu.sig.family = family;
	fake_cpu.sig.model = model;
	fake_cpu.sig.raw = family << 8 | model << 4;
	fake_cpu.pmu = PMU_P5;
	fake_cpu.counters = 2;
	fake_cpu.width = 40;
}

/* The backend the driver sees: the live model, with every access counted
 * and faults or a corrupted CESR read-back injectable. */
static struct {
	unsigned rdmsr, wrmsr, rdpmc;
	uint32_t last_wr_msr;
	uint64_t last_wr_val;
	int rd_fault, wr_fault;		/* vector to raise instead, or 0 */
	uint32_t cesr_xor_after_wr;	/* armed: CESR reads after a write */
	unsigned cesr_xor_skip;		/* ...after this many more CESR
					 * writes went through clean */
	uint32_t cesr_xor;		/* active corruption of CESR reads */
} be;

int be_rdmsr(uint32_t msr, uint64_t *v)
{
	const struct pmu_model *m = model_active();
	int vec;

	be.rdmsr++;
	if (be.rd_fault)
		return be.rd_fault;
	if (!m)
		return VEC_GP;
	vec = m->rdmsr(msr, v);
	if (!vec && msr == P5_MSR_CESR)
		*v ^= be.cesr_xor;
	return vec;
}

int be_wrmsr(uint32_t msr, uint64_t v)
{
	const struct pmu_model *m = model_active();

	be.wrmsr++;
	be.last_wr_msr = msr;
	be.last_wr_val = v;
	if (be.wr_fault)
		return be.wr_fault;
	if (!m)
		return VEC_GP;
	if (msr == P5_MSR_CESR) {
		if (be.cesr_xor_skip)
			be.cesr_xor_skip--;
		else
			be.cesr_xor = be.cesr_xor_after_wr;
	}
	return m->wrmsr(msr, v);
}

int be_rdpmc(uint32_t idx, uint64_t *v)
{
	const struct pmu_model *m = model_active();

	be.rdpmc++;
	if (!m)
		return VEC_GP;
	return m->rdpmc(idx, v);
}

/* What p5_rdpmc_usable() asks: which backend stands behind be_*.  The
 * model, unless a test plays hardware (erratum 74). */
static struct backend stub_backend = {
	BE_MODEL, "model", be_rdmsr, be_wrmsr, be_rdpmc, model_feed,
};

const struct backend *backend_current(void)
{
	return &stub_backend;
}

/* model_activate() hooks #UD and #GP to answer RDPMC instructions as the
 * modelled CPU would (pmu/model.c); the hooks are kept here to be called
 * by hand. */
static trap_hook_fn hooks[32];

void trap_set_hook(unsigned vector, trap_hook_fn fn)
{
	assert_true(vector < N(hooks));
	hooks[vector] = fn;
}

/* ---- helpers ---------------------------------------------------------- */

#define P54C 2u		/* family 5 model 2: Pentium, no RDPMC */
#define P55C 4u		/* family 5 model 4: Pentium with MMX technology */

static const struct pmu_model *p5m;

/* A fresh CPU of this model: the P5 model activated (reset) and the
 * backend's counters cleared. */
static void start(unsigned model)
{
	set_sig(5, model);
	p5m = model_for(PMU_P5);
	assert_non_null(p5m);
	model_activate(p5m);
	memset(&be, 0, sizeof(be));
	stub_backend.id = BE_MODEL;
}

static uint64_t rd(uint32_t msr)
{
	uint64_t v = 0xdeadbeefull;

	assert_int_equal(p5m->rdmsr(msr, &v), 0);
	return v;
}

static void wr(uint32_t msr, uint64_t v)
{
	assert_int_equal(p5m->wrmsr(msr, v), 0);
	assert_int_equal(rd(msr), v);
}

static uint32_t half(unsigned es, unsigned cc, unsigned pc)
{
	return es | cc << 6 | pc << 9;
}

/* Case-insensitive "does s hold the hex digits of v" (padded or not). */
static int names_hex(const char *s, uint32_t v)
{
	char want[16], low[200];
	size_t i;

	snprintf(want, sizeof(want), "%x", (unsigned)v);
	for (i = 0; s[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	low[i] = 0;
	return strstr(low, want) != NULL;
}

/* ---- the synthetic stream --------------------------------------------- */

#define BR DEC_BRANCH
#define TK EV_TAKEN

/* 17 single-step events, CPLs interleaved: 5 at CPL 0, 3 at CPL 1, 2 at
 * CPL 2, 7 at CPL 3.  Flags, loads and stores as the classifier gives
 * them (near RET loads 1, far RET loads 2 and loads CS) plus synthetic
 * extras (INT n with 2 stores). */
static const struct insn_event stream[] = {
	/* a CPL0 push rax */
	{ .cpl = 0, .retired = 1, .flags = 0, .stores = 1 },
	/* f CPL3 ret (taken) */
	{ .cpl = 3, .retired = 1, .flags = BR | DEC_RET | DEC_INDIRECT | TK,
	  .loads = 1 },
	/* b CPL0 add rax,[mem] */
	{ .cpl = 0, .retired = 1, .flags = 0, .loads = 1 },
	/* g CPL3 jcc not taken */
	{ .cpl = 3, .retired = 1, .flags = BR | DEC_COND },
	/* m CPL1 add [mem],rax */
	{ .cpl = 1, .retired = 1, .flags = 0, .loads = 1, .stores = 1 },
	/* c CPL0 jcc not taken */
	{ .cpl = 0, .retired = 1, .flags = BR | DEC_COND },
	/* h CPL3 mov [mem],rax */
	{ .cpl = 3, .retired = 1, .flags = 0, .stores = 1 },
	/* p CPL2 nop */
	{ .cpl = 2, .retired = 1, .flags = 0 },
	/* i CPL3 rep movsb, an iteration that is not the last */
	{ .cpl = 3, .retired = 0, .flags = DEC_REP_STRING, .iterations = 1,
	  .loads = 1, .stores = 1 },
	/* d CPL0 call rel32 (pushes the return address) */
	{ .cpl = 0, .retired = 1, .flags = BR | DEC_CALL | TK, .stores = 1 },
	/* n CPL1 ret (taken) */
	{ .cpl = 1, .retired = 1, .flags = BR | DEC_RET | DEC_INDIRECT | TK,
	  .loads = 1 },
	/* j CPL3 rep movsb, the last iteration */
	{ .cpl = 3, .retired = 1, .flags = DEC_REP_STRING, .iterations = 1,
	  .loads = 1, .stores = 1 },
	/* e CPL0 rep movsb, an iteration that is not the last */
	{ .cpl = 0, .retired = 0, .flags = DEC_REP_STRING, .iterations = 1,
	  .loads = 1, .stores = 1 },
	/* k CPL3 int n (far transfer) */
	{ .cpl = 3, .retired = 1, .flags = DEC_FAR | TK, .stores = 2 },
	/* o CPL1 jmp [mem] (taken) */
	{ .cpl = 1, .retired = 1, .flags = BR | DEC_INDIRECT | TK,
	  .loads = 1 },
	/* l CPL3 mov ds,[mem] */
	{ .cpl = 3, .retired = 1, .flags = DEC_SEGLOAD, .loads = 1 },
	/* q CPL2 retf (far, loads CS) */
	{ .cpl = 2, .retired = 1, .flags = DEC_FAR | DEC_SEGLOAD | TK,
	  .loads = 2 },
};

/* By hand, CPL 0-2 (a b c d e m n o p q) | CPL 3 (f g h i j k l):
 *   retired instructions  9 (not e)           | 6 (not i)
 *   loads                 7 (b e m n o q=2)   | 4 (f i j l)
 *   stores                4 (a d e m)         | 5 (h i j k=2)
 *   loads + stores       11                   | 9
 *   branches incl. far    5 (c d n o q)       | 3 (f g k)
 *   taken                 4 (d n o q)         | 2 (f k)
 *   near returns          1 (n)               | 1 (f)
 *   segment loads         1 (q)               | 1 (l)
 *   traced steps         10                   | 7
 * CC 1xx counts clocks while the event's condition holds (its duration).
 * The model clock is one cycle per step, so the model counts the steps
 * that have the event, for an event that is one count of pmu/sem.h; the
 * duration of a sum of counts (0x12, 0x28, 0x32) or of an unmodelled
 * event is not modelled and counts 0:
 *   steps with a retired instruction  9 | 6
 *   steps with loads                  6 (b e m n o q) | 4 (f i j l)
 *   steps with stores                 4 (a d e m)     | 4 (h i j k)
 *   steps with a segment load         1 (q)           | 1 (l)
 *   steps with a near return          1 (n)           | 1 (f)
 * Columns below: CC 000 001 010 011 100 101 110 111. */
struct ev_case {
	unsigned code;
	unsigned ctr;
	unsigned model;		/* P54C or P55C */
	uint64_t want[8];
};

static const struct ev_case ev_cases[] = {
	{ 0x16, 0, P55C, { 0, 9, 6, 15, 0, 9, 6, 15 } },
	{ 0x16, 1, P55C, { 0, 9, 6, 15, 0, 9, 6, 15 } },
	{ 0x00, 0, P55C, { 0, 7, 4, 11, 0, 6, 4, 10 } },
	{ 0x00, 1, P55C, { 0, 7, 4, 11, 0, 6, 4, 10 } },
	{ 0x01, 0, P55C, { 0, 4, 5, 9, 0, 4, 4, 8 } },
	{ 0x01, 1, P55C, { 0, 4, 5, 9, 0, 4, 4, 8 } },
	{ 0x28, 0, P55C, { 0, 11, 9, 20, 0, 0, 0, 0 } },
	{ 0x28, 1, P55C, { 0, 11, 9, 20, 0, 0, 0, 0 } },
	{ 0x12, 0, P55C, { 0, 5, 3, 8, 0, 0, 0, 0 } },
	{ 0x12, 1, P55C, { 0, 5, 3, 8, 0, 0, 0, 0 } },
	{ 0x0f, 0, P55C, { 0, 1, 1, 2, 0, 1, 1, 2 } },
	{ 0x0f, 1, P55C, { 0, 1, 1, 2, 0, 1, 1, 2 } },
	{ 0x32, 1, P55C, { 0, 4, 2, 6, 0, 0, 0, 0 } },
	{ 0x39, 0, P55C, { 0, 1, 1, 2, 0, 1, 1, 2 } },
	/* the same events on a P54C: identical for the original events... */
	{ 0x16, 0, P54C, { 0, 9, 6, 15, 0, 9, 6, 15 } },
	{ 0x28, 1, P54C, { 0, 11, 9, 20, 0, 0, 0, 0 } },
	{ 0x12, 1, P54C, { 0, 5, 3, 8, 0, 0, 0, 0 } },
	{ 0x01, 1, P54C, { 0, 4, 5, 9, 0, 4, 4, 8 } },
	/* ...and the MMX-era codes select no event there */
	{ 0x32, 1, P54C, { 0, 0, 0, 0, 0, 0, 0, 0 } },
	{ 0x39, 0, P54C, { 0, 0, 0, 0, 0, 0, 0, 0 } },
	/* 0x39 is reserved on CTR1, 0x32 on CTR0 selects a duration the
	 * trace cannot see, 0x02 (data TLB miss) is not modelled, 0x10 is
	 * reserved: none counts, events or clocks */
	{ 0x39, 1, P55C, { 0, 0, 0, 0, 0, 0, 0, 0 } },
	{ 0x32, 0, P55C, { 0, 0, 0, 0, 0, 0, 0, 0 } },
	{ 0x02, 0, P55C, { 0, 0, 0, 0, 0, 0, 0, 0 } },
	{ 0x02, 1, P55C, { 0, 0, 0, 0, 0, 0, 0, 0 } },
	{ 0x10, 0, P55C, { 0, 0, 0, 0, 0, 0, 0, 0 } },
	{ 0x10, 1, P55C, { 0, 0, 0, 0, 0, 0, 0, 0 } },
};

static const uint64_t want_16[8] = { 0, 9, 6, 15, 0, 9, 6, 15 };
static const uint64_t want_28[8] = { 0, 11, 9, 20, 0, 0, 0, 0 };

static void feed_stream(void)
{
	for (unsigned i = 0; i < N(stream); i++)
		model_feed(&stream[i], NULL);
}

/* One plain retired instruction at this CPL. */
static void feed_plain(unsigned cpl, unsigned n)
{
	struct insn_event e = { .cpl = (uint8_t)cpl, .retired = 1 };

	for (unsigned i = 0; i < n; i++)
		model_feed(&e, NULL);
}

/* ==== 1. CESR encode/decode ============================================ */

struct pos_case {
	uint32_t base;
	unsigned ctr, es, cc, pc;
	uint32_t want;
};

static const struct pos_case positions[] = {
	/* single fields, CTR0: ES0 5:0, CC0 8:6, PC0 9 */
	{ 0, 0, 0x01, 0, 0, 0x00000001 },
	{ 0, 0, 0x20, 0, 0, 0x00000020 },
	{ 0, 0, 0x3f, 0, 0, 0x0000003f },
	{ 0, 0, 0, 1, 0, 0x00000040 },
	{ 0, 0, 0, 2, 0, 0x00000080 },
	{ 0, 0, 0, 4, 0, 0x00000100 },
	{ 0, 0, 0, 7, 0, 0x000001c0 },
	{ 0, 0, 0, 0, 1, 0x00000200 },
	{ 0, 0, 0x3f, 7, 1, 0x000003ff },
	/* single fields, CTR1: ES1 21:16, CC1 24:22, PC1 25 */
	{ 0, 1, 0x01, 0, 0, 0x00010000 },
	{ 0, 1, 0x20, 0, 0, 0x00200000 },
	{ 0, 1, 0x3f, 0, 0, 0x003f0000 },
	{ 0, 1, 0, 1, 0, 0x00400000 },
	{ 0, 1, 0, 2, 0, 0x00800000 },
	{ 0, 1, 0, 4, 0, 0x01000000 },
	{ 0, 1, 0, 7, 0, 0x01c00000 },
	{ 0, 1, 0, 0, 1, 0x02000000 },
	{ 0, 1, 0x3f, 7, 1, 0x03ff0000 },
	/* mixed values */
	{ 0, 0, 0x16, 3, 1, 0x000002d6 },
	{ 0, 1, 0x28, 6, 0, 0x01a80000 },
	{ 0, 1, 0x20, 4, 1, 0x03200000 },
	{ 0x000002d6, 1, 0x28, 6, 0, 0x01a802d6 },
	{ 0x01a80000, 0, 0x16, 3, 1, 0x01a802d6 },
	/* replacing a half clears its old bits */
	{ 0x01a802d6, 0, 0x00, 0, 0, 0x01a80000 },
	{ 0x01a802d6, 1, 0x00, 0, 0, 0x000002d6 },
	{ 0x03ff03ff, 0, 0x15, 2, 0, 0x03ff0095 },
	{ 0x03ff03ff, 1, 0x2a, 5, 1, 0x036a03ff },
};

static void test_cesr_bit_positions(void **state)
{
	for (unsigned i = 0; i < N(positions); i++) {
		const struct pos_case *c = &positions[i];
		struct p5_half h = { c->es, c->cc, c->pc };
		uint32_t got = cesr_set_half(c->base, c->ctr, &h);
		struct p5_half back = cesr_get_half(c->want, c->ctr);

		if (got != c->want)
			fail_msg("set_half(0x%08x, CTR%u, es 0x%x cc %u pc %u) "
				 "= 0x%08x, want 0x%08x", c->base, c->ctr, c->es,
				 c->cc, c->pc, got, c->want);
		if (back.es != c->es || back.cc != c->cc || back.pc != c->pc)
			fail_msg("get_half(0x%08x, CTR%u) = es 0x%x cc %u pc %u, "
				 "want es 0x%x cc %u pc %u", c->want, c->ctr,
				 back.es, back.cc, back.pc, c->es, c->cc, c->pc);
	}
}

/* Decoding hand-written registers: each field read where the SDM puts it. */
static void test_cesr_decode_fields(void **state)
{
	static const struct {
		uint32_t cesr;
		unsigned es0, cc0, pc0, es1, cc1, pc1;
	} cases[] = {
		{ 0x00000000, 0, 0, 0, 0, 0, 0 },
		{ 0x03ff03ff, 0x3f, 7, 1, 0x3f, 7, 1 },
		{ 0x01a802d6, 0x16, 3, 1, 0x28, 6, 0 },
		{ 0x02570129, 0x29, 4, 0, 0x17, 1, 1 },
		/* reserved bits set around the fields never leak into them */
		{ 0xfc00fc00, 0, 0, 0, 0, 0, 0 },
		{ 0xffffffff, 0x3f, 7, 1, 0x3f, 7, 1 },
		{ 0xfda8fed6, 0x16, 3, 1, 0x28, 6, 0 },
	};

	for (unsigned i = 0; i < N(cases); i++) {
		struct p5_half h0 = cesr_get_half(cases[i].cesr, 0);
		struct p5_half h1 = cesr_get_half(cases[i].cesr, 1);

		if (h0.es != cases[i].es0 || h0.cc != cases[i].cc0 ||
		    h0.pc != cases[i].pc0 || h1.es != cases[i].es1 ||
		    h1.cc != cases[i].cc1 || h1.pc != cases[i].pc1)
			fail_msg("CESR 0x%08x decodes as CTR0 %x/%u/%u CTR1 "
				 "%x/%u/%u", cases[i].cesr, h0.es, h0.cc, h0.pc,
				 h1.es, h1.cc, h1.pc);
	}
}

/* Other-half contents to keep (as 10-bit half values). */
static const uint32_t other_halves[] = {
	0x000, 0x3ff, 0x2aa, 0x155, 0x2d6, 0x001, 0x200, 0x1c0, 0x03f, 0x129,
};

/* Every ES 0..63, CC 0..7, PC 0/1 on both counters round-trips, and the
 * other half's bits stay exactly as they were. */
static void test_cesr_round_trip(void **state)
{
	for (unsigned ctr = 0; ctr < 2; ctr++) {
		unsigned sh = ctr ? 16 : 0, osh = ctr ? 0 : 16;
		uint32_t mine = 0x3ffu << sh, theirs = 0x3ffu << osh;

		for (unsigned o = 0; o < N(other_halves); o++)
		for (unsigned junk = 0; junk < 2; junk++)
		for (unsigned es = 0; es < 64; es++)
		for (unsigned cc = 0; cc < 8; cc++)
		for (unsigned pc = 0; pc < 2; pc++) {
			/* this half holds something else first */
			uint32_t base = other_halves[o] << osh |
					(junk ? mine : 0x155u << sh);
			struct p5_half h = { es, cc, pc };
			struct p5_half ob = cesr_get_half(base, !ctr);
			uint32_t r = cesr_set_half(base, ctr, &h);
			struct p5_half b = cesr_get_half(r, ctr);
			struct p5_half oa = cesr_get_half(r, !ctr);

			if (b.es != es || b.cc != cc || b.pc != pc)
				fail_msg("CTR%u es 0x%x cc %u pc %u over 0x%08x "
					 "reads back es 0x%x cc %u pc %u", ctr,
					 es, cc, pc, base, b.es, b.cc, b.pc);
			if ((r & theirs) != (base & theirs) ||
			    oa.es != ob.es || oa.cc != ob.cc || oa.pc != ob.pc)
				fail_msg("CTR%u es 0x%x cc %u pc %u changed the "
					 "other half: 0x%08x -> 0x%08x", ctr, es,
					 cc, pc, base, r);
			if (r & ~(mine | theirs))
				fail_msg("0x%08x -> 0x%08x sets a reserved bit",
					 base, r);
		}
	}
}

/* Bits 0-9 and 16-25 are defined; every other bit of the 64 is reserved. */
static void test_cesr_reserved(void **state)
{
	static const unsigned defined[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
		16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
	};

	for (unsigned bit = 0; bit < 64; bit++) {
		int def = 0;

		for (unsigned i = 0; i < N(defined); i++)
			def |= defined[i] == bit;
		if ((cesr_reserved(1ull << bit) != 0) != !def)
			fail_msg("bit %u: cesr_reserved = %d, want %d", bit,
				 cesr_reserved(1ull << bit) != 0, !def);
		/* also next to every defined bit */
		if ((cesr_reserved(0x03ff03ffull | 1ull << bit) != 0) != !def)
			fail_msg("0x03ff03ff | bit %u: wrong", bit);
	}
	assert_false(cesr_reserved(0));
	assert_false(cesr_reserved(0x03ff03ffull));
	assert_true(cesr_reserved(0xfc00fc00ull));
	assert_true(cesr_reserved(0xffffffff00000000ull));
	assert_true(cesr_reserved(~0ull));
}

/* ==== 2. the counter-control rule ====================================== */

/* Seed 001: 000 nothing; 001 CPL 0,1,2; 010 CPL 3; 011 any; 100 nothing;
 * 101 clocks at CPL 0,1,2; 110 clocks at CPL 3; 111 clocks at any CPL. */
static const int cc_table[8][4] = {
	/*  CPL 0  1  2  3 */
	[0] = { 0, 0, 0, 0 },
	[1] = { 1, 1, 1, 0 },
	[2] = { 0, 0, 0, 1 },
	[3] = { 1, 1, 1, 1 },
	[4] = { 0, 0, 0, 0 },
	[5] = { 1, 1, 1, 0 },
	[6] = { 0, 0, 0, 1 },
	[7] = { 1, 1, 1, 1 },
};

static void test_cc_counts_at(void **state)
{
	for (unsigned cc = 0; cc < 8; cc++)
		for (unsigned cpl = 0; cpl < 4; cpl++) {
			int got = p5_cc_counts_at(cc, cpl) != 0;

			if (got != cc_table[cc][cpl])
				fail_msg("CC %u%u%u at CPL %u: %d, want %d",
					 cc >> 2 & 1, cc >> 1 & 1, cc & 1, cpl,
					 got, cc_table[cc][cpl]);
		}
}

/* ==== 2b. the event table's semantic counts ============================ */

/* What each modelled event counts, as SEM_BIT masks (pmu/sem.h), by hand
 * from the event names of SDM Table 19-38: the Pentium counts far
 * transfers among branches (0x12) and taken branches (0x32).  Every other
 * (code, counter, CPU) that selects an event has sem 0. */
static const struct {
	unsigned code, ctr;
	int mmx_only;
	const char *name;
	uint32_t sem;
} modelled[] = {
	{ 0x00, 0, 0, "DATA_READ", SEM_BIT(SEM_LOADS) },
	{ 0x00, 1, 0, "DATA_READ", SEM_BIT(SEM_LOADS) },
	{ 0x01, 0, 0, "DATA_WRITE", SEM_BIT(SEM_STORES) },
	{ 0x01, 1, 0, "DATA_WRITE", SEM_BIT(SEM_STORES) },
	{ 0x0f, 0, 0, "ANY_SEGMENT_REGISTER_LOADED", SEM_BIT(SEM_SEGLOADS) },
	{ 0x0f, 1, 0, "ANY_SEGMENT_REGISTER_LOADED", SEM_BIT(SEM_SEGLOADS) },
	{ 0x12, 0, 0, "BRANCHES", SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR) },
	{ 0x12, 1, 0, "BRANCHES", SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR) },
	{ 0x16, 0, 0, "INSTRUCTIONS_EXECUTED", SEM_BIT(SEM_INSTRUCTIONS) },
	{ 0x16, 1, 0, "INSTRUCTIONS_EXECUTED", SEM_BIT(SEM_INSTRUCTIONS) },
	{ 0x28, 0, 0, "DATA_READ_OR_WRITE",
	  SEM_BIT(SEM_LOADS) | SEM_BIT(SEM_STORES) },
	{ 0x28, 1, 0, "DATA_READ_OR_WRITE",
	  SEM_BIT(SEM_LOADS) | SEM_BIT(SEM_STORES) },
	{ 0x32, 1, 1, "TAKEN_BRANCHES", SEM_BIT(SEM_TAKEN) | SEM_BIT(SEM_FAR) },
	{ 0x39, 0, 1, "RETURNS", SEM_BIT(SEM_RETURNS) },
};

static void test_event_sem_masks(void **state)
{
	unsigned seen = 0;

	/* the rows, on the CPUs that have them */
	for (unsigned i = 0; i < N(modelled); i++)
		for (int mmx = modelled[i].mmx_only; mmx < 2; mmx++) {
			const struct p5_event *ev =
				p5_event_for(modelled[i].code,
					     modelled[i].ctr, mmx);

			if (!ev)
				fail_msg("0x%02x CTR%u mmx %d: no event",
					 modelled[i].code, modelled[i].ctr,
					 mmx);
			assert_string_equal(ev->name, modelled[i].name);
			if (ev->sem != modelled[i].sem)
				fail_msg("%s (0x%02x CTR%u): sem 0x%x, want 0x%x",
					 ev->name, ev->code, modelled[i].ctr,
					 ev->sem, modelled[i].sem);
			assert_null(ev->why_not);
			assert_false(ev->duration);
		}
	/* every other event: sem 0, with the reason the trace cannot see it;
	 * no mask names a count past SEM_ARCH_NR (clocks are CC 1xx's) */
	for (int mmx = 0; mmx < 2; mmx++)
	for (unsigned ctr = 0; ctr < 2; ctr++)
	for (unsigned code = 0; code < 64; code++) {
		const struct p5_event *ev = p5_event_for(code, ctr, mmx);
		int listed = 0;

		if (!ev)
			continue;
		for (unsigned i = 0; i < N(modelled); i++)
			listed |= modelled[i].code == code &&
				  modelled[i].ctr == ctr;
		if (listed) {
			seen++;
			assert_int_equal(ev->sem & ~((1u << SEM_ARCH_NR) - 1),
					 0);
			continue;
		}
		if (ev->sem != 0)
			fail_msg("%s (0x%02x CTR%u): sem 0x%x, want 0 (not "
				 "modelled)", ev->name, code, ctr, ev->sem);
		if (!ev->why_not || !ev->why_not[0])
			fail_msg("%s (0x%02x CTR%u): sem 0 without a reason",
				 ev->name, code, ctr);
	}
	/* 12 original-Pentium rows on both CPUs, 14 with MMX */
	assert_int_equal(seen, 12 + 14);
	/* spot checks on unmodelled events */
	assert_int_equal(p5_event_for(0x02, 0, 0)->sem, 0);	/* TLB miss */
	assert_int_equal(p5_event_for(0x0c, 1, 0)->sem, 0);	/* code read */
	assert_int_equal(p5_event_for(0x17, 0, 1)->sem, 0);	/* V pipe */
	assert_int_equal(p5_event_for(0x18, 1, 1)->sem, 0);	/* duration */
	assert_int_equal(p5_event_for(0x22, 0, 0)->sem, 0);	/* FLOPS */
	assert_int_equal(p5_event_for(0x37, 0, 1)->sem, 0);	/* ret pred. */
	assert_int_equal(p5_event_for(0x32, 0, 1)->sem, 0);	/* FP stalls */
	/* 0x39 on CTR1 and the MMX codes on a P54C select nothing */
	assert_null(p5_event_for(0x39, 1, 1));
	assert_null(p5_event_for(0x39, 0, 0));
	assert_null(p5_event_for(0x32, 1, 0));
}

/* ==== 3. the reference model =========================================== */

static void test_model_registered(void **state)
{
	start(P55C);
	assert_int_equal(p5m->kind, PMU_P5);
	assert_non_null(p5m->name);
	assert_non_null(strstr(p5m->name, "p5"));
	assert_ptr_equal(model_active(), p5m);
	/* only the P5 model is linked here */
	assert_null(model_for(PMU_P6));
	assert_null(model_for(PMU_ARCH));
}

static void test_model_reset(void **state)
{
	start(P55C);
	assert_int_equal(rd(P5_MSR_CESR), 0);
	assert_int_equal(rd(P5_MSR_CTR0), 0);
	assert_int_equal(rd(P5_MSR_CTR1), 0);
	wr(P5_MSR_CESR, 0x01a802d6);
	wr(P5_MSR_CTR0, 123);
	wr(P5_MSR_CTR1, 0xffffffffffull);
	model_activate(p5m);
	assert_int_equal(rd(P5_MSR_CESR), 0);
	assert_int_equal(rd(P5_MSR_CTR0), 0);
	assert_int_equal(rd(P5_MSR_CTR1), 0);
	assert_int_equal(model_clock(), 0);
	feed_stream();
	assert_int_equal(model_clock(), N(stream));
	/* CESR 0: CC 000 on both counters, nothing counts */
	assert_int_equal(rd(P5_MSR_CTR0), 0);
	assert_int_equal(rd(P5_MSR_CTR1), 0);
}

/* Each of the 8 CC codes, on the counter the case names, over the mixed
 * stream; the other counter (CC 000) stays 0. PC must not matter. */
static void test_model_cc_codes(void **state)
{
	for (unsigned i = 0; i < N(ev_cases); i++) {
		const struct ev_case *c = &ev_cases[i];

		for (unsigned cc = 0; cc < 8; cc++)
		for (unsigned pc = 0; pc < 2; pc++) {
			uint64_t got, other;

			start(c->model);
			wr(P5_MSR_CESR, (uint64_t)half(c->code, cc, pc)
						<< (c->ctr ? 16 : 0));
			feed_stream();
			got = rd(P5_MSR_CTR0 + c->ctr);
			other = rd(P5_MSR_CTR0 + !c->ctr);
			if (got != c->want[cc] || other != 0)
				fail_msg("%s event 0x%02x CTR%u CC %u%u%u PC %u: "
					 "%llu (other counter %llu), want %llu",
					 c->model == P55C ? "P55C" : "P54C",
					 c->code, c->ctr, cc >> 2 & 1,
					 cc >> 1 & 1, cc & 1, pc,
					 (unsigned long long)got,
					 (unsigned long long)other,
					 (unsigned long long)c->want[cc]);
		}
	}
}

/* Both halves at once, every pair of codes: each counter follows its
 * own half only. */
static void test_model_both_halves(void **state)
{
	for (unsigned cc0 = 0; cc0 < 8; cc0++)
		for (unsigned cc1 = 0; cc1 < 8; cc1++) {
			uint64_t c0, c1;

			start(P55C);
			wr(P5_MSR_CESR, half(0x16, cc0, 1) |
					(uint64_t)half(0x28, cc1, 0) << 16);
			feed_stream();
			c0 = rd(P5_MSR_CTR0);
			c1 = rd(P5_MSR_CTR1);
			if (c0 != want_16[cc0] || c1 != want_28[cc1])
				fail_msg("CC0 %u CC1 %u: CTR0 %llu CTR1 %llu, "
					 "want %llu %llu", cc0, cc1,
					 (unsigned long long)c0,
					 (unsigned long long)c1,
					 (unsigned long long)want_16[cc0],
					 (unsigned long long)want_28[cc1]);
		}
}

/* Counting adds to what the counter held; a counter stopped (CC 000 or
 * 100) midway keeps its value. */
static void test_model_accumulates(void **state)
{
	start(P55C);
	wr(P5_MSR_CTR0, 1000);
	wr(P5_MSR_CTR1, 2000);
	wr(P5_MSR_CESR, half(0x16, 3, 0) | (uint64_t)half(0x00, 3, 0) << 16);
	feed_stream();
	assert_int_equal(rd(P5_MSR_CTR0), 1015);
	assert_int_equal(rd(P5_MSR_CTR1), 2011);
	wr(P5_MSR_CESR, half(0x16, 0, 0) | (uint64_t)half(0x00, 4, 0) << 16);
	feed_stream();
	assert_int_equal(rd(P5_MSR_CTR0), 1015);
	assert_int_equal(rd(P5_MSR_CTR1), 2011);
}

/* Is (code, ctr) one of the hand-written modelled[] rows on this CPU? */
static int hand_modelled(unsigned code, unsigned ctr, int mmx)
{
	for (unsigned i = 0; i < N(modelled); i++)
		if (modelled[i].code == code && modelled[i].ctr == ctr &&
		    (!modelled[i].mmx_only || mmx))
			return 1;
	return 0;
}

/* Every code the model cannot observe (no event on that counter of that
 * CPU, or one the trace cannot see: not a row of modelled[], written by
 * hand, never the product's table) never counts under any CC. */
static void test_model_unmodelled_never_count(void **state)
{
	static const unsigned models[] = { P54C, P55C };

	for (unsigned mi = 0; mi < N(models); mi++)
	for (unsigned ctr = 0; ctr < 2; ctr++)
	for (unsigned code = 0; code < 64; code++) {
		if (hand_modelled(code, ctr, models[mi] == P55C))
			continue;
		for (unsigned cc = 1; cc < 4; cc++) {
			uint64_t got;

			start(models[mi]);
			wr(P5_MSR_CESR, (uint64_t)half(code, cc, 0)
						<< (ctr ? 16 : 0));
			feed_stream();
			got = rd(P5_MSR_CTR0 + ctr);
			if (got)
				fail_msg("model %u code 0x%02x CTR%u CC %u "
					 "counted %llu", models[mi], code, ctr,
					 cc, (unsigned long long)got);
		}
	}
	/* the hand-picked ones are among them */
	assert_null(p5_event_for(0x10, 0, 1));
	assert_null(p5_event_for(0x10, 1, 1));
	assert_null(p5_event_for(0x39, 1, 1));
	assert_null(p5_event_for(0x32, 1, 0));
	assert_non_null(p5_event_for(0x02, 0, 0));
	assert_int_equal(p5_event_for(0x02, 0, 0)->sem, 0);
}

/* 40 bits: 2^40-3 plus 5 is 2, on both counters, events and clocks. */
static void test_model_wrap(void **state)
{
	start(P55C);
	wr(P5_MSR_CTR0, CTR_TOP - 3);
	wr(P5_MSR_CTR1, CTR_TOP - 3);
	wr(P5_MSR_CESR, half(0x16, 2, 0) | (uint64_t)half(0x16, 7, 1) << 16);
	feed_plain(3, 5);
	assert_int_equal(rd(P5_MSR_CTR0), 2);
	assert_int_equal(rd(P5_MSR_CTR1), 2);

	/* exactly at the top: 2^40-1 + 1 = 0 */
	start(P54C);
	wr(P5_MSR_CTR0, CTR_TOP - 1);
	wr(P5_MSR_CESR, half(0x16, 1, 0));
	feed_plain(0, 1);
	assert_int_equal(rd(P5_MSR_CTR0), 0);
	feed_plain(0, 1);
	assert_int_equal(rd(P5_MSR_CTR0), 1);

	/* an event adding several at once (loads+stores 2) across the top */
	start(P55C);
	wr(P5_MSR_CTR1, CTR_TOP - 1);
	wr(P5_MSR_CESR, (uint64_t)half(0x28, 3, 0) << 16);
	{
		struct insn_event e = { .cpl = 1, .retired = 1, .loads = 1,
					.stores = 1 };
		model_feed(&e, NULL);
	}
	assert_int_equal(rd(P5_MSR_CTR1), 1);
}

/* A write setting any reserved bit raises #GP (13) and changes nothing. */
static void test_model_reserved_writes(void **state)
{
	start(P55C);
	wr(P5_MSR_CESR, 0x01a802d6);
	wr(P5_MSR_CTR0, 0x123456789aull);
	wr(P5_MSR_CTR1, 0xa987654321ull);
	for (unsigned bit = 0; bit < 64; bit++) {
		int def = bit <= 9 || (bit >= 16 && bit <= 25);
		uint64_t v = 0x01a802d6ull | 1ull << bit;

		if (def)
			continue;
		if (p5m->wrmsr(P5_MSR_CESR, v) != VEC_GP)
			fail_msg("CESR write 0x%llx (bit %u) not #GP",
				 (unsigned long long)v, bit);
		assert_int_equal(rd(P5_MSR_CESR), 0x01a802d6);
	}
	for (unsigned bit = 40; bit < 64; bit++) {
		for (unsigned c = 0; c < 2; c++) {
			uint64_t v = 5 | 1ull << bit;

			if (p5m->wrmsr(P5_MSR_CTR0 + c, v) != VEC_GP)
				fail_msg("CTR%u write 0x%llx not #GP", c,
					 (unsigned long long)v);
		}
		assert_int_equal(rd(P5_MSR_CTR0), 0x123456789aull);
		assert_int_equal(rd(P5_MSR_CTR1), 0xa987654321ull);
	}
	assert_int_equal(p5m->wrmsr(P5_MSR_CTR0, ~0ull), VEC_GP);
	assert_int_equal(rd(P5_MSR_CTR0), 0x123456789aull);
	/* the whole defined range is accepted */
	wr(P5_MSR_CESR, 0x03ff03ff);
	wr(P5_MSR_CTR0, CTR_TOP - 1);
	wr(P5_MSR_CTR1, 0);
}

static void test_model_rdpmc(void **state)
{
	uint64_t v;

	/* P54C: no RDPMC instruction, #UD (6) for every index */
	start(P54C);
	wr(P5_MSR_CTR0, 11);
	wr(P5_MSR_CTR1, 22);
	for (uint32_t idx = 0; idx < 3; idx++) {
		v = 77;
		assert_int_equal(p5m->rdpmc(idx, &v), VEC_UD);
		assert_int_equal(v, 77);
	}
	/* RDMSR still reads the counters */
	assert_int_equal(rd(P5_MSR_CTR0), 11);

	/* P55C (model 4) and the mobile P55C (model 8) */
	for (unsigned model = 4; model <= 8; model += 4) {
		start(model);
		wr(P5_MSR_CTR0, 0x1122334455ull);
		wr(P5_MSR_CTR1, 0xffffffffffull);
		assert_int_equal(p5m->rdpmc(0, &v), 0);
		assert_int_equal(v, 0x1122334455ull);
		assert_int_equal(p5m->rdpmc(1, &v), 0);
		assert_int_equal(v, 0xffffffffffull);
		assert_int_equal(p5m->rdpmc(2, &v), VEC_GP);
		assert_int_equal(p5m->rdpmc(3, &v), VEC_GP);
		assert_int_equal(p5m->rdpmc(0x40000000u, &v), VEC_GP);
		/* counts appear through RDPMC too */
		wr(P5_MSR_CTR0, 0);
		wr(P5_MSR_CESR, half(0x16, 3, 0));
		feed_stream();
		assert_int_equal(p5m->rdpmc(0, &v), 0);
		assert_int_equal(v, 15);
	}
	/* other signatures of family 5 have no RDPMC */
	start(1);
	assert_int_equal(p5m->rdpmc(0, &v), VEC_UD);
	start(7);
	assert_int_equal(p5m->rdpmc(0, &v), VEC_UD);
}

/* The model claims CESR, CTR0 and CTR1 only: other MSRs answer
 * BE_NOT_MODELLED (not a vector: a Pentium may have them), and the three
 * keep their values. */
static void test_model_unknown_msrs(void **state)
{
	static const uint32_t msrs[] = {
		0x00, 0x01, 0x0e, 0x10, 0x14, 0x15, 0xc1, 0xc2, 0x186, 0x187,
		0x38f, 0x111, 0x10011, 0x80000011u, 0xffffffffu,
	};

	start(P55C);
	wr(P5_MSR_CESR, 0x01a802d6);
	wr(P5_MSR_CTR0, 3);
	wr(P5_MSR_CTR1, 4);
	for (unsigned i = 0; i < N(msrs); i++) {
		uint64_t v = 99;

		if (p5m->rdmsr(msrs[i], &v) != BE_NOT_MODELLED)
			fail_msg("RDMSR 0x%x not BE_NOT_MODELLED", msrs[i]);
		if (p5m->wrmsr(msrs[i], 0) != BE_NOT_MODELLED)
			fail_msg("WRMSR 0x%x not BE_NOT_MODELLED", msrs[i]);
	}
	assert_int_equal(rd(P5_MSR_CESR), 0x01a802d6);
	assert_int_equal(rd(P5_MSR_CTR0), 3);
	assert_int_equal(rd(P5_MSR_CTR1), 4);
}

/* While a model is live, #UD and #GP are hooked so that a real RDPMC
 * instruction (0F 33) is answered as the modelled CPU would: the counter
 * in EDX:EAX and RIP past the instruction, or the model's fault.  Only
 * CPL 0 frames, and CPL 3 on a CPU without RDPMC (#UD decides before
 * CR4.PCE is read), can run on the host: the CR4.PCE rule at CPL 3 is
 * p5/rdpmc-cpl3-* on the target. */
static void test_model_rdpmc_insn(void **state)
{
	static const uint8_t rdpmc[] = { 0x0f, 0x33, 0x90 };
	static const uint8_t rdtsc[] = { 0x0f, 0x31, 0x90 };
	static const uint8_t ud2[] = { 0x0f, 0x0b, 0x90 };
	struct trap_frame tf, before;

	start(P55C);
	assert_non_null(hooks[VEC_UD]);
	assert_ptr_equal(hooks[VEC_UD], hooks[VEC_GP]);
	wr(P5_MSR_CTR0, 0x0011223344ull);
	wr(P5_MSR_CTR1, 0xab12345678ull);

	/* CPL 0 RDPMC 1 from #UD (QEMU has none) and from #GP */
	for (unsigned vec = VEC_UD; vec <= VEC_GP; vec += VEC_GP - VEC_UD) {
		memset(&tf, 0, sizeof(tf));
		tf.vector = vec;
		tf.rip = (uint64_t)(uintptr_t)rdpmc;
		tf.cs = 0x08;
		tf.rcx = 1;
		tf.rax = tf.rdx = 0xdeadbeefdeadbeefull;
		assert_int_equal(hooks[vec](&tf), 1);
		assert_int_equal(tf.rax, 0x12345678);
		assert_int_equal(tf.rdx, 0xab);
		assert_int_equal(tf.rip, (uint64_t)(uintptr_t)rdpmc + 2);
	}
	/* counter 0; ECX's upper half of RCX ignored */
	memset(&tf, 0, sizeof(tf));
	tf.vector = VEC_UD;
	tf.rip = (uint64_t)(uintptr_t)rdpmc;
	tf.rcx = 0xffffffff00000000ull;
	assert_int_equal(hooks[VEC_UD](&tf), 1);
	assert_int_equal(tf.rax, 0x11223344);
	assert_int_equal(tf.rdx, 0x00);

	/* an invalid counter: the model's #GP(0), RIP stays */
	memset(&tf, 0, sizeof(tf));
	tf.vector = VEC_UD;
	tf.error = 5;
	tf.rip = (uint64_t)(uintptr_t)rdpmc;
	tf.rcx = 2;
	assert_int_equal(hooks[VEC_UD](&tf), 0);
	assert_int_equal(tf.vector, VEC_GP);
	assert_int_equal(tf.error, 0);
	assert_int_equal(tf.rip, (uint64_t)(uintptr_t)rdpmc);

	/* not RDPMC: the frame is left alone */
	for (unsigned k = 0; k < 2; k++) {
		memset(&tf, 0, sizeof(tf));
		tf.vector = VEC_UD;
		tf.rip = (uint64_t)(uintptr_t)(k ? ud2 : rdtsc);
		tf.rcx = 1;
		before = tf;
		assert_int_equal(hooks[VEC_UD](&tf), 0);
		assert_memory_equal(&tf, &before, sizeof(tf));
	}

	/* P54C: no RDPMC instruction, #UD at CPL 0 and CPL 3 alike */
	start(P54C);
	for (unsigned cs = 0x08; cs <= 0x2b; cs += 0x2b - 0x08) {
		memset(&tf, 0, sizeof(tf));
		tf.vector = VEC_GP;
		tf.rip = (uint64_t)(uintptr_t)rdpmc;
		tf.cs = cs;
		assert_int_equal(hooks[VEC_GP](&tf), 0);
		assert_int_equal(tf.vector, VEC_UD);
		assert_int_equal(tf.rip, (uint64_t)(uintptr_t)rdpmc);
	}

	/* no live model: the hooks are gone */
	model_activate(NULL);
	assert_null(hooks[VEC_UD]);
	assert_null(hooks[VEC_GP]);
}

/* ==== 4. the driver: half/shadow logic ================================= */

static void init_driver(unsigned model, uint32_t cesr)
{
	struct pmu_err e = { "" };

	start(model);
	wr(P5_MSR_CESR, cesr);
	memset(&be, 0, sizeof(be));
	assert_int_equal(p5_init(&e), 0);
	assert_int_equal(p5_shadow(), cesr);
	assert_int_equal(be.wrmsr, 0);
	memset(&be, 0, sizeof(be));
}

/* A driver whose CESR read faulted is not initialized, even when an
 * earlier p5_init succeeded: nothing is programmed over a shadow that may
 * be stale. */
static void test_driver_init_fault(void **state)
{
	struct pmu_err e = { "" };
	struct p5_half h = { 0x16, 3, 0 };

	start(P55C);
	assert_int_equal(p5_init(&e), 0);
	be.rd_fault = VEC_GP;
	assert_int_equal(p5_init(&e), -1);
	assert_int_equal(e.vector, VEC_GP);
	assert_true(e.msg[0] != 0);
	assert_true(be.rdmsr >= 1);

	be.rd_fault = 0;
	memset(e.msg, 0, sizeof(e.msg));
	assert_int_equal(p5_program(0, &h, &e), -1);
	assert_true(e.msg[0] != 0);
	assert_int_equal(p5_stop(0, &e), -1);
	assert_int_equal(p5_start(0, &e), -1);
	assert_int_equal(p5_write(0, 1, &e), -1);
	assert_int_equal(be.wrmsr, 0);
	assert_int_equal(rd(P5_MSR_CESR), 0);
}

static void test_driver_init_reads_cesr(void **state)
{
	struct pmu_err e = { "" };

	start(P55C);
	wr(P5_MSR_CESR, 0x00410000);
	memset(&be, 0, sizeof(be));
	assert_int_equal(p5_init(&e), 0);
	assert_true(be.rdmsr >= 1);
	assert_int_equal(be.wrmsr, 0);
	assert_int_equal(p5_shadow(), 0x00410000);
	uint32_t v = 0;
	assert_int_equal(p5_read_cesr(&v, &e), 0);
	assert_int_equal(v, 0x00410000);
}

/* p5_program() then p5_start(); want is the CESR once the counter counts.
 * p5_program() alone issues 3 writes (stop, clear, new event), the last
 * one the CESR with this counter's CC 000 and everything else as in want,
 * and leaves the counter cleared; p5_start() issues one write: want. */
static void program_ok(unsigned ctr, unsigned es, unsigned cc, unsigned pc,
		       uint32_t want)
{
	struct pmu_err e = { "" };
	struct p5_half h = { es, cc, pc };
	uint32_t stopped = want & ~(ctr ? 0x01c00000u : 0x000001c0u);
	unsigned w = be.wrmsr;

	if (p5_program(ctr, &h, &e))
		fail_msg("p5_program(%u, 0x%x/%u/%u): %s", ctr, es, cc, pc,
			 e.msg);
	assert_int_equal(be.wrmsr, w + 3);
	assert_int_equal(be.last_wr_msr, P5_MSR_CESR);
	assert_int_equal(be.last_wr_val, stopped);
	assert_int_equal(rd(P5_MSR_CESR), stopped);
	assert_int_equal(p5_shadow(), stopped);
	assert_int_equal(rd(P5_MSR_CTR0 + ctr), 0);

	if (p5_start(ctr, &e))
		fail_msg("p5_start(%u) after 0x%x/%u/%u: %s", ctr, es, cc, pc,
			 e.msg);
	assert_int_equal(be.wrmsr, w + 4);
	assert_int_equal(be.last_wr_msr, P5_MSR_CESR);
	assert_int_equal(be.last_wr_val, want);
	assert_int_equal(rd(P5_MSR_CESR), want);
	assert_int_equal(p5_shadow(), want);
}

static void stop_ok(unsigned ctr, uint32_t want)
{
	struct pmu_err e = { "" };
	unsigned w = be.wrmsr;

	if (p5_stop(ctr, &e))
		fail_msg("p5_stop(%u): %s", ctr, e.msg);
	assert_int_equal(be.wrmsr, w + 1);
	assert_int_equal(be.last_wr_val, want);
	assert_int_equal(rd(P5_MSR_CESR), want);
	assert_int_equal(p5_shadow(), want);
}

/* Programming one counter leaves the other's half intact, whatever the
 * order, and the counts follow (end to end through the model). */
static void test_driver_halves(void **state)
{
	struct pmu_err e = { "" };
	uint64_t v;

	init_driver(P55C, 0);
	program_ok(0, 0x16, 3, 1, 0x000002d6);
	program_ok(1, 0x01, 6, 0, 0x018102d6);
	feed_stream();
	assert_int_equal(p5_read(0, &v, &e), 0);
	assert_int_equal(v, 15);
	assert_int_equal(p5_read(1, &v, &e), 0);
	assert_int_equal(v, 4);		/* clocks with a store, CPL 3 */
	/* reprogram CTR0: CTR1's half stays */
	program_ok(0, 0x12, 2, 0, 0x01810092);
	/* CTR1 first, then CTR0, over a CESR the firmware left */
	init_driver(P55C, 0x00000129);
	program_ok(1, 0x32, 1, 1, 0x02720129);
	program_ok(0, 0x39, 7, 0, 0x027201f9);
	/* the same half again: nothing else changes */
	program_ok(0, 0x39, 7, 0, 0x027201f9);
	program_ok(1, 0x00, 0, 0, 0x000001f9);
}

/* p5_stop clears CC only: ES and PC stay, the other half too. */
static void test_driver_stop(void **state)
{
	struct pmu_err e = { "" };
	uint64_t v;

	init_driver(P55C, 0);
	program_ok(0, 0x16, 3, 1, 0x000002d6);
	program_ok(1, 0x28, 6, 1, 0x03a802d6);
	stop_ok(0, 0x03a80216);
	stop_ok(1, 0x02280216);
	/* stopping a stopped counter keeps everything */
	stop_ok(0, 0x02280216);
	/* stopped counters do not count */
	feed_stream();
	assert_int_equal(p5_read(0, &v, &e), 0);
	assert_int_equal(v, 0);
	assert_int_equal(p5_read(1, &v, &e), 0);
	assert_int_equal(v, 0);
	/* CC 100 is also "count nothing"; stop turns it to 000 */
	program_ok(1, 0x16, 4, 0, 0x01160216);
	stop_ok(1, 0x00160216);
}

struct bad_case {
	unsigned model, ctr;
	struct p5_half h;
	const char *why;
};

static const struct bad_case bad[] = {
	{ P55C, 0, { 0x10, 3, 0 }, "ES 0x10 reserved" },
	{ P55C, 1, { 0x10, 3, 0 }, "ES 0x10 reserved" },
	{ P55C, 0, { 0x11, 1, 0 }, "ES 0x11 reserved" },
	{ P55C, 1, { 0x20, 1, 0 }, "ES 0x20 reserved" },
	{ P55C, 0, { 0x21, 1, 0 }, "ES 0x21 reserved" },
	{ P55C, 0, { 0x3c, 1, 0 }, "ES 0x3c undefined" },
	{ P55C, 1, { 0x3f, 1, 0 }, "ES 0x3f undefined" },
	{ P55C, 0, { 64, 3, 0 }, "ES 64" },
	{ P55C, 1, { 0x56, 3, 0 }, "ES 0x56 (0x16 + 64)" },
	{ P55C, 0, { 0xffffffffu, 3, 0 }, "ES ~0" },
	{ P55C, 0, { 0x16, 8, 0 }, "CC 8" },
	{ P55C, 1, { 0x16, 11, 0 }, "CC 11 (3 + 8)" },
	{ P55C, 0, { 0x16, 3, 2 }, "PC 2" },
	{ P55C, 1, { 0x16, 3, 3 }, "PC 3" },
	{ P55C, 2, { 0x16, 3, 0 }, "counter 2" },
	{ P55C, 3, { 0x16, 3, 0 }, "counter 3" },
	{ P55C, 1, { 0x39, 3, 0 }, "0x39 on CTR1" },
	{ P54C, 0, { 0x2b, 3, 0 }, "MMX-only 0x2b on a P54C" },
	{ P54C, 1, { 0x2b, 3, 0 }, "MMX-only 0x2b on a P54C" },
	{ P54C, 1, { 0x32, 3, 0 }, "MMX-only 0x32 on a P54C" },
	{ P54C, 0, { 0x39, 3, 0 }, "MMX-only 0x39 on a P54C" },
};

/* Invalid settings are refused with a message, and nothing is written. */
static void test_driver_refuses_invalid(void **state)
{
	for (unsigned i = 0; i < N(bad); i++) {
		const struct bad_case *c = &bad[i];
		struct pmu_err e = { "" };

		init_driver(c->model, 0x00410129);
		if (p5_program(c->ctr, &c->h, &e) != -1)
			fail_msg("%s: accepted", c->why);
		if (!e.msg[0])
			fail_msg("%s: no message", c->why);
		if (be.wrmsr)
			fail_msg("%s: %u WRMSR issued", c->why, be.wrmsr);
		assert_int_equal(rd(P5_MSR_CESR), 0x00410129);
		assert_int_equal(p5_shadow(), 0x00410129);
	}
	/* stop, read, write and rdpmc of counter 2 are refused too */
	{
		struct pmu_err e = { "" };
		uint64_t v;

		init_driver(P55C, 0);
		assert_int_equal(p5_stop(2, &e), -1);
		assert_true(e.msg[0] != 0);
		assert_int_equal(p5_read(2, &v, &e), -1);
		assert_int_equal(p5_write(2, 0, &e), -1);
		assert_int_equal(p5_rdpmc(2, &v, &e), -1);
		assert_int_equal(be.wrmsr, 0);
	}
	/* the valid neighbours are accepted: 0x39 on CTR0 and 0x32 on CTR1
	 * of a P55C, 0x3f's valid twin 0x3b, PC 1, CC 7, ES 0x29 on P54C */
	init_driver(P55C, 0);
	program_ok(0, 0x39, 7, 1, 0x000003f9);
	program_ok(1, 0x32, 3, 0, 0x00f203f9);
	program_ok(1, 0x3b, 3, 0, 0x00fb03f9);
	init_driver(P54C, 0);
	program_ok(0, 0x29, 3, 0, 0x000000e9);
	program_ok(1, 0x00, 7, 1, 0x03c000e9);
}

static void test_driver_write_read(void **state)
{
	static const uint64_t too_big[] = {
		CTR_TOP, CTR_TOP + 1, CTR_TOP | 5, 1ull << 63, ~0ull,
		0xffffff0000000000ull,
	};
	struct pmu_err e = { "" };
	uint64_t v;

	init_driver(P55C, 0);
	for (unsigned c = 0; c < 2; c++) {
		for (unsigned i = 0; i < N(too_big); i++) {
			memset(e.msg, 0, sizeof(e.msg));
			if (p5_write(c, too_big[i], &e) != -1)
				fail_msg("CTR%u = 0x%llx accepted", c,
					 (unsigned long long)too_big[i]);
			assert_true(e.msg[0] != 0);
		}
		assert_int_equal(be.wrmsr, 0);
	}
	assert_int_equal(p5_write(0, CTR_TOP - 1, &e), 0);
	assert_int_equal(be.wrmsr, 1);
	assert_int_equal(be.last_wr_msr, P5_MSR_CTR0);
	assert_int_equal(p5_write(1, 0x123456789aull, &e), 0);
	assert_int_equal(be.last_wr_msr, P5_MSR_CTR1);
	assert_int_equal(p5_read(0, &v, &e), 0);
	assert_int_equal(v, CTR_TOP - 1);
	assert_int_equal(p5_read(1, &v, &e), 0);
	assert_int_equal(v, 0x123456789aull);
	/* the CESR is not touched by counter writes */
	assert_int_equal(rd(P5_MSR_CESR), 0);
	assert_int_equal(p5_shadow(), 0);
}

/* Someone else reprogrammed the CESR: the driver refuses to write over
 * it, names both values, and touches nothing. */
static void test_driver_foreign_change(void **state)
{
	struct pmu_err e = { "" };
	struct p5_half h = { 0x12, 1, 0 };

	init_driver(P55C, 0);
	program_ok(0, 0x16, 3, 1, 0x000002d6);
	program_ok(1, 0x28, 6, 0, 0x01a802d6);
	wr(P5_MSR_CESR, 0x00410216);	/* behind the driver's back */
	be.wrmsr = 0;

	assert_int_equal(p5_program(1, &h, &e), -1);
	if (!names_hex(e.msg, 0x00410216) || !names_hex(e.msg, 0x01a802d6))
		fail_msg("message does not name both values: \"%s\"", e.msg);
	assert_int_equal(be.wrmsr, 0);
	assert_int_equal(rd(P5_MSR_CESR), 0x00410216);
	assert_int_equal(p5_shadow(), 0x01a802d6);

	memset(e.msg, 0, sizeof(e.msg));
	assert_int_equal(p5_stop(0, &e), -1);
	assert_true(names_hex(e.msg, 0x00410216));
	assert_true(names_hex(e.msg, 0x01a802d6));
	assert_int_equal(be.wrmsr, 0);
	assert_int_equal(rd(P5_MSR_CESR), 0x00410216);

	/* a re-init adopts the register; then programming works again */
	assert_int_equal(p5_init(&e), 0);
	assert_int_equal(p5_shadow(), 0x00410216);
	program_ok(1, 0x12, 1, 0, 0x00520216);
}

/* A faulting WRMSR leaves the shadow as it was; a CESR that reads back
 * other than written is reported, whichever of p5_program()'s two CESR
 * writes (stop, new event) or p5_start()'s it is.  The corruption flips
 * ES bit 0, so neither value's digits hold the other's. */
static void test_driver_backend_faults(void **state)
{
	struct pmu_err e = { "" };
	struct p5_half h = { 0x28, 3, 0 };

	init_driver(P55C, 0x000002d6);
	be.wr_fault = VEC_GP;
	assert_int_equal(p5_program(1, &h, &e), -1);
	assert_int_equal(e.vector, VEC_GP);
	assert_true(e.msg[0] != 0);
	assert_int_equal(p5_shadow(), 0x000002d6);
	assert_int_equal(rd(P5_MSR_CESR), 0x000002d6);
	be.wr_fault = 0;
	program_ok(1, 0x28, 3, 0, 0x00e802d6);
	/* p5_start's write faulting: the counter stays stopped */
	program_ok(1, 0x16, 3, 0, 0x00d602d6);
	assert_int_equal(p5_stop(1, &e), 0);
	be.wr_fault = VEC_GP;
	assert_int_equal(p5_start(1, &e), -1);
	assert_int_equal(e.vector, VEC_GP);
	assert_int_equal(p5_shadow(), 0x001602d6);
	assert_int_equal(rd(P5_MSR_CESR), 0x001602d6);
	be.wr_fault = 0;

	/* read-back mismatch on p5_program's first CESR write (the stop of
	 * ES 0x16 on CTR0)... */
	init_driver(P55C, 0x00000016);
	be.cesr_xor_after_wr = 0x00000001;
	memset(e.msg, 0, sizeof(e.msg));
	assert_int_equal(p5_program(0, &h, &e), -1);
	assert_true(names_hex(e.msg, 0x00000016));
	assert_true(names_hex(e.msg, 0x00000017));
	/* ...on its second (the new ES 0x28 with CC 000)... */
	init_driver(P55C, 0x00000016);
	be.cesr_xor_after_wr = 0x00000001;
	be.cesr_xor_skip = 1;
	memset(e.msg, 0, sizeof(e.msg));
	assert_int_equal(p5_program(0, &h, &e), -1);
	assert_true(names_hex(e.msg, 0x00000028));
	assert_true(names_hex(e.msg, 0x00000029));
	/* ...and on p5_start's (CC 011) */
	init_driver(P55C, 0x00000016);
	assert_int_equal(p5_program(0, &h, &e), 0);
	be.cesr_xor_after_wr = 0x00000001;
	memset(e.msg, 0, sizeof(e.msg));
	assert_int_equal(p5_start(0, &e), -1);
	assert_true(names_hex(e.msg, 0x000000e8));
	assert_true(names_hex(e.msg, 0x000000e9));
}

/* p5_program() leaves the counter stopped and cleared, whatever it held
 * and however it was counting; p5_start() starts it with the CC given to
 * p5_program(); p5_stop() and p5_start() again resume with that CC. */
static void test_driver_program_then_start(void **state)
{
	struct pmu_err e = { "" };
	struct p5_half ins = { 0x16, 3, 0 }, rw = { 0x28, 2, 1 };
	uint64_t v;

	init_driver(P55C, 0);
	/* CTR0 counting something else, with a value in it */
	program_ok(0, 0x00, 3, 0, 0x000000c0);
	assert_int_equal(p5_write(0, 1234, &e), 0);
	feed_stream();
	assert_int_equal(p5_read(0, &v, &e), 0);
	assert_int_equal(v, 1234 + 11);

	assert_int_equal(p5_program(0, &ins, &e), 0);
	assert_int_equal(p5_read(0, &v, &e), 0);
	assert_int_equal(v, 0);
	assert_int_equal(rd(P5_MSR_CESR), 0x00000016);
	feed_stream();			/* not counting yet */
	assert_int_equal(p5_read(0, &v, &e), 0);
	assert_int_equal(v, 0);
	assert_int_equal(p5_start(0, &e), 0);
	assert_int_equal(rd(P5_MSR_CESR), 0x000000d6);
	feed_stream();
	assert_int_equal(p5_read(0, &v, &e), 0);
	assert_int_equal(v, 15);

	/* the other counter: programmed, never started, never counts */
	assert_int_equal(p5_program(1, &rw, &e), 0);
	assert_int_equal(rd(P5_MSR_CESR), 0x022800d6);
	feed_stream();
	assert_int_equal(p5_read(1, &v, &e), 0);
	assert_int_equal(v, 0);
	assert_int_equal(p5_read(0, &v, &e), 0);
	assert_int_equal(v, 30);

	/* stop keeps the value; start resumes with CC 011, twice the same */
	assert_int_equal(p5_stop(0, &e), 0);
	feed_stream();
	assert_int_equal(p5_read(0, &v, &e), 0);
	assert_int_equal(v, 30);
	assert_int_equal(p5_start(0, &e), 0);
	assert_int_equal(p5_start(0, &e), 0);
	assert_int_equal(rd(P5_MSR_CESR), 0x022800d6);
	assert_int_equal(p5_start(1, &e), 0);
	assert_int_equal(rd(P5_MSR_CESR), 0x02a800d6);
	feed_stream();
	assert_int_equal(p5_read(0, &v, &e), 0);
	assert_int_equal(v, 45);
	assert_int_equal(p5_read(1, &v, &e), 0);
	assert_int_equal(v, 9);		/* loads + stores at CPL 3 */

	/* start refuses a counter that does not exist */
	memset(e.msg, 0, sizeof(e.msg));
	assert_int_equal(p5_start(2, &e), -1);
	assert_true(e.msg[0] != 0);
}

/* RDPMC follows the signature: P55C (models 4 and 8) only. */
static void test_driver_rdpmc(void **state)
{
	static const struct { unsigned family, model; int has; } sigs[] = {
		{ 5, 1, 0 }, { 5, 2, 0 }, { 5, 3, 0 }, { 5, 4, 1 },
		{ 5, 7, 0 }, { 5, 8, 1 }, { 6, 4, 0 }, { 4, 8, 0 },
	};
	struct pmu_err e = { "" };
	uint64_t v = 0;

	for (unsigned i = 0; i < N(sigs); i++) {
		set_sig(sigs[i].family, sigs[i].model);
		if ((p5_has_rdpmc() != 0) != sigs[i].has)
			fail_msg("family %u model %u: p5_has_rdpmc %d",
				 sigs[i].family, sigs[i].model,
				 p5_has_rdpmc());
	}

	init_driver(P54C, 0);
	assert_false(p5_has_rdpmc());
	assert_int_equal(p5_rdpmc(0, &v, &e), -1);
	assert_int_equal(e.vector, VEC_UD);
	assert_true(e.msg[0] != 0);

	init_driver(P55C, 0);
	assert_true(p5_has_rdpmc());
	assert_int_equal(p5_write(1, 0xabcdef0123ull, &e), 0);
	assert_int_equal(p5_rdpmc(1, &v, &e), 0);
	assert_int_equal(v, 0xabcdef0123ull);
	assert_int_equal(p5_rdpmc(0, &v, &e), 0);
	assert_int_equal(v, 0);
}

/* Pentium erratum 74 (family 5 model 4 stepping 4, or stepping 3 of an
 * OverDrive, type 1): on hardware the driver does not use RDPMC, says so,
 * and issues none; on the model (no erratum to avoid) it does. */
static void test_driver_erratum74(void **state)
{
	static const struct {
		unsigned family, model, stepping, type;
		int erratum;
	} sigs[] = {
		{ 5, 4, 4, 0, 1 }, { 5, 4, 3, 1, 1 }, { 5, 4, 4, 1, 1 },
		{ 5, 4, 3, 0, 0 }, { 5, 4, 5, 0, 0 }, { 5, 4, 1, 1, 0 },
		{ 5, 8, 4, 0, 0 }, { 5, 8, 3, 1, 0 }, { 5, 2, 4, 0, 0 },
		{ 6, 4, 4, 0, 0 },
	};
	struct pmu_err e = { "" };
	uint64_t v = 0;

	for (unsigned i = 0; i < N(sigs); i++) {
		struct cpu_sig sg = { 0 };

		sg.family = sigs[i].family;
		sg.model = sigs[i].model;
		sg.stepping = sigs[i].stepping;
		sg.type = sigs[i].type;
		if ((p5_erratum74(&sg) != 0) != sigs[i].erratum)
			fail_msg("family %u model %u stepping %u type %u: "
				 "erratum74 %d", sg.family, sg.model,
				 sg.stepping, sg.type, p5_erratum74(&sg));
	}

	for (unsigned i = 0; i < N(sigs); i++) {
		int has;

		if (sigs[i].family != 5)
			continue;
		init_driver(sigs[i].model, 0);
		fake_cpu.sig.stepping = sigs[i].stepping;
		fake_cpu.sig.type = sigs[i].type;
		has = p5_has_rdpmc();
		assert_int_equal(p5_write(0, 0x42, &e), 0);

		/* on the model: usable wherever the instruction exists */
		assert_int_equal(p5_rdpmc_usable() != 0, has);
		be.rdpmc = 0;
		v = 0;
		if (has) {
			assert_int_equal(p5_rdpmc(0, &v, &e), 0);
			assert_int_equal(v, 0x42);
		} else {
			assert_int_equal(p5_rdpmc(0, &v, &e), -1);
			assert_int_equal(e.vector, VEC_UD);
		}
		assert_int_equal(be.rdpmc, 1);

		/* on hardware: not with the erratum */
		stub_backend.id = BE_HW;
		assert_int_equal(p5_rdpmc_usable() != 0,
				 has && !sigs[i].erratum);
		be.rdpmc = 0;
		memset(&e, 0, sizeof(e));
		if (has && sigs[i].erratum) {
			assert_int_equal(p5_rdpmc(0, &v, &e), -1);
			assert_int_equal(e.vector, 0);
			if (!strstr(e.msg, "74"))
				fail_msg("message does not name erratum 74: "
					 "\"%s\"", e.msg);
			assert_int_equal(be.rdpmc, 0);
		} else {
			assert_int_equal(be.rdpmc, 0);
			(void)p5_rdpmc(0, &v, &e);
			assert_int_equal(be.rdpmc, 1);
		}
		stub_backend.id = BE_MODEL;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* 1. CESR encode/decode */
		cmocka_unit_test(test_cesr_bit_positions),
		cmocka_unit_test(test_cesr_decode_fields),
		cmocka_unit_test(test_cesr_round_trip),
		cmocka_unit_test(test_cesr_reserved),
		/* 2. counter control */
		cmocka_unit_test(test_cc_counts_at),
		/* 2b. event table */
		cmocka_unit_test(test_event_sem_masks),
		/* 3. model */
		cmocka_unit_test(test_model_registered),
		cmocka_unit_test(test_model_reset),
		cmocka_unit_test(test_model_cc_codes),
		cmocka_unit_test(test_model_both_halves),
		cmocka_unit_test(test_model_accumulates),
		cmocka_unit_test(test_model_unmodelled_never_count),
		cmocka_unit_test(test_model_wrap),
		cmocka_unit_test(test_model_reserved_writes),
		cmocka_unit_test(test_model_rdpmc),
		cmocka_unit_test(test_model_unknown_msrs),
		cmocka_unit_test(test_model_rdpmc_insn),
		/* 4. driver */
		cmocka_unit_test(test_driver_init_fault),
		cmocka_unit_test(test_driver_init_reads_cesr),
		cmocka_unit_test(test_driver_halves),
		cmocka_unit_test(test_driver_stop),
		cmocka_unit_test(test_driver_refuses_invalid),
		cmocka_unit_test(test_driver_write_read),
		cmocka_unit_test(test_driver_foreign_change),
		cmocka_unit_test(test_driver_backend_faults),
		cmocka_unit_test(test_driver_program_then_start),
		cmocka_unit_test(test_driver_rdpmc),
		cmocka_unit_test(test_driver_erratum74),
	};

	return cmocka_run_group_tests_name("p5", tests, NULL, NULL);
}
