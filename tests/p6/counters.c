/* p6 counter tests (SDM Vol. 3B §18.22.2-3): WRMSR to a counter
 * sign-extends bit 31, 40-bit wrap-around, one counter stopped or
 * reprogrammed while the other counts (EN is shared), RDPMC against
 * RDMSR, reserved PerfEvtSel bits. */
#include "p6_test.h"
#include "../../arch/x86/trap.h"
#include "../../pmu/backend.h"

/* "the lower-order 32 bits of each MSR may be written with any value,
 * and the high-order 8 bits are sign-extended according to the value of
 * bit 31" (§18.22.2): what a counter holds after WRMSR of v. */
static uint64_t sdm_ctr_after_write(uint64_t v)
{
	uint64_t lo = v & 0xffffffffull;

	return lo & 0x80000000ull ? lo | 0xff00000000ull : lo;
}

#define INST 0xc0

/*
 * WRMSR to PerfCtr0/1 writes EAX with bit 31 copied into bits 39:32 and
 * ignores EDX (§18.22.2): written through the backend, every value reads
 * back (RDMSR and RDPMC) as sdm_ctr_after_write() says, without a fault.
 * The driver presets only what can be written, with EAX alone (the
 * backend's access log shows the value it wrote).
 */
static void test_sign_extend(struct tcase *t)
{
	static const uint64_t vals[] = {
		0, 1, 0x7fffffff, 0x80000000, 0xfffffffb, 0xffffffff,
		0x100000005ull, 0xff80000000ull, 0xdeadbeef12345678ull,
		0xffffffff00000000ull, 0x00000000c0000001ull,
	};
	struct be_access a[4];
	struct be_log log;
	struct pmu_err e;
	uint64_t got = 0, pmc = 0;
	int vec;

	if (!pmu_ready(t, PMU_P6) ||
	    !check(t, p6_init(&e) == 0, "init: %s", e.msg) ||
	    !check(t, be_wrmsr(SDM_P6_PERFEVTSEL0, 0) == 0, "disable"))
		return;
	for (unsigned i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		for (unsigned c = 0; c < SDM_P6_COUNTERS; c++) {
			uint64_t want = sdm_ctr_after_write(vals[i]);

			vec = be_wrmsr(SDM_P6_PERFCTR0 + c, vals[i]);
			check(t, vec == 0, "WRMSR PerfCtr%u (0x%x)=0x%llx: "
			      "vector %d", c, SDM_P6_PERFCTR0 + c,
			      (unsigned long long)vals[i], vec);
			got = pmc = 0;
			vec = be_rdmsr(SDM_P6_PERFCTR0 + c, &got);
			check(t, vec == 0 && got == want, "PerfCtr%u (0x%x)="
			      "0x%llx reads 0x%llx (vector %d), the SDM gives "
			      "0x%llx", c, SDM_P6_PERFCTR0 + c,
			      (unsigned long long)vals[i],
			      (unsigned long long)got, vec,
			      (unsigned long long)want);
			vec = be_rdpmc(c, &pmc);
			check(t, vec == 0 && pmc == want, "RDPMC %u reads "
			      "0x%llx (vector %d), expected 0x%llx", c,
			      (unsigned long long)pmc, vec,
			      (unsigned long long)want);
		}
	}
	value(t, "wrote_0x80000000", "0x%llx",
	      (unsigned long long)sdm_ctr_after_write(0x80000000));
	be_log_open(&log, a, 4);
	vec = p6_write(0, SDM_CTR_TOP - 5, &e);
	be_log_close();
	check(t, vec == 0 && p6_read(0, &got, &e) == 0 &&
	      got == SDM_CTR_TOP - 5, "driver preset 2^40-5: read 0x%llx "
	      "(%s)", (unsigned long long)got, e.msg);
	check(t, log.used == 1 && log.a[0].value == 0xfffffffb, "driver "
	      "preset 2^40-5: WRMSR 0x%llx, expected EAX = 0xfffffffb alone",
	      (unsigned long long)(log.used ? log.a[0].value : 0));
	check(t, p6_write(0, 0x80000000, &e) != 0, "driver preset 2^31 "
	      "accepted (it would read 0xff80000000)");
	value(t, "preset_2^31", "%s", e.msg);
	check(t, p6_write(1, 0x100000000ull, &e) != 0, "driver preset 2^32 "
	      "accepted");
	check(t, p6_write(1, SDM_CTR_TOP, &e) != 0, "driver preset 2^40 "
	      "accepted");
}

TEST(p6_sign_extend, "p6/write-sign-extends",
     "WRMSR to PerfCtr sign-extends EAX bit 31 to bit 39, ignores EDX",
     test_sign_extend, 0);

/* A counter preset to 2^40 - 5 wraps to a small value; bits 63:40 stay
 * clear. */
static void test_wrap(struct tcase *t)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P6);
	struct sdm_sel s = { .event = INST, .usr = 1 };
	struct pmu_run r;

	if (!d)
		return;
	p6_setup(&r, "nops", 10, 3, s, s);
	r.preset[0] = SDM_CTR_TOP - 5;
	r.preset[1] = SDM_CTR_TOP - 1000000;	/* far from wrapping */
	if (!pmu_run(t, &r))
		return;
	value(t, "ctr0_preset", "0x%llx", (unsigned long long)r.preset[0]);
	p6_check(t, d, &r, 0);
	p6_check(t, d, &r, 1);
	check(t, r.got[0] < 1000, "PerfCtr0 0x%llx did not wrap past 2^40",
	      (unsigned long long)r.got[0]);
	check(t, !(r.got[0] >> 40) && !(r.got[1] >> 40), "bits above 39 "
	      "set: 0x%llx 0x%llx", (unsigned long long)r.got[0],
	      (unsigned long long)r.got[1]);
}

TEST(p6_wrap, "p6/ctr-wraps-at-2^40",
     "a counter preset to 2^40-5 wraps to a small value", test_wrap, 0);

static int read_both(struct tcase *t, uint64_t v[2])
{
	struct pmu_err e;

	return check(t, p6_read(0, &v[0], &e) == 0 &&
		     p6_read(1, &v[1], &e) == 0, "read: %s", e.msg);
}

static int read_sel0(struct tcase *t, uint64_t *v)
{
	struct pmu_err e;

	return check(t, p6_read_sel(0, v, &e) == 0, "%s", e.msg);
}

/*
 * One counter stops, the other goes on.  EN is shared (§18.22.1), so the
 * driver stops a counter by clearing its USR and OS.  Both count CPL 3
 * instructions (exact on hardware: the driver runs at CPL 0; each run
 * with the ring-3 trampoline's 2, pmu_ring3_sem_edges()):
 *   run A with both; stop 0; run B; start 0, stop 1; run C; stop 0;
 *   start 1 alone; run D; stop 1.
 * PerfCtr0 = A + C, PerfCtr1 = A + B + D; EN stays set while one runs,
 * is clear with both stopped, and comes back for counter 1 alone.
 */
static void test_stop_one(struct tcase *t)
{
	struct pmu_config c = sdm_config((struct sdm_sel){ .event = INST,
							   .usr = 1 });
	const struct pmu_driver *d = pmu_ready(t, PMU_P6);
	struct oracle_counts oa, ob, oc, od;
	uint64_t v[2], a, b, cc, dd, sel0 = 0, sel0_end = 0;
	uint64_t edges_ins = pmu_ring3_sem_edges(SEM_BIT(SEM_INSTRUCTIONS));
	struct pmu_err e;

	if (!d || !check(t, d->init(&e) == 0, "init: %s", e.msg) ||
	    !pmu_oracle_first(t, "counted-loop", 40, &oa) ||
	    !pmu_oracle_first(t, "call-ret", 20, &ob) ||
	    !pmu_oracle_first(t, "nops", 30, &oc) ||
	    !pmu_oracle_first(t, "add-chain", 25, &od))
		return;
	if (!check(t, d->program(0, &c, &e) == 0 && d->program(1, &c, &e) == 0
		   && d->start(0, &e) == 0 && d->start(1, &e) == 0, "setup: "
		   "%s", e.msg) ||
	    !pmu_exec(t, "counted-loop", 40, &oa) ||
	    !check(t, d->stop(0, &e) == 0, "stop 0: %s", e.msg) ||
	    !read_sel0(t, &sel0) || !pmu_exec(t, "call-ret", 20, &ob) ||
	    !check(t, d->start(0, &e) == 0 && d->stop(1, &e) == 0, "start 0, "
		   "stop 1: %s", e.msg) ||
	    !pmu_exec(t, "nops", 30, &oc) ||
	    !check(t, d->stop(0, &e) == 0, "stop 0: %s", e.msg) ||
	    !read_sel0(t, &sel0_end) ||
	    !check(t, d->start(1, &e) == 0, "start 1 alone: %s", e.msg) ||
	    !pmu_exec(t, "add-chain", 25, &od) ||
	    !check(t, d->stop(1, &e) == 0, "stop 1: %s", e.msg) ||
	    !read_both(t, v))
		return;
	a = oa.c[3][SEM_INSTRUCTIONS] + edges_ins;
	b = ob.c[3][SEM_INSTRUCTIONS] + edges_ins;
	cc = oc.c[3][SEM_INSTRUCTIONS] + edges_ins;
	dd = od.c[3][SEM_INSTRUCTIONS] + edges_ins;
	value(t, "sel0_ctr0_stopped", "0x%llx", (unsigned long long)sel0);
	value(t, "sel0_both_stopped", "0x%llx", (unsigned long long)sel0_end);
	value(t, "ctrs", "%llu %llu (oracle %llu+%llu, %llu+%llu+%llu)",
	      (unsigned long long)v[0], (unsigned long long)v[1],
	      (unsigned long long)a, (unsigned long long)cc,
	      (unsigned long long)a, (unsigned long long)b,
	      (unsigned long long)dd);
	check(t, (sel0 & SDM_EN) && !(sel0 & (SDM_USR | SDM_OS)),
	      "PerfEvtSel0 0x%llx with counter 0 stopped and counter 1 "
	      "running: expected EN set, USR and OS clear",
	      (unsigned long long)sel0);
	check(t, !(sel0_end & SDM_EN), "PerfEvtSel0 0x%llx with both "
	      "stopped: EN still set", (unsigned long long)sel0_end);
	check(t, v[0] == a + cc, "PerfCtr0 %llu, expected A + C = %llu",
	      (unsigned long long)v[0], (unsigned long long)(a + cc));
	check(t, v[1] == a + b + dd, "PerfCtr1 %llu, expected A + B + D = "
	      "%llu", (unsigned long long)v[1],
	      (unsigned long long)(a + b + dd));
}

TEST(p6_stop_one, "p6/stop-one-counter",
     "stopping one counter leaves the other counting, and either starts "
     "alone (EN is shared)",
     test_stop_one, 0);

/* PerfCtr0 counts through two runs; between them counter 1 is
 * programmed and started.  PerfCtr0 holds both runs (the driver clears EN
 * only at CPL 0, which USR does not count), PerfCtr1 the second; on
 * hardware each run with the ring-3 trampoline's share
 * (pmu_ring3_sem_edges(): 2 instructions, 6 stores). */
static void test_program_other(struct tcase *t)
{
	struct pmu_config c0 = sdm_config((struct sdm_sel){ .event = INST,
							    .usr = 1 });
	struct pmu_config c1 = sdm_config((struct sdm_sel){ .event = 0x43,
							    .usr = 1 });
	const struct pmu_driver *d = pmu_ready(t, PMU_P6);
	struct oracle_counts oa, ob;
	uint64_t v[2], mid = 0, first, want0, want1;
	uint64_t edges_ins = pmu_ring3_sem_edges(SEM_BIT(SEM_INSTRUCTIONS));
	struct pmu_err e;

	if (!d || !check(t, d->init(&e) == 0, "init: %s", e.msg) ||
	    !pmu_oracle_first(t, "counted-loop", 60, &oa) ||
	    !pmu_oracle_first(t, "call-ret", 20, &ob))
		return;
	if (!check(t, d->program(0, &c0, &e) == 0 && d->start(0, &e) == 0,
		   "%s", e.msg) ||
	    !pmu_exec(t, "counted-loop", 60, &oa) ||
	    !check(t, d->read(0, &mid, &e) == 0, "%s", e.msg) ||
	    !check(t, d->program(1, &c1, &e) == 0 && d->start(1, &e) == 0,
		   "%s", e.msg) ||
	    !pmu_exec(t, "call-ret", 20, &ob) ||
	    !check(t, d->stop(0, &e) == 0 && d->stop(1, &e) == 0, "%s",
		   e.msg) || !read_both(t, v))
		return;
	first = oa.c[3][SEM_INSTRUCTIONS] + edges_ins;
	want0 = first + ob.c[3][SEM_INSTRUCTIONS] + edges_ins;
	want1 = ob.c[3][SEM_LOADS] + ob.c[3][SEM_STORES] +
		pmu_ring3_sem_edges(SEM_BIT(SEM_LOADS) | SEM_BIT(SEM_STORES));
	value(t, "ctr0_after_first", "%llu", (unsigned long long)mid);
	value(t, "ctrs", "%llu %llu (oracle %llu %llu)",
	      (unsigned long long)v[0], (unsigned long long)v[1],
	      (unsigned long long)want0, (unsigned long long)want1);
	check(t, mid == first, "PerfCtr0 after the first run %llu, oracle "
	      "%llu", (unsigned long long)mid, (unsigned long long)first);
	check(t, v[0] == want0, "PerfCtr0 %llu, oracle %llu",
	      (unsigned long long)v[0], (unsigned long long)want0);
	check(t, v[1] == want1, "PerfCtr1 %llu, oracle %llu",
	      (unsigned long long)v[1], (unsigned long long)want1);
}

TEST(p6_program_other, "p6/program-one-other-counts",
     "programming counter 1 while counter 0 counts keeps counter 0's count",
     test_program_other, 0);

/* Pentium Pro erratum 26: RDPMC is broken below stepping 9 of the
 * Pentium Pro, family 6 model 1 (Linux p6.c p6_pmu_rdpmc_quirk(): "PPro
 * erratum 26; fixed in stepping 9 and above").  On such hardware the
 * driver must refuse RDPMC; the model has no erratum. */
static int ppro_erratum26(const struct cpu_sig *s)
{
	return s->family == 6 && s->model == 1 && s->stepping < 9;
}

/* RDPMC reads the 40-bit counters as RDMSR does; index 2 raises #GP. */
static void test_rdpmc(struct tcase *t)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P6);
	struct sdm_sel s = { .event = INST, .usr = 1 };
	struct pmu_run r;
	struct pmu_err e;
	uint64_t v;
	int vec;

	if (!d)
		return;
	value(t, "erratum26", "%s", ppro_erratum26(&cpu_info()->sig) ?
	      "yes" : "no");
	if (ppro_erratum26(&cpu_info()->sig) && !pmu_on_model()) {
		check(t, p6_rdpmc(0, &v, &e) != 0, "erratum 26: the driver "
		      "used RDPMC");
		value(t, "refused", "%s", e.msg);
		return;
	}
	p6_setup(&r, "counted-loop", 50, 3, s, s);
	r.preset[1] = SDM_CTR_TOP - 0x10000;	/* bits 39:32 set */
	if (!pmu_run(t, &r))
		return;
	for (unsigned c = 0; c < SDM_P6_COUNTERS; c++) {
		check(t, p6_rdpmc(c, &v, &e) == 0, "RDPMC %u: %s", c, e.msg);
		value(t, c ? "rdpmc1" : "rdpmc0", "0x%llx",
		      (unsigned long long)v);
		check(t, v == r.got[c], "RDPMC %u 0x%llx != RDMSR 0x%llx", c,
		      (unsigned long long)v, (unsigned long long)r.got[c]);
	}
	vec = be_rdpmc(2, &v);
	check(t, vec == VEC_GP, "RDPMC 2: vector %d, expected 13", vec);
}

TEST(p6_rdpmc, "p6/rdpmc-agrees-with-rdmsr",
     "RDPMC 0/1 read PerfCtr0/1 as RDMSR does (40 bits); RDPMC 2 #GP",
     test_rdpmc, 0);

/*
 * Reserved bits: bit 21 (AnyThread does not exist on the P6) and bits
 * 63:32 of both PerfEvtSels.  The driver refuses them, and what else it
 * cannot program, with a message; written directly they raise #GP(0) and
 * leave the register as it was (SDM Vol. 2B WRMSR).  Bit 22 of
 * PerfEvtSel1 is not reserved (docs/p6.md).
 */
/* Refused by the driver itself: nothing reaches a register. */
static void refused(struct tcase *t, const struct pmu_driver *d,
		    unsigned ctr, uint64_t sel, const char *what)
{
	struct pmu_config c = { sel, 0 };
	struct be_access a[16];
	struct be_log log;
	struct pmu_err e;
	unsigned w = 0;
	int rc;

	be_log_open(&log, a, 16);
	rc = d->program(ctr, &c, &e);
	be_log_close();
	for (unsigned i = 0; i < log.used; i++)
		w += log.a[i].op == BE_OP_WRMSR;
	check(t, rc != 0, "%s accepted on counter %u", what, ctr);
	check(t, w == 0 && e.vector == 0, "%s on counter %u: %u writes, "
	      "vector %d: not refused by the driver", what, ctr, w,
	      e.vector);
	value(t, what, "%s", e.msg);
}

static void direct_reserved(struct tcase *t, unsigned ctr)
{
	uint32_t msr = SDM_P6_PERFEVTSEL0 + ctr;
	uint64_t before = 0, after = 0;
	int vec;

	vec = be_rdmsr(msr, &before);
	if (!check(t, vec == 0, "RDMSR PerfEvtSel%u (0x%x): vector %d", ctr,
		   msr, vec))
		return;
	for (unsigned bit = 21; bit < 64; bit++) {
		if (bit > 21 && bit < 32)
			continue;
		vec = be_wrmsr(msr, before | 1ull << bit);
		check(t, vec == VEC_GP, "PerfEvtSel%u bit %u: vector %d, "
		      "expected 13", ctr, bit, vec);
	}
	check(t, be_rdmsr(msr, &after) == 0 && after == before,
	      "PerfEvtSel%u 0x%llx changed to 0x%llx", ctr,
	      (unsigned long long)before, (unsigned long long)after);
}

static void test_reserved(struct tcase *t)
{
	struct sdm_sel inst = { .event = INST, .usr = 1 };
	const struct pmu_driver *d = pmu_ready(t, PMU_P6);
	struct pmu_config ok = sdm_config(inst);
	struct pmu_err e;
	uint64_t v = 0;
	int vec;

	if (!d || !check(t, d->init(&e) == 0, "init: %s", e.msg) ||
	    !check(t, d->program(1, &ok, &e) == 0, "program: %s", e.msg))
		return;
	refused(t, d, 0, sdm_sel(inst) | 1ull << 21, "anythread_bit21");
	refused(t, d, 1, sdm_sel(inst) | 1ull << 32, "bit32");
	refused(t, d, 0, sdm_sel(inst) | 1ull << 63, "bit63");
	refused(t, d, 0, sdm_sel(inst) | SDM_EN, "en_in_config");
	refused(t, d, 1, sdm_sel((struct sdm_sel){ .event = 0x01 }),
		"event_0x01");
	refused(t, d, 1, sdm_sel((struct sdm_sel){ .event = 0xc1 }),
		"flops_on_ctr1");
	refused(t, d, 0, sdm_sel((struct sdm_sel){ .event = 0x12 }),
		"mul_on_ctr0");
	refused(t, d, 2, sdm_sel(inst), "counter_2");
	direct_reserved(t, 0);
	direct_reserved(t, 1);
	vec = be_wrmsr(SDM_P6_PERFEVTSEL1, sdm_sel(inst) | SDM_EN);
	check(t, vec == 0 && be_rdmsr(SDM_P6_PERFEVTSEL1, &v) == 0,
	      "PerfEvtSel1 with bit 22: vector %d", vec);
	value(t, "sel1_bit22", "vector %d, reads 0x%llx", vec,
	      (unsigned long long)v);
	(void)be_wrmsr(SDM_P6_PERFEVTSEL1, 0);
}

TEST(p6_reserved, "p6/reserved-bits",
     "PerfEvtSel bit 21 and 63:32: the driver refuses, WRMSR raises #GP",
     test_reserved, 0);
