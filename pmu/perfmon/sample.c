/* pmu/perfmon/sample.c: PEBS sampling of one run (sample.h), on the
 * arch-perfmon driver (counters), the DS and PEBS drivers (the area,
 * PEBS) and, for the bits those lack, the backend.  It drives all of
 * them, so it sits beside the driver, above pebs/. */
#include "sample.h"
#include "caps.h"
#include "driver.h"
#include "regs.h"
#include "ds/driver.h"
#include "ds/regs.h"
#include "pebs/driver.h"
#include "pebs/regs.h"
#include "lbr/layout.h"
#include "../backend.h"
#include "../lbr.h"
#include "../../lib/fmt.h"

/* Fills why (the step refused, and the driver's sentence) and returns
 * -1. */
static int refuse(char *why, unsigned size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(char *why, unsigned size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -1;
}

/* A counter's top: its width's all-ones value. */
static uint64_t top_of(const struct perfmon_caps *c, unsigned bit)
{
	unsigned w = bit >= GLOBAL_FIXED_SHIFT ? c->fixed_width : c->gp_width;

	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

/* The driver's counter number of a GLOBAL_CTRL bit. */
static unsigned ctr_of(unsigned bit)
{
	return bit >= GLOBAL_FIXED_SHIFT ?
	       perfmon_fixed_ctr(bit - GLOBAL_FIXED_SHIFT) : bit;
}

int pebs_sample_reset(struct pmu_err *e)
{
	return perfmon_driver.init(e);
}

unsigned pebs_sample_record_size(uint64_t cfg, const struct pebs_ctr *ctr,
				 unsigned n)
{
	int adaptive = 0;

	for (unsigned k = 0; k < n; k++)
		adaptive |= ctr[k].adaptive != 0;
	return perfmon_pebs_record_size(cfg, adaptive);
}

/* Counter k's event, preset period events below the top. */
static int program(const struct perfmon_caps *c, const struct pebs_ctr *k,
		   char *why, unsigned size)
{
	uint64_t sel = k->sel | (k->adaptive && k->bit < GLOBAL_FIXED_SHIFT ?
				 EVTSEL_ADAPTIVE : 0);
	struct pmu_err e;

	if (perfmon_driver.program(ctr_of(k->bit),
				   &(struct pmu_config){ sel, 0 }, &e) == 0 &&
	    perfmon_driver.reset(ctr_of(k->bit),
				 top_of(c, k->bit) - k->period + 1, &e) == 0)
		return 0;
	return refuse(why, size, "counter bit %u: %s", k->bit, e.msg);
}

/* The DS area: the PEBS buffer of capacity records, the threshold, and
 * each counter's reset value reload events below the top. */
static int install(const struct perfmon_caps *c, const struct pebs_sample *s,
		   char *why, unsigned size)
{
	struct perfmon_ds ds = { .area = s->area, .use_pebs = 1 };
	uint64_t base = s->base;
	struct pmu_err e;

	ds.pebs = (struct ds_buffer){ base, base,
		base + (uint64_t)s->capacity * s->record_size,
		base + (uint64_t)(s->thresh ? s->thresh : s->capacity - 1) *
		       s->record_size };
	for (unsigned k = 0; k < s->n_ctr; k++) {
		const struct pebs_ctr *p = &s->ctr[k];
		uint64_t v = top_of(c, p->bit) - p->reload + 1;

		if (p->bit >= GLOBAL_FIXED_SHIFT)
			ds.fixed_reset[p->bit - GLOBAL_FIXED_SHIFT] = v;
		else
			ds.gp_reset[p->bit] = v;
	}
	if (perfmon_pebs_buffer(&ds, &e) || perfmon_ds_install(&ds, &e))
		return refuse(why, size, "DS install: %s", e.msg);
	return 0;
}

/* Fixed counters' Adaptive_Record bits, which the driver's fields lack. */
static int fixed_adaptive(const struct pebs_sample *s, char *why,
			  unsigned size)
{
	uint64_t ctrl, fields = 0, adaptive = 0;
	struct pmu_err e;

	/* A fixed counter's field (its CPLs, the sel the caller gave) is
	 * written here, before PEBS is enabled (whose check reads the CPLs)
	 * and before start() sets its IA32_PERF_GLOBAL_CTRL bit, without
	 * which it does not count yet (SDM Vol. 3B §18.2.2); start() writes
	 * the same field again.  Its Adaptive_Record bit is the driver's to
	 * keep from then on (perfmon_fixed_ctrl_extra). */
	for (unsigned k = 0; k < s->n_ctr; k++) {
		unsigned i = s->ctr[k].bit - GLOBAL_FIXED_SHIFT;

		if (s->ctr[k].bit < GLOBAL_FIXED_SHIFT)
			continue;
		fields |= (s->ctr[k].sel & 0xf) << (FIXED_CTRL_BITS * i);
		if (s->ctr[k].adaptive)
			adaptive |= 1ull << (FIXED_CTRL_ADAPTIVE_SHIFT + 4 * i);
	}
	if (!fields && !adaptive)
		return 0;
	if (adaptive && perfmon_fixed_ctrl_extra(adaptive, &e))
		return refuse(why, size, "FIXED_CTR_CTRL adaptive bits "
			      "0x%llx: %s", (unsigned long long)adaptive,
			      e.msg);
	if (be_rdmsr(MSR_IA32_FIXED_CTR_CTRL, &ctrl) == 0 &&
	    be_wrmsr(MSR_IA32_FIXED_CTR_CTRL, ctrl | fields) == 0)
		return 0;
	return refuse(why, size, "FIXED_CTR_CTRL fields 0x%llx",
		      (unsigned long long)fields);
}

/* The LBRs of this CPU, recording every branch at every CPL (pmu/lbr.h:
 * DEBUGCTL.LBR, or IA32_LBR_CTL on architectural LBRs). */
static int lbrs(int on, struct pmu_err *e)
{
	static const struct lbr_filter every = {
		.cpls = PMU_CPLS_ALL, .branches = LBR_BR_ALL,
	};
	struct lbr_layout l;
	const char *why;

	if (perfmon_lbr_layout(cpu_info(), &l, &why))
		return pmu_fail(e, 0, "no LBRs: %s", why);
	return on ? lbr_enable(&l, &every, e) : lbr_disable(&l, e);
}

/* The DEBUGCTL bits the run asks for; its LBR bit through lbrs(). */
static int debugctl_set(uint64_t bits, char *why, unsigned size)
{
	uint64_t dbg = 0, other = bits & ~DEBUGCTL_LBR;
	struct pmu_err e;

	if ((bits & DEBUGCTL_LBR) && lbrs(1, &e))
		return refuse(why, size, "LBRs on: %s", e.msg);
	if (!other || (be_rdmsr(MSR_IA32_DEBUGCTL, &dbg) == 0 &&
		       be_wrmsr(MSR_IA32_DEBUGCTL, dbg | other) == 0))
		return 0;
	return refuse(why, size, "DEBUGCTL |= 0x%llx",
		      (unsigned long long)other);
}

int pebs_sample_arm(const struct pebs_sample *s, char *why, unsigned size)
{
	const struct perfmon_caps *c = perfmon_caps(0);
	uint64_t mask = 0;
	struct pmu_err e;

	if (!c)
		return refuse(why, size, "no capabilities");
	for (unsigned k = 0; k < s->n_ctr; k++) {
		if (program(c, &s->ctr[k], why, size))
			return -1;
		mask |= 1ull << s->ctr[k].bit;
	}
	if (install(c, s, why, size) || fixed_adaptive(s, why, size))
		return -1;
	if (perfmon_pebs_enable(mask, s->cfg, &e))
		return refuse(why, size, "PEBS enable 0x%llx: %s",
			      (unsigned long long)mask, e.msg);
	if (debugctl_set(s->debugctl, why, size))
		return -1;
	/* The counters start last: a counter counting at CPL 0 counts the
	 * driver's own code from its start on, and an overflow there before
	 * IA32_PEBS_ENABLE held its bit would be an ordinary overflow, no
	 * record (backend=emulated showed it: pebs/records-instructions-cpl0
	 * wrote none).  Everything a record depends on is in place first. */
	for (unsigned k = 0; k < s->n_ctr; k++)
		if (perfmon_driver.start(ctr_of(s->ctr[k].bit), &e))
			return refuse(why, size, "start: %s", e.msg);
	return 0;
}

int pebs_sample_abort(struct pmu_err *e)
{
	return perfmon_ds_remove(e);
}

int pebs_sample_status(uint64_t *v)
{
	return be_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS, v);
}

int pebs_sample_end(const struct pebs_sample *s, uint64_t *count,
		    uint64_t *index, struct pmu_err *e)
{
	struct ds_layout l;

	for (unsigned k = 0; k < s->n_ctr; k++) {
		(void)perfmon_driver.stop(ctr_of(s->ctr[k].bit), e);
		(void)perfmon_driver.read(ctr_of(s->ctr[k].bit), &count[k], e);
	}
	if (s->debugctl & DEBUGCTL_LBR)
		(void)lbrs(0, e);
	if (s->debugctl)
		(void)be_wrmsr(MSR_IA32_DEBUGCTL, 0);
	*index = perfmon_ds_layout(&l, e) == 0 ?
		 ds_get(s->area, &l, DS_PEBS_INDEX) : 0;
	return perfmon_ds_remove(e);
}
