/* watchdog: the HPET one-shot routed as an NMI (watchdog.h). */
#include "watchdog.h"
#include "apic.h"
#include "cpu.h"
#include "hpet.h"
#include "ioapic.h"
#include "mmio.h"
#include "trace.h"
#include "trap.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

/* A chunk never spans more than 2^31 ticks, so the low 32 bits of the
 * counter tell before from after (32-bit timers compare only those). */
#define CHUNK_MAX 0x7fffffffull
/* ... and never less than this, so the counter cannot pass the
 * comparator before it is enabled. */
#define CHUNK_MIN_US 1000ull
#define FIRST_PCI_GSI 16	/* GSIs below are ISA IRQs, also wired to
				 * the 8259 PICs the firmware may use */

extern char _text[], _etext[];
void nmi_unblock(void);

static struct {
	int ready, armed, outstanding;
	const char *why;
	char describe[200];
	char why_buf[128];
	uint64_t base;		/* HPET registers */
	uint64_t hz;		/* HPET ticks per second */
	unsigned timer, pin, gsi;
	struct ioapic io;
	/* the firmware's, for watchdog_restore() */
	uint64_t saved_conf, saved_cmp, saved_gen, saved_rte;
	uint64_t cmp;		/* the comparator programmed */
	uint64_t remaining;	/* ticks still to wait after this chunk */
	struct wd_event ev;
} wd;

/* The HPET's 64-bit registers: one access in x86-64, two 32-bit halves
 * in i386, as the HPET spec 1.0a allows a 32-bit CPU ("Issues related to
 * 64-bit Timers with 32-bit CPUs").  The main counter runs while it is
 * read: read the high half again until it holds still. */
static uint64_t hpet_read(unsigned off)
{
	volatile uint32_t *p = mmio_ptr(wd.base + off);
	uint32_t hi, lo;

	if (sizeof(uintptr_t) == 8)
		return *(volatile uint64_t *)mmio_ptr(wd.base + off);
	do {
		hi = p[1];
		lo = p[0];
	} while (hi != p[1]);
	return (uint64_t)hi << 32 | lo;
}

/* In halves, low first: timer_start() enables the timer after its
 * comparator is whole. */
static void hpet_write(unsigned off, uint64_t v)
{
	volatile uint32_t *p = mmio_ptr(wd.base + off);

	if (sizeof(uintptr_t) == 8) {
		*(volatile uint64_t *)mmio_ptr(wd.base + off) = v;
		return;
	}
	p[0] = (uint32_t)v;
	p[1] = (uint32_t)(v >> 32);
}

static uint64_t us_to_ticks(uint64_t us)
{
	return us / 1000000 * wd.hz + us % 1000000 * wd.hz / 1000000;
}

static int timer_fired(void)
{
	uint32_t now = (uint32_t)hpet_read(HPET_MAIN_COUNTER);

	return (int32_t)(now - (uint32_t)wd.cmp) >= 0;
}

static void timer_off(void)
{
	uint64_t c = hpet_read(HPET_TIMER_CONF(wd.timer));

	hpet_write(HPET_TIMER_CONF(wd.timer), c & ~HPET_TN_INT_ENB);
}

/* The pin's entry: NMI, edge-triggered, active high, physical destination
 * this processor (an NMI must be edge-triggered, 82093AA §3.2.4). */
static uint64_t nmi_rte(int masked)
{
	return IOAPIC_RTE_DM_NMI | (uint64_t)apic_id() << IOAPIC_RTE_DEST_SHIFT |
	       (masked ? IOAPIC_RTE_MASKED : 0);
}

/* One-shot, edge-triggered, routed to our pin, enabled last. */
static void timer_start(uint64_t ticks)
{
	uint64_t c = hpet_read(HPET_TIMER_CONF(wd.timer));
	uint64_t min = us_to_ticks(CHUNK_MIN_US);

	if (ticks < min)
		ticks = min;
	c &= ~(HPET_TN_INT_ENB | HPET_TN_INT_TYPE_LEVEL | HPET_TN_PERIODIC |
	       HPET_TN_FSB_EN | HPET_TN_ROUTE_MASK);
	c |= (uint64_t)wd.gsi << HPET_TN_ROUTE_SHIFT;
	if (!(c & HPET_TN_SIZE_64))
		c |= HPET_TN_32MODE;
	hpet_write(HPET_TIMER_CONF(wd.timer), c);
	wd.cmp = hpet_read(HPET_MAIN_COUNTER) + ticks;
	hpet_write(HPET_TIMER_COMPARATOR(wd.timer), wd.cmp);
	wd.outstanding = 1;
	hpet_write(HPET_TIMER_CONF(wd.timer), c | HPET_TN_INT_ENB);
}

/* The next chunk of what is left of the limit. */
static void next_chunk(void)
{
	uint64_t chunk = wd.remaining > CHUNK_MAX ? CHUNK_MAX : wd.remaining;

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
	wd.ev.stage++;
	to_root = wd.ev.stage > 1;
	if (to_root) {
		wd.armed = 0;
	} else {
		wd.remaining = us_to_ticks(WD_GRACE_US);
		next_chunk();
	}
	nmi_unblock();
	trap_abort(&f, to_root);
}

static int nmi_first(struct trap_frame *tf)
{
	if (!wd.outstanding || !timer_fired())
		return 0;	/* not our timer: the PMI's, or another */
	wd.outstanding = 0;
	timer_off();
	if (!wd.armed)
		return 1;	/* fired as it was being disarmed */
	if (wd.remaining) {
		next_chunk();
		return 1;
	}
	if (!in_our_code(tf->rip) &&
	    wd.ev.firmware_waits * WD_RETRY_US < WD_FIRMWARE_WAIT_US) {
		wd.ev.firmware_waits++;
		wd.remaining = us_to_ticks(WD_RETRY_US);
		next_chunk();
		return 1;
	}
	expire(tf);
	return 1;		/* not reached */
}

void watchdog_arm(uint64_t limit_us)
{
	if (!wd.ready)
		return;
	timer_off();
	memset(&wd.ev, 0, sizeof(wd.ev));
	wd.remaining = us_to_ticks(limit_us);
	wd.armed = 1;
	/* The pin is unmasked only while armed: if it is shared with a
	 * device's INTx line, nothing else becomes an NMI in between. */
	ioapic_set_rte(&wd.io, wd.pin, nmi_rte(0));
	next_chunk();
}

void watchdog_disarm(void)
{
	if (!wd.ready)
		return;
	wd.armed = 0;
	timer_off();
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

const char *watchdog_describe(void)
{
	if (!wd.ready)
		fmt_snprintf(wd.describe, sizeof(wd.describe),
			     "none reason=\"%s\"", wd.why ? wd.why :
			     "not initialised");
	return wd.describe;
}

/* ---- set-up: a free HPET timer, a free I/O APIC pin it can drive */


/* The I/O APIC pin for gsi, when the pin is masked (unused). */
static int free_pin(const struct acpi_timers *t, unsigned gsi)
{
	for (unsigned i = 0; i < t->n_ioapics; i++) {
		const struct acpi_ioapic *a = &t->ioapic[i];
		struct ioapic io;

		if (gsi < a->gsi_base ||
		    mmio_unreachable(a->base, IOAPIC_MMIO_SIZE) ||
		    ioapic_open(&io, a->base, a->gsi_base) ||
		    gsi - a->gsi_base >= io.entries)
			continue;
		if (!(ioapic_rte(&io, gsi - a->gsi_base) & IOAPIC_RTE_MASKED))
			return 0;	/* the firmware routes it: leave it */
		wd.io = io;
		wd.pin = gsi - a->gsi_base;
		wd.gsi = gsi;
		return 1;
	}
	return 0;
}

/* The highest free timer that can drive a free PCI-range pin. */
static int pick_timer(const struct acpi_timers *t, uint64_t cap)
{
	unsigned last = (unsigned)(cap >> HPET_CAP_NUM_TIM_SHIFT &
				   HPET_CAP_NUM_TIM_MASK);
	int legacy = !!(hpet_read(HPET_GEN_CONF) & HPET_CONF_LEGACY);

	for (int n = (int)last; n >= 0; n--) {
		uint64_t conf = hpet_read(HPET_TIMER_CONF(n));
		uint32_t route = (uint32_t)(conf >> HPET_TN_ROUTE_CAP_SHIFT);

		if ((conf & HPET_TN_INT_ENB) || (legacy && n < 2))
			continue;	/* the firmware's */
		for (int gsi = 31; gsi >= FIRST_PCI_GSI; gsi--)
			if ((route >> gsi & 1) && free_pin(t, (unsigned)gsi)) {
				wd.timer = (unsigned)n;
				return 1;
			}
	}
	return 0;
}

static const char *setup(const struct acpi_timers *t)
{
	uint64_t cap, period;
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
	wd.base = t->hpet_base;
	cap = hpet_read(HPET_GCAP_ID);
	period = cap >> HPET_CAP_PERIOD_SHIFT;
	if (!period || period > HPET_CAP_PERIOD_MAX)
		return "the HPET reports no valid counter period";
	wd.hz = HPET_FS_PER_S / period;
	if (!pick_timer(t, cap))
		return "no free HPET timer with a free I/O APIC pin >= 16";
	return NULL;
}

const char *watchdog_init(const struct acpi_timers *t)
{
	if (wd.ready)
		return NULL;
	wd.why = setup(t);
	if (wd.why)
		return wd.why;
	wd.saved_gen = hpet_read(HPET_GEN_CONF);
	wd.saved_conf = hpet_read(HPET_TIMER_CONF(wd.timer));
	wd.saved_cmp = hpet_read(HPET_TIMER_COMPARATOR(wd.timer));
	wd.saved_rte = ioapic_rte(&wd.io, wd.pin);
	timer_off();
	ioapic_set_rte(&wd.io, wd.pin, nmi_rte(1));
	hpet_write(HPET_GEN_CONF, wd.saved_gen | HPET_CONF_ENABLE);
	trap_set_nmi_first(nmi_first);
	wd.ready = 1;
	fmt_snprintf(wd.describe, sizeof(wd.describe),
		     "hpet base=0x%llx timer=%u hz=%llu gsi=%u ioapic=0x%llx "
		     "pin=%u delivery=nmi dest_apic_id=%u",
		     (unsigned long long)wd.base, wd.timer,
		     (unsigned long long)wd.hz, wd.gsi,
		     (unsigned long long)wd.io.base, wd.pin, apic_id());
	return NULL;
}

void watchdog_restore(void)
{
	if (!wd.ready)
		return;
	watchdog_disarm();
	trap_set_nmi_first(NULL);
	ioapic_set_rte(&wd.io, wd.pin, wd.saved_rte);
	hpet_write(HPET_TIMER_CONF(wd.timer), wd.saved_conf);
	hpet_write(HPET_TIMER_COMPARATOR(wd.timer), wd.saved_cmp);
	hpet_write(HPET_GEN_CONF, wd.saved_gen);
	wd.ready = 0;
}
