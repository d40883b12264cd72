/* tests/bts/bts_log.c: what a bts/ run leaves in the log (bts_test.h):
 * the keys of its values and the records of its buffer. */
#include "bts_test.h"

const char *bts_key(const struct bts_env *v, const char *name)
{
	static char buf[40];

	fmt_snprintf(buf, sizeof(buf), "run%u_%s", v->runs, name);
	return buf;
}

/* The log of one record: run<N>_record<i>_from / _to / _predicted, the
 * branch addresses as <benchmark>+0xNN inside a benchmark (else hex),
 * predicted: bit 4 of the third field, "Branch Predicted" in the record
 * figures of §17.4.9 (Figure 17-6 "64-bit Branch Trace Record Format";
 * the 32-bit record has it at the same bit). */
static void bts_log_record(const struct bts_env *v, unsigned i)
{
	const struct bts_record *r = &v->m->rec[i];
	char key[40], addr[64];

	fmt_snprintf(key, sizeof(key), "run%u_record%u_from", v->runs, i);
	value(v->t, key, "%s", bench_addr_str(r->from, addr, sizeof(addr)));
	fmt_snprintf(key, sizeof(key), "run%u_record%u_to", v->runs, i);
	value(v->t, key, "%s", bench_addr_str(r->to, addr, sizeof(addr)));
	fmt_snprintf(key, sizeof(key), "run%u_record%u_predicted", v->runs,
		     i);
	value(v->t, key, "%u", (unsigned)(r->flags >> 4 & 1));
}

void bts_log_records(const struct bts_env *v)
{
	uint64_t index = bts_index(v);
	uint64_t n = index > v->base ? (index - v->base) / BTS_REC : 0;

	if (n > BTS_BUF_RECORDS)
		n = BTS_BUF_RECORDS;
	for (unsigned i = 0; i < n; i++)
		if (i < 2 || i == n - 1)
			bts_log_record(v, i);
}
