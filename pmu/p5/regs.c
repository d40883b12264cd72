/* pmu/p5/regs.c: the CESR's field encoding, the counter-control rule, a
 * counter's pmu_config, and which Pentium a signature is (regs.h).  Pure
 * logic: host-tested. */
#include "regs.h"

static unsigned half_shift(unsigned ctr)
{
	return ctr ? P5_HALF_SHIFT : 0;
}

uint32_t cesr_set_half(uint32_t cesr, unsigned ctr, const struct p5_half *h)
{
	unsigned s = half_shift(ctr);
	uint32_t half = (h->es & 0x3f) | (h->cc & 7) << P5_CC_SHIFT |
			(h->pc & 1) << P5_PC_SHIFT;

	return (cesr & ~(0x3ffu << s)) | half << s;
}

struct p5_half cesr_get_half(uint32_t cesr, unsigned ctr)
{
	uint32_t half = cesr >> half_shift(ctr);
	struct p5_half h = { half & 0x3f, (half >> P5_CC_SHIFT) & 7,
			     (half >> P5_PC_SHIFT) & 1 };

	return h;
}

int cesr_reserved(uint64_t v)
{
	return (v & ~P5_CESR_DEFINED) != 0;
}

int p5_cc_counts_at(unsigned cc, unsigned cpl)
{
	return (cc & (cpl == 3 ? P5_CC_CPL3 : P5_CC_CPL012)) != 0;
}

struct pmu_config p5_config(const struct p5_half *h)
{
	struct pmu_config c = { cesr_set_half(0, 0, h), 0 };

	return c;
}

struct p5_half p5_half_of(const struct pmu_config *c)
{
	return cesr_get_half((uint32_t)c->sel, 0);
}

int p5_is_mmx_cpu(const struct cpu_sig *s)
{
	return s->family == 5 && (s->model == 4 || s->model == 8);
}

/* Linux-era perfctr (x86.c) disables RDPMC on these parts for "Pentium
 * Erratum 74": family 5 model 4 stepping 4, and stepping 3 when the
 * processor type is 1 (OverDrive). */
int p5_erratum74(const struct cpu_sig *s)
{
	return s->family == 5 && s->model == 4 &&
	       (s->stepping == 4 || (s->stepping == 3 && s->type == 1));
}
