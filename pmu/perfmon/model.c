/* pmu/perfmon/model.c: reference model of architectural performance
 * monitoring v1-v5 (regs.h), driven by the oracle's events
 * (pmu/model.h).  It stands in for the PMU perfmon_caps() (caps.h)
 * describes: the
 * CPU's CPUID where it reports one, else the capability table's row for
 * the CPU (QEMU under TCG reports CPUID.0AH as zero).
 *
 * Registers (SDM Vol. 3B, order no. 253669-060US, §18.2; Vol. 4
 * Table 2-2).  An MSR the modelled PMU lacks raises #GP(0), as on
 * hardware; so does a write that sets a reserved bit (Vol. 2B WRMSR).
 *   - IA32_PERFEVTSELx (x < GP counters): the fields of pmu/evtsel.h;
 *     AnyThread only on v3+ without EDX[15]; bits 63:32 reserved (the
 *     TSX qualifiers and adaptive-PEBS bits of later parts are not
 *     modelled).
 *   - IA32_PMCx: a write takes EAX sign-extended to the counter width
 *     (§18.2.6, EDX ignored); IA32_A_PMCx (0x4C1+) exist only with
 *     IA32_PERF_CAPABILITIES bit 13 and take the full width (bits above
 *     it: #GP).  Fixed counters take the full width too (bits above it:
 *     #GP).  Counters wrap to 0 past their width.
 *   - v2+: IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_CTRL (its GP bits are
 *     set at reset, so v1 software counts, §18.2.2), IA32_PERF_GLOBAL_
 *     STATUS (read-only), IA32_PERF_GLOBAL_OVF_CTRL (write 1 to clear;
 *     reads 0).  v4+: the same address is GLOBAL_STATUS_RESET, and
 *     GLOBAL_STATUS_SET (write 1 to set; reads 0) and GLOBAL_INUSE
 *     (read-only: bit n PERFEVTSELn's event select is not 0, bit 32+i
 *     fixed counter i enabled at some CPL, bit 63 some PMI enabled).
 *   - IA32_PERF_CAPABILITIES: read-only, where the PMU has it.
 *   - IA32_DEBUGCTL: LBR (0) turns the LBR stack on (pmu/lbr_model.c, which
 *     answers the LBR registers of this CPU's layout; architectural LBRs
 *     take IA32_LBR_CTL instead, and LBR reads 0 there), BTF (1) is kept
 *     without effect,
 *     FREEZE_LBRS_ON_PMI (11) and FREEZE_PERFMON_ON_PMI (12) act (v2+);
 *     a write of any other bit is not modelled.
 *   - Everything else: not modelled (BE_NOT_MODELLED).
 *
 * Counting, per traced step (one model cycle, or 1 + more identical
 * ones) at the step's CPL: OS counts at CPL 0, USR at CPL 1-3.  A GP
 * counter counts when EN, its GLOBAL_CTRL bit (v2+) and no freeze allow
 * it: the event's per-cycle count through the CMASK/INV/E rule
 * (pmu/evtsel.h).  Fixed counter 0 counts instructions retired, 1 the
 * model clock, 2 the reference clock (SEM_REF_PER_CLOCK per model cycle),
 * 3 (slots) nothing: not modelled.  Events the trace cannot see count
 * nothing.  Steps of the sibling logical processor (model_on_sibling())
 * count only on counters with AnyThread set (v3+).
 *
 * Overflow: a counter that wraps sets its GLOBAL_STATUS bit (v2+); with
 * its INT / PMI bit the model raises a PMI through the local APIC (one
 * the sibling's step raised on an AnyThread counter is owed to this
 * processor and delivered at its next PMU access or step: pmi()),
 * masking LVTPC on delivery as these processors do.  With DEBUGCTL bit 12
 * the PMI freezes the counters: v2/v3 clear GLOBAL_CTRL; v4+ set
 * GLOBAL_STATUS.CTR_FRZ, and counters count nothing while CTR_FRZ is set
 * (§18.2.4.1); with bit 11 v2/v3 clear DEBUGCTL.LBR, v4+ set LBR_FRZ and
 * the LBR stack records nothing while it is set (pmi()).
 *
 * RDPMC: ECX[30] selects the fixed counters; an index past the counters
 * that exist, or other high bits, is #GP(0) (Vol. 2B RDPMC).
 *
 * The DS save area (pmu/perfmon/ds/model.c, docs/pebs.md): IA32_DS_AREA,
 * IA32_PEBS_ENABLE, MSR_PEBS_DATA_CFG, MSR_PEBS_LD_LAT and
 * IA32_MISC_ENABLE's BTS/PEBS bits are the DS model's; IA32_DEBUGCTL
 * takes TR, BTS, BTINT and BTS_OFF_* there.  Per step of this thread: the
 * LBRs (pmu/lbr_model.c) and BTS (pmu/perfmon/bts/model.c)
 * see taken branches; a PEBS counter (IA32_PEBS_ENABLE) that wraps sets
 * its status bit and is armed, and the step of its next event (SDM Vol.
 * 3B §18.8.1.1: "When the counter IA32_PMCx overflows from maximum count
 * to zero, the PEBS hardware is armed.  Upon occurrence of the next PEBS
 * event, the PEBS hardware triggers an assist") ends in the PEBS assist:
 * one record for every armed counter (pmu/perfmon/pebs/model.c), which
 * consumes their status bits and reloads them from the DS reset slots
 * ("the reset value for each overflowed counter is loaded"); writing a
 * counter disarms it; INST_RETIRED.PREC_DIST on PMC1 (precise
 * distribution, Sandy Bridge to Skylake, §18.9.4.4) records in the step
 * that overflowed it instead; the precise
 * events of pmu/perfmon/pebs/events.c count what their table says.  A DS
 * buffer reaching its threshold sets GLOBAL_STATUS bit 62 (v2+) and
 * raises the PMI.  The sibling's steps take no part in any of it.  This
 * file resets each of those parts with its own.
 *
 * Intel PT (pmu/pt/model.h, pmu/pt/model.c): the IA32_RTIT_* MSRs, where the
 * modelled CPU has PT (pt_caps()), are the PT model's; each step of this
 * thread goes to its packet generator (pmu/pt/gen.c) at the model clock.
 */
#include "caps.h"
#include "events.h"
#include "regs.h"
#include "bts/model.h"
#include "ds/model.h"
#include "../lbr_model.h"
#include "lbr/layout.h"
#include "lbr/events.h"
#include "pebs/events.h"
#include "pebs/model.h"
#include "pebs/regs.h"
#include "../pt/caps.h"
#include "../pt/model.h"
#include "model.h"
#include "../backend.h"
#include "../emufault.h"
#include "../sem.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/trap.h"
#include "../../lib/string.h"

static struct {
	const struct perfmon_caps *c;
	uint64_t evtsel[PERFMON_MAX_GP], pmc[PERFMON_MAX_GP];
	uint64_t fixed[PERFMON_MAX_FIXED];
	struct evtsel_edge edge[PERFMON_MAX_GP];
	uint64_t fixed_ctrl, global_ctrl, status, debugctl;
	uint64_t gp_mask, fixed_mask;
	uint64_t pebs_armed;		/* PEBS counters that overflowed and
					 * wait for their next event (GLOBAL
					 * numbering) */
	uint64_t pebs_fire;		/* armed ones that counted it in this
					 * step: the step's assist */
	struct step_regs before;	/* the state the last step left */
	int have_before;
	uint64_t late;			/* EF_OVERFLOW_LATE: counters whose
					 * wrap is signalled at their next
					 * event (GLOBAL numbering) */
	int pmi_owed;			/* raised in a step of the sibling:
					 * this processor's PMI, delivered at
					 * its next PMU access or step */
	/* evtsel[n] decoded and what its event counts (event_sem), worked
	 * out when it is written or the model reset (the capabilities it
	 * depends on change only with a reset), not at every step */
	struct evtsel dec[PERFMON_MAX_GP];
	uint32_t sem[PERFMON_MAX_GP];
	/* GP counters selecting the event that counts LBR records
	 * (lbr/events.h), and that count a call-stack RET's removal too */
	uint32_t lbr_ins, lbr_pops;
	enum lbr_step lbr_step;	/* what this step did to the LBRs */
	/* GP counters with EN: without one no GP counter counts a step
	 * (gp_step()), so the step does not visit them (issue 44) */
	uint32_t gp_en;
} m;

static void pay_owed_pmi(void);
static void decode_evtsel(unsigned n);

static uint64_t bits_mask(unsigned bits)
{
	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* The LBRs of this CPU (lbr/layout.c), empty. */
static void reset_lbrs(void)
{
	struct lbr_layout l;
	const char *why;

	lbr_model_reset(perfmon_lbr_layout(cpu_info(), &l, &why) ? 0 : &l);
}

static void pm_reset(void)
{
	const struct perfmon_caps *c = perfmon_caps(0);

	m = (typeof(m)){ .c = c };
	ds_model_reset(c);
	pebs_model_reset(c);
	reset_lbrs();
	pt_model_reset();
	if (!c)
		return;
	m.gp_mask = bits_mask(c->gp_width);
	m.fixed_mask = bits_mask(c->fixed_width);
	for (unsigned n = 0; n < PERFMON_MAX_GP; n++)
		decode_evtsel(n);
	/* GP enables set at reset (SDM Vol. 3B §18.2.2) */
	if (c->version >= 2)
		m.global_ctrl = bits_mask(c->gp);
}

static const char *pm_cannot(const struct cpu_info *ci)
{
	const char *why = 0;

	(void)ci;
	return perfmon_caps(&why) ? 0 : why;
}

static int is_gp(uint32_t msr, uint32_t base, unsigned *n)
{
	if (msr < base || msr >= base + PERFMON_MAX_GP)
		return 0;
	*n = msr - base;
	return 1;
}

static uint64_t inuse(void)
{
	uint64_t v = 0, pmi = 0;

	for (unsigned n = 0; n < m.c->gp; n++) {
		if (m.evtsel[n] & EVTSEL_EVENT_MASK)
			v |= 1ull << n;
		pmi |= m.evtsel[n] & EVTSEL_INT;
	}
	for (unsigned i = 0; i < PERFMON_MAX_FIXED; i++) {
		unsigned f = FIXED_CTRL_FIELD(m.fixed_ctrl, i);

		if (f & (FIXED_CTRL_OS | FIXED_CTRL_USR))
			v |= 1ull << (GLOBAL_FIXED_SHIFT + i);
		pmi |= f & FIXED_CTRL_PMI;
	}
	/* PMI_InUse also for "IA32_PEBS_ENABLE.PEBS_EN_PMCn" (§18.2.4.3) */
	pmi |= pebs_model_enable() & bits_mask(m.c->gp);
	return v | (pmi ? 1ull << 63 : 0);
}

/* The GLOBAL_STATUS bits that no counter of the model sets but software
 * may clear (OVF_CTRL, v4: STATUS_RESET) or, v4, set (STATUS_SET, when
 * set is 1), SDM Vol. 4 Table 2-2: Ovf_Uncore (bit 61; clear: "introduced
 * at 06_2EH", Nehalem's v3; set: v4), ASCI (60, v4) and Trace_ToPA_PMI
 * (55; clear: where CPUID.07H:EBX[25] gives Intel PT, set: v4). */
static uint64_t status_extra_bits(int set)
{
	uint64_t v = 0;

	if (m.c->version >= 3)
		v |= GLOBAL_STATUS_OVF_UNCORE;
	if (m.c->version >= 4)
		v |= GLOBAL_STATUS_ASCI;
	if (set ? m.c->version >= 4 : pt_caps(0) != 0)
		v |= GLOBAL_STATUS_TRACE_TOPA_PMI;
	return v;
}

/* Counter widths as the model keeps them (EF_WRAP_32: 32 bits). */
static uint64_t gp_mask(void)
{
	return emufault_width(m.gp_mask);
}

static uint64_t fixed_mask(void)
{
	return emufault_width(m.fixed_mask);
}

/* EF_ENABLE_PLUS_ONE: a counter gains 1 when it is enabled. */
static void plus_one(uint64_t *ctr, uint64_t mask, int was, int now)
{
	if (emufault_on(EF_ENABLE_PLUS_ONE) && !was && now)
		*ctr = (*ctr + 1) & mask;
}

/* The fixed counters a FIXED_CTR_CTRL write enables (OS or USR). */
static void fixed_enabled(uint64_t v)
{
	const unsigned at = FIXED_CTRL_OS | FIXED_CTRL_USR;

	for (unsigned i = 0; i < PERFMON_MAX_FIXED; i++)
		plus_one(&m.fixed[i], fixed_mask(),
			 !!(FIXED_CTRL_FIELD(m.fixed_ctrl, i) & at),
			 !!(FIXED_CTRL_FIELD(v, i) & at));
}

/* The v2+ global registers: 0 and *v, #GP, or 1 when msr is not one. */
static int global_rd(uint32_t msr, uint64_t *v)
{
	unsigned v4 = m.c->version >= 4;

	switch (msr) {
	case MSR_IA32_FIXED_CTR_CTRL: *v = m.fixed_ctrl; return 0;
	case MSR_IA32_PERF_GLOBAL_CTRL: *v = m.global_ctrl; return 0;
	case MSR_IA32_PERF_GLOBAL_STATUS:
		*v = m.status;
		/* EF_STATUS_READ_CLEARS: the counters' overflow bits */
		if (emufault_on(EF_STATUS_READ_CLEARS))
			m.status &= ~perfmon_global_counters(m.c);
		return 0;
	case MSR_IA32_PERF_GLOBAL_OVF_CTRL: *v = 0; return 0;
	case MSR_IA32_PERF_GLOBAL_STATUS_SET: *v = 0; return v4 ? 0 : VEC_GP;
	case MSR_IA32_PERF_GLOBAL_INUSE: *v = v4 ? inuse() : 0;
		return v4 ? 0 : VEC_GP;
	default: return 1;
	}
}

static int global_wr(uint32_t msr, uint64_t v)
{
	uint64_t status = perfmon_status_bits(m.c);
	unsigned v4 = m.c->version >= 4;

	switch (msr) {
	case MSR_IA32_FIXED_CTR_CTRL:
		if (v & ~perfmon_fixed_ctrl_valid(m.c))
			return VEC_GP;
		fixed_enabled(v);
		m.fixed_ctrl = v;
		return 0;
	case MSR_IA32_PERF_GLOBAL_CTRL:
		if (v & ~perfmon_global_counters(m.c))
			return VEC_GP;
		m.global_ctrl = v;
		return 0;
	case MSR_IA32_PERF_GLOBAL_STATUS:
		return VEC_GP;
	case MSR_IA32_PERF_GLOBAL_OVF_CTRL:
		if (v & ~(status | status_extra_bits(0)))
			return VEC_GP;
		m.status &= ~v;
		return 0;
	case MSR_IA32_PERF_GLOBAL_STATUS_SET:
		/* CondChgd is the processor's alone (§18.2.4.2) */
		if (!v4 || (v & ~((status | status_extra_bits(1)) &
				  ~GLOBAL_STATUS_COND_CHGD)))
			return VEC_GP;
		m.status |= v;
		return 0;
	case MSR_IA32_PERF_GLOBAL_INUSE:
		return VEC_GP;
	default:
		return 1;
	}
}

static int fixed_index(uint32_t msr, unsigned *i)
{
	if (msr < MSR_IA32_FIXED_CTR(0) ||
	    msr >= MSR_IA32_FIXED_CTR(PERFMON_MAX_FIXED))
		return 0;
	*i = msr - MSR_IA32_FIXED_CTR(0);
	return 1;
}

/* v1 has none of the v2+ registers (FIXED_CTR_CTRL .. GLOBAL_INUSE). */
static int v1_absent(uint32_t msr)
{
	return msr >= MSR_IA32_FIXED_CTR_CTRL &&
	       msr <= MSR_IA32_PERF_GLOBAL_INUSE ? VEC_GP : BE_NOT_MODELLED;
}

static uint64_t debugctl_valid(void)
{
	return DEBUGCTL_LBR | DEBUGCTL_BTF | ds_model_debugctl_bits() |
	       (m.c->version >= 2 ? DEBUGCTL_FREEZE_LBRS_ON_PMI |
				    DEBUGCTL_FREEZE_PERFMON_ON_PMI : 0);
}

static int pm_rdmsr(uint32_t msr, uint64_t *v)
{
	unsigned n;
	int r;

	if (!m.c)
		return BE_NOT_MODELLED;
	pay_owed_pmi();
	r = ds_model_rdmsr(msr, v);
	if (r != 1)
		return r;
	r = lbr_model_rdmsr(msr, v);
	if (r != 1)
		return r;
	r = pebs_model_rdmsr(msr, v);
	if (r != 1)
		return r;
	r = pt_model_rdmsr(msr, v);
	if (r != 1)
		return r;
	if (is_gp(msr, MSR_IA32_PERFEVTSEL(0), &n)) {
		*v = m.evtsel[n];
		return n < m.c->gp ? 0 : VEC_GP;
	}
	if (is_gp(msr, MSR_IA32_PMC(0), &n) ||
	    (perfmon_full_width(m.c) && is_gp(msr, MSR_IA32_A_PMC(0), &n))) {
		*v = m.pmc[n];
		return n < m.c->gp ? 0 : VEC_GP;
	}
	if (is_gp(msr, MSR_IA32_A_PMC(0), &n))
		return VEC_GP;
	if (fixed_index(msr, &n)) {
		*v = m.fixed[n];
		return perfmon_fixed_exists(m.c, n) ? 0 : VEC_GP;
	}
	if (msr == MSR_IA32_PERF_CAPABILITIES) {
		/* The row's value but PERF_METRICS (bit 15): the model has
		 * no TopDown metrics (no PERF_METRICS MSR 329H, no GLOBAL_CTRL
		 * bit 48, no RDPMC of them), so it does not advertise them
		 * (docs/perfmon.md). */
		*v = m.c->perf_caps & ~PERF_CAP_PERF_METRICS;
		return m.c->has_perf_caps ? 0 : VEC_GP;
	}
	if (msr == MSR_PERF_METRICS)
		return VEC_GP;
	if (msr == MSR_IA32_DEBUGCTL) {
		*v = m.debugctl;
		return 0;
	}
	if (m.c->version < 2)
		return v1_absent(msr);
	r = global_rd(msr, v);
	return r == 1 ? BE_NOT_MODELLED : r;
}

static int evtsel_wr(unsigned n, uint64_t v)
{
	if (n >= m.c->gp || (v & ~perfmon_evtsel_valid(m.c)))
		return VEC_GP;
	plus_one(&m.pmc[n], gp_mask(), !!(m.evtsel[n] & EVTSEL_EN),
		 !!(v & EVTSEL_EN));
	m.evtsel[n] = v;
	decode_evtsel(n);
	evtsel_idle(&m.edge[n]);
	return 0;
}

static int pm_wrmsr(uint32_t msr, uint64_t v)
{
	unsigned n;
	int r;

	if (!m.c)
		return BE_NOT_MODELLED;
	pay_owed_pmi();
	r = ds_model_wrmsr(msr, v);
	if (r != 1)
		return r;
	r = lbr_model_wrmsr(msr, v);
	if (r != 1)
		return r;
	r = pebs_model_wrmsr(msr, v);
	if (r != 1)
		return r;
	r = pt_model_wrmsr(msr, v);
	if (r != 1)
		return r;
	if (is_gp(msr, MSR_IA32_PERFEVTSEL(0), &n))
		return evtsel_wr(n, v);
	if (is_gp(msr, MSR_IA32_PMC(0), &n)) {
		if (n >= m.c->gp)
			return VEC_GP;
		/* EAX sign-extended (§18.2.6); EF_NO_SIGN_EXTEND: EAX */
		m.pmc[n] = emufault_on(EF_NO_SIGN_EXTEND) ? (uint32_t)v :
			   (uint64_t)(int64_t)(int32_t)(uint32_t)v;
		m.pmc[n] &= gp_mask();
		m.pebs_armed &= ~(1ull << n);
		m.late &= ~(1ull << n);
		return 0;
	}
	if (is_gp(msr, MSR_IA32_A_PMC(0), &n)) {
		if (!perfmon_full_width(m.c) || n >= m.c->gp ||
		    (v & ~m.gp_mask))
			return VEC_GP;
		m.pmc[n] = v & gp_mask();
		m.pebs_armed &= ~(1ull << n);
		m.late &= ~(1ull << n);
		return 0;
	}
	if (fixed_index(msr, &n)) {
		if (!perfmon_fixed_exists(m.c, n) || (v & ~m.fixed_mask))
			return VEC_GP;
		m.fixed[n] = v & fixed_mask();
		m.pebs_armed &= ~(1ull << (GLOBAL_FIXED_SHIFT + n));
		m.late &= ~(1ull << (GLOBAL_FIXED_SHIFT + n));
		return 0;
	}
	if (msr == MSR_IA32_PERF_CAPABILITIES || msr == MSR_PERF_METRICS)
		return VEC_GP;
	if (msr == MSR_IA32_DEBUGCTL) {
		if (v & ~debugctl_valid())
			return BE_NOT_MODELLED;
		/* with architectural LBRs DEBUGCTL.LBR takes a write and
		 * reads 0 (IA32_LBR_CTL enables them; Intel's Architectural
		 * LBR specification as the KVM Arch-LBR series quotes it) */
		m.debugctl = m.c->arch_lbr ? v & ~DEBUGCTL_LBR : v;
		return 0;
	}
	if (m.c->version < 2)
		return v1_absent(msr);
	r = global_wr(msr, v);
	return r == 1 ? BE_NOT_MODELLED : r;
}

static int pm_rdpmc(uint32_t idx, uint64_t *v)
{
	unsigned n = idx & ~RDPMC_FIXED;

	if (!m.c)
		return VEC_GP;
	pay_owed_pmi();
	if (idx & RDPMC_FIXED) {
		if (n >= PERFMON_MAX_FIXED || !perfmon_fixed_exists(m.c, n))
			return VEC_GP;
		*v = m.fixed[n];
		return 0;
	}
	if (n >= m.c->gp)
		return VEC_GP;
	*v = m.pmc[n];
	return 0;
}

/* ---- counting */

static int frozen(void)
{
	return m.c->version >= 4 && (m.status & GLOBAL_STATUS_CTR_FRZ);
}

static int global_on(unsigned bit)
{
	return m.c->version < 2 || (m.global_ctrl >> bit & 1) ||
	       emufault_on(EF_GLOBAL_CTRL_IGNORED);
}

/* Adds inc to *ctr of width mask; 1 when it wrapped.  Counter bit (GLOBAL
 * numbering) under EF_OVERFLOW_LATE: a wrap is held, and signalled at
 * the counter's next event. */
static int add(uint64_t *ctr, uint64_t inc, uint64_t mask, unsigned bit)
{
	uint64_t before = *ctr & mask;
	int late = inc && (m.late >> bit & 1), wrapped;

	*ctr = (before + inc) & mask;
	wrapped = inc && (inc > mask - before);
	if (inc)
		m.late &= ~(1ull << bit);
	if (wrapped && emufault_on(EF_OVERFLOW_LATE)) {
		m.late |= 1ull << bit;
		wrapped = 0;
	}
	return wrapped || late;
}

/* What an event select / unit mask counts: an architectural event, or a
 * precise event of this microarchitecture (pmu/perfmon/pebs/events.c); 0:
 * nothing the trace sees. */
static uint32_t event_sem(const struct evtsel *s, enum pebs_data *data)
{
	const struct perfmon_event *ev = perfmon_event_of(m.c, s->event,
							  s->umask);
	const struct pebs_event *pe = 0;

	if (pebs_model_has_pebs())
		pe = pebs_event_for(pebs_events_uarch(m.c), s->event,
				    s->umask);
	if (data)
		*data = pe ? pe->data : PEBS_DATA_NONE;
	return ev ? ev->sem : pe ? pe->sem : 0;
}

static void decode_evtsel(unsigned n)
{
	const struct perfmon_lbr_event *l = m.c ?
		perfmon_lbr_event_for(m.c->uarch) : 0;
	int ins;

	m.dec[n] = evtsel_decode(m.evtsel[n]);
	m.sem[n] = event_sem(&m.dec[n], 0);
	m.gp_en = (m.gp_en & ~(1u << n)) | (uint32_t)!!m.dec[n].en << n;
	ins = l && m.dec[n].event == l->event && m.dec[n].umask == l->umask;
	m.lbr_ins = (m.lbr_ins & ~(1u << n)) | (uint32_t)ins << n;
	m.lbr_pops = (m.lbr_pops & ~(1u << n)) |
		     (uint32_t)(ins && l->counts_pops) << n;
}

/* Counter n's LBR records of this step (lbr/events.h). */
static uint64_t lbr_records(unsigned n)
{
	if (!(m.lbr_ins >> n & 1))
		return 0;
	return m.lbr_step == LBR_STEP_PUSHED ||
	       (m.lbr_step == LBR_STEP_POPPED && (m.lbr_pops >> n & 1));
}

/* A counter (GLOBAL numbering) wrapped: its status bit (v2+; fixed
 * counters exist from v2); on this thread a PEBS counter is armed, and
 * when it counted past the wrap in this step (value, after it, not 0)
 * its next event is already here; a precise-distribution counter (pdir)
 * records in the overflowing step itself. */
static void overflowed(unsigned bit, int sibling, uint64_t value, int pdir)
{
	if (m.c->version >= 2)
		m.status |= 1ull << bit;
	if (sibling || !(pebs_model_enable() >> bit & 1))
		return;
	m.pebs_armed |= 1ull << bit;
	/* EF_PEBS_EARLY: the record at the overflowing event itself */
	if (value || pdir || emufault_on(EF_PEBS_EARLY))
		m.pebs_fire |= 1ull << bit;
}

/* GP counter n's PEBS record is for the instruction that caused the
 * overflow: INST_RETIRED.PREC_DIST on PMC1, precise distribution (SDM
 * Vol. 3B §18.9.4.4); every precise event on the counters
 * pebs_overflow_record_counters() names: PMC0 on Sapphire Rapids
 * ("PDist", no "wait for next occurrence") and on Tremont (reduced-skid
 * PEBS; pmu/perfmon/pebs/events.c cites both). */
static int pdir_counter(unsigned n, const struct evtsel *s)
{
	const struct pebs_event *pe;
	enum perfmon_uarch u;

	if (!pebs_model_has_pebs())
		return 0;
	u = pebs_events_uarch(m.c);
	pe = pebs_event_for(u, s->event, s->umask);
	if (!pe)
		return 0;
	return (pe->pdir && n == 1) ||
	       (pebs_overflow_record_counters(u) >> n & 1);
}

/* Counter bit counted inc events in the step: an armed PEBS counter's
 * next event is the assist's (SDM Vol. 3B §18.8.1.1). */
static void pebs_next_event(unsigned bit, uint64_t inc, int sibling)
{
	if (inc && !sibling && (m.pebs_armed >> bit & 1))
		m.pebs_fire |= 1ull << bit;
}

/* One GP counter over a step; returns 1 when it asks for a PMI. */
static int gp_step(unsigned n, const struct insn_event *e, int sibling)
{
	const struct evtsel s = m.dec[n];
	int at = emufault_filter(e->cpl ? s.usr : s.os, s.os, s.usr, e->cpl);
	uint64_t inc;

	if (sibling && !s.any)
		return 0;
	if (!s.en || !global_on(n) || frozen() || !at) {
		evtsel_idle(&m.edge[n]);
		return 0;
	}
	inc = evtsel_cycles(&s, &m.edge[n],
			    sem_once_mask(m.sem[n], e) + lbr_records(n),
			    1 + (uint64_t)e->more);
	inc = emufault_count(inc, e->cpl);
	pebs_next_event(n, inc, sibling);
	if (!add(&m.pmc[n], inc, gp_mask(), n))
		return 0;
	overflowed(n, sibling, m.pmc[n], pdir_counter(n, &s));
	return s.intr;
}

/* The event fixed counter i counts: EF_FIXED_SWAPPED gives counter 1
 * the reference clock and counter 2 the core clock (SDM Vol. 3B
 * §18.2.2, Table 18-2: 1 is CPU_CLK_UNHALTED.CORE, 2 .REF). */
static const struct perfmon_event *fixed_event(unsigned i)
{
	if (emufault_on(EF_FIXED_SWAPPED) && (i == 1 || i == 2))
		i = 3 - i;
	return perfmon_fixed_event(i);
}

/* Fixed counter i's PEBS record is for the instruction that caused the
 * overflow: fixed counter 0 from Ice Lake on, where precise distribution
 * moved from PMC1 to IA32_FIXED_CTR0, and on Tremont, whose reduced-skid
 * PEBS covers it (pebs_overflow_record_counters(); pebs/events.c). */
static int fixed_pdir(unsigned i)
{
	if (!pebs_model_has_pebs())
		return 0;
	return pebs_overflow_record_counters(pebs_events_uarch(m.c)) >>
	       (GLOBAL_FIXED_SHIFT + i) & 1;
}

/* Every fixed counter's OS and USR bits in IA32_FIXED_CTR_CTRL. */
#define FIXED_CTRL_ENABLES ((uint64_t)0x3333333333333333ull & \
			    ((1ull << (FIXED_CTRL_BITS * PERFMON_MAX_FIXED)) - 1))

static int fixed_step(unsigned i, const struct insn_event *e, int sibling)
{
	unsigned f = FIXED_CTRL_FIELD(m.fixed_ctrl, i);
	const struct perfmon_event *ev = fixed_event(i);
	int at = emufault_filter(!!(f & (e->cpl ? FIXED_CTRL_USR :
					      FIXED_CTRL_OS)),
				 !!(f & FIXED_CTRL_OS),
				 !!(f & FIXED_CTRL_USR), e->cpl);
	uint64_t inc;

	if (!perfmon_fixed_exists(m.c, i) || !at || frozen() ||
	    !global_on(GLOBAL_FIXED_SHIFT + i) ||
	    (sibling && !(f & FIXED_CTRL_ANY)))
		return 0;
	inc = emufault_count(sem_step_mask(ev->sem, e), e->cpl);
	pebs_next_event(GLOBAL_FIXED_SHIFT + i, inc, sibling);
	if (!add(&m.fixed[i], inc, fixed_mask(), GLOBAL_FIXED_SHIFT + i))
		return 0;
	overflowed(GLOBAL_FIXED_SHIFT + i, sibling, m.fixed[i],
		   fixed_pdir(i));
	return !!(f & FIXED_CTRL_PMI);
}

/* The PMI, and with DEBUGCTL.FREEZE_PERFMON_ON_PMI the freeze. */
/* The PMI of an overflow: the freeze at once; the interrupt to "the
 * logical processor that programmed the counter" (SDM Vol. 3B 18.2.3,
 * AnyThread), which is this one also when the sibling's event made an
 * AnyThread counter overflow: from a sibling's step it is owed, and
 * delivered here at this processor's next PMU access or step (the
 * model runs on the processor whose step it is, and the LVTPC is this
 * processor's). */
static void pmi(int sibling)
{
	if ((m.debugctl & DEBUGCTL_FREEZE_PERFMON_ON_PMI) &&
	    !emufault_on(EF_FREEZE_IGNORED)) {
		if (m.c->version >= 4)
			m.status |= GLOBAL_STATUS_CTR_FRZ;
		else
			m.global_ctrl = 0;
	}
	/* Freeze_LBRs_On_PMI (SDM Vol. 3B 17.4.7): v2/v3 ("legacy") clear
	 * IA32_DEBUGCTL.LBR; v4+ set LBR_Frz, "LBRs are frozen" while it is
	 * set (Vol. 4 Table 2-2), DEBUGCTL left as it was (18.2.4.1). */
	if (m.debugctl & DEBUGCTL_FREEZE_LBRS_ON_PMI) {
		if (m.c->version >= 4)
			m.status |= GLOBAL_STATUS_LBR_FRZ;
		else
			m.debugctl &= ~DEBUGCTL_LBR;
	}
	if (sibling)
		m.pmi_owed = 1;
	else
		model_raise_pmi(1);
}

static void pay_owed_pmi(void)
{
	if (!m.pmi_owed || model_on_sibling())
		return;
	m.pmi_owed = 0;
	model_raise_pmi(1);
}

/* The Adaptive_Record bits of the counters in mask. */
static uint64_t adaptive_of(uint64_t mask)
{
	uint64_t v = 0;

	for (unsigned n = 0; n < m.c->gp; n++)
		if ((mask >> n & 1) && (m.evtsel[n] & EVTSEL_ADAPTIVE))
			v |= 1ull << n;
	for (unsigned i = 0; i < PERFMON_MAX_FIXED; i++)
		if ((mask >> (GLOBAL_FIXED_SHIFT + i) & 1) &&
		    (m.fixed_ctrl >> (FIXED_CTRL_ADAPTIVE_SHIFT + 4 * i) & 1))
			v |= 1ull << (GLOBAL_FIXED_SHIFT + i);
	return v;
}

/* The data address kind of the lowest GP counter in mask. */
static enum pebs_data data_of(uint64_t mask)
{
	enum pebs_data data = PEBS_DATA_NONE;

	for (unsigned n = 0; n < m.c->gp; n++)
		if (mask >> n & 1) {
			struct evtsel s = evtsel_decode(m.evtsel[n]);

			(void)event_sem(&s, &data);
			break;
		}
	return data;
}

/* The PEBS assist of the step (pmu/perfmon/pebs/model.c writes the
 * record): every armed counter still enabled for PEBS is named, reloads
 * from the DS area and has its overflow consumed (SDM Vol. 3B
 * §18.8.1.1, PEBS CounterX Reset: "the reset value for each overflowed
 * counter is loaded"); 1 when the buffer reached its threshold.  A
 * record dropped past the absolute maximum changes nothing: "Upon
 * successful bounds checks ... clear the counter overflow status, and
 * reload the counter.  If the bounds checks fail, the PEBS will be
 * skipped entirely" (§18.8.1.1); the counters stay armed, so a record
 * is written at their next event once software makes room. */
static int pebs_assist(const struct insn_event *e)
{
	uint64_t hit = m.pebs_armed & pebs_model_enable();
	struct pebs_assist a = {
		.e = e,
		.before = m.have_before && m.before.rip == e->rip ?
			  &m.before : 0,
		.applicable = hit,
		.status = m.status,
		.adaptive = adaptive_of(hit),
		.data = data_of(hit),
		.tsc = rdtsc(),
	};
	uint64_t gp[PERFMON_MAX_GP], fixed[PERFMON_MAX_FIXED];
	int keep = emufault_on(EF_PEBS_NO_RELOAD);
	int full;

	/* EF_PEBS_NO_RELOAD: the record is written, the reload is lost */
	memcpy(gp, m.pmc, sizeof(gp));
	memcpy(fixed, m.fixed, sizeof(fixed));
	full = pebs_model_assist(&a, keep ? gp : m.pmc, keep ? fixed : m.fixed);
	if (full == PEBS_ASSIST_DROPPED)
		return 0;
	for (unsigned n = 0; n < m.c->gp; n++)
		m.pmc[n] &= gp_mask();
	for (unsigned i = 0; i < PERFMON_MAX_FIXED; i++)
		m.fixed[i] &= fixed_mask();
	m.status &= ~hit;
	m.pebs_armed &= ~hit;
	return full;
}

/* A DS buffer reached its interrupt threshold: OvfBuffer (v2+). */
static int buffer_pmi(void)
{
	if (m.c->version >= 2)
		m.status |= GLOBAL_STATUS_OVF_BUF;
	return 1;
}

/* This thread's step: BTS, the PEBS assist (the LBRs took it first). */
static int ds_step(const struct insn_event *e)
{
	int want_pmi = 0;

	if (bts_model_step(e, m.debugctl))
		want_pmi |= buffer_pmi();
	if ((m.pebs_fire & pebs_model_enable()) && pebs_assist(e))
		want_pmi |= buffer_pmi();
	if (e->after) {
		m.before = *e->after;
		m.have_before = 1;
	}
	return want_pmi;
}

static void pm_event(const struct insn_event *e)
{
	int sibling = model_on_sibling(), want_pmi = 0;

	if (!m.c)
		return;
	m.pebs_fire = 0;
	pay_owed_pmi();
	/* the LBRs first: the event that counts their records counts
	 * this step's (lbr_records()) */
	m.lbr_step = sibling ? LBR_STEP_NONE :
		     lbr_model_step(e, m.debugctl,
				    !!(m.status & GLOBAL_STATUS_LBR_FRZ),
				    model_clock());
	/* a counter without EN (or a fixed one without OS and USR) counts
	 * nothing and changes nothing: the step skips them all at once */
	for (unsigned n = 0; m.gp_en && n < m.c->gp; n++)
		want_pmi |= gp_step(n, e, sibling);
	for (unsigned i = 0; (m.fixed_ctrl & FIXED_CTRL_ENABLES) &&
			     i < PERFMON_MAX_FIXED; i++)
		want_pmi |= fixed_step(i, e, sibling);
	if (!sibling) {
		want_pmi |= ds_step(e);
		pt_model_step(e, model_clock());
	}
	if (want_pmi)
		pmi(sibling);
}

/* Some counter counts at some CPL: a GP counter with EN and an OS or USR
 * bit (Figure 18-1), or a fixed counter with its OS or USR bit (Figure
 * 18-2), enabled in GLOBAL_CTRL (v2+, Figure 18-3).  A frozen PMU still
 * has its window open: the freeze ends by a write, not by an event. */
/* Does the model watch the steps now (backend=emulated traces exactly
 * while it does): a counter counts, or branches are recorded (BTS: TR and
 * BTS; the LBRs: DEBUGCTL.LBR; SDM Vol. 3B §17.4.1, §17.4.8), or Intel PT
 * traces (RTIT_CTL.TraceEn with the trace running, SDM Vol. 3C §33.2.8.2
 * in the 2019+ numbering).  A record or packet of silicon may come from
 * any instruction in that span, the driver's own included. */
static int pm_counting(void)
{
	if (!m.c)
		return 0;
	if (lbr_model_recording(m.debugctl, 0) ||
	    (m.debugctl & (DEBUGCTL_TR | DEBUGCTL_BTS)) ==
	    (DEBUGCTL_TR | DEBUGCTL_BTS) || pt_model_tracing())
		return 1;
	for (unsigned n = 0; n < m.c->gp; n++) {
		struct evtsel s = evtsel_decode(m.evtsel[n]);

		if (s.en && (s.os || s.usr) && global_on(n))
			return 1;
	}
	for (unsigned i = 0; i < PERFMON_MAX_FIXED; i++)
		if (perfmon_fixed_exists(m.c, i) &&
		    (FIXED_CTRL_FIELD(m.fixed_ctrl, i) &
		     (FIXED_CTRL_OS | FIXED_CTRL_USR)) &&
		    global_on(GLOBAL_FIXED_SHIFT + i))
			return 1;
	return 0;
}

/* Its state: m and the DS, PEBS, LBR and PT models' (model.h). */
static unsigned pm_parts(struct model_part *p)
{
	p[0] = (struct model_part){ &m, sizeof(m) };
	p[1] = ds_model_part();
	p[2] = pebs_model_part();
	p[3] = lbr_model_part();
	p[4] = pt_model_part();
	return 5;
}

const struct pmu_model perfmon_model = {
	.kind = PMU_ARCH,
	.name = "arch-perfmon v1-v5 (SDM Vol. 3B 18.2)",
	.reset = pm_reset,
	.rdmsr = pm_rdmsr,
	.wrmsr = pm_wrmsr,
	.rdpmc = pm_rdpmc,
	.event = pm_event,
	.counting = pm_counting,
	.interrupt_retires = 1,	/* pmu/noise.h */
	.cannot_model = pm_cannot,
	.parts = pm_parts,
};
