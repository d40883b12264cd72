/* pmu/perfmon/lbr/model.c: the LBR stack of the arch-perfmon reference
 * model (model.h): the last LBR_MODEL_DEPTH branches recorded while
 * IA32_DEBUGCTL.LBR was set (SDM Vol. 3B §17.4.1, Figure 17-3, bit 0;
 * §17.4.8 "LBR Stack"), newest on top.  Only the from and to addresses
 * are kept: the adaptive PEBS record's LBR group writes its info word
 * as 0.  Fed by pmu/perfmon/model.c per step of this thread, read by the
 * PEBS assist (pmu/perfmon/pebs/model.c). */
#include "model.h"
#include "../regs.h"
#include "../ds/model.h"
#include "../../emufault.h"

#define LBR_MODEL_DEPTH 32

static struct {
	uint64_t from[LBR_MODEL_DEPTH], to[LBR_MODEL_DEPTH];
	unsigned top, n;
} lbr;

struct model_part lbr_model_part(void)
{
	return (struct model_part){ &lbr, sizeof(lbr) };
}

void lbr_model_reset(void)
{
	lbr.top = lbr.n = 0;
}

void lbr_model_step(const struct insn_event *e, uint64_t debugctl)
{
	/* EF_LBR_TOS_BACKWARDS: the TOS steps down, not up, so reading
	 * back from it (TOS, TOS-1, ..., SDM Vol. 3B §17.4.8) finds stale
	 * entries after the newest */
	unsigned step = emufault_on(EF_LBR_TOS_BACKWARDS) ?
			LBR_MODEL_DEPTH - 1 : 1;

	if (!(debugctl & DEBUGCTL_LBR) || !ds_model_branch(e))
		return;
	lbr.top = (lbr.top + step) % LBR_MODEL_DEPTH;
	lbr.from[lbr.top] = e->rip;
	lbr.to[lbr.top] = e->next_rip;
	if (lbr.n < LBR_MODEL_DEPTH)
		lbr.n++;
}

void lbr_model_entry(unsigned k, uint64_t *from, uint64_t *to)
{
	unsigned i = (lbr.top + LBR_MODEL_DEPTH - k % LBR_MODEL_DEPTH) %
		     LBR_MODEL_DEPTH;

	*from = k < lbr.n ? lbr.from[i] : 0;
	*to = k < lbr.n ? lbr.to[i] : 0;
}
