/* Host tests for pmu/perfmon/bts/model.c: bts_model_step() on hand-made steps
 * against a DS area and a BTS buffer in host memory.  The rules, from
 * pmu/perfmon/bts/model.h and SDM Vol. 3B §17.4.5-§17.4.9 (order no.
 * 253669-060US):
 *   - a record only with TR and BTS both set, for a retired taken near
 *     branch or a far transfer; none for a Jcc not taken or another step;
 *   - BTS_OFF_OS: none at CPL 0; BTS_OFF_USR: none at CPL 1-3;
 *   - the record {from: RIP, to: next RIP, flags 0} at the index, which
 *     moves on by one record (24 bytes; 12 in the 32-bit format);
 *   - a record that would not lie whole in [base, max), or is not mapped
 *     writable: BTINT clear, the buffer wraps (written at the base);
 *     BTINT set, dropped, the index left where it is;
 *   - returns 1 when BTINT is set and the index has reached the
 *     threshold after a record, else 0;
 *   - no DS area (ds_model_area() NULL): nothing.
 * ds_model_area() and paging_range_writable() are stubs here: the area
 * is this file's, and a range of it can be made "unmapped". */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "pmu/perfmon/bts/model.h"
#include "pmu/perfmon/ds/model.h"
#include "pmu/perfmon/ds/regs.h"
#include "pmu/sem.h"
#include "arch/x86/paging.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/host/arch/x86/dec_flags.h"

/* host-sources: pmu/perfmon/bts/model.c pmu/perfmon/ds/regs.c pmu/sem.c lib/fmt.c pmu/emufault.c lib/escape.c lib/string.c */

#define REC 24u
#define K 4u			/* records in the buffer */
#define GUARD 2u		/* records past it that must stay 0xa5 */
#define TR DEBUGCTL_TR
#define BTS DEBUGCTL_BTS
#define BTINT DEBUGCTL_BTINT
#define OFF_OS DEBUGCTL_BTS_OFF_OS
#define OFF_USR DEBUGCTL_BTS_OFF_USR

static struct ds_layout lay;
/* Below 4 GiB (MAP_32BIT): the 32-bit format holds 4-byte addresses. */
static uint8_t *area, *buf;
#define AREA_BYTES 256u
#define BUF_BYTES ((K + GUARD) * REC)
static int area_live;
static uint64_t hole_lo, hole_hi;	/* [lo, hi): not writable */

void *ds_model_area(const struct ds_layout **l)
{
	if (!area_live)
		return NULL;
	*l = &lay;
	return area;
}

int paging_range_writable(uint64_t va, uint64_t len)
{
	if (!len || va + len < va)
		return 0;
	return va + len <= hole_lo || va >= hole_hi;
}

/* The rule pmu/perfmon/ds/model.c states: SEM_TAKEN or SEM_FAR. */
int ds_model_branch(const struct insn_event *e)
{
	return sem_once(SEM_TAKEN, e) || sem_once(SEM_FAR, e);
}

static uint64_t at(unsigned rec)
{
	return (uint64_t)(uintptr_t)buf + (uint64_t)rec * lay.bts_record;
}

/* A 64-bit (ds64) or 32-bit DS area: buffer of K records, threshold at
 * thresh records, index at index records. */
static void setup(int ds64, unsigned thresh, unsigned index)
{
	ds_layout_for(0, ds64, &lay);
	memset(area, 0, AREA_BYTES);
	memset(buf, 0xa5, BUF_BYTES);
	area_live = 1;
	hole_lo = hole_hi = 0;
	ds_put(area, &lay, DS_BTS_BASE, at(0));
	ds_put(area, &lay, DS_BTS_INDEX, at(index));
	ds_put(area, &lay, DS_BTS_MAX, at(K));
	ds_put(area, &lay, DS_BTS_THRESH, at(thresh));
}

static int setup_64(void **state)
{
	(void)state;
	setup(1, K, 0);
	return 0;
}

static uint64_t index_rec(void)
{
	uint64_t i = ds_get(area, &lay, DS_BTS_INDEX);

	assert_true(i >= at(0));
	assert_int_equal((i - at(0)) % lay.bts_record, 0);
	return (i - at(0)) / lay.bts_record;
}

static uint64_t field(unsigned rec, unsigned n)
{
	uint64_t v = 0;

	memcpy(&v, buf + rec * lay.bts_record + n * lay.field_size,
	       lay.field_size);
	return v;
}

static void assert_record(unsigned rec, uint64_t from, uint64_t to)
{
	assert_int_equal(field(rec, 0), from);
	assert_int_equal(field(rec, 1), to);
	assert_int_equal(field(rec, 2), 0);
}

static void assert_untouched(unsigned rec)
{
	for (unsigned i = 0; i < lay.bts_record; i++)
		assert_int_equal(buf[rec * lay.bts_record + i], 0xa5);
}

static struct insn_event step(uint64_t rip, uint64_t next, unsigned flags,
			      unsigned cpl)
{
	return (struct insn_event){ .rip = rip, .next_rip = next,
				    .flags = (uint16_t)flags,
				    .cpl = (uint8_t)cpl, .retired = 1 };
}

static struct insn_event jmp(uint64_t rip, uint64_t to, unsigned cpl)
{
	return step(rip, to, BR | TK, cpl);
}

static void test_record(void **state)
{
	struct insn_event e = jmp(0x1000, 0x2000, 3);

	(void)state;
	assert_int_equal(bts_model_step(&e, TR | BTS), 0);
	assert_int_equal(index_rec(), 1);
	assert_record(0, 0x1000, 0x2000);
	assert_untouched(1);
}

/* Which steps make a record. */
static void test_which_steps(void **state)
{
	static const struct {
		unsigned flags, retired;
		int records;
	} rows[] = {
		{ BR | TK, 1, 1 },		/* JMP */
		{ BR | CND | TK, 1, 1 },	/* Jcc taken */
		{ BR | CND, 1, 0 },		/* Jcc not taken */
		{ BR | CL | TK, 1, 1 },		/* CALL */
		{ BR | RT | IND | TK, 1, 1 },	/* RET */
		{ FAR | SEG | TK, 1, 1 },	/* far JMP */
		{ FAR | SEG, 1, 1 },		/* far: always a transfer */
		{ 0, 1, 0 },			/* ADD */
		{ REP, 0, 0 },			/* REP MOVS iteration */
		{ UNC, 1, 0 },			/* unknown flow */
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct insn_event e = step(0x1000, 0x3000, rows[i].flags, 3);

		setup(1, K, 0);
		e.retired = (uint8_t)rows[i].retired;
		assert_int_equal(bts_model_step(&e, TR | BTS), 0);
		if (index_rec() != (uint64_t)rows[i].records)
			fail_msg("row %u (flags 0x%x): %llu records, want %d",
				 i, rows[i].flags,
				 (unsigned long long)index_rec(),
				 rows[i].records);
	}
}

/* TR alone, BTS alone, neither: nothing. */
static void test_tr_and_bts(void **state)
{
	static const uint64_t ctl[] = { 0, TR, BTS, BTS | BTINT,
					TR | BTINT | OFF_USR };
	struct insn_event e = jmp(0x1000, 0x2000, 0);

	(void)state;
	for (unsigned i = 0; i < sizeof(ctl) / sizeof(ctl[0]); i++) {
		assert_int_equal(bts_model_step(&e, ctl[i]), 0);
		assert_int_equal(index_rec(), 0);
	}
	assert_untouched(0);
}

static void test_cpl(void **state)
{
	static const struct {
		uint64_t ctl;
		unsigned cpl;
		int records;
	} rows[] = {
		{ OFF_OS, 0, 0 }, { OFF_OS, 1, 1 }, { OFF_OS, 3, 1 },
		{ OFF_USR, 0, 1 }, { OFF_USR, 1, 0 }, { OFF_USR, 2, 0 },
		{ OFF_USR, 3, 0 }, { OFF_OS | OFF_USR, 0, 0 },
		{ OFF_OS | OFF_USR, 3, 0 }, { 0, 0, 1 }, { 0, 3, 1 },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct insn_event e = jmp(0x1000, 0x2000, rows[i].cpl);

		setup(1, K, 0);
		(void)bts_model_step(&e, TR | BTS | rows[i].ctl);
		if (index_rec() != (uint64_t)rows[i].records)
			fail_msg("row %u: DEBUGCTL bits 0x%llx at CPL %u: "
				 "%llu records, want %d", i,
				 (unsigned long long)rows[i].ctl, rows[i].cpl,
				 (unsigned long long)index_rec(),
				 rows[i].records);
	}
}

/* BTINT clear, K records, K + 2 branches: the last two at the base,
 * the index after the second; never a 1, whatever the threshold. */
static void test_wrap(void **state)
{
	(void)state;
	setup(1, 1, 0);
	for (unsigned i = 0; i < K + 2; i++) {
		struct insn_event e = jmp(0x100 + i, 0x900 + i, 3);

		assert_int_equal(bts_model_step(&e, TR | BTS), 0);
	}
	assert_int_equal(index_rec(), 2);
	assert_record(0, 0x100 + K, 0x900 + K);
	assert_record(1, 0x100 + K + 1, 0x900 + K + 1);
	assert_record(2, 0x102, 0x902);
	assert_record(3, 0x103, 0x903);
	assert_untouched(K);
	assert_untouched(K + 1);
}

/* An index at the maximum, past it, too close to it for a whole record,
 * or below the base wraps too. */
static void test_wrap_index_outside(void **state)
{
	struct insn_event e = jmp(0x1000, 0x2000, 3);

	(void)state;
	for (unsigned i = 0; i < 4; i++) {
		const uint64_t index[4] = { at(K), at(K) + REC, at(K) - 1,
					    at(0) - REC };

		setup(1, K, 0);
		ds_put(area, &lay, DS_BTS_INDEX, index[i]);
		assert_int_equal(bts_model_step(&e, TR | BTS), 0);
		assert_int_equal(index_rec(), 1);
		assert_record(0, 0x1000, 0x2000);
	}
}

/* BTINT set, threshold 2, K records: 0, 1, 1, 1 then nothing more
 * written (0), the index parked at the maximum. */
static void test_threshold(void **state)
{
	static const int want[K + 2] = { 0, 1, 1, 1, 0, 0 };

	(void)state;
	setup(1, 2, 0);
	for (unsigned i = 0; i < K + 2; i++) {
		struct insn_event e = jmp(0x100 + i, 0x900 + i, 3);

		assert_int_equal(bts_model_step(&e, TR | BTS | BTINT),
				 want[i]);
	}
	assert_int_equal(index_rec(), K);
	for (unsigned i = 0; i < K; i++)
		assert_record(i, 0x100 + i, 0x900 + i);
	assert_untouched(K);
	assert_untouched(K + 1);
}

/* An unmapped slot: BTINT clear wraps to the base, BTINT set drops. */
static void test_unmapped(void **state)
{
	struct insn_event e = jmp(0x1000, 0x2000, 3);

	(void)state;
	setup(1, K, 2);
	hole_lo = at(2) + 8;
	hole_hi = at(3);
	assert_int_equal(bts_model_step(&e, TR | BTS), 0);
	assert_int_equal(index_rec(), 1);
	assert_record(0, 0x1000, 0x2000);
	assert_untouched(2);

	setup(1, 1, 2);
	hole_lo = at(2) + 8;
	hole_hi = at(3);
	assert_int_equal(bts_model_step(&e, TR | BTS | BTINT), 0);
	assert_int_equal(index_rec(), 2);
	assert_untouched(0);
	assert_untouched(2);
}

static void test_no_area(void **state)
{
	struct insn_event e = jmp(0x1000, 0x2000, 3);

	(void)state;
	area_live = 0;
	assert_int_equal(bts_model_step(&e, TR | BTS | BTINT), 0);
	area_live = 1;
	assert_int_equal(index_rec(), 0);
	assert_untouched(0);
}

/* The 32-bit format: 12-byte records of three 4-byte fields. */
static void test_ds32(void **state)
{
	struct insn_event e = jmp(0x1000, 0x2000, 3);

	(void)state;
	setup(0, K, 0);
	assert_int_equal(lay.bts_record, 12);
	assert_int_equal(bts_model_step(&e, TR | BTS), 0);
	assert_int_equal(index_rec(), 1);
	assert_record(0, 0x1000, 0x2000);
}

int main(void)
{
	uint8_t *low = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_record, setup_64),
		cmocka_unit_test(test_which_steps),
		cmocka_unit_test_setup(test_tr_and_bts, setup_64),
		cmocka_unit_test(test_cpl),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_wrap_index_outside),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_unmapped),
		cmocka_unit_test_setup(test_no_area, setup_64),
		cmocka_unit_test(test_ds32),
	};

	if (low == MAP_FAILED || (uintptr_t)low + 4096 > (1ull << 32)) {
		fprintf(stderr, "no memory below 4 GiB\n");
		return 1;
	}
	area = low;
	buf = low + 1024;
	return cmocka_run_group_tests_name("bts_model", tests, NULL, NULL);
}
