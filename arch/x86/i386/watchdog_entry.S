/* watchdog_entry: the stubs behind the master 8259's vectors while the
 * watchdog takes the PIT's IR0 as a maskable interrupt (a board without a
 * local APIC, arch/x86/watchdog.h): IR0's and the spurious IR7's.  Each
 * enters the trap code like an exception stub without error code
 * (trap.h), which hands the frame to the watchdog's hook. */
#include "../watchdog.h"

	.text
	.globl watchdog_irq0_entry
	.hidden watchdog_irq0_entry
watchdog_irq0_entry:
	pushl $0
	pushl $WD_IRQ0_VECTOR
	jmp trap_entry_common

	.globl watchdog_irq7_entry
	.hidden watchdog_irq7_entry
watchdog_irq7_entry:
	pushl $0
	pushl $WD_IRQ7_VECTOR
	jmp trap_entry_common

	.section .note.GNU-stack, "", @progbits
