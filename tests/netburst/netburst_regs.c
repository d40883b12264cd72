/* tests/netburst/netburst_regs.c: the register facts of nb_test.h that
 * take code, written out from the SDM (Vol. 3B, order no. 253669-060US),
 * not taken from pmu/netburst/regs.c: where CCCR bit 11 (extended
 * cascading) exists, the counters' blocks and halves, and the ESCR a
 * CCCR's ESCR select names for a counter (Table 18-63). */
#include "nb_test.h"

/* Extended cascading (§18.15.5.7): CCCR bit 11 is CASCNT4INTO0 in
 * IQ_CCCR0 (counter 12), CASCNT5INTO3 in IQ_CCCR3 (15), CASCNT5INTO4 in
 * IQ_CCCR4 (16) and CASCNT4INTO5 in IQ_CCCR5 (17), on processors with
 * DisplayFamily_DisplayModel 0F_02, 0F_03, 0F_04 and 0F_06; reserved
 * everywhere else. */
int nbt_ext_cascade_bit(unsigned ctr, const struct cpu_sig *s)
{
	static const uint32_t ctrs = 1u << 12 | 1u << 15 | 1u << 16 |
				     1u << 17;

	if (s->family != 15 || ctr >= NBT_COUNTERS)
		return 0;
	if (s->model != 2 && s->model != 3 && s->model != 4 && s->model != 6)
		return 0;
	return (int)(ctrs >> ctr & 1);
}

unsigned nbt_block(unsigned ctr)
{
	if (ctr <= 3)
		return NBT_BPU;
	if (ctr <= 7)
		return NBT_MS;
	if (ctr <= 11)
		return NBT_FLAME;
	return NBT_IQ;
}

/* Table 18-63: an ESCR0 feeds counters 0, 1, 4, 5, 8, 9, 12, 13 and 16,
 * an ESCR1 counters 2, 3, 6, 7, 10, 11, 14, 15 and 17. */
#define NBT_ESCR0_CTRS (1u << 0 | 1u << 1 | 1u << 4 | 1u << 5 | 1u << 8 | \
			1u << 9 | 1u << 12 | 1u << 13 | 1u << 16)

/* 0: ctr's ESCRs are the ESCR0s of its block, 1: the ESCR1s. */
static unsigned nbt_half(unsigned ctr)
{
	return NBT_ESCR0_CTRS >> ctr & 1 ? 0 : 1;
}

/* CCCR ESCR select -> ESCR, Table 18-63.  Per block and select the
 * ESCR0 and ESCR1 MSR (0: that select names no ESCR in the block).  The
 * SSU has an ESCR0 only (there is no MSR 0x3BF).  IQ_ESCR0/1 exist on
 * models 0, 1 and 2 only (Table 18-63's note). */
struct nbt_escr_pair {
	const char *name;		/* without the _ESCRn suffix */
	uint32_t msr[2];		/* ESCR0, ESCR1 */
};

static const struct nbt_escr_pair *nbt_escr_pair(unsigned block, unsigned sel)
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

uint32_t nbt_escr_msr(unsigned ctr, unsigned sel, const struct cpu_sig *s)
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
