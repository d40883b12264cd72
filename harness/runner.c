/* runner: runs the registered tests and reports them as TAP (runner.h). */
#include "runner.h"
#include "test.h"
#include "../arch/x86/cpu.h"
#include "../arch/x86/trap.h"
#include "../lib/fmt.h"
#include "../lib/string.h"
#include "../pmu/detect.h"

#define MAX_TESTS 512
#define MAX_ITEMS 64
#define ITEM_LEN 240

extern const struct test __pmu_tests_start[], __pmu_tests_end[];
extern char ImageBase[];

struct item {
	char key[40];
	char val[ITEM_LEN];
};

struct tcase {
	const struct test *test;
	unsigned checks, failed;
	int skipped;
	char skip_reason[160];
	struct item values[MAX_ITEMS];
	unsigned n_values, dropped_values;
	char failures[8][ITEM_LEN];
	unsigned n_failures;
};

static struct tcase current;

int check(struct tcase *t, int ok, const char *fmt, ...)
{
	va_list ap;

	t->checks++;
	if (ok)
		return 1;
	t->failed++;
	if (t->n_failures < 8) {
		va_start(ap, fmt);
		fmt_vsnprintf(t->failures[t->n_failures++], ITEM_LEN, fmt, ap);
		va_end(ap);
	}
	return 0;
}

void value(struct tcase *t, const char *key, const char *fmt, ...)
{
	struct item *it;
	va_list ap;

	if (t->n_values == MAX_ITEMS) {
		t->dropped_values++;
		return;
	}
	it = &t->values[t->n_values++];
	str_copy(it->key, key, sizeof(it->key));
	va_start(ap, fmt);
	fmt_vsnprintf(it->val, sizeof(it->val), fmt, ap);
	va_end(ap);
}

void skip(struct tcase *t, const char *fmt, ...)
{
	va_list ap;

	t->skipped = 1;
	va_start(ap, fmt);
	fmt_vsnprintf(t->skip_reason, sizeof(t->skip_reason), fmt, ap);
	va_end(ap);
}

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
		    (unsigned long long)(f->rip - (uint64_t)ImageBase));
	tap_yaml_kv(tap, "cs", "0x%llx", (unsigned long long)f->cs);
	if (f->vector == VEC_PF)
		tap_yaml_kv(tap, "cr2", "0x%llx", (unsigned long long)f->cr2);
}

static void report(struct tap *tap, struct tcase *t, int faulted,
		   const struct fault *f)
{
	enum tap_status st = TAP_PASS;

	if (faulted || t->failed)
		st = TAP_FAIL;
	else if (t->skipped)
		st = TAP_SKIP;
	else if (!t->checks)
		st = TAP_FAIL;	/* a test that checked nothing proves nothing */
	tap_result(tap, st, t->test->name, t->skip_reason);
	if (st == TAP_FAIL && !faulted && !t->failed)
		tap_yaml_kv(tap, "error", "test made no check");
	if (t->n_failures) {
		tap_yaml_kv(tap, "failed_checks", "%u of %u", t->failed,
			    t->checks);
		tap_yaml_list(tap, "failures");
		for (unsigned i = 0; i < t->n_failures; i++)
			tap_yaml_item(tap, "%s", t->failures[i]);
	}
	if (faulted)
		report_fault(tap, f);
	for (unsigned i = 0; i < t->n_values; i++)
		tap_yaml_kv(tap, t->values[i].key, "%s", t->values[i].val);
	if (t->dropped_values)
		tap_yaml_kv(tap, "values_dropped", "%u", t->dropped_values);
	tap_yaml_end(tap);
}

void runner_run(struct tap *tap, const char *globs, int verbose,
		void (*sync)(void))
{
	static const struct test *list[MAX_TESTS];
	unsigned skipped_kind;
	unsigned n = collect(list, globs, &skipped_kind);
	struct fault f;

	if (skipped_kind)
		tap_comment(tap, "not-applicable: %u tests of other PMU "
			    "generations' groups (this CPU: kind=%s); a "
			    "tests= pattern naming a group runs them",
			    skipped_kind, pmu_kind_name(cpu_info()->pmu));
	if (!n)
		tap_comment(tap, "error: tests=\"%s\" selects no test", globs);
	for (unsigned i = 0; i < n; i++) {
		struct tcase *t = &current;
		uint64_t flags = read_flags();
		int faulted;

		memset(t, 0, sizeof(*t));
		t->test = list[i];
		if (verbose)
			tap_comment(tap, "running %s: %s", t->test->name,
				    t->test->what);
		faulted = trap_catch(run_one, t, &f);
		write_flags(flags);	/* IF as before, whatever the test did */
		report(tap, t, faulted, &f);
		if (sync)
			sync();
	}
}
