/* Host stub for tests/host/pmu/perfmon/test_model*.c and
 * ds/test_model.c: links the
 * architectural-perfmon reference model (pmu/perfmon/model.c) with the
 * capabilities in force (pmu/perfmon/caps.c) and stands in for what the
 * host lacks, so the tests drive the model through its MSR interface
 * alone, without the driver.
 *
 *   - Only PMU_ARCH has a model, this one: its source is compiled into
 *     this translation unit, and as the tests link no descriptors,
 *     STUB_MODEL_GENERATION()'s lookup is the one model_for() asks
 *     (tests/host/pmu/p5/stub_model.c says why and how).
 *   - cpu_info() is a GenuineIntel family-6 part of the model number the
 *     test picks, reporting no CPUID.0AH version (as QEMU under TCG), so
 *     the capability row of that family/model is the model's input.
 *     caps.c is compiled here too, so that picking another CPU can drop
 *     the capabilities it computed for the last one.
 *   - apic_lvtpc_deliver() counts the PMIs the model raises.
 *   - smp_on_sibling() says whether the step being fed is the sibling
 *     logical processor's (AnyThread).
 *
 * Do not list pmu/perfmon/model.c or pmu/perfmon/caps.c in host-sources
 * next to this file. */
#include <string.h>

#include "pmu/perfmon/model.c"
#include "pmu/perfmon/caps.c"
#include "pmu/perfmon/ds/format.c"
#include "tests/host/pmu/perfmon/stub_model.h"
#include "tests/host/pmu/stub_model_generation.h"
#include "arch/x86/smp.h"
#include "arch/x86/paging.h"
#include "arch/x86/xmm.h"

STUB_MODEL_GENERATION(PMU_ARCH, perfmon_model)

struct stub_pm stub_pm;
static struct cpu_info fake_cpu;

void stub_pm_cpu(unsigned family, unsigned model)
{
	memset(&fake_cpu, 0, sizeof(fake_cpu));
	memcpy(fake_cpu.vendor_id, "GenuineIntel", 13);
	fake_cpu.vendor = VENDOR_INTEL;
	fake_cpu.sig.family = family;
	fake_cpu.sig.model = model;
	fake_cpu.pmu = PMU_ARCH;
	own_done = 0;		/* caps.c: compute this CPU's afresh */
	standing_in = 0;
	stub_pm.pmis = 0;
	stub_pm.sibling = 0;
	stub_pm.ds_memory = 0;
}

const struct cpu_info *cpu_info(void)
{
	return &fake_cpu;
}

void trap_set_hook(unsigned vector, trap_hook_fn fn)
{
	(void)vector;
	(void)fn;
}

static const struct backend model_backend = { .id = BE_MODEL,
					      .name = "model" };

const struct backend *backend_current(void)
{
	return &model_backend;
}

int apic_lvtpc_deliver(int mask_after);
int apic_lvtpc_deliver(int mask_after)
{
	(void)mask_after;
	stub_pm.pmis++;
	return 1;
}

int smp_on_sibling(void)
{
	return stub_pm.sibling;
}

/* On the host a linear address is a host pointer.  Only the DS suite
 * (tests/host/pmu/perfmon/ds/test_model.c) programs a DS area and PEBS
 * buffer, in its own arrays, and says so with ds_memory; for the other
 * suites no memory is writable. */
int paging_range_writable(uint64_t va, uint64_t len)
{
	return stub_pm.ds_memory && len && va + len > va;
}

void xmm_read_all(uint64_t out[2 * XMM_REGS])
{
	memset(out, 0, 2 * XMM_REGS * sizeof(out[0]));
}
