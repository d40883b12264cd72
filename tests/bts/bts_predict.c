/* tests/bts/bts_predict.c: the reference model's BTS records beside a run
 * on backend=hw or backend=emulated (issue 30 section 2).
 *
 * After bts_run() turned BTS off, the backend steps aside for the model
 * (backend_predict_begin, pmu/backend.h: reset; under emulated the live
 * model is saved and given back).  A DS area of the prediction's own is
 * installed there with a BTS buffer the size of the run's (its maximum
 * and threshold as the run's area says), BTS is enabled with the run's
 * flags, the benchmark alone is single-stepped into the model at the
 * run's CPL, and BTS and the area go again.  The driver's record of the
 * run's own area is kept aside meanwhile and given back
 * (perfmon_ds_memo_*).  Logged beside the run's records:
 * run<N>_model_bts_index (base+bytes, as the run's bts_index) and the
 * model's first record (run<N>_model_record0_from / _to). */
#include "bts_test.h"
#include "../../bench/bench.h"
#include "../../pmu/backend.h"

static uint8_t pred_area[1024] __attribute__((aligned(64)));
static uint8_t pred_buf[(BTS_BUF_RECORDS + BTS_GUARD_RECORDS) * BTS_REC_MAX]
	__attribute__((aligned(64)));

/* DS save area field k (§17.4.9: BTS base 0, index 1, maximum 2,
 * threshold 3), 8 or 4 bytes. */
static uint64_t area_field(const uint8_t *area, unsigned k)
{
	uint64_t x = 0;

	memcpy(&x, area + k * sdm_ds_field(), sdm_ds_field());
	return x;
}

/* On the model: 0 and the prediction's index, or -1 and why. */
static int on_model(const struct bts_env *v, const struct bench *b,
		    uint64_t n, int cpl, uint64_t flags, uint64_t *index,
		    char *why, unsigned size)
{
	uint64_t base = (uintptr_t)pred_buf;
	uint64_t run_base = area_field(v->m->area, 0);
	struct perfmon_ds s = { .area = pred_area, .use_bts = 1,
		.bts = { .base = base, .index = base,
			 .max = base + area_field(v->m->area, 2) - run_base,
			 .thresh = base + area_field(v->m->area, 3) -
				   run_base } };
	struct pmu_err e = { "", 0 };
	struct fault f;
	int rc;

	memset(pred_buf, 0, sizeof(pred_buf));
	rc = perfmon_ds_install(&s, &e) || perfmon_bts_enable(flags, &e);
	if (!rc && bench_exec(b, n, cpl, NULL, backend_current()->sink, NULL,
			      &f)) {
		fmt_snprintf(e.msg, sizeof(e.msg), "the traced run faulted "
			     "(vector %u)", f.vector);
		rc = 1;
	}
	(void)perfmon_bts_disable(&e);
	*index = area_field(pred_area, 1);
	(void)perfmon_ds_remove(&e);
	if (rc)
		fmt_snprintf(why, size, "%s", e.msg);
	return rc ? -1 : 0;
}

void bts_predict(struct bts_env *v, const char *bench, uint64_t n, int cpl,
		 uint64_t flags)
{
	const struct bench *b = bench_find(bench);
	struct perfmon_ds_memo memo;
	uint64_t index = 0, rec[3] = { 0, 0, 0 };
	char why[160], a[64];
	int rc;

	if (pmu_on_model() || !b)
		return;		/* the records are the model's already */
	if (backend_predict_begin(why, sizeof(why))) {
		value(v->t, bts_key(v, "model_bts_index"), "none (%s)", why);
		return;
	}
	perfmon_ds_memo_save(&memo);
	rc = on_model(v, b, n, cpl, flags, &index, why, sizeof(why));
	perfmon_ds_memo_restore(&memo);
	backend_predict_end();
	if (rc) {
		value(v->t, bts_key(v, "model_bts_index"), "none (%s)", why);
		return;
	}
	value(v->t, bts_key(v, "model_bts_index"), "base+%llu",
	      (unsigned long long)(index - (uintptr_t)pred_buf));
	if (index == (uintptr_t)pred_buf)
		return;
	for (unsigned k = 0; k < 3; k++)
		memcpy(&rec[k], pred_buf + k * sdm_ds_field(), sdm_ds_field());
	value(v->t, bts_key(v, "model_record0_from"), "%s",
	      bench_addr_str(rec[0], a, sizeof(a)));
	value(v->t, bts_key(v, "model_record0_to"), "%s",
	      bench_addr_str(rec[1], a, sizeof(a)));
}
