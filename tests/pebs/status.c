/* pebs/status-non-pebs-counter: formats 1-2 write at 90H
 * IA32_PERF_GLOBAL_STATUS "for all counters, regardless of whether they
 * were programmed for PEBS" (SDM Vol. 3B, order no. 253669-060US,
 * §18.8.1.1, Table 18-23 "PEBS Record Format for Intel Core i7 Processor
 * Family", offset 90H; Table 18-44 for format 2): a counter counting
 * without PEBS that overflowed before the assist shows there too.
 *
 * Nehalem/Westmere (format 1, C0H/01H INST_RETIRED.ANY_P precise on any
 * of PMC0-3), counted-loop n = 20 at CPL 3 (the listing and instruction
 * numbers of tests/pebs/arming.c: instruction 3k+2 the add, 3k+3 the
 * cmp, 3k+4 the jb, 65 in all):
 *   - PMC0: C0H/01H with PEBS, period and reset 7: overflow at 7, record
 *     0 at 8; overflow at 15, record 1 at 16 (the next-event rule);
 *   - PMC1: C0H/01H, no PEBS, no PMI, preset 3 below its wrap: overflows
 *     at instruction 3 and its status bit 1 stays set (only software
 *     clears it, through IA32_PERF_GLOBAL_OVF_CTRL, §18.2.2);
 *   - fixed counter 0 (INST_RETIRED.ANY, §18.2.2, USR only, no PMI),
 *     preset 10 below its wrap: overflows at instruction 10, status bit
 *     32 (IA32_PERF_GLOBAL_STATUS bit 32 + i, Figure 18-9).
 * So record 0 (instruction 8) holds at 90H bits 0 and 1: 0x3; record 1
 * (instruction 16) bits 0, 1 and 32: 0x100000003.  A record that named
 * the PEBS counters only would hold 0x1 both times.  8 records in all.
 * The counters' presets are written as 48-bit values (the rows' width);
 * a PMC write sign-extends bit 31 (§18.2.1.1), which gives the same. */
#include "pebs_test.h"
#include "../../bench/bench.h"
#include "../../bench/oracle.h"
#include "../../harness/need.h"
#include "../../harness/pmu_run.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"
#include "../../pmu/perfmon/sample.h"

#define SEL_USR (1ull << 16)	/* PerfEvtSel USR, Figure 18-1 */
#define SEL_EN (1ull << 22)	/* PerfEvtSel EN */
#define FIX0_USR 0x2ull		/* IA32_FIXED_CTR_CTRL field 0: USR */
#define TOP48 (1ull << 48)
#define REC1 0xb0u		/* format 1 record, Table 18-23 */
#define OFF_STATUS 0x90u

static uint8_t area[1024] __attribute__((aligned(64)));
static uint8_t buf[24 * REC1] __attribute__((aligned(4096)));

static const uint64_t want_status[2] = { 0x3ull, 0x100000003ull };

/* PMC1 and fixed counter 0 counting without PEBS, next to PMC0's. */
static int add_plain_counters(struct tcase *t)
{
	uint64_t g = 0;

	return check(t, be_wrmsr(MSR_IA32_PERFEVTSEL(1), 0) == 0 &&
		     be_wrmsr(MSR_IA32_PMC(1), TOP48 - 3) == 0 &&
		     be_wrmsr(MSR_IA32_PERFEVTSEL(1), 0xc0 | 0x01ull << 8 |
			      SEL_USR | SEL_EN) == 0 &&
		     be_wrmsr(MSR_IA32_FIXED_CTR(0), TOP48 - 10) == 0 &&
		     be_wrmsr(MSR_IA32_FIXED_CTR_CTRL, FIX0_USR) == 0 &&
		     be_rdmsr(MSR_IA32_PERF_GLOBAL_CTRL, &g) == 0 &&
		     be_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL,
			      g | 1ull << 1 | 1ull << 32) == 0,
		     "PMC1 and fixed counter 0 programmed");
}

static void check_records(struct tcase *t, uint64_t index)
{
	uint64_t n = (index - (uintptr_t)buf) / REC1;

	value(t, "records", "%llu", (unsigned long long)n);
	check(t, n == 8, "%llu records, the listing says 8",
	      (unsigned long long)n);
	for (unsigned i = 0; i < 2 && i < n; i++) {
		uint64_t v;
		char key[24];

		memcpy(&v, buf + i * REC1 + OFF_STATUS, sizeof(v));
		fmt_snprintf(key, sizeof(key), "record%u_status", i);
		value(t, key, "0x%llx", (unsigned long long)v);
		check(t, v == want_status[i], "record %u GLOBAL_STATUS "
		      "0x%llx, the listing says 0x%llx (bit 1 PMC1, bit 32 "
		      "fixed counter 0: no PEBS on either)", i,
		      (unsigned long long)v,
		      (unsigned long long)want_status[i]);
	}
}

static void run(struct tcase *t)
{
	struct pebs_ctr ctr = { .bit = 0, .sel = 0xc0 | 0x01ull << 8 |
		SEL_USR, .sem = SEM_BIT(SEM_INSTRUCTIONS), .period = 7,
		.reload = 7 };
	struct pebs_sample s = { .ctr = &ctr, .n_ctr = 1, .area = area,
		.base = (uintptr_t)buf, .capacity = 24 };
	const struct bench *b = bench_find("counted-loop");
	uint64_t count, index = 0;
	struct pmu_err e;
	struct fault f;
	char why[240];

	s.record_size = pebs_sample_record_size(0, &ctr, 1);
	if (!check(t, b && s.record_size == REC1, "counted-loop, record "
		   "size %u (Table 18-23: 0x%x)", s.record_size, REC1) ||
	    !need_bench_data(t, b) ||
	    !check(t, pebs_sample_reset(&e) == 0, "init: %s", e.msg))
		return;
	memset(buf, 0, sizeof(buf));
	if (!check(t, pebs_sample_arm(&s, why, sizeof(why)) == 0, "%s",
		   why)) {
		(void)pebs_sample_abort(&e);
		return;
	}
	if (add_plain_counters(t))
		check(t, bench_exec(b, 20, 3, 0, backend_current()->sink, 0,
				    &f) == 0, "run of counted-loop");
	check(t, pebs_sample_end(&s, &count, &index, &e) == 0, "end: %s",
	      e.msg);
	(void)pebs_sample_reset(&e);
	check_records(t, index);
}

static void test_status(struct tcase *t)
{
	unsigned fmt;
	int trap;

	if (!pebs_ready(t, &fmt, &trap))
		return;
	if (fmt != 1 || sdm_sandy_bridge() || pebs_ds32()) {
		skip(t, "format %u%s: the literals are Nehalem/Westmere's "
		     "(format 1, C0H/01H on PMC0-1)", fmt,
		     pebs_ds32() ? " in the 32-bit DS format" : "");
		return;
	}
	if (!pmu_on_model()) {
		skip(t, "the literals are instruction-exact: the model");
		return;
	}
	run(t);
}

TEST(pebs_status_plain, "pebs/status-non-pebs-counter",
     "formats 1-2: 90H holds GLOBAL_STATUS of every counter, a non-PEBS "
     "PMC1 and fixed counter 0 included", test_status, 0);
