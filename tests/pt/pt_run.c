/* tests/pt/pt_run.c: a benchmark run with Intel PT on (pt_test.h): the
 * group's memory block, the environment a test begins and ends with, the
 * configs the tests start from, and the run itself with the trace of the
 * same steps beside it. */
#include "pt_test.h"

struct pt_mem *pt_test_mem(struct tcase *t)
{
	static struct pt_mem *m;

	if (!m)
		m = need_alloc(t, "the PT output region", sizeof(*m),
			       PT_OUT_BYTES);
	return m;
}

/* Records the step after the model saw it (the backend's sink first). */
static void pt_sink(const struct insn_event *e, void *ctx)
{
	struct pt_trace *tr = ctx;
	struct pt_step *s;
	unsigned cpl = e->cpl & 3;

	if (tr->model)
		tr->model(e, NULL);
	tr->steps++;
	if (!tr->steps_at[cpl]++)
		tr->first_rip[cpl] = e->rip;
	if (tr->model)
		tr->last_clock = model_clock();
	if (!(e->flags & (DEC_BRANCH | DEC_FAR)))
		return;
	if (tr->n == PT_MAX_STEPS) {
		tr->lost++;
		return;
	}
	s = &tr->s[tr->n++];
	*s = (struct pt_step){ e->rip, e->next_rip, 0, tr->last_clock,
			       e->flags, cpl };
	if (e->flags & DEC_CALL)
		s->ret_addr = e->rip +
			decode_insn((const uint8_t *)(uintptr_t)e->rip).length;
}

/* The decoder's errata workarounds in force, by name ("none"). */
static void pt_log_errata(struct tcase *t, unsigned errata)
{
	char names[32] = "";
	size_t n = 0;

	for (unsigned bit = 1; bit <= PT_ERRATUM_SKZ84; bit <<= 1)
		if (errata & bit) {
			fmt_snprintf(names + n, sizeof(names) - n, "%s%s",
				     n ? "," : "", pt_erratum_name(bit));
			n = str_len(names);
		}
	value(t, "pt_errata", "%s", names[0] ? names : "none");
}

int pt_begin(struct tcase *t, struct pt_env *v)
{
	const char *why = "unknown";
	struct pmu_err e;

	*v = (struct pt_env){ .t = t };
	if (!pmu_ready(t, PMU_ARCH))
		return 0;
	v->c = pt_caps(&why);
	if (!v->c) {
		skip(t, "no Intel PT: %s", why);
		return 0;
	}
	if (!(v->c->ecx0 & SDM_PT_ECX_SINGLE)) {
		skip(t, "Intel PT without single-range output "
		     "(CPUID.(EAX=14H,ECX=0):ECX[2] = 0)");
		return 0;
	}
	if (!(v->m = pt_test_mem(t)))
		return 0;
	v->base = (uint64_t)(uintptr_t)v->m->out;
	value(t, "pt_caps", "%s 14H.0 ebx=0x%x ecx=0x%x 14H.1 eax=0x%x "
	      "ebx=0x%x", v->c->source, v->c->ebx0, v->c->ecx0, v->c->eax1,
	      v->c->ebx1);
	/* the streams are decoded with the workarounds of the errata the
	 * CPU that wrote them has (lib/pt/errata.c: SKD007 on the Skylake
	 * client parts, SKZ84 on the server parts with it), as a decoder
	 * of a real machine's trace must */
	v->errata = pt_errata_for_cpu(cpu_info()->sig.family,
				      cpu_info()->sig.model);
	pt_log_errata(t, v->errata);
	return check(t, pt_stop(&e) == 0, "TraceEn off: %s", e.msg);
}

void pt_end(struct pt_env *v)
{
	struct pmu_err e;

	if (v->m)
		(void)pt_stop(&e);
}

/* The largest PSBFreq the CPU offers (few PSBs in a short run), 0 when
 * PSBFreq is not configurable. */
static unsigned pt_psb_freq_max(const struct pt_caps *c)
{
	unsigned f = 0;

	if (!(c->ebx0 & SDM_PT_EBX_PSB_CYC))
		return 0;
	for (unsigned i = 0; i < 16; i++)
		if (SDM_PT_PSB_BITMAP(c) >> i & 1)
			f = i;
	return f;
}

struct pt_config pt_config_for(const struct pt_env *v, int cpl,
			       unsigned thresh)
{
	return (struct pt_config){ .os = cpl == 0, .user = cpl != 0,
				   .cyc = 1, .cyc_thresh = thresh,
				   .psb_freq = pt_psb_freq_max(v->c) };
}

int pt_run(struct pt_env *v, const struct bench *b, uint64_t n, int cpl,
	   const struct pt_config *c)
{
	struct pt_trace *tr = &v->m->tr;
	trace_sink sink = backend_current()->sink;
	struct pmu_err e;
	struct fault f = { 0 };
	uint64_t off = 0;
	int rc;

	memset(tr, 0, sizeof(*tr));
	tr->model = sink;
	v->len = 0;
	v->bench = b;
	v->runs++;
	if (!need_bench_data(v->t, b))
		return 0;
	/* hardware: the trace first, with PT off */
	if (!sink && !check(v->t, bench_exec(b, n, cpl, NULL, pt_sink, tr,
					     &f) == 0, "trace of %s faulted "
			    "(vector %u)", b->name, f.vector))
		return 0;
	memset(v->m->out, PT_GUARD_BYTE, sizeof(v->m->out));
	if (!check(v->t, pt_setup_output(v->base, PT_OUT_BYTES, &e) == 0,
		   "single-range output at 0x%llx, %u bytes: %s",
		   (unsigned long long)v->base, PT_OUT_BYTES, e.msg) ||
	    !check(v->t, pt_start(c, &e) == 0, "start PT (os %u user %u cyc "
		   "%u thresh %u disretc %u psbfreq %u): %s", c->os, c->user,
		   c->cyc, c->cyc_thresh, c->disretc, c->psb_freq, e.msg))
		return 0;
	tr->t0 = tr->last_clock = sink ? model_clock() : 0;
	rc = bench_exec(b, n, cpl, NULL, sink ? pt_sink : NULL, tr, &f);
	if (!check(v->t, pt_stop(&e) == 0, "stop PT: %s", e.msg) ||
	    !check(v->t, pt_output_offset(&off, &e) == 0, "output offset: "
		   "%s", e.msg) ||
	    !check(v->t, rc == 0, "%s n=%llu at CPL %d: %d (vector %u)",
		   b->name, (unsigned long long)n, cpl, rc, f.vector) ||
	    !check(v->t, tr->lost == 0 || v->steps_only, "%s: %llu branch "
		   "steps past the %u the test keeps", b->name,
		   (unsigned long long)tr->lost, PT_MAX_STEPS) ||
	    !check(v->t, off > 0 && off < PT_OUT_BYTES, "%s: output offset "
		   "%llu: expected packets, less than the %u-byte region",
		   b->name, (unsigned long long)off, PT_OUT_BYTES))
		return 0;
	v->len = off;
	/* nothing written past the offset (the model) */
	for (uint64_t i = off; sink && i < PT_OUT_BYTES; i++)
		if (v->m->out[i] != PT_GUARD_BYTE)
			return check(v->t, 0, "%s: byte base+%llu (0x%02x) "
				     "written past the output offset %llu",
				     b->name, (unsigned long long)i,
				     v->m->out[i], (unsigned long long)off);
	pt_timing_errata(v->m->out, v->len, v->errata, v->m->br,
			 PT_MAX_BRANCHES, &v->res);
	return check(v->t, v->res.lost == 0, "%s: %llu decoded branches past "
		     "the %u the test keeps", b->name,
		     (unsigned long long)v->res.lost, PT_MAX_BRANCHES);
}
