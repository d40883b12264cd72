/* tsc_calibrate: the TSC's rate measured against a counter of known rate
 * (the ACPI PM timer), robust to a host that deschedules the machine
 * (an emulator on a busy host; an SMI on silicon).
 *
 * A wait that ends on the counter and then reads the TSC (what calibrating
 * against a firmware Stall() does) counts any time the machine was held
 * back after the wait's end as part of the wait: on a loaded 2-core host a
 * 50 ms Stall() measured a TSC rate 4.3 times too high (issue 46), and
 * every time derived from it (elapsed_s, run_timeout=, the log file's
 * flush interval) was short by that much.  Here both ends are pairs of
 * reads, TSC and counter, and the rate is the TSC ticks over the counter
 * ticks that really passed between the pairs: a delay anywhere in the wait
 * cancels.  What is left is a delay inside a pair (between its two TSC
 * reads around the counter read), so each end takes the tightest of
 * several pairs and the TSC at the counter read is their midpoint. */
#ifndef ARCH_X86_TSC_CALIBRATE_H
#define ARCH_X86_TSC_CALIBRATE_H

#include <stdint.h>

struct tsc_ref {
	uint32_t (*read)(void *ctx);	/* the counter, free-running */
	void *ctx;
	uint32_t mask;		/* its width: 0xffffff or 0xffffffff */
	uint64_t hz;		/* its rate */
	uint64_t (*tsc)(void *ctx);	/* rdtsc (host tests: a fake) */
};

/* Pairs taken at each end; the tightest counts. */
#define TSC_CAL_PAIRS 8
/* Measurements tried when the counter wrapped past its range meanwhile
 * and shows fewer ticks than the span (a machine held back for seconds:
 * 4.69 s is a 24-bit PM timer's range).  A hold of a whole range more
 * looks like a short one: no counter of that width can tell. */
#define TSC_CAL_TRIES 3

/* The TSC's rate against r over at least span counter ticks (less than
 * half the counter's range), 0 when the counter held still for
 * spin_limit reads in a row (no such counter, or it is stopped). */
uint64_t tsc_hz_against(const struct tsc_ref *r, uint32_t span,
			uint32_t spin_limit);

#endif
