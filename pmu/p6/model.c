/* pmu/p6/model.c: reference model of the P6 family PMU (SDM Vol. 3B,
 * order no. 253669-060US, §18.22), driven by the oracle's events
 * (pmu/model.h).
 *
 * - MSRs: the model claims PerfEvtSel0/1 (0x186, 0x187) and PerfCtr0/1
 *   (0xC1, 0xC2) only.  Every other MSR answers BE_NOT_MODELLED: a P6 has
 *   many more (the TSC, the MTRRs, the machine-check banks, the APIC base,
 *   the last-branch records...) that the model does not pretend to know.
 * - PerfEvtSel: read back as written.  A write setting a reserved bit -
 *   bit 21 (AnyThread is architectural perfmon v3's, §18.2.3) or any of
 *   bits 63:32 - raises #GP(0) and changes nothing (SDM Vol. 2B WRMSR:
 *   "#GP(0) if ... the value in EDX:EAX sets bits that are reserved in the
 *   MSR").  Bit 22 of PerfEvtSel1 is kept as written and has no effect:
 *   EN "is only present in the PerfEvtSel0 MSR" (§18.22.1), yet drivers
 *   that ran on P6 hardware set it in PerfEvtSel1 too without a fault, so
 *   the model does not call it reserved.  A new selection starts with its
 *   edge detector deasserted.
 * - PerfCtr: 40 bits; a write takes EAX sign-extended from bit 31 into
 *   bits 39:32 and ignores EDX (§18.22.2), so it never faults.  Counts
 *   wrap from 2^40 - 1 to 0.
 * - Counting: nothing counts while PerfEvtSel0.EN is clear; it enables
 *   both counters (§18.22.1).  Each counter counts at CPL 0 with OS, at
 *   CPL 1-3 with USR.  A step's event count n is the sum of the event
 *   table's semantic counts (p6_events[]) for that step; CMASK, INV and E
 *   turn it into the increment per model cycle (evtsel_cycles(): the
 *   rule of §18.22.1, pmu/evtsel.h).  A step the counter does not see
 *   (another CPL, EN clear) deasserts its edge detector.
 * - Events the trace cannot observe (sem 0), codes the SDM's tables do
 *   not list for this generation and counter ("undefined counter
 *   results"), and unit masks an event does not define count nothing -
 *   with any CMASK, INV or E, since their per-cycle count is unknown.
 * - PC is kept; it selects what the PMi pin signals, which the model does
 *   not have.
 * - INT: when a counter with INT set wraps to 0 (overflow), the model
 *   raises a PMI through the local APIC (model_raise_pmi(); the LVTPC
 *   masked on delivery on the Pentium M only, p6_masks_lvtpc(),
 *   docs/apic.md), once per wrap, after
 *   the step's increment.  The P6 has no overflow status: a handler finds
 *   the counter that wrapped by its small value.
 * - RDPMC: counters 0 and 1, #GP(0) for any other index; never #UD (every
 *   P6 has RDPMC).  CR4.PCE at CPL 3 is the model layer's (pmu/model.c).
 */
#include "regs.h"
#include "events.h"
#include "model.h"
#include "../backend.h"
#include "../detect.h"
#include "../emufault.h"
#include "../lbr_model.h"
#include "../model.h"
#include "../sem.h"
#include "../../arch/x86/trap.h"

static struct {
	uint64_t sel[P6_COUNTERS];
	uint64_t ctr[P6_COUNTERS];
	struct evtsel_edge edge[P6_COUNTERS];
	unsigned gen;
	uint8_t late[P6_COUNTERS];	/* EF_OVERFLOW_LATE: a PMI owed at
					 * the counter's next event */
	/* sel[c] decoded, and what its event counts (pmu/sem.h; 0 with
	 * known 0: nothing the trace sees), worked out when sel[c] is
	 * written, not at every step (issue 44) */
	struct evtsel dec[P6_COUNTERS];
	uint32_t sem[P6_COUNTERS];
	uint8_t known[P6_COUNTERS];
	uint64_t debugctl;	/* IA32_DEBUGCTL: LBR, BTF (P6_DEBUGCTL_KEPT) */
} m;

/* PerfEvtSel c was written (or reset): its decoding and its event's
 * counts, looked up once. */
static void decode_sel(unsigned c)
{
	const struct p6_event *ev;

	m.dec[c] = evtsel_decode(m.sel[c]);
	ev = p6_event_for(m.dec[c].event, c, m.gen);
	m.known[c] = ev && ev->sem && p6_umask_ok(ev, m.dec[c].umask);
	m.sem[c] = m.known[c] ? ev->sem : 0;
}

/* The LBRs of this P6 (regs.c), empty. */
static void reset_lbrs(void)
{
	struct lbr_layout l;
	const char *why;

	lbr_model_reset(p6_lbr_layout(cpu_info(), &l, &why) ? 0 : &l);
}

static void p6m_reset(void)
{
	for (unsigned c = 0; c < P6_COUNTERS; c++) {
		m.sel[c] = 0;
		m.ctr[c] = 0;
		m.late[c] = 0;
		evtsel_idle(&m.edge[c]);
	}
	m.gen = p6_gen_of(&cpu_info()->sig);
	for (unsigned c = 0; c < P6_COUNTERS; c++)
		decode_sel(c);
	m.debugctl = 0;
	reset_lbrs();
}

/* An LBR register's answer (lbr_model.h), or "not modelled" for what is
 * none. */
static int lbr_or_unknown(int r)
{
	return r == 1 ? BE_NOT_MODELLED : r;
}

static int p6m_rdmsr(uint32_t msr, uint64_t *v)
{
	switch (msr) {
	case P6_MSR_PERFEVTSEL0:
	case P6_MSR_PERFEVTSEL1:
		*v = m.sel[msr - P6_MSR_PERFEVTSEL0];
		return 0;
	case P6_MSR_PERFCTR0:
	case P6_MSR_PERFCTR1:
		*v = m.ctr[msr - P6_MSR_PERFCTR0];
		return 0;
	case MSR_IA32_DEBUGCTL:
		*v = m.debugctl;
		return 0;
	default:
		return lbr_or_unknown(lbr_model_rdmsr(msr, v));
	}
}

static uint64_t ctr_mask(void)
{
	return emufault_width(P6_CTR_MASK);
}

/* EF_ENABLE_PLUS_ONE: PerfEvtSel0's EN enables both counters (§18.22.1),
 * so each with OS or USR gains 1 when it is set. */
static void enabled(uint64_t sel0)
{
	if (!emufault_on(EF_ENABLE_PLUS_ONE) || (m.sel[0] & EVTSEL_EN) ||
	    !(sel0 & EVTSEL_EN))
		return;
	for (unsigned c = 0; c < P6_COUNTERS; c++)
		if ((c ? m.sel[c] : sel0) & (EVTSEL_OS | EVTSEL_USR))
			m.ctr[c] = (m.ctr[c] + 1) & ctr_mask();
}

/* The value a PerfCtr write leaves: EAX sign-extended from bit 31
 * (§18.22.2), or under EF_NO_SIGN_EXTEND EAX alone. */
static uint64_t written(uint64_t v)
{
	if (emufault_on(EF_NO_SIGN_EXTEND))
		return (uint32_t)v & ctr_mask();
	return p6_ctr_written(v) & ctr_mask();
}

static int p6m_wrmsr(uint32_t msr, uint64_t v)
{
	unsigned c;

	switch (msr) {
	case P6_MSR_PERFEVTSEL0:
	case P6_MSR_PERFEVTSEL1:
		if (v & P6_EVTSEL_RESERVED)
			return VEC_GP;
		c = msr - P6_MSR_PERFEVTSEL0;
		if (!c)
			enabled(v);
		m.sel[c] = v;
		decode_sel(c);
		evtsel_idle(&m.edge[c]);
		return 0;
	case P6_MSR_PERFCTR0:
	case P6_MSR_PERFCTR1:
		m.ctr[msr - P6_MSR_PERFCTR0] = written(v);
		m.late[msr - P6_MSR_PERFCTR0] = 0;
		return 0;
	case MSR_IA32_DEBUGCTL:
		/* LBR and BTF kept; the rest (P6: PB0-3, TR; Pentium M: TR,
		 * BTS, BTINT) not modelled */
		if (v & ~P6_DEBUGCTL_KEPT)
			return BE_NOT_MODELLED;
		m.debugctl = v;
		return 0;
	default:
		return lbr_or_unknown(lbr_model_wrmsr(msr, v));
	}
}

static int p6m_rdpmc(uint32_t idx, uint64_t *v)
{
	if (idx >= P6_COUNTERS)
		return VEC_GP;
	*v = m.ctr[idx];
	return 0;
}

static int counts_at(const struct evtsel *s, unsigned cpl)
{
	return emufault_filter(cpl == 0 ? s->os : s->usr, s->os, s->usr,
			       cpl);
}

static void add(unsigned c, uint64_t inc, int intr)
{
	uint64_t sum = m.ctr[c] + inc;
	int wrapped = sum > ctr_mask(), late = m.late[c] && inc;

	m.ctr[c] = sum & ctr_mask();
	if (inc)
		m.late[c] = 0;
	/* EF_OVERFLOW_LATE: the wrap's PMI waits for the next event */
	if (wrapped && emufault_on(EF_OVERFLOW_LATE)) {
		m.late[c] = 1;
		wrapped = 0;
	}
	if (intr && (wrapped || late))
		(void)model_raise_pmi(p6_masks_lvtpc(m.gen));
}

/* The step's events on counter c: its event's count in one single step
 * (the per-cycle count CMASK compares), through CMASK, INV and E. */
static void count(unsigned c, const struct insn_event *e)
{
	const struct evtsel *s = &m.dec[c];

	if (!counts_at(s, e->cpl) || !m.known[c]) {
		evtsel_idle(&m.edge[c]);
		return;
	}
	add(c, emufault_count(evtsel_cycles(s, &m.edge[c],
					    sem_once_mask(m.sem[c], e),
					    1 + (uint64_t)e->more), e->cpl),
	    s->intr);
}

static void p6m_event(const struct insn_event *e)
{
	int en = (m.sel[0] & EVTSEL_EN) != 0;

	lbr_model_step(e, m.debugctl, 0, model_clock());
	for (unsigned c = 0; c < P6_COUNTERS; c++) {
		if (en)
			count(c, e);
		else
			evtsel_idle(&m.edge[c]);
	}
}

/* Its state is m, all of it (model.h: predictions beside the live
 * model save and restore it). */
static unsigned p6m_parts(struct model_part *p)
{
	p[0] = (struct model_part){ &m, sizeof(m) };
	p[1] = lbr_model_part();
	return 2;
}

/* Some counter counts at some CPL: PerfEvtSel0.EN (bit 22) enables both
 * counters (§18.22.1), each counting at CPL 0 with OS (bit 17) and at
 * CPL 1-3 with USR (bit 16).  backend=emulated traces while this holds. */
static int p6m_counting(void)
{
	if (lbr_model_recording(m.debugctl, 0))
		return 1;
	if (!(m.sel[0] & EVTSEL_EN))
		return 0;
	for (unsigned c = 0; c < P6_COUNTERS; c++)
		if (m.dec[c].os || m.dec[c].usr)
			return 1;
	return 0;
}

const struct pmu_model p6_model = {
	.kind = PMU_P6,
	.name = "p6 (PerfEvtSel0/1, PerfCtr0/1, SDM Vol. 3B 18.22)",
	.reset = p6m_reset,
	.rdmsr = p6m_rdmsr,
	.wrmsr = p6m_wrmsr,
	.rdpmc = p6m_rdpmc,
	.event = p6m_event,
	.counting = p6m_counting,
	.interrupt_retires = 1,	/* pmu/noise.h */
	.parts = p6m_parts,
};
