/* pmu/netburst/referee.c: the NetBurst event table (events.c) against
 * libpfm4's netburst (models 0-2) and netburst_p (Prescott, models 3, 4
 * and 6: libpfm4's pfm_netburst_detect_prescott(), with instr_completed),
 * in its x86_64 library (referee.h; pmu/referee.h).  Host-only: no part
 * of the image.
 *
 * Compared per row: the ESCR event select and the CCCR ESCR select
 * (libpfm4's event code, event select | ESCR select << 8), then per
 * event-mask bit of the row libpfm4's encoding of "event:BIT": the ESCR's
 * event select (bits 30:25) and event mask (bits 24:9) must be the row's
 * select and exactly that bit, the CCCR's ESCR select (bits 15:13) the
 * row's (SDM Vol. 3B, order no. 253669-060US, Figures 18-45/18-46 of the
 * NetBurst section).  Both tables are meant to be complete, so an event
 * or an event-mask bit libpfm4 has and the row lacks is a difference
 * too.  libpfm4's TAG0-TAG3 unit masks (codes 16-19) are not event-mask
 * bits: its encoder puts them in the ESCR's tag value (bits 8:5) and sets
 * TAG_ENABLE; they are left out.
 *
 * Not compared: the ESCR MSRs and the counters of a row.  libpfm4 4.13
 * keeps them in its private table (netburst_events[] is a local symbol of
 * libpfm.so and libpfm.a) and no public call returns them; the driver's
 * host test restates them from the SDM (tests/netburst/nb_test.h,
 * netburst_regs.c). */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "referee.h"
#include "events.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Names that differ.  The SDM's at-retirement table names RAT's 02H
 * event "uop_type" (SDM Vol. 3B chapter 19, "Performance Monitoring
 * Events For Intel NetBurst Microarchitecture for At-Retirement
 * Counting"); libpfm4 4.13 calls it "uops_type" (same select 02H, ESCR
 * select 02H, bits TAGLOADS 1 and TAGSTORES 2). */
static const struct ref_name nb_names[] = {
	{ "uop_type", "uops_type" },
};

#define NR "SDM Vol. 3B (253669-060US) chapter 19, \"Performance " \
	"Monitoring Events For Intel NetBurst Microarchitecture for " \
	"Non-Retirement Counting\""
#define AR "SDM Vol. 3B (253669-060US) chapter 19, \"... for At-" \
	"Retirement Counting\""

static struct ref_exception nb_exc[] = {
	{ .pmus = "netburst netburst_p", .row = "mispred_branch_retired",
	  .what = "bit NBOGUS not in libpfm4",
	  .cite = AR ": bit 0 of mispred_branch_retired is NBOGUS "
		  "(non-bogus mispredicted branches); libpfm4 names the same "
		  "bit 0 BOGUS" },
	{ .pmus = "netburst netburst_p", .row = "mispred_branch_retired",
	  .what = "libpfm4 bit BOGUS (bit 0) not in the row",
	  .cite = AR ": bit 0 is NBOGUS, which the row has (the same bit "
		  "under libpfm4's other name)" },
	{ .pmus = "netburst netburst_p", .row = "replay_event",
	  .what = "libpfm4 bits L1_LD_MISS.. (2-10) not in the row",
	  .cite = AR " lists replay_event's bits NBOGUS 0 and BOGUS 1 "
		  "only; libpfm4's L1_LD_MISS, L2_LD_MISS, DTLB_LD_MISS, "
		  "DTLB_ST_MISS, DTLB_ALL_MISS, BR_MSP, MOB_LD_REPLAY, "
		  "SP_LD_RET, SP_ST_RET are virtual: they name the replay-"
		  "tagging metrics (IA32_PEBS_ENABLE / MSR_PEBS_MATRIX_VERT "
		  "settings, the SDM's \"Metrics That Utilize Replay "
		  "Tagging\" table), and its encoder clears them from the "
		  "ESCR (P4_REPLAY_REAL_MASK)" },
	{ .pmus = "netburst netburst_p", .row = "x87_simd_moves_uop",
	  .what = "not in libpfm4's table",
	  .cite = NR " lists x87_SIMD_moves_uop: select 2EH, FIRM_ESCR0/1, "
		  "CCCR ESCR select 01H, bits ALLP0 3 and ALLP2 4; libpfm4 "
		  "4.13 leaves it out (as Linux's perf_event_p4.h does)" },
	{ .pmus = "netburst netburst_p", .row = "b2b_cycles",
	  .what = "libpfm4 event not in the table",
	  .cite = NR " gives b2b_cycles (16H), bnr (08H), snoop (06H) "
		  "and response (04H) the FSB_ESCR0/1 with CCCR ESCR select "
		  "03H, but 03H names ITLB_ESCR0/1 in the BPU block and FSB "
		  "is 06H (Table 18-63): as documented they cannot be "
		  "programmed, and their bits are unnamed (libpfm4's BIT1.."
		  "); left out, pmu/netburst/events.c" },
	{ .pmus = "netburst netburst_p", .row = "bnr",
	  .what = "libpfm4 event not in the table",
	  .cite = "as b2b_cycles" },
	{ .pmus = "netburst netburst_p", .row = "snoop",
	  .what = "libpfm4 event not in the table",
	  .cite = "as b2b_cycles" },
	{ .pmus = "netburst netburst_p", .row = "response",
	  .what = "libpfm4 event not in the table",
	  .cite = "as b2b_cycles" },
};

static const char *libpfm_name(const struct pmu_referee *pfm,
			       const char *product)
{
	return pfm->libpfm_name(nb_names, N(nb_names), product);
}

static const char *product_name(const struct pmu_referee *pfm,
				const char *libpfm)
{
	return pfm->product_name(nb_names, N(nb_names), libpfm);
}

/* The libpfm4 index of a product row's event on pmu, or < 0. */
static int find_event(const struct pmu_referee *pfm, const char *pmu,
		      const char *product)
{
	return pfm->find_named(pmu, libpfm_name(pfm, product));
}

static const struct nb_emask_bit *row_bit(const struct nb_event *ev,
					  const char *name)
{
	for (unsigned b = 0; b < ev->n_bits; b++)
		if (!strcasecmp(ev->bits[b].name, name))
			return &ev->bits[b];
	return NULL;
}

/* One event-mask bit through libpfm4's encoder. */
static unsigned cmp_bit(const struct pmu_referee *pfm, struct ref_tally *t,
			const struct nb_event *ev,
			const struct nb_emask_bit *bit, unsigned *u)
{
	char name[128];
	uint64_t c[3];
	unsigned sel, emask, escr_sel;
	int n = 3;

	snprintf(name, sizeof(name), "%s:%s", libpfm_name(pfm, ev->name),
		 bit->name);
	if (pfm->encode(t->pmu, name, c, &n) || n < 2) {
		*u += pfm->diff(t, nb_exc, N(nb_exc), ev->name,
				"bit %s not in libpfm4", bit->name);
		return 1;
	}
	sel = (c[0] >> 25) & 0x3f;
	emask = (c[0] >> 9) & 0xffff;
	escr_sel = (c[1] >> 13) & 7;
	if (sel == ev->select && emask == 1u << bit->bit &&
	    escr_sel == ev->escr_sel)
		return 0;
	*u += pfm->diff(t, nb_exc, N(nb_exc), ev->name,
			"bit %s: select %02XH mask %04XH ESCR select %u, "
			"libpfm4 ESCR %08llXH CCCR %08llXH", bit->name,
			ev->select, 1u << bit->bit, ev->escr_sel,
			(unsigned long long)c[0], (unsigned long long)c[1]);
	return 1;
}

/* libpfm4's event-mask bits the row lacks (tag bits 16-19 aside). */
static unsigned ref_bits_missing(const struct pmu_referee *pfm,
				 struct ref_tally *t, const struct nb_event *ev,
				 int idx, int nattrs, unsigned *u)
{
	unsigned d = 0, extra = 0, first = 0, last = 0;
	const char *first_name = NULL;

	for (int a = 0; a < nattrs; a++) {
		const char *name;
		uint64_t code;

		if (!pfm->umask(idx, a, &name, &code) || code >= 16)
			continue;
		if (row_bit(ev, name))
			continue;
		if (!extra++) {
			first_name = name;
			first = (unsigned)code;
		}
		last = (unsigned)code;
	}
	if (extra == 1) {
		d++;
		*u += pfm->diff(t, nb_exc, N(nb_exc), ev->name,
				"libpfm4 bit %s (bit %u) not in the row",
				first_name, first);
	} else if (extra) {
		d++;
		*u += pfm->diff(t, nb_exc, N(nb_exc), ev->name,
				"libpfm4 bits %s.. (%u-%u) not in the row",
				first_name, first, last);
	}
	return d;
}

static void nb_row(const struct pmu_referee *pfm, struct ref_tally *t,
		   const struct nb_event *ev)
{
	unsigned d = 0, u = 0;
	const char *name;
	uint64_t code;
	int idx = find_event(pfm, t->pmu, ev->name), nattrs;

	if (idx < 0 || pfm->event(idx, &name, &code, &nattrs)) {
		u += pfm->diff(t, nb_exc, N(nb_exc), ev->name,
			       "not in libpfm4's table");
		pfm->tally_row(t, 1, u);
		return;
	}
	if ((code & 0xff) != ev->select || ((code >> 8) & 0xff) !=
	    ev->escr_sel) {
		d++;
		u += pfm->diff(t, nb_exc, N(nb_exc), ev->name,
			       "select %02XH ESCR select %u, libpfm4 %s "
			       "%02XH / %u", ev->select, ev->escr_sel, name,
			       (unsigned)(code & 0xff),
			       (unsigned)((code >> 8) & 0xff));
	}
	for (unsigned b = 0; b < ev->n_bits; b++)
		d += cmp_bit(pfm, t, ev, &ev->bits[b], &u);
	d += ref_bits_missing(pfm, t, ev, idx, nattrs, &u);
	pfm->tally_row(t, d, u);
}

/* libpfm4's events no row names. */
static void ref_only(const struct pmu_referee *pfm, struct ref_tally *t,
		     unsigned models_min)
{
	for (int i = pfm->first(t->pmu); i >= 0; i = pfm->next(i)) {
		const char *name, *want;
		uint64_t code;
		int nattrs, found = 0;
		unsigned u;

		if (pfm->event(i, &name, &code, &nattrs))
			continue;
		want = product_name(pfm, name);
		for (unsigned r = 0; r < nb_n_events; r++)
			if (nb_events[r].models_min <= models_min &&
			    !strcasecmp(nb_events[r].name, want))
				found = 1;
		if (found)
			continue;
		u = pfm->diff(t, nb_exc, N(nb_exc), name,
			      "libpfm4 event not in the table");
		pfm->tally_ref_only(t, u);
	}
}

static int check_netburst(const struct pmu_referee *pfm)
{
	/* netburst: models 0-2; netburst_p: 3, 4, 6 (the rows with
	 * models_min 3 are there only). */
	static const struct {
		const char *pmu;
		unsigned models;
	} pmus[] = { { "netburst", 0 }, { "netburst_p", 3 } };
	int bad = 0;

	for (unsigned p = 0; p < N(pmus); p++) {
		struct ref_tally t;

		pfm->tally_start(&t, "netburst", pmus[p].pmu, NULL);
		for (unsigned i = 0; i < nb_n_events; i++)
			if (nb_events[i].models_min <= pmus[p].models)
				nb_row(pfm, &t, &nb_events[i]);
		ref_only(pfm, &t, pmus[p].models);
		bad += pfm->tally_end(&t);
	}
	return bad + pfm->exceptions_unused("netburst", nb_exc, N(nb_exc));
}

/* libpfm4's netburst and netburst_p are in its x86_64 build. */
const struct pmu_referee_tables netburst_referee = {
	.lib = PMU_REFEREE_LIB64,
	.table = { { "netburst", check_netburst } },
};
