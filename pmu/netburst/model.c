/* pmu/netburst/model.c: reference model of the NetBurst (Pentium 4 / Xeon,
 * family 15) PMU - ESCRs, CCCRs and 18 counters - driven by the oracle's
 * events (pmu/model.h).  Citations: SDM Vol. 3B, order no. 253669-060US;
 * the layout and the pure rules are regs.h / regs.c, the event table
 * events.h / events.c, both shared with the driver.
 *
 * Register file: one per physical core, shared by both logical processors
 * (§18.16): a step of either thread reads and writes the same counters,
 * CCCRs and ESCRs.  Reset (model_activate): everything 0 ("The CCCRs are
 * initialized to all 0s on reset", §18.15.3).
 * - Counters 0x300-0x311: 40 bits (§18.15.2).  A write takes bits 39:0
 *   and ignores 63:40: oprofile (Linux 2.6 op_model_p4.c) and perfctr
 *   wrote every reset value as -(u32)count with EDX = -1 on real
 *   Pentium 4s, which a #GP would have stopped.  Counts wrap from
 *   2^40 - 1 to 0.  A write leaves OVF and a pending PMI as they are.
 * - CCCRs 0x360-0x371 (§18.15.3, Figure 18-46; §18.16.2, Figure 18-48):
 *   read back as written.  #GP(0) for NB_CCCR_RESERVED, for bit 11
 *   except where extended cascading exists (nb_ext_cascade_exists(),
 *   §18.15.5.7: see Counting), and for OVF_PMI_T1
 *   (bit 27) without Hyper-Threading.  An active-thread field other than
 *   11B without HT ("must be set to 11B") is kept and applied as written.
 *   OVF (bit 31) is kept as written: it is "a sticky flag that must be
 *   explicitly cleared by software", which clears it by writing the CCCR
 *   with OVF = 0; the model's choice is that writing OVF = 1 sets it
 *   (what a cascaded counter then sees, see below).  A write also starts
 *   the counter's edge detector afresh (deasserted) and, when it leaves
 *   OVF clear, cancels a PMI still pending from the overflow it
 *   acknowledges (model choice, see PMI below).
 * - ESCRs (§18.15.1, Figure 18-45; §18.16.1, Figure 18-47): those of
 *   nb_escrs[] that this model number has.  #GP(0) for NB_ESCR_RESERVED
 *   and, without HT, for T1_OS/T1_USR (bits 1:0, reserved there).  Any
 *   other MSR in 0x3A0-0x3E1 - no ESCR there (0x3BF: there is no
 *   SSU_ESCR1), or IQ_ESCR0/1 on models 3 and later (Table 18-63) - reads
 *   and writes as #GP(0), as an absent MSR does.  TAG_ENABLE and the tag
 *   value are kept without effect: the model tags no uops (§18.15.6).
 * - IA32_MISC_ENABLE (0x1A0) reads NB_MISC_PERFMON | NB_MISC_BTS_UNAVAIL
 *   | NB_MISC_PEBS_UNAVAIL (SDM Vol. 4 Table 2-2: bit 7 performance
 *   monitoring available, bits 11/12 BTS/PEBS unavailable: the model has
 *   neither); a write is not modelled.  Every other MSR answers
 *   BE_NOT_MODELLED, PEBS_ENABLE (0x3F1) and PEBS_MATRIX_VERT (0x3F2)
 *   included: no PEBS, no replay tagging.
 * - RDPMC (SDM Vol. 2B RDPMC): ECX[4:0] is the counter (0-17); with
 *   ECX[31] set ("fast" read) EAX = the counter's low 32 bits and EDX =
 *   0, else all 40 bits.  Another ECX bit set, or a counter above 17, is
 *   #GP(0).  The 32-bit counters 18-25 of the 64-bit Xeon MP with L3
 *   (Vol. 2B Table 4-2) are not modelled: the model has no L3.
 *
 * Model clock and threads: one traced step of either logical processor is
 * one clock of the core.  A step is the bootstrap processor's or, when
 * model_on_sibling() says so, its sibling's; which of them is logical
 * processor 0 (the T0 bits) and which 1 is the SMT bit of the BSP's
 * initial APIC ID (nb_bsp_thread(), Vol. 3A §8.4.5), not an assumption.
 * Active logical processors (§18.16.2: a halted processor, or one
 * waiting for a SIPI, is inactive): the executing one, and the other
 * when it executes as well.  That is an
 * input, not a convention: a step of the sibling has both active (the
 * BSP waits in the firmware's StartupThisAP loop, executing); a step of
 * the BSP has both while the sibling spins in harness code
 * (smp_sibling_spinning(), arch/x86/smp.h), one while the firmware keeps
 * the sibling parked (HLT); without HT there is one, always.  The CCCR's
 * active-thread field then passes: 00 never (no clock has none active),
 * 01 with one, 10 with both, 11 with at least one.
 *
 * Counting, per clock and per counter: the counter counts when ENABLE is
 * set (§18.15.3) or when CASCADE is set and the OVF flag of its alternate
 * (nb_cascade_from(), §18.15.5.6) was set at the start of the clock, and
 * its active-thread field passes.  So a cascaded counter starts on the
 * clock after its alternate overflowed, and halts both ways §18.15.5.5
 * gives: clear its CASCADE, or clear the alternate's OVF.  Extended
 * cascading (§18.15.5.7, Table 18-65) is the same with bit 11 in place
 * of CASCADE and nb_ext_cascade_from() in place of the alternate
 * (CASCNT4INTO0: 16 starts 12; CASCNT5INTO3: 17 starts 15; CASCNT5INTO4:
 * 17 starts 16; CASCNT4INTO5: 16 starts 17); the bit exists only where
 * nb_ext_cascade_exists() says (else a write of it is #GP).  Its ESCR is nb_escr_for(counter,
 * ESCR select); the ESCR delivers n = the event table's count for one
 * single step (nb_event_step()) when its event select names an event of
 * that ESCR, every event-mask bit set is modelled, and the ESCR's OS/USR
 * flag of the executing thread (T0_* or T1_*; without HT bits 3/2) is set
 * for the step's CPL (nb_escr_counts_at()); else - an ESCR select that
 * names no ESCR included - n = 0.  An event or event-mask bit the trace
 * cannot see (NB_NOT_MODELLED) thus delivers 0 every clock: it counts
 * nothing, and COMPLEMENT with threshold 0 counts every clock (documented
 * model convention).  Events the SDM counts for both threads whatever T0/T1 say
 * (§18.16.1) are counted per thread.  The CCCR turns n into the
 * increment (§18.15.3, nb_cccr_filter()): n itself without COMPARE; with
 * COMPARE 1 when n > THRESHOLD (COMPLEMENT: n <= THRESHOLD), with EDGE
 * only on a clock where that became true.  The edge detector is clocked
 * only while the counter counts.  An aggregated step (e->more further
 * identical steps) is that many clocks, each filtered on its own.
 *
 * Overflow and PMI (§18.15.3, §18.16.2): a counter that wraps overflows; with
 * FORCE_OVF, which "forces a counter overflow on every counter
 * increment", so does every clock in which it increments.  Overflow sets
 * OVF (sticky).  With OVF_PMI_T0 / OVF_PMI_T1 set it owes a PMI to thread
 * 0 / 1 - except on the CPUs of the erratum "performance counters do not
 * generate PMI in cascade mode or extended cascade mode" (§18.15.5.7,
 * nb_cascade_pmi_erratum()) when its CCCR has CASCADE or bit 11 set.
 * "The PMI is generated on the next event count after the counter has
 * overflowed": the model raises it at the counter's next clock with an
 * increment of 1 or more - a later clock: counts after the wrap within the
 * same clock do not raise it, the model's resolution being one clock.
 * Its threads are the OVF_PMI bits at the overflow.  The model can only
 * interrupt the processor that executes the step: model_raise_pmi(1),
 * which masks the LVTPC on delivery as NetBurst does, once per clock for
 * all the counters whose PMI that clock raises, after the clock's counts
 * (so a handler finds the count that raised it, and OVF set again with
 * FORCE_OVF).  A PMI due to the other thread (not executing traced code)
 * is dropped (model limit).  A
 * PMI still pending when software writes the CCCR with OVF clear is
 * cancelled: the write acknowledges that overflow (model choice; the SDM
 * does not say).
 * The request is a level, not an edge: once raised it stays asserted
 * while the counter's OVF and its OVF_PMI bit for the thread are set,
 * and the model raises it again at every clock (of that thread) until
 * then; the APIC drops it while the LVTPC is masked (Vol. 3A §10.5.1), so
 * it comes again only when a handler unmasks the LVTPC before clearing
 * OVF.  Source: Linux arch/x86/events/intel/p4.c (p4_pmu_handle_irq()),
 * observed on Pentium 4s: "the NMI line will continue to be asserted
 * while the OVF bit is set.  This causes a second NMI to generate if the
 * LVTPC is unmasked before the OVF bit is cleared".  The SDM does not
 * say level or edge; it says OVF is sticky until software clears it
 * (§18.15.3) and that the service routine must clear the LVTPC mask
 * the delivery set (§18.15.5.8): the model's reading (docs/netburst.md).
 * A counter stopped with OVF set still requests.
 *
 * Not modelled: tagging and at-retirement bogus/non-bogus distinctions
 * beyond what the event table says (NB_ZERO / NB_NOT_MODELLED), PEBS and
 * replay tagging, the thread-independent events above, counters 18-25.
 *
 * CPUs: any family 15 processor.  A model number the SDM does not list
 * (5, 7 and up) behaves as model 6, the last NetBurst - no IQ_ESCR0/1,
 * no cascade-PMI erratum - except that CCCR bit 11 stays reserved there:
 * the model takes every per-model rule from regs.c with the CPU's own
 * signature, as the driver and the tests do, and nb_ext_cascade_exists()
 * grants extended cascading to the models §18.15.5.7 names (2, 3, 4, 6)
 * only.
 */
#include "regs.h"
#include "events.h"
#include "model.h"
#include "../backend.h"
#include "../detect.h"
#include "../emufault.h"
#include "../lbr_model.h"
#include "../model.h"
#include "../../arch/x86/trap.h"
#include "../../arch/x86/smp.h"

#define NB_RDPMC_INDEX 0x1fu
#define NB_RDPMC_FAST (1u << 31)
/* pmi_pending: the threads a counter owes a PMI */
#define PMI_TO(thread) (1u << (thread))

static struct {
	uint64_t ctr[NB_COUNTERS];
	uint64_t cccr[NB_COUNTERS];
	uint64_t escr[NB_ESCRS];		/* by position in nb_escrs[] */
	struct nb_edge edge[NB_COUNTERS];
	uint8_t pmi_pending[NB_COUNTERS];	/* PMI_TO() bits */
	uint8_t pmi_line[NB_COUNTERS];	/* PMI_TO() bits: raised, OVF not
					 * yet cleared (the level) */
	uint32_t late;			/* EF_OVERFLOW_LATE: counters whose
					 * overflow waits for their next
					 * event */
	struct cpu_sig sig;
	int ht;
	unsigned bsp_thread;	/* nb_bsp_thread(): the BSP's T0/T1 */
	uint64_t debugctl;	/* IA32_DEBUGCTL (DEBUGCTLA): LBR, BTF */
} m;

/* One clock of the core: who executes it, how many processors are
 * active. */
struct nb_clock {
	unsigned thread;
	unsigned active;
};

/* The LBRs of this Pentium 4 (regs.c), empty. */
static void reset_lbrs(const struct cpu_info *ci)
{
	struct lbr_layout l;
	const char *why;

	lbr_model_reset(nb_lbr_layout(ci, &l, &why) ? 0 : &l);
}

static void nbm_reset(void)
{
	const struct cpu_info *ci = cpu_info();

	m = (typeof(m)){ .sig = ci->sig, .ht = nb_has_ht(ci),
			 .bsp_thread = nb_bsp_thread(ci) };
	reset_lbrs(ci);
}

/* Every family 15 model: one the SDM does not list behaves as model 6
 * (see the top). */
static const char *nbm_cannot(const struct cpu_info *ci)
{
	if (ci->sig.family != 15)
		return "not a family 15 (NetBurst) processor";
	return 0;
}

/* ---- registers */

static int in_bank(uint32_t msr, uint32_t base, unsigned *n)
{
	if (msr < base || msr >= base + NB_COUNTERS)
		return 0;
	*n = msr - base;
	return 1;
}

/* The slot in m.escr of the ESCR at msr, -1 when this model has none
 * there. */
static int escr_slot(uint32_t msr)
{
	const struct nb_escr *x = nb_escr_at(msr);

	return nb_escr_exists(x, &m.sig) ? (int)(x - nb_escrs) : -1;
}

static int is_escr_range(uint32_t msr)
{
	return msr >= NB_ESCR_FIRST && msr <= NB_ESCR_LAST;
}

static uint64_t cccr_reserved(unsigned c)
{
	uint64_t r = NB_CCCR_RESERVED;

	/* NB_CCCR_RESERVED leaves bit 11 to this test */
	if (!nb_ext_cascade_exists(c, &m.sig))
		r |= NB_CCCR_EXT_CASCADE;
	if (!m.ht)
		r |= NB_CCCR_OVF_PMI_T1;
	return r;
}

static uint64_t escr_reserved(void)
{
	return NB_ESCR_RESERVED | (m.ht ? 0 : NB_ESCR_T1_BITS);
}

static int nbm_rdmsr(uint32_t msr, uint64_t *v)
{
	unsigned n;
	int slot;

	if (in_bank(msr, NB_MSR_COUNTER0, &n)) {
		*v = m.ctr[n];
		return 0;
	}
	if (in_bank(msr, NB_MSR_CCCR0, &n)) {
		*v = m.cccr[n];
		/* EF_STATUS_READ_CLEARS: OVF (bit 31) gone once read */
		if (emufault_on(EF_STATUS_READ_CLEARS))
			m.cccr[n] &= ~NB_CCCR_OVF;
		return 0;
	}
	if (is_escr_range(msr)) {
		slot = escr_slot(msr);
		if (slot < 0)
			return VEC_GP;
		*v = m.escr[slot];
		return 0;
	}
	if (msr == NB_MSR_MISC_ENABLE) {
		*v = NB_MISC_PERFMON | NB_MISC_BTS_UNAVAIL |
		     NB_MISC_PEBS_UNAVAIL;
		return 0;
	}
	if (msr == MSR_IA32_DEBUGCTL) {
		*v = m.debugctl;
		return 0;
	}
	slot = lbr_model_rdmsr(msr, v);
	return slot == 1 ? BE_NOT_MODELLED : slot;
}

static uint64_t ctr_mask(void)
{
	return emufault_width(NB_CTR_MASK);
}

static int cccr_write(unsigned c, uint64_t v)
{
	if (v & cccr_reserved(c))
		return VEC_GP;
	/* EF_ENABLE_PLUS_ONE: the counter gains 1 when ENABLE is set */
	if (emufault_on(EF_ENABLE_PLUS_ONE) && (v & NB_CCCR_ENABLE) &&
	    !(m.cccr[c] & NB_CCCR_ENABLE))
		m.ctr[c] = (m.ctr[c] + 1) & ctr_mask();
	m.cccr[c] = v;
	m.edge[c] = (struct nb_edge){ 0 };
	if (!(v & NB_CCCR_OVF)) {
		m.pmi_pending[c] = 0;
		m.pmi_line[c] = 0;
	}
	return 0;
}

static int nbm_wrmsr(uint32_t msr, uint64_t v)
{
	unsigned n;
	int slot;

	if (in_bank(msr, NB_MSR_COUNTER0, &n)) {
		m.ctr[n] = v & ctr_mask();
		m.late &= ~(1u << n);
		return 0;
	}
	if (in_bank(msr, NB_MSR_CCCR0, &n))
		return cccr_write(n, v);
	if (is_escr_range(msr)) {
		slot = escr_slot(msr);
		if (slot < 0 || (v & escr_reserved()))
			return VEC_GP;
		m.escr[slot] = v;
		return 0;
	}
	if (msr == MSR_IA32_DEBUGCTL) {
		if (v & ~NB_DEBUGCTL_KEPT)
			return BE_NOT_MODELLED;
		m.debugctl = v;
		return 0;
	}
	slot = lbr_model_wrmsr(msr, v);
	return slot == 1 ? BE_NOT_MODELLED : slot;
}

static int nbm_rdpmc(uint32_t idx, uint64_t *v)
{
	unsigned c = idx & NB_RDPMC_INDEX;

	if ((idx & ~(NB_RDPMC_INDEX | NB_RDPMC_FAST)) || c >= NB_COUNTERS)
		return VEC_GP;
	*v = idx & NB_RDPMC_FAST ? (uint32_t)m.ctr[c] : m.ctr[c];
	return 0;
}

/* ---- counting */

static unsigned field(uint64_t v, uint64_t mask, unsigned shift)
{
	return (unsigned)((v & mask) >> shift);
}

/* The ESCR as the model reads its thread bits: under
 * EF_ESCR_THREADS_SWAPPED T0_OS/T0_USR (bits 3:2) and T1_OS/T1_USR (1:0)
 * trade places (the ESCR with Hyper-Threading, SDM Vol. 3B §18.16.1,
 * Figure 18-47, as regs.h cites it). */
static uint64_t escr_threads(uint64_t escr)
{
	if (!emufault_on(EF_ESCR_THREADS_SWAPPED))
		return escr;
	return (escr & ~(NB_ESCR_T0_BITS | NB_ESCR_T1_BITS)) |
	       (escr & NB_ESCR_T0_BITS) >> 2 | (escr & NB_ESCR_T1_BITS) << 2;
}

/* Does the ESCR count thread's events at cpl (with the filter faults). */
static int escr_counts(uint64_t escr, unsigned thread, unsigned cpl)
{
	escr = escr_threads(escr);
	return emufault_filter(nb_escr_counts_at(escr, thread, cpl, m.ht),
			       nb_escr_counts_at(escr, thread, 0, m.ht),
			       nb_escr_counts_at(escr, thread, 3, m.ht), cpl);
}

/* What counter c's ESCR delivers in one clock of step e on thread. */
static uint64_t delivered(unsigned c, const struct insn_event *e,
			  unsigned thread)
{
	unsigned sel = field(m.cccr[c], NB_CCCR_ESCR_SEL_MASK,
			     NB_CCCR_ESCR_SEL_SHIFT);
	const struct nb_escr *x = nb_escr_for(c, sel, &m.sig);
	const struct nb_event *ev;
	struct insn_event one;
	uint64_t escr;
	unsigned emask;

	if (!x)
		return 0;
	escr = m.escr[x - nb_escrs];
	emask = field(escr, NB_ESCR_EMASK_MASK, NB_ESCR_EMASK_SHIFT);
	ev = nb_event_for(x->msr, field(escr, NB_ESCR_EVENT_MASK,
					NB_ESCR_EVENT_SHIFT));
	if (!ev || !nb_emask_modelled(ev, emask) ||
	    !escr_counts(escr, thread, e->cpl))
		return 0;
	if (!e->more)
		return emufault_count(nb_event_step(ev, emask, e), e->cpl);
	one = *e;	/* the count of one clock of an aggregated step */
	one.more = 0;
	return emufault_count(nb_event_step(ev, emask, &one), e->cpl);
}

static int active_passes(uint64_t cccr, unsigned active)
{
	switch (field(cccr, NB_CCCR_ACTIVE_MASK, NB_CCCR_ACTIVE_SHIFT)) {
	case NB_ACTIVE_NONE:
		return active == 0;
	case NB_ACTIVE_SINGLE:
		return active == 1;
	case NB_ACTIVE_BOTH:
		return active == 2;
	default:
		return active >= 1;
	}
}

/* ovf: the counters whose OVF was set at the start of the clock. */
static int counting(unsigned c, uint32_t ovf, unsigned active)
{
	uint64_t cccr = m.cccr[c];
	int from = nb_cascade_from(c), ext = nb_ext_cascade_from(c);

	/* EF_CASCADE_IGNORED: a cascade never starts its counter */
	if (emufault_on(EF_CASCADE_IGNORED))
		from = ext = -1;
	int started = (cccr & NB_CCCR_ENABLE) ||
		      ((cccr & NB_CCCR_CASCADE) && from >= 0 &&
		       (ovf >> from & 1)) ||
		      ((cccr & NB_CCCR_EXT_CASCADE) && ext >= 0 &&
		       (ovf >> ext & 1));

	return started && active_passes(cccr, active);
}

static void raise_pmi(unsigned to, unsigned thread)
{
	/* only the executing processor's APIC is in reach: a PMI owed to
	 * the other thread is dropped (model limit, see the top) */
	if (to & PMI_TO(thread))
		(void)model_raise_pmi(1);
}

static int pmi_suppressed(uint64_t cccr)
{
	return nb_cascade_pmi_erratum(&m.sig) &&
	       (cccr & (NB_CCCR_CASCADE | NB_CCCR_EXT_CASCADE));
}

static void overflowed(unsigned c)
{
	uint64_t cccr = m.cccr[c];
	unsigned to = (cccr & NB_CCCR_OVF_PMI_T0 ? PMI_TO(0) : 0) |
		      (cccr & NB_CCCR_OVF_PMI_T1 ? PMI_TO(1) : 0);

	m.cccr[c] = cccr | NB_CCCR_OVF;
	if (to && !pmi_suppressed(cccr))
		m.pmi_pending[c] = (uint8_t)to;
}

/* The threads whose PMI request is asserted now: a counter whose PMI was
 * raised keeps requesting while its OVF is set and its OVF_PMI bit for
 * that thread is (the level, see the top). */
static unsigned pmi_level(void)
{
	unsigned to = 0;

	for (unsigned c = 0; c < NB_COUNTERS; c++) {
		uint64_t cccr = m.cccr[c];

		if (!m.pmi_line[c] || !(cccr & NB_CCCR_OVF))
			continue;
		to |= m.pmi_line[c] &
		      ((cccr & NB_CCCR_OVF_PMI_T0 ? PMI_TO(0) : 0) |
		       (cccr & NB_CCCR_OVF_PMI_T1 ? PMI_TO(1) : 0));
	}
	return to;
}

/* Adds inc to counter c; returns the threads (PMI_TO()) whose PMI, owed
 * from an earlier overflow, this count raises. */
static unsigned add(unsigned c, uint64_t inc)
{
	unsigned due = m.pmi_pending[c];
	uint64_t sum;

	if (!inc)
		return 0;
	m.pmi_pending[c] = 0;
	m.pmi_line[c] |= (uint8_t)due;
	sum = m.ctr[c] + inc;
	m.ctr[c] = sum & ctr_mask();
	if (m.late >> c & 1) {
		m.late &= ~(1u << c);
		overflowed(c);
	}
	if (sum > ctr_mask() || (m.cccr[c] & NB_CCCR_FORCE_OVF)) {
		/* EF_OVERFLOW_LATE: OVF and the PMI at the next event */
		if (emufault_on(EF_OVERFLOW_LATE))
			m.late |= 1u << c;
		else
			overflowed(c);
	}
	return due;
}

/* One clock for the counters in live, whose ESCRs deliver n[]. */
static void tick(const struct nb_clock *k, uint32_t live, const uint64_t *n)
{
	uint32_t ovf = 0;
	unsigned due = 0;

	for (unsigned c = 0; c < NB_COUNTERS; c++)
		if (m.cccr[c] & NB_CCCR_OVF)
			ovf |= 1u << c;
	for (unsigned c = 0; c < NB_COUNTERS; c++) {
		if (!(live >> c & 1) || !counting(c, ovf, k->active))
			continue;
		due |= add(c, nb_cccr_filter(m.cccr[c], &m.edge[c], n[c]));
	}
	/* after the clock's counts: an NMI is taken inside the raise.  A
	 * request still asserted from an earlier clock raises again: the
	 * APIC delivers it if the LVTPC is unmasked (a handler that
	 * unmasked before clearing OVF), else drops it */
	due |= pmi_level();
	if (due)
		raise_pmi(due, k->thread);
}

static void nbm_event(const struct insn_event *e)
{
	int sibling = model_on_sibling();
	struct nb_clock k = { .thread = sibling ? !m.bsp_thread :
					      m.bsp_thread };
	uint64_t n[NB_COUNTERS] = { 0 };
	uint32_t live = 0;

	k.active = 1 + (m.ht && (sibling || smp_sibling_spinning()));
	if (!sibling)
		lbr_model_step(e, m.debugctl, 0, model_clock());
	for (unsigned c = 0; c < NB_COUNTERS; c++) {
		if (!(m.cccr[c] & (NB_CCCR_ENABLE | NB_CCCR_CASCADE |
				   NB_CCCR_EXT_CASCADE)))
			continue;
		live |= 1u << c;
		n[c] = delivered(c, e, k.thread);
	}
	if (!live && !pmi_level())
		return;
	for (uint64_t i = 0; i <= e->more; i++)
		tick(&k, live, n);
}

/* Its state is m, all of it (model.h: predictions beside the live
 * model save and restore it). */
static unsigned nbm_parts(struct model_part *p)
{
	p[0] = (struct model_part){ &m, sizeof(m) };
	p[1] = lbr_model_part();
	return 2;
}

/* Does counter c's ESCR count at some CPL for some logical processor:
 * T0_OS/T0_USR (bits 3/2; OS/USR without HT), or with HT T1_OS/T1_USR
 * (bits 1/0) (§18.15.1, §18.16.1)? */
static int escr_counts_somewhere(unsigned c)
{
	unsigned sel = field(m.cccr[c], NB_CCCR_ESCR_SEL_MASK,
			     NB_CCCR_ESCR_SEL_SHIFT);
	const struct nb_escr *x = nb_escr_for(c, sel, &m.sig);
	uint64_t escr;

	if (!x)
		return 0;
	escr = m.escr[x - nb_escrs];
	for (unsigned t = 0; t <= (unsigned)m.ht; t++)
		if (nb_escr_counts_at(escr, t, 0, m.ht) ||
		    nb_escr_counts_at(escr, t, 3, m.ht))
			return 1;
	return 0;
}

/* Counter c counts with one or (HT) two logical processors active. */
static int started_some_clock(unsigned c, uint32_t ovf)
{
	return counting(c, ovf, 1) || (m.ht && counting(c, ovf, 2));
}

/* Some counter counts at some CPL: a CCCR with ENABLE (bit 12), or one
 * whose cascade (CASCADE, bit 30, or extended cascading, bit 11) has
 * started it (its alternate's OVF set, §18.15.5.6-7), whose active-thread
 * field passes some clock, and whose ESCR counts at some CPL for some
 * thread.  backend=emulated traces while this holds. */
static int nbm_counting(void)
{
	uint32_t ovf = 0;

	if (lbr_model_recording(m.debugctl, 0))
		return 1;
	for (unsigned c = 0; c < NB_COUNTERS; c++)
		if (m.cccr[c] & NB_CCCR_OVF)
			ovf |= 1u << c;
	for (unsigned c = 0; c < NB_COUNTERS; c++)
		if (started_some_clock(c, ovf) && escr_counts_somewhere(c))
			return 1;
	return 0;
}

const struct pmu_model netburst_model = {
	.kind = PMU_NETBURST,
	.name = "netburst (ESCR/CCCR, 18 counters, SDM Vol. 3B 18.15-18.16)",
	.reset = nbm_reset,
	.rdmsr = nbm_rdmsr,
	.wrmsr = nbm_wrmsr,
	.rdpmc = nbm_rdpmc,
	.event = nbm_event,
	.cannot_model = nbm_cannot,
	.counting = nbm_counting,
	/* the Pentium 4 counts no interrupt as an instruction (pmu/noise.h) */
	.interrupt_retires = 0,
	.parts = nbm_parts,
};
