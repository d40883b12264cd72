/* tests/perfmon/perfmon_cpuid.c: CPUID leaf 0AH as the SDM reads it
 * (perfmon_test.h): this CPU's registers, or those of the capability row
 * the model stands in for, and the version, counters, widths and fixed
 * counters they give (SDM Vol. 2A, order no. 253666, CPUID leaf 0AH;
 * Vol. 3B §18.2.1-§18.2.5). */
#include "perfmon_test.h"

/*
 * v1: EDX is not defined; v2: EDX[4:0] fixed counters, the global
 * registers; v3: AnyThread (§18.2.3); v4: §18.2.4; v5 (§18.2.5): fixed
 * counter i exists when ECX[i] is set or EDX[4:0] > i, EDX[15]
 * deprecates AnyThread; ECX is reserved before v5.
 */
struct pm_sdm pm_sdm_read(struct pm_cpuid k)
{
	struct pm_sdm s = { .k = k, .version = k.eax & 0xff,
			    .gp = k.eax >> 8 & 0xff,
			    .gp_width = k.eax >> 16 & 0xff,
			    .ebx_len = k.eax >> 24 };

	s.globals = s.version >= 2;
	s.v4 = s.version >= 4;
	if (s.globals) {
		s.n_fixed = k.edx & 0x1f;
		s.fixed_width = k.edx >> 5 & 0xff;
	}
	s.any_deprecated = s.version >= 5 && (k.edx >> 15 & 1);
	s.any = s.version >= 3 && !s.any_deprecated;
	for (unsigned i = 0; i < PM_MAX_FIXED; i++)
		s.fixed[i] = s.globals && (s.n_fixed > i ||
					   (s.version >= 5 && (k.ecx >> i & 1)));
	return s;
}

int pm_own_cpuid(struct pm_cpuid *k, uint64_t *perf_caps)
{
	const struct cpu_info *ci = cpu_info();
	const struct pmu_cpu_report *r = &ci->report;
	const struct perfmon_caps_row *row;

	if (r->cpuid[0] & 0xff) {	/* a version ID in CPUID.0AH:EAX */
		*k = (struct pm_cpuid){ r->cpuid[0], r->cpuid[1], r->cpuid[2],
					r->cpuid[3] };
		*perf_caps = r->caps_valid ? r->caps : 0;
		return 1;
	}
	row = perfmon_caps_row_for(ci->sig.family, ci->sig.model);
	if (!row)
		return 0;
	*k = (struct pm_cpuid){ row->eax, row->ebx, row->ecx, row->edx };
	*perf_caps = row->has_perf_caps ? row->perf_caps : 0;
	return 1;
}
