/* Host stub for the tests that link pmu/model.c: it asks arch/x86/smp.c
 * whose step the model is fed (AnyThread).  On the host every step is
 * this processor's. */
#include "arch/x86/smp.h"

int smp_on_sibling(void)
{
	return 0;
}
