/* tests/pt/pt_packets.c: the check every pt/ test makes of a run's stream
 * packet by packet (pt_test.h): it decodes without error, starts with the
 * PSB+ of TraceEn, and no CYC is below what CycThresh allows; the PSBs
 * and CYCs counted for the test. */
#include "pt_test.h"

int pt_check_packets(struct pt_env *v, const char *what, uint64_t min_cyc,
		     unsigned *psbs, unsigned *cycs)
{
	struct pt_dec d;
	struct pt_pkt k;

	*psbs = *cycs = 0;
	pt_dec_init(&d, v->m->out, v->len);
	d.errata = v->errata;
	while (pt_dec_next(&d, &k) != PT_PKT_NONE) {
		if (!check(v->t, k.type != PT_PKT_ERROR, "%s: offset %llu: "
			   "%s", what, (unsigned long long)k.offset,
			   pt_err_name((enum pt_err)k.err)) ||
		    !check(v->t, k.offset || k.type == PT_PKT_PSB, "%s: the "
			   "stream starts with %s, not PSB (SDM 36.2.7.3: a "
			   "PSB+ at TraceEn)", what,
			   pt_pkt_name((enum pt_pkt_type)k.type)))
			return 0;
		*psbs += k.type == PT_PKT_PSB;
		if (k.type != PT_PKT_CYC)
			continue;
		++*cycs;
		if (!check(v->t, k.payload >= min_cyc, "%s: CYC %llu at "
			   "offset %llu: CycThresh allows none below %llu "
			   "(SDM 36.3.6.3)", what, (unsigned long long)k.payload,
			   (unsigned long long)k.offset,
			   (unsigned long long)min_cyc))
			return 0;
	}
	return 1;
}
