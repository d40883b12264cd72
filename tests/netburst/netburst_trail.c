/* tests/netburst/netburst_trail.c: the access trail of a netburst/ test
 * (nb_test.h), what the driver wrote as pmu/backend.h's log keeps it: its
 * WRMSRs, the last value written to a register, and a refusal checked
 * against it (no write before the driver said no). */
#include "nb_test.h"

unsigned nbt_trail_writes(const struct nbt_trail *tr)
{
	unsigned n = 0;

	for (unsigned i = 0; i < tr->log.used; i++)
		n += tr->log.a[i].op == BE_OP_WRMSR;
	return n + tr->log.lost;
}

int nbt_trail_last(const struct nbt_trail *tr, uint32_t msr, uint64_t *v)
{
	for (unsigned i = tr->log.used; i-- > 0;) {
		const struct be_access *a = &tr->log.a[i];

		if (a->op == BE_OP_WRMSR && a->reg == msr && !a->vector) {
			*v = a->value;
			return 1;
		}
	}
	return 0;
}

void nbt_refused(struct tcase *t, const char *what, int rc,
		 const struct pmu_err *e, const struct nbt_trail *tr)
{
	unsigned w = nbt_trail_writes(tr);

	check(t, rc != 0, "%s: accepted", what);
	check(t, w == 0 && (rc == 0 || e->vector == 0), "%s: %u WRMSRs, "
	      "vector %d: not refused by the driver before any write", what,
	      w, rc ? e->vector : 0);
	value(t, what, "%s", rc ? e->msg : "accepted");
}
