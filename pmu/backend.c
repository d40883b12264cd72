/* backend: hw and model implementations and their selection (backend.h). */
#include "backend.h"
#include "inject.h"
#include "generation.h"
#include "model.h"
#include "window.h"
#include "emufault.h"
#include "../arch/x86/safe.h"
#include "../arch/x86/cpu.h"
#include "../arch/x86/trap.h"
#include "../lib/fmt.h"

static int none_access(uint32_t a, uint64_t *v)
{
	(void)a;
	(void)v;
	return VEC_GP;
}

static int none_write(uint32_t a, uint64_t v)
{
	(void)a;
	(void)v;
	return VEC_GP;
}

static int model_raw_rdmsr(uint32_t msr, uint64_t *v)
{
	return model_active() ? model_active()->rdmsr(msr, v) : VEC_GP;
}

static int model_raw_wrmsr(uint32_t msr, uint64_t v)
{
	return model_active() ? model_active()->wrmsr(msr, v) : VEC_GP;
}

static int model_raw_rdpmc(uint32_t idx, uint64_t *v)
{
	return model_active() ? model_active()->rdpmc(idx, v) : VEC_UD;
}

/* The fault table armed in front of the model (NULL: none). */
static struct inject_table *armed;

static int model_rdmsr(uint32_t msr, uint64_t *v)
{
	return inject_rdmsr(armed, msr, v, model_raw_rdmsr);
}

static int model_wrmsr(uint32_t msr, uint64_t v)
{
	return inject_wrmsr(armed, msr, v, model_raw_rdmsr, model_raw_wrmsr);
}

static int model_rdpmc(uint32_t idx, uint64_t *v)
{
	return inject_rdpmc(armed, idx, v, model_raw_rdpmc);
}

/* ---- emulated: the model, counted over the whole window (backend.h) */

/* The instructions the model's code stands for (SDM Vol. 2B: WRMSR is
 * 0F 30, RDMSR 0F 32, RDPMC 0F 33). */
static const uint8_t insn_wrmsr[] = { 0x0f, 0x30 };
static const uint8_t insn_rdmsr[] = { 0x0f, 0x32 };
static const uint8_t insn_rdpmc[] = { 0x0f, 0x33 };

/* In an interrupt or exception handler (a PMI's, nested in the tracer's
 * #DB hook or not): handlers run with TF clear and are not traced, and
 * IRET gives the interrupted code its TF back (SDM Vol. 3A 6.12.1.2), so
 * the window is neither opened nor closed from there (closing would
 * unhook #DB under the code that still traps), nor does an access there
 * retire into it: the next access from the interrupted code follows. */
static int in_handler(void)
{
	return trap_hook_frame(VEC_DB) ||
	       (trace_window_active() && !(read_flags() & X86_EFLAGS_TF));
}

/* be_window_pause(): the sibling runs traced code for the model. */
static int window_paused;

/* The window is open exactly while some counter counts. */
static void window_follow(void)
{
	const struct pmu_model *m = model_active();
	int want = m && m->counting && m->counting() && !window_paused;

	if (in_handler())
		return;
	if (want && !trace_window_active())
		trace_window_open(window_feed, NULL);
	else if (!want && trace_window_active()) {
		trace_window_close();
		model_pmi_flush();
	}
}

/* EF_EXIT_COUNTED (pmu/emufault.h): the emulator's own exit handling
 * counted as the guest's, EMUFAULT_EXIT_COST instructions at CPL 0 after
 * the access, to the model alone (the window's trace has no such code:
 * what the tests expect does not move). */
static void exit_counted(void)
{
	static const struct step_regs none;
	struct insn_event e = { .rip = (uintptr_t)exit_counted,
				.next_rip = (uintptr_t)exit_counted + 1,
				.cpl = 0, .retired = 1, .after = &none };

	if (!emufault_on(EF_EXIT_COUNTED) || !trace_window_active())
		return;
	for (unsigned i = 0; i < EMUFAULT_EXIT_COST; i++)
		model_feed(&e, NULL);
}

/* The access ran untraced; it retires as insn when it did not fault. */
static int retire(int vec, const uint8_t *insn)
{
	window_follow();
	if (!vec && !in_handler()) {
		trace_window_emit(insn);
		exit_counted();
	}
	trace_window_hold(0);
	return vec;
}

static int emulated_rdmsr(uint32_t msr, uint64_t *v)
{
	trace_window_hold(1);
	return retire(model_rdmsr(msr, v), insn_rdmsr);
}

static int emulated_wrmsr(uint32_t msr, uint64_t v)
{
	trace_window_hold(1);
	trace_window_wrmsr();
	window_wrmsr(msr);
	return retire(model_wrmsr(msr, v), insn_wrmsr);
}

static int emulated_rdpmc(uint32_t idx, uint64_t *v)
{
	trace_window_hold(1);
	return retire(model_rdpmc(idx, v), insn_rdpmc);
}

trace_sink be_sibling_sink(void)
{
	return backend_model_backed() ? model_feed : NULL;
}

void be_window_pause(int pause)
{
	if (backend_current()->id != BE_EMULATED)
		return;
	window_paused = pause;
	window_follow();
}

static const struct backend backends[] = {
	[BE_NONE] = { BE_NONE, "none", none_access, none_write, none_access,
		      0 },
	[BE_HW] = { BE_HW, "hw", rdmsr_safe, wrmsr_safe, rdpmc_safe, 0 },
	[BE_MODEL] = { BE_MODEL, "model", model_rdmsr, model_wrmsr,
		       model_rdpmc, model_feed },
	/* no sink: benchmarks run as on hardware, inside the window */
	[BE_EMULATED] = { BE_EMULATED, "emulated", emulated_rdmsr,
			  emulated_wrmsr, emulated_rdpmc, 0 },
};

static const struct backend *current = &backends[BE_NONE];
static struct be_log *cur_log;

/* ---- predictions (backend.h) */

static const struct backend predicting = {
	BE_MODEL, "model (prediction)", model_raw_rdmsr, model_raw_wrmsr,
	model_raw_rdpmc, model_feed
};
static const struct backend *before_prediction;
static struct be_log *log_before_prediction;

int backend_predict_begin(char *why, unsigned size)
{
	const char *no;

	if (before_prediction) {
		fmt_snprintf(why, size, "a prediction is already running");
		return -1;
	}
	if (trace_window_active()) {
		fmt_snprintf(why, size, "a counter of backend=emulated still "
			     "counts (its window is open)");
		return -1;
	}
	if ((no = model_predict_begin(cpu_info()->pmu, cpu_info()))) {
		fmt_snprintf(why, size, "the reference model cannot predict: "
			     "%s", no);
		return -1;
	}
	before_prediction = current;
	log_before_prediction = cur_log;
	current = &predicting;
	cur_log = NULL;
	return 0;
}

void backend_predict_end(void)
{
	if (!before_prediction)
		return;
	model_predict_end();
	current = before_prediction;
	cur_log = log_before_prediction;
	before_prediction = NULL;
}

void be_log_open(struct be_log *l, struct be_access *a, unsigned n)
{
	l->a = a;
	l->n = n;
	l->used = l->lost = 0;
	cur_log = l;
}

void be_log_close(void)
{
	cur_log = NULL;
}

unsigned be_log_writes(const struct be_log *log, struct be_access *w,
		       unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < log->used && n < max; i++)
		if (log->a[i].op == BE_OP_WRMSR)
			w[n++] = log->a[i];
	return n;
}

static int logged(enum be_op op, uint32_t reg, uint64_t value, int vector)
{
	if (!cur_log)
		return vector;
	if (cur_log->used < cur_log->n)
		cur_log->a[cur_log->used++] =
			(struct be_access){ op, reg, value, vector };
	else
		cur_log->lost++;
	return vector;
}

const struct backend *backend_current(void)
{
	return current;
}


int be_rdmsr(uint32_t msr, uint64_t *v)
{
	int vec = current->rdmsr(msr, v);

	return logged(BE_OP_RDMSR, msr, vec ? 0 : *v, vec);
}

int be_wrmsr(uint32_t msr, uint64_t v)
{
	return logged(BE_OP_WRMSR, msr, v, current->wrmsr(msr, v));
}

int be_rdpmc(uint32_t idx, uint64_t *v)
{
	int vec = current->rdpmc(idx, v);

	return logged(BE_OP_RDPMC, idx, vec ? 0 : *v, vec);
}

static const struct backend *use_model(const struct cpu_info *ci,
				       const char *why, char *reason,
				       unsigned size, int emulated)
{
	const struct pmu_model *m = model_for(ci->pmu);
	const char *cannot = m && m->cannot_model ? m->cannot_model(ci) : 0;

	if (m && emulated && !m->counting)
		cannot = "it cannot say yet when a counter counts, which "
			 "backend=emulated traces by (docs/emulators.md)";
	if (!m) {
		fmt_snprintf(reason, size, "%s; no reference model for "
			     "kind=%s", why, pmu_kind_name(ci->pmu));
		return &backends[BE_NONE];
	}
	if (cannot) {
		fmt_snprintf(reason, size, "%s; the %s model cannot stand in: "
			     "%s", why, m->name, cannot);
		return &backends[BE_NONE];
	}
	model_activate(m);
	if (emulated) {
		fmt_snprintf(reason, size, "%s; reference model %s counting "
			     "as silicon would, every instruction from the "
			     "enabling to the disabling write traced, driver "
			     "code included (model counts, not hardware "
			     "counts)", why, m->name);
		return &backends[BE_EMULATED];
	}
	fmt_snprintf(reason, size, "%s; reference model %s driven by the "
		     "single-step oracle (model counts, not hardware counts)",
		     why, m->name);
	return &backends[BE_MODEL];
}

const struct backend *backend_select(enum backend_want want,
				     const struct cpu_info *ci,
				     char *reason, unsigned size)
{
	const char *probe = ci->probe.present ?
		"write/read-back probe found counters" :
		ci->probe.done ? "write/read-back probe found no counters" :
		"no PMU kind to probe";

	backend_inject(NULL, NULL, 0);
	window_paused = 0;
	trace_window_close();
	model_activate(0);
	if (want == BACKEND_HW) {
		fmt_snprintf(reason, size, "backend=hw asked (%s)", probe);
		current = &backends[BE_HW];
	} else if (want == BACKEND_MODEL) {
		current = use_model(ci, "backend=model asked", reason, size,
				    0);
	} else if (want == BACKEND_EMULATED) {
		current = use_model(ci, "backend=emulated asked", reason,
				    size, 1);
	} else if (ci->probe.present) {
		fmt_snprintf(reason, size, "%s", probe);
		current = &backends[BE_HW];
	} else {
		current = use_model(ci, probe, reason, size, 0);
	}
	return current;
}

int backend_inject(struct inject_table *t, char *why, unsigned size)
{
	if (!t) {
		armed = NULL;
		model_rdpmc_via(NULL);
		return 0;
	}
	if (!backend_model_backed()) {
		fmt_snprintf(why, size, "refused: the backend is %s, and "
			     "faults are injected into the reference model "
			     "only, never on real hardware", current->name);
		return -1;
	}
	armed = t;
	/* A real RDPMC instruction is answered through the table too. */
	model_rdpmc_via(model_rdpmc);
	fmt_snprintf(why, size, "armed in front of the %s model",
		     model_active()->name);
	return 0;
}

struct inject_table *backend_injected(void)
{
	return armed;
}
