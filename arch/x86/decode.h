/* decode: the single-step oracle's instruction classifier.  Pure logic
 * (host-tested): given the bytes at an instruction's address in 64-bit
 * mode, it tells the length, the branch class, the data memory accesses
 * the encoding implies, and whether it is a REP string instruction.  What
 * it does not know it marks DEC_UNCLASSIFIED, never guesses. */
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
};

struct insn_class {
	uint8_t length;		/* 0 when unclassified */
	uint16_t flags;
	uint8_t loads, stores;	/* per execution (per iteration for REP) */
};

/* Decodes up to 15 bytes at code.  Returns the class (flags may be
 * DEC_UNCLASSIFIED). */
struct insn_class decode_insn(const uint8_t *code);

#endif
