/* pt_packet: Intel Processor Trace packets, decoded and encoded.
 *
 * Freestanding C: the same source is built into the harness (both
 * modes), into the host tools (build/host/ptdecode, the libipt referee,
 * the fuzz target and the speed benchmark) and into the host unit tests.
 *
 * Packet formats: Intel SDM Vol. 3C, order no. 326019-060US, §36.4.2
 * "Packet Definitions" (Tables 36-16 to 36-40); the Cycle Count packet
 * (CYC) §36.4.2.14, Table 36-33.  docs/pt.md explains the decoder, the
 * CYC rules and the overflow policy.
 *
 * Decoding is a cursor over a byte buffer (struct pt_dec): pt_dec_next()
 * returns one packet at a time with its offset and, for TIP / TIP.PGE /
 * TIP.PGD / FUP, the linear IP reconstructed by the last-IP rules
 * (§36.4.2.2, Table 36-18).  A damaged packet is returned as PT_PKT_ERROR
 * with its offset and what is wrong; the next call resumes at the next
 * PSB.  pt_dec_sync() moves the cursor forward to the next PSB (sync
 * from any offset).
 *
 * Errata (lib/pt/errata.c): struct pt_dec.errata (PT_ERRATUM_*, zero by
 * pt_dec_init) turns on the workaround of each erratum it names; set it
 * from the CPU the stream was recorded on (pt_errata_for_cpu()).
 *
 * Encoding (pt_enc_*): the model's packet generator (pmu/pt/gen.c) and
 * tests build streams with it; each writes one packet into a buffer. */
#ifndef LIB_PT_PACKET_H
#define LIB_PT_PACKET_H

#include <stddef.h>
#include <stdint.h>

enum pt_pkt_type {
	PT_PKT_NONE,		/* end of the buffer: no packet */
	PT_PKT_ERROR,		/* a damaged packet: see pt_pkt.err */
	/* decoded with their payload */
	PT_PKT_PAD,
	PT_PKT_PSB,
	PT_PKT_PSBEND,
	PT_PKT_TNT8,
	PT_PKT_TNT64,
	PT_PKT_TIP,
	PT_PKT_TIP_PGE,
	PT_PKT_TIP_PGD,
	PT_PKT_FUP,
	PT_PKT_MODE_EXEC,
	PT_PKT_MODE_TSX,
	PT_PKT_CBR,
	PT_PKT_TSC,
	PT_PKT_MTC,
	PT_PKT_TMA,
	PT_PKT_CYC,
	PT_PKT_OVF,
	PT_PKT_STOP,		/* TraceStop */
	/* every other packet the SDM defines: skipped by its length and
	 * reported by name, no payload */
	PT_PKT_PIP,
	PT_PKT_VMCS,
	PT_PKT_MNT,
	PT_PKT_PTW,
	PT_PKT_EXSTOP,
	PT_PKT_MWAIT,
	PT_PKT_PWRE,
	PT_PKT_PWRX,
	PT_PKT_BBP,
	PT_PKT_BIP,
	PT_PKT_BEP,
	PT_PKT_CFE,
	PT_PKT_EVD,
	PT_PKT_TRIG,		/* payload: see struct pt_pkt */
	PT_PKT_INVALID,		/* bytes an erratum made (PT_ERRATUM_SKZ84):
				 * payload the PT_ERRATUM_* bit */
	PT_PKT_NR
};

/* Opcode bytes (§36.4.2, Tables 36-16 to 36-44): a packet's first byte
 * (PT_OPC_*; the IP packets by its bits 4:0, IPBytes in bits 7:5; TNT-8
 * by bit 0 = 0; CYC by bits 1:0 = 11b), or, after PT_OPC_EXT, its second
 * (PT_EXT_*).  MODE's second byte holds the leaf in bits 7:5. */
enum pt_opcode {
	PT_OPC_PAD = 0x00,
	PT_OPC_EXT = 0x02,
	PT_OPC_TIP_PGD = 0x01,
	PT_OPC_TIP = 0x0d,
	PT_OPC_TIP_PGE = 0x11,
	PT_OPC_FUP = 0x1d,
	PT_OPC_TSC = 0x19,
	PT_OPC_MTC = 0x59,
	PT_OPC_MODE = 0x99,
	PT_OPC_CYC = 0x03,
	PT_OPC_TRIG = 0xd9,
	PT_EXT_PSB = 0x82,
	PT_EXT_PSBEND = 0x23,
	PT_EXT_TNT64 = 0xa3,
	PT_EXT_CBR = 0x03,
	PT_EXT_TMA = 0x73,
	PT_EXT_OVF = 0xf3,
	PT_EXT_STOP = 0x83,
	PT_EXT_PIP = 0x43,
	PT_EXT_VMCS = 0xc8,
	PT_EXT_MNT = 0xc3,
	PT_MODE_LEAF_EXEC = 0x00,
	PT_MODE_LEAF_TSX = 0x20,
};

/* What is wrong with a damaged packet. */
enum pt_err {
	PT_ERR_NONE,
	PT_ERR_OPCODE,		/* no packet starts with these bytes */
	PT_ERR_TRUNCATED,	/* the buffer ends inside the packet */
	PT_ERR_CYC_OVERFLOW,	/* a CYC longer than 10 bytes, or a 10-byte
				 * CYC whose value passes 64 bits */
	PT_ERR_IPBYTES,		/* a reserved IPBytes value (5, 7) */
	PT_ERR_MODE_LEAF,	/* a reserved MODE leaf */
	PT_ERR_TNT_EMPTY,	/* a TNT-64 with no stop bit */
	PT_ERR_PSB,		/* 02 82 not followed by the rest of a PSB */
	PT_ERR_MODE_EXEC,	/* MODE.Exec with CS.L and CS.D both 1
				 * (reserved) */
	PT_ERR_NR
};

struct pt_pkt {
	uint8_t type;		/* enum pt_pkt_type */
	uint8_t size;		/* bytes (an error: the bytes examined) */
	uint8_t ipc;		/* TIP, TIP.PGE, TIP.PGD, FUP: IPBytes 0-6 */
	uint8_t count;		/* TNT: branches in payload (0-47) */
	uint8_t err;		/* PT_PKT_ERROR: enum pt_err */
	uint8_t ip_valid;	/* ip holds a reconstructed IP (ipc != 0) */
	uint64_t offset;	/* of its first byte in the buffer */
	/* TNT: the branch bits without the stop bit, bit count-1 the
	 * oldest branch, bit 0 the newest, 1 = taken; TIP/FUP: the raw IP
	 * payload as the packet holds it; MODE.Exec: bit 0 CS.L, bit 1
	 * CS.D, bit 2 IF; MODE.TSX: bit 0 InTX, bit 1 TXAbort; CBR: the ratio; TSC:
	 * the 56-bit value; MTC: the CTC byte; TMA: CTC[15:0]; CYC: the
	 * cycle count; TRIG: bits 7:0 TRBV, bit 8 IP, bit 9 ICNTV, bit 10
	 * MULT, bits 31:16 ICNT (when ICNTV); PT_PKT_ERROR: the opcode
	 * byte(s) seen */
	uint64_t payload;
	uint64_t ip;		/* TIP, TIP.PGE, TIP.PGD, FUP: after last-IP */
	uint16_t fc;		/* TMA: the fast counter, FC[8:0] */
};

struct pt_dec {
	const uint8_t *buf;
	size_t len, pos;
	uint64_t last_ip;	/* the last-IP state (§36.4.2.2) */
	uint8_t bip_size;	/* BIP payload bytes of the current block
				 * (BBP.SZ: 4 or 8); 0 outside a block */
	uint8_t in_psb;		/* between PSB and PSBEND (PSB+) */
	uint8_t errata;		/* PT_ERRATUM_*: workarounds in force */
	size_t floor;		/* an error's PSB search starts here at the
				 * earliest: one past the last PSB */
};

/* The errata whose packets the decoder recognises (lib/pt/errata.c has
 * the specification updates and the CPUs). */
#define PT_ERRATUM_SKD007 0x01	/* an OVF over a multi-byte CYC */
#define PT_ERRATUM_SKZ84 0x02	/* a corrupt TMA and a bogus byte */

/* The PT_ERRATUM_* bits of an Intel CPU by its display family and
 * model (CPUID.1: family 6 models 4Eh ...), 0 for any other. */
unsigned pt_errata_for_cpu(unsigned family, unsigned model);
/* "skd007", "skz84" for one PT_ERRATUM_* bit, else "unknown". */
const char *pt_erratum_name(unsigned bit);

/* A cursor at offset 0 of buf[0, len), last IP 0.  Decoding starts
 * there as is: call pt_dec_sync() first to start at the first PSB. */
void pt_dec_init(struct pt_dec *d, const uint8_t *buf, size_t len);
/* Moves the cursor to the first PSB at or after its position (or to
 * the end).  After a damaged packet the decoder searches from up to 15
 * bytes before it (a PSB the damaged packet ran into: no legal packet
 * sequence contains the PSB pattern, SDM §36.3.7), never before d->floor.  Returns 0, or -1 when there is no PSB. */
int pt_dec_sync(struct pt_dec *d);
/* The next packet into *k; returns k->type (PT_PKT_NONE at the end). */
int pt_dec_next(struct pt_dec *d, struct pt_pkt *k);

/* "tnt.8", "tip.pge", "mode.exec", "pip", ... (the --packets names),
 * "error" for PT_PKT_ERROR. */
const char *pt_pkt_name(enum pt_pkt_type t);
/* "unknown opcode", "truncated packet", "CYC overflow", ... */
const char *pt_err_name(enum pt_err e);
/* Is a packet of type t CYC-eligible (§36.3.6, Table 36-xx)?  Packets
 * inside PSB+ (FUP, MODE.Exec) never are: the caller passes in_psb. */
int pt_pkt_cyc_eligible(enum pt_pkt_type t, int in_psb);

/* ---- encoding: each writes one packet at out (room for PT_PKT_MAX
 * bytes) and returns its size, or 0 when the value cannot be encoded
 * (a TNT of more bits than the packet holds, a reserved IPBytes). */
#define PT_PKT_MAX 16
unsigned pt_enc_pad(uint8_t *out);
unsigned pt_enc_psb(uint8_t *out);
unsigned pt_enc_psbend(uint8_t *out);
unsigned pt_enc_ovf(uint8_t *out);
unsigned pt_enc_stop(uint8_t *out);
/* bits as pt_pkt.payload holds them, count 1-6 (TNT-8) or 1-47
 * (TNT-64) */
unsigned pt_enc_tnt8(uint8_t *out, uint64_t bits, unsigned count);
unsigned pt_enc_tnt64(uint8_t *out, uint64_t bits, unsigned count);
/* type: PT_PKT_TIP, _TIP_PGE, _TIP_PGD or _FUP; payload: the IP bytes
 * the IPBytes value ipc carries (the caller compresses:
 * pt_ip_compress) */
unsigned pt_enc_ip(uint8_t *out, enum pt_pkt_type type, unsigned ipc,
		   uint64_t payload);
unsigned pt_enc_mode_exec(uint8_t *out, unsigned csl, unsigned csd);
unsigned pt_enc_mode_tsx(uint8_t *out, unsigned intx, unsigned abort);
unsigned pt_enc_cbr(uint8_t *out, unsigned ratio);
unsigned pt_enc_tsc(uint8_t *out, uint64_t tsc);
unsigned pt_enc_mtc(uint8_t *out, unsigned ctc);
unsigned pt_enc_tma(uint8_t *out, unsigned ctc, unsigned fc);
/* the shortest form: 1 byte below 32, 2 for 32-4095, ... 10 bytes
 * from 2^61 */
unsigned pt_enc_cyc(uint8_t *out, uint64_t cycles);
/* The IPBytes value and payload that encode ip after last_ip with the
 * fewest bytes (§36.4.2.2, Table 36-18); *last_ip becomes ip. */
unsigned pt_ip_compress(uint64_t ip, uint64_t *last_ip, uint64_t *payload);

#endif
