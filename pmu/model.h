/* model: reference models of PMU generations behind the model backend.
 *
 * Each generation's model is an object of its folder (p5_model,
 * pmu/p5/model.h) that the generation's descriptor names (.model,
 * pmu/generation.h); model_for() finds it through the descriptor.
 *
 * A model is a software register file with the generation's semantics.
 * It sees the machine only through the oracle's event stream: one event
 * per single-step (arch/x86/trace.h).  The model clock is deterministic:
 * it advances by one cycle per event, i.e. per retired instruction and per
 * REP iteration, at the CPL of that event; it is not the machine's clock,
 * and clock counts from the model say so wherever they are logged.
 *
 * Registers the generation does not have read and write as #GP (13), as
 * an absent MSR does on hardware. */
#ifndef PMU_MODEL_H
#define PMU_MODEL_H

#include <stdint.h>
#include "../arch/x86/trace.h"
#include "cpu_model.h"
#include "detect.h"

/* Where a model keeps its state (a register file is one or a few static
 * structs): what a prediction beside the live model saves and restores
 * (model_predict_begin). */
struct model_part {
	void *p;
	unsigned size;
};
#define MODEL_MAX_PARTS 5

struct pmu_model {
	enum pmu_kind kind;
	const char *name;
	void (*reset)(void);
	int (*rdmsr)(uint32_t msr, uint64_t *v);
	int (*wrmsr)(uint32_t msr, uint64_t v);
	int (*rdpmc)(uint32_t idx, uint64_t *v);
	/* one traced step; the clock has already advanced for it */
	void (*event)(const struct insn_event *e);
	/* optional: why the model cannot stand in for this CPU (NULL: it
	 * can), e.g. no capability row for its model number */
	const char *(*cannot_model)(const struct cpu_info *ci);
	/* optional (backend=emulated needs it): does any counter count,
	 * i.e. would an instruction retiring now be counted at some CPL?
	 * The emulated backend traces exactly while this holds. */
	int (*counting)(void);
	/* Does the generation's silicon count an interrupt taken while a
	 * counter counts as one more retired instruction?  "x86 in general"
	 * does, the Pentium 4 does not (pmu/noise.h, Weaver et al.);
	 * emulated_noise=1 adds it where this is 1. */
	int interrupt_retires;
	/* optional: the parts of its state (at most MODEL_MAX_PARTS), so a
	 * prediction can run beside the live model and leave it as it was;
	 * without it a model predicts only where it is not the backend */
	unsigned (*parts)(struct model_part *p);
};

/* The reference model of kind k: the one its generation's descriptor
 * names (pmu_generation_for(), pmu/generation.h), or NULL when no
 * generation drives k or its descriptor names no model. */
const struct pmu_model *model_for(enum pmu_kind k);
/* Makes m the live model (reset), or none with NULL. */
void model_activate(const struct pmu_model *m);
const struct pmu_model *model_active(void);
/* While a model stands in: the CR4.PCE a CPL 3 RDPMC is judged by (the
 * caller keeps the real bit clear so every CPL 3 RDPMC reaches the model,
 * model.c says why); -1 returns to the real bit. */
void model_cpl3_pce(int pce);
/* What answers a real RDPMC instruction while a model stands in: the
 * live model's rdpmc (NULL, the default), or fn (the backend's fault
 * injection in front of it, pmu/backend.h). */
void model_rdpmc_via(int (*fn)(uint32_t idx, uint64_t *v));
/* The trace sink that feeds the live model. */
void model_feed(const struct insn_event *e, void *ctx);
uint64_t model_clock(void);
/* The step being fed is the sibling logical processor's (arch/x86/smp.h:
 * it runs traced code while this one waits).  Models count a sibling's
 * steps only where a counter counts both threads (AnyThread); the model
 * clock is this processor's and does not advance for them. */
int model_on_sibling(void);
/* A modelled counter overflowed with its interrupt enabled: the model
 * raises the PMI as hardware does, through the local APIC's LVTPC (a
 * self-IPI with its vector and delivery mode, nothing when it is masked),
 * and with mask_after sets the LVTPC mask bit as the P6 family, Pentium M,
 * NetBurst, Core and Core 2 do on delivery (docs/apic.md).  Safe from a
 * model's event hook, inside the tracer.  Returns 1 delivered, 0 masked,
 * -1 no usable APIC. */
int model_raise_pmi(int mask_after);
/* The interrupts the live model has delivered so far (its PMIs: NMIs or
 * LVTPC vectors), for the counting window's account of interrupts taken
 * while counters count (pmu/window.c, pmu/noise.h). */
unsigned model_interrupts(void);
/* A PMI still waiting out its skid (emulated_noise=1) is taken now: the
 * counting window closes, and silicon's skid ends within the code that
 * stopped the counters, not in some later test. */
void model_pmi_flush(void);

/*
 * A prediction (issue 30 section 2; harness/pmu_run.c): the reference
 * model of kind k, reset, stands beside whatever the backend is (hw, or
 * the live model of backend=emulated, whose state is saved first and
 * given back by model_predict_end(), its clock too), so the same register
 * writes and the benchmark's trace alone give the model's count next to
 * the counted one.  While a prediction runs the model raises no PMI (the
 * interrupt belongs to the run being predicted, not to this one:
 * model_raise_pmi() answers "masked").  Returns NULL, or why not (no
 * model for k, its cannot_model() reason, its state cannot be saved).
 */
const char *model_predict_begin(enum pmu_kind k, const struct cpu_info *ci);
void model_predict_end(void);

#endif
