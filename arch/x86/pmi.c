/* pmi: the harness's PMI handler (pmi.h). */
#include "pmi.h"
#include "apic.h"
#include "cpu.h"
#include "trace.h"
#include "trap.h"
#include <stddef.h>

#define DRAIN_TRIES 16

void pmi_vector_entry(void);

static struct {
	int armed;
	enum pmi_path path;
	volatile uint64_t count;
	struct pmi_record last;
	pmi_callback fn;
	void *ctx;
} pmi;

static void take(const struct trap_frame *tf, enum pmi_path path)
{
	struct pmi_record r;

	pmi_attribute(&r, tf, trace_resume_rip(), trap_hook_frame(VEC_DB));
	r.path = path;
	r.seq = pmi.count + 1;
	pmi.last = r;
	pmi.count = r.seq;
	if (pmi.fn)
		pmi.fn(&r, pmi.ctx);
}

static int nmi_hook(struct trap_frame *tf)
{
	take(tf, PMI_PATH_NMI);
	return 1;		/* an NMI needs no EOI (§10.8.5) */
}

static int vector_hook(struct trap_frame *tf)
{
	take(tf, PMI_PATH_VECTOR);
	apic_eoi();
	return 1;
}

static int vector_busy(void)
{
	return (apic_read(APIC_SVR) & 0xff) == PMI_VECTOR ||
	       apic_irr(PMI_VECTOR) || apic_isr(PMI_VECTOR);
}

/* Lends PMI_VECTOR to the handler; interrupts are off (trap.h). */
static int claim_vector(void)
{
	if (vector_busy())
		return -1;
	trap_set_hook(PMI_VECTOR, vector_hook);
	if (trap_claim_vector(PMI_VECTOR, pmi_vector_entry, 0)) {
		trap_set_hook(PMI_VECTOR, NULL);
		return -1;
	}
	return 0;
}

int pmi_arm(enum pmi_path path)
{
	ureg_t flags;
	uint32_t lvt;

	if (apic_init())
		return -1;
	pmi_disarm();
	flags = read_flags();
	irq_disable();
	if (path == PMI_PATH_VECTOR) {
		if (claim_vector()) {
			write_flags(flags);
			return -1;
		}
		lvt = APIC_DM_FIXED << LVT_DM_SHIFT | PMI_VECTOR;
	} else {
		trap_set_hook(VEC_NMI, nmi_hook);
		lvt = APIC_DM_NMI << LVT_DM_SHIFT;
	}
	pmi.count = 0;
	pmi.last = (struct pmi_record){ 0 };
	pmi.path = path;
	pmi.armed = 1;
	apic_set_lvtpc(lvt);
	write_flags(flags);
	return 0;
}

/* A fixed PMI sent while IF was clear waits in the IRR: let it in while
 * the gate is still ours. */
static void drain_vector(void)
{
	for (unsigned i = 0; i < DRAIN_TRIES && apic_irr(PMI_VECTOR); i++)
		__asm__ volatile("sti; nop; cli" ::: "memory");
}

void pmi_disarm(void)
{
	ureg_t flags = read_flags();

	if (!pmi.armed)
		return;
	irq_disable();
	apic_set_lvtpc(apic_lvtpc() | LVT_MASKED);
	if (pmi.path == PMI_PATH_VECTOR) {
		drain_vector();
		trap_release_vector(PMI_VECTOR);
		trap_set_hook(PMI_VECTOR, NULL);
	} else {
		trap_set_hook(VEC_NMI, NULL);
	}
	pmi.fn = NULL;
	pmi.ctx = NULL;
	pmi.armed = 0;
	write_flags(flags);
}

uint64_t pmi_count(void)
{
	return pmi.count;
}

int pmi_last(struct pmi_record *r)
{
	if (!pmi.last.seq)
		return 0;
	*r = pmi.last;
	return 1;
}

void pmi_set_callback(pmi_callback fn, void *ctx)
{
	/* No handler may see fn with the previous ctx. */
	pmi.fn = NULL;
	__asm__ volatile("" ::: "memory");
	pmi.ctx = ctx;
	__asm__ volatile("" ::: "memory");
	pmi.fn = fn;
}

const char *pmi_path_name(enum pmi_path p)
{
	return p == PMI_PATH_NMI ? "nmi" : "vector";
}
