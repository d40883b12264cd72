/* Host tests for pmu/inject.c: the inject= spec parser (good specs, each
 * kind of bad item, limits, escaping), the canonical description, and the
 * table in front of fake accessors (faults, stuck registers, RDPMC, the
 * observer, registers it leaves alone).  inject.c is included, so that
 * one rule's name (inject_rule_name()) is in reach without an interface
 * for the tests alone. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "pmu/inject.c"

/* host-sources: lib/fmt.c lib/string.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_ERRORS 20

struct errors {
	unsigned n;
	char msg[MAX_ERRORS][300];
};

static void collect(void *ctx, const char *msg)
{
	struct errors *e = ctx;

	assert_true(e->n < MAX_ERRORS);
	snprintf(e->msg[e->n++], sizeof(e->msg[0]), "%s", msg);
}

static struct inject_table t;
static struct errors errs;

static int parse(const char *spec)
{
	memset(&errs, 0, sizeof(errs));
	memset(&t, 0xa5, sizeof(t));	/* parse must set what it uses */
	t.observe = NULL;
	return inject_parse(&t, spec, collect, &errs);
}

static void test_good_spec(void **state)
{
	char d[256];

	assert_int_equal(parse("msr:0x11:gp,msr:0X12:stuck,msr:0x186:ud,"
			       "rdpmc:ud"), 0);
	assert_int_equal(errs.n, 0);
	assert_int_equal(t.n, 4);
	assert_int_equal(t.rule[0].target, INJECT_MSR);
	assert_int_equal(t.rule[0].msr, 0x11);
	assert_int_equal(t.rule[0].effect, INJECT_FAULT);
	assert_int_equal(t.rule[0].vector, 13);
	assert_int_equal(t.rule[1].msr, 0x12);
	assert_int_equal(t.rule[1].effect, INJECT_STUCK);
	assert_int_equal(t.rule[1].latched, 0);
	assert_int_equal(t.rule[2].msr, 0x186);
	assert_int_equal(t.rule[2].vector, 6);
	assert_int_equal(t.rule[3].target, INJECT_RDPMC);
	assert_int_equal(t.rule[3].vector, 6);
	for (unsigned i = 0; i < t.n; i++)
		assert_int_equal(t.rule[i].hits, 0);
	inject_describe(&t, d, sizeof(d));
	assert_string_equal(d, "msr:0x11:gp,msr:0x12:stuck,msr:0x186:ud,"
			    "rdpmc:ud");
	/* the description parses to the same table */
	assert_int_equal(parse(d), 0);
	assert_int_equal(t.n, 4);
}

static void test_limits(void **state)
{
	char spec[512] = "";

	assert_int_equal(parse("msr:0xffffffff:gp,msr:0x0:stuck,"
			       "msr:0xAbCdEf01:ud"), 0);
	assert_int_equal(t.rule[0].msr, 0xffffffffu);
	assert_int_equal(t.rule[1].msr, 0);
	assert_int_equal(t.rule[2].msr, 0xabcdef01u);
	/* 16 items are the most */
	for (unsigned i = 0; i < INJECT_MAX; i++)
		snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec),
			 "%smsr:0x%x:gp", i ? "," : "", 0x300 + i);
	assert_int_equal(parse(spec), 0);
	assert_int_equal(t.n, INJECT_MAX);
	strcat(spec, ",rdpmc:gp");
	assert_int_equal(parse(spec), 1);
	assert_int_equal(t.n, 0);
	assert_non_null(strstr(errs.msg[0], "item 17 \"rdpmc:gp\""));
	assert_non_null(strstr(errs.msg[0], "more than 16 items"));
	/* an empty spec is an empty table, no error */
	assert_int_equal(parse(""), 0);
	assert_int_equal(t.n, 0);
}

struct bad_case {
	const char *spec;
	unsigned item;
	const char *echo;	/* as the message quotes the item */
	const char *why;
};

static const struct bad_case bad_cases[] = {
	{ "msr:0x11", 1, "msr:0x11", "expected msr:0xNUMBER:gp|ud|stuck" },
	{ "msr:0x11:gp:x", 1, "msr:0x11:gp:x",
	  "expected msr:0xNUMBER:gp|ud|stuck" },
	{ "msr:11:gp", 1, "msr:11:gp", "not 0x and 1-8 hex digits" },
	{ "msr:0x:gp", 1, "msr:0x:gp", "not 0x and 1-8 hex digits" },
	{ "msr:0x123456789:gp", 1, "msr:0x123456789:gp",
	  "not 0x and 1-8 hex digits" },
	{ "msr:0x1g:gp", 1, "msr:0x1g:gp", "not 0x and 1-8 hex digits" },
	{ "msr:0x11:pf", 1, "msr:0x11:pf", "not gp, ud or stuck" },
	{ "msr:0x11:GP", 1, "msr:0x11:GP", "not gp, ud or stuck" },
	{ "rdpmc:stuck", 1, "rdpmc:stuck", "stuck is for MSRs" },
	{ "rdpmc", 1, "rdpmc", "expected rdpmc:gp|ud" },
	{ "rdpmc:0:gp", 1, "rdpmc:0:gp", "expected rdpmc:gp|ud" },
	{ "cr4:0x80:gp", 1, "cr4:0x80:gp",
	  "expected msr:0xNUMBER:gp|ud|stuck or rdpmc:gp|ud" },
	{ "rdpmc:gp,,msr:0x11:gp", 2, "", "empty item" },
	{ ",rdpmc:gp", 1, "", "empty item" },
	{ "rdpmc:gp,", 2, "", "empty item" },
	{ "msr:0x11:gp,msr:0x011:ud", 2, "msr:0x011:ud",
	  "this MSR is given twice" },
	{ "rdpmc:gp,rdpmc:ud", 2, "rdpmc:ud", "rdpmc given twice" },
	{ "msr:0x11:gp,x\x1b[31m\"\\", 2, "x\\x1b[31m\\x22\\x5c",
	  "expected msr:" },
	{ "msr:0x11:gp,\xff\xfe", 2, "\\xff\\xfe", "expected msr:" },
};

static void test_bad_items(void **state)
{
	char want[200];

	for (unsigned i = 0; i < N(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];

		if (parse(c->spec) != 1 || errs.n != 1)
			fail_msg("\"%s\": %u errors, expected 1", c->spec,
				 errs.n);
		assert_int_equal(t.n, 0);	/* applied whole or not */
		snprintf(want, sizeof(want), "inject=: item %u \"%s\": ",
			 c->item, c->echo);
		if (strncmp(errs.msg[0], want, strlen(want)) ||
		    !strstr(errs.msg[0], c->why))
			fail_msg("\"%s\": got \"%s\", expected \"%s...%s\"",
				 c->spec, errs.msg[0], want, c->why);
	}
}

static void test_every_bad_item_reported(void **state)
{
	assert_int_equal(parse("bogus,msr:0x11:gp,msr:zz:gp,rdpmc:stuck"), 3);
	assert_int_equal(errs.n, 3);
	assert_int_equal(t.n, 0);
	assert_non_null(strstr(errs.msg[0], "item 1 \"bogus\""));
	assert_non_null(strstr(errs.msg[1], "item 3 \"msr:zz:gp\""));
	assert_non_null(strstr(errs.msg[2], "item 4 \"rdpmc:stuck\""));
	/* without a callback the count still tells */
	assert_int_equal(inject_parse(&t, "bogus,x", NULL, NULL), 2);
	assert_int_equal(t.n, 0);
}

static void test_long_item_cut(void **state)
{
	char spec[200], want[100];

	memset(spec, 'a', 100);
	spec[100] = 0;
	assert_int_equal(parse(spec), 1);
	memset(want, 'a', INJECT_ECHO_MAX);
	snprintf(want + INJECT_ECHO_MAX, sizeof(want) - INJECT_ECHO_MAX,
		 "...\"");
	assert_non_null(strstr(errs.msg[0], want));
	assert_non_null(strstr(errs.msg[0], "too long to be an item"));
	assert_true(strlen(errs.msg[0]) < 200);
}

/* ---- the table in front of fake accessors ------------------------------ */

static uint64_t regs[0x400];
static unsigned rd_calls, wr_calls;
static int rd_vector;		/* what the fake read answers */

static int fake_rd(uint32_t reg, uint64_t *v)
{
	rd_calls++;
	if (rd_vector)
		return rd_vector;
	*v = regs[reg];
	return 0;
}

static int fake_wr(uint32_t reg, uint64_t v)
{
	wr_calls++;
	regs[reg] = v;
	return 0;
}

static struct inject_hit hits[16];
static unsigned n_hits;

static void observe(void *ctx, const struct inject_hit *h)
{
	assert_ptr_equal(ctx, &n_hits);
	assert_true(n_hits < N(hits));
	hits[n_hits++] = *h;
}

static void arm(const char *spec)
{
	memset(regs, 0, sizeof(regs));
	rd_calls = wr_calls = n_hits = 0;
	rd_vector = 0;
	assert_int_equal(parse(spec), 0);
	t.observe = observe;
	t.observe_ctx = &n_hits;
}

static void test_fault(void **state)
{
	uint64_t v = 7;
	char text[160];

	arm("msr:0x11:gp,msr:0x186:ud");
	regs[0x11] = 0x1234;
	assert_int_equal(inject_rdmsr(&t, 0x11, &v, fake_rd), 13);
	assert_int_equal(v, 7);			/* untouched */
	assert_int_equal(inject_wrmsr(&t, 0x11, 0x16, fake_rd, fake_wr), 13);
	assert_int_equal(regs[0x11], 0x1234);	/* never written */
	assert_int_equal(inject_wrmsr(&t, 0x186, 1, fake_rd, fake_wr), 6);
	assert_int_equal(rd_calls + wr_calls, 0);
	assert_int_equal(t.rule[0].hits, 2);
	assert_int_equal(t.rule[1].hits, 1);
	assert_int_equal(n_hits, 3);
	assert_ptr_equal(hits[1].rule, &t.rule[0]);
	assert_int_equal(hits[1].op, INJECT_OP_WRMSR);
	assert_int_equal(hits[1].reg, 0x11);
	assert_int_equal(hits[1].value, 0x16);
	assert_int_equal(hits[1].vector, 13);
	inject_hit_text(&hits[0], text, sizeof(text));
	assert_string_equal(text, "RDMSR 0x11 raised injected #GP "
			    "(vector 13)");
	inject_hit_text(&hits[1], text, sizeof(text));
	assert_string_equal(text, "WRMSR 0x11=0x16 raised injected #GP "
			    "(vector 13)");
	inject_hit_text(&hits[2], text, sizeof(text));
	assert_string_equal(text, "WRMSR 0x186=0x1 raised injected #UD "
			    "(vector 6)");
	inject_rule_name(&t.rule[1], text, sizeof(text));
	assert_string_equal(text, "#UD (vector 6)");
}

static void test_others_pass_through(void **state)
{
	uint64_t v = 0;

	arm("msr:0x11:gp,rdpmc:ud");
	regs[0x12] = 99;
	assert_int_equal(inject_rdmsr(&t, 0x12, &v, fake_rd), 0);
	assert_int_equal(v, 99);
	assert_int_equal(inject_wrmsr(&t, 0x13, 5, fake_rd, fake_wr), 0);
	assert_int_equal(regs[0x13], 5);
	rd_vector = 13;			/* the model's own #GP comes through */
	assert_int_equal(inject_rdmsr(&t, 0x14, &v, fake_rd), 13);
	assert_int_equal(n_hits, 0);
	/* no table: everything passes through */
	rd_vector = 0;
	assert_int_equal(inject_rdmsr(NULL, 0x11, &v, fake_rd), 0);
	assert_int_equal(inject_wrmsr(NULL, 0x11, 3, fake_rd, fake_wr), 0);
	assert_int_equal(regs[0x11], 3);
	assert_int_equal(inject_rdpmc(NULL, 0, &v, fake_rd), 0);
}

static void test_stuck(void **state)
{
	uint64_t v = 0;
	char text[160];

	arm("msr:0x12:stuck");
	regs[0x12] = 0x55;
	/* the first access latches what the register holds */
	assert_int_equal(inject_wrmsr(&t, 0x12, 0x1000, fake_rd, fake_wr), 0);
	assert_int_equal(wr_calls, 0);		/* dropped */
	assert_int_equal(regs[0x12], 0x55);
	assert_int_equal(rd_calls, 1);
	assert_true(t.rule[0].latched);
	/* the model's register moves on (a counter counts): reads do not */
	regs[0x12] = 0x77;
	assert_int_equal(inject_rdmsr(&t, 0x12, &v, fake_rd), 0);
	assert_int_equal(v, 0x55);
	assert_int_equal(rd_calls, 1);		/* latched once */
	assert_int_equal(inject_wrmsr(&t, 0x12, 0, fake_rd, fake_wr), 0);
	assert_int_equal(inject_rdmsr(&t, 0x12, &v, fake_rd), 0);
	assert_int_equal(v, 0x55);
	assert_int_equal(wr_calls, 0);
	assert_int_equal(t.rule[0].hits, 4);
	assert_int_equal(n_hits, 4);
	assert_int_equal(hits[0].vector, 0);
	inject_hit_text(&hits[0], text, sizeof(text));
	assert_string_equal(text, "WRMSR 0x12=0x1000 dropped: injected stuck "
			    "MSR 0x12 (no vector; it reads 0x55)");
	inject_hit_text(&hits[1], text, sizeof(text));
	assert_string_equal(text, "RDMSR 0x12 answered by injected stuck MSR "
			    "0x12 (no vector; it reads 0x55)");
}

static void test_stuck_latch_faults(void **state)
{
	uint64_t v = 3;
	char text[160];

	/* a register whose read faulted at the first access keeps doing so */
	arm("msr:0x40:stuck");
	rd_vector = 13;
	assert_int_equal(inject_rdmsr(&t, 0x40, &v, fake_rd), 13);
	assert_int_equal(v, 3);
	rd_vector = 0;
	assert_int_equal(inject_rdmsr(&t, 0x40, &v, fake_rd), 13);
	assert_int_equal(inject_wrmsr(&t, 0x40, 1, fake_rd, fake_wr), 0);
	assert_int_equal(wr_calls, 0);
	inject_hit_text(&hits[0], text, sizeof(text));
	assert_string_equal(text, "RDMSR 0x40 of injected stuck MSR 0x40 "
			    "raised vector 13 (as at its first access)");
}

static void test_rdpmc(void **state)
{
	uint64_t v = 0;
	char text[160];

	arm("rdpmc:gp");
	assert_int_equal(inject_rdpmc(&t, 0x40000001, &v, fake_rd), 13);
	assert_int_equal(rd_calls, 0);
	assert_int_equal(n_hits, 1);
	inject_hit_text(&hits[0], text, sizeof(text));
	assert_string_equal(text, "RDPMC 0x40000001 raised injected #GP "
			    "(vector 13)");
	/* RDPMC rules leave the MSRs alone */
	assert_int_equal(inject_rdmsr(&t, 0xc1, &v, fake_rd), 0);
	assert_int_equal(n_hits, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_spec),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_bad_items),
		cmocka_unit_test(test_every_bad_item_reported),
		cmocka_unit_test(test_long_item_cut),
		cmocka_unit_test(test_fault),
		cmocka_unit_test(test_others_pass_through),
		cmocka_unit_test(test_stuck),
		cmocka_unit_test(test_stuck_latch_faults),
		cmocka_unit_test(test_rdpmc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
