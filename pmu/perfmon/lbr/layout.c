/* pmu/perfmon/lbr/layout.c: where the LBRs of each architectural perfmon
 * microarchitecture are (layout.h).  Sources, SDM Vol. 3B (order no.
 * 253669) chapter 17 "Last Branch Records" sections per family and Vol. 4
 * (order no. 335592) MSR tables; Linux arch/x86/events/intel/lbr.c sets
 * the same stacks up (intel_pmu_lbr_init_core, _atom, _slm, _nhm, _snb,
 * _hsw, _skl, _knl):
 *   - Core Solo/Duo (06_0EH): 8 records MSR_LASTBRANCH_0..7 at 40H-47H,
 *     each one MSR with from in 31:0 and to in 63:32 (the Pentium M's
 *     layout), MSR_LASTBRANCH_TOS 1C9H;
 *   - Core 2 (Core microarchitecture): 4 records, MSR_LASTBRANCH_n_
 *     FROM_IP 40H-43H, _TO_IP 60H-63H, TOS 1C9H;
 *   - Atom (Bonnell): 8 records at 40H-47H / 60H-67H, TOS 1C9H;
 *   - Nehalem, Westmere, Sandy Bridge, Ivy Bridge: 16 records at
 *     680H-68FH / 6C0H-6CFH, TOS 1C9H, MSR_LBR_SELECT 1C8H (bits 8:0);
 *   - Haswell, Broadwell: the same with LBR_SELECT.EN_CALLSTACK (bit 9);
 *   - Skylake, Ice Lake (and Tremont, whose Linux setup is Skylake's): 32
 *     records at 680H-69FH / 6C0H-6DFH with MSR_LBR_INFO_n at DC0H-DDFH;
 *   - Goldmont: the same 32 records without LBR_INFO (format 000110B
 *     keeps the flags in FROM and the cycles in TO: §17.6 of order no.
 *     325384-059US, the Goldmont section);
 *   - Knights Landing/Mill: 8 records at 680H/6C0H, LBR_SELECT;
 *   - MSR_LER_FROM_LIP 1DDH / MSR_LER_TO_LIP 1DEH from Core 2 on;
 *   - architectural LBRs (Sapphire Rapids and later): CPUID.1CH. */
#include "layout.h"
#include "../caps.h"
#include "../regs.h"

#define SELECT_NHM 0x1ffu	/* LBR_SELECT bits 8:0 */
#define SELECT_HSW 0x3ffu	/* with EN_CALLSTACK (bit 9) */

#define STACK(n, d, f, t, i, s, sv, lf, lt)                                  \
	{ .style = LBR_STYLE_STACK, .name = n, .depth = d, .tos = 0x1c9,     \
	  .from = f, .to = t, .info = i, .select = s, .select_valid = sv,    \
	  .ler_from = lf, .ler_to = lt }

static const struct lbr_layout legacy[] = {
	[PERFMON_UARCH_YONAH] = STACK("core-duo", 8, 0x40, 0, 0, 0, 0, 0, 0),
	[PERFMON_UARCH_CORE] = STACK("core2", 4, 0x40, 0x60, 0, 0, 0, 0x1dd,
				     0x1de),
	[PERFMON_UARCH_BONNELL] = STACK("atom", 8, 0x40, 0x60, 0, 0, 0,
					0x1dd, 0x1de),
	[PERFMON_UARCH_NEHALEM] = STACK("nehalem", 16, 0x680, 0x6c0, 0,
					0x1c8, SELECT_NHM, 0x1dd, 0x1de),
	[PERFMON_UARCH_WESTMERE] = STACK("nehalem", 16, 0x680, 0x6c0, 0,
					 0x1c8, SELECT_NHM, 0x1dd, 0x1de),
	[PERFMON_UARCH_SANDY_BRIDGE] = STACK("nehalem", 16, 0x680, 0x6c0, 0,
					     0x1c8, SELECT_NHM, 0x1dd, 0x1de),
	[PERFMON_UARCH_HASWELL] = STACK("haswell", 16, 0x680, 0x6c0, 0,
					0x1c8, SELECT_HSW, 0x1dd, 0x1de),
	[PERFMON_UARCH_SKYLAKE] = STACK("skylake", 32, 0x680, 0x6c0, 0xdc0,
					0x1c8, SELECT_HSW, 0x1dd, 0x1de),
	[PERFMON_UARCH_ICE_LAKE] = STACK("skylake", 32, 0x680, 0x6c0, 0xdc0,
					 0x1c8, SELECT_HSW, 0x1dd, 0x1de),
	[PERFMON_UARCH_GOLDMONT] = STACK("goldmont", 32, 0x680, 0x6c0, 0,
					 0x1c8, SELECT_HSW, 0x1dd, 0x1de),
	[PERFMON_UARCH_TREMONT] = STACK("skylake", 32, 0x680, 0x6c0, 0xdc0,
					0x1c8, SELECT_HSW, 0x1dd, 0x1de),
	[PERFMON_UARCH_KNIGHTS] = STACK("knights", 8, 0x680, 0x6c0, 0, 0x1c8,
					SELECT_NHM, 0x1dd, 0x1de),
};

static int arch_layout(const struct perfmon_caps *c, struct lbr_layout *l,
		       const char **why)
{
	*l = (struct lbr_layout){
		.style = LBR_STYLE_ARCH, .name = "arch",
		.depth = lbr_arch_depth_max(c->lbr_1c[0]),
		.format = LBR_FMT_ARCH,
		.arch_eax = c->lbr_1c[0], .arch_ebx = c->lbr_1c[1],
		.arch_ecx = c->lbr_1c[2],
	};
	if (!l->depth) {
		*why = "architectural LBRs with no depth in CPUID.1CH:EAX[7:0]";
		return -1;
	}
	return 0;
}

int perfmon_lbr_layout(const struct cpu_info *ci, struct lbr_layout *l,
		       const char **why)
{
	const struct perfmon_caps *c = perfmon_caps(why);

	(void)ci;
	if (!c)
		return -1;
	if (c->arch_lbr)
		return arch_layout(c, l, why);
	if ((unsigned)c->uarch >= sizeof(legacy) / sizeof(legacy[0]) ||
	    legacy[c->uarch].style != LBR_STYLE_STACK) {
		*why = "LBR layout unknown: this microarchitecture is not in "
		       "the table (pmu/perfmon/lbr/layout.c)";
		return -2;
	}
	*l = legacy[c->uarch];
	/* LBR_FMT: IA32_PERF_CAPABILITIES[5:0] where the CPU has the MSR
	 * (SDM Vol. 3B §17.4.8.1, Table 17-4); a CPU without it (Core
	 * Solo/Duo) has the 32-bit records of its one-MSR stack */
	l->format = c->has_perf_caps ?
		    (unsigned)(c->perf_caps & PERF_CAP_LBR_FMT_MASK) :
		    LBR_FMT_32;
	return 0;
}
