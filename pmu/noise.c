/* noise: the emulated PMU's documented non-determinism (noise.h). */
#include "noise.h"

static int armed, held;
static unsigned seed = 0x2545f491u;

void noise_arm(int on)
{
	armed = !!on;
	seed = 0x2545f491u;	/* the same sequence on every run */
}

int noise_on(void)
{
	return armed && !held;
}

void noise_hold(int hold)
{
	held = !!hold;
}

/* A 32-bit linear congruential step (Numerical Recipes' constants): a
 * reproducible sequence, not a source of secrets. */
unsigned noise_pmi_skid(void)
{
	seed = seed * 1664525u + 1013904223u;
	return (seed >> 16) % NOISE_SKID_MAX;
}
