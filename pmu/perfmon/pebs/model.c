/* pmu/perfmon/pebs/model.c: the PEBS part of the arch-perfmon reference
 * model (model.h): its registers, and the assist, one record per step in
 * which PEBS counters overflowed, written into the PEBS buffer
 * IA32_DS_AREA points at, with the state the trace carries for that step.
 *
 * The registers (which PMUs have them: the capability rows of
 * pmu/perfmon/caps_table.c; the DS area and IA32_MISC_ENABLE are
 * pmu/perfmon/ds/model.c's):
 *   - IA32_PEBS_ENABLE: where PEBS exists (architectural perfmon v2 or
 *     later with IA32_PERF_CAPABILITIES: Core 2 on); the PEBS counters,
 *     LL_EN (formats 1-3) and, on Sandy Bridge and Ivy Bridge alone,
 *     PS_EN bit 63 (SDM Vol. 3B §18.9.4);
 *   - MSR_PEBS_LD_LAT: formats 1 and later (Nehalem's load latency,
 *     §18.8.1.2), bits 15:0; MSR_PEBS_DATA_CFG: formats 4-5 with
 *     PERF_CAPABILITIES.PEBS_BASELINE (bit 14), the bits of regs.h.
 * One the modelled PMU lacks raises #GP, as do reserved bits (Vol. 2B
 * WRMSR).
 *
 * What the model writes (regs.h has the layouts and citations):
 *   - where: at the PEBS index, when the whole record fits below the
 *     absolute maximum, and the index then advances by the record size;
 *     otherwise nothing at all: no record, no signal (SDM Vol. 3B
 *     §18.8.1.1: "No signaling is generated when PEBS buffer is full"),
 *     no reload and the overflow status bit stays set ("Upon successful
 *     bounds checks ... clear the counter overflow status, and reload
 *     the counter.  If the bounds checks fail, the PEBS will be skipped
 *     entirely");
 *   - when: in the step of the PEBS event after the counter's overflow
 *     (SDM Vol. 3B §18.8.1.1: "When the counter IA32_PMCx overflows from
 *     maximum count to zero, the PEBS hardware is armed.  Upon occurrence
 *     of the next PEBS event, the PEBS hardware triggers an assist and
 *     causes a PEBS record to be written"; pmu/perfmon/model.c arms and
 *     fires), and every overflowed PEBS counter reloads from its DS
 *     counter-reset slot ("the reset value for each overflowed counter is
 *     loaded"); the eventing instruction is the one of that next event;
 *   - RFLAGS, RIP and the GPRs (formats 0-3; the GPR group of formats
 *     4-5): with PERF_CAPABILITIES.PEBS_TRAP (bit 6) the state after the
 *     eventing instruction, RIP that of the next one; without it the
 *     state before it, RIP the eventing instruction's (all zero when the
 *     trace did not deliver the step before);
 *   - 90H (formats 1-2): IA32_PERF_GLOBAL_STATUS at the assist, the
 *     counter's own overflow bit included; (format 3) the PEBS counters
 *     the record is for; the basic group's applicable counters likewise;
 *   - data linear address / memory-info address: the first load (store)
 *     of the step for a precise load (store) event, else 0;
 *   - eventing IP (format 2 on, the basic group's IP): the instruction
 *     that caused the event;
 *   - TSC (format 3, basic group): RDTSC at the assist, inside the #DB
 *     handling of that step;
 *   - XMM group: XMM0-15 as the traced code left them (arch/x86/xmm.h);
 *   - LBR group: the LBR records as their FROM, TO and INFO registers
 *     read, newest first (pmu/lbr_model.c: recorded while DEBUGCTL.LBR,
 *     or IA32_LBR_CTL.LBREn on architectural LBRs);
 *   - the 32-bit DS format (pmu/perfmon/ds/regs.h ds_format64(): no
 *     DTES64 outside IA-32e mode): the 40-byte record {EFLAGS, EIP,
 *     EAX .. ESP} of SDM Vol. 3B §17.4.9 whatever the record format,
 *     from the same state;
 *   - not modelled, written as 0: data source encoding, load latency, TSX
 *     information (formats 1-3 and the memory-info group). */
#include "model.h"
#include "../caps.h"
#include "../regs.h"
#include "../ds/model.h"
#include "../ds/regs.h"
#include "../../lbr_model.h"
#include "../../../arch/x86/paging.h"
#include "../../../arch/x86/trap.h"
#include "../../../arch/x86/xmm.h"
#include "../../../lib/string.h"

static struct {
	const struct perfmon_caps *c;
	unsigned fmt;
	int pebs, baseline;
	uint64_t enable, cfg, ld_lat;
} p;

struct model_part pebs_model_part(void)
{
	return (struct model_part){ &p, sizeof(p) };
}

void pebs_model_reset(const struct perfmon_caps *c)
{
	p = (typeof(p)){ .c = c };
	if (!c)
		return;
	p.pebs = perfmon_caps_pebs(c);
	p.fmt = p.pebs ? perfmon_pebs_format(c) : 0;
	p.baseline = p.pebs && (c->perf_caps & PERF_CAP_PEBS_BASELINE);
}

int pebs_model_has_pebs(void)
{
	return p.c && p.pebs;
}

/* PS_EN (bit 63) is Sandy Bridge's and Ivy Bridge's alone (SDM Vol. 3B
 * §18.9.4; regs.h): not a thing the record format says. */
static uint64_t enable_valid(void)
{
	return pebs_enable_valid(p.fmt, p.c->gp, p.c->fixed_mask, p.baseline,
				 p.c->uarch == PERFMON_UARCH_SANDY_BRIDGE);
}

/* The register's value and its valid bits, or NULL when the modelled PMU
 * lacks it; *known 0 when msr is none of the PEBS registers. */
static uint64_t *reg_of(uint32_t msr, uint64_t *valid, int *known)
{
	*known = 1;
	switch (msr) {
	case MSR_IA32_PEBS_ENABLE:
		*valid = p.pebs ? enable_valid() : 0;
		return p.pebs ? &p.enable : 0;
	case MSR_PEBS_DATA_CFG:
		*valid = PEBS_CFG_VALID;
		return p.fmt >= 4 && p.baseline ? &p.cfg : 0;
	case MSR_PEBS_LD_LAT:
		*valid = 0xffff;
		return p.pebs && p.fmt >= 1 ? &p.ld_lat : 0;
	default:
		*known = 0;
		return 0;
	}
}

/* 1: msr is no PEBS register (or no PMU is modelled); VEC_GP: one the
 * modelled PMU lacks; 0: *r is it, *valid its writable bits. */
static int lookup(uint32_t msr, uint64_t **r, uint64_t *valid)
{
	int known;

	if (!p.c)
		return 1;
	*r = reg_of(msr, valid, &known);
	if (!known)
		return 1;
	return *r ? 0 : VEC_GP;
}

int pebs_model_rdmsr(uint32_t msr, uint64_t *v)
{
	uint64_t valid, *r;
	int rc = lookup(msr, &r, &valid);

	if (!rc)
		*v = *r;
	return rc;
}

int pebs_model_wrmsr(uint32_t msr, uint64_t v)
{
	uint64_t valid, *r;
	int rc = lookup(msr, &r, &valid);

	if (rc)
		return rc;
	if (v & ~valid)
		return VEC_GP;
	*r = v;
	return 0;
}

uint64_t pebs_model_enable(void)
{
	return p.enable;
}

uint64_t pebs_model_cfg(void)
{
	return p.cfg;
}

static void put64(uint8_t *rec, unsigned off, uint64_t v)
{
	memcpy(rec + off, &v, sizeof(v));	/* little-endian, as stored */
}

/* The registers the record reports: after the step (trap-like) or
 * before it (fault-like). */
static const struct step_regs *state_of(const struct pebs_assist *a,
					int trap)
{
	static const struct step_regs none;

	if (trap)
		return a->e->after ? a->e->after : &none;
	return a->before ? a->before : &none;
}

static uint64_t ip_of(const struct pebs_assist *a, int trap)
{
	return trap ? a->e->next_rip : a->e->rip;
}

/* The data address of the sampled access: the step's first load or
 * store, by the event's kind. */
static uint64_t data_addr(const struct pebs_assist *a)
{
	const struct insn_event *e = a->e;

	if (a->data == PEBS_DATA_NONE || (e->flags & EV_ACCESS_UNKNOWN))
		return 0;
	for (unsigned i = 0; i < e->n_access; i++)
		if (e->access[i].store == (a->data == PEBS_DATA_STORE))
			return e->access[i].addr;
	return 0;
}

static void fixed_record(uint8_t *rec, unsigned fmt,
			 const struct pebs_assist *a, int trap)
{
	const struct step_regs *r = state_of(a, trap);

	for (unsigned f = 0; f < PEBS_F_NR; f++) {
		int off = pebs_field_offset(fmt, (enum pebs_field)f);
		int gpr = pebs_field_gpr((enum pebs_field)f);
		uint64_t v = 0;

		if (off < 0)
			continue;
		if (gpr >= 0)
			v = r->gpr[gpr];
		else if (f == PEBS_F_FLAGS)
			v = r->rflags;
		else if (f == PEBS_F_IP)
			v = ip_of(a, trap);
		else if (f == PEBS_F_STATUS)
			v = fmt >= 3 ? a->applicable : a->status;
		else if (f == PEBS_F_DLA)
			v = data_addr(a);
		else if (f == PEBS_F_EVENTING_IP)
			v = a->e->rip;
		else if (f == PEBS_F_TSC)
			v = a->tsc;
		put64(rec, (unsigned)off, v);
	}
}

/* The 32-bit DS format's record (regs.h): EFLAGS, EIP, EAX-ESP, 4 bytes
 * each, the same state the 64-bit records take. */
static void record32(uint8_t *rec, const struct pebs_assist *a, int trap)
{
	const struct step_regs *r = state_of(a, trap);

	for (unsigned f = 0; f < PEBS_F_R8; f++) {
		int off = pebs32_field_offset((enum pebs_field)f);
		int gpr = pebs_field_gpr((enum pebs_field)f);
		uint32_t v;

		if (gpr >= 0)
			v = (uint32_t)r->gpr[gpr];
		else if (f == PEBS_F_FLAGS)
			v = (uint32_t)r->rflags;
		else
			v = (uint32_t)ip_of(a, trap);
		memcpy(rec + off, &v, sizeof(v));
	}
}

static void gprs_group(uint8_t *g, const struct pebs_assist *a, int trap)
{
	const struct step_regs *r = state_of(a, trap);

	put64(g, 0, r->rflags);
	put64(g, 8, ip_of(a, trap));
	for (unsigned i = 0; i < 16; i++)
		put64(g, 16 + 8 * i, r->gpr[i]);
}

static void xmms_group(uint8_t *g)
{
	uint64_t x[2 * XMM_REGS];

	xmm_read_all(x);
	for (unsigned i = 0; i < 2 * XMM_REGS; i++)
		put64(g, 8 * i, x[i]);
}

static void lbrs_group(uint8_t *g, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		uint64_t from, to, info;

		lbr_model_entry(k, &from, &to, &info);
		put64(g, PEBS_LBR_ENTRY_SIZE * k, from);
		put64(g, PEBS_LBR_ENTRY_SIZE * k + 8, to);
		put64(g, PEBS_LBR_ENTRY_SIZE * k + 16, info);
	}
}

static void adaptive_record(uint8_t *rec, const struct pebs_assist *a,
			    int trap)
{
	uint64_t cfg = a->adaptive ? pebs_model_cfg() : 0;
	struct pebs_adaptive l;

	pebs_adaptive_layout(cfg, a->adaptive != 0, &l);
	put64(rec, PEBS_BASIC_FORMAT_SIZE,
	      (uint64_t)l.size << PEBS_SIZE_SHIFT | cfg);
	put64(rec, PEBS_BASIC_IP, a->e->rip);
	put64(rec, PEBS_BASIC_APPLICABLE, a->applicable);
	put64(rec, PEBS_BASIC_TSC, a->tsc);
	if (l.meminfo) {
		put64(rec, l.meminfo, data_addr(a));
		for (unsigned off = 8; off < PEBS_MEMINFO_SIZE; off += 8)
			put64(rec, l.meminfo + off, 0);
	}
	if (l.gprs)
		gprs_group(rec + l.gprs, a, trap);
	if (l.xmms)
		xmms_group(rec + l.xmms);
	if (l.lbrs)
		lbrs_group(rec + l.lbrs, l.n_lbr);
}

static void reload(const void *area, const struct ds_layout *l,
		   uint64_t applicable, uint64_t *gp, uint64_t *fixed)
{
	for (unsigned b = 0; b < 64; b++) {
		int is_fixed = b >= GLOBAL_FIXED_SHIFT;
		unsigned n = is_fixed ? b - GLOBAL_FIXED_SHIFT : b;

		if (!(applicable >> b & 1) ||
		    ds_reset_offset(l, n, is_fixed) < 0 ||
		    n >= (is_fixed ? PERFMON_MAX_FIXED : PERFMON_MAX_GP))
			continue;
		(is_fixed ? fixed : gp)[n] = ds_get_reset(area, l, n,
							   is_fixed);
	}
}

int pebs_model_assist(const struct pebs_assist *a, uint64_t *gp_reload,
		      uint64_t *fixed_reload)
{
	const struct perfmon_caps *c = perfmon_caps(0);
	const struct ds_layout *l;
	uint8_t *area = ds_model_area(&l);
	unsigned fmt, size;
	uint64_t index, max;
	int trap;

	if (!area || !c)
		return 0;
	fmt = perfmon_pebs_format(c);
	trap = perfmon_pebs_trap(c);
	size = l->ds64 ? pebs_record_size(fmt, pebs_model_cfg(),
					  a->adaptive != 0) :
			 PEBS_RECORD32_SIZE;
	index = ds_get(area, l, DS_PEBS_INDEX);
	max = ds_get(area, l, DS_PEBS_MAX);
	/* "Upon successful bounds checks ... clear the counter overflow
	 * status, and reload the counter.  If the bounds checks fail, the
	 * PEBS will be skipped entirely" (§18.8.1.1): no reload here, and
	 * the caller keeps the status bit */
	if (index < ds_get(area, l, DS_PEBS_BASE) || index + size > max ||
	    !ds_reachable(index, size) || !paging_range_writable(index, size))
		return PEBS_ASSIST_DROPPED;
	reload(area, l, a->applicable, gp_reload, fixed_reload);
	if (!l->ds64)
		record32((uint8_t *)(uintptr_t)index, a, trap);
	else if (fmt >= 4)
		adaptive_record((uint8_t *)(uintptr_t)index, a, trap);
	else
		fixed_record((uint8_t *)(uintptr_t)index, fmt, a, trap);
	index += size;
	ds_put(area, l, DS_PEBS_INDEX, index);
	return index >= ds_get(area, l, DS_PEBS_THRESH);
}
