/* pmu/perfmon/pebs/regs.c: where each field of a PEBS record lies
 * (formats 0-3), the adaptive record groups (formats 4-5), record sizes,
 * and which counters take PEBS per record format.  Pure logic:
 * host-tested (tests/host/pmu/perfmon/pebs/test_regs.c).  Citations are
 * those of regs.h. */
#include "regs.h"

#define PEBS_FIXED_FORMATS 4	/* formats 0-3: fixed-layout records */
#define PEBS_NHM_MAX_CTRS 4	/* PMC0-3 (formats 1-3) */
#define PEBS_LL_EN_SHIFT 32	/* IA32_PEBS_ENABLE LL_EN_PMC0-3 */
#define PEBS_PS_EN (1ull << 63)	/* IA32_PEBS_ENABLE precise store */
#define GLOBAL_FIXED_BIT 32	/* GLOBAL_CTRL: fixed counter i at 32 + i */

/* One field of the fixed-layout records: its byte offset, the first
 * format that has it and, for a GPR, its encoding. */
struct pebs_field_desc {
	uint8_t offset;
	uint8_t since;
	int8_t gpr;
};

/* Core 2 record (§18.6.2.4), Table 18-23 (format 1: 90H-A8H), Table
 * 18-44 (format 2: B0H, B8H), Table 18-55 (format 3: C0H). */
static const struct pebs_field_desc fields[PEBS_F_NR] = {
	[PEBS_F_FLAGS] = { 0x00, 0, -1 },	/* RFLAGS */
	[PEBS_F_IP] = { 0x08, 0, -1 },	/* RIP */
	[PEBS_F_AX] = { 0x10, 0, 0 },	/* RAX */
	[PEBS_F_BX] = { 0x18, 0, 3 },	/* RBX */
	[PEBS_F_CX] = { 0x20, 0, 1 },	/* RCX */
	[PEBS_F_DX] = { 0x28, 0, 2 },	/* RDX */
	[PEBS_F_SI] = { 0x30, 0, 6 },	/* RSI */
	[PEBS_F_DI] = { 0x38, 0, 7 },	/* RDI */
	[PEBS_F_BP] = { 0x40, 0, 5 },	/* RBP */
	[PEBS_F_SP] = { 0x48, 0, 4 },	/* RSP */
	[PEBS_F_R8] = { 0x50, 0, 8 },	/* R8 */
	[PEBS_F_R9] = { 0x58, 0, 9 },	/* R9 */
	[PEBS_F_R10] = { 0x60, 0, 10 },	/* R10 */
	[PEBS_F_R11] = { 0x68, 0, 11 },	/* R11 */
	[PEBS_F_R12] = { 0x70, 0, 12 },	/* R12 */
	[PEBS_F_R13] = { 0x78, 0, 13 },	/* R13 */
	[PEBS_F_R14] = { 0x80, 0, 14 },	/* R14 */
	[PEBS_F_R15] = { 0x88, 0, 15 },	/* R15 */
	[PEBS_F_STATUS] = { 0x90, 1, -1 },	/* GLOBAL_STATUS */
	[PEBS_F_DLA] = { 0x98, 1, -1 },	/* DATA_LINEAR_ADDRESS */
	[PEBS_F_DSE] = { 0xa0, 1, -1 },	/* DATA_SOURCE */
	[PEBS_F_LAT] = { 0xa8, 1, -1 },	/* LATENCY */
	[PEBS_F_EVENTING_IP] = { 0xb0, 2, -1 },	/* EVENTING_IP */
	[PEBS_F_TSX] = { 0xb8, 2, -1 },	/* TSX */
	[PEBS_F_TSC] = { 0xc0, 3, -1 },	/* TSC */
};

/* The 32-bit record (§17.4.9): the first ten fields of the 64-bit one, in
 * the same order, 4 bytes each (EFLAGS, EIP, EAX .. ESP). */
int pebs32_field_offset(enum pebs_field f)
{
	if ((unsigned)f >= PEBS_F_R8)
		return -1;
	return (int)((unsigned)f * PEBS_RECORD32_FIELD);
}

/* Record bytes of formats 0-3. */
static const unsigned fixed_sizes[PEBS_FIXED_FORMATS] = {
	[0] = 144, [1] = 176, [2] = 192, [3] = 200,
};

static int field_known(enum pebs_field f)
{
	return (unsigned)f < PEBS_F_NR;
}

int pebs_field_offset(unsigned fmt, enum pebs_field f)
{
	if (fmt >= PEBS_FIXED_FORMATS || !field_known(f) ||
	    fields[f].since > fmt)
		return -1;
	return fields[f].offset;
}

int pebs_field_gpr(enum pebs_field f)
{
	return field_known(f) ? fields[f].gpr : -1;
}

unsigned pebs_fixed_record_size(unsigned fmt)
{
	return fmt < PEBS_FIXED_FORMATS ? fixed_sizes[fmt] : 0;
}

/* Adaptive groups follow the basic one in this order (MSR_PEBS_DATA_CFG
 * bits 0-3); a group's offset is the size so far. */
static unsigned add_group(unsigned *size, int present, unsigned bytes)
{
	unsigned at = *size;

	if (!present)
		return 0;
	*size += bytes;
	return at;
}

void pebs_adaptive_layout(uint64_t cfg, int adaptive, struct pebs_adaptive *a)
{
	unsigned size = PEBS_BASIC_SIZE;

	if (!adaptive)
		cfg = 0;
	*a = (struct pebs_adaptive){
		.n_lbr = cfg & PEBS_CFG_LBRS ?
			 (unsigned)((cfg & PEBS_CFG_LBR_MASK) >>
				    PEBS_CFG_LBR_SHIFT) + 1 : 0,
	};
	a->meminfo = add_group(&size, cfg & PEBS_CFG_MEMINFO,
			       PEBS_MEMINFO_SIZE);
	a->gprs = add_group(&size, cfg & PEBS_CFG_GPRS, PEBS_GPRS_SIZE);
	a->xmms = add_group(&size, cfg & PEBS_CFG_XMMS, PEBS_XMMS_SIZE);
	a->lbrs = add_group(&size, a->n_lbr != 0,
			    a->n_lbr * PEBS_LBR_ENTRY_SIZE);
	a->size = size;
}

unsigned pebs_record_size(unsigned fmt, uint64_t cfg, int adaptive)
{
	struct pebs_adaptive a;

	if (fmt < PEBS_FIXED_FORMATS)
		return fixed_sizes[fmt];
	if (fmt > PEBS_FORMAT_MAX)
		return 0;
	pebs_adaptive_layout(cfg, adaptive, &a);
	return a.size;
}

/* Bits 0..n-1 (n at most 32: the GP half of GLOBAL_CTRL). */
static uint64_t low_bits(unsigned n)
{
	if (n > GLOBAL_FIXED_BIT)
		n = GLOBAL_FIXED_BIT;
	return (1ull << n) - 1;
}

static unsigned min_u(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

uint64_t pebs_capable_counters(unsigned fmt, unsigned gp, uint32_t fixed_mask,
			       int baseline)
{
	if (fmt == 0)
		return low_bits(min_u(gp, 1));	/* Core 2: PMC0 only */
	if (fmt < PEBS_FIXED_FORMATS)
		return low_bits(min_u(gp, PEBS_NHM_MAX_CTRS));
	if (fmt > PEBS_FORMAT_MAX)
		return 0;
	return low_bits(gp) |
	       (baseline ? (uint64_t)fixed_mask << GLOBAL_FIXED_BIT : 0);
}

uint64_t pebs_enable_valid(unsigned fmt, unsigned gp, uint32_t fixed_mask,
			   int baseline, int precise_store)
{
	uint64_t v = pebs_capable_counters(fmt, gp, fixed_mask, baseline);

	if (fmt >= 1 && fmt < PEBS_FIXED_FORMATS) {
		v |= low_bits(min_u(gp, PEBS_NHM_MAX_CTRS))
		     << PEBS_LL_EN_SHIFT;
		if (precise_store)
			v |= PEBS_PS_EN;
	}
	return v;
}
