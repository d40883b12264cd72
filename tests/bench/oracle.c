/* oracle: counting retired instructions by class (see oracle.h). */
#include "oracle.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/ring3.h"
#include "../../boot/mem.h"
#include "../../lib/string.h"

#define MAX_BENCHES 64

void oracle_account(struct oracle_counts *o, const struct insn_event *e)
{
	uint64_t *c = o->c[e->cpl & 3];
	uint64_t n = 1 + (uint64_t)e->more;	/* aggregated steps */

	o->steps[e->cpl & 3] += n;
	c[BC_LOADS] += n * e->loads;
	c[BC_STORES] += n * e->stores;
	if (e->flags & DEC_UNCLASSIFIED)
		o->unclassified[e->cpl & 3] += n;
	if (!e->retired)
		return;
	c[BC_INSTRUCTIONS] += n;
	if (e->flags & DEC_BRANCH) {
		c[BC_BRANCHES] += n;
		if (e->flags & EV_TAKEN)
			c[BC_TAKEN] += n;
		if (e->flags & DEC_COND)
			c[BC_COND] += n;
		if (e->flags & DEC_CALL)
			c[BC_CALLS] += n;
		if (e->flags & DEC_RET)
			c[BC_RETURNS] += n;
	}
	if (e->flags & DEC_FAR)
		c[BC_FAR] += n;
	if (e->flags & DEC_SEGLOAD)
		c[BC_SEGLOADS] += n;
}

struct sinks {
	struct oracle_counts *o;
	trace_sink extra;
	void *extra_ctx;
};

static void fan_out(const struct insn_event *e, void *ctx)
{
	struct sinks *s = ctx;

	oracle_account(s->o, e);
	if (s->extra)
		s->extra(e, s->extra_ctx);
}

static struct {
	const struct bench *b;
	void *data;
} buffers[MAX_BENCHES];

void *bench_data(const struct bench *b)
{
	unsigned i;
	void *d;

	for (i = 0; i < MAX_BENCHES && buffers[i].b; i++)
		if (buffers[i].b == b)
			return buffers[i].data;
	if (i == MAX_BENCHES)
		return NULL;
	/* 2 MiB alignment lets ring 3 get large pages for big buffers. */
	d = mem_alloc(b->data_size ? b->data_size : 64, 2u << 20);
	if (!d || (ring3_ready() && ring3_map_user(d, b->data_size ?
						   b->data_size : 64)))
		return NULL;
	if (b->prepare)
		b->prepare(d, b->data_size, 0);
	buffers[i].b = b;
	buffers[i].data = d;
	return d;
}

int bench_exec(const struct bench *b, uint64_t n, int cpl, trace_sink sink,
	       void *ctx, struct fault *f)
{
	struct trace_range r = { (const void *)b->fn, b->end };
	void *data = bench_data(b);
	uint64_t flags;

	if (!data)
		return -1;
	if (sink)
		return trace_run(b->fn, n, data, cpl, r, sink, ctx, f);
	if (cpl == 3)
		return ring3_run(b->fn, n, data, 0, f);
	flags = read_flags();
	irq_disable();
	b->fn(n, data);
	write_flags(flags);
	return 0;
}

int oracle_run(const struct bench *b, uint64_t n, int cpl,
	       struct oracle_counts *out, trace_sink extra, void *extra_ctx,
	       struct fault *f)
{
	struct sinks s = { out, extra, extra_ctx };
	struct trace_range r = { (const void *)b->fn, b->end };
	void *data = bench_data(b);
	int ret;

	memset(out, 0, sizeof(*out));
	if (!data)
		return -1;
	/* Counting alone can take steps in bulk; a model needs each one. */
	if (extra)
		ret = trace_run(b->fn, n, data, cpl, r, fan_out, &s, f);
	else
		ret = trace_run_aggregated(b->fn, n, data, cpl, r, fan_out,
					   &s, f);
	out->outside = trace_outside_steps();
	return ret;
}
