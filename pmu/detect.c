/* detect: CPU identification and PMU presence probe (see detect.h). */
#include "detect.h"
#include "generation.h"
#include "../arch/x86/cpu.h"
#include "../arch/x86/safe.h"
#include "../lib/string.h"
#include "../lib/fmt.h"


static struct cpu_info detected;

const struct cpu_info *cpu_info(void)
{
	return &detected;
}

static void read_vendor(struct cpu_info *ci)
{
	struct cpuid_regs r = cpuid(0);

	ci->max_leaf = r.eax;
	memcpy(ci->vendor_id + 0, &r.ebx, 4);
	memcpy(ci->vendor_id + 4, &r.edx, 4);
	memcpy(ci->vendor_id + 8, &r.ecx, 4);
	ci->vendor_id[12] = 0;
	ci->vendor = cpu_vendor_from_id(ci->vendor_id);
}

/* CPUID.80000000H:EAX, or 0 when the CPU has no extended leaves: a
 * Pentium or 486 answers a leaf above its maximum with the data of its
 * highest basic leaf (SDM Vol. 2A, CPUID, order no. 253666: "If a value
 * entered for CPUID.EAX is higher than the maximum input value for basic
 * or extended function for that processor then the data for the highest
 * basic information leaf is returned"), which is no 8000xxxxH value. */
static uint32_t max_ext_leaf(void)
{
	uint32_t v = cpuid(0x80000000).eax;

	return (v & 0xffff0000u) == 0x80000000u ? v : 0;
}

static void read_brand(struct cpu_info *ci)
{
	ci->brand[0] = 0;
	ci->max_ext_leaf = max_ext_leaf();
	if (ci->max_ext_leaf < 0x80000004)
		return;
	for (unsigned i = 0; i < 3; i++) {
		struct cpuid_regs r = cpuid(0x80000002 + i);

		memcpy(ci->brand + 16 * i, &r, 16);
	}
	ci->brand[48] = 0;
}

/* SDM Vol. 3A §9.11.7.1: write 0 to IA32_BIOS_SIGN_ID, execute CPUID.1,
 * read the revision from bits 63:32.  Exists from P6 on; AMD keeps the
 * patch level in the low half of the same MSR. */
static void read_microcode(struct cpu_info *ci)
{
	uint64_t v;

	ci->microcode_valid = 0;
	if (ci->vendor == VENDOR_INTEL && ci->sig.family < 6)
		return;
	if (!(ci->f1_edx & CPUID1_EDX_MSR))
		return;
	if (ci->vendor == VENDOR_INTEL && wrmsr_safe(MSR_IA32_BIOS_SIGN_ID, 0))
		return;
	(void)cpuid(1);
	if (rdmsr_safe(MSR_IA32_BIOS_SIGN_ID, &v))
		return;
	ci->microcode_valid = 1;
	ci->microcode = ci->vendor == VENDOR_INTEL ? (uint32_t)(v >> 32)
						   : (uint32_t)v;
}

/* The PMU kind, and what the CPU reports of that PMU itself
 * (ci->report): the first generation whose detect hook says the CPU
 * reports it wins (cpu_pmu_kind()); else the kind goes by the signature,
 * and the report is the hook's of that kind's generation, if it has
 * one. */
static void read_pmu_kind(struct cpu_info *ci)
{
	unsigned n;
	const struct pmu_generation *g = pmu_generations(&n), *claim = NULL;
	const struct pmu_generation *own;

	for (unsigned i = 0; i < n && !claim; i++) {
		if (g[i].feature || !g[i].detect)
			continue;
		memset(&ci->report, 0, sizeof(ci->report));
		if (g[i].detect(ci, &ci->report))
			claim = &g[i];
	}
	ci->pmu = cpu_pmu_kind(ci->vendor, ci->sig.family, ci->sig.model,
			       claim ? claim->kind : PMU_NONE);
	own = pmu_generation_for(ci->pmu);
	if (own == claim)
		return;
	memset(&ci->report, 0, sizeof(ci->report));
	if (own && own->detect)
		(void)own->detect(ci, &ci->report);
}

/* The generation's probe (its pmu/<gen>/generation.c says which
 * selection register and why the value counts nothing): write a harmless
 * event selection, read it back, restore the old value. */
static void probe_counters(struct cpu_info *ci)
{
	const struct pmu_generation *g = pmu_generation_for(ci->pmu);
	struct pmu_probe *p = &ci->probe;
	uint64_t old = 0;

	memset(p, 0, sizeof(*p));
	if (!g || !g->probe.msr)
		return;
	p->done = 1;
	p->msr = g->probe.msr;
	p->wrote = g->probe.value;
	if (rdmsr_safe(p->msr, &old))
		old = 0;
	p->wr_vector = wrmsr_safe(p->msr, p->wrote);
	p->rd_vector = rdmsr_safe(p->msr, &p->read);
	p->present = !p->wr_vector && !p->rd_vector && p->read == p->wrote;
	(void)wrmsr_safe(p->msr, old);
}

const struct cpu_info *cpu_detect(void)
{
	struct cpu_info *ci = &detected;
	struct cpuid_regs r;

	memset(ci, 0, sizeof(*ci));
	read_vendor(ci);
	r = cpuid(1);
	cpu_sig_decode(r.eax, ci->vendor, &ci->sig);
	ci->f1_ecx = r.ecx;
	ci->f1_edx = r.edx;
	ci->f1_ebx = r.ebx;
	if (ci->max_leaf >= 7) {
		r = cpuid_count(7, 0);
		ci->f7_ebx = r.ebx;
		ci->f7_edx = r.edx;
	}
	ci->hybrid = !!(ci->f7_edx & CPUID7_EDX_HYBRID);
	if (ci->max_leaf >= CPUID_LEAF_HYBRID)
		ci->core_type = (uint8_t)(cpuid_count(CPUID_LEAF_HYBRID,
						      0).eax >> 24);
	ci->cores_per_package = ci->max_leaf >= 4 ?
				(cpuid_count(4, 0).eax >> 26) + 1 : 1;
	ci->model_name = cpu_model_name(ci->vendor, ci->sig.family,
					ci->sig.model, ci->model_buf,
					sizeof(ci->model_buf));
	read_brand(ci);
	read_microcode(ci);
	if (ci->vendor == VENDOR_INTEL && ci->sig.family >= 6 &&
	    (ci->f1_edx & CPUID1_EDX_MSR))
		ci->misc_enable_valid =
			!rdmsr_safe(MSR_IA32_MISC_ENABLE, &ci->misc_enable);
	read_pmu_kind(ci);
	pmu_generation_shape(ci->pmu, ci, &ci->counters, &ci->width);
	probe_counters(ci);
	return ci;
}

const char *cpu_core_type_name(const struct cpu_info *ci)
{
	if (!ci->hybrid)
		return NULL;
	return ci->core_type == CORE_TYPE_CORE ? "performance" :
	       ci->core_type == CORE_TYPE_ATOM ? "efficient" : NULL;
}

void cpu_describe(const struct cpu_info *ci, char *buf, unsigned size)
{
	fmt_snprintf(buf, size, "cpu: vendor=%s family=%u model=%u "
		     "stepping=%u signature=0x%x name=\"%s\"", ci->vendor_id,
		     ci->sig.family, ci->sig.model, ci->sig.stepping,
		     ci->sig.raw, ci->model_name);
}

/* An IA32_MISC_ENABLE bit as the log shows it ("-" where unreadable). */
static const char *misc_bit(const struct cpu_info *ci, uint64_t bit)
{
	if (!ci->misc_enable_valid)
		return "-";
	return ci->misc_enable & bit ? "1" : "0";
}

void cpu_describe_extra(const struct cpu_info *ci, char *buf, unsigned size)
{
	fmt_snprintf(buf, size, "cpu-extra: brand=\"%s\" microcode=%s%x "
		     "msr=%d ds=%d dtes64=%d ds_cpl=%d pdcm=%d pt=%d "
		     "misc_enable=%s%llx perfmon_available=%s "
		     "pebs_unavailable=%s hybrid=%d core_type=%s", ci->brand,
		     ci->microcode_valid ? "0x" : "unreadable/",
		     ci->microcode_valid ? ci->microcode : 0,
		     !!(ci->f1_edx & CPUID1_EDX_MSR),
		     !!(ci->f1_edx & CPUID1_EDX_DS),
		     !!(ci->f1_ecx & CPUID1_ECX_DTES64),
		     !!(ci->f1_ecx & CPUID1_ECX_DSCPL),
		     !!(ci->f1_ecx & CPUID1_ECX_PDCM),
		     !!(ci->f7_ebx & CPUID7_EBX_PT),
		     ci->misc_enable_valid ? "0x" : "unreadable/",
		     (unsigned long long)ci->misc_enable,
		     misc_bit(ci, MISC_ENABLE_PERFMON),
		     misc_bit(ci, MISC_ENABLE_PEBS_UNAVAIL), ci->hybrid,
		     cpu_core_type_name(ci) ? cpu_core_type_name(ci) : "-");
}
