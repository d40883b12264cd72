/* tests/pebs/pebs_sdm.c: the PEBS facts of pebs_test.h that take code,
 * written out from the SDM (Vol. 3B, order no. 253669-060US) rather than
 * taken from pmu/perfmon/pebs/: the offsets and sizes of the format 0-3
 * records (§18.6.2.4, Table 18-23, Table 18-44, Table 18-55), the layout
 * of an adaptive record, and the precise events the tests sample per
 * format, with the counter the instruction event may use. */
#include "pebs_test.h"

int sdm_pebs_offset(unsigned fmt, unsigned f)
{
	static const int first_fmt[S_NR] = {
		[S_STATUS] = 1, [S_DLA] = 1, [S_DSE] = 1, [S_LAT] = 1,
		[S_EIP] = 2, [S_TSX] = 2, [S_TSC] = 3,
	};

	if (fmt > 3 || (int)fmt < first_fmt[f])
		return -1;
	return (int)f * 8;	/* the fields follow each other in 8 bytes */
}

unsigned sdm_pebs_size(unsigned fmt)
{
	static const unsigned size[4] = { 0x90, 0xb0, 0xc0, 0xc8 };

	return fmt < 4 ? size[fmt] : 0;
}

struct sdm_adaptive sdm_adaptive_of(const struct pebs_run *r)
{
	struct sdm_adaptive a = { .size = SDM_BASIC };
	int adaptive = 0;

	for (unsigned k = 0; k < r->n_ctr; k++)
		adaptive |= r->ctr[k].adaptive;
	a.cfg = adaptive ? r->cfg : 0;
	if (a.cfg & 1) {
		a.meminfo = a.size;
		a.size += SDM_MEMINFO;
	}
	if (a.cfg & 2) {
		a.gprs = a.size;
		a.size += SDM_GPRS;
	}
	if (a.cfg & 4) {
		a.xmms = a.size;
		a.size += SDM_XMMS;
	}
	if (a.cfg & 8) {
		a.lbrs = a.size;
		a.n_lbr = (unsigned)(a.cfg >> 24 & 0xff) + 1;
		a.size += SDM_LBR * a.n_lbr;
	}
	return a;
}

int sdm_inst_event(unsigned fmt, struct sdm_event *ev)
{
	*ev = (struct sdm_event){ 0xc0, fmt >= 1 && fmt <= 3 ? 0x01 : 0x00,
				  SEM_BIT(SEM_INSTRUCTIONS), 0 };
	return 1;
}

int sdm_branch_event(unsigned fmt, struct sdm_event *ev)
{
	if (fmt == 0)
		return 0;
	/* before format 4 the precise all-branches event is C4H/04H
	 * (BR_INST_RETIRED.ALL_BRANCHES(_PEBS)); far transfers are among
	 * the branches it counts */
	*ev = (struct sdm_event){ 0xc4, fmt <= 3 ? 0x04 : 0x00,
				  SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR),
				  0 };
	return 1;
}

/* Sandy Bridge or Ivy Bridge by the CPUID signature (SDM Vol. 4, order
 * no. 335592-060US, Table 2-1: 06_2AH, 06_2DH Sandy Bridge; 06_3AH,
 * 06_3EH Ivy Bridge): format 1 like Nehalem, but precise events of their
 * own (Vol. 3B §18.9.4.2). */
int sdm_sandy_bridge(void)
{
	const struct cpu_info *ci = cpu_info();
	unsigned m = ci->sig.model;

	return ci->sig.family == 6 &&
	       (m == 0x2a || m == 0x2d || m == 0x3a || m == 0x3e);
}

/* Rows where C0H/01H is INST_RETIRED.PREC_DIST, precise distribution:
 * Sandy Bridge/Ivy Bridge (format 1, SDM Vol. 3B §18.9.4.4), Haswell/
 * Broadwell (format 2) and Skylake (format 3; the capability rows have
 * no Goldmont), whose PEBS sections keep PDIR.  PEBS for it must use
 * IA32_PMC1, and its record is for the overflowing instruction
 * (pebs_expect.h). */
int sdm_pdir_row(unsigned fmt)
{
	return (fmt == 1 && sdm_sandy_bridge()) || fmt == 2 || fmt == 3;
}

/* Tremont by the CPUID signature (SDM Vol. 4 Table 2-1: 06_86H Snow
 * Ridge / Jacobsville, 06_96H Elkhart Lake, 06_9CH Jasper Lake; Linux
 * intel-family.h ATOM_TREMONT_D, ATOM_TREMONT, ATOM_TREMONT_L, which
 * intel_pmu_init() sets up alike, "Tremont events").  QEMU 7.2's
 * Icelake-Server model reports 06_86H too. */
int sdm_tremont(void)
{
	const struct cpu_info *ci = cpu_info();
	unsigned m = ci->sig.model;

	return ci->sig.family == 6 && (m == 0x86 || m == 0x96 || m == 0x9c);
}

/* Sapphire Rapids (06_8FH) and Emerald Rapids (06_CFH) by the CPUID
 * signature (SDM Vol. 4 Table 2-1).  Their PEBS section: PEBS on IA32_PMC0
 * is "PDist", "the PEBS record is generated for the instruction that
 * caused the overflow" - no "wait for next occurrence" (the SDM text KVM
 * commit 974850be0125 quotes; Linux spr_get_event_constraints() gives
 * PREC_DIST counter 0 and fixed counter 0 there).
 * Tremont: reduced-skid PEBS on IA32_PMC0 (and fixed counter 0, below).
 * The mechanism, as the SDM gives it for Goldmont (Vol. 3, order no.
 * 325384-059US, §18.7.1.2 "Reduced Skid PEBS"), lets the machine
 * "precisely trap on the instruction that actually caused the counter
 * overflow", "a superset of the PDIR mechanism", for "all precise events
 * including INST_RETIRED"; Tremont has it on "PMC0 and fixed counter 0"
 * (Linux tnt_get_event_constraints(), commit 6daeb8737f8a: "The generic
 * purpose counter 0 and fixed counter 0 have less skid").
 * On both the other GP counters keep the next-event rule. */
int sdm_pdist_pmc0(void)
{
	const struct cpu_info *ci = cpu_info();

	return sdm_tremont() || (ci->sig.family == 6 &&
	       (ci->sig.model == 0x8f || ci->sig.model == 0xcf));
}

/* Ice Lake (06_7DH, 06_7EH client; 06_6AH, 06_6CH server) and the
 * Sapphire Rapids parts above, by the CPUID signature (SDM Vol. 4 Table
 * 2-1): precise distribution is on IA32_FIXED_CTR0 there, its record for
 * the instruction that made the counter overflow (the SDM's Ice Lake
 * PEBS text; Linux icl_pebs_event_constraints() and
 * spr_pebs_event_constraints(): INST_RETIRED.PREC_DIST, 01C0H, on fixed
 * counter 0).  Tremont: reduced skid on fixed counter 0 (above; Linux
 * tnt_get_event_constraints() lets INST_RETIRED.ANY 00C0H take it there
 * or on PMC0). */
int sdm_pdir_fixed0(void)
{
	const struct cpu_info *ci = cpu_info();
	unsigned m = ci->sig.model;

	return sdm_pdist_pmc0() ||
	       (ci->sig.family == 6 &&
		(m == 0x7d || m == 0x7e || m == 0x6a || m == 0x6c));
}

enum sdm_inst_kind sdm_inst_ctr(unsigned fmt, struct pebs_ctr *c,
				uint64_t period, int usr, int os)
{
	struct sdm_event ev;
	enum sdm_inst_kind k = !sdm_pdir_row(fmt) ? SDM_INST_PMC0 :
			       pebs_ds32() ? SDM_INST_BRANCHES : SDM_INST_PDIR;

	if (k == SDM_INST_BRANCHES)
		sdm_branch_event(fmt, &ev);
	else
		sdm_inst_event(fmt, &ev);
	*c = (struct pebs_ctr){ .bit = k == SDM_INST_PDIR ? 1 : 0,
		.sem = ev.sem,
		.sel = ev.event | (uint64_t)ev.umask << 8 |
		       (usr ? 1ull << 16 : 0) | (os ? 1ull << 17 : 0),
		.period = period, .reload = period,
		.pdir = k == SDM_INST_PDIR };
	return k;
}

int sdm_mem_event(unsigned fmt, int store, struct sdm_event *ev)
{
	if (fmt == 0)
		return 0;
	/* Nehalem/Westmere MEM_INST_RETIRED.LOADS/STORES 0BH (§18.8.1.1);
	 * Sandy Bridge MEM_UOPS_RETIRED.ALL_LOADS/STORES D0H, whose data
	 * address is written for load latency and precise store only
	 * (§18.9.4.1) */
	if (fmt == 1 && sdm_sandy_bridge())
		*ev = (struct sdm_event){ 0xd0, store ? 0x82 : 0x81,
			SEM_BIT(store ? SEM_STORES : SEM_LOADS), 0 };
	else if (fmt == 1)
		*ev = (struct sdm_event){ 0x0b, store ? 0x02 : 0x01,
			SEM_BIT(store ? SEM_STORES : SEM_LOADS), 0 };
	else
		*ev = (struct sdm_event){ 0xd0, store ? 0x82 : 0x81,
			SEM_BIT(store ? SEM_STORES : SEM_LOADS),
			store ? 2 : 1 };
	return 1;
}
