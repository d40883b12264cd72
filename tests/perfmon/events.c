/* perfmon/event-*: each architectural event (SDM Vol. 3B §18.2.1.2,
 * Table 18-1, written out in perfmon_events.c with what each counts) on
 * the GP counters, against the oracle: PMC0 with USR only, PMC1 with OS
 * only, over a run at CPL 3 and one at CPL 0, then PMC0 with both over a
 * run at CPL 3.  An event CPUID.0AH marks unavailable (EBX bit set, or
 * beyond EAX[31:24]) must be refused by the driver.  Events the trace
 * cannot observe SKIP under the model with the reason; on hardware their
 * counts are reported. */
#include "perfmon_test.h"

/* Event select / unit mask of architectural event ev, USR only. */
static struct sdm_sel pm_sel_usr(enum pm_arch_event ev)
{
	return (struct sdm_sel){ .event = pm_events[ev].event,
				 .umask = pm_events[ev].umask, .usr = 1 };
}

static const char *bench_for(const struct pm_event *ev)
{
	/* REP iterations make clocks differ from instructions */
	return ev->sem & (SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR)) ?
	       "call-ret" : "rep-movsb";
}

static void refused(struct tcase *t, const struct pmu_driver *d,
		    const struct pm_sdm *s, enum pm_arch_event which)
{
	struct pmu_config c = { sdm_sel(pm_sel_usr(which)), 0 };
	struct pmu_err e;

	value(t, "available", "no: CPUID.0AH EAX[31:24] %u, EBX 0x%x, bit %u",
	      s->ebx_len, s->k.ebx, which);
	if (!check(t, d->init(&e) == 0, "init: %s", e.msg))
		return;
	check(t, d->program(0, &c, &e) != 0, "%s is unavailable on this PMU "
	      "but was accepted", pm_events[which].name);
	value(t, "refused", "%s", e.msg);
}

static void run(struct tcase *t, const struct pmu_driver *d,
		const struct pm_event *ev, const char *label, int cpl,
		int both)
{
	struct sdm_sel s = { .event = ev->event, .umask = ev->umask };
	struct pmu_run r;

	pm_setup(&r, label, bench_for(ev), 64, cpl);
	s.usr = 1;
	s.os = both;
	pm_add(&r, 0, sdm_sel(s));
	if (!both) {
		s.usr = 0;
		s.os = 1;
		pm_add(&r, 1, sdm_sel(s));
	}
	if (!pmu_run(t, &r))
		return;
	for (unsigned c = 0; c < r.n_ctrs; c++)
		pm_check(t, d, &r, c);
}

static void event_test(struct tcase *t, enum pm_arch_event which)
{
	struct pm_sdm s;
	const struct pmu_driver *d = pm_ready(t, &s);
	const struct pm_event *ev = &pm_events[which];

	if (!d)
		return;
	value(t, "event", "%s (0x%02x/0x%02x)", ev->name, ev->event,
	      ev->umask);
	if (!pm_event_available(&s, which)) {
		refused(t, d, &s, which);
		return;
	}
	if (!ev->sem && pmu_on_model()) {
		skip(t, "%s not modelled: %s", ev->name, ev->why_not);
		return;
	}
	run(t, d, ev, "cpl3", 3, 0);
	run(t, d, ev, "cpl0", 0, 0);
	run(t, d, ev, "both", 3, 1);
}

#define EVENT(id, name, ev)                                                  \
	static void test_##id(struct tcase *t) { event_test(t, ev); }        \
	TEST(perfmon_ev_##id, "perfmon/event-" name,                         \
	     "architectural event " name " counts at USR, OS and both",      \
	     test_##id, 0)

EVENT(cycles, "core-cycles", PM_EV_CORE_CYCLES);
EVENT(instructions, "instructions", PM_EV_INSTRUCTIONS);
EVENT(ref, "ref-cycles", PM_EV_REF_CYCLES);
EVENT(llc_ref, "llc-references", PM_EV_LLC_REFERENCES);
EVENT(llc_miss, "llc-misses", PM_EV_LLC_MISSES);
EVENT(branches, "branches", PM_EV_BRANCHES);
EVENT(br_miss, "branch-misses", PM_EV_BRANCH_MISSES);
EVENT(slots, "topdown-slots", PM_EV_TOPDOWN_SLOTS);

/* perfmon/every-gp-counter: every GP counter the PMU has (CPUID.0AH:
 * EAX[15:8], SDM Vol. 3B 18.2.1) counts Instructions Retired (C0H/00H,
 * Table 18-1) at CPL 3, all of them at once, each the oracle's count:
 * the other tests program PMC0 and PMC1 only, the rows have up to 8. */
static void test_every_gp(struct tcase *t)
{
	struct pm_sdm sdm, *c = &sdm;
	const struct pmu_driver *d = pm_ready_for(t, c,
						  PM_NEED(PM_EV_INSTRUCTIONS));
	struct pmu_run r;
	unsigned n = 0;

	if (!d)
		return;
	value(t, "gp_counters", "%u", c->gp);
	pm_setup(&r, "every-gp", "counted-loop", 20, 3);
	for (; n < c->gp && n < PMU_MAX_COUNTERS; n++)
		pm_add(&r, n, sdm_sel((struct sdm_sel){ .event = 0xc0,
							.usr = 1 }));
	if (!pmu_run(t, &r))
		return;
	for (unsigned k = 0; k < n; k++)
		pm_check(t, d, &r, k);
}

TEST(perfmon_every_gp, "perfmon/every-gp-counter",
     "every GP counter CPUID.0AH enumerates counts instructions, all at once",
     test_every_gp, 0);
