/* p5/cc-*: each counter-control code (SDM Vol. 3B §18.23.1), on both
 * counters at once (CC0 and CC1), against a benchmark run at CPL 0 and one
 * at CPL 3: CTR0 counts INSTRUCTIONS_EXECUTED (0x16), CTR1 DATA_READ
 * (0x00); clock codes count the model clock (or real clocks, bounded). */
#include "p5_test.h"

static void cc_at(struct tcase *t, const struct pmu_driver *d, unsigned cc,
		  int cpl)
{
	struct pmu_run r;

	p5_setup(&r, "call-ret", 100, cpl, (struct p5_half){ 0x16, cc, 0 },
		 (struct p5_half){ 0x00, cc, 0 });
	if (!pmu_run(t, &r))
		return;
	for (unsigned c = 0; c < 2; c++)
		p5_check(t, d, &r, c);
}

static void cc_test(struct tcase *t, unsigned cc)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P5);

	if (!d)
		return;
	cc_at(t, d, cc, 0);
	cc_at(t, d, cc, 3);
}

#define CC_TEST(code, bits, what)                                            \
	static void test_cc_##bits(struct tcase *t) { cc_test(t, code); }    \
	TEST(p5_cc_##bits, "p5/cc-" #bits, "CC=" #bits ": " what,            \
	     test_cc_##bits, 0)

CC_TEST(0, 000, "counts nothing at CPL 0 or 3");
CC_TEST(1, 001, "counts events at CPL 0-2 only");
CC_TEST(2, 010, "counts events at CPL 3 only");
CC_TEST(3, 011, "counts events at any CPL");
CC_TEST(4, 100, "counts nothing at CPL 0 or 3");
CC_TEST(5, 101, "counts clocks at CPL 0-2 only");
CC_TEST(6, 110, "counts clocks at CPL 3 only");
CC_TEST(7, 111, "counts clocks at any CPL");
