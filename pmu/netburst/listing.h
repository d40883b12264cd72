/* pmu/netburst/listing.h: this generation's event listing for the host's
 * `events` tool (listing.c; pmu/listing.h). */
#ifndef PMU_NETBURST_LISTING_H
#define PMU_NETBURST_LISTING_H

#include "../listing.h"

int nb_list_events(const struct pmu_listing *out,
		   const struct cpu_sig *sig, const char **why);

#endif
