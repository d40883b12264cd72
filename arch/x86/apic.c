/* apic: local APIC access in xAPIC and x2APIC mode (apic.h). */
#include "apic.h"
#include <stddef.h>
#include "cpu.h"
#include "mmio.h"
#include "safe.h"
#include "../../lib/fmt.h"

#define APIC_PAGE 4096		/* the xAPIC's register page (§10.4.1) */
#define ICR_SPIN 100000		/* polls of the xAPIC send-pending bit */
#define LVTPC_WRITABLE (LVT_VECTOR | LVT_DM_MASK | LVT_MASKED)
/* LINT0/LINT1 add the input pin polarity (bit 13) and trigger mode (bit
 * 15) (Figure 10-8). */
#define LINT_WRITABLE (LVTPC_WRITABLE | 1u << 13 | 1u << 15)

static struct {
	int done;
	const char *why;	/* NULL: usable */
	enum apic_mode mode;
	uint64_t base_msr, base;
	volatile uint8_t *mmio;
	int saved;
	uint32_t firmware_lvtpc;
	char why_buf[128];
} apic;

static uint32_t x2apic_msr(unsigned reg)
{
	return X2APIC_MSR_BASE + reg / 16;
}

uint32_t apic_read(unsigned reg)
{
	if (apic.mode == APIC_X2APIC)
		return (uint32_t)rdmsr(x2apic_msr(reg));
	if (apic.mode == APIC_XAPIC)
		return *(volatile uint32_t *)(apic.mmio + reg);
	return 0;
}

/* Register write by xAPIC offset (APIC_*), in either mode; the ICR only
 * in xAPIC mode, high half first (send_ipi()).  Only after apic_init()
 * returned NULL. */
static void apic_write(unsigned reg, uint32_t v)
{
	if (apic.mode == APIC_X2APIC)
		wrmsr(x2apic_msr(reg), v);
	else if (apic.mode == APIC_XAPIC)
		*(volatile uint32_t *)(apic.mmio + reg) = v;
}

static const char *find_mode(void)
{
	const char *why;

	if (!(cpuid(1).edx & CPUID1_EDX_APIC))
		return "no local APIC (CPUID.01H:EDX.APIC[bit 9] = 0)";
	if (rdmsr_safe(MSR_IA32_APIC_BASE, &apic.base_msr))
		return "IA32_APIC_BASE unreadable";
	if (!(apic.base_msr & APIC_BASE_EN))
		return "local APIC globally disabled (IA32_APIC_BASE.EN = 0)";
	apic.base = apic.base_msr & APIC_BASE_ADDR;
	if (apic.base_msr & APIC_BASE_EXTD) {
		apic.mode = APIC_X2APIC;
		return NULL;
	}
	/* UEFI identity-maps MMIO; make sure before touching it.  The
	 * x2APIC above needs no address: its registers are MSRs, in 32-bit
	 * mode too (SDM Vol. 3A §10.12.1). */
	why = mmio_unreachable(apic.base, APIC_PAGE);
	if (why) {
		fmt_snprintf(apic.why_buf, sizeof(apic.why_buf),
			     "the APIC register page (0x%llx) is %s",
			     (unsigned long long)apic.base, why);
		return apic.why_buf;
	}
	apic.mmio = (volatile uint8_t *)mmio_ptr(apic.base);
	apic.mode = APIC_XAPIC;
	return NULL;
}

static const char *detect(void)
{
	const char *why = find_mode();
	unsigned max_lvt;

	if (why)
		return why;
	if (!(apic_read(APIC_SVR) & APIC_SVR_ENABLE))
		return "local APIC software-disabled (SVR bit 8 = 0): its "
		       "LVT entries stay masked";
	max_lvt = apic_read(APIC_VERSION) >> APIC_VERSION_MAX_LVT_SHIFT & 0xff;
	if (max_lvt < APIC_MAX_LVT_WITH_LVTPC)
		return "no LVT performance-counter entry";
	return NULL;
}

const char *apic_init(void)
{
	if (apic.done)
		return apic.why;
	apic.done = 1;
	apic.why = detect();
	if (!apic.why) {
		apic.firmware_lvtpc = apic_read(APIC_LVTPC);
		apic.saved = 1;
	}
	return apic.why;
}

void apic_restore(void)
{
	if (apic.saved)
		apic_set_lvtpc(apic.firmware_lvtpc);
}

enum apic_mode apic_mode(void)
{
	return apic.mode;
}

const char *apic_mode_name(enum apic_mode m)
{
	return m == APIC_X2APIC ? "x2apic" : m == APIC_XAPIC ? "xapic" : "none";
}

uint64_t apic_base(void)
{
	return apic.base;
}

uint64_t apic_base_msr(void)
{
	return apic.base_msr;
}

uint32_t apic_id(void)
{
	if (apic.mode == APIC_X2APIC)
		return apic_read(APIC_ID);
	return apic_read(APIC_ID) >> APIC_ID_SHIFT;
}

void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);	/* x2APIC: non-zero raises #GP */
}

static int vector_bit(unsigned reg, unsigned vector)
{
	uint32_t word = apic_read(reg + (vector / 32) * 0x10);

	return (int)(word >> (vector % 32) & 1);
}

int apic_irr(unsigned vector)
{
	return vector < 256 && vector_bit(APIC_IRR, vector);
}

int apic_isr(unsigned vector)
{
	return vector < 256 && vector_bit(APIC_ISR, vector);
}

static void xapic_wait_idle(void)
{
	for (unsigned i = 0; i < ICR_SPIN; i++) {
		if (!(apic_read(APIC_ICR_LOW) & ICR_SEND_PENDING))
			return;
		__asm__ volatile("pause");
	}
}

/* One IPI: low is ICR bits 31:0, dest the destination APIC ID.  With
 * interrupts off, so that no handler's IPI lands between the two xAPIC
 * halves. */
static void send_ipi(uint32_t low, uint32_t dest)
{
	ureg_t flags = read_flags();

	irq_disable();
	if (apic.mode == APIC_X2APIC) {
		/* WRMSR to x2APIC registers is not serializing (§10.12.3) */
		__asm__ volatile("mfence" ::: "memory");
		wrmsr(X2APIC_MSR_ICR, (uint64_t)dest << ICR_X2APIC_DEST_SHIFT |
		      low);
	} else {
		xapic_wait_idle();
		apic_write(APIC_ICR_HIGH, dest << ICR_XAPIC_DEST_SHIFT);
		apic_write(APIC_ICR_LOW, low);
		xapic_wait_idle();
	}
	write_flags(flags);
}

static void send_fixed_self(unsigned vector)
{
	if (apic.mode == APIC_X2APIC) {
		/* SELF IPI: a self, edge, fixed IPI (§10.12.11) */
		__asm__ volatile("mfence" ::: "memory");
		wrmsr(X2APIC_MSR_SELF_IPI, vector);
		return;
	}
	send_ipi(vector | APIC_DM_FIXED << ICR_DM_SHIFT | ICR_LEVEL_ASSERT |
		 ICR_SHORTHAND_SELF, 0);
}

/* Sends an IPI to this processor: dm APIC_DM_FIXED with vector (16-255;
 * the Self shorthand, or SELF IPI in x2APIC mode) or APIC_DM_NMI (no
 * shorthand, own ID).  Returns 0, or -1 for another mode or a bad vector. */
static int apic_self_ipi(unsigned dm, unsigned vector)
{
	if (apic.why || !apic.done)
		return -1;
	if (dm == APIC_DM_FIXED && vector >= APIC_FIRST_VECTOR &&
	    vector < 256) {
		send_fixed_self(vector);
		return 0;
	}
	if (dm == APIC_DM_NMI) {
		/* "Self" with NMI is invalid (Tables 10-3, 10-4): no
		 * shorthand, physical destination = own ID, edge. */
		send_ipi(APIC_DM_NMI << ICR_DM_SHIFT | ICR_LEVEL_ASSERT |
			 ICR_SHORTHAND_NONE, apic_id());
		return 0;
	}
	return -1;
}

void apic_sw_enable(void)
{
	if (apic.why || !apic.done)
		return;
	apic_write(APIC_SVR, apic_read(APIC_SVR) | APIC_SVR_ENABLE);
}

int apic_send_ipi(unsigned dm, unsigned vector, uint32_t dest)
{
	if (apic.why || !apic.done || dest == apic_id())
		return -1;
	if (apic.mode == APIC_XAPIC && dest > 0xff)
		return -1;
	switch (dm) {
	case APIC_DM_INIT:
	case APIC_DM_NMI:
		vector = 0;	/* INIT: 00H (§10.6.1); NMI: ignored */
		break;
	case APIC_DM_STARTUP:
		if (vector > 0xff)
			return -1;
		break;
	default:
		return -1;
	}
	send_ipi(vector | dm << ICR_DM_SHIFT | ICR_LEVEL_ASSERT |
		 ICR_SHORTHAND_NONE, dest);
	return 0;
}

uint32_t apic_lint0(void)
{
	return apic_read(APIC_LVT_LINT0);
}

void apic_set_lint0(uint32_t v)
{
	apic_write(APIC_LVT_LINT0, v & LINT_WRITABLE);
}

uint32_t apic_lvtpc(void)
{
	return apic_read(APIC_LVTPC);
}

void apic_set_lvtpc(uint32_t v)
{
	/* x2APIC: setting a reserved bit raises #GP (Table 10-6 note 2) */
	apic_write(APIC_LVTPC, v & LVTPC_WRITABLE);
}

uint32_t apic_firmware_lvtpc(void)
{
	return apic.firmware_lvtpc;
}

int apic_lvtpc_deliver(int mask_after)
{
	uint32_t lvt, dm, vector;

	if (apic.why || !apic.done)
		return -1;
	lvt = apic_lvtpc();
	if (lvt & LVT_MASKED)
		return 0;
	dm = (lvt & LVT_DM_MASK) >> LVT_DM_SHIFT;
	vector = lvt & LVT_VECTOR;
	if (dm != APIC_DM_NMI &&
	    (dm != APIC_DM_FIXED || vector < APIC_FIRST_VECTOR))
		return -1;
	if (mask_after)
		apic_set_lvtpc(lvt | LVT_MASKED);
	return apic_self_ipi(dm, vector) ? -1 : 1;
}
