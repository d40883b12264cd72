/* pmu_source: a driver behind measure() (pmu_source.h). */
#include "pmu_source.h"
#include "measure.h"
#include "need.h"
#include "../bench/bench.h"
#include "../pmu/backend.h"
#include "../lib/string.h"

/* One measure() source: the counter of each value and its config. */
struct pmu_source {
	const struct pmu_driver *d;
	unsigned n;
	unsigned ctr[MEASURE_MAX_VALUES];
	struct pmu_config cfg[MEASURE_MAX_VALUES];
	struct pmu_err err;		/* why start/stop/read failed */
};

static int src_start(void *ctx)
{
	struct pmu_source *ps = ctx;

	for (unsigned k = 0; k < ps->n; k++)
		if (ps->d->program(ps->ctr[k], &ps->cfg[k], &ps->err) ||
		    ps->d->reset(ps->ctr[k], 0, &ps->err))
			return -1;
	for (unsigned k = 0; k < ps->n; k++)
		if (ps->d->start(ps->ctr[k], &ps->err))
			return -1;
	return 0;
}

static int src_stop(void *ctx)
{
	struct pmu_source *ps = ctx;

	for (unsigned k = 0; k < ps->n; k++)
		if (ps->d->stop(ps->ctr[k], &ps->err))
			return -1;
	return 0;
}

static int src_read(void *ctx, uint64_t *v)
{
	struct pmu_source *ps = ctx;

	for (unsigned k = 0; k < ps->n; k++)
		if (ps->d->read(ps->ctr[k], &v[k], &ps->err))
			return -1;
	return 0;
}

/* The first counter not yet taken that can count s. */
static int place(struct pmu_source *ps, unsigned k, enum sem s,
		 unsigned cpls, uint32_t taken)
{
	struct pmu_shape shape;

	ps->d->shape(cpu_info(), &shape);
	for (unsigned c = 0; c < shape.counters; c++)
		if (!(taken & 1u << c) &&
		    !ps->d->event_config(s, c, cpls, &ps->cfg[k])) {
			ps->ctr[k] = c;
			return 0;
		}
	return pmu_fail(&ps->err, 0, "no free %s counter counts %s",
			ps->d->name, sem_name(s));
}

/* Sets up src to count sems[0..n-1] at the CPL set cpls (pmu/driver.h)
 * with driver d; value k is named after sems[k].  Returns 0, or -1 with ps->err
 * saying which count no free counter can take. */
static int pmu_source_init(struct counter_source *src, struct pmu_source *ps,
			   const struct pmu_driver *d, const enum sem *sems,
			   unsigned n, unsigned cpls)
{
	uint32_t taken = 0;

	memset(src, 0, sizeof(*src));
	ps->d = d;
	ps->n = n;
	ps->err.msg[0] = 0;
	if (n > MEASURE_MAX_VALUES)
		return pmu_fail(&ps->err, 0, "%u values, at most %u", n,
				MEASURE_MAX_VALUES);
	for (unsigned k = 0; k < n; k++) {
		if (place(ps, k, sems[k], cpls, taken))
			return -1;
		taken |= 1u << ps->ctr[k];
		src->value_names[k] = sem_name(sems[k]);
	}
	src->name = d->name;
	src->n_values = n;
	src->ctx = ps;
	src->start = src_start;
	src->stop = src_stop;
	src->read = src_read;
	src->sink = backend_current()->sink;
	return 0;
}

void pmu_measure_two_size(struct tcase *t, const struct pmu_driver *d,
			  const char *bench, const enum sem *sems, unsigned n,
			  const char *ctr_name, void (*log_regs)(struct tcase *t))
{
	const struct bench *b = bench_find(bench);
	struct measure_cfg cfg = { 3, 4, 10, 200 };
	struct counter_source src;
	struct measure_result res;
	struct pmu_source ps;
	char name[160];
	int64_t want;

	if (!check(t, b != NULL, "no %s benchmark", bench) ||
	    !need_bench_data(t, b) ||
	    !check(t, d->init(&ps.err) == 0, "init: %s", ps.err.msg) ||
	    !check(t, pmu_source_init(&src, &ps, d, sems, n, PMU_CPL3) == 0,
		   "source: %s", ps.err.msg) ||
	    !check(t, measure(b, &cfg, &src, &res) == 0, "measure: %s (%s)",
		   res.error, ps.err.msg))
		return;
	value(t, "backend", "%s", backend_current()->name);
	value(t, "bench", "%s cpl=3 n=%llu,%llu reps=%u", bench,
	      (unsigned long long)cfg.n_small, (unsigned long long)cfg.n_large,
	      res.reps);
	if (log_regs)
		log_regs(t);
	for (unsigned k = 0; k < n; k++) {
		want = b->expect(sems[k], cfg.n_large) -
		       b->expect(sems[k], cfg.n_small);
		d->config_name(&ps.cfg[k], name, sizeof(name));
		value(t, src.value_names[k], "%s%u %s delta min=%llu "
		      "median=%llu formulas=%lld", ctr_name, ps.ctr[k], name,
		      (unsigned long long)res.delta_min[k],
		      (unsigned long long)res.delta_median[k], (long long)want);
		check(t, res.delta_min[k] == (uint64_t)want, "%s: delta %llu,"
		      " formulas give %lld", src.value_names[k],
		      (unsigned long long)res.delta_min[k], (long long)want);
		check(t, res.negative[k] == 0, "%s went backwards",
		      src.value_names[k]);
	}
}
