/* perfmon/evtsel-*: the PerfEvtSel fields (SDM Vol. 3B §18.2.1.1,
 * Figure 18-1) each against the oracle: the unit mask, EN, PC, and the
 * counter mask with its invert and edge flags, whose per-cycle rule
 * tests/perfmon/evtsel_sdm.h writes out.  A model cycle is a traced step:
 * in rep-movsb each REP iteration is a cycle in which no instruction
 * retires but the last, so CMASK, INV and E on "instructions retired"
 * count cycles with one, cycles without, and runs of cycles with one;
 * the reference clock gives SEM_REF_PER_CLOCK per cycle, so CMASK 2
 * passes every cycle and CMASK 3 none.  Each test asks CPUID.0AH:EBX
 * for the events it programs (Table 18-1: bit 0 core cycles, 1
 * instructions, 2 reference cycles) and SKIPs naming the bit that is
 * set; the reference-cycle runs are tests of their own (evtsel-*-ref),
 * so that a PMU without that event (QEMU's Westmere: EBX bit 2) still
 * runs the instruction ones. */
#include "perfmon_test.h"

#define INSTR(...) ((struct sdm_sel){ .event = 0xc0, .umask = 0x00,         \
				      .usr = 1, __VA_ARGS__ })
#define REF(...) ((struct sdm_sel){ .event = 0x3c, .umask = 0x01,           \
				    .usr = 1, __VA_ARGS__ })

/* One run at CPL 3 with up to four counters (the PMU has at least 2). */
static void run_sels(struct tcase *t, const char *label, const char *bench,
		     const struct sdm_sel *sel, unsigned n,
		     enum pm_arch_event ev)
{
	struct pm_sdm s;
	const struct pmu_driver *d = pm_ready_for(t, &s, 1u << ev);
	struct pmu_run r;

	if (!d)
		return;
	pm_setup(&r, label, bench, 40, 3);
	for (unsigned k = 0; k < n && k < s.gp; k++)
		pm_add(&r, k, sdm_sel(sel[k]));
	if (!pmu_run(t, &r))
		return;
	for (unsigned k = 0; k < r.n_ctrs; k++)
		pm_check(t, d, &r, k);
}

static void test_umask(struct tcase *t)
{
	struct pm_sdm s;
	const struct pmu_driver *d = pm_ready_for(t, &s,
					       1u << PM_EV_CORE_CYCLES |
					       1u << PM_EV_REF_CYCLES);
	struct pmu_run r;

	if (!d)
		return;
	pm_setup(&r, "umask", "rep-movsb", 40, 3);
	pm_add(&r, 0, sdm_sel((struct sdm_sel){ .event = 0x3c, .umask = 0,
					      .usr = 1 }));
	pm_add(&r, 1, sdm_sel((struct sdm_sel){ .event = 0x3c, .umask = 1,
					      .usr = 1 }));
	if (!pmu_run(t, &r))
		return;
	pm_check(t, d, &r, 0);
	pm_check(t, d, &r, 1);
	if (!pmu_on_model())
		return;
	check(t, r.got[0] == r.oc.c[3][SEM_CLOCKS], "umask 00H counted %llu,"
	      " the model clock is %llu", (unsigned long long)r.got[0],
	      (unsigned long long)r.oc.c[3][SEM_CLOCKS]);
	/* Core 2: 01H is bus cycles, which the model does not count
	 * (perfmon_events.c): the unit mask still selects another event */
	if (!pm_event_for(0x3c, 0x01)->sem) {
		value(t, "umask_01h", "%s: not modelled",
		      pm_event_for(0x3c, 0x01)->name);
		check(t, r.got[1] != r.got[0], "umask 01H counted %llu, as "
		      "00H: the unit mask selected no other event",
		      (unsigned long long)r.got[1]);
		return;
	}
	check(t, r.got[1] == SEM_REF_PER_CLOCK * r.oc.c[3][SEM_CLOCKS],
	      "umask 01H counted %llu, the reference clock is %llu",
	      (unsigned long long)r.got[1], (unsigned long long)
	      (SEM_REF_PER_CLOCK * r.oc.c[3][SEM_CLOCKS]));
}

TEST(perfmon_umask, "perfmon/evtsel-umask",
     "unit mask 00H core cycles, 01H reference cycles, same event select",
     test_umask, 0);

static void test_cmask(struct tcase *t)
{
	const struct sdm_sel a[] = { INSTR(.cmask = 1), INSTR(.cmask = 2) };

	run_sels(t, "instr", "rep-movsb", a, 2, PM_EV_INSTRUCTIONS);
}

static void test_cmask_ref(struct tcase *t)
{
	const struct sdm_sel b[] = { REF(.cmask = 2), REF(.cmask = 3) };

	run_sels(t, "ref", "rep-movsb", b, 2, PM_EV_REF_CYCLES);
}

TEST(perfmon_cmask, "perfmon/evtsel-cmask",
     "CMASK counts cycles with at least CMASK events (instructions)",
     test_cmask, 0);
TEST(perfmon_cmask_ref, "perfmon/evtsel-cmask-ref",
     "CMASK counts cycles with at least CMASK events (reference cycles)",
     test_cmask_ref, 0);

static void test_inv(struct tcase *t)
{
	const struct sdm_sel a[] = { INSTR(.cmask = 1, .inv = 1),
				     INSTR(.inv = 1) };

	run_sels(t, "instr", "rep-movsb", a, 2, PM_EV_INSTRUCTIONS);
}

static void test_inv_ref(struct tcase *t)
{
	const struct sdm_sel b[] = { REF(.cmask = 3, .inv = 1),
				     REF(.cmask = 2, .inv = 1) };

	run_sels(t, "ref", "rep-movsb", b, 2, PM_EV_REF_CYCLES);
}

TEST(perfmon_inv, "perfmon/evtsel-inv",
     "INV counts cycles with fewer than CMASK events; no effect at CMASK 0",
     test_inv, 0);
TEST(perfmon_inv_ref, "perfmon/evtsel-inv-ref",
     "INV on reference cycles: cycles with fewer than CMASK",
     test_inv_ref, 0);

static void test_edge(struct tcase *t)
{
	const struct sdm_sel a[] = { INSTR(.e = 1),
				     INSTR(.e = 1, .cmask = 1) };

	run_sels(t, "instr", "rep-movsb", a, 2, PM_EV_INSTRUCTIONS);
}

static void test_edge_ref(struct tcase *t)
{
	const struct sdm_sel b[] = { REF(.e = 1, .cmask = 2),
				     REF(.e = 1, .cmask = 3) };

	run_sels(t, "ref", "rep-movsb", b, 2, PM_EV_REF_CYCLES);
}

TEST(perfmon_edge, "perfmon/evtsel-edge",
     "E counts deasserted-to-asserted transitions of the condition",
     test_edge, 0);
TEST(perfmon_edge_ref, "perfmon/evtsel-edge-ref",
     "E on reference cycles against CMASK 2 and 3",
     test_edge_ref, 0);

/*
 * EN (bit 22) gates the counter by itself: PerfEvtSel written with
 * everything but EN, its GLOBAL_CTRL bit set, counts nothing; the same
 * with EN counts.  PC (bit 19) selects what the PMi pin signals and
 * changes no count; it reads back as written.  Written through the
 * backend, as the SDM draws the register.
 */
static int raw_run(struct tcase *t, const struct pm_sdm *c,
		   uint64_t sel, uint64_t *count, struct oracle_counts *oc)
{
	int ok = 1;

	ok &= check(t, be_wrmsr(PM_MSR_PERFEVTSEL(0), 0) == 0 &&
		    be_wrmsr(PM_MSR_PMC(0), 0) == 0 &&
		    be_wrmsr(PM_MSR_PERFEVTSEL(0), sel) == 0, "WRMSR "
		    "PERFEVTSEL0=0x%llx faulted", (unsigned long long)sel);
	if (c->version >= 2)
		ok &= check(t, be_wrmsr(PM_MSR_GLOBAL_CTRL, 1) == 0,
			    "WRMSR GLOBAL_CTRL faulted");
	ok = ok && pmu_exec(t, "counted-loop", 20, oc);
	if (c->version >= 2)
		(void)be_wrmsr(PM_MSR_GLOBAL_CTRL, 0);
	(void)be_wrmsr(PM_MSR_PERFEVTSEL(0), 0);
	return ok && check(t, be_rdmsr(PM_MSR_PMC(0), count) == 0,
			   "RDMSR PMC0 faulted");
}

static void test_en_pc(struct tcase *t)
{
	struct pm_sdm sdm, *c = &sdm;
	struct sdm_sel s = INSTR(.pc = 1);
	struct oracle_counts oc;
	struct pmu_err e;
	uint64_t off = 1, on = 0, back = 0, want;

	if (!pm_ready_for(t, c, 1u << PM_EV_INSTRUCTIONS) ||
	    !check(t, perfmon_driver.init(&e) == 0, "init: %s", e.msg) ||
	    !pmu_oracle_first(t, "counted-loop", 20, &oc))
		return;
	if (!raw_run(t, c, sdm_sel(s), &off, &oc))
		return;
	s.en = 1;
	if (!raw_run(t, c, sdm_sel(s), &on, &oc))
		return;
	check(t, be_wrmsr(PM_MSR_PERFEVTSEL(0), sdm_sel(s)) == 0 &&
	      be_rdmsr(PM_MSR_PERFEVTSEL(0), &back) == 0, "PERFEVTSEL0 "
	      "access faulted");
	(void)be_wrmsr(PM_MSR_PERFEVTSEL(0), 0);
	value(t, "en0_pc1", "%llu", (unsigned long long)off);
	value(t, "en1_pc1", "%llu", (unsigned long long)on);
	/* a USR count: on hardware with the trampoline's (pmu_run.h) */
	want = oc.c[3][SEM_INSTRUCTIONS] + pmu_ring3_edges();
	value(t, "oracle", "%llu", (unsigned long long)want);
	value(t, "readback", "0x%llx", (unsigned long long)back);
	check(t, off == 0, "EN clear: counted %llu",
	      (unsigned long long)off);
	check(t, on == want, "EN set, PC set: counted %llu, oracle %llu",
	      (unsigned long long)on, (unsigned long long)want);
	check(t, back == sdm_sel(s), "PERFEVTSEL0 reads 0x%llx after "
	      "writing 0x%llx", (unsigned long long)back,
	      (unsigned long long)sdm_sel(s));
}

TEST(perfmon_en_pc, "perfmon/evtsel-en-pc",
     "EN alone gates a counter; PC reads back and changes no count",
     test_en_pc, 0);
