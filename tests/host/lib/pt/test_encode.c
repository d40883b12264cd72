/* Host tests for lib/pt/encode.c: the bytes of every packet the encoders
 * write, typed from the packet diagrams of Intel SDM Vol. 3C, order no.
 * 326019-060US, §36.4.2:
 *   - PAD 00 (Table 36-39); PSB 02 82 x 8 (§36.4.2.17); PSBEND 02 23
 *     (Table 36-37); OVF 02 F3 (§36.4.2.16); TraceStop 02 83 (Table
 *     36-28);
 *   - short TNT (Table 36-16): bit 0 = 0, B1 (oldest) .. BN above it, a
 *     stop bit 1 above the oldest; long TNT 02 A3 + 6 bytes, stop bit
 *     above the oldest of up to 47 bits;
 *   - TIP 0Dh, TIP.PGE 11h, TIP.PGD 01h, FUP 1Dh in bits 4:0 and IPBytes
 *     in bits 7:5, then 0/2/4/6/6/-/8 payload bytes for IPBytes
 *     0/1/2/3/4/5/6 (Tables 36-17, 36-18, 36-20, 36-21);
 *   - MODE 99h + leaf in bits 7:5 (Exec 000b: bit 0 CS.L, bit 1 CS.D;
 *     TSX 001b: bit 0 InTX, bit 1 TXAbort) (Tables 36-25 to 36-27);
 *   - CBR 02 03 ratio 00 (Table 36-29); TSC 19h + 7 bytes (Table 36-30);
 *     MTC 59h + CTC (Table 36-31); TMA 02 73 CTC[7:0] CTC[15:8] 00
 *     FC[7:0] FC[8] (Table 36-32);
 *   - CYC (Table 36-33): byte 0 = count[4:0] << 3 | Exp << 2 | 11b, then
 *     7 bits a byte above an Exp bit 0; 1 byte below 32, 2 bytes for
 *     32-4095, ... (every length 1-10 and both sides of each edge);
 *   - IP compression (Table 36-18) against the last IP: 1 when bits 63:16
 *     match, 2 when 63:32 match, 3 when the IP is bits 47:0 sign-
 *     extended, 4 when 63:48 match, else 6.
 * The same values were checked once against libipt 2.0.5's pt_enc_next()
 * (byte for byte, every case here but the 10-byte CYC which libipt also
 * writes that way). */
#include <stdio.h>
#include <string.h>

#include "lib/pt/packet.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: lib/pt/encode.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Checks that out[0, n) holds want[0, wn) and that n == wn. */
static void expect_bytes(const char *what, const uint8_t *out, unsigned n,
			 const uint8_t *want, unsigned wn)
{
	char got[3 * PT_PKT_MAX + 1] = "", exp[3 * PT_PKT_MAX + 1] = "";

	if (n == wn && !memcmp(out, want, n))
		return;
	for (unsigned i = 0; i < n && i < PT_PKT_MAX; i++)
		sprintf(got + 3 * i, "%02x ", out[i]);
	for (unsigned i = 0; i < wn && i < PT_PKT_MAX; i++)
		sprintf(exp + 3 * i, "%02x ", want[i]);
	fail_msg("%s: wrote %u bytes [%s], the SDM gives %u [%s]", what, n, got,
		 wn, exp);
}

#define EXPECT(what, out, n, ...)                                           \
	do {                                                                 \
		static const uint8_t want_[] = { __VA_ARGS__ };              \
		expect_bytes(what, out, n, want_, sizeof(want_));            \
	} while (0)

static void test_fixed_packets(void **state)
{
	uint8_t b[PT_PKT_MAX];

	(void)state;
	EXPECT("pad", b, pt_enc_pad(b), 0x00);
	EXPECT("psb", b, pt_enc_psb(b), 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
	       0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82);
	EXPECT("psbend", b, pt_enc_psbend(b), 0x02, 0x23);
	EXPECT("ovf", b, pt_enc_ovf(b), 0x02, 0xf3);
	EXPECT("stop", b, pt_enc_stop(b), 0x02, 0x83);
}

static void test_tnt8(void **state)
{
	uint8_t b[PT_PKT_MAX];

	(void)state;
	/* one bit: B1 in bit 1, the stop bit in bit 2 */
	EXPECT("tnt8 N", b, pt_enc_tnt8(b, 0, 1), 0x04);
	EXPECT("tnt8 T", b, pt_enc_tnt8(b, 1, 1), 0x06);
	/* T N T (oldest first): bits 101b, stop bit in bit 4 */
	EXPECT("tnt8 TNT", b, pt_enc_tnt8(b, 0x5, 3), 0x1a);
	/* six bits, oldest T then N N N N T: 100001b, stop in bit 7 */
	EXPECT("tnt8 6", b, pt_enc_tnt8(b, 0x21, 6), 0xc2);
	EXPECT("tnt8 6 all taken", b, pt_enc_tnt8(b, 0x3f, 6), 0xfe);
	/* what a short TNT cannot hold */
	assert_int_equal(pt_enc_tnt8(b, 0, 0), 0);
	assert_int_equal(pt_enc_tnt8(b, 0, 7), 0);
	assert_int_equal(pt_enc_tnt8(b, 0x4, 2), 0);
}

static void test_tnt64(void **state)
{
	uint8_t b[PT_PKT_MAX];

	(void)state;
	EXPECT("tnt64 T", b, pt_enc_tnt64(b, 1, 1), 0x02, 0xa3, 0x03, 0, 0, 0,
	       0, 0);
	/* 47 bits, all taken: payload 2^48 - 1 */
	EXPECT("tnt64 47", b, pt_enc_tnt64(b, (1ull << 47) - 1, 47), 0x02,
	       0xa3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
	/* 9 bits 1 0000 0001b: stop bit 9 */
	EXPECT("tnt64 9", b, pt_enc_tnt64(b, 0x101, 9), 0x02, 0xa3, 0x01,
	       0x03, 0, 0, 0, 0);
	assert_int_equal(pt_enc_tnt64(b, 0, 0), 0);
	assert_int_equal(pt_enc_tnt64(b, 0, 48), 0);
	assert_int_equal(pt_enc_tnt64(b, 0x8, 3), 0);
}

static void test_ip_packets(void **state)
{
	uint8_t b[PT_PKT_MAX];

	(void)state;
	EXPECT("tip suppressed", b, pt_enc_ip(b, PT_PKT_TIP, 0, 0), 0x0d);
	EXPECT("tip.pgd suppressed", b, pt_enc_ip(b, PT_PKT_TIP_PGD, 0, 0),
	       0x01);
	EXPECT("tip ipc1", b, pt_enc_ip(b, PT_PKT_TIP, 1, 0x1234), 0x2d, 0x34,
	       0x12);
	EXPECT("tip.pge ipc2", b, pt_enc_ip(b, PT_PKT_TIP_PGE, 2, 0x89abcdef),
	       0x51, 0xef, 0xcd, 0xab, 0x89);
	EXPECT("fup ipc3", b, pt_enc_ip(b, PT_PKT_FUP, 3, 0x8000deadbeefull),
	       0x7d, 0xef, 0xbe, 0xad, 0xde, 0x00, 0x80);
	EXPECT("tip.pgd ipc4", b, pt_enc_ip(b, PT_PKT_TIP_PGD, 4,
					    0x123456789abcull),
	       0x81, 0xbc, 0x9a, 0x78, 0x56, 0x34, 0x12);
	EXPECT("tip ipc6", b, pt_enc_ip(b, PT_PKT_TIP, 6,
					0xffffffff81000010ull),
	       0xcd, 0x10, 0x00, 0x00, 0x81, 0xff, 0xff, 0xff, 0xff);
	/* reserved IPBytes, a payload wider than its bytes, not an IP
	 * packet */
	assert_int_equal(pt_enc_ip(b, PT_PKT_TIP, 5, 0), 0);
	assert_int_equal(pt_enc_ip(b, PT_PKT_TIP, 7, 0), 0);
	assert_int_equal(pt_enc_ip(b, PT_PKT_TIP, 1, 0x10000), 0);
	assert_int_equal(pt_enc_ip(b, PT_PKT_FUP, 0, 1), 0);
	assert_int_equal(pt_enc_ip(b, PT_PKT_TNT8, 1, 0), 0);
}

static void test_mode(void **state)
{
	uint8_t b[PT_PKT_MAX];

	(void)state;
	EXPECT("mode.exec 64-bit", b, pt_enc_mode_exec(b, 1, 0), 0x99, 0x01);
	EXPECT("mode.exec 32-bit", b, pt_enc_mode_exec(b, 0, 1), 0x99, 0x02);
	EXPECT("mode.exec 16-bit", b, pt_enc_mode_exec(b, 0, 0), 0x99, 0x00);
	EXPECT("mode.tsx intx", b, pt_enc_mode_tsx(b, 1, 0), 0x99, 0x21);
	EXPECT("mode.tsx abort", b, pt_enc_mode_tsx(b, 0, 1), 0x99, 0x22);
	assert_int_equal(pt_enc_mode_exec(b, 2, 0), 0);
}

static void test_timing_packets(void **state)
{
	uint8_t b[PT_PKT_MAX];

	(void)state;
	EXPECT("cbr", b, pt_enc_cbr(b, 0x2a), 0x02, 0x03, 0x2a, 0x00);
	EXPECT("tsc", b, pt_enc_tsc(b, 0x00123456789abcdeull), 0x19, 0xde,
	       0xbc, 0x9a, 0x78, 0x56, 0x34, 0x12);
	EXPECT("mtc", b, pt_enc_mtc(b, 0xa5), 0x59, 0xa5);
	EXPECT("tma", b, pt_enc_tma(b, 0xbeef, 0x1ff), 0x02, 0x73, 0xef, 0xbe,
	       0x00, 0xff, 0x01);
	EXPECT("tma fc 0", b, pt_enc_tma(b, 0x0102, 0x34), 0x02, 0x73, 0x02,
	       0x01, 0x00, 0x34, 0x00);
	assert_int_equal(pt_enc_cbr(b, 0x100), 0);
	assert_int_equal(pt_enc_tsc(b, 1ull << 56), 0);
	assert_int_equal(pt_enc_mtc(b, 0x100), 0);
	assert_int_equal(pt_enc_tma(b, 0x10000, 0), 0);
	assert_int_equal(pt_enc_tma(b, 0, 0x200), 0);
}

/* Decodes a CYC the way Table 36-33 describes it: the count's bits, 5
 * from byte 0, 7 from each byte after it, while Exp says one follows. */
static uint64_t cyc_value(const uint8_t *b, unsigned n, unsigned *used)
{
	uint64_t v = b[0] >> 3;
	unsigned shift = 5, i = 0;
	int more = b[0] & 4;

	assert_int_equal(b[0] & 3, 3);
	while (more && ++i < n) {
		if (shift < 64)
			v |= (uint64_t)(b[i] >> 1) << shift;
		shift += 7;
		more = b[i] & 1;
	}
	*used = i + 1;
	return v;
}

static void test_cyc_examples(void **state)
{
	uint8_t b[PT_PKT_MAX];

	(void)state;
	EXPECT("cyc 0", b, pt_enc_cyc(b, 0), 0x03);
	EXPECT("cyc 1", b, pt_enc_cyc(b, 1), 0x0b);
	EXPECT("cyc 31", b, pt_enc_cyc(b, 31), 0xfb);
	/* 32: count[4:0] = 0 with Exp, then count[11:5] = 1 */
	EXPECT("cyc 32", b, pt_enc_cyc(b, 32), 0x07, 0x02);
	EXPECT("cyc 4095", b, pt_enc_cyc(b, 4095), 0xff, 0xfe);
	EXPECT("cyc 4096", b, pt_enc_cyc(b, 4096), 0x07, 0x01, 0x02);
	EXPECT("cyc 2^61", b, pt_enc_cyc(b, 1ull << 61), 0x07, 0x01, 0x01,
	       0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x02);
	EXPECT("cyc max", b, pt_enc_cyc(b, ~0ull), 0xff, 0xff, 0xff, 0xff,
	       0xff, 0xff, 0xff, 0xff, 0xff, 0x0e);
}

/* Every length 1-10 at both sides of its edge: a value below 2^(5+7k)
 * takes k+1 bytes (the shortest form), and each decodes back. */
static void test_cyc_lengths(void **state)
{
	uint8_t b[PT_PKT_MAX];

	(void)state;
	for (unsigned len = 1; len <= 10; len++) {
		unsigned bits = 5 + 7 * (len - 1);
		uint64_t lo = len == 1 ? 0 : 1ull << (bits - 7);
		uint64_t hi = bits >= 64 ? ~0ull : (1ull << bits) - 1;
		uint64_t vals[] = { lo, hi, lo + (hi - lo) / 3 };

		for (unsigned i = 0; i < N(vals); i++) {
			unsigned n = pt_enc_cyc(b, vals[i]), used;

			if (n != len)
				fail_msg("cyc %#llx: %u bytes, the shortest "
					 "form is %u",
					 (unsigned long long)vals[i], n, len);
			assert_true(cyc_value(b, n, &used) == vals[i]);
			assert_int_equal(used, n);
			assert_int_equal(b[n - 1] & (n == 1 ? 4 : 1), 0);
		}
	}
}

static void test_ip_compress(void **state)
{
	static const struct {
		uint64_t last, ip;
		unsigned ipc;
		uint64_t payload;
	} cases[] = {
		/* after a PSB the last IP is 0 */
		{ 0, 0x1234, 1, 0x1234 },
		{ 0, 0x7fff1234, 2, 0x7fff1234 },
		{ 0, 0x7f0012345678ull, 3, 0x7f0012345678ull },
		{ 0, 0xffff800000001000ull, 3, 0x800000001000ull },
		{ 0, 0x0001000000000000ull, 6, 0x0001000000000000ull },
		/* upper bytes from the last IP */
		{ 0x401000, 0x40abcd, 1, 0xabcd },
		{ 0x401000, 0x5001000, 2, 0x5001000 },
		{ 0xffffffff81000000ull, 0xffffffff81234567ull, 2, 0x81234567 },
		{ 0x1230000000000000ull, 0x1234567890abcdefull, 6,
		  0x1234567890abcdefull },
		{ 0x1234000000000000ull, 0x1234567890abcdefull, 4,
		  0x567890abcdefull },
		{ 0x1234567890abcdefull, 0x1234567890abcdefull, 1, 0xcdef },
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		uint64_t last = cases[i].last, payload = ~0ull;
		unsigned ipc = pt_ip_compress(cases[i].ip, &last, &payload);

		if (ipc != cases[i].ipc || payload != cases[i].payload)
			fail_msg("ip %#llx after %#llx: IPBytes %u payload "
				 "%#llx, expected %u %#llx",
				 (unsigned long long)cases[i].ip,
				 (unsigned long long)cases[i].last, ipc,
				 (unsigned long long)payload, cases[i].ipc,
				 (unsigned long long)cases[i].payload);
		assert_true(last == cases[i].ip);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_packets),
		cmocka_unit_test(test_tnt8),
		cmocka_unit_test(test_tnt64),
		cmocka_unit_test(test_ip_packets),
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_timing_packets),
		cmocka_unit_test(test_cyc_examples),
		cmocka_unit_test(test_cyc_lengths),
		cmocka_unit_test(test_ip_compress),
	};

	return cmocka_run_group_tests_name("pt_encode", tests, NULL, NULL);
}
