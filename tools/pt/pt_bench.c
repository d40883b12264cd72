/* pt-bench: the packet decoder's speed against libipt's (`make bench`).
 *
 * One stream of STREAM_MB MiB is made with libipt's encoder (pt_enc_next),
 * from a fixed seed, as a branch trace with CYC looks: a PSB+ (PSB, TSC,
 * TMA, CBR, MODE.Exec, FUP with the full IP, PSBEND) at every 4 KiB, and
 * between them packets drawn with these weights: TNT-8 45%, CYC 30% (four
 * in five of one byte, the rest of two), TIP with a 16- or 32-bit IP
 * update 12%, MTC 5%, TNT-64 4%, PAD 2%, MODE.Exec 1%, TIP with the full
 * IP 1%.  It is about two bytes a packet.
 *
 * Then ROUNDS rounds, each decoding the whole stream once with ours
 * (pt_dec_next, lib/pt/decode.c) and once with libipt's packet decoder
 * (pt_pkt_next), alternating; both are built with -O2 (ours by the
 * Makefile, Debian's libipt by Debian).  Each side sums a field of every
 * packet so that nothing is optimised away, and both must see the same
 * number of packets.  The best round of each side counts.
 *
 * Prints "pt-decode: ours=<MB/s> libipt=<MB/s> ratio=<ours/libipt>" (MB:
 * 10^6 bytes) and a "#" line on the stream.  No timing is asserted. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <intel-pt.h>

#include "lib/pt/packet.h"
#include "tools/pt/tool.h"

#define STREAM_MB 32
#define ROUNDS 7
#define PSB_EVERY 4096

struct maker {
	struct pt_rng rng;
	struct pt_encoder *enc;
	uint64_t ip;
};

static void put(struct maker *m, const struct pt_packet *p)
{
	int r = pt_enc_next(m->enc, p);

	if (r < 0) {
		fprintf(stderr, "pt-bench: libipt's encoder: %s\n",
			pt_errstr(pt_errcode(r)));
		exit(2);
	}
}

static void psb_plus(struct maker *m)
{
	struct pt_packet p[] = {
		{ .type = ppt_psb },
		{ .type = ppt_tsc, .payload.tsc.tsc = pt_rng_next(&m->rng) >> 8 },
		{ .type = ppt_tma, .payload.tma = { .ctc = 0x1234, .fc = 5 } },
		{ .type = ppt_cbr, .payload.cbr.ratio = 0x20 },
		{ .type = ppt_mode, .payload.mode = {
			.leaf = pt_mol_exec, .bits.exec.csl = 1 } },
		{ .type = ppt_fup, .payload.ip = {
			.ipc = pt_ipc_sext_48, .ip = m->ip } },
		{ .type = ppt_psbend },
	};

	for (unsigned i = 0; i < sizeof(p) / sizeof(*p); i++)
		put(m, &p[i]);
}

static void one(struct maker *m)
{
	unsigned x = (unsigned)pt_rng_below(&m->rng, 100);
	uint64_t r = pt_rng_next(&m->rng);
	struct pt_packet p = { .type = ppt_tnt_8 };

	if (x < 45) {
		p.payload.tnt.bit_size = (uint8_t)(1 + r % 6);
		p.payload.tnt.payload = (r >> 8) &
			((1u << p.payload.tnt.bit_size) - 1);
	} else if (x < 75) {
		p.type = ppt_cyc;
		p.payload.cyc.value = r % 5 ? (r >> 8) % 32 : (r >> 8) % 4096;
	} else if (x < 87) {
		m->ip = (m->ip & ~0xffffull) | ((r >> 8) & 0xffff);
		p.type = ppt_tip;
		p.payload.ip.ipc = r & 1 ? pt_ipc_update_16 : pt_ipc_update_32;
		p.payload.ip.ip = m->ip;
	} else if (x < 92) {
		p.type = ppt_mtc;
		p.payload.mtc.ctc = (uint8_t)(r >> 8);
	} else if (x < 96) {
		p.type = ppt_tnt_64;
		p.payload.tnt.bit_size = (uint8_t)(1 + r % 47);
		p.payload.tnt.payload = (r >> 8) &
			((1ull << p.payload.tnt.bit_size) - 1);
	} else if (x < 98) {
		p.type = ppt_pad;
	} else if (x < 99) {
		p.type = ppt_mode;
		p.payload.mode.leaf = pt_mol_exec;
		p.payload.mode.bits.exec.csl = 1;
	} else {
		m->ip = 0x7f0000000000ull | ((r >> 8) & 0xffffffffffull);
		p.type = ppt_tip;
		p.payload.ip.ipc = pt_ipc_full;
		p.payload.ip.ip = m->ip;
	}
	put(m, &p);
}

static uint8_t *make_stream(size_t *len)
{
	size_t cap = (size_t)STREAM_MB << 20;
	uint8_t *buf = malloc(cap);
	struct maker m = { .rng = { 1 }, .ip = 0x401000 };
	struct pt_config cfg;
	uint64_t off = 0, psb_at = 0;

	if (!buf) {
		fprintf(stderr, "pt-bench: out of memory\n");
		exit(2);
	}
	pt_config_init(&cfg);
	cfg.begin = buf;
	cfg.end = buf + cap;
	m.enc = pt_alloc_encoder(&cfg);
	/* stop where the largest draw might not fit */
	while (m.enc && off + 64 < cap) {
		if (off >= psb_at) {
			psb_plus(&m);
			psb_at += PSB_EVERY;
		} else {
			one(&m);
		}
		pt_enc_get_offset(m.enc, &off);
	}
	pt_free_encoder(m.enc);
	*len = off;
	return buf;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct pass {
	uint64_t packets, sum;
	double seconds;
};

static struct pass ours(const uint8_t *buf, size_t len)
{
	struct pass r = { 0 };
	struct pt_dec d;
	struct pt_pkt k = { 0 };
	double t = now();

	pt_dec_init(&d, buf, len);
	while (pt_dec_next(&d, &k) != PT_PKT_NONE) {
		r.packets++;
		r.sum += k.payload ^ k.ip ^ k.type;
	}
	r.seconds = now() - t;
	return r;
}

static struct pass libipt(const uint8_t *buf, size_t len)
{
	struct pass r = { 0 };
	struct pt_packet_decoder *dec;
	struct pt_config cfg;
	struct pt_packet p = { .type = ppt_invalid };
	double t;
	int e;

	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	dec = pt_pkt_alloc_decoder(&cfg);
	t = now();
	e = dec ? pt_pkt_sync_set(dec, 0) : -pte_nomem;
	while (e >= 0 && (e = pt_pkt_next(dec, &p, sizeof(p))) > 0) {
		r.packets++;
		/* TNT's payload and an IP are the union's second word,
		 * CYC's value and TSC's its first */
		r.sum += p.payload.ip.ip ^ p.payload.cyc.value ^ p.type;
	}
	r.seconds = now() - t;
	pt_pkt_free_decoder(dec);
	if (e != -pte_eos) {
		fprintf(stderr, "pt-bench: libipt: %s\n",
			pt_errstr(pt_errcode(e)));
		exit(2);
	}
	return r;
}

int main(void)
{
	size_t len;
	uint8_t *buf = make_stream(&len);
	double best_ours = 1e30, best_ipt = 1e30;
	uint64_t packets = 0, sum = 0;

	for (int i = 0; i < ROUNDS; i++) {
		struct pass a = ours(buf, len), b = libipt(buf, len);

		if (a.packets != b.packets) {
			fprintf(stderr, "pt-bench: ours saw %" PRIu64 " packets, "
				"libipt %" PRIu64 "\n", a.packets, b.packets);
			return 1;
		}
		packets = a.packets;
		sum += a.sum + b.sum;
		if (a.seconds < best_ours)
			best_ours = a.seconds;
		if (b.seconds < best_ipt)
			best_ipt = b.seconds;
	}
	printf("# pt-bench: stream %zu bytes, %" PRIu64 " packets (%.2f "
	       "bytes/packet), best of %d alternating rounds (checksum %"
	       PRIx64 ")\n", len, packets, (double)len / (double)packets,
	       ROUNDS, sum);
	printf("pt-decode: ours=%.0f libipt=%.0f ratio=%.2f\n",
	       (double)len / best_ours / 1e6, (double)len / best_ipt / 1e6,
	       best_ipt / best_ours);
	free(buf);
	return 0;
}
