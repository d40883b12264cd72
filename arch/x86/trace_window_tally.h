/* trace_window_tally: how the counting window (trace.h, trace_window_*)
 * sorts what it traced: retired instructions by CPL inside the
 * benchmark's range, before its first step and after its last, and the
 * near ones every counter of the run counts: from the last WRMSR before
 * the benchmark (the last enabling write), up to the first WRMSR after it
 * (the first disabling write).  Pure, so the host tests it
 * (tests/host/arch/x86/test_trace_window.c). */
#ifndef ARCH_X86_TRACE_WINDOW_TALLY_H
#define ARCH_X86_TRACE_WINDOW_TALLY_H

#include "trace.h"

struct trace_window_tally {
	uint64_t start, end;	/* the benchmark */
	int seen;		/* a step of the benchmark has been seen */
	int written_after;	/* a WRMSR came after it */
	struct trace_window_counts n;
};

/* A new run of the benchmark [start, end): all counts 0. */
static inline void tally_range(struct trace_window_tally *w, uint64_t start,
			       uint64_t end)
{
	*w = (struct trace_window_tally){ .start = start, .end = end };
}

/* A step at rip and cpl that retired `retired` instructions (0 for a REP
 * iteration that is not the last). */
static inline void tally_step(struct trace_window_tally *w, uint64_t rip,
			      unsigned cpl, uint64_t retired)
{
	cpl &= 3;
	if (rip >= w->start && rip < w->end) {
		w->seen = 1;
		w->n.inside[cpl] += retired;
	} else if (w->seen) {
		w->n.after[cpl] += retired;
		if (!w->written_after)
			w->n.near_after[cpl] += retired;
	} else {
		w->n.before[cpl] += retired;
		w->n.near_before[cpl] += retired;
	}
}

/* A WRMSR is about to take effect (its own step, if it retires into the
 * window, comes after). */
static inline void tally_wrmsr(struct trace_window_tally *w)
{
	if (w->seen) {
		w->written_after = 1;
		return;
	}
	for (unsigned c = 0; c < 4; c++)
		w->n.near_before[c] = 0;
}

#endif
