/* registry: looking up benchmarks (see bench.h). */
#include "bench.h"
#include "../lib/fmt.h"
#include "../lib/string.h"

const struct bench *bench_find(const char *name)
{
	for (const struct bench *b = __benches_start; b < __benches_end; b++)
		if (!str_cmp(b->name, name))
			return b;
	return NULL;
}

const struct bench *bench_at(uint64_t addr)
{
	for (const struct bench *b = __benches_start; b < __benches_end; b++)
		if (addr >= (uintptr_t)b->fn && addr < (uintptr_t)b->end)
			return b;
	return NULL;
}

const char *bench_addr_str(uint64_t addr, char *buf, size_t n)
{
	const struct bench *b = bench_at(addr);

	if (b)
		fmt_snprintf(buf, n, "%s+0x%llx", b->name,
			     (unsigned long long)(addr - (uintptr_t)b->fn));
	else
		fmt_snprintf(buf, n, "0x%llx", (unsigned long long)addr);
	return buf;
}

int64_t bench_expect(const struct bench *b, enum sem s, uint64_t n)
{
	return s < SEM_ARCH_NR ? b->expect(s, n) : BENCH_NOT_ARCH;
}
