/* tools/pfm/p6.c: the P6 family event table (pmu/p6/events.c) against
 * libpfm4's ppro (Pentium Pro), pii (Pentium II), p6 (Pentium III) and
 * pm (Pentium M) PMUs, which only libpfm4's 32-bit build has (Debian's
 * libpfm4:i386; this file is built with -m32, pfm-check-i386).
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
#include "pmu/p6/events.h"
#include "pmu/p6/regs.h"

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

#define PM_L2 "SDM Vol. 3B (253669-060US) §19.16 Table 19-36: the " \
	"MESI bits Mask[3:0] and the prefetch field Mask[5:4] are given " \
	"under L2_LD (29H); the rows 24H, 26H and 27H that follow it say " \
	"only \"L2 lines allocated / evicted\".  The product reads the " \
	"prefetch field as shared (bits 5:4), libpfm4 the whole mask " \
	"(bits 5:0): the table's layout does not settle it"

/* Where libpfm4 4.13 and a row differ, and why the row stands. */
static struct ref_exception p6_exc[] = {
	{ .pmus = "pii p6 pm", .row = "MMX_UOPS_EXEC",
	  .what = "unit-mask bits 0FH, libpfm4 MMX_UOPS_EXEC 00H",
	  .cite = "SDM Vol. 3B (253669-060US) §19.17 Table 19-37: B2H "
		  "MMX_UOPS_EXEC takes unit mask 0FH; libpfm4's row has no "
		  "unit mask (it encodes 00H)" },
	{ .pmus = "pm", .row = "L2_LINES_IN",
	  .what = "unit-mask bits 30H, libpfm4 L2_LINES_IN 3FH",
	  .cite = PM_L2 },
	{ .pmus = "pm", .row = "L2_LINES_OUT",
	  .what = "unit-mask bits 30H, libpfm4 L2_LINES_OUT 3FH",
	  .cite = PM_L2 },
	{ .pmus = "pm", .row = "L2_M_LINES_OUT",
	  .what = "unit-mask bits 30H, libpfm4 L2_M_LINES_OUT 3FH",
	  .cite = PM_L2 },
};

static const char *libpfm_name(const char *product)
{
	return ref_libpfm_name(p6_names, N(p6_names), product);
}

static const char *product_name(const char *libpfm)
{
	return ref_product_name(p6_names, N(p6_names), libpfm);
}

/* The libpfm4 index of a product row's event on pmu, or < 0. */
static int find_event(const char *pmu, const char *product)
{
	return ref_find_named(pmu, libpfm_name(product));
}

/* The unit-mask bits libpfm4 gives an event. */
static unsigned ref_umask_bits(int idx, uint64_t code, int nattrs)
{
	unsigned bits = (code >> 8) & 0xff;

	for (int a = 0; a < nattrs; a++) {
		const char *name;
		uint64_t c;

		if (ref_umask(idx, a, &name, &c))
			bits |= c & 0xff;
	}
	return bits;
}

static void p6_row(struct ref_tally *t, const struct p6_event *ev)
{
	unsigned d = 0, u = 0, bits;
	const char *name;
	uint64_t code;
	int idx = find_event(t->pmu, ev->name), nattrs;

	if (idx < 0 || ref_event(idx, &name, &code, &nattrs)) {
		u += tally_diff(t, p6_exc, N(p6_exc), ev->name,
				"not in libpfm4's table");
		tally_row(t, 1, u);
		return;
	}
	if ((code & 0xff) != ev->code) {
		d++;
		u += tally_diff(t, p6_exc, N(p6_exc), ev->name,
				"event select %02XH, libpfm4 %s %02XH",
				ev->code, name, (unsigned)(code & 0xff));
	}
	bits = ref_umask_bits(idx, code, nattrs);
	if (bits != ev->umask_bits) {
		d++;
		u += tally_diff(t, p6_exc, N(p6_exc), ev->name,
				"unit-mask bits %02XH, libpfm4 %s %02XH",
				ev->umask_bits, name, bits);
	}
	tally_row(t, d, u);
}

static void ref_only(struct ref_tally *t, unsigned gen)
{
	for (int i = ref_first(t->pmu); i >= 0; i = ref_next(i)) {
		const char *name, *want;
		uint64_t code;
		int nattrs, found = 0;

		if (ref_event(i, &name, &code, &nattrs))
			continue;
		want = product_name(name);
		for (unsigned r = 0; r < p6_n_events; r++)
			if ((p6_events[r].gens & gen) &&
			    !strcasecmp(p6_events[r].name, want))
				found = 1;
		if (!found)
			tally_ref_only(t, tally_diff(t, p6_exc, N(p6_exc),
						     name,
						     "libpfm4 event %02XH not "
						     "in the table",
						     (unsigned)(code & 0xff)));
	}
}

int check_p6(void)
{
	int bad = 0;

	for (unsigned p = 0; p < N(p6_pmus); p++) {
		struct ref_tally t;

		if (!ref_has_pmu(p6_pmus[p].pmu)) {
			printf("not ok - pfm: libpfm4 has no PMU %s (the "
			       "32-bit libpfm4:i386 has)\n", p6_pmus[p].pmu);
			bad++;
			continue;
		}
		tally_start(&t, "p6", p6_pmus[p].pmu, NULL);
		for (unsigned i = 0; i < p6_n_events; i++)
			if (p6_events[i].gens & p6_pmus[p].gen)
				p6_row(&t, &p6_events[i]);
		ref_only(&t, p6_pmus[p].gen);
		bad += tally_end(&t);
	}
	return bad + exceptions_unused("p6", p6_exc, N(p6_exc));
}
