/* pmu/pt/model.c: Intel PT in the arch-perfmon reference model (model.h;
 * pmu/perfmon/model.c calls it as it calls the DS part): the
 * IA32_RTIT_* MSRs of a CPU whose capabilities pt_caps() gives, and the
 * packets pmu/pt/gen.c generates from the trace, stored in the
 * single-range output region.  The PT MSRs exist only where the modelled
 * CPU has PT; elsewhere they raise #GP, as on a CPU without PT.
 *
 * Citations: Intel SDM Vol. 3C, order no. 326019-060US, chapter 36.
 *   - IA32_RTIT_CTL (§36.2.7.2, Table 36-6): a bit or field the CPU does
 *     not enumerate is reserved (CYCEn, CycThresh, PSBFreq without
 *     CPUID.14H.0:EBX[1]; MTCEn, MTCFreq without EBX[3]; PTWEn, FUPonPTW
 *     without EBX[4]; PwrEvtEn without EBX[5]; CR3Filter without EBX[0];
 *     ToPA without ECX[0]; FabricEn without ECX[3]; ADDRn_CFG past the
 *     ranges of sub-leaf 1 EAX[2:0] or without EBX[2]), and so are bits
 *     18, 23, 31:28 and 63:48: writing one is #GP (§36.2.7.1: "any MSR
 *     write that attempts to change bits marked reserved, or utilize
 *     encodings marked reserved, will cause a #GP fault"), as is an
 *     MTCFreq, CycThresh or PSBFreq encoding the sub-leaf 1 bitmaps do not
 *     list (Table 36-12) and an ADDRn_CFG above 2.  Setting TraceEn with
 *     ToPA and FabricEn clear is #GP unless single-range output is
 *     supported (Table 36-6 bit 8).  While TraceEn is 1 only a write of
 *     the same value or one that clears TraceEn is accepted; any other is
 *     #GP (§36.2.7.3 "Other Writes to IA32_RTIT_CTL", §36.2.7.1 note).
 *   - IA32_RTIT_STATUS (Table 36-7): FilterEn, ContextEn, TriggerEn are
 *     the processor's (writes ignored); Error and Stopped writable; bits
 *     3, 31:6 and 63:49 reserved; PacketByteCnt (48:32) non-zero only
 *     with EBX[1] (Table 36-11).  Error and Stopped are written "when
 *     TraceEn is cleared": a write while TraceEn is 1 is #GP, as KVM's
 *     model of these MSRs has it too (arch/x86/kvm/vmx/vmx.c,
 *     pt_can_write_msr() for STATUS, CR3_MATCH, OUTPUT_* and ADDRn).
 *   - IA32_RTIT_OUTPUT_BASE / _MASK_PTRS (§36.2.7.7-8): #GP unless ToPA
 *     or single-range output is supported, and on a write while TraceEn
 *     is 1; OUTPUT_BASE bits 6:0 and those from MAXPHYADDR on reserved;
 *     MASK_PTRS bits 6:0 read as 1s.
 *   - IA32_RTIT_CR3_MATCH (§36.2.7.6): #GP without CR3 filtering, on a
 *     write while TraceEn is 1 and with bits 4:0 set.
 *   - IA32_RTIT_ADDRn_A/B (§36.2.7.5): n below the ranges enumerated,
 *     with IP filtering; a non-canonical value is #GP, and so is a write
 *     while TraceEn is 1 (as for the other configuration MSRs).
 *   - Single-range output (§36.2.6.1): each byte goes to (base & ~mask) +
 *     (offset & mask), the offset wrapping within the region.  TraceEn
 *     with a non-contiguous mask, base bits under the mask, or an offset
 *     above the mask is an operational error (§36.3.9): STATUS.Error is
 *     set and nothing is traced.  TraceEn with Error or Stopped already
 *     set leaves TriggerEn 0 (Table 36-20).
 * What the model does not model answers BE_NOT_MODELLED, never an
 * invented #GP: TraceEn with ToPA output, FabricEn, CR3 filtering, IP
 * filtering (ADDRn_CFG), PTWRITE or power events.  PacketByteCnt is not
 * advanced (every enable writes a full PSB+, §36.2.7.3 allows it).
 *
 * The output base is a physical address; the harness's page tables map
 * memory 1:1 (arch/x86/paging.h), so the model stores at the same linear
 * address, and only where the live tables map it writable (the i386
 * build: below 4 GiB).  Bytes it cannot store are counted, not written
 * (hardware would write them); the offset moves on either way.
 *
 * The model's clocks (pmu/pt/gen.c): the core clock, the crystal clock
 * (MTC, TMA) and the TSC are all the model clock, so the core:bus ratio
 * CBR reports is 1.
 */
#include "model.h"
#include "regs.h"
#include "caps.h"
#include "gen.h"
#include "../backend.h"
#include "../emufault.h"
#include "../model.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/paging.h"
#include "../../arch/x86/trap.h"
#include "../../lib/string.h"

#define PT_MODEL_CBR 1
#define PAGE_SIZE 4096ull
#define CTL_RESERVED_FIXED ((1ull << 18) | (1ull << 23) | (0xfull << 28) | \
			    (0xffffull << 48))
#define STATUS_WRITABLE (RTIT_STATUS_ERROR | RTIT_STATUS_STOPPED | \
			 (0x1ffffull << RTIT_STATUS_PACKETBYTECNT_SHIFT))
#define STATUS_PROCESSOR (RTIT_STATUS_FILTEREN | RTIT_STATUS_CONTEXTEN | \
			  RTIT_STATUS_TRIGGEREN)
#define PT_ADDR_MAX 4
#define NOT_MODELLED_CTL (RTIT_CTL_TOPA | RTIT_CTL_FABRICEN |             \
			  RTIT_CTL_CR3FILTER | RTIT_CTL_PTWEN |              \
			  RTIT_CTL_FUPONPTW | RTIT_CTL_PWREVTEN |            \
			  (0xffffull << RTIT_CTL_ADDR_CFG_SHIFT(0)))

static struct {
	int caps_done;
	const struct pt_caps *c;
	uint64_t ctl, status, base, mask_ptrs, cr3_match;
	uint64_t addr[2 * PT_ADDR_MAX];
	int tracing;			/* TriggerEn */
	uint64_t dropped;		/* bytes not stored */
	struct pt_gen g;
} p;

struct model_part pt_model_part(void)
{
	return (struct model_part){ &p, sizeof(p) };
}

/* The caps are looked up at the first access: the model is reset before
 * the backend says it is the model (pmu/backend.c). */
static const struct pt_caps *caps(void)
{
	if (!p.caps_done) {
		p.c = pt_caps(0);
		p.caps_done = 1;
	}
	return p.c;
}

void pt_model_reset(void)
{
	p = (typeof(p)){ 0 };
}

static int is_pt_msr(uint32_t msr)
{
	return msr == MSR_IA32_RTIT_OUTPUT_BASE ||
	       msr == MSR_IA32_RTIT_OUTPUT_MASK_PTRS ||
	       msr == MSR_IA32_RTIT_CTL || msr == MSR_IA32_RTIT_STATUS ||
	       msr == MSR_IA32_RTIT_CR3_MATCH ||
	       (msr >= MSR_IA32_RTIT_ADDR_A(0) &&
		msr <= MSR_IA32_RTIT_ADDR_B(PT_ADDR_MAX - 1));
}

static unsigned ranges(const struct pt_caps *c)
{
	return (c->ebx0 & PT_EBX_IP_FILTER) ? c->eax1 & 7 : 0;
}

static int has_output(const struct pt_caps *c)
{
	return pt_has_topa(c) || pt_has_single_range(c);
}

static int trace_en(void)
{
	return (p.ctl & RTIT_CTL_TRACEEN) != 0;
}

static unsigned maxphyaddr(void)
{
	const struct cpu_info *ci = cpu_info();

	if (ci->max_ext_leaf >= 0x80000008)
		return cpuid(0x80000008).eax & 0xff;
	return 36;
}

static uint64_t status_now(void)
{
	uint64_t v = p.status;

	/* the RDMSR runs at CPL 0; no IP ranges are modelled (FilterEn) */
	if (p.tracing)
		v |= RTIT_STATUS_TRIGGEREN | RTIT_STATUS_FILTEREN |
		     (p.ctl & RTIT_CTL_OS ? RTIT_STATUS_CONTEXTEN : 0);
	return v;
}

int pt_model_rdmsr(uint32_t msr, uint64_t *v)
{
	const struct pt_caps *c;
	unsigned n;

	if (!is_pt_msr(msr))
		return 1;
	c = caps();
	if (!c)
		return VEC_GP;
	switch (msr) {
	case MSR_IA32_RTIT_CTL:
		*v = p.ctl;
		return 0;
	case MSR_IA32_RTIT_STATUS:
		*v = status_now();
		return 0;
	case MSR_IA32_RTIT_OUTPUT_BASE:
		*v = p.base;
		return has_output(c) ? 0 : VEC_GP;
	case MSR_IA32_RTIT_OUTPUT_MASK_PTRS:
		*v = p.mask_ptrs | RTIT_MASK_LOWER;
		return has_output(c) ? 0 : VEC_GP;
	case MSR_IA32_RTIT_CR3_MATCH:
		*v = p.cr3_match;
		return c->ebx0 & PT_EBX_CR3_FILTER ? 0 : VEC_GP;
	default:
		n = msr - MSR_IA32_RTIT_ADDR_A(0);
		*v = p.addr[n];
		return n / 2 < ranges(c) ? 0 : VEC_GP;
	}
}

/* The CTL bits the CPU enumerates (Table 36-6 with Tables 36-11, 36-12). */
static uint64_t ctl_valid(const struct pt_caps *c)
{
	uint64_t v = RTIT_CTL_TRACEEN | RTIT_CTL_OS | RTIT_CTL_USER |
		     RTIT_CTL_TSCEN | RTIT_CTL_DISRETC | RTIT_CTL_BRANCHEN;

	if (c->ebx0 & PT_EBX_PSB_CYC)
		v |= RTIT_CTL_CYCEN |
		     RTIT_CTL_FIELD_MASK << RTIT_CTL_CYCTHRESH_SHIFT |
		     RTIT_CTL_FIELD_MASK << RTIT_CTL_PSBFREQ_SHIFT;
	if (c->ebx0 & PT_EBX_MTC)
		v |= RTIT_CTL_MTCEN |
		     RTIT_CTL_FIELD_MASK << RTIT_CTL_MTCFREQ_SHIFT;
	if (c->ebx0 & PT_EBX_PTWRITE)
		v |= RTIT_CTL_PTWEN | RTIT_CTL_FUPONPTW;
	if (c->ebx0 & PT_EBX_POWER_EVENT)
		v |= RTIT_CTL_PWREVTEN;
	if (c->ebx0 & PT_EBX_CR3_FILTER)
		v |= RTIT_CTL_CR3FILTER;
	if (c->ecx0 & PT_ECX_TOPA)
		v |= RTIT_CTL_TOPA;
	if (c->ecx0 & PT_ECX_TRANSPORT)
		v |= RTIT_CTL_FABRICEN;
	for (unsigned n = 0; n < ranges(c); n++)
		v |= RTIT_CTL_FIELD_MASK << RTIT_CTL_ADDR_CFG_SHIFT(n);
	return v & ~CTL_RESERVED_FIXED;
}

static unsigned field(uint64_t v, unsigned shift)
{
	return (unsigned)(v >> shift & RTIT_CTL_FIELD_MASK);
}

/* 0, VEC_GP, or BE_NOT_MODELLED for a valid value the model cannot
 * trace with. */
static int ctl_check(const struct pt_caps *c, uint64_t v)
{
	if (v & ~ctl_valid(c))
		return VEC_GP;
	if (pt_has_mtc(c) &&
	    !pt_mtc_freq_ok(c, field(v, RTIT_CTL_MTCFREQ_SHIFT)))
		return VEC_GP;
	if (pt_has_cyc(c) &&
	    (!pt_cyc_thresh_ok(c, field(v, RTIT_CTL_CYCTHRESH_SHIFT)) ||
	     !pt_psb_freq_ok(c, field(v, RTIT_CTL_PSBFREQ_SHIFT))))
		return VEC_GP;
	for (unsigned n = 0; n < ranges(c); n++)
		if (field(v, RTIT_CTL_ADDR_CFG_SHIFT(n)) > 2)
			return VEC_GP;
	if (!(v & RTIT_CTL_TRACEEN))
		return 0;
	if (!(v & (RTIT_CTL_TOPA | RTIT_CTL_FABRICEN)) &&
	    !pt_has_single_range(c))
		return VEC_GP;
	return v & NOT_MODELLED_CTL ? BE_NOT_MODELLED : 0;
}

/* §36.2.6.1 "Single-Range Output Errors". */
static int single_range_ok(void)
{
	uint64_t mask = (p.mask_ptrs | RTIT_MASK_LOWER) & 0xffffffffull;
	uint64_t offset = p.mask_ptrs >> RTIT_OUTPUT_OFFSET_SHIFT;

	return !(mask & (mask + 1)) && !(p.base & mask) && offset <= mask;
}

/* Stores n bytes at the output offset, wrapping within the region; a
 * page the live tables do not map writable gets none of its bytes. */
static void out_write(void *ctx, const uint8_t *b, unsigned n)
{
	uint64_t mask = (p.mask_ptrs | RTIT_MASK_LOWER) & 0xffffffffull;
	uint64_t offset = p.mask_ptrs >> RTIT_OUTPUT_OFFSET_SHIFT;

	(void)ctx;
	while (n) {
		uint64_t at = (p.base & ~mask) + (offset & mask);
		uint64_t room = mask + 1 - (offset & mask);
		uint64_t page = PAGE_SIZE - (at & (PAGE_SIZE - 1));
		unsigned k = n;

		/* up to the region's end, and page by page (each page mapped
		 * or not on its own) */
		if (k > room)
			k = (unsigned)room;
		if (k > page)
			k = (unsigned)page;

		if (at <= UINTPTR_MAX && k - 1 <= UINTPTR_MAX - at &&
		    paging_range_writable(at, k))
			memcpy((void *)(uintptr_t)at, b, k);
		else
			p.dropped += k;
		offset = (offset + k) & mask;
		b += k;
		n -= k;
	}
	p.mask_ptrs = (p.mask_ptrs & 0xffffffffull) |
		      offset << RTIT_OUTPUT_OFFSET_SHIFT;
}

static void trace_start(void)
{
	if (p.status & (RTIT_STATUS_ERROR | RTIT_STATUS_STOPPED))
		return;
	if (!single_range_ok()) {
		p.status |= RTIT_STATUS_ERROR;
		return;
	}
	p.tracing = 1;
	pt_gen_start(&p.g, p.ctl, model_clock(), PT_MODEL_CBR, out_write, 0);
}

int pt_model_tracing(void)
{
	return p.tracing;
}

static void trace_stop(void)
{
	if (p.tracing)
		pt_gen_stop(&p.g, model_clock());
	p.tracing = 0;
}

static int ctl_write(const struct pt_caps *c, uint64_t v)
{
	int r;

	if (trace_en() && v == p.ctl)
		return 0;
	if (trace_en() && (v & RTIT_CTL_TRACEEN))
		return VEC_GP;
	r = ctl_check(c, v);
	if (r)
		return r;
	if (trace_en())
		trace_stop();
	p.ctl = v;
	if (v & RTIT_CTL_TRACEEN)
		trace_start();
	return 0;
}

static int status_write(const struct pt_caps *c, uint64_t v)
{
	if (v & ~(STATUS_WRITABLE | STATUS_PROCESSOR))
		return VEC_GP;
	if ((v >> RTIT_STATUS_PACKETBYTECNT_SHIFT) &&
	    !(c->ebx0 & PT_EBX_PSB_CYC))
		return VEC_GP;
	if (trace_en())
		return VEC_GP;
	p.status = v & STATUS_WRITABLE;
	return 0;
}

static int output_write(const struct pt_caps *c, uint32_t msr, uint64_t v)
{
	if (!has_output(c) || trace_en())
		return VEC_GP;
	if (msr == MSR_IA32_RTIT_OUTPUT_MASK_PTRS) {
		p.mask_ptrs = v | RTIT_MASK_LOWER;
		return 0;
	}
	if ((v & RTIT_MASK_LOWER) || (v >> maxphyaddr()))
		return VEC_GP;
	p.base = v;
	return 0;
}

int pt_model_wrmsr(uint32_t msr, uint64_t v)
{
	const struct pt_caps *c;
	unsigned n;

	if (!is_pt_msr(msr))
		return 1;
	c = caps();
	if (!c)
		return VEC_GP;
	switch (msr) {
	case MSR_IA32_RTIT_CTL:
		return ctl_write(c, v);
	case MSR_IA32_RTIT_STATUS:
		return status_write(c, v);
	case MSR_IA32_RTIT_OUTPUT_BASE:
	case MSR_IA32_RTIT_OUTPUT_MASK_PTRS:
		return output_write(c, msr, v);
	case MSR_IA32_RTIT_CR3_MATCH:
		if (!(c->ebx0 & PT_EBX_CR3_FILTER) || trace_en() || (v & 0x1f))
			return VEC_GP;
		p.cr3_match = v;
		return 0;
	default:
		n = msr - MSR_IA32_RTIT_ADDR_A(0);
		if (n / 2 >= ranges(c) || !canonical48(v) || trace_en())
			return VEC_GP;
		p.addr[n] = v;
		return 0;
	}
}

void pt_model_step(const struct insn_event *e, uint64_t clock)
{
	if (!p.tracing)
		return;
	/* EF_PT_TNT_REVERSED: each TNT packet's bits newest first, where
	 * the first bit is the oldest branch (SDM Vol. 3C Table 36-16, as
	 * gen.c cites it) */
	p.g.tnt_reversed = emufault_on(EF_PT_TNT_REVERSED);
	pt_gen_step(&p.g, e, clock);
}
