/* lbr/ tests: what the Last Branch Records hold after a benchmark, as the SDM
 * describes them (Vol. 3B, order no. 253669, chapter 17; lbr_sdm.c
 * restates the layouts and formats):
 *   - with IA32_DEBUGCTL.LBR (bit 0) set, or IA32_LBR_CTL.LBREn on
 *     architectural LBRs, every taken branch, interrupt and exception is
 *     recorded {from: the branch, to: its target}; a Jcc not taken is
 *     none; the stack keeps the most recent depth ones, the newest where
 *     MSR_LASTBRANCH_TOS points (entry 0 for architectural LBRs), the
 *     oldest overwritten when it wraps (§17.4.8.1 "LBR Stack");
 *   - with the LBRs off nothing is recorded and the stack keeps what it
 *     held (§17.4.8: they record "while the LBR flag is set");
 *   - MSR_LBR_SELECT (Nehalem on) suppresses branches at CPL 0
 *     (CPL_EQ_0, bit 0), at CPL > 0 (CPL_NEQ_0, bit 1), and by class
 *     (JCC 2, NEAR_REL_CALL 3, NEAR_IND_CALL 4, NEAR_RET 5, NEAR_IND_JMP
 *     6, NEAR_REL_JMP 7, FAR_BRANCH 8; §17.7.2 Table 17-11, Table 17-13
 *     in order no. 325384-059US); IA32_LBR_CTL selects them (OS 1, USR 2, bits 16-22);
 *   - LBR_INFO (format 000101B and architectural LBRs) counts the core
 *     clocks since the previous LBR update in CYC_CNT (15:0, saturating),
 *     and architectural LBR_INFO names the branch's type (59:56).
 * The hand-computed values the golden files pin come from counted-loop's
 * listing (xor +0, jmp +2, add +4, cmp +8, jb +0xb, ret +0xd). */
#include "lbr_test.h"

static struct lbr_br want[LBR_MAX_DEPTH + 1];

static const struct lbr_filter every = {
	.cpls = PMU_CPLS_ALL, .branches = LBR_BR_ALL,
};

static void newest_first(struct lbr_env *v, const char *bench, uint64_t n,
			 int cpl)
{
	char what[48];
	unsigned nw;

	if (!lbr_run(v, bench, n, cpl, &every))
		return;
	fmt_snprintf(what, sizeof(what), "%s n=%llu cpl %d", bench,
		     (unsigned long long)n, cpl);
	nw = lbr_expected(&v->tr, &every, want, v->s.depth);
	lbr_check_stack(v, what, want, nw);
}

static void test_newest_first(struct tcase *t)
{
	struct lbr_env v;

	if (lbr_begin(t, &v)) {
		newest_first(&v, "counted-loop", 10, 3);
		newest_first(&v, "counted-loop", 10, 0);
		newest_first(&v, "call-ret", 4, 3);
	}
	lbr_end(&v);
}

TEST(lbr_records_newest_first, "lbr/records-newest-first",
     "LBR on: the last branches {from, to}, newest at TOS (entry 0)",
     test_newest_first, 0);

/* More branches than the stack holds: the newest depth, and (legacy) the
 * TOS moved on by every record, modulo the depth. */
static void test_wraps(struct tcase *t)
{
	struct lbr_env v;
	uint64_t tos = 0;
	unsigned nw;

	if (!lbr_begin(t, &v) ||
	    !lbr_run(&v, "counted-loop", v.s.depth + 8, 3, &every))
		goto out;
	nw = lbr_expected(&v.tr, &every, want, v.s.depth);
	value(t, "branches", "%u into %u records", v.tr.n, v.s.depth);
	check(t, v.tr.n > v.s.depth, "%u branches: no wrap of %u records",
	      v.tr.n, v.s.depth);
	lbr_check_stack(&v, "wrapped", want, nw);
	if (v.s.style != SDM_LBR_STACK || !backend_model_backed())
		goto out;
	(void)be_rdmsr(v.s.tos, &tos);
	check(t, (tos + v.s.depth - v.tos_before % v.s.depth) % v.s.depth ==
	      v.tr.n % v.s.depth, "TOS %llu -> %llu over %u records: it must "
	      "move up by one per record, modulo %u",
	      (unsigned long long)v.tos_before, (unsigned long long)tos,
	      v.tr.n, v.s.depth);
out:
	lbr_end(&v);
}

TEST(lbr_stack_wraps, "lbr/stack-wraps",
     "more branches than records: the newest depth, TOS modulo the depth",
     test_wraps, 0);

/* Off: a run with the LBRs off leaves the stack as the last run left it. */
static void test_off(struct tcase *t)
{
	static struct sdm_rec before[LBR_MAX_DEPTH + 1];
	struct lbr_env v;
	unsigned n;

	if (!lbr_begin(t, &v) || !lbr_run(&v, "counted-loop", 6, 3, &every))
		goto out;
	n = v.nrec;
	memcpy(before, v.rec, sizeof(before));
	if (!lbr_run(&v, "branch-alternating", 9, 3, NULL))
		goto out;
	check(t, v.nrec == n, "%u records, then %u", n, v.nrec);
	for (unsigned k = 0; k < n && k < v.nrec; k++)
		if (!check(t, v.rec[k].from == before[k].from &&
			   v.rec[k].to == before[k].to, "record %u changed "
			   "with the LBRs off: 0x%llx -> 0x%llx, was 0x%llx "
			   "-> 0x%llx", k, (unsigned long long)v.rec[k].from,
			   (unsigned long long)v.rec[k].to,
			   (unsigned long long)before[k].from,
			   (unsigned long long)before[k].to))
			break;
out:
	lbr_end(&v);
}

TEST(lbr_off_keeps, "lbr/off-keeps-stack",
     "LBR off: nothing recorded, the stack keeps what it held", test_off,
     0);

/* A filter: the trace's branches it keeps, newest first; and every
 * record of the benchmark's code of a class it keeps. */
static int filtered(struct lbr_env *v, const char *bench, uint64_t n,
		    int cpl, const struct lbr_filter *f, const char *what)
{
	unsigned nw;

	if (!lbr_run(v, bench, n, cpl, f))
		return 0;
	nw = lbr_expected(&v->tr, f, want, v->s.depth);
	lbr_check_stack(v, what, want, nw);
	lbr_check_classes(v, what, v->b, f);
	return 1;
}

/* Filtering needs MSR_LBR_SELECT or architectural LBRs with CPUID.1CH
 * saying so (EBX[0] CPL, EBX[1] branch classes). */
static int can_filter(struct tcase *t, const struct lbr_env *v,
		      unsigned ebx_bit)
{
	if (v->s.style == SDM_LBR_ARCH) {
		if (v->s.a_ebx & ebx_bit)
			return 1;
		skip(t, "no LBR filter: CPUID.1CH:EBX 0x%x lacks bit 0x%x",
		     v->s.a_ebx, ebx_bit);
		return 0;
	}
	if (v->s.select)
		return 1;
	skip(t, "no LBR filter: the %s has no MSR_LBR_SELECT (it came with "
	     "Nehalem): every branch is recorded", v->s.family);
	return 0;
}

static void test_filter_cpl(struct tcase *t)
{
	const struct lbr_filter os = { .cpls = PMU_CPL0,
				       .branches = LBR_BR_ALL };
	const struct lbr_filter usr = { .cpls = PMU_CPLS_1_3,
					.branches = LBR_BR_ALL };
	struct lbr_env v;

	if (lbr_begin(t, &v) && can_filter(t, &v, 1u << 0) &&
	    filtered(&v, "counted-loop", 10, 3, &os, "CPL 0 only, run at 3"))
		filtered(&v, "counted-loop", 10, 0, &usr,
			 "CPL 1-3 only, run at 0");
	lbr_end(&v);
}

TEST(lbr_filter_cpl, "lbr/filter-cpl",
     "CPL filter: nothing of a benchmark at the CPL filtered out",
     test_filter_cpl, 0);

static void test_filter_calls(struct tcase *t)
{
	const struct lbr_filter calls = {
		.cpls = PMU_CPLS_ALL,
		.branches = 1u << LBR_BR_NEAR_REL_CALL |
			    1u << LBR_BR_NEAR_IND_CALL | 1u << LBR_BR_NEAR_RET,
	};
	struct lbr_env v;

	if (lbr_begin(t, &v) && can_filter(t, &v, 1u << 1))
		filtered(&v, "call-ret", 4, 3, &calls, "near calls and returns");
	lbr_end(&v);
}

TEST(lbr_filter_calls, "lbr/filter-calls-returns",
     "branch filter: near CALLs and RETs only", test_filter_calls, 0);

static void test_filter_cond(struct tcase *t)
{
	const struct lbr_filter cond = { .cpls = PMU_CPLS_ALL,
					 .branches = 1u << LBR_BR_COND };
	struct lbr_env v;

	if (lbr_begin(t, &v) && can_filter(t, &v, 1u << 1))
		filtered(&v, "branch-alternating", 9, 3, &cond,
			 "conditional branches");
	lbr_end(&v);
}

TEST(lbr_filter_cond, "lbr/filter-conditional",
     "branch filter: taken Jcc only", test_filter_cond, 0);
