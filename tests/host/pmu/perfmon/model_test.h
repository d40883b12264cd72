/* tests/host/pmu/perfmon/model_test.h: what the conformance suites of the
 * architectural-perfmon reference model (test_model.c, test_model_regs.c,
 * ds/test_model.c) know, written from the SDM and never taken from
 * pmu/perfmon/, and the helpers that drive the model through its MSR
 * interface (struct pmu_model: reset, rdmsr, wrmsr, rdpmc, event) with
 * scripted steps.
 *
 * Sources: Intel SDM Vol. 3B, order no. 253669-060US, §18.2
 * "Architectural Performance Monitoring" (§18.2.1 v1, §18.2.1.1 Figure
 * 18-1 IA32_PERFEVTSELx, §18.2.1.2 Table 18-1 the architectural events,
 * §18.2.2 v2 fixed counters and global control, §18.2.3 v3 AnyThread,
 * §18.2.4 v4 STATUS_RESET / STATUS_SET / INUSE, §18.2.5 v5, §18.2.6
 * full-width writes); Vol. 2A CPUID leaf 0AH; Vol. 2B RDPMC and WRMSR;
 * Vol. 4 Table 2-2 "IA-32 Architectural MSRs" for the addresses. */
#ifndef TESTS_HOST_PMU_PERFMON_MODEL_TEST_H
#define TESTS_HOST_PMU_PERFMON_MODEL_TEST_H

#include <stdint.h>
#include "arch/x86/trace.h"
#include "arch/x86/decode.h"
#include "pmu/model.h"
#include "pmu/sem.h"
#include "tests/host/pmu/perfmon/stub_model.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- MSR addresses (Vol. 4 Table 2-2) */
#define PMC(n) (0xc1u + (n))		/* IA32_PMC0.. */
#define EVTSEL(n) (0x186u + (n))	/* IA32_PERFEVTSEL0.. */
#define FIXED_CTR(n) (0x309u + (n))	/* IA32_FIXED_CTR0.. */
#define A_PMC(n) (0x4c1u + (n))		/* IA32_A_PMC0.. (full width) */
#define FIXED_CTR_CTRL 0x38du
#define GLOBAL_STATUS 0x38eu
#define GLOBAL_CTRL 0x38fu
#define GLOBAL_OVF_CTRL 0x390u		/* v2, v3 */
#define GLOBAL_STATUS_RESET 0x390u	/* v4+: the same address */
#define GLOBAL_STATUS_SET 0x391u	/* v4+ */
#define GLOBAL_INUSE 0x392u		/* v4+ */
#define PERF_CAPABILITIES 0x345u	/* where CPUID.01H:ECX.PDCM */
#define FW_WRITE (1ull << 13)		/* its full-width-write bit */

/* ---- IA32_PERFEVTSELx (Figure 18-1) */
#define EV(sel, umask) ((uint64_t)(sel) | (uint64_t)(umask) << 8)
#define USR (1ull << 16)	/* CPL 1, 2, 3 */
#define OS (1ull << 17)		/* CPL 0 */
#define EDGE (1ull << 18)
#define INT (1ull << 20)	/* APIC interrupt on overflow */
#define ANY (1ull << 21)	/* v3: AnyThread; reserved before */
#define EN (1ull << 22)
#define INV (1ull << 23)
#define CMASK(c) ((uint64_t)(c) << 24)

/* ---- IA32_FIXED_CTR_CTRL (§18.2.2, 4 bits per counter i at 4i): 1 OS,
 * 2 USR (3 both), 4 AnyThread (v3), 8 PMI. */
#define FX(i, f) ((uint64_t)(f) << (4 * (i)))
#define FX_OS 1u
#define FX_USR 2u
#define FX_ANY 4u
#define FX_PMI 8u

/* GLOBAL_CTRL / STATUS: bit n GP counter n, bit 32 + i fixed counter i. */
#define G_FIXED(i) (1ull << (32 + (i)))

/* RDPMC ECX (Vol. 2B RDPMC): bit 30 selects the fixed counters. */
#define RDPMC_FIXED_BIT (1u << 30)

/* #GP is vector 13 (Vol. 3A Table 6-1). */
#define GP 13

/*
 * The CPUs, by the CPUID.0AH values the real parts report (the rows'
 * family/model is only the model's input; each fact is decoded here by
 * hand from Vol. 2A CPUID leaf 0AH: EAX[7:0] version, [15:8] GP counters,
 * [23:16] GP width, [31:24] EBX length; EBX bit set: event unavailable;
 * EDX[4:0] fixed counters, [12:5] fixed width, [15] AnyThread
 * deprecated (v5); ECX (v5) fixed-counter bitmap; and
 * IA32_PERF_CAPABILITIES[13] FW_WRITE, Vol. 4 Table 2-2):
 */
struct pm_cpu {
	const char *name;
	unsigned model;		/* family 6 */
	unsigned version, gp, gp_width, fixed, fixed_width, ebx_len;
	uint32_t unavail;	/* EBX */
	int fw_write, any_deprecated;
};

static const struct pm_cpu pm_cpus[] = {
	/* EAX 07280201: v1, 2 x 40 bits; EDX reserved in v1; PERF_CAP 0 */
	{ .name = "Core Duo 06_0EH", .model = 0x0e, .version = 1, .gp = 2,
	  .gp_width = 40, .ebx_len = 7 },
	/* EAX 07280202, EDX 0503H: 3 fixed x 40; PERF_CAP C1H (no FW) */
	{ .name = "Core 2 06_0FH", .model = 0x0f, .version = 2, .gp = 2,
	  .gp_width = 40, .fixed = 3, .fixed_width = 40, .ebx_len = 7 },
	/* EAX 07300403, EBX 40H (branch misses unavailable), EDX 0603H;
	 * PERF_CAP 11C3H (bit 13 clear) */
	{ .name = "Nehalem 06_1AH", .model = 0x1a, .version = 3, .gp = 4,
	  .gp_width = 48, .fixed = 3, .fixed_width = 48, .ebx_len = 7,
	  .unavail = 0x40 },
	/* EAX 07300403, EBX 0, EDX 0603H; PERF_CAP 31C3H (bit 13 set) */
	{ .name = "Sandy Bridge 06_2AH", .model = 0x2a, .version = 3, .gp = 4,
	  .gp_width = 48, .fixed = 3, .fixed_width = 48, .ebx_len = 7,
	  .fw_write = 1 },
	/* EAX 07300404, EDX 0603H; PERF_CAP 33C5H (bit 13 set) */
	{ .name = "Skylake 06_5EH", .model = 0x5e, .version = 4, .gp = 4,
	  .gp_width = 48, .fixed = 3, .fixed_width = 48, .ebx_len = 7,
	  .fw_write = 1 },
	/* EAX 08300805: 8 x 48, EBX length 8; ECX 0FH, EDX 8604H: 4 fixed x
	 * 48, AnyThread deprecated; PERF_CAP F4C5H (bit 13 set) */
	{ .name = "Ice Lake server 06_6AH", .model = 0x6a, .version = 5,
	  .gp = 8, .gp_width = 48, .fixed = 4, .fixed_width = 48,
	  .ebx_len = 8, .fw_write = 1, .any_deprecated = 1 },
};

static inline uint64_t pm_max(unsigned width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

/*
 * The script: one pass of a small loop body, as the single-step tracer
 * hands it over (arch/x86/trace.h).  Its semantic counts are the oracle's
 * (pmu/sem.h, the shared truth): a REP string instruction's iterations
 * are one step each and it retires once, on the last; each step is one
 * model cycle; a model cycle lasts SEM_REF_PER_CLOCK reference clocks.
 */
static const struct insn_event pm_script[] = {
	{ .rip = 0x1000, .next_rip = 0x1003, .retired = 1 },	/* mov */
	{ .rip = 0x1003, .next_rip = 0x1006, .retired = 1, .loads = 1 },
	{ .rip = 0x1006, .next_rip = 0x1010, .retired = 1,	/* jcc taken */
	  .flags = DEC_BRANCH | DEC_COND | EV_TAKEN },
	{ .rip = 0x1010, .next_rip = 0x1012, .retired = 1,	/* not taken */
	  .flags = DEC_BRANCH | DEC_COND },
	{ .rip = 0x1012, .next_rip = 0x1012, .retired = 0,	/* rep movsb, */
	  .flags = DEC_REP_STRING, .iterations = 1,		/* 1st of 2 */
	  .loads = 1, .stores = 1 },
	{ .rip = 0x1012, .next_rip = 0x1014, .retired = 1,
	  .flags = DEC_REP_STRING, .iterations = 1, .loads = 1, .stores = 1 },
};
#define SCRIPT_INSNS 5u		/* instructions retired */
#define SCRIPT_BRANCHES 2u	/* branch instructions retired */
#define SCRIPT_CYCLES 6u	/* steps: model cycles */
#define SCRIPT_REF (SCRIPT_CYCLES * SEM_REF_PER_CLOCK)
/* Per cycle, instructions retired: 1 1 1 1 0 1. */
#define SCRIPT_ZERO_INSN_CYCLES 1u
#define SCRIPT_INSN_RISES 2u	/* 0 -> >0 transitions, from deasserted */

/* The architectural events, Table 18-1 (EBX bit: availability); what
 * each counts over the script, by the oracle's counts.  The script has
 * no cache or prediction behaviour: the LLC and misprediction events
 * have nothing to count in it. */
struct pm_event {
	const char *name;
	uint64_t sel;		/* event select | unit mask << 8 */
	unsigned ebx_bit;
	uint64_t per_script;
};

static const struct pm_event pm_events[] = {
	{ "UnHalted Core Cycles", EV(0x3c, 0x00), 0, SCRIPT_CYCLES },
	{ "Instruction Retired", EV(0xc0, 0x00), 1, SCRIPT_INSNS },
	{ "UnHalted Reference Cycles", EV(0x3c, 0x01), 2, SCRIPT_REF },
	{ "LLC Reference", EV(0x2e, 0x4f), 3, 0 },
	{ "LLC Misses", EV(0x2e, 0x41), 4, 0 },
	{ "Branch Instruction Retired", EV(0xc4, 0x00), 5, SCRIPT_BRANCHES },
	{ "Branch Misses Retired", EV(0xc5, 0x00), 6, 0 },
};
#define EV_INSNS EV(0xc0, 0x00)

/* What a GP counter counts of ev over the script on CPU c: on the Intel
 * Core microarchitecture (Core 2, 06_0FH, 06_16H, 06_17H, 06_1DH, SDM
 * Vol. 4 Table 2-1) 3CH/01H is CPU_CLK_UNHALTED.BUS, bus cycles (its
 * event table; Linux's PERF_COUNT_HW_BUS_CYCLES 013CH), which the script
 * has no clock for: 0. */
static inline uint64_t pm_gp_per_script(const struct pm_cpu *c,
					const struct pm_event *ev)
{
	int core2 = c->model == 0x0f || c->model == 0x16 ||
		    c->model == 0x17 || c->model == 0x1d;

	return core2 && ev->sel == EV(0x3c, 0x01) ? 0 : ev->per_script;
}

/* The fixed counters (§18.2.2, Table 18-2): 0 INST_RETIRED.ANY, 1
 * CPU_CLK_UNHALTED.CORE (core cycles), 2 CPU_CLK_UNHALTED.REF (reference
 * cycles at the TSC rate); over the script. */
static const uint64_t pm_fixed_per_script[3] = {
	SCRIPT_INSNS, SCRIPT_CYCLES, SCRIPT_REF,
};

/* Is event ev available on c: within the EBX length, its bit clear. */
static inline int pm_available(const struct pm_cpu *c,
			       const struct pm_event *ev)
{
	return ev->ebx_bit < c->ebx_len && !(c->unavail >> ev->ebx_bit & 1);
}

/* ---- driving the model */

#define FAILF(c, fmt, ...) fail_msg("%s: " fmt, (c)->name, ##__VA_ARGS__)
#define EXPECT(c, cond, fmt, ...)                                            \
	do {                                                                 \
		if (!(cond))                                                 \
			FAILF(c, fmt, ##__VA_ARGS__);                        \
	} while (0)

static const struct pmu_model *pm;

/* The model stands in for c, fresh from reset. */
static inline void pm_use(const struct pm_cpu *c)
{
	stub_pm_cpu(6, c->model);
	pm = model_for(PMU_ARCH);
	assert_non_null(pm);
	model_activate(pm);
}

static inline int pm_wr(uint32_t msr, uint64_t v)
{
	return pm->wrmsr(msr, v);
}

static inline int pm_rd(uint32_t msr, uint64_t *v)
{
	*v = 0;
	return pm->rdmsr(msr, v);
}

#define WR(c, msr, v)                                                        \
	do {                                                                 \
		int vec_ = pm_wr(msr, v);                                    \
		EXPECT(c, vec_ == 0, "WRMSR %#x <- %#llx: fault %d",          \
		       (unsigned)(msr), (unsigned long long)(v), vec_);      \
	} while (0)

static inline uint64_t pm_rd_ok(const struct pm_cpu *c, uint32_t msr)
{
	uint64_t v;
	int vec = pm_rd(msr, &v);

	EXPECT(c, vec == 0, "RDMSR %#x: fault %d", (unsigned)msr, vec);
	return v;
}

/* One step of the script at cpl, n times over. */
static inline void pm_step(const struct insn_event *s, unsigned cpl)
{
	struct insn_event e = *s;

	e.cpl = (uint8_t)cpl;
	model_feed(&e, 0);
}

static inline void pm_run(unsigned cpl)
{
	for (unsigned i = 0; i < N(pm_script); i++)
		pm_step(&pm_script[i], cpl);
}

/* One retired instruction that is nothing else (one model cycle). */
static inline void pm_one_insn(unsigned cpl)
{
	pm_step(&pm_script[0], cpl);
}

/* v2+: only the counters in mask enabled globally. */
static inline void pm_global(const struct pm_cpu *c, uint64_t mask)
{
	if (c->version >= 2)
		WR(c, GLOBAL_CTRL, mask);
}

#endif
