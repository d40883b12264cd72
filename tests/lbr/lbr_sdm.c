/* tests/lbr/lbr_sdm.c: this CPU's Last Branch Records as the SDM lists
 * them (lbr_test.h), restated here so that a wrong layout table in a
 * driver cannot make an expectation wrong too.  Intel SDM Vol. 3B (order
 * no. 253669) chapter 17, the LBR section of each processor family, and
 * Vol. 4 (order no. 335592), the MSR tables of each family (DisplayFamily_
 * DisplayModel as Vol. 4 Table 2-1 lists them):
 *   - Pentium (family 5): no LBRs;
 *   - P6 family (06_01H-06_0BH): LastBranchFromIP 1DBH, LastBranchToIP
 *     1DCH (the last branch, interrupt or exception), LastExceptionFromIP
 *     1DDH / ToIP 1DEH, 32 bits;
 *   - Pentium M (06_09H, 06_0DH), Core Solo/Duo (06_0EH): 8 records
 *     MSR_LASTBRANCH_0..7 at 40H-47H, one MSR each, from in bits 31:0 and
 *     to in bits 63:32; MSR_LASTBRANCH_TOS 1C9H;
 *   - Pentium 4 (family 0FH): MSR_LASTBRANCH_TOS 1DAH; models 0-2: 4
 *     records at 1DBH-1DEH, one MSR each as the Pentium M's; models 3 and
 *     later: 16 records, FROM 680H-68FH, TO 6C0H-6CFH;
 *   - Core 2 (06_0FH, 06_16H, 06_17H, 06_1DH): 4 records, FROM 40H-43H,
 *     TO 60H-63H, TOS 1C9H;
 *   - Atom (06_1CH, 06_26H, 06_27H, 06_35H, 06_36H): 8 records at 40H-47H
 *     / 60H-67H, TOS 1C9H;
 *   - Nehalem, Westmere, Sandy Bridge, Ivy Bridge: 16 records, FROM
 *     680H-68FH, TO 6C0H-6CFH, TOS 1C9H, MSR_LBR_SELECT 1C8H; Haswell and
 *     Broadwell the same with LBR_SELECT.EN_CALLSTACK (bit 9);
 *   - Skylake and its successors up to Ice Lake, Tiger Lake and Rocket
 *     Lake, Goldmont Plus and Tremont: 32 records, FROM 680H-69FH, TO
 *     6C0H-6DFH, MSR_LBR_INFO_0..31 at DC0H-DDFH, TOS 1C9H, LBR_SELECT
 *     with EN_CALLSTACK; Goldmont (06_5CH, 06_5FH) the same without
 *     LBR_INFO (§17.6 of order no. 325384-059US: "new LBR format
 *     encoding 00110b");
 *   - Knights Landing/Mill (06_57H, 06_85H): 8 records at 680H / 6C0H,
 *     TOS 1C9H, LBR_SELECT;
 *   - architectural LBRs (IA32_PERF_CAPABILITIES[5:0] = 111111B, CPUID.
 *     (EAX=07H,ECX=0):EDX[19]): CPUID.1CH; where QEMU's CPUID lacks the
 *     leaf, Sapphire Rapids' (06_8FH) as a real one reports it:
 *     4000000BH 7 7 (InstLatx64 GenuineIntel00806F8_SapphireRapids_05
 *     _CPUID.txt): depths 8, 16 and 32, CPL and branch filtering, call
 *     stack, mispredict bit, timed LBRs, branch types.
 * The record format (IA32_PERF_CAPABILITIES[5:0], §17.4.8.1 of order no.
 * 325384-059US, the LBR format encodings): 000000B 32-bit addresses, 000001B 64-bit LIP,
 * 000010B 64-bit EIP, 000011B FROM[63] MISPRED with the address sign-
 * extended below it, 000100B FROM[63:61] MISPRED, IN_TX, TSX_ABORT,
 * 000101B flags in LBR_INFO (MISPRED 63, cycle count 15:0), 000110B
 * (Goldmont) FROM[63] MISPRED and the cycle count in TO[63:48], the
 * address sign-extended below it, 000111B LBR_INFO without the TSX bits
 * (Linux LBR_FORMAT_TIME and LBR_FORMAT_INFO2).  A CPU
 * without the MSR (before Core 2, and every Pentium 4) keeps 32-bit
 * addresses where a record is one MSR (or the P6's pairs), else the
 * linear addresses of the mode: 32 bits outside IA-32e mode.  Architectural
 * LBR_INFO: MISPRED 63, CYC_CNT_VALID 60, BR_TYPE 59:56, CYC_CNT 15:0. */
#include "lbr_test.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/msr.h"

#define MSR_PERF_CAPABILITIES 0x345u
#define SDM_FMT_ARCH 0x3fu

struct sdm_row {
	const char *family;
	unsigned fam;
	const int16_t *models;		/* ending at -1 */
	struct sdm_lbr s;
};

/* DisplayModels, the list ending at -1. */
#define MODELS(...) ((const int16_t[]){ __VA_ARGS__, -1 })
#define STACK(d, t, f, o, i, sel, cs)                                        \
	{ .style = SDM_LBR_STACK, .depth = d, .tos = t, .from = f, .to = o,  \
	  .info = i, .select = sel, .callstack = cs }

static const struct sdm_row rows[] = {
	{ "P6", 6, MODELS(0x01, 0x03, 0x05, 0x06, 0x07, 0x08, 0x0a, 0x0b),
	  { .style = SDM_LBR_P6, .depth = 1, .from = 0x1db, .to = 0x1dc } },
	{ "Pentium M, Core Solo/Duo", 6, MODELS(0x09, 0x0d, 0x0e),
	  STACK(8, 0x1c9, 0x40, 0, 0, 0, 0) },
	{ "Core 2", 6, MODELS(0x0f, 0x16, 0x17, 0x1d),
	  STACK(4, 0x1c9, 0x40, 0x60, 0, 0, 0) },
	{ "Atom", 6, MODELS(0x1c, 0x26, 0x27, 0x35, 0x36),
	  STACK(8, 0x1c9, 0x40, 0x60, 0, 0, 0) },
	{ "Nehalem to Ivy Bridge", 6,
	  MODELS(0x1a, 0x1e, 0x1f, 0x2e, 0x25, 0x2c, 0x2f, 0x2a, 0x2d, 0x3a,
		 0x3e),
	  STACK(16, 0x1c9, 0x680, 0x6c0, 0, 0x1c8, 0) },
	{ "Haswell, Broadwell", 6,
	  MODELS(0x3c, 0x3f, 0x45, 0x46, 0x3d, 0x47, 0x4f, 0x56),
	  STACK(16, 0x1c9, 0x680, 0x6c0, 0, 0x1c8, 1) },
	{ "Skylake to Rocket Lake, Goldmont Plus, Tremont", 6,
	  MODELS(0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6, 0x66, 0x7d, 0x7e,
		 0x6a, 0x6c, 0x8c, 0x8d, 0xa7, 0x7a, 0x86, 0x96, 0x9c),
	  STACK(32, 0x1c9, 0x680, 0x6c0, 0xdc0, 0x1c8, 1) },
	{ "Goldmont", 6, MODELS(0x5c, 0x5f),
	  STACK(32, 0x1c9, 0x680, 0x6c0, 0, 0x1c8, 1) },
	{ "Knights Landing/Mill", 6, MODELS(0x57, 0x85),
	  STACK(8, 0x1c9, 0x680, 0x6c0, 0, 0x1c8, 0) },
	{ "Pentium 4 models 0-2", 15, MODELS(0x00, 0x01, 0x02),
	  STACK(4, 0x1da, 0x1db, 0, 0, 0, 0) },
};

static const struct sdm_row *row_of(const struct cpu_sig *sig)
{
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (rows[i].fam != sig->family)
			continue;
		for (const int16_t *m = rows[i].models; *m >= 0; m++)
			if ((unsigned)*m == sig->model)
				return &rows[i];
	}
	return 0;
}

/* The Pentium 4 from model 3 on: every model past the table's. */
static const struct sdm_lbr p4_later = STACK(16, 0x1da, 0x680, 0x6c0, 0, 0,
					     0);

/* CPUID.1CH, or Sapphire Rapids' dump where CPUID lacks the leaf. */
static int arch_cpuid(const struct cpu_info *ci, struct sdm_lbr *s)
{
	struct cpuid_regs r;

	if (ci->max_leaf >= 0x1c && (ci->f7_edx & (1u << 19))) {
		r = cpuid_count(0x1c, 0);
		s->a_eax = r.eax;
		s->a_ebx = r.ebx;
		s->a_ecx = r.ecx;
		return 1;
	}
	if (ci->sig.family == 6 && ci->sig.model == 0x8f) {
		s->a_eax = 0x4000000b;
		s->a_ebx = 7;
		s->a_ecx = 7;
		return 1;
	}
	return 0;
}

int sdm_lbr_of(struct sdm_lbr *s, const char **why)
{
	const struct cpu_info *ci = cpu_info();
	const struct sdm_row *r = row_of(&ci->sig);
	uint64_t caps = 0;
	/* the CPU's answer: an absent MSR #GPs (hardware, and the model of
	 * a CPU without it) */
	int has_caps = be_rdmsr(MSR_PERF_CAPABILITIES, &caps) == 0;

	*s = (struct sdm_lbr){ .family = "?" };
	if (ci->vendor != VENDOR_INTEL || ci->sig.family < 6) {
		*why = "no LBRs: the SDM gives this CPU none (Pentium and "
		       "earlier, or not Intel)";
		return 0;
	}
	if (has_caps && (caps & 0x3f) == SDM_FMT_ARCH) {
		*s = (struct sdm_lbr){ .family = "architectural",
				       .style = SDM_LBR_ARCH,
				       .format = SDM_FMT_ARCH };
		if (!arch_cpuid(ci, s)) {
			*why = "architectural LBRs (LBR_FMT 3FH) without "
			       "CPUID.1CH";
			return 0;
		}
		for (unsigned n = 8; n; n--)
			if (s->a_eax & (1u << (n - 1)) && !s->depth)
				s->depth = 8 * n;
		return 1;
	}
	if (r) {
		*s = r->s;
		s->family = r->family;
	} else if (ci->sig.family == 15) {
		*s = p4_later;
		s->family = "Pentium 4 model 3+";
	} else {
		*why = "LBR layout unknown: no SDM row for this signature in "
		       "tests/lbr/lbr_sdm.c";
		return 0;
	}
	/* without the MSR: two 32-bit halves in one MSR, or the P6's
	 * 32-bit pairs, whatever the mode; else the mode's linear
	 * addresses */
	if (has_caps)
		s->format = (unsigned)(caps & 0x3f);
	else
		s->format = s->style == SDM_LBR_P6 || !s->to ||
			    sizeof(void *) == 4 ? 0 : 1;
	return 1;
}

int sdm_lbr_class(const struct insn_event *e)
{
	uint16_t f = e->flags;

	if (!e->retired)
		return -1;
	if (f & DEC_FAR)
		return 6;			/* OTHER */
	if (!(f & DEC_BRANCH) || !(f & EV_TAKEN))
		return -1;
	if (f & DEC_COND)
		return 0;
	if (f & DEC_CALL)
		return f & DEC_INDIRECT ? 4 : 3;
	if (f & DEC_RET)
		return 5;
	return f & DEC_INDIRECT ? 2 : 1;
}

static uint64_t sext(uint64_t v, unsigned top)
{
	unsigned sh = 63 - top;

	return (uint64_t)((int64_t)(v << sh) >> sh);
}

void sdm_lbr_decode(const struct sdm_lbr *s, uint64_t from, uint64_t to,
		    uint64_t info, struct sdm_rec *r)
{
	*r = (struct sdm_rec){ .from = from, .to = to, .info = info,
			       .mispred = -1, .cycles = -1, .br_type = -1 };
	if (s->style == SDM_LBR_STACK && !s->to) {
		r->from = (uint32_t)from;
		r->to = from >> 32;
		return;
	}
	switch (s->format) {
	case 0:
		r->from = (uint32_t)from;
		r->to = (uint32_t)to;
		break;
	case 3:
		r->mispred = (int)(from >> 63);
		r->from = sext(from, 62);
		break;
	case 4:
		r->mispred = (int)(from >> 63);
		r->from = sext(from, 60);
		break;
	case 5:
	case 7:
		r->mispred = (int)(info >> 63);
		r->cycles = (int)(info & 0xffff);
		break;
	case 6:
		r->mispred = (int)(from >> 63);
		r->from = sext(from, 62);
		r->cycles = (int)(to >> 48);
		r->to = sext(to, 47);
		break;
	case SDM_FMT_ARCH:
		r->mispred = (int)(info >> 63);
		if (info & (1ull << 60))
			r->cycles = (int)(info & 0xffff);
		if (s->a_ecx & (1u << 2))
			r->br_type = (int)(info >> 56 & 0xf);
		break;
	}
}

/* BR_TYPE (architectural LBR_INFO[59:56]): 0 COND, 1 NEAR_IND_JMP,
 * 2 NEAR_REL_JMP, 3 NEAR_IND_CALL, 4 NEAR_REL_CALL, 5 NEAR_RET, 8 and up
 * other branches; the classes in IA32_LBR_CTL's order (bits 16-22: COND,
 * NEAR_REL_JMP, NEAR_IND_JMP, NEAR_REL_CALL, NEAR_IND_CALL, NEAR_RET,
 * OTHER_BRANCH). */
unsigned sdm_lbr_br_type(int cls)
{
	static const uint8_t type[] = { 0, 2, 1, 4, 3, 5, 8 };

	return cls >= 0 && cls < 7 ? type[cls] : 8;
}

uint64_t sdm_lbr_info(const struct sdm_lbr *s, int cls, uint64_t cycles)
{
	uint64_t cyc = cycles > 0xffff ? 0xffff : cycles, v = 0;

	if (s->style != SDM_LBR_ARCH)
		return s->format == 5 || s->format == 7 ? cyc : 0;
	if (s->a_ecx & (1u << 1))
		v |= 1ull << 60 | cyc;
	if (s->a_ecx & (1u << 2))
		v |= (uint64_t)sdm_lbr_br_type(cls) << 56;
	return v;
}

int sdm_lbr_read(const struct sdm_lbr *s, struct sdm_rec *out, unsigned max,
		 unsigned *n, uint64_t *tos)
{
	uint64_t depth = s->depth, f, o = 0, info = 0;
	int vec = 0;

	*n = 0;
	*tos = 0;
	if (s->style == SDM_LBR_STACK)
		vec = be_rdmsr(s->tos, tos);
	if (s->style == SDM_LBR_ARCH)
		vec = be_rdmsr(0x14cf, &depth);		/* IA32_LBR_DEPTH */
	if (vec)
		return -vec;
	for (unsigned k = 0; k < depth && k < max; k++) {
		unsigned i = s->style == SDM_LBR_ARCH ? k :
			     (unsigned)((*tos + depth - k) % depth);
		uint32_t fm = s->style == SDM_LBR_ARCH ? 0x1500 + i :
			      s->from + i;
		uint32_t tm = s->style == SDM_LBR_ARCH ? 0x1600 + i :
			      s->to ? s->to + i : 0;
		uint32_t im = s->style == SDM_LBR_ARCH ? 0x1200 + i :
			      s->info ? s->info + i : 0;

		vec = be_rdmsr(fm, &f);
		if (!vec && tm)
			vec = be_rdmsr(tm, &o);
		if (!vec && im)
			vec = be_rdmsr(im, &info);
		if (vec)
			return -vec;
		sdm_lbr_decode(s, f, o, info, &out[k]);
		*n = k + 1;
	}
	return 0;
}
