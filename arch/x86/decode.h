/* decode: the single-step oracle's instruction classifier.  Pure logic
 * (host-tested): given the bytes at an instruction's address in 64-bit
 * mode or in 32-bit protected mode (enum dec_mode), it tells the length,
 * the branch class, the data memory accesses the encoding implies and
 * how to compute their addresses, and whether it is a REP string
 * instruction.  What it does not know it marks
 * DEC_UNCLASSIFIED (or DEC_MEM_UNKNOWN for addresses), never guesses. */
#ifndef ARCH_X86_DECODE_H
#define ARCH_X86_DECODE_H

#include <stdint.h>

enum {
	DEC_BRANCH = 1u << 0,	/* near branch of any kind */
	DEC_COND = 1u << 1,	/* Jcc, LOOPcc, JrCXZ */
	DEC_CALL = 1u << 2,	/* near CALL */
	DEC_RET = 1u << 3,	/* near RET */
	DEC_INDIRECT = 1u << 4,	/* target from a register or memory */
	DEC_FAR = 1u << 5,	/* INT n, INT3, IRET, far CALL/JMP/RET, SYSCALL... */
	DEC_REP_STRING = 1u << 6, /* REP-prefixed string instruction */
	DEC_SEGLOAD = 1u << 7,	/* loads a segment register */
	DEC_SERIALIZE = 1u << 8, /* CPUID, IRET... (SDM Vol. 3A §9.3) */
	DEC_UNCLASSIFIED = 1u << 9,
	DEC_MEM_UNKNOWN = 1u << 10, /* accesses mem[] does not describe */
};

/*
 * One data memory access, described the way the CPU forms its address
 * (SDM Vol. 2A §2.1.5 Tables 2-2 and 2-3, §2.2.1.2 Table 2-5, §2.2.1.6;
 * order no. 253666): linear = segment base + (base + (index << scale) +
 * disp), where base is a GPR, the next instruction's RIP (RIP-relative),
 * or none.  With the 67 prefix the sum wraps to 32 bits before the segment
 * base is added.  In 64-bit mode only FS and GS have a base (SDM Vol. 3A
 * §3.2.4, order no. 253668); CS/DS/ES/SS overrides change nothing.
 *
 * Implicit operands are described the same way, from the registers as
 * they were before the instruction: a push stores at RSP - size, a pop or
 * RET loads at RSP, LEAVE loads at RBP, string instructions use RSI (its
 * segment overridable) and RDI (ES: never overridden).  POP to memory
 * addressed through RSP computes its address after RSP is incremented
 * (SDM Vol. 2B POP, order no. 253667): the size is folded into disp.
 *
 * 32-bit protected mode (DEC_MODE_32; SDM Vol. 2A §2.1.5 Tables 2-1, 2-2
 * and 2-3): the default operand and address sizes are 32 bits (a code
 * segment with D = 1), there is no REX (40h-4Fh are INC/DEC r32), ModRM
 * mod=00 rm=101 is an absolute disp32 (no RIP-relative form), 66 makes
 * operands 16-bit and 67 selects the 16-bit ModRM forms of Table 2-1
 * ([BX+SI] ... with disp8/disp16, no SIB).  PUSH, POP, CALL and RET move
 * 4 bytes (2 with 66).  Every offset wraps to 32 bits (MEM_ADDR32 is set
 * on every operand, the stack's included: SS has B = 1), to 16 with 67
 * (MEM_ADDR16).  Segment bases: every segment has one in this mode, but
 * the harness's 32-bit build runs with flat CS, DS, ES and SS (base 0,
 * boot/bios), so only an FS or GS override is recorded (MEM_FS, MEM_GS;
 * the tracer reads that base from the segment's descriptor) and CS/DS/ES/
 * SS overrides, like the defaults, are taken as base 0.  Register numbers
 * are 0-7 (EAX ... EDI); MEM_RIP never occurs.
 */
enum {
	MEM_NOREG = 0xff,	/* base or index: none */
	MEM_RIP = 0xfe,		/* base: the next instruction */
};

enum {
	MEM_STORE = 1u << 0,	/* a store (else a load) */
	MEM_ADDR32 = 1u << 1,	/* 67: the offset wraps to 32 bits */
	MEM_FS = 1u << 2,	/* FS base added (IA32_FS_BASE) */
	MEM_GS = 1u << 3,	/* GS base added (IA32_GS_BASE) */
	MEM_ADDR16 = 1u << 4,	/* 32-bit mode with 67: 16-bit addressing,
				 * the offset wraps to 16 bits */
};

struct mem_operand {
	int32_t disp;
	uint8_t base;		/* GPR number (RAX 0, RCX 1 ... R15 15),
				 * MEM_RIP or MEM_NOREG */
	uint8_t index;		/* GPR number or MEM_NOREG */
	uint8_t scale;		/* log2 of the index multiplier, 0-3 */
	uint8_t size;		/* bytes accessed: 1, 2, 4 or 8 */
	uint8_t flags;		/* MEM_* */
};

/* The most accesses a classified form makes with known addresses: a
 * read-modify-write, MOVS, CMPS, PUSH m, POP m, CALL m, far RET. */
#define DEC_MAX_MEM 2

struct insn_class {
	uint8_t length;		/* 0 when unclassified */
	uint16_t flags;
	uint8_t loads, stores;	/* per execution (per iteration for REP) */
	uint8_t n_mem;		/* accesses in mem[], in the order the
				 * instruction makes them: loads + stores,
				 * unless DEC_MEM_UNKNOWN */
	struct mem_operand mem[DEC_MAX_MEM];
};

enum dec_mode {
	DEC_MODE_64,		/* 64-bit mode (the UEFI build) */
	DEC_MODE_32,		/* 32-bit protected mode, CS.D = 1, flat
				 * (the legacy-BIOS build) */
};

/* The mode the harness itself runs in: what its tracer decodes. */
#if defined(__x86_64__)
#define DEC_MODE_BUILD DEC_MODE_64
#else
#define DEC_MODE_BUILD DEC_MODE_32
#endif

/* Decodes up to 15 bytes at code in the given mode.  Returns the class
 * (flags may be DEC_UNCLASSIFIED). */
struct insn_class decode_insn_mode(const uint8_t *code, enum dec_mode mode);

/* Decodes in the build's own mode (DEC_MODE_BUILD): what the tracer and
 * the BTS checks see executing.  Host tests name the mode. */
static inline struct insn_class decode_insn(const uint8_t *code)
{
	return decode_insn_mode(code, DEC_MODE_BUILD);
}

/* The offset of m within its segment, from the general-purpose registers
 * before the instruction (encoding order, as mem_operand numbers them;
 * in 32-bit mode 0-7 holding the 32-bit values) and the address of the
 * instruction after it (RIP-relative).  Add the FS or GS base when
 * m->flags says so. */
static inline uint64_t mem_offset(const struct mem_operand *m,
				  const uint64_t gpr[16], uint64_t next_rip)
{
	uint64_t a = (uint64_t)(int64_t)m->disp;

	if (m->base == MEM_RIP)
		a += next_rip;
	else if (m->base != MEM_NOREG)
		a += gpr[m->base & 15];
	if (m->index != MEM_NOREG)
		a += gpr[m->index & 15] << m->scale;
	if (m->flags & MEM_ADDR16)
		return (uint16_t)a;
	return m->flags & MEM_ADDR32 ? (uint32_t)a : a;
}

#endif
