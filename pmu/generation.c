/* generation: the registry of PMU generations and what is derived from it:
 * the driver of a kind, the kind's name, a test's generation
 * (generation.h). */
#include "generation.h"

extern const struct pmu_generation __start_pmu_generations[],
	__stop_pmu_generations[];

/* The generations linked into this image, in link order. */
static const struct pmu_generation *pmu_generations(unsigned *n)
{
	*n = (unsigned)(__stop_pmu_generations - __start_pmu_generations);
	return __start_pmu_generations;
}

const struct pmu_generation *pmu_generation_for(enum pmu_kind k)
{
	unsigned n;
	const struct pmu_generation *g = pmu_generations(&n);

	for (unsigned i = 0; i < n; i++)
		if (g[i].kind == k && !g[i].feature)
			return &g[i];
	return NULL;
}

static int has_prefix(const char *s, const char *prefix)
{
	while (*prefix && *s == *prefix) {
		s++;
		prefix++;
	}
	return !*prefix;
}

const struct pmu_generation *pmu_generation_of_test(const char *name)
{
	unsigned n;
	const struct pmu_generation *g = pmu_generations(&n);

	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < PMU_GENERATION_GROUPS &&
				     g[i].groups[j]; j++)
			if (has_prefix(name, g[i].groups[j]))
				return &g[i];
	return NULL;
}

const char *pmu_kind_name(enum pmu_kind k)
{
	const struct pmu_generation *g = pmu_generation_for(k);

	if (k == PMU_NONE)
		return "none";
	if (k == PMU_UNSUPPORTED)
		return "unsupported";
	return g && g->kind_name ? g->kind_name : "unknown";
}

const struct pmu_driver *pmu_driver_for(enum pmu_kind k)
{
	const struct pmu_generation *g = pmu_generation_for(k);

	return g ? g->driver : NULL;
}
