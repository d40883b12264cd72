/* Conformance of the architectural-perfmon reference model
 * (pmu/perfmon/model.c) on counting, driven through its MSR interface
 * with scripted trace steps, without the driver, for a CPU of each
 * version 1-5 (model_test.h: the CPUs, the events, the script, all
 * restated from the SDM, Vol. 3B order no. 253669-060US §18.2):
 *   - every Table 18-1 event the CPU has, on every GP counter
 *     (PMC4-7 where there are 8), counts what the oracle's counts of the
 *     script say (§18.2.1.2);
 *   - fixed counter 0 counts instructions retired, 1 core cycles, 2
 *     reference cycles (§18.2.2, Table 18-2);
 *   - all counters at once;
 *   - USR counts at CPL 1-3, OS at CPL 0 (Figure 18-1; FIXED_CTR_CTRL
 *     field 1 OS, 2 USR, Figure 18-2);
 *   - CMASK, INV and E (Figure 18-1, §18.2.1.1): CMASK c counts cycles
 *     with at least c events, INV makes it fewer than c and is ignored
 *     with CMASK 0, E counts deasserted-to-asserted transitions;
 *   - AnyThread counts the sibling's events too, v3+ (§18.2.3); bit 21
 *     is reserved before (#GP, Vol. 2B WRMSR);
 *   - a write to a running counter takes effect at once;
 *   - IA32_PERF_GLOBAL_CTRL gates every counter (v2+), its GP bits set
 *     at reset, its fixed bits clear (§18.2.2; Vol. 4 Table 2-2).
 * The overflow, the register rules and RDPMC are test_model_regs.c's. */
#include <stdio.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/host/pmu/perfmon/model_test.h"

/* host-sources: tests/host/pmu/perfmon/stub_model.c pmu/model.c pmu/noise.c pmu/perfmon/regs.c pmu/perfmon/events.c pmu/perfmon/caps_table.c pmu/perfmon/ds/model.c pmu/perfmon/ds/regs.c pmu/lbr_model.c pmu/lbr.c tests/host/pmu/stub_pmu_access.c pmu/perfmon/lbr/layout.c pmu/perfmon/lbr/events.c pmu/perfmon/bts/model.c pmu/perfmon/pebs/model.c pmu/perfmon/pebs/events.c pmu/perfmon/pebs/regs.c pmu/pt/model.c pmu/pt/gen.c pmu/pt/caps.c lib/pt/encode.c arch/x86/decode.c pmu/evtsel.c pmu/sem.c pmu/cpu_model.c lib/fmt.c lib/string.c pmu/emufault.c lib/escape.c */

/* GP counter n counts sel over one script at cpl, from 0, the only
 * counter enabled in GLOBAL_CTRL (v2+). */
static uint64_t gp_count(const struct pm_cpu *c, unsigned n, uint64_t sel,
			 unsigned cpl)
{
	WR(c, EVTSEL(n), 0);
	WR(c, PMC(n), 0);
	pm_global(c, 1ull << n);
	WR(c, EVTSEL(n), sel);
	pm_run(cpl);
	WR(c, EVTSEL(n), 0);
	return pm_rd_ok(c, PMC(n));
}

/* Fixed counter i counts with field f over one script at cpl, from 0, the
 * only counter enabled in GLOBAL_CTRL. */
static uint64_t fixed_count(const struct pm_cpu *c, unsigned i, unsigned f,
			    unsigned cpl)
{
	WR(c, FIXED_CTR_CTRL, 0);
	WR(c, FIXED_CTR(i), 0);
	WR(c, GLOBAL_CTRL, G_FIXED(i));
	WR(c, FIXED_CTR_CTRL, FX(i, f));
	pm_run(cpl);
	WR(c, FIXED_CTR_CTRL, 0);
	return pm_rd_ok(c, FIXED_CTR(i));
}

/* arch-event-on-every-gp-counter */
static void test_events_every_gp_counter(void **state)
{
	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];

		pm_use(c);
		for (unsigned n = 0; n < c->gp; n++)
			for (unsigned e = 0; e < N(pm_events); e++) {
				const struct pm_event *ev = &pm_events[e];
				uint64_t got;

				if (!pm_available(c, ev))
					continue;
				got = gp_count(c, n, ev->sel | USR | OS | EN, 3);
				EXPECT(c, got == pm_gp_per_script(c, ev),
				       "PMC%u %s: %llu, want %llu", n, ev->name,
				       (unsigned long long)got,
				       (unsigned long long)
				       pm_gp_per_script(c, ev));
			}
	}
}

/* fixed-ctr0-instructions-ctr1-core-cycles-ctr2-ref-cycles */
static void test_fixed_counters(void **state)
{
	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];
		uint64_t v;

		pm_use(c);
		if (c->version < 2) {
			/* v1 has no fixed counters (EDX is reserved) */
			EXPECT(c, pm_rd(FIXED_CTR(0), &v) == GP,
			       "IA32_FIXED_CTR0 exists on v1");
			EXPECT(c, pm_wr(FIXED_CTR_CTRL, 0) == GP,
			       "IA32_FIXED_CTR_CTRL exists on v1");
			continue;
		}
		for (unsigned i = 0; i < N(pm_fixed_per_script); i++) {
			uint64_t got = fixed_count(c, i, FX_OS | FX_USR, 3);

			EXPECT(c, got == pm_fixed_per_script[i],
			       "IA32_FIXED_CTR%u: %llu, want %llu", i,
			       (unsigned long long)got,
			       (unsigned long long)pm_fixed_per_script[i]);
		}
	}
}

/* all-counters-at-once: every GP counter (events in turn) and every
 * fixed counter 0-2 together, over a CPL 0 and a CPL 3 pass. */
static void test_all_counters_at_once(void **state)
{
	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];
		const struct pm_event *on[8];
		unsigned nf = c->fixed < 3 ? c->fixed : 3, e = 0;
		uint64_t all = pm_max(c->gp);

		pm_use(c);
		for (unsigned n = 0; n < c->gp; n++) {
			do
				on[n] = &pm_events[e++ % N(pm_events)];
			while (!pm_available(c, on[n]));
			WR(c, PMC(n), 0);
			WR(c, EVTSEL(n), on[n]->sel | USR | OS | EN);
		}
		if (c->version >= 2) {
			for (unsigned i = 0; i < nf; i++) {
				WR(c, FIXED_CTR(i), 0);
				all |= G_FIXED(i);
			}
			WR(c, FIXED_CTR_CTRL, FX(0, 3) | FX(1, 3) | FX(2, 3));
			WR(c, GLOBAL_CTRL, all);
		}
		pm_run(0);
		pm_run(3);
		for (unsigned n = 0; n < c->gp; n++) {
			uint64_t got = pm_rd_ok(c, PMC(n));

			EXPECT(c, got == 2 * pm_gp_per_script(c, on[n]),
			       "PMC%u %s: %llu, want %llu", n, on[n]->name,
			       (unsigned long long)got, (unsigned long long)
			       (2 * pm_gp_per_script(c, on[n])));
		}
		for (unsigned i = 0; c->version >= 2 && i < nf; i++) {
			uint64_t got = pm_rd_ok(c, FIXED_CTR(i));

			EXPECT(c, got == 2 * pm_fixed_per_script[i],
			       "IA32_FIXED_CTR%u: %llu", i,
			       (unsigned long long)got);
		}
	}
}

/* evtsel-usr-os and fixed-ctrl-usr-os: USR counts at CPL 1, 2, 3, OS at
 * CPL 0. */
static void test_usr_os(void **state)
{
	static const struct {
		uint64_t ring;
		unsigned fx;
		unsigned cpl;
		int counts;
	} cases[] = {
		{ USR, FX_USR, 3, 1 }, { USR, FX_USR, 1, 1 },
		{ USR, FX_USR, 0, 0 }, { OS, FX_OS, 0, 1 },
		{ OS, FX_OS, 3, 0 }, { OS, FX_OS, 1, 0 },
		{ USR | OS, FX_USR | FX_OS, 0, 1 },
		{ USR | OS, FX_USR | FX_OS, 3, 1 },
		{ 0, 0, 0, 0 }, { 0, 0, 3, 0 },
	};

	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];

		pm_use(c);
		for (unsigned t = 0; t < N(cases); t++) {
			uint64_t want = cases[t].counts ? SCRIPT_INSNS : 0;
			uint64_t got = gp_count(c, 0, EV_INSNS | EN |
						cases[t].ring, cases[t].cpl);

			EXPECT(c, got == want, "PMC0 ring %#llx at CPL %u: %llu",
			       (unsigned long long)cases[t].ring, cases[t].cpl,
			       (unsigned long long)got);
			if (c->version < 2)
				continue;
			got = fixed_count(c, 0, cases[t].fx, cases[t].cpl);
			EXPECT(c, got == want, "FIXED_CTR0 field %u at CPL %u: "
			       "%llu", cases[t].fx, cases[t].cpl,
			       (unsigned long long)got);
		}
	}
}

/* evtsel-cmask-inv-edge, on Instruction Retired, whose per-cycle count
 * over the script is 1 1 1 1 0 1. */
static void test_cmask_inv_edge(void **state)
{
	static const struct {
		uint64_t bits;
		uint64_t want;
	} cases[] = {
		{ CMASK(1), SCRIPT_INSNS },		/* >= 1 per cycle */
		{ CMASK(2), 0 },			/* never 2 in a cycle */
		{ CMASK(1) | INV, SCRIPT_ZERO_INSN_CYCLES },	/* < 1 */
		{ CMASK(2) | INV, SCRIPT_CYCLES },	/* < 2: every cycle */
		{ INV, SCRIPT_INSNS },			/* INV ignored */
		{ CMASK(1) | EDGE, SCRIPT_INSN_RISES },
		{ EDGE, SCRIPT_INSN_RISES },		/* condition n > 0 */
	};

	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];

		pm_use(c);
		for (unsigned t = 0; t < N(cases); t++)
			for (unsigned n = 0; n < c->gp; n++) {
				uint64_t got = gp_count(c, n, EV_INSNS | USR |
							OS | EN | cases[t].bits,
							3);

				EXPECT(c, got == cases[t].want,
				       "PMC%u bits %#llx: %llu, want %llu", n,
				       (unsigned long long)cases[t].bits,
				       (unsigned long long)got,
				       (unsigned long long)cases[t].want);
			}
	}
}

/* evtsel-anythread: v3 and v4 (AnyThread not deprecated) count the
 * sibling's steps with ANY only; v1 and v2 reserve the bits. */
static void test_anythread(void **state)
{
	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];
		uint64_t v;

		pm_use(c);
		if (c->version < 3) {
			EXPECT(c, pm_wr(EVTSEL(0), EV_INSNS | USR | EN | ANY) ==
				  GP, "PERFEVTSEL0 bit 21 accepted before v3");
			if (c->version == 2)
				EXPECT(c, pm_wr(FIXED_CTR_CTRL,
						FX(0, FX_USR | FX_ANY)) == GP,
				       "FIXED_CTR_CTRL bit 2 accepted on v2");
			continue;
		}
		if (c->any_deprecated)
			continue;	/* v5 EDX[15]: see docs/testing.md */
		WR(c, PMC(0), 0);
		WR(c, PMC(1), 0);
		WR(c, FIXED_CTR(0), 0);
		WR(c, FIXED_CTR(1), 0);
		WR(c, EVTSEL(0), EV_INSNS | USR | OS | EN | ANY);
		WR(c, EVTSEL(1), EV_INSNS | USR | OS | EN);
		WR(c, FIXED_CTR_CTRL, FX(0, 3 | FX_ANY) | FX(1, 3));
		WR(c, GLOBAL_CTRL, 3 | G_FIXED(0) | G_FIXED(1));
		stub_pm.sibling = 1;
		pm_run(3);
		stub_pm.sibling = 0;
		pm_run(3);
		v = pm_rd_ok(c, PMC(0));
		EXPECT(c, v == 2 * SCRIPT_INSNS, "ANY PMC0: %llu",
		       (unsigned long long)v);
		v = pm_rd_ok(c, PMC(1));
		EXPECT(c, v == SCRIPT_INSNS, "PMC1 without ANY: %llu",
		       (unsigned long long)v);
		v = pm_rd_ok(c, FIXED_CTR(0));
		EXPECT(c, v == 2 * SCRIPT_INSNS, "ANY FIXED_CTR0: %llu",
		       (unsigned long long)v);
		v = pm_rd_ok(c, FIXED_CTR(1));
		EXPECT(c, v == SCRIPT_CYCLES, "FIXED_CTR1 without ANY: %llu",
		       (unsigned long long)v);
	}
}

/* write-running-counter: a write while counting replaces the count. */
static void test_write_running_counter(void **state)
{
	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];
		uint64_t v;

		pm_use(c);
		WR(c, PMC(0), 0);
		WR(c, EVTSEL(0), EV_INSNS | USR | OS | EN);
		pm_run(3);
		WR(c, PMC(0), 1000);
		pm_run(3);
		v = pm_rd_ok(c, PMC(0));
		EXPECT(c, v == 1000 + SCRIPT_INSNS, "PMC0: %llu",
		       (unsigned long long)v);
		if (c->version < 2)
			continue;
		WR(c, FIXED_CTR(1), 0);
		WR(c, FIXED_CTR_CTRL, FX(1, 3));
		WR(c, GLOBAL_CTRL, G_FIXED(1));
		pm_run(3);
		WR(c, FIXED_CTR(1), 7);
		pm_run(3);
		v = pm_rd_ok(c, FIXED_CTR(1));
		EXPECT(c, v == 7 + SCRIPT_CYCLES, "FIXED_CTR1: %llu",
		       (unsigned long long)v);
	}
}

/* global-ctrl-gates-counters, global-ctrl-reset-value */
static void test_global_ctrl(void **state)
{
	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];
		uint64_t v;

		pm_use(c);
		if (c->version < 2)
			continue;	/* test_model_regs: absent on v1 */
		v = pm_rd_ok(c, GLOBAL_CTRL);
		EXPECT(c, v == pm_max(c->gp), "GLOBAL_CTRL at reset %#llx",
		       (unsigned long long)v);
		for (unsigned n = 0; n < c->gp; n++) {
			WR(c, PMC(n), 0);
			WR(c, EVTSEL(n), EV_INSNS | USR | OS | EN);
		}
		WR(c, FIXED_CTR_CTRL, FX(0, 3));
		WR(c, FIXED_CTR(0), 0);
		/* every GP bit but counter 1's, and fixed counter 0's off */
		WR(c, GLOBAL_CTRL, pm_max(c->gp) & ~2ull);
		pm_run(3);
		for (unsigned n = 0; n < c->gp; n++) {
			uint64_t want = n == 1 ? 0 : SCRIPT_INSNS;

			v = pm_rd_ok(c, PMC(n));
			EXPECT(c, v == want, "PMC%u: %llu, want %llu", n,
			       (unsigned long long)v,
			       (unsigned long long)want);
		}
		v = pm_rd_ok(c, FIXED_CTR(0));
		EXPECT(c, v == 0, "FIXED_CTR0 off globally counted %llu",
		       (unsigned long long)v);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events_every_gp_counter),
		cmocka_unit_test(test_fixed_counters),
		cmocka_unit_test(test_all_counters_at_once),
		cmocka_unit_test(test_usr_os),
		cmocka_unit_test(test_cmask_inv_edge),
		cmocka_unit_test(test_anythread),
		cmocka_unit_test(test_write_running_counter),
		cmocka_unit_test(test_global_ctrl),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
