/* pt_timing: the cycle time of every branch of an Intel PT stream
 * (lib/pt/timing.h).
 *
 * Intel SDM Vol. 3C, order no. 326019-060US: §36.3.6.2 "Cycle Packet
 * Semantics" (packets before a CYC took place before its time, packets
 * after it at or after its time, the CYC-eligible packet right after it
 * at its time; a CYC before a TNT gives the time of the TNT's first
 * branch), §36.4.2.14, Table 36-33 (CYC counts the core clocks since the
 * last CYC; CYCs before the next CYC-eligible packet accumulate onto it;
 * with CycThresh > 0 other operations are only bounded: at or after the
 * last CYC time, before the next CYC time).
 *
 * Only the eligible packet right after the CYCs is exact.  A later one
 * is bounded even where it shares the CYC's cycle (under CycThresh 0 an
 * MTC, or a MODE.Exec, between a CYC and the TNT or TIP of its cycle):
 * the stream does not say CycThresh, and with a threshold the same bytes
 * mean a later cycle (Table 36-14).  Its lower bound is then its time.
 *
 * One pass over the packets: time is the running sum of the CYCs; a
 * branch gets [time, open) when decoded, and the next CYC closes every
 * bounded branch still open with its own time as the upper bound.
 *
 * Freestanding (see lib/pt/packet.h). */
#include <stddef.h>
#include <stdint.h>
#include "packet.h"
#include "timing.h"

struct timing {
	struct pt_branch *out;
	size_t max;
	size_t n;		/* branches seen (written: min(n, max)) */
	size_t open;		/* out[open .. n) may wait for their hi */
	uint64_t time;		/* the CYC sum of this epoch */
	uint16_t epoch;
	uint8_t cyc_pending;	/* CYCs since the last eligible packet */
	uint8_t saturated;	/* time passed 2^64-1 in this epoch */
};

static void add_branch(struct timing *s, const struct pt_pkt *k,
		       unsigned bit, unsigned taken, int exact)
{
	struct pt_branch *b;

	if (s->n++ >= s->max)
		return;
	b = &s->out[s->n - 1];
	b->offset = k->offset;
	b->type = k->type;
	b->taken = taken;
	b->ip_valid = k->ip_valid;	/* never set on a TNT */
	b->bit = bit;
	b->epoch = s->epoch;
	b->ip = b->ip_valid ? k->ip : 0;
	b->time = s->time;
	b->exact = exact && !s->saturated;
	b->open = !b->exact;
	b->hi = b->exact ? s->time : PT_TIME_OPEN;
}

/* A CYC: its time is the upper bound of every bounded branch since the
 * last CYC.  A CYC of 0 leaves no cycle between the two: [time, time)
 * would be empty, and the one time such a branch can have is the CYC
 * time itself, so it becomes exact. */
static void add_cycles(struct timing *s, uint64_t cycles)
{
	size_t end = s->n < s->max ? s->n : s->max;

	/* past 2^64-1 the sum stays there and closes no bound: the next
	 * CYC time is beyond what 64 bits say */
	if (__builtin_add_overflow(s->time, cycles, &s->time)) {
		s->time = UINT64_MAX;
		s->saturated = 1;
	}
	for (size_t i = s->open; i < end && !s->saturated; i++) {
		if (s->out[i].exact)
			continue;
		s->out[i].hi = s->time;
		s->out[i].open = 0;
		s->out[i].exact = s->out[i].time == s->time;
	}
	s->open = s->n;
	s->cyc_pending = 1;
}

/* Any other packet: a CYC-eligible one takes the time of the CYCs right
 * before it; the branches of k (for a TNT only its first, oldest one
 * when so timed) are exact at that time or bounded. */
static void add_packet(struct timing *s, const struct pt_pkt *k,
		       int eligible)
{
	int exact = eligible && s->cyc_pending;

	if (eligible)
		s->cyc_pending = 0;
	switch (k->type) {
	case PT_PKT_TNT8:
	case PT_PKT_TNT64:
		/* payload bit count-1 is the oldest branch: bit 0 here */
		for (unsigned i = 0; i < k->count; i++)
			add_branch(s, k, i,
				   (k->payload >> (k->count - 1 - i)) & 1,
				   exact && i == 0);
		break;
	case PT_PKT_TIP:
	case PT_PKT_TIP_PGE:
	case PT_PKT_TIP_PGD:
		add_branch(s, k, 0, 0, exact);
		break;
	default:
		break;
	}
}

void pt_timing(const uint8_t *buf, size_t len, struct pt_branch *out,
	       size_t max, struct pt_timing_result *r)
{
	pt_timing_errata(buf, len, 0, out, max, r);
}

void pt_timing_errata(const uint8_t *buf, size_t len, unsigned errata,
		      struct pt_branch *out, size_t max,
		      struct pt_timing_result *r)
{
	struct timing s = { .out = out, .max = max };
	struct pt_dec d;
	struct pt_pkt k;

	r->errors = 0;
	r->first_error = 0;
	r->saturated = 0;
	pt_dec_init(&d, buf, len);
	d.errata = (uint8_t)errata;
	while (pt_dec_next(&d, &k) != PT_PKT_NONE) {
		if (k.type == PT_PKT_CYC) {
			add_cycles(&s, k.payload);
		} else if (k.type == PT_PKT_ERROR) {
			/* decoding resumes at the next PSB: a new epoch whose
			 * time starts at 0; the branches before stay open */
			if (!r->errors++)
				r->first_error = k.offset;
			s.epoch++;
			s.time = 0;
			r->saturated |= s.saturated;
			s.saturated = 0;
			s.cyc_pending = 0;
			s.open = s.n;
		} else {
			/* d.in_psb is the state after k, right for k too: the
			 * PSB that sets it is never eligible, and PSBEND and
			 * OVF clear it as they end PSB+ (OVF, eligible, is
			 * no status packet) */
			add_packet(&s, &k, pt_pkt_cyc_eligible(k.type,
							       d.in_psb));
		}
	}
	r->branches = s.n < max ? s.n : max;
	r->lost = s.n - r->branches;
	r->cycles = s.time;
	r->saturated |= s.saturated;
}
