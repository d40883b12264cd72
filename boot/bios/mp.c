/* mp: the application processors of a BIOS boot, for arch/x86/smp.c (see
 * boot/mp.h).  No firmware service runs code on another processor here
 * (the UEFI build uses EFI_MP_SERVICES_PROTOCOL, boot/efi/mp.c), so this
 * file is that service:
 *
 *   - the processors: the ACPI MADT's Processor Local APIC entries (ACPI
 *     6.3 §5.2.12.2, arch/x86/acpi.h), else, on a board without a MADT,
 *     the processor entries of the Intel MultiProcessor Specification 1.4
 *     table (§4, arch/x86/mpspec.h); the BSP is the entry with this
 *     processor's local APIC ID; package, core and thread come from the
 *     APIC ID split by this processor's CPUID (arch/x86/topology.h);
 *   - starting one: INIT, 10 ms, SIPI, 200 us, SIPI (SDM Vol. 3A
 *     §8.4.4.1, "Typical BSP Initialization Sequence", order no.
 *     253668-059US) through the local APIC, the waits timed by the TSC at
 *     the rate clock_tsc_hz() measured (boot/clock.h); the SIPI's vector
 *     names a page below 1 MiB holding ap_start.S's real-mode trampoline
 *     (bios_low_page(), mem.c, says which page and why);
 *   - running code there: each AP waits in bios_ap_main() for a call in
 *     its mailbox, halted (ap_idle_wait()); the BSP writes fn and arg,
 *     bumps the mailbox's sequence number and sends an NMI to wake it, and
 *     waits, at most the caller's time limit by the TSC, for the AP to
 *     write the number back as done.  An AP that does not finish in time
 *     gets an INIT (SDM Vol. 3A §8.4.1: it resets the processor, which
 *     then waits for a SIPI): whatever it ran is gone, and the next call
 *     starts it again with INIT-SIPI-SIPI.  As UEFI's StartupThisAP does
 *     on a timeout, so arch/x86/smp.c's contract holds unchanged.
 *
 * An AP is started when the first call for it comes, not at boot: a run
 * without the smp tests never touches the other processors, and one whose
 * AP does not start says why in those tests. */
#include <stddef.h>
#include "ap.h"
#include "bios.h"
#include "../acpi_root.h"
#include "../clock.h"
#include "../mem.h"
#include "../mp.h"
#include "../../arch/x86/acpi.h"
#include "../../arch/x86/apic.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/mpspec.h"
#include "../../arch/x86/smp.h"
#include "../../arch/x86/topology.h"
#include "../../arch/x86/trap.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

/* SDM Vol. 3A §8.4.4.1: after the INIT "10-millisecond delay", after
 * each SIPI "200-microsecond delay". */
#define INIT_DELAY_US 10000u
#define SIPI_DELAY_US 200u
/* How long the BSP waits for a started AP to reach bios_ap_main(): on
 * silicon a few microseconds; an emulator may run the processors in
 * turns. */
#define ALIVE_WAIT_US 1000000u
#define AP_STACK 16384u
#define PAGE 4096u
#define CR0_PG (1u << 31)
#define WHY_LEN 200
#define NAME_MADT "INIT-SIPI-SIPI (ACPI MADT)"
#define NAME_MPS "INIT-SIPI-SIPI (MP table)"
/* Intel's Hyper-Threading guidance has a BIOS list only the first logical
 * processor of each package in the MP table, which predates HT, and every
 * one in the MADT (SeaBIOS: "Only populate the MPS tables with the first
 * logical CPU in each package"): on an HT processor without a MADT no
 * sibling is listed, and the harness does not guess one. */
#define NAME_MPS_NO_HT "INIT-SIPI-SIPI (MP table: the first thread of " \
	"each package only)"

/* One AP: its mailbox and what the BSP knows of it.  posted/done are
 * sequence numbers: the BSP writes fn and arg, then posted (release);
 * the AP reads posted, then fn and arg, and writes done = posted
 * (release) when fn has returned. */
struct ap {
	uint32_t apic_id;
	int up;				/* in bios_ap_main(), answering */
	uint8_t *stack;			/* AP_STACK bytes, its own */
	void (*volatile fn)(void *);
	void *volatile arg;
	volatile uint32_t posted, done;
	volatile uint32_t alive;	/* written by the AP once it is up */
	volatile uint32_t cpuid_apic_id;	/* what CPUID says there */
};

struct ap_boot ap_boot;
volatile struct ap_fault ap_fault;

static struct smp_firmware fw;
static struct ap aps[SMP_MAX_CPUS];
/* The AP ap_boot serves while it starts. */
static struct ap *volatile starting;
/* The AP of the started call (start()/join()), NULL when none. */
static struct ap *started;
static struct idt_gate ap_idt[32];
static uint32_t page;			/* the trampoline's, 0: none */
static const char *page_why;

/* ---- the AP's side */

void bios_ap_main(void)
{
	struct ap *ap = starting;
	uint32_t seen = ap->posted;

	ap->cpuid_apic_id = cpuid(1).ebx >> 24;
	/* As a firmware leaves the processors it starts: the local APIC
	 * software-enabled, its LVT entries masked (the tests arm the
	 * LVTPC there, tests/netburst/threads.c). */
	apic_sw_enable();
	__atomic_store_n(&ap->alive, 1, __ATOMIC_RELEASE);
	for (;;) {
		seen = ap_idle_wait(&ap->posted, seen);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		ap->fn(ap->arg);
		__atomic_store_n(&ap->done, seen, __ATOMIC_RELEASE);
	}
}

/* ---- time: the TSC at the rate the boot measured */

static uint64_t deadline(uint64_t us)
{
	return rdtsc() + us * clock_tsc_hz() / 1000000u;
}

static int before(uint64_t when)
{
	return rdtsc() < when;
}

static void delay_us(uint64_t us)
{
	uint64_t end = deadline(us);

	while (before(end))
		__asm__ volatile("pause");
}

/* The BSP's wait for an AP, placed outside the harness's text (the
 * section .bios_wait, linker-i386.ld): to the watchdog this is a
 * firmware's wait, as UEFI's StartupThisAP is to the UEFI build, so a
 * test's time limit that runs out meanwhile is retried (every 50 ms, for
 * up to 40 s: arch/x86/watchdog.c, docs/reliability.md) rather than
 * abandon the wait while the AP runs harness code on the trap layer's
 * state (its catch frame, its hooks).  Every wait here ends within 30 s
 * (SMP_RUN_TIMEOUT_US), the AP done or taken back.  Nothing here may call
 * into .text: rdtsc() and the loads are inline.  1 when *v became want
 * before the TSC reached end. */
__attribute__((noinline, section(".bios_wait")))
static int poll_until(const volatile uint32_t *v, uint32_t want,
		      uint64_t end)
{
	do {
		if (__atomic_load_n(v, __ATOMIC_ACQUIRE) == want)
			return 1;
		__asm__ volatile("pause");
	} while (rdtsc() < end);
	return __atomic_load_n(v, __ATOMIC_ACQUIRE) == want;
}

/* Waits at most us for *v to equal want (acquire); 1 when it did. */
static int wait_for(const volatile uint32_t *v, uint32_t want, uint64_t us)
{
	return poll_until(v, want, deadline(us));
}

/* ---- starting and stopping an AP */

/* The AP's way into C (ap_start.S): what the BSP runs with now, and the
 * idle IDT (an NMI gate for the wake-up, a recording stub for the rest). */
static void fill_boot(struct ap *ap)
{
	struct x86_dtr gdt;
	uint16_t cs = read_cs();

	for (unsigned v = 0; v < 32; v++)
		idt_gate_set(&ap_idt[v], v == VEC_NMI ? (uintptr_t)ap_nmi :
			     (uintptr_t)(ap_fault_stubs +
					 v * AP_FAULT_STUB_SIZE), cs, 0);
	sgdt(&gdt);
	ap_boot = (struct ap_boot){
		.cr0 = (uint32_t)read_cr0() & ~CR0_PG,
		.cr4 = (uint32_t)read_cr4(),
		.esp = (uint32_t)(uintptr_t)(ap->stack + AP_STACK),
		.cs = cs,
		.ss = read_ss(),
		.gdt_limit = gdt.limit,
		.gdt_base = (uint32_t)gdt.base,
		.idt_limit = sizeof(ap_idt) - 1,
		.idt_base = (uint32_t)(uintptr_t)ap_idt,
	};
}

/* INIT: the AP resets and waits for a SIPI (SDM Vol. 3A §8.4.1).  Used
 * to take back an AP that did not finish in time, or never came up. */
static void ap_down(struct ap *ap)
{
	(void)apic_send_ipi(APIC_DM_INIT, 0, ap->apic_id);
	ap->up = 0;
}

static const char *fault_note(char *buf, unsigned size)
{
	if (!ap_fault.count)
		return "";
	fmt_snprintf(buf, size, "; an AP faulted outside a call: %s (vector "
		     "%u) at eip=0x%x", trap_vector_name(ap_fault.vector),
		     ap_fault.vector, ap_fault.eip);
	return buf;
}

/* What a start needs that the boot may lack. */
static int can_start(char *why, unsigned size)
{
	const char *a = apic_init();

	if (a)
		fmt_snprintf(why, size, "%s: no usable local APIC to send "
			     "INIT and SIPI: %s", fw.name, a);
	else if (!page)
		fmt_snprintf(why, size, "%s: no start-up page: %s", fw.name,
			     page_why);
	else if (!clock_tsc_hz())
		fmt_snprintf(why, size, "%s: no TSC rate to time the INIT and "
			     "SIPI delays", fw.name);
	else
		return 1;
	return 0;
}

/* INIT, 10 ms, SIPI, 200 us, SIPI, 200 us (SDM Vol. 3A §8.4.4.1), then
 * at most ALIVE_WAIT_US for bios_ap_main() to say it is up. */
static int ap_up(struct ap *ap, char *why, unsigned size)
{
	char note[96];
	unsigned vector = page >> 12;

	if (ap->up)
		return 0;
	if (!can_start(why, size))
		return -1;
	if (!ap->stack && !(ap->stack = mem_alloc(AP_STACK, PAGE))) {
		fmt_snprintf(why, size, "%s: no memory for the AP's stack",
			     fw.name);
		return -1;
	}
	/* Copied at each start (a few dozen bytes, beside a 10 ms wait):
	 * a boot that starts no AP leaves low memory as the BIOS left it. */
	memcpy((void *)(uintptr_t)page, ap_trampoline,
	       (size_t)(ap_trampoline_end - ap_trampoline));
	fill_boot(ap);
	ap_fault.count = 0;
	ap->alive = 0;
	ap->done = ap->posted;
	starting = ap;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	(void)apic_send_ipi(APIC_DM_INIT, 0, ap->apic_id);
	delay_us(INIT_DELAY_US);
	for (unsigned i = 0; i < 2; i++) {
		(void)apic_send_ipi(APIC_DM_STARTUP, vector, ap->apic_id);
		delay_us(SIPI_DELAY_US);
	}
	if (!wait_for(&ap->alive, 1, ALIVE_WAIT_US)) {
		ap_down(ap);
		fmt_snprintf(why, size, "%s: the AP (APIC ID %u) did not answer "
			     "INIT-SIPI-SIPI (start-up page 0x%x, vector 0x%02x)"
			     " within %u ms%s", fw.name, ap->apic_id, page,
			     vector, ALIVE_WAIT_US / 1000,
			     fault_note(note, sizeof(note)));
		return -1;
	}
	if (ap->cpuid_apic_id != (ap->apic_id & 0xff)) {
		ap_down(ap);
		fmt_snprintf(why, size, "%s: the processor that answered the "
			     "SIPI to APIC ID %u has initial APIC ID %u "
			     "(CPUID.01H:EBX[31:24])", fw.name, ap->apic_id,
			     ap->cpuid_apic_id);
		return -1;
	}
	ap->up = 1;
	return 0;
}

/* ---- the calls smp.c makes */

static struct ap *ap_at(unsigned index, char *why, unsigned size)
{
	if (index >= fw.n || fw.cpu[index].bsp || !fw.cpu[index].enabled) {
		fmt_snprintf(why, size, "%s: processor %u is %s", fw.name,
			     index, index >= fw.n ? "not listed" :
			     fw.cpu[index].bsp ? "the BSP" : "disabled");
		return NULL;
	}
	if (started) {
		fmt_snprintf(why, size, "%s: a started call is still open on "
			     "APIC ID %u", fw.name, started->apic_id);
		return NULL;
	}
	return &aps[index];
}

/* Up (started if it is not), then the call in its mailbox and the NMI. */
static int post(unsigned index, void (*fn)(void *), void *arg, char *why,
		unsigned size, struct ap **out)
{
	struct ap *ap = ap_at(index, why, size);

	if (!ap || ap_up(ap, why, size))
		return -1;
	ap_fault.count = 0;
	ap->fn = fn;
	ap->arg = arg;
	__atomic_store_n(&ap->posted, ap->posted + 1, __ATOMIC_RELEASE);
	(void)apic_send_ipi(APIC_DM_NMI, 0, ap->apic_id);
	*out = ap;
	return 0;
}

/* Waits at most us for the posted call to be done; else takes the AP
 * back with INIT and says so. */
static int finish(struct ap *ap, unsigned index, uint64_t us, char *why,
		  unsigned size)
{
	char note[96];

	if (wait_for(&ap->done, ap->posted, us))
		return 0;
	ap_down(ap);
	fmt_snprintf(why, size, "%s: processor %u (APIC ID %u) did not return "
		     "within %llu us: timeout; INIT sent, the next call starts "
		     "it again%s", fw.name, index, ap->apic_id,
		     (unsigned long long)us, fault_note(note, sizeof(note)));
	return -1;
}

static int mp_run(unsigned index, void (*fn)(void *), void *arg,
		  uint64_t timeout_us, char *why, unsigned size)
{
	struct ap *ap;

	if (post(index, fn, arg, why, size, &ap))
		return -1;
	return finish(ap, index, timeout_us, why, size);
}

/* The started call: fn runs on the AP's own stack with its idle IDT (as
 * a firmware's MP service starts it); join() waits for it.  No timer
 * ends it meanwhile: join() enforces its own limit. */
static unsigned started_index;

static int mp_start(unsigned index, void (*fn)(void *), void *arg,
		    uint64_t timeout_us, char *why, unsigned size)
{
	(void)timeout_us;
	if (post(index, fn, arg, why, size, &started))
		return -1;
	started_index = index;
	return 0;
}

static int mp_join(uint64_t wait_us, char *why, unsigned size)
{
	struct ap *ap = started;

	if (!ap) {
		fmt_snprintf(why, size, "%s: no started call is open", fw.name);
		return -1;
	}
	started = NULL;
	return finish(ap, started_index, wait_us, why, size);
}

/* ---- the processor list */

static void add_cpu(uint32_t apic_id, int enabled, const struct topo *bsp)
{
	struct smp_cpu *c = &fw.cpu[fw.n];

	c->index = fw.n;
	c->apic_id = apic_id;
	c->bsp = apic_id == bsp->apic_id;
	c->enabled = !!enabled;
	c->healthy = 1;		/* neither table says otherwise */
	topo_locate(bsp, apic_id, &c->package, &c->core, &c->thread);
	aps[fw.n] = (struct ap){ .apic_id = apic_id };
	fw.n++;
}

/* The MADT (ACPI 6.3 §5.2.12.2): Enabled processors can be started;
 * Online Capable ones only after the OS enables them (hot-add), so
 * they are listed as disabled. */
static const char *from_madt(const struct topo *bsp)
{
	struct acpi_lapic l[SMP_MAX_CPUS];
	unsigned total;
	const char *why = acpi_lapics(acpi_rsdp(), l, SMP_MAX_CPUS, &total);

	if (why)
		return why;
	fw.name = NAME_MADT;
	fw.total = total;
	for (unsigned i = 0; i < total && i < SMP_MAX_CPUS; i++)
		add_cpu(l[i].apic_id, l[i].flags & ACPI_LAPIC_ENABLED, bsp);
	return NULL;
}

/* Does the list hold another thread of the BSP's core? */
static int lists_a_sibling(const struct topo *bsp)
{
	for (unsigned i = 0; i < fw.n; i++)
		if (!fw.cpu[i].bsp && fw.cpu[i].package == bsp->package_id &&
		    fw.cpu[i].core == bsp->core_id)
			return 1;
	return 0;
}

/* The MP floating pointer (MP spec 1.4 §4): in the EBDA's first KiB, else
 * base memory's last KiB, else F0000H-FFFFFH, on 16-byte boundaries. */
static const uint8_t *scan_mps(uintptr_t from, uintptr_t to)
{
	for (uintptr_t a = from; a + MPS_FPS_SIZE <= to; a += MPS_FPS_ALIGN)
		if (mps_floating_at((const uint8_t *)a))
			return (const uint8_t *)a;
	return NULL;
}

static const uint8_t *find_mps(void)
{
	uintptr_t ebda = bios_ebda(), base = bios_base_memory_end();
	const uint8_t *f = ebda ? scan_mps(ebda, ebda + 1024) :
			   scan_mps(base - 1024, base);

	return f ? f : scan_mps(0xf0000, 0x100000);
}

static const char *from_mps(const struct topo *bsp)
{
	struct mps_cpu c[SMP_MAX_CPUS];
	unsigned total;
	const uint8_t *fps = find_mps();
	const char *why;

	if (!fps)
		return "no MP floating pointer structure (MP spec 1.4 \"_MP_\")";
	why = mps_processors(fps, c, SMP_MAX_CPUS, &total);
	if (why)
		return why;
	fw.name = NAME_MPS;
	fw.total = total;
	for (unsigned i = 0; i < total && i < SMP_MAX_CPUS; i++)
		add_cpu(c[i].apic_id, c[i].flags & MPS_CPU_EN, bsp);
	if (bsp->smt_bits && !lists_a_sibling(bsp))
		fw.name = NAME_MPS_NO_HT;
	return NULL;
}

void mp_init(void)
{
	static char why[2 * WHY_LEN];
	struct topo bsp;
	const char *apic = apic_init(), *madt, *mps;

	if (apic) {
		fmt_snprintf(why, sizeof(why), "BIOS boot: no usable local "
			     "APIC, so no INIT-SIPI-SIPI: %s", apic);
		smp_init(NULL, why);
		return;
	}
	topo_read(&bsp);
	/* The tables list local APIC IDs; the BSP is the one this
	 * processor's local APIC register holds. */
	bsp.apic_id = apic_id();
	topo_locate(&bsp, bsp.apic_id, &bsp.package_id, &bsp.core_id,
		    &bsp.thread_id);
	memset(&fw, 0, sizeof(fw));
	madt = from_madt(&bsp);
	mps = madt ? from_mps(&bsp) : NULL;
	if (madt && mps) {
		fmt_snprintf(why, sizeof(why), "BIOS boot: no processor list: "
			     "ACPI: %s; MP table: %s", madt, mps);
		smp_init(NULL, why);
		return;
	}
	page = bios_low_page(&page_why);
	fw.run = mp_run;
	fw.start = mp_start;
	fw.join = mp_join;
	smp_init(&fw, NULL);
}
