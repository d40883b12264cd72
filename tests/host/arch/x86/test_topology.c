/* Host tests for arch/x86/topology.c: an APIC ID split into package, core
 * and thread by CPUID leaf 0BH (field widths from its level shifts), or
 * by leaves 01H/04H where 0BH is absent or empty (SDM Vol. 3A §8.9.4,
 * order no. 253668-059US); topo_same_core().  The expected fields are
 * worked out by hand from the APIC IDs and widths in each case's text.
 * topology.c is included, so that its decoding of given leaves
 * (topo_decode()) is in reach without an interface for the tests alone:
 * topo_read() executes CPUID, which is left out of host builds. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "arch/x86/topology.c"

/* host-sources: */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define HTT (1u << 28)
/* Leaf 0BH sub-leaf: shift, count, level number, type, x2APIC ID. */
#define LB(shift, count, level, type, id) \
	{ (shift), (count), (unsigned)(level) | (unsigned)(type) << 8, (id) }
#define SMT 1
#define CORE 2
/* Leaf 01H EBX: initial APIC ID in 31:24, logical count in 23:16. */
#define L1_EBX(id, logical) ((uint32_t)(id) << 24 | (uint32_t)(logical) << 16)
/* Leaf 04H EAX: cores-1 in 31:26, a data cache (type 1) at level 1. */
#define L4_EAX(cores) ((uint32_t)((cores) - 1) << 26 | 0x121u)

struct tcase {
	const char *what;
	struct topo_leaves l;
	enum topo_source source;
	uint32_t apic_id;
	unsigned smt_bits, core_bits, threads_per_core;
	uint32_t thread, core, package;
};

static const struct tcase cases[] = {
	{ "QEMU -smp 2,sockets=1,cores=1,threads=2, the second thread",
	  { 0xb, { 0, L1_EBX(1, 2), 0, HTT }, { L4_EAX(1) },
	    { LB(1, 2, 0, SMT, 1), LB(1, 2, 1, CORE, 1), LB(0, 0, 2, 0, 1) } },
	  TOPO_LEAF_0B, 1, 1, 0, 2, 1, 0, 0 },
	{ "QEMU threads=2, the first thread",
	  { 0xb, { 0, L1_EBX(0, 2), 0, HTT }, { L4_EAX(1) },
	    { LB(1, 2, 0, SMT, 0), LB(1, 2, 1, CORE, 0), LB(0, 0, 2, 0, 0) } },
	  TOPO_LEAF_0B, 0, 1, 0, 2, 0, 0, 0 },
	{ "4 cores x 2 threads, APIC ID 13 = package 1 core 2 thread 1",
	  { 0xb, { 0, L1_EBX(13, 16), 0, HTT }, { L4_EAX(8) },
	    { LB(1, 2, 0, SMT, 13), LB(3, 8, 1, CORE, 13) } },
	  TOPO_LEAF_0B, 13, 1, 2, 2, 1, 2, 1 },
	{ "6 cores x 2 threads: core field 3 bits; APIC ID 0x1b",
	  { 0xb, { 0, L1_EBX(0x1b, 16), 0, HTT }, { L4_EAX(8) },
	    { LB(1, 2, 0, SMT, 0x1b), LB(4, 12, 1, CORE, 0x1b) } },
	  TOPO_LEAF_0B, 0x1b, 1, 3, 2, 1, 5, 1 },
	{ "0BH: no SMT (shift 0, one thread), 4 cores, APIC ID 6",
	  { 0xb, { 0, L1_EBX(6, 4), 0, HTT }, { L4_EAX(4) },
	    { LB(0, 1, 0, SMT, 6), LB(2, 4, 1, CORE, 6) } },
	  TOPO_LEAF_0B, 6, 0, 2, 1, 0, 2, 1 },
	{ "0BH: x2APIC ID above 255 comes from EDX, not 01H EBX",
	  { 0xb, { 0, L1_EBX(0xff, 0), 0, HTT }, { 0 },
	    { LB(1, 2, 0, SMT, 0x1235), LB(5, 32, 1, CORE, 0x1235) } },
	  TOPO_LEAF_0B, 0x1235, 1, 4, 2, 1, 10, 0x91 },
	{ "0BH listed but empty (EBX 0): leaves 01H/04H",
	  { 0xb, { 0, L1_EBX(3, 4), 0, HTT }, { L4_EAX(2) },
	    { LB(0, 0, 0, 0, 0) } },
	  TOPO_LEAF_01_04, 3, 1, 1, 2, 1, 1, 0 },
	{ "Core 2 Duo: 2 cores, no HT (01H counts 2, 04H 2 cores)",
	  { 0xa, { 0, L1_EBX(1, 2), 0, HTT }, { L4_EAX(2) }, { { 0 } } },
	  TOPO_LEAF_01_04, 1, 0, 1, 1, 0, 1, 0 },
	{ "Nehalem without 0BH: 16 logical, 8 cores, APIC ID 5",
	  { 0xa, { 0, L1_EBX(5, 16), 0, HTT }, { L4_EAX(8) }, { { 0 } } },
	  TOPO_LEAF_01_04, 5, 1, 3, 2, 1, 2, 0 },
	{ "Pentium 4 with HT: no leaf 04H, 2 logical",
	  { 0x2, { 0, L1_EBX(1, 2), 0, HTT }, { 0 }, { { 0 } } },
	  TOPO_LEAF_01, 1, 1, 0, 2, 1, 0, 0 },
	{ "leaf 04H empty (cache type 0): its core count is ignored",
	  { 0x4, { 0, L1_EBX(7, 2), 0, HTT }, { 0xfc000000u }, { { 0 } } },
	  TOPO_LEAF_01, 7, 1, 0, 2, 1, 0, 3 },
	{ "HTT clear: one logical processor per package",
	  { 0xd, { 0, L1_EBX(2, 8), 0, 0 }, { L4_EAX(4) }, { { 0 } } },
	  TOPO_SINGLE, 2, 0, 0, 1, 0, 0, 2 },
};

static void test_decode_table(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		const struct tcase *c = &cases[i];
		struct topo t;

		topo_decode(&c->l, &t);
		print_message("%s\n", c->what);
		assert_int_equal(t.source, c->source);
		assert_int_equal(t.apic_id, c->apic_id);
		assert_int_equal(t.smt_bits, c->smt_bits);
		assert_int_equal(t.core_bits, c->core_bits);
		assert_int_equal(t.threads_per_core, c->threads_per_core);
		assert_int_equal(t.thread_id, c->thread);
		assert_int_equal(t.core_id, c->core);
		assert_int_equal(t.package_id, c->package);
	}
}

static struct topo at(unsigned smt, unsigned core, uint32_t id)
{
	struct topo t = { .smt_bits = smt, .core_bits = core, .apic_id = id };

	t.thread_id = id & ((1u << smt) - 1);
	t.core_id = id >> smt & ((1u << core) - 1);
	t.package_id = id >> (smt + core);
	return t;
}

static void test_same_core(void **state)
{
	struct topo a = at(1, 2, 4), b = at(1, 2, 5), c = at(1, 2, 6);
	struct topo d = at(1, 2, 12), e = at(0, 3, 5);

	(void)state;
	assert_true(topo_same_core(&a, &b));	/* threads 0 and 1 */
	assert_true(topo_same_core(&b, &a));
	assert_false(topo_same_core(&a, &c));	/* core 2 vs core 3 */
	assert_false(topo_same_core(&a, &d));	/* other package */
	assert_false(topo_same_core(&b, &e));	/* other field widths */
}

/* A firmware table's APIC ID placed with this processor's widths (the
 * BIOS boot's MADT or MP table lists IDs only): worked by hand. */
static void test_locate(void **state)
{
	static const struct {
		unsigned smt, core;
		uint32_t id, package, core_id, thread;
	} c[] = {
		{ 1, 0, 1, 0, 0, 1 },	/* P4 HT: the second thread */
		{ 0, 1, 1, 0, 1, 0 },	/* two cores, no HT: core 1 */
		{ 1, 2, 13, 1, 2, 1 },	/* 1101b: package 1 core 10b thread 1 */
		{ 0, 0, 3, 3, 0, 0 },	/* one per package: package 3 */
		{ 1, 3, 0x1b, 1, 5, 1 },	/* 1 101 1 */
	};

	(void)state;
	for (unsigned i = 0; i < N(c); i++) {
		struct topo t = { .smt_bits = c[i].smt, .core_bits = c[i].core };
		uint32_t p, k, th;

		topo_locate(&t, c[i].id, &p, &k, &th);
		assert_int_equal(p, c[i].package);
		assert_int_equal(k, c[i].core_id);
		assert_int_equal(th, c[i].thread);
	}
}

static void test_source_names(void **state)
{
	(void)state;
	assert_string_equal(topo_source_name(TOPO_LEAF_0B), "cpuid-0bh");
	assert_string_equal(topo_source_name(TOPO_LEAF_01_04),
			    "cpuid-01h-04h");
	assert_string_equal(topo_source_name(TOPO_LEAF_01), "cpuid-01h");
	assert_string_equal(topo_source_name(TOPO_SINGLE), "single");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_table),
		cmocka_unit_test(test_same_core),
		cmocka_unit_test(test_locate),
		cmocka_unit_test(test_source_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
