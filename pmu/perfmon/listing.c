/* pmu/perfmon/listing.c: architectural perfmon's events for the host's
 * `events` tool (listing.h).  What a CPU reports in CPUID.0AH and
 * IA32_PERF_CAPABILITIES only the CPU can answer: the listing takes the
 * capability row of its model (caps_table.c).  Then the architectural
 * events CPUID.0AH:EBX of the row leaves available (events.c), the fixed
 * counters the row has, and the precise events of the row's PEBS format
 * (pebs/events.c).  A CPU without a row (Kaby Lake, Alder Lake, Granite
 * Rapids ...: issue 40) gets the architectural events of Table 18-1
 * alone, each as CPUID.0AH may offer it: counters, availability and
 * precision unknown ("counters": null), since only the CPU can say. */
#include "listing.h"
#include "caps_table.h"
#include "events.h"
#include "regs.h"
#include "pebs/events.h"
#include "lbr/events.h"
#include "pebs/regs.h"
#include "../../lib/fmt.h"

static uint64_t gp_mask(const struct perfmon_caps *c)
{
	return c->gp >= 64 ? ~0ull : (1ull << c->gp) - 1;
}

/* "caps": the row and what it states.  pebs_format null: no PEBS as the
 * row states it (no PERF_CAPABILITIES, v1, or a microarchitecture whose
 * PEBS the model lacks: perfmon_caps_pebs()). */
static void caps_object(const struct pmu_listing *out,
			const struct perfmon_caps_row *row,
			const struct perfmon_caps *c)
{
	out->object_begin("caps");
	out->str("row", row->name);
	out->num("version", c->version);
	out->num("gp", c->gp);
	out->num("fixed_mask", c->fixed_mask);
	out->num("ebx", c->events_unavail);
	if (perfmon_caps_pebs(c))
		out->num("pebs_format", perfmon_pebs_format(c));
	else
		out->null("pebs_format");
	out->str("cite", row->cite);
	out->object_end();
}

/* An architectural event's row is precise when PEBS samples it on every
 * counter the row lists; where it does on fewer (Core 2: PMC0 alone,
 * SDM Vol. 3B §18.6.2.4), its precise event's own row lists those. */
static int arch_precise(const struct perfmon_caps *c,
			const struct perfmon_event *e, uint64_t capable)
{
	const struct pebs_event *p = pebs_event_for(pebs_events_uarch(c),
						    e->event, e->umask);

	return p && (capable & gp_mask(c) & pebs_event_gp_counters(p)) ==
		    gp_mask(c);
}

static void arch_events(const struct pmu_listing *out,
			const struct perfmon_caps *c, int pebs,
			uint64_t capable)
{
	for (unsigned i = 0; i < ARCH_EV_NR; i++) {
		const struct perfmon_event *e = perfmon_event_of(
			c, perfmon_arch_events[i].event,
			perfmon_arch_events[i].umask);

		if (!perfmon_event_available(c, e->arch))
			continue;
		out->event_begin(e->name);
		out->num("event", e->event);
		out->num("umask", e->umask);
		out->counters("counters", gp_mask(c));
		out->flag("precise", pebs && arch_precise(c, e, capable));
		out->flag("architectural", 1);
		pmu_listing_model(out, e->sem, e->why_not);
		out->event_end();
	}
}

static void fixed_events(const struct pmu_listing *out,
			 const struct perfmon_caps *c, uint64_t capable)
{
	for (unsigned i = 0; i < PERFMON_MAX_FIXED; i++) {
		const struct perfmon_event *e = perfmon_fixed_event(i);
		char name[96];

		if (!perfmon_fixed_exists(c, i) || !e)
			continue;
		fmt_snprintf(name, sizeof(name), "Fixed counter %u: %s", i,
			     e->name);
		out->event_begin(name);
		out->num("event", e->event);
		out->num("umask", e->umask);
		out->num("fixed", i);
		out->counters("counters", 1ull << i);
		out->flag("precise", capable >> (GLOBAL_FIXED_SHIFT + i) & 1);
		pmu_listing_model(out, e->sem, e->why_not);
		out->event_end();
	}
}

static const char *data_word(enum pebs_data d)
{
	return d == PEBS_DATA_LOAD ? "load" :
	       d == PEBS_DATA_STORE ? "store" : "none";
}

static void precise_events(const struct pmu_listing *out,
			   const struct perfmon_caps *c, uint64_t capable)
{
	const struct pebs_event *p;

	for (unsigned n = 0; (p = pebs_event_nth(pebs_events_uarch(c), n));
	     n++) {
		out->event_begin(p->name);
		out->num("event", p->event);
		out->num("umask", p->umask);
		out->counters("counters", capable & gp_mask(c) &
			      pebs_event_gp_counters(p));
		out->flag("precise", 1);
		out->num("pebs_format", perfmon_pebs_format(c));
		out->str("data_address", data_word(p->data));
		out->str("cite", p->cite);
		pmu_listing_model(out, p->sem, 0);
		out->event_end();
	}
}

/* The event that counts LBR records, where the row's microarchitecture
 * has one (lbr/events.c): the model counts it from its LBRs. */
static void lbr_events(const struct pmu_listing *out,
		       const struct perfmon_caps *c)
{
	const struct perfmon_lbr_event *l = perfmon_lbr_event_for(c->uarch);

	if (!l)
		return;
	out->event_begin(l->name);
	out->num("event", l->event);
	out->num("umask", l->umask);
	out->counters("counters", gp_mask(c));
	out->flag("precise", 0);
	out->str("cite", l->cite);
	out->str("model", l->counts_pops ? "LBR records added and removed "
		 "(pmu/lbr_model.c)" : "LBR records added (pmu/lbr_model.c)");
	out->event_end();
}

/* No capability row: Table 18-1's architectural events, every one that
 * CPUID.0AH:EBX may report available (SDM Vol. 3B §18.2.1.2), on the GP
 * counters CPUID.0AH:EAX[15:8] counts. */
static void arch_events_unknown(const struct pmu_listing *out)
{
	out->null("caps");
	out->str("caps_unknown", "no capability row for this model "
		 "(pmu/perfmon/caps_table.c): the architectural events of "
		 "Table 18-1 (SDM Vol. 3B 18.2.1.2) as CPUID.0AH may offer "
		 "them; its EAX (counters, EBX length), EBX (events "
		 "unavailable) and EDX (fixed counters) and "
		 "IA32_PERF_CAPABILITIES (PEBS) only the CPU can answer");
	out->events_begin();
	for (unsigned i = 0; i < ARCH_EV_NR; i++) {
		const struct perfmon_event *e = &perfmon_arch_events[i];

		out->event_begin(e->name);
		out->num("event", e->event);
		out->num("umask", e->umask);
		out->null("counters");
		out->null("precise");
		out->flag("architectural", 1);
		out->num("cpuid_0ah_ebx_bit", e->arch);
		pmu_listing_model(out, e->sem, e->why_not);
		out->event_end();
	}
	out->events_end();
}

int perfmon_list_events(const struct pmu_listing *out,
			const struct cpu_sig *sig, const char **why)
{
	const struct perfmon_caps_row *row =
		perfmon_caps_row_for(sig->family, sig->model);
	struct perfmon_caps c = { .source = "table" };
	uint64_t capable = 0;
	int pebs;

	(void)why;
	if (!row) {
		arch_events_unknown(out);
		return 0;
	}
	perfmon_caps_of_row(row, &c);
	caps_object(out, row, &c);
	pebs = perfmon_caps_pebs(&c);
	if (pebs)
		capable = pebs_capable_counters(perfmon_pebs_format(&c), c.gp,
						c.fixed_mask,
						perfmon_pebs_baseline(&c));
	out->events_begin();
	arch_events(out, &c, pebs, capable);
	fixed_events(out, &c, capable);
	if (pebs)
		precise_events(out, &c, capable);
	lbr_events(out, &c);
	out->events_end();
	return 0;
}
