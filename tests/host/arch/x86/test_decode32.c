/* Host tests for arch/x86/decode.c in 32-bit protected mode:
 * decode_insn_mode(code, DEC_MODE_32), what the i386 build's tracer
 * decodes.  Each case lists an encoding, its length, its class flags and
 * its memory accesses written out the way the table of test_decode.c
 * writes them ("load 4 addr32 0x8(%ecx)"); loads and stores must agree
 * with the accesses.  The table holds every instruction the routines of
 * bench/i386/ use (tests/host/bench/run.sh also holds the decoder to
 * objdump on the assembled routines), the forms where 32-bit mode
 * differs from 64-bit mode (SDM Vol. 2A §2.1.5 Tables 2-1, 2-2, 2-3;
 * Appendix A, Table A-2's i64/o64 opcodes; order no. 253666), and the
 * 64-bit decodes of the same bytes where they differ, so that a mode
 * mix-up fails.  Lengths were cross-checked with objdump -m i386. */
#include <stdio.h>
#include <string.h>

#include "arch/x86/decode.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/host/arch/x86/dec_flags.h"
#include "tests/host/arch/x86/decode_fmt.h"

/* host-sources: arch/x86/decode.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct case32 {
	char what[48];
	uint8_t length;
	uint16_t flags;
	const char *mem;	/* the accesses, "none" or "unknown" */
	uint8_t n;
	uint8_t bytes[16];
};

#define C(what, len, fl, mem, ...)                                           \
	{ what, len, fl, mem, sizeof((uint8_t[]){ __VA_ARGS__ }),            \
	  { __VA_ARGS__ } }
#define U(what, ...) C(what, 0, UNC, "none", __VA_ARGS__)

#define D32 0x78, 0x56, 0x34, 0x12
#define I16 0x34, 0x12

/* ---- the routines of bench/i386/ */
static const struct case32 t_bench[] = {
	C("ret", 1, BR | RT | IND, "load 4 addr32 0x0(%esp)", 0xc3),
	C("nop", 1, 0, "none", 0x90),
	C("nopl (%eax)", 3, 0, "none", 0x0f, 0x1f, 0x00),
	C("nopl 0x0(%eax)", 4, 0, "none", 0x0f, 0x1f, 0x40, 0x00),
	C("nopl 0x0(%eax,%eax,1)", 5, 0, "none", 0x0f, 0x1f, 0x44, 0x00, 0x00),
	C("nopl 0x0(%eax) (disp32)", 7, 0, "none",
	  0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00),
	C("nopl 0x0(%eax,%eax,1) (disp32)", 8, 0, "none",
	  0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00),
	C("sub $0x1,%eax", 3, 0, "none", 0x83, 0xe8, 0x01),
	C("sub $0x1,%ecx", 3, 0, "none", 0x83, 0xe9, 0x01),
	C("sub $0x1,%esi", 3, 0, "none", 0x83, 0xee, 0x01),
	C("jae rel8", 2, BR | CND, "none", 0x73, 0xdd),
	C("jb rel8", 2, BR | CND, "none", 0x72, 0xf9),
	C("je rel8", 2, BR | CND, "none", 0x74, 0x03),
	C("jmp rel8", 2, BR, "none", 0xeb, 0x1e),
	C("xor %edx,%edx", 2, 0, "none", 0x31, 0xd2),
	C("xor %eax,%eax", 2, 0, "none", 0x31, 0xc0),
	C("xor %ecx,%edx", 2, 0, "none", 0x31, 0xca),
	C("mov $0x3,%ecx", 5, 0, "none", 0xb9, 0x03, 0x00, 0x00, 0x00),
	C("mov $0xfeed0505,%ebp", 5, 0, "none", 0xbd, 0x05, 0x05, 0xed, 0xfe),
	C("add $0x1,%edx", 3, 0, "none", 0x83, 0xc2, 0x01),
	C("add $0x40,%ecx", 3, 0, "none", 0x83, 0xc1, 0x40),
	C("add %ecx,%edx", 2, 0, "none", 0x01, 0xca),
	C("cmp %eax,%edx", 2, 0, "none", 0x39, 0xc2),
	C("test $0x1,%eax", 5, 0, "none", 0xa9, 0x01, 0x00, 0x00, 0x00),
	C("test $0x1,%edx", 6, 0, "none",
	  0xf7, 0xc2, 0x01, 0x00, 0x00, 0x00),
	C("and $0x1,%edx", 3, 0, "none", 0x83, 0xe2, 0x01),
	C("shl $0xd,%ecx", 3, 0, "none", 0xc1, 0xe1, 0x0d),
	C("shr $0x11,%ecx", 3, 0, "none", 0xc1, 0xe9, 0x11),
	C("mov %edx,%ecx", 2, 0, "none", 0x89, 0xd1),
	C("mov %ecx,%eax", 2, 0, "none", 0x89, 0xc8),
	C("lea 0x12345678,%ecx (disp32, no base)", 6, 0, "none",
	  0x8d, 0x0d, D32),
	C("lea 0x1000(%ecx),%edi", 6, 0, "none",
	  0x8d, 0xb9, 0x00, 0x10, 0x00, 0x00),
	C("call rel32", 5, BR | CL, "store 4 addr32 -0x4(%esp)",
	  0xe8, 0x08, 0x00, 0x00, 0x00),
	C("call *%ecx", 2, BR | CL | IND, "store 4 addr32 -0x4(%esp)",
	  0xff, 0xd1),
	C("push %ebx", 1, 0, "store 4 addr32 -0x4(%esp)", 0x53),
	C("push %eax", 1, 0, "store 4 addr32 -0x4(%esp)", 0x50),
	C("pop %ebx", 1, 0, "load 4 addr32 0x0(%esp)", 0x5b),
	C("pop %edi", 1, 0, "load 4 addr32 0x0(%esp)", 0x5f),
	C("movl $imm32,(%ecx)", 6, 0, "store 4 addr32 0x0(%ecx)",
	  0xc7, 0x01, D32),
	C("movl $imm32,0x4(%ecx)", 7, 0, "store 4 addr32 0x4(%ecx)",
	  0xc7, 0x41, 0x04, D32),
	C("mov %eax,%edx", 2, 0, "none", 0x89, 0xc2),
	C("jmp *(%ecx,%edx,4)", 3, BR | IND, "load 4 addr32 0x0(%ecx,%edx,4)",
	  0xff, 0x24, 0x91),
	C("jmp *%ebx", 2, BR | IND, "none", 0xff, 0xe3),
	C("subl $0x1,(%esp)", 4, 0,
	  "load 4 addr32 0x0(%esp); store 4 addr32 0x0(%esp)",
	  0x83, 0x2c, 0x24, 0x01),
	C("mov (%ecx),%edx", 2, 0, "load 4 addr32 0x0(%ecx)", 0x8b, 0x11),
	C("add 0x8(%ecx),%edx", 3, 0, "load 4 addr32 0x8(%ecx)",
	  0x03, 0x51, 0x08),
	C("xor 0x20(%ecx),%edx", 3, 0, "load 4 addr32 0x20(%ecx)",
	  0x33, 0x51, 0x20),
	C("or 0x28(%ecx),%edx", 3, 0, "load 4 addr32 0x28(%ecx)",
	  0x0b, 0x51, 0x28),
	C("cmp 0x30(%ecx),%edx", 3, 0, "load 4 addr32 0x30(%ecx)",
	  0x3b, 0x51, 0x30),
	C("test %edx,0x38(%ecx)", 3, 0, "load 4 addr32 0x38(%ecx)",
	  0x85, 0x51, 0x38),
	C("mov %edx,(%ecx)", 2, 0, "store 4 addr32 0x0(%ecx)", 0x89, 0x11),
	C("mov %edx,0x38(%ecx)", 3, 0, "store 4 addr32 0x38(%ecx)",
	  0x89, 0x51, 0x38),
	C("mov (%edx),%edx", 2, 0, "load 4 addr32 0x0(%edx)", 0x8b, 0x12),
	C("rep movsb", 2, REP,
	  "load 1 addr32 0x0(%esi); store 1 addr32 0x0(%edi)", 0xf3, 0xa4),
	C("div %ebx", 2, 0, "none", 0xf7, 0xf3),
	C("idiv %esi", 2, 0, "none", 0xf7, 0xfe),
	C("cltd", 1, 0, "none", 0x99),
	C("cpuid", 2, SER, "none", 0x0f, 0xa2),
	C("mov %ds,%edx", 2, 0, "none", 0x8c, 0xda),
	C("mov %edx,%ds", 2, SEG, "none", 0x8e, 0xda),
};

/* ---- what 32-bit mode does differently */
static const struct case32 t_mode[] = {
	/* no REX: 40-4F are INC/DEC r32 of one byte */
	C("inc %eax (40)", 1, 0, "none", 0x40),
	C("dec %edi (4F)", 1, 0, "none", 0x4f),
	C("dec %eax (48: not REX.W)", 1, 0, "none", 0x48),
	C("inc %ecx (41: not REX.B)", 1, 0, "none", 0x41),
	/* ModRM mod=00 rm=101: absolute disp32, not RIP-relative */
	C("add %eax,0x12345678", 6, 0,
	  "load 4 addr32 0x12345678; store 4 addr32 0x12345678",
	  0x01, 0x05, D32),
	C("mov 0x12345678,%eax (8B 05)", 6, 0, "load 4 addr32 0x12345678",
	  0x8b, 0x05, D32),
	C("mov 0x12345678(,%ecx,4),%eax (SIB, no base)", 7, 0,
	  "load 4 addr32 0x12345678(,%ecx,4)", 0x8b, 0x04, 0x8d, D32),
	C("mov -0x8(%ebp),%eax", 3, 0, "load 4 addr32 -0x8(%ebp)",
	  0x8b, 0x45, 0xf8),
	/* 66: 16-bit operands; 67: 16-bit addressing (Table 2-1) */
	C("mov %ax,(%ebx) (66)", 3, 0, "store 2 addr32 0x0(%ebx)",
	  0x66, 0x89, 0x03),
	C("mov $0x1234,%ax (66 B8)", 4, 0, "none", 0x66, 0xb8, I16),
	C("addr16 mov (%bx,%si),%eax", 3, 0, "load 4 addr16 0x0(%ebx,%esi,1)",
	  0x67, 0x8b, 0x00),
	C("addr16 mov (%bp,%di),%eax", 3, 0, "load 4 addr16 0x0(%ebp,%edi,1)",
	  0x67, 0x8b, 0x03),
	C("addr16 mov (%si),%eax", 3, 0, "load 4 addr16 0x0(%esi)",
	  0x67, 0x8b, 0x04),
	C("addr16 mov (%bx),%eax", 3, 0, "load 4 addr16 0x0(%ebx)",
	  0x67, 0x8b, 0x07),
	C("addr16 mov 0x1234,%eax (rm 6 mod 0: disp16)", 5, 0,
	  "load 4 addr16 0x1234", 0x67, 0x8b, 0x06, I16),
	C("addr16 mov 0x8(%bp),%eax", 4, 0, "load 4 addr16 0x8(%ebp)",
	  0x67, 0x8b, 0x46, 0x08),
	C("addr16 mov -0x80(%bx,%di),%eax", 4, 0,
	  "load 4 addr16 -0x80(%ebx,%edi,1)", 0x67, 0x8b, 0x41, 0x80),
	C("addr16 mov 0x1234(%bx,%si),%eax (mod 2)", 5, 0,
	  "load 4 addr16 0x1234(%ebx,%esi,1)", 0x67, 0x8b, 0x80, I16),
	C("addr16 rep movsb (SI, DI)", 3, REP,
	  "load 1 addr16 0x0(%esi); store 1 addr16 0x0(%edi)",
	  0x67, 0xf3, 0xa4),
	C("addr16 push (%bx) (the stack stays 32-bit)", 3, 0,
	  "load 4 addr16 0x0(%ebx); store 4 addr32 -0x4(%esp)",
	  0x67, 0xff, 0x37),
	/* stack, CALL and RET: 4 bytes, 2 with 66 */
	C("push $0x12", 2, 0, "store 4 addr32 -0x4(%esp)", 0x6a, 0x12),
	C("push $imm32", 5, 0, "store 4 addr32 -0x4(%esp)", 0x68, D32),
	C("pushw $0x1234", 4, 0, "store 2 addr32 -0x2(%esp)",
	  0x66, 0x68, I16),
	C("push %ax", 2, 0, "store 2 addr32 -0x2(%esp)", 0x66, 0x50),
	C("pushf", 1, 0, "store 4 addr32 -0x4(%esp)", 0x9c),
	C("popf", 1, 0, "load 4 addr32 0x0(%esp)", 0x9d),
	C("leave", 1, 0, "load 4 addr32 0x0(%ebp)", 0xc9),
	C("pop (%esp) (address after ESP moves)", 3, 0,
	  "load 4 addr32 0x0(%esp); store 4 addr32 0x4(%esp)",
	  0x8f, 0x04, 0x24),
	C("ret $0x8", 3, BR | RT | IND, "load 4 addr32 0x0(%esp)",
	  0xc2, 0x08, 0x00),
	C("retw (66)", 2, BR | RT | IND, "load 2 addr32 0x0(%esp)",
	  0x66, 0xc3),
	C("call *(%eax)", 2, BR | CL | IND,
	  "load 4 addr32 0x0(%eax); store 4 addr32 -0x4(%esp)", 0xff, 0x10),
	C("call *0x12345678 (absolute)", 6, BR | CL | IND,
	  "load 4 addr32 0x12345678; store 4 addr32 -0x4(%esp)",
	  0xff, 0x15, D32),
	C("jmp *0x12345678 (absolute)", 6, BR | IND,
	  "load 4 addr32 0x12345678", 0xff, 0x25, D32),
	C("callw rel16 (66 E8)", 4, BR | CL, "store 2 addr32 -0x2(%esp)",
	  0x66, 0xe8, I16),
	C("jmpw rel16 (66 E9)", 4, BR, "none", 0x66, 0xe9, I16),
	C("jne rel16 (66 0F 85)", 5, BR | CND, "none", 0x66, 0x0f, 0x85, I16),
	C("jne rel32", 6, BR | CND, "none", 0x0f, 0x85, D32),
	C("lret", 1, FAR | SEG,
	  "load 4 addr32 0x0(%esp); load 4 addr32 0x4(%esp)", 0xcb),
	/* i64 opcodes that exist here */
	C("push %es", 1, 0, "store 4 addr32 -0x4(%esp)", 0x06),
	C("push %cs", 1, 0, "store 4 addr32 -0x4(%esp)", 0x0e),
	C("push %ss", 1, 0, "store 4 addr32 -0x4(%esp)", 0x16),
	C("push %ds", 1, 0, "store 4 addr32 -0x4(%esp)", 0x1e),
	C("pop %es", 1, SEG, "load 4 addr32 0x0(%esp)", 0x07),
	C("pop %ss", 1, SEG, "load 4 addr32 0x0(%esp)", 0x17),
	C("pop %ds", 1, SEG, "load 4 addr32 0x0(%esp)", 0x1f),
	C("pop %fs", 2, SEG, "load 4 addr32 0x0(%esp)", 0x0f, 0xa1),
	C("addb $0x1,(%ebx) (82 /0)", 3, 0,
	  "load 1 addr32 0x0(%ebx); store 1 addr32 0x0(%ebx)",
	  0x82, 0x03, 0x01),
	C("cmpb $0x1,%al (82 /7)", 3, 0, "none", 0x82, 0xf8, 0x01),
	C("mov 0x12345678,%al (A0)", 5, 0, "load 1 addr32 0x12345678",
	  0xa0, D32),
	C("mov 0x12345678,%eax (A1)", 5, 0, "load 4 addr32 0x12345678",
	  0xa1, D32),
	C("mov %ax,0x12345678 (66 A3)", 6, 0, "store 2 addr32 0x12345678",
	  0x66, 0xa3, D32),
	C("mov %eax,%fs:0x12345678 (64 A3)", 6, 0,
	  "store 4 addr32 fs:0x12345678", 0x64, 0xa3, D32),
	C("addr16 mov 0x1234,%eax (67 A1: moffs16)", 4, 0,
	  "load 4 addr16 0x1234", 0x67, 0xa1, I16),
	/* segment overrides: FS and GS recorded, the flat ones not */
	C("mov %fs:0x8(%eax),%ecx", 4, 0, "load 4 addr32 fs:0x8(%eax)",
	  0x64, 0x8b, 0x48, 0x08),
	C("mov %ecx,%gs:(%eax)", 3, 0, "store 4 addr32 gs:0x0(%eax)",
	  0x65, 0x89, 0x08),
	C("mov %es:(%eax),%ecx (flat: base 0)", 3, 0,
	  "load 4 addr32 0x0(%eax)", 0x26, 0x8b, 0x08),
	C("mov %ss:(%eax),%ecx", 3, 0, "load 4 addr32 0x0(%eax)",
	  0x36, 0x8b, 0x08),
	C("movsl %fs:(%esi),%es:(%edi)", 2, 0,
	  "load 4 addr32 fs:0x0(%esi); store 4 addr32 0x0(%edi)", 0x64, 0xa5),
	/* far transfers, interrupts: undescribed */
	C("int3", 1, FAR | SEG | MU, "unknown", 0xcc),
	C("int $0x80", 2, FAR | SEG | MU, "unknown", 0xcd, 0x80),
	C("iret", 1, FAR | SEG | SER | MU, "unknown", 0xcf),
	C("jecxz rel8", 2, BR | CND, "none", 0xe3, 0x10),
	C("loop rel8", 2, BR | CND, "none", 0xe2, 0x10),
};

/* ---- not classified in 32-bit mode */
static const struct case32 t_unclassified[] = {
	U("daa", 0x27), U("das", 0x2f), U("aaa", 0x37), U("aas", 0x3f),
	U("pusha", 0x60), U("popa", 0x61), U("bound (62)", 0x62, 0x03),
	U("arpl (63, MOVSXD in 64-bit mode)", 0x63, 0xc8),
	U("lcall ptr16:32 (9A)", 0x9a, D32, 0x08, 0x00),
	U("ljmp ptr16:32 (EA)", 0xea, D32, 0x08, 0x00),
	U("les (C4)", 0xc4, 0x03), U("lds (C5)", 0xc5, 0x03),
	U("into", 0xce), U("aam", 0xd4, 0x0a), U("aad", 0xd5, 0x0a),
	U("salc", 0xd6),
	U("syscall (#UD outside 64-bit mode)", 0x0f, 0x05),
	U("ud2", 0x0f, 0x0b), U("hlt", 0xf4),
	U("lcall *(%eax) (FF /3)", 0xff, 0x18),
	U("15 x cs, nop", 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e,
	  0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x90),
};

static struct insn_class decode32(const struct case32 *c, uint8_t fill)
{
	uint8_t buf[32];

	memset(buf, fill, sizeof(buf));
	memcpy(buf, c->bytes, c->n);
	return decode_insn_mode(buf, DEC_MODE_32);
}

/* Prints what is wrong with one case; returns 1 when it fails. */
static int check_case(const struct case32 *c)
{
	struct insn_class k = decode32(c, 0x00), k2 = decode32(c, 0xff);
	unsigned ld = 0, st = 0;
	char got[160], got2[160];

	if (!(c->flags & UNC) && c->n != c->length) {
		print_error("table error: %s: %u bytes listed, length %u\n",
			    c->what, c->n, c->length);
		return 1;
	}
	fmt_mem(got, sizeof(got), k, DEC_MODE_32);
	fmt_mem(got2, sizeof(got2), k2, DEC_MODE_32);
	for (unsigned i = 0; i < k.n_mem; i++)
		*(k.mem[i].flags & MEM_STORE ? &st : &ld) += 1;
	if (k.length != c->length || k.flags != c->flags ||
	    strcmp(got, c->mem)) {
		print_error("%s: got length %u flags %#x \"%s\"; want length "
			    "%u flags %#x \"%s\"\n", c->what, k.length,
			    k.flags, got, c->length, c->flags, c->mem);
		return 1;
	}
	if (!(k.flags & (UNC | MU)) && (k.loads != ld || k.stores != st)) {
		print_error("%s: loads %u stores %u, accesses %u + %u\n",
			    c->what, k.loads, k.stores, ld, st);
		return 1;
	}
	if (k.length != k2.length || k.flags != k2.flags || strcmp(got, got2)) {
		print_error("%s: the class depends on the bytes after it\n",
			    c->what);
		return 1;
	}
	return 0;
}

static void run_table(const struct case32 *t, unsigned n, const char *name)
{
	unsigned bad = 0;

	for (unsigned i = 0; i < n; i++)
		bad += (unsigned)check_case(&t[i]);
	if (bad)
		fail_msg("%s: %u of %u encodings wrong", name, bad, n);
}

static void test_bench_forms(void **state)
{
	run_table(t_bench, N(t_bench), "bench/i386 forms");
}

static void test_mode_forms(void **state)
{
	run_table(t_mode, N(t_mode), "32-bit mode forms");
}

static void test_unclassified(void **state)
{
	run_table(t_unclassified, N(t_unclassified), "unclassified");
}

/* The same bytes decode otherwise in 64-bit mode: the mode is honoured
 * both ways (48 C3 is REX.W RET there, 8B 05 RIP-relative, 63 MOVSXD). */
static void test_modes_differ(void **state)
{
	static const uint8_t rexw_ret[] = { 0x48, 0xc3 };
	static const uint8_t rip[] = { 0x8b, 0x05, D32 };
	static const uint8_t movsxd[] = { 0x63, 0xc8 };
	static const uint8_t call[] = { 0xe8, D32 };
	struct insn_class a, b;

	a = decode_insn_mode(rexw_ret, DEC_MODE_64);
	b = decode_insn_mode(rexw_ret, DEC_MODE_32);
	assert_int_equal(a.length, 2);
	assert_int_equal(b.length, 1);
	a = decode_insn_mode(rip, DEC_MODE_64);
	b = decode_insn_mode(rip, DEC_MODE_32);
	assert_int_equal(a.mem[0].base, MEM_RIP);
	assert_int_equal(b.mem[0].base, MEM_NOREG);
	a = decode_insn_mode(movsxd, DEC_MODE_64);
	b = decode_insn_mode(movsxd, DEC_MODE_32);
	assert_int_equal(a.length, 2);
	assert_true(b.flags & DEC_UNCLASSIFIED);
	a = decode_insn_mode(call, DEC_MODE_64);
	b = decode_insn_mode(call, DEC_MODE_32);
	assert_int_equal(a.mem[0].size, 8);
	assert_int_equal(b.mem[0].size, 4);
	/* the host test itself is x86-64: decode_insn() is 64-bit here */
	a = decode_insn(call);
	assert_int_equal(a.mem[0].size, 8);
}

/* mem_offset() of 32-bit operands: everything wraps to 32 bits, to 16
 * with 67.  Registers hold 32-bit values (the i386 tracer's gpr[]). */
struct ocase {
	char what[48];
	uint8_t i;
	uint64_t want;
	uint8_t n;
	uint8_t bytes[12];
};

#define O(what, i, want, ...)                                                \
	{ what, i, want, sizeof((uint8_t[]){ __VA_ARGS__ }), { __VA_ARGS__ } }
#define REG32(r) (0x10000000u * ((r) + 1) + 0x101u * (r))

static const struct ocase t_offset[] = {
	O("mov 0x8(%ebx,%ecx,4),%eax", 0, REG32(3) + 4 * REG32(1) + 8,
	  0x8b, 0x44, 0x8b, 0x08),
	O("mov -0x80(%ebx),%eax", 0, REG32(3) - 0x80, 0x8b, 0x43, 0x80),
	O("mov 0x12345678,%eax (absolute)", 0, 0x12345678, 0x8b, 0x05, D32),
	O("mov 0xfffffff0,%eax (no sign extension)", 0, 0xfffffff0u,
	  0x8b, 0x05, 0xf0, 0xff, 0xff, 0xff),
	O("mov 0x7fffffff(%esi,%edi,8),%eax (wraps)", 0,
	  (uint32_t)(REG32(6) + 8ull * REG32(7) + 0x7fffffff),
	  0x8b, 0x84, 0xfe, 0xff, 0xff, 0xff, 0x7f),
	O("push %eax", 0, REG32(4) - 4, 0x50),
	O("call rel32: the return address", 0, REG32(4) - 4, 0xe8, D32),
	O("pop (%esp): the store", 1, REG32(4) + 4, 0x8f, 0x04, 0x24),
	O("addr16 mov 0x10(%bx,%si),%eax (wraps to 16)", 0,
	  (uint16_t)(REG32(3) + REG32(6) + 0x10), 0x67, 0x8b, 0x40, 0x10),
	O("addr16 mov -0x2(%bp),%eax", 0, (uint16_t)(REG32(5) - 2),
	  0x67, 0x8b, 0x46, 0xfe),
	O("movsb: destination", 1, REG32(7), 0xa4),
};

static void test_mem_offset(void **state)
{
	uint64_t gpr[16] = { 0 };
	unsigned bad = 0;

	for (unsigned r = 0; r < 8; r++)
		gpr[r] = REG32(r);
	for (unsigned i = 0; i < N(t_offset); i++) {
		const struct ocase *c = &t_offset[i];
		struct insn_class k = decode_insn_mode(c->bytes, DEC_MODE_32);
		uint64_t got = 0;

		if (k.length == c->n && c->i < k.n_mem)
			got = mem_offset(&k.mem[c->i], gpr, 0x100000 +
					 k.length);
		if (k.length != c->n || c->i >= k.n_mem || got != c->want) {
			print_error("%s: access %u: got %#llx, want %#llx "
				    "(length %u)\n", c->what, c->i,
				    (unsigned long long)got,
				    (unsigned long long)c->want, k.length);
			bad++;
		}
	}
	if (bad)
		fail_msg("%u of %u offsets wrong", bad, (unsigned)N(t_offset));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bench_forms),
		cmocka_unit_test(test_mode_forms),
		cmocka_unit_test(test_unclassified),
		cmocka_unit_test(test_modes_differ),
		cmocka_unit_test(test_mem_offset),
	};

	return cmocka_run_group_tests_name("decode32", tests, NULL, NULL);
}
