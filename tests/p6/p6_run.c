/* tests/p6/p6_run.c: a p6/ run's setup (p6_test.h): two counters with
 * their PerfEvtSel selections, read back against the SDM's layout once
 * both count. */
#include "p6_test.h"

int p6_sels_as_sdm(struct tcase *t, struct pmu_run *r)
{
	static const char *const name[] = { "perfevtsel0", "perfevtsel1" };
	uint64_t sel[2] = { 0, 0 }, want;
	struct pmu_err e;

	for (unsigned c = 0; c < SDM_P6_COUNTERS; c++) {
		if (!check(t, p6_read_sel(c, &sel[c], &e) == 0, "%s", e.msg))
			return 0;
		want = r->cfg[c].sel | (c == 0 ? SDM_EN : 0);
		r->seen[c] = (struct pmu_seen){ name[c], sel[c] };
		r->n_seen = c + 1;
		if (!check(t, sel[c] == want, "PerfEvtSel%u reads 0x%llx, the "
			   "SDM's layout gives 0x%llx", c,
			   (unsigned long long)sel[c],
			   (unsigned long long)want))
			return 0;
	}
	return 1;
}

void p6_setup(struct pmu_run *r, const char *bench, uint64_t n, int cpl,
	      struct sdm_sel s0, struct sdm_sel s1)
{
	*r = (struct pmu_run){ .bench = bench, .n = n, .cpl = cpl,
			       .n_ctrs = SDM_P6_COUNTERS,
			       .started = p6_sels_as_sdm };
	r->cfg[0] = sdm_config(s0);
	r->cfg[1] = sdm_config(s1);
}
