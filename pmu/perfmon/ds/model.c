/* pmu/perfmon/ds/model.c: the DS registers of the arch-perfmon reference
 * model (model.h).
 *
 * Which PMUs have what (the capability rows of pmu/perfmon/caps_table.c):
 *   - BTS and the DS area: every modelled PMU (Yonah on; SDM Vol. 3B
 *     §17.4.9: CPUID.01H:EDX.DS[21], IA32_MISC_ENABLE bit 11 clear);
 *   - PEBS: architectural perfmon v2 or later with IA32_PERF_CAPABILITIES
 *     (Core 2 on, PEBS record format in bits 11:8); Yonah (v1) has none
 *     (SDM Vol. 3B ch. 18, Core Solo/Duo section: no PEBS), so
 *     IA32_MISC_ENABLE bit 12 reads 1 there;
 *   - IA32_PEBS_ENABLE: the PEBS counters, LL_EN (formats 1-3) and, on
 *     Sandy Bridge and Ivy Bridge alone, PS_EN bit 63 (§18.9.4);
 *   - MSR_PEBS_LD_LAT: formats 1 and later (Nehalem's load latency,
 *     §18.8.1.2), bits 15:0; MSR_PEBS_DATA_CFG: formats 4-5 with
 *     PERF_CAPABILITIES.PEBS_BASELINE (bit 14), the bits of
 *     pmu/perfmon/pebs/regs.h.
 * A register the modelled PMU lacks raises #GP, as do reserved bits and a
 * non-canonical IA32_DS_AREA (Vol. 2B WRMSR).  IA32_MISC_ENABLE reads
 * bit 7 (performance monitoring available) and bits 11/12 as above and
 * 0 elsewhere: the model knows nothing else of it; writes are not
 * modelled. */
#include "model.h"
#include "../caps.h"
#include "../pebs/regs.h"
#include "../../backend.h"
#include "../../sem.h"
#include "../../../arch/x86/cpu.h"
#include "../../../arch/x86/msr.h"
#include "../../../arch/x86/paging.h"
#include "../../../arch/x86/trap.h"

static struct {
	const struct perfmon_caps *c;
	unsigned fmt;
	int pebs, baseline;
	struct ds_layout l;
	uint64_t area, enable, cfg, ld_lat;
} d;

struct model_part ds_model_part(void)
{
	return (struct model_part){ &d, sizeof(d) };
}

void ds_model_reset(const struct perfmon_caps *c)
{
	d = (typeof(d)){ .c = c };
	if (!c)
		return;
	d.pebs = perfmon_caps_pebs(c);
	d.fmt = d.pebs ? perfmon_pebs_format(c) : 0;
	d.baseline = d.pebs && (c->perf_caps & PERF_CAP_PEBS_BASELINE);
	/* the processor's DS format: the driver's answer too (SDM Vol. 3B
	 * §17.4.9.1; pmu/perfmon/caps.h) */
	ds_layout_for(d.fmt, perfmon_ds64(), &d.l);
}

int ds_model_has_pebs(void)
{
	return d.c && d.pebs;
}

/* BTS and the DS area exist (IA32_MISC_ENABLE bit 11 clear): on every
 * modelled PMU. */
static int ds_model_has_bts(void)
{
	return d.c != 0;
}

uint64_t ds_model_debugctl_bits(void)
{
	return ds_model_has_bts() ? DEBUGCTL_BTS_ALL : 0;
}

/* PS_EN (bit 63) is Sandy Bridge's and Ivy Bridge's alone (SDM Vol. 3B
 * §18.9.4; pebs/regs.h): not a thing the record format says. */
static uint64_t enable_valid(void)
{
	return pebs_enable_valid(d.fmt, d.c->gp, d.c->fixed_mask, d.baseline,
				 d.c->uarch == PERFMON_UARCH_SANDY_BRIDGE);
}

/* The register's value, or NULL when the modelled PMU lacks it. */
static uint64_t *reg_of(uint32_t msr)
{
	switch (msr) {
	case MSR_IA32_DS_AREA:
		return ds_model_has_bts() ? &d.area : 0;
	case MSR_IA32_PEBS_ENABLE:
		return d.pebs ? &d.enable : 0;
	case MSR_PEBS_DATA_CFG:
		return d.fmt >= 4 && d.baseline ? &d.cfg : 0;
	case MSR_PEBS_LD_LAT:
		return d.pebs && d.fmt >= 1 ? &d.ld_lat : 0;
	default:
		return 0;
	}
}

static int is_ds_msr(uint32_t msr)
{
	return msr == MSR_IA32_DS_AREA || msr == MSR_IA32_PEBS_ENABLE ||
	       msr == MSR_PEBS_DATA_CFG || msr == MSR_PEBS_LD_LAT;
}

int ds_model_rdmsr(uint32_t msr, uint64_t *v)
{
	uint64_t *r;

	if (!d.c)
		return 1;
	if (msr == MSR_IA32_MISC_ENABLE) {
		*v = MISC_ENABLE_PERFMON |
		     (ds_model_has_bts() ? 0 : MISC_ENABLE_BTS_UNAVAIL) |
		     (d.pebs ? 0 : MISC_ENABLE_PEBS_UNAVAIL);
		return 0;
	}
	if (!is_ds_msr(msr))
		return 1;
	r = reg_of(msr);
	if (!r)
		return VEC_GP;
	*v = *r;
	return 0;
}

static uint64_t valid_bits(uint32_t msr)
{
	switch (msr) {
	case MSR_IA32_PEBS_ENABLE: return enable_valid();
	case MSR_PEBS_DATA_CFG: return PEBS_CFG_VALID;
	case MSR_PEBS_LD_LAT: return 0xffff;
	default: return ~0ull;
	}
}

int ds_model_wrmsr(uint32_t msr, uint64_t v)
{
	uint64_t *r;

	if (!d.c)
		return 1;
	if (msr == MSR_IA32_MISC_ENABLE)
		return BE_NOT_MODELLED;
	if (!is_ds_msr(msr))
		return 1;
	r = reg_of(msr);
	if (!r || (v & ~valid_bits(msr)) ||
	    (msr == MSR_IA32_DS_AREA && !canonical48(v)))
		return VEC_GP;
	*r = v;
	return 0;
}

void *ds_model_area(const struct ds_layout **l)
{
	if (!d.c || !d.area || !ds_reachable(d.area, d.l.size) ||
	    !paging_range_writable(d.area, d.l.size))
		return 0;
	*l = &d.l;
	return (void *)(uintptr_t)d.area;
}

uint64_t ds_model_pebs_enable(void)
{
	return d.enable;
}

uint64_t ds_model_pebs_cfg(void)
{
	return d.cfg;
}

int ds_model_branch(const struct insn_event *e)
{
	return sem_once(SEM_TAKEN, e) || sem_once(SEM_FAR, e);
}
