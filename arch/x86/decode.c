/* decode: x86-64 classifier for the oracle (see decode.h).  Opcode facts
 * from SDM Vol. 2 Appendix A (opcode maps, Tables) and the
 * instruction pages; only the forms the harness's benchmarks and stubs use
 * are classified, anything else is reported as unclassified. */
#include "decode.h"

#define MAX_INSN 15		/* SDM Vol. 2 §2.3.11: longer raises #GP */

struct ctx {
	const uint8_t *p;
	unsigned len;		/* bytes consumed so far */
	int too_long;		/* tried to read past MAX_INSN bytes */
	int opsize16, rex_w, rep;
	unsigned modrm_mod, modrm_reg, modrm_rm;
	int has_modrm;
};

/* Never reads past the 15th byte: the code may end at a page boundary. */
static uint8_t next(struct ctx *c)
{
	if (c->len >= MAX_INSN) {
		c->too_long = 1;
		return 0;
	}
	return c->p[c->len++];
}

/* ModRM, SIB and displacement (SDM Vol. 2 §2.1.5, Tables 2-2 and 2-3;
 * 64-bit mode: mod=00 rm=101 is RIP+disp32). */
static void modrm(struct ctx *c)
{
	uint8_t m = next(c);

	c->has_modrm = 1;
	c->modrm_mod = m >> 6;
	c->modrm_reg = (m >> 3) & 7;
	c->modrm_rm = m & 7;
	if (c->modrm_mod == 3)
		return;
	if (c->modrm_rm == 4) {
		uint8_t sib = next(c);

		if (c->modrm_mod == 0 && (sib & 7) == 5)
			c->len += 4;
	} else if (c->modrm_mod == 0 && c->modrm_rm == 5) {
		c->len += 4;
	}
	if (c->modrm_mod == 1)
		c->len += 1;
	else if (c->modrm_mod == 2)
		c->len += 4;
}

static int is_mem(const struct ctx *c)
{
	return c->has_modrm && c->modrm_mod != 3;
}

/* Iz: 16 bits with the 66 prefix, else 32; REX.W wins over 66 (SDM Vol. 2
 * §2.2.1.2, Table 2-4). */
static unsigned imm_z(const struct ctx *c)
{
	return c->opsize16 && !c->rex_w ? 2 : 4;
}

static struct insn_class done(struct ctx *c, unsigned flags, unsigned loads,
			      unsigned stores)
{
	struct insn_class k = { (uint8_t)c->len, (uint16_t)flags,
				(uint8_t)loads, (uint8_t)stores };
	return k;
}

static struct insn_class unclassified(void)
{
	struct insn_class k = { 0, DEC_UNCLASSIFIED, 0, 0 };
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
	if (form <= 1)	/* memory is the destination */
		return done(c, 0, m, is_cmp ? 0 : m);
	return done(c, 0, m, 0);
}

/* Group 1 (80, 81, 83): /7 is CMP. */
static struct insn_class group1(struct ctx *c, unsigned imm)
{
	unsigned m;

	modrm(c);
	c->len += imm;
	m = is_mem(c);
	return done(c, 0, m, c->modrm_reg == 7 ? 0 : m);
}

/* Group 2 shifts and rotates: read-modify-write. */
static struct insn_class group2(struct ctx *c, unsigned imm)
{
	unsigned m;

	modrm(c);
	c->len += imm;
	m = is_mem(c);
	return done(c, 0, m, m);
}

/* Group 3 (F6, F7): /0 /1 TEST E,I; /2 NOT; /3 NEG; /4-/7 MUL IMUL DIV IDIV. */
static struct insn_class group3(struct ctx *c, int byte)
{
	unsigned m;

	modrm(c);
	m = is_mem(c);
	if (c->modrm_reg <= 1) {
		c->len += byte ? 1 : imm_z(c);
		return done(c, 0, m, 0);
	}
	if (c->modrm_reg <= 3)
		return done(c, 0, m, m);
	return done(c, 0, m, 0);
}

/* Group 5 (FF): /0 INC /1 DEC /2 CALL near /3 CALL far /4 JMP near
 * /5 JMP far /6 PUSH. */
static struct insn_class group5(struct ctx *c)
{
	unsigned m;

	modrm(c);
	m = is_mem(c);
	switch (c->modrm_reg) {
	case 0:
	case 1:
		return done(c, 0, m, m);
	case 2:
		return done(c, DEC_BRANCH | DEC_CALL | DEC_INDIRECT, m, 1);
	case 4:
		return done(c, DEC_BRANCH | DEC_INDIRECT, m, 0);
	case 6:
		return done(c, 0, m, 1);
	default:
		return unclassified();
	}
}

static struct insn_class string_op(struct ctx *c, uint8_t op)
{
	unsigned flags = c->rep ? DEC_REP_STRING : 0;

	switch (op) {
	case 0xa4: case 0xa5: return done(c, flags, 1, 1);	/* MOVS */
	case 0xa6: case 0xa7: return done(c, flags, 2, 0);	/* CMPS */
	case 0xaa: case 0xab: return done(c, flags, 0, 1);	/* STOS */
	case 0xac: case 0xad: return done(c, flags, 1, 0);	/* LODS */
	default: return done(c, flags, 1, 0);			/* SCAS */
	}
}

static struct insn_class two_byte(struct ctx *c)
{
	uint8_t op = next(c);

	if (op >= 0x80 && op <= 0x8f) {		/* Jcc rel32 */
		c->len += 4;
		return done(c, DEC_BRANCH | DEC_COND, 0, 0);
	}
	if (op >= 0x40 && op <= 0x4f) {		/* CMOVcc: always reads */
		modrm(c);
		return done(c, 0, is_mem(c), 0);
	}
	if (op >= 0x90 && op <= 0x9f) {		/* SETcc */
		modrm(c);
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
	case 0xb6: case 0xb7: case 0xbe: case 0xbf:	/* MOVZX/MOVSX */
		modrm(c);
		return done(c, 0, is_mem(c), 0);
	case 0xa0: case 0xa8:			/* PUSH FS/GS */
		return done(c, 0, 0, 1);
	case 0xa1: case 0xa9:			/* POP FS/GS */
		return done(c, DEC_SEGLOAD, 1, 0);
	case 0x05:				/* SYSCALL */
		return done(c, DEC_FAR, 0, 0);
	default:
		return unclassified();
	}
}

static struct insn_class one_byte(struct ctx *c, uint8_t op)
{
	if (op < 0x40 && (op & 7) < 6)
		return alu(c, op);
	if (op >= 0x50 && op <= 0x57)			/* PUSH r */
		return done(c, 0, 0, 1);
	if (op >= 0x58 && op <= 0x5f)			/* POP r */
		return done(c, 0, 1, 0);
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
		c->len += c->rex_w ? 8 : imm_z(c);
		return done(c, 0, 0, 0);
	}
	if (op >= 0xe0 && op <= 0xe3) {			/* LOOPcc, JrCXZ */
		c->len += 1;
		return done(c, DEC_BRANCH | DEC_COND, 0, 0);
	}
	if (op >= 0xa4 && op <= 0xaf && op != 0xa8 && op != 0xa9)
		return string_op(c, op);
	switch (op) {
	case 0x63:					/* MOVSXD */
	case 0x84: case 0x85:				/* TEST E,G */
	case 0x8a: case 0x8b:				/* MOV G,E */
		modrm(c);
		return done(c, 0, is_mem(c), 0);
	case 0x69:					/* IMUL Gv,Ev,Iz */
		modrm(c);
		c->len += imm_z(c);
		return done(c, 0, is_mem(c), 0);
	case 0x6b:					/* IMUL Gv,Ev,Ib */
		modrm(c);
		c->len += 1;
		return done(c, 0, is_mem(c), 0);
	case 0x68:					/* PUSH Iz */
		c->len += imm_z(c);
		return done(c, 0, 0, 1);
	case 0x6a:					/* PUSH Ib */
		c->len += 1;
		return done(c, 0, 0, 1);
	case 0x80: return group1(c, 1);
	case 0x81: return group1(c, imm_z(c));
	case 0x83: return group1(c, 1);
	case 0x86: case 0x87:				/* XCHG E,G */
		modrm(c);
		return done(c, 0, is_mem(c), is_mem(c));
	case 0x88: case 0x89:				/* MOV E,G */
		modrm(c);
		return done(c, 0, 0, is_mem(c));
	case 0x8d:					/* LEA: no access */
		modrm(c);
		return c->modrm_mod == 3 ? unclassified() : done(c, 0, 0, 0);
	case 0x8c:			/* MOV E, Sreg (reg > 5: #UD) */
		modrm(c);
		if (c->modrm_reg > 5)
			return unclassified();
		return done(c, 0, 0, is_mem(c));
	case 0x8e:			/* MOV Sreg, E (CS and reg > 5: #UD) */
		modrm(c);
		if (c->modrm_reg == 1 || c->modrm_reg > 5)
			return unclassified();
		return done(c, DEC_SEGLOAD, is_mem(c), 0);
	case 0x8f:			/* POP Ev is /0 only (else XOP) */
		modrm(c);
		if (c->modrm_reg)
			return unclassified();
		return done(c, 0, 1, is_mem(c));
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
		return done(c, 0, 0, 1);
	case 0x9d:					/* POPF */
		return done(c, 0, 1, 0);
	case 0xc0: case 0xc1: return group2(c, 1);
	case 0xd0: case 0xd1: case 0xd2: case 0xd3: return group2(c, 0);
	case 0xc2:					/* RET Iw */
		c->len += 2;
		return done(c, DEC_BRANCH | DEC_RET | DEC_INDIRECT, 1, 0);
	case 0xc3:					/* RET */
		return done(c, DEC_BRANCH | DEC_RET | DEC_INDIRECT, 1, 0);
	case 0xc6:			/* MOV Eb, Ib is /0 (C6 F8: XABORT) */
		modrm(c);
		c->len += 1;
		if (c->modrm_reg)
			return unclassified();
		return done(c, 0, 0, is_mem(c));
	case 0xc7:			/* MOV Ev, Iz is /0 (C7 F8: XBEGIN) */
		modrm(c);
		c->len += imm_z(c);
		if (c->modrm_reg)
			return unclassified();
		return done(c, 0, 0, is_mem(c));
	case 0xc9:					/* LEAVE */
		return done(c, 0, 1, 0);
	case 0xca: case 0xcb:				/* RET far */
		c->len += op == 0xca ? 2 : 0;
		return done(c, DEC_FAR | DEC_SEGLOAD, 2, 0);
	/* 64-bit mode interrupts push SS, RSP, RFLAGS, CS, RIP and IRETQ
	 * pops them (SDM Vol. 3A §6.14.2); both load CS. */
	case 0xcc:					/* INT3 */
		return done(c, DEC_FAR | DEC_SEGLOAD, 0, 5);
	case 0xcd:					/* INT n */
		c->len += 1;
		return done(c, DEC_FAR | DEC_SEGLOAD, 0, 5);
	case 0xcf:					/* IRET */
		return done(c, DEC_FAR | DEC_SEGLOAD | DEC_SERIALIZE, 5, 0);
	case 0xe8:					/* CALL rel32 */
		c->len += 4;
		return done(c, DEC_BRANCH | DEC_CALL, 0, 1);
	case 0xe9:					/* JMP rel32 */
		c->len += 4;
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
		return done(c, 0, is_mem(c), is_mem(c));
	case 0xff: return group5(c);
	case 0x0f: return two_byte(c);
	default: return unclassified();
	}
}

static int is_legacy_prefix(uint8_t op)
{
	return op == 0x66 || op == 0x67 || op == 0xf0 || op == 0xf2 ||
	       op == 0xf3 || op == 0x2e || op == 0x3e || op == 0x26 ||
	       op == 0x36 || op == 0x64 || op == 0x65;
}

struct insn_class decode_insn(const uint8_t *code)
{
	struct ctx c = { code, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	struct insn_class k;
	uint8_t op = next(&c);

	while (is_legacy_prefix(op)) {	/* SDM Vol. 2 §2.1.1 */
		if (op == 0x66)
			c.opsize16 = 1;
		else if (op == 0xf3 || op == 0xf2)
			c.rep = 1;
		op = next(&c);
	}
	if ((op & 0xf0) == 0x40) {	/* REX must come last */
		c.rex_w = !!(op & 8);
		op = next(&c);
	}
	if (c.too_long)
		return unclassified();
	k = one_byte(&c, op);
	/* Immediates and displacements are skipped, not read: check the
	 * total as well as the bytes read. */
	if (c.too_long || c.len > MAX_INSN)
		return unclassified();
	return k;
}
