/* tests/lbr/lbr_check.c: the stack the SDM asks of a run's branches, and
 * the checks of the registers against it (lbr_test.h). */
#include "lbr_test.h"

/* Does f keep a branch of class c at cpl (the LBR_SELECT / IA32_LBR_CTL
 * classes: a CPL 0 branch needs CPL 0 in f, any other CPL 1-3)? */
static int kept(const struct lbr_filter *f, int c, unsigned cpl)
{
	return (f->cpls & (1u << cpl)) && (f->branches & (1u << c));
}

unsigned lbr_expected(const struct lbr_trace *tr, const struct lbr_filter *f,
		      struct lbr_br *out, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = tr->n; i-- && n < max;)
		if (kept(f, tr->b[i].cls, tr->b[i].cpl))
			out[n++] = tr->b[i];
	return n;
}

static int in_bench(const struct bench *b, uint64_t a)
{
	return a >= (uint64_t)(uintptr_t)b->fn &&
	       a < (uint64_t)(uintptr_t)b->end;
}

/* Hardware: each record from the benchmark's code is one of want's, in
 * want's order (the harness's own branches come between and after); the
 * benchmark's closing RET is matched by its source alone (at CPL 0 the
 * traced run and the measured one return to different callers). */
static void check_hw(struct lbr_env *v, const char *what,
		     const struct lbr_br *want, unsigned nwant)
{
	unsigned j = 0, inside = 0;

	for (unsigned k = 0; k < v->nrec; k++) {
		const struct sdm_rec *r = &v->rec[k];

		if (!v->b || !in_bench(v->b, r->from))
			continue;
		inside++;
		while (j < nwant && r->from != want[j].from)
			j++;
		if (!check(v->t, j < nwant, "%s: record %u from 0x%llx is no "
			   "branch of the trace's, or out of order", what, k,
			   (unsigned long long)r->from))
			return;
		j++;
	}
	value(v->t, lbr_key(v, "bench_records"), "%u (hardware: the "
	      "benchmark's, in order)", inside);
}

void lbr_check_stack(struct lbr_env *v, const char *what,
		     const struct lbr_br *want, unsigned nwant)
{
	unsigned n = 0;

	if (!backend_model_backed()) {
		check_hw(v, what, want, nwant);
		return;
	}
	for (unsigned k = 0; k < v->nrec; k++)
		n += v->rec[k].from || v->rec[k].to;
	check(v->t, n == nwant, "%s: %u records, the trace's last %u kept "
	      "branches (depth %u)", what, n, nwant, v->s.depth);
	for (unsigned k = 0; k < nwant && k < v->nrec; k++)
		if (!check(v->t, v->rec[k].from == want[k].from &&
			   v->rec[k].to == want[k].to, "%s: record %u (newest "
			   "first) 0x%llx -> 0x%llx, the trace's branch "
			   "0x%llx -> 0x%llx", what, k,
			   (unsigned long long)v->rec[k].from,
			   (unsigned long long)v->rec[k].to,
			   (unsigned long long)want[k].from,
			   (unsigned long long)want[k].to))
			return;
}

void lbr_check_classes(struct lbr_env *v, const char *what,
		       const struct bench *b, const struct lbr_filter *f)
{
	unsigned inside = 0;

	for (unsigned k = 0; k < v->nrec; k++) {
		const struct sdm_rec *r = &v->rec[k];
		struct insn_class c;
		struct insn_event e = { .retired = 1, .flags = EV_TAKEN };

		if (!in_bench(b, r->from))
			continue;
		inside++;
		c = decode_insn((const uint8_t *)(uintptr_t)r->from);
		e.flags |= c.flags;
		if (!check(v->t, sdm_lbr_class(&e) >= 0 &&
			   (f->branches & (1u << sdm_lbr_class(&e))),
			   "%s: record %u from %s+0x%llx, a branch of class "
			   "%d, which the filter 0x%x drops", what, k, b->name,
			   (unsigned long long)(r->from -
						(uint64_t)(uintptr_t)b->fn),
			   sdm_lbr_class(&e), f->branches))
			return;
	}
	value(v->t, lbr_key(v, "bench_records"), "%u", inside);
}
