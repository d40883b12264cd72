/* Host tests for the P6 driver (pmu/p6/driver.c, compiled into this file)
 * and its ops table, over a stub backend that hands every access to the P6
 * reference model and logs the writes, so the order of the driver's writes
 * and the shared-EN start/stop can be checked value by value.
 *
 * Expected register values are written by hand from SDM Vol. 3B (order no.
 * 253669-060US) §18.22.1: event 7:0, USR 16, OS 17, INT 20, EN 22
 * (PerfEvtSel0 only, enables both counters), bit 21 and 63:32 reserved;
 * §18.22.2: a counter write is EAX sign-extended from bit 31. */
#include <stdio.h>
#include <string.h>

/* The driver under test, compiled into this file: the shadow its init
 * takes is static (test_init_takes_state). */
#include "../../../../pmu/p6/driver.c"
#include "pmu/driver.h"
#include "pmu/generation.h"
#include "pmu/model.h"
#include "pmu/backend.h"
#include "pmu/detect.h"
#include "arch/x86/trace.h"
#include "arch/x86/trap.h"
#include "tests/host/pmu/p6/stub_model.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: tests/host/pmu/p6/stub_model.c pmu/model.c pmu/noise.c tests/host/arch/x86/stub_smp.c pmu/p6/regs.c pmu/p6/events.c pmu/evtsel.c pmu/driver.c pmu/sem.c pmu/lbr_model.c pmu/lbr.c pmu/cpu_model.c lib/fmt.c lib/string.c pmu/generation.c tests/host/pmu/p5/stub_generation.c pmu/p6/generation.c pmu/emufault.c lib/escape.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define SEL0 0x186
#define SEL1 0x187
#define CTR0 0xc1
#define CTR1 0xc2
#define USR (1ull << 16)
#define OS (1ull << 17)
#define INT (1ull << 20)
#define EN (1ull << 22)
#define CMASK(c) ((uint64_t)(c) << 24)
/* USR: "counted only when the processor is operating at privilege levels
 * 1, 2 or 3"; OS: "only when ... at privilege level 0" (SDM Vol. 3B
 * §18.22.1), as pmu/driver.h's CPL sets (bit n: CPL n). */
#define CPLS_OS PMU_CPL(0)
#define CPLS_USR (PMU_CPL(1) | PMU_CPL(2) | PMU_CPL(3))

/* ---- stubs ------------------------------------------------------------ */

static struct cpu_info fake_cpu;

const struct cpu_info *cpu_info(void)
{
	return &fake_cpu;
}

void trap_set_hook(unsigned vector, trap_hook_fn fn)
{
}

struct wlog {
	uint32_t msr;
	uint64_t v;
};

static struct {
	struct wlog w[32];
	unsigned n;
	int wr_fault;		/* vector to raise instead, or 0 */
} be;

int be_rdmsr(uint32_t msr, uint64_t *v)
{
	const struct pmu_model *m = model_active();

	return m ? m->rdmsr(msr, v) : VEC_GP;
}

int be_wrmsr(uint32_t msr, uint64_t v)
{
	const struct pmu_model *m = model_active();

	if (be.n < N(be.w))
		be.w[be.n++] = (struct wlog){ msr, v };
	if (be.wr_fault)
		return be.wr_fault;
	return m ? m->wrmsr(msr, v) : VEC_GP;
}

int be_rdpmc(uint32_t idx, uint64_t *v)
{
	const struct pmu_model *m = model_active();

	return m ? m->rdpmc(idx, v) : VEC_GP;
}

static struct backend stub_backend = {
	BE_MODEL, "model", be_rdmsr, be_wrmsr, be_rdpmc, model_feed,
};

const struct backend *backend_current(void)
{
	return &stub_backend;
}

/* ---- helpers ---------------------------------------------------------- */

static const struct pmu_model *p6m;
static struct pmu_err e;

static void start_cpu(unsigned model)
{
	memset(&fake_cpu, 0, sizeof(fake_cpu));
	memcpy(fake_cpu.vendor_id, "GenuineIntel", 13);
	fake_cpu.vendor = VENDOR_INTEL;
	fake_cpu.sig.family = 6;
	fake_cpu.sig.model = model;
	fake_cpu.pmu = PMU_P6;
	p6m = model_for(PMU_P6);
	assert_non_null(p6m);
	model_activate(p6m);
	memset(&be, 0, sizeof(be));
	memset(&stub_pmi, 0, sizeof(stub_pmi));
	assert_int_equal(p6_init(&e), 0);
}

static uint64_t rd(uint32_t msr)
{
	uint64_t v = 0;

	assert_int_equal(p6m->rdmsr(msr, &v), 0);
	return v;
}

static void feed(unsigned cpl, unsigned n)
{
	struct insn_event ev = { .cpl = (uint8_t)cpl, .retired = 1 };

	for (unsigned i = 0; i < n; i++)
		model_feed(&ev, NULL);
}

static void ok(int rc)
{
	if (rc)
		fail_msg("driver: %s", e.msg);
}

static void expect_writes(const struct wlog *want, unsigned n)
{
	if (be.n != n)
		fail_msg("%u writes, want %u (first 0x%x=0x%llx)", be.n, n,
			 be.n ? be.w[0].msr : 0,
			 be.n ? (unsigned long long)be.w[0].v : 0ull);
	for (unsigned i = 0; i < n; i++)
		if (be.w[i].msr != want[i].msr || be.w[i].v != want[i].v)
			fail_msg("write %u: 0x%x=0x%llx, want 0x%x=0x%llx", i,
				 be.w[i].msr, (unsigned long long)be.w[i].v,
				 want[i].msr, (unsigned long long)want[i].v);
	be.n = 0;
}

/* ==== program, start, stop ============================================= */

/* Program leaves the counter stopped (USR/OS clear, EN clear when nothing
 * runs); start writes USR/OS and EN. */
static void test_program_start(void **state)
{
	start_cpu(8);
	ok(p6_program(0, 0xc0 | USR, &e));
	expect_writes((const struct wlog[]){
		{ SEL0, 0 }, { CTR0, 0 }, { SEL0, 0xc0 } }, 3);
	feed(3, 4);
	assert_int_equal(rd(CTR0), 0);
	ok(p6_start(0, &e));
	expect_writes((const struct wlog[]){ { SEL0, 0xc0 | USR | EN } }, 1);
	feed(3, 4);
	assert_int_equal(rd(CTR0), 4);
}

/* Changing counter 1 while counter 0 runs: EN off, clear, new event
 * stopped, EN on; start(1) writes PerfEvtSel1 only. */
static void test_program_while_other_runs(void **state)
{
	start_cpu(8);
	ok(p6_program(0, 0xc0 | USR, &e));
	ok(p6_program(1, 0xc4 | USR, &e));
	ok(p6_start(0, &e));
	ok(p6_start(1, &e));
	be.n = 0;
	ok(p6_program(1, 0x43 | USR | INT, &e));
	expect_writes((const struct wlog[]){
		{ SEL0, 0xc0 | USR }, { CTR1, 0 }, { SEL1, 0x43 | INT },
		{ SEL0, 0xc0 | USR | EN } }, 4);
	feed(3, 3);
	assert_int_equal(rd(CTR0), 3);
	assert_int_equal(rd(CTR1), 0);
	ok(p6_start(1, &e));
	expect_writes((const struct wlog[]){ { SEL1, 0x43 | USR | INT } }, 1);
	/* counter 0 changes while counter 1 runs */
	ok(p6_program(0, 0x79 | OS, &e));
	expect_writes((const struct wlog[]){
		{ SEL0, 0xc0 | USR }, { CTR0, 0 }, { SEL0, 0x79 },
		{ SEL0, 0x79 | EN } }, 4);
}

/* Every field but USR, OS and EN goes to the register as given when the
 * event is programmed; USR/OS come with start, EN with start of either. */
static void test_program_fields(void **state)
{
	uint64_t f1 = 0x62 | (0x20ull << 8) | (1ull << 18) | (1ull << 19) |
		      INT | (1ull << 23) | CMASK(5);
	uint64_t f0 = 0xc0 | (1ull << 19) | (1ull << 23) | CMASK(0xff);

	start_cpu(3);
	ok(p6_program(1, f1 | OS, &e));
	expect_writes((const struct wlog[]){
		{ SEL0, 0 }, { CTR1, 0 }, { SEL1, f1 } }, 3);
	ok(p6_program(0, f0 | USR | OS, &e));
	expect_writes((const struct wlog[]){
		{ SEL0, 0 }, { CTR0, 0 }, { SEL0, f0 } }, 3);
	ok(p6_start(1, &e));
	expect_writes((const struct wlog[]){
		{ SEL1, f1 | OS }, { SEL0, f0 | EN } }, 2);
	ok(p6_start(0, &e));
	expect_writes((const struct wlog[]){
		{ SEL0, f0 | USR | OS | EN } }, 1);
}

/* Stopping one counter keeps EN for the other; the last stop clears EN
 * first, then USR/OS. */
static void test_stop_one(void **state)
{
	start_cpu(5);
	ok(p6_program(0, 0xc0 | USR, &e));
	ok(p6_program(1, 0xc0 | USR, &e));
	ok(p6_start(0, &e));
	ok(p6_start(1, &e));
	feed(3, 2);
	be.n = 0;
	ok(p6_stop(0, &e));
	expect_writes((const struct wlog[]){ { SEL0, 0xc0 | EN } }, 1);
	feed(3, 3);
	assert_int_equal(rd(CTR0), 2);
	assert_int_equal(rd(CTR1), 5);
	ok(p6_start(0, &e));
	expect_writes((const struct wlog[]){ { SEL0, 0xc0 | USR | EN } }, 1);
	ok(p6_stop(1, &e));
	expect_writes((const struct wlog[]){ { SEL1, 0xc0 } }, 1);
	feed(3, 1);
	assert_int_equal(rd(CTR0), 3);
	assert_int_equal(rd(CTR1), 5);
	ok(p6_stop(0, &e));
	expect_writes((const struct wlog[]){
		{ SEL0, 0xc0 | USR }, { SEL0, 0xc0 } }, 2);
	feed(3, 5);
	assert_int_equal(rd(CTR0), 3);
	/* counter 1 alone: start sets EN after its selection */
	ok(p6_start(1, &e));
	expect_writes((const struct wlog[]){
		{ SEL1, 0xc0 | USR }, { SEL0, 0xc0 | EN } }, 2);
	feed(3, 2);
	assert_int_equal(rd(CTR0), 3);
	assert_int_equal(rd(CTR1), 7);
	ok(p6_stop(1, &e));
	expect_writes((const struct wlog[]){
		{ SEL0, 0xc0 }, { SEL1, 0xc0 } }, 2);
}

/* init takes the registers as they are: a counter runs when EN and its
 * USR/OS are set. */
static void test_init_takes_state(void **state)
{
	start_cpu(8);
	assert_int_equal(p6m->wrmsr(SEL1, 0xc0 | USR), 0);
	assert_int_equal(p6m->wrmsr(SEL0, 0xc0 | EN), 0);
	ok(p6_init(&e));
	assert_int_equal(shadow[0], 0xc0 | EN);
	assert_int_equal(shadow[1], 0xc0 | USR);
	be.n = 0;
	ok(p6_program(0, 0xc4 | USR, &e));
	/* counter 1 ran: EN comes back for it */
	expect_writes((const struct wlog[]){
		{ SEL0, 0xc0 }, { CTR0, 0 }, { SEL0, 0xc4 },
		{ SEL0, 0xc4 | EN } }, 4);
}

static void test_refusals(void **state)
{
	static const struct {
		unsigned ctr;
		uint64_t sel;
	} bad[] = {
		{ 0, 0xc0 | USR | (1ull << 21) },
		{ 1, 0xc0 | USR | (1ull << 32) },
		{ 0, 0xc0 | USR | (1ull << 63) },
		{ 0, 0xc0 | USR | EN },
		{ 1, 0x01 | USR },		/* not in the tables */
		{ 1, 0xc1 | USR },		/* FLOPS: counter 0 only */
		{ 0, 0x11 | USR },		/* FP_ASSIST: counter 1 */
		{ 0, 0xc0 | USR | (1ull << 8) },	/* unit mask 01H */
		{ 0, 0x62 | (0x01ull << 8) },	/* bus: only bit 5 */
		{ 0, 0xb0 | USR },		/* Pentium II only */
		{ 0, 0x58 | USR },		/* Pentium M only */
		{ 2, 0xc0 | USR },
	};
	uint64_t v;

	start_cpu(8);
	be.n = 0;
	for (unsigned i = 0; i < N(bad); i++)
		if (!p6_program(bad[i].ctr, bad[i].sel, &e))
			fail_msg("counter %u sel 0x%llx accepted", bad[i].ctr,
				 (unsigned long long)bad[i].sel);
	assert_int_equal(be.n, 0);		/* nothing was written */
	assert_int_not_equal(p6_write(0, 0x80000000, &e), 0);
	assert_int_not_equal(p6_write(0, 0x100000000ull, &e), 0);
	assert_int_not_equal(p6_write(0, 1ull << 40, &e), 0);
	assert_int_equal(be.n, 0);
	assert_int_not_equal(p6_rdpmc(2, &v, &e), 0);
	/* on a Pentium II, 0xB0 is an event; on a Pentium M, 0x58 */
	start_cpu(5);
	ok(p6_program(0, 0xb0 | USR, &e));
	start_cpu(13);
	ok(p6_program(1, 0x58 | (0x02ull << 8) | USR, &e));
}

/* Presets: EAX alone, so values from 2^40 - 2^31 up come out right. */
static void test_write_preset(void **state)
{
	uint64_t v = 0;

	start_cpu(1);
	ok(p6_write(0, (1ull << 40) - 5, &e));
	expect_writes((const struct wlog[]){ { CTR0, 0xfffffffb } }, 1);
	ok(p6_read(0, &v, &e));
	assert_int_equal(v, (1ull << 40) - 5);
	ok(p6_write(1, 0x7fffffff, &e));
	ok(p6_rdpmc(1, &v, &e));
	assert_int_equal(v, 0x7fffffff);
}

/* Someone else's write to a PerfEvtSel is noticed, not overwritten. */
static void test_foreign_change(void **state)
{
	start_cpu(8);
	ok(p6_program(0, 0xc0 | USR, &e));
	assert_int_equal(p6m->wrmsr(SEL1, 0x79 | OS), 0);
	assert_int_not_equal(p6_program(0, 0xc4 | USR, &e), 0);
	assert_non_null(strstr(e.msg, "PerfEvtSel1"));
	assert_int_not_equal(p6_start(0, &e), 0);
}

static void test_faults(void **state)
{
	start_cpu(8);
	be.wr_fault = VEC_GP;
	assert_int_not_equal(p6_program(0, 0xc0 | USR, &e), 0);
	assert_int_equal(e.vector, VEC_GP);
	/* the message names the register by name and number, and the
	 * vector (the inject-* boots rely on it) */
	assert_non_null(strstr(e.msg, "PerfEvtSel0 (0x186)"));
	assert_non_null(strstr(e.msg, "vector 13"));
	assert_int_not_equal(p6_write(1, 5, &e), 0);
	assert_non_null(strstr(e.msg, "WRMSR PerfCtr1 (0xc2)=0x5"));
	assert_non_null(strstr(e.msg, "vector 13"));
}

/* ==== the ops table ==================================================== */

static void test_ops_table(void **state)
{
	const struct pmu_driver *d = pmu_driver_for(PMU_P6);
	struct pmu_shape s;
	char buf[200];

	start_cpu(13);
	assert_ptr_equal(d, &p6_driver);
	assert_string_equal(d->name, "p6");
	d->shape(&fake_cpu, &s);
	assert_int_equal(s.counters, 2);
	assert_int_equal(s.width, 40);
	assert_int_equal(s.fixed, 0);
	d->describe(&fake_cpu, buf, sizeof(buf));
	assert_string_equal(buf, "counters=2 width=40 caps=fixed "
			    "gen=pentium-m rdpmc=yes erratum26=no "
			    "pentium_m_events=yes");
	start_cpu(1);
	d->describe(&fake_cpu, buf, sizeof(buf));
	assert_non_null(strstr(buf, "gen=ppro"));
	assert_non_null(strstr(buf, "pentium_m_events=no"));
}

static void test_event_config(void **state)
{
	const struct pmu_driver *d = &p6_driver;
	struct pmu_config c;

	start_cpu(8);
	assert_int_equal(d->event_config(SEM_INSTRUCTIONS, 0, PMU_CPL3, &c),
			 0);
	assert_int_equal(c.sel, 0xc0 | USR);
	assert_int_equal(d->event_config(SEM_INSTRUCTIONS, 1,
					 PMU_CPL(3) | PMU_CPL(0), &c), 0);
	assert_int_equal(c.sel, 0xc0 | USR | OS);
	assert_int_equal(d->event_config(SEM_CLOCKS, 1, PMU_CPL(0), &c), 0);
	assert_int_equal(c.sel, 0x79 | OS);
	/* CPL 1 and 2 are USR's, not OS's */
	assert_int_equal(d->event_config(SEM_CLOCKS, 1, PMU_CPL(1), &c), 0);
	assert_int_equal(c.sel, 0x79 | USR);
	assert_int_equal(d->event_config(SEM_CLOCKS, 1,
					 PMU_CPL(0) | PMU_CPL(2), &c), 0);
	assert_int_equal(c.sel, 0x79 | USR | OS);
	assert_int_equal(d->event_config(SEM_SEGLOADS, 0, PMU_CPL3, &c), 0);
	assert_int_equal(c.sel, 0x06 | USR);
	/* branches are counted with far transfers: no exact event */
	assert_int_equal(d->event_config(SEM_BRANCHES, 0, PMU_CPL3, &c), -1);
	assert_int_equal(d->event_config(SEM_LOADS, 0, PMU_CPL3, &c), -1);
	assert_int_equal(d->event_config(SEM_INSTRUCTIONS, 2, PMU_CPL3, &c),
			 -1);
	assert_int_equal(d->event_config(SEM_INSTRUCTIONS, 0, 0, &c), -1);
	assert_int_equal(d->event_config(SEM_INSTRUCTIONS, 0, 1u << 4, &c),
			 -1);
}

static void test_config_counts(void **state)
{
	static const struct {
		uint64_t sel;
		unsigned ctr;
		int rc;
		uint32_t mask;
		unsigned cpls;
	} cases[] = {
		{ 0xc0 | USR, 0, 0, SEM_BIT(SEM_INSTRUCTIONS), CPLS_USR },
		{ 0xc0 | OS, 1, 0, SEM_BIT(SEM_INSTRUCTIONS), CPLS_OS },
		{ 0x43 | USR | OS, 1, 0,
		  SEM_BIT(SEM_LOADS) | SEM_BIT(SEM_STORES),
		  CPLS_USR | CPLS_OS },
		{ 0xc0 | USR | CMASK(1), 0, 0, 0, CPLS_USR },
		{ 0xc0 | USR | (1ull << 18), 0, 0, 0, CPLS_USR },
		{ 0xc0 | USR | (1ull << 23), 0, 0, SEM_BIT(SEM_INSTRUCTIONS),
		  CPLS_USR },		/* INV without CMASK: ignored */
		{ 0xc0 | USR | (1ull << 8), 0, 0, 0, CPLS_USR },
		{ 0x45 | USR, 0, 0, 0, CPLS_USR },
		{ 0x01 | USR, 0, -1, 0, CPLS_USR },
		{ 0xc1 | USR, 1, -1, 0, CPLS_USR },
	};

	start_cpu(8);
	for (unsigned i = 0; i < N(cases); i++) {
		struct pmu_config c = { cases[i].sel, 0 };
		uint32_t mask = 0xdead;
		unsigned cpls = 0;
		int rc = p6_driver.config_counts(&c, cases[i].ctr, &mask,
						 &cpls);

		if (rc != cases[i].rc || cpls != cases[i].cpls ||
		    (rc == 0 && mask != cases[i].mask))
			fail_msg("0x%llx on %u: rc %d mask 0x%x cpls %u",
				 (unsigned long long)cases[i].sel,
				 cases[i].ctr, rc, mask, cpls);
	}
}

static void test_config_name(void **state)
{
	struct pmu_config c = { 0xc0 | USR | INT | CMASK(2), 0 };
	char buf[80];

	p6_driver.config_name(&c, buf, sizeof(buf));
	assert_non_null(strstr(buf, "ev=0xc0"));
	assert_non_null(strstr(buf, "usr"));
	assert_non_null(strstr(buf, "int"));
	assert_non_null(strstr(buf, "cmask=2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_program_start),
		cmocka_unit_test(test_program_while_other_runs),
		cmocka_unit_test(test_program_fields),
		cmocka_unit_test(test_stop_one),
		cmocka_unit_test(test_init_takes_state),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_write_preset),
		cmocka_unit_test(test_foreign_change),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_ops_table),
		cmocka_unit_test(test_event_config),
		cmocka_unit_test(test_config_counts),
		cmocka_unit_test(test_config_name),
	};

	return cmocka_run_group_tests_name("p6_driver", tests, NULL, NULL);
}
