/* pmu/perfmon/caps.c: the capabilities in force (caps.h).  CPUID.0AH is
 * decoded by the rules of each version (regs.h); where it reports no
 * version (QEMU under TCG), the capability table's row for this CPU
 * (caps_table.c) stands in; under the model a test may stand in a PMU of
 * another version.  The decoding is host-tested
 * (tests/host/pmu/perfmon/test_caps.c). */
#include "caps.h"
#include "caps_table.h"
#include "ds/regs.h"
#include "../backend.h"
#include "../detect.h"
#include "../model.h"
#include "../../lib/fmt.h"

void perfmon_caps_decode(uint32_t eax, uint32_t ebx, uint32_t ecx,
			 uint32_t edx, struct perfmon_caps *c)
{
	const char *source = c->source;

	*c = (struct perfmon_caps){ .source = source };
	c->version = eax & 0xff;
	if (!c->version)
		return;
	c->gp = eax >> 8 & 0xff;
	c->gp_width = eax >> 16 & 0xff;
	c->ebx_len = eax >> 24;
	c->events_unavail = ebx;
	if (c->gp > PERFMON_MAX_GP)
		c->gp = PERFMON_MAX_GP;
	/* EDX is defined from version 2 on (Vol. 2A CPUID 0AH: "if Version
	 * ID > 1"); Linux likewise ignores it on v1. */
	if (c->version < 2)
		return;
	c->fixed = edx & 0x1f;
	c->fixed_width = edx >> 5 & 0xff;
	for (unsigned i = 0; i < PERFMON_MAX_FIXED; i++)
		/* v5: "FxCtr[i]_is_supported := ECX[i] || (EDX[4:0] > i)"
		 * (Vol. 3B §18.2.5); before v5 ECX is reserved. */
		if (c->fixed > i || (c->version >= 5 && (ecx >> i & 1)))
			c->fixed_mask |= 1u << i;
	c->any_deprecated = c->version >= 5 &&
			    (edx & CPUID0A_EDX_ANY_DEPRECATED);
}

/* The row's capabilities, source "model:<name>". */
static void perfmon_caps_from_row(const struct perfmon_caps_row *r,
				  struct perfmon_caps *c)
{
	static char source[48];

	fmt_snprintf(source, sizeof(source), "model:%s", r->name);
	c->source = source;
	perfmon_caps_decode(r->eax, r->ebx, r->ecx, r->edx, c);
	c->has_perf_caps = r->has_perf_caps;
	c->perf_caps = r->has_perf_caps ? r->perf_caps : 0;
}

/* ---- the capabilities in force */

static struct perfmon_caps own, stand_in;
static int own_done, standing_in;
static const char *own_why;

static void compute_own(void)
{
	const struct cpu_info *ci = cpu_info();
	const struct perfmon_caps_row *row;

	own_done = 1;
	own_why = 0;
	if (ci->arch_version) {
		own.source = "cpuid";
		perfmon_caps_decode(ci->arch_cpuid[0], ci->arch_cpuid[1],
				    ci->arch_cpuid[2], ci->arch_cpuid[3], &own);
		own.has_perf_caps = ci->perf_caps_valid;
		own.perf_caps = ci->perf_caps;
		return;
	}
	row = perfmon_caps_row_for(ci->sig.family, ci->sig.model);
	if (row) {
		perfmon_caps_from_row(row, &own);
		return;
	}
	own.version = 0;
	own_why = "CPUID.0AH reports no version and the capability table "
		  "has no row for this family/model";
}

const struct perfmon_caps *perfmon_caps(const char **why)
{
	if (standing_in)
		return &stand_in;
	if (!own_done)
		compute_own();
	if (why)
		*why = own_why;
	return own.version ? &own : 0;
}

int perfmon_caps_stand_in(const struct perfmon_caps *c)
{
	if (backend_current()->id != BE_MODEL)
		return -1;
	standing_in = c != 0;
	if (c)
		stand_in = *c;
	if (model_active())
		model_active()->reset();
	return 0;
}

int perfmon_caps_standing_in(void)
{
	return standing_in;
}

int perfmon_ds64(void)
{
	return ds_format64(DS_BUILD_IA32E,
			   !!(cpu_info()->f1_ecx & CPUID1_ECX_DTES64));
}
