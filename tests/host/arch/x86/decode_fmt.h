/* decode_fmt: the memory accesses of a decode (arch/x86/decode.h) written
 * out the way the host tests' tables write them, e.g.
 * "load 4 addr32 0x8(%ecx); store 4 addr32 -0x4(%esp)", "none" or
 * "unknown".  Shared by test_decode.c (64-bit mode: %rax ...) and
 * test_decode32.c (32-bit mode: %eax ...); the mode picks the register
 * names.  Test-only: static functions, each test includes it once. */
#ifndef TESTS_HOST_DECODE_FMT_H
#define TESTS_HOST_DECODE_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arch/x86/decode.h"

/* Register numbers 0-15 by mode (only 0-7 occur in 32-bit mode). */
static const char *const dec_reg_names[][16] = {
	[DEC_MODE_64] = {
		"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
		"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	},
	[DEC_MODE_32] = {
		"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
		"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	},
};

static size_t fmt_reg(char *buf, size_t size, unsigned r,
		      enum dec_mode mode)
{
	if (r == MEM_RIP)
		return (size_t)snprintf(buf, size, "%%rip");
	if (r < 16)
		return (size_t)snprintf(buf, size, "%%%s",
					dec_reg_names[mode][r]);
	return (size_t)snprintf(buf, size, "?%u", r);
}

/* One operand in the form the tables use.  "addr16 " only ever shows in
 * 32-bit mode: the decoder sets MEM_ADDR16 in no other. */
static size_t fmt_operand(char *buf, size_t size, const struct mem_operand *m,
			  enum dec_mode mode)
{
	size_t at = (size_t)snprintf(buf, size, "%s %u %s%s%s%s",
				     m->flags & MEM_STORE ? "store" : "load",
				     m->size,
				     m->flags & MEM_ADDR32 ? "addr32 " : "",
				     m->flags & MEM_ADDR16 ? "addr16 " : "",
				     m->flags & MEM_FS ? "fs:" : "",
				     m->flags & MEM_GS ? "gs:" : "");

	at += (size_t)snprintf(buf + at, size - at, "%s0x%x",
			       m->disp < 0 ? "-" : "",
			       m->disp < 0 ? (unsigned)-(int64_t)m->disp :
			       (unsigned)m->disp);
	if (m->base == MEM_NOREG && m->index == MEM_NOREG)
		return at;
	at += (size_t)snprintf(buf + at, size - at, "(");
	if (m->base != MEM_NOREG)
		at += fmt_reg(buf + at, size - at, m->base, mode);
	if (m->index != MEM_NOREG) {
		at += (size_t)snprintf(buf + at, size - at, ",");
		at += fmt_reg(buf + at, size - at, m->index, mode);
		at += (size_t)snprintf(buf + at, size - at, ",%u",
				       1u << m->scale);
	}
	return at + (size_t)snprintf(buf + at, size - at, ")");
}

/* All of k's accesses, "; " between them; "unknown" with DEC_MEM_UNKNOWN,
 * "none" when there are none. */
static void fmt_mem(char *buf, size_t size, struct insn_class k,
		    enum dec_mode mode)
{
	size_t at = 0;

	buf[0] = 0;
	if (k.flags & DEC_MEM_UNKNOWN) {
		snprintf(buf, size, "unknown");
		return;
	}
	if (!k.n_mem)
		snprintf(buf, size, "none");
	for (unsigned i = 0; i < k.n_mem && at < size; i++) {
		if (i)
			at += (size_t)snprintf(buf + at, size - at, "; ");
		at += fmt_operand(buf + at, size - at, &k.mem[i], mode);
	}
}

#endif
