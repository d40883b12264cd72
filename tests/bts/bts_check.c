/* tests/bts/bts_check.c: the records the SDM asks of a run's taken
 * branches, and the checks of a buffer against them (bts_test.h): one
 * for one under the model, a subsequence on hardware; nothing written
 * where no record belongs. */
#include "bts_test.h"

/* Does a branch at cpl make a record under the DEBUGCTL flags
 * (§17.4.9.4: BTS_OFF_OS none at CPL 0, BTS_OFF_USR none at CPL > 0)? */
static int bts_sdm_records(uint64_t flags, unsigned cpl)
{
	if (cpl == 0)
		return !(flags & SDM_DEBUGCTL_BTS_OFF_OS);
	return !(flags & SDM_DEBUGCTL_BTS_OFF_USR);
}

unsigned bts_expected(const struct bts_trace *tr, uint64_t flags,
		      struct bts_branch *out)
{
	unsigned n = 0;

	for (unsigned i = 0; i < tr->n; i++)
		if (bts_sdm_records(flags, tr->b[i].cpl))
			out[n++] = tr->b[i];
	return n;
}

int bts_same(const struct bts_record *r, const struct bts_branch *b)
{
	return r->from == b->from && r->to == b->to;
}

/* On hardware, record r is the trace's branch b: the same source and
 * target; but the benchmark's closing RET (the trace's last branch)
 * returns to whoever called it, and at CPL 0 the traced run and the
 * measured one call it from different places (the tracer, bench_exec):
 * that one is matched by its source alone.  (At CPL 3 both return into
 * the ring-3 trampoline, so the target matches too.) */
static int bts_same_hw(const struct bts_record *r, const struct bts_branch *b,
		       int last)
{
	if (last && (b->flags & DEC_RET))
		return r->from == b->from;
	return bts_same(r, b);
}

void bts_check_records(struct tcase *t, const char *what,
		       const struct bts_record *r, unsigned n,
		       const struct bts_branch *want, unsigned nwant)
{
	unsigned i, j = 0;

	if (!backend_model_backed()) {	/* hardware */
		for (i = 0; i < n && j < nwant; i++)
			j += bts_same_hw(&r[i], &want[j], j == nwant - 1);
		check(t, j == nwant, "%s: only the first %u of the trace's %u "
		      "branches appear in order among %u records (hardware: "
		      "a subsequence)", what, j, nwant, n);
		return;
	}
	check(t, n == nwant, "%s: %u records, the trace has %u taken "
	      "branches", what, n, nwant);
	for (i = 0; i < n && i < nwant; i++)
		if (!check(t, bts_same(&r[i], &want[i]) && r[i].flags == 0,
			   "%s: record %u {from 0x%llx, to 0x%llx, flags "
			   "0x%llx}, the trace's branch {0x%llx -> 0x%llx}, "
			   "flags 0", what, i, (unsigned long long)r[i].from,
			   (unsigned long long)r[i].to,
			   (unsigned long long)r[i].flags,
			   (unsigned long long)want[i].from,
			   (unsigned long long)want[i].to))
			return;
}

void bts_check_untouched(struct tcase *t, const struct bts_env *v,
			 unsigned first, unsigned count)
{
	const uint8_t *p = v->m->buf + (size_t)first * BTS_REC;

	for (unsigned i = 0; i < count * BTS_REC; i++)
		if (!check(t, p[i] == BTS_GUARD_BYTE, "byte base+%u was "
			   "written (0x%02x): no record belongs there",
			   first * BTS_REC + i, p[i]))
			return;
}

void bts_check_guard(struct tcase *t, const struct bts_env *v, unsigned k)
{
	bts_check_untouched(t, v, k, BTS_GUARD_RECORDS);
}
