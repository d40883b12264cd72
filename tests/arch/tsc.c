/* arch/tsc-monotonic: the time-stamp counter never goes back and advances
 * (SDM Vol. 3B §18.17: it increments at a constant or core rate). */
#include "../../harness/test.h"
#include "../../arch/x86/cpu.h"

#define READS 10000

static void test_tsc(struct tcase *t)
{
	uint64_t first = rdtsc(), prev = first, now = first;
	unsigned backwards = 0;

	for (unsigned i = 0; i < READS; i++) {
		now = rdtsc();
		if (now < prev)
			backwards++;
		prev = now;
	}
	value(t, "reads", "%u", READS);
	value(t, "first", "%llu", (unsigned long long)first);
	value(t, "last", "%llu", (unsigned long long)now);
	check(t, backwards == 0, "TSC went back %u times in %u reads",
	      backwards, READS);
	check(t, now > first, "TSC did not advance over %u reads", READS);
}

TEST(arch_tsc, "arch/tsc-monotonic",
     "RDTSC never goes back and advances over 10000 reads", test_tsc, 0);
