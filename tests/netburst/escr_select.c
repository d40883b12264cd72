/* netburst/escr-select-<block>: the CCCR's ESCR select field (bits 15:13)
 * names one ESCR among those of the counter's block, ESCR0 of a pair for
 * the block's first counters and ESCR1 for the others (SDM Vol. 3B
 * §18.15.3 and Table 18-63, order no. 253669-060US; netburst_regs.c
 * writes the table out).  For every counter of the block and every select 0-7 the
 * driver is asked to program an event of that ESCR:
 *   - the select names an ESCR here and the SDM's event tables have an
 *     event on it (sdm_event_on() below, written from Chapter 19):
 *     accepted, and the access log shows the ESCR written at Table
 *     18-63's address and the CCCR at 0x360 + counter, nothing else of
 *     the PMU's configuration; under the model the CCCR and the ESCR read
 *     back what was written (once started: with ENABLE);
 *   - the select names an ESCR the SDM's tables give no event (IS, IX,
 *     FLAME, U2L, SSU, IQ, CRU_ESCR4/5): refused, nothing written;
 *   - the select names no ESCR for this counter (MS selects 3-7, FLAME 4,
 *     6, 7, IQ 7, SSU on the ESCR1 side, IQ_ESCR0/1 on models 3 and
 *     later): refused, nothing written.
 * netburst/event-escr-bindings: every event of the table sits on the
 * ESCRs, and counters, that its CCCR select names for it in Table 18-63;
 * the bindings the tests use agree with nb_test.h's. */
#include "nb_test.h"
#include "../../pmu/netburst/events.h"

/* One event the SDM's Chapter 19 NetBurst tables place on each ESCR pair
 * (Vol. 3B, order no. 253669-060US, "Performance Monitoring Events For
 * Intel NetBurst Microarchitecture for Non-Retirement Counting" and "...
 * for At-Retirement Counting"; each event below lists both ESCRs of its
 * pair under "ESCR restrictions"), by block and CCCR ESCR select: its
 * event select and one event-mask bit the table names.  A pair the
 * tables give no event (IS, IX, FLAME, U2L, IQ, SSU, CRU_ESCR4/5) has
 * none here: the driver has nothing to program there.  Written from the
 * SDM, not from pmu/netburst/events.c, so that a binding the event table
 * got wrong shows as a refusal or a write at the wrong ESCR. */
struct sdm_event {
	const char *name;
	unsigned select, emask;
};

static const struct sdm_event *sdm_event_on(unsigned block, unsigned sel)
{
	static const struct sdm_event bpu[8] = {
		[0] = { "BPU_fetch_request", 0x03, 1u << 0 },	/* TCMISS */
		[2] = { "MOB_load_replay", 0x03, 1u << 1 },	/* NO_STA */
		[3] = { "ITLB_reference", 0x18, 1u << 0 },	/* HIT */
		[4] = { "page_walk_type", 0x01, 1u << 0 },	/* DTMISS */
		[6] = { "global_power_events", NBT_GLOBAL_POWER,
			NBT_RUNNING },
		[7] = { "BSQ_cache_reference", 0x0c, 1u << 0 },
							/* RD_2ndL_HITS */
	};
	static const struct sdm_event ms[8] = {
		[0] = { "tc_ms_xfer", 0x05, 1u << 0 },		/* CISC */
		[1] = { "TC_deliver_mode", 0x01, 1u << 0 },	/* DD */
		[2] = { "retired_branch_type", NBT_RETIRED_BRANCH_TYPE,
			NBT_BT_CONDITIONAL },
	};
	static const struct sdm_event flame[8] = {
		[1] = { "x87_FP_uop", NBT_X87_FP_UOP, NBT_X87_ALL },
		[2] = { "memory_complete", 0x08, 1u << 0 },	/* LSC */
		[5] = { "memory_cancel", 0x02, 1u << 2 },	/* ST_RB_FULL */
	};
	static const struct sdm_event iq[8] = {
		[1] = { "resource_stall", 0x01, 1u << 5 },	/* SBFULL */
		[2] = { "uop_type", 0x02, 1u << 1 },		/* TAGLOADS */
		[4] = { "instr_retired", NBT_INSTR_RETIRED, NBT_NBOGUSNTAG },
		[5] = { "branch_retired", NBT_BRANCH_RETIRED, NBT_MMNP },
	};
	static const struct sdm_event *const blocks[4] = { bpu, ms, flame, iq };

	if (block > NBT_IQ || sel > 7 || !blocks[block][sel].name)
		return 0;
	return &blocks[block][sel];
}

/* The access log of an accepted program(): the ESCR at msr got escr, the
 * CCCR of ctr was written, no other ESCR or CCCR was. */
static void check_writes(struct tcase *t, const struct nbt_trail *tr,
			 unsigned ctr, unsigned sel, uint32_t msr,
			 uint64_t escr)
{
	uint64_t v = 0;

	check(t, nbt_trail_last(tr, msr, &v) && v == escr, "counter %u "
	      "select %u: ESCR 0x%x not written with 0x%llx (last 0x%llx)",
	      ctr, sel, msr, (unsigned long long)escr,
	      (unsigned long long)v);
	check(t, nbt_trail_last(tr, NBT_MSR_CCCR(ctr), &v), "counter %u "
	      "select %u: CCCR 0x%x not written", ctr, sel, NBT_MSR_CCCR(ctr));
	for (unsigned i = 0; i < tr->log.used; i++) {
		const struct be_access *a = &tr->log.a[i];
		int escr_range = a->reg >= 0x3a0 && a->reg <= 0x3e1;
		int cccr_range = a->reg >= NBT_MSR_CCCR(0) &&
				 a->reg < NBT_MSR_CCCR(NBT_COUNTERS);

		if (a->op != BE_OP_WRMSR)
			continue;
		check(t, !(escr_range && a->reg != msr) &&
		      !(cccr_range && a->reg != NBT_MSR_CCCR(ctr)),
		      "counter %u select %u: WRMSR 0x%x=0x%llx, expected only "
		      "ESCR 0x%x and CCCR 0x%x", ctr, sel, a->reg,
		      (unsigned long long)a->value, msr, NBT_MSR_CCCR(ctr));
	}
}

/* Under the model, the registers hold what was written. */
static void check_readback(struct tcase *t, unsigned ctr, unsigned sel,
			   uint32_t msr, uint64_t escr, uint64_t cccr)
{
	uint64_t c = 0, x = 0, direct = 0;
	struct pmu_err e;

	if (!check(t, nb_start(ctr, &e) == 0, "start %u: %s", ctr, e.msg))
		return;
	check(t, nb_read_cccr(ctr, &c, &e) == 0 &&
	      c == (cccr | NBT_CCCR_ENABLE), "counter %u select %u: CCCR reads "
	      "0x%llx, expected 0x%llx", ctr, sel, (unsigned long long)c,
	      (unsigned long long)(cccr | NBT_CCCR_ENABLE));
	check(t, nb_read_escr_of(ctr, &x, &e) == 0 && x == escr &&
	      be_rdmsr(msr, &direct) == 0 && direct == escr, "counter %u "
	      "select %u: ESCR reads 0x%llx (at 0x%x: 0x%llx), expected "
	      "0x%llx", ctr, sel, (unsigned long long)x, msr,
	      (unsigned long long)direct, (unsigned long long)escr);
}

/* One (counter, select); appends "s<sel>:<result>" to line. */
static void one(struct tcase *t, unsigned ctr, unsigned sel, char *line,
		unsigned *len, unsigned size)
{
	static struct nbt_trail tr;
	uint32_t msr = nbt_escr_msr(ctr, sel, nbt_sig());
	const struct sdm_event *ev = msr ? sdm_event_on(nbt_block(ctr), sel)
					 : 0;
	uint64_t escr, cccr = nbt_cccr_sel_any(sel);
	struct pmu_err e = { "", 0 };
	const char *res;
	int rc;

	escr = ev ? nbt_escr_usr(ev->select, ev->emask)
		  : nbt_escr_usr(NBT_INSTR_RETIRED, NBT_NBOGUSNTAG);
	nbt_trail_open(&tr);
	rc = nb_program(ctr, escr, cccr, &e);
	nbt_trail_close();
	if (ev) {
		res = rc ? "REFUSED" : "ok";
		check(t, rc == 0, "counter %u select %u (ESCR 0x%x, %s): "
		      "refused: %s", ctr, sel, msr, ev->name, e.msg);
		if (rc == 0)
			check_writes(t, &tr, ctr, sel, msr, escr);
		if (rc == 0 && pmu_on_model())
			check_readback(t, ctr, sel, msr, escr, cccr);
	} else {
		res = rc ? (msr ? "no-event" : "none") : "ACCEPTED";
		check(t, rc != 0, "counter %u select %u: accepted, but %s",
		      ctr, sel, msr ? "the SDM's event tables have no "
		      "event on the ESCR there" : "Table 18-63 names no ESCR");
		check(t, nbt_trail_writes(&tr) == 0, "counter %u select %u: "
		      "%u WRMSRs for a refused config", ctr, sel,
		      nbt_trail_writes(&tr));
	}
	*len += (unsigned)fmt_snprintf(line + *len, size - *len, "%s%u:%x:%s",
				       *len ? " " : "", sel, msr, res);
	(void)nb_release(ctr, &e);
}

static void run_block(struct tcase *t, unsigned block)
{
	char line[200], key[16];

	if (!nb_ready(t))
		return;
	value(t, "format", "select:ESCR MSR (0: none):result");
	for (unsigned ctr = 0; ctr < NBT_COUNTERS; ctr++) {
		unsigned len = 0;

		if (nbt_block(ctr) != block)
			continue;
		line[0] = 0;
		for (unsigned sel = 0; sel < 8; sel++)
			one(t, ctr, sel, line, &len, sizeof(line));
		fmt_snprintf(key, sizeof(key), "ctr%u", ctr);
		value(t, key, "%s", line);
	}
}

static void test_bpu(struct tcase *t)
{
	run_block(t, NBT_BPU);
}

static void test_ms(struct tcase *t)
{
	run_block(t, NBT_MS);
}

static void test_flame(struct tcase *t)
{
	run_block(t, NBT_FLAME);
}

static void test_iq(struct tcase *t)
{
	run_block(t, NBT_IQ);
}

TEST(nb_escr_select_bpu, "netburst/escr-select-bpu",
     "counters 0-3, ESCR select 0-7: the ESCR Table 18-63 names is "
     "programmed, or the driver refuses", test_bpu, 0);
TEST(nb_escr_select_ms, "netburst/escr-select-ms",
     "counters 4-7, ESCR select 0-7: MS/TC/TBPU at 0-2, none at 3-7",
     test_ms, 0);
TEST(nb_escr_select_flame, "netburst/escr-select-flame",
     "counters 8-11, ESCR select 0-7: FLAME/FIRM/SAAT/U2L/DAC, none at 4, "
     "6, 7", test_flame, 0);
TEST(nb_escr_select_iq, "netburst/escr-select-iq",
     "counters 12-17, ESCR select 0-7: IQ_ESCR on models 0-2 only, SSU "
     "for 12, 13, 16 only, none at 7", test_iq, 0);

/* Every row of the event table on the ESCRs and counters its select
 * names (any model: IQ_ESCR0/1 included). */
static void check_row(struct tcase *t, const struct nb_event *ev)
{
	static const struct cpu_sig early = { .family = 15, .model = 0 };

	check(t, ev->escr[0] || ev->escr[1], "%s: no ESCR", ev->name);
	for (unsigned side = 0; side < 2; side++) {
		check(t, !ev->escr[side] == !ev->ctrs[side], "%s: ESCR%u 0x%x "
		      "with counters 0x%x", ev->name, side, ev->escr[side],
		      ev->ctrs[side]);
		for (unsigned c = 0; c < NBT_COUNTERS; c++) {
			uint32_t want = nbt_escr_msr(c, ev->escr_sel, &early);

			if (!(ev->ctrs[side] >> c & 1))
				continue;
			check(t, want == ev->escr[side], "%s: counter %u with "
			      "select %u takes ESCR 0x%x (Table 18-63), the "
			      "table binds 0x%x", ev->name, c, ev->escr_sel,
			      want, ev->escr[side]);
		}
	}
}

struct binding {
	const char *name;
	unsigned select, escr_sel;
	uint32_t escr0, escr1, emask;
};

static void check_binding(struct tcase *t, const struct binding *b)
{
	const struct nb_event *ev = nb_event_by_name(b->name);

	if (!check(t, ev != NULL, "%s: not in the event table", b->name))
		return;
	check(t, ev->select == b->select && ev->escr_sel == b->escr_sel &&
	      ev->escr[0] == b->escr0 && ev->escr[1] == b->escr1 &&
	      (nb_emask_legal(ev) & b->emask) == b->emask, "%s: select 0x%x "
	      "CCCR select %u ESCRs 0x%x/0x%x mask 0x%x; the SDM: 0x%x, %u, "
	      "0x%x/0x%x, bits 0x%x", b->name, ev->select, ev->escr_sel,
	      ev->escr[0], ev->escr[1], nb_emask_legal(ev), b->select,
	      b->escr_sel, b->escr0, b->escr1, b->emask);
}

static void test_bindings(struct tcase *t)
{
	static const struct binding used[] = {
		{ "instr_retired", NBT_INSTR_RETIRED, NBT_INSTR_RETIRED_SEL,
		  0x3b8, 0x3b9, NBT_NBOGUSNTAG },
		{ "global_power_events", NBT_GLOBAL_POWER,
		  NBT_GLOBAL_POWER_SEL, 0x3a2, 0x3a3, NBT_RUNNING },
		{ "retired_branch_type", NBT_RETIRED_BRANCH_TYPE,
		  NBT_RETIRED_BRANCH_TYPE_SEL, 0x3c2, 0x3c3,
		  NBT_BT_CONDITIONAL | NBT_BT_CALL | NBT_BT_RETURN },
		{ "branch_retired", NBT_BRANCH_RETIRED, NBT_BRANCH_RETIRED_SEL,
		  0x3cc, 0x3cd, NBT_MMNP | NBT_MMNM | NBT_MMTP | NBT_MMTM },
		{ "x87_fp_uop", NBT_X87_FP_UOP, NBT_X87_FP_UOP_SEL, 0x3a4,
		  0x3a5, NBT_X87_ALL },
	};

	value(t, "events", "%u", nb_n_events);
	for (unsigned i = 0; i < nb_n_events; i++)
		check_row(t, &nb_events[i]);
	for (unsigned i = 0; i < sizeof(used) / sizeof(used[0]); i++)
		check_binding(t, &used[i]);
}

TEST(nb_event_bindings, "netburst/event-escr-bindings",
     "every event sits on the ESCRs and counters its CCCR select names "
     "(Table 18-63)", test_bindings, 0);
