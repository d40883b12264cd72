/* Host stub for tests/host/pmu/p5/test_regs.c: links the P5 reference model
 * (pmu/p5/model.c) and supplies the bounds of the model registry that
 * pmu/model.c walks.
 *
 * On the target, linker.ld brackets the input sections .data.pmu_models
 * with __pmu_models_start/__pmu_models_end.  The host's default linker
 * script has no such bracket: it merges .data.pmu_models into .data (the
 * .data.* pattern), and GNU ld only synthesizes __start_/__stop_ symbols
 * for sections named like C identifiers, which ".data.pmu_models" is not.
 * host-test.sh hands the host-sources words to gcc as they are, but a
 * linker script would have to be a file of its own.  So this stub compiles
 * the model's source into this translation unit (PMU_MODEL's static object
 * model_p5 is visible here) and defines the two bounds as assembler symbols
 * around that one object: the registry holds exactly the P5 model, as a
 * firmware with only P5 support would.  GCC's AddressSanitizer does not pad
 * objects placed in a user section, so the bounds cover the object
 * exactly.
 *
 * Do not list pmu/p5/model.c in host-sources next to this file (it would
 * be linked twice). */
#include "pmu/p5/model.c"

/* The end bound is model_p5 + sizeof(struct pmu_model), computed by the
 * compiler rather than written by hand. */
__attribute__((used)) static void pmu_models_bounds(void)
{
	__asm__(".globl __pmu_models_start\n\t"
		".set __pmu_models_start, model_p5\n\t"
		".globl __pmu_models_end\n\t"
		".set __pmu_models_end, model_p5 + %c0"
		: : "i"(sizeof(struct pmu_model)));
}

/* pmu/model.c raises PMIs through the local APIC, which the host has not:
 * the P5 never raises one (it has no overflow interrupt). */
int apic_lvtpc_deliver(int mask_after);
int apic_lvtpc_deliver(int mask_after)
{
	(void)mask_after;
	return -1;
}

