/* Host tests for pmu/emufault.c: the emulated_fault= parser (good lists,
 * each kind of bad item, a list applied whole or not at all), the names
 * as the docs give them, the armed set and its hold, and the shared
 * count, filter and width rules.  Expected values are restated from
 * docs/emulators.md "Emulator faults and the tests that catch them", not
 * read from the table under test. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "pmu/emufault.h"

/* host-sources: pmu/emufault.c lib/escape.c lib/fmt.c lib/string.c */

#define MAX_ERRORS 8

struct errors {
	unsigned n;
	char msg[MAX_ERRORS][600];
};

static struct errors errs;
static uint32_t set;

static void collect(void *ctx, const char *msg)
{
	struct errors *e = ctx;

	assert_true(e->n < MAX_ERRORS);
	snprintf(e->msg[e->n++], sizeof(e->msg[0]), "%s", msg);
}

static int parse(const char *spec)
{
	memset(&errs, 0, sizeof(errs));
	set = 0xa5a5a5a5u;	/* parse must set it */
	return emufault_parse(&set, spec, collect, &errs);
}

/* Every name of the docs' table, in the order of the enum. */
static const char *const names[] = {
	"double", "double-cpl0", "enable-plus-one", "filter-ignored",
	"filter-swapped", "overflow-late", "status-read-clears", "pmi-lost",
	"pmi-twice", "freeze-ignored", "global-ctrl-ignored", "fixed-swapped",
	"wrap-32", "no-sign-extend", "escr-threads-swapped",
	"cascade-ignored", "pebs-early", "pebs-no-reload", "bts-swapped",
	"lbr-tos-backwards", "pt-tnt-reversed", "exit-counted",
};

static void test_every_name_parses_alone(void **state)
{
	(void)state;
	assert_int_equal(sizeof(names) / sizeof(names[0]), 22);
	for (unsigned i = 0; i < 22; i++) {
		assert_int_equal(parse(names[i]), 0);
		assert_int_equal(set, 1u << i);
	}
}

static void test_list_and_description(void **state)
{
	char d[EMUFAULT_NAMES_MAX];

	(void)state;
	assert_int_equal(parse("pmi-twice,double,wrap-32"), 0);
	assert_int_equal(errs.n, 0);
	assert_int_equal(set, 1u << 8 | 1u << 0 | 1u << 12);
	emufault_describe(set, d, sizeof(d));
	assert_string_equal(d, "double,pmi-twice,wrap-32");
	emufault_describe(0, d, sizeof(d));
	assert_string_equal(d, "");
}

static void test_unknown_lists_the_known(void **state)
{
	(void)state;
	assert_int_equal(parse("double,Double,doubl"), 2);
	assert_int_equal(set, 0);	/* applied whole or not at all */
	assert_string_equal(errs.msg[0], "emulated_fault=: item 2 \"Double\": "
			    "unknown fault (known: double,double-cpl0,"
			    "enable-plus-one,filter-ignored,filter-swapped,"
			    "overflow-late,status-read-clears,pmi-lost,"
			    "pmi-twice,freeze-ignored,global-ctrl-ignored,"
			    "fixed-swapped,wrap-32,no-sign-extend,"
			    "escr-threads-swapped,cascade-ignored,pebs-early,"
			    "pebs-no-reload,bts-swapped,lbr-tos-backwards,"
			    "pt-tnt-reversed,exit-counted)");
	assert_non_null(strstr(errs.msg[1], "item 3 \"doubl\": unknown"));
}

static void test_empty_twice_and_escaped(void **state)
{
	(void)state;
	assert_int_equal(parse(""), 1);
	assert_string_equal(errs.msg[0], "emulated_fault=: item 1 \"\": empty "
			    "item");
	assert_int_equal(parse("double,,pmi-lost,"), 2);
	assert_string_equal(errs.msg[0], "emulated_fault=: item 2 \"\": empty "
			    "item");
	assert_string_equal(errs.msg[1], "emulated_fault=: item 4 \"\": empty "
			    "item");
	assert_int_equal(parse("pmi-lost,pmi-lost"), 1);
	assert_string_equal(errs.msg[0], "emulated_fault=: item 2 "
			    "\"pmi-lost\": given twice");
	assert_int_equal(set, 0);
	assert_int_equal(parse("a\"b"), 1);
	assert_non_null(strstr(errs.msg[0], "item 1 \"a\\x22b\": unknown"));
	/* a name cut at 32 bytes in its message */
	assert_int_equal(parse("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"), 1);
	assert_non_null(strstr(errs.msg[0], "item 1 \"xxxxxxxxxxxxxxxxxxxx"
			       "xxxxxxxxxxxx...\": unknown"));
}

static void test_armed_and_held(void **state)
{
	(void)state;
	emufault_arm(0);
	assert_false(emufault_on(EF_DOUBLE));
	emufault_arm(1u << 0 | 1u << 7);	/* double, pmi-lost */
	assert_int_equal(emufault_armed(), 1u << 0 | 1u << 7);
	assert_true(emufault_on(EF_DOUBLE));
	assert_true(emufault_on(EF_PMI_LOST));
	assert_false(emufault_on(EF_PMI_TWICE));
	/* a prediction: no fault acts */
	emufault_hold(1);
	assert_false(emufault_on(EF_DOUBLE));
	assert_int_equal(emufault_count(5, 3), 5);
	emufault_hold(0);
	assert_true(emufault_on(EF_DOUBLE));
	emufault_arm(0);
}

static void test_count(void **state)
{
	(void)state;
	emufault_arm(0);
	assert_int_equal(emufault_count(3, 0), 3);
	emufault_arm(1u << 0);			/* double */
	assert_int_equal(emufault_count(3, 0), 6);
	assert_int_equal(emufault_count(3, 3), 6);
	emufault_arm(1u << 1);			/* double-cpl0 */
	assert_int_equal(emufault_count(3, 0), 6);
	assert_int_equal(emufault_count(3, 3), 3);
	emufault_arm(0);
}

static void test_filter(void **state)
{
	(void)state;
	/* the model's own answer without a filter fault, whatever the flags */
	emufault_arm(0);
	assert_int_equal(emufault_filter(1, 0, 0, 2), 1);
	assert_int_equal(emufault_filter(0, 1, 1, 0), 0);
	emufault_arm(1u << 3);			/* filter-ignored */
	assert_int_equal(emufault_filter(0, 1, 0, 3), 1);
	assert_int_equal(emufault_filter(0, 0, 1, 0), 1);
	assert_int_equal(emufault_filter(1, 0, 0, 0), 0);
	emufault_arm(1u << 4);			/* filter-swapped */
	assert_int_equal(emufault_filter(1, 1, 0, 0), 0);	/* OS at 0 */
	assert_int_equal(emufault_filter(0, 1, 0, 3), 1);	/* OS at 3 */
	assert_int_equal(emufault_filter(0, 0, 1, 0), 1);	/* USR at 0 */
	assert_int_equal(emufault_filter(1, 0, 1, 3), 0);	/* USR at 3 */
	emufault_arm(0);
}

static void test_width(void **state)
{
	(void)state;
	emufault_arm(0);
	assert_int_equal(emufault_width(0xffffffffffull), 0xffffffffffull);
	emufault_arm(1u << 12);			/* wrap-32 */
	assert_int_equal(emufault_width(0xffffffffffull), 0xffffffffull);
	assert_int_equal(emufault_width(0xffffffffffffull), 0xffffffffull);
	emufault_arm(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_name_parses_alone),
		cmocka_unit_test(test_list_and_description),
		cmocka_unit_test(test_unknown_lists_the_known),
		cmocka_unit_test(test_empty_twice_and_escaped),
		cmocka_unit_test(test_armed_and_held),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_width),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
