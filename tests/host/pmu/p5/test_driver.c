/* Host tests for the P5 driver's ops table (p5_driver, struct pmu_driver
 * of pmu/driver.h) on the model backend, and for the order in which
 * p5_program() touches the registers.
 *
 * Unlike test_regs.c, which stubs be_rdmsr/be_wrmsr/be_rdpmc, this links the
 * real pmu/backend.c: backend_select(BACKEND_MODEL, ...) puts the P5
 * reference model behind the driver, as backend=model does on the target,
 * and the backend's access log (be_log_open) records every access the
 * driver makes.  The hardware accessors (*_safe) are stubs that fail the
 * test if the model backend ever reaches them.
 *
 * The order (SDM Vol. 3B §18.23.1: a counter must be stopped and cleared
 * or preset before its event is changed): p5_program(ctr, new) writes
 * first the CESR with ctr's CC 000 and its OLD ES, then 0 to ctr's CTR,
 * then the CESR with the NEW ES and CC still 000, the other half never
 * changing; p5_start(ctr) then writes the CESR once, changing ctr's CC
 * only.  Expected CESR values are written by hand: ES0 5:0, CC0 8:6, PC0
 * 9, ES1 21:16, CC1 24:22, PC1 25. */
#include <stdio.h>
#include <string.h>

#include "pmu/p5/regs.h"
#include "pmu/p5/events.h"
#include "pmu/p5/driver.h"
#include "pmu/driver.h"
#include "pmu/generation.h"
#include "pmu/backend.h"
#include "pmu/inject.h"
#include "pmu/model.h"
#include "pmu/detect.h"
#include "arch/x86/safe.h"
#include "arch/x86/trace.h"
#include "arch/x86/trap.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* pmu/backend.c pmu/inject.c names its log pointer "log", which the host compiler's
 * -Wshadow reports as shadowing the built-in log(); host-test.sh hands
 * the words below to gcc as they are, so goes with them
 * (the target builds with -fno-builtin, which has no such built-in). */
/* host-sources: tests/host/pmu/p5/stub_model.c pmu/model.c pmu/noise.c tests/host/arch/x86/stub_smp.c tests/host/arch/x86/stub_trace_window.c pmu/backend.c pmu/window.c pmu/inject.c pmu/p5/regs.c pmu/p5/events.c pmu/p5/driver.c pmu/driver.c pmu/p6/driver.c pmu/p6/model.c pmu/lbr_model.c pmu/lbr.c pmu/p6/regs.c pmu/p6/events.c pmu/evtsel.c pmu/sem.c pmu/cpu_model.c lib/fmt.c lib/string.c pmu/generation.c pmu/p5/generation.c pmu/p6/generation.c tests/host/pmu/netburst/stub_generation.c tests/host/pmu/perfmon/stub_generation.c pmu/pt/generation.c pmu/emufault.c lib/escape.c */

/* Every generation's descriptor is linked, as in the image (pmu_describe
 * names each kind from them): the P5's and the P6's with their drivers
 * and models; the NetBurst's and perfmon's alone, without driver or model
 * (tests/host/pmu/<gen>/stub_generation.c), so their kinds describe
 * generically. */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define CTR_TOP (1ull << 40)

/* ---- stubs ------------------------------------------------------------ */

static struct cpu_info fake_cpu;

const struct cpu_info *cpu_info(void)
{
	return &fake_cpu;
}

/* The hardware backend's accessors: never reached through the model. */
static unsigned hw_calls;

int rdmsr_safe(uint32_t msr, uint64_t *val)
{
	hw_calls++;
	return VEC_GP;
}

int wrmsr_safe(uint32_t msr, uint64_t val)
{
	hw_calls++;
	return VEC_GP;
}

int rdpmc_safe(uint32_t idx, uint64_t *val)
{
	hw_calls++;
	return VEC_GP;
}

/* model_activate() hooks #UD/#GP for RDPMC (pmu/model.c); not used here. */
void trap_set_hook(unsigned vector, trap_hook_fn fn)
{
}

/* ---- helpers ---------------------------------------------------------- */

#define P54C 2u		/* family 5 model 2: Pentium, no RDPMC/MMX events */
#define P55C 4u		/* family 5 model 4: Pentium with MMX technology */

static void set_sig(unsigned model)
{
	memset(&fake_cpu, 0, sizeof(fake_cpu));
	memcpy(fake_cpu.vendor_id, "GenuineIntel", 13);
	fake_cpu.vendor = VENDOR_INTEL;
	fake_cpu.sig.family = 5;
	fake_cpu.sig.model = model;
	fake_cpu.sig.stepping = 1;
	fake_cpu.sig.raw = 5u << 8 | model << 4 | 1;
	fake_cpu.pmu = PMU_P5;
	fake_cpu.counters = 2;
	fake_cpu.width = 40;
}

static const struct pmu_driver *d;

/* A fresh CPU of this model behind the model backend, the driver found
 * by kind and initialized. */
static void setup(unsigned model)
{
	char why[200] = "";
	const struct backend *b;
	struct pmu_err e = { "" };

	set_sig(model);
	hw_calls = 0;
	be_log_close();
	b = backend_select(BACKEND_MODEL, &fake_cpu, why, sizeof(why));
	assert_non_null(b);
	assert_int_equal(b->id, BE_MODEL);
	assert_ptr_equal(backend_current(), b);
	assert_non_null(b->sink);
	if (!strstr(why, "model"))
		fail_msg("backend reason does not say model: \"%s\"", why);
	assert_ptr_equal(model_active(), model_for(PMU_P5));
	d = pmu_driver_for(PMU_P5);
	assert_ptr_equal(d, &p5_driver);
	if (d->init(&e))
		fail_msg("init: %s", e.msg);
}

static uint32_t cesr(void)
{
	uint64_t v = 0xdeadbeef;

	assert_int_equal(be_rdmsr(P5_MSR_CESR, &v), 0);
	return (uint32_t)v;
}

static uint64_t ctr_value(unsigned ctr)
{
	uint64_t v = 0xdeadbeef;
	struct pmu_err e = { "" };

	if (d->read(ctr, &v, &e))
		fail_msg("read CTR%u: %s", ctr, e.msg);
	return v;
}

static struct pmu_config cfg_of(unsigned es, unsigned cc, unsigned pc)
{
	struct p5_half h = { es, cc, pc };

	return p5_config(&h);
}

/* Through the ops: program then start. */
static void ops_program_start(unsigned ctr, unsigned es, unsigned cc,
			      unsigned pc)
{
	struct pmu_config c = cfg_of(es, cc, pc);
	struct pmu_err e = { "" };

	if (d->program(ctr, &c, &e) || d->start(ctr, &e))
		fail_msg("CTR%u 0x%02x/%u/%u: %s", ctr, es, cc, pc, e.msg);
}

/* A short stream through the backend's sink, as the tracer would send
 * it: CPL 0: 2 retired (1 load), CPL 3: 3 retired (a load+store, a
 * taken jcc, a store) and one REP iteration not the last (a load and a
 * store). */
static void feed(void)
{
	static const struct insn_event evs[] = {
		{ .cpl = 0, .retired = 1 },
		{ .cpl = 3, .retired = 1, .loads = 1, .stores = 1 },
		{ .cpl = 0, .retired = 1, .loads = 1 },
		{ .cpl = 3, .retired = 1, .flags = DEC_BRANCH | DEC_COND |
		  EV_TAKEN },
		{ .cpl = 3, .retired = 0, .flags = DEC_REP_STRING,
		  .iterations = 1, .loads = 1, .stores = 1 },
		{ .cpl = 3, .retired = 1, .stores = 1 },
	};
	trace_sink sink = backend_current()->sink;

	for (unsigned i = 0; i < N(evs); i++)
		sink(&evs[i], NULL);
}

static void teardown_checks(void)
{
	be_log_close();
	assert_int_equal(hw_calls, 0);
}

/* ==== the table and its shape ========================================== */

static void test_table(void **state)
{
	struct pmu_shape s = { 99, 99, 99 };

	setup(P55C);
	assert_int_equal(p5_driver.kind, PMU_P5);
	assert_string_equal(p5_driver.name, "p5");
	assert_null(pmu_driver_for(PMU_NONE));
	/* every hook is filled */
	assert_non_null(d->shape);
	assert_non_null(d->describe);
	assert_non_null(d->init);
	assert_non_null(d->program);
	assert_non_null(d->start);
	assert_non_null(d->stop);
	assert_non_null(d->read);
	assert_non_null(d->reset);
	assert_non_null(d->event_config);
	assert_non_null(d->config_counts);
	assert_non_null(d->config_name);
	d->shape(&fake_cpu, &s);
	assert_int_equal(s.counters, 2);
	assert_int_equal(s.width, 40);
	assert_int_equal(s.fixed, 0);
	teardown_checks();
}

/* ==== program/start/stop/read/reset through the ops ===================== */

static void test_ops_counting(void **state)
{
	struct pmu_err e = { "" };

	setup(P55C);
	assert_int_equal(cesr(), 0);
	/* CTR0: instructions at CPL 3 (ES 0x16 CC 010); CTR1: loads at any
	 * CPL (ES 0x00 CC 011) */
	ops_program_start(0, 0x16, 2, 0);
	ops_program_start(1, 0x00, 3, 0);
	assert_int_equal(cesr(), 0x00c00096);
	feed();
	assert_int_equal(ctr_value(0), 3);
	assert_int_equal(ctr_value(1), 3);

	/* stop: CC 000, ES kept; nothing counts, values kept */
	assert_int_equal(d->stop(0, &e), 0);
	assert_int_equal(cesr(), 0x00c00016);
	feed();
	assert_int_equal(ctr_value(0), 3);
	assert_int_equal(ctr_value(1), 6);
	/* start again: the CC given to program */
	assert_int_equal(d->start(0, &e), 0);
	assert_int_equal(cesr(), 0x00c00096);
	feed();
	assert_int_equal(ctr_value(0), 6);

	/* reset: 0 clears, anything else presets, 40 bits only */
	assert_int_equal(d->reset(0, 0, &e), 0);
	assert_int_equal(ctr_value(0), 0);
	assert_int_equal(d->reset(1, 1000, &e), 0);
	assert_int_equal(ctr_value(1), 1000);
	feed();
	assert_int_equal(ctr_value(0), 3);
	assert_int_equal(ctr_value(1), 1003);
	assert_int_equal(d->reset(1, CTR_TOP - 2, &e), 0);
	feed();
	assert_int_equal(ctr_value(1), 1);	/* wrapped at 2^40 */
	memset(e.msg, 0, sizeof(e.msg));
	assert_int_equal(d->reset(1, CTR_TOP, &e), -1);
	assert_true(e.msg[0] != 0);
	assert_int_equal(ctr_value(1), 1);

	/* programming clears and stops: nothing counts until start */
	{
		struct pmu_config c = cfg_of(0x01, 2, 0);

		assert_int_equal(d->program(1, &c, &e), 0);
		assert_int_equal(ctr_value(1), 0);
		assert_int_equal(cesr(), 0x00010096);
		feed();
		assert_int_equal(ctr_value(1), 0);
		assert_int_equal(d->start(1, &e), 0);
		assert_int_equal(cesr(), 0x00810096);
		feed();
		assert_int_equal(ctr_value(1), 3);	/* stores, CPL 3 */
	}

	/* no counter 2 */
	memset(e.msg, 0, sizeof(e.msg));
	assert_int_equal(d->start(2, &e), -1);
	assert_true(e.msg[0] != 0);
	assert_int_equal(d->stop(2, &e), -1);
	assert_int_equal(d->reset(2, 0, &e), -1);
	{
		uint64_t v;

		assert_int_equal(d->read(2, &v, &e), -1);
	}
	teardown_checks();
}

/* ops->program takes a CESR half in sel bits 9:0 and nothing else: other
 * bits or an aux are refused before any register is touched. */
static void test_ops_program_refuses(void **state)
{
	static const struct pmu_config bad[] = {
		{ 0x00000496, 0 },		/* bit 10 */
		{ 0x00960000, 0 },		/* CTR1's half position */
		{ 0x8000000000000096ull, 0 },
		{ 0x96, 1 },			/* aux */
		{ 0x50, 0 },			/* ES 0x10: reserved */
	};
	struct be_access a[16];
	struct be_log log;

	setup(P55C);
	ops_program_start(0, 0x16, 3, 0);
	for (unsigned i = 0; i < N(bad); i++) {
		struct pmu_err e = { "" };

		be_log_open(&log, a, N(a));
		if (d->program(0, &bad[i], &e) != -1)
			fail_msg("config 0x%llx/0x%llx accepted",
				 (unsigned long long)bad[i].sel,
				 (unsigned long long)bad[i].aux);
		be_log_close();
		if (!e.msg[0])
			fail_msg("config 0x%llx: no message",
				 (unsigned long long)bad[i].sel);
		for (unsigned k = 0; k < log.used; k++)
			if (a[k].op == BE_OP_WRMSR)
				fail_msg("config 0x%llx: WRMSR 0x%x issued",
					 (unsigned long long)bad[i].sel,
					 a[k].reg);
		assert_int_equal(cesr(), 0x000000d6);
	}
	teardown_checks();
}

/* ==== event_config / config_counts / config_name ======================== */

/* By hand from the event table: the event that counts exactly one
 * semantic count, per (count, counter, CPU); -1 where none does.  0x12
 * (branches + far), 0x28 (loads + stores) and 0x32 (taken + far) are sums,
 * so branches, taken and far have no event of their own; 0x39 RETURNS is
 * CTR0-only and MMX-only; the P5 cannot count plain clocks (CC 1xx is an
 * event's duration). */
static const struct {
	enum sem s;
	int code[2][2];		/* [mmx][ctr] */
} configs[] = {
	{ SEM_INSTRUCTIONS, { { 0x16, 0x16 }, { 0x16, 0x16 } } },
	{ SEM_BRANCHES, { { -1, -1 }, { -1, -1 } } },
	{ SEM_TAKEN, { { -1, -1 }, { -1, -1 } } },
	{ SEM_COND, { { -1, -1 }, { -1, -1 } } },
	{ SEM_CALLS, { { -1, -1 }, { -1, -1 } } },
	{ SEM_RETURNS, { { -1, -1 }, { 0x39, -1 } } },
	{ SEM_FAR, { { -1, -1 }, { -1, -1 } } },
	{ SEM_LOADS, { { 0x00, 0x00 }, { 0x00, 0x00 } } },
	{ SEM_STORES, { { 0x01, 0x01 }, { 0x01, 0x01 } } },
	{ SEM_SEGLOADS, { { 0x0f, 0x0f }, { 0x0f, 0x0f } } },
	{ SEM_CLOCKS, { { -1, -1 }, { -1, -1 } } },
};

/* The CC's CPL classes (SDM Vol. 3B §18.23.1): "001 - Count the
 * selected event while CPL is 0, 1, or 2", "010 - ... while CPL is 3",
 * "011 - ... regardless of CPL"; as pmu/driver.h's CPL sets (bit n: CPL
 * n).  A request (cpls) gets the CC bits whose classes hold its CPLs, and
 * config_counts reads back the whole of those classes (counts): nothing
 * narrower than CPL 0-2 exists for a request of CPL 0. */
#define SDM_CPLS_CC1 (PMU_CPL(0) | PMU_CPL(1) | PMU_CPL(2))
#define SDM_CPLS_CC2 PMU_CPL(3)
static const struct {
	unsigned cpls, cc, counts;
} cpl_ccs[] = {
	{ PMU_CPL(0), 1, SDM_CPLS_CC1 },
	{ PMU_CPL(3), 2, SDM_CPLS_CC2 },
	{ PMU_CPL(0) | PMU_CPL(3), 3, SDM_CPLS_CC1 | SDM_CPLS_CC2 },
	{ PMU_CPL(1), 1, SDM_CPLS_CC1 },
	{ PMU_CPL(2) | PMU_CPL(3), 3, SDM_CPLS_CC1 | SDM_CPLS_CC2 },
	{ 0xf, 3, SDM_CPLS_CC1 | SDM_CPLS_CC2 },
};

static void test_event_config_spelled(void **state)
{
	struct pmu_config c;

	setup(P55C);
	/* SEM_INSTRUCTIONS at CPL 3: ES 0x16, CC 010 */
	memset(&c, 0xa5, sizeof(c));
	assert_int_equal(d->event_config(SEM_INSTRUCTIONS, 0, PMU_CPL3, &c),
			 0);
	assert_int_equal(c.sel, 0x96);
	assert_int_equal(c.aux, 0);
	assert_int_equal(p5_half_of(&c).es, 0x16);
	assert_int_equal(p5_half_of(&c).cc, 2);
	assert_int_equal(p5_half_of(&c).pc, 0);
	/* SEM_LOADS: ES 0x00 */
	assert_int_equal(d->event_config(SEM_LOADS, 1, PMU_CPL(0), &c), 0);
	assert_int_equal(c.sel, 0x40);
	/* SEM_RETURNS: 0x39 on CTR0 of an MMX CPU only */
	assert_int_equal(d->event_config(SEM_RETURNS, 0,
					 PMU_CPL(0) | PMU_CPL(3), &c), 0);
	assert_int_equal(c.sel, 0xf9);
	assert_int_equal(d->event_config(SEM_RETURNS, 1, PMU_CPL3, &c), -1);
	/* no CPL, no CPL 4, no counter 2 */
	assert_int_equal(d->event_config(SEM_INSTRUCTIONS, 0, 0, &c), -1);
	assert_int_equal(d->event_config(SEM_INSTRUCTIONS, 0,
					 PMU_CPL(3) | 1u << 4, &c), -1);
	assert_int_equal(d->event_config(SEM_INSTRUCTIONS, 2, PMU_CPL3, &c),
			 -1);
	setup(P54C);
	assert_int_equal(d->event_config(SEM_RETURNS, 0, PMU_CPL3, &c), -1);
	assert_int_equal(d->event_config(SEM_INSTRUCTIONS, 0, PMU_CPL3, &c),
			 0);
	assert_int_equal(c.sel, 0x96);
	teardown_checks();
}

/* Every count on every counter of both CPUs at every CPL set, against
 * the hand-written table; what event_config gives, config_counts reads
 * back as that count at those CPLs, and program accepts. */
static void test_event_config_table(void **state)
{
	for (int mmx = 0; mmx < 2; mmx++) {
		setup(mmx ? P55C : P54C);
		for (unsigned i = 0; i < N(configs); i++)
		for (unsigned ctr = 0; ctr < 2; ctr++)
		for (unsigned k = 0; k < N(cpl_ccs); k++) {
			int want = configs[i].code[mmx][ctr];
			struct pmu_config c = { 0, 0 };
			struct pmu_err e = { "" };
			uint32_t mask = 0;
			unsigned cpls = 0;
			int r = d->event_config(configs[i].s, ctr,
						cpl_ccs[k].cpls, &c);

			if (want < 0) {
				if (r != -1)
					fail_msg("%s CTR%u mmx %d: config "
						 "0x%llx, want none",
						 sem_name(configs[i].s), ctr,
						 mmx,
						 (unsigned long long)c.sel);
				continue;
			}
			if (r != 0 || c.sel != ((unsigned)want |
						cpl_ccs[k].cc << 6) || c.aux)
				fail_msg("%s CTR%u mmx %d cpls %u: %d 0x%llx, "
					 "want ES 0x%02x CC %u",
					 sem_name(configs[i].s), ctr, mmx,
					 cpl_ccs[k].cpls, r,
					 (unsigned long long)c.sel, want,
					 cpl_ccs[k].cc);
			assert_int_equal(d->config_counts(&c, ctr, &mask,
							  &cpls), 0);
			assert_int_equal(mask, SEM_BIT(configs[i].s));
			assert_int_equal(cpls, cpl_ccs[k].counts);
			if (d->program(ctr, &c, &e))
				fail_msg("program(%s config): %s",
					 sem_name(configs[i].s), e.msg);
		}
	}
	teardown_checks();
}

/* config_counts is the event table's mapping: for every code on every
 * counter of both CPUs and every CC, the event's sem for CC 0xx, 0 for
 * CC 1xx (a duration is not a sum of counts), -1 where the code selects
 * no event; the CPLs are the classes of the CC's low bits. */
static void test_config_counts_table(void **state)
{
	unsigned events = 0;

	for (int mmx = 0; mmx < 2; mmx++) {
		setup(mmx ? P55C : P54C);
		for (unsigned ctr = 0; ctr < 2; ctr++)
		for (unsigned code = 0; code < 64; code++)
		for (unsigned cc = 0; cc < 8; cc++)
		for (unsigned pc = 0; pc < 2; pc++) {
			const struct p5_event *ev = p5_event_for(code, ctr,
								 mmx);
			struct pmu_config c = cfg_of(code, cc, pc);
			uint32_t mask = 0xdead;
			unsigned cpls = 0xdead;
			unsigned want_cpls = (cc & 1 ? SDM_CPLS_CC1 : 0) |
					     (cc & 2 ? SDM_CPLS_CC2 : 0);
			int r = d->config_counts(&c, ctr, &mask, &cpls);

			if (!ev) {
				if (r != -1)
					fail_msg("0x%02x CTR%u mmx %d: %d, "
						 "want -1", code, ctr, mmx, r);
				continue;
			}
			events++;
			if (r != 0 || cpls != want_cpls ||
			    mask != (cc & 4 ? 0 : ev->sem))
				fail_msg("%s CTR%u CC %u: %d mask 0x%x cpls "
					 "%u, want mask 0x%x cpls %u",
					 ev->name, ctr, cc, r, mask, cpls,
					 cc & 4 ? 0 : ev->sem, want_cpls);
		}
	}
	assert_true(events > 0);
	/* spelled out */
	setup(P55C);
	{
		struct pmu_config c;
		uint32_t mask;
		unsigned cpls;

		c = cfg_of(0x12, 3, 0);
		assert_int_equal(d->config_counts(&c, 1, &mask, &cpls), 0);
		assert_int_equal(mask, SEM_BIT(SEM_BRANCHES) |
				 SEM_BIT(SEM_FAR));
		assert_int_equal(cpls, 0xf);		/* CPL 0-3 */
		c = cfg_of(0x28, 1, 1);
		assert_int_equal(d->config_counts(&c, 0, &mask, &cpls), 0);
		assert_int_equal(mask, SEM_BIT(SEM_LOADS) |
				 SEM_BIT(SEM_STORES));
		assert_int_equal(cpls, 0x7);		/* CPL 0, 1, 2 */
		c = cfg_of(0x02, 2, 0);			/* not modelled */
		assert_int_equal(d->config_counts(&c, 0, &mask, &cpls), 0);
		assert_int_equal(mask, 0);
		assert_int_equal(cpls, 0x8);		/* CPL 3 */
		c = cfg_of(0x39, 3, 0);			/* CTR0 only */
		assert_int_equal(d->config_counts(&c, 1, &mask, &cpls), -1);
	}
	teardown_checks();
}

static void test_config_name(void **state)
{
	static const struct {
		unsigned es, cc, pc;
		const char *want;
	} cases[] = {
		{ 0x16, 2, 0, "ES=0x16 CC=010 PC=0" },
		{ 0x00, 0, 0, "ES=0x00 CC=000 PC=0" },
		{ 0x28, 7, 1, "ES=0x28 CC=111 PC=1" },
		{ 0x3f, 5, 0, "ES=0x3f CC=101 PC=0" },
		{ 0x0f, 4, 1, "ES=0x0f CC=100 PC=1" },
	};
	char buf[64];

	setup(P55C);
	for (unsigned i = 0; i < N(cases); i++) {
		struct pmu_config c = cfg_of(cases[i].es, cases[i].cc,
					     cases[i].pc);

		memset(buf, 'Z', sizeof(buf));
		d->config_name(&c, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].want);
	}
	/* a short buffer is terminated and not overrun */
	{
		struct pmu_config c = cfg_of(0x16, 2, 0);

		memset(buf, 'Z', sizeof(buf));
		d->config_name(&c, buf, 8);
		assert_string_equal(buf, "ES=0x16");
		assert_int_equal(buf[8], 'Z');
	}
	teardown_checks();
}

/* ==== describe, pmu_describe ============================================ */

static void test_describe(void **state)
{
	char buf[300];

	setup(P55C);
	d->describe(&fake_cpu, buf, sizeof(buf));
	assert_string_equal(buf, "counters=2 width=40 rdpmc=yes "
			    "mmx_events=yes erratum74=no");
	fake_cpu.sig.stepping = 4;	/* P55C stepping 4: erratum 74 */
	d->describe(&fake_cpu, buf, sizeof(buf));
	assert_string_equal(buf, "counters=2 width=40 rdpmc=yes "
			    "mmx_events=yes erratum74=yes");
	setup(P54C);
	d->describe(&fake_cpu, buf, sizeof(buf));
	assert_string_equal(buf, "counters=2 width=40 rdpmc=no "
			    "mmx_events=no erratum74=no");
	teardown_checks();
}

/* The "# pmu:" line: kind=, the driver's fields (or the generic ones for
 * a kind without a driver), present= and the probe. */
static void test_pmu_describe(void **state)
{
	struct cpu_info ci;
	char buf[400];

	setup(P55C);
	ci = fake_cpu;
	ci.probe.done = 1;
	ci.probe.present = 1;
	ci.probe.msr = P5_MSR_CTR0;
	ci.probe.wrote = 0x5a5a;
	ci.probe.read = 0x5a5a;
	pmu_describe(&ci, buf, sizeof(buf));
	assert_string_equal(buf, "kind=p5 counters=2 width=40 rdpmc=yes "
			    "mmx_events=yes erratum74=no present=yes "
			    "probe=\"msr=0x12 wrote=0x5a5a read=0x5a5a "
			    "wr_vector=0 rd_vector=0\"");

	/* no probe ran */
	memset(&ci.probe, 0, sizeof(ci.probe));
	ci.sig.model = P54C;
	pmu_describe(&ci, buf, sizeof(buf));
	assert_string_equal(buf, "kind=p5 counters=2 width=40 rdpmc=no "
			    "mmx_events=no erratum74=no present=no "
			    "probe=\"none\"");

	/* a probe that faulted */
	ci.probe.done = 1;
	ci.probe.msr = 0x12;
	ci.probe.wrote = 0x1;
	ci.probe.wr_vector = 13;
	ci.probe.rd_vector = 13;
	pmu_describe(&ci, buf, sizeof(buf));
	assert_non_null(strstr(buf, " present=no probe=\"msr=0x12 wrote=0x1 "
			       "read=0x0 wr_vector=13 rd_vector=13\""));

	/* a generation whose driver has no describe hook (the stubs here):
	 * the shape detection gave it, in core code that names no
	 * generation's fields */
	memset(&ci, 0, sizeof(ci));
	ci.pmu = PMU_NETBURST;
	ci.counters = 18;
	ci.width = 40;
	pmu_describe(&ci, buf, sizeof(buf));
	assert_string_equal(buf, "kind=netburst counters=18 width=40 "
			    "present=no probe=\"none\"");

	/* the P6: its driver's fields */
	memset(&ci, 0, sizeof(ci));
	ci.pmu = PMU_P6;
	ci.sig.family = 6;
	ci.sig.model = 3;
	pmu_describe(&ci, buf, sizeof(buf));
	assert_string_equal(buf, "kind=p6 counters=2 width=40 caps=fixed "
			    "gen=pii rdpmc=yes erratum26=no pentium_m_events=no "
			    "present=no probe=\"none\"");
	teardown_checks();
}

/* ==== the order of p5_program()'s accesses ============================== */

/* The writes of a log, in order. */
static unsigned writes_of(const struct be_log *log, struct be_access *w,
			  unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < log->used; i++) {
		if (log->a[i].vector)
			fail_msg("access %u (op %d reg 0x%x) raised vector %d",
				 i, log->a[i].op, log->a[i].reg,
				 log->a[i].vector);
		if (log->a[i].op == BE_OP_WRMSR && n < max)
			w[n++] = log->a[i];
	}
	assert_int_equal(log->lost, 0);
	return n;
}

static void dump_writes(const struct be_access *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		print_message("  write %u: MSR 0x%x = 0x%llx\n", i, w[i].reg,
			      (unsigned long long)w[i].value);
}

/* p5_program(ctr, new) (or the ops' program) from a CESR of old_cesr:
 * among its writes, first the CESR = stop (ctr's CC 000, old ES and PC),
 * then CTRn = 0, then the CESR = event (new ES and PC, CC 000); no other
 * counter written; every CESR write keeps the other half as it was and
 * ctr's CC 000.  The other counter keeps its value, ctr reads 0. */
static void check_program_order(unsigned ctr, uint32_t old_cesr,
				struct p5_half neu, int via_ops,
				uint32_t stop, uint32_t event)
{
	uint32_t other = old_cesr & (ctr ? 0x000003ffu : 0x03ff0000u);
	uint32_t my_cc = ctr ? 0x01c00000u : 0x000001c0u;
	struct be_access a[64], w[16];
	struct be_log log;
	struct pmu_err e = { "" };
	uint64_t other_val = ctr_value(!ctr);
	int i_stop = -1, i_clear = -1, i_event = -1;
	unsigned n;
	int r;

	assert_int_equal(cesr(), old_cesr);
	be_log_open(&log, a, N(a));
	if (via_ops) {
		struct pmu_config c = p5_config(&neu);

		r = d->program(ctr, &c, &e);
	} else {
		r = p5_program(ctr, &neu, &e);
	}
	be_log_close();
	if (r)
		fail_msg("program CTR%u: %s", ctr, e.msg);
	n = writes_of(&log, w, N(w));
	for (unsigned i = 0; i < n; i++) {
		if (w[i].reg == P5_MSR_CESR) {
			if ((w[i].value & ~(uint64_t)(0x03ff0000u >>
						      (ctr ? 0 : 16))) !=
			    other || (w[i].value & my_cc)) {
				dump_writes(w, n);
				fail_msg("CTR%u: write %u CESR=0x%llx changes "
					 "the other half (0x%08x) or sets "
					 "CC%u", ctr, i,
					 (unsigned long long)w[i].value,
					 other, ctr);
			}
			if (i_stop < 0 && w[i].value == stop)
				i_stop = (int)i;
			if (i_clear >= 0 && i_event < 0 &&
			    w[i].value == event)
				i_event = (int)i;
		} else if (w[i].reg == P5_MSR_CTR0 + ctr) {
			if (i_stop >= 0 && i_clear < 0 && w[i].value == 0)
				i_clear = (int)i;
		} else {
			dump_writes(w, n);
			fail_msg("CTR%u: write %u to MSR 0x%x", ctr, i,
				 w[i].reg);
		}
	}
	if (i_stop < 0 || i_clear < 0 || i_event < 0) {
		dump_writes(w, n);
		fail_msg("CTR%u: want CESR=0x%08x, then CTR%u=0, then "
			 "CESR=0x%08x; found at %d, %d, %d", ctr, stop, ctr,
			 event, i_stop, i_clear, i_event);
	}
	/* the new ES reaches the CESR only after the clear */
	for (int i = 0; i < i_clear; i++)
		if (w[i].reg == P5_MSR_CESR &&
		    cesr_get_half((uint32_t)w[i].value, ctr).es !=
		    cesr_get_half(old_cesr, ctr).es) {
			dump_writes(w, n);
			fail_msg("CTR%u: write %d changes the ES before the "
				 "counter is cleared", ctr, i);
		}
	/* the first CESR write is the stop */
	for (int i = 0; i < i_stop; i++)
		if (w[i].reg == P5_MSR_CESR) {
			dump_writes(w, n);
			fail_msg("CTR%u: CESR written (%d) before the stop",
				 ctr, i);
		}
	assert_int_equal(cesr(), event);
	assert_int_equal(ctr_value(ctr), 0);
	assert_int_equal(ctr_value(!ctr), other_val);
}

/* p5_start(ctr): one write, the CESR, changing only ctr's CC to cc. */
static void check_start(unsigned ctr, int via_ops, uint32_t want)
{
	struct be_access a[32], w[8];
	struct be_log log;
	struct pmu_err e = { "" };
	uint32_t before = cesr();
	uint32_t my_cc = ctr ? 0x01c00000u : 0x000001c0u;
	unsigned n;
	int r;

	be_log_open(&log, a, N(a));
	r = via_ops ? d->start(ctr, &e) : p5_start(ctr, &e);
	be_log_close();
	if (r)
		fail_msg("start CTR%u: %s", ctr, e.msg);
	n = writes_of(&log, w, N(w));
	if (n != 1 || w[0].reg != P5_MSR_CESR || w[0].value != want ||
	    ((w[0].value ^ before) & ~(uint64_t)my_cc)) {
		dump_writes(w, n);
		fail_msg("start CTR%u from 0x%08x: want one write CESR=0x%08x",
			 ctr, before, want);
	}
	assert_int_equal(cesr(), want);
}

static void test_program_order(void **state)
{
	struct p5_half ins = { 0x16, 3, 0 }, rw = { 0x28, 6, 1 };
	struct p5_half rd1 = { 0x00, 1, 1 }, wr2 = { 0x01, 2, 0 };
	struct pmu_err e = { "" };

	setup(P55C);
	/* both counting: CTR0 0x16 CC 011, CTR1 0x28 CC 110 PC 1 */
	assert_int_equal(p5_program(0, &ins, &e), 0);
	assert_int_equal(p5_start(0, &e), 0);
	assert_int_equal(p5_program(1, &rw, &e), 0);
	assert_int_equal(p5_start(1, &e), 0);
	assert_int_equal(cesr(), 0x03a800d6);
	assert_int_equal(p5_write(0, 777, &e), 0);
	assert_int_equal(p5_write(1, 555, &e), 0);

	/* CTR0 to ES 0x00 CC 001 PC 1: stop 0x03a80016, clear, 0x03a80200 */
	check_program_order(0, 0x03a800d6, rd1, 0, 0x03a80016, 0x03a80200);
	check_start(0, 0, 0x03a80240);
	/* CTR1 to ES 0x01 CC 010 PC 0 through the ops: stop 0x02280240,
	 * clear, 0x00010240 */
	assert_int_equal(p5_write(0, 4242, &e), 0);
	check_program_order(1, 0x03a80240, wr2, 1, 0x02280240, 0x00010240);
	check_start(1, 1, 0x00810240);
	/* the same event again on a counting counter: still stop, clear,
	 * event */
	assert_int_equal(p5_write(1, 99, &e), 0);
	check_program_order(1, 0x00810240, wr2, 0, 0x00010240, 0x00010240);
	check_start(1, 0, 0x00810240);
	teardown_checks();
}

/* p5_stop(ctr): one CESR write clearing ctr's CC only. */
static void test_stop_writes(void **state)
{
	struct be_access a[32], w[8];
	struct be_log log;
	struct pmu_err e = { "" };
	unsigned n;

	setup(P55C);
	ops_program_start(0, 0x16, 3, 1);
	ops_program_start(1, 0x28, 6, 1);
	assert_int_equal(cesr(), 0x03a802d6);
	be_log_open(&log, a, N(a));
	assert_int_equal(d->stop(1, &e), 0);
	be_log_close();
	n = writes_of(&log, w, N(w));
	assert_int_equal(n, 1);
	assert_int_equal(w[0].reg, P5_MSR_CESR);
	assert_int_equal(w[0].value, 0x022802d6);
	be_log_open(&log, a, N(a));
	assert_int_equal(p5_stop(0, &e), 0);
	be_log_close();
	n = writes_of(&log, w, N(w));
	assert_int_equal(n, 1);
	assert_int_equal(w[0].value, 0x02280216);
	teardown_checks();
}

/* The access log itself: ops, registers and values in order, the excess
 * counted as lost, nothing recorded once closed. */
static void test_access_log(void **state)
{
	struct be_access a[3];
	struct be_log log;
	uint64_t v = 0;

	setup(P55C);
	be_log_open(&log, a, N(a));
	assert_int_equal(be_wrmsr(P5_MSR_CTR1, 0x1234), 0);
	assert_int_equal(be_rdmsr(P5_MSR_CTR1, &v), 0);
	assert_int_equal(be_rdpmc(0, &v), 0);
	assert_int_equal(be_wrmsr(P5_MSR_CESR, 1ull << 40), VEC_GP);
	assert_int_equal(be_rdmsr(P5_MSR_CESR, &v), 0);
	be_log_close();
	assert_int_equal(be_rdmsr(P5_MSR_CESR, &v), 0);
	assert_int_equal(log.used, 3);
	assert_int_equal(log.lost, 2);
	assert_int_equal(a[0].op, BE_OP_WRMSR);
	assert_int_equal(a[0].reg, P5_MSR_CTR1);
	assert_int_equal(a[0].value, 0x1234);
	assert_int_equal(a[0].vector, 0);
	assert_int_equal(a[1].op, BE_OP_RDMSR);
	assert_int_equal(a[1].value, 0x1234);
	assert_int_equal(a[2].op, BE_OP_RDPMC);
	assert_int_equal(a[2].reg, 0);
	assert_int_equal(a[2].value, 0);
	/* a faulting access is logged with its vector */
	be_log_open(&log, a, N(a));
	assert_int_equal(be_wrmsr(P5_MSR_CESR, 1ull << 40), VEC_GP);
	assert_int_equal(be_rdpmc(7, &v), VEC_GP);
	be_log_close();
	assert_int_equal(log.used, 2);
	assert_int_equal(a[0].vector, VEC_GP);
	assert_int_equal(a[0].value, 1ull << 40);
	assert_int_equal(a[1].vector, VEC_GP);
	assert_int_equal(a[1].value, 0);
	teardown_checks();
}

/* ==== fault injection (pmu/inject.h) in front of the model ============= */

static struct inject_table inj;

static void arm(const char *spec)
{
	char why[200] = "";

	assert_int_equal(inject_parse(&inj, spec, NULL, NULL), 0);
	if (backend_inject(&inj, why, sizeof(why)))
		fail_msg("not armed: %s", why);
	assert_ptr_equal(backend_injected(), &inj);
	assert_non_null(strstr(why, "p5"));
}

static void test_inject_refused_off_the_model(void **state)
{
	char why[200] = "";

	set_sig(P55C);
	backend_select(BACKEND_HW, &fake_cpu, why, sizeof(why));
	assert_int_equal(inject_parse(&inj, "msr:0x11:gp", NULL, NULL), 0);
	assert_int_equal(backend_inject(&inj, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "backend is hw"));
	assert_non_null(strstr(why, "never on real hardware"));
	assert_null(backend_injected());
	/* selecting a backend disarms */
	setup(P55C);
	arm("msr:0x11:gp");
	backend_select(BACKEND_MODEL, &fake_cpu, why, sizeof(why));
	assert_null(backend_injected());
}

/* backend=emulated needs a model that can say when a counter counts (the
 * window is open exactly then, docs/emulators.md); the P5 model can (its
 * CESR's CC fields, §18.23.1): the emulated backend stands in, and the
 * reason says the counts are the model's. */
static void test_emulated_stands_in(void **state)
{
	char why[400] = "";
	const struct backend *b;

	(void)state;
	set_sig(P55C);
	b = backend_select(BACKEND_EMULATED, &fake_cpu, why, sizeof(why));
	assert_int_equal(b->id, BE_EMULATED);
	assert_ptr_equal(backend_current(), b);
	assert_non_null(strstr(why, "backend=emulated asked"));
	assert_non_null(strstr(why, "model counts, not hardware counts"));
	backend_select(BACKEND_MODEL, &fake_cpu, why, sizeof(why));
}

static void test_inject_cesr_fault(void **state)
{
	struct pmu_config c = cfg_of(0x16, P5_CC_EV_USR, 0);
	struct pmu_err e = { "" };

	setup(P55C);
	arm("msr:0x11:gp");
	assert_int_equal(d->init(&e), -1);
	assert_int_equal(e.vector, VEC_GP);
	if (!strstr(e.msg, "CESR (0x11)") || !strstr(e.msg, "vector 13"))
		fail_msg("init: \"%s\" names not CESR (0x11) and vector 13",
			 e.msg);
	assert_int_equal(d->program(0, &c, &e), -1);
	assert_int_equal(inj.rule[0].hits, 1);	/* not initialized */
	backend_inject(NULL, NULL, 0);
	teardown_checks();
}

static void test_inject_ctr_stuck(void **state)
{
	struct pmu_err e = { "" };
	uint64_t v = 1;

	setup(P55C);
	assert_int_equal(d->reset(0, 0x40, &e), 0);
	arm("msr:0x12:stuck");
	/* the write "succeeds" and is lost: CTR0 keeps its 0x40 */
	assert_int_equal(d->reset(0, 0x1000, &e), 0);
	assert_int_equal(ctr_value(0), 0x40);
	assert_int_equal(d->reset(1, 0x1000, &e), 0);
	assert_int_equal(ctr_value(1), 0x1000);
	/* counting does not move it either */
	ops_program_start(0, 0x16, P5_CC_EV_ANY, 0);
	feed();
	assert_int_equal(ctr_value(0), 0x40);
	assert_int_equal(be_rdmsr(P5_MSR_CTR0, &v), 0);
	assert_int_equal(v, 0x40);
	backend_inject(NULL, NULL, 0);
	assert_true(ctr_value(0) != 0x40);	/* the model's own count */
	teardown_checks();
}

static void test_inject_ctr_fault(void **state)
{
	struct pmu_err e = { "" };
	uint64_t v = 0;

	setup(P55C);
	arm("msr:0x13:gp");
	assert_int_equal(d->reset(1, 5, &e), -1);
	assert_int_equal(e.vector, VEC_GP);
	if (!strstr(e.msg, "WRMSR CTR1 (0x13)=0x5") ||
	    !strstr(e.msg, "vector 13"))
		fail_msg("reset: \"%s\" names not CTR1 (0x13) and vector 13",
			 e.msg);
	assert_int_equal(d->read(1, &v, &e), -1);
	assert_non_null(strstr(e.msg, "RDMSR CTR1 (0x13) raised vector 13"));
	assert_int_equal(d->reset(0, 5, &e), 0);	/* CTR0 is fine */
	backend_inject(NULL, NULL, 0);
	teardown_checks();
}

static void test_inject_rdpmc(void **state)
{
	struct pmu_err e = { "" };
	uint64_t v = 0;

	setup(P55C);
	arm("rdpmc:ud");
	assert_int_equal(p5_rdpmc(0, &v, &e), -1);
	assert_int_equal(e.vector, VEC_UD);
	assert_non_null(strstr(e.msg, "vector 6"));
	assert_int_equal(ctr_value(0), 0);	/* RDMSR is not RDPMC */
	backend_inject(NULL, NULL, 0);
	assert_int_equal(p5_rdpmc(0, &v, &e), 0);
	teardown_checks();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_ops_counting),
		cmocka_unit_test(test_ops_program_refuses),
		cmocka_unit_test(test_event_config_spelled),
		cmocka_unit_test(test_event_config_table),
		cmocka_unit_test(test_config_counts_table),
		cmocka_unit_test(test_config_name),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_pmu_describe),
		cmocka_unit_test(test_program_order),
		cmocka_unit_test(test_stop_writes),
		cmocka_unit_test(test_access_log),
		cmocka_unit_test(test_inject_refused_off_the_model),
		cmocka_unit_test(test_emulated_stands_in),
		cmocka_unit_test(test_inject_cesr_fault),
		cmocka_unit_test(test_inject_ctr_stuck),
		cmocka_unit_test(test_inject_ctr_fault),
		cmocka_unit_test(test_inject_rdpmc),
	};

	return cmocka_run_group_tests_name("p5_driver", tests, NULL, NULL);
}
