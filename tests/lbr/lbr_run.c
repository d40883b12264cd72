/* tests/lbr/lbr_run.c: a benchmark run with the LBRs on (lbr_test.h): the
 * driver's layout against the SDM's, the trace's branches beside the run,
 * and the stack read back at the SDM's addresses, newest first. */
#include "lbr_test.h"
#include "../../pmu/window.h"

const char *lbr_key(const struct lbr_env *v, const char *name)
{
	static char buf[40];

	fmt_snprintf(buf, sizeof(buf), "run%u_%s", v->runs, name);
	return buf;
}

/* Where the driver's layout puts the stack is where the SDM does. */
static int layout_agrees(struct lbr_env *v)
{
	const struct lbr_layout *l = &v->l;
	const struct sdm_lbr *s = &v->s;
	static const enum lbr_style style[] = {
		[SDM_LBR_P6] = LBR_STYLE_P6, [SDM_LBR_STACK] = LBR_STYLE_STACK,
		[SDM_LBR_ARCH] = LBR_STYLE_ARCH,
	};

	value(v->t, "lbr", "%s: %u records, format %u (SDM: %s)", l->name,
	      l->depth, l->format, s->family);
	if (s->style == SDM_LBR_ARCH)
		return check(v->t, l->style == LBR_STYLE_ARCH &&
			     l->depth == s->depth && l->format == s->format,
			     "driver: style %d, depth %u, format %u; SDM: "
			     "architectural LBRs of depth %u", l->style,
			     l->depth, l->format, s->depth);
	return check(v->t, l->style == style[s->style] &&
		     l->depth == s->depth && l->from == s->from &&
		     l->to == s->to && l->info == s->info &&
		     l->tos == s->tos && l->select == s->select &&
		     l->format == s->format, "driver: depth %u, FROM %03xH, "
		     "TO %03xH, INFO %03xH, TOS %03xH, SELECT %03xH, format "
		     "%u; SDM (%s): %u, %03xH, %03xH, %03xH, %03xH, %03xH, %u",
		     l->depth, l->from, l->to, l->info, l->tos, l->select,
		     l->format, s->family, s->depth, s->from, s->to, s->info,
		     s->tos, s->select, s->format);
}

int lbr_begin(struct tcase *t, struct lbr_env *v)
{
	const struct cpu_info *ci = cpu_info();
	const char *why = 0;
	struct pmu_err e;

	memset(v, 0, sizeof(*v));
	v->t = t;
	if (!sdm_lbr_of(&v->s, &why)) {
		skip(t, "%s", why);
		return 0;
	}
	v->d = pmu_ready(t, ci->pmu);
	if (!v->d)
		return 0;
	if (!check(t, v->d->init(&e) == 0, "init: %s", e.msg) ||
	    !check(t, pmu_lbr_layout(ci->pmu, ci, &v->l, &why) == 0, "the SDM gives "
		   "this CPU LBRs (%s), the driver none: %s", v->s.family,
		   why) ||
	    !layout_agrees(v))
		return 0;
	if (!check(t, v->s.depth <= LBR_MAX_DEPTH, "depth %u", v->s.depth) ||
	    !check(t, lbr_clear(&v->l, &e) == 0, "clear: %s", e.msg))
		return 0;
	return 1;
}

/* A WRMSR step: 0F 30 (SDM Vol. 2B WRMSR). */
static int is_wrmsr(const struct insn_event *e)
{
	const uint8_t *p = (const uint8_t *)(uintptr_t)e->rip;

	return e->retired && p[0] == 0x0f && p[1] == 0x30;
}

void lbr_sink(const struct insn_event *e, void *ctx)
{
	struct lbr_trace *tr = ctx;
	int c;

	if (tr->model)
		tr->model(e, NULL);
	tr->steps += 1 + (uint64_t)e->more;
	c = sdm_lbr_class(e);
	if (c < 0) {
		tr->wrmsrs += is_wrmsr(e);
		return;
	}
	if (tr->n == LBR_MAX_BRANCHES) {
		tr->lost++;
		return;
	}
	tr->b[tr->n++] = (struct lbr_br){ e->rip, e->next_rip, c, e->cpl,
					  tr->steps, tr->wrmsrs };
}

/* The stack at the SDM's addresses (sdm_lbr_read()), newest first. */
static int read_stack(struct lbr_env *v)
{
	uint64_t tos = 0;
	int vec = sdm_lbr_read(&v->s, v->rec, LBR_MAX_DEPTH, &v->nrec, &tos);

	if (!check(v->t, vec == 0, "RDMSR of the LBR stack: vector %d", -vec))
		return 0;
	if (v->s.style == SDM_LBR_STACK)
		value(v->t, lbr_key(v, "tos"), "%llu",
		      (unsigned long long)tos);
	return 1;
}

/* The driver's lbr_read() gives the same records. */
static void same_as_driver(struct lbr_env *v)
{
	static struct lbr_entry d[LBR_MAX_DEPTH + 1];
	struct pmu_err e;
	unsigned n = 0;

	if (!check(v->t, lbr_read(&v->l, d, LBR_MAX_DEPTH, &n, &e) == 0,
		   "lbr_read: %s", e.msg))
		return;
	if (v->s.style == SDM_LBR_P6)
		n = 1;		/* the LastException pair comes second */
	check(v->t, n == v->nrec, "lbr_read: %u records, the SDM's "
	      "registers %u", n, v->nrec);
	for (unsigned k = 0; k < n && k < v->nrec; k++)
		if (!check(v->t, d[k].from == v->rec[k].from &&
			   d[k].to == v->rec[k].to, "lbr_read record %u: "
			   "0x%llx -> 0x%llx, the registers 0x%llx -> 0x%llx",
			   k, (unsigned long long)d[k].from,
			   (unsigned long long)d[k].to,
			   (unsigned long long)v->rec[k].from,
			   (unsigned long long)v->rec[k].to))
			return;
}

static void log_records(struct lbr_env *v)
{
	char key[40], addr[64];

	for (unsigned k = 0; k < v->nrec && k < 2; k++) {
		fmt_snprintf(key, sizeof(key), "run%u_record%u_from", v->runs,
			     k);
		value(v->t, key, "%s", bench_addr_str(v->rec[k].from, addr,
						      sizeof(addr)));
		fmt_snprintf(key, sizeof(key), "run%u_record%u_to", v->runs,
			     k);
		value(v->t, key, "%s", bench_addr_str(v->rec[k].to, addr,
						      sizeof(addr)));
	}
}

/* The run itself: the stack cleared and the LBRs on (f; NULL: neither),
 * the benchmark, off. */
static int run_on(struct lbr_env *v, const struct bench *b, uint64_t n,
		  int cpl, const struct lbr_filter *f)
{
	trace_sink sink = backend_current()->sink;
	struct fault fl = { 0 };
	struct pmu_err e;
	int rc, off;

	if (f && !check(v->t, lbr_clear(&v->l, &e) == 0, "clear: %s",
			e.msg))
		return 0;
	v->tos_before = 0;
	if (v->s.style == SDM_LBR_STACK)
		(void)be_rdmsr(v->s.tos, &v->tos_before);
	if (backend_current()->id == BE_EMULATED)
		window_tap(lbr_sink, &v->tr);
	if (f && !check(v->t, lbr_enable(&v->l, f, &e) == 0, "enable: %s",
			e.msg)) {
		window_tap(NULL, NULL);
		return 0;
	}
	rc = bench_exec(b, n, cpl, NULL, sink ? lbr_sink : NULL, &v->tr,
			&fl);
	off = f ? lbr_disable(&v->l, &e) : 0;
	window_tap(NULL, NULL);
	return check(v->t, off == 0, "disable: %s", e.msg) &&
	       check(v->t, rc == 0, "%s at CPL %d: %d (vector %u)", b->name,
		     cpl, rc, fl.vector);
}

int lbr_run(struct lbr_env *v, const char *bench, uint64_t n, int cpl,
	    const struct lbr_filter *f)
{
	const struct bench *b = bench_find(bench);
	trace_sink sink = backend_current()->sink;
	struct fault fl = { 0 };

	v->tr = (struct lbr_trace){ .model = sink };
	v->b = b;
	if (!check(v->t, b != NULL, "no benchmark %s", bench) ||
	    !need_bench_data(v->t, b))
		return 0;
	/* hardware: the trace first, with the LBRs off; backend=emulated
	 * (no sink either: the benchmark runs inside the counting window)
	 * taps the window instead */
	if (!sink && backend_current()->id != BE_EMULATED && !check(v->t, bench_exec(b, n, cpl, NULL, lbr_sink,
					     &v->tr, &fl) == 0,
			    "trace of %s faulted (vector %u)", bench,
			    fl.vector))
		return 0;
	if (!run_on(v, b, n, cpl, f) ||
	    !check(v->t, v->tr.lost == 0, "%llu branches past the %u the "
		   "test keeps", (unsigned long long)v->tr.lost,
		   LBR_MAX_BRANCHES))
		return 0;
	v->runs++;
	if (!read_stack(v))
		return 0;
	value(v->t, lbr_key(v, "run"), "%s n=%llu cpl=%d cpls=0x%x "
	      "branches=0x%x backend=%s: %u branches traced", bench,
	      (unsigned long long)n, cpl, f ? f->cpls : 0,
	      f ? f->branches : 0, backend_current()->name, v->tr.n);
	log_records(v);
	same_as_driver(v);
	return 1;
}

void lbr_end(struct lbr_env *v)
{
	struct pmu_err e;

	if (!v->d)
		return;
	(void)lbr_disable(&v->l, &e);
	(void)v->d->init(&e);
}
