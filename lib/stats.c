/* stats: min, median and two-size difference (see stats.h). */
#include "stats.h"

#define STATS_MAX 64

uint64_t stats_min(const uint64_t *v, unsigned n)
{
	uint64_t m = n ? v[0] : 0;

	for (unsigned i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

uint64_t stats_median(const uint64_t *v, unsigned n)
{
	uint64_t s[STATS_MAX];

	if (!n)
		return 0;
	if (n > STATS_MAX)
		n = STATS_MAX;
	for (unsigned i = 0; i < n; i++) {	/* insertion sort: n is small */
		unsigned j = i;

		while (j && s[j - 1] > v[i]) {
			s[j] = s[j - 1];
			j--;
		}
		s[j] = v[i];
	}
	return s[(n - 1) / 2];
}

uint64_t stats_delta(uint64_t small, uint64_t large, int *negative)
{
	*negative = large < small;
	return *negative ? 0 : large - small;
}
