/* pmu/lbr_model.c: the LBRs of the reference models (lbr_model.h).
 *
 * The layout is the CPU's, which its generation's model passes (pmu/lbr.h;
 * its generation's tables).  What the model records, as pmu/lbr.h cites it:
 *   - every taken near branch and every far transfer (INT n, IRET, far
 *     CALL/JMP/RET) of a step at a CPL and of a class the filter keeps
 *     (lbr_branch_of(); LBR_SELECT suppresses, IA32_LBR_CTL selects);
 *   - legacy stacks: MSR_LASTBRANCH_TOS moves up by one, then the record
 *     goes where it points, so TOS names the newest (§17.4.8.1);
 *     architectural LBRs: the records move down one entry and the new
 *     one is entry 0;
 *   - the P6: LastBranchFromIP/ToIP hold the last transfer; an interrupt
 *     or exception first copies them into LastExceptionFromIP/ToIP (the
 *     LER pair of the later stacks the same);
 *   - the record's format (LBR_FMT): 32-bit halves, one MSR per record
 *     where the layout has no TO MSRs; formats 3, 4 and 6 keep their
 *     flags in the FROM MSR's top bits, format 6 the core clocks since
 *     the last update in TO[63:48], formats 5 and 7 and architectural
 *     LBRs flags and clocks in LBR_INFO (the clocks saturating at
 *     FFFFH); the model predicts every branch (MISPRED 0) and runs no
 *     transaction (IN_TX and ABORT 0); its clock is the model clock
 *     (pmu/model.h), one cycle per step;
 *   - call-stack mode (LBR_SELECT.EN_CALLSTACK, IA32_LBR_CTL.CALL_STACK):
 *     a recorded near RET removes the newest record instead of adding
 *     one (legacy: TOS moves back; architectural: the records move up).
 * Writes: FROM, TO and INFO hold what is written; LBR_SELECT and
 * IA32_LBR_CTL take their existing bits (#GP on others); IA32_LBR_DEPTH
 * takes a depth CPUID.1CH allows and clears every record; MSR_LASTBRANCH_
 * TOS writes are not modelled. */
#include "lbr_model.h"
#include "lbr.h"
#include "backend.h"
#include "emufault.h"
#include "../arch/x86/trap.h"

static struct {
	struct lbr_layout l;
	uint64_t from[LBR_ARCH_MAX], to[LBR_ARCH_MAX], info[LBR_ARCH_MAX];
	uint64_t ler_from, ler_to;
	uint64_t select, ctl, depth;
	unsigned tos;
	uint64_t last;			/* model clock of the last record */
} lm;

struct model_part lbr_model_part(void)
{
	return (struct model_part){ &lm, sizeof(lm) };
}

static void clear_records(void)
{
	for (unsigned i = 0; i < LBR_ARCH_MAX; i++)
		lm.from[i] = lm.to[i] = lm.info[i] = 0;
	lm.tos = 0;
}

void lbr_model_reset(const struct lbr_layout *l)
{
	lm.l = l && l->depth <= LBR_ARCH_MAX ? *l :
	       (struct lbr_layout){ .style = LBR_STYLE_NONE };
	clear_records();
	lm.ler_from = lm.ler_to = 0;
	lm.select = lm.ctl = 0;
	lm.depth = lm.l.style == LBR_STYLE_ARCH ?
		   lbr_arch_depth_max(lm.l.arch_eax) : lm.l.depth;
	lm.last = 0;
}

/* ---- registers */

/* Entry i of the register group that starts at base, i < n. */
static int in_group(uint32_t msr, uint32_t base, unsigned n, unsigned *i)
{
	if (!base || msr < base || msr >= base + n)
		return 0;
	*i = msr - base;
	return 1;
}

static uint64_t ctl_valid(void)
{
	uint64_t v = LBR_CTL_EN | LBR_CTL_OS | LBR_CTL_USR;

	if (lm.l.arch_ebx & LBR_1C_EBX_CALL_STACK)
		v |= LBR_CTL_CALL_STACK;
	if (lm.l.arch_ebx & LBR_1C_EBX_FILTER)
		v |= (uint64_t)LBR_BR_ALL << LBR_CTL_BR_SHIFT;
	return v;
}

/* The record array and index of an architectural LBR register, or NULL. */
static uint64_t *arch_reg(uint32_t msr, int *vec)
{
	unsigned i;
	uint64_t *a;

	if (in_group(msr, MSR_IA32_LBR_FROM_IP(0), LBR_ARCH_MAX, &i))
		a = lm.from;
	else if (in_group(msr, MSR_IA32_LBR_TO_IP(0), LBR_ARCH_MAX, &i))
		a = lm.to;
	else if (in_group(msr, MSR_IA32_LBR_INFO(0), LBR_ARCH_MAX, &i))
		a = lm.info;
	else
		return 0;
	*vec = i < lm.depth ? 0 : VEC_GP;
	return &a[i];
}

/* The record array entry of a legacy LBR register, or NULL. */
static uint64_t *legacy_reg(uint32_t msr)
{
	unsigned i, n = lm.l.depth;

	if (in_group(msr, lm.l.from, n, &i))
		return &lm.from[i];
	if (in_group(msr, lm.l.to, n, &i))
		return &lm.to[i];
	if (in_group(msr, lm.l.info, n, &i))
		return &lm.info[i];
	if (lm.l.ler_from && msr == lm.l.ler_from)
		return &lm.ler_from;
	if (lm.l.ler_to && msr == lm.l.ler_to)
		return &lm.ler_to;
	return 0;
}

static int arch_rdmsr(uint32_t msr, uint64_t *v)
{
	uint64_t *r;
	int vec = 0;

	if (msr == MSR_IA32_LBR_CTL) {
		*v = lm.ctl;
		return 0;
	}
	if (msr == MSR_IA32_LBR_DEPTH) {
		*v = lm.depth;
		return 0;
	}
	r = arch_reg(msr, &vec);
	if (!r)
		return 1;
	*v = vec ? 0 : *r;
	return vec;
}

static int arch_wrmsr(uint32_t msr, uint64_t v)
{
	uint64_t *r;
	int vec = 0;

	if (msr == MSR_IA32_LBR_CTL) {
		if (v & ~ctl_valid())
			return VEC_GP;
		lm.ctl = v;
		return 0;
	}
	if (msr == MSR_IA32_LBR_DEPTH) {
		if (!lbr_arch_depth_ok(lm.l.arch_eax, v))
			return VEC_GP;
		lm.depth = v;
		clear_records();
		return 0;
	}
	r = arch_reg(msr, &vec);
	if (!r)
		return 1;
	if (!vec)
		*r = v;
	return vec;
}

int lbr_model_rdmsr(uint32_t msr, uint64_t *v)
{
	uint64_t *r;

	switch (lm.l.style) {
	case LBR_STYLE_NONE:
		return 1;
	case LBR_STYLE_ARCH:
		return arch_rdmsr(msr, v);
	default:
		break;
	}
	if (lm.l.tos && msr == lm.l.tos) {
		*v = lm.tos;
		return 0;
	}
	if (lm.l.select && msr == lm.l.select) {
		*v = lm.select;
		return 0;
	}
	r = legacy_reg(msr);
	if (!r)
		return 1;
	*v = *r;
	return 0;
}

int lbr_model_wrmsr(uint32_t msr, uint64_t v)
{
	uint64_t *r;

	switch (lm.l.style) {
	case LBR_STYLE_NONE:
		return 1;
	case LBR_STYLE_ARCH:
		return arch_wrmsr(msr, v);
	default:
		break;
	}
	if (lm.l.tos && msr == lm.l.tos)
		return BE_NOT_MODELLED;
	if (lm.l.select && msr == lm.l.select) {
		if (v & ~(uint64_t)lm.l.select_valid)
			return VEC_GP;
		lm.select = v;
		return 0;
	}
	r = legacy_reg(msr);
	if (!r)
		return 1;
	*r = v;
	return 0;
}

/* ---- recording */

int lbr_model_recording(uint64_t debugctl, int frozen)
{
	if (frozen)
		return 0;
	switch (lm.l.style) {
	case LBR_STYLE_ARCH:
		return !!(lm.ctl & LBR_CTL_EN);
	case LBR_STYLE_NONE:
		return 0;
	default:
		return !!(debugctl & LBR_DEBUGCTL_LBR);
	}
}

/* Does the filter keep a branch of class c at cpl? */
static int kept(int c, unsigned cpl)
{
	/* without branch filtering (CPUID.1CH:EBX[1] = 0) the type bits
	 * are reserved and every branch is recorded */
	if (lm.l.style == LBR_STYLE_ARCH)
		return (lm.ctl & (cpl ? LBR_CTL_USR : LBR_CTL_OS)) &&
		       (!(lm.l.arch_ebx & LBR_1C_EBX_FILTER) ||
			(lm.ctl & (1ull << (LBR_CTL_BR_SHIFT + c))));
	if (!lm.l.select)
		return 1;
	if (lm.select & (cpl ? LBR_SELECT_CPL_NEQ_0 : LBR_SELECT_CPL_EQ_0))
		return 0;
	return !(lm.select & lbr_select_bit((enum lbr_branch)c));
}

static int call_stack(void)
{
	if (lm.l.style == LBR_STYLE_ARCH)
		return !!(lm.ctl & LBR_CTL_CALL_STACK);
	return !!(lm.select & LBR_SELECT_EN_CALLSTACK);
}

/* An interrupt or exception: INT3, INT n, INTO, INT1 (the opcode after
 * any prefixes; SDM Vol. 2B INT n/INTO/INT3/INT1). */
static int is_interrupt(const struct insn_event *e)
{
	const uint8_t *p = (const uint8_t *)(uintptr_t)e->rip;

	while (*p == 0x66 || *p == 0x67 || *p == 0xf2 || *p == 0xf3 ||
	       (*p & 0xf0) == 0x40)
		p++;
	return *p == 0xcc || *p == 0xcd || *p == 0xce || *p == 0xf1;
}

/* The record's FROM as the format writes it (flags all 0). */
static uint64_t from_of(uint64_t from, uint64_t to)
{
	if (lbr_one_msr(&lm.l))
		return (uint32_t)from | (uint64_t)(uint32_t)to << 32;
	switch (lm.l.format) {
	case LBR_FMT_32:
		return (uint32_t)from;
	case LBR_FMT_EIP_FLAGS:
	case LBR_FMT_TIME:
		return from & ~LBR_FROM_MISPRED;
	case LBR_FMT_EIP_FLAGS_TSX:
		return from & ~(LBR_FROM_MISPRED | LBR_FROM_IN_TX |
				LBR_FROM_ABORT);
	default:
		return from;
	}
}

/* The core clocks since the last record, saturating at FFFFH. */
static uint64_t cycles(uint64_t now)
{
	uint64_t cyc = now - lm.last;

	return cyc > LBR_INFO_CYC_MASK ? LBR_INFO_CYC_MASK : cyc;
}

/* The record's TO: format 6 keeps the cycles in bits 63:48. */
static uint64_t to_of(uint64_t to, uint64_t now)
{
	if (lm.l.format == LBR_FMT_32)
		return (uint32_t)to;
	if (lm.l.format == LBR_FMT_TIME)
		return (to & ((1ull << LBR_TO_CYCLES_SHIFT) - 1)) |
		       cycles(now) << LBR_TO_CYCLES_SHIFT;
	return to;
}

static uint64_t info_of(int c, uint64_t now)
{
	uint64_t cyc = cycles(now), v;

	if (lm.l.style != LBR_STYLE_ARCH && lm.l.format != LBR_FMT_INFO &&
	    lm.l.format != LBR_FMT_INFO2)
		return 0;
	if (lm.l.style != LBR_STYLE_ARCH)
		return cyc;
	v = 0;
	if (lm.l.arch_ecx & LBR_1C_ECX_TIMED)
		v |= cyc | LBR_INFO_CYC_VALID;
	if (lm.l.arch_ecx & LBR_1C_ECX_BR_TYPE)
		v |= (uint64_t)lbr_br_type((enum lbr_branch)c) <<
		     LBR_INFO_BR_TYPE_SHIFT;
	return v;
}

static void push(const struct insn_event *e, int c, uint64_t now)
{
	unsigned n = (unsigned)lm.depth, i = 0;
	/* EF_LBR_TOS_BACKWARDS: the TOS steps down, not up, so reading
	 * back from it (TOS, TOS-1, ...) finds stale records after the
	 * newest */
	unsigned step = emufault_on(EF_LBR_TOS_BACKWARDS) ? n - 1 : 1;
	uint64_t to = to_of(e->next_rip, now);

	if (lm.l.style == LBR_STYLE_ARCH) {
		for (unsigned k = n - 1; k; k--) {
			lm.from[k] = lm.from[k - 1];
			lm.to[k] = lm.to[k - 1];
			lm.info[k] = lm.info[k - 1];
		}
	} else if (lm.l.style == LBR_STYLE_STACK) {
		lm.tos = (lm.tos + step) % n;
		i = lm.tos;
	}
	lm.from[i] = from_of(e->rip, e->next_rip);
	lm.to[i] = lbr_one_msr(&lm.l) ? 0 : to;
	lm.info[i] = info_of(c, now);
	lm.last = now;
}

static void pop(void)
{
	unsigned n = (unsigned)lm.depth;

	if (lm.l.style == LBR_STYLE_STACK) {
		lm.tos = (lm.tos + n - 1) % n;
		return;
	}
	for (unsigned k = 0; k + 1 < n; k++) {
		lm.from[k] = lm.from[k + 1];
		lm.to[k] = lm.to[k + 1];
		lm.info[k] = lm.info[k + 1];
	}
	lm.from[n - 1] = lm.to[n - 1] = lm.info[n - 1] = 0;
}

enum lbr_step lbr_model_step(const struct insn_event *e, uint64_t debugctl,
			     int frozen, uint64_t now)
{
	int c;

	if (!lbr_model_recording(debugctl, frozen))
		return LBR_STEP_NONE;
	c = lbr_branch_of(e);
	if (c < 0 || !kept(c, e->cpl))
		return LBR_STEP_NONE;
	if (c == LBR_BR_OTHER && is_interrupt(e)) {
		/* the last branch before it (the P6's LastException pair,
		 * the LER pair of the stacks) */
		uint64_t f, t, info;

		lbr_model_entry(0, &f, &t, &info);
		if (lbr_one_msr(&lm.l)) {
			/* a one-MSR record: from in 31:0, to in 63:32 */
			t = f >> 32;
			f = (uint32_t)f;
		}
		if (lm.l.style == LBR_STYLE_P6 || lm.l.ler_from) {
			lm.ler_from = f;
			lm.ler_to = t;
		}
	}
	if (lm.l.style == LBR_STYLE_P6) {
		lm.from[0] = (uint32_t)e->rip;
		lm.to[0] = (uint32_t)e->next_rip;
		return LBR_STEP_PUSHED;
	}
	if (c == LBR_BR_NEAR_RET && call_stack()) {
		pop();
		return LBR_STEP_POPPED;
	}
	push(e, c, now);
	return LBR_STEP_PUSHED;
}

void lbr_model_entry(unsigned k, uint64_t *from, uint64_t *to,
		     uint64_t *info)
{
	unsigned n = (unsigned)lm.depth, i = k;

	*from = *to = *info = 0;
	if (lm.l.style == LBR_STYLE_NONE || k >= n)
		return;
	if (lm.l.style == LBR_STYLE_P6) {
		if (k == 0) {
			*from = lm.from[0];
			*to = lm.to[0];
		}
		return;
	}
	if (lm.l.style == LBR_STYLE_STACK)
		i = (lm.tos + n - k % n) % n;
	*from = lm.from[i];
	*to = lm.to[i];
	*info = lm.info[i];
}
