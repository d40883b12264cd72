/* measure: warm-up, two sizes, repetitions, min/median (see measure.h). */
#include "measure.h"
#include "../bench/oracle.h"
#include "../arch/x86/cpu.h"
#include "../lib/fmt.h"
#include "../lib/stats.h"
#include "../lib/string.h"

static int run_bench(const struct bench *b, uint64_t n, int cpl,
		     const struct counter_source *src, char *err,
		     unsigned size)
{
	struct fault f;
	int ret = bench_exec(b, n, cpl, NULL, src->sink, src->ctx, &f);

	if (ret < 0) {
		char why[100];

		bench_shortfall_text(why, sizeof(why));
		fmt_snprintf(err, size, "no data buffer for %s: %s", b->name,
			     why);
	}
	else if (ret)
		fmt_snprintf(err, size, "%s faulted (vector %u)", b->name,
			     f.vector);
	return ret ? -1 : 0;
}

static int one(const struct bench *b, uint64_t n, const struct measure_cfg *cfg,
	       const struct counter_source *src, uint64_t *v,
	       struct measure_result *res)
{
	serialize();
	if (src->start(src->ctx)) {
		fmt_snprintf(res->error, sizeof(res->error), "%s: start failed",
			     src->name);
		return -1;
	}
	if (run_bench(b, n, cfg->cpl, src, res->error, sizeof(res->error)))
		return -1;
	serialize();
	if (src->stop(src->ctx) || src->read(src->ctx, v)) {
		fmt_snprintf(res->error, sizeof(res->error), "%s: stop/read "
			     "failed", src->name);
		return -1;
	}
	return 0;
}

static void summarize(struct measure_result *res, unsigned nv,
		      uint64_t delta[][MEASURE_MAX_REPS],
		      uint64_t large[][MEASURE_MAX_REPS])
{
	for (unsigned k = 0; k < nv; k++) {
		res->delta_min[k] = stats_min(delta[k], res->reps);
		res->delta_median[k] = stats_median(delta[k], res->reps);
		res->large_min[k] = stats_min(large[k], res->reps);
		res->large_median[k] = stats_median(large[k], res->reps);
	}
}

int measure(const struct bench *b, const struct measure_cfg *cfg,
	    const struct counter_source *src, struct measure_result *res)
{
	static uint64_t delta[MEASURE_MAX_VALUES][MEASURE_MAX_REPS];
	static uint64_t large[MEASURE_MAX_VALUES][MEASURE_MAX_REPS];
	uint64_t vs[MEASURE_MAX_VALUES], vl[MEASURE_MAX_VALUES];
	unsigned reps = cfg->reps > MEASURE_MAX_REPS ? MEASURE_MAX_REPS :
			cfg->reps;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	if (one(b, cfg->n_small, cfg, src, vs, res))	/* warm-up */
		return -1;
	for (unsigned r = 0; r < reps && !ret; r++) {
		ret = one(b, cfg->n_small, cfg, src, vs, res) ||
		      one(b, cfg->n_large, cfg, src, vl, res);
		if (ret)
			break;
		for (unsigned k = 0; k < src->n_values; k++) {
			int neg;

			delta[k][r] = stats_delta(vs[k], vl[k], &neg);
			large[k][r] = vl[k];
			res->negative[k] += neg;
		}
		res->reps++;
	}
	summarize(res, src->n_values, delta, large);
	return ret ? -1 : 0;
}

/* The oracle source: counts accumulate from the trace between start and
 * read. */
struct oracle_src {
	struct oracle_counts counts;
	int cpl;
};

static struct oracle_src oracle_ctx;

static int oracle_start(void *ctx)
{
	memset(&((struct oracle_src *)ctx)->counts, 0,
	       sizeof(struct oracle_counts));
	return 0;
}

static int oracle_stop(void *ctx)
{
	(void)ctx;
	return 0;
}

static int oracle_read(void *ctx, uint64_t *v)
{
	struct oracle_src *o = ctx;

	for (unsigned k = 0; k < SEM_NR; k++)
		v[k] = o->counts.c[o->cpl][k];
	return 0;
}

static void oracle_sink(const struct insn_event *e, void *ctx)
{
	oracle_account(&((struct oracle_src *)ctx)->counts, e);
}

void oracle_source(struct counter_source *src, int cpl)
{
	memset(src, 0, sizeof(*src));
	src->name = "oracle";
	src->n_values = SEM_NR;
	for (unsigned k = 0; k < src->n_values; k++)
		src->value_names[k] = sem_name((enum sem)k);
	oracle_ctx.cpl = cpl;
	src->ctx = &oracle_ctx;
	src->start = oracle_start;
	src->stop = oracle_stop;
	src->read = oracle_read;
	src->sink = oracle_sink;
}
