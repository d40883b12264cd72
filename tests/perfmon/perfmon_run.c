/* tests/perfmon/perfmon_run.c: a perfmon/ run's setup (perfmon_test.h):
 * the benchmark and its CPL, the counters and their selections, and the
 * oracle's counts of a benchmark before any counter counts. */
#include "perfmon_test.h"

void pm_setup(struct pmu_run *r, const char *label, const char *bench,
	      uint64_t n, int cpl)
{
	*r = (struct pmu_run){ .label = label, .bench = bench, .n = n,
			       .cpl = cpl, .idle = ~0u };
}

void pm_add(struct pmu_run *r, unsigned ctr, uint64_t sel)
{
	r->cfg[ctr] = (struct pmu_config){ sel, 0 };
	r->idle &= ~(1u << ctr);
	if (ctr + 1 > r->n_ctrs)
		r->n_ctrs = ctr + 1;
}

int pm_count_first(struct tcase *t, const char *bench, uint64_t n, int cpl,
		   struct oracle_counts *oc)
{
	const struct bench *b = bench_find(bench);
	struct fault f;

	return check(t, b != NULL, "no benchmark %s", bench) &&
	       need_bench_data(t, b) &&
	       check(t, oracle_run(b, n, cpl, oc, &f) == 0, "oracle run of "
		     "%s failed (vector %u)", bench, f.vector);
}
