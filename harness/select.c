/* select: which tests a tests= option chooses (select.h). */
#include "select.h"
#include "test.h"
#include "../pmu/generation.h"
#include "../lib/string.h"

static int group_is_literal(const char *pat)
{
	for (; *pat && *pat != '/'; pat++)
		if (*pat == '*' || *pat == '?')
			return 0;
	return *pat == '/';
}

/* A test of a generation's group (pmu/<gen>/generation.c lists them)
 * applies only on a CPU of that generation's kind; the others (apic/,
 * arch/, detect/, ...) everywhere. */
int runner_applicable(const struct test *t, enum pmu_kind k)
{
	const struct pmu_generation *g = pmu_generation_of_test(t->name);

	return !g || g->kind == k;
}

static int matches(const struct test *t, const char *globs, int restricted)
{
	char pat[SELECT_GLOBS_MAX];	/* as long as a whole tests= list */

	while (str_list_next(&globs, pat, sizeof(pat)))
		if (str_glob(pat, t->name) &&
		    (!restricted || group_is_literal(pat)))
			return 1;
	return 0;
}

int runner_selected(const struct test *t, const char *globs)
{
	return matches(t, globs, t->flags & TEST_MANUAL);
}

int runner_selected_on(const struct test *t, const char *globs,
		       enum pmu_kind k)
{
	return matches(t, globs, (t->flags & TEST_MANUAL) ||
		       !runner_applicable(t, k));
}

static int selects_any(const char *pat, const struct test *first,
		       const struct test *end)
{
	for (const struct test *t = first; t < end; t++)
		if (runner_selected(t, pat))
			return 1;
	return 0;
}

unsigned runner_unmatched_patterns(const char *globs,
				   const struct test *first,
				   const struct test *end,
				   void (*unmatched)(void *ctx,
						     const char *pattern),
				   void *ctx)
{
	char pat[256];		/* as matches() reads an entry */
	unsigned bad = 0;

	while (*globs) {
		unsigned n = 0;

		while (globs[n] && globs[n] != ',')
			n++;
		if (n) {
			/* An entry too long for matches() chooses nothing:
			 * named, cut to what fits. */
			unsigned k = n < sizeof(pat) ? n : sizeof(pat) - 1;

			memcpy(pat, globs, k);
			pat[k] = 0;
			if (n >= sizeof(pat) || !selects_any(pat, first, end)) {
				unmatched(ctx, pat);
				bad++;
			}
		}
		globs += n;
		if (*globs == ',')
			globs++;
	}
	return bad;
}
