/* tests/host/pmu/p6/stub_cpu.c: the CPU the P6 model sees in its host
 * suites (test_regs.c, test_model.c), the trap hooks it installs, and the
 * model driven through its MSRs and fed plain steps (stub_cpu.h).
 * test_driver.c has a CPU of its own and does not link this file. */
#include "tests/host/pmu/p6/stub_cpu.h"
#include "tests/host/pmu/p6/stub_model.h"

#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

struct cpu_info stub_cpu;
trap_hook_fn stub_trap_hooks[32];

const struct cpu_info *cpu_info(void)
{
	return &stub_cpu;
}

void trap_set_hook(unsigned vector, trap_hook_fn fn)
{
	assert_true(vector < sizeof(stub_trap_hooks) /
			     sizeof(stub_trap_hooks[0]));
	stub_trap_hooks[vector] = fn;
}

const struct pmu_model *stub_p6_start(unsigned model)
{
	const struct pmu_model *p6m;

	memset(&stub_cpu, 0, sizeof(stub_cpu));
	memcpy(stub_cpu.vendor_id, "GenuineIntel", 13);
	stub_cpu.vendor = VENDOR_INTEL;
	stub_cpu.sig.family = 6;
	stub_cpu.sig.model = model;
	stub_cpu.pmu = PMU_P6;
	stub_cpu.counters = 2;
	stub_cpu.width = 40;
	p6m = model_for(PMU_P6);
	assert_non_null(p6m);
	model_activate(p6m);
	memset(&stub_pmi, 0, sizeof(stub_pmi));
	return p6m;
}

uint64_t stub_rd(uint32_t msr)
{
	uint64_t v = 0xdeadbeefull;

	assert_int_equal(model_active()->rdmsr(msr, &v), 0);
	return v;
}

void stub_wr(uint32_t msr, uint64_t v)
{
	assert_int_equal(model_active()->wrmsr(msr, v), 0);
}

void stub_steps(unsigned cpl, unsigned n)
{
	struct insn_event e = { .cpl = (uint8_t)cpl, .retired = 1 };

	for (unsigned i = 0; i < n; i++)
		model_feed(&e, NULL);
}
