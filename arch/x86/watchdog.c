/* watchdog: the HPET's or the PIT's one-shot routed as an NMI, or on a
 * board without a local APIC the PIT's as a maskable interrupt
 * (watchdog.h).  The policy only: the route's set-up and proof, the
 * limit armed in chunks, the two-stage stop, the header line and the
 * restore.  The devices are driven through hpet.h, pit.h, pic8259.h and
 * ioapic.h; which route a machine gets is watchdog_route.h's. */
#include "watchdog.h"
#include "apic.h"
#include "cpu.h"
#include "hpet.h"
#include "ioapic.h"
#include "mmio.h"
#include "pic8259.h"
#include "pit.h"
#include "trace.h"
#include "trap.h"
#include "watchdog_route.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

/* An HPET chunk never spans more than 2^31 ticks, so the low 32 bits of
 * the counter tell before from after (32-bit timers compare only those:
 * hpet_counter_reached()). */
#define HPET_CHUNK_MAX 0x7fffffffull
/* ... and never less than this, so the counter cannot pass the
 * comparator before it is enabled. */
#define CHUNK_MIN_US 1000ull
#define FIRST_PCI_GSI 16	/* GSIs below are ISA IRQs, also wired to
				 * the 8259 PICs the firmware may use */

/* Polls of the PIT's status while waiting for its last NMI (each is two
 * port accesses, about a microsecond on an ISA bus: 5 s or more, where
 * silicon sends the NMI within two counter clocks, 1.7 us).  The bound is
 * wide for emulators: QEMU raises the NMI from its timer thread, which a
 * busy host can hold off for a while.  The wait ends at the NMI. */
#define PIT_WAIT_POLLS 5000000u

extern char _text[], _etext[];
void nmi_unblock(void);
void watchdog_irq0_entry(void);
void watchdog_irq7_entry(void);

enum wd_kind { WD_HPET, WD_PIT };

static struct {
	int ready, armed;
	volatile int outstanding;	/* cleared by the NMI handler */
	volatile int late;		/* a count's NMI that pit_wait_taken()
					 * gave up on: still on its way */
	enum wd_kind kind;
	int own_isa;		/* a BIOS boot: the PIT and ISA pins are ours */
	int pit_quieted;	/* the HPET took the PIT's pin: PIT stopped */
	int via_lint0;		/* the PIT through the 8259 and LINT0 */
	int via_irq;		/* the PIT through the 8259, maskable */
	enum wd_route route;
	const char *apic_why;	/* why no local APIC (the IRQ route) */
	uint32_t saved_lint0;
	uint8_t saved_imr;
	uint64_t chunk_max;	/* ticks of one one-shot */
	uint64_t rte_extra;	/* polarity from the MADT's override */
	char why_all[240];
	const char *why;
	char describe[400];
	char why_buf[128];
	struct hpet hpet;
	uint64_t hz;		/* ticks per second: the HPET's or the PIT's */
	unsigned timer, pin, gsi;
	struct ioapic io;
	/* the firmware's, for watchdog_restore() */
	struct hpet_saved saved_hpet;
	uint64_t saved_rte;
	uint64_t cmp;		/* the comparator programmed */
	uint64_t remaining;	/* ticks still to wait after this chunk */
	uint64_t chunk;		/* ticks of the count running */
	uint64_t counted;	/* ticks of the counts run out since armed */
	uint64_t armed_at;	/* the HPET's main counter when armed */
	struct wd_event ev;
} wd;

static uint64_t us_to_ticks(uint64_t us)
{
	return us / 1000000 * wd.hz + us % 1000000 * wd.hz / 1000000;
}

/* Every count the PIT is given ends in exactly one edge, one NMI, which
 * nmi_first() takes: wait for it, so none of ours comes after we stop.
 * 0 when it never came (the route does not work). */
static int pit_wait_taken(void)
{
	for (unsigned i = 0; i < PIT_WAIT_POLLS && wd.outstanding; i++)
		(void)pit_out_high();
	if (!wd.outstanding)
		return 1;
	/* QEMU on a loaded host can take longer than the polls to deliver
	 * the NMI (a matrix boot under a full make check beside other jobs:
	 * "Bail out! unexpected NMI outside a test"): the one that comes
	 * later is still the PIT's, and nmi_first() takes it. */
	wd.outstanding = 0;
	wd.late = 1;
	return 0;
}

static int timer_fired(void)
{
	if (wd.kind == WD_PIT)
		return pit_out_high();
	return hpet_counter_reached(&wd.hpet, wd.cmp);
}

/* The HPET: disabled.  The PIT cannot be stopped in mode 0 (the 8254
 * keeps counting; QEMU's model ignores a lone control word), so a count
 * still running is cut to 1: its edge comes now and its NMI is ours. */
static void timer_off(void)
{
	if (wd.kind == WD_PIT) {
		if (!pit_out_high())
			pit_load_count(1);
		return;
	}
	hpet_timer_disable(&wd.hpet, wd.timer);
}

/* The pin's entry: an NMI to this processor, with the polarity the
 * MADT's override gave. */
static uint64_t nmi_rte(int masked)
{
	return ioapic_rte_nmi(apic_id()) | wd.rte_extra |
	       (masked ? IOAPIC_RTE_MASKED : 0);
}

/* One-shot, routed to our pin, enabled last: outstanding is set once the
 * comparator that timer_fired() compares with is the new one. */
static void timer_start(uint64_t ticks)
{
	uint64_t min = us_to_ticks(CHUNK_MIN_US);

	if (ticks < min)
		ticks = min;
	wd.chunk = ticks;
	if (wd.kind == WD_PIT) {
		wd.outstanding = 1;
		pit_load_count((uint32_t)ticks);
		return;
	}
	wd.cmp = hpet_timer_set_oneshot(&wd.hpet, wd.timer, wd.gsi, ticks);
	wd.outstanding = 1;
	hpet_timer_enable(&wd.hpet, wd.timer);
}

/* The next chunk of what is left of the limit. */
static void next_chunk(void)
{
	uint64_t chunk = wd.remaining > wd.chunk_max ? wd.chunk_max :
			 wd.remaining;

	wd.remaining -= chunk;
	timer_start(chunk);
}

static int in_our_code(uint64_t rip)
{
	return rip >= (uintptr_t)_text && rip < (uintptr_t)_etext;
}

static void record(const struct trap_frame *tf)
{
	wd.ev.fired = 1;
	wd.ev.rip = tf->rip;
	wd.ev.cs = tf->cs;
	wd.ev.rflags = tf->rflags;
	wd.ev.cpl = (unsigned)(tf->cs & 3);
	wd.ev.traced_rip = trace_resume_rip();
}

static uint64_t ticks_to_us(uint64_t ticks)
{
	return ticks / wd.hz * 1000000 + ticks % wd.hz * 1000000 / wd.hz;
}

/* The watchdog's own clock since watchdog_arm(), in microseconds: the
 * HPET's main counter (it runs on while the NMI is on its way), or the
 * PIT's counts that ran out (it has no counter that runs on). */
static uint64_t clock_us(void)
{
	if (wd.kind == WD_PIT)
		return ticks_to_us(wd.counted);
	return ticks_to_us(hpet_main_counter(&wd.hpet) - wd.armed_at);
}

/* The limit passed: end the test (watchdog.h, "How a limit ends"). */
static void expire(struct trap_frame *tf)
{
	struct fault f = {
		.vector = VEC_TIMEOUT,
		.rip = tf->rip,
		.cs = tf->cs,
		.rflags = tf->rflags,
		.rsp = tf->rsp,
	};
	int to_root;

	if (!wd.ev.stage)
		record(tf);
	if (wd.ev.stage < 2)
		wd.ev.stop_us[wd.ev.stage] = clock_us();
	wd.ev.stage++;
	to_root = wd.ev.stage > 1;
	if (to_root) {
		wd.armed = 0;
	} else {
		wd.remaining = us_to_ticks(WD_GRACE_US);
		next_chunk();
	}
	if (!wd.via_irq)
		nmi_unblock();
	trap_abort(&f, to_root);
}

/* Our count ran out (its NMI or interrupt taken): the next chunk, a
 * retry outside our code, or the end of the limit. */
static void chunk_ended(struct trap_frame *tf)
{
	wd.outstanding = 0;
	timer_off();
	if (!wd.armed)
		return;		/* fired as it was being disarmed */
	wd.counted += wd.chunk;
	if (wd.remaining) {
		next_chunk();
		return;
	}
	if (!in_our_code(tf->rip) &&
	    wd.ev.firmware_waits * WD_RETRY_US < WD_FIRMWARE_WAIT_US) {
		wd.ev.firmware_waits++;
		wd.remaining = us_to_ticks(WD_RETRY_US);
		next_chunk();
		return;
	}
	expire(tf);
}

/* LINT0 route: the PIT's edge set IR0's request in the 8259, whose INTR
 * stays high until acknowledged (no INTA cycle comes: LINT0 delivers an
 * NMI): acknowledge it by the Poll command and end it, so INTR falls and
 * the next count's edge is an edge on LINT0 again (pic8259.h). */
static void lint0_ack(void)
{
	if (wd.via_lint0)
		pic_poll_ack();
}

static int nmi_first(struct trap_frame *tf)
{
	/* LINT0 route, no count of ours running: an NMI with IR0's request
	 * pending (it came through the 8259; a PMI does not) is the PIT's
	 * all the same.  QEMU's 8259 shows IR0 rising again after a count
	 * ran out (matrix boots saw "unexpected NMI" while the header was
	 * written, IRR 11h, OUT high), where silicon's OUT stays high in
	 * mode 0.  Taken and acknowledged, never passed on as a stray; a PMI
	 * leaves the 8259 alone and is not taken here. */
	if (wd.via_lint0 && !wd.outstanding && pic_requested(PIC_IRQ_PIT)) {
		pic_poll_ack();
		return 1;
	}
	if (wd.late && !(wd.outstanding && timer_fired())) {
		wd.late = 0;	/* a count's NMI that came late */
		lint0_ack();
		return 1;
	}
	if (!wd.outstanding || !timer_fired())
		return 0;	/* not our timer: the PMI's, or another */
	lint0_ack();
	chunk_ended(tf);
	return 1;
}

/* The IRQ route: IR0's interrupt, with IF = 1 (the runner lets it in,
 * runner.c).  Ended first: the 8259 holds lower and equal priorities
 * until the EOI, and expire() leaves through the catch frame, not IRET.
 * A request with no count of ours run out (a stale one, QEMU's 8259
 * raising IR0 again, nmi_first() above) is taken and ignored. */
static int irq0_hook(struct trap_frame *tf)
{
	pic_eoi();
	if (wd.outstanding && timer_fired())
		chunk_ended(tf);
	return 1;
}

/* IR7 with its in-service bit clear: a spurious request, which takes no
 * EOI (pic8259.h).  IR7 itself is masked: nothing else comes here. */
static int irq7_hook(struct trap_frame *tf)
{
	(void)tf;
	if (pic_in_service(PIC_IRQ_SPURIOUS))
		pic_eoi();
	return 1;
}

/* The IRQ route: IR0 alone unmasked, a request left from before (a count
 * that ran out while IR0 was masked) taken by the Poll command first, so
 * that what comes next is the next count's.  With IF = 0: nothing is
 * delivered in between. */
static void irq_unmask(void)
{
	ureg_t flags = read_flags();

	irq_disable();
	pic_unmask_only(PIC_IRQ_PIT);
	pic_poll_ack();
	write_flags(flags);
}

/* ... and every input masked again, as between tests. */
static void irq_mask(void)
{
	pic_set_mask(PIC_MASK_ALL);
}

void watchdog_arm(uint64_t limit_us)
{
	if (!wd.ready)
		return;
	timer_off();
	memset(&wd.ev, 0, sizeof(wd.ev));
	wd.remaining = us_to_ticks(limit_us);
	wd.counted = 0;
	if (wd.kind == WD_HPET)
		wd.armed_at = hpet_main_counter(&wd.hpet);
	wd.armed = 1;
	/* The HPET's pin is unmasked only while armed: if it is shared with
	 * a device's INTx line, nothing else becomes an NMI in between.  The
	 * PIT's pin stays unmasked: only the PIT drives it, and a masked
	 * edge would be lost (82093AA §3.2.4), its NMI never taken.  The
	 * 8259's IR0 (the IRQ route) is unmasked only while armed: its
	 * request is latched while masked, and taken here. */
	if (wd.kind == WD_HPET)
		ioapic_set_rte(&wd.io, wd.pin, nmi_rte(0));
	if (wd.via_irq)
		irq_unmask();
	next_chunk();
}

void watchdog_disarm(void)
{
	if (!wd.ready)
		return;
	wd.armed = 0;
	if (wd.via_irq) {
		/* Masked: a count still running ends unseen, its request
		 * latched until the next watchdog_arm() takes it. */
		irq_mask();
		wd.outstanding = 0;
		return;
	}
	timer_off();
	if (wd.kind == WD_PIT) {
		(void)pit_wait_taken();
		return;
	}
	ioapic_set_rte(&wd.io, wd.pin, nmi_rte(1));
	/* Stopped before it fired: no NMI can come.  Fired: its NMI may
	 * still be on its way; nmi_first() takes it. */
	if (!timer_fired())
		wd.outstanding = 0;
}

const struct wd_event *watchdog_event(void)
{
	return &wd.ev;
}

void watchdog_unavailable(const char *why)
{
	if (!wd.ready)
		wd.why = why;
}

int watchdog_ready(void)
{
	return wd.ready;
}

int watchdog_stops_irq_off(void)
{
	return wd.ready && wd_route_stops_irq_off(wd.route);
}

int watchdog_needs_irq_on(void)
{
	return wd.ready && wd.via_irq;
}

const char *watchdog_describe(void)
{
	if (!wd.ready)
		fmt_snprintf(wd.describe, sizeof(wd.describe),
			     "none reason=\"%s\"", wd.why ? wd.why :
			     "not initialised");
	return wd.describe;
}

/* ---- set-up: a free HPET timer, a free I/O APIC pin it can drive */


/* The I/O APIC pin for gsi, when the pin is masked (unused), or
 * whatever the firmware left there when the pin is ours (own: the PIT's
 * ISA pin on a BIOS boot, where the harness owns the PIT). */
static int take_pin(const struct acpi_timers *t, unsigned gsi, int own)
{
	struct ioapic io;

	if (ioapic_open_gsi(&io, t->ioapic, t->n_ioapics, gsi))
		return 0;
	if (!own && !(ioapic_rte(&io, gsi - io.gsi_base) & IOAPIC_RTE_MASKED))
		return 0;	/* the firmware routes it: leave it */
	wd.io = io;
	wd.pin = gsi - io.gsi_base;
	wd.gsi = gsi;
	return 1;
}

/* The highest free timer that can drive a free PCI-range pin; on a BIOS
 * boot (own_isa), failing that, one that can drive the PIT's GSI (QEMU's
 * i440FX HPET offers only GSI 2): the PIT is then stopped. */
static int pick_timer(const struct acpi_timers *t)
{
	int legacy = hpet_legacy_route(&wd.hpet);

	for (int pass = 0; pass < 1 + wd.own_isa; pass++)
	for (int n = (int)wd.hpet.last_timer; n >= 0; n--) {
		uint32_t route;

		if (hpet_timer_enabled(&wd.hpet, (unsigned)n) ||
		    (legacy && n < 2))
			continue;	/* the firmware's */
		route = hpet_timer_route_cap(&wd.hpet, (unsigned)n);
		if (pass && t->pit_gsi < 32 && (route >> t->pit_gsi & 1) &&
		    take_pin(t, t->pit_gsi, 1)) {
			wd.timer = (unsigned)n;
			wd.pit_quieted = 1;
			return 1;
		}
		for (int gsi = 31; gsi >= FIRST_PCI_GSI && !pass; gsi--)
			if ((route >> gsi & 1) && take_pin(t, (unsigned)gsi, 0)) {
				wd.timer = (unsigned)n;
				return 1;
			}
	}
	return 0;
}

static const char *setup_hpet(const struct acpi_timers *t)
{
	const char *why;

	if (!t->hpet_base)
		return "no HPET";
	why = mmio_unreachable(t->hpet_base, HPET_MMIO_SIZE);
	if (why) {
		fmt_snprintf(wd.why_buf, sizeof(wd.why_buf), "the HPET's "
			     "registers (0x%llx) are %s",
			     (unsigned long long)t->hpet_base, why);
		return wd.why_buf;
	}
	if (apic_init())
		return "no usable local APIC";
	if (apic_id() > 0xff)
		return "APIC ID above 255: no I/O APIC destination";
	if (hpet_open(&wd.hpet, t->hpet_base))
		return "the HPET reports no valid counter period";
	wd.hz = wd.hpet.hz;
	wd.chunk_max = HPET_CHUNK_MAX;
	if (!pick_timer(t))
		return wd.own_isa ? "no free HPET timer with a free I/O APIC "
		       "pin >= 16 or the PIT's GSI" :
		       "no free HPET timer with a free I/O APIC pin >= 16";
	return NULL;
}

/* A BIOS boot: the PIT's counter 0 through the I/O APIC pin of its GSI
 * (the MADT's override of ISA IRQ 0, usually GSI 2); with no I/O APIC,
 * through the 8259 into LINT0; with no local APIC, through the 8259 as
 * a maskable interrupt (watchdog_route.c). */
static const char *setup_pit(const struct acpi_timers *t)
{
	wd.hz = PIT_HZ;
	wd.chunk_max = PIT_MAX_COUNT;
	if (wd.route == WD_ROUTE_PIT_IRQ) {
		wd.via_irq = 1;
		wd.kind = WD_PIT;
		return NULL;
	}
	if (apic_id() > 0xff)
		return "APIC ID above 255: no I/O APIC destination";
	if (wd.route == WD_ROUTE_PIT_LINT0) {
		/* No I/O APIC: the 8259's INTR into LINT0, as an NMI
		 * (SDM Vol. 3A §10.5.1: LINT0's delivery mode may be NMI;
		 * an NMI is always edge-triggered). */
		wd.via_lint0 = 1;
		wd.kind = WD_PIT;
		return NULL;
	}
	if (!take_pin(t, t->pit_gsi, 1)) {
		fmt_snprintf(wd.why_buf, sizeof(wd.why_buf), "no I/O APIC "
			     "input for the PIT's GSI %u", t->pit_gsi);
		return wd.why_buf;
	}
	wd.kind = WD_PIT;
	/* ACPI 6.3 Table 5-51: the override may say active low; an NMI
	 * is edge-triggered whatever it says of the trigger. */
	if ((t->pit_flags & ACPI_MPS_POLARITY_MASK) == ACPI_MPS_POLARITY_LOW)
		wd.rte_extra = IOAPIC_RTE_ACTIVE_LOW;
	return NULL;
}

/* The HPET where it can reach a pin; on a BIOS boot, else the PIT. */
static const char *setup(const struct acpi_timers *t, const char *acpi_why)
{
	const char *hpet_why = acpi_why ? acpi_why : setup_hpet(t);
	const char *pit_why;
	struct wd_machine m = {
		.hpet_ok = !hpet_why,
		.own_isa = wd.own_isa,
		.n_ioapics = t->n_ioapics,
	};

	if (wd.own_isa) {
		wd.apic_why = apic_init();
		m.local_apic = !wd.apic_why;
	}
	wd.route = wd_route_pick(&m);
	if (wd.route == WD_ROUTE_HPET || wd.route == WD_ROUTE_NONE)
		return hpet_why;
	pit_why = setup_pit(t);
	if (!pit_why)
		return NULL;
	fmt_snprintf(wd.why_all, sizeof(wd.why_all), "HPET: %s; PIT: %s",
		     hpet_why, pit_why);
	return wd.why_all;
}

/* The PIT's pin routed as an NMI: its I/O APIC entry, or the 8259's
 * IR0 unmasked alone and LINT0 in NMI mode (unmasked, edge, high). */
static void route_pit(void)
{
	if (!wd.via_lint0) {
		wd.saved_rte = ioapic_rte(&wd.io, wd.pin);
		ioapic_set_rte(&wd.io, wd.pin, nmi_rte(0));
		return;
	}
	wd.saved_lint0 = apic_lint0();
	wd.saved_imr = pic_mask();
	pic_poll_ack();	/* a request the BIOS's tick left pending */
	apic_set_lint0(APIC_DM_NMI << LVT_DM_SHIFT);
	pic_unmask_only(PIC_IRQ_PIT);
}

static void unroute_pit(void)
{
	if (!wd.via_lint0) {
		ioapic_set_rte(&wd.io, wd.pin, wd.saved_rte);
		return;
	}
	pic_set_mask(wd.saved_imr);
	apic_set_lint0(wd.saved_lint0);
}

/* The PIT's route, proved: one count of 1 must come back as our NMI.
 * Counter 0 is held quiet (OUT low for 55 ms) before its pin is routed:
 * the BIOS's 18.2 Hz tick (mode 2) would otherwise put an edge on the pin
 * as soon as it is routed, an NMI the proof would take for its own while
 * its real one came after as a stray ("unexpected NMI" in matrix boots
 * on a busy host). */
static const char *start_pit(void)
{
	trap_set_nmi_first(nmi_first);
	pit_hold_low();
	route_pit();
	wd.outstanding = 1;
	pit_load_count(1);
	if (pit_wait_taken())
		return NULL;
	unroute_pit();
	trap_set_nmi_first(NULL);
	if (wd.via_lint0)
		return "the PIT's NMI through the 8259 and LINT0 never arrived";
	fmt_snprintf(wd.why_buf, sizeof(wd.why_buf), "the PIT's NMI through "
		     "GSI %u (I/O APIC pin %u) never arrived", wd.gsi, wd.pin);
	return wd.why_buf;
}

static void irq_unroute(void)
{
	pic_remap(PIC_BIOS_VECTOR_BASE, wd.saved_imr);
	trap_release_vector(WD_IRQ0_VECTOR);
	trap_release_vector(WD_IRQ7_VECTOR);
	trap_set_hook(WD_IRQ0_VECTOR, NULL);
	trap_set_hook(WD_IRQ7_VECTOR, NULL);
}

/* IR0's and IR7's hooks and IDT gates: nonzero when a gate is not ours
 * to set. */
static int claim_irq_vectors(void)
{
	trap_set_hook(WD_IRQ0_VECTOR, irq0_hook);
	trap_set_hook(WD_IRQ7_VECTOR, irq7_hook);
	return trap_claim_vector(WD_IRQ0_VECTOR, watchdog_irq0_entry, 0) ||
	       trap_claim_vector(WD_IRQ7_VECTOR, watchdog_irq7_entry, 0);
}

/* The IRQ route, proved: the master's vectors moved off the exception
 * vectors (a BIOS maps IR0 on 08h, #DF's), and one count of 1 must come
 * back as our interrupt, let in a NOP at a time (STI's window, SDM Vol. 2B
 * "STI"). */
static const char *start_irq(void)
{
	ureg_t flags = read_flags();
	unsigned i;

	irq_disable();
	wd.saved_imr = pic_mask();
	pic_remap(WD_PIC_VECTOR_BASE, PIC_MASK_ALL);
	if (claim_irq_vectors()) {
		irq_unroute();
		write_flags(flags);
		return "no IDT of ours for the 8259's vectors";
	}
	pit_hold_low();
	irq_unmask();
	wd.outstanding = 1;
	pit_load_count(1);
	for (i = 0; i < PIT_WAIT_POLLS && wd.outstanding; i++)
		__asm__ volatile("sti; nop; cli" ::: "memory");
	irq_mask();
	write_flags(flags);
	if (!wd.outstanding)
		return NULL;
	wd.outstanding = 0;
	irq_unroute();
	return "the PIT's interrupt through the 8259 never arrived";
}

static void describe_pit(void)
{
	unsigned long long ms = wd.chunk_max * 1000 / wd.hz;

	if (wd.via_irq) {
		fmt_snprintf(wd.describe, sizeof(wd.describe),
			     "pit hz=%llu chunk_ms=%llu irq=0 via=8259 "
			     "delivery=interrupt vector=0x%x stops=\"hangs "
			     "with interrupts on\" misses=\"hangs with "
			     "interrupts off (cli; jmp $), at CPL 3 and in "
			     "the single-step tracer, which run with IF = 0\" "
			     "reason=\"%s\"", (unsigned long long)wd.hz, ms,
			     WD_IRQ0_VECTOR, wd.apic_why);
		return;
	}
	if (wd.via_lint0) {
		fmt_snprintf(wd.describe, sizeof(wd.describe),
			     "pit hz=%llu chunk_ms=%llu irq=0 via=8259,lint0 "
			     "delivery=nmi apic_id=%u reason=\"no I/O APIC "
			     "in the ACPI tables\"",
			     (unsigned long long)wd.hz, ms, apic_id());
		return;
	}
	fmt_snprintf(wd.describe, sizeof(wd.describe),
		     "pit hz=%llu chunk_ms=%llu irq=0 gsi=%u ioapic=0x%llx "
		     "pin=%u delivery=nmi dest_apic_id=%u",
		     (unsigned long long)wd.hz, ms, wd.gsi,
		     (unsigned long long)wd.io.base, wd.pin, apic_id());
}

/* Stops the PIT with OUT high (a count of 1 run out) while its pin is
 * still masked: the HPET drives that pin now, and a masked edge is
 * dropped (82093AA §3.2.4). */
static void quiet_pit(void)
{
	pit_run_out(PIT_WAIT_POLLS);
}

static const char *start_hpet(void)
{
	hpet_save(&wd.hpet, wd.timer, &wd.saved_hpet);
	wd.saved_rte = ioapic_rte(&wd.io, wd.pin);
	timer_off();
	ioapic_set_rte(&wd.io, wd.pin, nmi_rte(1));
	if (wd.pit_quieted)
		quiet_pit();
	hpet_counter_run(&wd.hpet);
	trap_set_nmi_first(nmi_first);
	fmt_snprintf(wd.describe, sizeof(wd.describe),
		     "hpet base=0x%llx timer=%u hz=%llu gsi=%u ioapic=0x%llx "
		     "pin=%u delivery=nmi dest_apic_id=%u",
		     (unsigned long long)wd.hpet.base, wd.timer,
		     (unsigned long long)wd.hz, wd.gsi,
		     (unsigned long long)wd.io.base, wd.pin, apic_id());
	return NULL;
}

const char *watchdog_init(const struct acpi_timers *t, const char *acpi_why,
			  int own_isa)
{
	if (wd.ready)
		return NULL;
	wd.own_isa = own_isa;
	wd.why = setup(t, acpi_why);
	if (!wd.why)
		wd.why = wd.via_irq ? start_irq() :
			 wd.kind == WD_PIT ? start_pit() : start_hpet();
	if (wd.why)
		return wd.why;
	if (wd.kind == WD_PIT)
		describe_pit();
	wd.ready = 1;
	return NULL;
}

void watchdog_restore(void)
{
	if (!wd.ready)
		return;
	watchdog_disarm();
	trap_set_nmi_first(NULL);
	if (wd.via_irq)
		irq_unroute();
	else if (wd.kind == WD_PIT)
		unroute_pit();
	else
		ioapic_set_rte(&wd.io, wd.pin, wd.saved_rte);
	if (wd.kind == WD_HPET)
		hpet_restore(&wd.hpet, wd.timer, &wd.saved_hpet);
	if (wd.kind == WD_PIT || wd.pit_quieted)
		pit_bios_tick();
	wd.ready = 0;
}
