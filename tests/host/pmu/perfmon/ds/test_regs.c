/* Host tests for pmu/perfmon/ds/regs.c (included here, for its static
 * ds_field_offset()): the DS save area layouts, field access on memory
 * images, and ds_check() - a good setup accepted, and each rule of
 * pmu/perfmon/ds/regs.h refused on its own, with a sentence naming the
 * buffer.
 *
 * Expected values typed from the SDM (Vol. 3B, order no. 253669-060US):
 *   - §17.4.9.1, 64-bit DS save area: 00H BTS buffer base, 08H BTS
 *     index, 10H BTS absolute maximum, 18H BTS interrupt threshold, 20H
 *     PEBS buffer base, 28H PEBS index, 30H PEBS absolute maximum, 38H
 *     PEBS interrupt threshold, 40H PEBS counter reset (8 bytes each);
 *     BTS record 24 bytes;
 *   - §17.4.9, 32-bit DS save area: the same eight fields at 00H-1CH (4
 *     bytes each), 20H the 8-byte PEBS counter reset; BTS record 12;
 *   - reset slots: 8 GP + 4 fixed through format 4, 32 GP + 16 fixed with
 *     format 5 (Linux "perf/x86/intel: Enable PEBS format 5"), so format
 *     5's fixed slot 0 lies at 40H + 8 * 32 = 140H;
 *   - §17.4.9.1: the 64-bit format where DTES64 = 1 or IA-32e mode is
 *     active, the 32-bit one only with DTES64 = 0 outside IA-32e mode;
 *     outside IA-32e mode linear addresses are 32 bits, so every address
 *     must be below 4 GiB there whatever the layout, and the canonical
 *     rule (Vol. 3A §3.3.7.1) is IA-32e mode's;
 *   - Core 2's PEBS buffer limit of one page (Linux arch/x86/events/
 *     intel/ds.c intel_ds_init(), format 0: a larger buffer hangs the
 *     GLOBAL_CTRL write). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/perfmon/ds/regs.c"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: lib/fmt.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- layouts -------------------------------------------------------- */

/* §17.4.9.1 (64-bit) and §17.4.9 (32-bit), per PEBS format. */
static const struct {
	unsigned fmt;
	int ds64;
	unsigned field_size, reset_offset, gp, fixed, size, bts;
} sdm_layouts[] = {
	{ 0, 1, 8, 0x40, 8, 4, 0xa0, 24 },	/* 40H + 8 * 12 */
	{ 1, 1, 8, 0x40, 8, 4, 0xa0, 24 },
	{ 2, 1, 8, 0x40, 8, 4, 0xa0, 24 },
	{ 3, 1, 8, 0x40, 8, 4, 0xa0, 24 },
	{ 4, 1, 8, 0x40, 8, 4, 0xa0, 24 },
	{ 5, 1, 8, 0x40, 32, 16, 0x1c0, 24 },	/* 40H + 8 * 48 */
	{ 0, 0, 4, 0x20, 1, 0, 0x28, 12 },
	{ 1, 0, 4, 0x20, 1, 0, 0x28, 12 },
	{ 2, 0, 4, 0x20, 1, 0, 0x28, 12 },
	{ 3, 0, 4, 0x20, 1, 0, 0x28, 12 },
	{ 4, 0, 4, 0x20, 1, 0, 0x28, 12 },
	{ 5, 0, 4, 0x20, 1, 0, 0x28, 12 },
};

static void test_layouts(void **state)
{
	struct ds_layout l;

	(void)state;
	for (unsigned i = 0; i < N(sdm_layouts); i++) {
		memset(&l, 0x5a, sizeof(l));
		ds_layout_for(sdm_layouts[i].fmt, sdm_layouts[i].ds64, &l);
		if (l.ds64 != sdm_layouts[i].ds64 ||
		    l.field_size != sdm_layouts[i].field_size ||
		    l.reset_offset != sdm_layouts[i].reset_offset ||
		    l.gp_slots != sdm_layouts[i].gp ||
		    l.fixed_slots != sdm_layouts[i].fixed ||
		    l.size != sdm_layouts[i].size ||
		    l.bts_record != sdm_layouts[i].bts)
			fail_msg("format %u ds64 %d: fields %u reset at %#x, "
				 "%u + %u slots, %#x bytes, BTS record %u",
				 sdm_layouts[i].fmt, sdm_layouts[i].ds64,
				 l.field_size, l.reset_offset, l.gp_slots,
				 l.fixed_slots, l.size, l.bts_record);
	}
}

static void test_field_offsets(void **state)
{
	static const struct {
		enum ds_field f;
		unsigned off64, off32;
	} sdm[] = {
		{ DS_BTS_BASE, 0x00, 0x00 }, { DS_BTS_INDEX, 0x08, 0x04 },
		{ DS_BTS_MAX, 0x10, 0x08 }, { DS_BTS_THRESH, 0x18, 0x0c },
		{ DS_PEBS_BASE, 0x20, 0x10 }, { DS_PEBS_INDEX, 0x28, 0x14 },
		{ DS_PEBS_MAX, 0x30, 0x18 }, { DS_PEBS_THRESH, 0x38, 0x1c },
	};
	struct ds_layout l64, l32, l5;

	(void)state;
	ds_layout_for(0, 1, &l64);
	ds_layout_for(0, 0, &l32);
	ds_layout_for(5, 1, &l5);
	assert_int_equal(N(sdm), DS_FIELD_NR);
	for (unsigned i = 0; i < N(sdm); i++) {
		assert_int_equal(ds_field_offset(&l64, sdm[i].f),
				 sdm[i].off64);
		assert_int_equal(ds_field_offset(&l5, sdm[i].f),
				 sdm[i].off64);
		assert_int_equal(ds_field_offset(&l32, sdm[i].f),
				 sdm[i].off32);
	}
}

static void test_reset_offsets(void **state)
{
	struct ds_layout l;

	(void)state;
	ds_layout_for(1, 1, &l);
	assert_int_equal(ds_reset_offset(&l, 0, 0), 0x40);
	assert_int_equal(ds_reset_offset(&l, 3, 0), 0x58);
	assert_int_equal(ds_reset_offset(&l, 7, 0), 0x78);
	assert_int_equal(ds_reset_offset(&l, 8, 0), -1);
	assert_int_equal(ds_reset_offset(&l, 0, 1), 0x80);
	assert_int_equal(ds_reset_offset(&l, 3, 1), 0x98);
	assert_int_equal(ds_reset_offset(&l, 4, 1), -1);

	ds_layout_for(5, 1, &l);
	assert_int_equal(ds_reset_offset(&l, 0, 0), 0x40);
	assert_int_equal(ds_reset_offset(&l, 31, 0), 0x138);
	assert_int_equal(ds_reset_offset(&l, 32, 0), -1);
	assert_int_equal(ds_reset_offset(&l, 0, 1), 0x140);
	assert_int_equal(ds_reset_offset(&l, 15, 1), 0x1b8);
	assert_int_equal(ds_reset_offset(&l, 16, 1), -1);

	ds_layout_for(0, 0, &l);
	assert_int_equal(ds_reset_offset(&l, 0, 0), 0x20);
	assert_int_equal(ds_reset_offset(&l, 1, 0), -1);
	assert_int_equal(ds_reset_offset(&l, 0, 1), -1);
}

/* ---- memory images -------------------------------------------------- */

/* The little-endian value of bytes [off, off + n) of p. */
static uint64_t le_at(const uint8_t *p, unsigned off, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[off + i] << (8 * i);
	return v;
}

static void test_get_put_64(void **state)
{
	uint8_t img[0x1c0 + 1];
	uint8_t *area = img + 1;	/* misaligned on purpose */
	struct ds_layout l;

	(void)state;
	ds_layout_for(5, 1, &l);
	memset(img, 0xee, sizeof(img));
	for (unsigned f = 0; f < DS_FIELD_NR; f++)
		ds_put(area, &l, f, 0x1122334455667700ull + f);
	for (unsigned f = 0; f < DS_FIELD_NR; f++) {
		assert_int_equal(le_at(area, 8 * f, 8),
				 0x1122334455667700ull + f);
		assert_int_equal(ds_get(area, &l, f),
				 0x1122334455667700ull + f);
	}
	ds_put_reset(area, &l, 2, 0, 0xfffffffffff0ull);
	ds_put_reset(area, &l, 1, 1, 0x8000000000000001ull);
	assert_int_equal(le_at(area, 0x50, 8), 0xfffffffffff0ull);
	assert_int_equal(le_at(area, 0x148, 8), 0x8000000000000001ull);
	assert_int_equal(ds_get_reset(area, &l, 2, 0), 0xfffffffffff0ull);
	assert_int_equal(ds_get_reset(area, &l, 1, 1),
			 0x8000000000000001ull);
	/* no such slot: nothing written, 0 read */
	ds_put_reset(area, &l, 16, 1, 0x1234);
	ds_put_reset(area, &l, 32, 0, 0x1234);
	assert_int_equal(ds_get_reset(area, &l, 16, 1), 0);
	assert_int_equal(img[0], 0xee);
	assert_int_equal(le_at(area, 0x48, 8), 0xeeeeeeeeeeeeeeeeull);
	assert_int_equal(le_at(area, 0x1b8, 8), 0xeeeeeeeeeeeeeeeeull);
}

static void test_get_put_32(void **state)
{
	uint8_t area[0x30];
	struct ds_layout l;

	(void)state;
	ds_layout_for(0, 0, &l);
	memset(area, 0xee, sizeof(area));
	ds_put(area, &l, DS_PEBS_INDEX, 0x1122334455667788ull);
	/* 4 bytes at 14H, the neighbours untouched */
	assert_int_equal(le_at(area, 0x14, 4), 0x55667788);
	assert_int_equal(area[0x13], 0xee);
	assert_int_equal(area[0x18], 0xee);
	assert_int_equal(ds_get(area, &l, DS_PEBS_INDEX), 0x55667788);
	ds_put(area, &l, DS_BTS_BASE, 0xfffff000);
	assert_int_equal(ds_get(area, &l, DS_BTS_BASE), 0xfffff000);
	assert_int_equal(le_at(area, 0x00, 4), 0xfffff000);
	/* the one reset slot: 8 bytes at 20H */
	ds_put_reset(area, &l, 0, 0, 0xffffffffff00ull);
	assert_int_equal(le_at(area, 0x20, 8), 0xffffffffff00ull);
	assert_int_equal(ds_get_reset(area, &l, 0, 0), 0xffffffffff00ull);
	assert_int_equal(area[0x28], 0xee);
	ds_put_reset(area, &l, 0, 1, 0x1234);
	assert_int_equal(ds_get_reset(area, &l, 0, 1), 0);
}

/* ---- ds_check ------------------------------------------------------- */

/* Mapped memory for the checks: some ranges; every call logged. */
struct map {
	struct {
		uint64_t a, end;
	} r[4];
	unsigned n;
	struct {
		uint64_t a, len;
	} calls[8];
	unsigned n_calls;
};

static int mapped(uint64_t addr, uint64_t len, void *ctx)
{
	struct map *m = ctx;

	if (m->n_calls < N(m->calls)) {
		m->calls[m->n_calls].a = addr;
		m->calls[m->n_calls].len = len;
		m->n_calls++;
	}
	for (unsigned i = 0; i < m->n; i++)
		if (addr >= m->r[i].a && len <= m->r[i].end - addr &&
		    addr < m->r[i].end)
			return 1;
	return 0;
}

#define AREA 0x100000ull
#define BTS_BASE 0x101000ull
#define BTS_REC 24ull
#define PEBS_BASE 0x102000ull
#define PEBS_REC 144ull		/* format 0 */

struct setup {
	struct ds_layout l;
	struct map map;
	struct ds_check_in in;
	char why[256];
};

/* A good format-0 setup: DS area, 100 BTS records, 28 PEBS records (4032
 * bytes, within the one-page limit), all in mapped [1 MiB, 2 MiB). */
static void good(struct setup *s)
{
	memset(s, 0, sizeof(*s));
	ds_layout_for(0, 1, &s->l);
	s->map.r[0].a = 0x100000;
	s->map.r[0].end = 0x200000;
	s->map.n = 1;
	s->in = (struct ds_check_in){
		.l = &s->l,
		.area = AREA,
		.use_bts = 1,
		.use_pebs = 1,
		.bts = { BTS_BASE, BTS_BASE, BTS_BASE + 100 * BTS_REC,
			 BTS_BASE + 90 * BTS_REC },
		.pebs = { PEBS_BASE, PEBS_BASE, PEBS_BASE + 28 * PEBS_REC,
			  PEBS_BASE + PEBS_REC },
		.bts_record = BTS_REC,
		.pebs_record = PEBS_REC,
		.pebs_max_bytes = 4096,
		.mapped = mapped,
		.ctx = &s->map,
	};
}

static int check(struct setup *s)
{
	memset(s->why, 'x', sizeof(s->why));
	return ds_check(&s->in, s->why, sizeof(s->why));
}

/* Refused, with a sentence holding each of the strings given. */
static void refused(struct setup *s, const char *a, const char *b,
		    const char *c)
{
	const char *want[] = { a, b, c };

	if (check(s) != -1)
		fail_msg("accepted; expected a refusal naming \"%s\"", a);
	for (unsigned i = 0; i < N(want); i++)
		if (want[i] && !strstr(s->why, want[i]))
			fail_msg("\"%s\" does not name \"%s\"", s->why,
				 want[i]);
}

static void test_check_good(void **state)
{
	struct setup s;

	(void)state;
	good(&s);
	assert_int_equal(check(&s), 0);
	assert_string_equal(s.why, "");
	/* the DS area and each buffer's [base, max) asked about */
	assert_int_equal(s.map.n_calls, 3);
	assert_int_equal(s.map.calls[0].a, AREA);
	assert_int_equal(s.map.calls[0].len, 0xa0);
	assert_int_equal(s.map.calls[1].a, BTS_BASE);
	assert_int_equal(s.map.calls[1].len, 100 * BTS_REC);
	assert_int_equal(s.map.calls[2].a, PEBS_BASE);
	assert_int_equal(s.map.calls[2].len, 28 * PEBS_REC);

	/* the edges: index at max (full), threshold a record short of it */
	good(&s);
	s.in.pebs.index = s.in.pebs.max;
	s.in.pebs.thresh = s.in.pebs.max - PEBS_REC;
	s.in.bts.thresh = s.in.bts.max - BTS_REC;
	assert_int_equal(check(&s), 0);

	/* two records of each (the threshold at the first), exactly one
	 * page of PEBS */
	good(&s);
	s.in.bts.max = BTS_BASE + 2 * BTS_REC;
	s.in.bts.thresh = BTS_BASE + BTS_REC;
	s.in.pebs.max = PEBS_BASE + 4032;
	s.in.pebs_max_bytes = 4032;
	assert_int_equal(check(&s), 0);

	/* a buffer not in use is not checked */
	good(&s);
	s.in.use_bts = 0;
	s.in.bts = (struct ds_buffer){ 3, 2, 1, 0 };
	assert_int_equal(check(&s), 0);
	assert_int_equal(s.map.n_calls, 2);

	/* no callback: nothing asked */
	good(&s);
	s.in.mapped = NULL;
	s.in.area = 0x7000;
	assert_int_equal(check(&s), 0);

	/* BTS record size 0: the layout's (24) */
	good(&s);
	s.in.bts_record = 0;
	assert_int_equal(check(&s), 0);
	s.in.bts.max += 12;
	refused(&s, "BTS buffer", "absolute maximum 0x10196c",
		"not a multiple of the 0x18-byte record");
}

static void test_check_index(void **state)
{
	struct setup s;

	(void)state;
	good(&s);
	s.in.pebs.index = PEBS_BASE - PEBS_REC;
	refused(&s, "PEBS buffer", "index 0x101f70",
		"is below base 0x102000");

	good(&s);
	s.in.bts.index = s.in.bts.max + BTS_REC;
	refused(&s, "BTS buffer", "index 0x101978",
		"past absolute maximum 0x101960");

	good(&s);
	s.in.pebs.index = PEBS_BASE + 100;
	refused(&s, "PEBS buffer", "index 0x102064",
		"not a multiple of the 0x90-byte record");
}

static void test_check_max(void **state)
{
	struct setup s;

	(void)state;
	good(&s);
	s.in.bts.max = BTS_BASE - BTS_REC;
	s.in.bts.index = s.in.bts.max;
	s.in.bts.thresh = s.in.bts.max;
	refused(&s, "BTS buffer", "absolute maximum 0x100fe8",
		"is below base 0x101000");

	good(&s);
	s.in.pebs.max = PEBS_BASE;
	s.in.pebs.thresh = PEBS_BASE;
	refused(&s, "PEBS buffer", "absolute maximum 0x102000",
		"equals base");

	good(&s);
	s.in.pebs.max = PEBS_BASE + 28 * PEBS_REC - 8;
	refused(&s, "PEBS buffer", "absolute maximum 0x102fb8",
		"not a multiple of the 0x90-byte record");
}

static void test_check_thresh(void **state)
{
	struct setup s;

	(void)state;
	good(&s);
	s.in.pebs.thresh = s.in.pebs.max + PEBS_REC;
	refused(&s, "PEBS buffer", "threshold 0x103050",
		"past absolute maximum 0x102fc0");

	good(&s);
	s.in.bts.thresh = BTS_BASE;
	refused(&s, "BTS buffer", "threshold 0x101000",
		"not above base 0x101000");

	good(&s);
	s.in.pebs.thresh = PEBS_BASE + PEBS_REC + 8;
	refused(&s, "PEBS buffer", "threshold 0x102098",
		"not a multiple of the 0x90-byte record");
}

/* The absolute maximum and the threshold at their edges, with literals
 * (format 0: 0x90-byte records, PEBS base 0x102000; BTS 24-byte records,
 * base 0x101000).  The SDM defines the absolute maximum as the base plus
 * the buffer's length, the buffer full "when PEBS Index equals PEBS
 * Absolute Maximum" (Vol. 3B §18.8.1.1, the DS buffer management area),
 * and in its DS save area list asks for "a multiple of the record size
 * plus 1" (§17.4.9): both are accepted, and either holds k whole records.
 * The interrupt threshold "must be several records short of the ...
 * absolute maximum address to allow a pending interrupt to be handled
 * prior to processor writing the ... absolute maximum record" (§17.4.9,
 * the BTS and PEBS interrupt threshold fields): one record short is
 * accepted, a threshold at the maximum (or in its partial last record)
 * refused, as is one past it (never fires). */
static void test_check_max_edges(void **state)
{
	struct setup s;

	(void)state;
	/* base + 28 * 0x90 = 0x102fc0: the exact multiple */
	good(&s);
	s.in.pebs.max = 0x102fc0;
	s.in.pebs.thresh = 0x102fc0;		/* threshold == maximum */
	refused(&s, "PEBS buffer", "threshold 0x102fc0",
		"not a record short of absolute maximum 0x102fc0");
	s.in.pebs.thresh = 0x102f30;		/* one record short */
	assert_int_equal(check(&s), 0);
	/* + 1: the SDM's "multiple of the record size plus 1" */
	good(&s);
	s.in.pebs.max = 0x102fc1;
	s.in.pebs.thresh = 0x102f30;		/* a record short */
	s.in.pebs.index = 0x102fc0;		/* full: 28 records */
	s.in.pebs_max_bytes = 0xfc1;
	assert_int_equal(check(&s), 0);
	s.in.pebs.thresh = 0x102fc0;		/* 1 byte short: no record */
	refused(&s, "PEBS buffer", "threshold 0x102fc0",
		"not a record short of absolute maximum 0x102fc1");
	good(&s);
	s.in.bts.max = 0x101000 + 100 * 24 + 1;	/* 0x101961 */
	assert_int_equal(check(&s), 0);
	s.in.bts.thresh = 0x101960;		/* at the last record's end */
	refused(&s, "BTS buffer", "threshold 0x101960",
		"not a record short of absolute maximum 0x101961");
	/* + 2 and + 0x8f: neither */
	good(&s);
	s.in.pebs.max = 0x102fc2;
	refused(&s, "PEBS buffer", "absolute maximum 0x102fc2",
		"not a multiple of the 0x90-byte record (or one more)");
	good(&s);
	s.in.pebs.max = 0x10304f;
	refused(&s, "PEBS buffer", "absolute maximum 0x10304f", NULL);
	/* the threshold one record short of the maximum: 0x102f30 */
	good(&s);
	s.in.pebs.thresh = 0x102f30;
	assert_int_equal(check(&s), 0);
	/* with the + 1 maximum, a threshold at it is no record boundary */
	good(&s);
	s.in.pebs.max = 0x102fc1;
	s.in.pebs.thresh = 0x102fc1;
	refused(&s, "PEBS buffer", "threshold 0x102fc1",
		"not a multiple of the 0x90-byte record");
	/* two records of 0x90 bytes plus 1, the threshold at the first */
	good(&s);
	s.in.pebs.max = 0x102121;
	s.in.pebs.thresh = 0x102090;
	assert_int_equal(check(&s), 0);
	/* one record plus 1: no threshold above the base is a record short
	 * of the maximum, so a one-record buffer is refused */
	s.in.pebs.max = 0x102091;
	refused(&s, "PEBS buffer", "threshold 0x102090",
		"not a record short of absolute maximum 0x102091");
}

static void test_check_alignment(void **state)
{
	struct setup s;

	(void)state;
	good(&s);
	s.in.bts.base += 4;
	s.in.bts.index += 4;
	s.in.bts.max += 4;
	s.in.bts.thresh += 4;
	refused(&s, "BTS buffer", "base 0x101004", "not aligned");

	good(&s);
	s.in.area += 4;
	refused(&s, "DS area", "0x100004", "not aligned");
}

static void test_check_pebs_max_bytes(void **state)
{
	struct setup s;

	(void)state;
	good(&s);
	s.in.pebs.max = PEBS_BASE + 29 * PEBS_REC;	/* 4176 > 4096 */
	refused(&s, "PEBS buffer", "0x1050 bytes", "more than the 0x1000");
	/* no limit: accepted */
	s.in.pebs_max_bytes = 0;
	assert_int_equal(check(&s), 0);
}

static void test_check_mapped(void **state)
{
	struct setup s;

	(void)state;
	good(&s);
	s.in.area = 0x300000;
	refused(&s, "DS area", "0x300000", "not mapped");

	/* a BTS buffer that runs off the end of the mapping */
	good(&s);
	s.in.bts.base = s.in.bts.index = 0x1ff000;
	s.in.bts.max = 0x1ff000 + 200 * BTS_REC;
	s.in.bts.thresh = 0x1ff000 + BTS_REC;
	refused(&s, "BTS buffer", "0x1ff000", "not mapped");

	good(&s);
	s.map.r[0].end = 0x102000;		/* PEBS buffer left out */
	refused(&s, "PEBS buffer", "0x102000", "not mapped");
}

static void test_check_overlap(void **state)
{
	struct setup s;

	(void)state;
	/* PEBS buffer on the DS area */
	good(&s);
	s.in.pebs.base = s.in.pebs.index = AREA + 0x50;
	s.in.pebs.max = AREA + 0x50 + 4 * PEBS_REC;
	s.in.pebs.thresh = AREA + 0x50 + PEBS_REC;
	refused(&s, "PEBS buffer: [0x100050", "overlaps DS area", NULL);

	/* BTS and PEBS buffers on each other */
	good(&s);
	s.in.bts.base = s.in.bts.index = PEBS_BASE + 0x10;
	s.in.bts.max = PEBS_BASE + 0x10 + 10 * BTS_REC;
	s.in.bts.thresh = PEBS_BASE + 0x10 + BTS_REC;
	refused(&s, "PEBS buffer: [0x102000", "overlaps BTS buffer [0x102010",
		NULL);

	/* touching is not overlapping */
	good(&s);
	s.in.pebs.base = s.in.pebs.index = s.in.bts.max;
	s.in.pebs.max = s.in.bts.max + 4 * PEBS_REC;
	s.in.pebs.thresh = s.in.bts.max + PEBS_REC;
	assert_int_equal(check(&s), 0);
}

static void test_check_canonical(void **state)
{
	struct setup s;

	(void)state;
	good(&s);
	s.in.pebs.thresh = 0x0001000000000000ull;
	refused(&s, "PEBS buffer", "threshold 0x1000000000000",
		"not canonical");

	good(&s);
	s.in.bts.base = 0x8000000000001000ull;
	refused(&s, "BTS buffer", "base 0x8000000000001000", "not canonical");

	good(&s);
	s.in.area = 0x0000800000000000ull;
	refused(&s, "DS area", "0x800000000000", "not canonical");

	/* high canonical half: accepted when mapped */
	good(&s);
	s.map.r[1].a = 0xffff800000000000ull;
	s.map.r[1].end = 0xffff800000100000ull;
	s.map.n = 2;
	s.in.pebs.base = s.in.pebs.index = 0xffff800000000000ull;
	s.in.pebs.max = 0xffff800000000000ull + 28 * PEBS_REC;
	s.in.pebs.thresh = 0xffff800000000000ull + PEBS_REC;
	assert_int_equal(check(&s), 0);

	/* a buffer across the hole */
	good(&s);
	s.in.pebs.base = s.in.pebs.index = 0x00007ffffffff000ull;
	s.in.pebs.max = 0xffff800000000f90ull;
	s.in.pebs.thresh = 0x00007ffffffff000ull + PEBS_REC;
	s.in.pebs_max_bytes = 0;
	refused(&s, "PEBS buffer", "0x7ffffffff000", "non-canonical hole");
}

static void test_check_32bit(void **state)
{
	struct setup s;

	(void)state;
	good(&s);
	ds_layout_for(0, 0, &s.l);
	s.in.bts_record = 12;
	assert_int_equal(check(&s), 0);

	/* a BTS buffer above 4 GiB, mapped */
	s.map.r[1].a = 0x100000000ull;
	s.map.r[1].end = 0x100100000ull;
	s.map.n = 2;
	s.in.bts.base = s.in.bts.index = 0x100000000ull;
	s.in.bts.max = 0x100000000ull + 12 * 10;
	s.in.bts.thresh = 0x100000000ull + 12;
	refused(&s, "BTS buffer", "0x100000000", "4 GiB");
	/* the same in the 64-bit layout: fine */
	ds_layout_for(0, 1, &s.l);
	s.in.bts_record = 24;
	s.in.bts.max = 0x100000000ull + 24 * 10;
	s.in.bts.thresh = 0x100000000ull + 24;
	assert_int_equal(check(&s), 0);

	/* a PEBS threshold at 4 GiB */
	good(&s);
	ds_layout_for(0, 0, &s.l);
	s.in.bts_record = 12;
	s.in.pebs.thresh = 0x100000000ull;
	refused(&s, "PEBS buffer", "threshold 0x100000000", "4 GiB");

	/* the DS area past 4 GiB */
	good(&s);
	ds_layout_for(0, 0, &s.l);
	s.in.bts_record = 12;
	s.map.r[1].a = 0xfff00000ull;
	s.map.r[1].end = 0x100100000ull;
	s.map.n = 2;
	s.in.area = 0xfffffff8ull;
	refused(&s, "DS area", "0xfffffff8", "4 GiB");
}

/* §17.4.9.1: DTES64 or IA-32e mode: 64-bit; neither: 32-bit. */
static void test_format64(void **state)
{
	(void)state;
	assert_int_equal(ds_format64(1, 1), 1);
	assert_int_equal(ds_format64(1, 0), 1);
	assert_int_equal(ds_format64(0, 1), 1);
	assert_int_equal(ds_format64(0, 0), 0);
#ifdef __x86_64__
	assert_int_equal(DS_BUILD_IA32E, 1);
#endif
}

/* Outside IA-32e mode (la32): every address below 4 GiB in either
 * layout, no canonical rule. */
static void test_check_la32(void **state)
{
	struct setup s;

	(void)state;
	/* the 64-bit layout outside IA-32e mode (DTES64): a good setup */
	good(&s);
	s.in.la32 = 1;
	assert_int_equal(check(&s), 0);

	/* a BTS buffer above 4 GiB: fine in IA-32e mode, refused here */
	s.map.r[1].a = 0x100000000ull;
	s.map.r[1].end = 0x100100000ull;
	s.map.n = 2;
	s.in.bts.base = s.in.bts.index = 0x100000000ull;
	s.in.bts.max = 0x100000000ull + 24 * 10;
	s.in.bts.thresh = 0x100000000ull + 24;
	refused(&s, "BTS buffer", "base 0x100000000", "32 bits outside "
		"IA-32e mode");
	s.in.la32 = 0;
	assert_int_equal(check(&s), 0);

	/* not canonical and above 4 GiB: the 4 GiB rule speaks */
	good(&s);
	s.in.la32 = 1;
	s.in.pebs.thresh = 0x0001000000000000ull;
	refused(&s, "PEBS buffer", "threshold 0x1000000000000",
		"32 bits outside IA-32e mode");

	/* the DS area across 4 GiB, 64-bit layout */
	good(&s);
	s.in.la32 = 1;
	s.map.r[1].a = 0xfff00000ull;
	s.map.r[1].end = 0x100100000ull;
	s.map.n = 2;
	s.in.area = 0xfffffff8ull;
	refused(&s, "DS area", "0xfffffff8", "32 bits outside IA-32e mode");

	/* the 32-bit layout outside IA-32e mode: good below 4 GiB */
	good(&s);
	s.in.la32 = 1;
	ds_layout_for(0, 0, &s.l);
	s.in.bts_record = 12;
	assert_int_equal(check(&s), 0);
	s.in.bts.max = 0x100000000ull;
	refused(&s, "BTS buffer", "absolute maximum 0x100000000", "4 GiB");
}

static void test_check_record_zero_and_short_why(void **state)
{
	struct setup s;
	char small[12];

	(void)state;
	good(&s);
	s.in.pebs_record = 0;
	refused(&s, "PEBS buffer", "record", NULL);

	/* the sentence is cut to the room given, and terminated */
	good(&s);
	s.in.pebs.index = 0;
	memset(small, 'x', sizeof(small));
	assert_int_equal(ds_check(&s.in, small, sizeof(small)), -1);
	assert_int_equal(small[sizeof(small) - 1], 0);
	assert_int_equal(strncmp(small, "PEBS buffer", sizeof(small) - 1),
			 0);
	/* no room at all: still refused */
	assert_int_equal(ds_check(&s.in, NULL, 0), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_field_offsets),
		cmocka_unit_test(test_reset_offsets),
		cmocka_unit_test(test_get_put_64),
		cmocka_unit_test(test_get_put_32),
		cmocka_unit_test(test_check_good),
		cmocka_unit_test(test_check_index),
		cmocka_unit_test(test_check_max),
		cmocka_unit_test(test_check_thresh),
		cmocka_unit_test(test_check_max_edges),
		cmocka_unit_test(test_check_alignment),
		cmocka_unit_test(test_check_pebs_max_bytes),
		cmocka_unit_test(test_check_mapped),
		cmocka_unit_test(test_check_overlap),
		cmocka_unit_test(test_check_canonical),
		cmocka_unit_test(test_check_32bit),
		cmocka_unit_test(test_format64),
		cmocka_unit_test(test_check_la32),
		cmocka_unit_test(test_check_record_zero_and_short_why),
	};

	return cmocka_run_group_tests_name("ds", tests, NULL, NULL);
}
