/* pt_decode: the Intel PT packet decoder (lib/pt/packet.h).
 *
 * Packet formats: Intel SDM Vol. 3C, order no. 326019-060US, §36.4.2
 * "Packet Definitions", Tables 36-16 to 36-44; IP compression §36.4.2.2,
 * Table 36-18; the Cycle Count packet §36.4.2.14, Table 36-33; PSB+
 * §36.3.7.  Packets that edition does not define yet, skipped by their
 * length: BBP, BIP and BEP (PEBS output to Intel PT, SDM May 2019
 * Vol. 3B §18.5.5.2) and CFE and EVD (the Event Trace packets of later
 * editions), as Linux perf's decoder reads them (and libipt's, CFE and
 * EVD).  TRIG (D9h, Trigger Tracing, later editions too): decoded as
 * libipt reads it (pt_opcodes.h, pt_pkt_read_trig since libipt's commit
 * 871551bf of April 2024): byte 1 bit 7 IP (a FUP follows), bit 6 ICNTV,
 * bit 5 MULT; byte 2 TRBV; with ICNTV two more bytes, ICNT.
 *
 * Resync: a damaged packet may have swallowed the first bytes of a PSB
 * (a CYC with Exp set right before one takes its 02h), so the PSB search
 * after an error starts up to 15 bytes before the damaged packet (SDM
 * §36.3.7: no legal packet sequence contains the PSB pattern; libipt's
 * pt_pkt_sync_forward does the same), but never at or before the last
 * PSB decoded (d->floor), so that decoding always moves forward.
 *
 * Errata (d->errata, lib/pt/errata.c): SKD007, an OVF written over the
 * bytes after the first of a multi-byte CYC (CYC first byte, 02 F3), is
 * reported as one OVF at the CYC's offset, 3 bytes; SKZ84, a TMA with a
 * reserved bit set followed by a bogus byte, as PT_PKT_INVALID of 8
 * bytes.  Both checks run in dec_slow() (d->errata sends every packet
 * there), so a stream decoded without errata pays nothing for them.
 *
 * Speed: most packets of a branch trace are one or two bytes (TNT-8,
 * CYC, a TIP with a 16- or 32-bit update, MTC, PAD).  A 256-entry table,
 * indexed by the first byte, holds for each packet whose size the first
 * byte fixes its decoded head (type, size, IPBytes, branch count) and the
 * masks that take its payload and IP out of the eight bytes after the
 * first, so pt_dec_next() decodes any of them with no data-dependent
 * branch: a random mix of packets costs no mispredictions, and the next
 * packet's position waits on two loads only (the byte, its size).  The
 * other first bytes (02h, MODE, a CYC of more than two bytes, damage) go
 * to dec_long(); the last bytes of the buffer and the inside of a
 * BBP..BEP block to dec_slow(), which checks every bound.  A damaged
 * packet moves the cursor to the next PSB at once (fail()).
 *
 * Freestanding: includes only <stddef.h>, <stdint.h> and lib/pt/packet.h, and
 * keeps no state outside struct pt_dec. */
#include <stddef.h>
#include <stdint.h>
#include "packet.h"

/* pt_pkt's first eight bytes are its six one-byte fields (and padding):
 * the fast path writes them with one store of a table entry. */
_Static_assert(offsetof(struct pt_pkt, type) == 0 &&
	       offsetof(struct pt_pkt, size) == 1 &&
	       offsetof(struct pt_pkt, ipc) == 2 &&
	       offsetof(struct pt_pkt, count) == 3 &&
	       offsetof(struct pt_pkt, err) == 4 &&
	       offsetof(struct pt_pkt, ip_valid) == 5 &&
	       offsetof(struct pt_pkt, offset) == 8,
	       "pt_pkt head layout");
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "the packet head and payload loads assume little endian");
_Static_assert(PT_PKT_NR <= 64, "packet types fit a 64-bit mask");

/* ---- the first-byte table ----
 *
 * What the first byte of a packet says.  K_FAST: a packet whose size the
 * first byte fixes (or a CYC of two bytes, the first byte and the Exp bit
 * of the second) and whose payload the fast path computes from the eight
 * bytes after the first one: PAD, TNT-8, CYC of 1 or 2 bytes, TIP,
 * TIP.PGE, TIP.PGD, FUP, MTC, TSC.  The other kinds go to dec_long(). */
enum first_kind {
	K_FAST,
	K_IPBAD,	/* an IP packet with IPBytes 101b or 111b (reserved) */
	K_EXT,		/* 02h: the second byte says which packet */
	K_MODE,
	K_TRIG,
	K_BAD,		/* no packet starts with this byte */
};

/* One entry per first byte; w is the (little-endian) eight bytes after
 * the first.  head is the decoded packet's first eight bytes (type, size,
 * ipc, count, err = 0, ip_valid), pt_pkt's padding bytes holding the
 * sign-extension shift (byte 6) and the kind (byte 7).  w & xmask != 0
 * sends the packet to dec_long() (a CYC longer than 2 bytes).  The
 * payload is pl | (w & pmask) << ls; the IP (Table 36-18 without a
 * branch) is (last IP & ~ipmask | w & ipmask), sign-extended from bit
 * 63 - sext: a non-IP packet has ipmask 0 and leaves the last IP as is. */
struct first_ent {
	uint64_t head;
	uint64_t pmask;
	uint64_t ipmask;
	uint64_t xmask;
	uint8_t pl;
	uint8_t ls;
};

enum first_class {
	C_PAD, C_TNT, C_CYC1, C_CYCX, C_IP, C_IPBAD, C_EXT, C_TSC, C_MTC,
	C_MODE, C_TRIG, C_BAD
};

/* The IP packets by bits 4:0 (Tables 36-17, 36-20 to 36-22); IPBytes is
 * bits 7:5. */
#define IP_TYPE(l)							\
	((l) == PT_OPC_TIP ? PT_PKT_TIP :				\
	 (l) == PT_OPC_TIP_PGE ? PT_PKT_TIP_PGE :			\
	 (l) == PT_OPC_TIP_PGD ? PT_PKT_TIP_PGD :			\
	 (l) == PT_OPC_FUP ? PT_PKT_FUP : 0)
#define IPC(b) ((b) >> 5)
/* PAD 00h; 02h; TNT-8 (Table 36-16): bit 0 = 0; CYC (Table 36-33): bits
 * 1:0 = 11b, bit 2 Exp; bits 1:0 = 01b: an IP packet, TSC 19h, MTC 59h,
 * MODE 99h. */
#define CLS(b)								\
	((b) == PT_OPC_PAD ? C_PAD : (b) == PT_OPC_EXT ? C_EXT :	\
	 !((b) & 1) ? C_TNT :						\
	 ((b) & 3) == 3 ? ((b) & 4 ? C_CYCX : C_CYC1) :			\
	 IP_TYPE((b) & 0x1f) ?						\
		(IPC(b) == 5 || IPC(b) == 7 ? C_IPBAD : C_IP) :		\
	 (b) == PT_OPC_TSC ? C_TSC : (b) == PT_OPC_MTC ? C_MTC :	\
	 (b) == PT_OPC_MODE ? C_MODE : (b) == PT_OPC_TRIG ? C_TRIG :	\
	 C_BAD)

/* TNT-8: the stop bit is the highest set bit, the branches lie below
 * it, down to bit 1. */
#define HIBIT(b) ((b) >= 128 ? 7 : (b) >= 64 ? 6 : (b) >= 32 ? 5 :	\
		  (b) >= 16 ? 4 : (b) >= 8 ? 3 : 2)
#define TNT_N(b) (HIBIT(b) - 1)
#define TNT_BITS(b) (((b) >> 1) & ((1u << TNT_N(b)) - 1))

/* Table 36-18: IPBytes -> payload bytes and their mask. */
#define IP_N(c) ((c) == 1 ? 2 : (c) == 2 ? 4 : (c) == 3 || (c) == 4 ? 6 :\
		 (c) == 6 ? 8 : 0)
/* (& 63: no shift by 64 even where the other arm is taken) */
#define IP_MASK(c) ((c) == 6 ? ~0ull : (1ull << (8 * IP_N(c) & 63)) - 1)

#define F_TYPE(c, b)							\
	((c) == C_PAD ? PT_PKT_PAD : (c) == C_TNT ? PT_PKT_TNT8 :	\
	 (c) == C_CYC1 || (c) == C_CYCX ? PT_PKT_CYC :			\
	 (c) == C_IP || (c) == C_IPBAD ? IP_TYPE((b) & 0x1f) :		\
	 (c) == C_TSC ? PT_PKT_TSC : (c) == C_MTC ? PT_PKT_MTC :	\
	 (c) == C_MODE ? PT_PKT_MODE_EXEC : (c) == C_TRIG ? PT_PKT_TRIG : \
	 PT_PKT_ERROR)
#define F_SIZE(c, b)							\
	((c) == C_PAD || (c) == C_TNT || (c) == C_CYC1 ? 1 :		\
	 (c) == C_IP ? 1 + IP_N(IPC(b)) : (c) == C_TSC ? 8 :		\
	 (c) == C_MTC || (c) == C_CYCX ? 2 : 0)
#define F_KIND(c)							\
	((c) == C_IPBAD ? K_IPBAD : (c) == C_EXT ? K_EXT :		\
	 (c) == C_MODE ? K_MODE : (c) == C_TRIG ? K_TRIG :		\
	 (c) == C_BAD ? K_BAD : K_FAST)
#define F_IP(c, b) ((c) == C_IP && IPC(b) != 0)
#define F_HEAD(c, b)							\
	((uint64_t)F_TYPE(c, b) | (uint64_t)F_SIZE(c, b) << 8 |		\
	 (uint64_t)((c) == C_IP ? IPC(b) : 0) << 16 |			\
	 (uint64_t)((c) == C_TNT ? TNT_N(b) : 0) << 24 |		\
	 (uint64_t)F_IP(c, b) << 40 |					\
	 (uint64_t)(F_IP(c, b) && IPC(b) == 3 ? 16 : 0) << 48 |	\
	 (uint64_t)F_KIND(c) << 56)
/* A two-byte CYC: Cycle Counter[11:5] in bits 7:1 of byte 1, whose bit 0
 * (Exp) must be 0. */
#define F_ENT(c, b) {							\
	.head = F_HEAD(c, b),						\
	.pmask = F_IP(c, b) ? IP_MASK(IPC(b)) :				\
		 (c) == C_TSC ? 0xffffffffffffffull :			\
		 (c) == C_MTC ? 0xff : (c) == C_CYCX ? 0xfe : 0,	\
	.ipmask = F_IP(c, b) ? IP_MASK(IPC(b)) : 0,			\
	.xmask = (c) == C_CYCX ? 1 : 0,					\
	.pl = (c) == C_TNT ? TNT_BITS(b) :				\
	      (c) == C_CYC1 || (c) == C_CYCX ? (b) >> 3 : 0,		\
	.ls = (c) == C_CYCX ? 4 : 0,					\
}
#define E(b) F_ENT(CLS(b), b)
#define E4(b) E(b), E((b) + 1), E((b) + 2), E((b) + 3)
#define E16(b) E4(b), E4((b) + 4), E4((b) + 8), E4((b) + 12)
#define E64(b) E16(b), E16((b) + 16), E16((b) + 32), E16((b) + 48)

static const struct first_ent first_byte[256] = {
	E64(0), E64(64), E64(128), E64(192)
};

/* The sizes again, on their own: the next packet's position waits for
 * this load, which needs no multiply for its address. */
#undef E
#define E(b) F_SIZE(CLS(b), b)
static const uint8_t first_size[256] = {
	E64(0), E64(64), E64(128), E64(192)
};

/* ---- the packets after 02h, by their second byte (§36.4.2): type and
 * size; 0 = no such packet.  PSB, MNT, TNT-64 and the packets with a
 * payload the decoder reports are finished in dec_ext(). */
struct ext_ent {
	uint8_t type;
	uint8_t size;
};

static const struct ext_ent ext_byte[256] = {
	[PT_EXT_PSB] = { PT_PKT_PSB, 16 },		/* Table 36-36 */
	[PT_EXT_PSBEND] = { PT_PKT_PSBEND, 2 },		/* Table 36-37 */
	[PT_EXT_TNT64] = { PT_PKT_TNT64, 8 },		/* Table 36-16 */
	[PT_EXT_CBR] = { PT_PKT_CBR, 4 },		/* Table 36-29 */
	[PT_EXT_TMA] = { PT_PKT_TMA, 7 },		/* Table 36-32 */
	[PT_EXT_OVF] = { PT_PKT_OVF, 2 },		/* Table 36-35 */
	[PT_EXT_STOP] = { PT_PKT_STOP, 2 },		/* Table 36-28 */
	[PT_EXT_PIP] = { PT_PKT_PIP, 8 },		/* Table 36-24 */
	[PT_EXT_VMCS] = { PT_PKT_VMCS, 7 },		/* Table 36-34 */
	[PT_EXT_MNT] = { PT_PKT_MNT, 11 },		/* Table 36-38: 02 C3 88 */
	/* PTW (Table 36-40): bit 7 IP, bits 6:5 PayloadBytes (00b: 4,
	 * 01b: 8, 1xb reserved), bits 4:0 10010b */
	[0x12] = { PT_PKT_PTW, 6 },
	[0x92] = { PT_PKT_PTW, 6 },
	[0x32] = { PT_PKT_PTW, 10 },
	[0xb2] = { PT_PKT_PTW, 10 },
	[0x62] = { PT_PKT_EXSTOP, 2 },		/* Table 36-41, bit 7 IP */
	[0xe2] = { PT_PKT_EXSTOP, 2 },
	[0xc2] = { PT_PKT_MWAIT, 10 },		/* Table 36-42 */
	[0x22] = { PT_PKT_PWRE, 4 },		/* Table 36-43 */
	[0xa2] = { PT_PKT_PWRX, 7 },		/* Table 36-44 */
	[0x63] = { PT_PKT_BBP, 3 },		/* byte 2: bit 7 SZ */
	[0x33] = { PT_PKT_BEP, 2 },		/* bit 7 IP */
	[0xb3] = { PT_PKT_BEP, 2 },
	[0x13] = { PT_PKT_CFE, 4 },
	[0x53] = { PT_PKT_EVD, 11 },
};

/* A block (BBP .. BEP) ends at its BEP, and at any packet that cannot
 * occur inside one (so that a lost BEP does not turn every later TNT-8
 * with bits 2:0 = 100b into a BIP), as Linux perf's decoder does. */
#define BIT64(t) (1ull << (t))
static const uint64_t block_enders =
	BIT64(PT_PKT_TNT8) | BIT64(PT_PKT_TNT64) | BIT64(PT_PKT_TIP) |
	BIT64(PT_PKT_TIP_PGE) | BIT64(PT_PKT_TIP_PGD) |
	BIT64(PT_PKT_MODE_EXEC) | BIT64(PT_PKT_MODE_TSX) | BIT64(PT_PKT_PIP) |
	BIT64(PT_PKT_OVF) | BIT64(PT_PKT_VMCS) | BIT64(PT_PKT_STOP) |
	BIT64(PT_PKT_PSB) | BIT64(PT_PKT_PSBEND) | BIT64(PT_PKT_PTW) |
	BIT64(PT_PKT_MWAIT) | BIT64(PT_PKT_BEP);

/* n (<= 8) bytes at p, little endian. */
static uint64_t load_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* Eight bytes at p, little endian (the caller knows they are there). */
static inline uint64_t load8(const uint8_t *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, 8);
	return v;
}

static int put(struct pt_dec *d, struct pt_pkt *k, enum pt_pkt_type type,
	       size_t pos, unsigned size, uint64_t payload)
{
	k->type = type;
	k->size = size;
	k->ipc = 0;
	k->count = 0;
	k->err = PT_ERR_NONE;
	k->ip_valid = 0;
	k->offset = pos;
	k->payload = payload;
	k->ip = d->last_ip;
	d->pos = pos + size;
	return type;
}

/* How far before a damaged packet a PSB may start: one byte less than a
 * PSB (one that started further back would have been decoded whole). */
#define RESYNC_BACK 15

/* A damaged packet at pos: the cursor moves on to the next PSB, searched
 * from up to RESYNC_BACK bytes before pos but past the last PSB decoded
 * (pt_dec_sync, which also leaves any block and PSB+). */
static int fail(struct pt_dec *d, struct pt_pkt *k, size_t pos,
		unsigned size, enum pt_err err, uint64_t seen)
{
	size_t from = pos > RESYNC_BACK ? pos - RESYNC_BACK : 0;

	put(d, k, PT_PKT_ERROR, pos, size, seen);
	k->err = err;
	/* (no PSB starts at pos: dec_psb would have decoded it) */
	d->pos = from > d->floor ? from : d->floor;
	pt_dec_sync(d);
	return PT_PKT_ERROR;
}

/* CYC with Exp = 1 (Table 36-33): each further byte has Exp in bit 0
 * and the next 7 bits of the count in bits 7:1.  Ten bytes carry 68
 * bits: the tenth is accepted when the value fits in 64 bits and no
 * eleventh follows (the overflow policy, docs/pt.md). */
static int dec_cyc(struct pt_dec *d, struct pt_pkt *k, size_t pos)
{
	const uint8_t *p = d->buf + pos;
	size_t avail = d->len - pos;
	uint64_t v = p[0] >> 3;
	unsigned i;

	for (i = 1;; i++) {
		uint64_t c;

		if (i == 10)
			return fail(d, k, pos, 10, PT_ERR_CYC_OVERFLOW, p[0]);
		if (i >= avail)
			return fail(d, k, pos, avail, PT_ERR_TRUNCATED, p[0]);
		c = p[i] >> 1;
		if (i == 9 && c > 7)
			return fail(d, k, pos, 10, PT_ERR_CYC_OVERFLOW, p[0]);
		v |= c << (5 + 7 * (i - 1));
		if (!(p[i] & 1))
			break;
	}
	return put(d, k, PT_PKT_CYC, pos, i + 1, v);
}

/* MODE (Tables 36-25 to 36-27): bits 7:5 of the mode byte are the leaf:
 * 000b Exec (bit 0 CS.L & LMA, bit 1 CS.D, and in later editions bit 2
 * IF, RFLAGS.IF, as libipt's pt_mob_exec_iflag reads it), 001b TSX (bit
 * 0 InTX, bit 1 TXAbort).  CS.L = 1 with CS.D = 1 is reserved (Table
 * 36-26; Vol. 3A §5.2.1 "Code Segment Descriptor in 64-bit Mode": "The
 * CS.L = 1 and CS.D = 1 bit combination is reserved", a code segment
 * with them #GPs in IA-32e mode): damage. */
static int dec_mode(struct pt_dec *d, struct pt_pkt *k, size_t pos)
{
	const uint8_t *p = d->buf + pos;
	unsigned leaf;

	if (d->len - pos < 2)
		return fail(d, k, pos, 1, PT_ERR_TRUNCATED, p[0]);
	leaf = p[1] >> 5;
	if (leaf > 1)
		return fail(d, k, pos, 2, PT_ERR_MODE_LEAF, p[0] | p[1] << 8);
	if (leaf)
		return put(d, k, PT_PKT_MODE_TSX, pos, 2, p[1] & 3);
	if ((p[1] & 3) == 3)
		return fail(d, k, pos, 2, PT_ERR_MODE_EXEC, p[0] | p[1] << 8);
	return put(d, k, PT_PKT_MODE_EXEC, pos, 2, p[1] & 7);
}

/* TRIG (D9h; libipt's pt_pkt_read_trig): byte 1 bit 7 IP, bit 6 ICNTV,
 * bit 5 MULT; byte 2 TRBV; ICNTV: bytes 3-4 ICNT.  The payload as struct
 * pt_pkt describes it. */
static int dec_trig(struct pt_dec *d, struct pt_pkt *k, size_t pos)
{
	const uint8_t *p = d->buf + pos;
	size_t avail = d->len - pos;
	unsigned size;
	uint64_t v;

	if (avail < 3)
		return fail(d, k, pos, avail, PT_ERR_TRUNCATED, p[0]);
	size = p[1] & 0x40 ? 5 : 3;
	if (avail < size)
		return fail(d, k, pos, avail, PT_ERR_TRUNCATED, p[0]);
	v = p[2] | (uint64_t)(p[1] >> 7) << 8 |
	    (uint64_t)(p[1] >> 6 & 1) << 9 | (uint64_t)(p[1] >> 5 & 1) << 10;
	if (size == 5)
		v |= (uint64_t)(p[3] | p[4] << 8) << 16;
	return put(d, k, PT_PKT_TRIG, pos, size, v);
}

/* 02 82 must go on as 02 82 to 16 bytes (Table 36-36). */
static int dec_psb(struct pt_dec *d, struct pt_pkt *k, size_t pos)
{
	const uint8_t *p = d->buf + pos;
	size_t avail = d->len - pos;

	for (unsigned i = 2; i < 16; i++) {
		if (i >= avail)
			return fail(d, k, pos, avail, PT_ERR_TRUNCATED, 0x8202);
		if (p[i] != (i & 1 ? PT_EXT_PSB : PT_OPC_EXT))
			return fail(d, k, pos, i + 1, PT_ERR_PSB, 0x8202);
	}
	/* §36.4.2.2: the last IP is reset to zero at a PSB */
	d->last_ip = 0;
	d->floor = pos + 1;
	d->in_psb = 1;
	d->bip_size = 0;
	return put(d, k, PT_PKT_PSB, pos, 16, 0);
}

/* TNT-64 (Table 36-16): 48 bits after 02 A3, the stop bit the highest
 * set one, 1 to 47 branches below it.  No stop bit, or no branch below
 * it, is damage (libipt's decoder rejects both too). */
static int dec_tnt64(struct pt_dec *d, struct pt_pkt *k, size_t pos,
		     uint64_t v)
{
	unsigned n;

	if (v <= 1)
		return fail(d, k, pos, 8, PT_ERR_TNT_EMPTY, 0xa302);
	n = 63 - __builtin_clzll(v);
	put(d, k, PT_PKT_TNT64, pos, 8, v & ((1ull << n) - 1));
	k->count = n;
	return PT_PKT_TNT64;
}

static int dec_ext(struct pt_dec *d, struct pt_pkt *k, size_t pos)
{
	const uint8_t *p = d->buf + pos;
	size_t avail = d->len - pos;
	struct ext_ent e;
	uint64_t seen;

	if (avail < 2)
		return fail(d, k, pos, 1, PT_ERR_TRUNCATED, 0x02);
	seen = 0x02 | p[1] << 8;
	e = ext_byte[p[1]];
	if (!e.size)
		return fail(d, k, pos, 2, PT_ERR_OPCODE, seen);
	if (e.type == PT_PKT_PSB)
		return dec_psb(d, k, pos);
	if (e.type == PT_PKT_MNT) {	/* 02 C3 88 */
		if (avail < 3)
			return fail(d, k, pos, 2, PT_ERR_TRUNCATED, seen);
		if (p[2] != 0x88)
			return fail(d, k, pos, 3, PT_ERR_OPCODE,
				    seen | (uint64_t)p[2] << 16);
	}
	if (avail < e.size)
		return fail(d, k, pos, avail, PT_ERR_TRUNCATED, seen);

	switch (e.type) {
	case PT_PKT_TNT64:
		return dec_tnt64(d, k, pos, avail >= 10 ?
				 load8(p + 2) & 0xffffffffffffull :
				 load_le(p + 2, 6));
	case PT_PKT_CBR:		/* 02 03 ratio reserved */
		return put(d, k, PT_PKT_CBR, pos, 4, p[2]);
	case PT_PKT_TMA:	/* 02 73 CTC[7:0] CTC[15:8] rsvd FC[7:0] FC[8] */
		put(d, k, PT_PKT_TMA, pos, 7, p[2] | p[3] << 8);
		k->fc = p[5] | (p[6] & 1) << 8;
		return PT_PKT_TMA;
	case PT_PKT_PSBEND:
		d->in_psb = 0;
		break;
	case PT_PKT_OVF:	/* §36.3.7: OVF also ends PSB+ */
		d->in_psb = 0;
		break;
	case PT_PKT_BBP:	/* SZ = 1: 4-byte items, 0: 8-byte items */
		d->bip_size = p[2] & 0x80 ? 4 : 8;
		break;
	}		/* BEP: block_enders in dec_slow() */
	return put(d, k, e.type, pos, e.size, 0);
}

/* What the fast path leaves: a CYC of more than two bytes and the
 * first bytes of kind other than K_FAST. */
__attribute__((noinline))
static int dec_long(struct pt_dec *d, struct pt_pkt *k, size_t pos,
		    const struct first_ent *e)
{
	uint8_t b = d->buf[pos];

	if ((e->head & 0xff) == PT_PKT_CYC)
		return dec_cyc(d, k, pos);
	switch (e->head >> 56) {
	case K_EXT:
		return dec_ext(d, k, pos);
	case K_MODE:
		return dec_mode(d, k, pos);
	case K_TRIG:
		return dec_trig(d, k, pos);
	case K_IPBAD:
		return fail(d, k, pos, 1, PT_ERR_IPBYTES, b);
	default:
		return fail(d, k, pos, 1, PT_ERR_OPCODE, b);
	}
}

/* A K_FAST packet at pos whose bytes after the first are w (as far as
 * the packet goes; the bytes past it do not matter).  restrict and the
 * locals: nothing is loaded again after the stores to *k, and the next
 * position waits only on the byte and its first_size[] entry. */
static inline int dec_fast(struct pt_dec *restrict d,
			   struct pt_pkt *restrict k, size_t pos, uint8_t b,
			   uint64_t w)
{
	const struct first_ent *e = &first_byte[b];
	uint64_t head = e->head, ip;
	unsigned sx = (head >> 48) & 0xff;

	d->pos = pos + first_size[b];
	ip = (d->last_ip & ~e->ipmask) | (w & e->ipmask);
	ip = (uint64_t)((int64_t)(ip << sx) >> sx);
	/* stored whether it changed or not: no branch to mispredict */
	d->last_ip = ip;
	__builtin_memcpy(k, &head, 8);	/* type .. ip_valid, padding */
	k->offset = pos;
	k->payload = e->pl | (w & e->pmask) << e->ls;
	k->ip = ip;
	return head & 0xff;
}

/* BIP (bits 2:0 = 100b, ID in bits 7:3, then the item): only inside a
 * block; elsewhere that byte is a TNT-8. */
static int dec_bip(struct pt_dec *d, struct pt_pkt *k, size_t pos)
{
	unsigned size = 1 + d->bip_size;

	if (d->len - pos < size)
		return fail(d, k, pos, d->len - pos, PT_ERR_TRUNCATED,
			    d->buf[pos]);
	return put(d, k, PT_PKT_BIP, pos, size, 0);
}

/* One packet at pos < len, with the bounds checked. */
static int dec_checked(struct pt_dec *d, struct pt_pkt *k, size_t pos)
{
	const uint8_t *p = d->buf + pos;
	const struct first_ent *e = &first_byte[p[0]];
	size_t avail = d->len - pos;
	unsigned size = (e->head >> 8) & 0xff;
	uint64_t w;

	if (e->head >> 56 != K_FAST)
		return dec_long(d, k, pos, e);
	w = load_le(p + 1, size - 1 < avail - 1 ? size - 1 : avail - 1);
	if (w & e->xmask)
		return dec_long(d, k, pos, e);
	if (avail < size)
		return fail(d, k, pos, avail, PT_ERR_TRUNCATED, p[0]);
	return dec_fast(d, k, pos, p[0], w);
}

/* SKD007 (lib/pt/errata.c): a CYC's first byte with Exp set, then the
 * OVF that took the place of the CYC's other bytes, 02 F3 (read as a
 * two-byte CYC and a one-byte CYC without the erratum).  Reported as the
 * OVF, at the CYC's offset: the CYC's count is lost. */
static int skd007(struct pt_dec *d, struct pt_pkt *k, size_t pos)
{
	const uint8_t *p = d->buf + pos;

	if ((p[0] & 7) != 7 || d->len - pos < 3 || p[1] != PT_OPC_EXT ||
	    p[2] != PT_EXT_OVF)
		return PT_PKT_NONE;
	d->in_psb = 0;		/* as any OVF (§36.3.7) */
	return put(d, k, PT_PKT_OVF, pos, 3, 0);
}

/* SKZ84 (lib/pt/errata.c): a TMA (02 73 CTC CTC rsvd FC FC[8]) with a
 * reserved bit set (byte 4, byte 6 bits 7:1), corrupt, and the bogus
 * byte after it: 8 bytes of PT_PKT_INVALID. */
static int skz84(struct pt_dec *d, struct pt_pkt *k, size_t pos)
{
	const uint8_t *p = d->buf + pos;

	if (d->len - pos < 8 || p[0] != PT_OPC_EXT || p[1] != PT_EXT_TMA ||
	    (!p[4] && !(p[6] & 0xfe)))
		return PT_PKT_NONE;
	return put(d, k, PT_PKT_INVALID, pos, 8, PT_ERRATUM_SKZ84);
}

/* The packets an erratum in d->errata made at pos, or PT_PKT_NONE. */
static int dec_errata(struct pt_dec *d, struct pt_pkt *k, size_t pos)
{
	int t = PT_PKT_NONE;

	if (d->errata & PT_ERRATUM_SKD007)
		t = skd007(d, k, pos);
	if (t == PT_PKT_NONE && (d->errata & PT_ERRATUM_SKZ84))
		t = skz84(d, k, pos);
	return t;
}

/* Near the end of the buffer, inside a block, or with errata. */
__attribute__((noinline))	/* pt_dec_next() stays a leaf */
static int dec_slow(struct pt_dec *d, struct pt_pkt *k)
{
	size_t pos;
	int t;

	pos = d->pos;
	if (pos >= d->len) {
		put(d, k, PT_PKT_NONE, d->len, 0, 0);
		return PT_PKT_NONE;
	}
	if (d->errata && !(d->bip_size && (d->buf[pos] & 7) == 4)) {
		t = dec_errata(d, k, pos);
		if (t != PT_PKT_NONE) {
			if (d->bip_size && (block_enders & BIT64(t)))
				d->bip_size = 0;
			return t;
		}
	}
	if (!d->bip_size)
		return dec_checked(d, k, pos);
	if ((d->buf[pos] & 7) == 4)
		return dec_bip(d, k, pos);
	t = dec_checked(d, k, pos);
	if (block_enders & BIT64(t))
		d->bip_size = 0;
	return t;
}

void pt_dec_init(struct pt_dec *d, const uint8_t *buf, size_t len)
{
	d->buf = buf;
	d->len = len;
	d->pos = 0;
	d->last_ip = 0;
	d->bip_size = 0;
	d->in_psb = 0;
	d->errata = 0;
	d->floor = 0;
}

/* The 16 bytes at p are a PSB (02 82 eight times, Table 36-36). */
static int is_psb(const uint8_t *p)
{
	static const uint64_t pat = 0x8202820282028202ull;

	return load8(p) == pat && load8(p + 8) == pat;
}

int pt_dec_sync(struct pt_dec *d)
{
	const uint8_t *p = d->buf;
	size_t i;

	d->bip_size = 0;
	d->in_psb = 0;
	for (i = d->pos; i + 16 <= d->len; i++) {
		if (p[i] == PT_OPC_EXT && p[i + 1] == PT_EXT_PSB && is_psb(p + i)) {
			d->pos = i;
			return 0;
		}
	}
	d->pos = d->len;
	return -1;
}

int pt_dec_next(struct pt_dec *restrict d, struct pt_pkt *restrict k)
{
	size_t pos = d->pos;
	const struct first_ent *e;
	const uint8_t *p;
	uint64_t w;

	/* nine bytes: the longest K_FAST packet, an IP of 8 bytes */
	if (__builtin_expect(pos + 9 > d->len || (d->bip_size | d->errata),
			     0))
		return dec_slow(d, k);
	p = d->buf + pos;
	e = &first_byte[p[0]];
	w = load8(p + 1);
	if (__builtin_expect((e->head >> 56 != K_FAST) | !!(w & e->xmask), 0))
		return dec_long(d, k, pos, e);
	return dec_fast(d, k, pos, p[0], w);
}

static const char *const pkt_names[PT_PKT_NR] = {
	[PT_PKT_NONE] = "none",
	[PT_PKT_ERROR] = "error",
	[PT_PKT_PAD] = "pad",
	[PT_PKT_PSB] = "psb",
	[PT_PKT_PSBEND] = "psbend",
	[PT_PKT_TNT8] = "tnt.8",
	[PT_PKT_TNT64] = "tnt.64",
	[PT_PKT_TIP] = "tip",
	[PT_PKT_TIP_PGE] = "tip.pge",
	[PT_PKT_TIP_PGD] = "tip.pgd",
	[PT_PKT_FUP] = "fup",
	[PT_PKT_MODE_EXEC] = "mode.exec",
	[PT_PKT_MODE_TSX] = "mode.tsx",
	[PT_PKT_CBR] = "cbr",
	[PT_PKT_TSC] = "tsc",
	[PT_PKT_MTC] = "mtc",
	[PT_PKT_TMA] = "tma",
	[PT_PKT_CYC] = "cyc",
	[PT_PKT_OVF] = "ovf",
	[PT_PKT_STOP] = "stop",
	[PT_PKT_PIP] = "pip",
	[PT_PKT_VMCS] = "vmcs",
	[PT_PKT_MNT] = "mnt",
	[PT_PKT_PTW] = "ptw",
	[PT_PKT_EXSTOP] = "exstop",
	[PT_PKT_MWAIT] = "mwait",
	[PT_PKT_PWRE] = "pwre",
	[PT_PKT_PWRX] = "pwrx",
	[PT_PKT_BBP] = "bbp",
	[PT_PKT_BIP] = "bip",
	[PT_PKT_BEP] = "bep",
	[PT_PKT_CFE] = "cfe",
	[PT_PKT_EVD] = "evd",
	[PT_PKT_TRIG] = "trig",
	[PT_PKT_INVALID] = "invalid",
};

const char *pt_pkt_name(enum pt_pkt_type t)
{
	if ((unsigned)t >= PT_PKT_NR || !pkt_names[t])
		return "unknown";
	return pkt_names[t];
}

static const char *const err_names[PT_ERR_NR] = {
	[PT_ERR_NONE] = "no error",
	[PT_ERR_OPCODE] = "unknown opcode",
	[PT_ERR_TRUNCATED] = "truncated packet",
	[PT_ERR_CYC_OVERFLOW] = "CYC overflow",
	[PT_ERR_IPBYTES] = "reserved IPBytes",
	[PT_ERR_MODE_LEAF] = "reserved MODE leaf",
	[PT_ERR_TNT_EMPTY] = "TNT-64 without branches",
	[PT_ERR_PSB] = "broken PSB",
	[PT_ERR_MODE_EXEC] = "reserved MODE.Exec (CS.L and CS.D both 1)",
};

const char *pt_err_name(enum pt_err e)
{
	if ((unsigned)e >= PT_ERR_NR || !err_names[e])
		return "unknown error";
	return err_names[e];
}

/* The CYC-eligible packets, Intel SDM Vol. 3C, order no. 326019-060US,
 * §36.3.6 "Cycle-Accurate Mode": TNT, TIP, TIP.PGE, TIP.PGD, MODE.EXEC,
 * MODE.TSX, PIP, VMCS, OVF, MTC, TSC, PTWRITE, EXSTOP (FUP is not one).
 * Inside PSB+ the packets are "status only" and bound to no instruction
 * or event (§36.3.7), so none is eligible, but for MTC: "timing packets
 * such as CYC and MTC may be generated between PSB and PSBEND, and their
 * meanings are the same as outside PSB+". */
int pt_pkt_cyc_eligible(enum pt_pkt_type t, int in_psb)
{
	static const uint64_t eligible =
		BIT64(PT_PKT_TNT8) | BIT64(PT_PKT_TNT64) | BIT64(PT_PKT_TIP) |
		BIT64(PT_PKT_TIP_PGE) | BIT64(PT_PKT_TIP_PGD) |
		BIT64(PT_PKT_MODE_EXEC) | BIT64(PT_PKT_MODE_TSX) |
		BIT64(PT_PKT_PIP) | BIT64(PT_PKT_VMCS) | BIT64(PT_PKT_OVF) |
		BIT64(PT_PKT_MTC) | BIT64(PT_PKT_TSC) | BIT64(PT_PKT_PTW) |
		BIT64(PT_PKT_EXSTOP);

	if ((unsigned)t >= PT_PKT_NR)
		return 0;
	if (in_psb)
		return t == PT_PKT_MTC;
	return (eligible >> t) & 1;
}
