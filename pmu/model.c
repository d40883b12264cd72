/* model: model registry, the model clock and the event feed (model.h). */
#include "model.h"

extern const struct pmu_model __pmu_models_start[], __pmu_models_end[];

static const struct pmu_model *live;
static uint64_t clock;

const struct pmu_model *model_for(enum pmu_kind k)
{
	for (const struct pmu_model *m = __pmu_models_start;
	     m < __pmu_models_end; m++)
		if (m->kind == k)
			return m;
	return 0;
}

void model_activate(const struct pmu_model *m)
{
	live = m;
	clock = 0;
	if (m)
		m->reset();
}

const struct pmu_model *model_active(void)
{
	return live;
}

void model_feed(const struct insn_event *e, void *ctx)
{
	(void)ctx;
	clock++;
	if (live)
		live->event(e);
}

uint64_t model_clock(void)
{
	return clock;
}
