/* tests/p5/p5_run.c: a p5/ run's setup (p5_test.h): two counters, each
 * with its CESR half, and the CESR read back against the SDM's layout
 * once both count. */
#include "p5_test.h"

/* The CESR for two halves: ES0 bits 0-5, CC0 6-8, PC0 9, ES1 16-21,
 * CC1 22-24, PC1 25. */
static uint32_t sdm_cesr(const struct p5_half *h0, const struct p5_half *h1)
{
	return h0->es | h0->cc << 6 | h0->pc << 9 |
	       h1->es << 16 | h1->cc << 22 | h1->pc << 25;
}

/* Once both counters count: the CESR holds both halves in the SDM's
 * layout. */
static int p5_cesr_as_sdm(struct tcase *t, struct pmu_run *r)
{
	struct p5_half h0 = sdm_p5_half(&r->cfg[0]), h1 = sdm_p5_half(&r->cfg[1]);
	struct pmu_err e;
	uint32_t cesr = 0;

	if (!check(t, p5_read_cesr(&cesr, &e) == 0, "%s", e.msg))
		return 0;
	r->seen[0] = (struct pmu_seen){ "cesr", cesr };
	r->n_seen = 1;
	return check(t, cesr == sdm_cesr(&h0, &h1), "CESR reads 0x%08x, the "
		     "SDM's layout gives 0x%08x", cesr, sdm_cesr(&h0, &h1));
}

void p5_setup(struct pmu_run *r, const char *bench, uint64_t n, int cpl,
	      struct p5_half h0, struct p5_half h1)
{
	*r = (struct pmu_run){ .bench = bench, .n = n, .cpl = cpl,
			       .n_ctrs = 2,
			       .started = p5_cesr_as_sdm };
	r->cfg[0] = sdm_p5_config(h0);
	r->cfg[1] = sdm_p5_config(h1);
}
