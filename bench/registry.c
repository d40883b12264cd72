/* registry: looking up benchmarks (see bench.h). */
#include "bench.h"
#include "../lib/string.h"

const struct bench *bench_find(const char *name)
{
	for (const struct bench *b = __benches_start; b < __benches_end; b++)
		if (!str_cmp(b->name, name))
			return b;
	return NULL;
}

int64_t bench_expect(const struct bench *b, enum sem s, uint64_t n)
{
	return s < SEM_ARCH_NR ? b->expect(s, n) : BENCH_NOT_ARCH;
}
