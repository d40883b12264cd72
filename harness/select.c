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

int runner_selected(const struct test *t, const char *globs)
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
			    (!(t->flags & TEST_MANUAL) || group_is_literal(pat)))
				return 1;
		}
		globs += n;
		if (*globs == ',')
			globs++;
	}
	return 0;
}
