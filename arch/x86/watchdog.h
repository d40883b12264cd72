/* watchdog: the per-test time limit's enforcer.  A test that runs past its
 * limit is interrupted by a non-maskable interrupt and ended like a test
 * that faulted, wherever it was: at CPL 0 with interrupts off, at CPL 3,
 * inside a single-step trace.
 *
 * Why an NMI, and why the HPET: a hang with IF = 0 ("cli; jmp .") blocks
 * every maskable interrupt, the local APIC timer included; its LVT entry
 * has no delivery-mode field (SDM Vol. 3A §10.5.1, Figure 10-8), so it
 * cannot raise an NMI.  An I/O APIC redirection entry can (delivery mode
 * NMI, 82093AA datasheet §3.2.4), and the HPET's timers drive I/O APIC
 * pins (HPET spec 1.0a §2.3.8, Tn_INT_ROUTE_CNF) as one-shot comparators
 * of a free-running counter, so one NMI arrives at the limit and none
 * before it (the PMI tests count NMIs).  Under UEFI the PIT is the
 * firmware's own tick, not ours to take.
 *
 * A legacy-BIOS boot (own_isa): the harness owns the 8259s, the PIT and
 * the I/O APIC (the BIOS is never called again), so the ISA pins are
 * ours too.  The HPET then may drive the PIT's GSI (the MADT's override
 * of ISA IRQ 0, ACPI 6.3 §5.2.12.5; QEMU's i440FX HPET offers only GSI
 * 2), the PIT stopped; and where there is no HPET (Pentium, P6 and early
 * Pentium 4 boards, Bochs) the 8254 PIT's counter 0 in mode 0 (one edge
 * at terminal count, pit.h) drives that pin as an NMI: the limit is
 * counted in one-shot chunks of at most 2^16 PIT clocks (55 ms), each
 * ending in one NMI that the watchdog takes as its own (the PIT's status
 * byte says OUT is high) and that never reaches the PMI handlers.  With
 * no I/O APIC in the ACPI tables, the PIT's edge goes through the 8259's
 * IR0 into the local APIC's LINT0 in NMI mode (SDM Vol. 3A §10.5.1), and
 * each NMI is acknowledged by the 8259's Poll command (pic8259.h).
 *
 * A board without a local APIC (a 486, a Pentium without the APIC:
 * CPUID.01H:EDX.APIC[bit 9] = 0, or the APIC disabled) has no NMI source
 * the harness can program: the PIT's edge then goes through the 8259's
 * IR0 to the processor's INTR pin as a maskable interrupt, the master
 * moved to vectors F0h-F7h (a BIOS leaves IR0 on 08h, #DF's), IR0
 * unmasked only while a limit is armed.  The runner lets interrupts in
 * for the test (watchdog_needs_irq_on(); under UEFI the firmware's tick
 * runs with IF = 1 too).  What it cannot stop, the header says: a hang
 * with IF = 0 ("cli; jmp ."), and so a hang at CPL 3 or under the
 * single-step tracer, which both run with IF = 0 (ring3.c, trace.c): no
 * interrupt of ours ever reaches traced code or a PMI handler.  The
 * hang tests that need interrupts off skip there, saying so, rather than
 * hang the machine (tests/selftest/hang.c).  Which route a machine gets
 * is watchdog_route.c's decision; the devices are their own modules
 * (hpet.h, pit.h, pic8259.h, ioapic.h), which know nothing of this one.
 *
 * How a limit ends (trap.h):
 *   1. at the limit the NMI handler records where the CPU was (RIP, CPL,
 *      the traced RIP when inside a single-step trace), unblocks NMIs
 *      with an IRET to itself (an NMI handler left without IRET would
 *      block NMIs for the rest of the run, SDM Vol. 3A §6.7.1) and
 *      resumes the innermost catch frame with the pseudo-vector
 *      VEC_TIMEOUT: the code that wraps the test's work (the tracer, the
 *      CPL 3 runner) cleans up as after an exception;
 *   2. a grace period later, if the test is still running (it ignored the
 *      failure and went on), the next NMI resumes the root catch frame
 *      (trap_catch_root(), the runner's) directly.
 * While the CPU runs outside the harness's code (firmware services, e.g.
 * the MP services waiting for the sibling, which have their own time
 * limit) the abort waits in short steps, up to WD_FIRMWARE_WAIT_US, so
 * the firmware is not left holding its locks.
 *
 * Where the firmware offers no HPET (ACPI HPET table), or no free timer
 * and free I/O APIC pin (UEFI), or (BIOS) the PIT's route could not be
 * proved, watchdog_init() says why and the limits cannot be enforced: the
 * runner still measures them and fails a test that ran past its limit. */
#ifndef ARCH_X86_WATCHDOG_H
#define ARCH_X86_WATCHDOG_H

#include "pic8259.h"

/* Where the watchdog maps the master 8259 while it takes IR0 as a
 * maskable interrupt: a multiple of 8 (ICW2 gives T7-T3), clear of the
 * exception vectors 0-31 (SDM Vol. 3A Table 6-1) and of the harness's
 * own, PMI_VECTOR (F8h, pmi.h) and RING3_EXIT_VECTOR (F9h, ring3.h).
 * The stubs behind IR0's and IR7's are watchdog_entry.S. */
#define WD_PIC_VECTOR_BASE 0xf0
#define WD_IRQ0_VECTOR (WD_PIC_VECTOR_BASE + PIC_IRQ_PIT)
#define WD_IRQ7_VECTOR (WD_PIC_VECTOR_BASE + PIC_IRQ_SPURIOUS)

#ifndef __ASSEMBLY__
#include <stdint.h>
#include "acpi.h"

/* After the first abort, the test gets this long to return. */
#define WD_GRACE_US (2ull * 1000 * 1000)
/* Outside our code, the abort is retried every WD_RETRY_US, for at most
 * WD_FIRMWARE_WAIT_US in all (more than the MP services' limit, smp.h). */
#define WD_RETRY_US (50ull * 1000)
#define WD_FIRMWARE_WAIT_US (40ull * 1000 * 1000)

/* Where the limit found the test (the first abort). */
struct wd_event {
	int fired;		/* the limit passed since watchdog_arm() */
	int stage;		/* 1: innermost frame resumed, 2: the root */
	uint64_t rip, cs, rflags;	/* the interrupted context */
	unsigned cpl;
	uint64_t traced_rip;	/* inside a single-step trace: the traced
				 * code's next RIP; else 0 */
	unsigned firmware_waits;	/* retries while outside our code */
	/* The watchdog's own clock at each stop (1: the first, 2: the root),
	 * microseconds since watchdog_arm(): the HPET's main counter, or the
	 * PIT's counts that ran out.  A stop never comes before the limit,
	 * nor the root stop before WD_GRACE_US after the first, in this
	 * clock; how much later a busy host delivers the NMI is not the
	 * harness's to bound (docs/reliability.md). */
	uint64_t stop_us[2];
};

/* Finds the HPET and the I/O APICs in *t, picks a free HPET timer and a
 * free I/O APIC pin it can drive, and routes that pin to this processor
 * as an NMI (masked until armed); with own_isa (a BIOS boot), failing
 * that, the PIT through its GSI's pin, proved by one NMI.  acpi_why: why
 * acpi_timers() found no HPET (then only the PIT is tried), else NULL.
 * Needs trap_install() first.  Returns NULL when ready, else why not. */
const char *watchdog_init(const struct acpi_timers *t, const char *acpi_why,
			  int own_isa);
/* No watchdog, for the reason given (e.g. the ACPI tables have none). */
void watchdog_unavailable(const char *why);
/* 1 when watchdog_init() succeeded: the limits are enforced. */
int watchdog_ready(void);
/* 1 when they are enforced with interrupts off too (an NMI route). */
int watchdog_stops_irq_off(void);
/* 1 when the route is a maskable interrupt (no local APIC): it stops only
 * what runs with RFLAGS.IF = 1, so the runner sets IF for the test. */
int watchdog_needs_irq_on(void);
/* One line for the log: the timer, the pin and its route, or why none. */
const char *watchdog_describe(void);
/* Puts back the HPET timer, the counter's enable and the I/O APIC entry
 * as the firmware had them; the PIT, when used, as a BIOS runs it. */
void watchdog_restore(void);

/* Starts a limit of limit_us for what runs next under trap_catch_root();
 * clears the last event.  No-op when not ready. */
void watchdog_arm(uint64_t limit_us);
/* Stops the limit (the test returned, or was ended). */
void watchdog_disarm(void);
const struct wd_event *watchdog_event(void);

#endif /* __ASSEMBLY__ */
#endif
