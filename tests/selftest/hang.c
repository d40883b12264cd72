/* selftest-hang group: tests that never end, to prove the time limit
 * (timeout=) stops each one and costs only that test.  Manual: they run
 * only when tests= names their group (selftest-hang/...), with a short
 * timeout=; make check's watchdog boot expects each to fail with
 * timed_out: true and the tests after them to pass.  A hang with
 * interrupts off needs an NMI watchdog; where the watchdog is a maskable
 * interrupt (a board without a local APIC) or there is none, those tests
 * skip, saying why, instead of hanging the machine for good. */
#include <stddef.h>
#include "../../harness/clock.h"
#include "../../harness/test.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/ring3.h"
#include "../../arch/x86/trace.h"
#include "../../arch/x86/trap.h"
#include "../../arch/x86/watchdog.h"

/* Code run at CPL 3: on the user pages, called as a routine (cpu.h). */
#define USER __attribute__((section(".text.user"), noinline)) ROUTINE_ABI

/* The hangs below run with IF = 0 (cli, or the CPL 3 runner and the
 * tracer, which clear it): only an NMI ends them (SDM Vol. 3A §6.8.1). */
static int nmi_watchdog(struct tcase *t)
{
	if (watchdog_stops_irq_off())
		return 1;
	skip(t, "%s: it would never end", watchdog_ready() ?
	     "the watchdog, a maskable interrupt, cannot stop a hang with "
	     "interrupts off" : "no watchdog to stop the hang");
	return 0;
}

/* A loop a maskable interrupt can break: IF = 1 at CPL 0.  Named to run
 * before the IF = 0 hangs (the runner sorts by name). */
static void test_cpl0_irq_enabled(struct tcase *t)
{
	if (!watchdog_ready()) {
		skip(t, "no watchdog: the hang would never end");
		return;
	}
	value(t, "about_to", "sti; jmp . at CPL 0");
	__asm__ volatile("sti\n1: jmp 1b" ::: "memory");
	check(t, 0, "returned from an endless loop");
}

TEST(hang_cpl0_irq_on, "selftest-hang/cpl0-irq-enabled",
     "an endless loop at CPL 0 with interrupts on is stopped at its time "
     "limit", test_cpl0_irq_enabled, TEST_MANUAL | TEST_RISKY);

/* A loop no maskable interrupt can break: IF = 0 at CPL 0. */
static void test_cpl0_irq_off(struct tcase *t)
{
	if (!nmi_watchdog(t))
		return;
	value(t, "about_to", "cli; jmp . at CPL 0");
	__asm__ volatile("cli\n1: jmp 1b" ::: "memory");
	check(t, 0, "returned from an endless loop");
}

TEST(hang_cpl0, "selftest-hang/cpl0-irq-off",
     "an endless loop at CPL 0 with interrupts off is stopped at its "
     "time limit", test_cpl0_irq_off, TEST_MANUAL | TEST_RISKY);

static USER ROUTINE_ABI void user_spin(uint64_t n, void *data)
{
	__asm__ volatile("1: jmp 1b");
}

static void test_cpl3(struct tcase *t)
{
	struct fault f = { 0 };
	int r;

	if (!nmi_watchdog(t) ||
	    !check(t, ring3_ready(), "ring 3 is not set up"))
		return;
	value(t, "about_to", "jmp . at CPL 3");
	r = ring3_run(user_spin, 0, NULL, 0, &f);
	/* Here only after the limit: the CPL 3 runner returns the stop as
	 * a fault (vector VEC_TIMEOUT) and the test goes on. */
	value(t, "ring3_run", "%d", r);
	value(t, "vector", "%u (%s)", f.vector, trap_vector_name(f.vector));
	check(t, r == 1 && f.vector == VEC_TIMEOUT, "ring3_run returned %d "
	      "vector %u, expected 1 and the timeout pseudo-vector %u", r,
	      f.vector, VEC_TIMEOUT);
}

TEST(hang_cpl3, "selftest-hang/cpl3",
     "an endless loop at CPL 3 is stopped at its time limit", test_cpl3,
     TEST_MANUAL | TEST_RISKY);

static void count_step(const struct insn_event *e, void *ctx)
{
	(*(uint64_t *)ctx)++;
}

static void test_traced(struct tcase *t)
{
	struct fault f = { 0 };
	uint64_t steps = 0;
	int r;

	if (!nmi_watchdog(t))
		return;
	value(t, "about_to", "single-step an endless loop");
	r = trace_run(user_spin, 0, NULL, 0,
		      (struct trace_range){ (const void *)user_spin,
					    (const char *)user_spin + 64 },
		      count_step, &steps, &f);
	value(t, "trace_run", "%d", r);
	value(t, "steps", "%llu", (unsigned long long)steps);
	check(t, r == 1 && f.vector == VEC_TIMEOUT, "trace_run returned %d "
	      "vector %u, expected 1 and the timeout pseudo-vector %u", r,
	      f.vector, VEC_TIMEOUT);
	check(t, steps > 0, "no step traced");
}

TEST(hang_traced, "selftest-hang/traced-benchmark",
     "an endless loop under the single-step tracer is stopped at its "
     "time limit", test_traced, TEST_MANUAL | TEST_RISKY);

static void spin_irq_off(void *arg)
{
	__asm__ volatile("cli\n1: jmp 1b" ::: "memory");
}

/* Ignores the first stop: loops again at once, interrupts off, so no
 * IRET of any other handler comes in between; only the watchdog's own
 * IRET lets the second NMI in, which ends the test at its root frame
 * after the grace period. */
static void test_ignores_stop(struct tcase *t)
{
	struct fault f = { 0 };
	unsigned stops = 0;

	if (!nmi_watchdog(t))
		return;
	value(t, "about_to", "cli; jmp . again after each stop");
	irq_disable();
	for (;;) {
		if (trap_catch(spin_irq_off, NULL, &f) &&
		    f.vector == VEC_TIMEOUT)
			stops++;
		if (stops > 1000)
			break;
	}
	check(t, 0, "returned from an endless loop");
}

TEST(hang_ignores, "selftest-hang/ignores-first-stop",
     "a test that goes on after its stop is ended at the root frame "
     "after the grace period", test_ignores_stop, TEST_MANUAL | TEST_RISKY);

/* As above at CPL 3: the second stop comes with the CPL 3 runner's CR3
 * and CR4 in place, which only the runner's restore puts back (the
 * runner fails any test that leaves them changed). */
static void test_cpl3_ignores_stop(struct tcase *t)
{
	struct fault f = { 0 };
	unsigned stops = 0;

	if (!nmi_watchdog(t) ||
	    !check(t, ring3_ready(), "ring 3 is not set up"))
		return;
	value(t, "about_to", "jmp . at CPL 3 again after each stop");
	for (;;) {
		if (ring3_run(user_spin, 0, NULL, 0, &f) == 1 &&
		    f.vector == VEC_TIMEOUT)
			stops++;
		if (stops > 1000)
			break;
	}
	check(t, 0, "returned from an endless loop");
}

TEST(hang_cpl3_ignores, "selftest-hang/cpl3-ignores-first-stop",
     "a CPL 3 loop that goes on after its stop is ended at the root "
     "frame, and CR3/CR4 are put back", test_cpl3_ignores_stop,
     TEST_MANUAL | TEST_RISKY);

/* Not a hang: 1.5 s of work, longer than a timeout=1 limit.  Where a
 * watchdog stops it, it is timed_out; where none can (# watchdog: none),
 * it returns, and the runner must still fail it with its elapsed time
 * (overran) rather than pass a test that ran past its limit. */
static void test_spin_1500ms(struct tcase *t)
{
	uint64_t hz = harness_tsc_hz(), t0 = rdtsc();

	if (!check(t, hz != 0, "no TSC rate: the spin cannot be timed"))
		return;
	value(t, "about_to", "spin 1.5 s by the TSC, then return");
	while (rdtsc() - t0 < hz + hz / 2)
		__asm__ volatile("pause");
	check(t, 1, "returned after 1.5 s");
}

TEST(slow_spin, "selftest-slow/spin-1500ms",
     "a test that runs 1.5 s and returns: past timeout=1 it fails, "
     "stopped or not", test_spin_1500ms, TEST_MANUAL);
