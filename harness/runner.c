/* runner: runs the registered tests and reports them as TAP (runner.h). */
#include "runner.h"
#include "clock.h"
#include "select.h"
#include "tcase.h"
#include "test.h"
#include "../arch/x86/cpu.h"
#include "../arch/x86/pmi.h"
#include "../arch/x86/ring3.h"
#include "../arch/x86/trap.h"
#include "../arch/x86/watchdog.h"
#include "../lib/fmt.h"
#include "../lib/string.h"
#include "../pmu/backend.h"
#include "../pmu/detect.h"
#include "../pmu/errata.h"
#include "../pmu/generation.h"

#define MAX_TESTS 512

extern const struct test __pmu_tests_start[], __pmu_tests_end[];
extern char ImageBase[];

/* The state a test stopped at its root frame may leave behind (trap.h:
 * the frames nested in it never ran their clean-up). */
struct machine_state {
	ureg_t flags, cr3, cr4;
	struct trap_state trap;
};

/* How long the run and the current test have been going. */
struct run_clock {
	uint64_t hz, start, run_limit_us;
	const char *slowest;
	uint64_t slowest_us;
};

static struct tcase current;

static unsigned collect(const struct test **list, const char *globs,
			unsigned *not_applicable)
{
	enum pmu_kind k = cpu_info()->pmu;
	unsigned n = 0;

	*not_applicable = 0;
	for (const struct test *t = __pmu_tests_start; t < __pmu_tests_end;
	     t++) {
		unsigned i;

		if (!runner_selected_on(t, globs, k)) {
			*not_applicable += runner_selected(t, globs) &&
					   !runner_applicable(t, k);
			continue;
		}
		if (n == MAX_TESTS)
			continue;
		/* insertion sort by name: a stable, documented order */
		for (i = n; i > 0 && str_cmp(list[i - 1]->name, t->name) > 0;
		     i--)
			list[i] = list[i - 1];
		list[i] = t;
		n++;
	}
	return n;
}

static void run_one(void *arg)
{
	struct tcase *t = arg;

	t->test->run(t);
}

static void report_fault(struct tap *tap, const struct fault *f)
{
	tap_yaml_kv(tap, "exception", "%s", trap_vector_name(f->vector));
	tap_yaml_kv(tap, "vector", "%u", f->vector);
	if (f->has_error)
		tap_yaml_kv(tap, "error_code", "0x%llx",
			    (unsigned long long)f->error);
	tap_yaml_kv(tap, "rip", "0x%llx", (unsigned long long)f->rip);
	tap_yaml_kv(tap, "rip_in_image", "0x%llx",
		    (unsigned long long)(f->rip - (uintptr_t)ImageBase));
	tap_yaml_kv(tap, "cs", "0x%llx", (unsigned long long)f->cs);
	if (f->vector == VEC_PF)
		tap_yaml_kv(tap, "cr2", "0x%llx", (unsigned long long)f->cr2);
}

/* A time as seconds with milliseconds. */
static void yaml_seconds(struct tap *tap, const char *key, uint64_t us)
{
	tap_yaml_kv(tap, key, "%llu.%03llu",
		    (unsigned long long)(us / 1000000),
		    (unsigned long long)(us % 1000000 / 1000));
}

/* The test's limit and the time it took. */
static void yaml_limit_elapsed(struct tap *tap, uint64_t limit_us,
			       uint64_t elapsed_us)
{
	yaml_seconds(tap, "limit_s", limit_us);
	yaml_seconds(tap, "elapsed_s", elapsed_us);
}

static void report_timeout(struct tap *tap, uint64_t limit_us,
			   uint64_t elapsed_us)
{
	const struct wd_event *ev = watchdog_event();

	tap_yaml_kv(tap, "timed_out", "true");
	yaml_limit_elapsed(tap, limit_us, elapsed_us);
	/* The watchdog's own clock at its stops, beside the numbers it
	 * keeps (limit_s, grace_s): what a check may bound whatever the
	 * host's load (watchdog.h, struct wd_event). */
	yaml_seconds(tap, "watchdog_stop_s", ev->stop_us[0]);
	if (ev->stage > 1) {
		yaml_seconds(tap, "grace_s", WD_GRACE_US);
		yaml_seconds(tap, "watchdog_root_stop_s", ev->stop_us[1]);
	}
	tap_yaml_kv(tap, "rip", "0x%llx", (unsigned long long)ev->rip);
	tap_yaml_kv(tap, "rip_in_image", "0x%llx",
		    (unsigned long long)(ev->rip - (uintptr_t)ImageBase));
	tap_yaml_kv(tap, "cpl", "%u", ev->cpl);
	tap_yaml_kv(tap, "interrupts", "%s",
		    ev->rflags & X86_EFLAGS_IF ? "on" : "off");
	if (ev->traced_rip)
		tap_yaml_kv(tap, "traced_rip_in_image", "0x%llx",
			    (unsigned long long)(ev->traced_rip -
						 (uintptr_t)ImageBase));
	tap_yaml_kv(tap, "stopped", "%s", ev->stage > 1 ?
		    "at the test's root frame (it ignored the first stop)" :
		    "like an exception, at the innermost catch frame");
	if (ev->firmware_waits)
		tap_yaml_kv(tap, "firmware_waits", "%u", ev->firmware_waits);
}

/* A test that ran past its limit and was not stopped: no watchdog (a
 * machine without an NMI timer, the header's "# watchdog: none"), or it
 * returned before the watchdog's NMI came.  Its result would be as
 * meaningless as a stopped one's, and on a real machine the next hang
 * would not end: it fails, with the time it took. */
static void report_overrun(struct tap *tap, uint64_t limit_us,
			   uint64_t elapsed_us)
{
	tap_yaml_kv(tap, "overran", "true");
	yaml_limit_elapsed(tap, limit_us, elapsed_us);
	tap_yaml_kv(tap, "error", "%s", watchdog_ready() ?
		    "ran past its time limit: returned before the watchdog "
		    "stopped it" : "ran past its time limit and nothing "
		    "stopped it (# watchdog: none)");
}

/* The result line.  On backend=hw a test a known erratum of this CPU
 * touches (pmu/errata.h) is a TODO, failed or not: the failure is the
 * chip's, visible but no regression; it then counts as passed.  The
 * model and backend=emulated have no errata. */
static enum tap_status write_result(struct tap *tap, const struct tcase *t,
				    enum tap_status st)
{
	const struct pmu_erratum *e = NULL;
	char why[TAP_LINE_MAX / 2];

	if (st != TAP_SKIP && backend_current()->id == BE_HW)
		e = pmu_erratum_for(cpu_info(), t->test->name);
	if (!e) {
		tap_result(tap, st, t->test->name, t->skip_reason);
		return st;
	}
	fmt_snprintf(why, sizeof(why), "erratum %s: %s (%s)", e->id, e->what,
		     e->source);
	tap_result_todo(tap, st == TAP_PASS, t->test->name, why);
	return TAP_PASS;
}

/* Writes the result; returns its status. */
static enum tap_status report(struct tap *tap, struct tcase *t, int faulted,
			      const struct fault *f, uint64_t limit_us,
			      uint64_t elapsed_us)
{
	enum tap_status st = TAP_PASS;
	int timed_out = watchdog_event()->fired;
	int overran = !timed_out && elapsed_us > limit_us;

	if (faulted || t->failed || timed_out || overran)
		st = TAP_FAIL;
	else if (t->skipped)
		st = TAP_SKIP;
	else if (!t->checks)
		st = TAP_FAIL;	/* a test that checked nothing proves nothing */
	st = write_result(tap, t, st);
	if (st == TAP_FAIL && !faulted && !t->failed && !timed_out &&
	    !overran)
		tap_yaml_kv(tap, "error", "test made no check");
	if (timed_out)
		report_timeout(tap, limit_us, elapsed_us);
	if (overran)
		report_overrun(tap, limit_us, elapsed_us);
	if (t->n_failures) {
		tap_yaml_kv(tap, "failed_checks", "%u of %u", t->failed,
			    t->checks);
		tap_yaml_list(tap, "failures");
		for (unsigned i = 0; i < t->n_failures; i++)
			tap_yaml_item(tap, "%s", t->failures[i]);
	}
	if (faulted && f->vector != VEC_TIMEOUT)
		report_fault(tap, f);
	for (unsigned i = 0; i < t->n_values; i++)
		tap_yaml_kv(tap, t->values[i].key, "%s", t->values[i].val);
	if (t->dropped_values)
		tap_yaml_kv(tap, "values_dropped", "%u", t->dropped_values);
	tap_yaml_end(tap);
	return st;
}

static void save_machine(struct machine_state *m)
{
	m->flags = read_flags();
	m->cr3 = read_cr3();
	m->cr4 = read_cr4();
	trap_state_save(&m->trap);
}

/* After a test ended at its root frame: what the skipped clean-ups would
 * have put back (the CPL 3 runner's CR3, CR4 and exit gate, the tracer's
 * #DB hook and TF, the PMI handler). */
static void restore_machine(const struct machine_state *m)
{
	irq_disable();
	trap_state_restore(&m->trap);
	trap_release_vector(RING3_EXIT_VECTOR);
	__asm__ volatile("mov %0, %%cr3" : : "r"(m->cr3) : "memory");
	write_cr4(m->cr4);
	pmi_disarm();
	write_flags(m->flags & ~(ureg_t)X86_EFLAGS_TF);
}

/* Every test must leave CR3 and CR4 as it found them (the CPL 3 runner
 * switches both); one that does not fails, and they are put back. */
static void check_machine(struct tcase *t, const struct machine_state *m)
{
	ureg_t cr3 = read_cr3(), cr4 = read_cr4();

	if (cr3 == m->cr3 && cr4 == m->cr4)
		return;
	check(t, 0, "left the machine with CR3 0x%llx CR4 0x%llx (found "
	      "0x%llx 0x%llx): put back", (unsigned long long)cr3,
	      (unsigned long long)cr4, (unsigned long long)m->cr3,
	      (unsigned long long)m->cr4);
	restore_machine(m);
}

static uint64_t elapsed_us(const struct run_clock *c, uint64_t since)
{
	uint64_t d = rdtsc() - since;

	if (!c->hz)
		return 0;
	return d / c->hz * 1000000 + d % c->hz * 1000000 / c->hz;
}

/* What is left of run_timeout=. */
static uint64_t limit_us_left(const struct run_clock *c)
{
	uint64_t used = elapsed_us(c, c->start);

	return used >= c->run_limit_us ? 0 : c->run_limit_us - used;
}

/* The test's limit: timeout=, or what is left of run_timeout= (left);
 * 0 when the run's time is up. */
static uint64_t test_limit_us(const struct run_clock *c,
			      const struct runner_opts *o, uint64_t left)
{
	uint64_t limit = (uint64_t)o->timeout_s * 1000000;

	if (!c->hz)
		return limit;	/* no clock: only the per-test limit */
	return left < limit ? left : limit;
}

static void report_not_run(struct tap *tap, const struct test *test,
			   const struct runner_opts *o)
{
	tap_result(tap, TAP_FAIL, test->name, "");
	tap_yaml_kv(tap, "not_run", "the whole-run limit of %u s "
		    "(run_timeout=) was reached", o->run_timeout_s);
	tap_yaml_end(tap);
}

/* Runs one test and reports it; returns its result. */
static enum tap_status run_test(struct tap *tap, const struct test *test,
				const struct runner_opts *o,
				struct run_clock *c, uint64_t limit_us)
{
	struct tcase *t = &current;
	struct machine_state m;
	struct fault f;
	uint64_t t0, took;
	int faulted, risky = !!(test->flags & TEST_RISKY);
	enum tap_status st;

	memset(t, 0, sizeof(*t));
	t->test = test;
	if (o->verbose)
		tap_comment(tap, "running %s: %s", test->name, test->what);
	/* Before a test that may take the machine down, everything so far
	 * (its "# running" line too) reaches the file. */
	if (o->sync && (o->verbose || risky))
		o->sync(risky);
	save_machine(&m);
	t0 = rdtsc();
	watchdog_arm(limit_us);
	/* A maskable interrupt's watchdog (no local APIC, watchdog.h) stops
	 * only what runs with IF = 1; write_flags() below puts IF back. */
	if (watchdog_needs_irq_on())
		irq_enable();
	faulted = trap_catch_root(run_one, t, &f);
	watchdog_disarm();
	took = elapsed_us(c, t0);
	if (watchdog_event()->stage > 1)
		restore_machine(&m);
	check_machine(t, &m);
	write_flags(m.flags);	/* IF as before, whatever the test did */
	st = report(tap, t, faulted, &f, limit_us, took);
	if (took > c->slowest_us) {
		c->slowest_us = took;
		c->slowest = test->name;
	}
	if (o->sync)
		o->sync(st == TAP_FAIL);	/* a failure: at once */
	if (t->after)
		t->after();
	return st;
}

/* The tests of PMU generations' groups (pmu/generation.h) the run was
 * asked for, and how many of them ran (did not skip).  A feature
 * generation's groups (Intel PT) do not count: its packet-level tests run
 * without any PMU, and a PMU is what the run is asked to test. */
struct pmu_tally {
	unsigned asked, ran;
	char first_skip[160];	/* "name: reason" of the first skip */
};

static void tally(struct pmu_tally *p, const struct test *test,
		  enum tap_status st)
{
	const struct pmu_generation *g = pmu_generation_of_test(test->name);

	if (!g || g->feature)
		return;
	p->asked++;
	if (st != TAP_SKIP)
		p->ran++;
	else if (!p->first_skip[0])
		fmt_snprintf(p->first_skip, sizeof(p->first_skip), "%s: %s",
			     test->name, current.skip_reason);
}

/* A run asked for PMU tests none of which ran tested nothing of the PMU:
 * its verdict is untested, not a pass (docs/log-format.md). */
static void judge_untested(struct tap *tap, const struct pmu_tally *p,
			   unsigned not_applicable)
{
	char why[200];

	if (p->ran || !(p->asked + not_applicable))
		return;
	if (p->asked)
		fmt_snprintf(why, sizeof(why), "all %u selected PMU tests "
			     "skipped (first %s)", p->asked, p->first_skip);
	else
		fmt_snprintf(why, sizeof(why), "no test group for this CPU's "
			     "PMU (kind=%s): the %u selected PMU tests are "
			     "other generations'", pmu_kind_name(cpu_info()->pmu),
			     not_applicable);
	tap_untested(tap, why);
}

/* A tests= pattern that chooses no test: an error line and a not ok
 * result of its own, so that every TAP consumer fails the run. */
static void report_unmatched(void *ctx, const char *pattern)
{
	struct tap *tap = ctx;
	char name[80];
	unsigned i;

	tap_comment(tap, "error: tests= pattern \"%s\" selects no test",
		    pattern);
	/* '#' would start a TAP directive in the result's name */
	fmt_snprintf(name, sizeof(name), "selection/%s", pattern);
	for (i = 0; name[i]; i++)
		if (name[i] == '#' || (unsigned char)name[i] < 0x20)
			name[i] = '_';
	tap_result(tap, TAP_FAIL, name, "");
	tap_yaml_kv(tap, "error", "the tests= pattern selects no test of "
		    "this build");
	tap_yaml_end(tap);
}

/* No pattern was unmatched, yet nothing was selected (an empty tests=). */
static void report_empty(struct tap *tap, const char *globs)
{
	tap_result(tap, TAP_FAIL, "selection", "");
	if (!*globs)
		tap_yaml_kv(tap, "error", "the selection was rejected (a "
			    "tests= option, or a source of options that could "
			    "not be read whole: its error is above): no test "
			    "runs");
	else
		tap_yaml_kv(tap, "error", "tests=\"%s\" selects no test",
			    globs);
	tap_yaml_end(tap);
}

void runner_run(struct tap *tap, const struct runner_opts *o)
{
	static const struct test *list[MAX_TESTS];
	static struct pmu_tally pmu;
	unsigned skipped_kind;
	unsigned n = collect(list, o->globs, &skipped_kind);
	unsigned unmatched;
	struct run_clock c = {
		.hz = harness_tsc_hz(),
		.start = rdtsc(),
		.run_limit_us = (uint64_t)o->run_timeout_s * 1000000,
	};

	memset(&pmu, 0, sizeof(pmu));
	if (skipped_kind)
		tap_comment(tap, "not-applicable: %u tests of other PMU "
			    "generations' groups (this CPU: kind=%s); a "
			    "tests= pattern naming a group runs them",
			    skipped_kind, pmu_kind_name(cpu_info()->pmu));
	unmatched = runner_unmatched_patterns(o->globs, __pmu_tests_start,
					      __pmu_tests_end,
					      report_unmatched, tap);
	if (!*o->globs)
		tap_comment(tap, "error: no test runs: the selection was "
			    "rejected (its error is above)");
	else if (!n)
		tap_comment(tap, "error: tests=\"%s\" selects no test",
			    o->globs);
	if (!n && !unmatched)
		report_empty(tap, o->globs);
	for (unsigned i = 0; i < n; i++) {
		uint64_t left = limit_us_left(&c);
		uint64_t limit = test_limit_us(&c, o, left);

		if (o->firmware_watchdog)
			o->firmware_watchdog((unsigned)(left / 1000000) +
					     RUNNER_FIRMWARE_MARGIN_S);
		if (!limit) {
			report_not_run(tap, list[i], o);
			tally(&pmu, list[i], TAP_FAIL);
		} else {
			tally(&pmu, list[i],
			      run_test(tap, list[i], o, &c, limit));
		}
	}
	if (c.slowest)
		tap_comment(tap, "time: run=%llu ms slowest=%s %llu ms "
			    "timeout=%u s run_timeout=%u s",
			    (unsigned long long)(elapsed_us(&c, c.start) / 1000),
			    c.slowest, (unsigned long long)(c.slowest_us / 1000),
			    o->timeout_s, o->run_timeout_s);
	judge_untested(tap, &pmu, skipped_kind);
}
