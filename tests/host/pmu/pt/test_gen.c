/* Host tests for pmu/pt/gen.c, the PT model's packet generator: hand-made
 * trace steps (struct insn_event) in, the exact byte stream out.  The
 * rules (pmu/pt/gen.h, gen.c; Intel SDM Vol. 3C, order no.
 * 326019-060US):
 *   - start: PSB, [TSC], [TMA], CBR, PSBEND (§36.2.7.3, §36.3.7, Table
 *     36-50 row 2b); the first step at a traced CPL: [CYC(0) with
 *     CycThresh 0], MODE.Exec, TIP.PGE to its RIP (rows 6c/7b/9b);
 *   - Jcc / LOOP: a TNT bit; RET to the top of the call stack: a taken
 *     TNT bit (DisRETC clear), else a TIP, either way popping the top;
 *     indirect JMP / CALL: TIP; CALL
 *     pushes RIP + length (not a zero-length CALL); 64 entries, the oldest
 *     dropped (§36.4.2.2); INT n: FUP, TIP (row 12e); far RET: TIP;
 *   - CYC before the first CYC-eligible packet of a cycle when CycThresh
 *     is 0 or 2^(CycThresh-1) cycles have passed (§36.3.6.3; Table 36-33:
 *     with CycThresh 0 "a CYC packet will be generated in any cycle in
 *     which any CYC-eligible packet is generated" and precedes the
 *     packets of that cycle).  A TNT is CYC-eligible in the cycle of its
 *     first branch: "the cycle time provided by the CYC packet applies to
 *     the first branch in the TNT packet" (§36.3.6.2), so later branches
 *     join the pending TNT with no CYC of their own (Intel's libipt test
 *     stream ptxed-tick: cyc(4) tnt(t.n), its second branch three
 *     instructions later); the pending TNT goes out before the next CYC;
 *     TNT-8 holds 6 bits (Table 36-16);
 *   - MTC each time ART bit MTCFreq toggles (Table 36-6 MTCFreq), one per
 *     toggle with the payload (ART >> MTCFreq) & 0xFF of that moment
 *     (Table 36-31): the toggles before a step's cycle before its packets,
 *     one in its cycle after them;
 *   - a step at an untraced CPL: TIP.PGD, no IP (Table 36-21);
 *   - PSB+ again past each 2^(PSBFreq+11) bytes, with MODE.Exec and FUP
 *     while PacketEn is 1; it resets the last IP and the call stack
 *     (§36.3.7, §36.4.2.2);
 *   - stop: pending TNT, and with PacketEn FUP(next RIP), TIP.PGD()
 *     (row 3b).
 * The expected streams are lists of packets (type and value: the IP a
 * TIP/FUP names, the TNT bits, the CYC count ...), not bytes: the
 * generator's stream is decoded with the project's decoder
 * (lib/pt/decode.c, held to the SDM by lib/pt/test_decode and to libipt),
 * never spelled with the encoders the generator itself uses
 * (lib/pt/encode.c), so that a misread encoding there cannot make the
 * expectation too.  Which IPBytes compression a TIP uses the SDM leaves
 * to the processor (§36.4.2.2): the test checks the IP it decodes to,
 * with the last IP reset at each PSB.  One stream is also spelled out
 * in literal bytes from the packet tables.  The IA32_RTIT_CTL bits are
 * pt_sdm.h's (Table 36-6), not pmu/pt/regs.h's.  The generator runs in
 * the host's mode (x86-64: MODE.Exec CS.L=1 CS.D=0). */
#include <stdio.h>
#include <string.h>

#include "pmu/pt/gen.h"
#include "lib/pt/packet.h"
#include "arch/x86/decode.h"
#include "pt_sdm.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: pmu/pt/gen.c lib/pt/encode.c lib/pt/decode.c arch/x86/decode.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define STREAM_MAX 65536

struct stream {
	uint8_t b[STREAM_MAX];
	unsigned n;
};

static struct stream got;

/* The packets the SDM says the steps make, in order. */
struct want_pkt {
	uint8_t type;		/* enum pt_pkt_type */
	uint8_t count;		/* TNT: bits */
	uint8_t ip_valid;	/* IP packets: an IP, not suppressed */
	uint64_t v;		/* the IP, or the payload as decoded */
};
static struct {
	struct want_pkt p[4096];
	unsigned n;
} want;
static struct pt_gen g;

static void sink(void *ctx, const uint8_t *p, unsigned n)
{
	struct stream *s = ctx;

	assert_true(s->n + n <= STREAM_MAX);
	memcpy(s->b + s->n, p, n);
	s->n += n;
}

/* ---- the code the steps run: a few instructions at made-up RIPs ---- */

static const struct {
	uint64_t rip;
	uint8_t bytes[15];
} code[] = {
	{ 0x1000, { 0xe8, 0xfb, 0x0f, 0x00, 0x00 } },	/* call 0x2000 */
	{ 0x2000, { 0xe8, 0xfb, 0x0f, 0x00, 0x00 } },	/* call 0x3000 */
	{ 0x1100, { 0xff, 0xd0 } },			/* call *%rax */
	{ 0x1200, { 0xe8, 0x00, 0x00, 0x00, 0x00 } },	/* call next */
	{ 0x1300, { 0xcc } },				/* int3 */
	{ 0x1310, { 0xcd, 0x80 } },			/* int $0x80 */
	{ 0x1320, { 0xcb } },				/* lret */
	{ 0x1330, { 0x66, 0xcd, 0x21 } },		/* int with a prefix */
};

static const uint8_t *code_at(void *ctx, uint64_t rip)
{
	static uint8_t ret[15] = { 0xc3 };
	uint64_t *calls = ctx;

	for (unsigned i = 0; i < N(code); i++)
		if (code[i].rip == rip)
			return code[i].bytes;
	/* the deep-call chain of test_call_stack_depth: 0x10000 + 8n */
	if (rip >= 0x10000 && rip < 0x20000 && !(rip & 7)) {
		static uint8_t call[15] = { 0xe8, 0xfb, 0x0f, 0, 0 };

		if (calls)
			(*calls)++;
		return call;
	}
	return ret;
}

/* ---- steps ---------------------------------------------------------- */

static struct insn_event step(uint64_t rip, uint64_t next, unsigned flags,
			      unsigned cpl)
{
	return (struct insn_event){ .rip = rip, .next_rip = next,
				    .flags = (uint16_t)flags,
				    .cpl = (uint8_t)cpl, .retired = 1 };
}

#define JCC (DEC_BRANCH | DEC_COND)
#define TAKEN EV_TAKEN
#define CALL (DEC_BRANCH | DEC_CALL | EV_TAKEN)
#define ICALL (DEC_BRANCH | DEC_CALL | DEC_INDIRECT | EV_TAKEN)
#define RET (DEC_BRANCH | DEC_RET | DEC_INDIRECT | EV_TAKEN)
#define IJMP (DEC_BRANCH | DEC_INDIRECT | EV_TAKEN)
#define JMP (DEC_BRANCH | EV_TAKEN)
#define FAR (DEC_FAR | EV_TAKEN)

static uint64_t clk;

/* One step one cycle after the last. */
static void run(uint64_t rip, uint64_t next, unsigned flags, unsigned cpl)
{
	struct insn_event e = step(rip, next, flags, cpl);

	pt_gen_step(&g, &e, ++clk);
}

/* One step at clock `at` (later than the last). */
static void run_at(uint64_t at, uint64_t rip, uint64_t next, unsigned flags,
		   unsigned cpl)
{
	clk = at - 1;
	run(rip, next, flags, cpl);
}

#define CTL_BASE (SDM_CTL_TRACEEN | SDM_CTL_BRANCHEN | SDM_CTL_OS | \
		  SDM_CTL_USER)
#define CYC_THRESH(v) SDM_CTL_CYCTHRESH(v)
#define MTC_FREQ(v) SDM_CTL_MTCFREQ(v)
#define PSB_FREQ(v) SDM_CTL_PSBFREQ(v)

/* The generator's code source: struct pt_gen's code and code_ctx, set
 * after pt_gen_start() (which resets them to the code at the RIP). */
static void set_code(struct pt_gen *gen, pt_gen_code src, void *ctx)
{
	gen->code = src;
	gen->code_ctx = ctx;
}

static void start(uint64_t ctl, uint64_t clock)
{
	got.n = 0;
	want.n = 0;
	clk = clock;
	pt_gen_start(&g, ctl, clock, 1, sink, &got);
	set_code(&g, code_at, NULL);
}

/* ---- the expected stream ---------------------------------------------- */

static void expect(uint8_t type, uint8_t count, uint8_t ip_valid, uint64_t v)
{
	assert_true(want.n < N(want.p));
	want.p[want.n++] = (struct want_pkt){ .type = type, .count = count,
					      .ip_valid = ip_valid, .v = v };
}

/* PSB+ at TraceEn with PacketEn 0 (§36.2.7.3, §36.3.7; Table 36-50 row
 * 2b): PSB, TSC (TSCEn), TMA (TSCEn and MTCEn; CTC[15:0] the clock's,
 * FastCounter 0, Table 36-32), CBR, PSBEND; tsc ~0: no TSC. */
static void w_psb_plus(uint64_t tsc, int tma, unsigned cbr)
{
	expect(PT_PKT_PSB, 0, 0, 0);
	if (tsc != ~0ull)
		expect(PT_PKT_TSC, 0, 0, tsc);
	if (tma)
		expect(PT_PKT_TMA, 0, 0, tsc & 0xffff);
	expect(PT_PKT_CBR, 0, 0, cbr);
	expect(PT_PKT_PSBEND, 0, 0, 0);
}

static void w_ip(enum pt_pkt_type t, uint64_t ip)
{
	expect(t, 0, 1, ip);
}

/* TIP.PGD with the IP suppressed (IPBytes 000, Table 36-21). */
static void w_pgd(void)
{
	expect(PT_PKT_TIP_PGD, 0, 0, 0);
}

static void w_cyc(uint64_t v)
{
	expect(PT_PKT_CYC, 0, 0, v);
}

/* MODE.Exec of 64-bit code: CS.L 1, CS.D 0 (Table 36-26). */
static void w_mode(void)
{
	expect(PT_PKT_MODE_EXEC, 0, 0, 1);
}

/* bits as the oldest-first string, e.g. "TNNT" (T = taken = 1). */
static void w_tnt(const char *bits)
{
	uint64_t v = 0;
	unsigned n = 0;

	for (; bits[n]; n++)
		v = v << 1 | (bits[n] == 'T');
	expect(PT_PKT_TNT8, (uint8_t)n, 0, v);
}

static void w_mtc(unsigned ctc)
{
	expect(PT_PKT_MTC, 0, 0, ctc);
}

/* got, decoded with lib/pt/decode.c, packet for packet against want. */
static void check_stream(const char *what)
{
	struct pt_dec d;
	struct pt_pkt k;
	unsigned i = 0;

	pt_dec_init(&d, got.b, got.n);
	for (;; i++) {
		const struct want_pkt *w = i < want.n ? &want.p[i] : NULL;
		int ok;

		pt_dec_next(&d, &k);
		if (k.type == PT_PKT_NONE && !w)
			return;
		if (k.type == PT_PKT_ERROR)
			fail_msg("%s: packet %u at byte %llu: %s", what, i,
				 (unsigned long long)k.offset,
				 pt_err_name(k.err));
		if (!w || k.type != w->type)
			fail_msg("%s: packet %u at byte %llu: got %s, want %s",
				 what, i, (unsigned long long)k.offset,
				 pt_pkt_name(k.type),
				 w ? pt_pkt_name(w->type) : "the end");
		switch (k.type) {
		case PT_PKT_TIP:
		case PT_PKT_TIP_PGE:
		case PT_PKT_TIP_PGD:
		case PT_PKT_FUP:
			ok = k.ip_valid == w->ip_valid &&
			     (!w->ip_valid || k.ip == w->v);
			break;
		case PT_PKT_TNT8:
			ok = k.count == w->count && k.payload == w->v;
			break;
		case PT_PKT_TMA:
			ok = k.payload == w->v && k.fc == 0;
			break;
		default:
			ok = k.payload == w->v;
		}
		if (!ok)
			fail_msg("%s: packet %u (%s) at byte %llu: got 0x%llx "
				 "(%u bits / ip %d), want 0x%llx (%u / %d)",
				 what, i, pt_pkt_name(k.type),
				 (unsigned long long)k.offset,
				 (unsigned long long)(k.ip_valid ? k.ip
								 : k.payload),
				 k.count, k.ip_valid,
				 (unsigned long long)w->v, w->count,
				 w->ip_valid);
	}
}

/* ---- tests -------------------------------------------------------------- */

static void test_start_psb_plus(void **state)
{
	(void)state;
	start(CTL_BASE, 0x123456);
	w_psb_plus(~0ull, 0, 1);
	check_stream("no TSC");

	start(CTL_BASE | SDM_CTL_TSCEN, 0x123456);
	w_psb_plus(0x123456, 0, 1);
	check_stream("TSCEn");

	start(CTL_BASE | SDM_CTL_TSCEN | SDM_CTL_MTCEN, 0x123456);
	w_psb_plus(0x123456, 1, 1);
	check_stream("TSCEn + MTCEn: TMA");

	pt_gen_stop(&g, clk);
	check_stream("stop before any traced step: nothing");
}

/* The one stream spelled out byte by byte: CycThresh 0, a taken and a
 * not-taken Jcc in consecutive cycles, then stop a cycle later: one CYC
 * times the TNT's first branch, the second joins that TNT (§36.3.6.2). */
static void test_jcc_literal(void **state)
{
	static const uint8_t literal[] = {
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,	/* PSB */
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
		0x02, 0x03, 0x01, 0x00,				/* CBR 1 */
		0x02, 0x23,					/* PSBEND */
		0x03,						/* CYC 0 */
		0x99, 0x01,					/* MODE.Exec L */
		0x31, 0x00, 0x10,			/* TIP.PGE 1:0x1000 */
		0x0b,						/* CYC 1 */
		0x0c,		/* TNT T N: stop 1 << 3, T N = 10b << 1 */
		0x13,						/* CYC 2 */
		0x3d, 0x42, 0x10,			/* FUP 1:0x1042 */
		0x01,					/* TIP.PGD suppressed */
	};

	(void)state;
	start(CTL_BASE | SDM_CTL_CYCEN, 10);
	run(0x1000, 0x1040, JCC | TAKEN, 0);
	run(0x1040, 0x1042, JCC, 0);
	pt_gen_stop(&g, clk + 1);
	assert_int_equal(got.n, sizeof(literal));
	assert_memory_equal(got.b, literal, sizeof(literal));
}

static void test_tnt_fills_six(void **state)
{
	static const char outcome[] = "TNNTTTNT";

	(void)state;
	start(CTL_BASE, 0);
	for (unsigned i = 0; outcome[i]; i++)
		run(0x1000 + 16 * i, 0x1000 + 16 * (i + 1),
		    JCC | (outcome[i] == 'T' ? TAKEN : 0), 3);
	pt_gen_stop(&g, clk);
	w_psb_plus(~0ull, 0, 1);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x1000);
	w_tnt("TNNTTT");		/* full at six */
	w_tnt("NT");			/* the rest at stop */
	w_ip(PT_PKT_FUP, 0x1080);
	w_pgd();
	check_stream("TNT-8 of six bits, then the partial one at stop");
}

static void test_call_ret_compressed(void **state)
{
	(void)state;
	start(CTL_BASE | SDM_CTL_CYCEN, 100);
	run(0x1000, 0x2000, CALL, 0);		/* push 0x1005 */
	run(0x2000, 0x3000, CALL, 0);		/* push 0x2005 */
	run(0x3000, 0x2005, RET, 0);		/* compressed */
	run(0x2005, 0x1005, RET, 0);		/* compressed */
	run(0x1005, 0x1009, RET, 0);		/* empty stack: TIP */
	pt_gen_stop(&g, clk);

	w_psb_plus(~0ull, 0, 1);
	w_cyc(0);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x1000);
	/* the CALLs make no packet; the first compressed RET's CYC times
	 * the TNT, the second joins it; the TIP has its cycle's CYC */
	w_cyc(3);
	w_tnt("TT");
	w_cyc(2);
	w_ip(PT_PKT_TIP, 0x1009);
	w_ip(PT_PKT_FUP, 0x1009);
	w_pgd();
	check_stream("CALL/RET pairs: compressed RETs");
}

static void test_disretc(void **state)
{
	(void)state;
	start(CTL_BASE | SDM_CTL_DISRETC, 0);
	run(0x1000, 0x2000, CALL, 0);
	run(0x2000, 0x3000, CALL, 0);
	run(0x3000, 0x2005, RET, 0);
	run(0x2005, 0x1005, RET, 0);
	pt_gen_stop(&g, clk);
	w_psb_plus(~0ull, 0, 1);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x1000);
	w_ip(PT_PKT_TIP, 0x2005);
	w_ip(PT_PKT_TIP, 0x1005);
	w_ip(PT_PKT_FUP, 0x1005);
	w_pgd();
	check_stream("DisRETC: every RET a TIP");
}

/* A RET that does not go to the top entry is a TIP, and pops it all the
 * same: the next RET is judged against the entry below. */
static void test_ret_mismatch_pops(void **state)
{
	(void)state;
	start(CTL_BASE, 0);
	run(0x1000, 0x2000, CALL, 0);		/* push 0x1005 */
	run(0x2000, 0x3000, CALL, 0);		/* push 0x2005 */
	run(0x3000, 0x1005, RET, 0);		/* not the top: TIP, pop */
	run(0x1005, 0x2005, RET, 0);		/* top 0x1005 now: TIP */
	run(0x1000, 0x2000, CALL, 0);		/* push 0x1005 */
	run(0x2000, 0x1005, RET, 0);		/* compressed */
	pt_gen_stop(&g, clk);
	w_psb_plus(~0ull, 0, 1);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x1000);
	w_ip(PT_PKT_TIP, 0x1005);
	w_ip(PT_PKT_TIP, 0x2005);
	w_tnt("T");
	w_ip(PT_PKT_FUP, 0x1005);
	w_pgd();
	check_stream("an uncompressed RET pops too");
}

static void test_indirect_and_zero_length_call(void **state)
{
	(void)state;
	start(CTL_BASE, 0);
	run(0x1100, 0x4000, ICALL, 0);		/* TIP, push 0x1102 */
	run(0x4000, 0x4100, IJMP, 0);		/* TIP */
	run(0x4100, 0x4200, JMP, 0);		/* nothing */
	run(0x4200, 0x1102, RET, 0);		/* compressed */
	run(0x1200, 0x1205, CALL, 0);		/* call next: no push */
	run(0x1205, 0x1205, 0, 0);		/* pop %rax: nothing */
	run(0x1206, 0x1205, RET, 0);		/* empty stack: TIP */
	pt_gen_stop(&g, clk);
	w_psb_plus(~0ull, 0, 1);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x1100);
	w_ip(PT_PKT_TIP, 0x4000);
	w_ip(PT_PKT_TIP, 0x4100);
	w_tnt("T");
	w_ip(PT_PKT_TIP, 0x1205);
	w_ip(PT_PKT_FUP, 0x1205);
	w_pgd();
	check_stream("indirect CALL/JMP, zero-length CALL");
}

static void test_call_stack_depth(void **state)
{
	uint64_t calls = 0;

	(void)state;
	start(CTL_BASE, 0);
	set_code(&g, code_at, &calls);
	/* 65 nested CALLs: 0x10000 + 8n calls 0x10000 + 8(n + 1) and will
	 * return to 0x10005 + 8n */
	for (unsigned n = 0; n < 65; n++)
		run(0x10000 + 8 * n, 0x10008 + 8 * n, CALL, 0);
	for (unsigned n = 65; n-- > 0;)
		run(0x30000, 0x10005 + 8 * n, RET, 0);
	pt_gen_stop(&g, clk);
	assert_int_equal(calls, 65);
	w_psb_plus(~0ull, 0, 1);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x10000);
	/* the 64 newest are compressed, the oldest was pushed off */
	for (unsigned i = 0; i < 64 / 6; i++)
		w_tnt("TTTTTT");
	w_tnt("TTTT");
	w_ip(PT_PKT_TIP, 0x10005);
	w_ip(PT_PKT_FUP, 0x10005);
	w_pgd();
	check_stream("64-entry call stack");
}

/* After as many compressed RETs as CALLs the stack is empty: a further
 * RET is a TIP even to an address still lying in the stack's storage. */
static void test_call_stack_empty(void **state)
{
	(void)state;
	start(CTL_BASE, 0);
	for (unsigned n = 0; n < 64; n++)
		run(0x10000 + 8 * n, 0x10008 + 8 * n, CALL, 0);
	for (unsigned n = 64; n-- > 0;)
		run(0x30000, 0x10005 + 8 * n, RET, 0);
	run(0x30000, 0x10005 + 8 * 63, RET, 0);
	pt_gen_stop(&g, clk);
	w_psb_plus(~0ull, 0, 1);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x10000);
	for (unsigned i = 0; i < 64 / 6; i++)
		w_tnt("TTTTTT");
	w_tnt("TTTT");
	w_ip(PT_PKT_TIP, 0x10005 + 8 * 63);
	w_ip(PT_PKT_FUP, 0x10005 + 8 * 63);
	w_pgd();
	check_stream("empty call stack");
}

static const uint8_t *no_code(void *ctx, uint64_t rip)
{
	(void)ctx;
	(void)rip;
	return NULL;
}

/* Without the CALL's bytes its length is unknown: no push, so its RET
 * is a TIP (still a stream a decoder follows). */
static void test_code_unknown(void **state)
{
	(void)state;
	start(CTL_BASE, 0);
	set_code(&g, no_code, NULL);
	run(0x1000, 0x2000, CALL, 0);
	run(0x2000, 0x1005, RET, 0);
	pt_gen_stop(&g, clk);
	w_psb_plus(~0ull, 0, 1);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x1000);
	w_ip(PT_PKT_TIP, 0x1005);
	w_ip(PT_PKT_FUP, 0x1005);
	w_pgd();
	check_stream("no code bytes: no push");
}

/* The default code source: the bytes at the RIP in this address space
 * (where the model's tracer decoded them). */
static void test_default_code_source(void **state)
{
	static uint8_t callq[15] = { 0xe8, 0x10, 0, 0, 0 };
	uint64_t at = (uint64_t)(uintptr_t)callq;

	(void)state;
	start(CTL_BASE, 0);
	set_code(&g, NULL, NULL);
	run(at, at + 0x15, CALL, 0);
	run(at + 0x15, at + 5, RET, 0);
	pt_gen_stop(&g, clk);
	w_psb_plus(~0ull, 0, 1);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, at);
	w_tnt("T");
	w_ip(PT_PKT_FUP, at + 5);
	w_pgd();
	check_stream("default code source: the bytes at the RIP");
}

static void test_far(void **state)
{
	(void)state;
	start(CTL_BASE, 0);
	run(0x1300, 0x8000, FAR, 0);		/* int3: FUP, TIP */
	run(0x1310, 0x8100, FAR, 0);		/* int $0x80 */
	run(0x1320, 0x8200, FAR, 0);		/* lret: TIP only */
	run(0x1330, 0x8300, FAR, 0);		/* 66 cd 21 */
	pt_gen_stop(&g, clk);
	w_psb_plus(~0ull, 0, 1);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x1300);
	w_ip(PT_PKT_FUP, 0x1300);
	w_ip(PT_PKT_TIP, 0x8000);
	w_ip(PT_PKT_FUP, 0x1310);
	w_ip(PT_PKT_TIP, 0x8100);
	w_ip(PT_PKT_TIP, 0x8200);
	w_ip(PT_PKT_FUP, 0x1330);
	w_ip(PT_PKT_TIP, 0x8300);
	w_ip(PT_PKT_FUP, 0x8300);
	w_pgd();
	check_stream("far transfers");
}

static void test_not_branches(void **state)
{
	struct insn_event e = step(0x1000, 0x1000, DEC_REP_STRING, 0);

	(void)state;
	start(CTL_BASE | SDM_CTL_CYCEN, 0);
	e.retired = 0;
	pt_gen_step(&g, &e, ++clk);		/* a REP iteration */
	e = step(0x1000, 0x1002, JCC | TAKEN, 0);
	e.retired = 0;				/* not retired: nothing */
	pt_gen_step(&g, &e, ++clk);
	run(0x1002, 0x1004, DEC_UNCLASSIFIED, 0);
	run(0x1004, 0x1008, 0, 0);
	pt_gen_stop(&g, clk);
	w_psb_plus(~0ull, 0, 1);
	w_cyc(0);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x1000);
	/* the TIP.PGD at stop is CYC-eligible: 4 cycles since the enable,
	 * the CYC before the FUP of the same operation */
	w_cyc(4);
	w_ip(PT_PKT_FUP, 0x1008);
	w_pgd();
	check_stream("REP iterations and other steps: no packets");
}

static void test_stop_cyc(void **state)
{
	(void)state;
	start(CTL_BASE | SDM_CTL_CYCEN, 0);
	run(0x1000, 0x1004, 0, 0);
	run(0x1004, 0x1008, 0, 0);
	pt_gen_stop(&g, clk + 3);
	w_psb_plus(~0ull, 0, 1);
	w_cyc(0);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x1000);
	w_cyc(5);
	w_ip(PT_PKT_FUP, 0x1008);
	w_pgd();
	check_stream("the disable's CYC precedes its FUP");
}

/* CycThresh 3: a CYC only once 4 cycles have passed since the last, at
 * the next CYC-eligible packet: the first branch of a TNT. */
static void test_threshold_3(void **state)
{
	(void)state;
	start(CTL_BASE | SDM_CTL_CYCEN | CYC_THRESH(3), 10);
	for (unsigned i = 0; i < 10; i++)	/* clocks 11-20 */
		run(0x1000 + 2 * i, 0x1002 + 2 * i, JCC | (i & 1 ? TAKEN : 0),
		    0);
	pt_gen_stop(&g, clk);
	w_psb_plus(~0ull, 0, 1);
	w_mode();			/* 0 cycles: no CYC at the enable */
	w_ip(PT_PKT_TIP_PGE, 0x1000);
	w_tnt("NTNTNT");		/* 11-16, 1 cycle: no CYC; full */
	w_cyc(7);			/* 17: a new TNT, 7 cycles */
	w_tnt("NTNT");			/* 17-20, at stop (3 cycles) */
	w_ip(PT_PKT_FUP, 0x1014);
	w_pgd();
	check_stream("CycThresh 3");
}

/* CycThresh 1 is a threshold of 1 cycle: no CYC(0) at the enable, then
 * one per cycle as with 0. */
static void test_threshold_1(void **state)
{
	(void)state;
	start(CTL_BASE | SDM_CTL_CYCEN | CYC_THRESH(1), 0);
	run(0x1000, 0x1040, JCC | TAKEN, 0);
	run(0x1040, 0x1044, 0, 0);
	run(0x1044, 0x2000, IJMP, 0);
	pt_gen_stop(&g, clk);
	w_psb_plus(~0ull, 0, 1);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x1000);
	w_cyc(1);
	w_tnt("T");
	w_cyc(2);
	w_ip(PT_PKT_TIP, 0x2000);
	w_ip(PT_PKT_FUP, 0x2000);
	w_pgd();
	check_stream("CycThresh 1");
}

/* MTCFreq 3: an MTC each time clock bit 3 toggles, payload (clock >> 3)
 * & 0xff; TMA in PSB+ with TSCEn.  A step of 20 clocks (more than the
 * 8-clock period) spans two toggles before its own cycle: two MTCs, each
 * with its own payload and, with CycThresh 0, its own CYC, before the
 * step's branch (one MTC for the whole step fails). */
static void test_mtc(void **state)
{
	(void)state;
	start(CTL_BASE | SDM_CTL_CYCEN | SDM_CTL_MTCEN | SDM_CTL_TSCEN |
	      MTC_FREQ(3), 5);
	run(0x1000, 0x1002, 0, 0);			/* 6 */
	run(0x1002, 0x1004, 0, 0);			/* 7 */
	run(0x1004, 0x1040, JCC | TAKEN, 0);		/* 8: MTC 1 */
	for (unsigned i = 0; i < 7; i++)		/* 9-15 */
		run(0x1040 + 2 * i, 0x1042 + 2 * i, 0, 0);
	run(0x104e, 0x1050, 0, 0);			/* 16: MTC 2 */
	run_at(36, 0x1050, 0x1060, JCC, 0);		/* 24, 32: MTC 3, 4 */
	pt_gen_stop(&g, clk);
	w_psb_plus(5, 1, 1);
	w_cyc(0);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x1000);
	w_cyc(3);
	w_tnt("T");			/* the MTC of its cycle after it */
	w_mtc(1);
	w_cyc(8);
	w_mtc(2);
	w_cyc(8);			/* clock 24 */
	w_mtc(3);
	w_cyc(8);			/* clock 32 */
	w_mtc(4);
	w_cyc(4);			/* clock 36: the Jcc */
	w_tnt("N");
	w_ip(PT_PKT_FUP, 0x1060);
	w_pgd();
	check_stream("MTC");
}

/* The MTC and TMA bytes against their layouts, restated here (SDM Vol.
 * 3C, order no. 326019-060US):
 *   - MTC (Table 36-31): byte 0 = 0101 1001b (0x59), byte 1 = CTC, all 8
 *     bits: (ART >> MTCFreq) & 0xFF, so 0x80 .. 0xFF have bit 7 set and
 *     0xFF is followed by 0x00;
 *   - TMA (Table 36-32): bytes 0-1 = 02h 73h, byte 2 CTC[7:0], byte 3
 *     CTC[15:8], byte 4 reserved, byte 5 FastCounter[7:0], byte 6 bits
 *     7:1 reserved and bit 0 FC[8]; the generator writes 0 in the
 *     reserved bits (the model's FastCounter is 0);
 *   - TSC (Table 36-30): 19h, then TSC[55:0] little-endian; PSB 02h 82h
 *     eight times (Table 36-36), CBR 02h 03h ratio 00h (Table 36-35),
 *     PSBEND 02h 23h (Table 36-37).
 * TraceEn with BranchEn clear: PSB+ and the MTCs alone.  MTCFreq 4 from
 * clock 0x34f7f5 (payload 0x7f, bits 23:16 of the clock 0x34 so that a
 * TMA carrying more than CTC[15:0] shows): steps at 0x34f815 (toggles at
 * 0x34f800, 0x34f810: 0x80, 0x81), 0x34fff8 (0x82 .. 0xff) and 0x350002
 * (0x350000: 0x00). */
static void test_mtc_tma_bytes(void **state)
{
	static const uint8_t head[] = {
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,	/* PSB */
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
		0x19, 0xf5, 0xf7, 0x34, 0, 0, 0, 0,	/* TSC 0x34f7f5 */
		0x02, 0x73, 0xf5, 0xf7, 0x00, 0x00, 0x00, /* TMA CTC 0xf7f5 */
		0x02, 0x03, 0x01, 0x00,				/* CBR 1 */
		0x02, 0x23,					/* PSBEND */
	};
	uint8_t literal[sizeof(head) + 2 * 129];
	unsigned n = sizeof(head);

	(void)state;
	memcpy(literal, head, sizeof(head));
	for (unsigned ctc = 0x80; ctc <= 0x100; ctc++) {
		literal[n++] = 0x59;
		literal[n++] = (uint8_t)ctc;	/* 0x100: 0x00 */
	}
	start(SDM_CTL_TRACEEN | SDM_CTL_OS | SDM_CTL_TSCEN | SDM_CTL_MTCEN |
	      MTC_FREQ(4), 0x34f7f5);
	run_at(0x34f815, 0x1000, 0x1002, 0, 0);
	run_at(0x34fff8, 0x1002, 0x1004, 0, 0);
	run_at(0x350002, 0x1004, 0x1006, 0, 0);
	pt_gen_stop(&g, clk);
	assert_int_equal(got.n, n);
	assert_memory_equal(got.b, literal, n);
}

/* Intel's libipt test stream ptxed-tick (test/src/ptxed-tick.ptt), in
 * this generator's terms: a taken JLE at cycle 4, two instructions, a
 * not-taken JLE; CALL *%rax 0x12 cycles after the first JLE; the RET
 * (compressed) 8 later; the disable 6 later.  ptdump of Intel's stream:
 * cyc 4, tnt.8 !. (two branches in one TNT), cyc 12h, tip, cyc 8, tnt.8
 * !, cyc 6, fup, tip.pgd.  The enable differs (PacketEn rises at the
 * first step here: CYC 0, MODE.Exec, TIP.PGE). */
static void test_cyc0_multi_branch_tnt(void **state)
{
	(void)state;
	start(CTL_BASE | SDM_CTL_CYCEN, 0);
	run(0x1000, 0x1007, 0, 0);			/* 1 mov */
	run(0x1007, 0x1010, JMP, 0);			/* 2 jmp */
	run(0x1010, 0x1014, 0, 0);			/* 3 cmp */
	run(0x1014, 0x100c, JCC | TAKEN, 0);		/* 4 jle: T */
	run(0x100c, 0x1010, 0, 0);			/* 5 add */
	run(0x1010, 0x1014, 0, 0);			/* 6 cmp */
	run(0x1014, 0x1100, JCC, 0);			/* 7 jle: N */
	run_at(0x16, 0x1100, 0x2000, ICALL, 0);		/* call *%rax */
	run_at(0x1e, 0x2000, 0x1102, RET, 0);		/* ret */
	run(0x1102, 0x1103, 0, 0);			/* nop */
	pt_gen_stop(&g, 0x24);
	w_psb_plus(~0ull, 0, 1);
	w_cyc(0);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x1000);
	w_cyc(4);
	w_tnt("TN");
	w_cyc(0x12);
	w_ip(PT_PKT_TIP, 0x2000);
	w_cyc(8);
	w_tnt("T");
	w_cyc(6);
	w_ip(PT_PKT_FUP, 0x1103);
	w_pgd();
	check_stream("ptxed-tick: a two-branch TNT under CycThresh 0");
}

/* CycThresh 0, a six-branch TNT at one branch per cycle: a CYC before
 * the first branch only, the TNT full at six (Table 36-16), the seventh
 * branch a new TNT with its own CYC (6 cycles after the first). */
static void test_cyc0_full_tnt(void **state)
{
	static const char outcome[] = "TNNTTTN";

	(void)state;
	start(CTL_BASE | SDM_CTL_CYCEN, 0);
	for (unsigned i = 0; outcome[i]; i++)
		run(0x1000 + 16 * i, 0x1000 + 16 * (i + 1),
		    JCC | (outcome[i] == 'T' ? TAKEN : 0), 0);
	pt_gen_stop(&g, clk);
	w_psb_plus(~0ull, 0, 1);
	w_cyc(0);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x1000);
	w_cyc(1);
	w_tnt("TNNTTT");
	w_cyc(6);
	w_tnt("N");
	w_ip(PT_PKT_FUP, 0x1070);
	w_pgd();
	check_stream("CycThresh 0: six branches, one CYC");
}

/* The CYC of a cycle precedes every packet of that cycle (Table 36-33):
 * when a CYC-eligible packet (here an MTC, MTCFreq 2) comes in the cycle
 * of a branch that joined a pending TNT, that TNT goes out without the
 * branch, the CYC follows, and the branch starts a TNT of its own after
 * it: its time is the CYC's, not past it. */
static void test_cyc0_branch_in_cycle_of_cyc(void **state)
{
	(void)state;
	start(CTL_BASE | SDM_CTL_CYCEN | SDM_CTL_MTCEN | MTC_FREQ(2), 0);
	run(0x1000, 0x1002, JCC | TAKEN, 0);		/* 1: first */
	run(0x1002, 0x1004, JCC, 0);			/* 2 */
	run(0x1004, 0x1006, JCC | TAKEN, 0);		/* 3 */
	run(0x1006, 0x1008, JCC, 0);			/* 4: MTC 1 */
	run(0x1008, 0x100a, JCC, 0);			/* 5 */
	pt_gen_stop(&g, clk);
	w_psb_plus(~0ull, 0, 1);
	w_cyc(0);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x1000);
	w_cyc(1);
	w_tnt("TNT");			/* 1-3 */
	w_cyc(3);			/* cycle 4 */
	w_tnt("N");			/* the branch of cycle 4 */
	w_mtc(1);
	w_cyc(1);			/* cycle 5 */
	w_tnt("N");
	w_ip(PT_PKT_FUP, 0x100a);
	w_pgd();
	check_stream("a branch in the cycle of a CYC starts its TNT");
}

static void test_cpl_filter(void **state)
{
	(void)state;
	/* OS only: CPL 3 steps are not traced */
	start(SDM_CTL_TRACEEN | SDM_CTL_BRANCHEN | SDM_CTL_OS |
	      SDM_CTL_CYCEN, 0);
	run(0x1000, 0x1040, JCC | TAKEN, 3);		/* 1 */
	run(0x1040, 0x2000, JCC | TAKEN, 0);		/* 2: PGE, bit */
	run(0x2000, 0x3000, IJMP, 0);			/* 3 */
	run(0x3000, 0x3004, JCC, 3);			/* 4: PGD */
	run(0x3004, 0x3008, 0, 3);
	pt_gen_stop(&g, clk);
	w_psb_plus(~0ull, 0, 1);
	w_cyc(1);			/* PacketEn rose in cycle 1 */
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x1040);
	w_cyc(1);
	w_tnt("T");
	w_cyc(1);
	w_ip(PT_PKT_TIP, 0x3000);	/* cycle 3 */
	w_pgd();			/* in cycle 3, no IP */
	check_stream("OS only");

	/* User only, and BranchEn clear */
	start(SDM_CTL_TRACEEN | SDM_CTL_BRANCHEN | SDM_CTL_USER, 0);
	run(0x1000, 0x1040, JCC | TAKEN, 0);
	run(0x1040, 0x1044, JCC, 3);
	pt_gen_stop(&g, clk);
	w_psb_plus(~0ull, 0, 1);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x1040);
	w_tnt("N");
	w_ip(PT_PKT_FUP, 0x1044);
	w_pgd();
	check_stream("User only");

	start(SDM_CTL_TRACEEN | SDM_CTL_OS | SDM_CTL_USER, 0);
	run(0x1000, 0x1040, JCC | TAKEN, 0);
	pt_gen_stop(&g, clk);
	w_psb_plus(~0ull, 0, 1);
	check_stream("BranchEn clear: no COFI packets");
}

/* PSBFreq 0: PSB+ again once 2 KiB have gone out, with MODE.Exec and
 * FUP(next RIP); the last IP and the call stack start afresh. */
static void psb_period(int cyc)
{
	unsigned n = 0;

	start(CTL_BASE | PSB_FREQ(0) | (cyc ? SDM_CTL_CYCEN : 0), 0);
	run(0x1000, 0x2000, CALL, 0);			/* push 0x1005 */
	/* full-width TIPs (9 bytes each) until the output passes 2 KiB */
	while (got.n < 2048) {
		uint64_t far_ip = 0x4000000000000000ull | n << 20;

		run(0x2000, far_ip, IJMP, 0);
		n++;
	}
	run(0x2000, 0x1005, RET, 0);	/* pushed before the PSB: TIP */
	pt_gen_stop(&g, clk);

	w_psb_plus(~0ull, 0, 1);
	if (cyc)
		w_cyc(0);
	w_mode();
	w_ip(PT_PKT_TIP_PGE, 0x1000);
	for (unsigned i = 0; i < n; i++) {
		if (cyc)
			w_cyc(i ? 1 : 2);	/* the CALL's cycle has none */
		w_ip(PT_PKT_TIP, 0x4000000000000000ull | (uint64_t)i << 20);
	}
	/* PSB+ with PacketEn 1: MODE.Exec and FUP(next IP) (§36.3.7) */
	expect(PT_PKT_PSB, 0, 0, 0);
	expect(PT_PKT_CBR, 0, 0, 1);
	w_mode();
	w_ip(PT_PKT_FUP, 0x4000000000000000ull | (uint64_t)(n - 1) << 20);
	expect(PT_PKT_PSBEND, 0, 0, 0);
	/* the CALL was pushed before the PSB, which empties the stack
	 * (§36.4.2.17): its RET is a TIP */
	if (cyc)
		w_cyc(1);
	w_ip(PT_PKT_TIP, 0x1005);
	w_ip(PT_PKT_FUP, 0x1005);	/* the RET's cycle: no second CYC */
	w_pgd();
	check_stream(cyc ? "periodic PSB+, CYCEn" : "periodic PSB+");
}

static void test_psb_period(void **state)
{
	(void)state;
	psb_period(0);
}

/* With CYCEn (CycThresh 0) nothing inside PSB+ gets a CYC: its FUP and
 * MODE.Exec are not CYC-eligible there (§36.3.6, §36.3.7). */
static void test_psb_period_cyc(void **state)
{
	(void)state;
	psb_period(1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start_psb_plus),
		cmocka_unit_test(test_jcc_literal),
		cmocka_unit_test(test_tnt_fills_six),
		cmocka_unit_test(test_call_ret_compressed),
		cmocka_unit_test(test_disretc),
		cmocka_unit_test(test_ret_mismatch_pops),
		cmocka_unit_test(test_indirect_and_zero_length_call),
		cmocka_unit_test(test_call_stack_depth),
		cmocka_unit_test(test_call_stack_empty),
		cmocka_unit_test(test_code_unknown),
		cmocka_unit_test(test_default_code_source),
		cmocka_unit_test(test_far),
		cmocka_unit_test(test_not_branches),
		cmocka_unit_test(test_stop_cyc),
		cmocka_unit_test(test_threshold_3),
		cmocka_unit_test(test_threshold_1),
		cmocka_unit_test(test_mtc),
		cmocka_unit_test(test_mtc_tma_bytes),
		cmocka_unit_test(test_cyc0_multi_branch_tnt),
		cmocka_unit_test(test_cyc0_full_tnt),
		cmocka_unit_test(test_cyc0_branch_in_cycle_of_cyc),
		cmocka_unit_test(test_cpl_filter),
		cmocka_unit_test(test_psb_period),
		cmocka_unit_test(test_psb_period_cyc),
	};

	return cmocka_run_group_tests_name("pt_gen", tests, NULL, NULL);
}
