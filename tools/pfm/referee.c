/* tools/pfm/referee.c: libpfm4's answers and the tally, the ops a
 * generation's referee is handed (pmu/referee.h; referee.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <perfmon/pfmlib.h>
#include "referee.h"

int ref_init(void)
{
	int ret;

	/* libpfm(3): "enable encoding of events for non detected, but
	 * supported, PMUs models" - none of these PMUs is the host's. */
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	ret = pfm_initialize();
	if (ret != PFM_SUCCESS) {
		printf("not ok - pfm: pfm_initialize: %s\n", pfm_strerror(ret));
		return -1;
	}
	return 0;
}

static int ref_has_pmu(const char *pmu)
{
	pfm_pmu_info_t info;
	pfm_pmu_t p;

	pfm_for_all_pmus(p) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) == PFM_SUCCESS &&
		    !strcmp(info.name, pmu))
			return 1;
	}
	return 0;
}

static void full_name(char *buf, size_t len, const char *pmu,
		      const char *event)
{
	snprintf(buf, len, "%s::%s", pmu, event);
}

static int ref_find(const char *pmu, const char *event)
{
	char name[256];

	full_name(name, sizeof(name), pmu, event);
	return pfm_find_event(name);
}

static int ref_encode(const char *pmu, const char *event, uint64_t *codes,
		      int *n)
{
	char name[256];
	uint64_t *c = NULL;
	int count = 0, ret;

	full_name(name, sizeof(name), pmu, event);
	ret = pfm_get_event_encoding(name, PFM_PLM3, NULL, NULL, &c, &count);
	if (ret != PFM_SUCCESS)
		return -1;
	for (int i = 0; i < count && i < *n; i++)
		codes[i] = c[i];
	*n = count < *n ? count : *n;
	free(c);
	return 0;
}

static int ref_first(const char *pmu)
{
	pfm_pmu_info_t info;
	pfm_pmu_t p;

	pfm_for_all_pmus(p) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) == PFM_SUCCESS &&
		    !strcmp(info.name, pmu))
			return info.nevents ? info.first_event : -1;
	}
	return -1;
}

static int ref_next(int idx)
{
	return pfm_get_event_next(idx);
}

static int ref_event(int idx, const char **name, uint64_t *code,
		     int *nattrs)
{
	pfm_event_info_t ev;

	memset(&ev, 0, sizeof(ev));
	ev.size = sizeof(ev);
	if (pfm_get_event_info(idx, PFM_OS_NONE, &ev) != PFM_SUCCESS)
		return -1;
	*name = ev.name;
	*code = ev.code;
	*nattrs = ev.nattrs;
	return 0;
}

static int ref_umask(int idx, int a, const char **name, uint64_t *code)
{
	pfm_event_attr_info_t at;

	memset(&at, 0, sizeof(at));
	at.size = sizeof(at);
	if (pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &at) != PFM_SUCCESS ||
	    at.type != PFM_ATTR_UMASK)
		return 0;
	*name = at.name;
	*code = at.code;
	return 1;
}

static int ref_umask_precise(const char *pmu, const char *event,
			     const char *umask)
{
	pfm_event_info_t ev;
	int idx = ref_find(pmu, event);

	memset(&ev, 0, sizeof(ev));
	ev.size = sizeof(ev);
	if (idx < 0 || pfm_get_event_info(idx, PFM_OS_NONE, &ev) != PFM_SUCCESS)
		return -1;
	for (int a = 0; a < ev.nattrs; a++) {
		pfm_event_attr_info_t at;

		memset(&at, 0, sizeof(at));
		at.size = sizeof(at);
		if (pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &at) ==
		    PFM_SUCCESS && at.type == PFM_ATTR_UMASK &&
		    !strcasecmp(at.name, umask))
			return at.is_precise;
	}
	return -1;
}

static void tally_start(struct ref_tally *t, const char *table,
			const char *pmu, const char *note)
{
	memset(t, 0, sizeof(*t));
	t->table = table;
	t->pmu = pmu;
	t->note = note;
}

static void tally_row(struct ref_tally *t, unsigned diffs,
		      unsigned unexplained)
{
	t->compared++;
	if (!diffs)
		t->matched++;
	else if (!unexplained)
		t->excepted++;
	else
		t->failed++;
}

static void tally_ref_only(struct ref_tally *t, unsigned unexplained)
{
	t->ref_only++;
	t->ref_only_failed += unexplained != 0;
}

/* Is pmu one of the space-separated words of list ("*": all)? */
static int in_list(const char *list, const char *pmu)
{
	size_t n = strlen(pmu);

	if (!strcmp(list, "*"))
		return 1;
	for (const char *p = list; *p; ) {
		size_t w = strcspn(p, " ");

		if (w == n && !strncmp(p, pmu, n))
			return 1;
		p += w;
		p += strspn(p, " ");
	}
	return 0;
}

static unsigned tally_diff(struct ref_tally *t, struct ref_exception *exc,
			   unsigned n_exc, const char *row,
			   const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	for (unsigned i = 0; i < n_exc; i++) {
		struct ref_exception *x = &exc[i];

		if (in_list(x->pmus, t->pmu) && !strcmp(x->row, row) &&
		    !strcmp(x->what, what)) {
			x->used++;
			printf("# %s: %s: %s - exception: %s\n", t->pmu, row,
			       what, x->cite);
			return 0;
		}
	}
	printf("# %s: %s: %s - UNEXPLAINED (fix the table, citing the SDM, "
	       "or add an exception with its citation)\n", t->pmu, row, what);
	return 1;
}

static int tally_end(const struct ref_tally *t)
{
	int bad = t->failed || t->ref_only_failed;

	printf("%s - pfm: %s vs libpfm4 %s%s%s: %u rows compared, %u matched, "
	       "%u by exception", bad ? "not ok" : "ok", t->table, t->pmu,
	       t->note ? " " : "", t->note ? t->note : "", t->compared,
	       t->matched, t->excepted);
	if (t->ref_only)
		printf("; %u libpfm4 events not in the table", t->ref_only);
	printf("%s\n", bad ? "; differences unexplained" : "");
	return bad;
}

static int exceptions_unused(const char *table,
			     const struct ref_exception *exc, unsigned n_exc)
{
	int bad = 0;

	for (unsigned i = 0; i < n_exc; i++) {
		if (exc[i].used)
			continue;
		printf("not ok - pfm: %s: exception never used (stale): "
		       "%s / %s / %s\n", table, exc[i].pmus, exc[i].row,
		       exc[i].what);
		bad++;
	}
	return bad;
}

static const char *ref_libpfm_name(const struct ref_name *map, unsigned n,
				   const char *product)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(map[i].product, product))
			return map[i].libpfm;
	return product;
}

static const char *ref_product_name(const struct ref_name *map, unsigned n,
				    const char *libpfm)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcasecmp(map[i].libpfm, libpfm))
			return map[i].product;
	return libpfm;
}

static int ref_find_named(const char *pmu, const char *libpfm)
{
	for (int i = ref_first(pmu); i >= 0; i = ref_next(i)) {
		const char *name;
		uint64_t code;
		int nattrs;

		if (!ref_event(i, &name, &code, &nattrs) &&
		    !strcasecmp(name, libpfm))
			return i;
	}
	return -1;
}

static void not_ok(const char *fmt, ...)
{
	va_list ap;

	printf("not ok - pfm: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

const struct pmu_referee pfm_referee = {
	.has_pmu = ref_has_pmu,
	.encode = ref_encode,
	.first = ref_first,
	.next = ref_next,
	.event = ref_event,
	.umask = ref_umask,
	.umask_precise = ref_umask_precise,
	.find_named = ref_find_named,
	.libpfm_name = ref_libpfm_name,
	.product_name = ref_product_name,
	.tally_start = tally_start,
	.tally_row = tally_row,
	.tally_ref_only = tally_ref_only,
	.diff = tally_diff,
	.tally_end = tally_end,
	.exceptions_unused = exceptions_unused,
	.not_ok = not_ok,
};
