/* p5: the Pentium PMU driver (see p5.h).  Every register access goes
 * through pmu/backend.h. */
#include "p5.h"
#include "backend.h"
#include "detect.h"
#include "../lib/fmt.h"

static uint32_t shadow;
static int initialized;

__attribute__((format(printf, 3, 4)))
static int fail(struct p5_err *e, int vector, const char *fmt, ...)
{
	va_list ap;

	e->vector = vector;
	va_start(ap, fmt);
	fmt_vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

uint32_t p5_shadow(void)
{
	return shadow;
}

int p5_has_rdpmc(void)
{
	return p5_is_mmx_cpu(&cpu_info()->sig);
}

int p5_read_cesr(uint32_t *v, struct p5_err *e)
{
	uint64_t raw = 0;
	int vec = be_rdmsr(P5_MSR_CESR, &raw);

	if (vec)
		return fail(e, vec, "RDMSR CESR (0x11) raised vector %d", vec);
	*v = (uint32_t)raw;
	return 0;
}

int p5_init(struct p5_err *e)
{
	initialized = 0;
	if (p5_read_cesr(&shadow, e))
		return -1;
	initialized = 1;
	return 0;
}

static int check_ctr(unsigned ctr, struct p5_err *e)
{
	if (!initialized)
		return fail(e, 0, "P5 driver not initialized");
	if (ctr >= P5_COUNTERS)
		return fail(e, 0, "counter %u does not exist (CTR0, CTR1)", ctr);
	return 0;
}

static int validate(unsigned ctr, const struct p5_half *h, struct p5_err *e)
{
	if (h->es > 0x3f)
		return fail(e, 0, "event select 0x%x does not fit ES%u's 6 bits",
			    h->es, ctr);
	if (h->cc > 7)
		return fail(e, 0, "counter control %u does not fit CC%u's 3 "
			    "bits", h->cc, ctr);
	if (h->pc > 1)
		return fail(e, 0, "pin control %u is not 0 or 1", h->pc);
	if (!p5_event_for(h->es, ctr, p5_has_rdpmc()))
		return fail(e, 0, "event 0x%02x is reserved or not countable "
			    "on CTR%u of this CPU", h->es, ctr);
	return 0;
}

/* Writes a new CESR and proves the register took exactly that. */
static int write_cesr(uint32_t v, struct p5_err *e)
{
	uint32_t back = 0;
	int vec = be_wrmsr(P5_MSR_CESR, v);

	if (vec)
		return fail(e, vec, "WRMSR CESR=0x%08x raised vector %d", v, vec);
	shadow = v;
	if (p5_read_cesr(&back, e))
		return -1;
	if (back != v)
		return fail(e, 0, "CESR reads 0x%08x after writing 0x%08x",
			    back, v);
	return 0;
}

/* The register must still hold what we last wrote: anything else means
 * someone else programmed it, and one half would be silently lost. */
static int check_shadow(struct p5_err *e)
{
	uint32_t now = 0;

	if (p5_read_cesr(&now, e))
		return -1;
	if (now != shadow)
		return fail(e, 0, "CESR is 0x%08x but the driver last wrote "
			    "0x%08x", now, shadow);
	return 0;
}

int p5_program(unsigned ctr, const struct p5_half *h, struct p5_err *e)
{
	if (check_ctr(ctr, e) || validate(ctr, h, e) || check_shadow(e))
		return -1;
	return write_cesr(cesr_set_half(shadow, ctr, h), e);
}

int p5_stop(unsigned ctr, struct p5_err *e)
{
	struct p5_half h;

	if (check_ctr(ctr, e) || check_shadow(e))
		return -1;
	h = cesr_get_half(shadow, ctr);
	h.cc = P5_CC_NONE;
	return write_cesr(cesr_set_half(shadow, ctr, &h), e);
}

int p5_read(unsigned ctr, uint64_t *v, struct p5_err *e)
{
	int vec;

	if (check_ctr(ctr, e))
		return -1;
	vec = be_rdmsr(P5_MSR_CTR0 + ctr, v);
	if (vec)
		return fail(e, vec, "RDMSR CTR%u raised vector %d", ctr, vec);
	return 0;
}

int p5_write(unsigned ctr, uint64_t v, struct p5_err *e)
{
	int vec;

	if (check_ctr(ctr, e))
		return -1;
	if (v & ~P5_CTR_MASK)
		return fail(e, 0, "0x%llx does not fit the 40-bit CTR%u",
			    (unsigned long long)v, ctr);
	vec = be_wrmsr(P5_MSR_CTR0 + ctr, v);
	if (vec)
		return fail(e, vec, "WRMSR CTR%u raised vector %d", ctr, vec);
	return 0;
}

int p5_rdpmc(unsigned ctr, uint64_t *v, struct p5_err *e)
{
	int vec;

	if (check_ctr(ctr, e))
		return -1;
	vec = be_rdpmc(ctr, v);
	if (vec)
		return fail(e, vec, "RDPMC %u raised vector %d", ctr, vec);
	return 0;
}
