/* pmu/p6/driver.c: the P6 family PMU driver (driver.h): one counter
 * stopped while the other runs, the SDM's order of changing an event, and
 * the ops table.  Every register access goes through pmu/backend.h.
 *
 * State: the PerfEvtSel values last written (the shadow, checked against
 * the registers before every change), the programmed selection of each
 * counter (its USR/OS wait for p6_start()) and which counters run.  A
 * counter runs when its USR or OS is set and PerfEvtSel0.EN is set; the
 * driver keeps EN set exactly while one of them runs. */
#include "driver.h"
#include "regs.h"
#include "events.h"
#include "../backend.h"
#include "../detect.h"
#include "../../lib/fmt.h"

#define CPL_BITS (EVTSEL_USR | EVTSEL_OS)

static uint64_t shadow[P6_COUNTERS];
static uint64_t pending[P6_COUNTERS];	/* the programmed selection */
static uint8_t running[P6_COUNTERS];
static int initialized;

unsigned p6_gen(void)
{
	return p6_gen_of(&cpu_info()->sig);
}

/* Register names for messages (pmu_wrmsr adds the number). */
static const char *const sel_names[P6_COUNTERS] = { "PerfEvtSel0",
						     "PerfEvtSel1" };
static const char *const ctr_names[P6_COUNTERS] = { "PerfCtr0",
						     "PerfCtr1" };

static uint32_t sel_msr(unsigned ctr)
{
	return P6_MSR_PERFEVTSEL0 + ctr;
}

int p6_read_sel(unsigned ctr, uint64_t *v, struct pmu_err *e)
{
	if (ctr >= P6_COUNTERS)
		return pmu_fail(e, 0, "PerfEvtSel%u does not exist", ctr);
	return pmu_rdmsr(sel_msr(ctr), v, sel_names[ctr], e);
}

/* Takes the registers as they are: a counter runs when EN and its USR or
 * OS are set. */
int p6_init(struct pmu_err *e)
{
	initialized = 0;
	for (unsigned c = 0; c < P6_COUNTERS; c++) {
		if (p6_read_sel(c, &shadow[c], e))
			return -1;
		pending[c] = shadow[c] & ~EVTSEL_EN;
	}
	for (unsigned c = 0; c < P6_COUNTERS; c++)
		running[c] = (shadow[0] & EVTSEL_EN) &&
			     (shadow[c] & CPL_BITS);
	initialized = 1;
	return 0;
}

static int check_ctr(unsigned ctr, struct pmu_err *e)
{
	if (!initialized)
		return pmu_fail(e, 0, "P6 driver not initialized");
	if (ctr >= P6_COUNTERS)
		return pmu_fail(e, 0, "counter %u does not exist (PerfCtr0, "
				"PerfCtr1)", ctr);
	return 0;
}

static int validate(unsigned ctr, uint64_t sel, struct pmu_err *e)
{
	struct evtsel s = evtsel_decode(sel);
	const struct p6_event *ev = p6_event_for(s.event, ctr, p6_gen());

	if (sel >> 32)
		return pmu_fail(e, 0, "PerfEvtSel bits 63:32 are reserved "
				"(0x%llx)", (unsigned long long)sel);
	if (s.any)
		return pmu_fail(e, 0, "bit 21 (AnyThread) is reserved on the "
				"P6");
	if (s.en)
		return pmu_fail(e, 0, "EN is the driver's: p6_start() sets it");
	if (!ev)
		return pmu_fail(e, 0, "event 0x%02x is reserved or not "
				"countable on PerfCtr%u of the %s", s.event,
				ctr, p6_gen_name(p6_gen()));
	if (!p6_umask_ok(ev, s.umask))
		return pmu_fail(e, 0, "unit mask 0x%02x is not one of %s's "
				"(bits 0x%02x)", s.umask, ev->name,
				ev->umask_bits);
	return 0;
}

/* Writes PerfEvtSel<ctr> and proves the register took exactly that. */
static int write_sel(unsigned ctr, uint64_t v, struct pmu_err *e)
{
	uint64_t back = 0;

	if (pmu_wrmsr(sel_msr(ctr), v, sel_names[ctr], e))
		return -1;
	shadow[ctr] = v;
	if (p6_read_sel(ctr, &back, e))
		return -1;
	if (back != v)
		return pmu_fail(e, 0, "PerfEvtSel%u (0x%x) reads 0x%llx "
				"after writing 0x%llx", ctr, sel_msr(ctr),
				(unsigned long long)back,
				(unsigned long long)v);
	return 0;
}

/* The registers must still hold what we last wrote: anything else means
 * someone else programmed them. */
static int check_shadow(struct pmu_err *e)
{
	uint64_t now = 0;

	for (unsigned c = 0; c < P6_COUNTERS; c++) {
		if (p6_read_sel(c, &now, e))
			return -1;
		if (now != shadow[c])
			return pmu_fail(e, 0, "PerfEvtSel%u (0x%x) is 0x%llx "
					"but the driver last wrote 0x%llx", c,
					sel_msr(c), (unsigned long long)now,
					(unsigned long long)shadow[c]);
	}
	return 0;
}

static int set_en(int on, struct pmu_err *e)
{
	uint64_t v = on ? shadow[0] | EVTSEL_EN : shadow[0] & ~EVTSEL_EN;

	return v == shadow[0] ? 0 : write_sel(0, v, e);
}

/*
 * The order: EN off (both counters stop; the SDM starts counting "following
 * the execution of a WRMSR instruction that sets the enable counter flag",
 * §18.22.3, so nothing counts while the event changes), the counter
 * cleared, the new selection with USR and OS clear, then EN on again for
 * the other counter when it runs.  The first write always goes out, even
 * when EN is already clear, so the order is the same every time.
 */
int p6_program(unsigned ctr, uint64_t sel, struct pmu_err *e)
{
	unsigned other = !ctr;

	if (check_ctr(ctr, e) || validate(ctr, sel, e) || check_shadow(e) ||
	    write_sel(0, shadow[0] & ~EVTSEL_EN, e) || p6_write(ctr, 0, e))
		return -1;
	running[ctr] = 0;
	pending[ctr] = sel;
	if (write_sel(ctr, sel & ~CPL_BITS, e))
		return -1;
	return running[other] ? set_en(1, e) : 0;
}

int p6_start(unsigned ctr, struct pmu_err *e)
{
	if (check_ctr(ctr, e) || check_shadow(e))
		return -1;
	if (ctr == 0) {
		if (write_sel(0, pending[0] | EVTSEL_EN, e))
			return -1;
	} else if (write_sel(1, pending[1], e) || set_en(1, e)) {
		return -1;
	}
	running[ctr] = 1;
	return 0;
}

/* With the other counter running: clear only this one's USR and OS.
 * Alone: EN off first (counting stops at once), then USR and OS. */
int p6_stop(unsigned ctr, struct pmu_err *e)
{
	unsigned other = !ctr;

	if (check_ctr(ctr, e) || check_shadow(e))
		return -1;
	running[ctr] = 0;
	if (!running[other] && set_en(0, e))
		return -1;
	return write_sel(ctr, shadow[ctr] & ~CPL_BITS, e);
}

int p6_read(unsigned ctr, uint64_t *v, struct pmu_err *e)
{
	if (check_ctr(ctr, e))
		return -1;
	return pmu_rdmsr(P6_MSR_PERFCTR0 + ctr, v, ctr_names[ctr], e);
}

int p6_write(unsigned ctr, uint64_t v, struct pmu_err *e)
{
	if (check_ctr(ctr, e))
		return -1;
	if (!p6_ctr_writable(v))
		return pmu_fail(e, 0, "0x%llx cannot be written to PerfCtr%u: "
				"WRMSR sign-extends bit 31 into bits 39:32",
				(unsigned long long)v, ctr);
	return pmu_wrmsr(P6_MSR_PERFCTR0 + ctr, (uint32_t)v, ctr_names[ctr],
			 e);
}

int p6_rdpmc_usable(void)
{
	return !(backend_current()->id == BE_HW &&
		 p6_erratum26(&cpu_info()->sig));
}

int p6_rdpmc(unsigned ctr, uint64_t *v, struct pmu_err *e)
{
	int vec;

	if (check_ctr(ctr, e))
		return -1;
	if (!p6_rdpmc_usable())
		return pmu_fail(e, 0, "RDPMC not used: Pentium Pro erratum 26 "
				"below stepping 9 (read the counter with "
				"RDMSR)");
	vec = be_rdpmc(ctr, v);
	if (vec)
		return pmu_fail(e, vec, "RDPMC %u raised vector %d", ctr, vec);
	return 0;
}

/* ---- the ops table */

static void p6_shape(const struct cpu_info *ci, struct pmu_shape *s)
{
	(void)ci;
	s->counters = P6_COUNTERS;
	s->width = P6_CTR_BITS;
	s->fixed = 0;
}

/* caps=fixed: the family and model fix what the PMU has (no CPUID leaf
 * enumerates it); erratum26=yes: on hardware the driver does not use
 * RDPMC. */
static void p6_describe(const struct cpu_info *ci, char *buf, unsigned size)
{
	unsigned gen = p6_gen_of(&ci->sig);

	fmt_snprintf(buf, size, "counters=%u width=%u caps=fixed gen=%s "
		     "rdpmc=yes erratum26=%s pentium_m_events=%s", P6_COUNTERS,
		     P6_CTR_BITS, p6_gen_name(gen),
		     p6_erratum26(&ci->sig) ? "yes" : "no",
		     gen == P6_PM ? "yes" : "no");
}

static int ops_program(unsigned ctr, const struct pmu_config *c,
		       struct pmu_err *e)
{
	if (c->aux)
		return pmu_fail(e, 0, "config aux 0x%llx: the P6 has none",
				(unsigned long long)c->aux);
	return p6_program(ctr, c->sel, e);
}

/* The first event of the table on ctr that counts exactly s, with its
 * one unit mask. */
static int p6_event_config(enum sem s, unsigned ctr, unsigned cpls,
			   struct pmu_config *c)
{
	unsigned gen = p6_gen();

	if (ctr >= P6_COUNTERS || !pmu_cpls_valid(cpls))
		return -1;
	for (unsigned i = 0; i < p6_n_events; i++) {
		const struct p6_event *ev = &p6_events[i];
		struct evtsel sel = { .event = ev->code,
				      .os = pmu_cpls_want_os(cpls),
				      .usr = pmu_cpls_want_usr(cpls) };

		if (ev->sem == SEM_BIT(s) && !ev->umask_bits &&
		    p6_event_for(ev->code, ctr, gen) == ev) {
			*c = p6_config(&sel);
			return 0;
		}
	}
	return -1;
}

/* OS counts at CPL 0, USR at CPL 1, 2 and 3 (SDM Vol. 3B 18.22.1; the
 * CPL sets of driver.h).  A count that CMASK or E
 * filters is not a sum of counts: mask 0 (tests/perfmon/evtsel_sdm.h
 * computes it). */
static int p6_config_counts(const struct pmu_config *c, unsigned ctr,
			    uint32_t *sem_mask, unsigned *cpls)
{
	struct evtsel s = evtsel_decode(c->sel);
	const struct p6_event *ev = p6_event_for(s.event, ctr, p6_gen());

	*cpls = pmu_os_usr_cpls(s.os, s.usr);
	if (!ev)
		return -1;
	*sem_mask = s.cmask || s.edge || !p6_umask_ok(ev, s.umask) ? 0 :
		    ev->sem;
	return 0;
}

static void p6_config_name(const struct pmu_config *c, char *buf,
			   unsigned size)
{
	evtsel_name(c->sel, buf, size);
}

const struct pmu_driver p6_driver = {
	.kind = PMU_P6,
	.name = "p6",
	.shape = p6_shape,
	.describe = p6_describe,
	.init = p6_init,
	.program = ops_program,
	.start = p6_start,
	.stop = p6_stop,
	.read = p6_read,
	.reset = p6_write,
	.event_config = p6_event_config,
	.config_counts = p6_config_counts,
	.config_name = p6_config_name,
};
