/* window: the composition of the counting window (window.h). */
#include "window.h"
#include "model.h"
#include "noise.h"

static struct {
	uint64_t start, end;
	unsigned run;		/* window_begin()s so far */
	unsigned seg;		/* the current segment */
	int overflowed;		/* more writes than WINDOW_SEGMENTS */
	trace_sink tap;
	void *tap_ctx;
	unsigned interrupts;	/* model_interrupts() at the last step */
	/* emulated_noise=1: the instruction each interrupt taken adds
	 * (noise.h), by segment, CPL and count, apart from the traced code */
	uint64_t noise[WINDOW_SEGMENTS][4][SEM_NR];
	uint64_t n[WINDOW_SEGMENTS][4][SEM_NR];
	uint32_t msr[WINDOW_SEGMENTS];	/* the register each write wrote */
	/* the steps after which the CPL changed (window_crossings) */
	struct crossing {
		unsigned seg;
		uint8_t from, to;
		uint64_t n[SEM_NR];
	} cross[WINDOW_CROSSINGS];
	unsigned n_cross;
	int cross_lost;			/* more than WINDOW_CROSSINGS */
	struct crossing prev;		/* the last step, where it ran */
	int prev_outside;		/* it was outside the benchmark */
	int have_prev;
} w;

static void clear_segment(unsigned g)
{
	for (unsigned c = 0; c < 4; c++)
		for (unsigned s = 0; s < SEM_NR; s++)
			w.n[g][c][s] = w.noise[g][c][s] = 0;
}

unsigned window_begin(uint64_t start, uint64_t end)
{
	w.run++;
	w.start = start;
	w.end = end;
	w.seg = 0;
	w.overflowed = 0;
	w.n_cross = 0;
	w.cross_lost = 0;
	w.have_prev = 0;
	w.msr[0] = 0;
	clear_segment(0);
	w.interrupts = model_interrupts();
	return w.run;
}

void window_wrmsr(uint32_t msr)
{
	if (w.seg + 1 >= WINDOW_SEGMENTS) {
		w.overflowed = 1;
		return;
	}
	clear_segment(++w.seg);
	w.msr[w.seg] = msr;
}

int window_write(unsigned run, unsigned seg, uint32_t *msr)
{
	if (run != w.run || w.overflowed || !seg || seg > w.seg)
		return -1;
	*msr = w.msr[seg];
	return 0;
}

unsigned window_segment(void)
{
	return w.seg;
}

/* emulated_noise=1: an interrupt was taken after step e (the model's
 * PMI): one more retired instruction at the CPL it interrupted, as
 * silicon counts the interrupt's return (noise.h, Weaver et al.).  It
 * reaches the model and the tests' tap like a step, and is kept apart
 * from the traced code's segments: it is noise, which the tests allow
 * for (window_noise_sum), not code. */
static void interrupt_retires(const struct insn_event *e, void *ctx)
{
	struct insn_event x = { .rip = e->next_rip, .next_rip = e->next_rip,
				.cpl = e->cpl, .retired = 1,
				.after = e->after };

	for (unsigned s = 0; s < SEM_NR; s++)
		w.noise[w.seg][x.cpl & 3][s] += sem_step((enum sem)s, &x);
	model_feed(&x, ctx);
	if (w.tap)
		w.tap(&x, w.tap_ctx);
}

/* The previous step changed the CPL when this one runs at another: kept
 * when it was the window's (outside the benchmark). */
static void note_crossing(const struct insn_event *e, int outside)
{
	if (w.have_prev && w.prev_outside && w.prev.from != (e->cpl & 3)) {
		if (w.n_cross < WINDOW_CROSSINGS) {
			w.prev.to = e->cpl & 3;
			w.cross[w.n_cross++] = w.prev;
		} else {
			w.cross_lost = 1;
		}
	}
	w.have_prev = 1;
	w.prev_outside = outside;
	w.prev.seg = w.seg;
	w.prev.from = e->cpl & 3;
}

/* Sorts step e into the current segment when it is not the benchmark's. */
static void sort_step(const struct insn_event *e)
{
	int outside = e->rip < w.start || e->rip >= w.end;

	note_crossing(e, outside);
	if (!outside)
		return;
	for (unsigned s = 0; s < SEM_NR; s++) {
		w.prev.n[s] = sem_step((enum sem)s, e);
		w.n[w.seg][e->cpl & 3][s] += w.prev.n[s];
	}
}

/* Is the step at rip a WRMSR (SDM Vol. 2B "WRMSR": 0F 30, no prefix
 * the harness's accessors use, arch/x86/<mode>/safe.S)?  ECX after it
 * is the register it wrote: WRMSR changes no general register. */
static int is_wrmsr(const struct insn_event *e)
{
	const uint8_t *p = (const uint8_t *)(uintptr_t)e->rip;

	return e->retired && p[0] == 0x0f && p[1] == 0x30;
}

void window_rehearse_feed(const struct insn_event *e, void *ctx)
{
	(void)ctx;
	if (is_wrmsr(e))
		window_wrmsr(e->after ? (uint32_t)e->after->gpr[1] : 0);
	sort_step(e);
	if (w.tap)
		w.tap(e, w.tap_ctx);
}

void window_feed(const struct insn_event *e, void *ctx)
{
	sort_step(e);
	model_feed(e, ctx);
	if (w.tap)
		w.tap(e, w.tap_ctx);
	if (model_interrupts() != w.interrupts) {
		w.interrupts = model_interrupts();
		if (noise_on() && model_active() &&
		    model_active()->interrupt_retires)
			interrupt_retires(e, ctx);
	}
}

void window_tap(trace_sink sink, void *ctx)
{
	w.tap = sink;
	w.tap_ctx = ctx;
}

static int sum_of(uint64_t (*src)[4][SEM_NR], unsigned run, unsigned first,
		  unsigned last, unsigned cpls, uint32_t sem_mask, uint64_t *n,
		  const char **why)
{
	*n = 0;
	if (run != w.run) {
		*why = "a later run took the window's record";
		return -1;
	}
	if (w.overflowed) {
		*why = "the run wrote more MSRs than the window keeps "
		       "segments (WINDOW_SEGMENTS)";
		return -1;
	}
	if (first > last || last > w.seg) {
		*why = "no such segments of the window";
		return -1;
	}
	for (unsigned g = first; g <= last; g++)
		for (unsigned c = 0; c < 4; c++)
			if (cpls >> c & 1)	/* PMU_CPL(c), pmu/driver.h */
				*n += sem_sum(sem_mask, src[g][c]);
	return 0;
}

int window_sum(unsigned run, unsigned first, unsigned last, unsigned cpls,
	       uint32_t sem_mask, uint64_t *n, const char **why)
{
	return sum_of(w.n, run, first, last, cpls, sem_mask, n, why);
}

int window_noise_sum(unsigned run, unsigned first, unsigned last,
		     unsigned cpls, uint32_t sem_mask, uint64_t *n,
		     const char **why)
{
	return sum_of(w.noise, run, first, last, cpls, sem_mask, n, why);
}

int window_crossings(unsigned run, unsigned first, unsigned last,
		     unsigned cpls, uint32_t sem_mask, uint64_t *leaving,
		     uint64_t *entering, const char **why)
{
	*leaving = *entering = 0;
	if (run != w.run || first > last || last > w.seg || w.overflowed) {
		*why = "no such segments of the window";
		return -1;
	}
	if (w.cross_lost) {
		*why = "the run changed CPL more often than the window keeps "
		       "(WINDOW_CROSSINGS)";
		return -1;
	}
	for (unsigned i = 0; i < w.n_cross; i++) {
		const struct crossing *c = &w.cross[i];
		int in_from = cpls >> c->from & 1, in_to = cpls >> c->to & 1;

		if (c->seg < first || c->seg > last || in_from == in_to)
			continue;
		*(in_from ? leaving : entering) += sem_sum(sem_mask, c->n);
	}
	return 0;
}
