/* pmu/perfmon/ds/driver.c: installing a DS save area and enabling PEBS
 * on it (driver.h).  BTS is pmu/perfmon/bts/driver.c, on top of this
 * file: taking the DS area away turns BTS off here, with the DEBUGCTL
 * bits of ds/regs.h, so that nothing here calls up into BTS. */
#include "driver.h"
#include "../caps.h"
#include "../pebs/events.h"
#include "../pebs/regs.h"
#include "../../backend.h"
#include "../../evtsel.h"
#include "../../../arch/x86/msr.h"
#include "../../../arch/x86/paging.h"

static struct perfmon_ds installed;
static int have_installed;

static const struct perfmon_caps *caps(struct pmu_err *e)
{
	const char *why = 0;
	const struct perfmon_caps *c = perfmon_caps(&why);

	if (!c)
		pmu_fail(e, 0, "no capabilities: %s", why);
	return c;
}

static int misc_clear(uint64_t bit)
{
	uint64_t v;

	return be_rdmsr(MSR_IA32_MISC_ENABLE, &v) == 0 && !(v & bit);
}

int perfmon_bts_available(void)
{
	return misc_clear(MISC_ENABLE_BTS_UNAVAIL);
}

int perfmon_pebs_available(void)
{
	return misc_clear(MISC_ENABLE_PEBS_UNAVAIL);
}

static unsigned fmt_of(const struct perfmon_caps *c)
{
	return perfmon_pebs_available() ? perfmon_pebs_format(c) : 0;
}

int perfmon_ds_layout(struct ds_layout *l, struct pmu_err *e)
{
	const struct perfmon_caps *c = caps(e);

	if (!c)
		return -1;
	if (!perfmon_bts_available() && !perfmon_pebs_available())
		return pmu_fail(e, 0, "neither BTS nor PEBS: IA32_MISC_ENABLE "
				"bits 11 and 12 set (or unreadable)");
	ds_layout_for(fmt_of(c), perfmon_ds64(), l);
	return 0;
}

unsigned perfmon_pebs_record_size(uint64_t cfg, int adaptive)
{
	const struct perfmon_caps *c = perfmon_caps(0);

	if (!c)
		return 0;
	if (!perfmon_ds64())
		return PEBS_RECORD32_SIZE;
	return pebs_record_size(fmt_of(c), cfg, adaptive);
}

static int mapped(uint64_t addr, uint64_t len, void *ctx)
{
	(void)ctx;
	return paging_range_writable(addr, len);
}

/* ds_check() of s for this PMU's format. */
static int check_setup(const struct perfmon_ds *s, const struct ds_layout *l,
		       unsigned fmt, int c_ds, struct pmu_err *e)
{
	struct ds_check_in in = {
		.l = l,
		.area = (uintptr_t)s->area,
		.use_bts = s->use_bts,
		.use_pebs = s->use_pebs,
		.bts = s->bts,
		.pebs = s->pebs,
		.bts_record = l->bts_record,
		/* adaptive records vary in size: 8-byte granules */
		.pebs_record = !l->ds64 ? PEBS_RECORD32_SIZE :
			       fmt >= 4 ? 8 : pebs_fixed_record_size(fmt),
		.pebs_max_bytes = fmt == 0 ? 4096 : 0,
		.mapped = mapped,
		.la32 = !DS_BUILD_IA32E,
	};
	char why[140];

	/* no debug store without CPUID.01H:EDX.DS[21] (SDM Vol. 3B
	 * §17.4.9; Vol. 2A, CPUID leaf 01H): IA32_DS_AREA is not written */
	if (!c_ds)
		return pmu_fail(e, 0, "no DS save area: CPUID.01H:EDX.DS (bit "
				"21) is clear, so neither BTS nor PEBS (SDM "
				"Vol. 3B 17.4.9)");
	if (s->use_bts && !perfmon_bts_available())
		return pmu_fail(e, 0, "BTS unavailable (IA32_MISC_ENABLE bit "
				"11)");
	if (s->use_pebs && !perfmon_pebs_available())
		return pmu_fail(e, 0, "PEBS unavailable (IA32_MISC_ENABLE bit "
				"12)");
	if (ds_check(&in, why, sizeof(why)))
		return pmu_fail(e, 0, "DS area refused: %s", why);
	return 0;
}

static void write_area(const struct perfmon_ds *s, const struct ds_layout *l,
		       const struct perfmon_caps *c)
{
	static const struct ds_buffer none;
	const struct ds_buffer *b = s->use_bts ? &s->bts : &none;
	const struct ds_buffer *p = s->use_pebs ? &s->pebs : &none;
	const uint64_t v[DS_FIELD_NR] = {
		[DS_BTS_BASE] = b->base, [DS_BTS_INDEX] = b->index,
		[DS_BTS_MAX] = b->max, [DS_BTS_THRESH] = b->thresh,
		[DS_PEBS_BASE] = p->base, [DS_PEBS_INDEX] = p->index,
		[DS_PEBS_MAX] = p->max, [DS_PEBS_THRESH] = p->thresh,
	};

	for (unsigned f = 0; f < DS_FIELD_NR; f++)
		ds_put(s->area, l, (enum ds_field)f, v[f]);
	for (unsigned n = 0; n < c->gp && n < PERFMON_MAX_GP; n++)
		if (ds_reset_offset(l, n, 0) >= 0)
			ds_put_reset(s->area, l, n, 0, s->gp_reset[n]);
	for (unsigned i = 0; i < PERFMON_MAX_FIXED; i++)
		if (perfmon_fixed_exists(c, i) && ds_reset_offset(l, i, 1) >= 0)
			ds_put_reset(s->area, l, i, 1, s->fixed_reset[i]);
}

int perfmon_ds_install(const struct perfmon_ds *s, struct pmu_err *e)
{
	const struct perfmon_caps *c = caps(e);
	struct ds_layout l;

	if (!c || perfmon_ds_layout(&l, e) ||
	    check_setup(s, &l, fmt_of(c), c->ds, e))
		return -1;
	write_area(s, &l, c);
	if (pmu_wrmsr(MSR_IA32_DS_AREA, (uintptr_t)s->area, "IA32_DS_AREA",
		      e))
		return -1;
	installed = *s;
	have_installed = 1;
	return 0;
}

const struct perfmon_ds *perfmon_ds_installed(void)
{
	return have_installed ? &installed : 0;
}

void perfmon_ds_memo_save(struct perfmon_ds_memo *m)
{
	m->ds = installed;
	m->have = have_installed;
}

void perfmon_ds_memo_restore(const struct perfmon_ds_memo *m)
{
	installed = m->ds;
	have_installed = m->have;
}

/* Why GP counter n's event cannot take PEBS, or 0. */
static int gp_refusal(unsigned n, enum perfmon_uarch u, int baseline,
		      struct pmu_err *e)
{
	const struct pebs_event *pe;
	uint64_t sel;
	struct evtsel s;

	if (pmu_rdmsr(MSR_IA32_PERFEVTSEL(n), &sel, "PERFEVTSEL", e))
		return -1;
	s = evtsel_decode(sel);
	if (s.any || s.edge || s.inv || s.cmask)
		return pmu_fail(e, 0, "PMC%u: a PEBS event needs AnyThread, "
				"Edge, Invert and CMask zero (SDM Vol. 3B "
				"18.8.1.1): any=%u edge=%u inv=%u cmask=%u",
				n, s.any, s.edge, s.inv, s.cmask);
	/* extended PEBS (baseline) takes every event (SDM Vol. 3B, the
	 * adaptive PEBS section); before it the microarchitecture's table
	 * (Sandy Bridge's is not Nehalem's, though both write format 1) */
	pe = pebs_event_for(u, s.event, s.umask);
	if (!baseline && !pe)
		return pmu_fail(e, 0, "PMC%u: event 0x%02x umask 0x%02x is not "
				"a precise event of this microarchitecture "
				"(%d; pmu/perfmon/pebs/events.c)", n, s.event,
				s.umask, (int)u);
	/* "PDIR ... must use IA32_PMC1" (SDM Vol. 3B §18.9.4.4) */
	if (pe && pe->pdir && n != 1)
		return pmu_fail(e, 0, "PMC%u: %s (event 0x%02x umask 0x%02x) "
				"takes PEBS on PMC1 only (precise "
				"distribution, SDM Vol. 3B 18.9.4.4)", n,
				pe->name, s.event, s.umask);
	return 0;
}

static int fixed_refusal(unsigned i, struct pmu_err *e)
{
	uint64_t ctrl;

	if (pmu_rdmsr(MSR_IA32_FIXED_CTR_CTRL, &ctrl, "FIXED_CTR_CTRL", e))
		return -1;
	if (!(FIXED_CTRL_FIELD(ctrl, i) & (FIXED_CTRL_OS | FIXED_CTRL_USR)))
		return pmu_fail(e, 0, "fixed counter %u counts at no CPL: "
				"nothing to sample", i);
	return 0;
}

static int counters_refusal(const struct perfmon_caps *c, uint64_t mask,
			    unsigned fmt, int baseline, struct pmu_err *e)
{
	uint64_t capable = pebs_capable_counters(fmt, c->gp, c->fixed_mask,
						 baseline);

	if (!mask)
		return pmu_fail(e, 0, "PEBS on no counter");
	if (mask & ~capable)
		return pmu_fail(e, 0, "counters 0x%llx do not take PEBS with "
				"record format %u: the PEBS counters are "
				"0x%llx (GLOBAL_CTRL numbering)",
				(unsigned long long)(mask & ~capable), fmt,
				(unsigned long long)capable);
	if (!perfmon_ds64() && (mask & ~1ull))
		return pmu_fail(e, 0, "counters 0x%llx: the 32-bit DS format "
				"(no DTES64, not IA-32e mode; SDM Vol. 3B "
				"SDM 17.4.9) has one PEBS counter-reset slot: "
				"PEBS on PMC0 only",
				(unsigned long long)(mask & ~1ull));
	for (unsigned b = 0; b < 64; b++) {
		int r = 0;

		if (!(mask >> b & 1))
			continue;
		if (b < GLOBAL_FIXED_SHIFT)
			r = gp_refusal(b, pebs_events_uarch(c), baseline, e);
		else
			r = fixed_refusal(b - GLOBAL_FIXED_SHIFT, e);
		if (r)
			return r;
	}
	return 0;
}

static int cfg_refusal(uint64_t cfg, int baseline, struct pmu_err *e)
{
	if (cfg && !perfmon_ds64())
		return pmu_fail(e, 0, "PEBS_DATA_CFG 0x%llx: the 32-bit DS "
				"format writes the 40-byte record only (SDM "
				"Vol. 3B 17.4.9), no adaptive groups",
				(unsigned long long)cfg);
	if (cfg && !baseline)
		return pmu_fail(e, 0, "PEBS_DATA_CFG 0x%llx: adaptive PEBS "
				"needs record format 4+ with PEBS_BASELINE "
				"(IA32_PERF_CAPABILITIES bit 14)",
				(unsigned long long)cfg);
	if (cfg & ~PEBS_CFG_VALID)
		return pmu_fail(e, 0, "PEBS_DATA_CFG 0x%llx sets reserved bits "
				"0x%llx", (unsigned long long)cfg,
				(unsigned long long)(cfg & ~PEBS_CFG_VALID));
	return 0;
}

int perfmon_pebs_enable(uint64_t mask, uint64_t cfg, struct pmu_err *e)
{
	const struct perfmon_caps *c = caps(e);
	unsigned fmt;
	int baseline;

	if (!c)
		return -1;
	if (!perfmon_pebs_available())
		return pmu_fail(e, 0, "PEBS unavailable (IA32_MISC_ENABLE bit "
				"12 set, or no IA32_MISC_ENABLE)");
	if (!have_installed || !installed.use_pebs)
		return pmu_fail(e, 0, "no DS area with a PEBS buffer installed");
	fmt = perfmon_pebs_format(c);
	baseline = perfmon_pebs_baseline(c);
	if (counters_refusal(c, mask, fmt, baseline, e) ||
	    cfg_refusal(cfg, baseline, e))
		return -1;
	if (baseline && pmu_wrmsr(MSR_PEBS_DATA_CFG, cfg, "PEBS_DATA_CFG", e))
		return -1;
	return pmu_wrmsr(MSR_IA32_PEBS_ENABLE, mask, "IA32_PEBS_ENABLE", e);
}

static int pebs_disable(struct pmu_err *e)
{
	if (!perfmon_pebs_available())
		return 0;
	return pmu_wrmsr(MSR_IA32_PEBS_ENABLE, 0, "IA32_PEBS_ENABLE", e);
}

int perfmon_ds_debugctl(uint64_t clear, uint64_t set, struct pmu_err *e)
{
	uint64_t v;

	if (pmu_rdmsr(MSR_IA32_DEBUGCTL, &v, "IA32_DEBUGCTL", e))
		return -1;
	return pmu_wrmsr(MSR_IA32_DEBUGCTL, (v & ~clear) | set,
			 "IA32_DEBUGCTL", e);
}

/* PEBS and BTS off (perfmon_bts_disable()'s write), then the area. */
int perfmon_ds_remove(struct pmu_err *e)
{
	int r = pebs_disable(e);

	r |= perfmon_bts_available() ?
	     perfmon_ds_debugctl(DEBUGCTL_BTS_ALL, 0, e) : 0;
	have_installed = 0;
	if (perfmon_bts_available() || perfmon_pebs_available())
		r |= pmu_wrmsr(MSR_IA32_DS_AREA, 0, "IA32_DS_AREA", e);
	return r ? -1 : 0;
}
