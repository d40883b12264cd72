/* decode: x86 classifier for the oracle (see decode.h), in 64-bit mode
 * and in 32-bit protected mode.  Opcode facts from SDM Vol. 2 Appendix A
 * (opcode maps, Tables; "i64" marks what 64-bit mode lacks,
 * "o64" what only it has) and the instruction pages; only the forms the
 * harness's benchmarks and stubs use are classified, anything else is
 * reported as unclassified. */
#include "decode.h"

#define MAX_INSN 15		/* SDM Vol. 2 §2.3.11: longer raises #GP */

enum { REG_RSP = 4, REG_RBP = 5, REG_RSI = 6, REG_RDI = 7 };

struct ctx {
	const uint8_t *p;
	unsigned len;		/* bytes consumed so far */
	int too_long;		/* tried to read past MAX_INSN bytes */
	int mode32;		/* DEC_MODE_32: 32-bit protected mode */
	int opsize16, addr67, rep;	/* 66, 67, F2/F3 seen */
	unsigned rex;		/* the REX byte's WRXB bits, or 0 (always
				 * 0 in 32-bit mode) */
	unsigned seg;		/* MEM_FS or MEM_GS from the last segment
				 * override, else 0 */
	unsigned modrm_mod, modrm_reg, modrm_rm;
	int has_modrm;
	struct mem_operand ea;	/* the ModRM memory operand (mod != 3) */
	unsigned n_mem;
	struct mem_operand mem[DEC_MAX_MEM];
};

#define REX_W 8u
#define REX_X 2u
#define REX_B 1u

/* Never reads past the 15th byte: the code may end at a page boundary. */
static uint8_t next(struct ctx *c)
{
	if (c->len >= MAX_INSN) {
		c->too_long = 1;
		return 0;
	}
	return c->p[c->len++];
}

/* A little-endian displacement of 1, 2 or 4 bytes, sign-extended. */
static int32_t disp(struct ctx *c, unsigned bytes)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < bytes; i++)
		v |= (uint32_t)next(c) << (8 * i);
	if (bytes == 1)
		return (int8_t)v;
	return bytes == 2 ? (int16_t)v : (int32_t)v;
}

/* How an explicit offset wraps (decode.h): 64-bit mode, 32 bits with 67;
 * 32-bit mode, 32 bits, 16 with 67. */
static unsigned addr_flags(const struct ctx *c)
{
	if (c->mode32)
		return c->addr67 ? MEM_ADDR16 : MEM_ADDR32;
	return c->addr67 ? MEM_ADDR32 : 0;
}

/* The stack's address size: 64 bits in 64-bit mode, 32 in 32-bit mode
 * (SS.B = 1), whatever 67 says (SDM Vol. 1 §6.2.5, order no. 253665). */
static unsigned stack_flags(const struct ctx *c)
{
	return c->mode32 ? MEM_ADDR32 : 0;
}

/* SIB (SDM Vol. 2A §2.1.5 Table 2-3, §2.2.1.2 Table 2-5, order no.
 * 253666): index 100b without REX.X is no index; base 101b with mod 00 is
 * no base and a disp32, whatever REX.B says. */
static void sib(struct ctx *c)
{
	uint8_t b = next(c);
	unsigned index = (b >> 3 & 7) | (c->rex & REX_X ? 8 : 0);

	c->ea.scale = b >> 6;
	c->ea.index = index == REG_RSP ? MEM_NOREG : (uint8_t)index;
	if (c->modrm_mod == 0 && (b & 7) == 5) {
		c->ea.base = MEM_NOREG;
		c->ea.disp = disp(c, 4);
	} else {
		c->ea.base = (uint8_t)((b & 7) | (c->rex & REX_B ? 8 : 0));
	}
}

/* 16-bit addressing, 32-bit mode with 67 (SDM Vol. 2A §2.1.5 Table 2-1):
 * rm 0-3 [BX+SI] [BX+DI] [BP+SI] [BP+DI], 4-7 [SI] [DI] [BP] [BX];
 * mod=00 rm=110 is a disp16 alone; mod 1 adds a disp8, mod 2 a disp16.
 * No SIB byte.  (BP-based forms default to SS: flat, decode.h.) */
static void modrm16(struct ctx *c)
{
	static const uint8_t base[8] = { 3, 3, 5, 5, 6, 7, 5, 3 };
	static const uint8_t index[8] = { 6, 7, 6, 7, MEM_NOREG, MEM_NOREG,
					  MEM_NOREG, MEM_NOREG };

	c->ea.base = base[c->modrm_rm];
	c->ea.index = index[c->modrm_rm];
	if (c->modrm_mod == 0 && c->modrm_rm == 6) {
		c->ea.base = MEM_NOREG;
		c->ea.disp = disp(c, 2);
	} else if (c->modrm_mod == 1) {
		c->ea.disp = disp(c, 1);
	} else if (c->modrm_mod == 2) {
		c->ea.disp = disp(c, 2);
	}
}

/* ModRM, SIB and displacement (SDM Vol. 2A §2.1.5 Tables 2-2 and 2-3;
 * 64-bit mode: mod=00 rm=101 is RIP+disp32, §2.2.1.6; 32-bit mode: an
 * absolute disp32), kept in c->ea. */
static void modrm(struct ctx *c)
{
	uint8_t m = next(c);

	c->has_modrm = 1;
	c->modrm_mod = m >> 6;
	c->modrm_reg = (m >> 3) & 7;
	c->modrm_rm = m & 7;
	if (c->modrm_mod == 3)
		return;
	c->ea.disp = 0;
	c->ea.index = MEM_NOREG;
	c->ea.scale = 0;
	c->ea.flags = (uint8_t)(c->seg | addr_flags(c));
	if (c->mode32 && c->addr67) {
		modrm16(c);
		return;
	}
	if (c->modrm_rm == 4) {
		sib(c);
	} else if (c->modrm_mod == 0 && c->modrm_rm == 5) {
		c->ea.base = c->mode32 ? MEM_NOREG : MEM_RIP;
		c->ea.disp = disp(c, 4);
	} else {
		c->ea.base = (uint8_t)(c->modrm_rm | (c->rex & REX_B ? 8 : 0));
	}
	if (c->modrm_mod == 1)
		c->ea.disp = disp(c, 1);
	else if (c->modrm_mod == 2)
		c->ea.disp = disp(c, 4);
}

static int is_mem(const struct ctx *c)
{
	return c->has_modrm && c->modrm_mod != 3;
}

/* Iz: 16 bits with the 66 prefix, else 32; REX.W wins over 66 (SDM Vol. 2
 * §2.2.1.2, Table 2-4). */
static unsigned imm_z(const struct ctx *c)
{
	return c->opsize16 && !(c->rex & REX_W) ? 2 : 4;
}

/* The operand size of a v operand: 8 with REX.W, 2 with 66, else 4. */
static unsigned size_v(const struct ctx *c)
{
	return c->rex & REX_W ? 8 : c->opsize16 ? 2 : 4;
}

/* Stack operations in 64-bit mode: 8 bytes, 2 with 66 alone (SDM Vol. 1
 * §6.2.5, order no. 253665; Vol. 2A §2.2.1.7); in 32-bit mode the
 * operand size, 4 bytes or 2 with 66. */
static unsigned size_stack(const struct ctx *c)
{
	if (c->mode32)
		return c->opsize16 ? 2 : 4;
	return c->opsize16 && !(c->rex & REX_W) ? 2 : 8;
}

/* A near branch's target and return address: 8 bytes in 64-bit mode
 * whatever 66 says (Intel 64: SDM Vol. 2A CALL, JMP; Vol. 2B RET); 4 in
 * 32-bit mode, 2 with 66 (EIP truncated to 16 bits). */
static unsigned size_near(const struct ctx *c)
{
	return c->mode32 ? (c->opsize16 ? 2 : 4) : 8;
}

/* rel16/32 of CALL, JMP and Jcc: 4 bytes in 64-bit mode (66 is ignored
 * on Intel 64, SDM Vol. 2A Jcc, JMP), 2 with 66 in 32-bit mode. */
static unsigned rel_z(const struct ctx *c)
{
	return c->mode32 && c->opsize16 ? 2 : 4;
}

static void add_mem(struct ctx *c, struct mem_operand m, unsigned size,
		    unsigned store)
{
	if (c->n_mem >= DEC_MAX_MEM)
		return;
	m.size = (uint8_t)size;
	m.flags = (uint8_t)(m.flags | (store ? MEM_STORE : 0));
	c->mem[c->n_mem++] = m;
}

/* The ModRM operand, when it is memory: a load, a store, or both. */
static void ea_load(struct ctx *c, unsigned size)
{
	if (is_mem(c))
		add_mem(c, c->ea, size, 0);
}

static void ea_store(struct ctx *c, unsigned size)
{
	if (is_mem(c))
		add_mem(c, c->ea, size, 1);
}

/* An implicit access at reg + disp, no segment override, the stack's
 * address size (67 does not change it: SDM Vol. 1 §6.2.5). */
static void implicit(struct ctx *c, unsigned reg, int32_t d, unsigned size,
		     unsigned store)
{
	struct mem_operand m = { d, (uint8_t)reg, MEM_NOREG, 0, 0,
				 (uint8_t)stack_flags(c) };

	add_mem(c, m, size, store);
}

static void push_slot(struct ctx *c, unsigned size)
{
	implicit(c, REG_RSP, -(int32_t)size, size, 1);
}

static void pop_slot(struct ctx *c, unsigned size)
{
	implicit(c, REG_RSP, 0, size, 0);
}

static struct insn_class done(struct ctx *c, unsigned flags, unsigned loads,
			      unsigned stores)
{
	struct insn_class k = { (uint8_t)c->len, (uint16_t)flags,
				(uint8_t)loads, (uint8_t)stores,
				(uint8_t)c->n_mem, { c->mem[0], c->mem[1] } };
	return k;
}

static struct insn_class unclassified(void)
{
	struct insn_class k = { 0, DEC_UNCLASSIFIED, 0, 0, 0, { { 0 } } };
	return k;
}

/* ALU ops 00-3F: op&7 = 0 Eb,Gb 1 Ev,Gv 2 Gb,Eb 3 Gv,Ev 4 AL,Ib 5 rAX,Iz;
 * CMP (38-3D) writes nothing. */
static struct insn_class alu(struct ctx *c, uint8_t op)
{
	unsigned form = op & 7, is_cmp = (op & 0x38) == 0x38, m;

	if (form == 4) {
		c->len += 1;
		return done(c, 0, 0, 0);
	}
	if (form == 5) {
		c->len += imm_z(c);
		return done(c, 0, 0, 0);
	}
	if (form > 5)
		return unclassified();
	modrm(c);
	m = is_mem(c);
	ea_load(c, form & 1 ? size_v(c) : 1);
	if (form <= 1 && !is_cmp) {	/* memory is the destination */
		ea_store(c, form & 1 ? size_v(c) : 1);
		return done(c, 0, m, m);
	}
	return done(c, 0, m, 0);
}

/* Read-modify-write of the ModRM operand: a load, then a store. */
static struct insn_class rmw(struct ctx *c, unsigned size)
{
	unsigned m = is_mem(c);

	ea_load(c, size);
	ea_store(c, size);
	return done(c, 0, m, m);
}

/* Group 1 (80 Eb, 81 and 83 Ev): /7 is CMP. */
static struct insn_class group1(struct ctx *c, unsigned imm, unsigned size)
{
	unsigned m;

	modrm(c);
	c->len += imm;
	m = is_mem(c);
	if (c->modrm_reg == 7) {
		ea_load(c, size);
		return done(c, 0, m, 0);
	}
	return rmw(c, size);
}

/* Group 2 shifts and rotates: read-modify-write. */
static struct insn_class group2(struct ctx *c, unsigned imm, unsigned size)
{
	modrm(c);
	c->len += imm;
	return rmw(c, size);
}

/* Group 3 (F6, F7): /0 /1 TEST E,I; /2 NOT; /3 NEG; /4-/7 MUL IMUL DIV IDIV. */
static struct insn_class group3(struct ctx *c, int byte)
{
	unsigned m, size;

	modrm(c);
	m = is_mem(c);
	size = byte ? 1 : size_v(c);
	if (c->modrm_reg <= 1) {
		c->len += byte ? 1 : imm_z(c);
		ea_load(c, size);
		return done(c, 0, m, 0);
	}
	if (c->modrm_reg <= 3)
		return rmw(c, size);
	ea_load(c, size);
	return done(c, 0, m, 0);
}

/* Group 5 (FF): /0 INC /1 DEC /2 CALL near /3 CALL far /4 JMP near
 * /5 JMP far /6 PUSH.  Near CALL and JMP load a target of size_near() and
 * CALL pushes that many bytes. */
static struct insn_class group5(struct ctx *c)
{
	unsigned m;

	modrm(c);
	m = is_mem(c);
	switch (c->modrm_reg) {
	case 0:
	case 1:
		return rmw(c, size_v(c));
	case 2:
		ea_load(c, size_near(c));
		push_slot(c, size_near(c));
		return done(c, DEC_BRANCH | DEC_CALL | DEC_INDIRECT, m, 1);
	case 4:
		ea_load(c, size_near(c));
		return done(c, DEC_BRANCH | DEC_INDIRECT, m, 0);
	case 6:		/* the address is formed before RSP moves */
		ea_load(c, size_stack(c));
		push_slot(c, size_stack(c));
		return done(c, 0, m, 1);
	default:
		return unclassified();
	}
}

/* A string operand: [RSI] in DS (or the override), [RDI] always in ES
 * (SDM Vol. 2B MOVS, order no. 253667); ESI/EDI with 67 in 64-bit mode,
 * ESI/EDI in 32-bit mode and SI/DI there with 67. */
static void string_mem(struct ctx *c, unsigned reg, unsigned size,
		       unsigned store)
{
	struct mem_operand m = { 0, (uint8_t)reg, MEM_NOREG, 0, 0, 0 };

	m.flags = (uint8_t)((reg == REG_RSI ? c->seg : 0) | addr_flags(c));
	add_mem(c, m, size, store);
}

/* Accesses of one iteration: the even opcodes move bytes. */
static struct insn_class string_op(struct ctx *c, uint8_t op)
{
	unsigned flags = c->rep ? DEC_REP_STRING : 0;
	unsigned size = op & 1 ? size_v(c) : 1;

	switch (op) {
	case 0xa4: case 0xa5:					/* MOVS */
		string_mem(c, REG_RSI, size, 0);
		string_mem(c, REG_RDI, size, 1);
		return done(c, flags, 1, 1);
	case 0xa6: case 0xa7:					/* CMPS */
		string_mem(c, REG_RSI, size, 0);
		string_mem(c, REG_RDI, size, 0);
		return done(c, flags, 2, 0);
	case 0xaa: case 0xab:					/* STOS */
		string_mem(c, REG_RDI, size, 1);
		return done(c, flags, 0, 1);
	case 0xac: case 0xad:					/* LODS */
		string_mem(c, REG_RSI, size, 0);
		return done(c, flags, 1, 0);
	default:						/* SCAS */
		string_mem(c, REG_RDI, size, 0);
		return done(c, flags, 1, 0);
	}
}

/* ModRM then a load of its memory operand (G, E forms). */
static struct insn_class load_e(struct ctx *c, unsigned size)
{
	modrm(c);
	ea_load(c, size);
	return done(c, 0, is_mem(c), 0);
}

static struct insn_class two_byte(struct ctx *c)
{
	uint8_t op = next(c);

	if (op >= 0x80 && op <= 0x8f) {		/* Jcc rel16/32 */
		c->len += rel_z(c);
		return done(c, DEC_BRANCH | DEC_COND, 0, 0);
	}
	if (op >= 0x40 && op <= 0x4f)		/* CMOVcc: always reads */
		return load_e(c, size_v(c));
	if (op >= 0x90 && op <= 0x9f) {		/* SETcc */
		modrm(c);
		ea_store(c, 1);
		return done(c, 0, 0, is_mem(c));
	}
	if (op >= 0xc8 && op <= 0xcf)		/* BSWAP */
		return done(c, 0, 0, 0);
	switch (op) {
	case 0x1f:				/* NOP Ev: no access */
		modrm(c);
		return done(c, 0, 0, 0);
	case 0xa2:				/* CPUID */
		return done(c, DEC_SERIALIZE, 0, 0);
	case 0x31:				/* RDTSC */
		return done(c, 0, 0, 0);
	case 0xaf:				/* IMUL Gv,Ev */
		return load_e(c, size_v(c));
	case 0xb6: case 0xbe:			/* MOVZX/MOVSX Gv,Eb */
		return load_e(c, 1);
	case 0xb7: case 0xbf:			/* MOVZX/MOVSX Gv,Ew */
		return load_e(c, 2);
	/* PUSH Sreg stores a slot of the operand size; some processors
	 * write only its low 16 bits (SDM Vol. 2B PUSH). */
	case 0xa0: case 0xa8:			/* PUSH FS/GS */
		push_slot(c, size_stack(c));
		return done(c, 0, 0, 1);
	case 0xa1: case 0xa9:			/* POP FS/GS */
		pop_slot(c, size_stack(c));
		return done(c, DEC_SEGLOAD, 1, 0);
	case 0x05:		/* SYSCALL: #UD outside 64-bit mode on Intel
				 * processors (SDM Vol. 2B SYSCALL) */
		return c->mode32 ? unclassified() : done(c, DEC_FAR, 0, 0);
	default:
		return unclassified();
	}
}

/* POP Ev: loads the stack slot, then stores it; an address through RSP
 * is formed after RSP is incremented (SDM Vol. 2B POP). */
static struct insn_class pop_ev(struct ctx *c)
{
	unsigned size = size_stack(c);

	pop_slot(c, size);
	if (is_mem(c) && c->ea.base == REG_RSP)
		c->ea.disp += (int32_t)size;
	ea_store(c, size);
	return done(c, 0, 1, is_mem(c));
}

/* Far RET pops RIP then CS, each a slot of the operand size: 4 bytes by
 * default in 64-bit mode, 8 with REX.W, 2 with 66 (SDM Vol. 2B RET). */
static struct insn_class ret_far(struct ctx *c)
{
	unsigned size = size_v(c);

	pop_slot(c, size);
	implicit(c, REG_RSP, (int32_t)size, size, 0);
	return done(c, DEC_FAR | DEC_SEGLOAD, 2, 0);
}

static struct insn_class one_byte(struct ctx *c, uint8_t op)
{
	if (op < 0x40 && (op & 7) < 6)
		return alu(c, op);
	if (op >= 0x50 && op <= 0x57) {			/* PUSH r */
		push_slot(c, size_stack(c));
		return done(c, 0, 0, 1);
	}
	if (op >= 0x58 && op <= 0x5f) {			/* POP r */
		pop_slot(c, size_stack(c));
		return done(c, 0, 1, 0);
	}
	if (op >= 0x70 && op <= 0x7f) {			/* Jcc rel8 */
		c->len += 1;
		return done(c, DEC_BRANCH | DEC_COND, 0, 0);
	}
	if (op >= 0x91 && op <= 0x97)			/* XCHG r, rAX */
		return done(c, 0, 0, 0);
	if (op >= 0xb0 && op <= 0xb7) {			/* MOV r8, Ib */
		c->len += 1;
		return done(c, 0, 0, 0);
	}
	if (op >= 0xb8 && op <= 0xbf) {			/* MOV r, Iv */
		c->len += c->rex & REX_W ? 8 : imm_z(c);
		return done(c, 0, 0, 0);
	}
	if (op >= 0xe0 && op <= 0xe3) {			/* LOOPcc, JrCXZ */
		c->len += 1;
		return done(c, DEC_BRANCH | DEC_COND, 0, 0);
	}
	if (op >= 0xa4 && op <= 0xaf && op != 0xa8 && op != 0xa9)
		return string_op(c, op);
	switch (op) {
	case 0x63:		/* MOVSXD: reads 32 bits, 16 with 66 alone;
				 * ARPL in 32-bit mode (not classified) */
		if (c->mode32)
			return unclassified();
		return load_e(c, size_v(c) == 2 ? 2 : 4);
	case 0x84: case 0x8a:			/* TEST, MOV Gb,Eb */
		return load_e(c, 1);
	case 0x85: case 0x8b:			/* TEST, MOV Gv,Ev */
		return load_e(c, size_v(c));
	case 0x69:					/* IMUL Gv,Ev,Iz */
		modrm(c);
		c->len += imm_z(c);
		ea_load(c, size_v(c));
		return done(c, 0, is_mem(c), 0);
	case 0x6b:					/* IMUL Gv,Ev,Ib */
		modrm(c);
		c->len += 1;
		ea_load(c, size_v(c));
		return done(c, 0, is_mem(c), 0);
	case 0x68:					/* PUSH Iz */
		c->len += imm_z(c);
		push_slot(c, size_stack(c));
		return done(c, 0, 0, 1);
	case 0x6a:					/* PUSH Ib */
		c->len += 1;
		push_slot(c, size_stack(c));
		return done(c, 0, 0, 1);
	case 0x80: return group1(c, 1, 1);
	case 0x81: return group1(c, imm_z(c), size_v(c));
	case 0x83: return group1(c, 1, size_v(c));
	case 0x86: case 0x87:				/* XCHG E,G */
		modrm(c);
		return rmw(c, op & 1 ? size_v(c) : 1);
	case 0x88: case 0x89:				/* MOV E,G */
		modrm(c);
		ea_store(c, op & 1 ? size_v(c) : 1);
		return done(c, 0, 0, is_mem(c));
	case 0x8d:					/* LEA: no access */
		modrm(c);
		return c->modrm_mod == 3 ? unclassified() : done(c, 0, 0, 0);
	/* MOV to or from a segment register moves 16 bits in memory
	 * (SDM Vol. 2B MOV). */
	case 0x8c:			/* MOV E, Sreg (reg > 5: #UD) */
		modrm(c);
		if (c->modrm_reg > 5)
			return unclassified();
		ea_store(c, 2);
		return done(c, 0, 0, is_mem(c));
	case 0x8e:			/* MOV Sreg, E (CS and reg > 5: #UD) */
		modrm(c);
		if (c->modrm_reg == 1 || c->modrm_reg > 5)
			return unclassified();
		ea_load(c, 2);
		return done(c, DEC_SEGLOAD, is_mem(c), 0);
	case 0x8f:			/* POP Ev is /0 only (else XOP) */
		modrm(c);
		if (c->modrm_reg)
			return unclassified();
		return pop_ev(c);
	case 0x90: case 0x98: case 0x99:		/* NOP, CBW.., CWD.. */
	case 0xf5: case 0xf8: case 0xf9: case 0xfc: case 0xfd:
		return done(c, 0, 0, 0);
	case 0xa8:					/* TEST AL, Ib */
		c->len += 1;
		return done(c, 0, 0, 0);
	case 0xa9:					/* TEST rAX, Iz */
		c->len += imm_z(c);
		return done(c, 0, 0, 0);
	case 0x9c:					/* PUSHF */
		push_slot(c, size_stack(c));
		return done(c, 0, 0, 1);
	case 0x9d:					/* POPF */
		pop_slot(c, size_stack(c));
		return done(c, 0, 1, 0);
	case 0xc0: return group2(c, 1, 1);
	case 0xc1: return group2(c, 1, size_v(c));
	case 0xd0: case 0xd2: return group2(c, 0, 1);
	case 0xd1: case 0xd3: return group2(c, 0, size_v(c));
	case 0xc2:					/* RET Iw */
		c->len += 2;
		pop_slot(c, size_near(c));
		return done(c, DEC_BRANCH | DEC_RET | DEC_INDIRECT, 1, 0);
	case 0xc3:					/* RET */
		pop_slot(c, size_near(c));
		return done(c, DEC_BRANCH | DEC_RET | DEC_INDIRECT, 1, 0);
	case 0xc6:			/* MOV Eb, Ib is /0 (C6 F8: XABORT) */
		modrm(c);
		c->len += 1;
		if (c->modrm_reg)
			return unclassified();
		ea_store(c, 1);
		return done(c, 0, 0, is_mem(c));
	case 0xc7:			/* MOV Ev, Iz is /0 (C7 F8: XBEGIN) */
		modrm(c);
		c->len += imm_z(c);
		if (c->modrm_reg)
			return unclassified();
		ea_store(c, size_v(c));
		return done(c, 0, 0, is_mem(c));
	case 0xc9:			/* LEAVE: RSP = RBP, then POP RBP */
		implicit(c, REG_RBP, 0, size_stack(c), 0);
		return done(c, 0, 1, 0);
	case 0xca: case 0xcb:				/* RET far */
		c->len += op == 0xca ? 2 : 0;
		return ret_far(c);
	/* 64-bit mode interrupts push SS, RSP, RFLAGS, CS, RIP and IRETQ
	 * pops them (SDM Vol. 3A §6.14.2); both load CS.  Five accesses,
	 * INT n's on a stack the IDT and TSS choose: not described. */
	/* In 32-bit mode three slots at the same privilege level, five
	 * from CPL 3 (Vol. 3A §6.12.1): the counts stay 5, undescribed. */
	case 0xcc:					/* INT3 */
		return done(c, DEC_FAR | DEC_SEGLOAD | DEC_MEM_UNKNOWN, 0, 5);
	case 0xcd:					/* INT n */
		c->len += 1;
		return done(c, DEC_FAR | DEC_SEGLOAD | DEC_MEM_UNKNOWN, 0, 5);
	case 0xcf:					/* IRET */
		return done(c, DEC_FAR | DEC_SEGLOAD | DEC_SERIALIZE |
			    DEC_MEM_UNKNOWN, 5, 0);
	case 0xe8:					/* CALL rel16/32 */
		c->len += rel_z(c);
		push_slot(c, size_near(c));
		return done(c, DEC_BRANCH | DEC_CALL, 0, 1);
	case 0xe9:					/* JMP rel16/32 */
		c->len += rel_z(c);
		return done(c, DEC_BRANCH, 0, 0);
	case 0xeb:					/* JMP rel8 */
		c->len += 1;
		return done(c, DEC_BRANCH, 0, 0);
	case 0xf6: return group3(c, 1);
	case 0xf7: return group3(c, 0);
	case 0xfe:					/* INC/DEC Eb */
		modrm(c);
		if (c->modrm_reg > 1)
			return unclassified();
		return rmw(c, 1);
	case 0xff: return group5(c);
	case 0x0f: return two_byte(c);
	default: return unclassified();
	}
}

/* MOV between AL/eAX and moffs (A0-A3): the offset is an address-size
 * immediate, 4 bytes or 2 with 67, in DS or the override (32-bit mode
 * only here: 64-bit mode's moffs64 is not classified). */
static struct insn_class mov_moffs(struct ctx *c, uint8_t op)
{
	struct mem_operand m = { 0, MEM_NOREG, MEM_NOREG, 0, 0, 0 };
	unsigned store = op >= 0xa2, size = op & 1 ? size_v(c) : 1;

	m.disp = disp(c, c->addr67 ? 2 : 4);
	m.flags = (uint8_t)(c->seg | addr_flags(c));
	add_mem(c, m, size, store);
	return done(c, 0, !store, store);
}

/* 32-bit protected mode: the one-byte opcodes that differ from 64-bit
 * mode (SDM Vol. 2A Table A-2, i64/o64), the rest as there.  Of the
 * i64 opcodes, PUSH/POP of ES, CS, SS, DS, the 82 alias of group 1 and
 * MOV moffs are classified; DAA..AAS, PUSHA/POPA (eight accesses),
 * BOUND, ARPL, far CALL/JMP ptr16:32, LES/LDS, INTO, AAM/AAD and SALC
 * are not. */
static struct insn_class one_byte32(struct ctx *c, uint8_t op)
{
	if (op >= 0x40 && op <= 0x4f)			/* INC/DEC r32 */
		return done(c, 0, 0, 0);
	switch (op) {
	/* PUSH Sreg stores a slot of the operand size (some processors
	 * write only its low 16 bits, SDM Vol. 2B PUSH); POP Sreg loads
	 * one (POP CS, 0F, does not exist). */
	case 0x06: case 0x0e: case 0x16: case 0x1e:	/* PUSH ES/CS/SS/DS */
		push_slot(c, size_stack(c));
		return done(c, 0, 0, 1);
	case 0x07: case 0x17: case 0x1f:		/* POP ES/SS/DS */
		pop_slot(c, size_stack(c));
		return done(c, DEC_SEGLOAD, 1, 0);
	case 0x82: return group1(c, 1, 1);		/* alias of 80 */
	case 0xa0: case 0xa1: case 0xa2: case 0xa3:
		return mov_moffs(c, op);
	case 0x27: case 0x2f: case 0x37: case 0x3f:
	case 0x60: case 0x61: case 0x62: case 0x9a: case 0xc4: case 0xc5:
	case 0xce: case 0xd4: case 0xd5: case 0xd6: case 0xea:
		return unclassified();
	default:
		return one_byte(c, op);
	}
}

static int is_legacy_prefix(uint8_t op)
{
	return op == 0x66 || op == 0x67 || op == 0xf0 || op == 0xf2 ||
	       op == 0xf3 || op == 0x2e || op == 0x3e || op == 0x26 ||
	       op == 0x36 || op == 0x64 || op == 0x65;
}

/* Prefix state (SDM Vol. 2A §2.1.1).  Of several segment overrides the
 * last counts; in 64-bit mode only FS and GS have an effect, and in
 * 32-bit mode only they are recorded (flat CS/DS/ES/SS: decode.h). */
static void legacy_prefix(struct ctx *c, uint8_t op)
{
	if (op == 0x66)
		c->opsize16 = 1;
	else if (op == 0x67)
		c->addr67 = 1;
	else if (op == 0xf3 || op == 0xf2)
		c->rep = 1;
	else if (op == 0x64)
		c->seg = MEM_FS;
	else if (op == 0x65)
		c->seg = MEM_GS;
	else if (op != 0xf0)
		c->seg = 0;
}

struct insn_class decode_insn_mode(const uint8_t *code, enum dec_mode mode)
{
	int mode32 = mode == DEC_MODE_32;
	struct ctx c = { .p = code, .mode32 = mode32 };
	struct insn_class k;
	uint8_t op = next(&c);

	while (is_legacy_prefix(op)) {
		legacy_prefix(&c, op);
		op = next(&c);
	}
	/* REX must come last; 32-bit mode has none (40-4F: INC, DEC) */
	if (!mode32 && (op & 0xf0) == 0x40) {
		c.rex = op & 0xf;
		op = next(&c);
	}
	if (c.too_long)
		return unclassified();
	k = mode32 ? one_byte32(&c, op) : one_byte(&c, op);
	/* Immediates and displacements are skipped, not read: check the
	 * total as well as the bytes read. */
	if (c.too_long || c.len > MAX_INSN)
		return unclassified();
	return k;
}
