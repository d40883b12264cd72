/* lbr: the Last Branch Records every Intel PMU generation from the P6 on
 * has, as one interface over their layouts (lbr.c).
 *
 * Where the stack is and how it reads differs by generation and by
 * format; each generation says so in a struct lbr_layout through its
 * descriptor's lbr hook (pmu_lbr_layout(), pmu/generation.h), from
 * tables that cite the SDM.  What is the same everywhere is here.  The
 * legacy facts are cited by the June 2016 edition's numbering (SDM Vol. 3,
 * order no. 325384-059US; newer editions gather the same sections in a
 * chapter "Last Branch Records"), architectural LBRs by the October 2024
 * edition's (Vol. 3B chapter 20):
 *   - IA32_DEBUGCTL (1D9H) bit 0, LBR, turns the legacy stack on, on the
 *     P6 (DebugCtlMSR, §17.14.1), the Pentium 4 (DEBUGCTLA, §17.11), the
 *     Pentium M (DEBUGCTLB, §17.13) and every later part alike (§17.4.1,
 *     Figure 17-3);
 *   - the legacy stack is a ring whose MSR_LASTBRANCH_TOS points at the
 *     most recent record, incremented before each new one (§17.11.2:
 *     "Prior to placing a new branch record on the stack, the TOS is
 *     incremented by 1"); the P6 keeps one branch and the last one
 *     before an interrupt or exception (§17.14.2 "Last Branch and Last
 *     Exception MSRs");
 *   - IA32_PERF_CAPABILITIES[5:0] (LBR_FMT) says how a record reads
 *     (§17.4.8.1, the LBR format encodings; Vol. 4 Table 2-2);
 *   - MSR_LBR_SELECT (1C8H, from Nehalem) suppresses classes of branch
 *     (a set bit filters the class out: §17.7.2 Table 17-11, Sandy
 *     Bridge's Table 17-12, Haswell's EN_CALLSTACK Table 17-13);
 *   - architectural LBRs (CPUID.(EAX=07H,ECX=0):EDX[19], leaf 1CH; §20.1
 *     "Architectural Last Branch Records", Tables 20-2 and 20-3):
 *     IA32_LBR_CTL (14CEH) enables them and selects what they record (a
 *     set bit records the class), IA32_LBR_DEPTH (14CFH), FROM_IP/TO_IP/
 *     INFO at 1500H/1600H/1200H plus the entry, entry 0 the most recent.
 * The interface reads every style newest first.  Registers are reached
 * through the backend only (pmu/backend.h). */
#ifndef PMU_LBR_H
#define PMU_LBR_H

#include <stdint.h>
#include "driver.h"
#include "../arch/x86/trace.h"

enum lbr_style {
	LBR_STYLE_NONE,
	/* P6: LastBranchFromIP/ToIP and LastExceptionFromIP/ToIP */
	LBR_STYLE_P6,
	/* a ring of depth records indexed by MSR_LASTBRANCH_TOS */
	LBR_STYLE_STACK,
	/* architectural LBRs: entry 0 the newest, IA32_LBR_CTL/DEPTH */
	LBR_STYLE_ARCH,
};

/* LBR_FMT, IA32_PERF_CAPABILITIES[5:0] (§17.4.8.1). */
#define LBR_FMT_32 0x00u		/* 32-bit addresses */
#define LBR_FMT_LIP 0x01u		/* 64-bit linear addresses */
#define LBR_FMT_EIP 0x02u		/* 64-bit effective addresses */
#define LBR_FMT_EIP_FLAGS 0x03u		/* FROM[63] MISPRED */
#define LBR_FMT_EIP_FLAGS_TSX 0x04u	/* FROM[63:61] MISPRED IN_TX ABORT */
#define LBR_FMT_INFO 0x05u		/* flags and cycles in LBR_INFO */
#define LBR_FMT_TIME 0x06u		/* FROM[63] MISPRED, TO[63:48] cycles */
#define LBR_FMT_INFO2 0x07u		/* LBR_INFO without the TSX bits */
#define LBR_FMT_ARCH 0x3fu		/* architectural LBRs */

/* FROM-address flags of formats 3, 4 and 6 (§17.4.8.1); format 6
 * (Goldmont) keeps the core clocks since the last update in TO[63:48]. */
#define LBR_FROM_MISPRED (1ull << 63)
#define LBR_TO_CYCLES_SHIFT 48
#define LBR_FROM_IN_TX (1ull << 62)
#define LBR_FROM_ABORT (1ull << 61)
/* LBR_INFO (format 5: MSR_LBR_INFO_x, Skylake §17.12; architectural:
 * IA32_LBR_x_INFO): MISPRED 63, IN_TX 62, TSX_ABORT 61; the core clocks
 * since the last LBR update in 15:0; architectural LBRs add CYC_CNT_VALID
 * (60) and the branch type (59:56). */
#define LBR_INFO_MISPRED (1ull << 63)
#define LBR_INFO_IN_TX (1ull << 62)
#define LBR_INFO_ABORT (1ull << 61)
#define LBR_INFO_CYC_VALID (1ull << 60)
#define LBR_INFO_BR_TYPE_SHIFT 56
#define LBR_INFO_BR_TYPE_MASK (0xfull << LBR_INFO_BR_TYPE_SHIFT)
#define LBR_INFO_CYC_MASK 0xffffull

/* MSR_LBR_SELECT (Table 17-11): a set bit suppresses the class. */
#define LBR_SELECT_CPL_EQ_0 (1u << 0)
#define LBR_SELECT_CPL_NEQ_0 (1u << 1)
#define LBR_SELECT_JCC (1u << 2)
#define LBR_SELECT_NEAR_REL_CALL (1u << 3)
#define LBR_SELECT_NEAR_IND_CALL (1u << 4)
#define LBR_SELECT_NEAR_RET (1u << 5)
#define LBR_SELECT_NEAR_IND_JMP (1u << 6)
#define LBR_SELECT_NEAR_REL_JMP (1u << 7)
#define LBR_SELECT_FAR_BRANCH (1u << 8)
#define LBR_SELECT_EN_CALLSTACK (1u << 9)	/* Haswell on */

/* Architectural LBRs. */
#define MSR_IA32_LBR_CTL 0x14ceu
#define MSR_IA32_LBR_DEPTH 0x14cfu
#define MSR_IA32_LBR_FROM_IP(x) (0x1500u + (x))
#define MSR_IA32_LBR_TO_IP(x) (0x1600u + (x))
#define MSR_IA32_LBR_INFO(x) (0x1200u + (x))
#define LBR_CTL_EN (1ull << 0)
#define LBR_CTL_OS (1ull << 1)
#define LBR_CTL_USR (1ull << 2)
#define LBR_CTL_CALL_STACK (1ull << 3)
#define LBR_CTL_BR_SHIFT 16		/* + enum lbr_branch */
#define LBR_ARCH_MAX 64u		/* CPUID.1CH:EAX[7:0]: 8 * 8 */

/* IA32_DEBUGCTL.LBR (bit 0) on every generation that has one. */
#define LBR_DEBUGCTL_LBR (1ull << 0)

/* The classes of branch the filters name, in IA32_LBR_CTL's order (bit
 * 16 + class).  The architectural LBR_INFO.BR_TYPE numbers them in
 * another order (lbr_br_type()). */
enum lbr_branch {
	LBR_BR_COND,
	LBR_BR_NEAR_REL_JMP,
	LBR_BR_NEAR_IND_JMP,
	LBR_BR_NEAR_REL_CALL,
	LBR_BR_NEAR_IND_CALL,
	LBR_BR_NEAR_RET,
	LBR_BR_OTHER,		/* far transfers: INT n, IRET, far CALL ... */
	LBR_BR_NR
};
#define LBR_BR_ALL ((1u << LBR_BR_NR) - 1)

struct lbr_layout {
	enum lbr_style style;
	const char *name;		/* "core2", "nehalem" ... for the log */
	unsigned depth;			/* records (arch: the largest allowed) */
	unsigned format;		/* LBR_FMT_* */
	uint32_t tos;			/* MSR_LASTBRANCH_TOS, 0: none */
	/* the first FROM and TO MSR (P6: LastBranchFromIP/ToIP); to 0: one
	 * MSR per record, from in bits 31:0, to in bits 63:32 */
	uint32_t from, to;
	uint32_t info;			/* the first LBR_INFO MSR, 0: none */
	uint32_t select;		/* MSR_LBR_SELECT, 0: none */
	uint32_t select_valid;		/* its bits that exist */
	/* P6: LastExceptionFromIP/ToIP; others: the LER pair, 0: none */
	uint32_t ler_from, ler_to;
	/* architectural LBRs: CPUID.1CH EAX, EBX, ECX */
	uint32_t arch_eax, arch_ebx, arch_ecx;
};

/* A record in one MSR, from in bits 31:0 and to in bits 63:32 (the
 * legacy stacks without TO MSRs: Pentium M, Core Duo, early Pentium 4). */
static inline int lbr_one_msr(const struct lbr_layout *l)
{
	return l->style == LBR_STYLE_STACK && !l->to;
}

/* CPUID.1CH (architectural LBRs): EAX[7:0] bit n allows depth 8(n+1);
 * EBX[0] CPL filtering, [1] branch filtering, [2] call-stack mode; ECX[0]
 * the mispredict bit, [1] timed LBRs (cycle counts), [2] branch types. */
#define LBR_1C_EBX_CPL (1u << 0)
#define LBR_1C_EBX_FILTER (1u << 1)
#define LBR_1C_EBX_CALL_STACK (1u << 2)
#define LBR_1C_ECX_MISPRED (1u << 0)
#define LBR_1C_ECX_TIMED (1u << 1)
#define LBR_1C_ECX_BR_TYPE (1u << 2)

/* Is depth one CPUID.1CH:EAX allows? */
int lbr_arch_depth_ok(uint32_t eax, uint64_t depth);
/* The largest depth CPUID.1CH:EAX allows (0: none). */
unsigned lbr_arch_depth_max(uint32_t eax);

/* The class of a traced step's branch, or -1 for a step that records
 * nothing: a near branch that transferred control, or a far transfer
 * (INT n, IRET, far CALL/JMP/RET; SDM §17.4.8 "branches, interrupts and
 * exceptions"). */
int lbr_branch_of(const struct insn_event *e);

/* LBR_INFO.BR_TYPE of class c (architectural LBRs): 0 COND,
 * 1 NEAR_IND_JMP, 2 NEAR_REL_JMP, 3 NEAR_IND_CALL, 4 NEAR_REL_CALL,
 * 5 NEAR_RET, 8 and up other branches. */
unsigned lbr_br_type(enum lbr_branch c);

/* MSR_LBR_SELECT's bit that suppresses class c (Table 17-11). */
uint32_t lbr_select_bit(enum lbr_branch c);

/* One record, newest first, decoded by the layout's format. */
struct lbr_entry {
	uint64_t from, to;
	uint64_t info;			/* LBR_INFO as it reads (0: none) */
	int mispred, in_tx, abort;	/* -1: the format has no such bit */
	int cycles;			/* -1: none; else the core clocks */
	int br_type;			/* arch LBR_INFO.BR_TYPE, -1: none */
};

/* What to record: CPLs (PMU_CPL bits) and classes of branch (bit
 * enum lbr_branch); call_stack asks for the call-stack mode. */
struct lbr_filter {
	unsigned cpls;
	unsigned branches;
	int call_stack;
};

/* Can layout l record under f, and the register values that ask for it:
 * LBR_SELECT (legacy with a select MSR), IA32_LBR_CTL (arch).  -1 with
 * e filled when the hardware has no such filter. */
int lbr_filter_regs(const struct lbr_layout *l, const struct lbr_filter *f,
		    uint64_t *select, uint64_t *ctl, struct pmu_err *e);
/* Zeroes the stack: every FROM/TO/INFO written 0 (arch: IA32_LBR_DEPTH
 * rewritten, which clears them, §20.1). */
int lbr_clear(const struct lbr_layout *l, struct pmu_err *e);
/* Starts recording under f: the filter register, then DEBUGCTL.LBR (a
 * read-modify-write; other bits kept) or IA32_LBR_CTL. */
int lbr_enable(const struct lbr_layout *l, const struct lbr_filter *f,
	       struct pmu_err *e);
/* Stops it: DEBUGCTL.LBR cleared, or IA32_LBR_CTL 0. */
int lbr_disable(const struct lbr_layout *l, struct pmu_err *e);
/* The stack newest first, at most max records (the depth, P6: the last
 * branch, then the last exception's pair) into out, *n of them. */
int lbr_read(const struct lbr_layout *l, struct lbr_entry *out,
	     unsigned max, unsigned *n, struct pmu_err *e);
/* Decodes one record's MSR values by the layout's format (pure). */
void lbr_decode(const struct lbr_layout *l, uint64_t from, uint64_t to,
		uint64_t info, struct lbr_entry *out);

#endif
