/* Host tests for arch/x86/mpspec.c: the processor entries of an Intel
 * MultiProcessor Specification 1.4 configuration table, found through
 * its floating pointer, and every damaged structure refused with its
 * reason: the floating pointer's signature, length and checksum (§4.1,
 * Table 4-1), a default configuration (feature byte 1 non-zero, chapter
 * 5), no table, the table's signature, length and checksum (§4.2, Table
 * 4-2), an entry of a reserved type (Table 4-3), a table without
 * processors.  Processor entries (§4.3.1, Table 4-4): type 0, 20 bytes,
 * local APIC ID at byte 1, version at 2, flags at 3 (bit 0 EN, bit 1
 * BP), the CPU signature at 4; the other entries of Table 4-3 are 8
 * bytes.  The structures are built here byte by byte. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <sys/mman.h>

#include "arch/x86/mpspec.h"

/* host-sources: arch/x86/mpspec.c lib/string.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))

enum damage {
	NONE, FPS_SIG, FPS_SUM, FPS_LEN, DEFAULT_CONFIG, NO_TABLE, CT_SIG,
	CT_SUM, CT_SHORT, RESERVED_1ST, RESERVED_2ND, RESERVED_4TH, NO_CPU,
};

/* Below 4 GiB (MAP_32BIT): the floating pointer's table address is 32
 * bits. */
struct mps {
	uint8_t fps[16] __attribute__((aligned(16)));
	uint8_t table[44 + 20 + 8 + 20 + 8 + 20];
};
static struct mps *m;

static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

static void fix_sum(uint8_t *p, unsigned len, unsigned at)
{
	uint8_t s = 0;

	p[at] = 0;
	for (unsigned i = 0; i < len; i++)
		s = (uint8_t)(s + p[i]);
	p[at] = (uint8_t)-s;
}

static uint8_t *cpu(uint8_t *e, uint8_t id, uint8_t flags)
{
	e[0] = 0;
	e[1] = id;
	e[2] = 0x14;			/* a Pentium 4's xAPIC version */
	e[3] = flags;
	put32(e + 4, 0xf41);		/* family 15 model 4 stepping 1 */
	return e + 20;
}

static uint8_t *other(uint8_t *e, uint8_t type)
{
	e[0] = type;
	return e + 8;
}

/* BSP APIC ID 0, a bus entry, APIC ID 1 (EN), an I/O APIC entry, APIC
 * ID 6 (not EN). */
static void build(enum damage d)
{
	uint8_t *t = m->table, *e = t + 44;
	unsigned len = sizeof(m->table);

	memset(m, 0, sizeof(*m));
	memcpy(t, d == CT_SIG ? "PCMQ" : "PCMP", 4);
	t[6] = 4;
	memcpy(t + 8, "PMUHARNS", 8);
	put32(t + 36, 0xfee00000);
	if (d == NO_CPU) {
		e = other(other(e, 1), 2);
		len = (unsigned)(e - t);
		put16(t + 34, 2);
	} else {
		if (d == RESERVED_1ST)
			e[0] = 0x80;	/* where the BSP's entry would start */
		e = d == RESERVED_1ST ? e + 20 : cpu(e, 0, 3);
		e = other(e, d == RESERVED_2ND ? 5 : 1);
		e = cpu(e, 1, 1);
		e = other(e, d == RESERVED_4TH ? 0x80 : 2);
		e = cpu(e, 6, 0);
		put16(t + 34, 5);
	}
	put16(t + 4, d == CT_SHORT ? 40 : (uint16_t)len);
	fix_sum(t, d == CT_SHORT ? 40 : len, 7);
	if (d == CT_SUM)
		t[40] ^= 1;

	memcpy(m->fps, d == FPS_SIG ? "_MQ_" : "_MP_", 4);
	put32(m->fps + 4, d == NO_TABLE ? 0 : (uint32_t)(uintptr_t)t);
	m->fps[8] = d == FPS_LEN ? 2 : 1;
	m->fps[9] = 4;
	m->fps[11] = d == DEFAULT_CONFIG ? 5 : 0;
	fix_sum(m->fps, 16, 10);
	if (d == FPS_SUM)
		m->fps[12] ^= 1;
}

struct mcase {
	const char *what;
	enum damage damage;
	const char *why;		/* NULL: found */
	unsigned total;
};

static const struct mcase cases[] = {
	{ "good table: three processors among other entries", NONE, NULL,
	  3 },
	{ "a reserved entry type (5) after the first processor stops the walk",
	  RESERVED_2ND, NULL, 1 },
	{ "a reserved entry type (80H) after two processors", RESERVED_4TH,
	  NULL, 2 },
	{ "a reserved entry type before any processor", RESERVED_1ST,
	  "the MP configuration table has an entry of a reserved type" },
	{ "floating pointer signature", FPS_SIG,
	  "no valid MP floating pointer structure" },
	{ "floating pointer checksum", FPS_SUM,
	  "no valid MP floating pointer structure" },
	{ "floating pointer length 2 paragraphs", FPS_LEN,
	  "no valid MP floating pointer structure" },
	{ "default configuration 5", DEFAULT_CONFIG,
	  "the MP floating pointer names a default configuration (MP spec "
	  "1.4 chapter 5), no table listing processors" },
	{ "no table address", NO_TABLE,
	  "the MP floating pointer names no configuration table" },
	{ "table signature", CT_SIG,
	  "the MP configuration table has no PCMP signature" },
	{ "table checksum", CT_SUM,
	  "the MP configuration table's checksum is wrong" },
	{ "table shorter than its header", CT_SHORT,
	  "the MP configuration table is shorter than its header" },
	{ "no processor entry", NO_CPU,
	  "the MP configuration table lists no processor" },
};

static void test_cases(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		const struct mcase *c = &cases[i];
		struct mps_cpu cpus[4];
		unsigned total = 99;
		const char *why;

		build(c->damage);
		why = mps_processors(m->fps, cpus, N(cpus), &total);
		if (c->why) {
			if (!why || strcmp(why, c->why))
				fail_msg("%s: got \"%s\", want \"%s\"", c->what,
					 why ? why : "(found)", c->why);
			assert_int_equal(total, 0);
			continue;
		}
		if (why)
			fail_msg("%s: %s", c->what, why);
		if (total != c->total)
			fail_msg("%s: %u processors, want %u", c->what, total,
				 c->total);
		/* The BSP: APIC ID 0, EN and BP (flags 3). */
		assert_int_equal(cpus[0].apic_id, 0);
		assert_int_equal(cpus[0].flags, 3);
		assert_int_equal(cpus[0].apic_version, 0x14);
		assert_int_equal(cpus[0].signature, 0xf41);
		if (total > 1) {
			assert_int_equal(cpus[1].apic_id, 1);
			assert_int_equal(cpus[1].flags, 1);	/* EN only */
		}
		if (total > 2) {
			assert_int_equal(cpus[2].apic_id, 6);
			assert_int_equal(cpus[2].flags, 0);	/* unusable */
		}
	}
}

/* More processors than the caller's room: the first max are kept, all
 * are counted. */
static void test_room(void **state)
{
	struct mps_cpu one[1];
	unsigned total;

	(void)state;
	build(NONE);
	assert_null(mps_processors(m->fps, one, 1, &total));
	assert_int_equal(total, 3);
	assert_int_equal(one[0].apic_id, 0);
}

static void test_floating_at(void **state)
{
	(void)state;
	build(NONE);
	assert_true(mps_floating_at(m->fps));
	build(FPS_SUM);
	assert_false(mps_floating_at(m->fps));
	assert_string_equal(mps_processors(NULL, NULL, 0, &(unsigned){ 0 }),
			    "no valid MP floating pointer structure");
}

int main(void)
{
	m = mmap(NULL, sizeof(*m), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (m == MAP_FAILED)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_room),
		cmocka_unit_test(test_floating_at),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
