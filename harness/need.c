/* need: buffers or a SKIP with the shortfall (need.h). */
#include "need.h"
#include "../bench/data.h"

static void skip_short(struct tcase *t, const char *what)
{
	char why[120];

	bench_shortfall_text(why, sizeof(why));
	skip(t, "%s: %s", what, why);
}

void *need_bench_data(struct tcase *t, const struct bench *b)
{
	void *d = bench_data(b);

	if (!d)
		skip_short(t, b->name);
	return d;
}

void *need_alloc(struct tcase *t, const char *what, uint64_t bytes,
		 uint64_t align)
{
	void *p = bench_alloc(bytes, align);

	if (!p)
		skip_short(t, what);
	return p;
}
