/* pmu/p5/model.c: reference model of the Pentium PMU (SDM Vol. 3B §18.23.1),
 * driven by the oracle's events (pmu/model.h).
 *
 * - MSRs: the model claims CESR (0x11), CTR0 (0x12) and CTR1 (0x13) only.
 *   Every other MSR answers BE_NOT_MODELLED: a Pentium has others (0x00
 *   and 0x01 machine-check address and type, 0x10 TSC, 0x0E, SDM Vol. 4's
 *   table of Pentium processor MSRs) that the model does not pretend to
 *   know.
 *
 * - CESR: the defined fields read back as written; a write that sets a
 *   reserved bit raises #GP(0) and changes nothing (SDM Vol. 2B WRMSR:
 *   "#GP(0) if ... sets bits that are reserved in the MSR").
 * - CTR0/CTR1: 40 bits; a write setting bits 63:40 raises #GP(0); counts
 *   wrap from 2^40-1 to 0.  No overflow interrupt exists; PC is kept.
 * - Counter control: bit 2 selects clocks (duration) instead of events:
 *   the clocks during which the selected event's condition holds.  The
 *   model clock is one cycle per traced step, so the duration is the
 *   number of steps with the event, for events that are one count of
 *   pmu/sem.h (p5_duration_modelled()); other events' durations are not
 *   modelled and count nothing.  Bits 1 and 0 enable counting at CPL 3
 *   and at CPL 0-2.  000 and 100 count nothing.
 * - Events: counted from the trace as p5_events[] says; events the trace
 *   cannot observe (sem 0) never count in the model.
 * - RDPMC: counters 0 and 1 on a Pentium with MMX technology; #GP for
 *   other indices; #UD on a Pentium without it (no RDPMC instruction).
 *   CR4.PCE at CPL 3 is the model layer's (pmu/model.c).
 */
#include "regs.h"
#include "events.h"
#include "model.h"
#include "../backend.h"
#include "../detect.h"
#include "../emufault.h"
#include "../../arch/x86/trap.h"

static struct {
	uint32_t cesr;
	uint64_t ctr[P5_COUNTERS];
	int mmx;
	/* each half of cesr and its event (NULL: none the table has),
	 * worked out when CESR is written, not at every step */
	struct p5_half half[P5_COUNTERS];
	const struct p5_event *ev[P5_COUNTERS];
} m;

/* CESR was written (or reset): its halves and their events, once. */
static void decode_cesr(void)
{
	for (unsigned c = 0; c < P5_COUNTERS; c++) {
		m.half[c] = cesr_get_half(m.cesr, c);
		m.ev[c] = p5_event_for(m.half[c].es, c, m.mmx);
	}
}

static void p5m_reset(void)
{
	m.cesr = 0;
	m.ctr[0] = m.ctr[1] = 0;
	m.mmx = p5_is_mmx_cpu(&cpu_info()->sig);
	decode_cesr();
}

static int p5m_rdmsr(uint32_t msr, uint64_t *v)
{
	switch (msr) {
	case P5_MSR_CESR: *v = m.cesr; return 0;
	case P5_MSR_CTR0: *v = m.ctr[0]; return 0;
	case P5_MSR_CTR1: *v = m.ctr[1]; return 0;
	default: return BE_NOT_MODELLED;
	}
}

/* Does CESR half c count at some CPL (CC not 000 or 100, §18.23.1)? */
static int half_counts(uint32_t cesr, unsigned c)
{
	unsigned cc = cesr_get_half(cesr, c).cc;

	return p5_cc_counts_at(cc, 0) || p5_cc_counts_at(cc, 3);
}

/* EF_ENABLE_PLUS_ONE: a half that starts counting gains 1. */
static void enabled(uint32_t was, uint32_t now)
{
	if (!emufault_on(EF_ENABLE_PLUS_ONE))
		return;
	for (unsigned c = 0; c < P5_COUNTERS; c++)
		if (!half_counts(was, c) && half_counts(now, c))
			m.ctr[c] = (m.ctr[c] + 1) & emufault_width(P5_CTR_MASK);
}

static int p5m_wrmsr(uint32_t msr, uint64_t v)
{
	switch (msr) {
	case P5_MSR_CESR:
		if (cesr_reserved(v))
			return VEC_GP;
		enabled(m.cesr, (uint32_t)v);
		m.cesr = (uint32_t)v;
		decode_cesr();
		return 0;
	case P5_MSR_CTR0:
	case P5_MSR_CTR1:
		if (v & ~P5_CTR_MASK)
			return VEC_GP;
		m.ctr[msr - P5_MSR_CTR0] = v & emufault_width(P5_CTR_MASK);
		return 0;
	default:
		return BE_NOT_MODELLED;
	}
}

static int p5m_rdpmc(uint32_t idx, uint64_t *v)
{
	if (!m.mmx)
		return VEC_UD;
	if (idx >= P5_COUNTERS)
		return VEC_GP;
	*v = m.ctr[idx];
	return 0;
}

static void p5m_event(const struct insn_event *e)
{
	for (unsigned c = 0; c < P5_COUNTERS; c++) {
		const struct p5_half h = m.half[c];
		const struct p5_event *ev = m.ev[c];
		uint64_t inc;

		if (!emufault_filter(p5_cc_counts_at(h.cc, e->cpl),
				     p5_cc_counts_at(h.cc, 0),
				     p5_cc_counts_at(h.cc, 3), e->cpl))
			continue;
		if (h.cc & P5_CC_CLOCKS)
			inc = ev && p5_duration_modelled(ev) ?
			      sem_steps_with(p5_duration_sem(ev), e) : 0;
		else
			inc = ev ? sem_step_mask(ev->sem, e) : 0;
		inc = emufault_count(inc, e->cpl);
		m.ctr[c] = (m.ctr[c] + inc) & emufault_width(P5_CTR_MASK);
	}
}

/* Its state is m, all of it (model.h: predictions beside the live
 * model save and restore it). */
static unsigned p5m_parts(struct model_part *p)
{
	p[0] = (struct model_part){ &m, sizeof(m) };
	return 1;
}

/* Some counter counts at some CPL: a CESR half whose CC field enables
 * CPL 3 (bit 1) or CPL 0-2 (bit 0); 000 and 100 count nothing
 * (§18.23.1).  backend=emulated traces while this holds. */
static int p5m_counting(void)
{
	for (unsigned c = 0; c < P5_COUNTERS; c++)
		if (half_counts(m.cesr, c))
			return 1;
	return 0;
}

const struct pmu_model p5_model = {
	.kind = PMU_P5,
	.name = "p5 (CESR/CTR0/CTR1, SDM Vol. 3B 18.23.1)",
	.reset = p5m_reset,
	.rdmsr = p5m_rdmsr,
	.wrmsr = p5m_wrmsr,
	.rdpmc = p5m_rdpmc,
	.event = p5m_event,
	.counting = p5m_counting,
	.interrupt_retires = 1,	/* pmu/noise.h */
	.parts = p5m_parts,
};
