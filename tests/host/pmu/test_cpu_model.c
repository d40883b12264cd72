/* Host tests for pmu/cpu_model.c: CPUID.01H:EAX decoding of real processors'
 * signatures, vendor strings, model names and the PMU kind.  cpu_model.c is
 * included, so that its table lookup (cpu_model_lookup()) is in reach
 * without an interface for the tests alone. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "pmu/cpu_model.c"
#include "pmu/driver.h"
#include "pmu/detect.h"
#include "pmu/generation.h"

/* host-sources: pmu/generation.c tests/host/pmu/p5/stub_generation.c tests/host/pmu/p6/stub_generation.c tests/host/pmu/netburst/stub_generation.c tests/host/pmu/perfmon/stub_generation.c pmu/pt/generation.c lib/fmt.c lib/string.c */

/* pmu_kind_name() answers from the generations' descriptors, linked
 * without their drivers and models, which nothing runs here
 * (tests/host/pmu/<gen>/stub_generation.c). */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define INTEL VENDOR_INTEL
#define AMD VENDOR_AMD
#define OTHER VENDOR_OTHER

/* A processor's signature, its decoding, a word its name must hold (NULL:
 * the table has no row, so the name is "unknown ...") and its PMU kind when
 * CPUID.0AH reports nothing. */
struct sig_case {
	uint32_t eax;
	enum cpu_vendor v;
	unsigned family, model, stepping;
	const char *word;
	enum pmu_kind pmu;
};

static const struct sig_case sigs[] = {
	/* P5 */
	{ 0x543, INTEL, 5, 0x04, 0x3, "P55C", PMU_P5 },
	/* P6 */
	{ 0x619, INTEL, 6, 0x01, 0x9, "Pentium Pro", PMU_P6 },
	{ 0x634, INTEL, 6, 0x03, 0x4, "Klamath", PMU_P6 },
	{ 0x652, INTEL, 6, 0x05, 0x2, "Deschutes", PMU_P6 },
	{ 0x686, INTEL, 6, 0x08, 0x6, "Coppermine", PMU_P6 },
	{ 0x6b1, INTEL, 6, 0x0b, 0x1, "Tualatin", PMU_P6 },
	{ 0x695, INTEL, 6, 0x09, 0x5, "Banias", PMU_P6 },
	{ 0x6d8, INTEL, 6, 0x0d, 0x8, "Dothan", PMU_P6 },
	{ 0x6e8, INTEL, 6, 0x0e, 0x8, "Yonah", PMU_ARCH },
	/* NetBurst */
	{ 0xf07, INTEL, 15, 0x0, 0x7, "Willamette", PMU_NETBURST },
	{ 0xf12, INTEL, 15, 0x1, 0x2, "Willamette", PMU_NETBURST },
	{ 0xf29, INTEL, 15, 0x2, 0x9, "Northwood", PMU_NETBURST },
	{ 0xf34, INTEL, 15, 0x3, 0x4, "Prescott", PMU_NETBURST },
	{ 0xf41, INTEL, 15, 0x4, 0x1, "Prescott", PMU_NETBURST },
	{ 0xf43, INTEL, 15, 0x4, 0x3, "Prescott", PMU_NETBURST },
	{ 0xf4a, INTEL, 15, 0x4, 0xa, "Prescott", PMU_NETBURST },
	{ 0xf65, INTEL, 15, 0x6, 0x5, "Cedar Mill", PMU_NETBURST },
	/* Core 2 onwards: DisplayModel takes the extended model */
	{ 0x6f6, INTEL, 6, 0x0f, 0x6, "Conroe", PMU_ARCH },
	{ 0x6fb, INTEL, 6, 0x0f, 0xb, "Conroe", PMU_ARCH },
	{ 0x10676, INTEL, 6, 0x17, 0x6, "Penryn", PMU_ARCH },
	{ 0x1067a, INTEL, 6, 0x17, 0xa, "Penryn", PMU_ARCH },
	{ 0x106a5, INTEL, 6, 0x1a, 0x5, "Nehalem", PMU_ARCH },
	{ 0x106e5, INTEL, 6, 0x1e, 0x5, "Lynnfield", PMU_ARCH },
	{ 0x20655, INTEL, 6, 0x25, 0x5, "Westmere", PMU_ARCH },
	{ 0x206c2, INTEL, 6, 0x2c, 0x2, "Westmere-EP", PMU_ARCH },
	{ 0x206a7, INTEL, 6, 0x2a, 0x7, "Sandy Bridge", PMU_ARCH },
	{ 0x206d7, INTEL, 6, 0x2d, 0x7, "Sandy Bridge-EP", PMU_ARCH },
	{ 0x306a9, INTEL, 6, 0x3a, 0x9, "Ivy Bridge", PMU_ARCH },
	{ 0x306c3, INTEL, 6, 0x3c, 0x3, "Haswell", PMU_ARCH },
	{ 0x40651, INTEL, 6, 0x45, 0x1, "Haswell-ULT", PMU_ARCH },
	{ 0x306d4, INTEL, 6, 0x3d, 0x4, "Broadwell", PMU_ARCH },
	{ 0x406f1, INTEL, 6, 0x4f, 0x1, "Broadwell-EP", PMU_ARCH },
	{ 0x406e3, INTEL, 6, 0x4e, 0x3, "Skylake", PMU_ARCH },
	{ 0x506e3, INTEL, 6, 0x5e, 0x3, "Skylake", PMU_ARCH },
	{ 0x50654, INTEL, 6, 0x55, 0x4, "Skylake-SP", PMU_ARCH },
	{ 0x806ea, INTEL, 6, 0x8e, 0xa, "Kaby", PMU_ARCH },
	{ 0x906ea, INTEL, 6, 0x9e, 0xa, "Coffee Lake", PMU_ARCH },
	{ 0x706e5, INTEL, 6, 0x7e, 0x5, "Ice Lake", PMU_ARCH },
	{ 0x606a6, INTEL, 6, 0x6a, 0x6, "Ice Lake-SP", PMU_ARCH },
	{ 0x806c1, INTEL, 6, 0x8c, 0x1, "Tiger Lake", PMU_ARCH },
	{ 0xa0671, INTEL, 6, 0xa7, 0x1, "Rocket Lake", PMU_ARCH },
	{ 0x90672, INTEL, 6, 0x97, 0x2, "Alder Lake", PMU_ARCH },
	{ 0x906a3, INTEL, 6, 0x9a, 0x3, "Alder Lake-P", PMU_ARCH },
	{ 0xb0671, INTEL, 6, 0xb7, 0x1, "Raptor Lake", PMU_ARCH },
	{ 0xb06a2, INTEL, 6, 0xba, 0x2, "Raptor Lake-P", PMU_ARCH },
	{ 0x806f8, INTEL, 6, 0x8f, 0x8, "Sapphire Rapids", PMU_ARCH },
	/* Atom, Xeon Phi */
	{ 0x106c2, INTEL, 6, 0x1c, 0x2, "Atom", PMU_ARCH },
	{ 0x30661, INTEL, 6, 0x36, 0x1, "Cedarview", PMU_ARCH },
	{ 0x30678, INTEL, 6, 0x37, 0x8, "Bay Trail", PMU_ARCH },
	{ 0x50671, INTEL, 6, 0x57, 0x1, "Knights Landing", PMU_ARCH },
	/* AMD: extended model only for base family 0FH */
	{ 0x612, AMD, 6, 0x1, 0x2, "K7", PMU_UNSUPPORTED },
	{ 0x20f32, AMD, 15, 0x23, 0x2, NULL, PMU_UNSUPPORTED },
	{ 0x100f42, AMD, 0x10, 0x04, 0x2, "Deneb", PMU_UNSUPPORTED },
	{ 0x800f12, AMD, 0x17, 0x01, 0x2, "Zen", PMU_UNSUPPORTED },
	{ 0x830f10, AMD, 0x17, 0x31, 0x0, "Rome", PMU_UNSUPPORTED },
	{ 0x870f10, AMD, 0x17, 0x71, 0x0, "Matisse", PMU_UNSUPPORTED },
	{ 0xa00f11, AMD, 0x19, 0x01, 0x1, "Milan", PMU_UNSUPPORTED },
	{ 0xa20f10, AMD, 0x19, 0x21, 0x0, "Zen 3", PMU_UNSUPPORTED },
	{ 0xa60f12, AMD, 0x19, 0x61, 0x2, "Raphael", PMU_UNSUPPORTED },
};

static void test_decode_real(void **state)
{
	for (unsigned i = 0; i < N(sigs); i++) {
		const struct sig_case *c = &sigs[i];
		struct cpu_sig s;

		memset(&s, 0x5a, sizeof(s));
		cpu_sig_decode(c->eax, c->v, &s);
		if (s.family != c->family || s.model != c->model ||
		    s.stepping != c->stepping || s.raw != c->eax ||
		    s.type != 0)
			fail_msg("0x%x: family 0x%x model 0x%x stepping 0x%x "
				 "type %u, want 0x%x 0x%x 0x%x 0", c->eax,
				 s.family, s.model, s.stepping, s.type,
				 c->family, c->model, c->stepping);
	}
}

static void test_names_real(void **state)
{
	for (unsigned i = 0; i < N(sigs); i++) {
		const struct sig_case *c = &sigs[i];
		const struct cpu_model *m;
		const char *name;
		char buf[80];

		m = cpu_model_lookup(c->v, c->family, c->model);
		name = cpu_model_name(c->v, c->family, c->model, buf,
				      sizeof(buf));
		if (!c->word) {
			if (m || name != buf || strncmp(name, "unknown ", 8))
				fail_msg("0x%x: want no table row, got \"%s\"",
					 c->eax, name);
			continue;
		}
		if (!m || name != m->name || !strstr(name, c->word))
			fail_msg("0x%x: name \"%s\" lacks \"%s\"", c->eax,
				 name, c->word);
		if (m->vendor != c->v || m->family != c->family ||
		    m->model != c->model)
			fail_msg("0x%x: lookup gave the row of %d/0x%x/0x%x",
				 c->eax, m->vendor, m->family, m->model);
	}
}

static void test_pmu_real(void **state)
{
	for (unsigned i = 0; i < N(sigs); i++) {
		const struct sig_case *c = &sigs[i];
		enum pmu_kind k = cpu_pmu_kind(c->v, c->family, c->model,
					       PMU_NONE);

		if (k != c->pmu)
			fail_msg("0x%x: PMU %s, want %s", c->eax,
				 pmu_kind_name(k), pmu_kind_name(c->pmu));
	}
}

/* Synthetic signatures for the rules of SDM Vol. 2A CPUID.01H and APM
 * Vol. 3 CPUID Fn0000_0001_EAX. */
struct rule_case {
	uint32_t eax;
	enum cpu_vendor v;
	unsigned family, model, stepping, type;
};

static void test_decode_rules(void **state)
{
	static const struct rule_case cases[] = {
		/* base family 6: Intel takes the extended model, AMD not */
		{ 0x000106a5, INTEL, 6, 0x1a, 5, 0 },
		{ 0x000106a5, AMD, 6, 0x0a, 5, 0 },
		{ 0x000106a5, VENDOR_OTHER, 6, 0x1a, 5, 0 },
		{ 0x000f0612, AMD, 6, 0x01, 2, 0 },
		{ 0x000f0612, INTEL, 6, 0xf1, 2, 0 },
		/* base family 0FH: both take both extended fields */
		{ 0x00f20f10, AMD, 0x0f + 0x0f, 0x21, 0, 0 },
		{ 0x00f20f10, INTEL, 0x0f + 0x0f, 0x21, 0, 0 },
		{ 0x0ff00f00, INTEL, 0x0f + 0xff, 0x00, 0, 0 },
		{ 0x000f0ff0, INTEL, 15, 0xff, 0, 0 },
		{ 0x00900f01, VENDOR_OTHER, 0x18, 0x00, 1, 0 }, /* Hygon */
		/* other families: neither extended field */
		{ 0x00010543, INTEL, 5, 0x4, 3, 0 },
		{ 0x00f10543, AMD, 5, 0x4, 3, 0 },
		{ 0x00f00663, INTEL, 6, 0x06, 3, 0 },
		{ 0x00f00663, AMD, 6, 0x06, 3, 0 },
		{ 0x00010480, INTEL, 4, 0x8, 0, 0 },
		/* processor type, bits 13:12; bits 31:28 reserved */
		{ 0x00001632, INTEL, 6, 0x03, 2, 1 },
		{ 0x00002000, INTEL, 0, 0x0, 0, 2 },
		{ 0x00003000, INTEL, 0, 0x0, 0, 3 },
		{ 0xf00006f6, INTEL, 6, 0x0f, 6, 0 },
		{ 0xffffffff, INTEL, 0x10e, 0xff, 0xf, 3 },
		{ 0x00000000, INTEL, 0, 0, 0, 0 },
	};

	for (unsigned i = 0; i < N(cases); i++) {
		const struct rule_case *c = &cases[i];
		struct cpu_sig s;

		cpu_sig_decode(c->eax, c->v, &s);
		if (s.family != c->family || s.model != c->model ||
		    s.stepping != c->stepping || s.type != c->type ||
		    s.raw != c->eax)
			fail_msg("0x%08x vendor %d: family 0x%x model 0x%x "
				 "stepping 0x%x type %u, want 0x%x 0x%x 0x%x "
				 "%u", c->eax, c->v, s.family, s.model,
				 s.stepping, s.type, c->family, c->model,
				 c->stepping, c->type);
	}
}

struct vendor_case {
	const char *id;
	enum cpu_vendor v;
};

static void test_vendor(void **state)
{
	static const struct vendor_case cases[] = {
		{ "GenuineIntel", INTEL }, { "AuthenticAMD", AMD },
		{ "HygonGenuine", OTHER }, { "CentaurHauls", OTHER },
		{ "  Shanghai  ", OTHER }, { "GenuineIotel", OTHER },
		{ "genuineintel", OTHER }, { "AuthenticAMd", OTHER },
		{ "AMDisbetter!", OTHER }, { "            ", OTHER },
	};

	for (unsigned i = 0; i < N(cases); i++) {
		/* Exactly 12 bytes, no NUL: the sanitizer sees an overread. */
		char id[12];

		memcpy(id, cases[i].id, sizeof(id));
		if (cpu_vendor_from_id(id) != cases[i].v)
			fail_msg("\"%s\": vendor %d, want %d", cases[i].id,
				 cpu_vendor_from_id(id), cases[i].v);
	}
}

struct unknown_case {
	enum cpu_vendor v;
	unsigned family, model;
	const char *name;
};

static void test_unknown_names(void **state)
{
	static const struct unknown_case cases[] = {
		{ VENDOR_INTEL, 6, 0xf0, "unknown Intel family 6 model 0xf0" },
		{ VENDOR_INTEL, 6, 0x0c, "unknown Intel family 6 model 0xc" },
		{ VENDOR_INTEL, 15, 0x7, "unknown Intel family 15 model 0x7" },
		{ VENDOR_INTEL, 19, 0x1, "unknown Intel family 19 model 0x1" },
		{ VENDOR_AMD, 0x17, 0x99, "unknown AMD family 23 model 0x99" },
		{ VENDOR_AMD, 6, 0x1a, "unknown AMD family 6 model 0x1a" },
		{ VENDOR_OTHER, 6, 0x0f, "unknown x86 family 6 model 0xf" },
		{ VENDOR_OTHER, 0x18, 0x1, "unknown x86 family 24 model 0x1" },
	};

	for (unsigned i = 0; i < N(cases); i++) {
		const struct unknown_case *c = &cases[i];
		char buf[64];
		const char *name;

		assert_null(cpu_model_lookup(c->v, c->family, c->model));
		name = cpu_model_name(c->v, c->family, c->model, buf,
				      sizeof(buf));
		assert_ptr_equal(name, buf);
		assert_string_equal(name, c->name);
	}
}

static void test_name_small_buffer(void **state)
{
	char buf[12];
	const char *name;

	memset(buf, 'Z', sizeof(buf));
	name = cpu_model_name(VENDOR_INTEL, 6, 0xf0, buf, 10);
	assert_ptr_equal(name, buf);
	assert_string_equal(name, "unknown I");
	assert_int_equal(buf[10], 'Z');
	/* A known model does not touch the buffer. */
	memset(buf, 'Z', sizeof(buf));
	name = cpu_model_name(VENDOR_INTEL, 6, 0x3c, buf, sizeof(buf));
	assert_ptr_not_equal(name, buf);
	assert_int_equal(buf[0], 'Z');
}

/* The PMU kind of an Intel or AMD signature, restated here by family:
 * P5 family 5 (SDM Vol. 3B §18.23) but the Quark SoC X1000 (05_09H: no
 * CESR, its Core Developer's Manual's MSR list), NetBurst family 15
 * (§18.16), P6 family 6 up to 06_0DH (§18.22), architectural perfmon
 * from Yonah, 06_0EH, on (§18.2; Vol. 4 Table 2-1). */
static enum pmu_kind family_rule(enum cpu_vendor v, unsigned f, unsigned m)
{
	if (v == AMD)	/* K7 and later have a PMU without a driver */
		return f >= 6 ? PMU_UNSUPPORTED : PMU_NONE;
	if (v != INTEL)
		return PMU_NONE;
	if (f == 5 && m == 9)	/* Quark X1000: no CESR */
		return PMU_NONE;
	if (f == 5)
		return PMU_P5;
	if (f == 15)
		return PMU_NETBURST;
	if (f != 6)
		return PMU_NONE;
	return m <= 0x0d ? PMU_P6 : PMU_ARCH;
}

/* Checks the row for v/f/m if there is one; returns 1 if there is. */
static int check_row(enum cpu_vendor v, unsigned f, unsigned m)
{
	const struct cpu_model *r = cpu_model_lookup(v, f, m);

	if (!r)
		return 0;
	assert_int_equal(r->vendor, v);
	assert_int_equal(r->family, f);
	assert_int_equal(r->model, m);
	assert_non_null(r->name);
	assert_true(r->name[0] != 0);
	return 1;
}

/* The kind the generations' descriptors give a signature without
 * CPUID.0AH agrees with the family rule above. */
static void check_kind(enum cpu_vendor v, unsigned f, unsigned m)
{
	enum pmu_kind k = cpu_pmu_kind(v, f, m, PMU_NONE);

	if (k != family_rule(v, f, m))
		fail_msg("%u/0x%x/0x%x: PMU %s, want %s", v, f, m,
			 pmu_kind_name(k), pmu_kind_name(family_rule(v, f, m)));
}

/* Every row is found under its own key and is named; every signature,
 * listed or not, has the PMU kind of the family rule. */
static void test_table_consistent(void **state)
{
	static const enum cpu_vendor vendors[] = { INTEL, AMD, OTHER };
	unsigned rows = 0;

	for (unsigned vi = 0; vi < N(vendors); vi++)
		for (unsigned f = 0; f < 0x20; f++)
			for (unsigned m = 0; m < 0x100; m++) {
				rows += check_row(vendors[vi], f, m);
				check_kind(vendors[vi], f, m);
			}
	assert_true(rows > 100);
	assert_null(cpu_model_lookup(OTHER, 6, 0x3c));
}

struct pmu_case {
	enum cpu_vendor v;
	unsigned family, model;
	enum pmu_kind reported;		/* what a detect hook said */
	enum pmu_kind pmu;
};

static void test_pmu_kind(void **state)
{
	static const struct pmu_case cases[] = {
		/* the generation the CPU reports itself (arch perfmon:
		 * CPUID.0AH version >= 1) wins on Intel */
		{ INTEL, 6, 0x3c, PMU_ARCH, PMU_ARCH },
		{ INTEL, 6, 0x0e, PMU_ARCH, PMU_ARCH },
		{ INTEL, 6, 0x08, PMU_ARCH, PMU_ARCH },
		{ INTEL, 5, 0x04, PMU_ARCH, PMU_ARCH },
		{ INTEL, 19, 0x01, PMU_ARCH, PMU_ARCH },
		{ INTEL, 6, 0xf0, PMU_ARCH, PMU_ARCH },
		/* else the table */
		{ INTEL, 5, 0x02, PMU_NONE, PMU_P5 },
		{ INTEL, 6, 0x07, PMU_NONE, PMU_P6 },
		{ INTEL, 6, 0x0d, PMU_NONE, PMU_P6 },
		{ INTEL, 6, 0x0f, PMU_NONE, PMU_ARCH },
		{ INTEL, 15, 0x02, PMU_NONE, PMU_NETBURST },
		/* else the family rule */
		{ INTEL, 5, 0x0a, PMU_NONE, PMU_P5 },
		{ INTEL, 15, 0x07, PMU_NONE, PMU_NETBURST },
		{ INTEL, 15, 0x3f, PMU_NONE, PMU_NETBURST },
		{ INTEL, 6, 0x00, PMU_NONE, PMU_P6 },
		{ INTEL, 6, 0x02, PMU_NONE, PMU_P6 },
		{ INTEL, 6, 0x04, PMU_NONE, PMU_P6 },
		{ INTEL, 6, 0x0c, PMU_NONE, PMU_P6 },
		{ INTEL, 6, 0x10, PMU_NONE, PMU_ARCH },
		{ INTEL, 6, 0xf0, PMU_NONE, PMU_ARCH },
		{ INTEL, 4, 0x08, PMU_NONE, PMU_NONE },
		{ INTEL, 19, 0x01, PMU_NONE, PMU_NONE },
		/* AMD from K7 on: a PMU without a driver, whatever 0AH says */
		{ AMD, 0x17, 0x01, PMU_NONE, PMU_UNSUPPORTED },
		{ AMD, 0x19, 0x21, PMU_ARCH, PMU_UNSUPPORTED },
		{ AMD, 6, 0x01, PMU_NONE, PMU_UNSUPPORTED },
		{ AMD, 15, 0x05, PMU_NONE, PMU_UNSUPPORTED },
		{ AMD, 5, 0x06, PMU_NONE, PMU_NONE },		/* K6 */
		{ INTEL, 5, 0x09, PMU_NONE, PMU_NONE },	/* Quark X1000 */
		{ VENDOR_OTHER, 6, 0x0f, PMU_NONE, PMU_NONE },
		{ VENDOR_OTHER, 6, 0x0f, PMU_ARCH, PMU_NONE },
	};

	for (unsigned i = 0; i < N(cases); i++) {
		const struct pmu_case *c = &cases[i];
		enum pmu_kind k = cpu_pmu_kind(c->v, c->family, c->model,
					       c->reported);

		if (k != c->pmu)
			fail_msg("vendor %d family 0x%x model 0x%x reported %s:"
				 " %s, want %s", c->v, c->family, c->model,
				 pmu_kind_name(c->reported), pmu_kind_name(k),
				 pmu_kind_name(c->pmu));
	}
}

struct shape_case {
	enum pmu_kind k;
	const char *name;
	unsigned counters, width;
};

/* The shape each generation's descriptor gives: P5 CTR0/CTR1 of 40 bits
 * (SDM Vol. 3B §18.23), P6 PerfCtr0/1 of 40 bits (§18.22), NetBurst 18
 * counters of 40 bits (§18.16.2); arch perfmon what CPUID.0AH reports
 * (§18.2.1.1: EAX[15:8] counters, EAX[23:16] width), here 4 of 48. */
static void test_kind_name_and_shape(void **state)
{
	static const struct shape_case cases[] = {
		{ PMU_NONE, "none", 0, 0 },
		{ PMU_P5, "p5", 2, 40 },
		{ PMU_P6, "p6", 2, 40 },
		{ PMU_NETBURST, "netburst", 18, 40 },
		{ PMU_ARCH, "arch-perfmon", 4, 48 },
	};
	struct cpu_info ci = { .report.cpuid = { 4 << 8 | 48 << 16 } };

	for (unsigned i = 0; i < N(cases); i++) {
		unsigned counters = 99, width = 99;

		assert_string_equal(pmu_kind_name(cases[i].k), cases[i].name);
		pmu_generation_shape(cases[i].k, &ci, &counters, &width);
		assert_int_equal(counters, cases[i].counters);
		assert_int_equal(width, cases[i].width);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_real),
		cmocka_unit_test(test_names_real),
		cmocka_unit_test(test_pmu_real),
		cmocka_unit_test(test_decode_rules),
		cmocka_unit_test(test_vendor),
		cmocka_unit_test(test_unknown_names),
		cmocka_unit_test(test_name_small_buffer),
		cmocka_unit_test(test_table_consistent),
		cmocka_unit_test(test_pmu_kind),
		cmocka_unit_test(test_kind_name_and_shape),
	};

	return cmocka_run_group_tests_name("cpu_model", tests, NULL, NULL);
}
