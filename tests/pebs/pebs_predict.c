/* tests/pebs/pebs_predict.c: the reference model's records beside a run
 * on backend=hw or backend=emulated (issue 30 section 2), so that one
 * boot of a real machine lists where its PEBS departs from the model.
 *
 * After the run, the backend steps aside for the model
 * (backend_predict_begin, pmu/backend.h: reset; under emulated the live
 * model is saved and given back), the same arming (pebs_sample_arm: the
 * run's counters, periods, reset values, DATA_CFG and DEBUGCTL bits) is
 * made into a DS area and buffer of the prediction's own, and the
 * benchmark alone is single-stepped into the model at the run's CPL: no
 * driver code, no trampoline.  The model raises no PMI meanwhile.
 * Logged: model_records (and model_records_delta, the run's records
 * minus the model's) and the first two records' IP field as the format
 * lays it out (model_record<i>_ip, beside the run's record<i>_ip). */
#include "pebs_run.h"
#include "pebs_test.h"
#include "../../harness/need.h"
#include "../../arch/x86/xmm.h"
#include "../../bench/bench.h"
#include "../../bench/oracle.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"
#include "../../pmu/backend.h"
#include "../../pmu/perfmon/sample.h"

#define PRED_BYTES (256u * 1024)	/* as the run's own buffer */

static uint8_t pred_area[1024] __attribute__((aligned(64)));

/* The IP field of record i as its format lays it out: the 32-bit DS
 * format's EIP; formats 0-3 the IP at its SDM offset; the adaptive
 * formats the basic group's instruction pointer (08H). */
static uint64_t record_ip(const struct pebs_run *m, unsigned fmt, unsigned i)
{
	if (pebs_ds32())
		return (uint32_t)pebs_run_field(m, i,
					(unsigned)sdm_pebs32_offset(S_IP));
	if (fmt >= 4)
		return pebs_run_field(m, i, 0x08);
	return pebs_run_field(m, i, (unsigned)sdm_pebs_offset(fmt, S_IP));
}

/* The run r armed again on the model, into buf; m gets the model's index
 * and buffer.  0, or -1 with why said. */
static int on_model(struct pebs_run *m, uint8_t *buf, char *why,
		    unsigned size)
{
	const struct bench *b = bench_find(m->bench);
	struct pebs_sample s = { .ctr = m->ctr, .n_ctr = m->n_ctr,
		.cfg = m->cfg, .debugctl = m->debugctl, .area = pred_area,
		.base = (uintptr_t)buf, .capacity = m->capacity,
		.thresh = m->thresh, .record_size = m->record_size };
	uint64_t count[PEBS_RUN_CTRS];
	struct pmu_err e;
	struct fault f;
	int rc;

	memset(buf, 0, (size_t)m->capacity * m->record_size);
	m->buf = buf;
	m->base = (uintptr_t)buf;
	m->index = m->base;
	if (pebs_sample_reset(&e) || pebs_sample_arm(&s, why, size)) {
		(void)pebs_sample_abort(&e);
		return -1;
	}
	if (m->xmm)
		xmm_load_all(m->xmm);
	rc = bench_exec(b, m->n, m->cpl, 0, backend_current()->sink, NULL,
			&f);
	(void)pebs_sample_end(&s, count, &m->index, &e);
	(void)pebs_sample_reset(&e);
	if (rc)
		fmt_snprintf(why, size, "the traced run faulted (vector %u)",
			     f.vector);
	return rc ? -1 : 0;
}

void pebs_predict(struct tcase *t, const struct pebs_run *r)
{
	static uint8_t *buf;
	static struct pebs_run m;
	const struct perfmon_caps *c = perfmon_caps(0);
	unsigned fmt = c ? sdm_pebs_format(c->perf_caps) : 0;
	uint64_t hw, model;
	char why[160], ip[64], k[40];
	int rc;

	if (pmu_on_model() || !r->record_size || r->log_settings_only)
		return;		/* the records are the model's already */
	if (!buf && !(buf = need_alloc(t, "the prediction's PEBS buffer",
				       PRED_BYTES, 4096)))
		return;
	m = *r;
	if (backend_predict_begin(why, sizeof(why))) {
		value(t, "model_records", "none (%s)", why);
		return;
	}
	rc = on_model(&m, buf, why, sizeof(why));
	backend_predict_end();
	if (rc) {
		value(t, "model_records", "none (%s)", why);
		return;
	}
	hw = (r->index - r->base) / r->record_size;
	model = (m.index - m.base) / m.record_size;
	value(t, "model_records", "%llu", (unsigned long long)model);
	value(t, "model_records_delta", hw >= model ? "+%llu" : "-%llu",
	      (unsigned long long)(hw >= model ? hw - model : model - hw));
	for (unsigned i = 0; i < 2 && i < model && i < m.capacity; i++) {
		fmt_snprintf(k, sizeof(k), "model_record%u_ip", i);
		value(t, k, "%s", bench_addr_str(record_ip(&m, fmt, i), ip,
						 sizeof(ip)));
	}
}
