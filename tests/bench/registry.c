/* registry: looking up benchmarks (see bench.h). */
#include "bench.h"
#include "../../lib/string.h"

const char *bench_count_name(enum bench_count c)
{
	static const char *const names[BC_NR] = {
		"instructions", "branches", "taken", "cond", "calls",
		"returns", "far", "loads", "stores", "segloads",
	};

	return c < BC_NR ? names[c] : "?";
}

const struct bench *bench_find(const char *name)
{
	for (const struct bench *b = __benches_start; b < __benches_end; b++)
		if (!str_cmp(b->name, name))
			return b;
	return NULL;
}
