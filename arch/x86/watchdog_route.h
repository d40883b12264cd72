/* watchdog_route: which path the watchdog's timer takes to the processor
 * on a given machine, and which hangs that path can stop (watchdog.h).
 * Pure decisions: no hardware is touched here. */
#ifndef ARCH_X86_WATCHDOG_ROUTE_H
#define ARCH_X86_WATCHDOG_ROUTE_H

enum wd_route {
	WD_ROUTE_NONE,		/* nothing can end a test at its limit */
	WD_ROUTE_HPET,		/* HPET timer, I/O APIC pin, NMI */
	WD_ROUTE_PIT_IOAPIC,	/* PIT, the I/O APIC pin of its GSI, NMI */
	WD_ROUTE_PIT_LINT0,	/* PIT, 8259 IR0, local APIC LINT0, NMI */
	WD_ROUTE_PIT_IRQ,	/* PIT, 8259 IR0, INTR: a maskable interrupt */
};

/* What the machine offers, as found by watchdog_init(). */
struct wd_machine {
	int hpet_ok;		/* a free HPET timer reaches a free pin */
	int own_isa;		/* a BIOS boot: the PIT and 8259s are ours */
	int local_apic;		/* a usable local APIC (apic_init()) */
	unsigned n_ioapics;	/* I/O APICs in the ACPI tables */
};

enum wd_route wd_route_pick(const struct wd_machine *m);
/* 1 when the route stops a hang with RFLAGS.IF = 0 (an NMI route). */
int wd_route_stops_irq_off(enum wd_route r);

#endif
