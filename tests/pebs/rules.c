/* pebs/refuse-*, pebs/capable-counters, pebs/fault-like, pebs/ld-lat-msr:
 * the PEBS programming rules.
 *   - "PEBS events are only valid when the following fields of
 *     IA32_PERFEVTSELx are all zero: AnyThread, Edge, Invert, CMask"
 *     (SDM Vol. 3B §18.8.1.1 note): the driver refuses, and writes
 *     nothing;
 *   - PEBS counters: Core 2 PMC0 only (§18.6.2.4), Nehalem to Skylake
 *     PMC0-3 (§18.8.1.1, Table 18-54 "No PEBS on PMC4-PMC7"), Ice Lake on
 *     every counter with PEBS_BASELINE; only precise events before that;
 *   - a DS area that fails its checks is refused before IA32_DS_AREA is
 *     written (pmu/perfmon/ds/regs.h lists the rules);
 *   - PERF_CAPABILITIES.PEBS_TRAP (bit 6) clear: fault-like records, the
 *     state before the eventing instruction and its own RIP. */
#include "pebs_test.h"
#include "../../harness/pmu_run.h"

/* A precise event every PEBS counter of formats 0-3 takes: instructions,
 * except on the PDIR rows (PMC1 only there): all branches. */
static void sdm_any_ctr_event(unsigned fmt, struct sdm_event *ev)
{
	if (!sdm_pdir_row(fmt) || !sdm_branch_event(fmt, ev))
		sdm_inst_event(fmt, ev);
}

static uint8_t area[1024] __attribute__((aligned(64)));
static uint8_t buf[4096] __attribute__((aligned(4096)));

static int install_ok(struct tcase *t, unsigned size)
{
	struct perfmon_ds s = { .area = area, .use_pebs = 1 };
	uint64_t b = (uintptr_t)buf;
	struct pmu_err e;

	s.pebs = (struct ds_buffer){ b, b, b + 4 * size, b + 3 * size };
	return check(t, perfmon_pebs_buffer(&s, &e) == 0 &&
		     perfmon_ds_install(&s, &e) == 0, "install: %s", e.msg);
}

/* Tries PEBS on mask with counter 0 programmed to sel: must be refused,
 * with IA32_PEBS_ENABLE still 0. */
static void refused(struct tcase *t, uint64_t sel, uint64_t mask,
		    const char *what)
{
	struct pmu_err e;
	uint64_t en = 0;
	int rc;

	if (!check(t, perfmon_driver.init(&e) == 0, "init: %s", e.msg) ||
	    !install_ok(t, sdm_pebs_plain_size(
			   sdm_pebs_format(perfmon_caps(0)->perf_caps))))
		return;
	if (sel && !check(t, be_wrmsr(MSR_IA32_PERFEVTSEL(0), sel) == 0,
			  "WRMSR PERFEVTSEL0=0x%llx", (unsigned long long)sel))
		goto out;
	rc = perfmon_pebs_enable(mask, 0, &e);
	value(t, "refusal", "%s", rc ? e.msg : "(accepted)");
	check(t, rc != 0, "%s: PEBS enable accepted", what);
	rc = be_rdmsr(MSR_IA32_PEBS_ENABLE, &en);
	check(t, rc == 0 && en == 0, "IA32_PEBS_ENABLE 0x%llx (vector %d) "
	      "after a refusal", (unsigned long long)en, rc);
out:
	(void)perfmon_ds_remove(&e);
	(void)perfmon_driver.init(&e);
}

static uint64_t inst_sel(unsigned fmt)
{
	struct sdm_event ev = { 0 };

	sdm_any_ctr_event(fmt, &ev);	/* PMC0 takes it */
	return sdm_gp_sel(&ev, 1, 0);
}

static void test_edge(struct tcase *t)
{
	unsigned fmt;
	int trap;

	if (pebs_ready(t, &fmt, &trap))
		refused(t, inst_sel(fmt) | 1ull << 18, 1, "Edge set");
}

static void test_inv(struct tcase *t)
{
	unsigned fmt;
	int trap;

	if (pebs_ready(t, &fmt, &trap))
		refused(t, inst_sel(fmt) | 1ull << 23 | 1ull << 24, 1,
			"Invert set");
}

static void test_cmask(struct tcase *t)
{
	unsigned fmt;
	int trap;

	if (pebs_ready(t, &fmt, &trap))
		refused(t, inst_sel(fmt) | 2ull << 24, 1, "CMask 2");
}

static void test_any(struct tcase *t)
{
	const struct perfmon_caps *c;
	unsigned fmt;
	int trap;

	if (!(c = pebs_ready(t, &fmt, &trap)))
		return;
	if (!perfmon_any_allowed(c)) {
		skip(t, "AnyThread cannot be set on this PMU (v%u%s): the "
		     "PerfEvtSel write itself #GPs (perfmon/evtsel-*)",
		     c->version, c->any_deprecated ? ", deprecated" : "");
		return;
	}
	refused(t, inst_sel(fmt) | 1ull << 21, 1, "AnyThread set");
}

TEST(pebs_ref_edge, "pebs/refuse-edge",
     "a PEBS event with Edge set is refused", test_edge, 0);
TEST(pebs_ref_inv, "pebs/refuse-invert",
     "a PEBS event with Invert set is refused", test_inv, 0);
TEST(pebs_ref_cmask, "pebs/refuse-cmask",
     "a PEBS event with a counter mask is refused", test_cmask, 0);
TEST(pebs_ref_any, "pebs/refuse-anythread",
     "a PEBS event with AnyThread set is refused", test_any, 0);

/* A counter that does not take PEBS: Core 2 PMC1; Nehalem-Skylake fixed
 * counter 0 (and PMC4+); format 4+: a counter that does not exist. */
static void test_not_capable(struct tcase *t)
{
	const struct perfmon_caps *c;
	unsigned fmt;
	int trap;
	uint64_t bit;

	if (!(c = pebs_ready(t, &fmt, &trap)))
		return;
	bit = fmt == 0 ? 1ull << 1 : fmt <= 3 ? 1ull << 32 :
	      1ull << c->gp;
	value(t, "counter_bit", "0x%llx", (unsigned long long)bit);
	refused(t, inst_sel(fmt), bit, "a counter without PEBS");
}

TEST(pebs_ref_ctr, "pebs/refuse-counter",
     "PEBS on a counter the generation does not sample is refused",
     test_not_capable, 0);

static void test_not_precise(struct tcase *t)
{
	unsigned fmt;
	int trap;

	if (!pebs_ready(t, &fmt, &trap))
		return;
	if (perfmon_pebs_baseline(perfmon_caps(0))) {
		skip(t, "format %u with PEBS_BASELINE: every event is precise",
		     fmt);
		return;
	}
	/* 3CH: unhalted core cycles, in no precise-event table */
	refused(t, 0x3cull | 1ull << 16, 1, "core cycles (not precise)");
	/* Sandy Bridge writes Nehalem's format 1, not its precise events:
	 * MEM_INST_RETIRED.LOADS 0BH/01H (§18.8.1.1) is not in the Sandy
	 * Bridge table (SDM Vol. 3B §18.9.4.2) */
	if (sdm_sandy_bridge())
		refused(t, 0x0bull | 0x01ull << 8 | 1ull << 16, 1,
			"Nehalem's MEM_INST_RETIRED.LOADS on Sandy Bridge");
}

TEST(pebs_ref_ev, "pebs/refuse-not-precise",
     "PEBS on an event outside the precise-event table is refused",
     test_not_precise, 0);

/* Every PEBS-capable GP counter samples, alone. */
static void test_capable(struct tcase *t)
{
	struct pebs_run *r = pebs_run_mem();
	const struct perfmon_caps *c;
	struct sdm_event ev = { 0 };
	unsigned fmt, n_gp;
	int trap;

	if (!(c = pebs_ready(t, &fmt, &trap)))
		return;
	sdm_any_ctr_event(fmt, &ev);	/* every PEBS counter takes it */
	n_gp = fmt == 0 ? 1 : fmt <= 3 ? (c->gp < 4 ? c->gp : 4) : c->gp;
	if (pebs_ds32())
		n_gp = 1;	/* one counter-reset slot: PMC0 only */
	for (unsigned n = 0; n < n_gp; n++) {
		*r = (struct pebs_run){ .bench = "counted-loop", .n = 10,
			.cpl = 3, .n_ctr = 1, .capacity = 16 };
		r->ctr[0] = (struct pebs_ctr){ .bit = n, .sem = ev.sem,
			.sel = sdm_gp_sel(&ev, 1, 0), .period = 6,
			.reload = 6 };
		/* PMC0's records in the log, the others' count */
		r->log_settings_only = n > 0;
		if (!pebs_run(t, r))
			return;
		value(t, "counter", "PMC%u: %u records", n, r->n_exp);
		pebs_check_records(t, r, &(struct pebs_want){ .fmt = fmt,
				   .trap = trap });
	}
}

TEST(pebs_capable, "pebs/capable-counters",
     "each PEBS-capable GP counter writes records", test_capable, 0);

/* Two PEBS counters overflowing in the same step: one record, for both
 * (format 3+: applicable counters; 1-2: GLOBAL_STATUS bits). */
static void test_both(struct tcase *t)
{
	struct pebs_run *r = pebs_run_mem();
	const struct perfmon_caps *c;
	struct sdm_event ev = { 0 };
	unsigned fmt;
	int trap;

	if (!(c = pebs_ready(t, &fmt, &trap)))
		return;
	if (fmt == 0 || c->gp < 2 || pebs_ds32()) {
		skip(t, "format %u%s: PEBS on PMC0 only", fmt, pebs_ds32() ?
		     " in the 32-bit DS format" : "");
		return;
	}
	sdm_any_ctr_event(fmt, &ev);	/* PMC0 and PMC1 take it */
	*r = (struct pebs_run){ .bench = "counted-loop", .n = 12, .cpl = 3,
		.n_ctr = 2, .capacity = 24 };
	r->ctr[0] = (struct pebs_ctr){ .bit = 0, .sem = ev.sem,
		.sel = sdm_gp_sel(&ev, 1, 0), .period = 4, .reload = 4 };
	r->ctr[1] = r->ctr[0];
	r->ctr[1].bit = 1;
	r->ctr[1].period = r->ctr[1].reload = 6;
	if (!pebs_run(t, r))
		return;
	pebs_check_records(t, r, &(struct pebs_want){ .fmt = fmt,
			   .trap = trap });
}

TEST(pebs_both, "pebs/two-counters",
     "two PEBS counters: one record per step, naming the counters",
     test_both, 0);

/* Fault-like PEBS: stand in for this PMU with PEBS_TRAP clear. */
static void test_fault_like(struct tcase *t)
{
	struct pebs_run *r = pebs_run_mem();
	const struct perfmon_caps *c;
	struct perfmon_caps fault;
	unsigned fmt;
	int trap;

	if (!(c = pebs_ready_quiet(t, &fmt, &trap)))
		return;
	if (!pmu_on_model()) {
		pebs_log_caps(t);
		skip(t, "the record kind is the CPU's own (PEBS_TRAP=%d); the "
		     "other kind needs the model", trap);
		return;
	}
	fault = *c;
	fault.perf_caps &= ~(1ull << 6);
	fault.source = "model:fault-like";
	if (!check(t, perfmon_caps_stand_in(&fault) == 0, "stand-in"))
		return;
	pebs_log_caps(t);	/* the stand-in's: PEBS_TRAP clear */
	*r = (struct pebs_run){ .bench = "add-chain", .n = 20, .cpl = 3,
		.n_ctr = 1, .capacity = 16 };
	sdm_inst_ctr(fmt, &r->ctr[0], 5, 1, 0);	/* PMC1 on PDIR rows */
	if (pebs_run(t, r))
		pebs_check_records(t, r, &(struct pebs_want){ .fmt = fmt,
				   .trap = 0 });
	perfmon_caps_stand_in(0);
}

TEST(pebs_fault, "pebs/fault-like",
     "PEBS_TRAP clear: records hold the state before the instruction",
     test_fault_like, 0);

/* MSR_PEBS_LD_LAT (Nehalem on): a 16-bit threshold; above it #GP. */
static void test_ld_lat(struct tcase *t)
{
	unsigned fmt;
	int trap, w1, w2;
	uint64_t v = 0;

	if (!pebs_ready(t, &fmt, &trap))
		return;
	w1 = be_wrmsr(0x3f6, 0x1234);
	(void)be_rdmsr(0x3f6, &v);
	w2 = be_wrmsr(0x3f6, 0x10000);
	(void)be_wrmsr(0x3f6, 0);
	value(t, "vectors", "write 0x1234: %d, read 0x%llx, write 0x10000: "
	      "%d", w1, (unsigned long long)v, w2);
	if (fmt == 0) {
		check(t, w1 == 13, "Core 2 has no MSR_PEBS_LD_LAT: write "
		      "vector %d", w1);
		return;
	}
	check(t, w1 == 0 && v == 0x1234, "write 0x1234: vector %d, read "
	      "back 0x%llx", w1, (unsigned long long)v);
	check(t, w2 == 13 || !pmu_on_model(), "write 0x10000 (bit 16): "
	      "vector %d, expected #GP", w2);
}

TEST(pebs_ldlat, "pebs/ld-lat-msr",
     "MSR_PEBS_LD_LAT: 16-bit latency threshold from format 1 on",
     test_ld_lat, 0);

/* Corrupted DS areas: each refused before IA32_DS_AREA is written. */
static void test_bad_ds(struct tcase *t)
{
	static struct be_access acc[16];
	unsigned fmt, size;
	int trap;
	uint64_t b = (uintptr_t)buf;
	struct pmu_err e;

	if (!pebs_ready(t, &fmt, &trap))
		return;
	size = sdm_pebs_plain_size(fmt);
	/* { base, index, absolute maximum, threshold }: each wrong in the
	 * one way it names, its threshold otherwise a record short of the
	 * maximum as the SDM asks (Vol. 3B §17.4.9: "several records short
	 * of the PEBS absolute maximum address") */
	const uint64_t u = 0x7ffffffff000ull, nc = 1ull << 60;
	const struct { const char *what; struct ds_buffer p; } bad[] = {
		{ "index past the maximum", { b, b + 5 * size, b + 4 * size,
					      b + 3 * size } },
		{ "index below the base", { b + size, b, b + 4 * size,
					    b + 3 * size } },
		{ "maximum below the base", { b + 4 * size, b + 4 * size, b,
					      b } },
		{ "threshold past the maximum", { b, b, b + 2 * size,
						  b + 3 * size } },
		{ "threshold at the maximum", { b, b, b + 2 * size,
						b + 2 * size } },
		{ "misaligned base", { b + 4, b + 4, b + 4 + 2 * size,
				       b + 4 + size } },
		{ "maximum not a whole record", { b, b, b + 2 * size + 4,
						  b + size } },
		{ "unmapped buffer", { u, u, u + 2 * size, u + size } },
		{ "non-canonical buffer", { nc, nc, nc + 2 * size,
					    nc + size } },
	};

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct perfmon_ds s = { .area = area, .use_pebs = 1,
					.pebs = bad[i].p };
		struct be_log log;
		struct be_access w[4];
		int rc;

		(void)perfmon_pebs_buffer(&s, &e);
		be_log_open(&log, acc, 16);
		rc = perfmon_ds_install(&s, &e);
		be_log_close();
		value(t, "refusal", "%s: %s", bad[i].what,
		      rc ? e.msg : "(accepted)");
		check(t, rc != 0, "%s: accepted", bad[i].what);
		check(t, be_log_writes(&log, w, 4) == 0, "%s: %u WRMSRs "
		      "before the refusal", bad[i].what,
		      be_log_writes(&log, w, 4));
	}
	if (!check(t, perfmon_pebs_enable(1, 0, &e) != 0, "PEBS enabled "
		   "with no DS area installed"))
		(void)perfmon_ds_remove(&e);
	value(t, "enable_without_ds", "%s", e.msg);
}

TEST(pebs_bad_ds, "pebs/refuse-bad-ds",
     "corrupted DS areas are refused and IA32_DS_AREA is not written",
     test_bad_ds, 0);
