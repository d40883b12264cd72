/* p6 PerfEvtSel field tests (SDM Vol. 3B §18.22.1, Figure 18-60): USR
 * and OS at CPL 0 and 3, EN present only in PerfEvtSel0 and enabling
 * both counters, PC kept without changing the count, the unit mask, two
 * events at once.  Every programmed PerfEvtSel is compared with the SDM's
 * layout (p6_sels_as_sdm), and every count with what the SDM's rules give
 * from the oracle's counts. */
#include "p6_test.h"
#include "../../arch/x86/trap.h"
#include "../../pmu/backend.h"

#define INST 0xc0	/* INST_RETIRED */
#define BRANCHES 0xc4	/* BR_INST_RETIRED */
#define MEM_REFS 0x43	/* DATA_MEM_REFS */

/* p6/usr-os-cpl0, p6/usr-os-cpl3: every USR/OS combination on both
 * counters (PerfCtr0 INST_RETIRED, PerfCtr1 BR_INST_RETIRED) over a
 * benchmark run at one CPL. */
static void usr_os_test(struct tcase *t, int cpl)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P6);
	static const char *const labels[4] = { "none", "usr", "os", "both" };

	if (!d)
		return;
	for (unsigned k = 0; k < 4; k++) {
		unsigned usr = k & 1, os = k >> 1;
		struct pmu_run r;
		char label[24];

		fmt_snprintf(label, sizeof(label), "cpl%d_%s", cpl, labels[k]);
		p6_setup(&r, "call-ret", 60, cpl,
			 (struct sdm_sel){ .event = INST, .usr = usr,
					   .os = os },
			 (struct sdm_sel){ .event = BRANCHES, .usr = usr,
					   .os = os });
		r.label = label;
		if (!pmu_run(t, &r))
			return;
		p6_check(t, d, &r, 0);
		p6_check(t, d, &r, 1);
	}
}

static void test_usr_os_cpl0(struct tcase *t)
{
	usr_os_test(t, 0);
}

static void test_usr_os_cpl3(struct tcase *t)
{
	usr_os_test(t, 3);
}

TEST(p6_usr_os_cpl0, "p6/usr-os-cpl0",
     "USR/OS none, USR, OS, both on a CPL 0 run: only OS counts there",
     test_usr_os_cpl0, 0);
TEST(p6_usr_os_cpl3, "p6/usr-os-cpl3",
     "USR/OS none, USR, OS, both on a CPL 3 run: only USR counts there",
     test_usr_os_cpl3, 0);

/* ---- direct register runs: the backend, no driver, CPL 3 only (exact on
 * hardware too: nothing of the harness's CPL 0 code counts) */

struct direct {
	uint64_t sel[2];
	uint64_t got[2];
	struct oracle_counts oc;
};

static int wr(struct tcase *t, uint32_t msr, uint64_t v)
{
	int vec = be_wrmsr(msr, v);

	return check(t, vec == 0, "WRMSR 0x%x=0x%llx: vector %d", msr,
		     (unsigned long long)v, vec);
}

/* Writes both selections (PerfEvtSel0 last: it holds EN), clears the
 * counters, runs bench at CPL 3, stops (PerfEvtSel0 = 0) and reads. */
/* What the ring-3 trampoline adds to a CPL 3 count of instructions
 * (pmu_run.h, pmu_ring3_sem_edges(): 2 on hardware, 0 on the model). */
static uint64_t ring3_ins(void)
{
	return pmu_ring3_sem_edges(SEM_BIT(SEM_INSTRUCTIONS));
}

static int direct_run(struct tcase *t, const char *bench, uint64_t n,
		      struct direct *x)
{
	int ok = wr(t, SDM_P6_PERFEVTSEL0, 0) &&
		 wr(t, SDM_P6_PERFCTR0, 0) && wr(t, SDM_P6_PERFCTR1, 0) &&
		 pmu_oracle_first(t, bench, n, &x->oc) &&
		 wr(t, SDM_P6_PERFEVTSEL1, x->sel[1]) &&
		 wr(t, SDM_P6_PERFEVTSEL0, x->sel[0]) &&
		 pmu_exec(t, bench, n, &x->oc);

	if (!wr(t, SDM_P6_PERFEVTSEL0, 0) || !ok)
		return 0;
	for (unsigned c = 0; c < 2; c++)
		if (!check(t, be_rdmsr(SDM_P6_PERFCTR0 + c, &x->got[c]) == 0,
			   "RDMSR PerfCtr%u faulted", c))
			return 0;
	return 1;
}

static void expect_direct(struct tcase *t, const char *what,
			  const struct direct *x, uint64_t want0,
			  uint64_t want1)
{
	char k[40];

	fmt_snprintf(k, sizeof(k), "%s_sels", what);
	value(t, k, "0x%llx 0x%llx", (unsigned long long)x->sel[0],
	      (unsigned long long)x->sel[1]);
	fmt_snprintf(k, sizeof(k), "%s_ctrs", what);
	value(t, k, "%llu %llu (oracle %llu %llu)",
	      (unsigned long long)x->got[0], (unsigned long long)x->got[1],
	      (unsigned long long)want0, (unsigned long long)want1);
	check(t, x->got[0] == want0 && x->got[1] == want1, "%s: PerfCtr0/1 "
	      "read %llu/%llu, the SDM gives %llu/%llu", what,
	      (unsigned long long)x->got[0], (unsigned long long)x->got[1],
	      (unsigned long long)want0, (unsigned long long)want1);
}

/*
 * EN "is only present in the PerfEvtSel0 MSR. When set, performance
 * counting is enabled in both performance-monitoring counters; when
 * clear, both counters are disabled" (§18.22.1):
 *   - EN set in PerfEvtSel1 only: neither counter counts;
 *   - EN set in PerfEvtSel0, whose USR/OS are clear: counter 1 counts;
 *   - EN set in PerfEvtSel0 with USR: both count.
 * Bit 22 of PerfEvtSel1 is written without a fault (docs/p6.md).
 */
static void test_en(struct tcase *t)
{
	struct sdm_sel inst = { .event = INST, .usr = 1 };
	struct sdm_sel off = { .event = INST };
	struct direct x;
	uint64_t n;

	if (!pmu_ready(t, PMU_P6))
		return;
	x.sel[0] = sdm_sel(inst);
	inst.en = 1;
	x.sel[1] = sdm_sel(inst);
	if (!direct_run(t, "counted-loop", 50, &x))
		return;
	expect_direct(t, "en_in_sel1_only", &x, 0, 0);
	off.en = 1;
	x.sel[0] = sdm_sel(off);
	inst.en = 0;
	x.sel[1] = sdm_sel(inst);
	if (!direct_run(t, "counted-loop", 50, &x))
		return;
	n = x.oc.c[3][SEM_INSTRUCTIONS] + ring3_ins();
	expect_direct(t, "en_in_sel0_ctr0_off", &x, 0, n);
	inst.en = 1;
	x.sel[0] = sdm_sel(inst);
	inst.en = 0;
	x.sel[1] = sdm_sel(inst);
	if (!direct_run(t, "counted-loop", 50, &x))
		return;
	n = x.oc.c[3][SEM_INSTRUCTIONS] + ring3_ins();
	expect_direct(t, "en_in_sel0", &x, n, n);
	(void)wr(t, SDM_P6_PERFEVTSEL1, 0);
}

TEST(p6_en, "p6/en-only-in-evtsel0",
     "EN of PerfEvtSel0 enables both counters; EN in PerfEvtSel1 none",
     test_en, 0);

/*
 * PC (bit 19) selects what the PMi pin signals (increment or overflow);
 * the counter "increments ... when performance-monitoring events occur"
 * either way (§18.22.1): PerfCtr0 with PC=1 and PerfCtr1 with PC=0 count
 * the same instructions, and each PerfEvtSel reads back with its PC.
 */
static void test_pc(struct tcase *t)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P6);
	struct pmu_run r;

	if (!d)
		return;
	for (unsigned pc0 = 0; pc0 < 2; pc0++) {
		char label[8] = "pc0_x";

		label[4] = (char)('0' + pc0);
		p6_setup(&r, "counted-loop", 40, 3,
			 (struct sdm_sel){ .event = INST, .usr = 1, .pc = pc0 },
			 (struct sdm_sel){ .event = INST, .usr = 1,
					   .pc = !pc0 });
		r.label = label;
		if (!pmu_run(t, &r))
			return;
		p6_check(t, d, &r, 0);
		p6_check(t, d, &r, 1);
		check(t, r.got[0] == r.got[1], "PC changed the count: %llu "
		      "against %llu", (unsigned long long)r.got[0],
		      (unsigned long long)r.got[1]);
	}
}

TEST(p6_pc, "p6/pin-control-kept",
     "PC reads back as programmed on each counter and changes no count",
     test_pc, 0);

/*
 * The unit mask (bits 15:8) qualifies an event; the table lists the
 * values each event takes (00H for INST_RETIRED, MESI bits 3:0 for the
 * L2 events, bit 5 for the bus events).  The driver refuses the others.
 * Written directly, INST_RETIRED with unit mask 01H selects nothing the
 * SDM defines ("undefined counter results"); the model counts nothing,
 * hardware's count is reported.  With 00H on the other counter: the
 * instructions.
 */
static void test_umask(struct tcase *t)
{
	static const struct {
		unsigned event, umask, ok;
	} cases[] = {
		{ INST, 0x00, 1 }, { INST, 0x01, 0 }, { INST, 0x80, 0 },
		{ 0x2e, 0x0f, 1 }, { 0x2e, 0x01, 1 }, { 0x62, 0x20, 1 },
		{ 0x62, 0x00, 1 }, { 0x62, 0x01, 0 }, { 0x62, 0x40, 0 },
	};
	const struct pmu_driver *d = pmu_ready(t, PMU_P6);
	struct sdm_sel bad = { .event = INST, .umask = 1, .usr = 1, .en = 1 };
	struct sdm_sel good = { .event = INST, .usr = 1 };
	struct direct x;
	struct pmu_err e;

	if (!d || !check(t, d->init(&e) == 0, "init: %s", e.msg))
		return;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pmu_config c = sdm_config((struct sdm_sel){
			.event = cases[i].event, .umask = cases[i].umask,
			.usr = 1 });
		int rc = d->program(0, &c, &e);
		uint64_t back = 0;

		check(t, (rc == 0) == (int)cases[i].ok, "event 0x%02x unit "
		      "mask 0x%02x: %s", cases[i].event, cases[i].umask,
		      rc ? e.msg : "accepted");
		/* programmed, stopped: the selection without USR */
		if (!rc && check(t, p6_read_sel(0, &back, &e) == 0, "%s",
				 e.msg))
			check(t, back == (c.sel & ~SDM_USR), "event 0x%02x "
			      "unit mask 0x%02x: PerfEvtSel0 reads 0x%llx, the "
			      "SDM's layout gives 0x%llx", cases[i].event,
			      cases[i].umask, (unsigned long long)back,
			      (unsigned long long)(c.sel & ~SDM_USR));
	}
	x.sel[0] = sdm_sel(bad);
	x.sel[1] = sdm_sel(good);
	if (!direct_run(t, "counted-loop", 30, &x))
		return;
	if (pmu_on_model()) {
		expect_direct(t, "umask_01_00", &x, 0,
			      x.oc.c[3][SEM_INSTRUCTIONS]);
		return;
	}
	value(t, "umask_01_count", "%llu (hardware: undefined)",
	      (unsigned long long)x.got[0]);
	check(t, x.got[1] == x.oc.c[3][SEM_INSTRUCTIONS] + ring3_ins(),
	      "PerfCtr1 %llu, oracle %llu + %llu (the ring-3 trampoline)",
	      (unsigned long long)x.got[1],
	      (unsigned long long)x.oc.c[3][SEM_INSTRUCTIONS],
	      (unsigned long long)ring3_ins());
}

TEST(p6_umask, "p6/umask",
     "the driver takes only the unit masks the SDM lists; INST_RETIRED "
     "with unit mask 01H counts nothing in the model", test_umask, 0);

/* PerfCtr0 INST_RETIRED and PerfCtr1 DATA_MEM_REFS over the same run. */
static void test_two_events(struct tcase *t)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P6);
	struct pmu_run r;

	if (!d)
		return;
	p6_setup(&r, "call-ret", 50, 3,
		 (struct sdm_sel){ .event = INST, .usr = 1, .os = 1 },
		 (struct sdm_sel){ .event = MEM_REFS, .usr = 1 });
	if (!pmu_run(t, &r))
		return;
	p6_check(t, d, &r, 0);
	p6_check(t, d, &r, 1);
	check(t, r.got[0] != r.got[1], "both counters read %llu: the events "
	      "were not told apart", (unsigned long long)r.got[0]);
}

TEST(p6_two_events, "p6/two-counters-two-events",
     "PerfCtr0 INST_RETIRED and PerfCtr1 DATA_MEM_REFS count at once",
     test_two_events, 0);
