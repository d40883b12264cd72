/* Host tests for the P6 family PMU: the generations and the counter-write
 * rule (pmu/p6/regs.c), the event table (pmu/p6/events.c), the config
 * encoding, and the reference model (pmu/p6/model.c behind pmu/model.c)
 * fed synthetic single-step events.  The driver is in test_driver.c.
 *
 * Every expected value is written by hand from SDM Vol. 3B (order no.
 * 253669-060US) §18.22: PerfEvtSel event 7:0, unit mask 15:8, USR 16 (CPL
 * 1-3), OS 17 (CPL 0), E 18, PC 19, INT 20, EN 22 (PerfEvtSel0 only,
 * enables both counters), INV 23, CMASK 31:24; bit 21 and 63:32 reserved;
 * a counter write takes EAX sign-extended from bit 31 to 40 bits; and
 * from the events' names in Tables 19-35, 19-36 and 19-37.
 *
 * Stubs: cpu_info() returns a signature the test sets; trap_set_hook()
 * does nothing; tests/host/pmu/p6/stub_model.c links the model, answers
 * model_for() with it and counts the PMIs the model raises. */
#include <stdio.h>
#include <string.h>

#include "pmu/p6/regs.h"
#include "pmu/p6/events.h"
#include "pmu/model.h"
#include "pmu/backend.h"
#include "pmu/detect.h"
#include "arch/x86/trace.h"
#include "arch/x86/trap.h"
#include "tests/host/pmu/p6/stub_cpu.h"
#include "tests/host/pmu/p6/stub_model.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: tests/host/pmu/p6/stub_model.c tests/host/pmu/p6/stub_cpu.c pmu/model.c pmu/noise.c tests/host/arch/x86/stub_smp.c pmu/p6/regs.c pmu/p6/events.c pmu/evtsel.c pmu/sem.c pmu/lbr_model.c pmu/lbr.c tests/host/pmu/stub_pmu_access.c pmu/cpu_model.c lib/fmt.c lib/string.c pmu/emufault.c lib/escape.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define TOP (1ull << 40)
#define SEL0 0x186
#define SEL1 0x187
#define CTR0 0xc1
#define CTR1 0xc2

/* PerfEvtSel bits, by hand from Figure 18-60. */
#define USR (1ull << 16)
#define OS (1ull << 17)
#define EDGE (1ull << 18)
#define PC (1ull << 19)
#define INT (1ull << 20)
#define EN (1ull << 22)
#define INV (1ull << 23)
#define CMASK(c) ((uint64_t)(c) << 24)
#define UMASK(u) ((uint64_t)(u) << 8)

/* ---- stubs ------------------------------------------------------------ */

static const struct pmu_model *p6m;

/* A fresh CPU of this model with the P6 model live (stub_model.c). */
static void start(unsigned model)
{
	p6m = stub_p6_start(model);
}

/* ==== 1. generations and the counter-write rule ======================== */

/* Pentium Pro erratum 26 (Linux p6.c p6_pmu_rdpmc_quirk(), model 1 only:
 * "fixed in stepping 9 and above"). */
static void test_erratum26(void **state)
{
	static const struct {
		unsigned family, model, stepping, erratum;
	} cases[] = {
		{ 6, 1, 1, 1 }, { 6, 1, 7, 1 }, { 6, 1, 8, 1 }, { 6, 1, 9, 0 },
		{ 6, 1, 0xf, 0 }, { 6, 3, 1, 0 }, { 6, 5, 2, 0 },
		{ 5, 1, 1, 0 }, { 15, 1, 1, 0 },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct cpu_sig s = { .family = cases[i].family,
				     .model = cases[i].model,
				     .stepping = cases[i].stepping };

		if (!!p6_erratum26(&s) != (int)cases[i].erratum)
			fail_msg("%u/%u/%u: erratum26 %d, expected %u",
				 s.family, s.model, s.stepping,
				 p6_erratum26(&s), cases[i].erratum);
	}
}

/* LVTPC masked on PMI delivery: the Pentium M only (Linux
 * op_model_ppro.c: "Only P6 based Pentium M need to re-unmask the apic
 * vector"; the SDM's mask-on-delivery note names the Pentium 4 and Xeon). */
static void test_masks_lvtpc(void **state)
{
	(void)state;
	assert_true(p6_masks_lvtpc(P6_PM));
	assert_false(p6_masks_lvtpc(P6_PPRO));
	assert_false(p6_masks_lvtpc(P6_PII));
	assert_false(p6_masks_lvtpc(P6_PIII));
}

static void test_generations(void **state)
{
	static const struct {
		unsigned family, model, gen;
	} cases[] = {
		{ 6, 0x1, P6_PPRO }, { 6, 0x3, P6_PII }, { 6, 0x5, P6_PII },
		{ 6, 0x6, P6_PII }, { 6, 0x7, P6_PIII }, { 6, 0x8, P6_PIII },
		{ 6, 0xa, P6_PIII }, { 6, 0xb, P6_PIII }, { 6, 0x9, P6_PM },
		{ 6, 0xd, P6_PM }, { 6, 0xe, 0 }, { 6, 0xf, 0 },
		{ 6, 0x17, 0 }, { 5, 0x1, 0 }, { 15, 0x1, 0 },
		/* unlisted models that cpu_model.c calls P6: the common set */
		{ 6, 0x0, P6_PPRO }, { 6, 0x2, P6_PPRO }, { 6, 0x4, P6_PPRO },
		{ 6, 0xc, P6_PPRO },
	};

	for (unsigned i = 0; i < N(cases); i++) {
		struct cpu_sig s = { .family = cases[i].family,
				     .model = cases[i].model };

		if (p6_gen_of(&s) != cases[i].gen)
			fail_msg("family %u model 0x%x: generation %u, want %u",
				 cases[i].family, cases[i].model,
				 p6_gen_of(&s), cases[i].gen);
	}
	assert_string_equal(p6_gen_name(P6_PPRO), "ppro");
	assert_string_equal(p6_gen_name(P6_PM), "pentium-m");
}

/* EAX sign-extended from bit 31 to 40 bits, EDX ignored. */
static void test_ctr_written(void **state)
{
	static const struct {
		uint64_t wrote, holds;
		int writable;	/* that 40-bit value can be written */
	} cases[] = {
		{ 0, 0, 1 },
		{ 1, 1, 1 },
		{ 0x7fffffff, 0x7fffffff, 1 },
		{ 0x80000000, 0xff80000000ull, 0 },
		{ 0xfffffffb, 0xfffffffffbull, 0 },
		{ 0xffffffff, 0xffffffffffull, 0 },
		{ 0x100000000ull, 0, 0 },
		{ 0x100000005ull, 5, 0 },
		{ 0xff80000000ull, 0xff80000000ull, 1 },
		{ 0xfffffffffbull, 0xfffffffffbull, 1 },
		{ 0xffffffffffull, 0xffffffffffull, 1 },
		{ 0xff7fffffffull, 0x7fffffff, 0 },
		{ 0xdeadbeef12345678ull, 0x12345678, 0 },
		{ 0xffffffff00000000ull, 0, 0 },
		{ 0x10000000000ull, 0, 0 },
		{ 0x0000000080000001ull, 0xff80000001ull, 0 },
	};

	for (unsigned i = 0; i < N(cases); i++) {
		uint64_t got = p6_ctr_written(cases[i].wrote);

		if (got != cases[i].holds)
			fail_msg("WRMSR 0x%llx: counter 0x%llx, want 0x%llx",
				 (unsigned long long)cases[i].wrote,
				 (unsigned long long)got,
				 (unsigned long long)cases[i].holds);
		if (p6_ctr_writable(cases[i].wrote) != cases[i].writable)
			fail_msg("0x%llx writable: %d, want %d",
				 (unsigned long long)cases[i].wrote,
				 p6_ctr_writable(cases[i].wrote),
				 cases[i].writable);
	}
}

/* ==== 2. the event table =============================================== */

/* The modelled events and what they count, by hand (pmu/p6/events.c says
 * why far transfers are branches). */
static const struct {
	unsigned code;
	const char *name;
	uint32_t sem;
} modelled[] = {
	{ 0xc0, "INST_RETIRED", SEM_BIT(SEM_INSTRUCTIONS) },
	{ 0xc4, "BR_INST_RETIRED", SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR) },
	{ 0xc9, "BR_TAKEN_RETIRED", SEM_BIT(SEM_TAKEN) | SEM_BIT(SEM_FAR) },
	{ 0x43, "DATA_MEM_REFS", SEM_BIT(SEM_LOADS) | SEM_BIT(SEM_STORES) },
	{ 0x06, "SEGMENT_REG_LOADS", SEM_BIT(SEM_SEGLOADS) },
	{ 0x79, "CPU_CLK_UNHALTED", SEM_BIT(SEM_CLOCKS) },
};

static const unsigned gens[] = { P6_PPRO, P6_PII, P6_PIII, P6_PM };

static void test_event_sem_masks(void **state)
{
	unsigned n_sem = 0;

	for (unsigned i = 0; i < N(modelled); i++)
		for (unsigned g = 0; g < N(gens); g++)
			for (unsigned c = 0; c < 2; c++) {
				const struct p6_event *ev = p6_event_for(
					modelled[i].code, c, gens[g]);

				assert_non_null(ev);
				assert_string_equal(ev->name,
						    modelled[i].name);
				assert_int_equal(ev->sem, modelled[i].sem);
				assert_int_equal(ev->umask_bits, 0);
			}
	for (unsigned i = 0; i < p6_n_events; i++) {
		const struct p6_event *ev = &p6_events[i];

		assert_non_null(ev->name);
		if (ev->sem) {
			n_sem++;
			assert_null(ev->why_not);
		} else if (!ev->why_not || !ev->why_not[0]) {
			fail_msg("%s (0x%02x) has neither a meaning nor a "
				 "reason", ev->name, ev->code);
		}
	}
	assert_int_equal(n_sem, N(modelled));
}

/* Counter restrictions and generations, by hand from the tables. */
static void test_event_lookup(void **state)
{
	static const struct {
		unsigned code, ctr, gen;
		const char *name;	/* NULL: no event */
		unsigned umask_bits;
	} cases[] = {
		{ 0xc1, 0, P6_PPRO, "FLOPS", 0 },
		{ 0xc1, 1, P6_PPRO, NULL, 0 },
		{ 0x10, 1, P6_PIII, NULL, 0 },
		{ 0x14, 0, P6_PM, "CYCLES_DIV_BUSY", 0 },
		{ 0x11, 0, P6_PII, NULL, 0 },
		{ 0x11, 1, P6_PII, "FP_ASSIST", 0 },
		{ 0x12, 1, P6_PPRO, "MUL", 0 },
		{ 0x13, 0, P6_PPRO, NULL, 0 },
		{ 0xb0, 0, P6_PII, "MMX_INSTR_EXEC", 0 },
		{ 0xb0, 0, P6_PPRO, NULL, 0 },
		{ 0xb0, 1, P6_PIII, NULL, 0 },
		{ 0xb0, 1, P6_PM, NULL, 0 },
		{ 0xb3, 1, P6_PIII, "MMX_INSTR_TYPE_EXEC", 0x3f },
		{ 0xb3, 1, P6_PPRO, NULL, 0 },
		{ 0xce, 0, P6_PII, "MMX_INSTR_RET", 0 },
		{ 0xce, 0, P6_PIII, NULL, 0 },
		{ 0xce, 1, P6_PM, "EMON_SIMD_INSTR_RETIRED", 0 },
		{ 0xd8, 0, P6_PIII, "EMON_KNI_INST_RETIRED", 0x01 },
		{ 0xd8, 0, P6_PM, "EMON_SSE_SSE2_INST_RETIRED", 0x03 },
		{ 0xd8, 0, P6_PII, NULL, 0 },
		{ 0x07, 1, P6_PIII, "EMON_KNI_PREF_DISPATCHED", 0x03 },
		{ 0x07, 1, P6_PII, NULL, 0 },
		{ 0x29, 0, P6_PPRO, "L2_LD", 0x0f },
		{ 0x29, 0, P6_PM, "L2_LD", 0x3f },
		{ 0x27, 1, P6_PIII, "L2_M_LINES_OUTM", 0 },
		/* Table 19-36: the MESI and prefetch cell spans 29H, 24H,
		 * 26H and 27H: 3FH on each */
		{ 0x27, 1, P6_PM, "L2_M_LINES_OUT", 0x3f },
		{ 0x24, 0, P6_PM, "L2_LINES_IN", 0x3f },
		{ 0x26, 1, P6_PM, "L2_LINES_OUT", 0x3f },
		{ 0x62, 0, P6_PPRO, "BUS_DRDY_CLOCKS", 0x20 },
		{ 0x60, 0, P6_PPRO, "BUS_REQ_OUTSTANDING", 0 },
		{ 0x58, 0, P6_PM, "EMON_EST_TRANS", 0x02 },
		{ 0x58, 0, P6_PIII, NULL, 0 },
		{ 0x88, 1, P6_PM, "BR_INST_EXEC", 0 },
		{ 0xf8, 1, P6_PM, "EMON_PREF_RQSTS_DN", 0 },
		{ 0x01, 0, P6_PM, NULL, 0 },
		{ 0x00, 0, P6_PPRO, NULL, 0 },
		{ 0xff, 1, P6_PIII, NULL, 0 },
		{ 0xc0, 2, P6_PIII, NULL, 0 },
		{ 0xc0, 0, 0, NULL, 0 },
	};

	for (unsigned i = 0; i < N(cases); i++) {
		const struct p6_event *ev = p6_event_for(cases[i].code,
							 cases[i].ctr,
							 cases[i].gen);

		if (!cases[i].name) {
			if (ev)
				fail_msg("0x%02x ctr %u gen %u: %s, want none",
					 cases[i].code, cases[i].ctr,
					 cases[i].gen, ev->name);
			continue;
		}
		if (!ev || strcmp(ev->name, cases[i].name) ||
		    ev->umask_bits != cases[i].umask_bits)
			fail_msg("0x%02x ctr %u gen %u: %s/0x%x, want %s/0x%x",
				 cases[i].code, cases[i].ctr, cases[i].gen,
				 ev ? ev->name : "none",
				 ev ? ev->umask_bits : 0, cases[i].name,
				 cases[i].umask_bits);
	}
}

/* One entry per (code, counter, generation). */
static void test_event_unique(void **state)
{
	for (unsigned i = 0; i < p6_n_events; i++)
		for (unsigned j = i + 1; j < p6_n_events; j++)
			if (p6_events[i].code == p6_events[j].code &&
			    (p6_events[i].counters & p6_events[j].counters) &&
			    (p6_events[i].gens & p6_events[j].gens))
				fail_msg("0x%02x twice: %s and %s",
					 p6_events[i].code, p6_events[i].name,
					 p6_events[j].name);
}

static void test_umask_ok(void **state)
{
	const struct p6_event *inst = p6_event_for(0xc0, 0, P6_PIII);
	const struct p6_event *l2 = p6_event_for(0x2e, 0, P6_PIII);
	const struct p6_event *bus = p6_event_for(0x65, 1, P6_PIII);

	assert_true(p6_umask_ok(inst, 0));
	assert_false(p6_umask_ok(inst, 1));
	assert_false(p6_umask_ok(inst, 0x80));
	for (unsigned u = 0; u < 16; u++)
		assert_true(p6_umask_ok(l2, u));
	assert_false(p6_umask_ok(l2, 0x10));
	assert_true(p6_umask_ok(bus, 0x00));
	assert_true(p6_umask_ok(bus, 0x20));
	assert_false(p6_umask_ok(bus, 0x21));
	assert_false(p6_umask_ok(bus, 0x100));
}

/* ==== 3. the config encoding =========================================== */

/* p6_config: the SDM's bit positions, EN never set. */
static void test_config_encoding(void **state)
{
	struct evtsel s = { .event = 0xc0 };
	struct evtsel all = { .event = 0x79, .umask = 0xa5, .cmask = 0x3c,
			      .usr = 1, .os = 1, .edge = 1, .pc = 1,
			      .intr = 1, .en = 1, .inv = 1 };
	struct evtsel back;

	assert_int_equal(p6_config(&s).sel, 0xc0);
	assert_int_equal(p6_config(&s).aux, 0);
	s.usr = 1;
	assert_int_equal(p6_config(&s).sel, 0xc0 | USR);
	s = (struct evtsel){ .os = 1 };
	assert_int_equal(p6_config(&s).sel, OS);
	s = (struct evtsel){ .edge = 1 };
	assert_int_equal(p6_config(&s).sel, EDGE);
	s = (struct evtsel){ .pc = 1 };
	assert_int_equal(p6_config(&s).sel, PC);
	s = (struct evtsel){ .intr = 1 };
	assert_int_equal(p6_config(&s).sel, INT);
	s = (struct evtsel){ .inv = 1 };
	assert_int_equal(p6_config(&s).sel, INV);
	s = (struct evtsel){ .cmask = 0xff };
	assert_int_equal(p6_config(&s).sel, CMASK(0xff));
	s = (struct evtsel){ .umask = 0xff };
	assert_int_equal(p6_config(&s).sel, UMASK(0xff));
	s = (struct evtsel){ .en = 1 };
	assert_int_equal(p6_config(&s).sel, 0);
	assert_int_equal(p6_config(&all).sel, 0x79 | UMASK(0xa5) | USR | OS |
			 EDGE | PC | INT | INV | CMASK(0x3c));
	back = evtsel_decode(p6_config(&all).sel);
	assert_int_equal(back.event, 0x79);
	assert_int_equal(back.umask, 0xa5);
	assert_int_equal(back.cmask, 0x3c);
	assert_true(back.usr && back.os && back.edge && back.pc &&
		    back.intr && back.inv);
	assert_false(back.en);
	assert_false(back.any);
	assert_int_equal(P6_EVTSEL_RESERVED,
			 (1ull << 21) | 0xffffffff00000000ull);
}

/* ==== 4. the model ===================================================== */

static void test_model_registered(void **state)
{
	start(8);
	assert_int_equal(p6m->kind, PMU_P6);
	assert_int_equal(stub_rd(SEL0), 0);
	assert_int_equal(stub_rd(SEL1), 0);
	assert_int_equal(stub_rd(CTR0), 0);
	assert_int_equal(stub_rd(CTR1), 0);
}

/* EN of PerfEvtSel0 enables both; EN in PerfEvtSel1 enables nothing. */
static void test_model_en(void **state)
{
	start(8);
	stub_wr(SEL0, 0xc0 | USR);
	stub_wr(SEL1, 0xc0 | USR | EN);
	stub_steps(3, 5);
	assert_int_equal(stub_rd(CTR0), 0);
	assert_int_equal(stub_rd(CTR1), 0);
	assert_int_equal(stub_rd(SEL1), 0xc0 | USR | EN);
	stub_wr(SEL0, 0xc0 | EN);		/* counter 0 at no CPL */
	stub_wr(SEL1, 0xc0 | USR);
	stub_steps(3, 4);
	assert_int_equal(stub_rd(CTR0), 0);
	assert_int_equal(stub_rd(CTR1), 4);
	stub_wr(SEL0, 0xc0 | USR | EN);
	stub_steps(3, 3);
	assert_int_equal(stub_rd(CTR0), 3);
	assert_int_equal(stub_rd(CTR1), 7);
	stub_wr(SEL0, 0xc0 | USR);
	stub_steps(3, 3);
	assert_int_equal(stub_rd(CTR0), 3);
	assert_int_equal(stub_rd(CTR1), 7);
}

/* USR counts at CPL 1, 2 and 3; OS at CPL 0. */
static void test_model_usr_os(void **state)
{
	static const struct {
		uint64_t bits;
		uint64_t want;	/* after 1 step at CPL 0, 2 at 1, 3 at 2,
				 * 4 at 3 */
	} cases[] = {
		{ 0, 0 }, { USR, 9 }, { OS, 1 }, { USR | OS, 10 },
	};

	for (unsigned i = 0; i < N(cases); i++) {
		start(1);
		stub_wr(SEL1, 0xc0 | cases[i].bits);
		stub_wr(SEL0, 0x79 | cases[i].bits | EN);
		for (unsigned cpl = 0; cpl < 4; cpl++)
			stub_steps(cpl, cpl + 1);
		if (stub_rd(CTR0) != cases[i].want || stub_rd(CTR1) != cases[i].want)
			fail_msg("USR/OS 0x%llx: %llu/%llu, want %llu",
				 (unsigned long long)cases[i].bits,
				 (unsigned long long)stub_rd(CTR0),
				 (unsigned long long)stub_rd(CTR1),
				 (unsigned long long)cases[i].want);
	}
}

/* DATA_MEM_REFS over steps with 2, 1, 0, 1, 2, 0, 2 data accesses:
 * CMASK, INV and E as §18.22.1 defines them, by hand. */
static const struct {
	uint8_t loads, stores;
} mem_steps[] = {
	{ 1, 1 }, { 1, 0 }, { 0, 0 }, { 0, 1 }, { 1, 1 }, { 0, 0 }, { 2, 0 },
};

static uint64_t mem_run(uint64_t filter)
{
	start(5);
	stub_wr(SEL1, 0);
	stub_wr(SEL0, 0x43 | USR | EN | filter);
	for (unsigned i = 0; i < N(mem_steps); i++) {
		struct insn_event e = { .cpl = 3, .retired = 1,
					.loads = mem_steps[i].loads,
					.stores = mem_steps[i].stores };

		model_feed(&e, NULL);
	}
	return stub_rd(CTR0);
}

static void test_model_cmask_inv_edge(void **state)
{
	static const struct {
		uint64_t filter, want;
	} cases[] = {
		{ 0, 8 },			/* every access */
		{ INV, 8 },			/* INV ignored: no CMASK */
		{ CMASK(1), 5 },		/* steps with >= 1 */
		{ CMASK(2), 3 },		/* >= 2 */
		{ CMASK(3), 0 },
		{ CMASK(255), 0 },
		{ CMASK(1) | INV, 2 },		/* < 1 */
		{ CMASK(2) | INV, 4 },		/* < 2 */
		{ CMASK(3) | INV, 7 },
		{ EDGE, 3 },			/* >0: 1 1 0 1 1 0 1 */
		{ EDGE | CMASK(2), 3 },		/* >=2: 1 0 0 0 1 0 1 */
		{ EDGE | CMASK(1) | INV, 2 },	/* <1: 0 0 1 0 0 1 0 */
		{ EDGE | CMASK(3), 0 },
	};

	for (unsigned i = 0; i < N(cases); i++) {
		uint64_t got = mem_run(cases[i].filter);

		if (got != cases[i].want)
			fail_msg("filter 0x%llx: %llu, want %llu",
				 (unsigned long long)cases[i].filter,
				 (unsigned long long)got,
				 (unsigned long long)cases[i].want);
	}
}

/* E: a step at a CPL the counter leaves out deasserts the condition; a
 * new selection starts deasserted. */
static void test_model_edge_state(void **state)
{
	start(8);
	stub_wr(SEL0, 0xc0 | USR | EN | EDGE);
	stub_steps(3, 3);
	assert_int_equal(stub_rd(CTR0), 1);
	stub_steps(0, 1);
	stub_steps(3, 2);
	assert_int_equal(stub_rd(CTR0), 2);
	stub_wr(SEL0, 0xc0 | USR | EN | EDGE);
	stub_steps(3, 1);
	assert_int_equal(stub_rd(CTR0), 3);
}

/* The events the trace cannot see, codes the tables do not list, unit
 * masks an event does not define: nothing, whatever the filter. */
static void test_model_unmodelled_never_count(void **state)
{
	static const uint64_t sels[] = {
		0x45, 0x45 | CMASK(1) | INV, 0x01, 0x01 | CMASK(1) | INV,
		0x01 | EDGE | CMASK(1) | INV, 0xc0 | UMASK(1),
		0xc0 | UMASK(1) | CMASK(1) | INV, 0x2e | UMASK(0x0f),
		0xb0,		/* Pentium II only; this is a III */
	};

	for (unsigned i = 0; i < N(sels); i++) {
		start(8);
		stub_wr(SEL1, sels[i] | USR);
		stub_wr(SEL0, sels[i] | USR | EN);
		stub_steps(3, 5);
		if (stub_rd(CTR0) || stub_rd(CTR1))
			fail_msg("selection 0x%llx counted %llu/%llu",
				 (unsigned long long)sels[i],
				 (unsigned long long)stub_rd(CTR0),
				 (unsigned long long)stub_rd(CTR1));
	}
}

/* What each modelled event adds over one synthetic stream at CPL 3. */
static void test_model_events(void **state)
{
	static const struct insn_event stream[] = {
		{ .cpl = 3, .retired = 1, .stores = 1 },	/* push */
		{ .cpl = 3, .retired = 1, .flags = DEC_BRANCH | DEC_COND },
		{ .cpl = 3, .retired = 1, .flags = DEC_BRANCH | DEC_CALL |
		  EV_TAKEN, .stores = 1 },
		{ .cpl = 3, .retired = 0, .flags = DEC_REP_STRING,
		  .iterations = 1, .loads = 1, .stores = 1 },
		{ .cpl = 3, .retired = 1, .flags = DEC_REP_STRING,
		  .iterations = 1, .loads = 1, .stores = 1 },
		{ .cpl = 3, .retired = 1, .flags = DEC_SEGLOAD, .loads = 1 },
		{ .cpl = 3, .retired = 1, .flags = DEC_FAR | EV_TAKEN,
		  .stores = 2 },				/* int n */
		{ .cpl = 3, .retired = 1, .flags = DEC_BRANCH | DEC_RET |
		  DEC_INDIRECT | EV_TAKEN, .loads = 1 },
	};
	static const struct {
		unsigned code;
		uint64_t want;
	} cases[] = {
		{ 0xc0, 7 },	/* all but the REP iteration */
		{ 0xc4, 4 },	/* jcc, call, int n, ret */
		{ 0xc9, 3 },	/* call, int n, ret */
		{ 0x43, 10 },	/* 4 loads + 6 stores */
		{ 0x06, 1 },
		{ 0x79, 8 },	/* one clock per step */
	};

	for (unsigned i = 0; i < N(cases); i++) {
		start(13);
		stub_wr(SEL0, cases[i].code | USR | EN);
		for (unsigned k = 0; k < N(stream); k++)
			model_feed(&stream[k], NULL);
		if (stub_rd(CTR0) != cases[i].want)
			fail_msg("0x%02x: %llu, want %llu", cases[i].code,
				 (unsigned long long)stub_rd(CTR0),
				 (unsigned long long)cases[i].want);
	}
}

/* An aggregated step (e->more) counts as 1 + more cycles. */
static void test_model_aggregated(void **state)
{
	struct insn_event e = { .cpl = 3, .retired = 1, .loads = 1,
				.stores = 1, .more = 4 };

	start(8);
	stub_wr(SEL1, 0x43 | USR | CMASK(2));
	stub_wr(SEL0, 0x43 | USR | EN);
	model_feed(&e, NULL);
	assert_int_equal(stub_rd(CTR0), 10);
	assert_int_equal(stub_rd(CTR1), 5);
}

/* 40-bit wrap; INT raises one PMI per wrap, the LVTPC left unmasked on a
 * Pentium III (model 8: only the Pentium M masks it, test_masks_lvtpc);
 * without INT none. */
static void test_model_overflow(void **state)
{
	start(8);
	stub_wr(CTR0, 0xfffffffe);		/* 2^40 - 2 */
	stub_wr(CTR1, 0xfffffffe);
	stub_wr(SEL1, 0xc0 | USR);
	stub_wr(SEL0, 0xc0 | USR | INT | EN);
	stub_steps(3, 1);
	assert_int_equal(stub_rd(CTR0), TOP - 1);
	assert_int_equal(stub_pmi.calls, 0);
	stub_steps(3, 1);
	assert_int_equal(stub_rd(CTR0), 0);
	assert_int_equal(stub_rd(CTR1), 0);
	assert_int_equal(stub_pmi.calls, 1);
	assert_int_equal(stub_pmi.mask_after, 0);
	stub_steps(3, 3);
	assert_int_equal(stub_rd(CTR0), 3);
	assert_int_equal(stub_pmi.calls, 1);
	/* INT on counter 1 only */
	stub_wr(CTR0, 0xffffffff);
	stub_wr(CTR1, 0xffffffff);
	stub_wr(SEL1, 0xc0 | USR | INT);
	stub_wr(SEL0, 0xc0 | USR | EN);
	stub_steps(3, 1);
	assert_int_equal(stub_pmi.calls, 2);
	/* no wrap, no PMI */
	stub_steps(3, 100);
	assert_int_equal(stub_pmi.calls, 2);
}

/* Reserved bits raise #GP and change nothing; bit 22 of PerfEvtSel1 is
 * kept; counter writes never fault. */
static void test_model_writes(void **state)
{
	start(8);
	stub_wr(SEL0, 0x0c0 | USR);
	stub_wr(SEL1, 0x079 | OS);
	for (unsigned bit = 21; bit < 64; bit++) {
		if (bit > 21 && bit < 32)
			continue;
		assert_int_equal(p6m->wrmsr(SEL0, 1ull << bit), VEC_GP);
		assert_int_equal(p6m->wrmsr(SEL1, 0x79 | 1ull << bit), VEC_GP);
	}
	assert_int_equal(stub_rd(SEL0), 0x0c0 | USR);
	assert_int_equal(stub_rd(SEL1), 0x079 | OS);
	stub_wr(SEL1, 0xffdfffffull);	/* every defined bit, EN included */
	assert_int_equal(stub_rd(SEL1), 0xffdfffffull);
	stub_wr(SEL0, 0xffdfffffull);
	assert_int_equal(stub_rd(SEL0), 0xffdfffffull);
	stub_wr(CTR0, 0x80000000);
	assert_int_equal(stub_rd(CTR0), 0xff80000000ull);
	stub_wr(CTR1, 0xabcd00000007ull);
	assert_int_equal(stub_rd(CTR1), 7);
}

static void test_model_rdpmc(void **state)
{
	uint64_t v = 0;

	start(1);
	stub_wr(CTR0, 0x12345678);
	stub_wr(CTR1, 0xfedcba98);
	assert_int_equal(p6m->rdpmc(0, &v), 0);
	assert_int_equal(v, 0x12345678);
	assert_int_equal(p6m->rdpmc(1, &v), 0);
	assert_int_equal(v, 0xfffedcba98ull);
	assert_int_equal(p6m->rdpmc(2, &v), VEC_GP);
	assert_int_equal(p6m->rdpmc(0x40000000, &v), VEC_GP);
}

/* IA32_DEBUGCTL (1D9H) is modelled for its LBR (bit 0) and BTF (bit 1)
 * flags, the P6's DebugCtlMSR and the Pentium M's DEBUGCTLB alike (SDM
 * Vol. 3B, order no. 253669, §17.4.1 and the P6 / Pentium M LBR
 * sections): they read back as written. */
static void test_model_unknown_msrs(void **state)
{
	static const uint32_t msrs[] = {
		0x10, 0x11, 0x12, 0xc0, 0xc3, 0x185, 0x188, 0x38f,
	};
	uint64_t v;

	start(13);
	for (unsigned i = 0; i < N(msrs); i++) {
		assert_int_equal(p6m->rdmsr(msrs[i], &v), BE_NOT_MODELLED);
		assert_int_equal(p6m->wrmsr(msrs[i], 0), BE_NOT_MODELLED);
	}
	assert_int_equal(p6m->wrmsr(0x1d9, 0x3), 0);
	assert_int_equal(p6m->rdmsr(0x1d9, &v), 0);
	assert_int_equal(v, 0x3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generations),
		cmocka_unit_test(test_erratum26),
		cmocka_unit_test(test_masks_lvtpc),
		cmocka_unit_test(test_ctr_written),
		cmocka_unit_test(test_event_sem_masks),
		cmocka_unit_test(test_event_lookup),
		cmocka_unit_test(test_event_unique),
		cmocka_unit_test(test_umask_ok),
		cmocka_unit_test(test_config_encoding),
		cmocka_unit_test(test_model_registered),
		cmocka_unit_test(test_model_en),
		cmocka_unit_test(test_model_usr_os),
		cmocka_unit_test(test_model_cmask_inv_edge),
		cmocka_unit_test(test_model_edge_state),
		cmocka_unit_test(test_model_unmodelled_never_count),
		cmocka_unit_test(test_model_events),
		cmocka_unit_test(test_model_aggregated),
		cmocka_unit_test(test_model_overflow),
		cmocka_unit_test(test_model_writes),
		cmocka_unit_test(test_model_rdpmc),
		cmocka_unit_test(test_model_unknown_msrs),
	};

	return cmocka_run_group_tests_name("p6", tests, NULL, NULL);
}
