/* tools/pfm/referee.h: libpfm4 as the referee of the product's event
 * tables (docs/testing.md "libpfm4, the referee of the event tables").
 *
 * What libpfm4 (Debian's libpfm4 4.13) says of an event, through its
 * public interface only: pfm_find_event(), pfm_get_event_info(),
 * pfm_get_event_attr_info() and pfm_get_event_encoding() on PMUs the host
 * lacks (LIBPFM_ENCODE_INACTIVE=1, libpfm(3)).  The tally and the
 * exceptions: every difference a comparison finds is either listed in its
 * table's exceptions (with the citation that explains it) or counts as a
 * failure; an exception no difference used is a failure too (stale). */
#ifndef TOOLS_PFM_REFEREE_H
#define TOOLS_PFM_REFEREE_H

#include <stdint.h>

/* libpfm4's encoder, then ESCR/CCCR or PerfEvtSel values. */
int ref_init(void);
/* Does libpfm4 know this PMU (by pfm_get_pmu_info()'s name)? */
int ref_has_pmu(const char *pmu);
/* libpfm4's event index of "pmu::event[:umask]", or < 0. */
int ref_find(const char *pmu, const char *event);
/* Encodes "pmu::event[:umask]" at PL3; codes[0..n-1] as libpfm4 gives
 * them: PerfEvtSel for the Intel x86 PMUs, ESCR then CCCR for
 * NetBurst.  0 on success. */
int ref_encode(const char *pmu, const char *event, uint64_t *codes,
	       int *n);
/* libpfm4's table of a PMU, walked: ref_first() the PMU's first event
 * index (< 0: none), ref_next() the next (< 0: the end). */
int ref_first(const char *pmu);
int ref_next(int idx);
/* An event's name, code (pfm_get_event_info()) and attribute count. */
int ref_event(int idx, const char **name, uint64_t *code, int *nattrs);
/* Attribute a of an event: 1 and its name and code when it is a unit
 * mask, else 0. */
int ref_umask(int idx, int a, const char **name, uint64_t *code);
/* Is "event:umask" of pmu precise (PEBS) in libpfm4's table: 1, 0, or
 * -1 when there is no such unit mask. */
int ref_umask_precise(const char *pmu, const char *event, const char *umask);

/* An event the product and libpfm4 name differently (each table's map
 * cites where the two are the same event). */
struct ref_name {
	const char *product, *libpfm;
};

/* libpfm4's name of a product event, and the product's of a libpfm4
 * one: the map's, else the name itself (compared without case). */
const char *ref_libpfm_name(const struct ref_name *map, unsigned n,
			    const char *product);
const char *ref_product_name(const struct ref_name *map, unsigned n,
			     const char *libpfm);
/* The libpfm4 index of the event named libpfm on pmu, or < 0. */
int ref_find_named(const char *pmu, const char *libpfm);

/* One exception: a difference the referee and the product table may
 * have, and why.  pmus: the PMUs it holds on, separated by spaces;
 * row: the product's (or libpfm4's) event name; what: the difference, as
 * the comparison words it ("*" in pmus: every PMU). */
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

/* Starts counting one PMU's rows. */
void tally_start(struct ref_tally *t, const char *table, const char *pmu,
		 const char *note);
/* One product row compared: diffs, the differences it had, each already
 * reported with tally_diff(), unexplained of them not in the exceptions. */
void tally_row(struct ref_tally *t, unsigned diffs, unsigned unexplained);
/* A libpfm4 event of the PMU that no row of a table meant to be complete
 * matched, already reported with tally_diff(). */
void tally_ref_only(struct ref_tally *t, unsigned unexplained);
/* A difference: explained when exc[] holds it (printed with its
 * citation), else printed as unexplained.  Returns 1 when unexplained. */
unsigned tally_diff(struct ref_tally *t, struct ref_exception *exc,
		    unsigned n_exc, const char *row, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Prints the PMU's "ok - " / "not ok - " line; returns 1 on a failure. */
int tally_end(const struct ref_tally *t);
/* Each exception of exc[] that no difference used: "not ok"; returns
 * how many. */
int exceptions_unused(const char *table, const struct ref_exception *exc,
		      unsigned n_exc);

/* The comparisons, one per product table (the program's arguments). */
int check_perfmon(void);
int check_pebs(void);
int check_netburst(void);
int check_p6(void);

#endif
