/* rdpmc_user: RDPMC at CPL 3 (rdpmc_user.h). */
#include "rdpmc_user.h"
#include "../arch/x86/cpu.h"
#include "../arch/x86/ring3.h"
#include "../arch/x86/safe.h"
#include "../pmu/model.h"
#include "../lib/fmt.h"

/* Code run at CPL 3 by ring3_run(): on the user pages, called with the
 * routine ABI (cpu.h). */
#define USER __attribute__((section(".text.user"), noinline)) ROUTINE_ABI

struct rdpmc_out {
	uint64_t value;
	int vector;		/* 0, or the exception RDPMC raised */
};

struct user_args {
	uint32_t idx;
	struct rdpmc_out out;
};

/* Runs at CPL 3: RDPMC through the exception table. */
USER static void user_rdpmc(uint64_t n, void *data)
{
	struct user_args *a = data;

	(void)n;
	a->out.vector = rdpmc_safe(a->idx, &a->out.value);
}

/* Runs RDPMC with ECX = idx at CPL 3.  Returns 0 (a failed check) when
 * ring 3 is unavailable or the CPL 3 run itself faulted. */
static int rdpmc_cpl3(struct tcase *t, uint32_t idx, int pce,
		      struct rdpmc_out *o)
{
	struct user_args *a = ring3_scratch();
	uint64_t cr4 = read_cr4();
	struct fault f;
	int r;

	if (!check(t, ring3_ready() && a, "no ring 3"))
		return 0;
	a->idx = idx;
	a->out = (struct rdpmc_out){ 0, -1 };
	/* Under a model the real PCE stays clear: the model judges the
	 * RDPMC with the PCE asked for (pmu/model.h, model_cpl3_pce). */
	if (model_active()) {
		model_cpl3_pce(pce);
		pce = 0;
	}
	write_cr4(pce ? cr4 | X86_CR4_PCE : cr4 & ~X86_CR4_PCE);
	r = ring3_run(user_rdpmc, 0, a, 0, &f);
	write_cr4(cr4);
	model_cpl3_pce(-1);
	*o = a->out;
	return check(t, r == 0, "CPL 3 run faulted: vector %u", f.vector);
}

void rdpmc_cpl3_check(struct tcase *t, uint32_t idx, int pce, int want,
		      uint64_t expect)
{
	struct rdpmc_out o;
	char key[24];

	if (!rdpmc_cpl3(t, idx, pce, &o))
		return;
	value(t, "cr4_pce", "%d", pce);
	value(t, "rdpmc_vector", "%d", o.vector);
	check(t, o.vector == want, "RDPMC 0x%x at CPL 3 with CR4.PCE %d: "
	      "vector %d, expected %d", idx, pce, o.vector, want);
	if (want || o.vector)
		return;
	fmt_snprintf(key, sizeof(key), "rdpmc%u", idx);
	value(t, key, "0x%llx", (unsigned long long)o.value);
	check(t, o.value == expect, "RDPMC 0x%x at CPL 3 read 0x%llx, RDMSR "
	      "0x%llx", idx, (unsigned long long)o.value,
	      (unsigned long long)expect);
}
