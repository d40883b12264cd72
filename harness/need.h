/* need: a test's buffers, or a SKIP that says why there are none.
 *
 * A test that cannot get a buffer ends as SKIP with the reason
 * "<what>: needs N MiB, M MiB free" (bench/data.h: what was asked, what
 * the firmware had free at that moment) instead of failing; checks it made
 * before or makes after still count (a failed one makes it FAIL). */
#ifndef HARNESS_NEED_H
#define HARNESS_NEED_H

#include <stdint.h>
#include "test.h"
#include "../bench/bench.h"

/* bench_data(b), or NULL after skip(). */
void *need_bench_data(struct tcase *t, const struct bench *b);
/* bench_alloc(bytes, align), or NULL after skip(); what names the
 * buffer in the reason. */
void *need_alloc(struct tcase *t, const char *what, uint64_t bytes,
		 uint64_t align);

#endif
