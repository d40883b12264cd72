/* tests/pebs/pebs_expect.c: the records the SDM's rules ask of a traced
 * run (pebs_expect.h states them and their citations), worked out from
 * the trace's steps alone. */
#include "pebs_expect.h"
#include "pebs_test.h"
#include "../../pmu/sem.h"

/* The bits the rules read, restated (SDM Vol. 3B, 253669-060US). */
#define SEL_USR (1ull << 16)	/* PerfEvtSel USR, Figure 18-1 */
#define SEL_OS (1ull << 17)	/* PerfEvtSel OS */
#define FIX_OS 1u		/* FIXED_CTR_CTRL field, Figure 18-2 */
#define FIX_USR 2u
#define FIRST_FIXED 32		/* IA32_PERF_GLOBAL_* bit of fixed 0 */
#define DBG_LBR 1u		/* IA32_DEBUGCTL.LBR, §17.4.1 */

/* Does counter c count at cpl: OS at CPL 0, USR at CPL 1-3. */
static int counts_at(const struct pebs_ctr *c, int cpl)
{
	if (c->bit >= FIRST_FIXED)
		return cpl ? !!(c->sel & FIX_USR) : !!(c->sel & FIX_OS);
	return cpl ? !!(c->sel & SEL_USR) : !!(c->sel & SEL_OS);
}

static void push_branch(struct pebs_expect *x, const struct insn_event *e)
{
	int cls = sdm_lbr_class(e);

	x->steps += 1 + (uint64_t)e->more;
	if (!(x->debugctl & DBG_LBR) || cls < 0)
		return;
	for (unsigned k = PEBS_EXPECT_LBR - 1; k > 0; k--) {
		x->from[k] = x->from[k - 1];
		x->to[k] = x->to[k - 1];
		x->info[k] = x->info[k - 1];
	}
	x->from[0] = e->rip;
	x->to[0] = e->next_rip;
	x->info[0] = sdm_lbr_info(&x->lbr, cls, x->steps - x->br_steps);
	x->br_steps = x->steps;
	x->n_br++;
}

static void first_access(struct pebs_step *s, const struct insn_event *e)
{
	s->access_known = !(e->flags & EV_ACCESS_UNKNOWN);
	for (int i = e->n_access - 1; i >= 0; i--)
		*(e->access[i].store ? &s->store : &s->load) = e->access[i].addr;
}

static void record(const struct pebs_expect *x, const struct insn_event *e,
		   uint64_t applicable, struct pebs_step *s)
{
	*s = (struct pebs_step){ .rip = e->rip, .next_rip = e->next_rip,
				 .cpl = e->cpl, .applicable = applicable,
				 .n_branches = x->n_br };
	if (e->after)
		s->after = *e->after;
	s->have_before = x->have_prev && x->prev.rip == e->rip;
	if (s->have_before)
		s->before = x->prev;
	first_access(s, e);
	for (unsigned k = 0; k < PEBS_EXPECT_LBR; k++) {
		s->from[k] = x->from[k];
		s->to[k] = x->to[k];
		s->info[k] = x->info[k];
	}
}

void pebs_expect_start(struct pebs_expect *x, const struct pebs_ctr *ctr,
		       unsigned n_ctr, uint64_t debugctl)
{
	*x = (struct pebs_expect){ .ctr = ctr, .n_ctr = n_ctr,
				   .debugctl = debugctl,
				   .pdist_pmc0 = sdm_pdist_pmc0(),
				   .pdir_fixed0 = sdm_pdir_fixed0() };
	const char *why;

	if (!sdm_lbr_of(&x->lbr, &why))
		x->lbr = (struct sdm_lbr){ .family = "none" };
	for (unsigned c = 0; c < n_ctr; c++)
		x->left[c] = ctr[c].period;
}

/* Counts the step's events: the counters whose next event after their
 * overflow is in it (the assist), in *fire; the ones overflowed by its
 * end, returned. */
static uint64_t count_step(struct pebs_expect *x, const struct insn_event *e,
			   uint64_t *fire)
{
	uint64_t overflowed = 0;

	*fire = 0;
	for (unsigned c = 0; c < x->n_ctr; c++) {
		uint64_t inc = counts_at(&x->ctr[c], e->cpl) ?
			       sem_once_mask(x->ctr[c].sem, e) : 0;
		int precise = x->ctr[c].pdir ||
			      (x->pdist_pmc0 && x->ctr[c].bit == 0) ||
			      (x->pdir_fixed0 && x->ctr[c].bit == 32);

		/* armed and one more event; precise distribution (PDIR,
		 * PDist): the overflowing event itself */
		if (inc > x->left[c] || (precise && inc &&
					 inc == x->left[c])) {
			*fire |= 1ull << c;
			x->left[c] = 0;
		} else {
			x->left[c] -= inc;
		}
		if (!x->left[c])
			overflowed |= 1ull << c;
	}
	return overflowed;
}

uint64_t pebs_expect_step(struct pebs_expect *x, const struct insn_event *e,
			  struct pebs_step *s)
{
	uint64_t fire, overflowed, applicable = 0;

	push_branch(x, e);
	overflowed = count_step(x, e, &fire);
	if (fire) {
		for (unsigned c = 0; c < x->n_ctr; c++) {
			if (!(overflowed >> c & 1))
				continue;
			applicable |= 1ull << x->ctr[c].bit;
			x->left[c] = x->ctr[c].reload;
		}
		if (s)
			record(x, e, applicable, s);
	}
	if (e->after) {
		x->prev = *e->after;
		x->have_prev = 1;
	}
	return applicable;
}
