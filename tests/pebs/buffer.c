/* pebs/buffer-*, pebs/threshold-*, pebs/reset-values: the buffer rules
 * of SDM Vol. 3B §18.8.1.1 (seed of the PEBS facility for Core i7, the
 * same on every format): the processor never writes past the PEBS
 * absolute maximum and gives no signal when the buffer is full (records
 * are dropped until software moves the index back); reaching the
 * interrupt threshold raises a PMI with IA32_PERF_GLOBAL_STATUS bit 62
 * (OvfBuffer); after each record the counter reloads from its DS reset
 * value. */
#include "pebs_test.h"

#define OVF_BUF (1ull << 62)

static enum sdm_inst_kind kind;	/* what inst_run() sampled */

static int inst_run(struct tcase *t, struct pebs_run *r, unsigned *fmt,
		    int *trap, unsigned capacity, unsigned thresh)
{
	if (!pebs_ready(t, fmt, trap))
		return 0;
	*r = (struct pebs_run){ .bench = "counted-loop", .n = 20, .cpl = 3,
		.n_ctr = 1, .capacity = capacity, .thresh = thresh };
	/* PMC0; PMC1 with the precise-distribution rule where C0H/01H is
	 * INST_RETIRED.PREC_DIST (pebs_test.h sdm_inst_ctr()) */
	kind = sdm_inst_ctr(*fmt, &r->ctr[0], 4, 1, 0);
	return 1;
}

/* Buffer full: 3 slots, the threshold at the 2nd (a record short of the
 * maximum, the least ds_check() accepts: the SDM wants it "several
 * records short", Vol. 3B §17.4.9), the run asks for many more records. */
static void test_full(struct tcase *t)
{
	struct pebs_run *r = pebs_run_mem();
	unsigned fmt, bit;
	int trap;
	uint64_t want;

	if (!inst_run(t, r, &fmt, &trap, 3, 2) || !pebs_run(t, r))
		return;
	/* 23 branches give 4 records (below): one more than the slots */
	check(t, r->n_exp > r->capacity + (kind == SDM_INST_BRANCHES ? 0 : 2),
	      "the run asked for %u records: not enough to overflow %u "
	      "slots", r->n_exp, r->capacity);
	/* the assists after the buffer filled failed the bounds checks:
	 * "Upon successful bounds checks ... clear the counter overflow
	 * status, and reload the counter.  If the bounds checks fail, the
	 * PEBS will be skipped entirely" (§18.8.1.1).  So the counter (48
	 * bits or fewer, §18.2) counts on from its last wrap, far below the
	 * reload value 4 below the top, and its GLOBAL_STATUS bit is still
	 * set (v2+, §18.2.2) */
	bit = r->ctr[0].bit;
	value(t, "pmc0_after", "0x%llx", (unsigned long long)r->count_after[0]);
	value(t, "status_after", "0x%llx", (unsigned long long)r->status_after);
	check(t, r->count_after[0] < 1000, "PMC%u 0x%llx after the run: "
	      "reloaded by an assist whose record was dropped? (it wrapped "
	      "after the buffer filled, and counted fewer than the %llu "
	      "events of the run since)", bit,
	      (unsigned long long)r->count_after[0],
	      (unsigned long long)r->n * 4);
	/* by hand: counted-loop with n = 20 retires 65 instructions; the
	 * records at events 5, 10, 15 fill the 3 slots; reloaded 4 below
	 * the top, PMC0 wraps at event 19 and the assist of event 20 is
	 * dropped: 65 - 19 = 46 events since the wrap.  PDIR (PMC1), the
	 * record at the overflowing event: records at 4, 8, 12, the wrap
	 * at 16 dropped: 65 - 16 = 49.  Branches (a PDIR row in the 32-bit
	 * DS format): 23 of them (the jmp, 21 jbs, the ret); records at
	 * branches 5, 10, 15, the wrap at 19: 23 - 19 = 4.  PDist (PMC0 on
	 * Sapphire Rapids, pebs_sdm.c sdm_pdist_pmc0()): as PDIR, 49 */
	want = kind == SDM_INST_PDIR ||
	       (bit == 0 && sdm_pdist_pmc0()) ? 49 :
	       kind == SDM_INST_BRANCHES ? 4 : 46;
	if (pmu_on_model())
		check(t, r->count_after[0] == want, "PMC%u %llu after the run, "
		      "want %llu (the events after its last wrap)", bit,
		      (unsigned long long)r->count_after[0],
		      (unsigned long long)want);
	if (perfmon_caps(0)->version >= 2)
		check(t, r->status_after >> bit & 1, "GLOBAL_STATUS 0x%llx "
		      "after the run: PMC%u's overflow bit cleared by an "
		      "assist whose record was dropped",
		      (unsigned long long)r->status_after, bit);
	if (!backend_model_backed()) {	/* hardware: pebs_check_hw() */
		check(t, r->index == r->base + 3ull * r->record_size, "index "
		      "+0x%llx: not parked at the maximum",
		      (unsigned long long)(r->index - r->base));
		return;
	}
	/* the 3 records are the first 3; the rest dropped, index at max */
	pebs_check_records(t, r, &(struct pebs_want){ .fmt = fmt,
			   .trap = trap });
	/* one PMI: the threshold at the 2nd record; the 3rd and the dropped
	 * records signal nothing (LVTPC is masked after the first PMI, so
	 * the status bit is what shows it: set once, by the threshold) */
	check(t, r->pmis == 1, "%u PMIs; expected 1 (the threshold at the "
	      "2nd record), none for the dropped records", r->pmis);
}

TEST(pebs_full, "pebs/buffer-full-drops",
     "a full PEBS buffer: index parked at the maximum, no more records",
     test_full, 0);

static void test_thresh(struct tcase *t)
{
	struct pebs_run *r = pebs_run_mem();
	unsigned fmt;
	int trap;

	if (!inst_run(t, r, &fmt, &trap, 20, 2) || !pebs_run(t, r))
		return;
	check(t, r->n_exp > 2, "%u records: the threshold is never reached",
	      r->n_exp);
	check(t, r->pmis == 1, "%u PMIs, expected exactly 1", r->pmis);
	value(t, "status_in_pmi", "0x%llx",
	      (unsigned long long)r->status_in_pmi);
	value(t, "lvtpc_in_pmi", "0x%x", r->lvtpc_in_pmi);
	check(t, !!(r->status_in_pmi & OVF_BUF), "GLOBAL_STATUS 0x%llx in the "
	      "PMI: bit 62 (OvfBuffer) clear",
	      (unsigned long long)r->status_in_pmi);
	check(t, r->lvtpc_in_pmi & (1u << 16), "LVTPC 0x%x in the PMI: not "
	      "masked on delivery", r->lvtpc_in_pmi);
	check(t, !(r->status_in_pmi >> r->ctr[0].bit & 1), "GLOBAL_STATUS "
	      "0x%llx: the PEBS "
	      "counter's own overflow bit is left set after its assist",
	      (unsigned long long)r->status_in_pmi);
	if (backend_model_backed())	/* exact: the tap read the window */
		pebs_check_records(t, r, &(struct pebs_want){ .fmt = fmt,
				   .trap = trap });
}

TEST(pebs_thresh, "pebs/threshold-pmi",
     "the PEBS index reaching the threshold: one PMI, GLOBAL_STATUS.62",
     test_thresh, 0);

/* No PMI before the threshold: threshold at the last slot a threshold
 * may take (a record short of the maximum) of a buffer the run does not
 * fill that far. */
static void test_no_pmi(struct tcase *t)
{
	struct pebs_run *r = pebs_run_mem();
	unsigned fmt;
	int trap;

	if (!inst_run(t, r, &fmt, &trap, 24, 23) || !pebs_run(t, r))
		return;
	check(t, r->n_exp < 23, "%u records reach the threshold", r->n_exp);
	check(t, r->pmis == 0, "%u PMIs below the threshold", r->pmis);
}

TEST(pebs_nopmi, "pebs/threshold-not-reached",
     "records below the threshold raise no PMI", test_no_pmi, 0);

/* Reset values: the first record at the event after the `period`-th
 * (the overflow arms PEBS, the next event writes the record, SDM Vol. 3B
 * §18.8.1.1), then the counter reloads from the DS counter-reset slot -
 * not the preset - and the next record is at the event after the next
 * `reload` ("the reset value for each overflowed counter is loaded"). */
static void test_reset(struct tcase *t)
{
	struct pebs_run *r = pebs_run_mem();
	const struct perfmon_caps *c;
	unsigned fmt;
	int trap;
	uint64_t top, want;

	if (!inst_run(t, r, &fmt, &trap, 24, 0))
		return;
	c = perfmon_caps(0);
	r->ctr[0].period = 3;
	r->ctr[0].reload = 11;
	if (!pebs_run(t, r))
		return;
	if (!backend_model_backed())	/* exact: the tap read the window */
		return;
	pebs_check_records(t, r, &(struct pebs_want){ .fmt = fmt,
			   .trap = trap });
	/* the counter after the run: as many events below its wrap as the
	 * trace says are left after the last reload (0: it overflowed and
	 * waits for the event that writes the next record) */
	top = (c->gp_width >= 64 ? ~0ull : (1ull << c->gp_width) - 1);
	want = (top - r->left_after[0] + 1) & top;
	value(t, "counter_after", "0x%llx, %llu events to its wrap by the "
	      "trace", (unsigned long long)r->count_after[0],
	      (unsigned long long)r->left_after[0]);
	check(t, r->count_after[0] == want, "counter 0x%llx after the run, the "
	      "trace says 0x%llx (the DS reset distance 11 less the events "
	      "since the last record)", (unsigned long long)r->count_after[0],
	      (unsigned long long)want);
	check(t, r->n_exp >= 2, "%u records", r->n_exp);
}

TEST(pebs_reset, "pebs/reset-values",
     "after a record the counter reloads from its DS reset slot",
     test_reset, 0);
