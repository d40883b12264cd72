/* watchdog_route: the watchdog's path for a machine (watchdog_route.h). */
#include "watchdog_route.h"

/* The HPET where it reaches a pin (the firmware's boards and ours).  A
 * BIOS boot owns the ISA timers: the PIT then, as an NMI through the
 * I/O APIC or, with none, the 8259 into LINT0 (both need the local APIC:
 * an I/O APIC message and LINT0 are its inputs, SDM Vol. 3A §10.1); with
 * no local APIC the 8259's INTR reaches the processor's INTR pin as a
 * maskable interrupt, the one path left. */
enum wd_route wd_route_pick(const struct wd_machine *m)
{
	if (m->hpet_ok)
		return WD_ROUTE_HPET;
	if (!m->own_isa)
		return WD_ROUTE_NONE;
	if (!m->local_apic)
		return WD_ROUTE_PIT_IRQ;
	return m->n_ioapics ? WD_ROUTE_PIT_IOAPIC : WD_ROUTE_PIT_LINT0;
}

/* IF = 0 masks the maskable interrupts on INTR, never an NMI (SDM Vol. 3A
 * §6.8.1). */
int wd_route_stops_irq_off(enum wd_route r)
{
	return r == WD_ROUTE_HPET || r == WD_ROUTE_PIT_IOAPIC ||
	       r == WD_ROUTE_PIT_LINT0;
}
