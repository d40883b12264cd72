/* lbr/record-info, lbr/arch-depth: what LBR_INFO says of a record, and the
 * architectural LBRs' depth register (SDM Vol. 3B, order no. 253669,
 * chapter 17; lbr_sdm.c restates the layouts):
 *   - LBR_INFO.CYC_CNT (15:0; formats 000101B's and 000111B's
 *     MSR_LBR_INFO_x, and the architectural IA32_LBR_x_INFO where
 *     CPUID.1CH:ECX[1] and CYC_CNT_VALID, bit 60), and TO[63:48] in
 *     format 000110B (Goldmont): the core clocks elapsed since the
 *     previous LBR update, saturating at FFFFH.  The reference model's core clock
 *     is one cycle per traced step (pmu/model.h), so under it the count
 *     of record k is the trace's steps from record k+1's branch to
 *     record k's; on hardware it is only checked not to be 0;
 *   - architectural LBR_INFO.BR_TYPE (59:56, CPUID.1CH:ECX[2]): the
 *     branch's type (lbr_sdm.c sdm_lbr_br_type());
 *   - IA32_LBR_DEPTH (14CFH) takes only a depth whose bit CPUID.1CH:
 *     EAX[7:0] sets (bit n: 8(n+1) records), others #GP(0); writing it
 *     clears every record; IA32_LBR_x_FROM_IP/TO_IP/INFO past the depth
 *     #GP(0) (the SDM's "Architectural Last Branch Records" section). */
#include "lbr_test.h"

static struct lbr_br want[LBR_MAX_DEPTH + 1];

static const struct lbr_filter every = {
	.cpls = PMU_CPLS_ALL, .branches = LBR_BR_ALL,
};

static void check_cycles(struct lbr_env *v, unsigned k, const struct lbr_br *w)
{
	uint64_t d = w[k].steps - w[k + 1].steps;

	if (d > 0xffff)
		d = 0xffff;
	if (!backend_model_backed()) {
		check(v->t, v->rec[k].cycles > 0, "record %u: CYC_CNT 0", k);
		return;
	}
	check(v->t, (uint64_t)v->rec[k].cycles == d, "record %u: CYC_CNT %d, "
	      "the trace has %llu steps (model clocks) since record %u", k,
	      v->rec[k].cycles, (unsigned long long)d, k + 1);
}

static void test_info(struct tcase *t)
{
	struct lbr_env v;
	unsigned nw;

	if (!lbr_begin(t, &v))
		goto out;
	if (v.s.format < 5 && v.s.style != SDM_LBR_ARCH) {
		skip(t, "format %u: no cycle counts (they came with format 5, "
		     "Skylake)", v.s.format);
		goto out;
	}
	if (!lbr_run(&v, "call-ret", 4, 3, &every))
		goto out;
	nw = lbr_expected(&v.tr, &every, want, v.s.depth);
	lbr_check_stack(&v, "call-ret n=4", want, nw);
	value(t, "record0_cycles", "%d", v.rec[0].cycles);
	value(t, "record0_br_type", "%d", v.rec[0].br_type);
	for (unsigned k = 0; k + 1 < nw && k < v.nrec; k++) {
		if (v.s.style != SDM_LBR_ARCH || (v.s.a_ecx & 2u))
			check_cycles(&v, k, want);
		if (v.s.style == SDM_LBR_ARCH && (v.s.a_ecx & 4u) &&
		    !check(t, v.rec[k].br_type ==
			   (int)sdm_lbr_br_type(want[k].cls), "record %u: "
			   "BR_TYPE %d, the branch's class %d is type %u", k,
			   v.rec[k].br_type, want[k].cls,
			   sdm_lbr_br_type(want[k].cls)))
			break;
		if (!check(t, v.rec[k].mispred >= 0, "record %u: no MISPRED "
			   "bit decoded", k))
			break;
	}
out:
	lbr_end(&v);
}

TEST(lbr_record_info, "lbr/record-info",
     "LBR_INFO: core clocks since the previous record, the branch type",
     test_info, 0);

#define SDM_LBR_DEPTH 0x14cfu
#define SDM_LBR_FROM(x) (0x1500u + (x))

static void test_arch_depth(struct tcase *t)
{
	struct lbr_env v;
	uint64_t max = 0, x;
	int vec;

	if (!lbr_begin(t, &v))
		goto out;
	if (v.s.style != SDM_LBR_ARCH) {
		skip(t, "no architectural LBRs: the %s has legacy LBRs",
		     v.s.family);
		goto out;
	}
	vec = be_rdmsr(SDM_LBR_DEPTH, &max);
	value(t, "depth", "%llu (CPUID.1CH:EAX 0x%08x)",
	      (unsigned long long)max, v.s.a_eax);
	for (unsigned d = 0; d <= 72; d += 4) {
		int ok = d && d % 8 == 0 && d <= 64 &&
			 (v.s.a_eax & (1u << (d / 8 - 1)));

		vec = be_wrmsr(SDM_LBR_DEPTH, d);
		if (!check(t, ok ? vec == 0 : vec == 13, "WRMSR IA32_LBR_DEPTH "
			   "%u: vector %d, expected %s", d, vec,
			   ok ? "none" : "#GP (13)"))
			goto out;
	}
	/* the largest allowed depth again, with records, then the smallest */
	if (!lbr_run(&v, "counted-loop", 10, 3, &every))
		goto out;
	check(t, v.rec[0].from != 0, "no record after a run");
	vec = be_wrmsr(SDM_LBR_DEPTH, 8);
	check(t, vec == 0, "WRMSR IA32_LBR_DEPTH 8: vector %d", vec);
	x = 1;
	vec = be_rdmsr(SDM_LBR_FROM(0), &x);
	check(t, vec == 0 && x == 0, "IA32_LBR_0_FROM_IP after a depth write: "
	      "0x%llx (vector %d), expected 0: a write clears the records",
	      (unsigned long long)x, vec);
	vec = be_rdmsr(SDM_LBR_FROM(8), &x);
	check(t, vec == 13, "IA32_LBR_8_FROM_IP with depth 8: vector %d, "
	      "expected #GP (13)", vec);
	(void)be_wrmsr(SDM_LBR_DEPTH, max);
out:
	lbr_end(&v);
}

TEST(lbr_arch_depth, "lbr/arch-depth",
     "IA32_LBR_DEPTH: CPUID.1CH's depths only, a write clears the records",
     test_arch_depth, 0);
