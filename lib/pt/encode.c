/* pt_encode: the Intel PT packet encoders of lib/pt/packet.h - one
 * packet into a caller's buffer, the bytes Intel SDM Vol. 3C, order no.
 * 326019-060US, §36.4.2 "Packet Definitions" gives for it (Tables 36-16
 * to 36-40), checked against libipt's encoder (intel-pt.h 2.0.5).
 *
 * Freestanding: built into the harness (both modes) and into the host
 * tools and tests; it includes only <stdint.h> and lib/pt/packet.h and
 * keeps no state.  A value a packet cannot carry (a TNT of more bits
 * than it holds, a reserved IPBytes, a payload wider than its field)
 * is refused with 0, never truncated. */
#include <stddef.h>
#include <stdint.h>
#include "packet.h"

#define TNT8_MAX 6		/* Table 36-16: 1-6 bits in a short TNT */
#define TNT64_MAX 47		/* and 1-47 in a long one */
#define PSB_SIZE 16		/* 02 82 repeated 8 times (§36.4.2.17) */

/* Writes the low n bytes of v at out, least significant first (every
 * multi-byte field of a PT packet is little-endian). */
static void put_le(uint8_t *out, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++, v >>= 8)
		out[i] = (uint8_t)v;
}

static int fits(uint64_t v, unsigned bits)
{
	return bits >= 64 || v >> bits == 0;
}

unsigned pt_enc_pad(uint8_t *out)
{
	out[0] = PT_OPC_PAD;
	return 1;
}

unsigned pt_enc_psb(uint8_t *out)
{
	for (unsigned i = 0; i < PSB_SIZE; i += 2) {
		out[i] = PT_OPC_EXT;
		out[i + 1] = PT_EXT_PSB;
	}
	return PSB_SIZE;
}

static unsigned ext2(uint8_t *out, uint8_t ext)
{
	out[0] = PT_OPC_EXT;
	out[1] = ext;
	return 2;
}

unsigned pt_enc_psbend(uint8_t *out)
{
	return ext2(out, PT_EXT_PSBEND);
}

unsigned pt_enc_ovf(uint8_t *out)
{
	return ext2(out, PT_EXT_OVF);
}

unsigned pt_enc_stop(uint8_t *out)
{
	return ext2(out, PT_EXT_STOP);
}

/* Short TNT (Table 36-16): bit 0 is 0, the branch bits above it with the
 * oldest highest, and a stop bit 1 just above the oldest. */
unsigned pt_enc_tnt8(uint8_t *out, uint64_t bits, unsigned count)
{
	if (count < 1 || count > TNT8_MAX || !fits(bits, count))
		return 0;
	out[0] = (uint8_t)(bits << 1 | 1u << (count + 1));
	return 1;
}

/* Long TNT (Table 36-16): 02 A3, then 6 payload bytes holding the bits
 * and the stop bit above the oldest, the unused high bits 0. */
unsigned pt_enc_tnt64(uint8_t *out, uint64_t bits, unsigned count)
{
	if (count < 1 || count > TNT64_MAX || !fits(bits, count))
		return 0;
	ext2(out, PT_EXT_TNT64);
	put_le(out + 2, bits | 1ull << count, 6);
	return 8;
}

/* Payload bytes of an IPBytes value (§36.4.2.2, Table 36-18); -1 for
 * the reserved values 5 and 7. */
static int ip_bytes(unsigned ipc)
{
	static const int8_t n[8] = { 0, 2, 4, 6, 6, -1, 8, -1 };

	return ipc < 8 ? n[ipc] : -1;
}

static int ip_opcode(enum pt_pkt_type type)
{
	switch (type) {
	case PT_PKT_TIP: return PT_OPC_TIP;
	case PT_PKT_TIP_PGE: return PT_OPC_TIP_PGE;
	case PT_PKT_TIP_PGD: return PT_OPC_TIP_PGD;
	case PT_PKT_FUP: return PT_OPC_FUP;
	default: return -1;
	}
}

/* TIP, TIP.PGE, TIP.PGD, FUP (Tables 36-17, 36-20, 36-21, §36.4.2.6): the
 * opcode in bits 4:0, IPBytes in bits 7:5, then the payload. */
unsigned pt_enc_ip(uint8_t *out, enum pt_pkt_type type, unsigned ipc,
		   uint64_t payload)
{
	int opc = ip_opcode(type), n = ip_bytes(ipc);

	if (opc < 0 || n < 0 || !fits(payload, 8 * (unsigned)n))
		return 0;
	out[0] = (uint8_t)(opc | ipc << 5);
	put_le(out + 1, payload, (unsigned)n);
	return 1 + (unsigned)n;
}

/* MODE (§36.4.2.8, Tables 36-25 to 36-27): 99h, then the leaf ID in
 * bits 7:5 and its mode bits below (MODE.Exec: bit 0 CS.L, bit 1 CS.D;
 * MODE.TSX: bit 0 InTX, bit 1 TXAbort). */
static unsigned mode(uint8_t *out, uint8_t leaf, unsigned b0, unsigned b1)
{
	if (b0 > 1 || b1 > 1)
		return 0;
	out[0] = PT_OPC_MODE;
	out[1] = (uint8_t)(leaf | b0 | b1 << 1);
	return 2;
}

unsigned pt_enc_mode_exec(uint8_t *out, unsigned csl, unsigned csd)
{
	return mode(out, PT_MODE_LEAF_EXEC, csl, csd);
}

unsigned pt_enc_mode_tsx(uint8_t *out, unsigned intx, unsigned abort)
{
	return mode(out, PT_MODE_LEAF_TSX, intx, abort);
}

/* CBR (Table 36-29): 02 03, the core:bus ratio, a reserved byte 0. */
unsigned pt_enc_cbr(uint8_t *out, unsigned ratio)
{
	if (ratio > 0xff)
		return 0;
	ext2(out, PT_EXT_CBR);
	out[2] = (uint8_t)ratio;
	out[3] = 0;
	return 4;
}

/* TSC (Table 36-30): 19h, then TSC[55:0]. */
unsigned pt_enc_tsc(uint8_t *out, uint64_t tsc)
{
	if (!fits(tsc, 56))
		return 0;
	out[0] = PT_OPC_TSC;
	put_le(out + 1, tsc, 7);
	return 8;
}

/* MTC (Table 36-31): 59h, then the 8-bit CTC payload. */
unsigned pt_enc_mtc(uint8_t *out, unsigned ctc)
{
	if (ctc > 0xff)
		return 0;
	out[0] = PT_OPC_MTC;
	out[1] = (uint8_t)ctc;
	return 2;
}

/* TMA (Table 36-32): 02 73, CTC[15:0], a reserved byte 0, then
 * FastCounter[7:0] and a byte holding FC[8] in bit 0. */
unsigned pt_enc_tma(uint8_t *out, unsigned ctc, unsigned fc)
{
	if (ctc > 0xffff || fc > 0x1ff)
		return 0;
	ext2(out, PT_EXT_TMA);
	put_le(out + 2, ctc, 2);
	out[4] = 0;
	put_le(out + 5, fc, 2);
	return 7;
}

/* CYC (Table 36-33): byte 0 holds 11b in bits 1:0, Exp in bit 2 and
 * count[4:0] in bits 7:3; each further byte Exp in bit 0 and the next 7
 * bits; Exp says another byte follows.  The shortest form: 1 byte below
 * 32, 2 bytes below 4096, ..., 10 bytes from 2^61 (5 + 7 * 9 = 68 bits
 * hold any 64-bit count). */
unsigned pt_enc_cyc(uint8_t *out, uint64_t cycles)
{
	uint64_t rest = cycles >> 5;
	unsigned n = 1;

	out[0] = (uint8_t)(PT_OPC_CYC | (cycles & 0x1f) << 3 | (rest ? 4 : 0));
	while (rest) {
		uint64_t more = rest >> 7;

		out[n++] = (uint8_t)((rest & 0x7f) << 1 | (more ? 1 : 0));
		rest = more;
	}
	return n;
}

static uint64_t sext48(uint64_t ip)
{
	return (uint64_t)((int64_t)(ip << 16) >> 16);
}

/* The fewest payload bytes that give ip back after last_ip (§36.4.2.2,
 * Table 36-18): IPBytes 1 (update bits 15:0), 2 (update 31:0), 3 (bits
 * 47:0 sign-extended: needs no last IP, so it is taken before 4 at the
 * same size), 4 (update 47:0), else 6 (the full 64 bits). */
unsigned pt_ip_compress(uint64_t ip, uint64_t *last_ip, uint64_t *payload)
{
	uint64_t last = *last_ip;
	unsigned ipc;

	if (ip >> 16 == last >> 16) {
		ipc = 1;
		*payload = ip & 0xffff;
	} else if (ip >> 32 == last >> 32) {
		ipc = 2;
		*payload = ip & 0xffffffffull;
	} else if (sext48(ip) == ip) {
		ipc = 3;
		*payload = ip & 0xffffffffffffull;
	} else if (ip >> 48 == last >> 48) {
		ipc = 4;
		*payload = ip & 0xffffffffffffull;
	} else {
		ipc = 6;
		*payload = ip;
	}
	*last_ip = ip;
	return ipc;
}
