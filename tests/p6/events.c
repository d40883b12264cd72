/* p6/event-0xNN-ctrN: every event code the SDM lists for the P6 family
 * (Vol. 3B §19.17 Table 19-37; the Pentium M: §19.16 Tables 19-35 and
 * 19-36), on each counter, from this file's own copy of the tables'
 * codes, counter restrictions and generations.  On a CPU whose generation
 * and counter have the code, the driver must accept it; otherwise refuse
 * it.  A modelled event counts exactly what the oracle saw in a CPL 3 run
 * of call-ret (USR only, so the driver's CPL 0 code never counts; segment
 * loads: the segment-load benchmark).  An event the trace cannot observe
 * SKIPs under the model with the reason (its driver acceptance is still
 * checked first); on hardware its count is reported and held to a
 * plausibility bound.
 * p6/event-codes-as-sdm: the driver accepts exactly this file's codes on
 * this CPU, all 256 on both counters. */
#include "p6_test.h"
#include "../../pmu/p6/events.h"

/* The P6 generations, as bits, and which family 6 model is which (AP-485,
 * Intel Processor Identification and the CPUID Instruction, order no.
 * 241618; SDM Vol. 3B §19.16-19.17 name the generations that have each
 * event): Pentium Pro model 1; Pentium II and its Celeron models 3, 5, 6;
 * Pentium III 7, 8, 0AH, 0BH; Pentium M 9, 0DH.  Another model up to 0DH
 * is taken as a Pentium Pro (the events every P6 has), as docs/p6.md
 * says the driver does. */
#define SDM_PPRO 1u
#define SDM_PII 2u
#define SDM_PIII 4u
#define SDM_PM 8u

static inline unsigned sdm_p6_gen(void)
{
	switch (cpu_info()->sig.model) {
	case 3: case 5: case 6: return SDM_PII;
	case 7: case 8: case 0xa: case 0xb: return SDM_PIII;
	case 9: case 0xd: return SDM_PM;
	default: return SDM_PPRO;
	}
}

static inline const char *sdm_p6_gen_name(unsigned gen)
{
	return gen == SDM_PII ? "Pentium II" : gen == SDM_PIII ?
	       "Pentium III" : gen == SDM_PM ? "Pentium M" : "Pentium Pro";
}

#define EVENT_BENCH "call-ret"
#define EVENT_BENCH_N 40
/* Any per-instruction or per-cycle event stays below this many per
 * traced step. */
#define PLAUSIBLE_PER_STEP 64

#define B 3u		/* both counters */
#define C0 1u		/* counter 0 only */
#define C1 2u		/* counter 1 only */
#define ALL (SDM_PPRO | SDM_PII | SDM_PIII | SDM_PM)
#define PII_ON (SDM_PII | SDM_PIII | SDM_PM)
#define PIII_ON (SDM_PIII | SDM_PM)

/* X(code, counters, generations): Table 19-37 in its order, then the
 * Pentium M's Table 19-35. */
#define SDM_EVENTS(X)                                                        \
	X(0x43, B, ALL) X(0x45, B, ALL) X(0x46, B, ALL) X(0x47, B, ALL)      \
	X(0x48, B, ALL) X(0x80, B, ALL) X(0x81, B, ALL) X(0x85, B, ALL)      \
	X(0x86, B, ALL) X(0x87, B, ALL) X(0x28, B, ALL) X(0x29, B, ALL)      \
	X(0x2a, B, ALL) X(0x24, B, ALL) X(0x26, B, ALL) X(0x25, B, ALL)      \
	X(0x27, B, ALL) X(0x2e, B, ALL) X(0x21, B, ALL) X(0x22, B, ALL)      \
	X(0x23, B, ALL) X(0x62, B, ALL) X(0x63, B, ALL) X(0x60, B, ALL)      \
	X(0x65, B, ALL) X(0x66, B, ALL) X(0x67, B, ALL) X(0x68, B, ALL)      \
	X(0x69, B, ALL) X(0x6a, B, ALL) X(0x6b, B, ALL) X(0x6c, B, ALL)      \
	X(0x6d, B, ALL) X(0x6e, B, ALL) X(0x70, B, ALL) X(0x6f, B, ALL)      \
	X(0x64, B, ALL) X(0x61, B, ALL) X(0x7a, B, ALL) X(0x7b, B, ALL)      \
	X(0x7e, B, ALL) X(0xc1, C0, ALL) X(0x10, C0, ALL) X(0x11, C1, ALL)   \
	X(0x12, C1, ALL) X(0x13, C1, ALL) X(0x14, C0, ALL) X(0x03, B, ALL)   \
	X(0x04, B, ALL) X(0x05, B, ALL) X(0x07, B, PIII_ON)                  \
	X(0x4b, B, PIII_ON) X(0xc0, B, ALL) X(0xc2, B, ALL) X(0xd0, B, ALL)  \
	X(0xd8, B, PIII_ON) X(0xd9, B, PIII_ON) X(0xc8, B, ALL)              \
	X(0xc6, B, ALL) X(0xc7, B, ALL) X(0xc4, B, ALL) X(0xc5, B, ALL)      \
	X(0xc9, B, ALL) X(0xca, B, ALL) X(0xe0, B, ALL) X(0xe2, B, ALL)      \
	X(0xe4, B, ALL) X(0xe6, B, ALL) X(0xa2, B, ALL) X(0xd2, B, ALL)      \
	X(0x06, B, ALL) X(0x79, B, ALL) X(0xb0, B, SDM_PII)                   \
	X(0xb1, B, PII_ON) X(0xb2, B, PII_ON) X(0xb3, B, PII_ON)             \
	X(0xcc, B, PII_ON) X(0xcd, B, PII_ON) X(0xce, B, SDM_PII | SDM_PM)     \
	X(0xd4, B, PII_ON) X(0xd5, B, PII_ON) X(0xd6, B, PII_ON)             \
	X(0x58, B, SDM_PM) X(0x59, B, SDM_PM) X(0x88, B, SDM_PM)                \
	X(0x89, B, SDM_PM) X(0x8a, B, SDM_PM) X(0x8b, B, SDM_PM)                \
	X(0x8c, B, SDM_PM) X(0x8d, B, SDM_PM) X(0x8e, B, SDM_PM)                \
	X(0x8f, B, SDM_PM) X(0x90, B, SDM_PM) X(0x91, B, SDM_PM)                \
	X(0x92, B, SDM_PM) X(0x93, B, SDM_PM) X(0x94, B, SDM_PM)                \
	X(0xd3, B, SDM_PM) X(0xd7, B, SDM_PM) X(0xda, B, SDM_PM)                \
	X(0xdb, B, SDM_PM) X(0xf0, B, SDM_PM) X(0xf8, B, SDM_PM)

struct sdm_code {
	uint8_t code, counters, gens;
};

#define AS_ENTRY(code, ctrs, gens) { code, ctrs, gens },
static const struct sdm_code sdm_codes[] = { SDM_EVENTS(AS_ENTRY) };
#define N_CODES (sizeof(sdm_codes) / sizeof(sdm_codes[0]))

/* Does the SDM list code on counter ctr of generation gen? */
static int sdm_has(unsigned code, unsigned ctr, unsigned gen)
{
	for (unsigned i = 0; i < N_CODES; i++)
		if (sdm_codes[i].code == code &&
		    (sdm_codes[i].counters >> ctr & 1) &&
		    (sdm_codes[i].gens & gen))
			return 1;
	return 0;
}

static int accepted(const struct pmu_driver *d, unsigned code, unsigned ctr,
		    struct pmu_err *e)
{
	struct pmu_config c = sdm_config((struct sdm_sel){ .event = code,
							   .usr = 1 });

	return d->program(ctr, &c, e) == 0;
}

/* Not modelled, on hardware: report the count, hold it to a bound. */
static void not_modelled(struct tcase *t, const struct p6_event *ev,
			 const struct pmu_run *r, unsigned ctr)
{
	uint64_t got = r->got[ctr], steps = r->oc.c[3][SEM_CLOCKS];

	value(t, "modelled", "no: %s", ev->why_not);
	value(t, "count", "%llu (hardware only: not modelled)",
	      (unsigned long long)got);
	check(t, got <= PLAUSIBLE_PER_STEP * steps, "%s counted %llu over "
	      "%llu steps", ev->name, (unsigned long long)got,
	      (unsigned long long)steps);
}

/*
 * Which codes exist is this file's table; what a modelled one counts is
 * p6_expect.c's restatement of Table 19-37 (sdm_p6_counts[]).  The
 * driver's table is read for the event's name and, for an event the test
 * cannot count, why the trace cannot see it; an event that table counts
 * and the test does not know fails: its meaning would be unchecked.
 */
static void event_test(struct tcase *t, unsigned code, unsigned ctr)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P6);
	struct sdm_sel on = { .event = code, .usr = 1 };
	struct sdm_sel off = { .event = SDM_P6_INST_RETIRED };
	const struct p6_event *ev;
	struct pmu_run r;
	struct pmu_err e;
	uint32_t sem;

	if (!d || !check(t, d->init(&e) == 0, "init: %s", e.msg))
		return;
	if (!sdm_has(code, ctr, sdm_p6_gen())) {
		check(t, !accepted(d, code, ctr, &e), "code 0x%02x selects no "
		      "event on PerfCtr%u of the %s but was accepted", code,
		      ctr, sdm_p6_gen_name(sdm_p6_gen()));
		value(t, "refused", "%s", e.msg);
		return;
	}
	ev = p6_event_for(code, ctr, p6_gen());
	if (!check(t, ev != NULL, "code 0x%02x on PerfCtr%u of the %s: the "
		   "SDM lists it, the driver's table does not", code, ctr,
		   sdm_p6_gen_name(sdm_p6_gen())))
		return;
	value(t, "event", "%s", ev->name);
	sem = sdm_p6_sem(sdm_sel(on));
	if (!check(t, sem || !ev->sem, "%s: the model counts it, the test's "
		   "table does not say what it counts", ev->name))
		return;
	if (!sem && pmu_on_model()) {
		check(t, accepted(d, code, ctr, &e), "the driver refused %s: "
		      "%s", ev->name, e.msg);
		skip(t, "%s not modelled: %s", ev->name, ev->why_not);
		return;
	}
	p6_setup(&r, sem & SEM_BIT(SEM_SEGLOADS) ? "segment-load" :
		 EVENT_BENCH, EVENT_BENCH_N, 3, ctr ? off : on, ctr ? on : off);
	if (!pmu_run(t, &r))
		return;
	if (sem)
		p6_check(t, d, &r, ctr);
	else
		not_modelled(t, ev, &r, ctr);
}

#define EV_CTR(code, ctr)                                                    \
	static void test_##code##_##ctr(struct tcase *t)                     \
	{                                                                    \
		event_test(t, code, ctr);                                    \
	}                                                                    \
	TEST(p6_ev_##code##_##ctr, "p6/event-" #code "-ctr" #ctr,            \
	     "PerfEvtSel" #ctr " event " #code ": counts it or is refused",  \
	     test_##code##_##ctr, 0);
#define EV(code, ctrs, gens) EV_CTR(code, 0) EV_CTR(code, 1)

SDM_EVENTS(EV)

/* All 256 codes on both counters: accepted exactly when listed. */
static void test_codes(struct tcase *t)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P6);
	unsigned gen, n_ok = 0, n_bad = 0;
	struct pmu_err e;

	if (!d || !check(t, d->init(&e) == 0, "init: %s", e.msg))
		return;
	gen = sdm_p6_gen();
	value(t, "generation", "%s", sdm_p6_gen_name(gen));
	for (unsigned ctr = 0; ctr < SDM_P6_COUNTERS; ctr++)
		for (unsigned code = 0; code < 256; code++) {
			int want = sdm_has(code, ctr, gen);
			int got = accepted(d, code, ctr, &e);

			n_ok += (unsigned)got;
			if (got != want && n_bad++ < 8)
				check(t, 0, "code 0x%02x on PerfCtr%u: the "
				      "driver %s it, the SDM %s it", code, ctr,
				      got ? "accepts" : "refuses",
				      want ? "lists" : "does not list");
		}
	value(t, "accepted", "%u of 512", n_ok);
	check(t, n_bad == 0, "%u codes disagree with the SDM's tables",
	      n_bad);
}

TEST(p6_codes, "p6/event-codes-as-sdm",
     "the driver accepts exactly the codes the SDM lists for this "
     "generation and counter", test_codes, 0);
