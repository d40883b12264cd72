/* pmu/p6/referee.c: the P6 family event table (events.c) against
 * libpfm4's ppro (Pentium Pro), pii (Pentium II), p6 (Pentium III) and
 * pm (Pentium M) PMUs, which only libpfm4's 32-bit build has (Debian's
 * libpfm4:i386: .lib below, so pfm-check-i386, built with -m32, runs it;
 * referee.h, pmu/referee.h).  Host-only: no part of the image.
 *
 * Compared per row of a generation: the event select (libpfm4's event
 * code, bits 7:0) and the unit-mask bits the event defines (the row's
 * umask_bits; libpfm4: the unit mask its code fixes, bits 15:8, or'ed
 * with every unit-mask attribute's code).  Both tables are meant to be
 * the SDM's whole list for the generation (SDM Vol. 3B, order no.
 * 253669-060US, §19.17 Table 19-37; Pentium M §19.16 Tables 19-35,
 * 19-36), so a libpfm4 event no row names is a difference too.  Not
 * compared: the counters (libpfm4 keeps its counter masks private). */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "referee.h"
#include "events.h"
#include "regs.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *pmu;
	unsigned gen;
} p6_pmus[] = {
	{ "ppro", P6_PPRO }, { "pii", P6_PII }, { "p6", P6_PIII },
	{ "pm", P6_PM },
};

/* Names that differ: the product spells three bus events as SDM Vol. 3B
 * §19.17 Table 19-37 does (64H BUS_DATA_RCV, 65H BUS_TRAN_BRD, 66H
 * BUS_TRAN_RFO, beside 67H BUS_TRANS_WB); libpfm4 4.13 calls them
 * BUS_DATA_RECV, BUS_TRANS_BRD, BUS_TRANS_RFO (same codes, same bus-agent
 * unit mask). */
static const struct ref_name p6_names[] = {
	{ "BUS_DATA_RCV", "BUS_DATA_RECV" },
	{ "BUS_TRAN_BRD", "BUS_TRANS_BRD" },
	{ "BUS_TRAN_RFO", "BUS_TRANS_RFO" },
};

/* Where libpfm4 4.13 and a row differ, and why the row stands. */
static struct ref_exception p6_exc[] = {
	{ .pmus = "pii p6 pm", .row = "MMX_UOPS_EXEC",
	  .what = "unit-mask bits 0FH, libpfm4 MMX_UOPS_EXEC 00H",
	  .cite = "SDM Vol. 3B (253669-060US) §19.17 Table 19-37: B2H "
		  "MMX_UOPS_EXEC takes unit mask 0FH; libpfm4's row has no "
		  "unit mask (it encodes 00H)" },
};

static const char *libpfm_name(const struct pmu_referee *pfm,
			       const char *product)
{
	return pfm->libpfm_name(p6_names, N(p6_names), product);
}

static const char *product_name(const struct pmu_referee *pfm,
				const char *libpfm)
{
	return pfm->product_name(p6_names, N(p6_names), libpfm);
}

/* The libpfm4 index of a product row's event on pmu, or < 0. */
static int find_event(const struct pmu_referee *pfm, const char *pmu,
		      const char *product)
{
	return pfm->find_named(pmu, libpfm_name(pfm, product));
}

/* The unit-mask bits libpfm4 gives an event. */
static unsigned ref_umask_bits(const struct pmu_referee *pfm, int idx,
			       uint64_t code, int nattrs)
{
	unsigned bits = (code >> 8) & 0xff;

	for (int a = 0; a < nattrs; a++) {
		const char *name;
		uint64_t c;

		if (pfm->umask(idx, a, &name, &c))
			bits |= c & 0xff;
	}
	return bits;
}

static void p6_row(const struct pmu_referee *pfm, struct ref_tally *t,
		   const struct p6_event *ev)
{
	unsigned d = 0, u = 0, bits;
	const char *name;
	uint64_t code;
	int idx = find_event(pfm, t->pmu, ev->name), nattrs;

	if (idx < 0 || pfm->event(idx, &name, &code, &nattrs)) {
		u += pfm->diff(t, p6_exc, N(p6_exc), ev->name,
			       "not in libpfm4's table");
		pfm->tally_row(t, 1, u);
		return;
	}
	if ((code & 0xff) != ev->code) {
		d++;
		u += pfm->diff(t, p6_exc, N(p6_exc), ev->name,
			       "event select %02XH, libpfm4 %s %02XH",
			       ev->code, name, (unsigned)(code & 0xff));
	}
	bits = ref_umask_bits(pfm, idx, code, nattrs);
	if (bits != ev->umask_bits) {
		d++;
		u += pfm->diff(t, p6_exc, N(p6_exc), ev->name,
			       "unit-mask bits %02XH, libpfm4 %s %02XH",
			       ev->umask_bits, name, bits);
	}
	pfm->tally_row(t, d, u);
}

static void ref_only(const struct pmu_referee *pfm, struct ref_tally *t,
		     unsigned gen)
{
	for (int i = pfm->first(t->pmu); i >= 0; i = pfm->next(i)) {
		const char *name, *want;
		uint64_t code;
		int nattrs, found = 0;
		unsigned u;

		if (pfm->event(i, &name, &code, &nattrs))
			continue;
		want = product_name(pfm, name);
		for (unsigned r = 0; r < p6_n_events; r++)
			if ((p6_events[r].gens & gen) &&
			    !strcasecmp(p6_events[r].name, want))
				found = 1;
		if (found)
			continue;
		u = pfm->diff(t, p6_exc, N(p6_exc), name,
			      "libpfm4 event %02XH not in the table",
			      (unsigned)(code & 0xff));
		pfm->tally_ref_only(t, u);
	}
}

static int check_p6(const struct pmu_referee *pfm)
{
	int bad = 0;

	for (unsigned p = 0; p < N(p6_pmus); p++) {
		struct ref_tally t;

		if (!pfm->has_pmu(p6_pmus[p].pmu)) {
			pfm->not_ok("libpfm4 has no PMU %s (the 32-bit "
				    "libpfm4:i386 has)", p6_pmus[p].pmu);
			bad++;
			continue;
		}
		pfm->tally_start(&t, "p6", p6_pmus[p].pmu, NULL);
		for (unsigned i = 0; i < p6_n_events; i++)
			if (p6_events[i].gens & p6_pmus[p].gen)
				p6_row(pfm, &t, &p6_events[i]);
		ref_only(pfm, &t, p6_pmus[p].gen);
		bad += pfm->tally_end(&t);
	}
	return bad + pfm->exceptions_unused("p6", p6_exc, N(p6_exc));
}

/* libpfm4's P6 PMUs are in its 32-bit build only (libpfm4:i386). */
const struct pmu_referee_tables p6_referee = {
	.lib = PMU_REFEREE_LIB32,
	.table = { { "p6", check_p6 } },
};
