/* p5_test: the P5 facts the p5/ tests share, written out from the SDM
 * (Vol. 3B, order no. 253669-060US: §18.23.1, Figure 18-61 and the CC
 * list; Table 19-38, the events) rather than taken from pmu/p5/ (its
 * regs.h constants, events.c table, p5_config() or p5_cc_counts_at()), so
 * a wrong reading there cannot also make an expectation wrong.  Only the
 * oracle's semantic counts are shared.  Running and comparing is
 * harness/pmu_run.h's; what this header declares is defined in p5_run.c
 * (a run's setup) and p5_expect.c (what a counter should count). */
#ifndef TESTS_P5_P5_TEST_H
#define TESTS_P5_P5_TEST_H

#include "../../harness/pmu_run.h"
#include "../../pmu/p5/regs.h"
#include "../../pmu/detect.h"
#include "../../pmu/p5/driver.h"

/* The registers (§18.23.1, Figure 18-61): CESR at MSR 11H, CTR0 at 12H,
 * CTR1 at 13H; the counters are 40 bits. */
#define SDM_P5_CESR 0x11
#define SDM_P5_CTR0 0x12
#define SDM_P5_CTR1 0x13
#define SDM_P5_CTR_BITS 40
#define SDM_P5_CTR_TOP (1ull << SDM_P5_CTR_BITS)

/* The counter-control codes by name (§18.23.1): "the highest order bit
 * selects between counting events and counting clocks (duration); the
 * middle bit enables counting when the CPL is 3; and the low-order bit
 * enables counting when the CPL is 0, 1, or 2". */
#define SDM_CC_NONE 0		/* 000 */
#define SDM_CC_EV_USR 2		/* 010 */
#define SDM_CC_EV_ANY 3		/* 011 */
#define SDM_CC_CLK_USR 6	/* 110 */

/* The Pentium with MMX technology (the P55C, family 5 model 4, and its
 * mobile part, model 8: AP-485, Intel Processor Identification and the
 * CPUID Instruction, order no. 241618) has RDPMC (SDM Vol. 2B RDPMC) and
 * the events 2AH-3BH (Table 19-38).  Asked of the signature: QEMU's
 * qemu64 reports the MMX feature flag on every spoofed Pentium. */
static inline int sdm_p5_mmx(void)
{
	const struct cpu_sig *s = &cpu_info()->sig;

	return s->family == 5 && (s->model == 4 || s->model == 8);
}

/* A counter's pmu_config holds its CESR half as bits 9:0 (ES 5:0, CC 8:6,
 * PC 9: the CTR0 half of Figure 18-61), the driver's documented interface
 * (docs/p5.md); written and read here, not with p5_config(). */
static inline struct pmu_config sdm_p5_config(struct p5_half h)
{
	struct pmu_config c = { (h.es & 0x3f) | (h.cc & 7) << 6 |
				(h.pc & 1) << 9, 0 };

	return c;
}

static inline struct p5_half sdm_p5_half(const struct pmu_config *c)
{
	struct p5_half h = { (unsigned)(c->sel & 0x3f),
			     (unsigned)(c->sel >> 6 & 7),
			     (unsigned)(c->sel >> 9 & 1) };

	return h;
}

/* ---- a run (p5_run.c) */

/* A two-counter P5 run of bench at cpl; once both counters count, the
 * CESR must hold both halves in the SDM's layout. */
void p5_setup(struct pmu_run *r, const char *bench, uint64_t n, int cpl,
	      struct p5_half h0, struct p5_half h1);

/* ---- what a counter should count (p5_expect.c) */

/* The counts a code selects on a counter of this CPU, from Table 19-38,
 * or 0 when the test does not know them (not an event there, or one the
 * trace cannot see). */
uint32_t sdm_p5_sem(unsigned code, unsigned ctr, int mmx);
/* Checks CTRn of a finished run against what its CESR half counts: the
 * events or their duration at the CPLs its CC selects. */
void p5_check(struct tcase *t, const struct pmu_driver *d,
	      const struct pmu_run *r, unsigned ctr);

#endif
