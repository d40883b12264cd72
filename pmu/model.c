/* model: the model of a kind (its generation's), the model clock, the
 * event feed and the RDPMC instruction under the model (model.h). */
#include "model.h"
#include "emufault.h"
#include "generation.h"
#include "noise.h"
#include "../arch/x86/apic.h"
#include "../arch/x86/cpu.h"
#include "../arch/x86/smp.h"
#include "../arch/x86/trap.h"
#include "../lib/string.h"

static const struct pmu_model *live;
static uint64_t clock;
static int (*rdpmc_answer)(uint32_t idx, uint64_t *v);
static int pmi_again;	/* EF_PMI_TWICE: 1 + mask_after of the PMI
			 * owed at the next step, 0: none */

static unsigned interrupts;	/* PMIs delivered (model_interrupts) */
static void pmi_twice_step(void);
static void pmi_skid_step(void);
/* emulated_noise=1: a PMI waiting out its skid (pmu/noise.h), delivered
 * after that many more traced steps of this processor. */
static unsigned skid_left;
static int skid_mask_after;

const struct pmu_model *model_for(enum pmu_kind k)
{
	const struct pmu_generation *g = pmu_generation_for(k);

	return g ? g->model : NULL;
}

/*
 * A real RDPMC instruction while a model stands in: QEMU has no counters
 * (it raises #UD, or #GP at CPL > 0 with CR4.PCE clear), so the fault is
 * taken here and answered as the modelled CPU would: #UD where it has no
 * RDPMC; #GP(0) at CPL > 0 when CR4.PCE is clear (SDM Vol. 2B RDPMC,
 * "Protected Mode Exceptions"); the model's #GP for an invalid counter;
 * else EDX:EAX = the counter and execution goes on after the instruction.
 * RDPMC is 0F 33 (SDM Vol. 2B).
 */
static int is_rdpmc(const struct trap_frame *tf)
{
	const uint8_t *p = (const uint8_t *)(uintptr_t)tf->rip;

	return p[0] == 0x0f && p[1] == 0x33;
}

/* CR4.PCE as the modelled CPU has it: the real bit, or the one
 * model_cpl3_pce() stands in for (the real bit then stays clear). */
static int virtual_pce = -1;

static int model_pce(void)
{
	return virtual_pce >= 0 ? virtual_pce : !!(read_cr4() & X86_CR4_PCE);
}

static int rdpmc_insn(struct trap_frame *tf)
{
	uint64_t v = 0;
	int vec;

	if (!live || !is_rdpmc(tf))
		return 0;
	vec = rdpmc_answer ? rdpmc_answer((uint32_t)tf->rcx, &v) :
			     live->rdpmc((uint32_t)tf->rcx, &v);
	if (vec != VEC_UD && (tf->cs & 3) && !model_pce())
		vec = VEC_GP;
	if (vec) {
		tf->vector = (uint64_t)vec;	/* the fault the model raises */
		tf->error = 0;
		return 0;
	}
	tf->rax = (uint32_t)v;
	tf->rdx = v >> 32;
	tf->rip += 2;
	return 1;
}

void model_activate(const struct pmu_model *m)
{
	live = m;
	clock = 0;
	pmi_again = 0;
	skid_left = 0;
	trap_set_hook(VEC_UD, m ? rdpmc_insn : 0);
	trap_set_hook(VEC_GP, m ? rdpmc_insn : 0);
	if (m)
		m->reset();
}

/*
 * A machine without counters may still execute RDPMC at CPL 3 with
 * CR4.PCE set and read 0 itself (Bochs's P6 and later models do): the
 * model would never see the instruction.  So while a model stands in, a
 * CPL 3 run keeps the real CR4.PCE clear, making every CPL 3 RDPMC fault
 * (#GP, SDM Vol. 2B RDPMC; #UD where there is no RDPMC), and the model
 * answers with the PCE asked for here.  pce < 0: back to the real bit.
 */
void model_cpl3_pce(int pce)
{
	virtual_pce = pce < 0 ? -1 : !!pce;
}

void model_rdpmc_via(int (*fn)(uint32_t idx, uint64_t *v))
{
	rdpmc_answer = fn;
}

const struct pmu_model *model_active(void)
{
	return live;
}

int model_on_sibling(void)
{
	return smp_on_sibling();
}

void model_feed(const struct insn_event *e, void *ctx)
{
	(void)ctx;
	if (!smp_on_sibling())
		clock++;
	pmi_twice_step();
	pmi_skid_step();
	if (live)
		live->event(e);
}

uint64_t model_clock(void)
{
	return clock;
}

/* ---- predictions beside the live model (model.h) */

static struct {
	int on;
	const struct pmu_model *was_live;	/* NULL: no model was live */
	uint64_t was_clock;
	struct model_part part[MODEL_MAX_PARTS];
	unsigned n_parts;
	/* the saved state: the largest model (perfmon with its DS, LBR and
	 * PT parts) needs about 3 KiB today */
	uint8_t saved[8192] __attribute__((aligned(16)));
} pred;

/* Saves the live model's parts; NULL, or why it cannot. */
static const char *save_live(void)
{
	unsigned off = 0;

	pred.n_parts = live->parts ? live->parts(pred.part) : 0;
	if (!pred.n_parts)
		return "the live model cannot save its state";
	for (unsigned i = 0; i < pred.n_parts; i++)
		off += pred.part[i].size;
	if (pred.n_parts > MODEL_MAX_PARTS || off > sizeof(pred.saved))
		return "the live model's state exceeds the room kept for it";
	off = 0;
	for (unsigned i = 0; i < pred.n_parts; i++) {
		memcpy(pred.saved + off, pred.part[i].p, pred.part[i].size);
		off += pred.part[i].size;
	}
	return 0;
}

static void restore_live(void)
{
	unsigned off = 0;

	for (unsigned i = 0; i < pred.n_parts; i++) {
		memcpy(pred.part[i].p, pred.saved + off, pred.part[i].size);
		off += pred.part[i].size;
	}
}

const char *model_predict_begin(enum pmu_kind k, const struct cpu_info *ci)
{
	const struct pmu_model *m = model_for(k);
	const char *why;

	if (pred.on)
		return "a prediction is already running";
	if (!m)
		return "no reference model for this PMU kind";
	why = m->cannot_model ? m->cannot_model(ci) : 0;
	if (why)
		return why;
	if (live && live != m)
		return "another model is live";
	if (live && (why = save_live()))
		return why;
	pred.was_live = live;
	pred.was_clock = clock;
	pred.on = 1;
	emufault_hold(1);	/* the prediction is the model's own */
	noise_hold(1);
	live = m;
	clock = 0;
	m->reset();
	return 0;
}

void model_predict_end(void)
{
	if (!pred.on)
		return;
	if (pred.was_live)
		restore_live();
	live = pred.was_live;
	clock = pred.was_clock;
	pred.on = 0;
	emufault_hold(0);
	noise_hold(0);
}

/* EF_PMI_TWICE: the PMI again at the next step (the first has been
 * taken by then, IRET having set IF), as an emulator that raises its
 * overflow interrupt once per check would; the first delivery leaves the
 * LVTPC unmasked so that the second gets through, and the second masks
 * it as the first should have (model_raise_pmi). */
static void pmi_twice_step(void)
{
	int mask_after = pmi_again - 1;

	if (!pmi_again || smp_on_sibling())
		return;
	pmi_again = 0;
	if (apic_lvtpc_deliver(mask_after) > 0)
		interrupts++;
}

/* The PMI through the LVTPC, once (or, EF_PMI_TWICE, twice); each
 * delivery an interrupt taken (model_interrupts). */
static int deliver(int mask_after)
{
	int r;

	if (!emufault_on(EF_PMI_TWICE)) {
		r = apic_lvtpc_deliver(mask_after);
	} else {
		r = apic_lvtpc_deliver(0);
		if (r > 0)
			pmi_again = 1 + !!mask_after;
	}
	if (r > 0)
		interrupts++;
	return r;
}


static void pmi_skid_step(void)
{
	if (!skid_left || smp_on_sibling() || --skid_left)
		return;
	(void)deliver(skid_mask_after);
}

int model_raise_pmi(int mask_after)
{
	if (pred.on)
		return 0;	/* the predicted run's PMI is not raised */
	if (emufault_on(EF_PMI_LOST))
		return 1;	/* the emulator says it raised it */
	if (skid_left)
		return 1;	/* one is on its way: the same interrupt */
	/* the sibling's PMI comes at once: its steps are traced apart
	 * (arch/x86/smp.h), and the skid counts this processor's */
	if (noise_on() && !smp_on_sibling() &&
	    (skid_left = noise_pmi_skid())) {
		skid_mask_after = mask_after;
		return 1;
	}
	return deliver(mask_after);
}

void model_pmi_flush(void)
{
	if (!skid_left)
		return;
	skid_left = 0;
	(void)deliver(skid_mask_after);
}

unsigned model_interrupts(void)
{
	return interrupts;
}
