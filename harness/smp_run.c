/* smp_run: shared steps of the smp tests (smp_run.h). */
#include "smp_run.h"
#include "../arch/x86/smp.h"

int sibling_ready(struct tcase *t)
{
	char why[240];

	if (smp_sibling_ready(why, sizeof(why)))
		return 1;
	if (smp_sibling_present())
		check(t, 0, "the firmware lists a sibling thread, but: %s",
		      why);
	else
		skip(t, "no sibling logical processor: %s", why);
	return 0;
}
