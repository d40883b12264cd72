/* pmu/perfmon/pebs/regs.h: Processor Event-Based Sampling record formats
 * 0-5, the adaptive record groups and which counters take PEBS, per
 * record format (= per microarchitecture generation) (pebs/regs.c); the
 * precise events are pebs/events.h's.
 *
 * Citations (Intel SDM Vol. 3B, order no. 253669-060US, chapter 18, and
 * later editions for formats 4-5):
 *   - format 0, Core 2: §18.6.2.4 "Processor Event Based Sampling
 *     (PEBS)", 144-byte record {RFLAGS, RIP, RAX, RBX, RCX, RDX, RSI,
 *     RDI, RBP, RSP, R8-R15}, PEBS on PMC0 only, the precise events of
 *     Table 18-10 ("PEBS Performance Events for Intel Core
 *     Microarchitecture");
 *   - format 1, Nehalem to Ivy Bridge: §18.8.1.1 and Table 18-23 "PEBS
 *     Record Format for Intel Core i7 Processor Family" (176 bytes: 90H
 *     IA32_PERF_GLOBAL_STATUS, 98H data linear address, A0H data source
 *     encoding, A8H latency), PEBS on PMC0-3; the note that PEBS events
 *     need AnyThread, Edge, Invert and CMask all zero;
 *   - format 2, Haswell/Broadwell: §18.11.5.1, Table 18-44 (192 bytes:
 *     B0H eventing IP, B8H TSX tuning);
 *   - format 3, Skylake: §18.13.1.1, Table 18-55 (200 bytes: C0H TSC;
 *     90H now the applicable counters: "PEBS record 90H resolves the
 *     eventing counter overflow", Table 18-54);
 *   - formats 4 and 5, Ice Lake on: the adaptive PEBS section ("PEBS
 *     Record Format" with the Basic, Memory Info, GPRs, XMMs and LBR
 *     groups, MSR_PEBS_DATA_CFG); PEBS on every GP and fixed counter with
 *     PERF_CAPABILITIES.PEBS_BASELINE; the Adaptive_Record bit, PERFEVTSEL
 *     bit 34 and FIXED_CTR_CTRL bit 32 + 4i.  Format 5 is format 4's
 *     record with the larger DS counter-reset area
 *     (pmu/perfmon/ds/regs.h).
 * The layouts were checked against Linux arch/x86/events/perf_event.h
 * (struct pebs_record_core/_nhm/_hsw/_skl, pebs_basic, pebs_meminfo,
 * pebs_gprs, pebs_xmm, lbr_entry) and kvm-unit-tests x86/pmu_pebs.c.
 */
#ifndef PMU_PERFMON_PEBS_REGS_H
#define PMU_PERFMON_PEBS_REGS_H

#include <stdint.h>

#define PEBS_FORMAT_MAX 5

/* The fields of the fixed-layout records (formats 0-3). */
enum pebs_field {
	PEBS_F_FLAGS, PEBS_F_IP,
	PEBS_F_AX, PEBS_F_BX, PEBS_F_CX, PEBS_F_DX,
	PEBS_F_SI, PEBS_F_DI, PEBS_F_BP, PEBS_F_SP,
	PEBS_F_R8, PEBS_F_R9, PEBS_F_R10, PEBS_F_R11,
	PEBS_F_R12, PEBS_F_R13, PEBS_F_R14, PEBS_F_R15,
	PEBS_F_STATUS,		/* 1-2: GLOBAL_STATUS; 3: applicable ctrs */
	PEBS_F_DLA,		/* data linear address */
	PEBS_F_DSE,		/* data source encoding */
	PEBS_F_LAT,		/* load latency, core cycles */
	PEBS_F_EVENTING_IP,
	PEBS_F_TSX,		/* TSX tuning / abort information */
	PEBS_F_TSC,
	PEBS_F_NR
};

/* Byte offset of field f in a format-fmt record (fmt 0-3), or -1 when
 * that format has no such field (and for fmt >= 4: adaptive). */
int pebs_field_offset(unsigned fmt, enum pebs_field f);
/* The register a GPR field holds, as an encoding number (RAX 0, RCX 1,
 * RDX 2, RBX 3, RSP 4, RBP 5, RSI 6, RDI 7, R8 8 ... R15 15), or -1. */
int pebs_field_gpr(enum pebs_field f);
/* Record bytes of formats 0-3: 144, 176, 192, 200; 0 for fmt >= 4. */
unsigned pebs_fixed_record_size(unsigned fmt);

/*
 * The 32-bit PEBS record: the record of the 32-bit DS format (SDM Vol. 3B
 * §17.4.9, the 40-byte "PEBS Record Format" figure; the Pentium 4's, used
 * wherever the DS save area is the 32-bit one: outside IA-32e mode on a
 * processor without DTES64, pmu/perfmon/ds/regs.h ds_format64()).  Ten
 * 4-byte fields: 00H EFLAGS, 04H linear IP, 08H EAX, 0CH EBX, 10H ECX,
 * 14H EDX, 18H ESI, 1CH EDI, 20H EBP, 24H ESP.  "Nominally the register values are those at
 * the beginning of the instruction that caused the event"; the linear IP
 * is EIP as a linear address.  PERF_CAPABILITIES' record format does not
 * change it: formats 0-5 all describe 64-bit records.
 */
#define PEBS_RECORD32_SIZE 40u
#define PEBS_RECORD32_FIELD 4u		/* bytes of each field */
/* Byte offset of field f (PEBS_F_FLAGS .. PEBS_F_SP) in the 32-bit
 * record, or -1 (R8-R15 and every field after them). */
int pebs32_field_offset(enum pebs_field f);

/* MSR_PEBS_DATA_CFG (formats 4-5): which groups follow the basic one. */
#define PEBS_CFG_MEMINFO (1ull << 0)
#define PEBS_CFG_GPRS (1ull << 1)
#define PEBS_CFG_XMMS (1ull << 2)
#define PEBS_CFG_LBRS (1ull << 3)
#define PEBS_CFG_LBR_SHIFT 24		/* bits 31:24: LBR entries - 1 */
#define PEBS_CFG_LBR_MASK (0xffull << PEBS_CFG_LBR_SHIFT)
#define PEBS_CFG_VALID (0xfull | PEBS_CFG_LBR_MASK)

/* Group sizes (bytes). */
#define PEBS_BASIC_SIZE 32	/* format_size, IP, applicable, TSC */
#define PEBS_MEMINFO_SIZE 32	/* address, aux (data source), latency,
				 * TSX */
#define PEBS_GPRS_SIZE 144	/* RFLAGS, RIP, then RAX, RCX, RDX, RBX,
				 * RSP, RBP, RSI, RDI, R8-R15: encoding
				 * order, unlike formats 0-3 */
#define PEBS_XMMS_SIZE 256	/* XMM0-15, 16 bytes each */
#define PEBS_LBR_ENTRY_SIZE 24	/* from, to, info */
/* Basic group fields. */
#define PEBS_BASIC_FORMAT_SIZE 0x00	/* 63:48 record bytes, 47:0 the
					 * DATA_CFG it was written with */
#define PEBS_BASIC_IP 0x08		/* the eventing instruction */
#define PEBS_BASIC_APPLICABLE 0x10	/* counters the record is for */
#define PEBS_BASIC_TSC 0x18
#define PEBS_SIZE_SHIFT 48

/* Where each group of an adaptive record lies: offsets from the record's
 * start, 0 for a group that is absent (the basic group is always at 0). */
struct pebs_adaptive {
	unsigned meminfo, gprs, xmms, lbrs;
	unsigned n_lbr;		/* LBR entries */
	unsigned size;		/* the whole record */
};
/* The layout for DATA_CFG cfg; a counter whose Adaptive_Record bit is
 * clear gets the basic group only (adaptive = 0, cfg ignored). */
void pebs_adaptive_layout(uint64_t cfg, int adaptive,
			  struct pebs_adaptive *a);

/* Record bytes of format fmt with cfg/adaptive as above. */
unsigned pebs_record_size(unsigned fmt, uint64_t cfg, int adaptive);

/* Counters that take PEBS in format fmt with gp GP counters and the
 * fixed counters of fixed_mask (GLOBAL_CTRL numbering: bit n GP n, bit
 * 32 + i fixed i): 0: PMC0; 1-3: PMC0-3; 4-5 with baseline: all of them
 * (without baseline: GP only). */
uint64_t pebs_capable_counters(unsigned fmt, unsigned gp, uint32_t fixed_mask,
			       int baseline);
/* The IA32_PEBS_ENABLE bits a WRMSR may set: the capable counters, for
 * formats 1-3 the load-latency enables LL_EN_PMC0-3 (35:32), and with
 * precise_store the precise-store enable PS_EN (63; kept, not modelled),
 * which only Sandy Bridge and Ivy Bridge have (SDM Vol. 3B §18.9.4: "In
 * IA32_PEBS_ENABLE MSR, bit 63 is defined as PS_ENABLE"; Nehalem's
 * layout, bits 63:36 reserved, is Westmere's, Haswell's and Skylake's:
 * §18.8.1.1 and the PEBS facility comparisons of §18.11.1 and
 * §18.13.1). */
uint64_t pebs_enable_valid(unsigned fmt, unsigned gp, uint32_t fixed_mask,
			   int baseline, int precise_store);

/* What a precise event samples, as the trace sees it (the precise
 * events, pebs/events.h; the model's assist, pebs/model.h). */
enum pebs_data {
	PEBS_DATA_NONE,		/* no data address */
	PEBS_DATA_LOAD,		/* the sampled load's linear address */
	PEBS_DATA_STORE,	/* the sampled store's */
};

#endif
