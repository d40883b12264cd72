/* netburst/halt-*: halting event counting (SDM Vol. 3B §18.15.5.5, order
 * no. 253669-060US): "To halt counting, the CCCR enable flag for the
 * counter must be cleared", and "To halt a cascaded counter (a counter
 * that was started when its alternate counter overflowed), either clear
 * the Cascade flag in the cascaded counter's CCCR MSR or clear the OVF
 * flag in the alternate counter's CCCR MSR."
 *
 * All three count instr_retired NBOGUSNTAG at CPL 3 on IQ counters (12,
 * and 14 cascaded from 12): exact on the model and on hardware, where the
 * driver's and the test's CCCR writes run at CPL 0, which T0_USR leaves
 * out.  The CCCRs are written raw (nb_write_cccr_raw), the SDM's WRMSR,
 * not the driver's stop(). */
#include "nb_test.h"

#define X 12
#define Y 14
#define K 10

struct halt {
	struct nbt_trail tr;
	struct oracle_counts a, b, c;
};

static uint64_t escr_instr(void)
{
	return nbt_escr_usr(NBT_INSTR_RETIRED, NBT_NBOGUSNTAG);
}

static uint64_t cccr_instr(void)
{
	return nbt_cccr_sel_any(NBT_INSTR_RETIRED_SEL);
}

static int rd(struct tcase *t, unsigned ctr, uint64_t *v)
{
	struct pmu_err e;

	return check(t, nb_read(ctr, v, &e) == 0, "read %u: %s", ctr, e.msg);
}

static int rd_cccr(struct tcase *t, unsigned ctr, uint64_t *v)
{
	struct pmu_err e;

	return check(t, nb_read_cccr(ctr, v, &e) == 0, "CCCR %u: %s", ctr,
		     e.msg);
}

/* The CCCR of ctr with bits clear cleared and set set, written raw. */
static int cccr_change(struct tcase *t, unsigned ctr, uint64_t clear,
		       uint64_t set, const char *key)
{
	uint64_t v = 0;
	struct pmu_err e;

	if (!rd_cccr(t, ctr, &v))
		return 0;
	v = (v & ~clear) | set;
	value(t, key, "0x%llx", (unsigned long long)v);
	return check(t, nb_write_cccr_raw(ctr, v, &e) == 0, "WRMSR CCCR %u = "
		     "0x%llx: %s", ctr, (unsigned long long)v, e.msg);
}

static uint64_t instrs(const struct oracle_counts *oc)
{
	return nbt_usr_count(oc, SEM_INSTRUCTIONS);
}

static int oracles(struct tcase *t, struct halt *h)
{
	return pmu_oracle_first(t, "counted-loop", 30, &h->a) &&
	       pmu_oracle_first(t, "call-ret", 20, &h->b) &&
	       pmu_oracle_first(t, "nops", 10, &h->c);
}

/* netburst/halt-enable-clear: count run A; clear ENABLE; run B: the
 * count stays; set ENABLE again; run C: it goes on from there. */
static void test_enable(struct tcase *t)
{
	static struct halt h;
	uint64_t va = 0, vb = 0, vc = 0;
	struct pmu_expect xa, xc;
	struct pmu_err e = { "", 0 };
	int ok;

	if (!nb_ready(t) || !oracles(t, &h))
		return;
	nbt_trail_open(&h.tr);
	ok = nb_program(X, escr_instr(), cccr_instr(), &e) == 0 &&
	     nb_start(X, &e) == 0;
	nbt_trail_close();
	if (!check(t, ok, "setup: %s", e.msg) ||
	    !pmu_exec(t, "counted-loop", 30, &h.a) || !rd(t, X, &va) ||
	    !cccr_change(t, X, NBT_CCCR_ENABLE, 0, "cccr_halted") ||
	    !pmu_exec(t, "call-ret", 20, &h.b) || !rd(t, X, &vb) ||
	    !cccr_change(t, X, 0, NBT_CCCR_ENABLE, "cccr_resumed") ||
	    !pmu_exec(t, "nops", 10, &h.c) || !rd(t, X, &vc))
		goto out;
	nbt_log_regs(t, NULL, &h.tr, X);
	xa = nbt_exact(instrs(&h.a));
	xc = nbt_exact(instrs(&h.a) + instrs(&h.c));
	nbt_check_count(t, "run_a", X, 0, va, &xa);
	nbt_check_count(t, "run_b_halted", X, 0, vb, &xa);
	nbt_check_count(t, "run_c", X, 0, vc, &xc);
	value(t, "halted_run", "call-ret: %llu instructions not counted",
	      (unsigned long long)instrs(&h.b));
out:
	(void)nb_release(X, &e);
}

TEST(nb_halt_enable, "netburst/halt-enable-clear",
     "clearing the CCCR's ENABLE halts the counter; setting it resumes "
     "(SDM 18.15.5.5)", test_enable, 0);

/* Y cascaded from X, X preset 2^40 - K: after run A both hold A - K on
 * the model; Y A - K - 2 .. A - K on hardware (nbt_handoff(): the
 * hand-off clock is the model's convention, the SDM does not state it). */
static int cascade_setup(struct tcase *t, struct halt *h)
{
	struct pmu_err e = { "", 0 };
	int ok;

	nbt_trail_open(&h->tr);
	ok = nb_program(X, escr_instr(), cccr_instr(), &e) == 0 &&
	     nb_write(X, NBT_TOP - K, &e) == 0 &&
	     nb_program_cascaded(X, Y, escr_instr(), cccr_instr(), &e) == 0 &&
	     nb_start(Y, &e) == 0 && nb_start(X, &e) == 0;
	nbt_trail_close();
	return check(t, ok, "setup: %s", e.msg);
}

/* After run A (X wrapped, Y counting) halt Y by `how`, run B: Y keeps its
 * count, X counts on. */
static void halt_cascaded(struct tcase *t, int clear_ovf)
{
	static struct halt h;
	uint64_t xa = 0, ya = 0, xb = 0, yb = 0, cccr_x = 0, cccr_y = 0;
	struct pmu_expect ea, eb;
	struct pmu_err e = { "", 0 };
	int ok;

	if (!nb_ready(t) || !oracles(t, &h) || !cascade_setup(t, &h) ||
	    !pmu_exec(t, "counted-loop", 30, &h.a) || !rd(t, X, &xa) ||
	    !rd(t, Y, &ya))
		goto out;
	if (clear_ovf)
		ok = check(t, nb_clear_ovf(X, &e) == 0, "clear OVF of %u: %s",
			   X, e.msg);
	else
		ok = cccr_change(t, Y, NBT_CCCR_CASCADE, 0, "cccr_halted");
	if (!ok || !pmu_exec(t, "call-ret", 20, &h.b) || !rd(t, X, &xb) ||
	    !rd(t, Y, &yb) || !rd_cccr(t, X, &cccr_x) ||
	    !rd_cccr(t, Y, &cccr_y))
		goto out;
	nbt_log_regs(t, NULL, &h.tr, X);
	nbt_log_regs(t, NULL, &h.tr, Y);
	value(t, "cccr_x_end", "0x%llx", (unsigned long long)cccr_x);
	value(t, "cccr_y_end", "0x%llx", (unsigned long long)cccr_y);
	if (!check(t, instrs(&h.a) > K, "run A has %llu instructions, K = %u",
		   (unsigned long long)instrs(&h.a), K))
		goto out;
	ea = nbt_exact(instrs(&h.a));
	eb = nbt_exact(instrs(&h.a) + instrs(&h.b));
	nbt_check_count(t, "run_a", X, NBT_TOP - K, xa, &ea);
	ea = nbt_handoff(instrs(&h.a), K);
	nbt_check_count(t, "run_a", Y, 0, ya, &ea);
	nbt_check_count(t, "run_b", X, NBT_TOP - K, xb, &eb);
	eb = nbt_exact(ya);	/* halted: what it held after run A */
	nbt_check_count(t, "run_b_halted", Y, 0, yb, &eb);
	if (clear_ovf) {
		check(t, !(cccr_x & NBT_CCCR_OVF), "OVF of %u set again: 0x%llx"
		      " (it did not wrap twice)", X,
		      (unsigned long long)cccr_x);
		check(t, !!(cccr_y & NBT_CCCR_CASCADE), "CASCADE of %u gone: "
		      "0x%llx (only the alternate's OVF was cleared)", Y,
		      (unsigned long long)cccr_y);
	} else {
		check(t, !!(cccr_x & NBT_CCCR_OVF), "OVF of %u clear: 0x%llx "
		      "(only the cascaded counter's CASCADE was cleared)", X,
		      (unsigned long long)cccr_x);
	}
out:
	(void)nb_release(Y, &e);
	(void)nb_release(X, &e);
}

static void test_cascade_clear(struct tcase *t)
{
	halt_cascaded(t, 0);
}

static void test_alternate_ovf(struct tcase *t)
{
	halt_cascaded(t, 1);
}

TEST(nb_halt_cascade, "netburst/halt-cascade-clear",
     "a cascaded counter halts when its CASCADE flag is cleared "
     "(SDM 18.15.5.5)", test_cascade_clear, 0);
TEST(nb_halt_alt_ovf, "netburst/halt-alternate-ovf-clear",
     "a cascaded counter halts when its alternate's OVF flag is cleared "
     "(SDM 18.15.5.5)", test_alternate_ovf, 0);
