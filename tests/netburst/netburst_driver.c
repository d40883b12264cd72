/* tests/netburst/netburst_driver.c: the NetBurst driver for a netburst/
 * test (nb_test.h): initialised, or a SKIP or failure; and a counter read
 * with its CCCR. */
#include "nb_test.h"

const struct pmu_driver *nb_ready(struct tcase *t)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_NETBURST);
	struct pmu_err e;

	if (!d || !check(t, nb_init(&e) == 0, "init: %s", e.msg))
		return NULL;
	return d;
}

int nbt_read_ctr_cccr(struct tcase *t, unsigned ctr, uint64_t *v,
		      uint64_t *cccr)
{
	struct pmu_err e;

	return check(t, nb_read(ctr, v, &e) == 0 &&
		     nb_read_cccr(ctr, cccr, &e) == 0, "read %u: %s", ctr,
		     e.msg);
}
