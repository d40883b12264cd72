/* Host tests for the PT model, its capability table and the driver
 * (pmu/pt/model.c, pmu/pt/caps.c, pmu/pt/driver.c), the driver programming the
 * model directly (pmu_wrmsr / pmu_rdmsr are this file's, routed to
 * pt_model_wrmsr / pt_model_rdmsr and logged).  caps.c and driver.c are
 * included, so that the table's length and the driver's IA32_RTIT_CTL of
 * a config (ctl_for()) are in reach without an interface for the tests
 * alone.  The rules, typed from
 * Intel SDM Vol. 3C, order no. 326019-060US:
 *   - CPUID.14H (Tables 36-11, 36-12): the rows' values as the public
 *     dumps show them (pmu/pt/caps.c names them), every row with a
 *     matching arch-perfmon row of the same name, single-range output and
 *     encoding 0 of MTCFreq, CycThresh and PSBFreq;
 *   - pt_caps(): CPUID where CPUID.07H:EBX[25] is set (leaf 14H needed),
 *     else the row under the model backend, else none;
 *   - CycThresh n is allowed only where sub-leaf 1 EBX bit n is set
 *     (Table 36-12; the 2^(n-1) cycles it stands for, Table 36-6, are
 *     test_gen's);
 *   - IA32_RTIT_CTL: reserved bits (18, 23, 31:28, 63:48) and what the
 *     CPU does not enumerate (PTWEn, PwrEvtEn, FabricEn on a Skylake
 *     row; ADDR2_CFG with 2 ranges) #GP; unsupported MTCFreq, CycThresh,
 *     PSBFreq encodings and ADDRn_CFG > 2 #GP; while TraceEn only the
 *     same value or one clearing TraceEn (§36.2.7.2-3);
 *   - OUTPUT_BASE / MASK_PTRS / CR3_MATCH / STATUS / ADDRn: #GP on a
 *     write while TraceEn;
 *     OUTPUT_BASE bits 6:0 and >= MAXPHYADDR reserved; CR3_MATCH 4:0
 *     reserved; ADDRn non-canonical #GP (§36.2.7.5-8);
 *   - STATUS: TriggerEn, ContextEn, FilterEn read 1 while tracing,
 *     writes to them ignored, bit 3 reserved (Table 36-7);
 *   - single-range output: bytes at (base & ~mask) + (offset & mask),
 *     wrapping; a non-contiguous mask, base bits under the mask or an
 *     offset above it: STATUS.Error at TraceEn and no packets; with Error
 *     set TraceEn traces nothing (§36.2.6.1, §36.3.9, Table 36-20);
 *   - a CPU without PT: every IA32_RTIT_* MSR #GP.
 * The MSR addresses, IA32_RTIT_CTL / STATUS bits and CPUID.14H bits the
 * cases write and expect are pt_sdm.h's, restated from the SDM, not
 * pmu/pt/regs.h's or caps.h's; the capability rows are held to the public
 * CPUID dumps below, not to pt_has_*().  What the model stores is decoded
 * with lib/pt/decode.c and held to the packet rules (test_model_stream);
 * the placement tests (wrap, unmapped page) compare the region with
 * pt_gen run on the same steps into a plain buffer, the content of which
 * test_gen holds to the SDM. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "pt_sdm.h"
#include "pmu/pt/caps.c"
#include "pmu/pt/driver.c"
#include "pmu/pt/model.h"
#include "pmu/pt/gen.h"
#include "lib/pt/packet.h"
#include "pmu/backend.h"
#include "pmu/model.h"
#include "pmu/perfmon/caps_table.h"
#include "arch/x86/paging.h"
#include "arch/x86/trap.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: pmu/pt/model.c pmu/pt/gen.c lib/pt/encode.c lib/pt/decode.c arch/x86/decode.c pmu/perfmon/caps_table.c pmu/perfmon/regs.c lib/fmt.c pmu/emufault.c lib/escape.c lib/string.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the machine around the model ---------------------------------------- */

static struct cpu_info ci;
static struct backend be = { .id = BE_MODEL, .name = "model" };
static uint64_t clock_now;
static uint64_t hole_lo, hole_hi;	/* [lo, hi) "not mapped" */
/* Output regions: below 2 GiB (MAP_32BIT), under the MAXPHYADDR of 36 the
 * model assumes without CPUID.80000008H; 4 pages, page-aligned. */
static uint8_t *arena;
#define ARENA_SIZE 16384

const struct cpu_info *cpu_info(void)
{
	return &ci;
}

const struct backend *backend_current(void)
{
	return &be;
}

uint64_t model_clock(void)
{
	return clock_now;
}

int paging_range_writable(uint64_t va, uint64_t len)
{
	return !(va < hole_hi && va + len > hole_lo);
}

/* The driver's register access: the model, logged. */
static struct {
	uint32_t msr[64];
	uint64_t v[64];
	int wr[64];
	unsigned n;
} acc;

int pmu_fail(struct pmu_err *e, int vector, const char *fmt, ...)
{
	va_list ap;

	e->vector = vector;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static void log_access(uint32_t msr, uint64_t v, int wr)
{
	if (acc.n < N(acc.msr)) {
		acc.msr[acc.n] = msr;
		acc.v[acc.n] = v;
		acc.wr[acc.n++] = wr;
	}
}

int pmu_wrmsr(uint32_t msr, uint64_t v, const char *what, struct pmu_err *e)
{
	int vec = pt_model_wrmsr(msr, v);

	log_access(msr, v, 1);
	return vec ? pmu_fail(e, vec, "WRMSR %s: %d", what, vec) : 0;
}

int pmu_rdmsr(uint32_t msr, uint64_t *v, const char *what, struct pmu_err *e)
{
	int vec = pt_model_rdmsr(msr, v);

	log_access(msr, *v, 0);
	return vec ? pmu_fail(e, vec, "RDMSR %s: %d", what, vec) : 0;
}

/* A fresh model standing in for family 6 model m (no PT in CPUID). */
static void machine(unsigned model)
{
	ci = (struct cpu_info){ .max_leaf = 0x16 };
	ci.sig.family = 6;
	ci.sig.model = model;
	be.id = BE_MODEL;
	clock_now = 1000;
	hole_lo = hole_hi = 0;
	acc.n = 0;
	pt_model_reset();
}

static int wr(uint32_t msr, uint64_t v)
{
	return pt_model_wrmsr(msr, v);
}

static uint64_t rd(uint32_t msr)
{
	uint64_t v = 0xdead;

	assert_int_equal(pt_model_rdmsr(msr, &v), 0);
	return v;
}

#define CTL_ON (SDM_CTL_TRACEEN | SDM_CTL_BRANCHEN | SDM_CTL_OS | \
		SDM_CTL_USER)

/* ---- capabilities --------------------------------------------------------- */

static const struct {
	unsigned model;
	const char *name;
	uint32_t eax0, ebx0, ecx0, eax1, ebx1;
} dumps[] = {
	/* libcpuid / InstLatx64 dumps, CPUID 00000014 sub-leaves 0 and 1 */
	{ 0x5e, "Skylake-Client", 1, 0x0f, 0x07, 0x02490002, 0x003f3fff },
	{ 0x4e, "Skylake-Client-Mobile", 1, 0x0f, 0x07, 0x02490002,
	  0x003f3fff },
	{ 0x55, "Cascadelake-Server", 1, 0x0f, 0x07, 0x02490002, 0x003f3fff },
	{ 0x7e, "Icelake-Client", 1, 0x0f, 0x07, 0x02490002, 0x003f1fff },
	{ 0x6a, "Icelake-Server", 1, 0x0f, 0x07, 0x02490002, 0x003f1fff },
	{ 0x8f, "SapphireRapids", 1, 0x5f, 0x07, 0x02490002, 0x003f003f },
};

static void test_caps_table(void **state)
{
	(void)state;
	assert_int_equal(pt_caps_table_len, N(dumps));
	for (unsigned i = 0; i < N(dumps); i++) {
		const struct pt_caps_row *r = pt_caps_row_for(6, dumps[i].model);
		const struct perfmon_caps_row *pm =
			perfmon_caps_row_for(6, dumps[i].model);
		char source[64];

		assert_non_null(r);
		assert_non_null(pm);
		assert_string_equal(r->name, dumps[i].name);
		assert_string_equal(pm->name, dumps[i].name);
		snprintf(source, sizeof(source), "model:%s", dumps[i].name);
		assert_string_equal(r->caps.source, source);
		assert_int_equal(r->caps.eax0, dumps[i].eax0);
		assert_int_equal(r->caps.ebx0, dumps[i].ebx0);
		assert_int_equal(r->caps.ecx0, dumps[i].ecx0);
		assert_int_equal(r->caps.eax1, dumps[i].eax1);
		assert_int_equal(r->caps.ebx1, dumps[i].ebx1);
		/* single-range output, CYC/PSBFreq and MTC (Table 36-11) */
		assert_true(r->caps.ecx0 & SDM_ECX_SINGLE);
		assert_true(r->caps.ebx0 & SDM_EBX_PSB_CYC);
		assert_true(r->caps.ebx0 & SDM_EBX_MTC);
		assert_true(r->caps.eax1 >> 16 & 1);	/* MTCFreq 0 */
		assert_true(r->caps.ebx1 & 1);		/* CycThresh 0 */
		assert_true(r->caps.ebx1 >> 16 & 1);	/* PSBFreq 0 */
		assert_non_null(strstr(r->cite, "confirmed"));
	}
	assert_null(pt_caps_row_for(6, 0x3c));		/* Haswell: no PT */
}

static void test_caps_source(void **state)
{
	const char *why = 0;
	const struct pt_caps *c;

	(void)state;
	machine(0x5e);
	c = pt_caps(&why);
	assert_non_null(c);
	assert_string_equal(c->source, "model:Skylake-Client");
	assert_null(why);

	/* backend=emulated: the model answers the MSRs there too, so it
	 * stands in as under backend=model (docs/emulators.md) */
	be.id = BE_EMULATED;
	c = pt_caps(&why);
	assert_non_null(c);
	assert_string_equal(c->source, "model:Skylake-Client");

	be.id = BE_HW;
	assert_null(pt_caps(&why));
	assert_non_null(strstr(why, "EBX[25]"));

	machine(0x3c);
	assert_null(pt_caps(&why));
	assert_non_null(strstr(why, "no row"));

	machine(0x5e);
	ci.f7_ebx = CPUID7_EBX_PT;
	ci.max_leaf = 0xd;
	assert_null(pt_caps(&why));
	assert_non_null(strstr(why, "below 14H"));
}

static void test_cyc_thresh(void **state)
{
	const struct pt_caps *sk = &pt_caps_row_for(6, 0x5e)->caps;
	const struct pt_caps *spr = &pt_caps_row_for(6, 0x8f)->caps;
	struct pt_caps nocyc = { .ebx0 = SDM_EBX_MTC, .ebx1 = 0xffff };

	(void)state;
	for (unsigned v = 0; v < 17; v++) {
		assert_int_equal(pt_cyc_thresh_ok(sk, v), v <= 13);
		assert_int_equal(pt_cyc_thresh_ok(spr, v), v <= 5);
		assert_int_equal(pt_cyc_thresh_ok(&nocyc, v), v == 0);
	}
}

static void test_ctl_for(void **state)
{
	const struct pt_caps *sk = &pt_caps_row_for(6, 0x5e)->caps;
	struct pt_caps bdw = { .ebx0 = SDM_EBX_CR3FILTER,
			       .ecx0 = SDM_ECX_TOPA };
	struct pt_caps nocyc = *sk;
	struct pt_config c = { .os = 1, .user = 0, .cyc = 1, .cyc_thresh = 3,
			       .mtc = 1, .mtc_freq = 6, .tsc = 1,
			       .disretc = 1, .psb_freq = 2 };
	struct pmu_err e = { "" };
	uint64_t ctl = 0;

	(void)state;
	assert_int_equal(ctl_for(sk, &c, &ctl, &e), 0);
	assert_true(ctl == (SDM_CTL_TRACEEN | SDM_CTL_BRANCHEN |
			    SDM_CTL_OS | SDM_CTL_CYCEN | SDM_CTL_MTCEN |
			    SDM_CTL_TSCEN | SDM_CTL_DISRETC |
			    6ull << 14 | 3ull << 19 | 2ull << 24));
	nocyc.ebx0 &= ~SDM_EBX_PSB_CYC;
	assert_int_equal(ctl_for(&nocyc, &c, &ctl, &e), -1);
	assert_non_null(strstr(e.msg, "cycle-accurate"));
	c.cyc_thresh = 14;
	assert_int_equal(ctl_for(sk, &c, &ctl, &e), -1);
	assert_non_null(strstr(e.msg, "CycThresh 14"));
	c.cyc_thresh = 3;
	c.mtc_freq = 1;
	assert_int_equal(ctl_for(sk, &c, &ctl, &e), -1);
	assert_non_null(strstr(e.msg, "MTCFreq 1"));
	c.mtc_freq = 9;
	c.psb_freq = 6;
	assert_int_equal(ctl_for(sk, &c, &ctl, &e), -1);
	assert_non_null(strstr(e.msg, "PSBFreq 6"));
	c.psb_freq = 0;
	assert_int_equal(ctl_for(&bdw, &c, &ctl, &e), -1);
	assert_non_null(strstr(e.msg, "single-range"));
	assert_int_equal(ctl_for(NULL, &c, &ctl, &e), -1);
}

/* ---- the MSRs --------------------------------------------------------------- */

static void test_no_pt_gp(void **state)
{
	static const uint32_t msrs[] = {
		SDM_RTIT_CTL, SDM_RTIT_STATUS,
		SDM_RTIT_OUTPUT_BASE, SDM_RTIT_OUTPUT_MASK_PTRS,
		SDM_RTIT_CR3_MATCH, SDM_RTIT_ADDR_A(0),
		SDM_RTIT_ADDR_B(1),
	};
	uint64_t v;

	(void)state;
	machine(0x3c);
	for (unsigned i = 0; i < N(msrs); i++) {
		assert_int_equal(pt_model_rdmsr(msrs[i], &v), VEC_GP);
		assert_int_equal(pt_model_wrmsr(msrs[i], 0), VEC_GP);
	}
	/* not a PT MSR: not the PT model's */
	assert_int_equal(pt_model_rdmsr(0x186, &v), 1);
	assert_int_equal(pt_model_wrmsr(0x574, 0), 1);
}

static void test_ctl_reserved(void **state)
{
	static const uint64_t gp[] = {
		1ull << 18, 1ull << 23, 1ull << 28, 1ull << 31, 1ull << 48,
		1ull << 63,
		SDM_CTL_PTWEN, SDM_CTL_FUPONPTW,	/* EBX[4] clear */
		SDM_CTL_PWREVTEN,			/* EBX[5] clear */
		SDM_CTL_FABRICEN,			/* ECX[3] clear */
		14ull << 19, 15ull << 19,		/* CycThresh 14, 15 */
		1ull << 14, 2ull << 14, 15ull << 14,	/* MTCFreq 1, 2, 15 */
		6ull << 24, 15ull << 24,		/* PSBFreq 6, 15 */
		3ull << 32, 15ull << 36,		/* ADDRn_CFG > 2 */
		1ull << 40,				/* ADDR2_CFG: 2 ranges */
	};

	(void)state;
	machine(0x5e);
	for (unsigned i = 0; i < N(gp); i++)
		if (wr(SDM_RTIT_CTL, gp[i]) != VEC_GP)
			fail_msg("IA32_RTIT_CTL = 0x%llx: expected #GP",
				 (unsigned long long)gp[i]);
	assert_true(rd(SDM_RTIT_CTL) == 0);
	/* what Skylake enumerates is accepted with TraceEn clear */
	assert_int_equal(wr(SDM_RTIT_CTL, SDM_CTL_CR3FILTER |
			    SDM_CTL_TOPA | 13ull << 19 | 9ull << 14 |
			    5ull << 24 | 2ull << 32 | 1ull << 36), 0);
	/* with TraceEn: ToPA and IP filtering are not modelled */
	assert_int_equal(wr(SDM_RTIT_CTL, CTL_ON | SDM_CTL_TOPA),
			 BE_NOT_MODELLED);
	assert_int_equal(wr(SDM_RTIT_CTL, CTL_ON | 1ull << 32),
			 BE_NOT_MODELLED);
	assert_int_equal(wr(SDM_RTIT_CTL, CTL_ON | SDM_CTL_CR3FILTER),
			 BE_NOT_MODELLED);
}

static void test_ctl_while_tracing(void **state)
{
	uint8_t *buf = arena;

	(void)state;
	machine(0x5e);
	assert_int_equal(wr(SDM_RTIT_OUTPUT_BASE,
			    (uint64_t)(uintptr_t)buf), 0);
	assert_int_equal(wr(SDM_RTIT_OUTPUT_MASK_PTRS, 0xfff), 0);
	assert_int_equal(wr(SDM_RTIT_CTL, CTL_ON), 0);
	assert_true(rd(SDM_RTIT_STATUS) ==
		    (SDM_STATUS_TRIGGEREN | SDM_STATUS_CONTEXTEN |
		     SDM_STATUS_FILTEREN));
	assert_int_equal(wr(SDM_RTIT_CTL, CTL_ON), 0);	/* same */
	assert_int_equal(wr(SDM_RTIT_CTL, CTL_ON | SDM_CTL_TSCEN),
			 VEC_GP);
	assert_int_equal(wr(SDM_RTIT_OUTPUT_BASE, 0), VEC_GP);
	assert_int_equal(wr(SDM_RTIT_OUTPUT_MASK_PTRS, 0x7f), VEC_GP);
	assert_int_equal(wr(SDM_RTIT_CR3_MATCH, 0x1000), VEC_GP);
	assert_int_equal(wr(SDM_RTIT_STATUS, 0), VEC_GP);
	assert_int_equal(wr(SDM_RTIT_ADDR_A(0), 0x1000), VEC_GP);
	/* clearing TraceEn may change other bits in the same write */
	assert_int_equal(wr(SDM_RTIT_CTL, SDM_CTL_TSCEN), 0);
	assert_true(rd(SDM_RTIT_STATUS) == 0);
	assert_true(rd(SDM_RTIT_CTL) == SDM_CTL_TSCEN);
	/* after a clear with reserved bits nothing changes */
	assert_int_equal(wr(SDM_RTIT_CTL, CTL_ON), 0);
	assert_int_equal(wr(SDM_RTIT_CTL, 1ull << 18), VEC_GP);
	assert_true(rd(SDM_RTIT_CTL) == CTL_ON);
}

static void test_other_msrs(void **state)
{
	(void)state;
	machine(0x5e);
	assert_int_equal(wr(SDM_RTIT_OUTPUT_BASE, 0x1040), VEC_GP);
	assert_int_equal(wr(SDM_RTIT_OUTPUT_BASE, 1ull << 36), VEC_GP);
	assert_int_equal(wr(SDM_RTIT_OUTPUT_BASE, 0x1080), 0);
	assert_int_equal(wr(SDM_RTIT_OUTPUT_MASK_PTRS,
			    0x12300000000ull), 0);
	/* bits 6:0 of the mask read as 1s */
	assert_true(rd(SDM_RTIT_OUTPUT_MASK_PTRS) == 0x1230000007full);
	assert_int_equal(wr(SDM_RTIT_CR3_MATCH, 0x1001), VEC_GP);
	assert_int_equal(wr(SDM_RTIT_CR3_MATCH, 0x1020), 0);
	assert_true(rd(SDM_RTIT_CR3_MATCH) == 0x1020);
	assert_int_equal(wr(SDM_RTIT_ADDR_A(0), 0x0000800000000000ull),
			 VEC_GP);
	assert_int_equal(wr(SDM_RTIT_ADDR_B(1), 0xffff800000000000ull),
			 0);
	assert_int_equal(wr(SDM_RTIT_ADDR_A(2), 0), VEC_GP);
	assert_int_equal(wr(SDM_RTIT_STATUS, 1ull << 3), VEC_GP);
	assert_int_equal(wr(SDM_RTIT_STATUS, 1ull << 49), VEC_GP);
	/* the processor's bits: writes ignored */
	assert_int_equal(wr(SDM_RTIT_STATUS, SDM_STATUS_TRIGGEREN |
			    0x123ull << 32), 0);
	assert_true(rd(SDM_RTIT_STATUS) == 0x123ull << 32);
}

/* ---- output ------------------------------------------------------------------- */

static struct {
	uint8_t b[8192];
	unsigned n;
} ref;

static void ref_sink(void *ctx, const uint8_t *p, unsigned n)
{
	(void)ctx;
	assert_true(ref.n + n <= sizeof(ref.b));
	memcpy(ref.b + ref.n, p, n);
	ref.n += n;
}

static const uint8_t ret_code[15] = { 0xc3 };

static const uint8_t *code_at(void *ctx, uint64_t rip)
{
	(void)ctx;
	(void)rip;
	return ret_code;
}

/* The generator's code source: struct pt_gen's code and code_ctx, set
 * after pt_gen_start() (which resets them to the code at the RIP). */
static void set_code(struct pt_gen *gen, pt_gen_code src, void *ctx)
{
	gen->code = src;
	gen->code_ctx = ctx;
}

/* Steps that make full-width TIPs, also run through pt_gen into ref. */
static void steps(struct pt_gen *g, unsigned k, uint64_t ctl)
{
	ref.n = 0;
	pt_gen_start(g, ctl, clock_now, 1, ref_sink, NULL);
	set_code(g, code_at, NULL);
	for (unsigned i = 0; i < k; i++) {
		struct insn_event e = {
			.rip = 0x1000, .cpl = 0, .retired = 1,
			.next_rip = 0x4000000000000000ull | (uint64_t)i << 40,
			.flags = DEC_BRANCH | DEC_INDIRECT | EV_TAKEN,
		};

		clock_now++;
		pt_gen_step(g, &e, clock_now);
		pt_model_step(&e, clock_now);
	}
	pt_gen_stop(g, clock_now);
}

static void test_single_range_wraps(void **state)
{
	uint8_t *region = arena;
	static struct pt_gen g;
	uint64_t base = (uint64_t)(uintptr_t)region + 256, off;
	struct pmu_err e = { "" };
	struct pt_config c = { .os = 1, .user = 1 };

	(void)state;
	machine(0x5e);
	memset(region, 0xee, 512);
	/* a 128-byte region at base, 256 bytes into the array */
	assert_int_equal(pt_setup_output(base, 128, &e), 0);
	assert_int_equal(pt_start(&c, &e), 0);
	steps(&g, 40, rd(SDM_RTIT_CTL));
	assert_int_equal(pt_stop(&e), 0);
	assert_int_equal(pt_output_offset(&off, &e), 0);
	assert_true(ref.n > 256);
	assert_int_equal(off, ref.n % 128);
	/* the region holds the stream's last 128 bytes, wrapped */
	for (unsigned i = 0; i < 128; i++) {
		unsigned from = ref.n - 128 + i;

		assert_int_equal(region[256 + from % 128], ref.b[from]);
	}
	/* nothing outside it */
	for (unsigned i = 0; i < 256; i++)
		assert_int_equal(region[i], 0xee);
	for (unsigned i = 384; i < 512; i++)
		assert_int_equal(region[i], 0xee);
}

static void test_driver_order(void **state)
{
	uint8_t *region = arena;
	static struct pt_gen g;
	uint64_t base = (uint64_t)(uintptr_t)region, off;
	struct pmu_err e = { "" };
	struct pt_config c = { .os = 1, .cyc = 1, .tsc = 1 };
	static const struct {
		uint32_t msr;
		int wr;
	} order[] = {
		{ SDM_RTIT_CTL, 0 },		/* stopped already */
		{ SDM_RTIT_OUTPUT_BASE, 1 },
		{ SDM_RTIT_OUTPUT_MASK_PTRS, 1 },
		{ SDM_RTIT_STATUS, 1 },
		{ SDM_RTIT_CTL, 1 },		/* pt_start */
		{ SDM_RTIT_CTL, 0 },		/* pt_stop */
		{ SDM_RTIT_CTL, 1 },
		{ SDM_RTIT_OUTPUT_MASK_PTRS, 0 },
	};

	(void)state;
	machine(0x6a);
	assert_int_equal(pt_setup_output(base, 4096, &e), 0);
	assert_int_equal(pt_start(&c, &e), 0);
	steps(&g, 10, rd(SDM_RTIT_CTL));
	assert_int_equal(pt_stop(&e), 0);
	assert_int_equal(pt_output_offset(&off, &e), 0);
	assert_int_equal(acc.n, N(order));
	for (unsigned i = 0; i < N(order); i++) {
		assert_int_equal(acc.msr[i], order[i].msr);
		assert_int_equal(acc.wr[i], order[i].wr);
	}
	assert_true(acc.v[1] == base && acc.v[2] == 4095 && acc.v[3] == 0);
	assert_true(acc.v[4] == (SDM_CTL_TRACEEN | SDM_CTL_BRANCHEN |
				 SDM_CTL_OS | SDM_CTL_CYCEN |
				 SDM_CTL_TSCEN));
	assert_true(acc.v[6] == (acc.v[4] & ~SDM_CTL_TRACEEN));
	assert_int_equal(off, ref.n);
	assert_memory_equal(region, ref.b, ref.n);
	/* the driver refuses what it cannot set up */
	assert_int_equal(pt_setup_output(base, 96, &e), -1);
	assert_int_equal(pt_setup_output(base + 64, 4096, &e), -1);
	assert_int_equal(pt_setup_output(base, 4096 * 3, &e), -1);
}

static void test_output_errors(void **state)
{
	uint8_t *region = arena;
	uint64_t base = (uint64_t)(uintptr_t)region;
	static const struct {
		uint64_t base, mask_ptrs;
		const char *what;
	} bad[] = {
		{ 0, 0x17f, "non-contiguous mask" },
		{ 0x80, 0x1ff, "base bits under the mask" },
		{ 0, 0x1000000007full, "offset above the mask" },
	};

	(void)state;
	for (unsigned i = 0; i < N(bad); i++) {
		machine(0x5e);
		memset(region, 0xee, 1024);
		assert_int_equal(wr(SDM_RTIT_OUTPUT_BASE,
				    base + bad[i].base), 0);
		assert_int_equal(wr(SDM_RTIT_OUTPUT_MASK_PTRS,
				    bad[i].mask_ptrs), 0);
		assert_int_equal(wr(SDM_RTIT_CTL, CTL_ON), 0);
		if (rd(SDM_RTIT_STATUS) != SDM_STATUS_ERROR)
			fail_msg("%s: STATUS 0x%llx, expected Error alone",
				 bad[i].what,
				 (unsigned long long)rd(SDM_RTIT_STATUS));
		assert_int_equal(wr(SDM_RTIT_CTL, 0), 0);
		for (unsigned k = 0; k < 1024; k++)
			assert_int_equal(region[k], 0xee);
	}
	/* a good setup, but Error still set: TraceEn traces nothing */
	assert_int_equal(wr(SDM_RTIT_OUTPUT_MASK_PTRS, 0x3ff), 0);
	assert_int_equal(wr(SDM_RTIT_CTL, CTL_ON), 0);
	assert_true(rd(SDM_RTIT_STATUS) == SDM_STATUS_ERROR);
	assert_int_equal(wr(SDM_RTIT_CTL, 0), 0);
	assert_int_equal(wr(SDM_RTIT_STATUS, 0), 0);
	assert_int_equal(wr(SDM_RTIT_CTL, CTL_ON), 0);
	assert_true(rd(SDM_RTIT_STATUS) & SDM_STATUS_TRIGGEREN);
	assert_int_equal(region[0], 0x02);		/* PSB */
}

/* An 8 KiB region whose second page is not mapped writable: its bytes
 * are not stored (counted instead), the first page's are, and the offset
 * moves on over both. */
static void test_unmapped_dropped(void **state)
{
	uint64_t base = ((uint64_t)(uintptr_t)arena + 8191) & ~8191ull;
	uint8_t *region = (uint8_t *)(uintptr_t)base;
	static struct pt_gen g;

	(void)state;
	machine(0x5e);
	memset(region, 0xee, 8192);
	hole_lo = base + 4096;
	hole_hi = base + 8192;
	assert_int_equal(wr(SDM_RTIT_OUTPUT_BASE, base), 0);
	assert_int_equal(wr(SDM_RTIT_OUTPUT_MASK_PTRS, 0x1fff), 0);
	assert_int_equal(wr(SDM_RTIT_CTL, CTL_ON), 0);
	steps(&g, 600, CTL_ON);
	assert_int_equal(wr(SDM_RTIT_CTL, 0), 0);
	assert_true(ref.n > 4096 && ref.n <= 8192);
	assert_int_equal(rd(SDM_RTIT_OUTPUT_MASK_PTRS) >> 32, ref.n);
	assert_memory_equal(region, ref.b, 4096);
	for (unsigned i = 4096; i < 8192; i++)
		assert_int_equal(region[i], 0xee);
}

/* Table 36-7: Stopped (bit 5) is software-writable while TraceEn is 0;
 * Table 36-20: TriggerEn is set at TraceEn only with Error and Stopped
 * both 0, so with Stopped set tracing does not start: STATUS reads
 * Stopped alone and nothing is written (the offset stays 0). */
static void test_status_stopped(void **state)
{
	uint8_t *region = arena;

	(void)state;
	machine(0x5e);
	memset(region, 0xee, 4096);
	assert_int_equal(wr(SDM_RTIT_OUTPUT_BASE, (uint64_t)(uintptr_t)region),
			 0);
	assert_int_equal(wr(SDM_RTIT_OUTPUT_MASK_PTRS, 0xfff), 0);
	assert_int_equal(wr(SDM_RTIT_STATUS, SDM_STATUS_STOPPED), 0);
	assert_int_equal(wr(SDM_RTIT_CTL, CTL_ON), 0);
	assert_true(rd(SDM_RTIT_STATUS) == SDM_STATUS_STOPPED);
	assert_int_equal(wr(SDM_RTIT_CTL, 0), 0);
	assert_true(rd(SDM_RTIT_OUTPUT_MASK_PTRS) >> 32 == 0);
	assert_int_equal(region[0], 0xee);
	/* cleared: the next TraceEn traces, PSB first (02 82) */
	assert_int_equal(wr(SDM_RTIT_STATUS, 0), 0);
	assert_int_equal(wr(SDM_RTIT_CTL, CTL_ON), 0);
	assert_true(rd(SDM_RTIT_STATUS) & SDM_STATUS_TRIGGEREN);
	assert_int_equal(region[0], 0x02);
	assert_int_equal(region[1], 0x82);
}

/* What the model stores, decoded with lib/pt/decode.c (not the encoders
 * the generator uses) and held to the SDM: TraceEn writes PSB+ = PSB,
 * TSC (TSCEn), CBR, PSBEND (§36.2.7.3, §36.3.7; Table 36-50 row 2b); the
 * first traced step MODE.Exec, TIP.PGE to its RIP (rows 6c, 7b, 9b); a
 * Jcc one TNT bit, 1 = taken (Table 36-16); an indirect JMP a TIP to its
 * target (Table 36-17); a RET with no CALL of this trace behind it a TIP
 * (§36.4.2.2); clearing TraceEn FUP(CLIP), TIP.PGD with the IP
 * suppressed (row 3b, Table 36-21); OUTPUT_MASK_PTRS[63:32] the offset
 * of the next byte (§36.2.7.8); STATUS.TriggerEn 0 after (Table 36-7). */
static void test_model_stream(void **state)
{
	static const struct {
		uint8_t type;
		uint8_t count;
		uint64_t v;		/* IP, or the payload */
	} want[] = {
		{ PT_PKT_PSB, 0, 0 },
		{ PT_PKT_TSC, 0, 1000 },	/* the clock at TraceEn */
		{ PT_PKT_CBR, 0, 1 },		/* the model's ratio */
		{ PT_PKT_PSBEND, 0, 0 },
		{ PT_PKT_MODE_EXEC, 0, 1 },	/* 64-bit: CS.L 1, CS.D 0 */
		{ PT_PKT_TIP_PGE, 0, 0x401000 },
		{ PT_PKT_TNT8, 2, 2 },		/* taken, not taken */
		{ PT_PKT_TIP, 0, 0x7fff12345678ull },
		{ PT_PKT_TIP, 0, 0x401234 },
		{ PT_PKT_FUP, 0, 0x401234 },
		{ PT_PKT_TIP_PGD, 0, 0 },	/* IP suppressed */
	};
	static const struct insn_event ev[] = {
		{ .rip = 0x401000, .next_rip = 0x401040, .retired = 1,
		  .flags = DEC_BRANCH | DEC_COND | EV_TAKEN },
		{ .rip = 0x401040, .next_rip = 0x401042, .retired = 1,
		  .flags = DEC_BRANCH | DEC_COND },
		{ .rip = 0x401042, .next_rip = 0x7fff12345678ull,
		  .retired = 1,
		  .flags = DEC_BRANCH | DEC_INDIRECT | EV_TAKEN },
		{ .rip = 0x7fff12345678ull, .next_rip = 0x401234,
		  .retired = 1,
		  .flags = DEC_BRANCH | DEC_RET | DEC_INDIRECT | EV_TAKEN },
	};
	uint8_t *region = arena;
	struct pt_dec d;
	struct pt_pkt k;
	unsigned i;

	(void)state;
	machine(0x5e);
	memset(region, 0, 4096);
	assert_int_equal(wr(SDM_RTIT_OUTPUT_BASE, (uint64_t)(uintptr_t)region),
			 0);
	assert_int_equal(wr(SDM_RTIT_OUTPUT_MASK_PTRS, 0xfff), 0);
	assert_int_equal(wr(SDM_RTIT_CTL, SDM_CTL_TRACEEN | SDM_CTL_BRANCHEN |
			    SDM_CTL_OS | SDM_CTL_TSCEN), 0);
	for (i = 0; i < N(ev); i++)
		pt_model_step(&ev[i], ++clock_now);
	assert_int_equal(wr(SDM_RTIT_CTL, 0), 0);
	assert_true(!(rd(SDM_RTIT_STATUS) & SDM_STATUS_TRIGGEREN));

	pt_dec_init(&d, region, rd(SDM_RTIT_OUTPUT_MASK_PTRS) >> 32);
	for (i = 0; pt_dec_next(&d, &k) != PT_PKT_NONE; i++) {
		uint64_t got = k.ip_valid ? k.ip : k.payload;

		if (i >= N(want) || k.type != want[i].type ||
		    got != want[i].v || k.count != want[i].count)
			fail_msg("packet %u: %s 0x%llx (%u bits), want %s 0x%llx",
				 i, pt_pkt_name(k.type),
				 (unsigned long long)got, k.count,
				 i < N(want) ? pt_pkt_name(want[i].type) : "end",
				 i < N(want) ? (unsigned long long)want[i].v
					     : 0ull);
		if (k.type == PT_PKT_TIP_PGD)
			assert_int_equal(k.ip_valid, 0);
	}
	assert_int_equal(i, N(want));
	/* nothing after the offset */
	assert_int_equal(region[d.pos], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caps_table),
		cmocka_unit_test(test_caps_source),
		cmocka_unit_test(test_cyc_thresh),
		cmocka_unit_test(test_ctl_for),
		cmocka_unit_test(test_no_pt_gp),
		cmocka_unit_test(test_ctl_reserved),
		cmocka_unit_test(test_ctl_while_tracing),
		cmocka_unit_test(test_other_msrs),
		cmocka_unit_test(test_single_range_wraps),
		cmocka_unit_test(test_driver_order),
		cmocka_unit_test(test_output_errors),
		cmocka_unit_test(test_unmapped_dropped),
		cmocka_unit_test(test_model_stream),
		cmocka_unit_test(test_status_stopped),
	};

	arena = mmap(NULL, ARENA_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (arena == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	return cmocka_run_group_tests_name("pt_model", tests, NULL, NULL);
}
