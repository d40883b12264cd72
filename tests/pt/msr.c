/* pt/msr-*: the Intel PT registers as the SDM defines them (Intel SDM
 * Vol. 3C, order no. 326019-060US, §36.2.7 "Model Specific Registers" and
 * §36.3.1 CPUID leaf 14H), through be_rdmsr/be_wrmsr: the model backend's
 * PT model, or the real registers.
 *
 *   - §36.2.7.1: "any MSR write that attempts to change bits marked
 *     reserved, or utilize encodings marked reserved, will cause a #GP";
 *     a bit whose feature CPUID.14H does not enumerate is reserved
 *     (Table 36-6 says so bit by bit, Table 36-11 likewise);
 *   - §36.2.7.3 "Other Writes to IA32_RTIT_CTL": a write that changes
 *     IA32_RTIT_CTL while TraceEn is set #GPs unless the same write also
 *     clears TraceEn; writing back the same value does not (§36.2.7.1);
 *   - IA32_RTIT_OUTPUT_BASE and _MASK_PTRS (§36.2.7.7, §36.2.7.8) and
 *     IA32_RTIT_CR3_MATCH (§36.2.7.6) can be written only when TraceEn is
 *     0; IA32_RTIT_STATUS's Error and Stopped only "when TraceEn is
 *     cleared" (Table 36-7);
 *   - CycThresh, MTCFreq and PSBFreq take only the encodings CPUID.
 *     (EAX=14H,ECX=1) offers; others #GP (Table 36-6);
 *   - IA32_RTIT_STATUS (Table 36-7): TriggerEn set while tracing is
 *     enabled; ContextEn set when the CPL filter allows the current CPL
 *     (§36.2.5.3; RDMSR runs at CPL 0: OS decides); FilterEn, ContextEn
 *     and TriggerEn ignore writes; bit 3 is reserved;
 *   - IA32_RTIT_OUTPUT_MASK_PTRS in single-range mode (§36.2.7.8): bits
 *     6:0 read as 1s and ignore writes, bits 63:32 the offset of the next
 *     byte; IA32_RTIT_OUTPUT_BASE bits 6:0 are reserved. */
#include "pt_test.h"

/* Writes msr; want the vector (0 or 13) and, after a #GP, the register
 * unchanged (on hardware not for one the processor updates while it
 * traces: the output pointers, IA32_RTIT_STATUS.PacketByteCnt). */
static int write_expect_moving(struct tcase *t, uint32_t msr,
			       const char *name, uint64_t val, int want,
			       const char *why, int moves)
{
	uint64_t before = 0, after = 0;
	int rv = be_rdmsr(msr, &before), vec;

	vec = be_wrmsr(msr, val);
	(void)be_rdmsr(msr, &after);
	return check(t, rv == 0, "RDMSR %s: vector %d", name, rv) &&
	       check(t, vec == want, "WRMSR %s 0x%llx (%s): vector %d, "
		     "expected %s", name, (unsigned long long)val, why, vec,
		     want ? "#GP" : "none") &&
	       check(t, !vec || after == before ||
		     (moves && !pmu_on_model()), "WRMSR %s 0x%llx #GP'd but "
		     "the register went from 0x%llx to 0x%llx", name,
		     (unsigned long long)val, (unsigned long long)before,
		     (unsigned long long)after);
}

static int write_expect(struct tcase *t, uint32_t msr, const char *name,
			uint64_t val, int want, const char *why)
{
	return write_expect_moving(t, msr, name, val, want, why, 0);
}

#define CTL MSR_IA32_RTIT_CTL, "IA32_RTIT_CTL"
#define STATUS MSR_IA32_RTIT_STATUS, "IA32_RTIT_STATUS"
#define OBASE MSR_IA32_RTIT_OUTPUT_BASE, "IA32_RTIT_OUTPUT_BASE"
#define OMASK MSR_IA32_RTIT_OUTPUT_MASK_PTRS, "IA32_RTIT_OUTPUT_MASK_PTRS"
#define CR3M MSR_IA32_RTIT_CR3_MATCH, "IA32_RTIT_CR3_MATCH"

/* IA32_RTIT_CTL 0: TraceEn off and every field at its reset value. */
static int ctl_zero(struct tcase *t)
{
	int vec = be_wrmsr(MSR_IA32_RTIT_CTL, 0);

	return check(t, vec == 0, "WRMSR IA32_RTIT_CTL 0: vector %d", vec);
}

/* Tracing off and IA32_RTIT_CTL at 0 again, where pt_begin found PT. */
static void msr_end(struct tcase *t, struct pt_env *v)
{
	if (v->m)
		(void)ctl_zero(t);
	pt_end(v);
}

/* ---- pt/msr-ctl-reserved-gp */

/* A bit of IA32_RTIT_CTL that is reserved on this CPU. */
struct rsvd_bit {
	unsigned bit;
	const char *why;
};

static unsigned reserved_bits(const struct pt_caps *c, struct rsvd_bit *r)
{
	/* reserved in Table 36-6 whatever CPUID says (bit 31 and bits
	 * 55-56 left out: later revisions give them meaning) */
	static const unsigned fixed[] = { 18, 28, 29, 30, 48, 52, 63 };
	const struct {
		unsigned bit, present;
		const char *why;
	} feat[] = {
		{ 1, c->ebx0 & SDM_PT_EBX_PSB_CYC, "CYCEn without 14H.0 "
		  "EBX[1]" },
		{ 4, c->ebx0 & SDM_PT_EBX_POWER, "PwrEvtEn without 14H.0 "
		  "EBX[5]" },
		{ 5, c->ebx0 & SDM_PT_EBX_PTWRITE, "FUPonPTW without 14H.0 "
		  "EBX[4]" },
		{ 6, c->ecx0 & SDM_PT_ECX_TRANSPORT, "FabricEn without "
		  "14H.0 ECX[3]" },
		{ 7, c->ebx0 & SDM_PT_EBX_CR3FILTER, "CR3Filter without "
		  "14H.0 EBX[0]" },
		{ 8, c->ecx0 & SDM_PT_ECX_TOPA, "ToPA without 14H.0 "
		  "ECX[0]" },
		{ 9, c->ebx0 & SDM_PT_EBX_MTC, "MTCEn without 14H.0 EBX[3]" },
		{ 12, c->ebx0 & SDM_PT_EBX_PTWRITE, "PTWEn without 14H.0 "
		  "EBX[4]" },
	};
	unsigned n = 0;

	for (unsigned i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		r[n++] = (struct rsvd_bit){ fixed[i], "reserved" };
	for (unsigned i = 0; i < sizeof(feat) / sizeof(feat[0]); i++)
		if (!feat[i].present)
			r[n++] = (struct rsvd_bit){ feat[i].bit, feat[i].why };
	/* ADDRn_CFG past the ranges 14H.1 EAX[2:0] enumerates */
	for (unsigned k = SDM_PT_RANGES(c); k < 4; k++)
		r[n++] = (struct rsvd_bit){ 32 + 4 * k, "ADDRn_CFG past "
					    "14H.1 EAX[2:0]" };
	return n;
}

static void test_ctl_reserved(struct tcase *t)
{
	struct rsvd_bit r[32];
	struct pt_env v;
	unsigned n;

	if (!pt_begin(t, &v) || !ctl_zero(t))
		goto out;
	n = reserved_bits(v.c, r);
	for (unsigned i = 0; i < n; i++)
		if (!write_expect(t, CTL, 1ull << r[i].bit, VEC_GP,
				  r[i].why))
			goto out;
	/* ADDR0_CFG 3..15 are reserved encodings (Table 36-6) */
	if (SDM_PT_RANGES(v.c))
		write_expect(t, CTL, 3ull << 32, VEC_GP, "ADDR0_CFG 3");
	value(t, "reserved_bits", "%u tried", n);
out:
	msr_end(t, &v);
}

TEST(pt_msr_ctl_reserved, "pt/msr-ctl-reserved-gp",
     "WRMSR IA32_RTIT_CTL with a reserved bit, or a bit CPUID.14H does not "
     "enumerate, #GPs and changes nothing", test_ctl_reserved, 0);

/* ---- tracing on, for the tests below */

static int tracing(struct pt_env *v, int os, uint64_t *ctl)
{
	struct pt_config c = pt_config_for(v, os ? 0 : 3, 0);
	struct pmu_err e;

	*ctl = 0;
	memset(v->m->out, PT_GUARD_BYTE, sizeof(v->m->out));
	return check(v->t, pt_setup_output(v->base, PT_OUT_BYTES, &e) == 0,
		     "single-range output: %s", e.msg) &&
	       check(v->t, pt_start(&c, &e) == 0, "start PT: %s", e.msg) &&
	       check(v->t, be_rdmsr(MSR_IA32_RTIT_CTL, ctl) == 0 &&
		     (*ctl & SDM_CTL_TRACEEN), "IA32_RTIT_CTL 0x%llx after "
		     "pt_start: TraceEn clear", (unsigned long long)*ctl);
}

/* ---- pt/msr-ctl-while-tracing-gp */

static void test_ctl_while_tracing(struct tcase *t)
{
	uint64_t ctl = 0, now = 0, off;
	struct pt_env v;
	int vec;

	if (!pt_begin(t, &v) || !tracing(&v, 1, &ctl))
		goto out;
	/* DisRETC flipped with TraceEn kept: #GP */
	if (!write_expect(t, CTL, ctl ^ SDM_CTL_DISRETC, VEC_GP,
			  "DisRETC changed while TraceEn") ||
	    !write_expect(t, CTL, ctl, 0, "the same value while TraceEn"))
		goto out;
	/* the same write that clears TraceEn may change other bits */
	off = (ctl & ~SDM_CTL_TRACEEN) ^ SDM_CTL_DISRETC;
	vec = be_wrmsr(MSR_IA32_RTIT_CTL, off);
	(void)be_rdmsr(MSR_IA32_RTIT_CTL, &now);
	value(t, "ctl", "0x%llx, then 0x%llx", (unsigned long long)ctl,
	      (unsigned long long)now);
	check(t, vec == 0 && now == off, "WRMSR IA32_RTIT_CTL 0x%llx "
	      "(TraceEn cleared, DisRETC changed): vector %d, reads 0x%llx",
	      (unsigned long long)off, vec, (unsigned long long)now);
out:
	msr_end(t, &v);
}

TEST(pt_msr_ctl_while_tracing, "pt/msr-ctl-while-tracing-gp",
     "while TraceEn is set a WRMSR that changes IA32_RTIT_CTL #GPs, unless "
     "it also clears TraceEn; the same value writes", test_ctl_while_tracing,
     0);

/* ---- pt/msr-output-while-tracing-gp */

static void test_output_while_tracing(struct tcase *t)
{
	uint64_t ctl, base = 0, mask = 0, status = 0, cr3 = 0;
	struct pt_env v;

	if (!pt_begin(t, &v) || !tracing(&v, 1, &ctl))
		goto out;
	(void)be_rdmsr(MSR_IA32_RTIT_OUTPUT_BASE, &base);
	(void)be_rdmsr(MSR_IA32_RTIT_OUTPUT_MASK_PTRS, &mask);
	(void)be_rdmsr(MSR_IA32_RTIT_STATUS, &status);
	if (v.c->ebx0 & SDM_PT_EBX_CR3FILTER)
		(void)be_rdmsr(MSR_IA32_RTIT_CR3_MATCH, &cr3);
	if (!write_expect(t, OBASE, base, VEC_GP, "TraceEn set") ||
	    !write_expect_moving(t, OMASK, mask, VEC_GP, "TraceEn set",
				 1) ||
	    !write_expect_moving(t, STATUS, status, VEC_GP,
				 "TraceEn set", 1) ||
	    ((v.c->ebx0 & SDM_PT_EBX_CR3FILTER) &&
	     !write_expect(t, CR3M, cr3, VEC_GP, "TraceEn set")))
		goto out;
	/* TraceEn clear: each writes */
	if (!ctl_zero(t))
		goto out;
	write_expect(t, OBASE, base, 0, "TraceEn clear");
	write_expect(t, OMASK, mask & 0xffffffffull, 0, "TraceEn clear");
	write_expect(t, STATUS, 0, 0, "TraceEn clear");
	if (v.c->ebx0 & SDM_PT_EBX_CR3FILTER)
		write_expect(t, CR3M, 0, 0, "TraceEn clear");
out:
	msr_end(t, &v);
}

TEST(pt_msr_output_while_tracing, "pt/msr-output-while-tracing-gp",
     "while TraceEn is set WRMSR IA32_RTIT_OUTPUT_BASE, _MASK_PTRS, _STATUS "
     "and _CR3_MATCH #GP; with TraceEn clear they write",
     test_output_while_tracing, 0);

/* ---- pt/msr-encodings-gp */

/* Field values 0-15 at shift (with the enable bits en): those in bitmap
 * write, the others #GP.  Returns how many #GP'd. */
static unsigned encodings(struct tcase *t, const char *field, uint64_t en,
			  unsigned shift, unsigned bitmap)
{
	unsigned refused = 0;
	char why[48];

	for (unsigned val = 0; val < 16; val++) {
		uint64_t w = en | (uint64_t)val << shift;
		int ok = bitmap >> val & 1;

		fmt_snprintf(why, sizeof(why), "%s %u, %s by 14H.1", field,
			     val, ok ? "offered" : "not offered");
		if (!write_expect(t, CTL, w, ok ? 0 : VEC_GP, why) ||
		    !ctl_zero(t))
			break;
		refused += !ok;
	}
	return refused;
}

static void test_encodings(struct tcase *t)
{
	unsigned cyc = 0, mtc = 0, psb = 0;
	struct pt_env v;

	if (!pt_begin(t, &v) || !ctl_zero(t))
		goto out;
	if (v.c->ebx0 & SDM_PT_EBX_PSB_CYC) {
		cyc = encodings(t, "CycThresh", SDM_CTL_CYCEN,
				SDM_CTL_CYCTHRESH_SHIFT,
				SDM_PT_CYC_BITMAP(v.c));
		psb = encodings(t, "PSBFreq", 0, SDM_CTL_PSBFREQ_SHIFT,
				SDM_PT_PSB_BITMAP(v.c));
	}
	if (v.c->ebx0 & SDM_PT_EBX_MTC)
		mtc = encodings(t, "MTCFreq", SDM_CTL_MTCEN,
				SDM_CTL_MTCFREQ_SHIFT,
				SDM_PT_MTC_BITMAP(v.c));
	value(t, "not_offered", "CycThresh %u, PSBFreq %u, MTCFreq %u (each "
	      "#GP)", cyc, psb, mtc);
	check(t, (v.c->ebx0 & SDM_PT_EBX_PSB_CYC) ||
	      (v.c->ebx0 & SDM_PT_EBX_MTC), "neither CycThresh, PSBFreq nor "
	      "MTCFreq is configurable here (14H.0 EBX 0x%x)", v.c->ebx0);
out:
	msr_end(t, &v);
}

TEST(pt_msr_encodings, "pt/msr-encodings-gp",
     "CycThresh, PSBFreq and MTCFreq take the encodings CPUID.(EAX=14H,"
     "ECX=1) offers; every other value #GPs", test_encodings, 0);

/* ---- pt/msr-status */

static void status_while(struct tcase *t, struct pt_env *v, int os)
{
	uint64_t ctl, st = 0;
	struct pmu_err e;

	if (!tracing(v, os, &ctl))
		return;
	(void)be_rdmsr(MSR_IA32_RTIT_STATUS, &st);
	(void)pt_stop(&e);
	value(t, os ? "status_os" : "status_user", "0x%llx (CTL 0x%llx)",
	      (unsigned long long)st, (unsigned long long)ctl);
	check(t, st & SDM_STATUS_TRIGGEREN, "tracing: IA32_RTIT_STATUS "
	      "0x%llx without TriggerEn", (unsigned long long)st);
	check(t, !(st & SDM_STATUS_CONTEXTEN) == !os, "tracing with OS=%d at "
	      "CPL 0: IA32_RTIT_STATUS 0x%llx, ContextEn should be %d", os,
	      (unsigned long long)st, os);
	check(t, !(st & (SDM_STATUS_ERROR | SDM_STATUS_STOPPED)),
	      "tracing: IA32_RTIT_STATUS 0x%llx with Error or Stopped",
	      (unsigned long long)st);
	(void)be_rdmsr(MSR_IA32_RTIT_STATUS, &st);
	check(t, !(st & SDM_STATUS_TRIGGEREN), "TraceEn clear: "
	      "IA32_RTIT_STATUS 0x%llx with TriggerEn",
	      (unsigned long long)st);
}

static void test_status(struct tcase *t)
{
	uint64_t st = 0;
	struct pt_env v;
	int vec;

	if (!pt_begin(t, &v))
		goto out;
	status_while(t, &v, 1);
	status_while(t, &v, 0);
	if (!ctl_zero(t) ||
	    !write_expect(t, STATUS, 1ull << 3, VEC_GP, "bit 3 reserved"))
		goto out;
	/* TriggerEn ignores writes */
	vec = be_wrmsr(MSR_IA32_RTIT_STATUS, SDM_STATUS_TRIGGEREN);
	(void)be_rdmsr(MSR_IA32_RTIT_STATUS, &st);
	check(t, vec == 0 && !(st & SDM_STATUS_TRIGGEREN), "WRMSR "
	      "IA32_RTIT_STATUS TriggerEn with TraceEn clear: vector %d, "
	      "reads 0x%llx (writes are ignored)", vec,
	      (unsigned long long)st);
	/* Error: software writes it while TraceEn is clear */
	vec = be_wrmsr(MSR_IA32_RTIT_STATUS, SDM_STATUS_ERROR);
	(void)be_rdmsr(MSR_IA32_RTIT_STATUS, &st);
	check(t, vec == 0 && (st & SDM_STATUS_ERROR), "WRMSR "
	      "IA32_RTIT_STATUS Error with TraceEn clear: vector %d, reads "
	      "0x%llx", vec, (unsigned long long)st);
	vec = be_wrmsr(MSR_IA32_RTIT_STATUS, 0);
	(void)be_rdmsr(MSR_IA32_RTIT_STATUS, &st);
	check(t, vec == 0 && !(st & SDM_STATUS_ERROR), "WRMSR "
	      "IA32_RTIT_STATUS 0: vector %d, reads 0x%llx", vec,
	      (unsigned long long)st);
out:
	if (v.m)
		(void)be_wrmsr(MSR_IA32_RTIT_STATUS, 0);
	msr_end(t, &v);
}

TEST(pt_msr_status, "pt/msr-status",
     "IA32_RTIT_STATUS: TriggerEn while tracing, ContextEn by the CPL "
     "filter, bit 3 reserved, Error writable with TraceEn clear",
     test_status, 0);

/* ---- pt/msr-output-offset */

static void test_output_offset(struct tcase *t)
{
	const struct bench *b = bench_find("counted-loop");
	uint64_t mask = 0, base = 0;
	unsigned psbs, cycs;
	struct pt_config c;
	struct pt_env v;
	int vec;

	if (!check(t, b != NULL, "no benchmark counted-loop") ||
	    !pt_begin(t, &v) || !ctl_zero(t))
		goto out;
	write_expect(t, OBASE, v.base | 1, VEC_GP, "bits 6:0 reserved");
	write_expect(t, OBASE, 1ull << 63, VEC_GP, "above MAXPHYADDR");
	vec = be_wrmsr(MSR_IA32_RTIT_OUTPUT_MASK_PTRS, 0);
	(void)be_rdmsr(MSR_IA32_RTIT_OUTPUT_MASK_PTRS, &mask);
	check(t, vec == 0 && mask == 0x7f, "WRMSR IA32_RTIT_OUTPUT_MASK_PTRS "
	      "0: vector %d, reads 0x%llx (bits 6:0 read as 1s)", vec,
	      (unsigned long long)mask);
	c = pt_config_for(&v, 3, 0);
	if (!pt_run(&v, b, 20, 3, &c))
		goto out;
	(void)be_rdmsr(MSR_IA32_RTIT_OUTPUT_BASE, &base);
	(void)be_rdmsr(MSR_IA32_RTIT_OUTPUT_MASK_PTRS, &mask);
	value(t, "after_run", "OUTPUT_BASE 0x%llx MASK_PTRS 0x%llx",
	      (unsigned long long)base, (unsigned long long)mask);
	check(t, base == v.base, "IA32_RTIT_OUTPUT_BASE 0x%llx after a run, "
	      "set to 0x%llx", (unsigned long long)base,
	      (unsigned long long)v.base);
	check(t, (mask & 0xffffffffull) == PT_OUT_BYTES - 1, "MASK_PTRS "
	      "bits 31:0 0x%llx: the %u-byte region's mask is 0x%x",
	      (unsigned long long)(mask & 0xffffffffull), PT_OUT_BYTES,
	      PT_OUT_BYTES - 1);
	/* the offset is the stream's end: pt_run saw no byte written past
	 * it, and the bytes before it decode whole (a guard byte, 0xa5,
	 * starts no packet) */
	check(t, (mask >> 32) == v.len, "OutputOffset %llu, the driver said "
	      "%llu", (unsigned long long)(mask >> 32),
	      (unsigned long long)v.len);
	pt_check_packets(&v, "counted-loop n=20", 0, &psbs, &cycs);
out:
	msr_end(t, &v);
}

TEST(pt_msr_output_offset, "pt/msr-output-offset",
     "single range: OUTPUT_BASE bits 6:0 reserved, MASK_PTRS bits 6:0 read "
     "as 1s and bits 63:32 the next byte's offset", test_output_offset, 0);
