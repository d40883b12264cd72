/* p6_test: the P6 facts the p6/ tests share, written out from the SDM
 * (Vol. 3B, order no. 253669-060US, §18.22: Figure 18-60, §18.22.1-3)
 * rather than taken from the driver, so that a wrong rule there cannot
 * also make an expectation wrong.  What an event counts is restated in
 * p6_expect.c from Table 19-37 (sdm_p6_counts[]), not read from
 * pmu/p6/events.c; how CMASK, INV and E filter it is
 * tests/perfmon/evtsel_sdm.h's; which generation a signature is,
 * events.c's; the registers' addresses and the event codes the tests
 * program are written out here.  Only the oracle's semantic counts are
 * shared.  Running and comparing is harness/pmu_run.h's; a run's setup
 * is p6_run.c's. */
#ifndef TESTS_P6_P6_TEST_H
#define TESTS_P6_P6_TEST_H

#include "../../harness/pmu_run.h"
#include "../../pmu/p6/regs.h"
#include "../../pmu/detect.h"
#include "../../pmu/p6/driver.h"
#include "../perfmon/evtsel_sdm.h"
#include "../../lib/fmt.h"

/* The registers (§18.22, Figure 18-60; SDM Vol. 3C Table 35-46, "MSRs in
 * the P6 Family Processors"): PerfEvtSel0/1 at 186H/187H, PerfCtr0/1 at
 * C1H/C2H. */
#define SDM_P6_PERFEVTSEL0 0x186
#define SDM_P6_PERFEVTSEL1 0x187
#define SDM_P6_PERFCTR0 0xc1
#define SDM_P6_PERFCTR1 0xc2
#define SDM_P6_COUNTERS 2

/* Event codes the tests program (Table 19-37). */
#define SDM_P6_INST_RETIRED 0xc0
#define SDM_P6_CPU_CLK_UNHALTED 0x79

/* PerfEvtSel (Figure 18-60): event select 7:0, unit mask 15:8, USR 16, OS
 * 17, E 18, PC 19, INT 20, bit 21 reserved, EN 22 (PerfEvtSel0 only), INV
 * 23, CMASK 31:24, bits 63:32 reserved. */
struct sdm_sel {
	unsigned event, umask, usr, os, e, pc, intr, en, inv, cmask;
};

static inline uint64_t sdm_sel(struct sdm_sel s)
{
	return (uint64_t)(s.event & 0xff) | (uint64_t)(s.umask & 0xff) << 8 |
	       (uint64_t)(s.usr & 1) << 16 | (uint64_t)(s.os & 1) << 17 |
	       (uint64_t)(s.e & 1) << 18 | (uint64_t)(s.pc & 1) << 19 |
	       (uint64_t)(s.intr & 1) << 20 | (uint64_t)(s.en & 1) << 22 |
	       (uint64_t)(s.inv & 1) << 23 | (uint64_t)(s.cmask & 0xff) << 24;
}

#define SDM_EN (1ull << 22)
#define SDM_USR (1ull << 16)
#define SDM_OS (1ull << 17)

#define SDM_CTR_TOP (1ull << 40)	/* the counters are 40 bits */

static inline struct pmu_config sdm_config(struct sdm_sel s)
{
	struct pmu_config c = { sdm_sel(s), 0 };

	return c;
}

/* ---- a run (p6_run.c) */

/* Once both counters count: PerfEvtSel0 holds counter 0's selection with
 * EN, PerfEvtSel1 counter 1's, each in the SDM's layout. */
int p6_sels_as_sdm(struct tcase *t, struct pmu_run *r);
/* A two-counter P6 run of bench at cpl (p6_sels_as_sdm() once started). */
void p6_setup(struct pmu_run *r, const char *bench, uint64_t n, int cpl,
	      struct sdm_sel s0, struct sdm_sel s1);

/* ---- what a counter should count (p6_expect.c) */

/* The counts a selection's event and unit mask select (Table 19-37), 0
 * when the test does not know them. */
uint32_t sdm_p6_sem(uint64_t sel);
/* Checks PerfCtrN of a finished run against what the SDM says its
 * selection counts in it (events, clocks, or CMASK/INV/E cycles; exact on
 * the model, bounded on hardware). */
void p6_check(struct tcase *t, const struct pmu_driver *d,
	      const struct pmu_run *r, unsigned ctr);

#endif
