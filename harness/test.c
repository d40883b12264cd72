/* test: what a test reports while it runs: checks, values, a skip, a
 * clean-up to run after it (test.h); runner.c writes them out. */
#include "tcase.h"
#include "test.h"
#include "../lib/fmt.h"
#include "../lib/string.h"

int check(struct tcase *t, int ok, const char *fmt, ...)
{
	va_list ap;

	t->checks++;
	if (ok)
		return 1;
	t->failed++;
	if (t->n_failures < 8) {
		va_start(ap, fmt);
		fmt_vsnprintf(t->failures[t->n_failures++], ITEM_LEN, fmt, ap);
		va_end(ap);
	}
	return 0;
}

void value(struct tcase *t, const char *key, const char *fmt, ...)
{
	struct item *it;
	va_list ap;

	if (t->n_values == MAX_ITEMS) {
		t->dropped_values++;
		return;
	}
	it = &t->values[t->n_values++];
	str_copy(it->key, key, sizeof(it->key));
	va_start(ap, fmt);
	fmt_vsnprintf(it->val, sizeof(it->val), fmt, ap);
	va_end(ap);
}

void after_test(struct tcase *t, void (*fn)(void))
{
	t->after = fn;
}

void skip(struct tcase *t, const char *fmt, ...)
{
	va_list ap;

	t->skipped = 1;
	va_start(ap, fmt);
	fmt_vsnprintf(t->skip_reason, sizeof(t->skip_reason), fmt, ap);
	va_end(ap);
}
