/* Host tests for the Last Branch Records: the models' register file
 * (pmu/lbr_model.c) driven with hand-made steps (arch/x86/trace.h) over
 * layouts written here, and the driver's interface (pmu/lbr.c: filters,
 * enable, clear, read, decode) reaching that register file through
 * be_rdmsr()/be_wrmsr() stubs, pmu/driver.c's accesses in between.
 *
 * What a step records is the oracle's semantics (pmu/sem.c): a retired
 * near branch with EV_TAKEN, or a retired far transfer (DEC_FAR).  The
 * expected values are the SDM's, restated here, never the product's
 * tables: every MSR address, bit and field is a literal below.  Intel
 * SDM Vol. 3B, order no. 253669, chapter 17; section and table numbers
 * as the 2016 editions (-060US) have them (Nehalem §17.7, Sandy Bridge
 * §17.8, Haswell §17.9, Skylake §17.10, NetBurst §17.11; later editions
 * renumber, the titles stay); the architectural LBRs, absent there, by
 * their section's title ("Architectural Last Branch Records"):
 *   - §17.4.1 Figure 17-3: IA32_DEBUGCTL (1D9H) bit 0 LBR starts the
 *     recording of taken branches, interrupts and exceptions; clear, the
 *     stack records nothing and keeps what it holds (§17.4.8).
 *   - §17.4.8: MSR_LASTBRANCH_TOS "contains an M-bit pointer to the MSR
 *     in the LBR stack that contains the most recent branch, interrupt,
 *     or exception recorded"; the stack is a ring of N pairs (Table
 *     17-4), the TOS "incremented by 1, modulo 16, before recording the
 *     next pair of addresses" (§17.9, of the 16 pairs there): reading
 *     TOS, TOS-1, ... gives the newest first, record N+1 overwrites the
 *     oldest.
 *   - §17.4.8.2 "LBR Stack and IA-32 Processors" (and the NetBurst
 *     figure "LBR MSR Branch Record Layout for the Pentium 4 and Intel
 *     Xeon Processor Family", models 0-2): one MSR per record, the 32-bit
 *     "from" address in bits 31:0, the "to" address in bits 63:32.
 *   - §17.4.8.1, LBR_FMT = IA32_PERF_CAPABILITIES[5:0]: 000000B 32-bit
 *     offsets; 000011B flags in the FROM MSR, bit 63 MISPRED (Table 17-8:
 *     SIGN_EXT 62:48, the address sign-extended); 000100B (Table 17-14)
 *     bit 63 MISPRED, 62 IN_TSX, 61 TSX_ABORT, the address in 60:0
 *     sign-extended; 000101B (§17.10, Table 17-16) FROM and TO hold the
 *     sign-extended address alone and MSR_LBR_INFO_x keeps MISPRED (63),
 *     IN_TSX (62), TSX_ABORT (61) and in 15:0 the "Elapsed core clocks
 *     since last update to the LBR stack", saturating.
 *   - §17.7.2 Table 17-11, MSR_LBR_SELECT (1C8H), a set bit "do not
 *     capture": 0 CPL_EQ_0 ("branches occurring in ring 0"), 1 CPL_NEQ_0
 *     (ring > 0), 2 JCC, 3 NEAR_REL_CALL, 4 NEAR_IND_CALL, 5 NEAR_RET,
 *     6 NEAR_IND_JMP, 7 NEAR_REL_JMP, 8 FAR_BRANCH, 63:9 reserved ("must
 *     be zero"); from Haswell bit 9 EN_CALLSTACK (§17.9, Table 17-13);
 *     WRMSR of a reserved bit #GP(0) (Vol. 2B WRMSR).
 *   - §17.9 call-stack mode (EN_CALLSTACK, with JCC, NEAR_IND_JMP and
 *     NEAR_REL_JMP suppressed): "as return instructions are executed the
 *     last captured branch record is flushed ... in a last-in first-out
 *     (LIFO) manner", the TOS moving back by one.
 *   - "Last Branch, Interrupt, and Exception Recording (P6 Family
 *     Processors)": LastBranchFromIP (1DBH) and LastBranchToIP (1DCH)
 *     hold the last branch, interrupt or exception; LastExceptionFromIP
 *     (1DDH) and LastExceptionToIP (1DEH) "the last branch that the
 *     processor took prior to an exception or interrupt being
 *     generated"; 32-bit addresses.
 *   - "Architectural Last Branch Records" (CPUID leaf 1CH in Vol. 2A):
 *     IA32_LBR_CTL 14CEH, bit 0 LBREn, 1 OS (CPL 0), 2 USR (CPL > 0),
 *     3 CALL_STACK, 15:4 reserved, 16 COND, 17 NEAR_REL_JMP,
 *     18 NEAR_IND_JMP, 19 NEAR_REL_CALL, 20 NEAR_IND_CALL, 21 NEAR_RET,
 *     22 OTHER_BRANCH (a set bit records the class), 63:23 reserved;
 *     IA32_LBR_DEPTH 14CFH takes a depth CPUID.1CH:EAX[7:0] allows (bit
 *     n: 8(n+1)), #GP on another, and a write resets every record to 0;
 *     IA32_LBR_x_FROM_IP 1500H+x, _TO_IP 1600H+x, _INFO 1200H+x, entry 0
 *     the youngest, x >= DEPTH #GP; IA32_LBR_x_INFO: 63 MISPRED, 62 IN_TX,
 *     61 TSX_ABORT, 60 CYC_CNT_VALID, 59:56 BR_TYPE (0000B COND, 0001B
 *     JMP indirect, 0010B JMP direct, 0011B CALL indirect, 0100B CALL
 *     direct, 0101B RET, 1xxxB other branch), 15:0 CYC_CNT;
 *     CPUID.1CH:EBX[0] CPL filtering, [1] branch filtering, [2] call-stack
 *     mode, ECX[1] timed LBRs (CYC_CNT), [2] branch type; LBREn, not
 *     IA32_DEBUGCTL.LBR, enables; call-stack mode: a near RET pops the
 *     youngest record.
 *   - §17.4.7 (with Vol. 4 Table 2-2 IA32_PERF_GLOBAL_STATUS.LBR_FRZ):
 *     frozen LBRs record nothing.
 * The model predicts every branch and runs no transaction: MISPRED,
 * IN_TX and ABORT are 0 in what it records. */
#include <stdio.h>
#include <string.h>

#include "pmu/lbr.h"
#include "pmu/lbr_model.h"
#include "pmu/backend.h"
#include "pmu/cpu_model.h"
#include "pmu/driver.h"
#include "pmu/generation.h"
#include "arch/x86/trap.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/host/arch/x86/dec_flags.h"

/* host-sources: pmu/lbr_model.c pmu/lbr.c pmu/driver.c pmu/sem.c pmu/emufault.c lib/escape.c lib/fmt.c lib/string.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the SDM's registers and bits, restated */

#define DEBUGCTL 0x1d9u
#define DEBUGCTL_LBR 0x1ull
#define DEBUGCTL_BTF 0x2ull
#define TOS 0x1c9u
#define LBR_SELECT 0x1c8u
#define NHM_FROM 0x680u
#define NHM_TO 0x6c0u
#define SKL_INFO 0xdc0u
#define ONE_MSR 0x40u		/* Core Solo/Duo MSR_LASTBRANCH_0 */
#define P6_BR_FROM 0x1dbu
#define P6_BR_TO 0x1dcu
#define P6_EX_FROM 0x1ddu
#define P6_EX_TO 0x1deu
#define ARCH_CTL 0x14ceu
#define ARCH_DEPTH 0x14cfu
#define ARCH_FROM(x) (0x1500u + (x))
#define ARCH_TO(x) (0x1600u + (x))
#define ARCH_INFO(x) (0x1200u + (x))

/* MSR_LBR_SELECT (Table 17-11), a set bit suppresses */
#define SEL_CPL_EQ_0 (1ull << 0)
#define SEL_CPL_NEQ_0 (1ull << 1)
#define SEL_JCC (1ull << 2)
#define SEL_NEAR_REL_CALL (1ull << 3)
#define SEL_NEAR_IND_CALL (1ull << 4)
#define SEL_NEAR_RET (1ull << 5)
#define SEL_NEAR_IND_JMP (1ull << 6)
#define SEL_NEAR_REL_JMP (1ull << 7)
#define SEL_FAR_BRANCH (1ull << 8)
#define SEL_EN_CALLSTACK (1ull << 9)

/* IA32_LBR_CTL, a set bit records */
#define CTL_EN (1ull << 0)
#define CTL_OS (1ull << 1)
#define CTL_USR (1ull << 2)
#define CTL_CALL_STACK (1ull << 3)
#define CTL_COND (1ull << 16)
#define CTL_ALL_BRANCHES (0x7full << 16)	/* bits 22:16 */

/* IA32_LBR_x_INFO / MSR_LBR_INFO_x */
#define INFO_MISPRED (1ull << 63)
#define INFO_IN_TX (1ull << 62)
#define INFO_ABORT (1ull << 61)
#define INFO_CYC_VALID (1ull << 60)
#define INFO_BR_TYPE(v) (((v) >> 56) & 0xf)
#define INFO_CYC(v) ((v) & 0xffff)

#define GP 13			/* #GP's vector */

/* ---- the layouts, from the SDM's MSR tables */

/* A Nehalem stack (§17.7, Table 17-10: 16 pairs at 680H/6C0H, TOS 1C9H,
 * MSR_LBR_SELECT bits 8:0) with the 000011B records of §17.4.8.1. */
static const struct lbr_layout nhm = {
	.style = LBR_STYLE_STACK, .name = "test-nehalem", .depth = 16,
	.format = 3, .tos = TOS, .from = NHM_FROM, .to = NHM_TO,
	.select = LBR_SELECT, .select_valid = 0x1ff,
};
/* Haswell: the same with EN_CALLSTACK (bit 9) and 000100B records. */
static const struct lbr_layout hsw = {
	.style = LBR_STYLE_STACK, .name = "test-haswell", .depth = 16,
	.format = 4, .tos = TOS, .from = NHM_FROM, .to = NHM_TO,
	.select = LBR_SELECT, .select_valid = 0x3ff,
};
/* Skylake (§17.10, Table 17-15): 32 records with MSR_LBR_INFO_x at DC0H,
 * format 000101B. */
static const struct lbr_layout skl = {
	.style = LBR_STYLE_STACK, .name = "test-skylake", .depth = 32,
	.format = 5, .tos = TOS, .from = NHM_FROM, .to = NHM_TO,
	.info = SKL_INFO, .select = LBR_SELECT, .select_valid = 0x3ff,
};
/* Core Solo/Duo: 8 one-MSR records at 40H-47H, TOS 1C9H, 32-bit. */
static const struct lbr_layout one_msr = {
	.style = LBR_STYLE_STACK, .name = "test-core-duo", .depth = 8,
	.format = 0, .tos = TOS, .from = ONE_MSR,
};
/* A stack without MSR_LBR_SELECT (Core 2: 4 pairs at 40H/60H). */
static const struct lbr_layout core2 = {
	.style = LBR_STYLE_STACK, .name = "test-core2", .depth = 4,
	.format = 0, .tos = TOS, .from = 0x40, .to = 0x60,
};
/* The P6: LastBranch and LastException pairs, 32-bit. */
static const struct lbr_layout p6 = {
	.style = LBR_STYLE_P6, .name = "test-p6", .depth = 1, .format = 0,
	.from = P6_BR_FROM, .to = P6_BR_TO, .ler_from = P6_EX_FROM,
	.ler_to = P6_EX_TO,
};
/* Architectural LBRs with CPUID.1CH:EAX[7:0] = 0BH (depths 8, 16, 32;
 * not 24), EBX = 7 (CPL and branch filtering, call-stack mode), ECX = 7
 * (mispredict bit, timed LBRs, branch types); depth the largest. */
#define ARCH_EAX 0x0bu
static const struct lbr_layout arch = {
	.style = LBR_STYLE_ARCH, .name = "test-arch", .depth = 32,
	.format = 0x3f, .arch_eax = ARCH_EAX, .arch_ebx = 7, .arch_ecx = 7,
};

/* ---- the backend: IA32_DEBUGCTL is the generation model's, here this
 * file's; every other MSR the LBR model's, one it does not know #GP */

static uint64_t debugctl;
static uint64_t now;		/* the model clock */
static uint32_t writes[64];	/* the MSRs written, in order */
static uint64_t written[64];
static unsigned n_writes;

int be_rdmsr(uint32_t msr, uint64_t *v)
{
	int r;

	if (msr == DEBUGCTL) {
		*v = debugctl;
		return 0;
	}
	r = lbr_model_rdmsr(msr, v);
	return r == 1 ? GP : r;
}

int be_wrmsr(uint32_t msr, uint64_t v)
{
	int r;

	if (n_writes < N(writes)) {
		writes[n_writes] = msr;
		written[n_writes++] = v;
	}
	if (msr == DEBUGCTL) {
		debugctl = v;
		return 0;
	}
	r = lbr_model_wrmsr(msr, v);
	return r == 1 ? GP : r;
}

/* pmu/driver.c's "# pmu:" line, which these tests do not reach. */
const struct pmu_driver *pmu_driver_for(enum pmu_kind k)
{
	(void)k;
	return NULL;
}

const char *pmu_kind_name(enum pmu_kind k)
{
	(void)k;
	return "?";
}

const char *pmu_none_reason(enum cpu_vendor v, unsigned family)
{
	(void)v;
	(void)family;
	return "?";
}

const char *pmu_unsupported_reason(enum cpu_vendor v, unsigned family)
{
	(void)v;
	(void)family;
	return "?";
}

/* ---- steps */

/* The classes of branch, as the decoder flags them (arch/x86/decode.h),
 * with their bits in MSR_LBR_SELECT and IA32_LBR_CTL and their
 * BR_TYPE. */
#define JCC (BR | CND | TK)
#define JMP_REL (BR | TK)
#define JMP_IND (BR | IND | TK)
#define CALL_REL (BR | CL | TK)
#define CALL_IND (BR | CL | IND | TK)
#define RET (BR | RT | IND | TK)

/* Far transfers make the model read the opcode at RIP: real bytes. */
static const uint8_t iret_code[] = { 0xcf };		/* IRET */
static const uint8_t int80_code[] = { 0xcd, 0x80 };	/* INT 80H */

static uint64_t code(const uint8_t *p)
{
	return (uint64_t)(uintptr_t)p;
}

static const struct branch_class {
	const char *name;
	uint16_t flags;
	uint64_t select;	/* its MSR_LBR_SELECT bit */
	uint64_t ctl;		/* its IA32_LBR_CTL bit */
	unsigned br_type;	/* its BR_TYPE (other: 1xxxB) */
} classes[] = {
	{ "Jcc", JCC, SEL_JCC, 1ull << 16, 0 },
	{ "near relative JMP", JMP_REL, SEL_NEAR_REL_JMP, 1ull << 17, 2 },
	{ "near indirect JMP", JMP_IND, SEL_NEAR_IND_JMP, 1ull << 18, 1 },
	{ "near relative CALL", CALL_REL, SEL_NEAR_REL_CALL, 1ull << 19, 4 },
	{ "near indirect CALL", CALL_IND, SEL_NEAR_IND_CALL, 1ull << 20, 3 },
	{ "near RET", RET, SEL_NEAR_RET, 1ull << 21, 5 },
	{ "IRET (far)", FAR, SEL_FAR_BRANCH, 1ull << 22, 8 },
};

static struct insn_event br(uint64_t from, uint64_t to, uint16_t flags,
			    unsigned cpl)
{
	return (struct insn_event){ .rip = from, .next_rip = to,
				    .cpl = (uint8_t)cpl, .retired = 1,
				    .flags = flags };
}

/* A step of class k at cpl from `from` (a far one from the IRET's bytes). */
static struct insn_event of_class(unsigned k, uint64_t from, unsigned cpl)
{
	if (classes[k].flags == FAR)
		from = code(iret_code);
	return br(from, from + 0x100, classes[k].flags, cpl);
}

/* One step at the next model clock. */
static void step(const struct insn_event *e)
{
	lbr_model_step(e, debugctl, 0, ++now);
}

static void jmp(uint64_t from, uint64_t to)
{
	struct insn_event e = br(from, to, JMP_REL, 3);

	step(&e);
}

static uint64_t rd(uint32_t msr)
{
	uint64_t v = 0;

	assert_int_equal(be_rdmsr(msr, &v), 0);
	return v;
}

static void wr(uint32_t msr, uint64_t v)
{
	assert_int_equal(be_wrmsr(msr, v), 0);
}

static void use(const struct lbr_layout *l)
{
	lbr_model_reset(l);
	debugctl = DEBUGCTL_LBR;
	now = 1000;
	n_writes = 0;
}

/* Record k (0 the newest) of a legacy stack: its FROM, its TO. */
static uint64_t from_k(const struct lbr_layout *l, unsigned k)
{
	unsigned n = l->depth;

	return rd(l->from + (unsigned)(rd(TOS) + n - k) % n);
}

static uint64_t to_k(const struct lbr_layout *l, unsigned k)
{
	unsigned n = l->depth;

	return rd(l->to + (unsigned)(rd(TOS) + n - k) % n);
}

/* ==== legacy stacks */

/* §17.4.8: TOS moves on by one (mod 16) per record and names the newest;
 * read back from it, newest first; record 17 overwrites the oldest. */
static void test_ring(void **state)
{
	uint64_t tos, first;

	(void)state;
	use(&nhm);
	first = rd(TOS);
	for (unsigned i = 0; i < 20; i++) {
		jmp(0x1000 + 0x10 * i, 0x8000 + 0x10 * i);
		tos = rd(TOS);
		assert_int_equal(tos, (first + i + 1) % 16);
		assert_int_equal(rd(NHM_FROM + tos), 0x1000 + 0x10 * i);
		assert_int_equal(rd(NHM_TO + tos), 0x8000 + 0x10 * i);
	}
	/* 20 records in a ring of 16: TOS, TOS-1, ... hold 19 down to 4 */
	for (unsigned k = 0; k < 16; k++) {
		assert_int_equal(from_k(&nhm, k), 0x1000 + 0x10 * (19 - k));
		assert_int_equal(to_k(&nhm, k), 0x8000 + 0x10 * (19 - k));
	}
}

/* Only taken branches and far transfers are records (§17.4.8: "taken
 * branches, interrupts, and exceptions"). */
static void test_what_records(void **state)
{
	static const struct {
		uint16_t flags;
		uint8_t retired;
		int records;
	} steps[] = {
		{ 0, 1, 0 },			/* MOV */
		{ BR | CND, 1, 0 },		/* Jcc not taken */
		{ JCC, 1, 1 },
		{ JMP_REL, 0, 0 },		/* not retired */
		{ RET, 1, 1 },
		{ FAR, 1, 1 },			/* IRET */
	};

	(void)state;
	use(&nhm);
	for (unsigned i = 0; i < N(steps); i++) {
		uint64_t tos = rd(TOS);
		struct insn_event e = br(steps[i].flags == FAR ?
					 code(iret_code) : 0x4000,
					 0x5000, steps[i].flags, 0);

		e.retired = steps[i].retired;
		step(&e);
		assert_int_equal(rd(TOS), (tos + steps[i].records) % 16);
	}
}

/* §17.4.1: DEBUGCTL.LBR clear records nothing, keeps the stack; set
 * again, recording goes on from where it was.  Frozen (§17.4.7): nothing
 * either. */
static void test_lbr_bit(void **state)
{
	uint64_t tos;
	struct insn_event e = br(0x2222, 0x3333, JCC, 3);

	(void)state;
	use(&nhm);
	jmp(0x1000, 0x1100);
	jmp(0x1200, 0x1300);
	tos = rd(TOS);
	debugctl = DEBUGCTL_BTF;
	for (unsigned i = 0; i < 20; i++)
		jmp(0x5000 + i, 0x6000);
	assert_int_equal(rd(TOS), tos);
	assert_int_equal(from_k(&nhm, 0), 0x1200);
	assert_int_equal(from_k(&nhm, 1), 0x1000);
	debugctl = DEBUGCTL_LBR;
	lbr_model_step(&e, debugctl, 1, ++now);
	assert_int_equal(rd(TOS), tos);
	jmp(0x1400, 0x1500);
	assert_int_equal(rd(TOS), (tos + 1) % 16);
	assert_int_equal(from_k(&nhm, 0), 0x1400);
	assert_int_equal(from_k(&nhm, 1), 0x1200);
}

/* §17.4.8.2: one MSR per record, from in 31:0, to in 63:32. */
static void test_one_msr(void **state)
{
	struct lbr_entry out[8];
	unsigned n;
	struct pmu_err err;

	(void)state;
	use(&one_msr);
	jmp(0x12345678, 0x9abcdef0);
	assert_int_equal(rd(ONE_MSR + rd(TOS)), 0x9abcdef012345678ull);
	jmp(0x00401000, 0x00402000);
	assert_int_equal(rd(ONE_MSR + rd(TOS)), 0x0040200000401000ull);
	assert_int_equal(lbr_read(&one_msr, out, 8, &n, &err), 0);
	assert_int_equal(n, 8);
	assert_int_equal(out[0].from, 0x00401000);
	assert_int_equal(out[0].to, 0x00402000);
	assert_int_equal(out[1].from, 0x12345678);
	assert_int_equal(out[1].to, 0x9abcdef0);
}

/* §17.4.8.1 formats, decoded from raw MSR values. */
static void test_decode_formats(void **state)
{
	struct lbr_layout l = nhm;
	struct lbr_entry o;

	(void)state;
	/* 000000B: 32-bit offsets */
	l.format = 0;
	lbr_decode(&l, 0x00401000, 0x00402000, 0, &o);
	assert_int_equal(o.from, 0x00401000);
	assert_int_equal(o.to, 0x00402000);

	/* 000011B: bit 63 MISPRED, 62:48 the sign of bit 47 */
	l.format = 3;
	lbr_decode(&l, (1ull << 63) | 0x00401000, 0x00402000, 0, &o);
	assert_int_equal(o.mispred, 1);
	assert_int_equal(o.from, 0x00401000);
	assert_int_equal(o.to, 0x00402000);
	lbr_decode(&l, 0x7fff800000001000ull, 0xffff800000002000ull, 0, &o);
	assert_int_equal(o.mispred, 0);
	assert_int_equal(o.from, 0xffff800000001000ull);
	assert_int_equal(o.to, 0xffff800000002000ull);

	/* 000100B: 63 MISPRED, 62 IN_TSX, 61 TSX_ABORT, 60:0 the address
	 * sign-extended */
	l.format = 4;
	lbr_decode(&l, (1ull << 63) | (1ull << 61) | 0x00401000, 0x00402000,
		   0, &o);
	assert_int_equal(o.mispred, 1);
	assert_int_equal(o.in_tx, 0);
	assert_int_equal(o.abort, 1);
	assert_int_equal(o.from, 0x00401000);
	lbr_decode(&l, (1ull << 62) | 0x1fff800000001000ull,
		   0xffff800000002000ull, 0, &o);
	assert_int_equal(o.mispred, 0);
	assert_int_equal(o.in_tx, 1);
	assert_int_equal(o.abort, 0);
	assert_int_equal(o.from, 0xffff800000001000ull);
	assert_int_equal(o.to, 0xffff800000002000ull);

	/* 000101B: addresses alone, flags and cycles in MSR_LBR_INFO_x */
	l = skl;
	lbr_decode(&l, 0xffff800000001000ull, 0x00402000,
		   INFO_MISPRED | INFO_ABORT | 0x1234, &o);
	assert_int_equal(o.from, 0xffff800000001000ull);
	assert_int_equal(o.to, 0x00402000);
	assert_int_equal(o.mispred, 1);
	assert_int_equal(o.in_tx, 0);
	assert_int_equal(o.abort, 1);
	assert_int_equal(o.cycles, 0x1234);

	/* architectural: BR_TYPE 59:56, CYC_CNT 15:0 with CYC_CNT_VALID */
	l = arch;
	lbr_decode(&l, 0x00401000, 0x00402000,
		   INFO_IN_TX | INFO_CYC_VALID | (3ull << 56) | 0x77, &o);
	assert_int_equal(o.in_tx, 1);
	assert_int_equal(o.mispred, 0);
	assert_int_equal(o.br_type, 3);
	assert_int_equal(o.cycles, 0x77);
}

/* What the model writes in the FROM MSR of each format: the address, its
 * flag bits 0 (predicted, no transaction). */
static void test_record_formats(void **state)
{
	static const struct {
		unsigned format;
		uint64_t from;
	} cases[] = {
		{ 0, 0x00001000ull },		/* bits 31:0 */
		{ 2, 0xffff800000001000ull },
		{ 3, 0x7fff800000001000ull },	/* MISPRED 0 */
		{ 4, 0x1fff800000001000ull },	/* 63:61 0 */
		{ 5, 0xffff800000001000ull },	/* flags in INFO */
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		struct lbr_layout l = cases[i].format == 5 ? skl : nhm;

		l.format = cases[i].format;
		use(&l);
		jmp(0xffff800000001000ull, 0xffff800000002000ull);
		assert_int_equal(from_k(&l, 0), cases[i].from);
		assert_int_equal(to_k(&l, 0), cases[i].format ?
				 0xffff800000002000ull : 0x00002000ull);
	}
}

/* Table 17-16: MSR_LBR_INFO_x 15:0, the core clocks since the last
 * record, saturating at FFFFH; MISPRED, IN_TSX, TSX_ABORT 0 here. */
static void test_info_cycles(void **state)
{
	struct insn_event e = br(0x1000, 0x2000, JCC, 0);

	(void)state;
	use(&skl);
	lbr_model_step(&e, debugctl, 0, 100);
	lbr_model_step(&e, debugctl, 0, 103);
	assert_int_equal(rd(SKL_INFO + rd(TOS)), 3);
	lbr_model_step(&e, debugctl, 0, 103 + 70000);
	assert_int_equal(rd(SKL_INFO + rd(TOS)), 0xffff);
	lbr_model_step(&e, debugctl, 0, 103 + 70000 + 0xffff);
	assert_int_equal(rd(SKL_INFO + rd(TOS)), 0xffff);
	lbr_model_step(&e, debugctl, 0, 103 + 70000 + 0xffff + 1);
	assert_int_equal(rd(SKL_INFO + rd(TOS)), 1);
}

/* Table 17-11: each class bit suppresses its class and no other; the CPL
 * bits suppress ring 0 and ring > 0. */
static void test_select_classes(void **state)
{
	(void)state;
	for (unsigned s = 0; s < N(classes); s++) {
		use(&nhm);
		wr(LBR_SELECT, classes[s].select);
		assert_int_equal(rd(LBR_SELECT), classes[s].select);
		for (unsigned k = 0; k < N(classes); k++) {
			uint64_t tos = rd(TOS);
			struct insn_event e = of_class(k, 0x1000 + k, 0);

			step(&e);
			if (k == s) {
				assert_int_equal(rd(TOS), tos);
			} else {
				assert_int_equal(rd(TOS), (tos + 1) % 16);
				assert_int_equal(from_k(&nhm, 0), e.rip);
			}
		}
	}
}

static void test_select_cpl(void **state)
{
	static const struct {
		uint64_t select;
		int at[4];		/* recorded at CPL 0..3 */
	} cases[] = {
		{ 0, { 1, 1, 1, 1 } },
		{ SEL_CPL_EQ_0, { 0, 1, 1, 1 } },
		{ SEL_CPL_NEQ_0, { 1, 0, 0, 0 } },
		{ SEL_CPL_EQ_0 | SEL_CPL_NEQ_0, { 0, 0, 0, 0 } },
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		use(&nhm);
		wr(LBR_SELECT, cases[i].select);
		for (unsigned cpl = 0; cpl < 4; cpl++) {
			uint64_t tos = rd(TOS);
			struct insn_event e = br(0x1000, 0x2000, JCC, cpl);

			step(&e);
			assert_int_equal(rd(TOS),
					 (tos + cases[i].at[cpl]) % 16);
		}
	}
}

/* Bits 63:9 reserved on Nehalem (bit 9 exists from Haswell): #GP, the
 * register unchanged. */
static void test_select_reserved(void **state)
{
	static const uint64_t bad[] = { SEL_EN_CALLSTACK, 1ull << 10,
					1ull << 31, 1ull << 32, 1ull << 63 };

	(void)state;
	use(&nhm);
	wr(LBR_SELECT, SEL_JCC);
	for (unsigned i = 0; i < N(bad); i++) {
		assert_int_equal(be_wrmsr(LBR_SELECT, bad[i]), GP);
		assert_int_equal(rd(LBR_SELECT), SEL_JCC);
	}
	use(&hsw);
	wr(LBR_SELECT, SEL_EN_CALLSTACK | 0x1ff);
	assert_int_equal(be_wrmsr(LBR_SELECT, 1ull << 10), GP);
}

/* §17.9: call-stack mode, a near RET pops its CALL's record. */
static void test_call_stack_legacy(void **state)
{
	struct insn_event call_a = br(0x1000, 0x2000, CALL_REL, 3);
	struct insn_event call_b = br(0x2010, 0x3000, CALL_IND, 3);
	struct insn_event ret_b = br(0x3010, 0x2015, RET, 3);
	struct insn_event ret_a = br(0x2020, 0x1005, RET, 3);
	uint64_t t0;

	(void)state;
	use(&hsw);
	/* calls and returns only, as call-stack mode is meant to be used */
	wr(LBR_SELECT, SEL_EN_CALLSTACK | SEL_JCC | SEL_NEAR_IND_JMP |
	   SEL_NEAR_REL_JMP | SEL_FAR_BRANCH);
	t0 = rd(TOS);
	step(&call_a);
	step(&call_b);
	assert_int_equal(rd(TOS), (t0 + 2) % 16);
	assert_int_equal(from_k(&hsw, 0), 0x2010);
	step(&ret_b);
	assert_int_equal(rd(TOS), (t0 + 1) % 16);
	assert_int_equal(from_k(&hsw, 0), 0x1000);
	assert_int_equal(to_k(&hsw, 0), 0x2000);
	step(&ret_a);
	assert_int_equal(rd(TOS), t0);
	/* without EN_CALLSTACK a RET is a record like another */
	wr(LBR_SELECT, 0);
	step(&call_a);
	step(&ret_a);
	assert_int_equal(rd(TOS), (t0 + 2) % 16);
	assert_int_equal(from_k(&hsw, 0), 0x2020);
}

/* ==== the P6 */

/* LastBranch holds the last branch; an INT n first copies it into
 * LastException, then becomes the last branch itself.  32-bit
 * addresses. */
static void test_p6(void **state)
{
	struct insn_event intn = br(code(int80_code), 0xc0008000u, FAR, 3);
	struct insn_event iret = br(code(iret_code), 0x00401234u, FAR, 0);
	struct lbr_entry out[2];
	unsigned n;
	struct pmu_err err;

	(void)state;
	use(&p6);
	jmp(0x00401000, 0x00402000);
	jmp(0x00402010, 0x00403000);
	assert_int_equal(rd(P6_BR_FROM), 0x00402010);
	assert_int_equal(rd(P6_BR_TO), 0x00403000);
	assert_int_equal(rd(P6_EX_FROM), 0);
	assert_int_equal(rd(P6_EX_TO), 0);
	step(&intn);
	assert_int_equal(rd(P6_EX_FROM), 0x00402010);
	assert_int_equal(rd(P6_EX_TO), 0x00403000);
	assert_int_equal(rd(P6_BR_FROM), (uint32_t)code(int80_code));
	assert_int_equal(rd(P6_BR_TO), 0xc0008000u);
	/* IRET is no interrupt: LastException stays */
	step(&iret);
	assert_int_equal(rd(P6_BR_FROM), (uint32_t)code(iret_code));
	assert_int_equal(rd(P6_BR_TO), 0x00401234u);
	assert_int_equal(rd(P6_EX_FROM), 0x00402010);
	assert_int_equal(rd(P6_EX_TO), 0x00403000);
	/* lbr_read: the last branch, then the last exception's */
	assert_int_equal(lbr_read(&p6, out, 2, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(out[0].from, (uint32_t)code(iret_code));
	assert_int_equal(out[0].to, 0x00401234u);
	assert_int_equal(out[1].from, 0x00402010);
	assert_int_equal(out[1].to, 0x00403000);
}

/* ==== architectural LBRs */

static void arch_use(uint64_t ctl)
{
	use(&arch);
	debugctl = 0;
	wr(ARCH_CTL, ctl);
}

/* Entry 0 the youngest, the others moved down by one. */
static void test_arch_order(void **state)
{
	(void)state;
	arch_use(CTL_EN | CTL_OS | CTL_USR | CTL_ALL_BRANCHES);
	wr(ARCH_DEPTH, 8);
	for (unsigned i = 0; i < 10; i++) {
		jmp(0x1000 + 0x10 * i, 0x8000 + 0x10 * i);
		assert_int_equal(rd(ARCH_FROM(0)), 0x1000 + 0x10 * i);
		assert_int_equal(rd(ARCH_TO(0)), 0x8000 + 0x10 * i);
	}
	for (unsigned x = 0; x < 8; x++) {
		assert_int_equal(rd(ARCH_FROM(x)), 0x1000 + 0x10 * (9 - x));
		assert_int_equal(rd(ARCH_TO(x)), 0x8000 + 0x10 * (9 - x));
	}
	/* LBREn alone enables: IA32_DEBUGCTL.LBR does not */
	wr(ARCH_CTL, CTL_OS | CTL_USR | CTL_ALL_BRANCHES);
	debugctl = DEBUGCTL_LBR;
	jmp(0x7000, 0x7100);
	assert_int_equal(rd(ARCH_FROM(0)), 0x1000 + 0x10 * 9);
}

/* IA32_LBR_DEPTH: 8(n+1) for each bit n of CPUID.1CH:EAX[7:0], #GP on
 * any other; a write zeroes every record; entries >= DEPTH #GP. */
static void test_arch_depth(void **state)
{
	static const struct {
		uint64_t depth;
		int ok;
	} cases[] = {
		{ 8, 1 }, { 16, 1 }, { 24, 0 }, { 32, 1 }, { 0, 0 }, { 7, 0 },
		{ 40, 0 }, { 64, 0 }, { 1ull << 32 | 8, 0 },
	};
	uint64_t v;

	(void)state;
	arch_use(CTL_EN | CTL_OS | CTL_USR | CTL_ALL_BRANCHES);
	for (unsigned i = 0; i < N(cases); i++) {
		wr(ARCH_DEPTH, 16);
		assert_int_equal(be_wrmsr(ARCH_DEPTH, cases[i].depth),
				 cases[i].ok ? 0 : GP);
		assert_int_equal(rd(ARCH_DEPTH),
				 cases[i].ok ? cases[i].depth : 16);
	}
	wr(ARCH_DEPTH, 16);
	for (unsigned i = 0; i < 5; i++)
		jmp(0x1000 + i, 0x2000 + i);
	assert_int_equal(rd(ARCH_FROM(4)), 0x1000);
	wr(ARCH_DEPTH, 16);
	for (unsigned x = 0; x < 16; x++) {
		assert_int_equal(rd(ARCH_FROM(x)), 0);
		assert_int_equal(rd(ARCH_TO(x)), 0);
		assert_int_equal(rd(ARCH_INFO(x)), 0);
	}
	wr(ARCH_DEPTH, 8);
	assert_int_equal(be_rdmsr(ARCH_FROM(7), &v), 0);
	assert_int_equal(be_rdmsr(ARCH_FROM(8), &v), GP);
	assert_int_equal(be_rdmsr(ARCH_TO(8), &v), GP);
	assert_int_equal(be_rdmsr(ARCH_INFO(31), &v), GP);
	assert_int_equal(be_wrmsr(ARCH_FROM(8), 0), GP);
	assert_int_equal(be_wrmsr(ARCH_INFO(8), 0), GP);
	wr(ARCH_FROM(7), 0x1234);
	assert_int_equal(rd(ARCH_FROM(7)), 0x1234);
}

/* IA32_LBR_CTL: the bits that exist take, reserved ones #GP. */
static void test_arch_ctl_bits(void **state)
{
	static const uint64_t bad[] = { 1ull << 4, 1ull << 15, 1ull << 23,
					1ull << 32, 1ull << 63 };
	uint64_t all = CTL_EN | CTL_OS | CTL_USR | CTL_CALL_STACK |
		       CTL_ALL_BRANCHES;

	(void)state;
	arch_use(0);
	wr(ARCH_CTL, all);
	assert_int_equal(rd(ARCH_CTL), all);
	for (unsigned i = 0; i < N(bad); i++) {
		assert_int_equal(be_wrmsr(ARCH_CTL, CTL_EN | bad[i]), GP);
		assert_int_equal(rd(ARCH_CTL), all);
	}
}

/* OS records at CPL 0, USR at CPL > 0; each of bits 22:16 records its
 * class alone. */
static void test_arch_filters(void **state)
{
	static const struct {
		uint64_t cpls;
		int at[4];
	} cpl_cases[] = {
		{ CTL_OS, { 1, 0, 0, 0 } },
		{ CTL_USR, { 0, 1, 1, 1 } },
		{ CTL_OS | CTL_USR, { 1, 1, 1, 1 } },
		{ 0, { 0, 0, 0, 0 } },
	};

	(void)state;
	for (unsigned i = 0; i < N(cpl_cases); i++) {
		arch_use(CTL_EN | cpl_cases[i].cpls | CTL_ALL_BRANCHES);
		for (unsigned cpl = 0; cpl < 4; cpl++) {
			struct insn_event e = br(0x1000 + cpl, 0x2000, JCC,
						 cpl);

			wr(ARCH_DEPTH, 32);
			step(&e);
			assert_int_equal(rd(ARCH_FROM(0)),
					 cpl_cases[i].at[cpl] ? e.rip : 0);
		}
	}
	for (unsigned s = 0; s < N(classes); s++) {
		arch_use(CTL_EN | CTL_OS | CTL_USR | classes[s].ctl);
		for (unsigned k = 0; k < N(classes); k++) {
			struct insn_event e = of_class(k, 0x1000 + k, 3);

			wr(ARCH_DEPTH, 32);
			step(&e);
			assert_int_equal(rd(ARCH_FROM(0)), k == s ? e.rip : 0);
		}
	}
}

/* IA32_LBR_x_INFO: BR_TYPE per class (ECX[2]), CYC_CNT with
 * CYC_CNT_VALID (ECX[1]), saturating; neither without its bit. */
static void test_arch_info(void **state)
{
	struct lbr_layout quiet = arch;
	struct insn_event e = br(0x1000, 0x2000, JCC, 0);
	uint64_t info;

	(void)state;
	arch_use(CTL_EN | CTL_OS | CTL_USR | CTL_ALL_BRANCHES);
	for (unsigned k = 0; k < N(classes); k++) {
		struct insn_event c = of_class(k, 0x1000 + k, 3);

		step(&c);
		info = rd(ARCH_INFO(0));
		if (classes[k].br_type & 8)
			assert_true(INFO_BR_TYPE(info) & 8);
		else
			assert_int_equal(INFO_BR_TYPE(info), classes[k].br_type);
		assert_int_equal(info & (INFO_MISPRED | INFO_IN_TX |
					 INFO_ABORT), 0);
	}
	lbr_model_step(&e, debugctl, 0, 5000);
	lbr_model_step(&e, debugctl, 0, 5007);
	info = rd(ARCH_INFO(0));
	assert_true(info & INFO_CYC_VALID);
	assert_int_equal(INFO_CYC(info), 7);
	lbr_model_step(&e, debugctl, 0, 5007 + 0x10000);
	assert_int_equal(INFO_CYC(rd(ARCH_INFO(0))), 0xffff);

	/* ECX[1] (timed LBRs) clear: no valid cycle count */
	quiet.arch_ecx = 0;
	use(&quiet);
	debugctl = 0;
	wr(ARCH_CTL, CTL_EN | CTL_OS | CTL_USR | CTL_ALL_BRANCHES);
	lbr_model_step(&e, debugctl, 0, 5000);
	lbr_model_step(&e, debugctl, 0, 5007);
	assert_false(rd(ARCH_INFO(0)) & INFO_CYC_VALID);
}

/* Call-stack mode: a recorded near RET pops the youngest record, the
 * others move up. */
static void test_arch_call_stack(void **state)
{
	struct insn_event call_a = br(0x1000, 0x2000, CALL_REL, 3);
	struct insn_event call_b = br(0x2010, 0x3000, CALL_REL, 3);
	struct insn_event ret_b = br(0x3010, 0x2015, RET, 3);

	(void)state;
	arch_use(CTL_EN | CTL_OS | CTL_USR | CTL_CALL_STACK |
		 CTL_ALL_BRANCHES);
	jmp(0x0100, 0x0200);
	step(&call_a);
	step(&call_b);
	assert_int_equal(rd(ARCH_FROM(0)), 0x2010);
	step(&ret_b);
	assert_int_equal(rd(ARCH_FROM(0)), 0x1000);
	assert_int_equal(rd(ARCH_TO(0)), 0x2000);
	assert_int_equal(rd(ARCH_FROM(1)), 0x0100);
	assert_int_equal(rd(ARCH_FROM(2)), 0);
}

/* ==== pmu/lbr.c's interface */

/* The filter as register values: LBR_SELECT suppresses what is not
 * asked (Table 17-11), IA32_LBR_CTL records what is. */
static void test_filter_regs(void **state)
{
	struct lbr_filter user_calls = {
		.cpls = PMU_CPL(1) | PMU_CPL(2) | PMU_CPL(3),
		.branches = 1u << LBR_BR_NEAR_REL_CALL | 1u << LBR_BR_NEAR_RET,
	};
	struct lbr_filter all = { .cpls = PMU_CPLS_ALL,
				  .branches = LBR_BR_ALL };
	struct lbr_filter stack = all;
	uint64_t select, ctl;
	struct pmu_err err;

	(void)state;
	assert_int_equal(lbr_filter_regs(&nhm, &user_calls, &select, &ctl,
					 &err), 0);
	assert_int_equal(select, SEL_CPL_EQ_0 | SEL_JCC | SEL_NEAR_IND_CALL |
			 SEL_NEAR_IND_JMP | SEL_NEAR_REL_JMP | SEL_FAR_BRANCH);
	assert_int_equal(lbr_filter_regs(&nhm, &all, &select, &ctl, &err), 0);
	assert_int_equal(select, 0);
	assert_int_equal(lbr_filter_regs(&arch, &user_calls, &select, &ctl,
					 &err), 0);
	assert_int_equal(ctl, CTL_EN | CTL_USR | 1ull << 19 | 1ull << 21);
	assert_int_equal(lbr_filter_regs(&arch, &all, &select, &ctl, &err),
			 0);
	assert_int_equal(ctl, CTL_EN | CTL_OS | CTL_USR | CTL_ALL_BRANCHES);
	stack.call_stack = 1;
	assert_int_equal(lbr_filter_regs(&hsw, &stack, &select, &ctl, &err),
			 0);
	assert_int_equal(select, SEL_EN_CALLSTACK);
	assert_int_equal(lbr_filter_regs(&arch, &stack, &select, &ctl, &err),
			 0);
	assert_int_equal(ctl, CTL_EN | CTL_OS | CTL_USR | CTL_CALL_STACK |
			 CTL_ALL_BRANCHES);
	/* what the hardware cannot: no EN_CALLSTACK before Haswell, no
	 * filter at all without MSR_LBR_SELECT */
	assert_int_equal(lbr_filter_regs(&nhm, &stack, &select, &ctl, &err),
			 -1);
	assert_int_equal(lbr_filter_regs(&core2, &user_calls, &select, &ctl,
					 &err), -1);
	assert_int_equal(lbr_filter_regs(&core2, &all, &select, &ctl, &err),
			 0);
}

/* A legacy stack end to end: enable writes LBR_SELECT and sets
 * DEBUGCTL.LBR keeping BTF; read gives the newest first; clear zeroes
 * every pair; disable clears DEBUGCTL.LBR alone. */
static void test_interface_legacy(void **state)
{
	struct lbr_filter user_jcc = { .cpls = PMU_CPL(3),
				       .branches = 1u << LBR_BR_COND };
	struct lbr_entry out[16];
	unsigned n;
	struct pmu_err err;
	struct insn_event k0 = br(0x9000, 0x9100, JCC, 0);

	(void)state;
	use(&nhm);
	debugctl = DEBUGCTL_BTF;
	assert_int_equal(lbr_enable(&nhm, &user_jcc, &err), 0);
	assert_int_equal(rd(LBR_SELECT), SEL_CPL_EQ_0 | SEL_NEAR_REL_CALL |
			 SEL_NEAR_IND_CALL | SEL_NEAR_RET | SEL_NEAR_IND_JMP |
			 SEL_NEAR_REL_JMP | SEL_FAR_BRANCH);
	assert_int_equal(debugctl, DEBUGCTL_BTF | DEBUGCTL_LBR);
	for (unsigned i = 0; i < 3; i++) {
		struct insn_event e = br(0x1000 + 0x10 * i,
					 0x2000 + 0x10 * i, JCC, 3);

		step(&e);
	}
	step(&k0);		/* CPL 0: suppressed */
	jmp(0x5000, 0x5100);	/* a JMP: suppressed */
	assert_int_equal(lbr_read(&nhm, out, 16, &n, &err), 0);
	assert_int_equal(n, 16);
	for (unsigned k = 0; k < 3; k++) {
		assert_int_equal(out[k].from, 0x1000 + 0x10 * (2 - k));
		assert_int_equal(out[k].to, 0x2000 + 0x10 * (2 - k));
		assert_int_equal(out[k].mispred, 0);
	}
	assert_int_equal(out[3].from, 0);
	assert_int_equal(lbr_read(&nhm, out, 2, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(lbr_clear(&nhm, &err), 0);
	for (unsigned i = 0; i < 16; i++) {
		assert_int_equal(rd(NHM_FROM + i), 0);
		assert_int_equal(rd(NHM_TO + i), 0);
	}
	assert_int_equal(lbr_disable(&nhm, &err), 0);
	assert_int_equal(debugctl, DEBUGCTL_BTF);
}

/* Architectural LBRs end to end: enable writes IA32_LBR_CTL, read goes
 * by IA32_LBR_DEPTH, clear rewrites it (zeroing every record), disable
 * writes LBR_CTL 0. */
static void test_interface_arch(void **state)
{
	struct lbr_filter os_cond = { .cpls = PMU_CPL0,
				      .branches = 1u << LBR_BR_COND };
	struct lbr_entry out[32];
	unsigned n;
	struct pmu_err err;

	(void)state;
	use(&arch);
	debugctl = 0;
	wr(ARCH_DEPTH, 16);
	assert_int_equal(lbr_enable(&arch, &os_cond, &err), 0);
	assert_int_equal(rd(ARCH_CTL), CTL_EN | CTL_OS | CTL_COND);
	for (unsigned i = 0; i < 3; i++) {
		struct insn_event e = br(0x1000 + 0x10 * i,
					 0x2000 + 0x10 * i, JCC, 0);

		step(&e);
	}
	jmp(0x5000, 0x5100);	/* CPL 3, a JMP: not recorded */
	assert_int_equal(lbr_read(&arch, out, 32, &n, &err), 0);
	assert_int_equal(n, 16);
	for (unsigned k = 0; k < 3; k++) {
		assert_int_equal(out[k].from, 0x1000 + 0x10 * (2 - k));
		assert_int_equal(out[k].to, 0x2000 + 0x10 * (2 - k));
		assert_int_equal(out[k].br_type, 0);	/* COND */
	}
	assert_int_equal(out[3].from, 0);
	assert_int_equal(lbr_clear(&arch, &err), 0);
	assert_int_equal(rd(ARCH_DEPTH), 16);
	for (unsigned x = 0; x < 16; x++)
		assert_int_equal(rd(ARCH_FROM(x)), 0);
	assert_int_equal(lbr_disable(&arch, &err), 0);
	assert_int_equal(rd(ARCH_CTL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_what_records),
		cmocka_unit_test(test_lbr_bit),
		cmocka_unit_test(test_one_msr),
		cmocka_unit_test(test_decode_formats),
		cmocka_unit_test(test_record_formats),
		cmocka_unit_test(test_info_cycles),
		cmocka_unit_test(test_select_classes),
		cmocka_unit_test(test_select_cpl),
		cmocka_unit_test(test_select_reserved),
		cmocka_unit_test(test_call_stack_legacy),
		cmocka_unit_test(test_p6),
		cmocka_unit_test(test_arch_order),
		cmocka_unit_test(test_arch_depth),
		cmocka_unit_test(test_arch_ctl_bits),
		cmocka_unit_test(test_arch_filters),
		cmocka_unit_test(test_arch_info),
		cmocka_unit_test(test_arch_call_stack),
		cmocka_unit_test(test_filter_regs),
		cmocka_unit_test(test_interface_legacy),
		cmocka_unit_test(test_interface_arch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
