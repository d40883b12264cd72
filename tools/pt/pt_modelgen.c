/* pt-modelgen: the PT model's streams of the benchmarks, made on the host,
 * with the branches they must decode to - the input of the model checks
 * of tools/check/pt.py (ptdecode and libipt must agree on every stream;
 * ptdecode --timing must give every branch of the trace with its clock).
 *
 * Each benchmark routine (the .S files of bench/<mode>/, at the larger
 * of its two parameters) runs in a child single-stepped with ptrace
 * (tests/host/bench/single_step.h).  Every step becomes an insn_event as
 * the harness's tracer makes it (arch/x86/trace.c): the class from
 * decode_insn (arch/x86/decode.h), EV_TAKEN when a branch did not fall
 * through, CPL 3, retired (0 for a REP iteration that is not the last).
 * The steps are fed to the model's packet generator (pmu/pt/gen.h) under
 * each configuration below, with the model clock advancing by a stride per
 * step from a start clock (stride 1: the clock is the step number).
 *
 * Per benchmark and configuration it writes OUT/<bench>-<cfg>.pt, the
 * stream, and OUT/<bench>-<cfg>.branches: a header line
 *   # pt-modelgen bench=B n=N mode=M cfg=C ctl=0x.. start=S stride=D
 *     thresh=T steps=K bytes=L psbs=P
 * then one line per branch the stream must show, in order, with the clock
 * of its step:
 *   tip.pge 0x<ip> <clock>    the first step (PacketEn 0 -> 1)
 *   tnt T|N <clock>           a conditional branch, a compressed RET (T)
 *   tip 0x<ip> <clock>        an indirect JMP/CALL, an uncompressed RET,
 *                             a far transfer: its target
 * These are worked out here from the trace and the SDM, not by pmu/pt/gen.c:
 * RET compression (Intel SDM Vol. 3C, order no. 326019-060US, §36.2.1.2
 * and §36.4.2.2 "Indirect Transfer Compression for Returns (RET)") with a
 * stack of the 64 youngest CALLs' next IPs (zero-length CALLs excluded),
 * emptied at the start and at each PSB, off under DisRETC.  A PSB+ that
 * the generator writes during a step is taken to follow the step's own
 * packets (pt_gen_step writes it last), so it empties the stack after
 * that step.  Most configurations have PSBFreq 15 (a PSB+ each 64 MiB:
 * none inside a benchmark's stream); the -psb ones PSBFreq 0 (2 KiB).
 *
 * Usage: pt-modelgen OUT [BENCH...]   (default: every benchmark)
 * Prints one line per stream; exit status 0, 1 when a benchmark could not
 * be traced, 2 for a bad argument or a write error. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86/decode.h"
#include "arch/x86/trace.h"
#include "arch/x86/trace_classify.h"
#include "bench/bench.h"
#include "pmu/pt/regs.h"
#include "pmu/pt/gen.h"
#include "tests/host/bench/single_step.h"
#include "tools/pt/tool.h"

#if defined(__x86_64__)
#define MODE_NAME "x86_64"
#else
#define MODE_NAME "i386"
#endif

#define MAX_STEPS 2000000
#define START_CLOCK 1000	/* the enable's clock: times are from it */
#define CBR_RATIO 0x20		/* what CBR says (any ratio will do) */

#define CTL_BASE (RTIT_CTL_TRACEEN | RTIT_CTL_USER | RTIT_CTL_BRANCHEN | \
		  RTIT_CTL_CYCEN)
#define THRESH(v) ((uint64_t)(v) << RTIT_CTL_CYCTHRESH_SHIFT)
#define PSBFREQ(v) ((uint64_t)(v) << RTIT_CTL_PSBFREQ_SHIFT)
#define MTCFREQ(v) ((uint64_t)(v) << RTIT_CTL_MTCFREQ_SHIFT)

struct config {
	const char *name;
	uint64_t ctl;
	uint64_t stride;	/* clocks per step */
};

static const struct config configs[] = {
	/* CycThresh 0: each TNT's first branch and each TIP exactly timed,
	 * later branches of a multi-branch TNT bounded (docs/pt.md) */
	{ .name = "c0", .ctl = CTL_BASE | PSBFREQ(15), .stride = 1 },
	/* a PSB+ each 2 KiB: it resets RET compression */
	{ .name = "c0-psb", .ctl = CTL_BASE | PSBFREQ(0), .stride = 1 },
	/* no RET compression, a PSB+ each 2 KiB */
	{ .name = "c0-disretc-psb",
	  .ctl = CTL_BASE | RTIT_CTL_DISRETC | PSBFREQ(0), .stride = 1 },
	/* MTC each 8 clocks, TSC in PSB+ */
	{ .name = "c0-mtc-tsc",
	  .ctl = CTL_BASE | RTIT_CTL_MTCEN | MTCFREQ(3) | RTIT_CTL_TSCEN |
		 PSBFREQ(15), .stride = 1 },
	/* MTC each 8 clocks, 20 clocks a step: two or three MTCs a step,
	 * one per toggle of the ART bit (SDM Table 36-6, MTCFreq) */
	{ .name = "c0-mtc-x20",
	  .ctl = CTL_BASE | RTIT_CTL_MTCEN | MTCFREQ(3) | RTIT_CTL_TSCEN |
		 PSBFREQ(15), .stride = 20 },
	/* 3-byte CYCs */
	{ .name = "c0-x5000", .ctl = CTL_BASE | PSBFREQ(15), .stride = 5000 },
	/* 6-byte CYCs, times past 2^50 */
	{ .name = "c0-x2e40", .ctl = CTL_BASE | PSBFREQ(15),
	  .stride = (1ull << 40) + 1 },
	/* CycThresh 1, 3, 6: a CYC after 1, 4, 32 clocks at least */
	{ .name = "t1", .ctl = CTL_BASE | THRESH(1) | PSBFREQ(15), .stride = 1 },
	{ .name = "t3", .ctl = CTL_BASE | THRESH(3) | PSBFREQ(15), .stride = 1 },
	{ .name = "t6", .ctl = CTL_BASE | THRESH(6) | PSBFREQ(15), .stride = 1 },
	{ .name = "t3-disretc-psb",
	  .ctl = CTL_BASE | THRESH(3) | RTIT_CTL_DISRETC | PSBFREQ(0),
	  .stride = 3 },
};

/* One step of the trace, as ptrace saw it. */
struct step {
	uint64_t rip, next;
	uint32_t iterations;	/* REP: the drop in RCX */
};

struct trace {
	struct step *steps;
	size_t n, cap;
};

static int record(const struct bench *b, uint64_t n, struct trace *t)
{
	const uint64_t fn = (uintptr_t)b->fn, end = (uintptr_t)b->end;
	struct single_step s;

	t->n = 0;
	if (single_step_start(&s, b, n)) {
		fprintf(stderr, "pt-modelgen: %s: %s\n", b->name, s.error);
		return -1;
	}
	while (R_IP(s.r) >= fn && R_IP(s.r) < end) {
		struct step st = { .rip = R_IP(s.r) };
		uint64_t rcx = R_CX(s.r);

		if (t->n == MAX_STEPS || !single_step_next(&s)) {
			fprintf(stderr, "pt-modelgen: %s: %s\n", b->name,
				s.error[0] ? s.error : "runaway");
			single_step_end(&s);
			return -1;
		}
		st.next = R_IP(s.r);
		st.iterations = (uint32_t)(rcx - R_CX(s.r));
		if (t->n == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 4096;
			t->steps = realloc(t->steps,
					   t->cap * sizeof(*t->steps));
			if (!t->steps) {
				fprintf(stderr, "pt-modelgen: out of memory\n");
				exit(2);
			}
		}
		t->steps[t->n++] = st;
	}
	single_step_end(&s);
	return 0;
}

/* The event the tracer gives for a step (trace_classify(), the tracer's
 * own rule): the routine's code is at the same address here as in the
 * child.  No data addresses: EV_ACCESS_UNKNOWN. */
static struct insn_event event(const struct step *st, uint8_t *len)
{
	struct insn_class k = decode_insn((const uint8_t *)(uintptr_t)st->rip);
	struct insn_event e = {
		.rip = st->rip,
		.next_rip = st->next,
		.cpl = 3,
	};

	*len = k.length;
	trace_classify(&e, &k, st->iterations);
	e.flags |= EV_ACCESS_UNKNOWN;
	return e;
}

/* The generator's output, and where PSBs appeared in it. */
struct sink {
	struct pt_bytes out;
	size_t scanned;		/* PSBs looked for before this */
	unsigned psbs;
};

static void sink_write(void *ctx, const uint8_t *p, unsigned n)
{
	pt_bytes_put(&((struct sink *)ctx)->out, p, n);
}

/* PSBs written since the last call: the 16-byte pattern 02 82 x 8
 * (§36.4.2, the PSB packet), which no other packet's bytes hold. */
static unsigned new_psbs(struct sink *s)
{
	unsigned found = 0;
	size_t i = s->scanned;

	for (; i + 16 <= s->out.len; i++) {
		if (pt_tool_is_psb(s->out.p, s->out.len, i)) {
			found++;
			i += 15;
		}
	}
	s->scanned = i;
	s->psbs += found;
	return found;
}

/* RET compression as the SDM has the decoder follow it (§36.4.2.2). */
struct ret_stack {
	uint64_t ip[PT_GEN_CALL_DEPTH];
	unsigned top, depth;	/* ring: the youngest at top - 1 */
};

static void rs_push(struct ret_stack *r, uint64_t ip)
{
	r->ip[r->top] = ip;
	r->top = (r->top + 1) % PT_GEN_CALL_DEPTH;
	if (r->depth < PT_GEN_CALL_DEPTH)
		r->depth++;
}

/* A RET to target: compressed when it goes where the youngest CALL
 * would return.  (A RET to elsewhere with CALLs on the stack uses the
 * entry up too; no benchmark has one.) */
static int rs_ret(struct ret_stack *r, uint64_t target)
{
	if (!r->depth)
		return 0;
	r->top = (r->top + PT_GEN_CALL_DEPTH - 1) % PT_GEN_CALL_DEPTH;
	r->depth--;
	return r->ip[r->top] == target;
}

/* The line the stream must show for one step, if any. */
static void expect(FILE *f, const struct insn_event *e, uint8_t len,
		   uint64_t clock, struct ret_stack *rs, int retc)
{
	uint64_t fall = e->rip + len;

	if (!(e->flags & (DEC_BRANCH | DEC_FAR)) ||
	    (e->flags & DEC_UNCLASSIFIED))
		return;
	if (e->flags & DEC_FAR) {
		fprintf(f, "tip 0x%" PRIx64 " %" PRIu64 "\n", e->next_rip,
			clock);
	} else if (e->flags & DEC_COND) {
		fprintf(f, "tnt %c %" PRIu64 "\n",
			e->flags & EV_TAKEN ? 'T' : 'N', clock);
	} else if (e->flags & DEC_RET) {
		if (rs_ret(rs, e->next_rip) && retc)
			fprintf(f, "tnt T %" PRIu64 "\n", clock);
		else
			fprintf(f, "tip 0x%" PRIx64 " %" PRIu64 "\n",
				e->next_rip, clock);
	} else {
		if (e->flags & DEC_INDIRECT)
			fprintf(f, "tip 0x%" PRIx64 " %" PRIu64 "\n",
				e->next_rip, clock);
		/* a zero-length CALL (to its next IP) is not pushed */
		if ((e->flags & DEC_CALL) &&
		    ((e->flags & DEC_INDIRECT) || e->next_rip != fall))
			rs_push(rs, fall);
	}
}

/* Runs the generator over the trace under c into s; the expected lines
 * into f. */
static void generate(const struct trace *t, const struct config *c,
		     struct sink *s, FILE *f)
{
	int retc = !(c->ctl & RTIT_CTL_DISRETC);
	struct ret_stack rs = { .depth = 0 };
	uint64_t clock = START_CLOCK;
	struct pt_gen g;

	pt_gen_start(&g, c->ctl, clock, CBR_RATIO, sink_write, s);
	new_psbs(s);
	s->psbs = 0;		/* the one of the start */
	for (size_t i = 0; i < t->n; i++) {
		uint8_t len;
		struct insn_event e = event(&t->steps[i], &len);

		clock += c->stride;
		if (!i)
			fprintf(f, "tip.pge 0x%" PRIx64 " %" PRIu64 "\n",
				e.rip, clock);
		pt_gen_step(&g, &e, clock);
		expect(f, &e, len, clock, &rs, retc);
		if (new_psbs(s))
			rs.depth = 0;
	}
	pt_gen_stop(&g, clock + c->stride);
}

static int write_stream(const char *out, const struct bench *b, uint64_t n,
			const struct trace *t, const struct config *c)
{
	unsigned thresh = (unsigned)(c->ctl >> RTIT_CTL_CYCTHRESH_SHIFT) &
			  RTIT_CTL_FIELD_MASK;
	struct sink s = { .out = { 0 } };
	char path[4096], *lines = NULL;
	size_t lines_len = 0;
	FILE *mem = open_memstream(&lines, &lines_len), *f;
	int rc = -1;

	if (!mem) {
		perror("pt-modelgen: open_memstream");
		exit(2);
	}
	generate(t, c, &s, mem);
	fclose(mem);
	snprintf(path, sizeof(path), "%s/%s-%s.branches", out, b->name,
		 c->name);
	f = fopen(path, "w");
	if (!f)
		goto out;
	fprintf(f, "# pt-modelgen bench=%s n=%" PRIu64 " mode=%s cfg=%s "
		"ctl=0x%" PRIx64 " start=%u stride=%" PRIu64 " thresh=%u "
		"steps=%zu bytes=%zu psbs=%u\n", b->name, n, MODE_NAME,
		c->name, c->ctl, START_CLOCK, c->stride, thresh, t->n,
		s.out.len, s.psbs);
	fwrite(lines, 1, lines_len, f);
	if (fclose(f))
		goto out;
	snprintf(path, sizeof(path), "%s/%s-%s.pt", out, b->name, c->name);
	if (pt_tool_write_file(path, s.out.p, s.out.len))
		goto out;
	printf("%s %s steps=%zu bytes=%zu psbs=%u\n", b->name, c->name, t->n,
	       s.out.len, s.psbs);
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "pt-modelgen: %s: %s\n", path,
			strerror(errno));
	free(lines);
	free(s.out.p);
	return rc;
}

int main(int argc, char **argv)
{
	struct trace t = { 0 };
	int rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: pt-modelgen OUT [BENCH...]\n");
		return 2;
	}
	for (int i = 2; i < argc; i++)
		if (!bench_find(argv[i])) {
			fprintf(stderr, "pt-modelgen: no benchmark %s\n",
				argv[i]);
			return 2;
		}
	for (const struct bench *b = __benches_start; b < __benches_end; b++) {
		uint64_t n = b->params[0] > b->params[1] ? b->params[0] :
			     b->params[1];
		int chosen = argc == 2;

		for (int i = 2; i < argc; i++)
			chosen |= !strcmp(argv[i], b->name);
		if (!chosen)
			continue;
		if (record(b, n, &t)) {
			rc = 1;
			continue;
		}
		for (size_t c = 0; c < sizeof(configs) / sizeof(*configs); c++)
			if (write_stream(argv[1], b, n, &t, &configs[c]))
				return 2;
	}
	free(t.steps);
	return rc;
}
