/* p5/event-0xNN-ctrN: every event select code on each counter (SDM Vol. 3B
 * Table 19-38, as p5_test.h restates it).  A code that selects no event on that
 * counter of this CPU (reserved, the other counter's, or an MMX event on a
 * Pentium without MMX) must be refused by the driver.  A modelled event
 * counts exactly what the oracle saw in a CPL 3 run of call-ret (CC=010,
 * so the driver's CPL 0 code never counts).  An event the trace cannot
 * observe is SKIPped under the model with the reason, and on hardware its
 * count is reported and held to a plausibility bound. */
#include "p5_test.h"
#include "../../pmu/p5/events.h"

/*
 * Table 19-38 (SDM Vol. 3B, order no. 253669-060US; Table A-19 in older
 * editions), restated here and not read from pmu/p5/events.c: which codes
 * select an event on which counter.  Codes 00H-29H exist on every Pentium
 * on both counters, except 10H, 11H, 20H and 21H, which the table leaves
 * out; 2AH-3BH came with the Pentium with MMX technology and name a
 * different event on each counter, except 39H (RETURNS), CTR0 only.
 * perfctr's Pentium event list (the referee, docs/p5.md) agrees.
 */
static int sdm_p5_has(unsigned code, unsigned ctr, int mmx)
{
	if (code <= 0x29)
		return code != 0x10 && code != 0x11 && code != 0x20 &&
		       code != 0x21;
	if (code <= 0x3b)
		return mmx && !(code == 0x39 && ctr == 1);
	return 0;
}

#define EVENT_BENCH "call-ret"
#define EVENT_BENCH_N 40
/* Any per-instruction event stays below this many per traced step;
 * duration events are clocks, bounded the same way. */
#define PLAUSIBLE_PER_STEP 64

static void refused(struct tcase *t, const struct pmu_driver *d,
		    unsigned code, unsigned ctr)
{
	struct pmu_config c = sdm_p5_config((struct p5_half){ code,
					    SDM_CC_EV_USR, 0 });
	struct pmu_err e;

	if (!check(t, d->init(&e) == 0, "init: %s", e.msg))
		return;
	check(t, d->program(ctr, &c, &e) != 0, "code 0x%02x selects no "
	      "event on CTR%u of this CPU (Table 19-38) but was accepted",
	      code, ctr);
	value(t, "refused", "%s", e.msg);
}

/* Not modelled, on hardware: report the count, hold it to a bound. */
static void plausible(struct tcase *t, const struct pmu_run *r,
		      unsigned ctr)
{
	uint64_t got = r->got[ctr], steps = r->oc.c[3][SEM_CLOCKS];

	value(t, "count", "%llu (hardware only: not modelled)",
	      (unsigned long long)got);
	check(t, got <= PLAUSIBLE_PER_STEP * steps, "code counted %llu over "
	      "%llu steps", (unsigned long long)got,
	      (unsigned long long)steps);
}

/*
 * Which codes exist and what they count is the tests' restatement of
 * Table 19-38 (sdm_p5_has() above, p5_expect.c's sdm_p5_counts[]).  The
 * driver's table is read for the event's name and, for an event the test
 * cannot count, why the trace cannot see it; an event that table counts
 * and the test does not know fails: its meaning would be unchecked.
 */
static void event_test(struct tcase *t, unsigned code, unsigned ctr)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P5);
	const struct p5_event *ev;
	struct p5_half off = { 0x16, SDM_CC_NONE, 0 }, on = { code,
			       SDM_CC_EV_USR, 0 };
	struct pmu_run r;
	uint32_t sem;

	if (!d)
		return;
	if (!sdm_p5_has(code, ctr, sdm_p5_mmx())) {
		refused(t, d, code, ctr);
		return;
	}
	ev = p5_event_for(code, ctr, sdm_p5_mmx());
	if (!check(t, ev != NULL, "code 0x%02x on CTR%u: Table 19-38 lists "
		   "it, the driver's table does not", code, ctr))
		return;
	value(t, "event", "%s", ev->name);
	sem = sdm_p5_sem(code, ctr, sdm_p5_mmx());
	if (!check(t, sem || !ev->sem, "%s: the model counts it, the test's "
		   "table does not say what it counts", ev->name))
		return;
	if (!sem && pmu_on_model()) {
		skip(t, "%s not modelled: %s", ev->name, ev->why_not);
		return;
	}
	p5_setup(&r, sem & SEM_BIT(SEM_SEGLOADS) ? "segment-load" :
		 EVENT_BENCH, EVENT_BENCH_N, 3, ctr ? off : on, ctr ? on : off);
	if (!pmu_run(t, &r))
		return;
	if (sem)
		p5_check(t, d, &r, ctr);
	else
		plausible(t, &r, ctr);
}

#define EV_CTR(code, ctr)                                                    \
	static void test_##code##_##ctr(struct tcase *t)                     \
	{                                                                    \
		event_test(t, code, ctr);                                    \
	}                                                                    \
	TEST(p5_ev_##code##_##ctr, "p5/event-" #code "-ctr" #ctr,            \
	     "ES" #ctr "=" #code " counts its event or is refused",          \
	     test_##code##_##ctr, 0);
#define EV(code) EV_CTR(code, 0) EV_CTR(code, 1)

EV(0x00) EV(0x01) EV(0x02) EV(0x03) EV(0x04) EV(0x05) EV(0x06) EV(0x07)
EV(0x08) EV(0x09) EV(0x0a) EV(0x0b) EV(0x0c) EV(0x0d) EV(0x0e) EV(0x0f)
EV(0x10) EV(0x11) EV(0x12) EV(0x13) EV(0x14) EV(0x15) EV(0x16) EV(0x17)
EV(0x18) EV(0x19) EV(0x1a) EV(0x1b) EV(0x1c) EV(0x1d) EV(0x1e) EV(0x1f)
EV(0x20) EV(0x21) EV(0x22) EV(0x23) EV(0x24) EV(0x25) EV(0x26) EV(0x27)
EV(0x28) EV(0x29) EV(0x2a) EV(0x2b) EV(0x2c) EV(0x2d) EV(0x2e) EV(0x2f)
EV(0x30) EV(0x31) EV(0x32) EV(0x33) EV(0x34) EV(0x35) EV(0x36) EV(0x37)
EV(0x38) EV(0x39) EV(0x3a) EV(0x3b) EV(0x3c) EV(0x3d) EV(0x3e) EV(0x3f)
