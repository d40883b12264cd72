/* select: which tests a tests= option chooses (see runner.h). */
#include "runner.h"
#include "test.h"
#include "../lib/string.h"

static int group_is_literal(const char *pat)
{
	for (; *pat && *pat != '/'; pat++)
		if (*pat == '*' || *pat == '?')
			return 0;
	return *pat == '/';
}

/* The groups of one PMU generation each, and the kind they need. */
static const struct {
	const char *group;
	enum pmu_kind kind;
} generation_groups[] = {
	{ "p5/", PMU_P5 },
	{ "p6/", PMU_P6 },
	{ "netburst/", PMU_NETBURST },
	{ "perfmon/", PMU_ARCH },
	{ "bts/", PMU_ARCH },		/* the DS area: arch perfmon's */
	{ "pebs/", PMU_ARCH },
	{ "pt/", PMU_ARCH },		/* Intel PT: only with arch perfmon */
};

static int has_prefix(const char *s, const char *prefix)
{
	while (*prefix && *s == *prefix) {
		s++;
		prefix++;
	}
	return !*prefix;
}

int runner_applicable(const struct test *t, enum pmu_kind k)
{
	for (unsigned i = 0; i < sizeof(generation_groups) /
			       sizeof(generation_groups[0]); i++) {
		const char *g = generation_groups[i].group;

		if (has_prefix(t->name, g))
			return generation_groups[i].kind == k;
	}
	return 1;
}

static int matches(const struct test *t, const char *globs, int restricted)
{
	char pat[256];		/* as long as the tests= option itself */

	while (*globs) {
		unsigned n = 0;

		while (globs[n] && globs[n] != ',')
			n++;
		if (n < sizeof(pat)) {
			memcpy(pat, globs, n);
			pat[n] = 0;
			if (str_glob(pat, t->name) &&
			    (!restricted || group_is_literal(pat)))
				return 1;
		}
		globs += n;
		if (*globs == ',')
			globs++;
	}
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
