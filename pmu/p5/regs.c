/* p5_cesr: CESR field encoding and the counter-control rule (p5.h). */
#include "p5.h"

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
