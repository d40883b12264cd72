/* Host tests for arch/x86/decode.c: decode_insn(), the single-step oracle's
 * instruction classifier.  Tables of encodings with their expected length,
 * flags and data accesses (loads/stores, stack included), generated tables
 * for the opcode families, encodings that must be unclassified, and a walk
 * over every benchmark routine of bench/ (assembled into this test by
 * tests/host/arch/x86/decode_benches.S).
 *
 * Every classified encoding lists exactly its own bytes, so the table
 * checks itself (listed bytes == expected length), and each is decoded
 * twice, followed by 0x00 bytes and by 0xff bytes: what comes after an
 * instruction must not change its class.  The lengths were cross-checked
 * against GNU objdump when the tables were written, and the 15-byte limit
 * and REX.W-over-66 cases by running them on an x86-64 host. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch/x86/decode.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/host/arch/x86/dec_flags.h"
#include "tests/host/arch/x86/decode_fmt.h"

/* host-sources: arch/x86/decode.c tests/host/arch/x86/decode_benches.S */

#define N(a) (sizeof(a) / sizeof((a)[0]))


#define ANY 0xff	/* loads or stores: not checked */

struct dcase {
	char what[56];		/* the instruction, as objdump shows it */
	uint8_t length, loads, stores;
	uint16_t flags;
	uint16_t ignore;	/* flag bits not checked */
	uint8_t n;		/* bytes listed */
	uint8_t bytes[24];
};

/* I(what, length, flags, loads, stores, bytes...) */
#define I(what, len, fl, ld, st, ...)                                        \
	{ what, len, ld, st, fl, 0,                                          \
	  sizeof((uint8_t[]){ __VA_ARGS__ }), { __VA_ARGS__ } }
/* IX: as I, with flag bits ig left unchecked. */
#define IX(what, len, fl, ig, ld, st, ...)                                   \
	{ what, len, ld, st, fl, ig,                                         \
	  sizeof((uint8_t[]){ __VA_ARGS__ }), { __VA_ARGS__ } }
/* U(what, bytes...): must be unclassified. */
#define U(what, ...)                                                         \
	{ what, 0, 0, 0, DEC_UNCLASSIFIED, 0,                                \
	  sizeof((uint8_t[]){ __VA_ARGS__ }), { __VA_ARGS__ } }

#define D32 0x78, 0x56, 0x34, 0x12	/* a disp32 or imm32 */
#define I16 0x34, 0x12
#define I64 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11
#define CS14 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e,  \
	0x2e, 0x2e, 0x2e, 0x2e

/* ---- ModRM, SIB and displacement shapes (ADD Ev,Gv: read-modify-write) */
static const struct dcase t_modrm[] = {
	I("add %eax,%ebx (mod 3)", 2, 0, 0, 0, 0x01, 0xc3),
	I("add %eax,(%rbx) (mod 0)", 2, 0, 1, 1, 0x01, 0x03),
	I("add %eax,0x8(%rbx) (mod 1)", 3, 0, 1, 1, 0x01, 0x43, 0x08),
	I("add %eax,-0x80(%rbx)", 3, 0, 1, 1, 0x01, 0x43, 0x80),
	I("add %eax,0x12345678(%rbx) (mod 2)", 6, 0, 1, 1, 0x01, 0x83, D32),
	I("add %eax,(%rsp) (SIB)", 3, 0, 1, 1, 0x01, 0x04, 0x24),
	I("add %eax,0x8(%rsp) (SIB mod 1)", 4, 0, 1, 1,
	  0x01, 0x44, 0x24, 0x08),
	I("add %eax,0x12345678(%rsp) (SIB mod 2)", 7, 0, 1, 1,
	  0x01, 0x84, 0x24, D32),
	I("add %eax,(%rbx,%rcx,4)", 3, 0, 1, 1, 0x01, 0x04, 0x8b),
	I("add %eax,0x8(%rbx,%rcx,4)", 4, 0, 1, 1, 0x01, 0x44, 0x8b, 0x08),
	I("add %eax,0x12345678 (SIB base 5 mod 0, no index)", 7, 0, 1, 1,
	  0x01, 0x04, 0x25, D32),
	I("add %eax,0x12345678(,%rcx,4) (SIB base 5 mod 0)", 7, 0, 1, 1,
	  0x01, 0x04, 0x8d, D32),
	I("add %eax,0x8(%rbp,%rcx,4) (SIB base 5 mod 1)", 4, 0, 1, 1,
	  0x01, 0x44, 0x8d, 0x08),
	I("add %eax,0x12345678(%rbp,%rcx,4) (SIB base 5 mod 2)", 7, 0, 1, 1,
	  0x01, 0x84, 0x8d, D32),
	I("add %eax,0x0(%rbp) (rm 5 mod 1)", 3, 0, 1, 1, 0x01, 0x45, 0x00),
	I("add %eax,0x12345678(%rip) (rm 5 mod 0)", 6, 0, 1, 1,
	  0x01, 0x05, D32),
	I("add %eax,(%r12) (REX.B, rm 4: SIB)", 4, 0, 1, 1,
	  0x41, 0x01, 0x04, 0x24),
	I("add %eax,0x0(%r13) (REX.B, rm 5 mod 1)", 4, 0, 1, 1,
	  0x41, 0x01, 0x45, 0x00),
	I("rex.B add %eax,0x12345678(%rip) (still RIP)", 7, 0, 1, 1,
	  0x41, 0x01, 0x05, D32),
	I("rex.B add %eax,0x12345678 (SIB base 5 mod 0, REX.B)", 8, 0, 1, 1,
	  0x41, 0x01, 0x04, 0x25, D32),
	I("add %rax,(%rax,%r12,1) (REX.WX)", 4, 0, 1, 1,
	  0x4a, 0x01, 0x04, 0x20),
	I("add %r8,%r9 (REX.WRB)", 3, 0, 0, 0, 0x4d, 0x01, 0xc1),
	I("add %r14,0x8(%r12,%r12,8)", 5, 0, 1, 1,
	  0x4f, 0x01, 0x74, 0xe4, 0x08),
};

/* ---- Legacy prefixes, REX, immediates */
static const struct dcase t_prefix[] = {
	I("add %ax,(%rbx) (66)", 3, 0, 1, 1, 0x66, 0x01, 0x03),
	I("add $0x12345678,%eax", 5, 0, 0, 0, 0x05, D32),
	I("add $0x1234,%ax (66: Iz is 2 bytes)", 4, 0, 0, 0, 0x66, 0x05, I16),
	I("add $0x12345678,%rax (REX.W: Iz stays 4)", 6, 0, 0, 0,
	  0x48, 0x05, D32),
	I("add %eax,(%ebx) (67)", 3, 0, 1, 1, 0x67, 0x01, 0x03),
	I("add %eax,0x8(%ebx) (67)", 4, 0, 1, 1, 0x67, 0x01, 0x43, 0x08),
	I("lock add %eax,(%rbx)", 3, 0, 1, 1, 0xf0, 0x01, 0x03),
	I("add %eax,%fs:(%rbx)", 3, 0, 1, 1, 0x64, 0x01, 0x03),
	I("add %eax,%gs:0x8(%rbx)", 4, 0, 1, 1, 0x65, 0x01, 0x43, 0x08),
	I("add %eax,%cs:(%rbx)", 3, 0, 1, 1, 0x2e, 0x01, 0x03),
	I("add %eax,%ds:(%rbx)", 3, 0, 1, 1, 0x3e, 0x01, 0x03),
	I("add %eax,%es:(%rbx)", 3, 0, 1, 1, 0x26, 0x01, 0x03),
	I("add %eax,%ss:(%rbx)", 3, 0, 1, 1, 0x36, 0x01, 0x03),
	I("lock addw $0x1234,%cs:0x8(%rbx,%rcx,4)", 9, 0, 1, 1,
	  0xf0, 0x2e, 0x66, 0x81, 0x44, 0x8b, 0x08, I16),
	I("movw $0x1234,(%rbx)", 5, 0, 0, 1, 0x66, 0xc7, 0x03, I16),
	I("movl $0x12345678,(%rbx)", 6, 0, 0, 1, 0xc7, 0x03, D32),
	I("movq $0x12345678,(%rbx)", 7, 0, 0, 1, 0x48, 0xc7, 0x03, D32),
	I("mov $0x12345678,%eax (B8)", 5, 0, 0, 0, 0xb8, D32),
	I("mov $0x1234,%ax (66 B8)", 4, 0, 0, 0, 0x66, 0xb8, I16),
	I("movabs $0x1122334455667788,%rax", 10, 0, 0, 0, 0x48, 0xb8, I64),
	I("movabs $0x1122334455667788,%r15", 10, 0, 0, 0, 0x49, 0xbf, I64),
	I("data16 movabs $0x1122334455667788,%rax (REX.W wins)", 11, 0, 0, 0,
	  0x66, 0x48, 0xb8, I64),
	I("mov $0x12345678,%r9d (REX.B, no W)", 6, 0, 0, 0, 0x41, 0xb9, D32),
	I("mov $0x12,%al", 2, 0, 0, 0, 0xb0, 0x12),
	I("mov $0x12,%r8b", 3, 0, 0, 0, 0x41, 0xb0, 0x12),
	I("movq $0x12345678,%cs:0x12345678(%rax,%rcx,8) (15 bytes)", 15,
	  0, 0, 1,
	  0x2e, 0x2e, 0x2e, 0x48, 0xc7, 0x84, 0xc8, D32, D32),
	/* objdump splits this one; the CPU runs it (and faults on 15 x cs,
	 * nop, below) */
	I("14 x cs, nop (15 bytes)", 15, 0, 0, 0, CS14, 0x90),
	I("rep ret (F3 on a non-string op)", 2, BR | RT | IND, 1, 0,
	  0xf3, 0xc3),
	I("bnd jmp rel32 (F2)", 6, BR, 0, 0, 0xf2, 0xe9, D32),
	I("ds jne rel8 (branch hint)", 3, BR | CND, 0, 0, 0x3e, 0x75, 0x10),
};

/* ---- ALU ops, group 1/2/3 (beyond the generated tables) */
static const struct dcase t_alu[] = {
	I("cmp %al,(%rbx)", 2, 0, 1, 0, 0x38, 0x03),
	I("cmp %eax,(%rbx)", 2, 0, 1, 0, 0x39, 0x03),
	I("cmp (%rbx),%al", 2, 0, 1, 0, 0x3a, 0x03),
	I("cmp (%rbx),%eax", 2, 0, 1, 0, 0x3b, 0x03),
	I("cmp 0x30(%rsi),%rax", 4, 0, 1, 0, 0x48, 0x3b, 0x46, 0x30),
	I("cmp $0x12,%al", 2, 0, 0, 0, 0x3c, 0x12),
	I("cmp $0x12345678,%eax", 5, 0, 0, 0, 0x3d, D32),
	I("sub %rax,0x8(%rsp)", 5, 0, 1, 1, 0x48, 0x29, 0x44, 0x24, 0x08),
	I("xor (%rsi),%rax", 3, 0, 1, 0, 0x48, 0x33, 0x06),
	I("adc %eax,(%rbx)", 2, 0, 1, 1, 0x11, 0x03),
	I("sbb (%rbx),%eax", 2, 0, 1, 0, 0x1b, 0x03),
	I("xor %eax,%eax", 2, 0, 0, 0, 0x31, 0xc0),
	I("addl $0x1,(%rbx)", 3, 0, 1, 1, 0x83, 0x03, 0x01),
	I("cmpl $0x1,(%rbx) (83 /7)", 3, 0, 1, 0, 0x83, 0x3b, 0x01),
	I("cmpb $0x1,(%rbx) (80 /7)", 3, 0, 1, 0, 0x80, 0x3b, 0x01),
	I("cmpl $0x12345678,(%rbx) (81 /7)", 6, 0, 1, 0, 0x81, 0x3b, D32),
	I("cmpw $0x1234,(%rbx) (66 81 /7)", 5, 0, 1, 0,
	  0x66, 0x81, 0x3b, I16),
	I("cmpq $0x1,0x8(%rsp)", 6, 0, 1, 0, 0x48, 0x83, 0x7c, 0x24, 0x08,
	  0x01),
	I("cmpl $0x1,0x12345678(%rip) (imm after disp)", 7, 0, 1, 0,
	  0x83, 0x3d, D32, 0x01),
	I("and $0xfffffffffffffff0,%rsp", 4, 0, 0, 0, 0x48, 0x83, 0xe4, 0xf0),
	I("subq $0x1,(%rsp)", 5, 0, 1, 1, 0x48, 0x83, 0x2c, 0x24, 0x01),
	I("shll (%rbx)", 2, 0, 1, 1, 0xd1, 0x23),
	I("shl $0x4,%rax", 4, 0, 0, 0, 0x48, 0xc1, 0xe0, 0x04),
	I("shll $0x4,(%rbx)", 3, 0, 1, 1, 0xc1, 0x23, 0x04),
	I("sarb %cl,(%rbx)", 2, 0, 1, 1, 0xd2, 0x3b),
	I("rolq %cl,0x8(%rbx)", 4, 0, 1, 1, 0x48, 0xd3, 0x43, 0x08),
	I("shrb $0x2,0x12345678(%rip)", 7, 0, 1, 1, 0xc0, 0x2d, D32, 0x02),
	I("testb $0x1,(%rbx) (F6 /0 has an Ib)", 3, 0, 1, 0, 0xf6, 0x03, 0x01),
	I("testl $0x12345678,(%rbx) (F7 /0 has an Iz)", 6, 0, 1, 0,
	  0xf7, 0x03, D32),
	I("testw $0x1234,(%rbx)", 5, 0, 1, 0, 0x66, 0xf7, 0x03, I16),
	I("test $0x12345678,%rax", 7, 0, 0, 0, 0x48, 0xf7, 0xc0, D32),
	I("test $0x1,%al (F6 C0)", 3, 0, 0, 0, 0xf6, 0xc0, 0x01),
	I("testl $0x1,0x12345678(%rip)", 10, 0, 1, 0, 0xf7, 0x05, D32, D32),
	I("notl (%rbx)", 2, 0, 1, 1, 0xf7, 0x13),
	I("negq 0x8(%rsp)", 5, 0, 1, 1, 0x48, 0xf7, 0x5c, 0x24, 0x08),
	I("not %al", 2, 0, 0, 0, 0xf6, 0xd0),
	I("mull (%rbx)", 2, 0, 1, 0, 0xf7, 0x23),
	I("imulb (%rbx)", 2, 0, 1, 0, 0xf6, 0x2b),
	I("divq 0x8(%rbx)", 4, 0, 1, 0, 0x48, 0xf7, 0x73, 0x08),
	I("idivl (%rbx)", 2, 0, 1, 0, 0xf7, 0x3b),
	I("div %rcx", 3, 0, 0, 0, 0x48, 0xf7, 0xf1),
	I("idiv %r8", 3, 0, 0, 0, 0x49, 0xf7, 0xf8),
	I("test %al,(%rbx)", 2, 0, 1, 0, 0x84, 0x03),
	I("test %eax,(%rbx)", 2, 0, 1, 0, 0x85, 0x03),
	I("test %rcx,0x38(%rsi)", 4, 0, 1, 0, 0x48, 0x85, 0x4e, 0x38),
	I("test %eax,%eax", 2, 0, 0, 0, 0x85, 0xc0),
	I("test $0x12,%al", 2, 0, 0, 0, 0xa8, 0x12),
	I("test $0x12345678,%eax", 5, 0, 0, 0, 0xa9, D32),
	I("test $0x1234,%ax", 4, 0, 0, 0, 0x66, 0xa9, I16),
	I("test $0x12345678,%rax", 6, 0, 0, 0, 0x48, 0xa9, D32),
	I("imul (%rbx),%eax", 3, 0, 1, 0, 0x0f, 0xaf, 0x03),
	I("imul %rcx,%rax", 4, 0, 0, 0, 0x48, 0x0f, 0xaf, 0xc1),
	I("imul $0x12345678,(%rbx),%eax", 6, 0, 1, 0, 0x69, 0x03, D32),
	I("imul $0x1234,%ax,%ax", 5, 0, 0, 0, 0x66, 0x69, 0xc0, I16),
	I("imul $0x12,%eax,%eax", 3, 0, 0, 0, 0x6b, 0xc0, 0x12),
	I("imul $0x12,0x8(%rsp),%rax", 6, 0, 1, 0,
	  0x48, 0x6b, 0x44, 0x24, 0x08, 0x12),
	I("lea 0x8(%rax),%rcx", 4, 0, 0, 0, 0x48, 0x8d, 0x48, 0x08),
	I("lea (%rax,%rcx,4),%rdx", 4, 0, 0, 0, 0x48, 0x8d, 0x14, 0x88),
	I("lea 0x12345678(%rip),%rcx", 7, 0, 0, 0, 0x48, 0x8d, 0x0d, D32),
	I("lea 0x1000(%rsi),%rdi", 7, 0, 0, 0,
	  0x48, 0x8d, 0xbe, 0x00, 0x10, 0x00, 0x00),
	I("lea 0x12345678,%eax", 7, 0, 0, 0, 0x8d, 0x04, 0x25, D32),
	I("incl (%rbx)", 2, 0, 1, 1, 0xff, 0x03),
	I("decq 0x8(%rbx)", 4, 0, 1, 1, 0x48, 0xff, 0x4b, 0x08),
	I("inc %eax", 2, 0, 0, 0, 0xff, 0xc0),
	I("incb (%rbx)", 2, 0, 1, 1, 0xfe, 0x03),
	I("decb (%rbx)", 2, 0, 1, 1, 0xfe, 0x0b),
	I("dec %al", 2, 0, 0, 0, 0xfe, 0xc8),
	I("movzbl (%rbx),%eax", 3, 0, 1, 0, 0x0f, 0xb6, 0x03),
	I("movzwl %ax,%eax", 3, 0, 0, 0, 0x0f, 0xb7, 0xc0),
	I("movzwl 0x8(%rbx),%eax", 4, 0, 1, 0, 0x0f, 0xb7, 0x43, 0x08),
	I("movsbq 0x8(%rbx),%rax", 5, 0, 1, 0, 0x48, 0x0f, 0xbe, 0x43, 0x08),
	I("movsbl %al,%eax", 3, 0, 0, 0, 0x0f, 0xbe, 0xc0),
	I("movswl (%rbx),%eax", 3, 0, 1, 0, 0x0f, 0xbf, 0x03),
	I("movslq (%rsi),%rax", 3, 0, 1, 0, 0x48, 0x63, 0x06),
	I("movslq %eax,%rax", 3, 0, 0, 0, 0x48, 0x63, 0xc0),
	I("cmove (%rbx),%eax (always loads)", 3, 0, 1, 0, 0x0f, 0x44, 0x03),
	I("cmovne 0x12345678(%rip),%rax", 8, 0, 1, 0,
	  0x48, 0x0f, 0x45, 0x05, D32),
	I("sete (%rbx)", 3, 0, 0, 1, 0x0f, 0x94, 0x03),
	I("setne %al", 3, 0, 0, 0, 0x0f, 0x95, 0xc0),
	I("bswap %eax", 2, 0, 0, 0, 0x0f, 0xc8),
	I("bswap %r9", 3, 0, 0, 0, 0x49, 0x0f, 0xc9),
	I("cqto", 2, 0, 0, 0, 0x48, 0x99),
	I("cltd", 1, 0, 0, 0, 0x99),
	I("cwtd", 2, 0, 0, 0, 0x66, 0x99),
	I("cltq", 2, 0, 0, 0, 0x48, 0x98),
	I("cwtl", 1, 0, 0, 0, 0x98),
	I("cmc", 1, 0, 0, 0, 0xf5),
	I("clc", 1, 0, 0, 0, 0xf8),
	I("stc", 1, 0, 0, 0, 0xf9),
	I("cld", 1, 0, 0, 0, 0xfc),
	I("std", 1, 0, 0, 0, 0xfd),
	I("rdtsc", 2, 0, 0, 0, 0x0f, 0x31),
};

/* ---- Control transfers */
static const struct dcase t_branch[] = {
	I("jmp rel32", 5, BR, 0, 0, 0xe9, D32),
	I("jmp rel8", 2, BR, 0, 0, 0xeb, 0x10),
	I("jmp rel8 (backwards)", 2, BR, 0, 0, 0xeb, 0xfe),
	I("call rel32", 5, BR | CL, 0, 1, 0xe8, D32),
	I("ret", 1, BR | RT | IND, 1, 0, 0xc3),
	I("ret $0x10", 3, BR | RT | IND, 1, 0, 0xc2, 0x10, 0x00),
	I("loopne rel8", 2, BR | CND, 0, 0, 0xe0, 0x10),
	I("loope rel8", 2, BR | CND, 0, 0, 0xe1, 0x10),
	I("loop rel8", 2, BR | CND, 0, 0, 0xe2, 0x10),
	I("jrcxz rel8", 2, BR | CND, 0, 0, 0xe3, 0x10),
	I("jecxz rel8 (67)", 3, BR | CND, 0, 0, 0x67, 0xe3, 0x10),
	I("call *%rax", 2, BR | CL | IND, 0, 1, 0xff, 0xd0),
	I("call *%r11", 3, BR | CL | IND, 0, 1, 0x41, 0xff, 0xd3),
	I("call *%rcx", 2, BR | CL | IND, 0, 1, 0xff, 0xd1),
	I("call *(%rax) (mem: loads the target)", 2, BR | CL | IND, 1, 1,
	  0xff, 0x10),
	I("call *0x12345678(%rip)", 6, BR | CL | IND, 1, 1, 0xff, 0x15, D32),
	I("call *0x8(%rax,%rcx,8)", 4, BR | CL | IND, 1, 1,
	  0xff, 0x54, 0xc8, 0x08),
	I("jmp *%rax", 2, BR | IND, 0, 0, 0xff, 0xe0),
	I("jmp *%r9", 3, BR | IND, 0, 0, 0x41, 0xff, 0xe1),
	I("jmp *(%rsi,%rcx,8)", 3, BR | IND, 1, 0, 0xff, 0x24, 0xce),
	I("jmp *0x12345678(%rip)", 6, BR | IND, 1, 0, 0xff, 0x25, D32),
	I("push (%rbx) (FF /6)", 2, 0, 1, 1, 0xff, 0x33),
	I("push 0x8(%rsp)", 4, 0, 1, 1, 0xff, 0x74, 0x24, 0x08),
	I("push %rax (FF F0)", 2, 0, 0, 1, 0xff, 0xf0),
	/* Far transfers.  Not pinned here: the stack accesses of INT n and
	 * IRET (the CPU pushes/pops five slots; the decoder counts none,
	 * where RET far counts its two), nor whether INT n and SYSCALL,
	 * which load CS, say DEC_SEGLOAD as IRET and RET far do.  Their
	 * addresses are not described (MEM_UNKNOWN). */
	IX("int3", 1, FAR | MU, SEG, ANY, ANY, 0xcc),
	IX("int $0x80", 2, FAR | MU, SEG, ANY, ANY, 0xcd, 0x80),
	I("iret (far, serializing)", 1, FAR | SEG | SER | MU, ANY, ANY, 0xcf),
	I("iretq", 2, FAR | SEG | SER | MU, ANY, ANY, 0x48, 0xcf),
	I("lret (pops RIP and CS)", 1, FAR | SEG, 2, 0, 0xcb),
	I("lret $0x8", 3, FAR | SEG, 2, 0, 0xca, 0x08, 0x00),
	I("lretq", 2, FAR | SEG, 2, 0, 0x48, 0xcb),
	IX("syscall", 2, FAR, SEG, 0, 0, 0x0f, 0x05),
	I("cpuid (serializing)", 2, SER, 0, 0, 0x0f, 0xa2),
};

/* ---- NOPs: none accesses memory, whatever operand it names */
static const struct dcase t_nop[] = {
	I("nop", 1, 0, 0, 0, 0x90),
	I("xchg %ax,%ax", 2, 0, 0, 0, 0x66, 0x90),
	I("pause", 2, 0, 0, 0, 0xf3, 0x90),
	I("nop %eax (0F 1F mod 3)", 3, 0, 0, 0, 0x0f, 0x1f, 0xc0),
	I("nopl (%rax)", 3, 0, 0, 0, 0x0f, 0x1f, 0x00),
	I("nopl 0x0(%rax)", 4, 0, 0, 0, 0x0f, 0x1f, 0x40, 0x00),
	I("nopl 0x0(%rax,%rax,1)", 5, 0, 0, 0, 0x0f, 0x1f, 0x44, 0x00, 0x00),
	I("nopw 0x0(%rax,%rax,1)", 6, 0, 0, 0,
	  0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00),
	I("nopl 0x0(%rax) (disp32)", 7, 0, 0, 0,
	  0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00),
	I("nopl 0x0(%rax,%rax,1) (disp32)", 8, 0, 0, 0,
	  0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00),
	I("nopw 0x0(%rax,%rax,1) (disp32)", 9, 0, 0, 0,
	  0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00),
	I("cs nopw 0x0(%rax,%rax,1)", 10, 0, 0, 0,
	  0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00),
	I("data16 cs nopw 0x0(%rax,%rax,1)", 11, 0, 0, 0,
	  0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00),
	I("nopl 0x12345678(%rip)", 7, 0, 0, 0, 0x0f, 0x1f, 0x05, D32),
	I("nopl 0x12345678 (SIB, no base)", 8, 0, 0, 0,
	  0x0f, 0x1f, 0x04, 0x25, D32),
};

/* ---- MOV, XCHG, segment loads */
static const struct dcase t_mov[] = {
	I("mov %al,(%rbx)", 2, 0, 0, 1, 0x88, 0x03),
	I("mov %cl,%al", 2, 0, 0, 0, 0x88, 0xc8),
	I("mov %eax,(%rbx)", 2, 0, 0, 1, 0x89, 0x03),
	I("mov %rax,0x8(%rsi)", 4, 0, 0, 1, 0x48, 0x89, 0x46, 0x08),
	I("mov %rax,%rbx", 3, 0, 0, 0, 0x48, 0x89, 0xc3),
	I("mov %rax,0x12345678(%rip)", 7, 0, 0, 1, 0x48, 0x89, 0x05, D32),
	I("mov (%rbx),%al", 2, 0, 1, 0, 0x8a, 0x03),
	I("mov %al,%cl (8A)", 2, 0, 0, 0, 0x8a, 0xc8),
	I("mov (%rax),%rax", 3, 0, 1, 0, 0x48, 0x8b, 0x00),
	I("mov 0x12345678(%rip),%rax", 7, 0, 1, 0, 0x48, 0x8b, 0x05, D32),
	I("mov %rdi,%rcx (8B)", 3, 0, 0, 0, 0x48, 0x8b, 0xcf),
	I("mov %fs:0x28,%rax", 9, 0, 1, 0,
	  0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00),
	I("movb $0x12,(%rbx)", 3, 0, 0, 1, 0xc6, 0x03, 0x12),
	I("mov $0x12,%al (C6 C0)", 3, 0, 0, 0, 0xc6, 0xc0, 0x12),
	I("movl $0x12345678,0x8(%rsp)", 8, 0, 0, 1,
	  0xc7, 0x44, 0x24, 0x08, D32),
	I("movq $0x12345678,0x12345678(%rbx,%rcx,8)", 12, 0, 0, 1,
	  0x48, 0xc7, 0x84, 0xcb, D32, D32),
	I("movw $0x1234,0x12345678(%rip)", 9, 0, 0, 1,
	  0x66, 0xc7, 0x05, D32, I16),
	I("mov $0x12345678,%eax (C7 C0)", 6, 0, 0, 0, 0xc7, 0xc0, D32),
	I("mov %eax,%ds", 2, SEG, 0, 0, 0x8e, 0xd8),
	I("mov %eax,%fs", 2, SEG, 0, 0, 0x8e, 0xe0),
	I("mov (%rbx),%ds", 2, SEG, 1, 0, 0x8e, 0x1b),
	I("mov 0x8(%rsp),%es", 4, SEG, 1, 0, 0x8e, 0x44, 0x24, 0x08),
	I("xchg %al,(%rbx)", 2, 0, 1, 1, 0x86, 0x03),
	I("xchg %eax,(%rbx)", 2, 0, 1, 1, 0x87, 0x03),
	I("xchg %rax,0x8(%rsp)", 5, 0, 1, 1, 0x48, 0x87, 0x44, 0x24, 0x08),
	I("xchg %eax,%ecx (87)", 2, 0, 0, 0, 0x87, 0xc1),
	I("xchg %al,%cl (86)", 2, 0, 0, 0, 0x86, 0xc1),
	I("xchg %eax,%ecx (91)", 1, 0, 0, 0, 0x91),
	I("xchg %rax,%rdi", 2, 0, 0, 0, 0x48, 0x97),
	I("xchg %rax,%r8", 2, 0, 0, 0, 0x49, 0x90),
};

/* ---- Stack */
static const struct dcase t_stack[] = {
	I("push %rax", 1, 0, 0, 1, 0x50),
	I("push %rdi", 1, 0, 0, 1, 0x57),
	I("push %r8", 2, 0, 0, 1, 0x41, 0x50),
	I("push %r15", 2, 0, 0, 1, 0x41, 0x57),
	I("push %ax", 2, 0, 0, 1, 0x66, 0x50),
	I("pop %rax", 1, 0, 1, 0, 0x58),
	I("pop %rdi", 1, 0, 1, 0, 0x5f),
	I("pop %r8", 2, 0, 1, 0, 0x41, 0x58),
	I("pop %r15", 2, 0, 1, 0, 0x41, 0x5f),
	I("pop (%rbx) (8F /0)", 2, 0, 1, 1, 0x8f, 0x03),
	I("pop 0x8(%rsp)", 4, 0, 1, 1, 0x8f, 0x44, 0x24, 0x08),
	I("pop 0x12345678(%rip)", 6, 0, 1, 1, 0x8f, 0x05, D32),
	I("pop %rax (8F C0)", 2, 0, 1, 0, 0x8f, 0xc0),
	I("push $0x12345678", 5, 0, 0, 1, 0x68, D32),
	I("pushw $0x1234", 4, 0, 0, 1, 0x66, 0x68, I16),
	I("push $0x12", 2, 0, 0, 1, 0x6a, 0x12),
	I("pushf", 1, 0, 0, 1, 0x9c),
	I("popf", 1, 0, 1, 0, 0x9d),
	I("leave", 1, 0, 1, 0, 0xc9),
	I("push %fs", 2, 0, 0, 1, 0x0f, 0xa0),
	I("pop %fs", 2, SEG, 1, 0, 0x0f, 0xa1),
	I("push %gs", 2, 0, 0, 1, 0x0f, 0xa8),
	I("pop %gs", 2, SEG, 1, 0, 0x0f, 0xa9),
};

/* ---- String instructions: accesses per iteration */
static const struct dcase t_string[] = {
	I("movsb", 1, 0, 1, 1, 0xa4),
	I("movsl", 1, 0, 1, 1, 0xa5),
	I("movsw", 2, 0, 1, 1, 0x66, 0xa5),
	I("movsq", 2, 0, 1, 1, 0x48, 0xa5),
	I("rep movsb", 2, REP, 1, 1, 0xf3, 0xa4),
	I("rep movsq", 3, REP, 1, 1, 0xf3, 0x48, 0xa5),
	I("addr32 rep movsb", 3, REP, 1, 1, 0x67, 0xf3, 0xa4),
	I("movsb %fs:(%rsi),%es:(%rdi)", 2, 0, 1, 1, 0x64, 0xa4),
	I("cmpsb", 1, 0, 2, 0, 0xa6),
	I("cmpsl", 1, 0, 2, 0, 0xa7),
	I("repz cmpsb", 2, REP, 2, 0, 0xf3, 0xa6),
	I("repnz cmpsl", 2, REP, 2, 0, 0xf2, 0xa7),
	I("stos %al,%es:(%rdi)", 1, 0, 0, 1, 0xaa),
	I("stos %eax,%es:(%rdi)", 1, 0, 0, 1, 0xab),
	I("rep stos %al,%es:(%rdi)", 2, REP, 0, 1, 0xf3, 0xaa),
	I("rep stos %rax,%es:(%rdi)", 3, REP, 0, 1, 0xf3, 0x48, 0xab),
	I("lods %ds:(%rsi),%al", 1, 0, 1, 0, 0xac),
	I("lods %ds:(%rsi),%eax", 1, 0, 1, 0, 0xad),
	I("rep lods %ds:(%rsi),%al", 2, REP, 1, 0, 0xf3, 0xac),
	I("scas %es:(%rdi),%al", 1, 0, 1, 0, 0xae),
	I("scas %es:(%rdi),%eax", 1, 0, 1, 0, 0xaf),
	I("repnz scas %es:(%rdi),%al", 2, REP, 1, 0, 0xf2, 0xae),
	I("repz scas %es:(%rdi),%eax", 2, REP, 1, 0, 0xf3, 0xaf),
};

/* ---- Must be unclassified (length 0, no accesses) */
static const struct dcase t_unclassified[] = {
	U("ud2", 0x0f, 0x0b),
	U("sgdt (%rax) (0F 01 /0)", 0x0f, 0x01, 0x00),
	U("swapgs (0F 01 F8)", 0x0f, 0x01, 0xf8),
	U("rdtscp (0F 01 F9)", 0x0f, 0x01, 0xf9),
	U("hlt", 0xf4),
	U("int1 (F1)", 0xf1),
	U("EVEX vmovups (%rax),%zmm0", 0x62, 0xf1, 0x7c, 0x48, 0x10, 0x00),
	U("VEX3 vbroadcastss (%rax),%xmm0", 0xc4, 0xe2, 0x79, 0x18, 0x00),
	U("VEX2 vzeroupper", 0xc5, 0xf8, 0x77),
	U("movbe (%rax),%eax (0F 38 F0)", 0x0f, 0x38, 0xf0, 0x00),
	U("pshufb %xmm1,%xmm0 (66 0F 38 00)", 0x66, 0x0f, 0x38, 0x00, 0xc1),
	U("palignr $8,%xmm1,%xmm0 (0F 3A)", 0x66, 0x0f, 0x3a, 0x0f, 0xc1,
	  0x08),
	U("lea with mod 3 (8D C0)", 0x8d, 0xc0),
	U("lea with mod 3, REX.W (48 8D C8)", 0x48, 0x8d, 0xc8),
	U("FE /2 (FE D0)", 0xfe, 0xd0),
	U("FE /2 mem (FE 10)", 0xfe, 0x10),
	U("FE /7 (FE 38)", 0xfe, 0x38),
	U("lcall *(%rax) (FF /3)", 0xff, 0x18),
	U("FF /3 mod 3 (FF D8)", 0xff, 0xd8),
	U("ljmp *(%rax) (FF /5)", 0xff, 0x28),
	U("FF /7 (FF 38)", 0xff, 0x38),
	U("fadd %st(1),%st (D8)", 0xd8, 0xc1),
	U("fld1 (D9)", 0xd9, 0xe8),
	U("fiaddl (%rax) (DA)", 0xda, 0x00),
	U("fninit (DB)", 0xdb, 0xe3),
	U("faddl (%rax) (DC)", 0xdc, 0x00),
	U("fldl (%rax) (DD)", 0xdd, 0x00),
	U("faddp (DE)", 0xde, 0xc1),
	U("fnstsw %ax (DF)", 0xdf, 0xe0),
	/* invalid in 64-bit mode */
	U("push %es (06)", 0x06), U("pop %es (07)", 0x07),
	U("push %cs (0E)", 0x0e), U("push %ss (16)", 0x16),
	U("pop %ss (17)", 0x17), U("push %ds (1E)", 0x1e),
	U("pop %ds (1F)", 0x1f), U("daa (27)", 0x27), U("das (2F)", 0x2f),
	U("aaa (37)", 0x37), U("aas (3F)", 0x3f), U("pusha (60)", 0x60),
	U("popa (61)", 0x61), U("82 /0", 0x82, 0xc0, 0x01),
	U("lcall ptr16:32 (9A)", 0x9a, D32, 0x08, 0x00),
	U("into (CE)", 0xce), U("aam (D4)", 0xd4, 0x0a),
	U("aad (D5)", 0xd5, 0x0a), U("salc (D6)", 0xd6),
	U("ljmp ptr16:32 (EA)", 0xea, D32, 0x08, 0x00),
	/* longer than 15 bytes */
	U("15 x cs, nop", CS14, 0x2e, 0x90),
	U("15 x data16, nop", 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
	  0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x90),
	U("15 mixed prefixes, nop", 0xf0, 0xf2, 0xf3, 0x2e, 0x36, 0x3e, 0x26,
	  0x64, 0x65, 0x66, 0x67, 0x2e, 0x36, 0x3e, 0x26, 0x90),
	U("14 x cs, rex.W nop (16 bytes)", CS14, 0x48, 0x90),
	U("4 x cs, movq $imm32,disp32(%rax,%rcx,8) (16 bytes)",
	  0x2e, 0x2e, 0x2e, 0x2e, 0x48, 0xc7, 0x84, 0xc8, D32, D32),
	U("12 x cs, movabs (22 bytes)", 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e,
	  0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x48, 0xb8, I64),
};

static const char *flag_names[] = {
	"BRANCH", "COND", "CALL", "RET", "INDIRECT", "FAR", "REP_STRING",
	"SEGLOAD", "SERIALIZE", "UNCLASSIFIED", "MEM_UNKNOWN",
};

static void fmt_flags(char *buf, size_t size, unsigned flags)
{
	size_t at = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < N(flag_names); i++)
		if (flags & (1u << i))
			at += (size_t)snprintf(buf + at, size - at, "%s%s",
					       at ? "|" : "", flag_names[i]);
	if (!at)
		snprintf(buf, size, "0");
}

static void fmt_bytes(char *buf, size_t size, const uint8_t *b, unsigned n)
{
	size_t at = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < n && at + 4 < size; i++)
		at += (size_t)snprintf(buf + at, size - at, "%s%02x",
				       i ? " " : "", b[i]);
}

static struct insn_class decode_padded(const struct dcase *c, uint8_t fill)
{
	uint8_t buf[48];

	memset(buf, fill, sizeof(buf));
	memcpy(buf, c->bytes, c->n);
	return decode_insn(buf);
}

/* The memory operands of two decodes are the same. */
static int same_mem(struct insn_class a, struct insn_class b)
{
	if (a.n_mem != b.n_mem)
		return 0;
	for (unsigned i = 0; i < a.n_mem; i++) {
		const struct mem_operand *x = &a.mem[i], *y = &b.mem[i];

		/* field by field: padding bytes may differ */
		if (x->disp != y->disp || x->base != y->base ||
		    x->index != y->index || x->scale != y->scale ||
		    x->size != y->size || x->flags != y->flags)
			return 0;
	}
	return 1;
}

/* What decode.h promises of mem[]: the operands are well formed and, unless
 * DEC_MEM_UNKNOWN, they are the loads and stores the counts say, no more,
 * no fewer.  Returns NULL or what is wrong. */
static const char *mem_invariant(struct insn_class k)
{
	unsigned ld = 0, st = 0;

	if (k.flags & DEC_UNCLASSIFIED)
		return k.n_mem ? "unclassified with operands" : NULL;
	if (k.n_mem > DEC_MAX_MEM)
		return "n_mem > DEC_MAX_MEM";
	for (unsigned i = 0; i < k.n_mem; i++) {
		const struct mem_operand *m = &k.mem[i];

		if (m->size != 1 && m->size != 2 && m->size != 4 &&
		    m->size != 8)
			return "operand size not 1, 2, 4 or 8";
		if (m->base > 15 && m->base != MEM_RIP && m->base != MEM_NOREG)
			return "bad base register";
		if (m->index > 15 && m->index != MEM_NOREG)
			return "bad index register";
		if (m->index == 4)
			return "RSP as an index";
		if (m->scale > 3)
			return "scale > 3";
		if ((m->flags & MEM_FS) && (m->flags & MEM_GS))
			return "both FS and GS";
		if (m->flags & MEM_STORE)
			st++;
		else
			ld++;
	}
	if (k.flags & DEC_MEM_UNKNOWN)
		return NULL;
	if (ld != k.loads || st != k.stores)
		return "operands disagree with the loads/stores counts";
	return NULL;
}

static int class_matches(const struct dcase *c, struct insn_class k)
{
	unsigned mask = 0xffffu & ~(unsigned)c->ignore;

	return k.length == c->length &&
	       (k.flags & mask) == (c->flags & mask) &&
	       (c->loads == ANY || k.loads == c->loads) &&
	       (c->stores == ANY || k.stores == c->stores);
}

/* Checks one case; prints what is wrong and returns 1 when it fails. */
static int check_case(const struct dcase *c)
{
	struct insn_class k = decode_padded(c, 0x00);
	struct insn_class k2 = decode_padded(c, 0xff);
	char bytes[80], got[96], want[96];
	int bad = 0;

	fmt_bytes(bytes, sizeof(bytes), c->bytes, c->n);
	if (!(c->flags & DEC_UNCLASSIFIED) && c->n != c->length) {
		print_error("table error: %s [%s]: %u bytes listed, length %u\n",
			    c->what, bytes, c->n, c->length);
		return 1;
	}
	if (!class_matches(c, k)) {
		bad = 1;
		fmt_flags(got, sizeof(got), k.flags);
		fmt_flags(want, sizeof(want), c->flags);
		print_error("%s [%s]: got length %u flags %s loads %u stores %u;"
			    " want length %u flags %s loads %d stores %d\n",
			    c->what, bytes, k.length, got, k.loads, k.stores,
			    c->length, want,
			    c->loads == ANY ? -1 : c->loads,
			    c->stores == ANY ? -1 : c->stores);
	}
	/* What follows the instruction must not matter. */
	if (!(c->flags & DEC_UNCLASSIFIED) &&
	    (k.length != k2.length || k.flags != k2.flags ||
	     k.loads != k2.loads || k.stores != k2.stores ||
	     !same_mem(k, k2))) {
		print_error("%s [%s]: class depends on the bytes after it\n",
			    c->what, bytes);
		bad = 1;
	}
	if (mem_invariant(k)) {
		print_error("%s [%s]: memory operands: %s\n", c->what, bytes,
			    mem_invariant(k));
		bad = 1;
	}
	return bad;
}

static void run_table(const struct dcase *t, unsigned n, const char *name)
{
	unsigned bad = 0;

	for (unsigned i = 0; i < n; i++)
		bad += (unsigned)check_case(&t[i]);
	if (bad)
		fail_msg("%s: %u of %u encodings wrong", name, bad, n);
}

#define TABLE_TEST(t)                                                        \
	static void test_##t(void **state)                                   \
	{                                                                    \
		run_table(t_##t, N(t_##t), #t);                              \
	}

TABLE_TEST(modrm)
TABLE_TEST(prefix)
TABLE_TEST(alu)
TABLE_TEST(branch)
TABLE_TEST(nop)
TABLE_TEST(mov)
TABLE_TEST(stack)
TABLE_TEST(string)
TABLE_TEST(unclassified)

/* ---- Generated families */

static struct dcase gen[1024];
static unsigned ngen;

static void add(const char *what, unsigned len, unsigned flags, unsigned ld,
		unsigned st, unsigned n, ...)
{
	struct dcase *c = &gen[ngen++];
	va_list ap;

	assert_true(ngen <= N(gen));
	assert_true(n <= sizeof(c->bytes));
	memset(c, 0, sizeof(*c));
	snprintf(c->what, sizeof(c->what), "%s", what);
	c->length = (uint8_t)len;
	c->flags = (uint16_t)flags;
	c->loads = (uint8_t)ld;
	c->stores = (uint8_t)st;
	c->n = (uint8_t)n;
	va_start(ap, n);
	for (unsigned i = 0; i < n; i++)
		c->bytes[i] = (uint8_t)va_arg(ap, unsigned);
	va_end(ap);
}

/* Appends imm bytes of immediate to the last case. */
static void imm(unsigned bytes)
{
	struct dcase *c = &gen[ngen - 1];

	for (unsigned i = 0; i < bytes; i++)
		c->bytes[c->n++] = (uint8_t)(0x11 * (i + 1));
}

/* Fills gen[] with the opcode families; names are "family op /reg form". */
static void generate(void)
{
	static const char *alu_names[8] = { "add", "or", "adc", "sbb", "and",
					    "sub", "xor", "cmp" };
	char w[56];

	ngen = 0;
	/* ALU 00-3D: 6 forms, register and memory (mod 0 and mod 1+SIB) */
	for (unsigned o = 0; o < 8; o++) {
		unsigned b = o << 3, cmp = o == 7;
		const char *nm = alu_names[o];

		for (unsigned f = 0; f < 4; f++) {
			unsigned dst_mem = f <= 1;

			snprintf(w, sizeof(w), "%s %02x mem", nm, b + f);
			add(w, 2, 0, 1, dst_mem && !cmp, 2, b + f, 0x03);
			snprintf(w, sizeof(w), "%s %02x disp8(%%rsp)", nm,
				 b + f);
			add(w, 4, 0, 1, dst_mem && !cmp, 4, b + f, 0x44, 0x24,
			    0x08);
			snprintf(w, sizeof(w), "%s %02x rip", nm, b + f);
			add(w, 7, 0, 1, dst_mem && !cmp, 3, 0x48, b + f, 0x05);
			imm(4);
			snprintf(w, sizeof(w), "%s %02x reg", nm, b + f);
			add(w, 2, 0, 0, 0, 2, b + f, 0xc3);
		}
		snprintf(w, sizeof(w), "%s %02x al,ib", nm, b + 4);
		add(w, 2, 0, 0, 0, 1, b + 4);
		imm(1);
		snprintf(w, sizeof(w), "%s %02x eax,iz", nm, b + 5);
		add(w, 5, 0, 0, 0, 1, b + 5);
		imm(4);
		snprintf(w, sizeof(w), "%s 66 %02x ax,iw", nm, b + 5);
		add(w, 4, 0, 0, 0, 2, 0x66, b + 5);
		imm(2);
		snprintf(w, sizeof(w), "%s 48 %02x rax,iz", nm, b + 5);
		add(w, 6, 0, 0, 0, 2, 0x48, b + 5);
		imm(4);
	}
	/* group 1: 80 Ib, 81 Iz, 83 Ib; /7 CMP does not store */
	for (unsigned op = 0x80; op <= 0x83; op++) {
		unsigned ib = op == 0x81 ? 4 : 1;

		if (op == 0x82)
			continue;
		for (unsigned r = 0; r < 8; r++) {
			snprintf(w, sizeof(w), "group1 %02x /%u mem", op, r);
			add(w, 2 + ib, 0, 1, r != 7, 2, op, 0x03 | r << 3);
			imm(ib);
			snprintf(w, sizeof(w), "group1 %02x /%u disp32", op, r);
			add(w, 6 + ib, 0, 1, r != 7, 2, op, 0x83 | r << 3);
			imm(4 + ib);
			snprintf(w, sizeof(w), "group1 %02x /%u reg", op, r);
			add(w, 2 + ib, 0, 0, 0, 2, op, 0xc0 | r << 3);
			imm(ib);
			if (op == 0x81) {
				snprintf(w, sizeof(w), "group1 66 81 /%u mem",
					 r);
				add(w, 5, 0, 1, r != 7, 3, 0x66, op,
				    0x03 | r << 3);
				imm(2);
			}
		}
	}
	/* group 2 shifts/rotates (/6 left out: an undocumented alias) */
	for (unsigned op = 0xc0; op <= 0xd3; op++) {
		unsigned ib = op <= 0xc1;

		if (op > 0xc1 && op < 0xd0)
			continue;
		for (unsigned r = 0; r < 8; r++) {
			if (r == 6)
				continue;
			snprintf(w, sizeof(w), "group2 %02x /%u mem", op, r);
			add(w, 2 + ib, 0, 1, 1, 2, op, 0x03 | r << 3);
			imm(ib);
			snprintf(w, sizeof(w), "group2 %02x /%u disp8", op, r);
			add(w, 3 + ib, 0, 1, 1, 2, op, 0x43 | r << 3);
			imm(1 + ib);
			snprintf(w, sizeof(w), "group2 %02x /%u reg", op, r);
			add(w, 3 + ib, 0, 0, 0, 3, 0x48, op, 0xc0 | r << 3);
			imm(ib);
		}
	}
	/* group 3: /0 TEST E,I (has an immediate); /2 NOT /3 NEG (RMW);
	 * /4-/7 MUL IMUL DIV IDIV (read only); /1 left out (alias) */
	for (unsigned op = 0xf6; op <= 0xf7; op++) {
		for (unsigned r = 0; r < 8; r++) {
			unsigned ib = r == 0 ? (op == 0xf6 ? 1 : 4) : 0;
			unsigned st = r == 2 || r == 3;

			if (r == 1)
				continue;
			snprintf(w, sizeof(w), "group3 %02x /%u mem", op, r);
			add(w, 2 + ib, 0, 1, st, 2, op, 0x03 | r << 3);
			imm(ib);
			snprintf(w, sizeof(w), "group3 %02x /%u sib", op, r);
			add(w, 3 + ib, 0, 1, st, 3, op, 0x04 | r << 3, 0x24);
			imm(ib);
			snprintf(w, sizeof(w), "group3 %02x /%u reg", op, r);
			add(w, 2 + ib, 0, 0, 0, 2, op, 0xc1 | r << 3);
			imm(ib);
			if (op == 0xf7 && r == 0) {
				add("group3 66 F7 /0 mem (imm16)", 5, 0, 1, 0,
				    3, 0x66, op, 0x03);
				imm(2);
			}
		}
	}
	/* Jcc rel8 and rel32; CMOVcc (always loads); SETcc (stores) */
	for (unsigned cc = 0; cc < 16; cc++) {
		snprintf(w, sizeof(w), "jcc %02x rel8", 0x70 + cc);
		add(w, 2, BR | CND, 0, 0, 2, 0x70 + cc, 0x10);
		snprintf(w, sizeof(w), "jcc 0f %02x rel32", 0x80 + cc);
		add(w, 6, BR | CND, 0, 0, 2, 0x0f, 0x80 + cc);
		imm(4);
		snprintf(w, sizeof(w), "cmovcc 0f %02x mem", 0x40 + cc);
		add(w, 3, 0, 1, 0, 3, 0x0f, 0x40 + cc, 0x03);
		snprintf(w, sizeof(w), "cmovcc 48 0f %02x disp32", 0x40 + cc);
		add(w, 8, 0, 1, 0, 4, 0x48, 0x0f, 0x40 + cc, 0x83);
		imm(4);
		snprintf(w, sizeof(w), "cmovcc 0f %02x reg", 0x40 + cc);
		add(w, 3, 0, 0, 0, 3, 0x0f, 0x40 + cc, 0xc1);
		snprintf(w, sizeof(w), "setcc 0f %02x mem", 0x90 + cc);
		add(w, 3, 0, 0, 1, 3, 0x0f, 0x90 + cc, 0x03);
		snprintf(w, sizeof(w), "setcc 0f %02x sib disp8", 0x90 + cc);
		add(w, 5, 0, 0, 1, 5, 0x0f, 0x90 + cc, 0x44, 0x24, 0x08);
		snprintf(w, sizeof(w), "setcc 0f %02x reg", 0x90 + cc);
		add(w, 3, 0, 0, 0, 3, 0x0f, 0x90 + cc, 0xc0);
	}
	/* PUSH/POP r, with and without REX.B */
	for (unsigned r = 0; r < 8; r++) {
		snprintf(w, sizeof(w), "push %02x", 0x50 + r);
		add(w, 1, 0, 0, 1, 1, 0x50 + r);
		snprintf(w, sizeof(w), "push 41 %02x", 0x50 + r);
		add(w, 2, 0, 0, 1, 2, 0x41, 0x50 + r);
		snprintf(w, sizeof(w), "pop %02x", 0x58 + r);
		add(w, 1, 0, 1, 0, 1, 0x58 + r);
		snprintf(w, sizeof(w), "pop 41 %02x", 0x58 + r);
		add(w, 2, 0, 1, 0, 2, 0x41, 0x58 + r);
	}
}

static void test_generated(void **state)
{
	generate();
	assert_true(ngen > 400);
	run_table(gen, ngen, "generated");
}

/* ---- The benchmark routines (the .S files of bench/) */

#define ROUTINE(sym)                                                         \
	extern const uint8_t sym[], sym##_end[];
ROUTINE(bench_empty)
ROUTINE(bench_nops)
ROUTINE(bench_add_chain)
ROUTINE(bench_counted_loop)
ROUTINE(bench_branch_alternating)
ROUTINE(bench_branch_random)
ROUTINE(bench_call_ret)
ROUTINE(bench_indirect_jump)
ROUTINE(bench_gprs)
ROUTINE(bench_gprs_marker)
ROUTINE(bench_load_stream)
ROUTINE(bench_store_stream)
ROUTINE(bench_pointer_chase)
ROUTINE(bench_rep_movsb)
ROUTINE(bench_int_divide)
ROUTINE(bench_cpuid)
ROUTINE(bench_segment_load)

static const struct routine {
	const char *name;
	const uint8_t *start, *end;
} routines[] = {
#define R(sym) { #sym, sym, sym##_end }
	R(bench_empty), R(bench_nops), R(bench_add_chain),
	R(bench_counted_loop), R(bench_branch_alternating),
	R(bench_branch_random), R(bench_call_ret), R(bench_indirect_jump),
	R(bench_gprs), R(bench_load_stream), R(bench_store_stream),
	R(bench_pointer_chase), R(bench_rep_movsb), R(bench_int_divide),
	R(bench_cpuid), R(bench_segment_load),
#undef R
};

/* Walks [start, end) by decoded lengths; returns 1 when the walk stays
 * classified and lands exactly on end.  *boundary (when not NULL) is set
 * when the walk passes through it. */
static int walk(const struct routine *r, const uint8_t *mark, int *boundary)
{
	const uint8_t *p = r->start;
	unsigned count = 0;
	char bytes[80];

	while (p < r->end) {
		struct insn_class k = decode_insn(p);

		if (p == mark)
			*boundary = 1;
		if ((k.flags & DEC_UNCLASSIFIED) || !k.length) {
			fmt_bytes(bytes, sizeof(bytes), p, 8);
			print_error("%s+%#lx (instruction %u): unclassified "
				    "[%s ...]\n", r->name,
				    (unsigned long)(p - r->start), count,
				    bytes);
			return 0;
		}
		/* the tracer gives every benchmark access an address */
		if (mem_invariant(k) || (k.flags & DEC_MEM_UNKNOWN)) {
			print_error("%s+%#lx: memory operands: %s\n", r->name,
				    (unsigned long)(p - r->start),
				    mem_invariant(k) ? mem_invariant(k) :
				    "unknown");
			return 0;
		}
		p += k.length;
		count++;
	}
	if (p != r->end) {
		print_error("%s: the walk ends %ld bytes past %s_end\n",
			    r->name, (long)(p - r->end), r->name);
		return 0;
	}
	if (!count) {
		print_error("%s: empty routine\n", r->name);
		return 0;
	}
	return 1;
}

static void test_bench_routines(void **state)
{
	unsigned bad = 0;

	for (unsigned i = 0; i < N(routines); i++) {
		const struct routine *r = &routines[i];
		int at_marker = 0, at_marker_end = 0;

		assert_true(r->start < r->end);
		if (r->start == bench_gprs) {
			/* the marker loop's bounds are instruction bounds */
			bad += !walk(r, bench_gprs_marker, &at_marker);
			bad += !walk(r, bench_gprs_marker_end, &at_marker_end);
			if (!at_marker || !at_marker_end) {
				print_error("bench_gprs: marker bounds are not"
					    " instruction boundaries\n");
				bad++;
			}
		} else {
			bad += !walk(r, NULL, NULL);
		}
	}
	if (bad)
		fail_msg("%u routine walks failed", bad);
}

/* Regression: an operand-size prefix 66 together with REX.W: REX.W takes
 * precedence (SDM Vol. 2 §2.2.1.2, Table 2-4), the operand size is 64 bits
 * and Iz stays 4 bytes.  E.g. 66 48 81 03 imm32 ("data16 addq
 * $imm32,(%rbx)" to objdump) is 8 bytes; the decoder once said 6. */
static const struct dcase t_rexw[] = {
	I("data16 add $0x12345678,%rax", 7, 0, 0, 0, 0x66, 0x48, 0x05, D32),
	I("data16 addq $0x12345678,(%rbx)", 8, 0, 1, 1,
	  0x66, 0x48, 0x81, 0x03, D32),
	I("data16 movq $0x12345678,(%rbx)", 8, 0, 0, 1,
	  0x66, 0x48, 0xc7, 0x03, D32),
	I("data16 testq $0x12345678,(%rbx)", 8, 0, 1, 0,
	  0x66, 0x48, 0xf7, 0x03, D32),
	I("data16 imul $0x12345678,%rax,%rax", 8, 0, 0, 0,
	  0x66, 0x48, 0x69, 0xc0, D32),
	I("data16 test $0x12345678,%rax", 7, 0, 0, 0, 0x66, 0x48, 0xa9, D32),
	I("data16 rex.W push $0x12345678", 7, 0, 0, 1, 0x66, 0x48, 0x68, D32),
};

static void test_rexw_over_66(void **state)
{
	run_table(t_rexw, N(t_rexw), "REX.W with 66");
}

/* Regression: decode.h says it "decodes up to 15 bytes at code"; for byte
 * strings that only turn out to be longer than 15 bytes it once read the
 * opcode, ModRM or SIB byte past the 15th before rejecting them (14
 * prefixes then a REX read byte 16; 13 prefixes, 0F 1F read byte 16 as
 * ModRM; 13 prefixes, 8B 04 read byte 16 as SIB).  The test decodes
 * these, and every other table, just before an unmapped page. */
static const struct dcase t_overread[] = {
	U("15 x cs (reads only 15 bytes: the control case)", CS14, 0x2e),
	U("14 x cs, rex.W", CS14, 0x48),
	U("13 x cs, 0f 1f", 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e,
	  0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x0f, 0x1f),
	U("13 x cs, 8b 04", 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e,
	  0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x8b, 0x04),
};

/* Decodes c in a child process from the end of a page followed by an
 * unmapped one: a classified case from exactly its own bytes (the tracer
 * decodes at RIP, and a routine may end at the end of its mapping), an
 * unclassified one from its first 15 bytes (padded with int3).  Returns 0
 * when the class is right, 1 when wrong, 2 when it faulted. */
static int decode_at_page_end(const struct dcase *c, uint8_t *map, long page)
{
	unsigned n = c->flags & DEC_UNCLASSIFIED ? 15 : c->n;
	uint8_t *code = map + page - n;
	int status = 0;
	pid_t pid;

	memset(code, 0xcc, n);
	memcpy(code, c->bytes, c->n < n ? c->n : n);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		/* die of the fault, not in cmocka's handler */
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		struct insn_class k = decode_insn(code);

		_exit(class_matches(c, k) &&
		      same_mem(k, decode_padded(c, 0x00)) ? 0 : 1);
	}
	if (waitpid(pid, &status, 0) != pid)
		return 2;
	return WIFEXITED(status) && WEXITSTATUS(status) <= 1 ?
	       WEXITSTATUS(status) : 2;
}

static void test_reads_at_most_15_bytes(void **state)
{
	static const struct {
		const struct dcase *t;
		unsigned n;
	} tables[] = {
#define T(x) { x, N(x) }
		T(t_overread), T(t_modrm), T(t_prefix), T(t_alu),
		T(t_branch), T(t_nop), T(t_mov), T(t_stack), T(t_string),
		T(t_unclassified), T(t_rexw),
#undef T
	};
	long page = sysconf(_SC_PAGESIZE);
	unsigned bad = 0, total = 0;
	uint8_t *map;

	generate();
	map = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(map != MAP_FAILED);
	assert_int_equal(mprotect(map + page, (size_t)page, PROT_NONE), 0);
	for (unsigned t = 0; t <= N(tables); t++) {
		const struct dcase *cs = t < N(tables) ? tables[t].t : gen;
		unsigned n = t < N(tables) ? tables[t].n : ngen;

		for (unsigned i = 0; i < n; i++) {
			int r = decode_at_page_end(&cs[i], map, page);

			total++;
			if (r) {
				print_error("%s: decoded before an unmapped "
					    "page: %s\n", cs[i].what,
					    r == 1 ? "wrong class" :
					    "faulted (read too far)");
				bad++;
			}
		}
	}
	munmap(map, (size_t)page * 2);
	if (bad)
		fail_msg("%u of %u encodings read too far or changed", bad,
			 total);
}

/* ---- Memory operand descriptions (decode.h: struct mem_operand)
 *
 * Each case lists an encoding and its accesses as text, in the order the
 * instruction makes them: "load|store SIZE [addr32 ][fs:|gs:]DISP(BASE,
 * INDEX,SCALE)" joined by "; ", "none" when it accesses no memory, and
 * "unknown" when the decoder does not describe them (DEC_MEM_UNKNOWN).
 * Registers are named by their 64-bit names whatever the address size;
 * "addr32" says the offset wraps to 32 bits.  Implicit operands are
 * written as the address the instruction forms from the registers before
 * it: a push stores at -SIZE(%rsp). */
struct acase {
	char what[56];
	char want[96];
	uint8_t n;
	uint8_t bytes[16];
};

#define A(what, want, ...)                                                   \
	{ what, want, sizeof((uint8_t[]){ __VA_ARGS__ }), { __VA_ARGS__ } }

#define RMW(sz, ea) "load " #sz " " ea "; store " #sz " " ea

static const struct acase t_addr[] = {
	/* ModRM and SIB shapes (ADD Ev,Gv: read-modify-write) */
	A("add %eax,(%rbx)", RMW(4, "0x0(%rbx)"), 0x01, 0x03),
	A("add %eax,-0x80(%rbx)", RMW(4, "-0x80(%rbx)"), 0x01, 0x43, 0x80),
	A("add %eax,0x12345678(%rbx)", RMW(4, "0x12345678(%rbx)"),
	  0x01, 0x83, D32),
	A("add %eax,(%rsp)", RMW(4, "0x0(%rsp)"), 0x01, 0x04, 0x24),
	A("add %eax,0x8(%rbx,%rcx,4)", RMW(4, "0x8(%rbx,%rcx,4)"),
	  0x01, 0x44, 0x8b, 0x08),
	A("add %eax,-0x12345678(%rbx,%rsi,2)",
	  RMW(4, "-0x12345678(%rbx,%rsi,2)"),
	  0x01, 0x84, 0x73, 0x88, 0xa9, 0xcb, 0xed),
	A("add %eax,0x12345678 (SIB: no base, no index)",
	  RMW(4, "0x12345678"), 0x01, 0x04, 0x25, D32),
	A("add %eax,0x12345678(,%rcx,4) (SIB: no base)",
	  RMW(4, "0x12345678(,%rcx,4)"), 0x01, 0x04, 0x8d, D32),
	A("add %eax,0x8(%rbp,%rcx,4) (SIB base 5, mod 1)",
	  RMW(4, "0x8(%rbp,%rcx,4)"), 0x01, 0x44, 0x8d, 0x08),
	A("add %eax,0x0(%rbx) (SIB index 4: none, scale ignored)",
	  RMW(4, "0x0(%rbx)"), 0x01, 0x44, 0xe3, 0x00),
	A("add %eax,0x0(%rbp) (rm 5, mod 1)", RMW(4, "0x0(%rbp)"),
	  0x01, 0x45, 0x00),
	A("add %eax,0x12345678(%rip)", RMW(4, "0x12345678(%rip)"),
	  0x01, 0x05, D32),
	A("add %eax,(%r12) (REX.B, rm 4: SIB)", RMW(4, "0x0(%r12)"),
	  0x41, 0x01, 0x04, 0x24),
	A("add %eax,0x0(%r13) (REX.B, rm 5 mod 1)", RMW(4, "0x0(%r13)"),
	  0x41, 0x01, 0x45, 0x00),
	A("rex.B add %eax,0x12345678(%rip) (still RIP)",
	  RMW(4, "0x12345678(%rip)"), 0x41, 0x01, 0x05, D32),
	A("rex.B add %eax,0x12345678 (SIB base 5 mod 0: no base)",
	  RMW(4, "0x12345678"), 0x41, 0x01, 0x04, 0x25, D32),
	A("add %rax,(%rax,%r12,1) (REX.X: index 4 is R12)",
	  RMW(8, "0x0(%rax,%r12,1)"), 0x4a, 0x01, 0x04, 0x20),
	A("add %r14,0x8(%r12,%r12,8)", RMW(8, "0x8(%r12,%r12,8)"),
	  0x4f, 0x01, 0x74, 0xe4, 0x08),
	/* operand sizes */
	A("add %al,(%rbx)", RMW(1, "0x0(%rbx)"), 0x00, 0x03),
	A("add %ax,(%rbx)", RMW(2, "0x0(%rbx)"), 0x66, 0x01, 0x03),
	A("add %rax,(%rbx)", RMW(8, "0x0(%rbx)"), 0x48, 0x01, 0x03),
	A("data16 add %rax,(%rbx) (REX.W wins)", RMW(8, "0x0(%rbx)"),
	  0x66, 0x48, 0x01, 0x03),
	A("add (%rbx),%cl", "load 1 0x0(%rbx)", 0x02, 0x0b),
	A("add (%rbx),%rcx", "load 8 0x0(%rbx)", 0x48, 0x03, 0x0b),
	A("cmp %eax,(%rbx)", "load 4 0x0(%rbx)", 0x39, 0x03),
	A("addb $0x1,(%rbx)", RMW(1, "0x0(%rbx)"), 0x80, 0x03, 0x01),
	A("cmpb $0x1,(%rbx)", "load 1 0x0(%rbx)", 0x80, 0x3b, 0x01),
	A("addq $0x1,(%rbx)", RMW(8, "0x0(%rbx)"), 0x48, 0x83, 0x03, 0x01),
	A("cmpw $0x1234,(%rbx)", "load 2 0x0(%rbx)", 0x66, 0x81, 0x3b, I16),
	A("shlq (%rbx)", RMW(8, "0x0(%rbx)"), 0x48, 0xd1, 0x23),
	A("shlb $0x3,(%rbx)", RMW(1, "0x0(%rbx)"), 0xc0, 0x23, 0x03),
	A("shll %cl,(%rbx)", RMW(4, "0x0(%rbx)"), 0xd3, 0x23),
	A("shlb %cl,(%rbx)", RMW(1, "0x0(%rbx)"), 0xd2, 0x23),
	A("testb $0x12,(%rbx)", "load 1 0x0(%rbx)", 0xf6, 0x03, 0x12),
	A("testl $0x12345678,(%rbx)", "load 4 0x0(%rbx)", 0xf7, 0x03, D32),
	A("notq (%rbx)", RMW(8, "0x0(%rbx)"), 0x48, 0xf7, 0x13),
	A("negb (%rbx)", RMW(1, "0x0(%rbx)"), 0xf6, 0x1b),
	A("mull (%rbx)", "load 4 0x0(%rbx)", 0xf7, 0x23),
	A("divq 0x8(%rbx)", "load 8 0x8(%rbx)", 0x48, 0xf7, 0x73, 0x08),
	A("incl (%rbx)", RMW(4, "0x0(%rbx)"), 0xff, 0x03),
	A("decw (%rbx)", RMW(2, "0x0(%rbx)"), 0x66, 0xff, 0x0b),
	A("incb (%rbx)", RMW(1, "0x0(%rbx)"), 0xfe, 0x03),
	A("test %al,(%rbx)", "load 1 0x0(%rbx)", 0x84, 0x03),
	A("test %rcx,0x38(%rsi)", "load 8 0x38(%rsi)", 0x48, 0x85, 0x4e, 0x38),
	A("mov %al,(%rbx)", "store 1 0x0(%rbx)", 0x88, 0x03),
	A("mov %ax,(%rbx)", "store 2 0x0(%rbx)", 0x66, 0x89, 0x03),
	A("mov %rax,0x8(%rsi)", "store 8 0x8(%rsi)", 0x48, 0x89, 0x46, 0x08),
	A("mov (%rbx),%al", "load 1 0x0(%rbx)", 0x8a, 0x03),
	A("mov (%rax),%rax", "load 8 0x0(%rax)", 0x48, 0x8b, 0x00),
	A("mov -0x10(%rip),%rax", "load 8 -0x10(%rip)",
	  0x48, 0x8b, 0x05, 0xf0, 0xff, 0xff, 0xff),
	A("movb $0x12,(%rbx)", "store 1 0x0(%rbx)", 0xc6, 0x03, 0x12),
	A("movq $0x12345678,0x12345678(%rbx,%rcx,8)",
	  "store 8 0x12345678(%rbx,%rcx,8)", 0x48, 0xc7, 0x84, 0xcb, D32, D32),
	A("movw $0x1234,0x12345678(%rip)", "store 2 0x12345678(%rip)",
	  0x66, 0xc7, 0x05, D32, I16),
	A("xchg %al,(%rbx)", RMW(1, "0x0(%rbx)"), 0x86, 0x03),
	A("xchg %rax,0x8(%rsp)", RMW(8, "0x8(%rsp)"),
	  0x48, 0x87, 0x44, 0x24, 0x08),
	A("movzbl (%rbx),%eax", "load 1 0x0(%rbx)", 0x0f, 0xb6, 0x03),
	A("movzwl 0x8(%rbx),%eax", "load 2 0x8(%rbx)", 0x0f, 0xb7, 0x43, 0x08),
	A("movsbq 0x8(%rbx),%rax", "load 1 0x8(%rbx)",
	  0x48, 0x0f, 0xbe, 0x43, 0x08),
	A("movswl (%rbx),%eax", "load 2 0x0(%rbx)", 0x0f, 0xbf, 0x03),
	A("movslq (%rsi),%rax", "load 4 0x0(%rsi)", 0x48, 0x63, 0x06),
	A("movsxd (%rsi),%eax (no REX.W)", "load 4 0x0(%rsi)", 0x63, 0x06),
	A("movsxd (%rsi),%ax (66)", "load 2 0x0(%rsi)", 0x66, 0x63, 0x06),
	A("cmove (%rbx),%eax", "load 4 0x0(%rbx)", 0x0f, 0x44, 0x03),
	A("cmove (%rbx),%ax", "load 2 0x0(%rbx)", 0x66, 0x0f, 0x44, 0x03),
	A("cmovne 0x12345678(%rip),%rax", "load 8 0x12345678(%rip)",
	  0x48, 0x0f, 0x45, 0x05, D32),
	A("sete (%rbx)", "store 1 0x0(%rbx)", 0x0f, 0x94, 0x03),
	A("imul (%rbx),%eax", "load 4 0x0(%rbx)", 0x0f, 0xaf, 0x03),
	A("imul $0x12,0x8(%rsp),%rax", "load 8 0x8(%rsp)",
	  0x48, 0x6b, 0x44, 0x24, 0x08, 0x12),
	A("imul $0x12345678,(%rbx),%eax", "load 4 0x0(%rbx)",
	  0x69, 0x03, D32),
	A("mov %ds,(%rbx)", "store 2 0x0(%rbx)", 0x8c, 0x1b),
	A("rex.W mov %ds,(%rbx) (still 16 bits)", "store 2 0x0(%rbx)",
	  0x48, 0x8c, 0x1b),
	A("mov (%rbx),%ds", "load 2 0x0(%rbx)", 0x8e, 0x1b),
	/* no data access */
	A("lea 0x8(%rax),%rcx", "none", 0x48, 0x8d, 0x48, 0x08),
	A("nopl 0x0(%rax,%rax,1)", "none", 0x0f, 0x1f, 0x44, 0x00, 0x00),
	A("mov %rax,%rbx", "none", 0x48, 0x89, 0xc3),
	A("add $0x1,%eax", "none", 0x83, 0xc0, 0x01),
	A("jne rel8", "none", 0x75, 0x10),
	A("jmp *%rax", "none", 0xff, 0xe0),
	A("cpuid", "none", 0x0f, 0xa2),
	A("syscall", "none", 0x0f, 0x05),
	/* segment overrides and the address size */
	A("add %eax,%fs:(%rbx)", RMW(4, "fs:0x0(%rbx)"), 0x64, 0x01, 0x03),
	A("add %eax,%gs:0x8(%rbx)", RMW(4, "gs:0x8(%rbx)"),
	  0x65, 0x01, 0x43, 0x08),
	A("mov %fs:0x28,%rax", "load 8 fs:0x28",
	  0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00),
	A("add %eax,%cs:(%rbx) (no base in 64-bit mode)", RMW(4, "0x0(%rbx)"),
	  0x2e, 0x01, 0x03),
	A("add %eax,%ss:(%rbx)", RMW(4, "0x0(%rbx)"), 0x36, 0x01, 0x03),
	A("ds fs add (the last override counts)", RMW(4, "fs:0x0(%rbx)"),
	  0x3e, 0x64, 0x01, 0x03),
	A("fs ds add (the last override counts)", RMW(4, "0x0(%rbx)"),
	  0x64, 0x3e, 0x01, 0x03),
	A("fs lock add (LOCK is no override)", RMW(4, "fs:0x0(%rbx)"),
	  0x64, 0xf0, 0x01, 0x03),
	A("add %eax,(%ebx) (67)", RMW(4, "addr32 0x0(%rbx)"), 0x67, 0x01, 0x03),
	A("add %eax,0x12345678(%eip) (67)", RMW(4, "addr32 0x12345678(%rip)"),
	  0x67, 0x01, 0x05, D32),
	A("add %eax,%fs:0x8(%ebx,%ecx,4)", RMW(4, "addr32 fs:0x8(%rbx,%rcx,4)"),
	  0x64, 0x67, 0x01, 0x44, 0x8b, 0x08),
	A("lock addw $0x1234,%cs:0x8(%rbx,%rcx,4)",
	  RMW(2, "0x8(%rbx,%rcx,4)"),
	  0xf0, 0x2e, 0x66, 0x81, 0x44, 0x8b, 0x08, I16),
	/* the stack: addresses from RSP before the instruction */
	A("push %rax", "store 8 -0x8(%rsp)", 0x50),
	A("push %r15", "store 8 -0x8(%rsp)", 0x41, 0x57),
	A("push %ax", "store 2 -0x2(%rsp)", 0x66, 0x50),
	A("data16 rex.W push %rax", "store 8 -0x8(%rsp)", 0x66, 0x48, 0x50),
	A("addr32 push %rax (67: no effect on the stack)",
	  "store 8 -0x8(%rsp)", 0x67, 0x50),
	A("fs push %rax (no override of the stack)", "store 8 -0x8(%rsp)",
	  0x64, 0x50),
	A("pop %rax", "load 8 0x0(%rsp)", 0x58),
	A("pop %r8", "load 8 0x0(%rsp)", 0x41, 0x58),
	A("pop %ax", "load 2 0x0(%rsp)", 0x66, 0x58),
	A("push $0x12345678", "store 8 -0x8(%rsp)", 0x68, D32),
	A("pushw $0x1234", "store 2 -0x2(%rsp)", 0x66, 0x68, I16),
	A("push $0x12", "store 8 -0x8(%rsp)", 0x6a, 0x12),
	A("pushf", "store 8 -0x8(%rsp)", 0x9c),
	A("pushfw", "store 2 -0x2(%rsp)", 0x66, 0x9c),
	A("popf", "load 8 0x0(%rsp)", 0x9d),
	A("leave (RSP = RBP, then a pop)", "load 8 0x0(%rbp)", 0xc9),
	A("leavew", "load 2 0x0(%rbp)", 0x66, 0xc9),
	A("push %fs", "store 8 -0x8(%rsp)", 0x0f, 0xa0),
	A("pop %gs", "load 8 0x0(%rsp)", 0x0f, 0xa9),
	A("push (%rbx)", "load 8 0x0(%rbx); store 8 -0x8(%rsp)", 0xff, 0x33),
	A("push 0x8(%rsp) (address before the decrement)",
	  "load 8 0x8(%rsp); store 8 -0x8(%rsp)", 0xff, 0x74, 0x24, 0x08),
	A("pushw (%rbx)", "load 2 0x0(%rbx); store 2 -0x2(%rsp)",
	  0x66, 0xff, 0x33),
	A("push %fs:(%rbx)", "load 8 fs:0x0(%rbx); store 8 -0x8(%rsp)",
	  0x64, 0xff, 0x33),
	A("pop (%rbx)", "load 8 0x0(%rsp); store 8 0x0(%rbx)", 0x8f, 0x03),
	A("pop 0x8(%rsp) (address after the increment)",
	  "load 8 0x0(%rsp); store 8 0x10(%rsp)", 0x8f, 0x44, 0x24, 0x08),
	A("pop (%rsp)", "load 8 0x0(%rsp); store 8 0x8(%rsp)",
	  0x8f, 0x04, 0x24),
	A("popw (%rsp)", "load 2 0x0(%rsp); store 2 0x2(%rsp)",
	  0x66, 0x8f, 0x04, 0x24),
	A("pop (%r12) (REX.B: not RSP)", "load 8 0x0(%rsp); store 8 0x0(%r12)",
	  0x41, 0x8f, 0x04, 0x24),
	A("pop 0x12345678(%rip)", "load 8 0x0(%rsp); store 8 0x12345678(%rip)",
	  0x8f, 0x05, D32),
	A("pop %rax (8F C0)", "load 8 0x0(%rsp)", 0x8f, 0xc0),
	/* near and far transfers */
	A("call rel32", "store 8 -0x8(%rsp)", 0xe8, D32),
	A("call *%rax", "store 8 -0x8(%rsp)", 0xff, 0xd0),
	A("call *(%rax)", "load 8 0x0(%rax); store 8 -0x8(%rsp)", 0xff, 0x10),
	A("call *0x8(%rsp)", "load 8 0x8(%rsp); store 8 -0x8(%rsp)",
	  0xff, 0x54, 0x24, 0x08),
	A("call *0x12345678(%rip)",
	  "load 8 0x12345678(%rip); store 8 -0x8(%rsp)", 0xff, 0x15, D32),
	A("jmp *(%rsi,%rcx,8)", "load 8 0x0(%rsi,%rcx,8)", 0xff, 0x24, 0xce),
	A("ret", "load 8 0x0(%rsp)", 0xc3),
	A("ret $0x10", "load 8 0x0(%rsp)", 0xc2, 0x10, 0x00),
	A("rep ret", "load 8 0x0(%rsp)", 0xf3, 0xc3),
	A("lret (32-bit slots by default)",
	  "load 4 0x0(%rsp); load 4 0x4(%rsp)",
	  0xcb),
	A("lret $0x8", "load 4 0x0(%rsp); load 4 0x4(%rsp)", 0xca, 0x08, 0x00),
	A("lretq", "load 8 0x0(%rsp); load 8 0x8(%rsp)", 0x48, 0xcb),
	A("lretw", "load 2 0x0(%rsp); load 2 0x2(%rsp)", 0x66, 0xcb),
	A("int3", "unknown", 0xcc),
	A("int $0x80", "unknown", 0xcd, 0x80),
	A("iretq", "unknown", 0x48, 0xcf),
	/* string instructions: one iteration */
	A("movsb", "load 1 0x0(%rsi); store 1 0x0(%rdi)", 0xa4),
	A("movsw", "load 2 0x0(%rsi); store 2 0x0(%rdi)", 0x66, 0xa5),
	A("movsl", "load 4 0x0(%rsi); store 4 0x0(%rdi)", 0xa5),
	A("movsq", "load 8 0x0(%rsi); store 8 0x0(%rdi)", 0x48, 0xa5),
	A("rep movsb", "load 1 0x0(%rsi); store 1 0x0(%rdi)", 0xf3, 0xa4),
	A("addr32 rep movsb",
	  "load 1 addr32 0x0(%rsi); store 1 addr32 0x0(%rdi)",
	  0x67, 0xf3, 0xa4),
	A("movsb %fs:(%rsi),%es:(%rdi) (ES is never overridden)",
	  "load 1 fs:0x0(%rsi); store 1 0x0(%rdi)", 0x64, 0xa4),
	A("cmpsb", "load 1 0x0(%rsi); load 1 0x0(%rdi)", 0xa6),
	A("repz cmpsq", "load 8 0x0(%rsi); load 8 0x0(%rdi)",
	  0xf3, 0x48, 0xa7),
	A("stos %al,%es:(%rdi)", "store 1 0x0(%rdi)", 0xaa),
	A("fs stos %al,%es:(%rdi)", "store 1 0x0(%rdi)", 0x64, 0xaa),
	A("rep stos %rax,%es:(%rdi)", "store 8 0x0(%rdi)", 0xf3, 0x48, 0xab),
	A("lods %ds:(%rsi),%al", "load 1 0x0(%rsi)", 0xac),
	A("lods %gs:(%rsi),%eax", "load 4 gs:0x0(%rsi)", 0x65, 0xad),
	A("scas %es:(%rdi),%al", "load 1 0x0(%rdi)", 0xae),
	A("repnz scas %es:(%rdi),%ax", "load 2 0x0(%rdi)", 0xf2, 0x66, 0xaf),
};

static void test_addr_description(void **state)
{
	unsigned bad = 0;

	for (unsigned i = 0; i < N(t_addr); i++) {
		const struct acase *c = &t_addr[i];
		uint8_t buf[32];
		struct insn_class k;
		char got[160], bytes[64];

		memset(buf, 0xcc, sizeof(buf));
		memcpy(buf, c->bytes, c->n);
		k = decode_insn(buf);
		fmt_mem(got, sizeof(got), k, DEC_MODE_64);
		fmt_bytes(bytes, sizeof(bytes), c->bytes, c->n);
		if ((k.flags & DEC_UNCLASSIFIED) || k.length != c->n ||
		    strcmp(got, c->want)) {
			print_error("%s [%s]: length %u, got \"%s\", want "
				    "\"%s\"\n", c->what, bytes, k.length, got,
				    c->want);
			bad++;
		}
	}
	if (bad)
		fail_msg("%u of %u memory operand descriptions wrong", bad,
			 (unsigned)N(t_addr));
}

/* ---- mem_offset(): the offsets the tracer computes from the registers
 * before the instruction (decode.h).  Each case decodes an encoding placed
 * at RIP and checks access i against the value worked out by hand. */
struct ocase {
	char what[56];
	uint8_t i;		/* which access */
	uint64_t want;
	uint8_t n;
	uint8_t bytes[16];
};

#define RIP0 0x0000000140001000ull	/* where each case sits */
#define REG(r) (0x1000000000ull * ((r) + 1) + 0x100 * (r))

#define O(what, i, want, ...)                                                \
	{ what, i, want, sizeof((uint8_t[]){ __VA_ARGS__ }), { __VA_ARGS__ } }

static const struct ocase t_offset[] = {
	O("add %eax,0x8(%rbx,%rcx,4)", 0, REG(3) + 4 * REG(1) + 8,
	  0x01, 0x44, 0x8b, 0x08),
	O("add %eax,-0x80(%rbx)", 1, REG(3) - 0x80, 0x01, 0x43, 0x80),
	O("add %r14,0x8(%r12,%r12,8)", 0, 9 * REG(12) + 8,
	  0x4f, 0x01, 0x74, 0xe4, 0x08),
	O("add %eax,-0x12345678(%rbx,%rsi,2)", 0,
	  REG(3) + 2 * REG(6) - 0x12345678,
	  0x01, 0x84, 0x73, 0x88, 0xa9, 0xcb, 0xed),
	O("mov -0x10(%rip),%rax (next RIP - 0x10)", 0, RIP0 + 7 - 0x10,
	  0x48, 0x8b, 0x05, 0xf0, 0xff, 0xff, 0xff),
	O("add %eax,0x12345678(%rip)", 0, RIP0 + 6 + 0x12345678,
	  0x01, 0x05, D32),
	O("add %eax,0xffffffff80000000 (disp32 sign-extends)", 0,
	  0xffffffff80000000ull, 0x01, 0x04, 0x25, 0x00, 0x00, 0x00, 0x80),
	O("addr32 add %eax,0x80000000 (no sign extension)", 0, 0x80000000ull,
	  0x67, 0x01, 0x04, 0x25, 0x00, 0x00, 0x00, 0x80),
	O("add %eax,0x10(%ebx) (wraps to 32 bits)", 0,
	  (uint32_t)(REG(3) + 0x10), 0x67, 0x01, 0x43, 0x10),
	O("add %eax,0x12345678(%eip)", 0, (uint32_t)(RIP0 + 7 + 0x12345678),
	  0x67, 0x01, 0x05, D32),
	O("push %rax", 0, REG(4) - 8, 0x50),
	O("pushw $0x1234", 0, REG(4) - 2, 0x66, 0x68, I16),
	O("pop (%rsp): the store", 1, REG(4) + 8, 0x8f, 0x04, 0x24),
	O("call *0x8(%rsp): the target", 0, REG(4) + 8, 0xff, 0x54, 0x24, 0x08),
	O("call *0x8(%rsp): the return address", 1, REG(4) - 8,
	  0xff, 0x54, 0x24, 0x08),
	O("lretq: CS", 1, REG(4) + 8, 0x48, 0xcb),
	O("leave", 0, REG(5), 0xc9),
	O("movsb: source", 0, REG(6), 0xa4),
	O("movsb: destination", 1, REG(7), 0xa4),
	O("addr32 movsb: destination", 1, (uint32_t)REG(7), 0x67, 0xa4),
	O("mov %fs:0x28,%rax (the FS base is added later)", 0, 0x28,
	  0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00),
};

static void test_mem_offset(void **state)
{
	uint64_t gpr[16];
	unsigned bad = 0;

	for (unsigned r = 0; r < 16; r++)
		gpr[r] = REG(r);
	for (unsigned i = 0; i < N(t_offset); i++) {
		const struct ocase *c = &t_offset[i];
		uint8_t buf[32];
		struct insn_class k;
		uint64_t got = 0;

		memset(buf, 0xcc, sizeof(buf));
		memcpy(buf, c->bytes, c->n);
		k = decode_insn(buf);
		if (k.length == c->n && c->i < k.n_mem)
			got = mem_offset(&k.mem[c->i], gpr, RIP0 + k.length);
		if (k.length != c->n || c->i >= k.n_mem || got != c->want) {
			print_error("%s: access %u: got %#llx, want %#llx "
				    "(length %u, %u accesses)\n", c->what,
				    c->i, (unsigned long long)got,
				    (unsigned long long)c->want, k.length,
				    k.n_mem);
			bad++;
		}
	}
	if (bad)
		fail_msg("%u of %u offsets wrong", bad, (unsigned)N(t_offset));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modrm),
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_alu),
		cmocka_unit_test(test_branch),
		cmocka_unit_test(test_nop),
		cmocka_unit_test(test_mov),
		cmocka_unit_test(test_stack),
		cmocka_unit_test(test_string),
		cmocka_unit_test(test_unclassified),
		cmocka_unit_test(test_generated),
		cmocka_unit_test(test_bench_routines),
		cmocka_unit_test(test_rexw_over_66),
		cmocka_unit_test(test_reads_at_most_15_bytes),
		cmocka_unit_test(test_addr_description),
		cmocka_unit_test(test_mem_offset),
	};

	return cmocka_run_group_tests_name("decode", tests, NULL, NULL);
}
