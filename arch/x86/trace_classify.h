/* trace_classify: what a single step was, from its decoded instruction
 * and where it went: a step's flags (the decoder's class, EV_TAKEN for a
 * branch that left the fall-through, DEC_UNCLASSIFIED for flow the
 * decoder cannot explain), loads, stores, REP iterations (given: the drop
 * in RCX) and retirement, from k, e->rip and e->next_rip.  The one rule
 * of trace_run's events (arch/x86/trace.c, once per step: inline), pure,
 * so the host's model-stream tool (tools/pt/pt_modelgen.c) builds the
 * events of its ptrace steps by the tracer's own rule. */
#ifndef ARCH_X86_TRACE_CLASSIFY_H
#define ARCH_X86_TRACE_CLASSIFY_H

#include "trace.h"

static inline void trace_classify(struct insn_event *e,
				  const struct insn_class *k,
				  uint32_t iterations)
{
	uint64_t fall = e->rip + k->length;

	e->flags = k->flags;
	e->iterations = 0;
	e->retired = 1;
	e->loads = k->loads;
	e->stores = k->stores;
	e->more = 0;
	if (k->flags & DEC_UNCLASSIFIED)
		return;
	if (k->flags & DEC_REP_STRING) {
		e->iterations = iterations;
		e->loads = k->loads * e->iterations;
		e->stores = k->stores * e->iterations;
		e->retired = e->next_rip != e->rip;
		return;
	}
	if ((k->flags & (DEC_BRANCH | DEC_FAR)) && e->next_rip != fall)
		e->flags |= EV_TAKEN;
	else if (!(k->flags & (DEC_BRANCH | DEC_FAR)) && e->next_rip != fall)
		e->flags |= DEC_UNCLASSIFIED;	/* flow the decoder cannot explain */
}

#endif
