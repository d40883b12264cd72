/* pmu/perfmon/pebs/driver.c: the PEBS buffer's rules and enabling PEBS
 * on the installed DS area (driver.h). */
#include "driver.h"
#include "events.h"
#include "regs.h"
#include "../caps.h"
#include "../ds/format.h"
#include "../../backend.h"
#include "../../evtsel.h"

unsigned perfmon_pebs_record_size(uint64_t cfg, int adaptive)
{
	const struct perfmon_caps *c = perfmon_ds_caps(0);

	if (!c)
		return 0;
	if (!perfmon_ds64())
		return PEBS_RECORD32_SIZE;
	return pebs_record_size(perfmon_pebs_format_in_use(c), cfg, adaptive);
}

int perfmon_pebs_buffer(struct perfmon_ds *s, struct pmu_err *e)
{
	const struct perfmon_caps *c = perfmon_ds_caps(e);
	unsigned fmt;

	if (!c)
		return -1;
	fmt = perfmon_pebs_format_in_use(c);
	/* adaptive records vary in size: 8-byte granules */
	s->pebs_record = !perfmon_ds64() ? PEBS_RECORD32_SIZE :
			 fmt >= 4 ? 8 : pebs_fixed_record_size(fmt);
	s->pebs_max_bytes = fmt == 0 ? 4096 : 0;
	return 0;
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
	if (pe && !(pebs_event_gp_counters(pe) >> n & 1))
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
	const struct perfmon_caps *c = perfmon_ds_caps(e);
	const struct perfmon_ds *ds = perfmon_ds_installed();
	unsigned fmt;
	int baseline;

	if (!c)
		return -1;
	if (!perfmon_pebs_available())
		return pmu_fail(e, 0, "PEBS unavailable (IA32_MISC_ENABLE bit "
				"12 set, or no IA32_MISC_ENABLE)");
	if (!ds || !ds->use_pebs)
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

