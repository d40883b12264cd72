/* Conformance of the architectural-perfmon reference model
 * (pmu/perfmon/model.c) on overflow, counter writes, widths, RDPMC and
 * the global registers, driven through its MSR interface with scripted
 * trace steps, without the driver, for a CPU of each version 1-5
 * (model_test.h restates the CPUs and the MSRs from the SDM).  Intel SDM
 * Vol. 3B, order no. 253669-060US:
 *   - overflow (§18.2.1, §18.2.2): a counter counts modulo 2^width; the
 *     event that takes it from all ones to 0 is the overflow, its
 *     IA32_PERF_GLOBAL_STATUS bit (v2+) sets then and not before, and a
 *     PMI goes out then if and only if PERFEVTSELx.INT (Figure 18-1) /
 *     FIXED_CTR_CTRL.PMI (Figure 18-2) is set;
 *   - GLOBAL_OVF_CTRL (v2, v3) clears status bits by writing 1; v4 names
 *     the address GLOBAL_STATUS_RESET and adds GLOBAL_STATUS_SET, which
 *     sets them, and GLOBAL_INUSE (§18.2.4); GLOBAL_STATUS is read-only;
 *     v1 has none of 38DH-392H (Vol. 4 Table 2-2: "If CPUID.0AH:
 *     EAX[7:0] > 1" / "> 3");
 *   - §18.2.6: a WRMSR to IA32_PMCx writes EAX[31:0] sign-extended (EDX
 *     ignored); IA32_A_PMCx (4C1H) take the full width only where
 *     IA32_PERF_CAPABILITIES[13] is set, and do not exist otherwise
 *     (Vol. 4 Table 2-2: "If ... IA32_PERF_CAPABILITIES[13] = 1"): #GP,
 *     as is a full-width write above the counter's width (bits that do
 *     not exist; Vol. 2B WRMSR);
 *   - widths: CPUID.0AH EAX[23:16] (GP), EDX[12:5] (fixed);
 *   - RDPMC (Vol. 2B): ECX = n reads IA32_PMCn, ECX = 4000_0000H + i
 *     IA32_FIXED_CTRi; any other ECX, bit 31 included (its "fast read"
 *     exists only on the Pentium 4 and Xeon of NetBurst), is #GP(0).
 * Counting itself is test_model.c's. */
#include <stdio.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/host/pmu/perfmon/model_test.h"
#include "pmu/lbr_model.h"

/* host-sources: tests/host/pmu/perfmon/stub_model.c pmu/model.c pmu/noise.c pmu/perfmon/regs.c pmu/perfmon/events.c pmu/perfmon/caps_table.c pmu/perfmon/ds/model.c pmu/perfmon/ds/regs.c pmu/lbr_model.c pmu/lbr.c tests/host/pmu/stub_pmu_access.c pmu/perfmon/lbr/layout.c pmu/perfmon/lbr/events.c pmu/perfmon/bts/model.c pmu/perfmon/pebs/model.c pmu/perfmon/pebs/events.c pmu/perfmon/pebs/regs.c pmu/pt/model.c pmu/pt/gen.c pmu/pt/caps.c lib/pt/encode.c arch/x86/decode.c pmu/evtsel.c pmu/sem.c pmu/cpu_model.c lib/fmt.c lib/string.c pmu/emufault.c lib/escape.c */

static uint64_t status(const struct pm_cpu *c)
{
	return c->version >= 2 ? pm_rd_ok(c, GLOBAL_STATUS) : 0;
}

/* The address that clears status bits: OVF_CTRL (v2, v3), STATUS_RESET
 * (v4+), the same 390H. */
static void clear_status(const struct pm_cpu *c, uint64_t bits)
{
	WR(c, c->version >= 4 ? GLOBAL_STATUS_RESET : GLOBAL_OVF_CTRL, bits);
}

/*
 * One counter (ctr, its GLOBAL_STATUS bit) preset to all ones minus one,
 * counting instructions retired: the first instruction takes it to all
 * ones with no overflow, the second wraps it to 0 (status bit, PMI when
 * pmi), the third makes it 1 with nothing more.
 */
static void overflow_walk(const struct pm_cpu *c, uint32_t ctr,
			  uint64_t bit, uint64_t max, int pmi,
			  const char *what)
{
	uint64_t v, s;

	pm_one_insn(3);
	v = pm_rd_ok(c, ctr);
	s = status(c);
	EXPECT(c, v == max, "%s one before the wrap: %#llx", what,
	       (unsigned long long)v);
	EXPECT(c, !(s & bit), "%s: status set one event early", what);
	EXPECT(c, stub_pm.pmis == 0, "%s: PMI one event early", what);

	pm_one_insn(3);
	v = pm_rd_ok(c, ctr);
	s = status(c);
	EXPECT(c, v == 0, "%s at the wrap: %#llx", what,
	       (unsigned long long)v);
	EXPECT(c, c->version < 2 || (s & bit), "%s: no status at the wrap",
	       what);
	EXPECT(c, stub_pm.pmis == (unsigned)pmi, "%s: %u PMIs with INT=%d",
	       what, stub_pm.pmis, pmi);

	pm_one_insn(3);
	v = pm_rd_ok(c, ctr);
	EXPECT(c, v == 1, "%s after the wrap: %#llx", what,
	       (unsigned long long)v);
	EXPECT(c, stub_pm.pmis == (unsigned)pmi, "%s: PMI after the wrap",
	       what);
	if (c->version < 2)
		return;
	EXPECT(c, (status(c) & ~bit) == 0, "%s: other status bits %#llx",
	       what, (unsigned long long)status(c));
	clear_status(c, bit);
	EXPECT(c, !(status(c) & bit), "%s: status survives its clear", what);
}

/* gp-overflow-status-pmi: every GP counter, INT on the odd ones. */
static void test_gp_overflow(void **state)
{
	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];

		pm_use(c);
		for (unsigned n = 0; n < c->gp; n++) {
			int pmi = n & 1;
			char what[16];

			snprintf(what, sizeof(what), "PMC%u", n);
			stub_pm.pmis = 0;
			pm_global(c, 1ull << n);
			/* EAX FFFFFFFEH sign-extends to all ones minus 1;
			 * with FW_WRITE, every other counter is preset
			 * through IA32_A_PMCx at full width instead */
			if (c->fw_write && (n & 2))
				WR(c, A_PMC(n), pm_max(c->gp_width) - 1);
			else
				WR(c, PMC(n), 0xfffffffeull);
			WR(c, EVTSEL(n), EV_INSNS | USR | OS | EN |
					 (pmi ? INT : 0));
			overflow_walk(c, PMC(n), 1ull << n,
				      pm_max(c->gp_width), pmi, what);
			WR(c, EVTSEL(n), 0);
		}
	}
}

/* fixed-overflow-status-pmi: fixed counters 0-2, PMI on 0 and 2. */
static void test_fixed_overflow(void **state)
{
	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];
		uint64_t max = pm_max(c->fixed_width);

		pm_use(c);
		for (unsigned i = 0; i < c->fixed && i < 3; i++) {
			int pmi = !(i & 1);
			/* one instruction is one core cycle and
			 * SEM_REF_PER_CLOCK reference cycles */
			uint64_t per = i == 2 ? SEM_REF_PER_CLOCK : 1;
			char what[24];

			snprintf(what, sizeof(what), "IA32_FIXED_CTR%u", i);
			stub_pm.pmis = 0;
			WR(c, GLOBAL_CTRL, G_FIXED(i));
			WR(c, FIXED_CTR_CTRL, FX(i, 3 | (pmi ? FX_PMI : 0)));
			if (per == 1) {
				WR(c, FIXED_CTR(i), max - 1);
				overflow_walk(c, FIXED_CTR(i), G_FIXED(i),
					      max, pmi, what);
			} else {
				/* max - 2: max, then 1 past the wrap */
				WR(c, FIXED_CTR(i), max - 2);
				pm_one_insn(3);
				EXPECT(c, pm_rd_ok(c, FIXED_CTR(i)) == max,
				       "%s before the wrap", what);
				EXPECT(c, !(status(c) & G_FIXED(i)) &&
					  !stub_pm.pmis,
				       "%s: overflow early", what);
				pm_one_insn(3);
				EXPECT(c, pm_rd_ok(c, FIXED_CTR(i)) == 1,
				       "%s past the wrap", what);
				EXPECT(c, (status(c) & G_FIXED(i)) &&
					  stub_pm.pmis == (unsigned)pmi,
				       "%s: no overflow at the wrap", what);
				clear_status(c, G_FIXED(i));
			}
			WR(c, FIXED_CTR_CTRL, 0);
		}
	}
}

/* running-counter-overflow: a running counter written with -1 (legacy)
 * overflows at the next event. */
static void test_running_counter_overflow(void **state)
{
	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];
		uint64_t v;

		pm_use(c);
		WR(c, PMC(0), 0);
		WR(c, EVTSEL(0), EV_INSNS | USR | OS | EN);
		pm_run(3);
		WR(c, PMC(0), 0xffffffffull);
		v = pm_rd_ok(c, PMC(0));
		EXPECT(c, v == pm_max(c->gp_width), "PMC0 <- -1: %#llx",
		       (unsigned long long)v);
		pm_one_insn(3);
		v = pm_rd_ok(c, PMC(0));
		EXPECT(c, v == 0, "PMC0 after -1 + 1: %#llx",
		       (unsigned long long)v);
		EXPECT(c, c->version < 2 || (status(c) & 1),
		       "no GLOBAL_STATUS bit 0");
	}
}

/* status-set-reset (v4+): STATUS_SET sets the bits STATUS_RESET clears;
 * a bit for a counter that does not exist is reserved. */
static void test_status_set_reset(void **state)
{
	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];
		uint64_t bits;

		pm_use(c);
		if (c->version < 4) {
			uint64_t v;

			EXPECT(c, pm_wr(GLOBAL_STATUS_SET, 1) == GP,
			       "GLOBAL_STATUS_SET written before v4");
			EXPECT(c, pm_rd(GLOBAL_INUSE, &v) == GP,
			       "GLOBAL_INUSE read before v4");
			continue;
		}
		bits = pm_max(c->gp) | G_FIXED(0) | G_FIXED(c->fixed - 1);
		WR(c, GLOBAL_STATUS_SET, bits);
		EXPECT(c, pm_rd_ok(c, GLOBAL_STATUS) == bits,
		       "STATUS_SET %#llx", (unsigned long long)bits);
		WR(c, GLOBAL_STATUS_RESET, 1);
		EXPECT(c, pm_rd_ok(c, GLOBAL_STATUS) == (bits & ~1ull),
		       "STATUS_RESET bit 0");
		WR(c, GLOBAL_STATUS_RESET, bits);
		EXPECT(c, pm_rd_ok(c, GLOBAL_STATUS) == 0, "STATUS_RESET all");
		if (c->gp < 32)
			EXPECT(c, pm_wr(GLOBAL_STATUS_SET, 1ull << c->gp) == GP,
			       "STATUS_SET bit of PMC%u that does not exist",
			       c->gp);
		EXPECT(c, pm_wr(GLOBAL_STATUS_SET, G_FIXED(c->fixed)) == GP,
		       "STATUS_SET bit of fixed counter %u that does not "
		       "exist", c->fixed);
		/* a set status bit is not an overflow: no PMI */
		EXPECT(c, stub_pm.pmis == 0, "PMI from STATUS_SET");
	}
}

/* legacy-write-sign-extends: IA32_PMCx takes EAX sign-extended to the
 * width, EDX ignored (§18.2.6). */
static void test_legacy_write(void **state)
{
	static const struct {
		uint64_t wr, want;	/* want before the width mask */
	} cases[] = {
		{ 0x0000ff0123456789ull, 0x23456789ull },
		{ 0x0000ff0189abcdefull, 0xffffffff89abcdefull },
		{ 0xffffffff00000000ull, 0 },
		{ 0x000000007fffffffull, 0x7fffffffull },
		{ 0x0000000080000000ull, 0xffffffff80000000ull },
	};

	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];

		pm_use(c);
		for (unsigned n = 0; n < c->gp; n++)
			for (unsigned t = 0; t < N(cases); t++) {
				uint64_t want = cases[t].want &
						pm_max(c->gp_width), v;

				WR(c, PMC(n), cases[t].wr);
				v = pm_rd_ok(c, PMC(n));
				EXPECT(c, v == want, "PMC%u <- %#llx: %#llx", n,
				       (unsigned long long)cases[t].wr,
				       (unsigned long long)v);
			}
	}
}

/* full-width-write: IA32_A_PMCx where PERF_CAPABILITIES[13], else none. */
static void test_full_width_write(void **state)
{
	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];
		uint64_t val = 0xffffff0123456789ull & pm_max(c->gp_width), v;

		pm_use(c);
		/* IA32_PERF_CAPABILITIES (345H, read-only) says which */
		v = pm_rd_ok(c, PERF_CAPABILITIES);
		EXPECT(c, !!(v & FW_WRITE) == c->fw_write,
		       "PERF_CAPABILITIES %#llx", (unsigned long long)v);
		EXPECT(c, pm_wr(PERF_CAPABILITIES, v) == GP,
		       "PERF_CAPABILITIES written");
		for (unsigned n = 0; n < c->gp; n++) {
			if (!c->fw_write) {
				EXPECT(c, pm_wr(A_PMC(n), 1) == GP,
				       "IA32_A_PMC%u written without FW_WRITE",
				       n);
				EXPECT(c, pm_rd(A_PMC(n), &v) == GP,
				       "IA32_A_PMC%u read without FW_WRITE", n);
				continue;
			}
			WR(c, A_PMC(n), val);
			EXPECT(c, pm_rd_ok(c, A_PMC(n)) == val &&
				  pm_rd_ok(c, PMC(n)) == val,
			       "IA32_A_PMC%u <- %#llx", n,
			       (unsigned long long)val);
			EXPECT(c, pm_wr(A_PMC(n), 1ull << c->gp_width) == GP,
			       "IA32_A_PMC%u took bit %u", n, c->gp_width);
			/* the legacy alias still sign-extends EAX */
			WR(c, PMC(n), val);
			EXPECT(c, pm_rd_ok(c, A_PMC(n)) == 0x23456789ull,
			       "IA32_PMC%u after a legacy write", n);
		}
		if (c->fw_write && c->gp < 8)
			EXPECT(c, pm_wr(A_PMC(c->gp), 0) == GP,
			       "IA32_A_PMC%u that does not exist", c->gp);
	}
}

/* counter-width: GP counters hold EAX[23:16] bits, fixed EDX[12:5]; one
 * past all ones is 0. */
static void test_widths(void **state)
{
	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];
		uint64_t max = pm_max(c->gp_width), fmax, v;

		pm_use(c);
		for (unsigned n = 0; n < c->gp; n++) {
			WR(c, PMC(n), 0xffffffffull);
			v = pm_rd_ok(c, PMC(n));
			EXPECT(c, v == max, "PMC%u holds %#llx, want %u bits",
			       n, (unsigned long long)v, c->gp_width);
		}
		if (c->version < 2)
			continue;
		fmax = pm_max(c->fixed_width);
		for (unsigned i = 0; i < c->fixed; i++) {
			WR(c, FIXED_CTR(i), fmax);
			v = pm_rd_ok(c, FIXED_CTR(i));
			EXPECT(c, v == fmax, "FIXED_CTR%u holds %#llx", i,
			       (unsigned long long)v);
		}
		/* fixed counter 0 at all ones: one instruction makes it 0 */
		WR(c, GLOBAL_CTRL, G_FIXED(0));
		WR(c, FIXED_CTR_CTRL, FX(0, 3));
		pm_one_insn(0);
		v = pm_rd_ok(c, FIXED_CTR(0));
		EXPECT(c, v == 0, "FIXED_CTR0 past %u bits: %#llx",
		       c->fixed_width, (unsigned long long)v);
	}
}

/* Counters that exist only up to the CPU's number: the next one is #GP. */
static void test_counters_that_do_not_exist(void **state)
{
	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];
		uint64_t v;

		pm_use(c);
		if (c->gp < 8) {
			EXPECT(c, pm_wr(PMC(c->gp), 0) == GP, "PMC%u exists",
			       c->gp);
			EXPECT(c, pm_wr(EVTSEL(c->gp), 0) == GP,
			       "PERFEVTSEL%u exists", c->gp);
			EXPECT(c, pm_rd(PMC(c->gp), &v) == GP,
			       "PMC%u reads", c->gp);
		}
		if (c->version >= 2 && c->fixed < 4)
			EXPECT(c, pm_rd(FIXED_CTR(c->fixed), &v) == GP,
			       "FIXED_CTR%u exists", c->fixed);
	}
}

/* rdpmc-index: n, 4000_0000H + i, and #GP for the rest. */
static void test_rdpmc(void **state)
{
	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];
		uint64_t v;

		pm_use(c);
		for (unsigned n = 0; n < c->gp; n++) {
			WR(c, PMC(n), 0x1000 + n);
			EXPECT(c, pm->rdpmc(n, &v) == 0 && v == 0x1000 + n,
			       "RDPMC %u", n);
			EXPECT(c, pm->rdpmc(n | 0x80000000u, &v) == GP,
			       "RDPMC fast read %#x", n | 0x80000000u);
		}
		EXPECT(c, pm->rdpmc(c->gp, &v) == GP, "RDPMC %u", c->gp);
		EXPECT(c, pm->rdpmc(64, &v) == GP, "RDPMC 64");
		EXPECT(c, pm->rdpmc(0x20000000u, &v) == GP, "RDPMC 2000_0000H");
		if (c->version < 2) {
			EXPECT(c, pm->rdpmc(RDPMC_FIXED_BIT, &v) == GP,
			       "RDPMC 4000_0000H on v1");
			continue;
		}
		for (unsigned i = 0; i < c->fixed; i++) {
			WR(c, FIXED_CTR(i), 0x2000 + i);
			EXPECT(c, pm->rdpmc(RDPMC_FIXED_BIT | i, &v) == 0 &&
				  v == 0x2000 + i, "RDPMC 4000_000%uH", i);
			EXPECT(c, pm->rdpmc(0xc0000000u | i, &v) == GP,
			       "RDPMC fast read of fixed %u", i);
		}
		EXPECT(c, pm->rdpmc(RDPMC_FIXED_BIT | c->fixed, &v) == GP,
		       "RDPMC 4000_0000H + %u", c->fixed);
	}
}

/* global-registers-by-version: which of 38DH-392H exist, reserved bits. */
static void test_global_registers(void **state)
{
	static const uint32_t regs[] = {
		FIXED_CTR_CTRL, GLOBAL_STATUS, GLOBAL_CTRL, GLOBAL_OVF_CTRL,
		GLOBAL_STATUS_SET, GLOBAL_INUSE,
	};

	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];
		uint64_t all = pm_max(c->gp), v;

		pm_use(c);
		for (unsigned r = 0; r < N(regs); r++) {
			/* 38DH-390H from v2, 391H-392H from v4 */
			int exists = c->version >= (regs[r] <= 0x390 ? 2 : 4);

			EXPECT(c, (pm_rd(regs[r], &v) == 0) == exists,
			       "RDMSR %#x on v%u", regs[r], c->version);
			if (!exists)
				EXPECT(c, pm_wr(regs[r], 0) == GP,
				       "WRMSR %#x on v%u", regs[r], c->version);
		}
		if (c->version < 2)
			continue;
		for (unsigned i = 0; i < c->fixed; i++)
			all |= G_FIXED(i);
		WR(c, GLOBAL_CTRL, all);
		EXPECT(c, pm_rd_ok(c, GLOBAL_CTRL) == all, "GLOBAL_CTRL");
		if (c->gp < 32)
			EXPECT(c, pm_wr(GLOBAL_CTRL, 1ull << c->gp) == GP,
			       "GLOBAL_CTRL bit %u", c->gp);
		EXPECT(c, pm_wr(GLOBAL_CTRL, G_FIXED(c->fixed)) == GP,
		       "GLOBAL_CTRL bit %u", 32 + c->fixed);
		EXPECT(c, pm_wr(GLOBAL_STATUS, 0) == GP,
		       "GLOBAL_STATUS written (read-only)");
		EXPECT(c, pm_wr(GLOBAL_OVF_CTRL, 1ull << 31) == GP,
		       "OVF_CTRL / STATUS_RESET bit 31 (reserved)");
		EXPECT(c, pm_wr(FIXED_CTR_CTRL, FX(c->fixed, 3)) == GP,
		       "FIXED_CTR_CTRL field of counter %u", c->fixed);
	}
}

/* global-inuse (v4+, §18.2.4): bit n PERFEVTSELn's event select is not
 * 0, bit 32 + i fixed counter i enabled, bit 63 an interrupt enabled;
 * read-only. */
#define PEBS_ENABLE 0x3f1u	/* IA32_PEBS_ENABLE (Vol. 4 Table 2-2) */

static void test_global_inuse(void **state)
{
	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];
		uint64_t v;

		pm_use(c);
		if (c->version < 4)
			continue;	/* test_global_registers: absent */
		EXPECT(c, pm_rd_ok(c, GLOBAL_INUSE) == 0, "INUSE at reset");
		WR(c, EVTSEL(1), EV_INSNS);
		WR(c, FIXED_CTR_CTRL, FX(2, FX_USR));
		v = pm_rd_ok(c, GLOBAL_INUSE);
		EXPECT(c, v == (2ull | G_FIXED(2)), "INUSE %#llx",
		       (unsigned long long)v);
		WR(c, EVTSEL(0), INT);
		v = pm_rd_ok(c, GLOBAL_INUSE);
		EXPECT(c, v == (2ull | G_FIXED(2) | 1ull << 63),
		       "INUSE with INT %#llx", (unsigned long long)v);
		/* PMI_InUse is also set by "IA32_PEBS_ENABLE.PEBS_EN_PMCn"
		 * (SDM Vol. 3B 18.2.4.3): PEBS on PMC1 (3F1H bit 1), no INT */
		WR(c, EVTSEL(0), 0);
		WR(c, PEBS_ENABLE, 2);
		v = pm_rd_ok(c, GLOBAL_INUSE);
		EXPECT(c, v == (2ull | G_FIXED(2) | 1ull << 63),
		       "INUSE with PEBS_EN_PMC1 %#llx", (unsigned long long)v);
		WR(c, PEBS_ENABLE, 0);
		EXPECT(c, pm_wr(GLOBAL_INUSE, 0) == GP, "INUSE written");
	}
}

/* freeze-lbrs-on-pmi: IA32_DEBUGCTL (1D9H) bit 0 LBR, bit 11
 * FREEZE_LBRS_ON_PMI (SDM Vol. 3B 17.4.1, Figure 17-3).  "Legacy" v2/v3:
 * the PMI clears DEBUGCTL.LBR (17.4.7); v4+: it sets GLOBAL_STATUS.LBR_Frz
 * (bit 58), "LBRs are frozen" while it is set (Vol. 4 Table 2-2), and
 * DEBUGCTL.LBR stays set (18.2.4.1); clearing LBR_Frz through
 * STATUS_RESET lets them record again.  The LBR stack is read through its
 * unit (pmu/lbr_model.h), newest first. */
#define DEBUGCTL 0x1d9u
#define DBG_LBR 1ull
#define DBG_FREEZE_LBRS (1ull << 11)
#define LBR_FRZ (1ull << 58)

static uint64_t newest_from(void)
{
	uint64_t from, to, info;

	lbr_model_entry(0, &from, &to, &info);
	return from;
}

static void test_freeze_lbrs_on_pmi(void **state)
{
	const struct insn_event *taken = &pm_script[2];	/* jcc taken */

	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];
		struct insn_event later = *taken;
		uint64_t dbg;

		if (c->version < 2)
			continue;
		pm_use(c);
		stub_pm.pmis = 0;
		WR(c, DEBUGCTL, DBG_LBR | DBG_FREEZE_LBRS);
		WR(c, PMC(0), pm_max(c->gp_width));	/* wraps at 1 */
		WR(c, EVTSEL(0), EV_INSNS | USR | OS | EN | INT);
		pm_global(c, 1);
		pm_step(taken, 3);	/* recorded, and the PMI */
		EXPECT(c, stub_pm.pmis == 1, "%u PMIs", stub_pm.pmis);
		EXPECT(c, newest_from() == taken->rip, "LBR before the PMI");
		dbg = pm_rd_ok(c, DEBUGCTL);
		later.rip = 0x2000;
		later.next_rip = 0x2010;
		pm_step(&later, 3);
		if (c->version < 4) {
			EXPECT(c, !(dbg & DBG_LBR), "v%u: DEBUGCTL %#llx after "
			       "the PMI: LBR not cleared", c->version,
			       (unsigned long long)dbg);
		} else {
			EXPECT(c, dbg & DBG_LBR, "v%u: DEBUGCTL %#llx: LBR "
			       "cleared", c->version, (unsigned long long)dbg);
			EXPECT(c, status(c) & LBR_FRZ, "v%u: no LBR_Frz",
			       c->version);
		}
		EXPECT(c, newest_from() == taken->rip, "v%u: a branch after "
		       "the PMI was recorded (%#llx)", c->version,
		       (unsigned long long)newest_from());
		if (c->version < 4)
			continue;
		WR(c, GLOBAL_STATUS_RESET, LBR_FRZ);
		pm_step(&later, 3);
		EXPECT(c, newest_from() == later.rip, "v%u: LBR_Frz cleared, "
		       "the branch not recorded", c->version);
	}
}

/* perf-metrics-consistent: IA32_PERF_CAPABILITIES bit 15
 * PERF_METRICS_AVAILABLE says whether MSR_PERF_METRICS (329H), the
 * GLOBAL_CTRL enable bit 48 and RDPMC of the metrics (ECX bit 29) exist
 * (SDM Vol. 3B 18.3.9.3 "Performance Metrics", Vol. 4 Table 2-2): a
 * model that reads it set must have all three, one that reads it clear
 * must #GP on all three. */
#define PERF_METRICS_MSR 0x329u
#define CAP_PERF_METRICS (1ull << 15)
#define GLOBAL_EN_PERF_METRICS (1ull << 48)
#define RDPMC_METRICS (1u << 29)

static void test_perf_metrics_consistent(void **state)
{
	(void)state;
	for (unsigned k = 0; k < N(pm_cpus); k++) {
		const struct pm_cpu *c = &pm_cpus[k];
		uint64_t caps = 0, v;
		int want, has;

		pm_use(c);
		if (pm_rd(PERF_CAPABILITIES, &caps) != 0)
			continue;
		has = !!(caps & CAP_PERF_METRICS);
		want = has ? 0 : GP;
		EXPECT(c, pm_rd(PERF_METRICS_MSR, &v) == want, "RDMSR "
		       "PERF_METRICS with PERF_CAPABILITIES bit 15 = %d", has);
		if (c->version >= 2)
			EXPECT(c, pm_wr(GLOBAL_CTRL, GLOBAL_EN_PERF_METRICS) ==
			       want, "GLOBAL_CTRL bit 48 with bit 15 = %d", has);
		EXPECT(c, pm->rdpmc(RDPMC_METRICS, &v) == want, "RDPMC of the "
		       "metrics with bit 15 = %d", has);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gp_overflow),
		cmocka_unit_test(test_fixed_overflow),
		cmocka_unit_test(test_running_counter_overflow),
		cmocka_unit_test(test_status_set_reset),
		cmocka_unit_test(test_legacy_write),
		cmocka_unit_test(test_full_width_write),
		cmocka_unit_test(test_widths),
		cmocka_unit_test(test_counters_that_do_not_exist),
		cmocka_unit_test(test_rdpmc),
		cmocka_unit_test(test_global_registers),
		cmocka_unit_test(test_global_inuse),
		cmocka_unit_test(test_freeze_lbrs_on_pmi),
		cmocka_unit_test(test_perf_metrics_consistent),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
