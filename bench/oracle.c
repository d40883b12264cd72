/* oracle: counting retired instructions by class (see oracle.h). */
#include "oracle.h"
#include "../arch/x86/cpu.h"
#include "../arch/x86/ring3.h"
#include "../lib/string.h"

void oracle_account(struct oracle_counts *o, const struct insn_event *e)
{
	unsigned cpl = e->cpl & 3;
	uint64_t *c = o->c[cpl];
	uint32_t with = 0;

	for (unsigned s = 0; s < SEM_NR; s++) {
		uint64_t steps = sem_steps_with((enum sem)s, e);

		c[s] += sem_step((enum sem)s, e);
		o->steps_with[cpl][s] += steps;
		if (!steps)
			continue;
		with |= SEM_BIT(s);
		/* a new run: the previous step lacked s, or ran elsewhere
		 * (e->more further steps continue this run) */
		if (!(o->last_with & SEM_BIT(s)) || o->last_cpl != (int)cpl)
			o->runs_with[cpl][s]++;
	}
	o->last_with = with;
	o->last_cpl = (int)cpl;
	if (e->flags & DEC_UNCLASSIFIED)
		o->unclassified[e->cpl & 3] += 1 + (uint64_t)e->more;
}

struct sinks {
	struct oracle_counts *o;
	trace_sink extra;
	void *extra_ctx;
};

static void fan_out(const struct insn_event *e, void *ctx)
{
	struct sinks *s = ctx;

	if (s->o)
		oracle_account(s->o, e);
	s->extra(e, s->extra_ctx);
}

static struct trace_range range_of(const struct bench *b)
{
	return (struct trace_range){ (const void *)b->fn, b->end };
}

static int full_speed(const struct bench *b, uint64_t n, int cpl, void *data,
		      struct fault *f)
{
	uint64_t flags;

	/* in a counting window (backend=emulated) CPL 3 is traced too */
	if (cpl == 3)
		return ring3_run(b->fn, n, data, trace_window_active() ?
				 X86_EFLAGS_TF : 0, f);
	flags = read_flags();
	irq_disable();
	b->fn(n, data);
	write_flags(flags);
	return 0;
}

int bench_exec(const struct bench *b, uint64_t n, int cpl,
	       struct oracle_counts *oc, trace_sink sink, void *ctx,
	       struct fault *f)
{
	struct sinks s = { oc, sink, ctx };
	void *data = bench_data(b);
	int ret;

	if (!data)
		return -1;
	if (!sink)
		return full_speed(b, n, cpl, data, f);
	if (oc)
		memset(oc, 0, sizeof(*oc));
	ret = trace_run(b->fn, n, data, cpl, range_of(b), fan_out, &s, f);
	if (oc)
		oc->outside = trace_outside_steps();
	return ret;
}

static void count_only(const struct insn_event *e, void *ctx)
{
	oracle_account(ctx, e);
}

int oracle_run(const struct bench *b, uint64_t n, int cpl,
	       struct oracle_counts *out, struct fault *f)
{
	void *data = bench_data(b);
	int ret;

	memset(out, 0, sizeof(*out));
	if (!data)
		return -1;
	ret = trace_run_aggregated(b->fn, n, data, cpl, range_of(b),
				   count_only, out, f);
	out->outside = trace_outside_steps();
	return ret;
}
