/* stats: the arithmetic of the measurement API (harness/measure.h), pure
 * and host-tested.  Overhead is removed the way nanoBench and uarch-bench
 * do it: run the benchmark at two sizes and keep the difference, which the
 * fixed cost (programming, enabling, reading counters) cancels out of. */
#ifndef LIB_STATS_H
#define LIB_STATS_H

#include <stdint.h>

uint64_t stats_min(const uint64_t *v, unsigned n);
/* The lower median: an observed value, never an average of two. */
uint64_t stats_median(const uint64_t *v, unsigned n);
/* large - small, saturated at 0 with *negative set when large < small
 * (a counter that went backwards or wrapped between the two runs). */
uint64_t stats_delta(uint64_t small, uint64_t large, int *negative);

#endif
