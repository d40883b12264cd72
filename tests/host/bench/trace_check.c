/* trace_check: host check of the benchmark formulas (bench/bench.h).
 * The routines are plain functions (ROUTINE_ABI), so a forked child runs
 * each one and the parent single-steps it with ptrace from its first
 * instruction until RIP leaves [fn, end), counting what bench.h's
 * convention counts, and compares every count with the descriptor's
 * expect() at both params.  Built as x86-64 for bench/x86_64/ and with
 * -m32 for bench/i386/ (run.sh): the same source, EIP for RIP.
 *
 * It also holds the oracle's decoder (arch/x86/decode.c, in the build's
 * mode) to every instruction of the routines: its length, loads, stores
 * and branch class must be what objdump and the awk in run.sh say.
 *
 * Usage: trace_check INSNS [BENCH...]; INSNS is the instruction table
 * run.sh makes with objdump (one line per instruction of .text.bench:
 * ADDR LEN KIND LOADS STORES ALLOWED MNEMONIC).
 *
 * A REP MOVSB stops once per iteration at the same RIP: it counts as one
 * instruction when RIP moves on, its loads and stores as the drop in RCX.
 * A branch is taken when the next RIP is not RIP + length. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86/decode.h"
#include "bench/bench.h"
#include "bench/gpr_values.h"
#include "tests/host/bench/single_step.h"

enum kind { K_OTHER, K_JCC, K_JMP, K_CALL, K_RET, K_FAR, K_REP, K_SEG };

struct insn {
	uint64_t addr;
	unsigned len, loads, stores, allowed;
	enum kind kind;
	char name[32];
};

static struct insn *insns;
static size_t nr_insns;
static unsigned passed, failed;

static void load_insns(const char *path)
{
	static const char *const kinds[] = {
		"-", "jcc", "jmp", "call", "ret", "far", "rep", "seg",
	};
	char kind[8];
	size_t cap = 0;
	FILE *f = fopen(path, "r");
	struct insn i;

	if (!f) {
		perror(path);
		exit(2);
	}
	while (fscanf(f, "%" SCNx64 " %u %7s %u %u %u %31s", &i.addr, &i.len,
		      kind, &i.loads, &i.stores, &i.allowed, i.name) == 7) {
		for (i.kind = K_OTHER; i.kind <= K_SEG; i.kind++)
			if (!strcmp(kind, kinds[i.kind]))
				break;
		if (nr_insns == cap) {
			cap = cap ? 2 * cap : 1024;
			insns = realloc(insns, cap * sizeof(*insns));
			if (!insns)
				exit(2);
		}
		insns[nr_insns++] = i;
	}
	fclose(f);
}

/* objdump lists addresses in order: binary search. */
static const struct insn *find_insn(uint64_t addr)
{
	size_t lo = 0, hi = nr_insns;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (insns[mid].addr == addr)
			return &insns[mid];
		if (insns[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void result(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void result(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", ok ? "ok  " : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (ok)
		passed++;
	else
		failed++;
}

struct trace {
	uint64_t count[SEM_ARCH_NR];
	unsigned gpr_stops, gpr_bad;	/* gpr-values: stops in the marker */
	char error[160];		/* why the trace stopped short */
};

/* Registers in bench_gpr_values order (rax, rcx, rdx, rbx, rsp, ...);
 * i386 has no R8-R15, its table 0 there. */
static void check_gprs(const struct user_regs_struct *r, struct trace *t)
{
#if defined(__x86_64__)
	const uint64_t got[16] = {
		r->rax, r->rcx, r->rdx, r->rbx, 0, r->rbp, r->rsi, r->rdi,
		r->r8, r->r9, r->r10, r->r11, r->r12, r->r13, r->r14, r->r15,
	};
#else
	const uint64_t got[16] = {
		(uint32_t)r->eax, (uint32_t)r->ecx, (uint32_t)r->edx,
		(uint32_t)r->ebx, 0, (uint32_t)r->ebp, (uint32_t)r->esi,
		(uint32_t)r->edi,
	};
#endif

	t->gpr_stops++;
	if (memcmp(got, bench_gpr_values, sizeof(got)))
		t->gpr_bad++;
}

static void count(const struct insn *in, uint64_t rip, uint64_t next,
		  struct trace *t)
{
	int taken = next != rip + in->len;

	t->count[SEM_INSTRUCTIONS]++;
	t->count[SEM_LOADS] += in->loads;
	t->count[SEM_STORES] += in->stores;
	if (in->kind == K_SEG)
		t->count[SEM_SEGLOADS]++;
	if (in->kind == K_OTHER || in->kind == K_REP || in->kind == K_SEG) {
		if (taken)
			snprintf(t->error, sizeof(t->error),
				 "%s at %#" PRIx64 " moved RIP to %#" PRIx64,
				 in->name, rip, next);
		return;
	}
	if (in->kind == K_FAR) {
		t->count[SEM_FAR]++;
		return;
	}
	t->count[SEM_BRANCHES]++;
	t->count[SEM_TAKEN] += taken;
	t->count[SEM_COND] += in->kind == K_JCC;
	t->count[SEM_CALLS] += in->kind == K_CALL;
	t->count[SEM_RETURNS] += in->kind == K_RET;
	/* An oracle that judges by RIP cannot see these taken: keep them out
	 * of the routines (routine.h). */
	if (!taken && in->kind != K_JCC)
		snprintf(t->error, sizeof(t->error),
			 "%s at %#" PRIx64 " targets its fall-through",
			 in->name, rip);
}

static void trace(const struct bench *b, uint64_t n, struct trace *t)
{
	const uint64_t fn = (uintptr_t)b->fn, end = (uintptr_t)b->end;
	const uint64_t mark = (uintptr_t)bench_gprs_marker;
	const uint64_t mark_end = (uintptr_t)bench_gprs_marker_end;
	struct single_step s;
	unsigned long steps = 0;

	memset(t, 0, sizeof(*t));
	if (single_step_start(&s, b, n)) {
		snprintf(t->error, sizeof(t->error), "%s", s.error);
		return;
	}
	while (!t->error[0] && R_IP(s.r) >= fn && R_IP(s.r) < end) {
		const struct insn *in = find_insn(R_IP(s.r));
		uint64_t rip = R_IP(s.r), rcx = R_CX(s.r);

		if (!in) {
			snprintf(t->error, sizeof(t->error),
				 "no instruction at %#" PRIx64, rip);
			break;
		}
		if (rip >= mark && rip < mark_end)
			check_gprs(&s.r, t);
		if (++steps > 10000000) {
			snprintf(t->error, sizeof(t->error), "runaway");
			break;
		}
		if (!single_step_next(&s)) {
			snprintf(t->error, sizeof(t->error), "%s", s.error);
			break;
		}
		if (in->kind == K_REP) {
			t->count[SEM_LOADS] += rcx - R_CX(s.r);
			t->count[SEM_STORES] += rcx - R_CX(s.r);
			if (R_IP(s.r) == rip)
				continue;	/* the next iteration */
		}
		count(in, rip, R_IP(s.r), t);
	}
	single_step_end(&s);
}

/* The decoder's class of one instruction against objdump's: NULL when
 * they agree, else what differs. */
static const char *decoder_disagrees(const struct insn *in)
{
	struct insn_class k = decode_insn((const uint8_t *)(uintptr_t)
					  in->addr);
	unsigned br = k.flags & (DEC_BRANCH | DEC_COND | DEC_CALL | DEC_RET |
				 DEC_FAR);
	unsigned want;

	if (k.flags & (DEC_UNCLASSIFIED | DEC_MEM_UNKNOWN))
		return "unclassified, or accesses undescribed";
	if (k.length != in->len)
		return "length";
	/* REP: objdump's table leaves the per-iteration accesses out */
	if (in->kind == K_REP ? k.loads != 1 || k.stores != 1 :
	    k.loads != in->loads || k.stores != in->stores)
		return "loads or stores";
	switch (in->kind) {
	case K_JCC: want = DEC_BRANCH | DEC_COND; break;
	case K_JMP: want = DEC_BRANCH; break;
	case K_CALL: want = DEC_BRANCH | DEC_CALL; break;
	case K_RET: want = DEC_BRANCH | DEC_RET; break;
	case K_FAR: want = DEC_FAR; break;
	default: want = 0; break;
	}
	if (br != want)
		return "branch class";
	if ((in->kind == K_SEG) != !!(k.flags & DEC_SEGLOAD))
		return "segment load";
	if ((in->kind == K_REP) != !!(k.flags & DEC_REP_STRING))
		return "REP string";
	return NULL;
}

/* The routine is whole instructions on the oracle's list, end to end,
 * each decoded as objdump has it. */
static void check_decode(const struct bench *b)
{
	uint64_t a = (uintptr_t)b->fn, end = (uintptr_t)b->end;
	const struct insn *in = NULL;
	const char *why = NULL;

	while (a < end && (in = find_insn(a)) && in->allowed &&
	       !(why = decoder_disagrees(in)))
		a += in->len;
	if (a == end)
		result(1, "%s decode: %" PRIu64 " bytes, all on the list and "
		       "decoded as objdump has them", b->name,
		       end - (uintptr_t)b->fn);
	else
		result(0, "%s decode: at %#" PRIx64 ": %s%s%s", b->name, a,
		       in ? in->name : "no instruction boundary",
		       why ? ": the decoder's " : "", why ? why : "");
}

static void check_bench(const struct bench *b)
{
	result(bench_find(b->name) == b && b->params[0] != b->params[1] &&
	       (uintptr_t)b->fn < (uintptr_t)b->end && b->expect,
	       "%s descriptor", b->name);
	check_decode(b);
	for (int p = 0; p < 2; p++) {
		uint64_t n = b->params[p];
		struct trace t;

		trace(b, n, &t);
		if (t.error[0]) {
			result(0, "%s n=%" PRIu64 " trace: %s", b->name, n,
			       t.error);
			continue;
		}
		for (enum sem c = 0; c < SEM_ARCH_NR; c++) {
			int64_t e = b->expect(c, n);

			if (e == BENCH_NOT_ARCH)
				continue;
			result((uint64_t)e == t.count[c],
			       "%s n=%" PRIu64 " %s: expect %" PRId64
			       " got %" PRIu64, b->name, n,
			       sem_name(c), e, t.count[c]);
		}
		if (!strcmp(b->name, "gpr-values"))
			result(t.gpr_stops && !t.gpr_bad,
			       "%s n=%" PRIu64 " registers: %u of %u marker "
			       "stops differ from bench_gpr_values", b->name,
			       n, t.gpr_bad, t.gpr_stops);
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s INSNS [BENCH...]\n", argv[0]);
		return 2;
	}
	load_insns(argv[1]);
	for (const struct bench *b = __benches_start; b < __benches_end; b++) {
		int chosen = argc == 2;

		for (int i = 2; i < argc; i++)
			chosen |= !strcmp(argv[i], b->name);
		if (chosen)
			check_bench(b);
	}
	printf("bench-host: passed=%u failed=%u\n", passed, failed);
	return failed || !passed;
}
