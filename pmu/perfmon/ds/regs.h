/* pmu/perfmon/ds/regs.h: the Debug Store (DS) save area, the BTS records
 * it points at, and the checks a DS area must pass before anything is
 * enabled (ds/regs.c).
 *
 * Citations: Intel SDM Vol. 3B, order no. 253669-060US, §17.4.9 "BTS and
 * DS Save Area" (the 32-bit DS save area and BTS record), §17.4.9.1 "64
 * Bit Format of the DS Save Area" (the IA-32e layout, used in every mode
 * where CPUID.01H:ECX.DTES64[2] is set), §17.4.9.2 "Setting Up the DS
 * Save Area", §17.4.9.3 "Setting Up the BTS Buffer", §17.4.9.4 "Setting
 * Up CPL-Qualified BTS"; IA32_DEBUGCTL §17.4.1 (Figure 17-3); the PEBS
 * counter-reset slots: §18.6.2.4 (Core 2; as pmu/perfmon/pebs/regs.h
 * cites) and the adaptive-PEBS section of chapter 18 (format 5: 32 GP +
 * 16 fixed slots; Linux commit "perf/x86/intel: Enable PEBS format 5",
 * K. Liang, 2022); IA32_DS_AREA 600H,
 * IA32_PEBS_ENABLE 3F1H, MSR_PEBS_DATA_CFG 3F2H, MSR_PEBS_LD_LAT 3F6H:
 * Vol. 4 Tables 2-2 and 2-20.
 *
 * 64-bit DS area (8-byte fields): 00H BTS buffer base, 08H BTS index,
 * 10H BTS absolute maximum, 18H BTS interrupt threshold, 20H PEBS buffer
 * base, 28H PEBS index, 30H PEBS absolute maximum, 38H PEBS interrupt
 * threshold, 40H + 8n PEBS counter-reset value of GP counter n, then
 * those of the fixed counters (8 GP + 4 fixed slots for formats 0-4,
 * 32 GP + 16 fixed for format 5).
 * 32-bit DS area (4-byte fields): 00H .. 1CH the same eight fields, 20H
 * the 8-byte PEBS counter-reset value (one counter).
 *
 * BTS record: 64-bit 24 bytes {from 00H, to 08H, flags 10H (bit 4:
 * branch predicted)}; 32-bit 12 bytes {from 0, to 4, flags 8}. */
#ifndef PMU_PERFMON_DS_REGS_H
#define PMU_PERFMON_DS_REGS_H

#include <stdint.h>

#define MSR_IA32_DS_AREA 0x600u
#define MSR_IA32_PEBS_ENABLE 0x3f1u
#define MSR_PEBS_DATA_CFG 0x3f2u
#define MSR_PEBS_LD_LAT 0x3f6u

/* IA32_DEBUGCTL branch-trace bits (§17.4.1; BTS_OFF_*: §17.4.9.4). */
#define DEBUGCTL_TR (1ull << 6)		/* branch trace messages */
#define DEBUGCTL_BTS (1ull << 7)	/* ... stored in the BTS buffer */
#define DEBUGCTL_BTINT (1ull << 8)	/* 1: interrupt at threshold,
					 * 0: circular buffer */
#define DEBUGCTL_BTS_OFF_OS (1ull << 9)	/* no BTS records at CPL 0 */
#define DEBUGCTL_BTS_OFF_USR (1ull << 10) /* no BTS records at CPL > 0 */
/* All of them: what BTS sets and what taking it off clears. */
#define DEBUGCTL_BTS_ALL (DEBUGCTL_TR | DEBUGCTL_BTS | DEBUGCTL_BTINT | \
			  DEBUGCTL_BTS_OFF_OS | DEBUGCTL_BTS_OFF_USR)

enum ds_field {
	DS_BTS_BASE, DS_BTS_INDEX, DS_BTS_MAX, DS_BTS_THRESH,
	DS_PEBS_BASE, DS_PEBS_INDEX, DS_PEBS_MAX, DS_PEBS_THRESH,
	DS_FIELD_NR
};

/* Where things are in one DS area layout. */
struct ds_layout {
	int ds64;		/* 1: 64-bit layout, 0: 32-bit */
	unsigned field_size;	/* 8 or 4 */
	unsigned reset_offset;	/* first counter-reset slot (40H / 20H) */
	unsigned gp_slots;	/* counter-reset slots for GP counters */
	unsigned fixed_slots;	/* ... and for fixed counters (after them) */
	unsigned size;		/* bytes of the whole area */
	unsigned bts_record;	/* bytes of one BTS record (24 / 12) */
};

/*
 * Which DS format the processor uses, SDM Vol. 3B §17.4.9.1 "64 Bit
 * Format of the DS Save Area": "When DTES64 = 1 (CPUID.1.ECX[2] = 1), the
 * structure of the DS save area is shown in [the IA-32e mode DS save
 * area figure].  When DTES64 = 0 (CPUID.1.ECX[2] = 0) and IA-32e mode is
 * active, the structure of the DS save area is shown in [the same].  If
 * IA-32e mode is not active the structure of the DS save area is as
 * shown in [the 32-bit DS save area figure of §17.4.9]".  So: 1 (64-bit
 * format) when ia32e or dtes64, else 0 (32-bit format).  With the 64-bit
 * format outside IA-32e mode the processor writes 32-bit values, bits
 * 63:32 zeroed, and registers that mode lacks (R8-R15) as 0 (Vol. 3B
 * §18.8.1.1, the Core i7 PEBS record).
 */
int ds_format64(int ia32e, int dtes64);

/* This build's mode: the x86-64 build runs in IA-32e mode; the i386 build
 * never enables it (paging off, 32-bit linear addresses). */
#ifdef __x86_64__
#define DS_BUILD_IA32E 1
#else
#define DS_BUILD_IA32E 0
#endif

/* [a, a + len) lies within what a pointer of this build reaches (below
 * 4 GiB in the i386 build; len 0: a alone), so that a model writing a
 * record there never truncates the address. */
static inline int ds_reachable(uint64_t a, uint64_t len)
{
	return a <= (uint64_t)UINTPTR_MAX &&
	       (len == 0 || len - 1 <= (uint64_t)UINTPTR_MAX - a);
}

/* The layout for PEBS record format fmt (0-5) in the 64-bit (ds64) or
 * 32-bit DS format.  The 32-bit format has one reset slot (gp 1, fixed
 * 0) whatever the format. */
void ds_layout_for(unsigned fmt, int ds64, struct ds_layout *l);
/* Byte offset of the counter-reset slot of GP counter n (fixed = 0) or
 * fixed counter n (fixed = 1); -1 when the layout has no such slot. */
int ds_reset_offset(const struct ds_layout *l, unsigned n, int fixed);

/* Read and write a field / reset slot of a DS area image in memory. */
uint64_t ds_get(const void *area, const struct ds_layout *l, enum ds_field f);
void ds_put(void *area, const struct ds_layout *l, enum ds_field f,
	    uint64_t v);
uint64_t ds_get_reset(const void *area, const struct ds_layout *l,
		      unsigned n, int fixed);
void ds_put_reset(void *area, const struct ds_layout *l, unsigned n,
		  int fixed, uint64_t v);

/* A BTS record as the 64-bit format stores it. */
#define BTS_FLAG_PREDICTED (1ull << 4)
struct bts_record {
	uint64_t from, to, flags;
};

/* One buffer's four fields. */
struct ds_buffer {
	uint64_t base, index, max, thresh;
};

/* What ds_check() checks: the DS area and the buffers that will be used
 * (use_bts, use_pebs), with record sizes, against a "mapped" callback
 * that says whether [addr, addr + len) is mapped and writable. */
struct ds_check_in {
	const struct ds_layout *l;
	uint64_t area;			/* linear address of the DS area */
	int use_bts, use_pebs;
	struct ds_buffer bts, pebs;
	unsigned bts_record, pebs_record;	/* bytes (0: not used) */
	uint64_t pebs_max_bytes;	/* 0: no limit; format 0: 4096 */
	int (*mapped)(uint64_t addr, uint64_t len, void *ctx);
	void *ctx;
	int la32;	/* outside IA-32e mode: linear addresses are 32 bits
			 * (every address below 4 GiB, whatever the layout);
			 * 0: IA-32e mode, 48-bit canonical addresses */
};
/* In ds_check(): bts_record 0 stands for the layout's BTS record
 * (l->bts_record); a PEBS buffer in use with pebs_record 0 is refused;
 * mapped NULL skips the mapped-and-writable rule (host tests, or a caller
 * that checked the pages itself). */

/*
 * The rules, for each buffer in use (SDM §17.4.9.2, §17.4.9.3, and what
 * a sound setup needs):
 *   - base <= index <= max and max > base (a buffer of at least one
 *     record); in IA-32e mode all canonical (bits 63:47 equal) and, in
 *     the 32-bit layout, below 4 GiB; outside it (la32) all below 4 GiB,
 *     the canonical rule being moot there (Vol. 3A §3.3.7.1 is IA-32e);
 *   - base aligned to 8 bytes; index - base a multiple of the record
 *     size, max - base one too or one byte more (§17.4.9 asks for "a
 *     multiple of the record size plus 1"; §18.8.1.1 defines the maximum
 *     as base plus length, full when the index equals it: both hold the
 *     same whole records, a record never straddling the maximum);
 *   - base < thresh <= max - one record and thresh - base a multiple of
 *     the record size: a threshold past the maximum never fires, and the
 *     SDM asks for one "several records short of the absolute maximum"
 *     (§17.4.9) so that the PMI is handled before the buffer fills;
 *     "several" is no number, and one record short is the least the
 *     driver accepts (docs/pebs.md);
 *   - the PEBS buffer at most pebs_max_bytes (Core 2: one page; a larger
 *     one hangs the GLOBAL_CTRL write: not in the SDM; Linux
 *     arch/x86/events/intel/ds.c intel_ds_init(), format 0, limits
 *     pebs_buffer_size to PAGE_SIZE for that reason);
 *   - the DS area (l->size bytes, 8-byte aligned) and each buffer's
 *     [base, max) mapped and writable, and no two of them overlapping.
 * Returns 0, or -1 with why (one sentence naming the buffer, the field
 * and the values).
 */
int ds_check(const struct ds_check_in *in, char *why, unsigned size);

#endif
