/* pmu/perfmon/ds/model.c: the DS registers of the arch-perfmon reference
 * model (model.h).
 *
 * Which PMUs have what (the capability rows of pmu/perfmon/caps_table.c):
 *   - BTS and the DS area: every modelled PMU (Yonah on; SDM Vol. 3B
 *     §17.4.9: CPUID.01H:EDX.DS[21], IA32_MISC_ENABLE bit 11 clear);
 *   - PEBS: architectural perfmon v2 or later with IA32_PERF_CAPABILITIES
 *     (Core 2 on, PEBS record format in bits 11:8); Yonah (v1) has none
 *     (SDM Vol. 3B ch. 18, Core Solo/Duo section: no PEBS), so
 *     IA32_MISC_ENABLE bit 12 reads 1 there.  The PEBS registers
 *     themselves are pmu/perfmon/pebs/model.c's.
 * A register the modelled PMU lacks raises #GP, as does a non-canonical
 * IA32_DS_AREA (Vol. 2B WRMSR).  IA32_MISC_ENABLE reads bit 7
 * (performance monitoring available) and bits 11/12 as above and 0
 * elsewhere: the model knows nothing else of it; writes are not
 * modelled. */
#include "model.h"
#include "format.h"
#include "../caps.h"
#include "../../backend.h"
#include "../../sem.h"
#include "../../../arch/x86/cpu.h"
#include "../../../arch/x86/msr.h"
#include "../../../arch/x86/paging.h"
#include "../../../arch/x86/trap.h"

static struct {
	const struct perfmon_caps *c;
	int pebs;
	struct ds_layout l;
	uint64_t area;
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
	/* the processor's DS format: the driver's answer too (SDM Vol. 3B
	 * §17.4.9.1; format.h) */
	ds_layout_for(d.pebs ? perfmon_pebs_format(c) : 0, perfmon_ds64(),
		      &d.l);
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

int ds_model_rdmsr(uint32_t msr, uint64_t *v)
{
	if (!d.c)
		return 1;
	if (msr == MSR_IA32_MISC_ENABLE) {
		*v = MISC_ENABLE_PERFMON |
		     (ds_model_has_bts() ? 0 : MISC_ENABLE_BTS_UNAVAIL) |
		     (d.pebs ? 0 : MISC_ENABLE_PEBS_UNAVAIL);
		return 0;
	}
	if (msr != MSR_IA32_DS_AREA)
		return 1;
	if (!ds_model_has_bts())
		return VEC_GP;
	*v = d.area;
	return 0;
}

int ds_model_wrmsr(uint32_t msr, uint64_t v)
{
	if (!d.c)
		return 1;
	if (msr == MSR_IA32_MISC_ENABLE)
		return BE_NOT_MODELLED;
	if (msr != MSR_IA32_DS_AREA)
		return 1;
	if (!ds_model_has_bts() || !canonical48(v))
		return VEC_GP;
	d.area = v;
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

int ds_model_branch(const struct insn_event *e)
{
	return sem_once(SEM_TAKEN, e) || sem_once(SEM_FAR, e);
}
