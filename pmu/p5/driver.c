/* pmu/p5/driver.c: the Pentium PMU driver (driver.h): the CESR shadow,
 * the SDM's order of programming a counter, and the ops table.  Every
 * register access goes through pmu/backend.h. */
#include "driver.h"
#include "regs.h"
#include "events.h"
#include "../backend.h"
#include "../detect.h"
#include "../../lib/fmt.h"

static uint32_t shadow;
static uint8_t pending_cc[P5_COUNTERS];	/* CC for p5_start() */
static int initialized;

uint32_t p5_shadow(void)
{
	return shadow;
}

int p5_has_rdpmc(void)
{
	return p5_is_mmx_cpu(&cpu_info()->sig);
}

int p5_rdpmc_usable(void)
{
	return p5_has_rdpmc() && !(backend_current()->id == BE_HW &&
				   p5_erratum74(&cpu_info()->sig));
}

/* Counter names for messages (pmu_wrmsr adds the number). */
static const char *const ctr_names[P5_COUNTERS] = { "CTR0", "CTR1" };

int p5_read_cesr(uint32_t *v, struct pmu_err *e)
{
	uint64_t raw = 0;

	if (pmu_rdmsr(P5_MSR_CESR, &raw, "CESR", e))
		return -1;
	*v = (uint32_t)raw;
	return 0;
}

int p5_init(struct pmu_err *e)
{
	initialized = 0;
	pending_cc[0] = pending_cc[1] = P5_CC_NONE;
	if (p5_read_cesr(&shadow, e))
		return -1;
	initialized = 1;
	return 0;
}

static int check_ctr(unsigned ctr, struct pmu_err *e)
{
	if (!initialized)
		return pmu_fail(e, 0, "P5 driver not initialized");
	if (ctr >= P5_COUNTERS)
		return pmu_fail(e, 0, "counter %u does not exist (CTR0, CTR1)",
				ctr);
	return 0;
}

static int validate(unsigned ctr, const struct p5_half *h, struct pmu_err *e)
{
	if (h->es > 0x3f)
		return pmu_fail(e, 0, "event select 0x%x does not fit ES%u's "
				"6 bits", h->es, ctr);
	if (h->cc > 7)
		return pmu_fail(e, 0, "counter control %u does not fit CC%u's "
				"3 bits", h->cc, ctr);
	if (h->pc > 1)
		return pmu_fail(e, 0, "pin control %u is not 0 or 1", h->pc);
	if (!p5_event_for(h->es, ctr, p5_has_rdpmc()))
		return pmu_fail(e, 0, "event 0x%02x is reserved or not "
				"countable on CTR%u of this CPU", h->es, ctr);
	return 0;
}

/* Writes a new CESR and proves the register took exactly that. */
static int write_cesr(uint32_t v, struct pmu_err *e)
{
	uint32_t back = 0;

	if (pmu_wrmsr(P5_MSR_CESR, v, "CESR", e))
		return -1;
	shadow = v;
	if (p5_read_cesr(&back, e))
		return -1;
	if (back != v)
		return pmu_fail(e, 0, "CESR (0x%x) reads 0x%08x after writing "
				"0x%08x", P5_MSR_CESR, back, v);
	return 0;
}

/* The register must still hold what we last wrote: anything else means
 * someone else programmed it, and one half would be silently lost. */
static int check_shadow(struct pmu_err *e)
{
	uint32_t now = 0;

	if (p5_read_cesr(&now, e))
		return -1;
	if (now != shadow)
		return pmu_fail(e, 0, "CESR (0x%x) is 0x%08x but the driver "
				"last wrote 0x%08x", P5_MSR_CESR, now, shadow);
	return 0;
}

static int set_cc(unsigned ctr, unsigned cc, struct pmu_err *e)
{
	struct p5_half h;

	if (check_ctr(ctr, e) || check_shadow(e))
		return -1;
	h = cesr_get_half(shadow, ctr);
	h.cc = cc;
	return write_cesr(cesr_set_half(shadow, ctr, &h), e);
}

int p5_stop(unsigned ctr, struct pmu_err *e)
{
	return set_cc(ctr, P5_CC_NONE, e);
}

int p5_start(unsigned ctr, struct pmu_err *e)
{
	if (check_ctr(ctr, e))
		return -1;
	return set_cc(ctr, pending_cc[ctr], e);
}

/* "A counter must be stopped and cleared or preset before its event is
 * changed" (SDM Vol. 3B §18.23.1): stop, clear, then the new event with
 * counting still off. */
int p5_program(unsigned ctr, const struct p5_half *h, struct pmu_err *e)
{
	struct p5_half off = *h;

	if (check_ctr(ctr, e) || validate(ctr, h, e) ||
	    p5_stop(ctr, e) || p5_write(ctr, 0, e))
		return -1;
	off.cc = P5_CC_NONE;
	if (write_cesr(cesr_set_half(shadow, ctr, &off), e))
		return -1;
	pending_cc[ctr] = (uint8_t)h->cc;
	return 0;
}

int p5_read(unsigned ctr, uint64_t *v, struct pmu_err *e)
{
	if (check_ctr(ctr, e))
		return -1;
	return pmu_rdmsr(P5_MSR_CTR0 + ctr, v, ctr_names[ctr], e);
}

int p5_write(unsigned ctr, uint64_t v, struct pmu_err *e)
{
	if (check_ctr(ctr, e))
		return -1;
	if (v & ~P5_CTR_MASK)
		return pmu_fail(e, 0, "0x%llx does not fit the 40-bit CTR%u",
				(unsigned long long)v, ctr);
	return pmu_wrmsr(P5_MSR_CTR0 + ctr, v, ctr_names[ctr], e);
}

int p5_rdpmc(unsigned ctr, uint64_t *v, struct pmu_err *e)
{
	int vec;

	if (check_ctr(ctr, e))
		return -1;
	if (p5_has_rdpmc() && !p5_rdpmc_usable())
		return pmu_fail(e, 0, "RDPMC not used: Pentium erratum 74 on "
				"this stepping (read the counter with RDMSR)");
	vec = be_rdpmc(ctr, v);
	if (vec)
		return pmu_fail(e, vec, "RDPMC %u raised vector %d", ctr, vec);
	return 0;
}

/* ---- the ops table */

static void p5_shape(const struct cpu_info *ci, struct pmu_shape *s)
{
	(void)ci;
	s->counters = P5_COUNTERS;
	s->width = P5_CTR_BITS;
	s->fixed = 0;
}

/* RDPMC and the MMX events exist on the Pentium with MMX technology;
 * erratum74=yes: on hardware the driver does not use RDPMC. */
static void p5_describe(const struct cpu_info *ci, char *buf, unsigned size)
{
	const char *mmx = p5_is_mmx_cpu(&ci->sig) ? "yes" : "no";

	fmt_snprintf(buf, size, "counters=%u width=%u rdpmc=%s mmx_events=%s "
		     "erratum74=%s", P5_COUNTERS, P5_CTR_BITS, mmx, mmx,
		     p5_erratum74(&ci->sig) ? "yes" : "no");
}

static int ops_program(unsigned ctr, const struct pmu_config *c,
		       struct pmu_err *e)
{
	struct p5_half h = p5_half_of(c);

	if (c->sel >> (P5_PC_SHIFT + 1) || c->aux)
		return pmu_fail(e, 0, "config 0x%llx/0x%llx is not a CESR "
				"half", (unsigned long long)c->sel,
				(unsigned long long)c->aux);
	return p5_program(ctr, &h, e);
}

/* The CC bits whose classes hold the CPLs of cpls (driver.h): a request
 * of CPL 0 gets bit 0, which counts CPL 1 and 2 as well. */
static unsigned cc_for(unsigned cpls)
{
	return (cpls & PMU_CPLS_0_2 ? P5_CC_CPL012 : 0) |
	       (cpls & PMU_CPL3 ? P5_CC_CPL3 : 0);
}

/* The first event of the table on ctr that counts exactly s (the P5
 * cannot count plain clocks: CC 1xx counts an event's duration). */
static int p5_event_config(enum sem s, unsigned ctr, unsigned cpls,
			   struct pmu_config *c)
{
	int mmx = p5_has_rdpmc();

	if (ctr >= P5_COUNTERS || !pmu_cpls_valid(cpls))
		return -1;
	for (unsigned i = 0; i < p5_n_events; i++) {
		const struct p5_event *ev = &p5_events[i];
		struct p5_half h = { ev->code, cc_for(cpls), 0 };

		if (ev->sem == SEM_BIT(s) && !ev->duration &&
		    p5_event_for(ev->code, ctr, mmx) == ev) {
			*c = p5_config(&h);
			return 0;
		}
	}
	return -1;
}

static int p5_config_counts(const struct pmu_config *c, unsigned ctr,
			    uint32_t *sem_mask, unsigned *cpls)
{
	struct p5_half h = p5_half_of(c);
	const struct p5_event *ev = p5_event_for(h.es, ctr, p5_has_rdpmc());

	*cpls = (h.cc & P5_CC_CPL012 ? PMU_CPLS_0_2 : 0) |
		(h.cc & P5_CC_CPL3 ? PMU_CPL3 : 0);
	if (!ev)
		return -1;
	/* Clocks (duration) are not a sum of counts: see p5_expect() in
	 * tests/p5 and p5_duration_modelled(). */
	*sem_mask = h.cc & P5_CC_CLOCKS ? 0 : ev->sem;
	return 0;
}

static void p5_config_name(const struct pmu_config *c, char *buf,
			   unsigned size)
{
	struct p5_half h = p5_half_of(c);

	fmt_snprintf(buf, size, "ES=0x%02x CC=%u%u%u PC=%u", h.es,
		     h.cc >> 2 & 1, h.cc >> 1 & 1, h.cc & 1, h.pc);
}

const struct pmu_driver p5_driver = {
	.kind = PMU_P5,
	.name = "p5",
	.shape = p5_shape,
	.describe = p5_describe,
	.init = p5_init,
	.program = ops_program,
	.start = p5_start,
	.stop = p5_stop,
	.read = p5_read,
	.reset = p5_write,
	.event_config = p5_event_config,
	.config_counts = p5_config_counts,
	.config_name = p5_config_name,
};
