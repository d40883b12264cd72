/* netburst/cascade-<from>-<to>: cascading (SDM Vol. 3B §18.15.5.6, order
 * no. 253669-060US, and its Example 18-1): counter `to` has CASCADE set
 * and ENABLE clear, and starts counting when its alternate `from`
 * overflows.  Every legal pair of the section is tested: 0/2, 1/3, 4/6,
 * 5/7, 8/10, 9/11, 12/14, 13/15 in either order, 14->16 and 15->17.
 *
 * Both counters count the same event of their block; X (from) is preset
 * to 2^40 - K, Y (to) to 0, and two runs follow:
 *   run 1, N1 < K events: X = 2^40 - K + N1, OVF clear, and Y still 0 (it
 *   has not started: "did not count before");
 *   run 2, N2 events with N1 + N2 > K: X wraps at its K-th event and sets
 *   OVF; Y counts every event after that one.  X = N1 + N2 - K (mod 2^40),
 *   and, each step adding 0 or 1 event, Y = N1 + N2 - K as well: the
 *   step that overflows X is not Y's, the next one is (the model starts a
 *   cascaded counter on the clock after the overflow, pmu/netburst/model.c).
 *   That hand-off clock is the model's convention, not the SDM's: on
 *   hardware Y is N1 + N2 - K - 2 .. N1 + N2 - K (nbt_handoff(): Y may
 *   miss what retired in X's overflow clock after the wrap, at most the
 *   retirement width, 3 per clock, less one).
 *
 * Events per block (nb_test.h's bindings, all at CPL 3 of thread 0):
 *   BPU 0-3: global_power_events RUNNING - clocks: the model clock (one per
 *     traced step); on hardware the machine's clocks, a range;
 *   MS 4-7: retired_branch_type CONDITIONAL|CALL|RETURN - the oracle's
 *     conditional branches, calls and returns, exact on hardware as well;
 *   FLAME 8-11: x87_FP_uop ALL through the CCCR's COMPARE + COMPLEMENT with
 *     threshold 0: 1 for every clock in which the ESCR delivered <= 0
 *     x87 uops.  The benchmarks execute no x87 instruction, so on hardware
 *     every clock counts too; the model delivers 0 for an event the trace
 *     cannot see (pmu/netburst/model.c), so every traced step counts;
 *   IQ 12-17: instr_retired NBOGUSNTAG - retired instructions, exact on
 *     hardware as well.
 * On hardware (and backend=emulated) each run's count of MS and IQ has
 * the ring-3 trampoline's share too: its CALL (1 near call, 2
 * instructions with the INT; nbt_usr_count()).
 */
#include "nb_test.h"

/* The initiator of ctr's bit 11 (Table 18-65: CASCNTxINTOy "allow
 * counter x to cascade into counter y", x and y numbering IQ_COUNTER0-5,
 * i.e. counters 12-17): CASCNT4INTO0 16 -> 12, CASCNT5INTO3 17 -> 15,
 * CASCNT5INTO4 17 -> 16, CASCNT4INTO5 16 -> 17; -1 for none. */
static int nbt_ext_cascade_from(unsigned ctr)
{
	static const signed char from[NBT_COUNTERS] = {
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		16, -1, -1, 17, 17, 16,
	};

	return ctr < NBT_COUNTERS ? from[ctr] : -1;
}

/* The name of a block of counters (nb_test.h's NBT_BPU ...). */
static const char *nbt_block_name(unsigned block)
{
	switch (block) {
	case NBT_BPU: return "BPU";
	case NBT_MS: return "MS";
	case NBT_FLAME: return "FLAME";
	default: return "IQ";
	}
}

/* Cascading (§18.15.5.6): in each block of four counters n and n+2
 * cascade in either order; in the IQ block 12/14 and 13/15 likewise, 16
 * only from 14 and 17 only from 15 (14 cannot be cascaded from 16, nor 15
 * from 17).  No pair crosses a block. */
struct nbt_pair {
	unsigned from, to;
};

#define NBT_N_CASCADES 18

static const struct nbt_pair *nbt_cascades(void)
{
	static const struct nbt_pair pairs[NBT_N_CASCADES] = {
		{ 0, 2 }, { 2, 0 }, { 1, 3 }, { 3, 1 },
		{ 4, 6 }, { 6, 4 }, { 5, 7 }, { 7, 5 },
		{ 8, 10 }, { 10, 8 }, { 9, 11 }, { 11, 9 },
		{ 12, 14 }, { 14, 12 }, { 13, 15 }, { 15, 13 },
		{ 14, 16 }, { 15, 17 },
	};

	return pairs;
}

/* Is cascading from counter from into counter to legal (§18.15.5.6)? */
static int nbt_cascade_legal(unsigned from, unsigned to)
{
	const struct nbt_pair *p = nbt_cascades();

	for (unsigned i = 0; i < NBT_N_CASCADES; i++)
		if (p[i].from == from && p[i].to == to)
			return 1;
	return 0;
}

#define CASCADE_BENCH "call-ret"
#define RUN1_N 4
#define RUN2_N 40
#define K 50

struct block_event {
	const char *what;
	unsigned event, escr_sel, emask;
	unsigned every_clock;	/* COMPARE + COMPLEMENT, threshold 0 */
	unsigned exact_on_hw;	/* an event count, not clocks */
};

static const struct block_event block_events[] = {
	[NBT_BPU] = { .what = "global_power_events RUNNING (clocks)",
		      .event = NBT_GLOBAL_POWER,
		      .escr_sel = NBT_GLOBAL_POWER_SEL,
		      .emask = NBT_RUNNING },
	[NBT_MS] = { .what = "retired_branch_type CONDITIONAL|CALL|RETURN",
		     .event = NBT_RETIRED_BRANCH_TYPE,
		     .escr_sel = NBT_RETIRED_BRANCH_TYPE_SEL,
		     .emask = NBT_BT_CONDITIONAL | NBT_BT_CALL | NBT_BT_RETURN,
		     .exact_on_hw = 1 },
	[NBT_FLAME] = { .what = "x87_FP_uop ALL <= 0 (every clock)",
			.event = NBT_X87_FP_UOP, .escr_sel = NBT_X87_FP_UOP_SEL,
			.emask = NBT_X87_ALL, .every_clock = 1 },
	[NBT_IQ] = { .what = "instr_retired NBOGUSNTAG",
		     .event = NBT_INSTR_RETIRED,
		     .escr_sel = NBT_INSTR_RETIRED_SEL,
		     .emask = NBT_NBOGUSNTAG, .exact_on_hw = 1 },
};

static uint64_t block_escr(const struct block_event *b)
{
	return nbt_escr_usr(b->event, b->emask);
}

static uint64_t block_cccr(const struct block_event *b)
{
	return nbt_cccr((struct nbt_cccr){ .escr_sel = b->escr_sel,
					   .active = NBT_ANY,
					   .compare = b->every_clock,
					   .complement = b->every_clock });
}

/* What the block's event counts in a run, by the oracle. */
static uint64_t block_count(const struct block_event *b,
			    const struct oracle_counts *oc)
{
	const uint64_t *c3 = oc->c[3];
	uint64_t n = 0;

	if (b->every_clock) {
		for (unsigned cpl = 0; cpl < 4; cpl++)
			n += oc->c[cpl][SEM_CLOCKS];
		return n;
	}
	switch (b->event) {
	case NBT_GLOBAL_POWER:
		return c3[SEM_CLOCKS];
	case NBT_RETIRED_BRANCH_TYPE:
		return nbt_usr_count(oc, SEM_COND) +
		       nbt_usr_count(oc, SEM_CALLS) +
		       nbt_usr_count(oc, SEM_RETURNS);
	default:
		return nbt_usr_count(oc, SEM_INSTRUCTIONS);
	}
}

struct cascade_run {
	unsigned from, to;
	const struct block_event *b;
	struct nbt_trail tr;
	struct oracle_counts oc1, oc2;
	uint64_t x1, y1, x2, y2, cccr_x1, cccr_y0, cccr_x2, cccr_y2;
};

static int rd(struct tcase *t, unsigned ctr, uint64_t *v, uint64_t *cccr)
{
	struct pmu_err e;

	return check(t, nb_read(ctr, v, &e) == 0 &&
		     nb_read_cccr(ctr, cccr, &e) == 0, "read counter %u: %s",
		     ctr, e.msg);
}

/* X preset 2^40 - K, Y cascaded from X preset 0; Y armed first so that
 * it is waiting when X starts. */
static int setup(struct tcase *t, struct cascade_run *c)
{
	uint64_t escr = block_escr(c->b), cccr = block_cccr(c->b);
	struct pmu_err e = { "", 0 };
	int ok;

	nbt_trail_open(&c->tr);
	ok = nb_program(c->from, escr, cccr, &e) == 0 &&
	     nb_write(c->from, NBT_TOP - K, &e) == 0 &&
	     nb_program_cascaded(c->from, c->to, escr, cccr, &e) == 0 &&
	     nb_write(c->to, 0, &e) == 0 && nb_start(c->to, &e) == 0 &&
	     nb_start(c->from, &e) == 0;
	nbt_trail_close();
	return check(t, ok, "cascade %u->%u setup: %s", c->from, c->to,
		     e.msg);
}

static int run(struct tcase *t, struct cascade_run *c)
{
	struct pmu_err e;
	uint64_t y0 = 0, cccr_y1 = 0;

	if (!pmu_oracle_first(t, CASCADE_BENCH, RUN1_N, &c->oc1) ||
	    !pmu_oracle_first(t, CASCADE_BENCH, RUN2_N, &c->oc2) ||
	    !setup(t, c) ||
	    !rd(t, c->to, &y0, &c->cccr_y0) ||
	    !pmu_exec(t, CASCADE_BENCH, RUN1_N, &c->oc1) ||
	    !rd(t, c->from, &c->x1, &c->cccr_x1) ||
	    !rd(t, c->to, &c->y1, &cccr_y1) ||
	    !pmu_exec(t, CASCADE_BENCH, RUN2_N, &c->oc2))
		return 0;
	/* Y first: with X stopped but its OVF set, Y would go on. */
	if (!check(t, nb_stop(c->to, &e) == 0 && nb_stop(c->from, &e) == 0,
		   "stop: %s", e.msg) ||
	    !rd(t, c->from, &c->x2, &c->cccr_x2) ||
	    !rd(t, c->to, &c->y2, &c->cccr_y2))
		return 0;
	value(t, "ctr_to_before_run", "%llu", (unsigned long long)y0);
	return 1;
}

/* Model, or an exactly countable event on hardware. */
static void check_exact(struct tcase *t, struct cascade_run *c)
{
	uint64_t n1 = block_count(c->b, &c->oc1);
	uint64_t n2 = block_count(c->b, &c->oc2);
	struct pmu_expect x1 = nbt_exact(n1), y1 = nbt_exact(0);
	struct pmu_expect x2 = nbt_exact(n1 + n2), y2;

	value(t, "oracle_events", "run 1: %llu, run 2: %llu, K = %u",
	      (unsigned long long)n1, (unsigned long long)n2, K);
	if (!check(t, n1 < K && n1 + n2 > K, "the benchmark does not fit K: "
		   "%llu + %llu events, K = %u", (unsigned long long)n1,
		   (unsigned long long)n2, K))
		return;
	y2 = nbt_handoff(n1 + n2, K);
	nbt_check_count(t, "run1", c->from, NBT_TOP - K, c->x1, &x1);
	nbt_check_count(t, "run1", c->to, 0, c->y1, &y1);
	nbt_check_count(t, "run2", c->from, NBT_TOP - K, c->x2, &x2);
	nbt_check_count(t, "run2", c->to, 0, c->y2, &y2);
	check(t, !(c->cccr_x1 & NBT_CCCR_OVF), "counter %u's OVF set after "
	      "run 1 (%llu of K = %u events): CCCR 0x%llx", c->from,
	      (unsigned long long)n1, K, (unsigned long long)c->cccr_x1);
}

/* Clocks on hardware: Y counted the clocks after X's overflow, so no
 * more than X after its wrap, and some. */
static void check_clocks_hw(struct tcase *t, struct cascade_run *c)
{
	struct pmu_expect y = { 1, c->x2, "clocks: the cascaded counter "
				"counts the clocks after its alternate "
				"wrapped, at most the alternate's count "
				"since the wrap" };

	value(t, "tolerance", "%s", y.tolerance);
	check(t, c->x2 < NBT_TOP / 2, "counter %u 0x%llx did not wrap",
	      c->from, (unsigned long long)c->x2);
	nbt_check_count(t, "run2", c->to, 0, c->y2, &y);
}

static void run_cascade(struct tcase *t, unsigned from, unsigned to)
{
	static struct cascade_run c;
	struct pmu_err e;

	if (!nb_ready(t))
		return;
	c = (struct cascade_run){ .from = from, .to = to,
				  .b = &block_events[nbt_block(to)] };
	value(t, "pair", "%u -> %u (%s block), SDM legal: %s", from, to,
	      nbt_block_name(nbt_block(to)),
	      nbt_cascade_legal(from, to) ? "yes" : "no");
	value(t, "event", "%s", c.b->what);
	if (c.b->every_clock)
		value(t, "every_clock", "the benchmark executes no x87 "
		      "instruction and the model delivers 0 for an event the "
		      "trace cannot see: <= 0 holds in every clock");
	if (!run(t, &c))
		goto out;
	nbt_log_regs(t, NULL, &c.tr, from);
	nbt_log_regs(t, NULL, &c.tr, to);
	value(t, "cccr_to_armed", "0x%llx", (unsigned long long)c.cccr_y0);
	value(t, "cccr_from_end", "0x%llx", (unsigned long long)c.cccr_x2);
	check(t, (c.cccr_y0 & NBT_CCCR_CASCADE) &&
	      !(c.cccr_y0 & NBT_CCCR_ENABLE), "counter %u armed: CCCR 0x%llx,"
	      " expected CASCADE set and ENABLE clear", to,
	      (unsigned long long)c.cccr_y0);
	check(t, !!(c.cccr_x2 & NBT_CCCR_OVF), "counter %u wrapped but its "
	      "OVF is clear: CCCR 0x%llx", from,
	      (unsigned long long)c.cccr_x2);
	check(t, !(c.cccr_y2 & NBT_CCCR_OVF), "counter %u's OVF set: CCCR "
	      "0x%llx", to, (unsigned long long)c.cccr_y2);
	if (pmu_on_model() || c.b->exact_on_hw)
		check_exact(t, &c);
	else
		check_clocks_hw(t, &c);
out:
	(void)nb_release(to, &e);
	(void)nb_release(from, &e);
}

#define CASCADE(f, to)                                                       \
	static void cascade_##f##_##to(struct tcase *t)                      \
	{                                                                    \
		run_cascade(t, f, to);                                       \
	}                                                                    \
	TEST(nb_cascade_##f##_##to, "netburst/cascade-" #f "-" #to,          \
	     "counter " #to " with CASCADE starts when counter " #f          \
	     " overflows (SDM 18.15.5.6)", cascade_##f##_##to, 0)

CASCADE(0, 2);
CASCADE(2, 0);
CASCADE(1, 3);
CASCADE(3, 1);
CASCADE(4, 6);
CASCADE(6, 4);
CASCADE(5, 7);
CASCADE(7, 5);
CASCADE(8, 10);
CASCADE(10, 8);
CASCADE(9, 11);
CASCADE(11, 9);
CASCADE(12, 14);
CASCADE(14, 12);
CASCADE(13, 15);
CASCADE(15, 13);
CASCADE(14, 16);
CASCADE(15, 17);

/*
 * netburst/cascade-rejected-<from>-<to>: pairs §18.15.5.6 does not allow -
 * 16 only from 14 (not from 12), 14 not from 16, 17 only from 15, 15 not
 * from 17; nothing across blocks; nothing within one half of a block.
 * nb_program_cascaded() refuses them and writes nothing; the same config
 * on the same counter without cascading is accepted (so the pair is the
 * reason).
 */
static void run_rejected(struct tcase *t, unsigned from, unsigned to)
{
	const struct block_event *b = &block_events[nbt_block(to)];
	static struct nbt_trail tr;
	struct pmu_err e = { "", 0 };
	int rc;

	if (!nb_ready(t))
		return;
	value(t, "pair", "%u -> %u, SDM legal: %s", from, to,
	      nbt_cascade_legal(from, to) ? "yes" : "no");
	if (!check(t, !nbt_cascade_legal(from, to), "%u -> %u is a legal "
		   "pair: the test is wrong", from, to))
		return;
	nbt_trail_open(&tr);
	rc = nb_program_cascaded(from, to, block_escr(b), block_cccr(b), &e);
	nbt_trail_close();
	nbt_refused(t, "refusal", rc, &e, &tr);
	check(t, nb_program(to, block_escr(b), block_cccr(b), &e) == 0,
	      "the config alone on counter %u: %s", to, e.msg);
	(void)nb_release(to, &e);
}

#define REJECTED(f, to)                                                      \
	static void rejected_##f##_##to(struct tcase *t)                     \
	{                                                                    \
		run_rejected(t, f, to);                                      \
	}                                                                    \
	TEST(nb_rejected_##f##_##to, "netburst/cascade-rejected-" #f "-" #to,\
	     "cascading " #f " -> " #to " is not allowed (SDM 18.15.5.6): "  \
	     "refused, nothing written", rejected_##f##_##to, 0)

REJECTED(12, 16);
REJECTED(16, 14);
REJECTED(13, 17);
REJECTED(17, 15);
REJECTED(3, 4);
REJECTED(11, 12);
REJECTED(0, 1);
REJECTED(14, 15);

/*
 * netburst/ext-cascade-<from>-<to>: extended cascading (SDM Vol. 3B
 * §18.15.5.7, Table 18-65, Example 18-2): CCCR bit 11 is CASCNTxINTOy,
 * "allow counter x to cascade into counter y" (x, y: IQ_COUNTER0-5 =
 * counters 12-17), in IQ_CCCR0 (16 -> 12), IQ_CCCR3 (17 -> 15), IQ_CCCR4
 * (17 -> 16) and IQ_CCCR5 (16 -> 17), on DisplayFamily_DisplayModel
 * 0F_02, 0F_03, 0F_04 and 0F_06.  As in Example 18-2 the cascaded counter
 * has bit 11 set, ENABLE and CASCADE clear; it counts from its
 * initiator's overflow on, as a cascaded counter does: the same two runs
 * and expectations as netburst/cascade-*, instr_retired NBOGUSNTAG on
 * both.  The driver does not program bit 11 (docs/netburst.md): the test
 * writes it raw, nb_write_cccr_raw.  On the other family 15 models bit 11
 * of these CCCRs is reserved: the write must raise #GP(0).
 */
static int ext_setup(struct tcase *t, struct cascade_run *c, uint64_t *armed)
{
	uint64_t escr = block_escr(c->b), cccr = block_cccr(c->b);
	struct pmu_err e = { "", 0 };
	int ok;

	nbt_trail_open(&c->tr);
	ok = nb_program(c->from, escr, cccr, &e) == 0 &&
	     nb_write(c->from, NBT_TOP - K, &e) == 0 &&
	     nb_program(c->to, escr, cccr, &e) == 0 &&
	     nb_write(c->to, 0, &e) == 0 &&
	     nb_write_cccr_raw(c->to, cccr | NBT_CCCR_EXT_CASCADE, &e) == 0 &&
	     nb_start(c->from, &e) == 0;
	nbt_trail_close();
	*armed = cccr | NBT_CCCR_EXT_CASCADE;
	return check(t, ok, "extended cascade %u->%u setup: %s", c->from,
		     c->to, e.msg);
}

static int ext_run(struct tcase *t, struct cascade_run *c)
{
	struct pmu_err e = { "", 0 };
	uint64_t armed = 0, y0 = 0, cccr_y1 = 0;

	if (!pmu_oracle_first(t, CASCADE_BENCH, RUN1_N, &c->oc1) ||
	    !pmu_oracle_first(t, CASCADE_BENCH, RUN2_N, &c->oc2) ||
	    !ext_setup(t, c, &armed) ||
	    !rd(t, c->to, &y0, &c->cccr_y0) ||
	    !pmu_exec(t, CASCADE_BENCH, RUN1_N, &c->oc1) ||
	    !rd(t, c->from, &c->x1, &c->cccr_x1) ||
	    !rd(t, c->to, &c->y1, &cccr_y1) ||
	    !pmu_exec(t, CASCADE_BENCH, RUN2_N, &c->oc2))
		return 0;
	/* Y first (bit 11 cleared), then X */
	if (!check(t, nb_write_cccr_raw(c->to, armed & ~NBT_CCCR_EXT_CASCADE,
					&e) == 0 &&
		   nb_stop(c->from, &e) == 0, "stop: %s", e.msg) ||
	    !rd(t, c->from, &c->x2, &c->cccr_x2) ||
	    !rd(t, c->to, &c->y2, &c->cccr_y2))
		return 0;
	value(t, "ctr_to_before_run", "%llu", (unsigned long long)y0);
	return 1;
}

/* Without the feature: bit 11 of `to`'s CCCR is reserved. */
static void ext_reserved(struct tcase *t, unsigned to)
{
	uint64_t v = nbt_cccr_sel_any(NBT_INSTR_RETIRED_SEL) |
		     NBT_CCCR_EXT_CASCADE;
	struct pmu_err e = { "", 0 };
	int rc = nb_write_cccr_raw(to, v, &e);

	value(t, "ext_cascade", "not on 0F_%02X: bit 11 reserved",
	      nbt_sig()->model);
	value(t, "write", "CCCR %u = 0x%llx: %s", to, (unsigned long long)v,
	      rc ? e.msg : "accepted");
	check(t, rc != 0 && e.vector == NBT_VEC_GP, "CCCR %u bit 11 on 0F_%02X"
	      ": rc %d vector %d, expected #GP(0) (reserved there)", to,
	      nbt_sig()->model, rc, rc ? e.vector : 0);
}

static void run_ext_cascade(struct tcase *t, unsigned from, unsigned to)
{
	static struct cascade_run c;
	struct pmu_err e;

	if (!nb_ready(t))
		return;
	c = (struct cascade_run){ .from = from, .to = to,
				  .b = &block_events[NBT_IQ] };
	value(t, "pair", "%u -> %u by CCCR %u bit 11, Table 18-65: %s", from,
	      to, to, nbt_ext_cascade_from(to) == (int)from ? "yes" : "no");
	if (!check(t, nbt_ext_cascade_from(to) == (int)from, "%u -> %u is no "
		   "CASCNTxINTOy pair: the test is wrong", from, to))
		return;
	if (!nbt_ext_cascade_bit(to, nbt_sig())) {
		ext_reserved(t, to);
		goto out;
	}
	value(t, "event", "%s", c.b->what);
	if (!ext_run(t, &c))
		goto out;
	nbt_log_regs(t, NULL, &c.tr, from);
	nbt_log_regs(t, NULL, &c.tr, to);
	value(t, "cccr_to_armed", "0x%llx", (unsigned long long)c.cccr_y0);
	check(t, (c.cccr_y0 & NBT_CCCR_EXT_CASCADE) &&
	      !(c.cccr_y0 & (NBT_CCCR_ENABLE | NBT_CCCR_CASCADE)),
	      "counter %u armed: CCCR 0x%llx, expected bit 11 set, ENABLE "
	      "and CASCADE clear", to, (unsigned long long)c.cccr_y0);
	check(t, !!(c.cccr_x2 & NBT_CCCR_OVF), "counter %u wrapped but its "
	      "OVF is clear: CCCR 0x%llx", from,
	      (unsigned long long)c.cccr_x2);
	check_exact(t, &c);
out:
	(void)nb_release(to, &e);
	(void)nb_release(from, &e);
}

#define EXT_CASCADE(f, to)                                                   \
	static void ext_cascade_##f##_##to(struct tcase *t)                  \
	{                                                                    \
		run_ext_cascade(t, f, to);                                   \
	}                                                                    \
	TEST(nb_ext_cascade_##f##_##to, "netburst/ext-cascade-" #f "-" #to,  \
	     "counter " #to " with CCCR bit 11 (CASCNTxINTOy) starts when "   \
	     "counter " #f " overflows (SDM 18.15.5.7, Table 18-65)",         \
	     ext_cascade_##f##_##to, 0)

EXT_CASCADE(16, 12);
EXT_CASCADE(17, 15);
EXT_CASCADE(17, 16);
EXT_CASCADE(16, 17);
