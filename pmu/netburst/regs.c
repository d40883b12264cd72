/* pmu/netburst/regs.c: the NetBurst register layout as data and pure
 * rules - ESCR/CCCR encoding, the ESCR table and the CCCR ESCR-select
 * mapping, cascade pairs, the per-model rules, Hyper-Threading from CPUID,
 * the CCCR threshold filter, the ESCR's thread bits (regs.h).  No register
 * is touched here: the driver and the model share these rules, the host
 * tests check them against their own transcription of the SDM. */
#include "regs.h"

#define BIT(v, n) ((unsigned)((v) >> (n)) & 1u)

uint64_t nb_escr_encode(const struct nb_escr_fields *f)
{
	return (uint64_t)(f->event & 0x3f) << NB_ESCR_EVENT_SHIFT |
	       (uint64_t)(f->emask & 0xffff) << NB_ESCR_EMASK_SHIFT |
	       (uint64_t)(f->tag_value & 0xf) << NB_ESCR_TAG_SHIFT |
	       (f->tag_enable ? NB_ESCR_TAG_ENABLE : 0) |
	       (f->t0_os ? NB_ESCR_T0_OS : 0) |
	       (f->t0_usr ? NB_ESCR_T0_USR : 0) |
	       (f->t1_os ? NB_ESCR_T1_OS : 0) |
	       (f->t1_usr ? NB_ESCR_T1_USR : 0);
}

void nb_escr_decode(uint64_t v, struct nb_escr_fields *f)
{
	f->event = (unsigned)((v & NB_ESCR_EVENT_MASK) >> NB_ESCR_EVENT_SHIFT);
	f->emask = (unsigned)((v & NB_ESCR_EMASK_MASK) >> NB_ESCR_EMASK_SHIFT);
	f->tag_value = (unsigned)((v & NB_ESCR_TAG_MASK) >> NB_ESCR_TAG_SHIFT);
	f->tag_enable = BIT(v, 4);
	f->t0_os = BIT(v, 3);
	f->t0_usr = BIT(v, 2);
	f->t1_os = BIT(v, 1);
	f->t1_usr = BIT(v, 0);
}

uint64_t nb_cccr_encode(const struct nb_cccr_fields *f)
{
	return (f->ext_cascade ? NB_CCCR_EXT_CASCADE : 0) |
	       (f->enable ? NB_CCCR_ENABLE : 0) |
	       (uint64_t)(f->escr_sel & 7) << NB_CCCR_ESCR_SEL_SHIFT |
	       (uint64_t)(f->active & 3) << NB_CCCR_ACTIVE_SHIFT |
	       (f->compare ? NB_CCCR_COMPARE : 0) |
	       (f->complement ? NB_CCCR_COMPLEMENT : 0) |
	       (uint64_t)(f->threshold & 0xf) << NB_CCCR_THRESHOLD_SHIFT |
	       (f->edge ? NB_CCCR_EDGE : 0) |
	       (f->force_ovf ? NB_CCCR_FORCE_OVF : 0) |
	       (f->ovf_pmi_t0 ? NB_CCCR_OVF_PMI_T0 : 0) |
	       (f->ovf_pmi_t1 ? NB_CCCR_OVF_PMI_T1 : 0) |
	       (f->cascade ? NB_CCCR_CASCADE : 0) |
	       (f->ovf ? NB_CCCR_OVF : 0);
}

void nb_cccr_decode(uint64_t v, struct nb_cccr_fields *f)
{
	f->ext_cascade = BIT(v, 11);
	f->enable = BIT(v, 12);
	f->escr_sel = (unsigned)((v & NB_CCCR_ESCR_SEL_MASK) >>
				 NB_CCCR_ESCR_SEL_SHIFT);
	f->active = (unsigned)((v & NB_CCCR_ACTIVE_MASK) >>
			       NB_CCCR_ACTIVE_SHIFT);
	f->compare = BIT(v, 18);
	f->complement = BIT(v, 19);
	f->threshold = (unsigned)((v & NB_CCCR_THRESHOLD_MASK) >>
				  NB_CCCR_THRESHOLD_SHIFT);
	f->edge = BIT(v, 24);
	f->force_ovf = BIT(v, 25);
	f->ovf_pmi_t0 = BIT(v, 26);
	f->ovf_pmi_t1 = BIT(v, 27);
	f->cascade = BIT(v, 30);
	f->ovf = BIT(v, 31);
}

/*
 * The ESCRs, by block, with the CCCR ESCR-select value that names each
 * (SDM Vol. 3B Table 18-63, order no. 253669-060US).  ESCR0 of a pair is
 * on the first half of its block's counters, ESCR1 on the second; the SSU
 * has only ESCR0.  IQ_ESCR0/1 exist on models 0-2 only.
 */
#define X(nm, addr, blk, sel, h) \
	{ .name = nm, .msr = addr, .block = blk, .select = sel, .half = h }
const struct nb_escr nb_escrs[NB_ESCRS] = {
	/* BPU block: counters 0-3 */
	X("BPU_ESCR0", 0x3b2, NB_BPU, 0, 0), X("BPU_ESCR1", 0x3b3, NB_BPU, 0, 1),
	X("IS_ESCR0", 0x3b4, NB_BPU, 1, 0), X("IS_ESCR1", 0x3b5, NB_BPU, 1, 1),
	X("MOB_ESCR0", 0x3aa, NB_BPU, 2, 0), X("MOB_ESCR1", 0x3ab, NB_BPU, 2, 1),
	X("ITLB_ESCR0", 0x3b6, NB_BPU, 3, 0),
	X("ITLB_ESCR1", 0x3b7, NB_BPU, 3, 1),
	X("PMH_ESCR0", 0x3ac, NB_BPU, 4, 0), X("PMH_ESCR1", 0x3ad, NB_BPU, 4, 1),
	X("IX_ESCR0", 0x3c8, NB_BPU, 5, 0), X("IX_ESCR1", 0x3c9, NB_BPU, 5, 1),
	X("FSB_ESCR0", 0x3a2, NB_BPU, 6, 0), X("FSB_ESCR1", 0x3a3, NB_BPU, 6, 1),
	X("BSU_ESCR0", 0x3a0, NB_BPU, 7, 0), X("BSU_ESCR1", 0x3a1, NB_BPU, 7, 1),
	/* MS block: counters 4-7 */
	X("MS_ESCR0", 0x3c0, NB_MS, 0, 0), X("MS_ESCR1", 0x3c1, NB_MS, 0, 1),
	X("TC_ESCR0", 0x3c4, NB_MS, 1, 0), X("TC_ESCR1", 0x3c5, NB_MS, 1, 1),
	X("TBPU_ESCR0", 0x3c2, NB_MS, 2, 0),
	X("TBPU_ESCR1", 0x3c3, NB_MS, 2, 1),
	/* FLAME block: counters 8-11 (select 4 names no ESCR) */
	X("FLAME_ESCR0", 0x3a6, NB_FLAME, 0, 0),
	X("FLAME_ESCR1", 0x3a7, NB_FLAME, 0, 1),
	X("FIRM_ESCR0", 0x3a4, NB_FLAME, 1, 0),
	X("FIRM_ESCR1", 0x3a5, NB_FLAME, 1, 1),
	X("SAAT_ESCR0", 0x3ae, NB_FLAME, 2, 0),
	X("SAAT_ESCR1", 0x3af, NB_FLAME, 2, 1),
	X("U2L_ESCR0", 0x3b0, NB_FLAME, 3, 0),
	X("U2L_ESCR1", 0x3b1, NB_FLAME, 3, 1),
	X("DAC_ESCR0", 0x3a8, NB_FLAME, 5, 0),
	X("DAC_ESCR1", 0x3a9, NB_FLAME, 5, 1),
	/* IQ block: counters 12-17 */
	{ .name = "IQ_ESCR0", .msr = 0x3ba, .block = NB_IQ, .select = 0,
	  .half = 0, .iq_only_early = 1 },
	{ .name = "IQ_ESCR1", .msr = 0x3bb, .block = NB_IQ, .select = 0,
	  .half = 1, .iq_only_early = 1 },
	X("ALF_ESCR0", 0x3ca, NB_IQ, 1, 0), X("ALF_ESCR1", 0x3cb, NB_IQ, 1, 1),
	X("RAT_ESCR0", 0x3bc, NB_IQ, 2, 0), X("RAT_ESCR1", 0x3bd, NB_IQ, 2, 1),
	X("SSU_ESCR0", 0x3be, NB_IQ, 3, 0),
	X("CRU_ESCR0", 0x3b8, NB_IQ, 4, 0), X("CRU_ESCR1", 0x3b9, NB_IQ, 4, 1),
	X("CRU_ESCR2", 0x3cc, NB_IQ, 5, 0), X("CRU_ESCR3", 0x3cd, NB_IQ, 5, 1),
	X("CRU_ESCR4", 0x3e0, NB_IQ, 6, 0), X("CRU_ESCR5", 0x3e1, NB_IQ, 6, 1),
};
#undef X

enum nb_block nb_block_of(unsigned ctr)
{
	return ctr < 4 ? NB_BPU : ctr < 8 ? NB_MS : ctr < 12 ? NB_FLAME :
	       NB_IQ;
}

const char *nb_block_name(enum nb_block b)
{
	static const char *const names[] = { "BPU", "MS", "FLAME", "IQ" };

	return (unsigned)b < 4 ? names[b] : "?";
}

/* 0, 1, 4, 5, 8, 9, 12, 13, 16 are on ESCR0; 2, 3, 6, 7, 10, 11, 14, 15,
 * 17 on ESCR1. */
unsigned nb_ctr_half(unsigned ctr)
{
	if (ctr == 16)
		return 0;
	if (ctr == 17)
		return 1;
	return (ctr >> 1) & 1;
}

int nb_escr_exists(const struct nb_escr *x, const struct cpu_sig *s)
{
	return x && (!x->iq_only_early || s->model <= 2);
}

const struct nb_escr *nb_escr_for(unsigned ctr, unsigned sel,
				  const struct cpu_sig *s)
{
	if (ctr >= NB_COUNTERS)
		return 0;
	for (unsigned i = 0; i < NB_ESCRS; i++) {
		const struct nb_escr *x = &nb_escrs[i];

		if (x->block == nb_block_of(ctr) && x->select == sel &&
		    x->half == nb_ctr_half(ctr))
			return nb_escr_exists(x, s) ? x : 0;
	}
	return 0;
}

const struct nb_escr *nb_escr_at(uint32_t msr)
{
	for (unsigned i = 0; i < NB_ESCRS; i++)
		if (nb_escrs[i].msr == msr)
			return &nb_escrs[i];
	return 0;
}

unsigned nb_escr_count(const struct cpu_sig *s)
{
	unsigned n = 0;

	for (unsigned i = 0; i < NB_ESCRS; i++)
		n += nb_escr_exists(&nb_escrs[i], s);
	return n;
}

/* §18.15.5.6: within a block of four, counter n pairs with n ^ 2; in the
 * IQ block 16 takes 14's overflow and 17 takes 15's, and neither 16 nor 17
 * starts another counter. */
int nb_cascade_from(unsigned ctr)
{
	if (ctr >= NB_COUNTERS)
		return -1;
	if (ctr == 16 || ctr == 17)
		return (int)ctr - 2;
	return (int)(ctr ^ 2);
}

int nb_cascade_legal(unsigned from, unsigned to)
{
	return to < NB_COUNTERS && nb_cascade_from(to) == (int)from;
}

int nb_ext_cascade_exists(unsigned ctr, const struct cpu_sig *s)
{
	unsigned m = s->model;

	if (s->family != 15 || !(m == 2 || m == 3 || m == 4 || m == 6))
		return 0;
	return ctr == 12 || ctr == 15 || ctr == 16 || ctr == 17;
}

int nb_ext_cascade_from(unsigned ctr)
{
	switch (ctr) {
	case 12:
		return 16;
	case 15:
	case 16:
		return 17;
	case 17:
		return 16;
	default:
		return -1;
	}
}

int nb_cascade_pmi_erratum(const struct cpu_sig *s)
{
	if (s->family != 15)
		return 0;
	return s->model == 2 ||
	       ((s->model == 0 || s->model == 1) && s->stepping > 9);
}

int nb_has_ht(const struct cpu_info *ci)
{
	return nb_threads(ci) >= 2;
}

unsigned nb_threads(const struct cpu_info *ci)
{
	unsigned n = (ci->f1_ebx >> 16) & 0xff;
	unsigned cores = ci->cores_per_package ? ci->cores_per_package : 1;

	if (!(ci->f1_edx & (1u << 28)) || !n)
		return 1;
	return n / cores ? n / cores : 1;
}

unsigned nb_bsp_thread(const struct cpu_info *ci)
{
	return nb_has_ht(ci) ? (ci->f1_ebx >> 24) & 1 : 0;
}

uint64_t nb_cccr_filter(uint64_t cccr, struct nb_edge *st, uint64_t n)
{
	unsigned thr = (unsigned)((cccr & NB_CCCR_THRESHOLD_MASK) >>
				  NB_CCCR_THRESHOLD_SHIFT);
	unsigned out;

	if (!(cccr & NB_CCCR_COMPARE))
		return n;
	out = cccr & NB_CCCR_COMPLEMENT ? n <= thr : n > thr;
	if (cccr & NB_CCCR_EDGE) {
		unsigned rise = out && !st->last;

		st->last = (uint8_t)out;
		return rise;
	}
	st->last = (uint8_t)out;
	return out;
}

int nb_escr_counts_at(uint64_t escr, unsigned thread, unsigned cpl, int ht)
{
	if (!ht && thread)
		return 0;
	if (thread == 0)
		return cpl == 0 ? !!(escr & NB_ESCR_T0_OS) :
				  !!(escr & NB_ESCR_T0_USR);
	return cpl == 0 ? !!(escr & NB_ESCR_T1_OS) : !!(escr & NB_ESCR_T1_USR);
}

/* The Pentium 4's LBRs (SDM Vol. 3, order no. 325384-059US, §17.11 "Last
 * Branch, Interrupt, and Exception Recording (Processors based on Intel
 * NetBurst Microarchitecture)"; Table 35-41 "MSRs in the Pentium 4 and
 * Intel Xeon Processors"): MSR_LASTBRANCH_TOS at 1DAH; family 0FH models 0-2
 * keep 4 records MSR_LASTBRANCH_0..3 at 1DBH-1DEH, one MSR each with
 * from in 31:0 and to in 63:32; models 3 and later 16 records
 * MSR_LASTBRANCH_n_FROM_IP 680H-68FH and _TO_IP 6C0H-6CFH; the last
 * exception record MSR_LER_FROM_LIP 1D7H, MSR_LER_TO_LIP 1D8H.  The
 * records hold linear addresses, 64 bits of them in IA-32e mode where a
 * record has MSRs of its own: the format is the 32-bit one outside it
 * (the i386 build) and for the one-MSR records, else 64-bit LIP (no
 * Pentium 4 has IA32_PERF_CAPABILITIES to say so). */
int nb_lbr_layout(const struct cpu_info *ci, struct lbr_layout *l,
		  const char **why)
{
	static const struct lbr_layout early = {
		.style = LBR_STYLE_STACK, .name = "netburst-early",
		.depth = 4, .tos = 0x1da, .from = 0x1db,
		.ler_from = 0x1d7, .ler_to = 0x1d8,
	};
	static const struct lbr_layout later = {
		.style = LBR_STYLE_STACK, .name = "netburst", .depth = 16,
		.tos = 0x1da, .from = 0x680, .to = 0x6c0,
		.ler_from = 0x1d7, .ler_to = 0x1d8,
	};

	if (ci->sig.family != 15) {
		*why = "not a NetBurst signature";
		return -1;
	}
	*l = ci->sig.model < 3 ? early : later;
	l->format = sizeof(void *) == 8 && l->to ? LBR_FMT_LIP : LBR_FMT_32;
	return 0;
}
