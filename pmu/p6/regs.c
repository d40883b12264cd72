/* pmu/p6/regs.c: the P6 generations, the counter-write rule and a
 * counter's pmu_config (regs.h).  Pure logic: host-tested. */
#include "regs.h"

/* Family 6 models of the P6 family, as pmu/cpu_model.c's table names
 * them (its sources: SDM Vol. 4 Table 2-1 and AP-485): the Pentium II
 * brought MMX (Klamath 3, Deschutes 5, Mendocino 6), the Pentium III
 * Streaming SIMD (Katmai 7, Coppermine 8, Cascades 0xA, Tualatin 0xB),
 * the Pentium M its own events (Banias 9, Dothan 0xD). */
unsigned p6_gen_of(const struct cpu_sig *s)
{
	if (s->family != 6)
		return 0;
	switch (s->model) {
	case 0x01: return P6_PPRO;
	case 0x03: case 0x05: case 0x06: return P6_PII;
	case 0x07: case 0x08: case 0x0a: case 0x0b: return P6_PIII;
	case 0x09: case 0x0d: return P6_PM;
	/* Unlisted models up to 0xD, which pmu/cpu_model.c gives the P6
	 * PMU (engineering samples, OverDrive parts): the Pentium Pro's
	 * events, which every P6 has. */
	default: return s->model <= 0x0d ? P6_PPRO : 0;
	}
}

const char *p6_gen_name(unsigned gen)
{
	switch (gen) {
	case P6_PPRO: return "ppro";
	case P6_PII: return "pii";
	case P6_PIII: return "piii";
	case P6_PM: return "pentium-m";
	default: return "none";
	}
}

/* "The lower-order 32 bits of each MSR may be written with any value, and
 * the high-order 8 bits are sign-extended according to the value of bit
 * 31" (SDM Vol. 3B §18.22.2). */
uint64_t p6_ctr_written(uint64_t v)
{
	return (uint64_t)(int64_t)(int32_t)(uint32_t)v & P6_CTR_MASK;
}

int p6_ctr_writable(uint64_t v)
{
	return v <= P6_CTR_MASK && p6_ctr_written(v) == v;
}

struct pmu_config p6_config(const struct evtsel *s)
{
	struct pmu_config c = { evtsel_encode(s) & ~EVTSEL_EN, 0 };

	return c;
}

/* Linux (arch/x86/events/intel/p6.c, p6_pmu_rdpmc_quirk(), applied to
 * model 1 only): "PPro erratum 26; fixed in stepping 9 and above", and it
 * turns user-space RDPMC off below stepping 9. */
int p6_erratum26(const struct cpu_sig *s)
{
	return s->family == 6 && s->model == 1 && s->stepping < 9;
}

int p6_masks_lvtpc(unsigned gen)
{
	return gen == P6_PM;
}

/* The P6 family's LBRs (SDM Vol. 3, order no. 325384-059US: §17.14 "Last
 * Branch, Interrupt, and Exception Recording (P6 Family Processors)" and
 * §17.13 "(Pentium M Processors)"; Table 35-46 "MSRs in the P6 Family
 * Processors" and Table 35-45 "MSRs in Pentium M Processors"):
 *   - Pentium Pro, II, III: LastBranchFromIP 1DBH, LastBranchToIP 1DCH,
 *     LastExceptionFromIP 1DDH, LastExceptionToIP 1DEH, 32-bit;
 *   - Pentium M: 8 records MSR_LASTBRANCH_0..7 at 40H-47H, one MSR each
 *     with from in 31:0 and to in 63:32, MSR_LASTBRANCH_TOS 1C9H, the
 *     last exception record MSR_LER_FROM_LIP 1DDH / MSR_LER_TO_LIP
 *     1DEH. */
int p6_lbr_layout(const struct cpu_info *ci, struct lbr_layout *l,
		  const char **why)
{
	static const struct lbr_layout p6 = {
		.style = LBR_STYLE_P6, .name = "p6", .depth = 1,
		.format = LBR_FMT_32, .from = 0x1db, .to = 0x1dc,
		.ler_from = 0x1dd, .ler_to = 0x1de,
	};
	static const struct lbr_layout pentium_m = {
		.style = LBR_STYLE_STACK, .name = "pentium-m", .depth = 8,
		.format = LBR_FMT_32, .tos = 0x1c9, .from = 0x40,
		.ler_from = 0x1dd, .ler_to = 0x1de,
	};
	unsigned gen = p6_gen_of(&ci->sig);

	if (!gen) {
		*why = "not a P6 family signature";
		return -1;
	}
	*l = gen == P6_PM ? pentium_m : p6;
	return 0;
}
