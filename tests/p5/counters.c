/* p5 counter tests: two events at once, one half programmed while the
 * other counts, 40-bit wrap-around, clocks against events, pin control,
 * reserved bits, and RDPMC against RDMSR (SDM Vol. 3B §18.23.1). */
#include "p5_test.h"
#include "../../arch/x86/trap.h"
#include "../../pmu/backend.h"

#define RUN(r, bench, n, cpl, es0, cc0, es1, cc1)                            \
	p5_setup(r, bench, n, cpl, (struct p5_half){ es0, cc0, 0 },          \
		 (struct p5_half){ es1, cc1, 0 })

/* CTR0 counts DATA_READ, CTR1 DATA_WRITE over the same run. */
static void test_two_events(struct tcase *t)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P5);
	struct pmu_run r;

	RUN(&r, "call-ret", 50, 3, 0x00, SDM_CC_EV_ANY, 0x01, SDM_CC_EV_ANY);
	if (!d || !pmu_run(t, &r))
		return;
	p5_check(t, d, &r, 0);
	p5_check(t, d, &r, 1);
	check(t, r.got[0] != r.got[1], "both counters read %llu: the events "
	      "were not told apart", (unsigned long long)r.got[0]);
}

TEST(p5_two_events, "p5/two-counters-two-events",
     "CTR0 DATA_READ and CTR1 DATA_WRITE count their own events at once",
     test_two_events, 0);

/*
 * CTR0 counts CPL 3 instructions, enabled, through two runs; between them
 * CTR1's half is programmed while CTR0 keeps counting.  CTR0's half must
 * be untouched and CTR0 must hold both runs; CTR1 only the second.  Both
 * count CPL 3 only, so the driver's own code never counts: exact on
 * hardware too, with the ring-3 trampoline's share of each run
 * (pmu_ring3_sem_edges(): 2 instructions, 6 stores; 0 on the model).
 */
static void test_half(struct tcase *t)
{
	struct p5_half c0 = { 0x16, SDM_CC_EV_USR, 0 };
	struct p5_half c1_off = { 0x01, SDM_CC_NONE, 0 };
	struct p5_half c1 = { 0x01, SDM_CC_EV_USR, 0 };
	struct oracle_counts oa, ob;
	struct pmu_err e;
	uint64_t mid = 0, v0 = 0, v1 = 0, first, want0, want1;
	uint64_t edges_ins = pmu_ring3_sem_edges(SEM_BIT(SEM_INSTRUCTIONS));
	uint32_t cesr = 0;

	if (!pmu_ready(t, PMU_P5) ||
	    !check(t, p5_init(&e) == 0, "init: %s", e.msg) ||
	    !pmu_oracle_first(t, "counted-loop", 100, &oa) ||
	    !pmu_oracle_first(t, "call-ret", 20, &ob))
		return;
	if (!check(t, p5_program(1, &c1_off, &e) == 0, "%s", e.msg) ||
	    !check(t, p5_program(0, &c0, &e) == 0 && p5_start(0, &e) == 0,
		   "%s", e.msg) ||
	    !pmu_exec(t, "counted-loop", 100, &oa))
		return;
	/* CTR0 is live: program the other half only. */
	if (!check(t, p5_read(0, &mid, &e) == 0, "%s", e.msg) ||
	    !check(t, p5_program(1, &c1, &e) == 0 && p5_start(1, &e) == 0,
		   "%s", e.msg) ||
	    !check(t, p5_read_cesr(&cesr, &e) == 0, "%s", e.msg) ||
	    !pmu_exec(t, "call-ret", 20, &ob))
		return;
	if (!check(t, p5_stop(0, &e) == 0 && p5_stop(1, &e) == 0, "%s",
		   e.msg) ||
	    !check(t, p5_read(0, &v0, &e) == 0 && p5_read(1, &v1, &e) == 0,
		   "%s", e.msg))
		return;
	first = oa.c[3][SEM_INSTRUCTIONS] + edges_ins;
	want0 = first + ob.c[3][SEM_INSTRUCTIONS] + edges_ins;
	want1 = ob.c[3][SEM_STORES] + pmu_ring3_sem_edges(SEM_BIT(SEM_STORES));
	value(t, "cesr_after_ctr1", "0x%08x", cesr);
	value(t, "ctr0_after_first", "%llu", (unsigned long long)mid);
	value(t, "ctr0", "%llu", (unsigned long long)v0);
	value(t, "ctr0_oracle", "%llu = %llu + %llu (+%llu per run: the "
	      "ring-3 trampoline)", (unsigned long long)want0,
	      (unsigned long long)oa.c[3][SEM_INSTRUCTIONS],
	      (unsigned long long)ob.c[3][SEM_INSTRUCTIONS],
	      (unsigned long long)edges_ins);
	value(t, "ctr1", "%llu", (unsigned long long)v1);
	value(t, "ctr1_oracle", "%llu", (unsigned long long)want1);
	check(t, cesr_get_half(cesr, 0).es == c0.es &&
	      cesr_get_half(cesr, 0).cc == c0.cc,
	      "CTR0's half changed: CESR 0x%08x", cesr);
	check(t, mid == first, "CTR0 after the first run %llu, oracle %llu",
	      (unsigned long long)mid, (unsigned long long)first);
	check(t, v0 == want0, "CTR0 %llu, oracle %llu",
	      (unsigned long long)v0, (unsigned long long)want0);
	check(t, v1 == want1, "CTR1 %llu, oracle %llu",
	      (unsigned long long)v1, (unsigned long long)want1);
}

TEST(p5_half, "p5/program-one-half-other-counts",
     "programming CTR1's half while CTR0 counts leaves CTR0 counting",
     test_half, 0);

/* A counter preset just below 2^40 wraps to a small value; bits 63:40
 * stay clear. */
static void test_wrap(struct tcase *t)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P5);
	struct pmu_run r;

	RUN(&r, "nops", 10, 3, 0x16, SDM_CC_EV_USR, 0x16, SDM_CC_EV_USR);
	r.preset[0] = SDM_P5_CTR_TOP - 5;		/* 2^40 - 5 */
	r.preset[1] = SDM_P5_CTR_TOP - 1000001;	/* far from wrapping */
	if (!d || !pmu_run(t, &r))
		return;
	value(t, "ctr0_preset", "0x%llx", (unsigned long long)r.preset[0]);
	p5_check(t, d, &r, 0);
	p5_check(t, d, &r, 1);
	check(t, r.got[0] < 1000, "CTR0 0x%llx did not wrap past 2^40",
	      (unsigned long long)r.got[0]);
	check(t, !(r.got[0] >> SDM_P5_CTR_BITS) &&
	      !(r.got[1] >> SDM_P5_CTR_BITS),
	      "bits above 39 set: 0x%llx 0x%llx",
	      (unsigned long long)r.got[0], (unsigned long long)r.got[1]);
}

TEST(p5_wrap, "p5/ctr-wraps-at-2^40",
     "a counter preset to 2^40-5 wraps to a small value", test_wrap, 0);

/* Clocks and events differ: CC=110 on DATA_READ counts the clocks during
 * which data reads happen (one model clock per REP MOVSB iteration, each
 * of which reads), CC=010 on INSTRUCTIONS_EXECUTED counts the instructions
 * (the REP MOVSB once). */
static void test_clocks(struct tcase *t)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P5);
	struct pmu_run r;

	RUN(&r, "rep-movsb", 64, 3, 0x00, SDM_CC_CLK_USR, 0x16, SDM_CC_EV_USR);
	if (!d || !pmu_run(t, &r))
		return;
	p5_check(t, d, &r, 0);
	p5_check(t, d, &r, 1);
	check(t, r.got[0] > r.got[1], "clocks %llu not above instructions "
	      "%llu", (unsigned long long)r.got[0],
	      (unsigned long long)r.got[1]);
	if (pmu_on_model())
		value(t, "clock", "model clock: one cycle per traced step");
}

TEST(p5_clocks, "p5/clocks-vs-events",
     "CC=110 counts DATA_READ's clocks, CC=010 instructions", test_clocks,
     0);

/* PC0/PC1 (bits 9, 25) are kept as programmed, each half on its own. */
static void test_pin_control(struct tcase *t)
{
	struct p5_half h0 = { 0x16, SDM_CC_NONE, 1 }, h1 = { 0x00, SDM_CC_NONE, 0 };
	struct pmu_err e;
	uint32_t cesr = 0;

	if (!pmu_ready(t, PMU_P5) ||
	    !check(t, p5_init(&e) == 0, "init: %s", e.msg))
		return;
	if (!check(t, p5_program(0, &h0, &e) == 0, "PC0=1: %s", e.msg) ||
	    !check(t, p5_program(1, &h1, &e) == 0, "PC1=0: %s", e.msg) ||
	    !check(t, p5_read_cesr(&cesr, &e) == 0, "%s", e.msg))
		return;
	value(t, "cesr_pc0_1_pc1_0", "0x%08x", cesr);
	check(t, (cesr >> 9 & 1) == 1 && (cesr >> 25 & 1) == 0,
	      "CESR 0x%08x: PC0 %u PC1 %u, expected 1 and 0", cesr,
	      cesr >> 9 & 1, cesr >> 25 & 1);
	h1.pc = 1;
	h0.pc = 0;
	if (!check(t, p5_program(1, &h1, &e) == 0, "PC1=1: %s", e.msg) ||
	    !check(t, p5_read_cesr(&cesr, &e) == 0, "%s", e.msg))
		return;
	value(t, "cesr_pc1_1", "0x%08x", cesr);
	check(t, (cesr >> 9 & 1) == 1 && (cesr >> 25 & 1) == 1,
	      "CESR 0x%08x: PC0 %u PC1 %u, expected 1 and 1", cesr,
	      cesr >> 9 & 1, cesr >> 25 & 1);
	if (!check(t, p5_program(0, &h0, &e) == 0, "PC0=0: %s", e.msg) ||
	    !check(t, p5_read_cesr(&cesr, &e) == 0, "%s", e.msg))
		return;
	check(t, (cesr >> 9 & 1) == 0 && (cesr >> 25 & 1) == 1,
	      "CESR 0x%08x: PC0 %u PC1 %u, expected 0 and 1", cesr,
	      cesr >> 9 & 1, cesr >> 25 & 1);
	/* Stopping a counter clears its CC only: PC1 and ES1 stay. */
	if (!check(t, p5_stop(1, &e) == 0, "stop CTR1: %s", e.msg) ||
	    !check(t, p5_read_cesr(&cesr, &e) == 0, "%s", e.msg))
		return;
	value(t, "cesr_ctr1_stopped", "0x%08x", cesr);
	check(t, (cesr >> 25 & 1) == 1 && (cesr >> 22 & 7) == 0 &&
	      (cesr >> 16 & 0x3f) == 0x00, "CESR 0x%08x after stopping CTR1: "
	      "PC1 %u CC1 %u, expected 1 and 0", cesr, cesr >> 25 & 1,
	      cesr >> 22 & 7);
}

TEST(p5_pc, "p5/pin-control-kept",
     "PC0 and PC1 read back as programmed, each without the other",
     test_pin_control, 0);

/*
 * Reserved bits: the driver refuses them with a message and writes
 * nothing; written directly, the CESR (bits 10-15, 26-63) and the counters
 * (bits 40-63) raise #GP(0) and keep their value (SDM Vol. 2B WRMSR).
 */
static void test_reserved(struct tcase *t)
{
	struct p5_half bad_es = { 0x10, SDM_CC_EV_ANY, 0 };	/* reserved */
	struct p5_half bad_cc = { 0x16, 8, 0 };
	struct pmu_err e;
	uint32_t before = 0, after = 0;
	uint64_t ctr = 0;
	int vec;

	if (!pmu_ready(t, PMU_P5) ||
	    !check(t, p5_init(&e) == 0, "init: %s", e.msg) ||
	    !check(t, p5_read_cesr(&before, &e) == 0, "%s", e.msg))
		return;
	check(t, p5_program(0, &bad_es, &e) != 0, "ES0=0x10 (reserved) "
	      "accepted");
	value(t, "es_0x10", "%s", e.msg);
	check(t, p5_program(1, &bad_cc, &e) != 0, "CC1=8 accepted");
	value(t, "cc_8", "%s", e.msg);
	check(t, p5_write(0, 1ull << 40, &e) != 0, "CTR0=2^40 accepted");
	value(t, "ctr_2^40", "%s", e.msg);
	check(t, p5_program(2, &bad_es, &e) != 0, "counter 2 accepted");
	if (!sdm_p5_mmx()) {
		struct p5_half mmx = { 0x2b, SDM_CC_EV_ANY, 0 };

		check(t, p5_program(0, &mmx, &e) != 0, "MMX event 0x2b "
		      "accepted on a Pentium without MMX");
	}
	for (unsigned bit = 10; bit < 64; bit++) {
		if (bit >= 16 && bit <= 25)
			continue;
		vec = be_wrmsr(SDM_P5_CESR, before | 1ull << bit);
		check(t, vec == VEC_GP, "CESR bit %u: vector %d, expected 13",
		      bit, vec);
	}
	vec = be_wrmsr(SDM_P5_CTR0, 1ull << 40);
	check(t, vec == VEC_GP, "CTR0 bit 40: vector %d, expected 13", vec);
	check(t, p5_read_cesr(&after, &e) == 0 && after == before,
	      "CESR 0x%08x changed to 0x%08x", before, after);
	check(t, p5_read(0, &ctr, &e) == 0 && !(ctr >> 40),
	      "CTR0 0x%llx", (unsigned long long)ctr);
	value(t, "cesr", "0x%08x", after);
}

TEST(p5_reserved, "p5/reserved-bits-rejected",
     "reserved CESR/CTR bits: the driver refuses, WRMSR raises #GP",
     test_reserved, 0);

/* RDPMC exists on the Pentium with MMX technology only: there it reads
 * what RDMSR reads; elsewhere it is #UD. */
static void test_rdpmc(struct tcase *t)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P5);
	struct pmu_run r;
	struct pmu_err e;
	uint64_t v;

	RUN(&r, "counted-loop", 50, 3, 0x16, SDM_CC_EV_USR, 0x00, SDM_CC_EV_USR);
	if (!d || !pmu_run(t, &r))
		return;
	value(t, "rdpmc_exists", "%d", sdm_p5_mmx());
	if (sdm_p5_mmx() && !p5_rdpmc_usable()) {
		check(t, p5_rdpmc(0, &v, &e) != 0, "erratum 74: the driver "
		      "used RDPMC");
		value(t, "erratum74", "%s", e.msg);
		return;
	}
	if (!sdm_p5_mmx()) {
		check(t, p5_rdpmc(0, &v, &e) != 0 && e.vector == VEC_UD,
		      "RDPMC on a Pentium without MMX: vector %d, expected 6",
		      e.vector);
		return;
	}
	for (unsigned c = 0; c < 2; c++) {
		check(t, p5_rdpmc(c, &v, &e) == 0, "RDPMC %u: %s", c, e.msg);
		value(t, c ? "rdpmc1" : "rdpmc0", "%llu", (unsigned long long)v);
		check(t, v == r.got[c], "RDPMC %u %llu != RDMSR %llu", c,
		      (unsigned long long)v, (unsigned long long)r.got[c]);
	}
	check(t, be_rdpmc(2, &v) == VEC_GP, "RDPMC 2 did not raise #GP");
}

TEST(p5_rdpmc, "p5/rdpmc-agrees-with-rdmsr",
     "RDPMC reads CTR0/CTR1 as RDMSR does (MMX), #UD without MMX",
     test_rdpmc, 0);
