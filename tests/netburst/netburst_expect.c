/* tests/netburst/netburst_expect.c: the expectation of a cascaded
 * counter (nb_test.h), the one the netburst/ tests share beyond an exact
 * count. */
#include "nb_test.h"

/* A counter Y cascaded from X, X preset K below the wrap, after X saw n
 * (> K) retirement events.  The SDM says Y starts counting "when its
 * alternate counter overflows" (§18.15.5.6), not in which clock.  On the
 * model Y counts from the clock after the overflow (pmu/netburst/model.c,
 * its convention): Y = n - K exactly.  On hardware Y may also miss the
 * events of the overflow clock after X's K-th, at most NBT_RETIRE_WIDTH -
 * 1 of them: n - K - 2 .. n - K.  (A hardware hand-off that loses more
 * clocks would fall outside: a finding about the unstated latency.) */
struct pmu_expect nbt_handoff(uint64_t n, uint64_t k)
{
	struct pmu_expect x = { 0, n - k, "the cascaded counter may miss the "
				"events retired in its alternate's overflow "
				"clock after the wrap: at most retirement width "
				"(3 per clock) - 1" };
	uint64_t lost = NBT_RETIRE_WIDTH - 1;

	if (pmu_on_model())
		return nbt_exact(n - k);
	x.lo = n - k > lost ? n - k - lost : 0;
	return x;
}
