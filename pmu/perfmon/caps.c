/* pmu/perfmon/caps.c: the capabilities in force (caps.h).  CPUID.0AH is
 * decoded by the rules of each version (regs.h); where it reports no
 * version (QEMU under TCG), the capability table's row for this CPU
 * (caps_table.c) stands in; under the model a test may stand in a PMU of
 * another version.  The decoding (perfmon_caps_decode() in regs.c,
 * perfmon_caps_of_row() in caps_table.c) is pure and host-tested
 * (tests/host/pmu/perfmon/test_caps.c). */
#include "caps.h"
#include "caps_table.h"
#include "report.h"
#include "../backend.h"
#include "../model.h"
#include "../../arch/x86/cpu.h"
#include "../../lib/fmt.h"

/* The row's capabilities, source "model:<name>". */
static void perfmon_caps_from_row(const struct perfmon_caps_row *r,
				  struct perfmon_caps *c)
{
	static char source[48];

	fmt_snprintf(source, sizeof(source), "model:%s", r->name);
	c->source = source;
	perfmon_caps_of_row(r, c);
}

/* ---- the capabilities in force */

static struct perfmon_caps own, stand_in;
static int own_done, standing_in;
static const char *own_why;

/* Architectural LBRs as CPUID reports them: CPUID.(EAX=07H,ECX=0):
 * EDX[19], then leaf 1CH (SDM Vol. 2A CPUID, "Last Branch Records
 * Information Leaf"). */
static void own_arch_lbr(const struct cpu_info *ci)
{
	struct cpuid_regs r;

	own.arch_lbr = ci->max_leaf >= 0x1c &&
		       (ci->f7_edx & CPUID7_EDX_ARCH_LBR);
	if (!own.arch_lbr)
		return;
	r = cpuid_count(0x1c, 0);
	own.lbr_1c[0] = r.eax;
	own.lbr_1c[1] = r.ebx;
	own.lbr_1c[2] = r.ecx;
}

static void compute_own(void)
{
	const struct cpu_info *ci = cpu_info();
	const struct pmu_cpu_report *r = &ci->report;
	const struct perfmon_caps_row *row;

	own_done = 1;
	own_why = 0;
	if (perfmon_report_version(r)) {
		own.source = "cpuid";
		perfmon_caps_decode(r->cpuid[0], r->cpuid[1], r->cpuid[2],
				    r->cpuid[3], &own);
		own.has_perf_caps = r->caps_valid;
		own.perf_caps = r->caps;
		/* what CPUID does not say comes with the microarchitecture */
		row = perfmon_caps_row_for(ci->sig.family, ci->sig.model);
		own.uarch = row ? row->uarch : PERFMON_UARCH_UNKNOWN;
		own.ds = !!(ci->f1_edx & CPUID1_EDX_DS);
		own.ds_cpl = !!(ci->f1_ecx & CPUID1_ECX_DSCPL);
		own_arch_lbr(ci);
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
	if (!backend_model_backed())
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
