/* pmu/perfmon/lbr/events.c: the event that counts LBR records (events.h).
 * Intel SDM Vol. 3B chapter 19 "Performance Monitoring Events" (order no.
 * 253669), each microarchitecture's table of model-specific events:
 *   - Sandy Bridge (and Ivy Bridge), Haswell, Broadwell, Skylake: CCH/20H
 *     ROB_MISC_EVENTS.LBR_INSERTS, "Count cases of saving new LBR records
 *     by hardware";
 *   - Ice Lake, Sapphire Rapids: CCH/20H MISC_RETIRED.LBR_INSERTS,
 *     "Increments when an entry is added to the Last Branch Record (LBR)
 *     array (or removed from the array in case of RETURNs in call stack
 *     mode)".
 * libpfm4 4.13 has both (lib/events/intel_snb_events.h ... intel_skl,
 * intel_icl, intel_spr: ROB_MISC_EVENTS:LBR_INSERTS, MISC_RETIRED:
 * LBR_INSERTS); Nehalem's and Westmere's tables have no such event, nor
 * the Atom cores' (Gracemont's E4H/01H LBR_INSERTS came after 4.13). */
#include "events.h"

static const struct perfmon_lbr_event table[] = {
	{ .uarch_lo = PERFMON_UARCH_SANDY_BRIDGE,
	  .uarch_hi = PERFMON_UARCH_SKYLAKE, .event = 0xcc, .umask = 0x20,
	  .name = "ROB_MISC_EVENTS.LBR_INSERTS",
	  .libpfm = "ROB_MISC_EVENTS:LBR_INSERTS",
	  .pmus = "snb ivb hsw bdw skl skx clx",
	  .cite = "SDM Vol. 3B ch. 19, the Sandy Bridge to Skylake tables: "
		  "CCH/20H \"saving new LBR records\"" },
	{ .uarch_lo = PERFMON_UARCH_ICE_LAKE,
	  .uarch_hi = PERFMON_UARCH_SAPPHIRE_RAPIDS, .event = 0xcc,
	  .umask = 0x20, .name = "MISC_RETIRED.LBR_INSERTS",
	  .counts_pops = 1, .libpfm = "MISC_RETIRED:LBR_INSERTS",
	  .pmus = "icl icx spr",
	  .cite = "SDM Vol. 3B ch. 19, the Ice Lake and Sapphire Rapids "
		  "tables: CCH/20H, an entry added (or removed by a RET in "
		  "call-stack mode)" },
};

const struct perfmon_lbr_event *perfmon_lbr_event_for(enum perfmon_uarch u)
{
	for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (u >= table[i].uarch_lo && u <= table[i].uarch_hi)
			return &table[i];
	return 0;
}

const struct perfmon_lbr_event *perfmon_lbr_events(unsigned *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}
