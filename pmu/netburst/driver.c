/* pmu/netburst/driver.c: the Pentium 4 / Xeon PMU driver (driver.h) on
 * the layout and rules of regs.h and the event table of events.h.  Every
 * register access goes through pmu/backend.h (pmu_wrmsr/pmu_rdmsr).
 *
 * A counter n (0-17) is the MSR 0x300 + n, controlled by the CCCR at
 * 0x360 + n, whose ESCR-select field picks the ESCR that feeds it events
 * (SDM Vol. 3B §18.15.1-3 and Table 18-63, order no. 253669-060US).
 * program() checks the whole setup first and writes nothing when one rule
 * is broken; then it stops the counter (CCCR 0), clears it, writes the
 * ESCR and the CCCR without ENABLE and CASCADE.  start() sets ENABLE, or
 * CASCADE for a cascaded config (§18.15.5.6: the counter then starts when
 * its alternate overflows); stop() clears both.
 *
 * State: per counter, the ESCR it was programmed with (MSR and value) and
 * its CCCR as programmed.  Several counters may take events from one ESCR
 * (an ESCR0 feeds two or three counters of its block), but the ESCR holds
 * one value: a second counter may share it only with the same value.
 *
 * On hardware (BE_HW) a counter is written twice: a write to a counter
 * may not take (erratum N15, Pentium 4 specification update, document
 * 249199).  event_config never picks counter 1: Linux p4.c notes that
 * "CCCR1 do not have P4_CCCR_ENABLE bit properly working". */
#include "driver.h"
#include "regs.h"
#include "events.h"
#include "../backend.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

#define CCCR_DRIVER_BITS (NB_CCCR_ENABLE | NB_CCCR_OVF)
#define CCCR_RUN_BITS (NB_CCCR_ENABLE | NB_CCCR_CASCADE)

static struct nb_ctr_state {
	uint32_t escr_msr;	/* 0: not programmed */
	uint64_t escr;		/* the ESCR value written */
	uint64_t cccr;		/* as programmed: CASCADE kept, no ENABLE */
} ctrs[NB_COUNTERS];
static int initialized;

static const struct cpu_sig *sig(void)
{
	return &cpu_info()->sig;
}

static int ht(void)
{
	return nb_has_ht(cpu_info());
}

static int on_hw(void)
{
	return backend_current()->id == BE_HW;
}

/* "IQ_CCCR0", "BPU_COUNTER3": the SDM's MSR_ names without the prefix. */
/* The registers' names (SDM Vol. 4 Table 2-53, less the MSR_ prefix):
 * constant strings, so that an access formats nothing while counters
 * count (a counter counts the driver's code: backend=emulated measured
 * ~300 instructions per formatted name, docs/emulators.md). */
static const char *const cccr_names[NB_COUNTERS] = {
	"BPU_CCCR0", "BPU_CCCR1", "BPU_CCCR2", "BPU_CCCR3",
	"MS_CCCR0", "MS_CCCR1", "MS_CCCR2", "MS_CCCR3",
	"FLAME_CCCR0", "FLAME_CCCR1", "FLAME_CCCR2", "FLAME_CCCR3",
	"IQ_CCCR0", "IQ_CCCR1", "IQ_CCCR2", "IQ_CCCR3", "IQ_CCCR4",
	"IQ_CCCR5",
};
static const char *const counter_names[NB_COUNTERS] = {
	"BPU_COUNTER0", "BPU_COUNTER1", "BPU_COUNTER2", "BPU_COUNTER3",
	"MS_COUNTER0", "MS_COUNTER1", "MS_COUNTER2", "MS_COUNTER3",
	"FLAME_COUNTER0", "FLAME_COUNTER1", "FLAME_COUNTER2",
	"FLAME_COUNTER3", "IQ_COUNTER0", "IQ_COUNTER1", "IQ_COUNTER2",
	"IQ_COUNTER3", "IQ_COUNTER4", "IQ_COUNTER5",
};

/* ctr: a counter check_ctr() passed */
static const char *cccr_name(unsigned ctr)
{
	return cccr_names[ctr];
}

static const char *counter_name(unsigned ctr)
{
	return counter_names[ctr];
}

static int check_ctr(unsigned ctr, struct pmu_err *e)
{
	if (!initialized)
		return pmu_fail(e, 0, "NetBurst driver not initialized");
	if (ctr >= NB_COUNTERS)
		return pmu_fail(e, 0, "counter %u does not exist (NetBurst has "
				"counters 0-17)", ctr);
	return 0;
}

static int write_cccr(unsigned ctr, uint64_t v, struct pmu_err *e)
{
	return pmu_wrmsr(NB_MSR_CCCR0 + ctr, v, cccr_name(ctr), e);
}

static int read_cccr(unsigned ctr, uint64_t *v, struct pmu_err *e)
{
	return pmu_rdmsr(NB_MSR_CCCR0 + ctr, v, cccr_name(ctr), e);
}

/* A counter write, twice on hardware (erratum N15). */
static int write_counter(unsigned ctr, uint64_t v, struct pmu_err *e)
{
	const char *name = counter_name(ctr);

	if (pmu_wrmsr(NB_MSR_COUNTER0 + ctr, v, name, e))
		return -1;
	return on_hw() ? pmu_wrmsr(NB_MSR_COUNTER0 + ctr, v, name, e) : 0;
}

/* Stale state first: a CCCR left enabled by firmware or an earlier run
 * would count into our counters.  Then IA32_MISC_ENABLE bit 7, without
 * which the PMU is not there (SDM Vol. 4 Table 2-53). */
int nb_init(struct pmu_err *e)
{
	uint64_t misc = 0;

	initialized = 0;
	for (unsigned c = 0; c < NB_COUNTERS; c++) {
		ctrs[c] = (struct nb_ctr_state){ 0 };
		if (write_cccr(c, 0, e))
			return -1;
	}
	if (pmu_rdmsr(NB_MSR_MISC_ENABLE, &misc, "IA32_MISC_ENABLE", e))
		return -1;
	if (!(misc & NB_MISC_PERFMON))
		return pmu_fail(e, 0, "IA32_MISC_ENABLE bit 7 clear: "
				"performance monitoring not available (0x%llx)",
				(unsigned long long)misc);
	initialized = 1;
	return 0;
}

/* ---- the checks of program() */

/* Why no ESCR answers select sel for ctr on this model. */
static int refuse_select(unsigned ctr, unsigned sel, struct pmu_err *e)
{
	enum nb_block b = nb_block_of(ctr);
	const struct nb_escr *other = 0;

	for (unsigned i = 0; i < NB_ESCRS; i++) {
		const struct nb_escr *x = &nb_escrs[i];

		if (x->block != b || x->select != sel)
			continue;
		if (x->half == nb_ctr_half(ctr))
			return pmu_fail(e, 0, "counter %u cannot use ESCR "
					"select %u: %s (0x%x) exists on models "
					"0-2 only, this is model %u", ctr, sel,
					x->name, x->msr, sig()->model);
		other = x;
	}
	if (other)
		return pmu_fail(e, 0, "counter %u cannot use ESCR select %u: "
				"it takes events from ESCR%u of a pair, the %s "
				"block has only %s there", ctr, sel,
				nb_ctr_half(ctr), nb_block_name(b),
				other->name);
	return pmu_fail(e, 0, "counter %u cannot use ESCR select %u: the %s "
			"block has no ESCR at select %u", ctr, sel,
			nb_block_name(b), sel);
}

/* CCCR rules that do not depend on the ESCR (Figures 18-46, 18-48). */
static int check_cccr(unsigned ctr, uint64_t cccr, struct pmu_err *e)
{
	unsigned active = (unsigned)((cccr & NB_CCCR_ACTIVE_MASK) >>
				     NB_CCCR_ACTIVE_SHIFT);
	/* the name with its MSR, formatted only on failure (NAME_AT) */
#define NAME_AT cccr_name(ctr), NB_MSR_CCCR0 + ctr
	if (cccr & CCCR_DRIVER_BITS)
		return pmu_fail(e, 0, "%s (0x%x)=0x%llx: ENABLE (bit 12) and "
				"OVF (bit 31) are the driver's, not the "
				"config's", NAME_AT, (unsigned long long)cccr);
	if ((cccr & NB_CCCR_EXT_CASCADE) &&
	    nb_ext_cascade_exists(ctr, sig()))
		return pmu_fail(e, 0, "%s (0x%x)=0x%llx: extended cascading "
				"is not supported by this driver (CCCR bit "
				"11, SDM Vol. 3B 18.15.5.7)", NAME_AT,
				(unsigned long long)cccr);
	if (cccr & NB_CCCR_EXT_CASCADE)
		return pmu_fail(e, 0, "%s (0x%x)=0x%llx: bit 11 is reserved "
				"on this counter of model %u (extended "
				"cascading: "
				"CCCRs 12, 15-17 of models 2-4, 6)", NAME_AT,
				(unsigned long long)cccr, sig()->model);
	if (cccr & NB_CCCR_RESERVED)
		return pmu_fail(e, 0, "%s (0x%x)=0x%llx: reserved CCCR bits "
				"0x%llx (10:0, 29:28, 63:32)", NAME_AT,
				(unsigned long long)cccr,
				(unsigned long long)(cccr & NB_CCCR_RESERVED));
	if (ht())
		return 0;
	if (cccr & NB_CCCR_OVF_PMI_T1)
		return pmu_fail(e, 0, "%s (0x%x)=0x%llx: OVF_PMI_T1 (CCCR bit "
				"27) is reserved without Hyper-Threading",
				NAME_AT,
				(unsigned long long)cccr);
	if (active != NB_ACTIVE_ANY)
		return pmu_fail(e, 0, "%s (0x%x)=0x%llx: active thread %u%u: "
				"must be 11B without Hyper-Threading (Figure "
				"18-46)",
				NAME_AT, (unsigned long long)cccr, active >> 1,
				active & 1);
	return 0;
#undef NAME_AT
}

/* ESCR rules: reserved bits, the T1 bits, the event and its mask. */
static int check_escr(const struct nb_escr *x, uint64_t escr,
		      struct pmu_err *e)
{
	struct nb_escr_fields f;
	const struct nb_event *ev;
	uint32_t bad;

	nb_escr_decode(escr, &f);
	if (escr & NB_ESCR_RESERVED)
		return pmu_fail(e, 0, "%s (0x%x)=0x%llx: reserved ESCR bits "
				"0x%llx (31, 63:32)", x->name, x->msr,
				(unsigned long long)escr,
				(unsigned long long)(escr & NB_ESCR_RESERVED));
	if ((escr & NB_ESCR_T1_BITS) && !ht())
		return pmu_fail(e, 0, "%s (0x%x)=0x%llx: T1_OS/T1_USR (ESCR "
				"bits 1:0) are reserved without Hyper-"
				"Threading", x->name, x->msr,
				(unsigned long long)escr);
	ev = nb_event_for(x->msr, f.event);
	if (!ev)
		return pmu_fail(e, 0, "%s (0x%x)=0x%llx: event select 0x%02x "
				"is not an event of %s", x->name, x->msr,
				(unsigned long long)escr, f.event, x->name);
	if (sig()->model < ev->models_min)
		return pmu_fail(e, 0, "%s (0x%x): %s needs model %u or later, "
				"this is model %u", x->name, x->msr, ev->name,
				ev->models_min, sig()->model);
	bad = f.emask & ~nb_emask_legal(ev);
	if (bad)
		return pmu_fail(e, 0, "%s (0x%x)=0x%llx: event mask 0x%x has "
				"bits 0x%x that %s does not define (0x%x)",
				x->name, x->msr, (unsigned long long)escr,
				f.emask, bad, ev->name, nb_emask_legal(ev));
	return 0;
}

/* An ESCR holds one value: counters share it only with that value. */
static int check_sharing(unsigned ctr, const struct nb_escr *x, uint64_t escr,
			 struct pmu_err *e)
{
	for (unsigned c = 0; c < NB_COUNTERS; c++)
		if (c != ctr && ctrs[c].escr_msr == x->msr &&
		    ctrs[c].escr != escr)
			return pmu_fail(e, 0, "%s (0x%x)=0x%llx: ESCR already "
					"in use by counter %u with a different "
					"setup (0x%llx)", x->name, x->msr,
					(unsigned long long)escr, c,
					(unsigned long long)ctrs[c].escr);
	return 0;
}

/* Every rule, before anything is written; x is the ESCR ctr will use. */
static int validate(unsigned ctr, uint64_t escr, uint64_t cccr,
		    const struct nb_escr **x, struct pmu_err *e)
{
	unsigned sel = (unsigned)((cccr & NB_CCCR_ESCR_SEL_MASK) >>
				  NB_CCCR_ESCR_SEL_SHIFT);

	if (check_ctr(ctr, e) || check_cccr(ctr, cccr, e))
		return -1;
	*x = nb_escr_for(ctr, sel, sig());
	if (!*x)
		return refuse_select(ctr, sel, e);
	if (check_escr(*x, escr, e) || check_sharing(ctr, *x, escr, e))
		return -1;
	return 0;
}

/* The order: stop the counter (CCCR 0), clear it, then the ESCR, then the
 * CCCR without ENABLE and CASCADE, so nothing counts while the event
 * changes. */
static int program(unsigned ctr, uint64_t escr, uint64_t cccr,
		   struct pmu_err *e)
{
	const struct nb_escr *x = 0;

	if (validate(ctr, escr, cccr, &x, e))
		return -1;
	ctrs[ctr] = (struct nb_ctr_state){ 0 };
	if (write_cccr(ctr, 0, e) || write_counter(ctr, 0, e) ||
	    pmu_wrmsr(x->msr, escr, x->name, e))
		return -1;
	ctrs[ctr].escr_msr = x->msr;
	ctrs[ctr].escr = escr;
	ctrs[ctr].cccr = cccr;
	return write_cccr(ctr, cccr & ~CCCR_RUN_BITS, e);
}

/* CASCADE in cccr: cascaded from nb_cascade_from(ctr), always legal. */
int nb_program(unsigned ctr, uint64_t escr, uint64_t cccr, struct pmu_err *e)
{
	return program(ctr, escr, cccr, e);
}

int nb_program_cascaded(unsigned from, unsigned to, uint64_t escr,
			uint64_t cccr, struct pmu_err *e)
{
	if (check_ctr(to, e))
		return -1;
	if (!nb_cascade_legal(from, to))
		return pmu_fail(e, 0, "cascade %u->%u is not allowed: counter "
				"%u can be cascaded only from counter %d (SDM "
				"Vol. 3B 18.15.5.6)", from, to, to,
				nb_cascade_from(to));
	return program(to, escr, cccr | NB_CCCR_CASCADE, e);
}

/* Counter 1's ENABLE is unreliable on hardware: say so where it shows. */
static const char *ctr1_note(unsigned ctr)
{
	return ctr == 1 && on_hw() ? " (counter 1's CCCR ENABLE is "
	       "unreliable: Linux p4.c avoids counter 1)" : "";
}

int nb_start(unsigned ctr, struct pmu_err *e)
{
	uint64_t v = 0, back = 0;
	uint64_t run;

	if (check_ctr(ctr, e))
		return -1;
	if (!ctrs[ctr].escr_msr)
		return pmu_fail(e, 0, "counter %u is not programmed", ctr);
	run = ctrs[ctr].cccr & NB_CCCR_CASCADE ? NB_CCCR_CASCADE :
	      NB_CCCR_ENABLE;
	if (read_cccr(ctr, &v, e) || write_cccr(ctr, v | run, e))
		return -1;
	if (!on_hw())
		return 0;
	if (read_cccr(ctr, &back, e))
		return -1;
	if ((back & CCCR_RUN_BITS) != ((v | run) & CCCR_RUN_BITS))
		return pmu_fail(e, 0, "%s reads 0x%llx after writing 0x%llx%s",
				cccr_name(ctr), (unsigned long long)back,
				(unsigned long long)(v | run), ctr1_note(ctr));
	return 0;
}

/* Reads ctr's CCCR and writes it back without bits. */
static int cccr_clear(unsigned ctr, uint64_t bits, struct pmu_err *e)
{
	uint64_t v = 0;

	if (check_ctr(ctr, e) || read_cccr(ctr, &v, e))
		return -1;
	return write_cccr(ctr, v & ~bits, e);
}

int nb_stop(unsigned ctr, struct pmu_err *e)
{
	return cccr_clear(ctr, CCCR_RUN_BITS, e);
}

int nb_release(unsigned ctr, struct pmu_err *e)
{
	if (check_ctr(ctr, e))
		return -1;
	ctrs[ctr] = (struct nb_ctr_state){ 0 };
	return write_cccr(ctr, 0, e);
}

int nb_read(unsigned ctr, uint64_t *v, struct pmu_err *e)
{
	if (check_ctr(ctr, e))
		return -1;
	return pmu_rdmsr(NB_MSR_COUNTER0 + ctr, v, counter_name(ctr), e);
}

int nb_write(unsigned ctr, uint64_t v, struct pmu_err *e)
{
	if (check_ctr(ctr, e))
		return -1;
	if (v & ~NB_CTR_MASK)
		return pmu_fail(e, 0, "0x%llx cannot be written to counter %u: "
				"counters have 40 bits (bits 63:40 must be 0)",
				(unsigned long long)v, ctr);
	return write_counter(ctr, v, e);
}

int nb_read_cccr(unsigned ctr, uint64_t *v, struct pmu_err *e)
{
	if (check_ctr(ctr, e))
		return -1;
	return read_cccr(ctr, v, e);
}

int nb_write_cccr_raw(unsigned ctr, uint64_t v, struct pmu_err *e)
{
	if (check_ctr(ctr, e))
		return -1;
	return write_cccr(ctr, v, e);
}

int nb_read_escr_of(unsigned ctr, uint64_t *v, struct pmu_err *e)
{
	const struct nb_escr *x;

	if (check_ctr(ctr, e))
		return -1;
	x = nb_escr_at(ctrs[ctr].escr_msr);
	if (!x)
		return pmu_fail(e, 0, "counter %u is not programmed: no ESCR",
				ctr);
	return pmu_rdmsr(x->msr, v, x->name, e);
}

int nb_clear_ovf(unsigned ctr, struct pmu_err *e)
{
	return cccr_clear(ctr, NB_CCCR_OVF, e);
}

/* ---- the ops table */

static void nb_shape(const struct cpu_info *ci, struct pmu_shape *s)
{
	(void)ci;
	s->counters = NB_COUNTERS;
	s->width = NB_CTR_BITS;
	s->fixed = 0;
}

static const char *yes_no(int b)
{
	return b ? "yes" : "no";
}

/* caps=fixed: the family and model fix the PMU (no CPUID leaf). */
static void nb_describe(const struct cpu_info *ci, char *buf, unsigned size)
{
	const struct cpu_sig *s = &ci->sig;

	fmt_snprintf(buf, size, "counters=%u escrs=%u width=%u ht=%d "
		     "threads=%u iq_escrs=%s ext_cascade=%s "
		     "cascade_pmi_erratum=%s caps=fixed", NB_COUNTERS,
		     nb_escr_count(s), NB_CTR_BITS, nb_has_ht(ci),
		     nb_threads(ci), yes_no(nb_escr_count(s) == NB_ESCRS),
		     yes_no(nb_ext_cascade_exists(12, s)),
		     yes_no(nb_cascade_pmi_erratum(s)));
}

static int ops_program(unsigned ctr, const struct pmu_config *c,
		       struct pmu_err *e)
{
	return nb_program(ctr, c->sel, c->aux, e);
}

/* An event-mask bit of ev that counts exactly the count s, or -1. */
static int bit_counting(const struct nb_event *ev, enum sem s)
{
	for (unsigned i = 0; i < ev->n_bits; i++) {
		const struct nb_emask_bit *b = &ev->bits[i];

		if (b->how == NB_SEM && b->sem == SEM_BIT(s) && !b->sem_minus)
			return b->bit;
	}
	return -1;
}

/* For thread 0 (the harness's): the first event with an event-mask bit
 * that counts exactly s, on a counter its thread-0 ESCR feeds, counted on
 * either logical processor being active (11B).  Never counter 1. */
static int nb_event_config(enum sem s, unsigned ctr, unsigned cpls,
			   struct pmu_config *c)
{
	const struct cpu_sig *cs = sig();

	if (ctr >= NB_COUNTERS || ctr == 1 || !pmu_cpls_valid(cpls))
		return -1;
	for (unsigned i = 0; i < nb_n_events; i++) {
		const struct nb_event *ev = &nb_events[i];
		const struct nb_escr *x = nb_escr_for(ctr, ev->escr_sel, cs);
		struct nb_escr_fields f = { .event = ev->select,
					    .t0_os = pmu_cpls_want_os(cpls),
					    .t0_usr = pmu_cpls_want_usr(cpls) };
		struct nb_cccr_fields k = { .escr_sel = ev->escr_sel,
					    .active = NB_ACTIVE_ANY };
		int bit = bit_counting(ev, s);

		if (bit < 0 || !(ev->ctrs[0] & 1u << ctr) || !x ||
		    x->msr != ev->escr[0] || cs->model < ev->models_min)
			continue;
		f.emask = 1u << bit;
		c->sel = nb_escr_encode(&f);
		c->aux = nb_cccr_encode(&k);
		return 0;
	}
	return -1;
}

/* The event a config selects on ctr, or NULL. */
static const struct nb_event *config_event(const struct pmu_config *c,
					   unsigned ctr,
					   struct nb_escr_fields *f,
					   struct nb_cccr_fields *k)
{
	const struct nb_escr *x;

	nb_escr_decode(c->sel, f);
	nb_cccr_decode(c->aux, k);
	x = ctr < NB_COUNTERS ? nb_escr_for(ctr, k->escr_sel, sig()) : 0;
	return x ? nb_event_for(x->msr, f->event) : 0;
}

/* The sum of the set bits' counts, when each is one the model counts
 * exactly (NB_SEM without a subtrahend, or NB_ZERO), else 0. */
static uint32_t emask_sem(const struct nb_event *ev, unsigned emask)
{
	uint32_t mask = 0;

	for (unsigned bit = 0; bit < NB_MAX_EMASK; bit++) {
		const struct nb_emask_bit *b = 0;

		if (!(emask & 1u << bit))
			continue;
		for (unsigned i = 0; i < ev->n_bits; i++)
			if (ev->bits[i].bit == bit)
				b = &ev->bits[i];
		if (!b || b->how == NB_NOT_MODELLED ||
		    (b->how == NB_SEM && b->sem_minus))
			return 0;
		if (b->how == NB_SEM)
			mask |= b->sem;
	}
	return mask;
}

/* Thread 0's view: T0_OS counts at CPL 0, T0_USR at CPL 1-3 (SDM Vol. 3B
 * 18.16.1; driver.h's CPL sets).  COMPARE turns the count into a
 * count of clocks (not a sum of counts: 0).  The active-thread filter
 * must pass while thread 0 runs alone (one logical processor active:
 * SINGLE or ANY); NONE and BOTH count nothing then (SDM §18.16.2). */
static int nb_config_counts(const struct pmu_config *c, unsigned ctr,
			    uint32_t *sem_mask, unsigned *cpls)
{
	struct nb_escr_fields f;
	struct nb_cccr_fields k;
	const struct nb_event *ev = config_event(c, ctr, &f, &k);

	*cpls = pmu_os_usr_cpls(f.t0_os, f.t0_usr);
	*sem_mask = 0;
	if (!ev)
		return -1;
	if (!k.compare && (k.active == NB_ACTIVE_ANY ||
			   k.active == NB_ACTIVE_SINGLE))
		*sem_mask = emask_sem(ev, f.emask);
	return 0;
}

/* "CRU_ESCR0/1" for the ESCRs that have the event at the select (the
 * config names no counter), or "?". */
static void escr_names(unsigned sel, unsigned event, char *buf,
		       unsigned size)
{
	const struct nb_escr *found[2] = { 0, 0 };
	unsigned n = 0, len;

	for (unsigned i = 0; i < NB_ESCRS && n < 2; i++)
		if (nb_escrs[i].select == sel &&
		    nb_event_for(nb_escrs[i].msr, event))
			found[n++] = &nb_escrs[i];
	if (!n) {
		fmt_snprintf(buf, size, "?");
		return;
	}
	len = (unsigned)str_copy(buf, found[0]->name, size);
	if (n < 2 || len + 2 >= size)
		return;
	/* a pair: "CRU_ESCR0/1" */
	if (str_len(found[1]->name) == len &&
	    !str_ncmp(found[0]->name, found[1]->name, len - 1))
		fmt_snprintf(buf + len, size - len, "/%s",
			     found[1]->name + len - 1);
	else
		fmt_snprintf(buf + len, size - len, "/%s", found[1]->name);
}

/* Raw values first (complete even when the log's buffer is short), then
 * the fields. */
static void nb_config_name(const struct pmu_config *c, char *buf,
			   unsigned size)
{
	struct nb_escr_fields f;
	struct nb_cccr_fields k;
	const struct nb_event *ev = 0;
	char escrs[24], evname[8], tag[12] = "", cmp[24] = "";

	nb_escr_decode(c->sel, &f);
	nb_cccr_decode(c->aux, &k);
	escr_names(k.escr_sel, f.event, escrs, sizeof(escrs));
	for (unsigned i = 0; i < NB_ESCRS && !ev; i++)
		if (nb_escrs[i].select == k.escr_sel)
			ev = nb_event_for(nb_escrs[i].msr, f.event);
	fmt_snprintf(evname, sizeof(evname), "ev=0x%02x", f.event);
	if (f.tag_enable)
		fmt_snprintf(tag, sizeof(tag), " tag=0x%x", f.tag_value);
	if (k.compare)
		fmt_snprintf(cmp, sizeof(cmp), " thr=%u%s%s", k.threshold,
			     k.complement ? " compl" : "",
			     k.edge ? " edge" : "");
	fmt_snprintf(buf, size, "escr=0x%llx cccr=0x%llx %s%s emask=0x%x%s%s%s"
		     "%s%s | %s sel=%u active=%u%u cmp=%u%s%s%s%s%s%s%s%s",
		     (unsigned long long)c->sel, (unsigned long long)c->aux,
		     ev ? ev->name : evname,
		     ev && ev->thread_independent ? " (TI)" : "", f.emask, tag,
		     f.t0_os ? " T0_OS" : "", f.t0_usr ? " T0_USR" : "",
		     f.t1_os ? " T1_OS" : "", f.t1_usr ? " T1_USR" : "",
		     escrs, k.escr_sel, k.active >> 1, k.active & 1, k.compare,
		     cmp, k.force_ovf ? " force_ovf" : "",
		     k.ovf_pmi_t0 ? " pmi_t0" : "",
		     k.ovf_pmi_t1 ? " pmi_t1" : "",
		     k.cascade ? " cascade" : "",
		     k.ext_cascade ? " ext_cascade" : "",
		     k.enable ? " enable" : "", k.ovf ? " ovf" : "");
}

const struct pmu_driver nb_driver = {
	.kind = PMU_NETBURST,
	.name = "netburst",
	.shape = nb_shape,
	.describe = nb_describe,
	.init = nb_init,
	.program = ops_program,
	.start = nb_start,
	.stop = nb_stop,
	.read = nb_read,
	.reset = nb_write,
	.event_config = nb_event_config,
	.config_counts = nb_config_counts,
	.config_name = nb_config_name,
};
