/* nb_test: the NetBurst facts the netburst/ tests share, written out from
 * the SDM (Vol. 3B, order no. 253669-060US: §18.15.1 ESCRs, Figure 18-45;
 * §18.15.3 CCCRs, Figure 18-46; §18.16.1-2 and Figures 18-47, 18-48 with
 * Hyper-Threading; §18.15.5.5 halting; §18.15.5.6 cascading; §18.15.5.7
 * extended cascading and its PMI erratum; Table 18-63 "Performance Counter
 * MSRs and Associated CCCR and ESCR MSRs"; the Chapter 19 NetBurst event
 * tables) rather than taken from pmu/netburst/regs.c, so that a wrong rule
 * in the driver cannot also make an expectation wrong.  Event-select and
 * event-mask values the tests use are checked against Linux
 * perf_event_p4.h as well.
 *
 * Besides the facts: nb_ready() (the driver, initialised, or a SKIP), an
 * access trail (pmu/backend.h's log) and the per-counter log every test
 * leaves: the ESCR and CCCR values written, the count read and the
 * expected count. */
#ifndef TESTS_NETBURST_NB_TEST_H
#define TESTS_NETBURST_NB_TEST_H

#include "../../harness/pmu_run.h"
#include "../../pmu/netburst/driver.h"
#include "../../pmu/backend.h"
#include "../../lib/fmt.h"

/* ---- counters, CCCRs (§18.15.2-3) */
#define NBT_COUNTERS 18
#define NBT_TOP (1ull << 40)		/* the counters are 40 bits */
#define NBT_MASK (NBT_TOP - 1)
#define NBT_MSR_COUNTER(n) (0x300u + (n))	/* MSR_BPU_COUNTER0 ... */
#define NBT_MSR_CCCR(n) (0x360u + (n))		/* MSR_BPU_CCCR0 ... */
#define NBT_VEC_GP 13

/* ---- ESCR, Figure 18-45 / 18-47: bit 0 T1_USR, 1 T1_OS, 2 T0_USR, 3 T0_OS
 * (without HT: 2 USR, 3 OS, bits 1:0 reserved), 4 tag enable, 8:5 tag
 * value, 24:9 event mask, 30:25 event select, 31 and 63:32 reserved. */
struct nbt_escr {
	unsigned event, emask, tag_value, tag_enable;
	unsigned t0_os, t0_usr, t1_os, t1_usr;
};

static inline uint64_t nbt_escr(struct nbt_escr f)
{
	return (uint64_t)(f.t1_usr & 1) | (uint64_t)(f.t1_os & 1) << 1 |
	       (uint64_t)(f.t0_usr & 1) << 2 | (uint64_t)(f.t0_os & 1) << 3 |
	       (uint64_t)(f.tag_enable & 1) << 4 |
	       (uint64_t)(f.tag_value & 0xf) << 5 |
	       (uint64_t)(f.emask & 0xffff) << 9 |
	       (uint64_t)(f.event & 0x3f) << 25;
}

#define NBT_ESCR_T1_USR (1ull << 0)
#define NBT_ESCR_T1_OS (1ull << 1)
#define NBT_ESCR_T0_USR (1ull << 2)
#define NBT_ESCR_T0_OS (1ull << 3)

/* Reserved ESCR bits: 31 and 63:32; without HT also 1:0. */
static inline uint64_t nbt_escr_reserved(int ht)
{
	return 0xffffffff80000000ull | (ht ? 0 : 3ull);
}

/* ---- CCCR, Figure 18-46 / 18-48: bit 11 extended cascade (§18.15.5.7,
 * where it exists), 12 enable, 15:13 ESCR select, 17:16 active thread,
 * 18 compare, 19 complement, 23:20 threshold, 24 edge, 25 FORCE_OVF, 26
 * OVF_PMI_T0 (without HT: OVF_PMI), 27 OVF_PMI_T1 (HT only), 30 cascade,
 * 31 OVF; 10:0, 29:28 and 63:32 reserved. */
struct nbt_cccr {
	unsigned ext_cascade, enable, escr_sel, active, compare, complement;
	unsigned threshold, edge, force_ovf, ovf_pmi_t0, ovf_pmi_t1;
	unsigned cascade, ovf;
};

/* Active thread (§18.16.2).  Without HT the field "must be set to 11B":
 * every config the tests program without HT sets .active = NBT_ANY. */
#define NBT_NONE 0
#define NBT_SINGLE 1
#define NBT_BOTH 2
#define NBT_ANY 3

static inline uint64_t nbt_cccr(struct nbt_cccr f)
{
	return (uint64_t)(f.ext_cascade & 1) << 11 |
	       (uint64_t)(f.enable & 1) << 12 |
	       (uint64_t)(f.escr_sel & 7) << 13 |
	       (uint64_t)(f.active & 3) << 16 |
	       (uint64_t)(f.compare & 1) << 18 |
	       (uint64_t)(f.complement & 1) << 19 |
	       (uint64_t)(f.threshold & 0xf) << 20 |
	       (uint64_t)(f.edge & 1) << 24 |
	       (uint64_t)(f.force_ovf & 1) << 25 |
	       (uint64_t)(f.ovf_pmi_t0 & 1) << 26 |
	       (uint64_t)(f.ovf_pmi_t1 & 1) << 27 |
	       (uint64_t)(f.cascade & 1) << 30 | (uint64_t)(f.ovf & 1) << 31;
}

#define NBT_CCCR_EXT_CASCADE (1ull << 11)
#define NBT_CCCR_ENABLE (1ull << 12)
#define NBT_CCCR_FORCE_OVF (1ull << 25)
#define NBT_CCCR_OVF_PMI_T0 (1ull << 26)
#define NBT_CCCR_OVF_PMI_T1 (1ull << 27)
#define NBT_CCCR_CASCADE (1ull << 30)
#define NBT_CCCR_OVF (1ull << 31)

/* The ESCR select field of a CCCR value. */
static inline unsigned nbt_cccr_sel(uint64_t cccr)
{
	return (unsigned)(cccr >> 13) & 7;
}

/* Extended cascading (§18.15.5.7): CCCR bit 11 is CASCNT4INTO0 in
 * IQ_CCCR0 (counter 12), CASCNT5INTO3 in IQ_CCCR3 (15), CASCNT5INTO4 in
 * IQ_CCCR4 (16) and CASCNT4INTO5 in IQ_CCCR5 (17), on processors with
 * DisplayFamily_DisplayModel 0F_02, 0F_03, 0F_04 and 0F_06; reserved
 * everywhere else. */
static inline int nbt_ext_cascade_bit(unsigned ctr, const struct cpu_sig *s)
{
	static const uint32_t ctrs = 1u << 12 | 1u << 15 | 1u << 16 |
				     1u << 17;

	if (s->family != 15 || ctr >= NBT_COUNTERS)
		return 0;
	if (s->model != 2 && s->model != 3 && s->model != 4 && s->model != 6)
		return 0;
	return (int)(ctrs >> ctr & 1);
}

/* The initiator of ctr's bit 11 (Table 18-65: CASCNTxINTOy "allow
 * counter x to cascade into counter y", x and y numbering IQ_COUNTER0-5,
 * i.e. counters 12-17): CASCNT4INTO0 16 -> 12, CASCNT5INTO3 17 -> 15,
 * CASCNT5INTO4 17 -> 16, CASCNT4INTO5 16 -> 17; -1 for none. */
static inline int nbt_ext_cascade_from(unsigned ctr)
{
	static const signed char from[NBT_COUNTERS] = {
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		16, -1, -1, 17, 17, 16,
	};

	return ctr < NBT_COUNTERS ? from[ctr] : -1;
}

/* The reserved bits of counter ctr's CCCR on this processor. */
static inline uint64_t nbt_cccr_reserved(unsigned ctr, const struct cpu_sig *s,
					 int ht)
{
	uint64_t r = 0xffffffff00000000ull | 3ull << 28 | 0x7ffull;

	if (!nbt_ext_cascade_bit(ctr, s))
		r |= NBT_CCCR_EXT_CASCADE;
	if (!ht)
		r |= NBT_CCCR_OVF_PMI_T1;
	return r;
}

/* ---- Hyper-Threading: CPUID.01H:EDX bit 28 (HTT) with CPUID.01H:EBX
 * bits 23:16 (logical processors per package) at least 2 (SDM Vol. 2A
 * CPUID; Vol. 3A §8.6). */
static inline int nbt_has_ht(const struct cpu_info *ci)
{
	return (ci->f1_edx >> 28 & 1) && (ci->f1_ebx >> 16 & 0xff) >= 2;
}

/* The logical processor (0: T0, 1: T1) this processor - the bootstrap
 * processor, which ran CPUID for cpu_info() - is: with two logical
 * processors per package, the SMT ID, the lowest bit of the initial APIC
 * ID CPUID.01H:EBX[31:24] (Vol. 3A §8.4.5 "Identifying Logical Processors
 * in an MP System", which §18.16.1 refers to for T0/T1; perfctr:
 * cpuid_ebx(1) >> 24 & 1); 0 without HT.  The sibling is the other. */
static inline unsigned nbt_bsp_thread(const struct cpu_info *ci)
{
	return nbt_has_ht(ci) ? (ci->f1_ebx >> 24) & 1 : 0;
}

/* ---- blocks and halves (§18.15.2, Table 18-63) */
enum { NBT_BPU, NBT_MS, NBT_FLAME, NBT_IQ };

/* BPU counters 0-3, MS 4-7, FLAME 8-11, IQ 12-17. */
static inline unsigned nbt_block(unsigned ctr)
{
	if (ctr <= 3)
		return NBT_BPU;
	if (ctr <= 7)
		return NBT_MS;
	if (ctr <= 11)
		return NBT_FLAME;
	return NBT_IQ;
}

static inline const char *nbt_block_name(unsigned block)
{
	switch (block) {
	case NBT_BPU: return "BPU";
	case NBT_MS: return "MS";
	case NBT_FLAME: return "FLAME";
	default: return "IQ";
	}
}

/* Table 18-63: an ESCR0 feeds counters 0, 1, 4, 5, 8, 9, 12, 13 and 16,
 * an ESCR1 counters 2, 3, 6, 7, 10, 11, 14, 15 and 17. */
#define NBT_ESCR0_CTRS (1u << 0 | 1u << 1 | 1u << 4 | 1u << 5 | 1u << 8 | \
			1u << 9 | 1u << 12 | 1u << 13 | 1u << 16)

/* 0: ctr's ESCRs are the ESCR0s of its block, 1: the ESCR1s. */
static inline unsigned nbt_half(unsigned ctr)
{
	return NBT_ESCR0_CTRS >> ctr & 1 ? 0 : 1;
}

/* ---- CCCR ESCR select -> ESCR, Table 18-63.  Per block and select the
 * ESCR0 and ESCR1 MSR (0: that select names no ESCR in the block).  The
 * SSU has an ESCR0 only (there is no MSR 0x3BF).  IQ_ESCR0/1 exist on
 * models 0, 1 and 2 only (Table 18-63's note). */
struct nbt_escr_pair {
	const char *name;		/* without the _ESCRn suffix */
	uint32_t msr[2];		/* ESCR0, ESCR1 */
};

static inline const struct nbt_escr_pair *nbt_escr_pair(unsigned block,
							unsigned sel)
{
	static const struct nbt_escr_pair bpu[8] = {
		[0] = { "BPU", { 0x3b2, 0x3b3 } },
		[1] = { "IS", { 0x3b4, 0x3b5 } },
		[2] = { "MOB", { 0x3aa, 0x3ab } },
		[3] = { "ITLB", { 0x3b6, 0x3b7 } },
		[4] = { "PMH", { 0x3ac, 0x3ad } },
		[5] = { "IX", { 0x3c8, 0x3c9 } },
		[6] = { "FSB", { 0x3a2, 0x3a3 } },
		[7] = { "BSU", { 0x3a0, 0x3a1 } },
	};
	static const struct nbt_escr_pair ms[8] = {
		[0] = { "MS", { 0x3c0, 0x3c1 } },
		[1] = { "TC", { 0x3c4, 0x3c5 } },
		[2] = { "TBPU", { 0x3c2, 0x3c3 } },
	};
	static const struct nbt_escr_pair flame[8] = {
		[0] = { "FLAME", { 0x3a6, 0x3a7 } },
		[1] = { "FIRM", { 0x3a4, 0x3a5 } },
		[2] = { "SAAT", { 0x3ae, 0x3af } },
		[3] = { "U2L", { 0x3b0, 0x3b1 } },
		[5] = { "DAC", { 0x3a8, 0x3a9 } },
	};
	static const struct nbt_escr_pair iq[8] = {
		[0] = { "IQ", { 0x3ba, 0x3bb } },
		[1] = { "ALF", { 0x3ca, 0x3cb } },
		[2] = { "RAT", { 0x3bc, 0x3bd } },
		[3] = { "SSU", { 0x3be, 0 } },
		[4] = { "CRU", { 0x3b8, 0x3b9 } },	/* CRU_ESCR0/1 */
		[5] = { "CRU", { 0x3cc, 0x3cd } },	/* CRU_ESCR2/3 */
		[6] = { "CRU", { 0x3e0, 0x3e1 } },	/* CRU_ESCR4/5 */
	};
	static const struct nbt_escr_pair *const blocks[4] = { bpu, ms, flame,
							     iq };

	if (block > NBT_IQ || sel > 7 || !blocks[block][sel].name)
		return 0;
	return &blocks[block][sel];
}

/* IQ_ESCR0/1 (0x3BA, 0x3BB) exist on models 0-2 only. */
static inline int nbt_iq_escr_exists(const struct cpu_sig *s)
{
	return s->model <= 2;
}

/* The ESCR MSR that CCCR ESCR select sel names for counter ctr on this
 * processor, or 0 for none. */
static inline uint32_t nbt_escr_msr(unsigned ctr, unsigned sel,
				    const struct cpu_sig *s)
{
	const struct nbt_escr_pair *p;

	if (ctr >= NBT_COUNTERS)
		return 0;
	p = nbt_escr_pair(nbt_block(ctr), sel);
	if (!p)
		return 0;
	if (nbt_block(ctr) == NBT_IQ && sel == 0 && !nbt_iq_escr_exists(s))
		return 0;
	return p->msr[nbt_half(ctr)];
}

/* Every ESCR MSR of Table 18-63 on this processor (for #GP tests: any
 * other address in 0x3A0-0x3E1 is no ESCR). */
static inline int nbt_is_escr(uint32_t msr, const struct cpu_sig *s)
{
	for (unsigned c = 0; c < NBT_COUNTERS; c++)
		for (unsigned sel = 0; sel < 8; sel++)
			if (nbt_escr_msr(c, sel, s) == msr)
				return 1;
	return 0;
}

/* ---- cascading (§18.15.5.6): in each block of four counters n and n+2
 * cascade in either order; in the IQ block 12/14 and 13/15 likewise, 16
 * only from 14 and 17 only from 15 (14 cannot be cascaded from 16, nor 15
 * from 17).  No pair crosses a block. */
struct nbt_pair {
	unsigned from, to;
};

#define NBT_N_CASCADES 18

static inline const struct nbt_pair *nbt_cascades(void)
{
	static const struct nbt_pair pairs[NBT_N_CASCADES] = {
		{ 0, 2 }, { 2, 0 }, { 1, 3 }, { 3, 1 },
		{ 4, 6 }, { 6, 4 }, { 5, 7 }, { 7, 5 },
		{ 8, 10 }, { 10, 8 }, { 9, 11 }, { 11, 9 },
		{ 12, 14 }, { 14, 12 }, { 13, 15 }, { 15, 13 },
		{ 14, 16 }, { 15, 17 },
	};

	return pairs;
}

static inline int nbt_cascade_legal(unsigned from, unsigned to)
{
	const struct nbt_pair *p = nbt_cascades();

	for (unsigned i = 0; i < NBT_N_CASCADES; i++)
		if (p[i].from == from && p[i].to == to)
			return 1;
	return 0;
}

/* The erratum the SDM states in §18.15.5.7: "performance counters do not
 * generate PMI in cascade mode or extended cascade mode" on processors
 * with DisplayFamily_DisplayModel 0F_02, and on 0F_00 and 0F_01 with a
 * stepping above 09H. */
static inline int nbt_cascade_pmi_erratum(const struct cpu_sig *s)
{
	if (s->family != 15)
		return 0;
	if (s->model == 2)
		return 1;
	return (s->model == 0 || s->model == 1) && s->stepping > 9;
}

/* ---- the events the tests use (Chapter 19 NetBurst tables; Linux
 * perf_event_p4.h agrees).  Event mask bit n is ESCR bit 9 + n. */
/* instr_retired: CRU_ESCR0/1, CCCR select 04H, event select 02H;
 * NBOGUSNTAG (bit 0): non-bogus instructions, not tagged. */
#define NBT_INSTR_RETIRED 0x02
#define NBT_INSTR_RETIRED_SEL 4
#define NBT_NBOGUSNTAG (1u << 0)
/* global_power_events: FSB_ESCR0/1, CCCR select 06H, event select 13H;
 * RUNNING (bit 0): the clocks in which the processor is not halted. */
#define NBT_GLOBAL_POWER 0x13
#define NBT_GLOBAL_POWER_SEL 6
#define NBT_RUNNING (1u << 0)
/* retired_branch_type: TBPU_ESCR0/1, CCCR select 02H, event select 04H;
 * CONDITIONAL (bit 1) conditional jumps, CALL (bit 2) calls, RETURN
 * (bit 3) returns. */
#define NBT_RETIRED_BRANCH_TYPE 0x04
#define NBT_RETIRED_BRANCH_TYPE_SEL 2
#define NBT_BT_CONDITIONAL (1u << 1)
#define NBT_BT_CALL (1u << 2)
#define NBT_BT_RETURN (1u << 3)
/* branch_retired: CRU_ESCR2/3, CCCR select 05H, event select 06H;
 * MMNP (bit 0) not-taken predicted, MMNM (1) not-taken mispredicted,
 * MMTP (2) taken predicted, MMTM (3) taken mispredicted. */
#define NBT_BRANCH_RETIRED 0x06
#define NBT_BRANCH_RETIRED_SEL 5
#define NBT_MMNP (1u << 0)
#define NBT_MMNM (1u << 1)
#define NBT_MMTP (1u << 2)
#define NBT_MMTM (1u << 3)
/* x87_FP_uop: FIRM_ESCR0/1 (FLAME block), CCCR select 01H, event select
 * 04H; ALL (bit 15): all x87 floating-point uops. */
#define NBT_X87_FP_UOP 0x04
#define NBT_X87_FP_UOP_SEL 1
#define NBT_X87_ALL (1u << 15)

/* An ESCR value counting event/emask on thread 0 at CPL 3 (without HT:
 * USR). */
static inline uint64_t nbt_escr_usr(unsigned event, unsigned emask)
{
	return nbt_escr((struct nbt_escr){ .event = event, .emask = emask,
					   .t0_usr = 1 });
}

/* A CCCR value selecting ESCR select sel, active thread ANY. */
static inline uint64_t nbt_cccr_sel_any(unsigned sel)
{
	return nbt_cccr((struct nbt_cccr){ .escr_sel = sel,
					   .active = NBT_ANY });
}

/* ---- the driver, initialised */

/* The NetBurst driver after nb_init(), or NULL (a SKIP when this CPU has
 * no NetBurst PMU or no backend, a failure when init fails). */
static inline const struct pmu_driver *nb_ready(struct tcase *t)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_NETBURST);
	struct pmu_err e;

	if (!d || !check(t, nb_init(&e) == 0, "init: %s", e.msg))
		return NULL;
	return d;
}

static inline const struct cpu_sig *nbt_sig(void)
{
	return &cpu_info()->sig;
}

/* ---- the access trail: what the driver wrote (pmu/backend.h's log) */
#define NBT_TRAIL 128

struct nbt_trail {
	struct be_access a[NBT_TRAIL];
	struct be_log log;
};

static inline void nbt_trail_open(struct nbt_trail *tr)
{
	be_log_open(&tr->log, tr->a, NBT_TRAIL);
}

static inline void nbt_trail_close(void)
{
	be_log_close();
}

/* WRMSRs in the trail (those past its end included). */
static inline unsigned nbt_trail_writes(const struct nbt_trail *tr)
{
	unsigned n = 0;

	for (unsigned i = 0; i < tr->log.used; i++)
		n += tr->log.a[i].op == BE_OP_WRMSR;
	return n + tr->log.lost;
}

/* The last value the trail shows written to msr: 1, or 0 when none. */
static inline int nbt_trail_last(const struct nbt_trail *tr, uint32_t msr,
				 uint64_t *v)
{
	for (unsigned i = tr->log.used; i-- > 0;) {
		const struct be_access *a = &tr->log.a[i];

		if (a->op == BE_OP_WRMSR && a->reg == msr && !a->vector) {
			*v = a->value;
			return 1;
		}
	}
	return 0;
}

/* "<label>_<name>", or name alone without a label. */
static inline void nbt_key(char *buf, unsigned size, const char *label,
			   const char *name)
{
	if (label)
		fmt_snprintf(buf, size, "%s_%s", label, name);
	else
		fmt_snprintf(buf, size, "%s", name);
}

/* Logs <label>_ctrN_cccr and <label>_ctrN_escr: the last values the trail
 * shows written to counter ctr's CCCR and to the ESCR its ESCR select
 * names (Table 18-63, this header's), with the ESCR's address.  A
 * register the trail did not see written is read back and marked so. */
static inline void nbt_log_regs(struct tcase *t, const char *label,
				const struct nbt_trail *tr, unsigned ctr)
{
	uint64_t cccr = 0, escr = 0;
	int wc = nbt_trail_last(tr, NBT_MSR_CCCR(ctr), &cccr);
	uint32_t msr;
	char name[24], k[48];
	int we;

	if (!wc)
		(void)be_rdmsr(NBT_MSR_CCCR(ctr), &cccr);
	msr = nbt_escr_msr(ctr, nbt_cccr_sel(cccr), nbt_sig());
	we = msr && nbt_trail_last(tr, msr, &escr);
	if (msr && !we)
		(void)be_rdmsr(msr, &escr);
	fmt_snprintf(name, sizeof(name), "ctr%u_cccr", ctr);
	nbt_key(k, sizeof(k), label, name);
	value(t, k, "0x%llx%s", (unsigned long long)cccr,
	      wc ? "" : " (read: not written here)");
	fmt_snprintf(name, sizeof(name), "ctr%u_escr", ctr);
	nbt_key(k, sizeof(k), label, name);
	value(t, k, "0x%llx (MSR 0x%x)%s", (unsigned long long)escr, msr,
	      we ? "" : " (read: not written here)");
}

/* A CPL 3 run's count of s as a USR counter sees it: the oracle's, plus
 * what the ring-3 trampoline adds on hardware and under backend=emulated
 * (pmu_ring3_sem_edges(): its CALL and INT; 0 on the model). */
static inline uint64_t nbt_usr_count(const struct oracle_counts *oc,
				     enum sem s)
{
	return oc->c[3][s] + pmu_ring3_sem_edges(SEM_BIT(s));
}

/* An exact expectation. */
static inline struct pmu_expect nbt_exact(uint64_t n);

/* The retirement width: the NetBurst core retires at most three uops per
 * clock (Intel 64 and IA-32 Architectures Optimization Reference Manual,
 * order no. 248966, "Retirement" of the Intel NetBurst
 * microarchitecture), so at most three instructions, branches or uops
 * retire in one clock. */
#define NBT_RETIRE_WIDTH 3

/* A counter Y cascaded from X, X preset K below the wrap, after X saw n
 * (> K) retirement events.  The SDM says Y starts counting "when its
 * alternate counter overflows" (§18.15.5.6), not in which clock.  On the
 * model Y counts from the clock after the overflow (pmu/netburst/model.c,
 * its convention): Y = n - K exactly.  On hardware Y may also miss the
 * events of the overflow clock after X's K-th, at most NBT_RETIRE_WIDTH -
 * 1 of them: n - K - 2 .. n - K.  (A hardware hand-off that loses more
 * clocks would fall outside: a finding about the unstated latency.) */
static inline struct pmu_expect nbt_handoff(uint64_t n, uint64_t k)
{
	struct pmu_expect x = { 0, n - k, "the cascaded counter may miss the "
				"events retired in its alternate's overflow "
				"clock after the wrap: at most retirement width "
				"(3 per clock) - 1" };
	uint64_t lost = NBT_RETIRE_WIDTH - 1;

	if (pmu_on_model())
		return nbt_exact(n - k);
	x.lo = n - k > lost ? n - k - lost : 0;
	return x;
}

static inline struct pmu_expect nbt_exact(uint64_t n)
{
	struct pmu_expect x = { n, n, NULL };

	return x;
}

/* Logs <label>_ctrN (read) and <label>_ctrN_oracle (expected: the
 * counter's value, or the range of its increment over preset with the
 * reason), and checks got against x (an increment over preset, modulo
 * 2^40). */
static inline int nbt_check_count(struct tcase *t, const char *label,
				  unsigned ctr, uint64_t preset, uint64_t got,
				  const struct pmu_expect *x)
{
	uint64_t inc = (got - preset) & NBT_MASK;
	char name[24], k[48];

	fmt_snprintf(name, sizeof(name), "ctr%u", ctr);
	nbt_key(k, sizeof(k), label, name);
	value(t, k, "%llu", (unsigned long long)got);
	fmt_snprintf(name, sizeof(name), "ctr%u_oracle", ctr);
	nbt_key(k, sizeof(k), label, name);
	if (x->lo == x->hi)
		value(t, k, "%llu", (unsigned long long)
		      ((preset + x->lo) & NBT_MASK));
	else
		value(t, k, "increment %llu..%llu (%s)",
		      (unsigned long long)x->lo, (unsigned long long)x->hi,
		      x->tolerance);
	return check(t, inc >= x->lo && inc <= x->hi, "%s%scounter %u: read "
		     "%llu (+%llu over its preset 0x%llx), expected +%llu.."
		     "%llu", label ? label : "", label ? ": " : "", ctr,
		     (unsigned long long)got, (unsigned long long)inc,
		     (unsigned long long)preset, (unsigned long long)x->lo,
		     (unsigned long long)x->hi);
}

/* The model's count of run r beside the count nbt_check_count() logged
 * under the same label (harness/pmu_run.h pmu_log_model_as). */
static inline void nbt_log_model(struct tcase *t, const char *label,
				 const struct pmu_run *r, unsigned ctr)
{
	char name[24], k[48];

	fmt_snprintf(name, sizeof(name), "ctr%u", ctr);
	nbt_key(k, sizeof(k), label, name);
	pmu_log_model_as(t, r, ctr, k);
}

/* The whole per-counter record: registers written, count read, count
 * expected. */
static inline int nbt_log_counter(struct tcase *t, const char *label,
				  const struct nbt_trail *tr, unsigned ctr,
				  uint64_t preset, uint64_t got,
				  const struct pmu_expect *x)
{
	nbt_log_regs(t, label, tr, ctr);
	return nbt_check_count(t, label, ctr, preset, got, x);
}

/* ---- refusals: the driver says no, with a message, and writes nothing */

/* Checks that rc is a refusal and the trail shows no WRMSR; logs the
 * driver's message under key what. */
static inline void nbt_refused(struct tcase *t, const char *what, int rc,
			       const struct pmu_err *e,
			       const struct nbt_trail *tr)
{
	unsigned w = nbt_trail_writes(tr);

	check(t, rc != 0, "%s: accepted", what);
	check(t, w == 0 && (rc == 0 || e->vector == 0), "%s: %u WRMSRs, "
	      "vector %d: not refused by the driver before any write", what,
	      w, rc ? e->vector : 0);
	value(t, what, "%s", rc ? e->msg : "accepted");
}

/* nb_program() of (escr, cccr) on ctr, expected to be refused with
 * nothing written. */
static inline void nbt_expect_refused(struct tcase *t, const char *what,
				      unsigned ctr, uint64_t escr,
				      uint64_t cccr)
{
	struct nbt_trail tr;
	struct pmu_err e = { "", 0 };
	int rc;

	nbt_trail_open(&tr);
	rc = nb_program(ctr, escr, cccr, &e);
	nbt_trail_close();
	nbt_refused(t, what, rc, &e, &tr);
}

/* Counter ctr and its CCCR through the driver; a failed read fails t. */
static inline int nbt_read_ctr_cccr(struct tcase *t, unsigned ctr,
				    uint64_t *v, uint64_t *cccr)
{
	struct pmu_err e;

	return check(t, nb_read(ctr, v, &e) == 0 &&
		     nb_read_cccr(ctr, cccr, &e) == 0, "read %u: %s", ctr,
		     e.msg);
}

#endif
