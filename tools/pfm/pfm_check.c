/* tools/pfm/pfm_check.c: libpfm4 as the referee of the product's event
 * tables (docs/testing.md; make check's `pfm` stage).
 *
 *   pfm-check [TABLE...]     the tables of this build's libpfm4 library
 *                            (default: all of them)
 *
 * The tables are the generations' own: each descriptor names its referee
 * (pmu/generation.h .referee, pmu/<gen>/referee.c), its tables and the
 * libpfm4 library that has its PMUs.  pfm-check, built for x86_64, runs
 * the tables of libpfm4's x86_64 library; pfm-check-i386, built with
 * -m32, those of its 32-bit library (libpfm4:i386, which alone has some
 * PMUs).
 *
 * Prints, per libpfm4 PMU and table, "ok - pfm: ..." or "not ok - pfm:
 * ..." with the rows compared, matched and explained by an exception,
 * each difference as a "#" line under it; exit status 1 on any "not
 * ok". */
#include <stdio.h>
#include <string.h>
#include "referee.h"
#include "pmu/generation.h"

/* The libpfm4 library this program is linked with. */
#ifdef __i386__
#define THIS_LIB PMU_REFEREE_LIB32
#else
#define THIS_LIB PMU_REFEREE_LIB64
#endif

/* The referee of generation g when its tables are this build's. */
static const struct pmu_referee_tables *tables_of(
	const struct pmu_generation *g)
{
	return g->referee && g->referee->lib == THIS_LIB ? g->referee : NULL;
}

static int run(const char *name, int (*check)(const struct pmu_referee *))
{
	printf("# table %s\n", name);
	return check(&pfm_referee);
}

/* Every table of this build (name NULL), or the one called name: the
 * "not ok" lines printed; *found whether any ran. */
static int run_tables(const char *name, int *found)
{
	unsigned n;
	const struct pmu_generation *g = pmu_generations(&n);
	int bad = 0;

	*found = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct pmu_referee_tables *r = tables_of(&g[i]);

		for (unsigned t = 0; r && t < PMU_REFEREE_TABLES &&
				     r->table[t].name; t++) {
			if (name && strcmp(r->table[t].name, name))
				continue;
			*found = 1;
			bad += run(r->table[t].name, r->table[t].check);
		}
	}
	return bad;
}

int main(int argc, char **argv)
{
	int bad = 0, found;

	if (ref_init())
		return 1;
	if (argc < 2)
		bad += run_tables(NULL, &found);
	for (int i = 1; i < argc; i++) {
		bad += run_tables(argv[i], &found);
		if (!found) {
			fprintf(stderr, "pfm-check: no table %s in this "
				"build\n", argv[i]);
			bad++;
		}
	}
	return bad ? 1 : 0;
}
