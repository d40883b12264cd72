/* pmu/perfmon/ds/driver.c: installing a DS save area (driver.h).  PEBS
 * (pmu/perfmon/pebs/driver.c) and BTS (pmu/perfmon/bts/driver.c) sit on
 * top of this file: taking the DS area away turns both off here, with
 * IA32_PEBS_ENABLE (arch/x86/msr.h) and the DEBUGCTL bits of ds/regs.h,
 * so that nothing here calls up into them. */
#include "driver.h"
#include "format.h"
#include "../caps.h"
#include "../../backend.h"
#include "../../../arch/x86/msr.h"
#include "../../../arch/x86/paging.h"

static struct perfmon_ds installed;
static int have_installed;

const struct perfmon_caps *perfmon_ds_caps(struct pmu_err *e)
{
	const char *why = 0;
	const struct perfmon_caps *c = perfmon_caps(&why);

	if (!c && e)
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

unsigned perfmon_pebs_format_in_use(const struct perfmon_caps *c)
{
	return perfmon_pebs_available() ? perfmon_pebs_format(c) : 0;
}

int perfmon_ds_layout(struct ds_layout *l, struct pmu_err *e)
{
	const struct perfmon_caps *c = perfmon_ds_caps(e);

	if (!c)
		return -1;
	if (!perfmon_bts_available() && !perfmon_pebs_available())
		return pmu_fail(e, 0, "neither BTS nor PEBS: IA32_MISC_ENABLE "
				"bits 11 and 12 set (or unreadable)");
	ds_layout_for(perfmon_pebs_format_in_use(c), perfmon_ds64(), l);
	return 0;
}

static int mapped(uint64_t addr, uint64_t len, void *ctx)
{
	(void)ctx;
	return paging_range_writable(addr, len);
}

/* ds_check() of s for this PMU's format. */
static int check_setup(const struct perfmon_ds *s, const struct ds_layout *l,
		       int c_ds, struct pmu_err *e)
{
	struct ds_check_in in = {
		.l = l,
		.area = (uintptr_t)s->area,
		.use_bts = s->use_bts,
		.use_pebs = s->use_pebs,
		.bts = s->bts,
		.pebs = s->pebs,
		.bts_record = l->bts_record,
		/* the PEBS layer's rules (perfmon_pebs_buffer()) */
		.pebs_record = s->pebs_record,
		.pebs_max_bytes = s->pebs_max_bytes,
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
	const struct perfmon_caps *c = perfmon_ds_caps(e);
	struct ds_layout l;

	if (!c || perfmon_ds_layout(&l, e) ||
	    check_setup(s, &l, c->ds, e))
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
