/* tools/pfm/pfm_check.c: libpfm4 as the referee of the product's event
 * tables (docs/testing.md; make check's `pfm` stage).
 *
 *   pfm-check TABLE...       TABLE: perfmon, pebs, netburst (x86_64), p6
 *                            (pfm-check-i386: libpfm4's P6 PMUs are in
 *                            its 32-bit build only)
 *
 * Prints, per libpfm4 PMU and table, "ok - pfm: ..." or "not ok - pfm:
 * ..." with the rows compared, matched and explained by an exception,
 * each difference as a "#" line under it; exit status 1 on any "not
 * ok". */
#include <stdio.h>
#include <string.h>
#include "referee.h"

static const struct {
	const char *name;
	int (*check)(void);
} tables[] = {
#ifdef PFM_CHECK_P6
	{ "p6", check_p6 },
#else
	{ "perfmon", check_perfmon },
	{ "pebs", check_pebs },
	{ "netburst", check_netburst },
#endif
};

#define N_TABLES (sizeof(tables) / sizeof(tables[0]))

static int run(const char *name)
{
	for (unsigned i = 0; i < N_TABLES; i++)
		if (!strcmp(tables[i].name, name)) {
			printf("# table %s\n", name);
			return tables[i].check();
		}
	fprintf(stderr, "pfm-check: no table %s in this build\n", name);
	return 1;
}

int main(int argc, char **argv)
{
	int bad = 0;

	if (ref_init())
		return 1;
	if (argc < 2)
		for (unsigned i = 0; i < N_TABLES; i++)
			bad += run(tables[i].name);
	for (int i = 1; i < argc; i++)
		bad += run(argv[i]);
	return bad ? 1 : 0;
}
