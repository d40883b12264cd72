/* Host tests for lib/pt/decode.c, the Intel PT packet decoder (Intel SDM
 * Vol. 3C, order no. 326019-060US, §36.4.2): every first byte against a
 * classification written here from the SDM, every packet kind with its
 * size and payload, CYC of every length 1..10 at the edges of each
 * length and the overflow policy (a 10-byte CYC up to 2^64-1 accepted,
 * one bit more or an 11th byte an error), the last-IP rules (Table
 * 36-18), BIP only inside BBP..BEP, packets cut at the buffer's end, sync
 * from every offset, resuming at the next PSB after an error, the fast
 * path against the bounds-checked one, and random bytes.  The streams are
 * built here byte by byte (no encoder from the code under test). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pt/packet.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pt_bytes.h"

/* host-sources: lib/pt/decode.c lib/pt/errata.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- building streams */

static const unsigned ipc_bytes[8] = { 0, 2, 4, 6, 6, 0, 8, 0 };

/* opc: 0x0d TIP, 0x11 TIP.PGE, 0x01 TIP.PGD, 0x1d FUP */
static void e_ip(struct sb *s, uint8_t opc, unsigned ipc, uint64_t payload)
{
	PUT(s, (uint8_t)(ipc << 5 | opc));
	put_le(s, payload, ipc_bytes[ipc]);
}

/* ---- decoding */

struct dec_all {
	struct pt_pkt k[2048];
	unsigned n;
};

/* Every packet of buf (a copy of exactly len bytes, so that ASan sees any
 * read past the end), with the workarounds of errata (PT_ERRATUM_*). */
static void decode_errata(const uint8_t *buf, size_t len, unsigned errata,
			  struct dec_all *r)
{
	uint8_t *copy = malloc(len ? len : 1);
	struct pt_dec d;

	assert_non_null(copy);
	memcpy(copy, buf, len);
	pt_dec_init(&d, copy, len);
	d.errata = (uint8_t)errata;
	r->n = 0;
	while (r->n < N(r->k)) {
		struct pt_pkt *k = &r->k[r->n];

		memset(k, 0xa5, sizeof(*k));
		if (pt_dec_next(&d, k) == PT_PKT_NONE)
			break;
		assert_true(k->offset + (k->type == PT_PKT_ERROR ? 1 : k->size)
			    <= len);
		r->n++;
	}
	assert_true(r->n < N(r->k));
	free(copy);
}

static void decode(const uint8_t *buf, size_t len, struct dec_all *r)
{
	decode_errata(buf, len, 0, r);
}

static void expect(const struct pt_pkt *k, unsigned type, uint64_t offset,
		   unsigned size, uint64_t payload)
{
	if (k->type != type || k->offset != offset || k->size != size ||
	    (type != PT_PKT_ERROR && k->payload != payload))
		fail_msg("packet %s at %llu size %u payload 0x%llx, want %s "
			 "at %llu size %u payload 0x%llx",
			 pt_pkt_name(k->type), (unsigned long long)k->offset,
			 k->size, (unsigned long long)k->payload,
			 pt_pkt_name(type), (unsigned long long)offset, size,
			 (unsigned long long)payload);
}

static void expect_err(const struct pt_pkt *k, uint64_t offset,
		       enum pt_err err)
{
	if (k->type != PT_PKT_ERROR || k->offset != offset || k->err != err)
		fail_msg("packet %s (err %s) at %llu, want error %s at %llu",
			 pt_pkt_name(k->type), pt_err_name(k->err),
			 (unsigned long long)k->offset, pt_err_name(err),
			 (unsigned long long)offset);
}

/* ---- every first byte, against the SDM written out here */

struct first_want {
	int type;		/* enum pt_pkt_type */
	int err;
	unsigned size;
};

/* What b followed by zero bytes is (§36.4.2). */
static struct first_want classify(uint8_t b)
{
	unsigned low5 = b & 0x1f, ipc = b >> 5;

	if (b == 0x00)
		return (struct first_want){ PT_PKT_PAD, 0, 1 };
	if (b == 0x02)		/* 02 00: no such packet */
		return (struct first_want){ PT_PKT_ERROR, PT_ERR_OPCODE, 2 };
	if (!(b & 1))
		return (struct first_want){ PT_PKT_TNT8, 0, 1 };
	if ((b & 3) == 3)	/* a zero byte after Exp ends it */
		return (struct first_want){ PT_PKT_CYC, 0, b & 4 ? 2 : 1 };
	if (low5 == 0x0d || low5 == 0x11 || low5 == 0x01 || low5 == 0x1d) {
		int t = low5 == 0x0d ? PT_PKT_TIP : low5 == 0x11 ?
			PT_PKT_TIP_PGE : low5 == 0x01 ? PT_PKT_TIP_PGD :
			PT_PKT_FUP;

		if (ipc == 5 || ipc == 7)
			return (struct first_want){ PT_PKT_ERROR,
						    PT_ERR_IPBYTES, 1 };
		return (struct first_want){ t, 0, 1 + ipc_bytes[ipc] };
	}
	if (b == 0x19)
		return (struct first_want){ PT_PKT_TSC, 0, 8 };
	if (b == 0x59)
		return (struct first_want){ PT_PKT_MTC, 0, 2 };
	if (b == 0x99)		/* mode byte 00: MODE.Exec */
		return (struct first_want){ PT_PKT_MODE_EXEC, 0, 2 };
	if (b == 0xd9)		/* TRIG, byte 1 00: ICNTV 0, 3 bytes */
		return (struct first_want){ PT_PKT_TRIG, 0, 3 };
	return (struct first_want){ PT_PKT_ERROR, PT_ERR_OPCODE, 1 };
}

static void test_every_first_byte(void **state)
{
	for (unsigned b = 0; b < 256; b++) {
		struct first_want w = classify((uint8_t)b);

		/* far from the end (the fast path), and the packet alone */
		for (unsigned tail = 15;; tail = w.size - 1) {
			struct sb s = { .n = 0 };
			struct dec_all r;

			PUT(&s, (uint8_t)b);
			for (unsigned i = 0; i < tail; i++)
				PUT(&s, 0);
			decode(s.b, s.n, &r);
			assert_true(r.n >= 1);
			if (r.k[0].type != w.type ||
			    (w.type == PT_PKT_ERROR && r.k[0].err != w.err) ||
			    (w.type != PT_PKT_ERROR && r.k[0].size != w.size))
				fail_msg("byte 0x%02x (tail %u): %s size %u, "
					 "want %s size %u", b, tail,
					 pt_pkt_name(r.k[0].type),
					 r.k[0].size, pt_pkt_name(w.type),
					 w.size);
			if (tail == w.size - 1)
				break;
		}
	}
}

/* TNT-8 (Table 36-16): the bits below the stop bit, the oldest highest. */
static void test_tnt8(void **state)
{
	for (unsigned b = 4; b < 256; b += 2) {
		unsigned stop = 7;
		struct dec_all r;
		uint8_t one = (uint8_t)b;

		while (!(b >> stop & 1))
			stop--;
		decode(&one, 1, &r);
		assert_int_equal(r.n, 1);
		expect(&r.k[0], PT_PKT_TNT8, 0, 1,
		       (b >> 1) & ((1u << (stop - 1)) - 1));
		assert_int_equal(r.k[0].count, stop - 1);
	}
}

static void test_tnt64(void **state)
{
	static const struct {
		uint64_t raw;		/* the 48 bits after 02 A3 */
		unsigned count;
		uint64_t bits;
	} c[] = {
		{ .raw = 0x2, .count = 1, .bits = 0 },
		{ .raw = 0x3, .count = 1, .bits = 1 },
		{ .raw = 0x9, .count = 3, .bits = 1 },
		{ .raw = 0xffffffffffffull, .count = 47,
		  .bits = 0x7fffffffffffull },
		{ .raw = 0x800000000000ull, .count = 47, .bits = 0 },
		{ .raw = 0x1234567ull, .count = 24, .bits = 0x234567 },
	};

	for (unsigned i = 0; i < N(c); i++) {
		struct sb s = { .n = 0 };
		struct dec_all r;

		PUT(&s, 0x02, 0xa3);
		put_le(&s, c[i].raw, 6);
		PUT(&s, 0x00);
		decode(s.b, s.n, &r);
		assert_int_equal(r.n, 2);
		expect(&r.k[0], PT_PKT_TNT64, 0, 8, c[i].bits);
		assert_int_equal(r.k[0].count, c[i].count);
		expect(&r.k[1], PT_PKT_PAD, 8, 1, 0);
	}
	/* no stop bit, or no branch below it */
	for (uint64_t raw = 0; raw < 2; raw++) {
		struct sb s = { .n = 0 };
		struct dec_all r;

		PUT(&s, 0x02, 0xa3);
		put_le(&s, raw, 6);
		decode(s.b, s.n, &r);
		assert_int_equal(r.n, 1);
		expect_err(&r.k[0], 0, PT_ERR_TNT_EMPTY);
	}
}

/* ---- CYC */

static void check_cyc(uint64_t v, unsigned n, unsigned pad)
{
	struct sb s = { .n = 0 };
	struct dec_all r;

	PUT(&s, 0x00);
	e_cyc_n(&s, v, n);
	for (unsigned i = 0; i < pad; i++)
		PUT(&s, 0x00);
	decode(s.b, s.n, &r);
	assert_int_equal(r.n, 2 + pad);
	if (r.k[1].type != PT_PKT_CYC || r.k[1].size != n ||
	    r.k[1].payload != v)
		fail_msg("CYC 0x%llx in %u bytes (pad %u): %s size %u value "
			 "0x%llx", (unsigned long long)v, n, pad,
			 pt_pkt_name(r.k[1].type), r.k[1].size,
			 (unsigned long long)r.k[1].payload);
}

/* Each length n carries 5 + 7(n-1) bits: its smallest and largest
 * values, the shortest form of each, far from the end and at it. */
static void test_cyc_lengths(void **state)
{
	for (unsigned n = 1; n <= 10; n++) {
		unsigned bits = 5 + 7 * (n - 1);
		uint64_t hi = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
		uint64_t lo = n == 1 ? 0 : 1ull << (bits - 7);

		assert_int_equal(cyc_len(lo), n);
		assert_int_equal(cyc_len(hi), n);
		for (unsigned pad = 0; pad <= 12; pad += 12) {
			check_cyc(lo, n, pad);
			check_cyc(hi, n, pad);
			check_cyc(lo | 1, n, pad);
			check_cyc(hi - 1, n, pad);
		}
	}
	/* the SDM's own edges: 31/32, 4095/4096 */
	assert_int_equal(cyc_len(31), 1);
	assert_int_equal(cyc_len(32), 2);
	assert_int_equal(cyc_len(4095), 2);
	assert_int_equal(cyc_len(4096), 3);
	/* a longer form than needed is a CYC all the same */
	check_cyc(5, 3, 0);
	check_cyc(5, 10, 4);
}

/* The overflow policy: 10 bytes whose value fits in 64 bits are a CYC
 * (2^64-1 included); one more bit, or an 11th byte, is an error at the
 * CYC's offset, and decoding resumes at the next PSB. */
static void test_cyc_overflow(void **state)
{
	struct sb s = { .n = 0 };
	struct dec_all r;

	check_cyc(UINT64_MAX, 10, 0);
	check_cyc(1ull << 61, 10, 3);

	/* 2^64: the 10th byte's payload 8 */
	PUT(&s, 0x00);
	e_cyc_n(&s, 0, 10);
	s.b[s.n - 1] = 8 << 1;
	PUT(&s, 0x00, 0x04);
	e_psb(&s);
	decode(s.b, s.n, &r);
	assert_int_equal(r.n, 3);
	expect_err(&r.k[1], 1, PT_ERR_CYC_OVERFLOW);
	expect(&r.k[2], PT_PKT_PSB, 13, 16, 0);

	/* 2^64 - 1 plus the top payload bits of byte 10 */
	s.n = 0;
	e_cyc_n(&s, UINT64_MAX, 10);
	s.b[9] = 0x7f << 1;
	decode(s.b, s.n, &r);
	assert_int_equal(r.n, 1);
	expect_err(&r.k[0], 0, PT_ERR_CYC_OVERFLOW);

	/* 11 bytes, with a small value, and 11 bytes at the end */
	s.n = 0;
	e_cyc_n(&s, 7, 11);
	PUT(&s, 0x00);
	decode(s.b, s.n, &r);
	assert_int_equal(r.n, 1);
	expect_err(&r.k[0], 0, PT_ERR_CYC_OVERFLOW);
	s.n = 10;		/* Exp set in the 10th byte, then the end */
	decode(s.b, s.n, &r);
	assert_int_equal(r.n, 1);
	expect_err(&r.k[0], 0, PT_ERR_CYC_OVERFLOW);
}

/* A CYC whose Exp bit says more follows, at the end of the buffer. */
static void test_cyc_truncated(void **state)
{
	for (unsigned n = 2; n <= 10; n++) {
		struct sb s = { .n = 0 };
		struct dec_all r;

		PUT(&s, 0x00);
		e_cyc_n(&s, 1, n);
		for (unsigned cut = 1; cut < n; cut++) {
			decode(s.b, 1 + cut, &r);
			assert_int_equal(r.n, 2);
			expect_err(&r.k[1], 1, PT_ERR_TRUNCATED);
		}
	}
}

/* ---- IP packets and the last IP (Table 36-18) */

static void test_last_ip(void **state)
{
	static const uint8_t opc[] = { 0x0d, 0x11, 0x01, 0x1d };
	static const unsigned type[] = {
		PT_PKT_TIP, PT_PKT_TIP_PGE, PT_PKT_TIP_PGD, PT_PKT_FUP
	};

	for (unsigned t = 0; t < 4; t++) {
		static const struct {
			unsigned ipc;
			uint64_t payload, ip;
			int valid;
		} c[] = {
			/* last IP starts at 0: update against 0 */
			{ 1, 0xbeef, 0xbeef, 1 },
			{ 6, 0xfedcba9876543210ull, 0xfedcba9876543210ull, 1 },
			{ 1, 0x1111, 0xfedcba9876541111ull, 1 },
			{ 2, 0x22223333, 0xfedcba9822223333ull, 1 },
			{ 4, 0x444455556666ull, 0xfedc444455556666ull, 1 },
			/* suppressed: the last IP stays */
			{ 0, 0, 0, 0 },
			{ 1, 0x7777, 0xfedc444455557777ull, 1 },
			/* sign-extend bit 47, either way */
			{ 3, 0x800000001000ull, 0xffff800000001000ull, 1 },
			{ 1, 0x2000, 0xffff800000002000ull, 1 },
			{ 3, 0x7fff00001000ull, 0x00007fff00001000ull, 1 },
			{ 2, 0xabcdef01, 0x00007fffabcdef01ull, 1 },
		};
		struct sb s = { .n = 0 };
		struct dec_all r;

		for (unsigned i = 0; i < N(c); i++)
			e_ip(&s, opc[t], c[i].ipc, c[i].payload);
		/* at a PSB the last IP is 0 again */
		e_psb(&s);
		e_ip(&s, opc[t], 1, 0x1234);
		e_ip(&s, opc[t], 2, 0x55667788);
		decode(s.b, s.n, &r);
		assert_int_equal(r.n, N(c) + 3);
		for (unsigned i = 0; i < N(c); i++) {
			const struct pt_pkt *k = &r.k[i];

			if (k->type != type[t] || k->ipc != c[i].ipc ||
			    k->ip_valid != c[i].valid ||
			    k->size != 1 + ipc_bytes[c[i].ipc] ||
			    k->payload != c[i].payload ||
			    (c[i].valid && k->ip != c[i].ip))
				fail_msg("%s case %u: %s ipc %u valid %u ip "
					 "0x%llx", pt_pkt_name(type[t]), i,
					 pt_pkt_name(k->type), k->ipc,
					 k->ip_valid,
					 (unsigned long long)k->ip);
		}
		assert_int_equal(r.k[N(c)].type, PT_PKT_PSB);
		assert_int_equal(r.k[N(c) + 1].ip, 0x1234);
		assert_int_equal(r.k[N(c) + 2].ip, 0x55667788);
	}
}

/* IPBytes 101b and 111b are reserved. */
static void test_ipbytes_reserved(void **state)
{
	static const uint8_t opc[] = { 0x0d, 0x11, 0x01, 0x1d };

	for (unsigned t = 0; t < 4; t++) {
		for (unsigned ipc = 5; ipc <= 7; ipc += 2) {
			struct sb s = { .n = 0 };
			struct dec_all r;

			PUT(&s, 0x00, (uint8_t)(ipc << 5 | opc[t]), 1, 2, 3, 4,
			    5, 6, 7, 8, 9);
			decode(s.b, s.n, &r);
			assert_int_equal(r.n, 2);
			expect_err(&r.k[1], 1, PT_ERR_IPBYTES);
		}
	}
}

/* ---- MODE (Tables 36-25 to 36-27) */

/* MODE (Tables 36-25 to 36-27): the leaf in bits 7:5; MODE.Exec bit 0
 * CS.L, bit 1 CS.D, bit 2 IF (later editions; libipt's ptdump prints
 * "cs.l, if" for 99 05), CS.L = CS.D = 1 reserved (Table 36-26): an
 * error; MODE.TSX bit 0 InTX, bit 1 TXAbort. */
static void test_mode(void **state)
{
	for (unsigned m = 0; m < 256; m++) {
		struct sb s = { .n = 0 };
		struct dec_all r;
		unsigned leaf = m >> 5;

		PUT(&s, 0x99, (uint8_t)m, 0x00);
		decode(s.b, s.n, &r);
		if (leaf > 1 || (leaf == 0 && (m & 3) == 3)) {
			assert_int_equal(r.n, 1);
			expect_err(&r.k[0], 0, leaf ? PT_ERR_MODE_LEAF :
				   PT_ERR_MODE_EXEC);
			continue;
		}
		assert_int_equal(r.n, 2);
		expect(&r.k[0], leaf ? PT_PKT_MODE_TSX : PT_PKT_MODE_EXEC, 0,
		       2, m & (leaf ? 3 : 7));
		expect(&r.k[1], PT_PKT_PAD, 2, 1, 0);
	}
}

/* The cases libipt's own test streams hold (ptet-mode_exec-if.ptt:
 * "mode.exec cs.l, if" is 99 05; cs.l alone 99 01), and the reserved
 * pair, which Linux perf rejects too, then the next PSB. */
static void test_mode_exec_if(void **state)
{
	struct sb s = { .n = 0 };
	struct dec_all r;

	PUT(&s, 0x99, 0x05, 0x99, 0x01, 0x99, 0x06, 0x99, 0x03, 0x99, 0x07);
	e_psb(&s);
	decode(s.b, s.n, &r);
	assert_int_equal(r.n, 5);
	expect(&r.k[0], PT_PKT_MODE_EXEC, 0, 2, 0x5);	/* CS.L, IF */
	expect(&r.k[1], PT_PKT_MODE_EXEC, 2, 2, 0x1);	/* CS.L */
	expect(&r.k[2], PT_PKT_MODE_EXEC, 4, 2, 0x6);	/* CS.D, IF */
	expect_err(&r.k[3], 6, PT_ERR_MODE_EXEC);	/* CS.L and CS.D */
	expect(&r.k[4], PT_PKT_PSB, 10, 16, 0);
}

/* ---- the other packets: size, name, payload */

struct pkt_case {
	const char *what;
	uint8_t bytes[16];
	unsigned size;
	unsigned type;
	uint64_t payload;
	unsigned fc;		/* TMA */
};

static const struct pkt_case pkt_cases[] = {
	{ "PAD", { 0x00 }, 1, PT_PKT_PAD, 0 },
	{ "PSBEND", { 0x02, 0x23 }, 2, PT_PKT_PSBEND, 0 },
	{ "OVF", { 0x02, 0xf3 }, 2, PT_PKT_OVF, 0 },
	{ "TraceStop", { 0x02, 0x83 }, 2, PT_PKT_STOP, 0 },
	{ "CBR", { 0x02, 0x03, 0x2a, 0xee }, 4, PT_PKT_CBR, 0x2a },
	{ "TSC", { 0x19, 1, 2, 3, 4, 5, 6, 0xf7 }, 8, PT_PKT_TSC,
	  0xf7060504030201ull },
	{ "MTC", { 0x59, 0xc4 }, 2, PT_PKT_MTC, 0xc4 },
	{ "TMA", { 0x02, 0x73, 0x34, 0x12, 0x00, 0xff, 0x01 }, 7, PT_PKT_TMA,
	  0x1234, 0x1ff },
	{ "TMA FC[8] 0", { 0x02, 0x73, 0xcd, 0xab, 0x00, 0x05, 0x00 }, 7,
	  PT_PKT_TMA, 0xabcd, 0x5 },
	{ "PIP", { 0x02, 0x43, 1, 2, 3, 4, 5, 6 }, 8, PT_PKT_PIP, 0 },
	{ "VMCS", { 0x02, 0xc8, 1, 2, 3, 4, 5 }, 7, PT_PKT_VMCS, 0 },
	{ "MNT", { 0x02, 0xc3, 0x88, 1, 2, 3, 4, 5, 6, 7, 8 }, 11,
	  PT_PKT_MNT, 0 },
	{ "PTW 4", { 0x02, 0x12, 1, 2, 3, 4 }, 6, PT_PKT_PTW, 0 },
	{ "PTW 4 IP", { 0x02, 0x92, 1, 2, 3, 4 }, 6, PT_PKT_PTW, 0 },
	{ "PTW 8", { 0x02, 0x32, 1, 2, 3, 4, 5, 6, 7, 8 }, 10, PT_PKT_PTW, 0 },
	{ "PTW 8 IP", { 0x02, 0xb2, 1, 2, 3, 4, 5, 6, 7, 8 }, 10, PT_PKT_PTW,
	  0 },
	{ "EXSTOP", { 0x02, 0x62 }, 2, PT_PKT_EXSTOP, 0 },
	{ "EXSTOP IP", { 0x02, 0xe2 }, 2, PT_PKT_EXSTOP, 0 },
	{ "MWAIT", { 0x02, 0xc2, 1, 2, 3, 4, 5, 6, 7, 8 }, 10, PT_PKT_MWAIT,
	  0 },
	{ "PWRE", { 0x02, 0x22, 1, 2 }, 4, PT_PKT_PWRE, 0 },
	{ "PWRX", { 0x02, 0xa2, 1, 2, 3, 4, 5 }, 7, PT_PKT_PWRX, 0 },
	{ "BBP", { 0x02, 0x63, 0x9f }, 3, PT_PKT_BBP, 0 },
	{ "BEP", { 0x02, 0x33 }, 2, PT_PKT_BEP, 0 },
	{ "BEP IP", { 0x02, 0xb3 }, 2, PT_PKT_BEP, 0 },
	{ "CFE", { 0x02, 0x13, 0x81, 0x20 }, 4, PT_PKT_CFE, 0 },
	{ "EVD", { 0x02, 0x53, 0x3f, 1, 2, 3, 4, 5, 6, 7, 8 }, 11, PT_PKT_EVD,
	  0 },
	{ "PSB", { 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2,
		   0x82, 2, 0x82 }, 16, PT_PKT_PSB, 0 },
	{ "MODE.Exec", { 0x99, 0x01 }, 2, PT_PKT_MODE_EXEC, 1 },
	{ "MODE.Exec IF", { 0x99, 0x06 }, 2, PT_PKT_MODE_EXEC, 6 },
	/* TRIG (libipt pt_opcodes.h, pt_pkt_read_trig): D9, byte 1 bit 7
	 * IP, bit 6 ICNTV, bit 5 MULT, byte 2 TRBV, ICNTV: 2 bytes ICNT;
	 * payload TRBV | IP << 8 | ICNTV << 9 | MULT << 10 | ICNT << 16 */
	{ "TRIG", { 0xd9, 0x00, 0x01 }, 3, PT_PKT_TRIG, 0x001 },
	{ "TRIG IP MULT", { 0xd9, 0xa0, 0x83 }, 3, PT_PKT_TRIG, 0x583 },
	{ "TRIG ICNT", { 0xd9, 0x40, 0x07, 0x34, 0x12 }, 5, PT_PKT_TRIG,
	  0x12340207 },
	{ "TRIG all", { 0xd9, 0xe0, 0xff, 0xff, 0xff }, 5, PT_PKT_TRIG,
	  0xffff07ff },
	{ "MODE.TSX", { 0x99, 0x23 }, 2, PT_PKT_MODE_TSX, 3 },
};

/* Each packet alone, then followed by a TNT-8 and a PAD (its size is
 * right, and no byte after it leaks into its payload), far from the end
 * of the buffer and at it; cut anywhere, it is a truncated packet at its
 * offset. */
static void test_packet_kinds(void **state)
{
	for (unsigned i = 0; i < N(pkt_cases); i++) {
		const struct pkt_case *c = &pkt_cases[i];

		for (unsigned pad = 0; pad <= 16; pad += 16) {
			struct sb s = { .n = 0 };
			struct dec_all r;

			put(&s, c->bytes, c->size);
			PUT(&s, 0x0a, 0x00);	/* bits 2:0 010b: no BIP */
			for (unsigned j = 0; j < pad; j++)
				PUT(&s, 0x00);
			decode(s.b, s.n, &r);
			if (r.n != 3 + pad)
				fail_msg("%s: %u packets", c->what, r.n);
			expect(&r.k[0], c->type, 0, c->size, c->payload);
			if (c->type == PT_PKT_TMA)
				assert_int_equal(r.k[0].fc, c->fc);
			assert_int_equal(r.k[0].err, PT_ERR_NONE);
			assert_int_equal(r.k[0].ip_valid, 0);
			expect(&r.k[1], PT_PKT_TNT8, c->size, 1, 1);
			assert_int_equal(r.k[1].count, 2);
			expect(&r.k[2], PT_PKT_PAD, c->size + 1, 1, 0);
		}
		for (unsigned cut = 1; cut < c->size; cut++) {
			struct dec_all r;

			decode(c->bytes, cut, &r);
			if (r.n != 1 || r.k[0].type != PT_PKT_ERROR ||
			    r.k[0].offset != 0 ||
			    r.k[0].err != PT_ERR_TRUNCATED)
				fail_msg("%s cut at %u: %u packets, %s err %s",
					 c->what, cut, r.n,
					 pt_pkt_name(r.k[0].type),
					 pt_err_name(r.k[0].err));
		}
	}
}

/* The second bytes after 02h that start no packet, and MNT's third. */
static void test_ext_unknown(void **state)
{
	static const uint8_t known[] = {
		0x82, 0x23, 0xa3, 0x03, 0x73, 0xf3, 0x83, 0x43, 0xc8, 0xc3,
		0x12, 0x92, 0x32, 0xb2, 0x62, 0xe2, 0xc2, 0x22, 0xa2, 0x63,
		0x33, 0xb3, 0x13, 0x53,
	};

	for (unsigned b = 0; b < 256; b++) {
		struct sb s = { .n = 0 };
		struct dec_all r;

		if (memchr(known, (int)b, sizeof(known)))
			continue;
		PUT(&s, 0x00, 0x02, (uint8_t)b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		    0, 0, 0, 0);
		decode(s.b, s.n, &r);
		assert_int_equal(r.n, 2);
		expect_err(&r.k[1], 1, PT_ERR_OPCODE);
	}
	for (unsigned b = 0; b < 256; b++) {
		struct sb s = { .n = 0 };
		struct dec_all r;

		if (b == 0x88)
			continue;
		PUT(&s, 0x02, 0xc3, (uint8_t)b, 1, 2, 3, 4, 5, 6, 7, 8);
		decode(s.b, s.n, &r);
		assert_int_equal(r.n, 1);
		expect_err(&r.k[0], 0, PT_ERR_OPCODE);
	}
	/* PTW with PayloadBytes 10b or 11b (reserved) */
	for (unsigned b = 0x52; b <= 0xf2; b += 0x20) {
		struct sb s = { .n = 0 };
		struct dec_all r;

		if (b == 0x92 || b == 0xb2)
			continue;
		PUT(&s, 0x02, (uint8_t)b, 1, 2, 3, 4, 5, 6, 7, 8);
		decode(s.b, s.n, &r);
		expect_err(&r.k[0], 0, PT_ERR_OPCODE);
	}
}

static void test_psb_broken(void **state)
{
	for (unsigned bad = 2; bad < 16; bad++) {
		struct sb s = { .n = 0 };
		struct dec_all r;

		e_psb(&s);
		s.b[bad] ^= 0x40;
		PUT(&s, 0x00);
		decode(s.b, s.n, &r);
		assert_true(r.n >= 1);
		expect_err(&r.k[0], 0, PT_ERR_PSB);
	}
}

/* ---- BIP: bits 2:0 = 100b, a TNT-8 outside a block */

static void test_block(void **state)
{
	struct sb s = { .n = 0 };
	struct dec_all r;

	PUT(&s, 0x04);				/* TNT-8, 1 bit */
	PUT(&s, 0x02, 0x63, 0x80);		/* BBP, SZ=1: 4 bytes */
	PUT(&s, 0x04, 1, 2, 3, 4);		/* BIP */
	PUT(&s, 0xfc, 1, 2, 3, 4);		/* BIP, ID 0x1f */
	PUT(&s, 0x02, 0x33);			/* BEP */
	PUT(&s, 0x0c);				/* TNT-8 */
	PUT(&s, 0x02, 0x63, 0x1f);		/* BBP, SZ=0: 8 bytes */
	PUT(&s, 0x1c, 1, 2, 3, 4, 5, 6, 7, 8);	/* BIP */
	PUT(&s, 0x06);				/* TNT-8 (2:0 110b) ends it */
	PUT(&s, 0x04);				/* TNT-8 again */
	PUT(&s, 0x02, 0x63, 0x80);		/* BBP */
	e_psb(&s);				/* PSB ends it too */
	PUT(&s, 0x04);
	PUT(&s, 0x02, 0x63, 0x80, 0x04, 1, 2);	/* a BIP cut short */
	decode(s.b, s.n, &r);
	assert_int_equal(r.n, 15);
	expect(&r.k[0], PT_PKT_TNT8, 0, 1, 0);
	expect(&r.k[1], PT_PKT_BBP, 1, 3, 0);
	expect(&r.k[2], PT_PKT_BIP, 4, 5, 0);
	expect(&r.k[3], PT_PKT_BIP, 9, 5, 0);
	expect(&r.k[4], PT_PKT_BEP, 14, 2, 0);
	expect(&r.k[5], PT_PKT_TNT8, 16, 1, 2);
	expect(&r.k[6], PT_PKT_BBP, 17, 3, 0);
	expect(&r.k[7], PT_PKT_BIP, 20, 9, 0);
	expect(&r.k[8], PT_PKT_TNT8, 29, 1, 1);
	expect(&r.k[9], PT_PKT_TNT8, 30, 1, 0);
	expect(&r.k[10], PT_PKT_BBP, 31, 3, 0);
	expect(&r.k[11], PT_PKT_PSB, 34, 16, 0);
	expect(&r.k[12], PT_PKT_TNT8, 50, 1, 0);
	expect(&r.k[13], PT_PKT_BBP, 51, 3, 0);
	expect_err(&r.k[14], 54, PT_ERR_TRUNCATED);
}

/* ---- sync, errors, resync */

/* The first PSB at or after from, by brute force. */
static size_t first_psb(const struct sb *s, size_t from)
{
	struct sb psb = { .n = 0 };

	e_psb(&psb);
	for (size_t i = from; i + 16 <= s->n; i++)
		if (!memcmp(s->b + i, psb.b, 16))
			return i;
	return s->n;
}

/* From every offset: partial PSBs, back-to-back PSBs (a run of 02 82
 * holds a PSB at each even offset until 16 bytes before its end), the
 * end and past it. */
static void test_sync(void **state)
{
	struct sb s = { .n = 0 };

	PUT(&s, 0x82, 0x02, 0x82, 0x0c, 0x19);
	e_psb(&s);
	PUT(&s, 0x02, 0x23, 0x0d, 0x02, 0x82, 0x02);
	e_psb(&s);
	e_psb(&s);
	PUT(&s, 0x02, 0x82, 0x02, 0x82, 0x00);
	for (int i = 0; i < 7; i++)
		PUT(&s, 0x02, 0x82);
	for (size_t from = 0; from <= s.n + 2; from++) {
		size_t want = first_psb(&s, from);
		struct pt_dec d;
		int rc;

		pt_dec_init(&d, s.b, s.n);
		d.pos = from;
		rc = pt_dec_sync(&d);
		if (d.pos != want || rc != (want == s.n ? -1 : 0))
			fail_msg("sync from %zu: at %zu rc %d, want %zu", from,
				 d.pos, rc, want);
		if (rc == 0) {
			struct pt_pkt k;

			assert_int_equal(pt_dec_next(&d, &k), PT_PKT_PSB);
			assert_int_equal(k.offset, want);
		}
	}
	assert_int_equal(first_psb(&s, 0), 5);
	assert_int_equal(first_psb(&s, 28), 29);
	assert_int_equal(first_psb(&s, 60), s.n);
}

/* A damaged packet: an error at its offset, then the next PSB (whatever
 * lies between, a PSB-like tail included), with the last IP 0. */
static void test_error_resync(void **state)
{
	struct sb s = { .n = 0 };
	struct dec_all r;

	e_ip(&s, 0x0d, 6, 0x1122334455667788ull);
	PUT(&s, 0x05);				/* no packet starts so */
	PUT(&s, 0x0c, 0x00, 0x02, 0x82, 0x0d);
	e_psb(&s);
	e_ip(&s, 0x0d, 1, 0xabcd);
	PUT(&s, 0x09, 0x00);			/* again, and no PSB after */
	e_ip(&s, 0x0d, 1, 0xabcd);
	decode(s.b, s.n, &r);
	assert_int_equal(r.n, 5);
	expect(&r.k[0], PT_PKT_TIP, 0, 9, 0x1122334455667788ull);
	expect_err(&r.k[1], 9, PT_ERR_OPCODE);
	expect(&r.k[2], PT_PKT_PSB, 15, 16, 0);
	expect(&r.k[3], PT_PKT_TIP, 31, 3, 0xabcd);
	assert_int_equal(r.k[3].ip, 0xabcd);
	expect_err(&r.k[4], 34, PT_ERR_OPCODE);
}

/* After PT_PKT_NONE the decoder stays at the end. */
static void test_end(void **state)
{
	uint8_t b[] = { 0x0c };
	struct pt_dec d;
	struct pt_pkt k;

	pt_dec_init(&d, b, 0);
	assert_int_equal(pt_dec_next(&d, &k), PT_PKT_NONE);
	pt_dec_init(&d, b, 1);
	assert_int_equal(pt_dec_next(&d, &k), PT_PKT_TNT8);
	assert_int_equal(pt_dec_next(&d, &k), PT_PKT_NONE);
	assert_int_equal(pt_dec_next(&d, &k), PT_PKT_NONE);
	assert_int_equal(k.offset, 1);
}

/* ---- the fast path (9 bytes or more left) against the checked one */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A random valid packet (no PSB). */
static void random_packet(struct sb *s)
{
	static const uint8_t opc[] = { 0x0d, 0x11, 0x01, 0x1d };
	static const unsigned ipcs[] = { 0, 1, 2, 3, 4, 6 };
	uint64_t r = rnd();

	switch (r % 10) {
	case 0:
	case 1: {
		unsigned c = 1 + r / 16 % 6;	/* TNT-8 of c bits */

		PUT(s, (uint8_t)(((1u << c) | (r >> 8 & ((1u << c) - 1))) << 1));
		break;
	}
	case 2:
	case 3:
		e_cyc(s, rnd() >> (r / 16 % 64));
		break;
	case 4:
		e_ip(s, opc[r / 16 % 4], ipcs[r / 64 % 6], rnd());
		break;
	case 5:
		PUT(s, 0x59, (uint8_t)(r >> 8));
		break;
	case 6:
		PUT(s, 0x19);
		put_le(s, rnd(), 7);
		break;
	case 7:		/* MODE.TSX, or MODE.Exec but CS.L = CS.D = 1 */
		PUT(s, 0x99, (uint8_t)(r >> 8 & 0x20 ? 0x20 | (r >> 9 & 3) :
				       (r >> 9) % 3 | (r >> 12 & 4)));
		break;
	case 8: {
		const struct pkt_case *c = &pkt_cases[r / 16 % N(pkt_cases)];

		if (c->type != PT_PKT_BBP)	/* no block here */
			put(s, c->bytes, c->size);
		break;
	}
	default:
		PUT(s, 0x00);
		break;
	}
}

/* Each packet of a random stream decodes the same in the stream and alone
 * in a buffer of its own size (the checked path), with the same last IP
 * before it; the packets tile the stream. */
static void test_fast_equals_checked(void **state)
{
	for (int round = 0; round < 200; round++) {
		struct sb s = { .n = 0 };
		struct dec_all r;
		uint64_t last_ip = 0;
		size_t at = 0;

		while (s.n < 1500)	/* fewer packets than r holds */
			random_packet(&s);
		decode(s.b, s.n, &r);
		for (unsigned i = 0; i < r.n; i++) {
			const struct pt_pkt *k = &r.k[i];
			uint8_t *alone = malloc(k->size);
			struct pt_dec d;
			struct pt_pkt a;

			assert_int_not_equal(k->type, PT_PKT_ERROR);
			assert_int_equal(k->offset, at);
			assert_non_null(alone);
			memcpy(alone, s.b + k->offset, k->size);
			pt_dec_init(&d, alone, k->size);
			d.last_ip = last_ip;
			assert_int_equal(pt_dec_next(&d, &a), k->type);
			if (a.size != k->size || a.payload != k->payload ||
			    a.count != k->count || a.ipc != k->ipc ||
			    a.ip_valid != k->ip_valid ||
			    (k->ip_valid && a.ip != k->ip) ||
			    (k->type == PT_PKT_TMA && a.fc != k->fc))
				fail_msg("round %d packet %u (%s at %llu): "
					 "alone size %u payload 0x%llx", round,
					 i, pt_pkt_name(k->type),
					 (unsigned long long)k->offset, a.size,
					 (unsigned long long)a.payload);
			assert_int_equal(pt_dec_next(&d, &a), PT_PKT_NONE);
			free(alone);
			if (k->ip_valid)
				last_ip = k->ip;
			if (k->type == PT_PKT_PSB)
				last_ip = 0;
			at += k->size;
		}
		assert_int_equal(at, s.n);
	}
}

/* Random bytes: the decoder ends, every packet lies inside the buffer,
 * offsets only grow but after an error, and after an error the next
 * packet is a PSB no more than 15 bytes before the error (a PSB the
 * damaged packet ran into, SDM §36.3.7) and after the last PSB. */
static void test_random_bytes(void **state)
{
	for (int round = 0; round < 2000; round++) {
		size_t len = rnd() % 300;
		uint8_t *b = malloc(len ? len : 1);
		struct pt_dec d;
		struct pt_pkt k;
		uint64_t last = 0, err_at = 0, last_psb = 0;
		int after_error = 0, n = 0, psbs = 0;

		assert_non_null(b);
		for (size_t i = 0; i < len; i++) {
			uint64_t r = rnd();

			/* often the bytes packets start with */
			b[i] = r % 4 ? (uint8_t)(r >> 8) :
				(uint8_t[]){ 0x02, 0x82, 0x03, 0x07, 0xff,
					     0x63, 0x04 }[r / 4 % 7];
		}
		pt_dec_init(&d, b, len);
		while (pt_dec_next(&d, &k) != PT_PKT_NONE) {
			assert_true(n++ <= (int)len);
			assert_true(after_error ? k.offset + 15 >= err_at :
				    k.offset >= last);
			assert_true(k.offset < len);
			if (k.type != PT_PKT_ERROR)
				assert_true(k.offset + k.size <= len);
			if (after_error) {
				assert_int_equal(k.type, PT_PKT_PSB);
				assert_true(!psbs || k.offset > last_psb);
			}
			if (k.type == PT_PKT_PSB) {
				psbs++;
				last_psb = k.offset;
			}
			after_error = k.type == PT_PKT_ERROR;
			err_at = k.offset;
			last = k.offset + (k.type == PT_PKT_ERROR ? 1 : k.size);
		}
		free(b);
	}
}

/* ---- resync: a damaged packet that ran into a PSB
 *
 * No legal packet sequence contains the PSB pattern (§36.3.7), so the
 * first bytes of any packet put right before a PSB may swallow the PSB's
 * first bytes, but decoding must find the PSB again: from the PSB on,
 * the stream decodes as it does undamaged.  (A CYC with Exp set takes the
 * PSB's 02h as its last byte; 82h is then a TNT-8, and the 02 82 after it
 * a PSB cut short: the PSB started 3 bytes before that error.) */

/* The first bytes of every packet kind longer than one byte: the cases
 * above, and the first-byte kinds written out here (§36.4.2). */
static const struct {
	const char *what;
	uint8_t bytes[10];
	unsigned size;
} long_pkts[] = {
	{ "CYC 2", { 0x07, 0x02 }, 2 },
	{ "CYC 4", { 0xff, 0xff, 0xff, 0x02 }, 4 },
	{ "CYC 10", { 0x07, 1, 1, 1, 1, 1, 1, 1, 1, 0x0e }, 10 },
	{ "TIP 16", { 0x2d, 1, 2 }, 3 },
	{ "TIP.PGE 32", { 0x51, 1, 2, 3, 4 }, 5 },
	{ "TIP.PGD sext48", { 0x61, 1, 2, 3, 4, 5, 6 }, 7 },
	{ "FUP 48", { 0x9d, 1, 2, 3, 4, 5, 6 }, 7 },
	{ "TIP 64", { 0xcd, 1, 2, 3, 4, 5, 6, 7, 8 }, 9 },
	{ "TSC", { 0x19, 1, 2, 3, 4, 5, 6, 7 }, 8 },
	{ "MTC", { 0x59, 0x12 }, 2 },
	{ "TNT-64", { 0x02, 0xa3, 1, 2, 3, 4, 5, 6 }, 8 },
};

/* Valid streams: PSB+, a few packets, then at *psb_at the PSB that the
 * damage goes before, its PSB+ (or, variant 1, PSBEND right after it)
 * and more packets. */
static void base_stream(struct sb *s, int variant, size_t *psb_at)
{
	e_psb(s);
	PUT(s, 0x19, 1, 2, 3, 4, 5, 6, 7);		/* TSC */
	PUT(s, 0x02, 0x23);				/* PSBEND */
	e_ip(s, 0x11, 6, 0x00007f0000401000ull);	/* TIP.PGE */
	PUT(s, 0x08, 0x0a, 0x59, 0x21);			/* CYC, TNT, MTC */
	e_ip(s, 0x0d, 1, 0x2040);
	*psb_at = s->n;
	e_psb(s);
	if (variant == 0) {
		PUT(s, 0x19, 9, 8, 7, 6, 5, 4, 3);
		PUT(s, 0x02, 0x73, 0x34, 0x12, 0x00, 0x05, 0x00);	/* TMA */
		PUT(s, 0x02, 0x03, 0x20, 0x00);			/* CBR */
		PUT(s, 0x99, 0x01);				/* MODE */
		e_ip(s, 0x1d, 3, 0x401234);			/* FUP */
	}
	PUT(s, 0x02, 0x23);
	PUT(s, 0x0f, 0x02, 0x0c);		/* 2-byte CYC, TNT-8 */
	e_ip(s, 0x0d, 2, 0x00405000);
	PUT(s, 0x02, 0xa3, 0x55, 0x55, 0x01, 0, 0, 0);	/* TNT-64 */
	PUT(s, 0x00, 0xd9, 0x00, 0x01);			/* PAD, TRIG */
	e_ip(s, 0x01, 0, 0);				/* TIP.PGD */
}

static void same_packet(const struct pt_pkt *a, const struct pt_pkt *b,
			size_t shift, const char *what, unsigned k)
{
	if (a->type != b->type || a->size != b->size ||
	    a->offset + shift != b->offset || a->payload != b->payload ||
	    a->count != b->count || a->ipc != b->ipc ||
	    a->ip_valid != b->ip_valid || (a->ip_valid && a->ip != b->ip))
		fail_msg("%s, %u bytes before the PSB: %s at %llu, undamaged "
			 "%s at %llu (+%zu)", what, k, pt_pkt_name(b->type),
			 (unsigned long long)b->offset, pt_pkt_name(a->type),
			 (unsigned long long)a->offset, shift);
}

/* pre[0, k) put before the PSB at psb_at of base: what comes before is
 * as it was, and from the PSB (its last decode, at psb_at + k) on every
 * packet is the undamaged one, k bytes later. */
static void check_resync(const struct sb *base, size_t psb_at,
			 const uint8_t *pre, unsigned k, const char *what)
{
	static struct dec_all ra, rb;
	static struct sb d;
	unsigned i0 = 0, j0 = 0, found = 0;

	d.n = 0;
	put(&d, base->b, psb_at);
	put(&d, pre, k);
	put(&d, base->b + psb_at, base->n - psb_at);
	decode(base->b, base->n, &ra);
	decode(d.b, d.n, &rb);
	while (i0 < ra.n && ra.k[i0].offset < psb_at) {
		assert_true(i0 < rb.n);
		same_packet(&ra.k[i0], &rb.k[i0], 0, what, k);
		i0++;
	}
	assert_true(i0 < ra.n && ra.k[i0].type == PT_PKT_PSB);
	for (unsigned j = 0; j < rb.n; j++)
		if (rb.k[j].type == PT_PKT_PSB &&
		    rb.k[j].offset == psb_at + k) {
			j0 = j;
			found = 1;
		}
	if (!found)
		fail_msg("%s, %u bytes before the PSB at %zu: the PSB is lost",
			 what, k, psb_at);
	if (ra.n - i0 != rb.n - j0)
		fail_msg("%s, %u bytes: %u packets from the PSB on, undamaged "
			 "%u", what, k, rb.n - j0, ra.n - i0);
	for (unsigned i = i0, j = j0; i < ra.n; i++, j++)
		same_packet(&ra.k[i], &rb.k[j], k, what, k);
}

static void test_resync_swallowed_psb(void **state)
{
	for (int variant = 0; variant < 2; variant++) {
		struct sb base = { .n = 0 };
		size_t psb_at;

		base_stream(&base, variant, &psb_at);
		for (size_t c = 0; c < N(pkt_cases); c++)
			for (unsigned k = 1; k < pkt_cases[c].size; k++)
				check_resync(&base, psb_at,
					     pkt_cases[c].bytes, k,
					     pkt_cases[c].what);
		for (size_t c = 0; c < N(long_pkts); c++)
			for (unsigned k = 1; k < long_pkts[c].size; k++)
				check_resync(&base, psb_at,
					     long_pkts[c].bytes, k,
					     long_pkts[c].what);
	}
}

/* The case of the issue, packet by packet: CYC 07 takes the PSB's 02
 * (Exp 0 ends it: a 2-byte CYC, 02h >> 1 = 1 in bits 11:5: 20h), 82 is a TNT-8 of 6 branches, then
 * 02 82 ... with 13 bytes of pattern left: a broken PSB at 3, and the
 * PSB found again at 1, 2 bytes before the error's resync point of
 * old. */
static void test_resync_cyc_before_psb(void **state)
{
	struct sb s = { .n = 0 };
	struct dec_all r;

	PUT(&s, 0x07);
	e_psb(&s);
	PUT(&s, 0x02, 0x23);
	decode(s.b, s.n, &r);
	assert_int_equal(r.n, 5);
	expect(&r.k[0], PT_PKT_CYC, 0, 2, 0x20);
	/* 82h: stop bit 7, branches in bits 6:1 = 000001b */
	expect(&r.k[1], PT_PKT_TNT8, 2, 1, 0x01);
	assert_int_equal(r.k[1].count, 6);
	expect_err(&r.k[2], 3, PT_ERR_PSB);
	expect(&r.k[3], PT_PKT_PSB, 1, 16, 0);
	expect(&r.k[4], PT_PKT_PSBEND, 17, 2, 0);
}

/* A damaged packet right after a PSB: the search does not find that PSB
 * again (it starts past the last PSB decoded), and a run of 02 82 longer
 * than a PSB is no endless loop. */
static void test_resync_moves_on(void **state)
{
	struct sb s = { .n = 0 };
	struct dec_all r;

	e_psb(&s);
	PUT(&s, 0xc9);			/* no packet starts so */
	decode(s.b, s.n, &r);
	assert_int_equal(r.n, 2);
	expect(&r.k[0], PT_PKT_PSB, 0, 16, 0);
	expect_err(&r.k[1], 16, PT_ERR_OPCODE);

	s.n = 0;
	e_psb(&s);
	PUT(&s, 0x02, 0x82, 0x02, 0x82, 0xc9);	/* 20 bytes of pattern */
	decode(s.b, s.n, &r);
	/* PSB at 0, at 16 02 82 02 82 c9: broken; the search from 1 (past
	 * the PSB at 0) finds the pattern at 2, whose end is broken at 18;
	 * from 3 the pattern at 4, then c9 at 20; from 5 none */
	assert_int_equal(r.n, 6);
	expect(&r.k[0], PT_PKT_PSB, 0, 16, 0);
	expect_err(&r.k[1], 16, PT_ERR_PSB);
	expect(&r.k[2], PT_PKT_PSB, 2, 16, 0);
	expect_err(&r.k[3], 18, PT_ERR_PSB);
	expect(&r.k[4], PT_PKT_PSB, 4, 16, 0);
	expect_err(&r.k[5], 20, PT_ERR_OPCODE);
}

/* ---- errata (lib/pt/errata.c), with and without the workaround */

/* SKD007 (the specification update's words, as libipt's skd007.ptt
 * quotes them): "an Intel PT OVF packet may be issued after the first
 * byte of a multi-byte CYC packet, instead of any remaining bytes of the
 * CYC".  Stream (skd007.ptt's): CYC first byte F7 (count[4:0] 1Eh, Exp),
 * then OVF 02 F3, PAD.  Without the workaround: CYC F7 02 = 1Eh | 1 << 5
 * = 3Eh, then F3 alone a CYC of 1Eh (skd007.ptt: "cyc(0x3e)",
 * "cyc(0x1e)"); with it: one OVF at the CYC's offset, 3 bytes. */
static void test_skd007(void **state)
{
	struct sb s = { .n = 0 };
	struct dec_all r;

	e_psb(&s);
	PUT(&s, 0x02, 0x23);			/* PSBEND at 16 */
	PUT(&s, 0xf7, 0x02, 0xf3, 0x00);	/* at 18 */
	PUT(&s, 0x1b, 0x02, 0xf3);		/* 1-byte CYC (no Exp), OVF */
	PUT(&s, 0xff, 0x03, 0x04, 0x02, 0xf3);	/* a 3-byte CYC, OVF */

	decode(s.b, s.n, &r);
	assert_int_equal(r.n, 9);
	expect(&r.k[2], PT_PKT_CYC, 18, 2, 0x3e);
	expect(&r.k[3], PT_PKT_CYC, 20, 1, 0x1e);
	expect(&r.k[4], PT_PKT_PAD, 21, 1, 0);

	for (unsigned e = 0; e < 4; e++) {
		int on = e & PT_ERRATUM_SKD007;

		decode_errata(s.b, s.n, e, &r);
		assert_int_equal(r.n, on ? 8 : 9);
		if (!on) {
			expect(&r.k[2], PT_PKT_CYC, 18, 2, 0x3e);
			continue;
		}
		expect(&r.k[2], PT_PKT_OVF, 18, 3, 0);
		expect(&r.k[3], PT_PKT_PAD, 21, 1, 0);
		/* a CYC without Exp is no multi-byte CYC: as it is */
		expect(&r.k[4], PT_PKT_CYC, 22, 1, 0x03);
		expect(&r.k[5], PT_PKT_OVF, 23, 2, 0);
		/* the erratum hits the bytes after the first only, so a
		 * 3-byte CYC that ends before an OVF is whole */
		expect(&r.k[6], PT_PKT_CYC, 25, 3, 0x1f | 1 << 5 | 2 << 12);
		expect(&r.k[7], PT_PKT_OVF, 28, 2, 0);
	}
}

/* SKZ84 (the specification update's words, as libipt's skz84.ptt quotes
 * them): in a VMX guest with TSC offsetting or scaling "any TMA packet
 * generated will have corrupted values in the CTC and FastCounter
 * fields.  Additionally, the corrupted TMA packet will be followed by a
 * bogus data byte."  A corrupt TMA shows where a reserved bit is set
 * (Table 36-32: byte 4, byte 6 bits 7:1).  skz84.ptt's bytes: 02 73 01
 * 01 01 01 00 00, then a FUP. */
static void test_skz84(void **state)
{
	struct sb s = { .n = 0 };
	struct dec_all r;

	e_psb(&s);
	PUT(&s, 0x02, 0x23);				/* at 16 */
	PUT(&s, 0x02, 0x73, 0x01, 0x01, 0x01, 0x01, 0x00, 0x00); /* at 18 */
	e_ip(&s, 0x1d, 1, 0x1000);			/* FUP at 26 */
	PUT(&s, 0x02, 0x73, 0x01, 0x01, 0x00, 0x01, 0x02, 0x00); /* at 29 */
	PUT(&s, 0x02, 0x73, 0x34, 0x12, 0x00, 0x05, 0x01);	/* at 37 */
	e_ip(&s, 0x01, 0, 0);				/* at 44 */

	decode(s.b, s.n, &r);
	assert_int_equal(r.n, 9);
	expect(&r.k[2], PT_PKT_TMA, 18, 7, 0x0101);
	expect(&r.k[3], PT_PKT_PAD, 25, 1, 0);
	expect(&r.k[5], PT_PKT_TMA, 29, 7, 0x0101);
	expect(&r.k[6], PT_PKT_PAD, 36, 1, 0);

	for (unsigned e = 0; e < 4; e++) {
		int on = e & PT_ERRATUM_SKZ84;

		decode_errata(s.b, s.n, e, &r);
		assert_int_equal(r.n, on ? 7 : 9);
		if (!on) {
			expect(&r.k[2], PT_PKT_TMA, 18, 7, 0x0101);
			continue;
		}
		expect(&r.k[2], PT_PKT_INVALID, 18, 8, PT_ERRATUM_SKZ84);
		expect(&r.k[3], PT_PKT_FUP, 26, 3, 0x1000);
		/* FC[15:9] (byte 6 bits 7:1) set */
		expect(&r.k[4], PT_PKT_INVALID, 29, 8, PT_ERRATUM_SKZ84);
		/* no reserved bit set: a TMA, 7 bytes */
		expect(&r.k[5], PT_PKT_TMA, 37, 7, 0x1234);
		assert_int_equal(r.k[5].fc, 0x105);
		expect(&r.k[6], PT_PKT_TIP_PGD, 44, 1, 0);
	}
}

/* The CPUs of each erratum as libipt's test streams list them ("cpu
 * 6/78" ..., decimal family/model): skd007.ptt 6/78, 6/94, 6/142,
 * 6/158, 6/165, 6/166; skz84.ptt 6/85, 6/106, 6/108, 6/143, 6/173,
 * 6/174, 6/207, 19/1.  Others have neither. */
static void test_errata_cpus(void **state)
{
	static const unsigned skd007[][2] = {
		{ 6, 78 }, { 6, 94 }, { 6, 142 }, { 6, 158 }, { 6, 165 },
		{ 6, 166 },
	};
	static const unsigned skz84[][2] = {
		{ 6, 85 }, { 6, 106 }, { 6, 108 }, { 6, 143 }, { 6, 173 },
		{ 6, 174 }, { 6, 207 }, { 19, 1 },
	};
	static const unsigned neither[][2] = {
		{ 6, 61 }, { 6, 79 }, { 6, 151 }, { 6, 92 }, { 15, 2 },
		{ 19, 0 }, { 0, 78 }, { 5, 85 }, { 25, 1 },
	};

	for (size_t i = 0; i < N(skd007); i++)
		assert_int_equal(pt_errata_for_cpu(skd007[i][0], skd007[i][1]),
				 PT_ERRATUM_SKD007);
	for (size_t i = 0; i < N(skz84); i++)
		assert_int_equal(pt_errata_for_cpu(skz84[i][0], skz84[i][1]),
				 PT_ERRATUM_SKZ84);
	for (size_t i = 0; i < N(neither); i++)
		assert_int_equal(pt_errata_for_cpu(neither[i][0],
						   neither[i][1]), 0);
	assert_string_equal(pt_erratum_name(PT_ERRATUM_SKD007), "skd007");
	assert_string_equal(pt_erratum_name(PT_ERRATUM_SKZ84), "skz84");
}

/* ---- names and CYC eligibility */

static void test_names(void **state)
{
	static const char *const want[] = {
		[PT_PKT_ERROR] = "error", [PT_PKT_PAD] = "pad",
		[PT_PKT_PSB] = "psb", [PT_PKT_PSBEND] = "psbend",
		[PT_PKT_TNT8] = "tnt.8", [PT_PKT_TNT64] = "tnt.64",
		[PT_PKT_TIP] = "tip", [PT_PKT_TIP_PGE] = "tip.pge",
		[PT_PKT_TIP_PGD] = "tip.pgd", [PT_PKT_FUP] = "fup",
		[PT_PKT_MODE_EXEC] = "mode.exec", [PT_PKT_MODE_TSX] = "mode.tsx",
		[PT_PKT_CBR] = "cbr", [PT_PKT_TSC] = "tsc", [PT_PKT_MTC] = "mtc",
		[PT_PKT_TMA] = "tma", [PT_PKT_CYC] = "cyc", [PT_PKT_OVF] = "ovf",
		[PT_PKT_STOP] = "stop", [PT_PKT_PIP] = "pip",
		[PT_PKT_VMCS] = "vmcs", [PT_PKT_MNT] = "mnt", [PT_PKT_PTW] = "ptw",
		[PT_PKT_EXSTOP] = "exstop", [PT_PKT_MWAIT] = "mwait",
		[PT_PKT_PWRE] = "pwre", [PT_PKT_PWRX] = "pwrx",
		[PT_PKT_BBP] = "bbp", [PT_PKT_BIP] = "bip", [PT_PKT_BEP] = "bep",
		[PT_PKT_CFE] = "cfe", [PT_PKT_EVD] = "evd",
		[PT_PKT_TRIG] = "trig", [PT_PKT_INVALID] = "invalid",
	};

	assert_int_equal(N(want), PT_PKT_NR);
	for (unsigned t = PT_PKT_ERROR; t < PT_PKT_NR; t++)
		assert_string_equal(pt_pkt_name(t), want[t]);
	assert_string_equal(pt_pkt_name(PT_PKT_NR), "unknown");
	assert_string_equal(pt_err_name(PT_ERR_OPCODE), "unknown opcode");
	assert_string_equal(pt_err_name(PT_ERR_TRUNCATED), "truncated packet");
	assert_string_equal(pt_err_name(PT_ERR_CYC_OVERFLOW), "CYC overflow");
	for (unsigned e = 0; e < PT_ERR_NR; e++) {
		assert_non_null(pt_err_name(e));
		for (unsigned f = 0; f < e; f++)
			assert_string_not_equal(pt_err_name(e),
						pt_err_name(f));
	}
	assert_string_equal(pt_err_name(PT_ERR_NR), "unknown error");
}

/* §36.3.6: TNT, TIP, TIP.PGE, TIP.PGD, MODE.EXEC, MODE.TSX, PIP, VMCS,
 * OVF, MTC, TSC, PTWRITE, EXSTOP; in PSB+ (§36.3.7) only MTC. */
static void test_cyc_eligible(void **state)
{
	static const unsigned yes[] = {
		PT_PKT_TNT8, PT_PKT_TNT64, PT_PKT_TIP, PT_PKT_TIP_PGE,
		PT_PKT_TIP_PGD, PT_PKT_MODE_EXEC, PT_PKT_MODE_TSX, PT_PKT_PIP,
		PT_PKT_VMCS, PT_PKT_OVF, PT_PKT_MTC, PT_PKT_TSC, PT_PKT_PTW,
		PT_PKT_EXSTOP,
	};

	for (unsigned t = 0; t <= PT_PKT_NR; t++) {
		int want = 0;

		for (unsigned i = 0; i < N(yes); i++)
			want |= yes[i] == t;
		if (pt_pkt_cyc_eligible(t, 0) != want)
			fail_msg("%s: eligible %d", pt_pkt_name(t), !want);
		if (pt_pkt_cyc_eligible(t, 1) != (t == PT_PKT_MTC))
			fail_msg("%s in PSB+: eligible %d", pt_pkt_name(t),
				 t != PT_PKT_MTC);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_first_byte),
		cmocka_unit_test(test_tnt8),
		cmocka_unit_test(test_tnt64),
		cmocka_unit_test(test_cyc_lengths),
		cmocka_unit_test(test_cyc_overflow),
		cmocka_unit_test(test_cyc_truncated),
		cmocka_unit_test(test_last_ip),
		cmocka_unit_test(test_ipbytes_reserved),
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_mode_exec_if),
		cmocka_unit_test(test_packet_kinds),
		cmocka_unit_test(test_ext_unknown),
		cmocka_unit_test(test_psb_broken),
		cmocka_unit_test(test_block),
		cmocka_unit_test(test_sync),
		cmocka_unit_test(test_error_resync),
		cmocka_unit_test(test_end),
		cmocka_unit_test(test_fast_equals_checked),
		cmocka_unit_test(test_random_bytes),
		cmocka_unit_test(test_resync_swallowed_psb),
		cmocka_unit_test(test_resync_cyc_before_psb),
		cmocka_unit_test(test_resync_moves_on),
		cmocka_unit_test(test_skd007),
		cmocka_unit_test(test_skz84),
		cmocka_unit_test(test_errata_cpus),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_cyc_eligible),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
