/* pmu-detect: what the harness says of a CPU it is not running on - the
 * host half of `tools/lab/pmu-harness detect --cpuid FILE`
 * (tools/lab/detect.py reads the dump and formats; docs/lab.md#detect).
 *
 *     pmu-detect < LEAVES
 *
 * LEAVES is one logical processor's CPUID, a line per leaf and subleaf:
 * "LEAF SUBLEAF EAX EBX ECX EDX", all hex.  The harness's own detection
 * (pmu/detect.c cpu_detect(), the generations' detect hooks, the
 * drivers' "# pmu:" fields, arch/x86/topology.c) runs on those leaves,
 * built for the host with CPUID answered from them (arch/x86/cpu.h
 * HOST_CPUID): nothing here re-implements a rule.  A dump holds no MSR,
 * so every RDMSR and WRMSR raises #GP here: what only an MSR could say
 * (microcode, IA32_MISC_ENABLE, IA32_PERF_CAPABILITIES) is "unreadable",
 * and the presence probe is not made.
 *
 * Output, a line each, tab-separated: "cpu", "cpu-extra", "pmu" and the
 * line the log would have; "topology" key=value...; "fact" NAME VALUE;
 * "plan" GROUP run|skip|unknown REASON.  Exit status 0, or 2 for bad
 * input (said on stderr).  Host code (libc). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86/cpu.h"
#include "arch/x86/safe.h"
#include "arch/x86/topology.h"
#include "arch/x86/trap.h"
#include "pmu/backend.h"
#include "pmu/detect.h"
#include "pmu/driver.h"
#include "pmu/generation.h"
#include "pmu/lbr.h"
#include "pmu/model.h"

#define MAX_LEAVES 1024

static struct leaf {
	uint32_t leaf, sub;
	struct cpuid_regs r;
} leaves[MAX_LEAVES];
static unsigned n_leaves;

static const struct leaf *find(uint32_t leaf, uint32_t sub)
{
	for (unsigned i = 0; i < n_leaves; i++)
		if (leaves[i].leaf == leaf && leaves[i].sub == sub)
			return &leaves[i];
	return NULL;
}

static uint32_t max_basic(void)
{
	const struct leaf *l = find(0, 0);

	return l ? l->r.eax : 0;
}

/* CPUID as the dumped processor answers it.  A leaf above the maximum of
 * its range returns the highest basic leaf's data (SDM Vol. 2A CPUID:
 * "If a value entered for CPUID.EAX is higher than the maximum input
 * value for basic or extended function for that processor then the data
 * for the highest basic information leaf is returned"); a leaf or
 * subleaf within the range that the dump does not list reads 0 (an
 * invalid subleaf of leaves 04H, 07H, 0BH ... reads so on silicon). */
struct cpuid_regs host_cpuid_count(uint32_t leaf, uint32_t sub)
{
	static const struct cpuid_regs zero;
	const struct leaf *top = find(0x80000000u, 0), *l;
	uint32_t max = leaf >= 0x80000000u ?
		       (top && top->r.eax >= 0x80000000u ? top->r.eax : 0) :
		       max_basic();

	if (leaf > max || (leaf >= 0x80000000u && !max)) {
		l = find(max_basic(), sub);
		if (!l)
			l = find(max_basic(), 0);
		return l ? l->r : zero;
	}
	l = find(leaf, sub);
	return l ? l->r : zero;
}

/* ---- no MSR in a dump: #GP (arch/x86/safe.h) */

int rdmsr_safe(uint32_t msr, uint64_t *val)
{
	(void)msr;
	*val = 0;
	return VEC_GP;
}

int wrmsr_safe(uint32_t msr, uint64_t val)
{
	(void)msr;
	(void)val;
	return VEC_GP;
}

int rdpmc_safe(uint32_t idx, uint64_t *val)
{
	(void)idx;
	*val = 0;
	return VEC_GP;
}

/* ---- the backend the drivers' describe() may ask: none */

static const struct backend none = { BE_NONE, "none", rdmsr_safe,
				     wrmsr_safe, rdpmc_safe, NULL };

const struct backend *backend_current(void)
{
	return &none;
}

int be_rdmsr(uint32_t msr, uint64_t *v)
{
	return rdmsr_safe(msr, v);
}

int be_wrmsr(uint32_t msr, uint64_t v)
{
	return wrmsr_safe(msr, v);
}

int be_rdpmc(uint32_t idx, uint64_t *v)
{
	return rdpmc_safe(idx, v);
}

const struct pmu_model *model_active(void)
{
	return NULL;
}

/* ---- input */

static int read_leaves(void)
{
	char line[256];
	unsigned no = 0;

	while (fgets(line, sizeof(line), stdin)) {
		unsigned long v[6];
		char end;

		no++;
		if (sscanf(line, "%lx %lx %lx %lx %lx %lx %c", &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &end) != 6) {
			fprintf(stderr, "pmu-detect: line %u: want LEAF "
				"SUBLEAF EAX EBX ECX EDX (hex)\n", no);
			return -1;
		}
		if (n_leaves == MAX_LEAVES) {
			fprintf(stderr, "pmu-detect: more than %u leaves\n",
				MAX_LEAVES);
			return -1;
		}
		for (unsigned i = 0; i < 6; i++)
			if (v[i] > 0xffffffffUL) {
				fprintf(stderr, "pmu-detect: line %u: a value "
					"wider than 32 bits\n", no);
				return -1;
			}
		leaves[n_leaves++] = (struct leaf){
			(uint32_t)v[0], (uint32_t)v[1],
			{ (uint32_t)v[2], (uint32_t)v[3], (uint32_t)v[4],
			  (uint32_t)v[5] } };
	}
	if (!find(0, 0) || !find(1, 0)) {
		fprintf(stderr, "pmu-detect: the dump has no leaf 00H or "
			"01H\n");
		return -1;
	}
	return 0;
}

/* ---- output */

static const char *answer_name(enum pmu_need_answer a)
{
	return a == PMU_NEED_MET ? "run" : a == PMU_NEED_LACKING ? "skip" :
	       "unknown";
}

/* A group of generation g: skipped on another PMU kind (harness/pmu_run.c
 * pmu_ready()'s words); else run, or as its needs answer (a need of the
 * whole group decides the group's line, one of some of its tests gets a
 * line of its own, "netburst/ht-*"). */
static void plan_group(const struct pmu_generation *g, const char *group,
		       const struct cpu_info *ci)
{
	enum pmu_need_answer whole = PMU_NEED_MET;
	char why[256] = "";

	if (g->kind != ci->pmu) {
		printf("plan\t%s\tskip\tkind=%s: this CPU has no %s PMU\n",
		       group, pmu_kind_name(ci->pmu), pmu_kind_name(g->kind));
		return;
	}
	for (unsigned i = 0; i < PMU_GENERATION_NEEDS && g->needs[i].prefix;
	     i++)
		if (!strcmp(g->needs[i].prefix, group) && g->needs[i].check)
			whole = g->needs[i].check(ci, why, sizeof(why));
	printf("plan\t%s\t%s\t%s\n", group, answer_name(whole), why);
	for (unsigned i = 0; i < PMU_GENERATION_NEEDS && g->needs[i].prefix;
	     i++) {
		const struct pmu_need *n = &g->needs[i];
		enum pmu_need_answer a;

		if (!n->check || !strcmp(n->prefix, group) ||
		    strncmp(n->prefix, group, strlen(group)))
			continue;
		why[0] = 0;
		a = n->check(ci, why, sizeof(why));
		if (a != PMU_NEED_MET)
			printf("plan\t%s*\t%s\t%s\n", n->prefix,
			       answer_name(a), why);
	}
}

/* lbr/: the LBRs the CPU's generation says it has (pmu_lbr_layout(),
 * pmu/lbr.h; docs/lbr.md): architectural ones with CPUID.1CH's depth, a
 * legacy stack by signature, whose record format only IA32_PERF_
 * CAPABILITIES[5:0] says. */
static void plan_lbr(const struct cpu_info *ci)
{
	struct lbr_layout l;
	const char *why = "";
	int r = pmu_lbr_layout(ci->pmu, ci, &l, &why);

	if (r == -2)
		printf("plan\tlbr/\tunknown\t%s\n", why);
	else if (r)
		printf("plan\tlbr/\tskip\tno LBRs: %s\n", why);
	else if (l.style == LBR_STYLE_ARCH)
		printf("plan\tlbr/\trun\tarchitectural LBRs: %u records "
		       "(CPUID.1CH:EAX %08x)\n", l.depth, l.arch_eax);
	else
		printf("plan\tlbr/\trun\t%s: %u records\n", l.name,
		       l.depth);
}

static void plan(const struct cpu_info *ci)
{
	unsigned n;
	const struct pmu_generation *g = pmu_generations(&n);

	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < PMU_GENERATION_GROUPS &&
		     g[i].groups[j]; j++)
			plan_group(&g[i], g[i].groups[j], ci);
	plan_lbr(ci);
}

static void facts(const struct cpu_info *ci, const struct topo *t)
{
	const char *type = cpu_core_type_name(ci);

	printf("fact\tvendor\t%s\n", ci->vendor_id);
	printf("fact\tfamily\t%u\nfact\tmodel\t%u\nfact\tstepping\t%u\n",
	       ci->sig.family, ci->sig.model, ci->sig.stepping);
	printf("fact\tname\t%s\n", ci->model_name);
	printf("fact\tpmu_kind\t%s\n", pmu_kind_name(ci->pmu));
	printf("fact\tcounters\t%u\nfact\twidth\t%u\n", ci->counters,
	       ci->width);
	printf("fact\tthreads_per_core\t%u\n", t->threads_per_core);
	printf("fact\tcores_per_package\t%u\n", ci->cores_per_package);
	printf("fact\thybrid\t%d\n", ci->hybrid);
	printf("fact\tcore_type\t%s\n", type ? type : "");
	printf("fact\tpt\t%d\n", !!(ci->f7_ebx & CPUID7_EBX_PT));
	printf("fact\tarch_lbr\t%d\n", !!(ci->f7_edx & CPUID7_EDX_ARCH_LBR));
	printf("fact\tds\t%d\n", !!(ci->f1_edx & CPUID1_EDX_DS));
	printf("fact\tpdcm\t%d\n", !!(ci->f1_ecx & CPUID1_ECX_PDCM));
	printf("fact\treport\t%08x %08x %08x %08x\n", ci->report.cpuid[0],
	       ci->report.cpuid[1], ci->report.cpuid[2], ci->report.cpuid[3]);
}

int main(void)
{
	char line[512];
	const struct cpu_info *ci;
	struct topo t;

	if (read_leaves())
		return 2;
	ci = cpu_detect();
	/* a dump cannot be probed: no "wrote, read back" (detect.h) */
	memset((void *)&ci->probe, 0, sizeof(ci->probe));
	cpu_describe(ci, line, sizeof(line));
	printf("cpu\t%s\n", line + strlen("cpu: "));
	cpu_describe_extra(ci, line, sizeof(line));
	printf("cpu-extra\t%s\n", line + strlen("cpu-extra: "));
	pmu_describe(ci, line, sizeof(line));
	printf("pmu\t%s\n", line);
	topo_read(&t);
	printf("topology\tsource=%s apic_id=%u smt_bits=%u core_bits=%u "
	       "threads_per_core=%u cores_per_package=%u\n",
	       topo_source_name(t.source), t.apic_id, t.smt_bits, t.core_bits,
	       t.threads_per_core, ci->cores_per_package);
	facts(ci, &t);
	plan(ci);
	return 0;
}
