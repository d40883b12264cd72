/* decode: the single-step oracle's instruction classifier.  Pure logic
 * (host-tested): given the bytes at an instruction's address in 64-bit
 * mode, it tells the length, the branch class, the data memory accesses
 * the encoding implies and how to compute their addresses, and whether it
 * is a REP string instruction.  What it does not know it marks
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

/* Decodes up to 15 bytes at code.  Returns the class (flags may be
 * DEC_UNCLASSIFIED). */
struct insn_class decode_insn(const uint8_t *code);

/* The offset of m within its segment, from the general-purpose registers
 * before the instruction (encoding order, as mem_operand numbers them)
 * and the address of the instruction after it (RIP-relative).  Add the FS
 * or GS base when m->flags says so. */
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
	return m->flags & MEM_ADDR32 ? (uint32_t)a : a;
}

#endif
