/* pebs/adaptive-*: adaptive PEBS (formats 4-5, PERF_CAPABILITIES
 * .PEBS_BASELINE): the record is the basic group and the groups
 * MSR_PEBS_DATA_CFG selects (bit 0 memory info, 1 GPRs, 2 XMMs, 3 LBRs
 * with bits 31:24 + 1 entries), in that order, for counters whose
 * Adaptive_Record bit is set (PerfEvtSel bit 34, FIXED_CTR_CTRL bit
 * 32 + 4i); without it the basic group only.  All 16 combinations of the
 * low bits, with and without the adaptive bit (the combinations
 * kvm-unit-tests x86/pmu_pebs.c runs), each record's size in
 * format_size[63:48], DATA_CFG in [47:0], and every field of every group
 * against the trace; PEBS on a fixed counter. */
#include "pebs_test.h"
#include "../../lib/string.h"

#define LBR_ENTRIES 4

static const uint64_t xmm_values[32] = {
	0x0001020304050607, 0x08090a0b0c0d0e0f, 0x1011121314151617,
	0x18191a1b1c1d1e1f, 0x2021222324252627, 0x28292a2b2c2d2e2f,
	0x3031323334353637, 0x38393a3b3c3d3e3f, 0x4041424344454647,
	0x48494a4b4c4d4e4f, 0x5051525354555657, 0x58595a5b5c5d5e5f,
	0x6061626364656667, 0x68696a6b6c6d6e6f, 0x7071727374757677,
	0x78797a7b7c7d7e7f, 0x8081828384858687, 0x88898a8b8c8d8e8f,
	0x9091929394959697, 0x98999a9b9c9d9e9f, 0xa0a1a2a3a4a5a6a7,
	0xa8a9aaabacadaeaf, 0xb0b1b2b3b4b5b6b7, 0xb8b9babbbcbdbebf,
	0xc0c1c2c3c4c5c6c7, 0xc8c9cacbcccdcecf, 0xd0d1d2d3d4d5d6d7,
	0xd8d9dadbdcdddedf, 0xe0e1e2e3e4e5e6e7, 0xe8e9eaebecedeeef,
	0xf0f1f2f3f4f5f6f7, 0xf8f9fafbfcfdfeff,
};

/* log: 0 where the test stands in for the PMU and logs the capabilities
 * after (pebs_log_caps); a test that skips here logs the CPU's. */
static const struct perfmon_caps *adaptive_ready(struct tcase *t,
						 unsigned *fmt, int *trap,
						 int log)
{
	const struct perfmon_caps *c = log ? pebs_ready(t, fmt, trap) :
				       pebs_ready_quiet(t, fmt, trap);

	if (c && !log && (pebs_ds32() || !perfmon_pebs_baseline(c)))
		pebs_log_caps(t);
	if (c && pebs_ds32()) {
		skip(t, "the 32-bit DS format (no DTES64 outside IA-32e mode, "
		     "SDM Vol. 3B 17.4.9.1) writes the 40-byte record only");
		return 0;
	}
	if (c && !perfmon_pebs_baseline(c)) {
		skip(t, "PEBS format %u: adaptive records came with format 4 "
		     "and PEBS_BASELINE", *fmt);
		return 0;
	}
	return c;
}

static void one_cfg(struct tcase *t, unsigned fmt, int trap, uint64_t cfg,
		    int adaptive, int log_records)
{
	struct pebs_run *r = pebs_run_mem();
	struct sdm_event ev = { 0 };

	sdm_mem_event(fmt, 0, &ev);
	*r = (struct pebs_run){ .bench = "load-stream", .n = 12, .cpl = 3,
		.n_ctr = 1, .capacity = 12, .cfg = cfg,
		.debugctl = DEBUGCTL_LBR, .xmm = xmm_values,
		.log_settings_only = !log_records };
	r->ctr[0] = (struct pebs_ctr){ .bit = 0, .sem = ev.sem,
		.sel = sdm_gp_sel(&ev, 1, 0), .period = 3, .reload = 3,
		.adaptive = adaptive };
	if (!pebs_run(t, r))
		return;
	check(t, r->n_exp >= 2, "cfg 0x%llx: %u records",
	      (unsigned long long)cfg, r->n_exp);
	pebs_check_records(t, r, &(struct pebs_want){ .fmt = fmt,
			   .trap = trap, .data = ev.data });
}

static void test_groups(struct tcase *t)
{
	unsigned fmt;
	int trap;

	if (!adaptive_ready(t, &fmt, &trap, 1))
		return;
	for (uint64_t low = 0; low < 16; low++) {
		uint64_t cfg = low | (low & 8 ? (uint64_t)(LBR_ENTRIES - 1)
					  << 24 : 0);

		/* every run's DATA_CFG in the log, the records of the
		 * one with every group (32 runs of records would not
		 * read) */
		one_cfg(t, fmt, trap, cfg, 1, low == 15);
		one_cfg(t, fmt, trap, cfg, 0, 0);
	}
}

TEST(pebs_adaptive, "pebs/adaptive-groups",
     "all 16 PEBS_DATA_CFG group sets, with and without Adaptive_Record",
     test_groups, 0);

/* PEBS on fixed counter 0 (instructions retired), adaptive with GPRs. */
static void test_fixed(struct tcase *t)
{
	struct pebs_run *r = pebs_run_mem();
	unsigned fmt;
	int trap;

	if (!adaptive_ready(t, &fmt, &trap, 1))
		return;
	*r = (struct pebs_run){ .bench = "gpr-values", .n = 6, .cpl = 3,
		.n_ctr = 1, .capacity = 16, .cfg = 2 };
	r->ctr[0] = (struct pebs_ctr){ .bit = 32, .sel = 2,
		.sem = SEM_BIT(SEM_INSTRUCTIONS), .period = 4, .reload = 4,
		.adaptive = 1 };
	if (!pebs_run(t, r))
		return;
	pebs_check_records(t, r, &(struct pebs_want){ .fmt = fmt,
			   .trap = trap });
}

TEST(pebs_adaptive_fixed, "pebs/adaptive-fixed-counter",
     "PEBS on fixed counter 0 with the GPR group", test_fixed, 0);

/* Records with the LBR group, 32 entries. */
static void test_lbr32(struct tcase *t)
{
	unsigned fmt;
	int trap;

	if (adaptive_ready(t, &fmt, &trap, 1))
		one_cfg(t, fmt, trap, 8 | 31ull << 24, 1, 1);
}

TEST(pebs_adaptive_lbr, "pebs/adaptive-lbr-32",
     "the LBR group with 32 entries: the last taken branches, newest first",
     test_lbr32, 0);

/* Format 5: format 4's records with the DS counter-reset area of 32 GP +
 * 16 fixed slots (SDM Vol. 3B, IA32_PERF_CAPABILITIES PEBS_FMT 0101B;
 * Linux "perf/x86/intel: Enable PEBS format 5", 2145e77fecfb): fixed
 * counter 0's reset value at 40H + 8 * 32.  No CPU of the capability
 * table reports format 5 (docs/pebs.md), so the model stands in for this
 * one with PEBS_FMT 5 and the reload cadence of both counters, and so the
 * slots the model reads, are checked against the trace. */
static uint64_t dq(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void test_fmt5(struct tcase *t)
{
	struct pebs_run *r = pebs_run_mem();
	const struct perfmon_caps *c;
	struct perfmon_caps five;
	unsigned fmt;
	int trap;

	if (!(c = adaptive_ready(t, &fmt, &trap, 0)))
		return;
	if (fmt != 5 && !pmu_on_model()) {
		pebs_log_caps(t);
		skip(t, "this CPU reports PEBS format %u; format 5 needs the "
		     "model to stand in", fmt);
		return;
	}
	five = *c;
	five.perf_caps = (five.perf_caps & ~(0xfull << 8)) | 5ull << 8;
	five.source = "model:format-5";
	if (fmt != 5 && !check(t, perfmon_caps_stand_in(&five) == 0,
			       "stand-in"))
		return;
	pebs_log_caps(t);	/* the stand-in's: PEBS_FMT 5 */
	*r = (struct pebs_run){ .bench = "counted-loop", .n = 12, .cpl = 3,
		.n_ctr = 2, .capacity = 24, .cfg = 2 };
	r->ctr[0] = (struct pebs_ctr){ .bit = 0, .sel = 0xc0 | 1ull << 16,
		.sem = SEM_BIT(SEM_INSTRUCTIONS), .period = 3, .reload = 5,
		.adaptive = 1 };
	r->ctr[1] = (struct pebs_ctr){ .bit = 32, .sel = 2,
		.sem = SEM_BIT(SEM_INSTRUCTIONS), .period = 4, .reload = 7,
		.adaptive = 1 };
	if (pebs_run(t, r)) {
		uint64_t top = (1ull << c->gp_width) - 1;

		value(t, "reset_slots", "GP0 at 40H: 0x%llx, fixed 0 at "
		      "140H: 0x%llx", (unsigned long long)dq(r->area + 0x40),
		      (unsigned long long)dq(r->area + 0x40 + 8 * 32));
		check(t, dq(r->area + 0x40) == top - 5 + 1 &&
		      dq(r->area + 0x40 + 8 * 32) == top - 7 + 1, "format 5 "
		      "reset slots: GP0 0x%llx, fixed 0 0x%llx",
		      (unsigned long long)dq(r->area + 0x40),
		      (unsigned long long)dq(r->area + 0x40 + 8 * 32));
		pebs_check_records(t, r, &(struct pebs_want){ .fmt = 5,
				   .trap = trap });
	}
	if (fmt != 5)
		perfmon_caps_stand_in(0);
}

TEST(pebs_fmt5, "pebs/format5-reset-area",
     "format 5: the DS reset slots of 32 GP + 16 fixed counters",
     test_fmt5, 0);
