/* netburst/ovf-sticky, netburst/force-ovf: the CCCR's OVF flag (bit 31)
 * and FORCE_OVF (bit 25), SDM Vol. 3B §18.15.3 and §18.15.5.5, order no.
 * 253669-060US:
 *   - "The OVF flag is a sticky flag that indicates that the counter has
 *     overflowed at least once since the OVF bit was last cleared": it
 *     stays set through more counting and through reads, until software
 *     writes the CCCR with OVF clear;
 *   - FORCE_OVF "forces a counter overflow on every counter increment":
 *     OVF is set by the first increment though the counter does not wrap,
 *     and a counter that does not increment does not overflow.
 * The counters count events at CPL 3 only (instr_retired NBOGUSNTAG on
 * IQ counters, retired_branch_type CONDITIONAL on MS counter 4): exact on
 * hardware too, the driver running at CPL 0. */
#include "nb_test.h"

#define K 10

static uint64_t instrs(const struct oracle_counts *oc)
{
	return nbt_usr_count(oc, SEM_INSTRUCTIONS);
}

static void log_cccr(struct tcase *t, const char *key, uint64_t v)
{
	value(t, key, "0x%llx (OVF %u)", (unsigned long long)v,
	      (unsigned)(v >> 31 & 1));
}

/*
 * Counter 12 preset 2^40 - K: run A wraps it (OVF set); two reads of the
 * CCCR and one of the counter; run B counts on without wrapping again (OVF
 * still set); clearing OVF leaves ENABLE and the rest; run C counts with
 * OVF clear.  Counter 12 = A + B + C - K at the end.
 */
static void test_sticky(struct tcase *t)
{
	static struct nbt_trail tr;
	static struct oracle_counts a, b, c;
	uint64_t va = 0, vb = 0, vc = 0, ca = 0, ca2 = 0, cb = 0, cc = 0;
	struct pmu_expect x = { 0 };
	struct pmu_err e = { "", 0 };
	unsigned ctr = 12;
	int ok;

	if (!nb_ready(t) || !pmu_oracle_first(t, "counted-loop", 30, &a) ||
	    !pmu_oracle_first(t, "call-ret", 20, &b) ||
	    !pmu_oracle_first(t, "nops", 10, &c))
		return;
	nbt_trail_open(&tr);
	ok = nb_program(ctr, nbt_escr_usr(NBT_INSTR_RETIRED, NBT_NBOGUSNTAG),
			nbt_cccr_sel_any(NBT_INSTR_RETIRED_SEL), &e) == 0 &&
	     nb_write(ctr, NBT_TOP - K, &e) == 0 && nb_start(ctr, &e) == 0;
	nbt_trail_close();
	if (!check(t, ok, "setup: %s", e.msg) ||
	    !pmu_exec(t, "counted-loop", 30, &a) || !nbt_read_ctr_cccr(t, ctr, &va, &ca) ||
	    !nbt_read_ctr_cccr(t, ctr, &va, &ca2) || !pmu_exec(t, "call-ret", 20, &b) ||
	    !nbt_read_ctr_cccr(t, ctr, &vb, &cb) ||
	    !check(t, nb_clear_ovf(ctr, &e) == 0, "clear OVF: %s", e.msg) ||
	    !pmu_exec(t, "nops", 10, &c) || !nbt_read_ctr_cccr(t, ctr, &vc, &cc))
		goto out;
	nbt_log_regs(t, NULL, &tr, ctr);
	log_cccr(t, "cccr_after_wrap", ca);
	log_cccr(t, "cccr_reread", ca2);
	log_cccr(t, "cccr_after_more", cb);
	log_cccr(t, "cccr_after_clear", cc);
	if (!check(t, instrs(&a) > K, "run A: %llu instructions, K = %u",
		   (unsigned long long)instrs(&a), K))
		goto out;
	x = nbt_exact(instrs(&a));
	nbt_check_count(t, "run_a", ctr, NBT_TOP - K, va, &x);
	x = nbt_exact(instrs(&a) + instrs(&b));
	nbt_check_count(t, "run_b", ctr, NBT_TOP - K, vb, &x);
	x = nbt_exact(instrs(&a) + instrs(&b) + instrs(&c));
	nbt_check_count(t, "run_c", ctr, NBT_TOP - K, vc, &x);
	check(t, (ca & NBT_CCCR_OVF) && (ca2 & NBT_CCCR_OVF), "OVF after the "
	      "wrap 0x%llx, read again 0x%llx: expected set both times",
	      (unsigned long long)ca, (unsigned long long)ca2);
	check(t, !!(cb & NBT_CCCR_OVF), "OVF cleared by more counting: 0x%llx",
	      (unsigned long long)cb);
	check(t, !(cc & NBT_CCCR_OVF) && (cc & NBT_CCCR_ENABLE) &&
	      (cc & ~(NBT_CCCR_OVF)) == (cb & ~NBT_CCCR_OVF), "after clearing "
	      "OVF: CCCR 0x%llx, before 0x%llx: expected only OVF to change",
	      (unsigned long long)cc, (unsigned long long)cb);
out:
	(void)nb_release(ctr, &e);
}

TEST(nb_ovf_sticky, "netburst/ovf-sticky",
     "OVF stays set through counting and reads until software clears it "
     "(SDM 18.15.3)", test_sticky, 0);

/*
 * FORCE_OVF: counter 12 (instr_retired) and counter 4 (retired_branch_type
 * CONDITIONAL), both preset 0.  Run "empty" (one RET: one instruction, no
 * conditional branch): 12 reads 1, far from a wrap, with OVF set; 4 reads
 * 0 with OVF clear.  Clear 12's OVF; run "counted-loop" (conditional
 * branches): 12's OVF is set again, and 4's.
 */
static void test_force(struct tcase *t)
{
	static struct nbt_trail tr;
	static struct oracle_counts a, b;
	uint64_t force = nbt_cccr((struct nbt_cccr){ .force_ovf = 1,
						     .active = NBT_ANY });
	uint64_t v12a = 0, v4a = 0, v12b = 0, v4b = 0;
	uint64_t c12a = 0, c4a = 0, c12b = 0, c4b = 0;
	struct pmu_expect x = { 0 };
	struct pmu_err e = { "", 0 };
	int ok;

	if (!nb_ready(t) || !pmu_oracle_first(t, "empty", 0, &a) ||
	    !pmu_oracle_first(t, "counted-loop", 10, &b))
		return;
	nbt_trail_open(&tr);
	ok = nb_program(12, nbt_escr_usr(NBT_INSTR_RETIRED, NBT_NBOGUSNTAG),
			force | nbt_cccr_sel_any(NBT_INSTR_RETIRED_SEL),
			&e) == 0 &&
	     nb_program(4, nbt_escr_usr(NBT_RETIRED_BRANCH_TYPE,
					NBT_BT_CONDITIONAL),
			force | nbt_cccr_sel_any(NBT_RETIRED_BRANCH_TYPE_SEL),
			&e) == 0 &&
	     nb_start(12, &e) == 0 && nb_start(4, &e) == 0;
	nbt_trail_close();
	if (!check(t, ok, "setup: %s", e.msg) ||
	    !pmu_exec(t, "empty", 0, &a) || !nbt_read_ctr_cccr(t, 12, &v12a, &c12a) ||
	    !nbt_read_ctr_cccr(t, 4, &v4a, &c4a) ||
	    !check(t, nb_clear_ovf(12, &e) == 0, "clear OVF: %s", e.msg) ||
	    !pmu_exec(t, "counted-loop", 10, &b) ||
	    !nbt_read_ctr_cccr(t, 12, &v12b, &c12b) || !nbt_read_ctr_cccr(t, 4, &v4b, &c4b))
		goto out;
	nbt_log_regs(t, NULL, &tr, 12);
	nbt_log_regs(t, NULL, &tr, 4);
	log_cccr(t, "ctr12_cccr_run_a", c12a);
	log_cccr(t, "ctr4_cccr_run_a", c4a);
	log_cccr(t, "ctr12_cccr_run_b", c12b);
	log_cccr(t, "ctr4_cccr_run_b", c4b);
	x = nbt_exact(instrs(&a));
	nbt_check_count(t, "run_a", 12, 0, v12a, &x);
	x = nbt_exact(nbt_usr_count(&a, SEM_COND));
	nbt_check_count(t, "run_a", 4, 0, v4a, &x);
	x = nbt_exact(instrs(&a) + instrs(&b));
	nbt_check_count(t, "run_b", 12, 0, v12b, &x);
	x = nbt_exact(nbt_usr_count(&a, SEM_COND) +
		      nbt_usr_count(&b, SEM_COND));
	nbt_check_count(t, "run_b", 4, 0, v4b, &x);
	check(t, instrs(&a) >= 1 && a.c[3][SEM_COND] == 0 &&
	      b.c[3][SEM_COND] > 0, "benchmarks: %llu instructions, %llu and "
	      "%llu conditional branches: the test needs >= 1, 0, > 0",
	      (unsigned long long)instrs(&a),
	      (unsigned long long)a.c[3][SEM_COND],
	      (unsigned long long)b.c[3][SEM_COND]);
	check(t, (c12a & NBT_CCCR_OVF) && v12a < NBT_TOP / 2, "counter 12 "
	      "after %llu increment(s): %llu, CCCR 0x%llx: expected OVF set "
	      "without a wrap", (unsigned long long)instrs(&a),
	      (unsigned long long)v12a, (unsigned long long)c12a);
	check(t, !(c4a & NBT_CCCR_OVF), "counter 4 did not increment, but "
	      "OVF is set: CCCR 0x%llx", (unsigned long long)c4a);
	check(t, (c12b & NBT_CCCR_OVF) && (c4b & NBT_CCCR_OVF), "after more "
	      "increments: CCCR 12 0x%llx, CCCR 4 0x%llx: expected OVF set",
	      (unsigned long long)c12b, (unsigned long long)c4b);
out:
	(void)nb_release(12, &e);
	(void)nb_release(4, &e);
}

TEST(nb_force_ovf, "netburst/force-ovf",
     "FORCE_OVF: OVF set by the first increment without a wrap; no "
     "increment, no overflow (SDM 18.15.3)", test_force, 0);
