/* Host tests for arch/x86/watchdog_route.c: which path the watchdog's
 * timer takes on each kind of machine, and which paths stop a hang with
 * interrupts off.  The expected routes restate the hardware's wiring:
 *   - an I/O APIC's messages and LINT0 are local APIC inputs (SDM Vol. 3A
 *     §10.1, Figure 10-1 and §10.5.1): without a local APIC
 *     (CPUID.01H:EDX.APIC[bit 9] = 0, SDM Vol. 2A CPUID, Table 3-11) only
 *     the 8259's INTR reaches the processor, however many I/O APICs the
 *     ACPI tables list;
 *   - an I/O APIC entry and LINT0 can deliver an NMI (82093AA datasheet
 *     §3.2.4; SDM Vol. 3A §10.5.1); INTR is a maskable interrupt;
 *   - IF = 0 masks the maskable interrupts, never an NMI (SDM Vol. 3A
 *     §6.8.1);
 *   - under UEFI the PIT and the 8259s are the firmware's (the harness
 *     takes none of them): no HPET there leaves no timer at all. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "arch/x86/watchdog_route.h"

/* host-sources: arch/x86/watchdog_route.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *machine;
	struct wd_machine m;
	enum wd_route route;
} cases[] = {
	{ "UEFI, free HPET timer",
	  { .hpet_ok = 1, .own_isa = 0, .local_apic = 1, .n_ioapics = 1 },
	  WD_ROUTE_HPET },
	{ "UEFI, no HPET: the PIT is the firmware's",
	  { .hpet_ok = 0, .own_isa = 0, .local_apic = 1, .n_ioapics = 1 },
	  WD_ROUTE_NONE },
	{ "UEFI, no HPET, no local APIC",
	  { .hpet_ok = 0, .own_isa = 0, .local_apic = 0, .n_ioapics = 0 },
	  WD_ROUTE_NONE },
	{ "BIOS, HPET on the PIT's GSI (i440FX)",
	  { .hpet_ok = 1, .own_isa = 1, .local_apic = 1, .n_ioapics = 1 },
	  WD_ROUTE_HPET },
	{ "BIOS, P6 board: no HPET, an I/O APIC",
	  { .hpet_ok = 0, .own_isa = 1, .local_apic = 1, .n_ioapics = 1 },
	  WD_ROUTE_PIT_IOAPIC },
	{ "BIOS, no ACPI tables: no I/O APIC known",
	  { .hpet_ok = 0, .own_isa = 1, .local_apic = 1, .n_ioapics = 0 },
	  WD_ROUTE_PIT_LINT0 },
	{ "BIOS, 486 / Pentium without the APIC, no I/O APIC",
	  { .hpet_ok = 0, .own_isa = 1, .local_apic = 0, .n_ioapics = 0 },
	  WD_ROUTE_PIT_IRQ },
	{ "BIOS, no local APIC, an I/O APIC in the tables",
	  { .hpet_ok = 0, .own_isa = 1, .local_apic = 0, .n_ioapics = 1 },
	  WD_ROUTE_PIT_IRQ },
};

static void test_pick(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		enum wd_route r = wd_route_pick(&cases[i].m);

		if (r != cases[i].route)
			fail_msg("%s: route %d, expected %d", cases[i].machine,
				 (int)r, (int)cases[i].route);
	}
}

static void test_stops_irq_off(void **state)
{
	(void)state;
	/* NMI routes */
	assert_int_equal(wd_route_stops_irq_off(WD_ROUTE_HPET), 1);
	assert_int_equal(wd_route_stops_irq_off(WD_ROUTE_PIT_IOAPIC), 1);
	assert_int_equal(wd_route_stops_irq_off(WD_ROUTE_PIT_LINT0), 1);
	/* INTR: masked by IF = 0 */
	assert_int_equal(wd_route_stops_irq_off(WD_ROUTE_PIT_IRQ), 0);
	assert_int_equal(wd_route_stops_irq_off(WD_ROUTE_NONE), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_stops_irq_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
