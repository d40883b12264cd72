/* pmu/lbr.c: the LBR interface over every generation's layout (lbr.h):
 * the layout from the generation's descriptor, the filters as register
 * values, and the stack enabled, cleared and read through the backend,
 * newest record first.  The layout comes from the caller
 * (pmu_lbr_layout(), pmu/generation.h). */
#include "lbr.h"
#include "backend.h"
#include "sem.h"
#include "../arch/x86/msr.h"
#include "../lib/fmt.h"

int lbr_arch_depth_ok(uint32_t eax, uint64_t depth)
{
	return depth && depth % 8 == 0 && depth <= LBR_ARCH_MAX &&
	       (eax & (1u << (depth / 8 - 1)));
}

unsigned lbr_arch_depth_max(uint32_t eax)
{
	for (unsigned n = 8; n; n--)
		if (eax & (1u << (n - 1)))
			return 8 * n;
	return 0;
}

int lbr_branch_of(const struct insn_event *e)
{
	uint16_t f = e->flags;

	if (sem_once(SEM_FAR, e))
		return LBR_BR_OTHER;
	if (!sem_once(SEM_TAKEN, e))
		return -1;
	if (f & DEC_COND)
		return LBR_BR_COND;
	if (f & DEC_CALL)
		return f & DEC_INDIRECT ? LBR_BR_NEAR_IND_CALL :
		       LBR_BR_NEAR_REL_CALL;
	if (f & DEC_RET)
		return LBR_BR_NEAR_RET;
	return f & DEC_INDIRECT ? LBR_BR_NEAR_IND_JMP : LBR_BR_NEAR_REL_JMP;
}

unsigned lbr_br_type(enum lbr_branch c)
{
	static const uint8_t type[LBR_BR_NR] = {
		[LBR_BR_COND] = 0,
		[LBR_BR_NEAR_IND_JMP] = 1,
		[LBR_BR_NEAR_REL_JMP] = 2,
		[LBR_BR_NEAR_IND_CALL] = 3,
		[LBR_BR_NEAR_REL_CALL] = 4,
		[LBR_BR_NEAR_RET] = 5,
		[LBR_BR_OTHER] = 8,
	};

	return c < LBR_BR_NR ? type[c] : 8;
}

/* ---- filters */

/* LBR_SELECT's suppress bit of each class (Table 17-11). */
static const uint16_t select_bit[LBR_BR_NR] = {
	[LBR_BR_COND] = LBR_SELECT_JCC,
	[LBR_BR_NEAR_REL_JMP] = LBR_SELECT_NEAR_REL_JMP,
	[LBR_BR_NEAR_IND_JMP] = LBR_SELECT_NEAR_IND_JMP,
	[LBR_BR_NEAR_REL_CALL] = LBR_SELECT_NEAR_REL_CALL,
	[LBR_BR_NEAR_IND_CALL] = LBR_SELECT_NEAR_IND_CALL,
	[LBR_BR_NEAR_RET] = LBR_SELECT_NEAR_RET,
	[LBR_BR_OTHER] = LBR_SELECT_FAR_BRANCH,
};

uint32_t lbr_select_bit(enum lbr_branch c)
{
	return c < LBR_BR_NR ? select_bit[c] : 0;
}

static int select_of(const struct lbr_layout *l, const struct lbr_filter *f,
		     uint64_t *select, struct pmu_err *e)
{
	uint64_t s = 0;

	if (!(f->cpls & PMU_CPL0))
		s |= LBR_SELECT_CPL_EQ_0;
	if (!(f->cpls & PMU_CPLS_1_3))
		s |= LBR_SELECT_CPL_NEQ_0;
	for (unsigned c = 0; c < LBR_BR_NR; c++)
		if (!(f->branches & (1u << c)))
			s |= select_bit[c];
	if (f->call_stack)
		s |= LBR_SELECT_EN_CALLSTACK;
	if (s & ~(uint64_t)l->select_valid)
		return pmu_fail(e, 0, "LBR_SELECT 0x%llx: %s has no bits "
				"0x%llx", (unsigned long long)s, l->name,
				(unsigned long long)(s & ~(uint64_t)
						     l->select_valid));
	*select = s;
	return 0;
}

static int ctl_of(const struct lbr_layout *l, const struct lbr_filter *f,
		  uint64_t *ctl, struct pmu_err *e)
{
	uint64_t c = LBR_CTL_EN;

	if (f->cpls & PMU_CPL0)
		c |= LBR_CTL_OS;
	if (f->cpls & PMU_CPLS_1_3)
		c |= LBR_CTL_USR;
	/* the type bits exist with branch filtering (CPUID.1CH:EBX[1]);
	 * without it every branch is recorded */
	if (l->arch_ebx & LBR_1C_EBX_FILTER)
		c |= (uint64_t)(f->branches & LBR_BR_ALL) << LBR_CTL_BR_SHIFT;
	if (f->call_stack)
		c |= LBR_CTL_CALL_STACK;
	if ((f->cpls & PMU_CPLS_1_3) != PMU_CPLS_1_3 &&
	    (f->cpls & PMU_CPLS_1_3))
		return pmu_fail(e, 0, "CPLs 0x%x: IA32_LBR_CTL.USR takes CPL "
				"1-3 together", f->cpls);
	if (!(l->arch_ebx & LBR_1C_EBX_CPL) &&
	    (c & (LBR_CTL_OS | LBR_CTL_USR)) != (LBR_CTL_OS | LBR_CTL_USR))
		return pmu_fail(e, 0, "no CPL filtering (CPUID.1CH:EBX[0])");
	if (!(l->arch_ebx & LBR_1C_EBX_FILTER) &&
	    (f->branches & LBR_BR_ALL) != LBR_BR_ALL)
		return pmu_fail(e, 0, "no branch filtering "
				"(CPUID.1CH:EBX[1])");
	if (!(l->arch_ebx & LBR_1C_EBX_CALL_STACK) && f->call_stack)
		return pmu_fail(e, 0, "no call-stack mode (CPUID.1CH:EBX[2])");
	*ctl = c;
	return 0;
}

int lbr_filter_regs(const struct lbr_layout *l, const struct lbr_filter *f,
		    uint64_t *select, uint64_t *ctl, struct pmu_err *e)
{
	int all = (f->branches & LBR_BR_ALL) == LBR_BR_ALL &&
		  (f->cpls & PMU_CPLS_ALL) == PMU_CPLS_ALL && !f->call_stack;

	*select = *ctl = 0;
	if (!pmu_cpls_valid(f->cpls) || !(f->branches & LBR_BR_ALL) ||
	    (f->branches & ~LBR_BR_ALL))
		return pmu_fail(e, 0, "LBR filter: CPLs 0x%x, branches 0x%x",
				f->cpls, f->branches);
	if (l->style == LBR_STYLE_ARCH)
		return ctl_of(l, f, ctl, e);
	if (l->select)
		return select_of(l, f, select, e);
	if (!all)
		return pmu_fail(e, 0, "%s has no MSR_LBR_SELECT: it records "
				"every branch at every CPL", l->name);
	return 0;
}

/* ---- the registers */

int lbr_clear(const struct lbr_layout *l, struct pmu_err *e)
{
	uint64_t depth;

	if (l->style == LBR_STYLE_ARCH)
		return pmu_rdmsr(MSR_IA32_LBR_DEPTH, &depth, "IA32_LBR_DEPTH",
				 e) ||
		       pmu_wrmsr(MSR_IA32_LBR_DEPTH, depth, "IA32_LBR_DEPTH",
				 e);
	for (unsigned i = 0; i < l->depth; i++) {
		if (pmu_wrmsr(l->from + i, 0, "LBR FROM", e) ||
		    (l->to && pmu_wrmsr(l->to + i, 0, "LBR TO", e)) ||
		    (l->info && pmu_wrmsr(l->info + i, 0, "LBR_INFO", e)))
			return -1;
	}
	return 0;
}

int lbr_enable(const struct lbr_layout *l, const struct lbr_filter *f,
	       struct pmu_err *e)
{
	uint64_t select, ctl, d;

	if (l->style == LBR_STYLE_NONE)
		return pmu_fail(e, 0, "no LBRs");
	if (lbr_filter_regs(l, f, &select, &ctl, e))
		return -1;
	if (l->style == LBR_STYLE_ARCH)
		return pmu_wrmsr(MSR_IA32_LBR_CTL, ctl, "IA32_LBR_CTL", e);
	if (l->select && pmu_wrmsr(l->select, select, "MSR_LBR_SELECT", e))
		return -1;
	if (pmu_rdmsr(MSR_IA32_DEBUGCTL, &d, "IA32_DEBUGCTL", e))
		return -1;
	return pmu_wrmsr(MSR_IA32_DEBUGCTL, d | LBR_DEBUGCTL_LBR,
			 "IA32_DEBUGCTL", e);
}

int lbr_disable(const struct lbr_layout *l, struct pmu_err *e)
{
	uint64_t d;

	if (l->style == LBR_STYLE_ARCH)
		return pmu_wrmsr(MSR_IA32_LBR_CTL, 0, "IA32_LBR_CTL", e);
	if (l->style == LBR_STYLE_NONE)
		return 0;
	if (pmu_rdmsr(MSR_IA32_DEBUGCTL, &d, "IA32_DEBUGCTL", e))
		return -1;
	return pmu_wrmsr(MSR_IA32_DEBUGCTL, d & ~LBR_DEBUGCTL_LBR,
			 "IA32_DEBUGCTL", e);
}

/* Bits 31:0 of a 32-bit format's half, or the address with the flag
 * bits of formats 3 and 4 replaced by the sign of the bit below them
 * (§17.4.8.1: the address is sign-extended from the highest bit it
 * keeps). */
static uint64_t address(uint64_t v, unsigned flag_bits)
{
	if (!flag_bits)
		return v;
	return (uint64_t)((int64_t)(v << flag_bits) >> flag_bits);
}

static void decode_flags(unsigned fmt, uint64_t from, uint64_t to,
			 uint64_t info, struct lbr_entry *o)
{
	o->mispred = o->in_tx = o->abort = o->cycles = o->br_type = -1;
	if (fmt == LBR_FMT_EIP_FLAGS || fmt == LBR_FMT_EIP_FLAGS_TSX ||
	    fmt == LBR_FMT_TIME)
		o->mispred = !!(from & LBR_FROM_MISPRED);
	if (fmt == LBR_FMT_TIME)
		o->cycles = (int)(to >> LBR_TO_CYCLES_SHIFT);
	if (fmt == LBR_FMT_INFO2) {
		o->mispred = !!(info & LBR_INFO_MISPRED);
		o->cycles = (int)(info & LBR_INFO_CYC_MASK);
	}
	if (fmt == LBR_FMT_EIP_FLAGS_TSX) {
		o->in_tx = !!(from & LBR_FROM_IN_TX);
		o->abort = !!(from & LBR_FROM_ABORT);
	}
	if (fmt != LBR_FMT_INFO && fmt != LBR_FMT_ARCH)
		return;
	o->mispred = !!(info & LBR_INFO_MISPRED);
	o->in_tx = !!(info & LBR_INFO_IN_TX);
	o->abort = !!(info & LBR_INFO_ABORT);
	o->cycles = (int)(info & LBR_INFO_CYC_MASK);
	if (fmt != LBR_FMT_ARCH)
		return;
	if (!(info & LBR_INFO_CYC_VALID))
		o->cycles = -1;
	o->br_type = (int)((info & LBR_INFO_BR_TYPE_MASK) >>
			   LBR_INFO_BR_TYPE_SHIFT);
}

void lbr_decode(const struct lbr_layout *l, uint64_t from, uint64_t to,
		uint64_t info, struct lbr_entry *o)
{
	unsigned flag_bits = l->format == LBR_FMT_EIP_FLAGS ||
			     l->format == LBR_FMT_TIME ? 1 :
			     l->format == LBR_FMT_EIP_FLAGS_TSX ? 3 : 0;

	*o = (struct lbr_entry){ .info = info };
	if (lbr_one_msr(l)) {
		/* one MSR: from in 31:0, to in 63:32 */
		o->from = (uint32_t)from;
		o->to = from >> 32;
	} else if (l->format == LBR_FMT_32) {
		o->from = (uint32_t)from;
		o->to = (uint32_t)to;
	} else {
		o->from = address(from, flag_bits);
		o->to = l->format == LBR_FMT_TIME ? address(to, 16) : to;
	}
	decode_flags(l->format, from, to, info, o);
}

/* Record k (0 the newest) of a legacy stack whose TOS reads tos. */
static uint32_t slot(const struct lbr_layout *l, uint64_t tos, unsigned k)
{
	return (uint32_t)((tos + l->depth - k % l->depth) % l->depth);
}

static int read_one(const struct lbr_layout *l, uint32_t i,
		    struct lbr_entry *o, struct pmu_err *e)
{
	uint64_t from, to = 0, info = 0;
	int arch = l->style == LBR_STYLE_ARCH;

	if (pmu_rdmsr(arch ? MSR_IA32_LBR_FROM_IP(i) : l->from + i, &from,
		      "LBR FROM", e) ||
	    ((arch || l->to) &&
	     pmu_rdmsr(arch ? MSR_IA32_LBR_TO_IP(i) : l->to + i, &to,
		       "LBR TO", e)) ||
	    ((arch || l->info) &&
	     pmu_rdmsr(arch ? MSR_IA32_LBR_INFO(i) : l->info + i, &info,
		       "LBR_INFO", e)))
		return -1;
	lbr_decode(l, from, to, info, o);
	return 0;
}

static int read_p6(const struct lbr_layout *l, struct lbr_entry *out,
		   unsigned max, unsigned *n, struct pmu_err *e)
{
	uint64_t v[4];

	if (pmu_rdmsr(l->from, &v[0], "LastBranchFromIP", e) ||
	    pmu_rdmsr(l->to, &v[1], "LastBranchToIP", e) ||
	    pmu_rdmsr(l->ler_from, &v[2], "LastExceptionFromIP", e) ||
	    pmu_rdmsr(l->ler_to, &v[3], "LastExceptionToIP", e))
		return -1;
	for (unsigned k = 0; k < 2 && k < max; k++) {
		lbr_decode(l, v[2 * k], v[2 * k + 1], 0, &out[k]);
		*n = k + 1;
	}
	return 0;
}

int lbr_read(const struct lbr_layout *l, struct lbr_entry *out,
	     unsigned max, unsigned *n, struct pmu_err *e)
{
	uint64_t tos = 0, depth = l->depth;

	*n = 0;
	if (l->style == LBR_STYLE_NONE)
		return pmu_fail(e, 0, "no LBRs");
	if (l->style == LBR_STYLE_P6)
		return read_p6(l, out, max, n, e);
	if (l->style == LBR_STYLE_ARCH &&
	    pmu_rdmsr(MSR_IA32_LBR_DEPTH, &depth, "IA32_LBR_DEPTH", e))
		return -1;
	if (l->style == LBR_STYLE_STACK &&
	    pmu_rdmsr(l->tos, &tos, "MSR_LASTBRANCH_TOS", e))
		return -1;
	for (unsigned k = 0; k < depth && k < max; k++) {
		uint32_t i = l->style == LBR_STYLE_ARCH ? k :
			     slot(l, tos, k);

		if (read_one(l, i, &out[k], e))
			return -1;
		*n = k + 1;
	}
	return 0;
}
