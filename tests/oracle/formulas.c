/* oracle/<bench>: the single-step oracle's counts equal the benchmark's
 * formulas (bench/bench.h) for both of its parameter values, at
 * CPL 0 and at CPL 3; nothing the decoder could not classify ran. */
#include "../../harness/test.h"
#include "../../harness/need.h"
#include "../../bench/oracle.h"
#include "../../arch/x86/ring3.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

static void one_run(struct tcase *t, const struct bench *b, uint64_t n,
		    int cpl)
{
	struct oracle_counts oc;
	struct fault f;
	char key[48];
	int r = oracle_run(b, n, cpl, &oc, &f);

	if (!check(t, r == 0, "%s n=%llu cpl=%d: run %s (vector %u)", b->name,
		   (unsigned long long)n, cpl, r < 0 ? "had no data buffer" :
		   "faulted", r > 0 ? f.vector : 0))
		return;
	for (int c = 0; c < SEM_ARCH_NR; c++) {
		int64_t want = b->expect((enum sem)c, n);
		uint64_t got = oc.c[cpl][c];

		fmt_snprintf(key, sizeof(key), "cpl%d_n%llu_%s", cpl,
			     (unsigned long long)n,
			     sem_name((enum sem)c));
		if (want == BENCH_NOT_ARCH) {
			value(t, key, "%llu (not architectural)",
			      (unsigned long long)got);
			continue;
		}
		value(t, key, "%llu", (unsigned long long)got);
		check(t, got == (uint64_t)want, "%s n=%llu cpl=%d %s: oracle "
		      "%llu, formula %lld", b->name, (unsigned long long)n,
		      cpl, sem_name((enum sem)c),
		      (unsigned long long)got, (long long)want);
	}
	check(t, oc.unclassified[cpl] == 0, "%s n=%llu cpl=%d: %llu "
	      "unclassified steps", b->name, (unsigned long long)n, cpl,
	      (unsigned long long)oc.unclassified[cpl]);
	check(t, oc.c[cpl ^ 3][SEM_INSTRUCTIONS] == 0, "%s: steps counted at "
	      "CPL %d", b->name, cpl ^ 3);
}

static void test_bench(struct tcase *t, const char *name)
{
	const struct bench *b = bench_find(name);

	if (!check(t, b != NULL, "no benchmark named %s", name))
		return;
	value(t, "stresses", "%s", b->stresses);
	if (!need_bench_data(t, b))
		return;
	if (b->data_min)
		value(t, "data_size", "%llu MiB of %llu MiB wanted",
		      (unsigned long long)(bench_data_size(b) >> 20),
		      (unsigned long long)(b->data_size >> 20));
	for (int i = 0; i < 2; i++) {
		one_run(t, b, b->params[i], 0);
		if (check(t, ring3_ready(), "ring 3 unavailable for CPL 3"))
			one_run(t, b, b->params[i], 3);
	}
}

#define ORACLE_TEST(id, bench)                                              \
	static void test_##id(struct tcase *t) { test_bench(t, bench); }     \
	TEST(oracle_##id, "oracle/" bench,                                   \
	     "oracle counts of " bench " equal its formulas at CPL 0 and 3", \
	     test_##id, 0)

ORACLE_TEST(empty, "empty");
ORACLE_TEST(nops, "nops");
ORACLE_TEST(add_chain, "add-chain");
ORACLE_TEST(counted_loop, "counted-loop");
ORACLE_TEST(branch_alt, "branch-alternating");
ORACLE_TEST(branch_random, "branch-random");
ORACLE_TEST(call_ret, "call-ret");
ORACLE_TEST(indirect_jump, "indirect-jump");
ORACLE_TEST(load_stream, "load-stream");
ORACLE_TEST(store_stream, "store-stream");
ORACLE_TEST(pointer_chase, "pointer-chase");
ORACLE_TEST(int_divide, "int-divide");
ORACLE_TEST(cpuid, "cpuid");
ORACLE_TEST(rep_movsb, "rep-movsb");
ORACLE_TEST(gpr_values, "gpr-values");
ORACLE_TEST(segment_load, "segment-load");

/* Every registered benchmark has an oracle test above. */
static void test_all_covered(struct tcase *t)
{
	static const char *const covered[] = {
		"empty", "nops", "add-chain", "counted-loop",
		"branch-alternating", "branch-random", "call-ret",
		"indirect-jump", "load-stream", "store-stream",
		"pointer-chase", "int-divide", "cpuid", "rep-movsb",
		"gpr-values", "segment-load",
	};
	unsigned n = 0;

	for (const struct bench *b = __benches_start; b < __benches_end; b++) {
		int found = 0;

		for (unsigned i = 0; i < sizeof(covered) / sizeof(*covered); i++)
			found |= !str_cmp(covered[i], b->name);
		check(t, found, "benchmark %s has no oracle test", b->name);
		n++;
	}
	value(t, "benchmarks", "%u", n);
	check(t, n == sizeof(covered) / sizeof(*covered),
	      "%u benchmarks registered, %u covered", n,
	      (unsigned)(sizeof(covered) / sizeof(*covered)));
}

TEST(oracle_all, "oracle/all-benchmarks-covered",
     "every registered benchmark has an oracle test", test_all_covered, 0);
