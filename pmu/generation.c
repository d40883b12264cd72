/* generation: the registry of PMU generations and what is derived from it:
 * the driver of a kind, the kind's name, a test's generation
 * (generation.h). */
#include "generation.h"

extern const struct pmu_generation __start_pmu_generations[],
	__stop_pmu_generations[];

const struct pmu_generation *pmu_generations(unsigned *n)
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

static int matches(const struct pmu_generation *g, unsigned family,
		   unsigned model)
{
	for (unsigned i = 0; i < PMU_GENERATION_MATCHES && g->match[i].family;
	     i++)
		if (g->match[i].family == family &&
		    model >= g->match[i].model_first &&
		    model <= g->match[i].model_last)
			return 1;
	return 0;
}

enum pmu_kind cpu_pmu_kind(enum cpu_vendor v, unsigned family, unsigned model,
			   enum pmu_kind reported)
{
	unsigned n;
	const struct pmu_generation *g = pmu_generations(&n);

	/* AMD's PMUs: K7 (family 6) on; the K5 and K6 have none (AMD64 APM
	 * Vol. 2, order no. 24593, §13.2) */
	if (v == VENDOR_AMD)
		return family >= 6 ? PMU_UNSUPPORTED : PMU_NONE;
	if (v != VENDOR_INTEL)
		return PMU_NONE;
	if (reported != PMU_NONE)
		return reported;
	for (unsigned i = 0; i < n; i++)
		if (!g[i].feature && matches(&g[i], family, model))
			return g[i].kind;
	return PMU_NONE;
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

void pmu_generation_shape(enum pmu_kind k, const struct cpu_info *ci,
			  unsigned *counters, unsigned *width)
{
	const struct pmu_generation *g = pmu_generation_for(k);

	*counters = g ? g->counters : 0;
	*width = g ? g->width : 0;
	if (g && g->cpuid_shape)
		g->cpuid_shape(ci, counters, width);
}

const struct pmu_driver *pmu_driver_for(enum pmu_kind k)
{
	const struct pmu_generation *g = pmu_generation_for(k);

	return g ? g->driver : NULL;
}

int pmu_lbr_layout(enum pmu_kind k, const struct cpu_info *ci,
		   struct lbr_layout *l, const char **why)
{
	const struct pmu_generation *g = pmu_generation_for(k);

	if (!g) {
		*why = "no PMU generation drives this CPU";
		return -1;
	}
	if (!g->lbr) {
		*why = "its PMU has no Last Branch Records";
		return -1;
	}
	return g->lbr(ci, l, why);
}
