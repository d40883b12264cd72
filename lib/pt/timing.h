/* pt_timing: the cycle time of every branch of an Intel PT stream from
 * its CYC packets (Intel SDM Vol. 3C, order no. 326019-060US, §36.3.6
 * "Cycle-Accurate Mode", §36.3.6.2 "Cycle Packet Semantics", §36.4.2.14
 * "Cycle Count (CYC) Packet", Table 36-33).
 *
 * The rules (docs/pt.md):
 *   - time is the sum of all CYC payloads since the stream's start (or
 *     since the PSB where decoding resumed after an error: a new epoch);
 *   - several CYCs before the next CYC-eligible packet accumulate onto
 *     it; the CYC-eligible packet that immediately follows CYCs took
 *     place at the accumulated time: exact;
 *   - a CYC preceding a TNT times only the first branch in it;
 *   - every other branch (later bits of a TNT, a TIP with no CYC right
 *     before it: CycThresh > 0) is only bounded: at or after the last
 *     CYC time, before the next CYC time; with no CYC after it, the
 *     upper bound is open;
 *   - the sum saturates at 2^64-1 (it cannot pass it in a real trace,
 *     but a damaged one can say so): from there on nothing is exact.
 * Packets inside PSB+ (PSB .. PSBEND) are not CYC-eligible.
 *
 * A branch is a TNT bit (a conditional branch or a compressed RET) or a
 * TIP (an indirect branch, an uncompressed RET, a far transfer's
 * target); TIP.PGE and TIP.PGD are reported too (the enable and the
 * disable), FUP not. */
#ifndef LIB_PT_TIMING_H
#define LIB_PT_TIMING_H

#include <stddef.h>
#include <stdint.h>
#include "packet.h"

#define PT_TIME_OPEN UINT64_MAX	/* hi of an open bound (see open) */

struct pt_branch {
	uint64_t offset;	/* of the packet (TNT, TIP ...) */
	uint8_t type;		/* PT_PKT_TNT8, _TNT64, _TIP, _TIP_PGE,
				 * _TIP_PGD */
	uint8_t taken;		/* TNT: the bit */
	uint8_t exact;		/* 1: time is exact; 0: [time, hi) */
	uint8_t ip_valid;
	uint8_t open;		/* no upper bound: no CYC follows, or the
				 * sum passed 2^64-1 (hi = PT_TIME_OPEN,
				 * which is no bound then) */
	uint8_t bit;		/* TNT: 0 for the oldest branch in it */
	uint16_t epoch;		/* 0, +1 after each resync on an error */
	uint64_t ip;		/* TIP*: the target (after last-IP) */
	uint64_t time;		/* exact time, or the lower bound */
	uint64_t hi;		/* upper bound (exclusive), PT_TIME_OPEN
				 * when open; hi == time when exact */
};

struct pt_timing_result {
	size_t branches;	/* written to out[] */
	size_t lost;		/* branches past max (not written) */
	size_t errors;		/* damaged packets (decoding resumed at the
				 * next PSB) */
	uint64_t first_error;	/* offset of the first, if any */
	uint64_t cycles;	/* the last time (the sum of the CYCs of
				 * the last epoch) */
	uint8_t saturated;	/* a CYC sum passed 2^64-1: it stays at
				 * 2^64-1 (cycles too), and every branch
				 * after is open at [2^64-1, -) */
};

/* Decodes buf[0, len) from offset 0 (no sync first: call it on a buffer
 * that starts at a packet) and writes its branches in stream order into
 * out[0, max). */
void pt_timing(const uint8_t *buf, size_t len, struct pt_branch *out,
	       size_t max, struct pt_timing_result *r);
/* The same with the workarounds of errata (PT_ERRATUM_*, from
 * pt_errata_for_cpu() for the CPU that recorded the stream). */
void pt_timing_errata(const uint8_t *buf, size_t len, unsigned errata,
		      struct pt_branch *out, size_t max,
		      struct pt_timing_result *r);

#endif
