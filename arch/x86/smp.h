/* smp: running code on the sibling logical processor - the other hardware
 * thread of the core the harness runs on (Intel Hyper-Threading, SDM
 * Vol. 3A §8.7, order no. 253668-059US) - one processor at a time: the
 * bootstrap processor (BSP) waits while the sibling runs, so the harness's
 * global state (the trap hooks, the catch frames, the tracer) is used by
 * one processor at a time and needs no locks.
 *
 * What it is for: a model of a PMU feature that counts events of both
 * threads of a core (architectural perfmon v3 AnyThread, PERFEVTSEL bit
 * 21) is fed by the single-step tracer, so the tests run a traced
 * benchmark on the sibling; in the model's event hook smp_on_sibling()
 * says which thread the event came from.
 *
 * How: boot/ hands smp_init() a processor list and a function that runs
 * code on one processor and waits a bounded time (struct smp_firmware),
 * so nothing here includes an EFI header or knows how the processor got
 * there.
 *
 * UEFI: the firmware starts the code.  boot/efi/mp.c finds
 * EFI_MP_SERVICES_PROTOCOL (PI Specification Vol. 2, §13.4; OVMF offers
 * it with -smp 2 and the harness never calls ExitBootServices).  Why not
 * our own INIT-SIPI-SIPI (SDM Vol. 3A §8.4.4.1) through the local APIC:
 * while boot services run, the firmware owns the application processors
 * (parked in its HLT loop, with their stacks and its wake-up vector below
 * 1 MiB); an INIT of ours would take one from under the firmware, which
 * would later find it in a state it does not know, and we would need a
 * real-mode trampoline of our own.  The firmware's StartupThisAP also
 * gives the bounded wait for free: on a timeout it resets the processor
 * to idle (INIT-SIPI-SIPI) and returns EFI_TIMEOUT, so a sibling that
 * hangs is a failed test, not a hung boot.
 *
 * Legacy BIOS (the i386 build): a BIOS offers no such service and keeps
 * nothing running on the application processors once it has booted, so
 * boot/bios/mp.c is the service: the processors from the ACPI MADT (else
 * the MP Specification 1.4 table), the sibling started with our own
 * INIT-SIPI-SIPI into a real-mode trampoline below 1 MiB
 * (boot/bios/ap_start.S), then parked in HLT with an IDT of its own and
 * woken by an NMI for each call posted in its mailbox; a call that does
 * not return in time gets the processor an INIT, and the next call starts
 * it again, as StartupThisAP does.  docs/smp.md, "The BIOS boot".
 *
 * On the sibling, fn runs:
 *   - at CPL 0, interrupts off (IF = 0), on a 64 KiB stack of ours;
 *   - with the harness's IDT loaded (trap.h: faults, the tracer's #DB
 *     hook, catch frames work there) and the BSP's GDT (the harness's own
 *     when ring3_setup() built one, else the firmware's), provided the
 *     sibling's CS and SS are the BSP's selectors (checked; the IDT's
 *     gates name the BSP's code segment).  The sibling's own GDTR, IDTR
 *     and RFLAGS are put back before the firmware gets it back;
 *   - inside a trap_catch(): a fault in fn ends it and smp_sibling_run()
 *     returns -1 with the fault's vector and RIP.
 *
 * Limits (say so in a test that needs them):
 *   - CPL 3 on the sibling is not supported: the task register there is
 *     not the harness's TSS (an exception from CPL 3 would have no ring-0
 *     stack of ours), so ring3_run() - and trace_run() at CPL 3 - refuse
 *     on the sibling (return -1, f->vector = 0).  Trace at CPL 0.
 *   - fn must not call the firmware: no log output, no page allocation
 *     (bench_alloc() returns NULL there).  Prepare buffers on the BSP
 *     (bench_data()) and keep results in arg; the BSP logs them.
 *   - The PMI path (apic.h, pmi.h) programs the LVTPC of the processor it
 *     runs on; it is not set up for the sibling.
 *   - One call at a time, from the BSP only; a call from fn is refused. */
#ifndef ARCH_X86_SMP_H
#define ARCH_X86_SMP_H

#include <stdint.h>
#include "topology.h"

#define SMP_MAX_CPUS 64
/* How long smp_sibling_run() waits for fn: a traced benchmark of 10^6
 * instructions takes about a second under QEMU's TCG. */
#define SMP_RUN_TIMEOUT_US (30ull * 1000 * 1000)

/* One processor as the firmware lists it. */
struct smp_cpu {
	unsigned index;		/* the firmware's processor number */
	uint32_t apic_id;	/* its APIC ID */
	uint32_t package, core, thread;	/* the firmware's location */
	uint8_t bsp, enabled, healthy;
};

/* What boot/ hands down ("the firmware" below and in smp.c: the MP
 * service boot/ stands for, UEFI's or boot/bios/mp.c's own): the
 * firmware's processors, and run(), which runs
 * fn(arg) on processor index and waits at most timeout_us for it to
 * return.  run() returns 0 when fn returned, else -1 with a reason in why
 * (on a timeout the firmware has reset the processor: fn never finished).
 * Called on the BSP only. */
struct smp_firmware {
	const char *name;	/* the service, for logs */
	unsigned n;		/* processors listed, <= SMP_MAX_CPUS */
	unsigned total;		/* processors the firmware has */
	struct smp_cpu cpu[SMP_MAX_CPUS];
	int (*run)(unsigned index, void (*fn)(void *), void *arg,
		   uint64_t timeout_us, char *why, unsigned size);
	/* Optional (NULL: not offered): start fn(arg) on processor index
	 * and return at once; join() waits at most wait_us for it to have
	 * returned.  One started call at a time.  fn runs as the firmware
	 * starts it (its stack, IDT and GDT). */
	int (*start)(unsigned index, void (*fn)(void *), void *arg,
		     uint64_t timeout_us, char *why, unsigned size);
	int (*join)(uint64_t wait_us, char *why, unsigned size);
};

/* fw is copied.  fw NULL: no service; why_not says why (kept as is). */
void smp_init(const struct smp_firmware *fw, const char *why_not);

/* Is a sibling logical processor available to run code?  why says why
 * not.  The first call that finds one in the firmware's list also runs a
 * probe there and checks it is the sibling thread of the BSP's core by
 * CPUID (topology.h) and APIC ID; the answer is kept. */
int smp_sibling_ready(char *why, unsigned size);

/* 1 when the firmware lists a sibling thread of the BSP's core, whether
 * or not it then passed smp_sibling_ready()'s probe: a listed sibling
 * that is not ready is a failure, no sibling at all a reason to skip. */
int smp_sibling_present(void);

/* Runs fn(arg) on the sibling with the harness's IDT (and GDT if the
 * harness has its own) loaded there, interrupts off, CPL 0; the caller
 * waits until it returns, at most SMP_RUN_TIMEOUT_US.  Returns 0, or -1
 * with why (not ready, a fault in fn, a timeout). */
int smp_sibling_run(void (*fn)(void *), void *arg, char *why,
		    unsigned size);
/* The same with another time limit (tests of the timeout). */
int smp_sibling_run_timeout(void (*fn)(void *), void *arg,
			    uint64_t timeout_us, char *why, unsigned size);

/* 1 while the calling code runs on the sibling (set by smp_sibling_run
 * around fn, on the sibling, before fn's first instruction and cleared
 * after its last), else 0.  Cheap: a model may call it per event. */
int smp_on_sibling(void);

/* The sibling active beside the BSP: smp_sibling_spin_start() makes it
 * spin (a PAUSE loop on one flag of this file, nothing else: it uses no
 * harness state, so the BSP may run anything meanwhile, the tracer
 * included), returning once it spins; smp_sibling_spin_stop() ends the
 * loop and waits for the firmware to have it back (idle, i.e. halted in
 * the firmware's wait loop).  Needs the firmware's non-blocking start
 * (UEFI MP services); else -1 with why.  What it is for: a logical
 * processor that executes instructions is "active" for the NetBurst
 * PMU's active-thread filter (SDM Vol. 3B §18.16.2), one parked by the
 * firmware (HLT) is not. */
int smp_sibling_spin_start(char *why, unsigned size);
int smp_sibling_spin_stop(char *why, unsigned size);
/* 1 between a successful smp_sibling_spin_start() and its stop: the
 * sibling executes harness code (the loop).  Cheap: a model may call it
 * per event. */
int smp_sibling_spinning(void);

/* Where the two processors are (valid once smp_sibling_ready() said yes):
 * the firmware's entries. */
const struct smp_cpu *smp_bsp_cpu(void);
const struct smp_cpu *smp_sibling_cpu(void);

/* The firmware service's name, or NULL when there is none. */
const char *smp_service(void);

#endif
