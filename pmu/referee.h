/* referee: what a generation's referee (pmu/<gen>/referee.c) compares its
 * event tables with - libpfm4, an independent reading of the SDM
 * (docs/testing.md "libpfm4, the referee of the event tables") - and how
 * it counts the rows.  Host-only, like pmu/listing.h: the image carries
 * no referee (generation.h, PMU_GENERATION_REFEREE); the host's
 * pfm-check (tools/pfm/) links the referees and hands each the ops of
 * struct pmu_referee, libpfm4's public calls and the tally
 * (tools/pfm/referee.c).
 *
 * The tally and the exceptions: every difference a comparison finds is
 * either listed in its table's exceptions (with the citation that
 * explains it) or counts as a failure; an exception no difference used
 * is a failure too (stale). */
#ifndef PMU_REFEREE_H
#define PMU_REFEREE_H

#include <stdint.h>

/* An event the product and libpfm4 name differently (each table's map
 * cites where the two are the same event). */
struct ref_name {
	const char *product, *libpfm;
};

/* One exception: a difference the referee and the product table may
 * have, and why.  pmus: the PMUs it holds on, separated by spaces ("*":
 * every PMU); row: the product's (or libpfm4's) event name; what: the
 * difference, as the comparison words it. */
struct ref_exception {
	const char *pmus;
	const char *row;
	const char *what;
	const char *cite;
	unsigned used;		/* differences it explained */
};

struct ref_tally {
	const char *table, *pmu, *note;
	unsigned compared, matched, excepted, failed;
	unsigned ref_only, ref_only_failed;	/* libpfm4 events the table
						 * lacks */
};

struct pmu_referee {
	/* ---- libpfm4 (libpfm(3)), on PMUs the host lacks */
	/* Does libpfm4 know this PMU (by pfm_get_pmu_info()'s name)? */
	int (*has_pmu)(const char *pmu);
	/* Encodes "pmu::event[:umask]" at PL3; codes[0..*n-1] as libpfm4
	 * gives them: PerfEvtSel for the Intel x86 PMUs, ESCR then CCCR
	 * for NetBurst.  0 on success. */
	int (*encode)(const char *pmu, const char *event, uint64_t *codes,
		      int *n);
	/* libpfm4's table of a PMU, walked: first() the PMU's first event
	 * index (< 0: none), next() the next (< 0: the end). */
	int (*first)(const char *pmu);
	int (*next)(int idx);
	/* An event's name, code (pfm_get_event_info()) and attribute
	 * count; 0 on success. */
	int (*event)(int idx, const char **name, uint64_t *code, int *nattrs);
	/* Attribute a of an event: 1 and its name and code when it is a
	 * unit mask, else 0. */
	int (*umask)(int idx, int a, const char **name, uint64_t *code);
	/* Is "event:umask" of pmu precise (PEBS) in libpfm4's table: 1, 0,
	 * or -1 when there is no such unit mask. */
	int (*umask_precise)(const char *pmu, const char *event,
			     const char *umask);
	/* The libpfm4 index of the event named libpfm on pmu, or < 0. */
	int (*find_named)(const char *pmu, const char *libpfm);
	/* libpfm4's name of a product event, and the product's of a
	 * libpfm4 one: the map's, else the name itself (compared without
	 * case). */
	const char *(*libpfm_name)(const struct ref_name *map, unsigned n,
				   const char *product);
	const char *(*product_name)(const struct ref_name *map, unsigned n,
				    const char *libpfm);

	/* ---- the tally */
	/* Starts counting one PMU's rows. */
	void (*tally_start)(struct ref_tally *t, const char *table,
			    const char *pmu, const char *note);
	/* One product row compared: diffs, the differences it had, each
	 * already reported with diff(), unexplained of them not in the
	 * exceptions. */
	void (*tally_row)(struct ref_tally *t, unsigned diffs,
			  unsigned unexplained);
	/* A libpfm4 event of the PMU that no row of a table meant to be
	 * complete matched, already reported with diff(). */
	void (*tally_ref_only)(struct ref_tally *t, unsigned unexplained);
	/* A difference: explained when exc[] holds it (printed with its
	 * citation), else printed as unexplained.  Returns 1 when
	 * unexplained. */
	unsigned (*diff)(struct ref_tally *t, struct ref_exception *exc,
			 unsigned n_exc, const char *row, const char *fmt, ...)
		__attribute__((format(printf, 5, 6)));
	/* Prints the PMU's "ok - " / "not ok - " line; returns 1 on a
	 * failure. */
	int (*tally_end)(const struct ref_tally *t);
	/* Each exception of exc[] that no difference used: "not ok";
	 * returns how many. */
	int (*exceptions_unused)(const char *table,
				 const struct ref_exception *exc,
				 unsigned n_exc);
	/* A "not ok - pfm: " line of the referee's own (a PMU libpfm4
	 * lacks). */
	void (*not_ok)(const char *fmt, ...)
		__attribute__((format(printf, 1, 2)));
};

/* Which libpfm4 library has a generation's PMUs: the host's own
 * (x86_64, pfm-check) or the 32-bit one (Debian's libpfm4:i386, which
 * alone has some PMUs; pfm-check-i386, built with -m32). */
enum pmu_referee_lib {
	PMU_REFEREE_LIB64,
	PMU_REFEREE_LIB32,
};

#define PMU_REFEREE_TABLES 3

/* A generation's referee, as its descriptor names it (.referee): its
 * tables, each compared by check() against libpfm4 (the number of "not
 * ok" lines it printed), all in the library lib. */
struct pmu_referee_tables {
	enum pmu_referee_lib lib;
	struct {
		const char *name;	/* pfm-check's argument */
		int (*check)(const struct pmu_referee *r);
	} table[PMU_REFEREE_TABLES];	/* name NULL: the end */
};

#endif
