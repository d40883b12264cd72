/* Host tests for arch/x86/acpi.c: the HPET base and the MADT's I/O APICs
 * found from an RSDP through the XSDT (revision 2) or the RSDT (revision
 * 0), and every damaged structure refused rather than trusted: bad RSDP
 * checksum, bad table checksum, absurd length, HPET in I/O space, a MADT
 * entry of length 0 (ACPI 6.3 §5.2.5.3, §5.2.6, §5.2.12; HPET spec 1.0a
 * Table 3); the FADT's PM timer port and width (ACPI 6.3 §5.2.9, Table
 * 5-34: PM_TMR_BLK at byte 76, PM_TMR_LEN at 91, Flags at 112 with
 * TMR_VAL_EXT bit 8 (Table 5-35), X_PM_TMR_BLK at 208, a Generic Address
 * Structure whose address space 1 is system I/O, §5.2.3.2); the MADT's
 * Processor Local APIC entries (§5.2.12.2, Table 5-46: type 0, length 8,
 * ACPI processor UID at byte 2, APIC ID at 3, flags at 4; Table 5-47:
 * bit 0 Enabled, bit 1 Online Capable).  The tables are built here, byte
 * by byte, in one buffer. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <sys/mman.h>

#include "arch/x86/acpi.h"

/* host-sources: arch/x86/acpi.c lib/string.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))

enum damage {
	NONE, RSDP_SUM, XSDT_SUM, HPET_SUM, HPET_IO, HPET_LEN, MADT_ZERO_ENTRY,
	NO_HPET, NO_IOAPIC, RSDT_ONLY, NO_PIT_OVERRIDE,
};

struct tables {
	uint8_t rsdp[36] __attribute__((aligned(16)));
	uint8_t xsdt[36 + 3 * 8];
	uint8_t rsdt[36 + 3 * 4];
	uint8_t hpet[56];
	uint8_t madt[44 + 8 + 12 + 12 + 10 + 8];
	uint8_t facp[244];	/* ACPI 6.3 Table 5-34: 276 in 6.3; 244 in 2.0 */
	/* The processors' tables: an RSDT naming one MADT. */
	uint8_t cpu_rsdp[20] __attribute__((aligned(16)));
	uint8_t cpu_rsdt[36 + 4];
	uint8_t cpu_madt[44 + 12 + 4 * 8 + 6 + 8];
};

/* Below 4 GiB (MAP_32BIT), so the RSDT's 32-bit entries reach them. */
static struct tables *tbp;
#define tb (*tbp)

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

static void fix_sum(uint8_t *p, unsigned len, unsigned at)
{
	uint8_t s = 0;

	p[at] = 0;
	for (unsigned i = 0; i < len; i++)
		s = (uint8_t)(s + p[i]);
	p[at] = (uint8_t)-s;
}

static void header(uint8_t *t, const char *sig, unsigned len)
{
	memset(t, 0, len);
	memcpy(t, sig, 4);
	put32(t + 4, len);
	t[8] = 1;
}

static void build(enum damage d)
{
	uint8_t *e;

	header(tb.facp, "FACP", sizeof(tb.facp));
	fix_sum(tb.facp, sizeof(tb.facp), 9);

	header(tb.hpet, d == NO_HPET ? "HPEX" : "HPET", sizeof(tb.hpet));
	tb.hpet[40] = d == HPET_IO ? 1 : 0;	/* GAS: memory space */
	put64(tb.hpet + 44, 0xfed00000);
	if (d == HPET_LEN)
		put32(tb.hpet + 4, 40);		/* too short for the GAS */
	fix_sum(tb.hpet, d == HPET_LEN ? 40 : sizeof(tb.hpet), 9);
	if (d == HPET_SUM)
		tb.hpet[50] ^= 1;

	header(tb.madt, "APIC", sizeof(tb.madt));
	e = tb.madt + 44;
	e[0] = 0; e[1] = 8;			/* a local APIC entry */
	e += 8;
	e[0] = 1; e[1] = 12; e[2] = 3;		/* I/O APIC 3 */
	put32(e + 4, 0xfec00000);
	put32(e + 8, 0);
	e += 12;
	e[0] = d == NO_IOAPIC ? 2 : 1;
	e[1] = d == MADT_ZERO_ENTRY ? 0 : 12;	/* I/O APIC 4 */
	e[2] = 4;
	put32(e + 4, 0xfec01000);
	put32(e + 8, 24);
	e += 12;
	/* An Interrupt Source Override (ACPI 6.3 Table 5-50): ISA (bus 0)
	 * IRQ 0, the PIT, enters at GSI 2, flags 0x0005 (MPS INTI flags,
	 * Table 5-51: polarity 01 active high, trigger 01 edge), as QEMU's
	 * and most PC firmware's MADT say; or IRQ 9 (the SCI's usual
	 * override), which says nothing of the PIT. */
	e[0] = 2; e[1] = 10; e[2] = 0;
	e[3] = d == NO_PIT_OVERRIDE ? 9 : 0;
	put32(e + 4, d == NO_PIT_OVERRIDE ? 9 : 2);
	e[8] = 0x05; e[9] = 0x00;
	e += 10;
	e[0] = 4; e[1] = 6;			/* local APIC NMI, 6 bytes */
	if (d == NO_IOAPIC)
		tb.madt[44 + 8] = 2;
	fix_sum(tb.madt, sizeof(tb.madt), 9);

	header(tb.xsdt, "XSDT", sizeof(tb.xsdt));
	put64(tb.xsdt + 36, (uint64_t)(uintptr_t)tb.facp);
	put64(tb.xsdt + 44, (uint64_t)(uintptr_t)tb.madt);
	put64(tb.xsdt + 52, (uint64_t)(uintptr_t)tb.hpet);
	fix_sum(tb.xsdt, sizeof(tb.xsdt), 9);
	if (d == XSDT_SUM)
		tb.xsdt[40] ^= 1;

	/* The RSDT lists the same tables by 32-bit address. */
	header(tb.rsdt, "RSDT", sizeof(tb.rsdt));
	put32(tb.rsdt + 36, (uint32_t)(uintptr_t)tb.facp);
	put32(tb.rsdt + 40, (uint32_t)(uintptr_t)tb.madt);
	put32(tb.rsdt + 44, (uint32_t)(uintptr_t)tb.hpet);
	fix_sum(tb.rsdt, sizeof(tb.rsdt), 9);

	memset(tb.rsdp, 0, sizeof(tb.rsdp));
	memcpy(tb.rsdp, "RSD PTR ", 8);
	tb.rsdp[15] = d == RSDT_ONLY ? 0 : 2;
	put32(tb.rsdp + 16, (uint32_t)(uintptr_t)tb.rsdt);
	put32(tb.rsdp + 20, 36);
	put64(tb.rsdp + 24, (uint64_t)(uintptr_t)tb.xsdt);
	fix_sum(tb.rsdp, 20, 8);
	fix_sum(tb.rsdp, 36, 32);
	if (d == RSDP_SUM)
		tb.rsdp[10] ^= 1;
}

struct acpi_case {
	const char *what;
	enum damage damage;
	const char *why;		/* NULL: found */
	unsigned n_ioapics;
	/* The PIT's GSI and flags: the override's, or ISA IRQ 0 = GSI 0
	 * with flags 0 (ACPI 6.3 §5.2.12.5: identity-mapped otherwise). */
	uint32_t pit_gsi;
	uint16_t pit_flags;
};

static const struct acpi_case cases[] = {
	{ .what = "good XSDT", .damage = NONE, .n_ioapics = 2, .pit_gsi = 2,
	  .pit_flags = 0x0005 },
	{ .what = "no override for IRQ 0: GSI 0", .damage = NO_PIT_OVERRIDE,
	  .n_ioapics = 2, .pit_gsi = 0, .pit_flags = 0 },
	{ .what = "RSDP checksum", .damage = RSDP_SUM,
	  .why = "no valid ACPI RSDP/XSDT/RSDT" },
	{ .what = "HPET checksum", .damage = HPET_SUM,
	  .why = "no ACPI HPET table" },
	{ .what = "HPET too short", .damage = HPET_LEN,
	  .why = "no ACPI HPET table" },
	{ .what = "HPET in I/O space", .damage = HPET_IO,
	  .why = "the HPET is not in memory space" },
	{ .what = "no HPET", .damage = NO_HPET, .why = "no ACPI HPET table" },
	{ .what = "zero-length MADT entry stops the walk",
	  .damage = MADT_ZERO_ENTRY, .n_ioapics = 1 },
	{ .what = "no I/O APIC", .damage = NO_IOAPIC,
	  .why = "the MADT lists no I/O APIC" },
	{ .what = "revision 0: the RSDT", .damage = RSDT_ONLY,
	  .n_ioapics = 2, .pit_gsi = 2, .pit_flags = 0x0005 },
	{ .what = "damaged XSDT: the RSDT instead", .damage = XSDT_SUM,
	  .n_ioapics = 2, .pit_gsi = 2, .pit_flags = 0x0005 },
};

/* A BIOS boot without an HPET still routes the PIT through the I/O
 * APIC: the MADT's part is filled whatever the HPET table says. */
static void check_madt_without_hpet(const struct acpi_case *c,
				    const struct acpi_timers *t)
{
	if (t->hpet_base != 0 || t->n_ioapics != 2 || t->pit_gsi != 2 ||
	    t->pit_flags != 0x0005)
		fail_msg("%s: hpet 0x%llx, %u I/O APICs, PIT GSI %u flags "
			 "0x%x; want 0, 2, 2, 0x5", c->what,
			 (unsigned long long)t->hpet_base, t->n_ioapics,
			 t->pit_gsi, t->pit_flags);
}

static void test_cases(void **state)
{
	for (unsigned i = 0; i < N(cases); i++) {
		const struct acpi_case *c = &cases[i];
		struct acpi_timers t;
		const char *why;

		build(c->damage);
		why = acpi_timers((uint64_t)(uintptr_t)tb.rsdp, &t);
		if (c->damage == NO_HPET)
			check_madt_without_hpet(c, &t);
		if (c->why) {
			if (!why || strcmp(why, c->why))
				fail_msg("%s: got \"%s\", want \"%s\"", c->what,
					 why ? why : "(found)", c->why);
			continue;
		}
		if (why)
			fail_msg("%s: %s", c->what, why);
		assert_int_equal(t.hpet_base, 0xfed00000);
		if (t.n_ioapics != c->n_ioapics)
			fail_msg("%s: %u I/O APICs, want %u", c->what,
				 t.n_ioapics, c->n_ioapics);
		assert_int_equal(t.ioapic[0].id, 3);
		assert_int_equal(t.ioapic[0].base, 0xfec00000);
		if (c->n_ioapics > 1) {
			assert_int_equal(t.ioapic[1].base, 0xfec01000);
			assert_int_equal(t.ioapic[1].gsi_base, 24);
		}
		if (t.pit_gsi != c->pit_gsi || t.pit_flags != c->pit_flags)
			fail_msg("%s: PIT at GSI %u flags 0x%x, want %u 0x%x",
				 c->what, t.pit_gsi, t.pit_flags, c->pit_gsi,
				 c->pit_flags);
	}
}

static void test_find(void **state)
{
	build(NONE);
	assert_ptr_equal(acpi_find((uint64_t)(uintptr_t)tb.rsdp, "FACP"),
			 tb.facp);
	assert_ptr_equal(acpi_find((uint64_t)(uintptr_t)tb.rsdp, "APIC"),
			 tb.madt);
	assert_null(acpi_find((uint64_t)(uintptr_t)tb.rsdp, "SSDT"));
	assert_null(acpi_find(0, "APIC"));
}

struct pm_case {
	const char *what;
	unsigned len;			/* the FADT's length */
	uint32_t blk;			/* PM_TMR_BLK */
	uint8_t blk_len;		/* PM_TMR_LEN */
	uint32_t flags;
	uint8_t x_space;		/* X_PM_TMR_BLK's address space */
	uint64_t x_addr;
	int bad_sum;
	uint16_t port;			/* expected */
	uint32_t mask;
	const char *why;		/* expected error, NULL: found */
};

static const struct pm_case pm_cases[] = {
	{ .what = "ACPI 1.0 FADT, 24-bit", .len = 116, .blk = 0x608,
	  .blk_len = 4, .port = 0x608, .mask = 0xffffff },
	{ .what = "TMR_VAL_EXT: 32-bit", .len = 116, .blk = 0x608,
	  .blk_len = 4, .flags = 1u << 8, .port = 0x608,
	  .mask = 0xffffffff },
	{ .what = "X_PM_TMR_BLK in I/O space first", .len = 244,
	  .blk = 0x608, .blk_len = 4, .x_space = 1, .x_addr = 0xb008,
	  .port = 0xb008, .mask = 0xffffff },
	{ .what = "X_PM_TMR_BLK in memory space: PM_TMR_BLK", .len = 244,
	  .blk = 0x408, .blk_len = 4, .x_space = 0, .x_addr = 0xfed00000,
	  .port = 0x408, .mask = 0xffffff },
	{ .what = "PM_TMR_LEN 0: none", .len = 244, .blk = 0x608,
	  .why = "the FADT names no PM timer port" },
	{ .what = "too short for PM_TMR_LEN", .len = 80, .blk = 0x608,
	  .why = "the FADT names no PM timer port" },
	{ .what = "FADT checksum", .len = 116, .blk = 0x608, .blk_len = 4,
	  .bad_sum = 1, .why = "no ACPI FADT (or no valid RSDP)" },
};

static void build_fadt(const struct pm_case *c)
{
	build(NONE);
	header(tb.facp, "FACP", c->len);
	put32(tb.facp + 76, c->blk);
	if (c->len > 91)
		tb.facp[91] = c->blk_len;
	if (c->len >= 116)
		put32(tb.facp + 112, c->flags);
	if (c->len >= 220) {
		tb.facp[208] = c->x_space;
		put64(tb.facp + 212, c->x_addr);
	}
	fix_sum(tb.facp, c->len, 9);
	if (c->bad_sum)
		tb.facp[77] ^= 1;
}

static void test_pm_timer(void **state)
{
	for (unsigned i = 0; i < N(pm_cases); i++) {
		const struct pm_case *c = &pm_cases[i];
		struct acpi_pm_timer pm;
		const char *why;

		build_fadt(c);
		why = acpi_pm_timer((uint64_t)(uintptr_t)tb.rsdp, &pm);
		if (c->why) {
			if (!why || strcmp(why, c->why))
				fail_msg("%s: got \"%s\", want \"%s\"", c->what,
					 why ? why : "(found)", c->why);
			continue;
		}
		if (why || pm.port != c->port || pm.mask != c->mask)
			fail_msg("%s: %s, port 0x%x mask 0x%x; want 0x%x 0x%x",
				 c->what, why ? why : "found", pm.port, pm.mask,
				 c->port, c->mask);
	}
}

enum cpu_damage { CPUS_GOOD, CPUS_NONE, CPUS_ZERO_ENTRY, CPUS_NO_MADT };

/* The MADT of QEMU -smp 2,maxcpus=3 plus one: an I/O APIC entry, then
 * Processor Local APIC entries for APIC IDs 0 and 1 (Enabled), 2 (Online
 * Capable: hot-pluggable), 7 (neither), a local APIC NMI entry and one
 * more processor, APIC ID 9 (Enabled), after it. */
static void build_cpus(enum cpu_damage d)
{
	static const struct { uint8_t uid, id; uint32_t flags; } cpu[] = {
		{ 0, 0, 1 }, { 1, 1, 1 }, { 2, 2, 2 }, { 3, 7, 0 },
	};
	uint8_t *e;

	header(tb.cpu_madt, "APIC", sizeof(tb.cpu_madt));
	put32(tb.cpu_madt + 36, 0xfee00000);	/* local APIC address */
	e = tb.cpu_madt + 44;
	e[0] = 1; e[1] = 12; e[2] = 2;		/* I/O APIC 2 */
	put32(e + 4, 0xfec00000);
	e += 12;
	for (unsigned i = 0; i < N(cpu); i++, e += 8) {
		e[0] = d == CPUS_NONE ? 0x7f : 0;
		e[1] = d == CPUS_ZERO_ENTRY && i == 2 ? 0 : 8;
		e[2] = cpu[i].uid;
		e[3] = cpu[i].id;
		put32(e + 4, cpu[i].flags);
	}
	e[0] = 4; e[1] = 6;			/* local APIC NMI */
	e += 6;
	e[0] = d == CPUS_NONE ? 0x7f : 0; e[1] = 8; e[2] = 4; e[3] = 9;
	put32(e + 4, 1);
	fix_sum(tb.cpu_madt, sizeof(tb.cpu_madt), 9);

	header(tb.cpu_rsdt, "RSDT", sizeof(tb.cpu_rsdt));
	put32(tb.cpu_rsdt + 36, d == CPUS_NO_MADT ?
	      (uint32_t)(uintptr_t)tb.facp : (uint32_t)(uintptr_t)tb.cpu_madt);
	fix_sum(tb.cpu_rsdt, sizeof(tb.cpu_rsdt), 9);

	memset(tb.cpu_rsdp, 0, sizeof(tb.cpu_rsdp));
	memcpy(tb.cpu_rsdp, "RSD PTR ", 8);
	put32(tb.cpu_rsdp + 16, (uint32_t)(uintptr_t)tb.cpu_rsdt);
	fix_sum(tb.cpu_rsdp, 20, 8);
}

static void test_lapics(void **state)
{
	struct acpi_lapic l[8];
	unsigned total;

	build(NONE);			/* the FADT the no-MADT RSDT names */
	build_cpus(CPUS_GOOD);
	assert_null(acpi_lapics((uint64_t)(uintptr_t)tb.cpu_rsdp, l, N(l),
				&total));
	assert_int_equal(total, 5);
	assert_int_equal(l[0].apic_id, 0);
	assert_int_equal(l[0].flags, ACPI_LAPIC_ENABLED);
	assert_int_equal(l[1].uid, 1);
	assert_int_equal(l[1].apic_id, 1);
	assert_int_equal(l[2].apic_id, 2);
	assert_int_equal(l[2].flags, ACPI_LAPIC_ONLINE_CAPABLE);
	assert_int_equal(l[3].apic_id, 7);
	assert_int_equal(l[3].flags, 0);
	assert_int_equal(l[4].uid, 4);
	assert_int_equal(l[4].apic_id, 9);	/* past the NMI entry */

	/* Room for two: both kept, all five counted. */
	assert_null(acpi_lapics((uint64_t)(uintptr_t)tb.cpu_rsdp, l, 2,
				&total));
	assert_int_equal(total, 5);

	/* A zero-length entry ends the walk: the two before it. */
	build_cpus(CPUS_ZERO_ENTRY);
	assert_null(acpi_lapics((uint64_t)(uintptr_t)tb.cpu_rsdp, l, N(l),
				&total));
	assert_int_equal(total, 2);

	build_cpus(CPUS_NONE);
	assert_string_equal(acpi_lapics((uint64_t)(uintptr_t)tb.cpu_rsdp, l,
					N(l), &total),
			    "the ACPI MADT lists no Processor Local APIC");
	assert_int_equal(total, 0);
	build_cpus(CPUS_NO_MADT);
	assert_string_equal(acpi_lapics((uint64_t)(uintptr_t)tb.cpu_rsdp, l,
					N(l), &total), "no ACPI MADT");
	assert_string_equal(acpi_lapics(0, l, N(l), &total),
			    "no valid ACPI RSDP/XSDT/RSDT");
	/* The main tables' MADT: its one local APIC entry has length 8 and
	 * type 0, APIC ID 0. */
	build(NONE);
	assert_null(acpi_lapics((uint64_t)(uintptr_t)tb.rsdp, l, N(l),
				&total));
	assert_int_equal(total, 1);
}

int main(void)
{
	tbp = mmap(NULL, sizeof(*tbp), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (tbp == MAP_FAILED)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_pm_timer),
		cmocka_unit_test(test_lapics),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
