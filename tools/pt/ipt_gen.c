/* ipt-gen: random Intel PT packet sequences written by libipt's encoder
 * (Debian's libipt 2.0.5, pt_encoder / pt_enc_next), for the referee
 * comparison of tools/check/pt.py: ptdecode --packets and ipt-dump must
 * print the same lines for them.
 *
 * Every packet kind libipt 2.0.5 encodes is drawn: PSB (alone and as a
 * PSB+ with TSC, TMA, CBR, MODE.Exec, FUP and PSBEND), PSBEND, PAD, TNT-8
 * (1-6 branches), TNT-64 (1-47: the SDM's range, Intel SDM Vol. 3C, order
 * no. 326019-060US, §36.4.2.1, Table 36-16; libipt's encoder writes a
 * TNT-64 of none, which its decoder rejects), TIP, TIP.PGE, TIP.PGD and
 * FUP with every IPBytes value (0, 1, 2, 3, 4, 6), MODE.Exec, MODE.TSX,
 * CBR, TSC, MTC, TMA, CYC of every length 1 to 9 bytes and, rarely, a
 * value from 2^61 (the 10-byte CYC libipt's decoder rejects: docs/pt.md),
 * OVF, STOP, PIP, VMCS, MNT, EXSTOP, MWAIT, PWRE, PWRX, PTW.  libipt
 * cannot encode BBP, BIP, BEP, CFE or EVD.
 *
 * Deterministic by SEED.  With EXPECT, it also writes the --packets
 * listing the stream stands for, from what it chose (IPs are drawn first
 * and their payload cut to the IPBytes chosen, so the listing does not
 * reconstruct anything): the referee's own check.
 *
 * Usage: ipt-gen SEED COUNT OUT [EXPECT]
 * Exit status 0, 2 for a bad argument or a write error. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <intel-pt.h>

#include "tools/pt/tool.h"

struct gen {
	struct pt_rng rng;
	struct pt_encoder *enc;
	FILE *expect;		/* NULL: no listing */
	uint64_t last_ip;	/* what the decoder's last IP holds */
	unsigned long packets;
};

static uint64_t rnd(struct gen *g, uint64_t n)
{
	return pt_rng_below(&g->rng, n);
}

static uint64_t bits(struct gen *g, unsigned n)
{
	uint64_t v = pt_rng_next(&g->rng);

	return n >= 64 ? v : v & ((1ull << n) - 1);
}

/* Encodes p; its line in the listing is "OFFSET NAME PAYLOAD". */
static void emit(struct gen *g, const struct pt_packet *p, const char *name,
		 const char *payload)
{
	uint64_t off = 0;
	int r = pt_enc_get_offset(g->enc, &off);

	if (r >= 0)
		r = pt_enc_next(g->enc, p);
	if (r < 0) {
		fprintf(stderr, "ipt-gen: libipt refused a %s packet (%s)\n",
			name, pt_errstr(pt_errcode(r)));
		exit(2);
	}
	if (g->expect)
		fprintf(g->expect, "%" PRIu64 " %s %s\n", off, name, payload);
	g->packets++;
}

static void plain(struct gen *g, enum pt_packet_type t, const char *name)
{
	struct pt_packet p = { .type = t };

	if (t == ppt_psb)
		g->last_ip = 0;
	emit(g, &p, name, "-");
}

static void tnt(struct gen *g, int wide)
{
	unsigned n = 1 + (unsigned)rnd(g, wide ? 47 : 6);
	struct pt_packet p = {
		.type = wide ? ppt_tnt_64 : ppt_tnt_8,
		.payload.tnt = { .bit_size = (uint8_t)n, .payload = bits(g, n) },
	};
	char s[40];

	snprintf(s, sizeof(s), "0x%" PRIx64 "/%u", p.payload.tnt.payload, n);
	emit(g, &p, wide ? "tnt.64" : "tnt.8", s);
}

/* An IP packet: the IP is drawn so that the IPBytes value chosen can
 * carry it (Table 36-18), the payload is its low bytes. */
static void ip_packet(struct gen *g, enum pt_packet_type t, const char *name)
{
	static const enum pt_ip_compression ipcs[] = {
		pt_ipc_suppressed, pt_ipc_update_16, pt_ipc_update_32,
		pt_ipc_sext_48, pt_ipc_update_48, pt_ipc_full,
	};
	enum pt_ip_compression ipc = ipcs[rnd(g, 6)];
	uint64_t ip = g->last_ip;
	struct pt_packet p = { .type = t };
	char s[40];

	switch (ipc) {
	case pt_ipc_update_16:
		ip = (ip & ~0xffffull) | bits(g, 16);
		break;
	case pt_ipc_update_32:
		ip = (ip & ~0xffffffffull) | bits(g, 32);
		break;
	case pt_ipc_sext_48:
		ip = (uint64_t)((int64_t)(bits(g, 48) << 16) >> 16);
		break;
	case pt_ipc_update_48:
		ip = (ip & ~0xffffffffffffull) | bits(g, 48);
		break;
	case pt_ipc_full:
		ip = bits(g, 64);
		break;
	default:
		break;
	}
	p.payload.ip.ipc = ipc;
	p.payload.ip.ip = ip;	/* the encoder writes its low bytes */
	if (ipc == pt_ipc_suppressed) {
		snprintf(s, sizeof(s), "0:-");
	} else {
		g->last_ip = ip;
		snprintf(s, sizeof(s), "%u:0x%" PRIx64, (unsigned)ipc, ip);
	}
	emit(g, &p, name, s);
}

static void mode(struct gen *g, int tsx)
{
	unsigned a = (unsigned)bits(g, 1), b = (unsigned)bits(g, 1);
	struct pt_packet p = { .type = ppt_mode };
	char s[8];

	if (tsx) {
		p.payload.mode.leaf = pt_mol_tsx;
		p.payload.mode.bits.tsx.intx = a;
		p.payload.mode.bits.tsx.abrt = b;
	} else {
		/* CS.L = CS.D = 1 is reserved (SDM Vol. 3C, order no.
		 * 326019-060US, Table 36-26): a valid stream has 00, 01,
		 * 10 (a third of each, as the two bits, redrawn, give) */
		while (a && b)
			a = (unsigned)bits(g, 1), b = (unsigned)bits(g, 1);
		p.payload.mode.leaf = pt_mol_exec;
		p.payload.mode.bits.exec.csl = a;
		p.payload.mode.bits.exec.csd = b;
	}
	snprintf(s, sizeof(s), "0x%x", a | b << 1);
	emit(g, &p, tsx ? "mode.tsx" : "mode.exec", s);
}

/* Timing packets: CBR, TSC (56 bits), MTC, TMA (FC 9 bits). */
static void timing(struct gen *g, enum pt_packet_type t)
{
	struct pt_packet p = { .type = t };
	const char *name = "tsc";
	char s[48];

	switch (t) {
	case ppt_cbr:
		p.payload.cbr.ratio = (uint8_t)bits(g, 8);
		snprintf(s, sizeof(s), "0x%x", p.payload.cbr.ratio);
		name = "cbr";
		break;
	case ppt_mtc:
		p.payload.mtc.ctc = (uint8_t)bits(g, 8);
		snprintf(s, sizeof(s), "0x%x", p.payload.mtc.ctc);
		name = "mtc";
		break;
	case ppt_tma:
		p.payload.tma.ctc = (uint16_t)bits(g, 16);
		p.payload.tma.fc = (uint16_t)bits(g, 9);
		snprintf(s, sizeof(s), "0x%x:0x%x", p.payload.tma.ctc,
			 p.payload.tma.fc);
		name = "tma";
		break;
	default:
		p.payload.tsc.tsc = bits(g, 56);
		snprintf(s, sizeof(s), "0x%" PRIx64, p.payload.tsc.tsc);
		break;
	}
	emit(g, &p, name, s);
}

/* A CYC of 1-9 bytes, each length as likely (an n-byte CYC carries
 * 5 + 7 (n - 1) bits: §36.4.2.14, Table 36-33), or now and then one from
 * 2^61: 10 bytes. */
static void cyc(struct gen *g)
{
	struct pt_packet p = { .type = ppt_cyc };
	unsigned n = 1 + (unsigned)rnd(g, 9), top = 5 + 7 * (n - 1);
	uint64_t v = bits(g, top);
	char s[40];

	if (n > 1)
		v |= 1ull << (top - 1);	/* needs all n bytes */
	if (!rnd(g, 64))
		v = (1ull << 61) | bits(g, 64);	/* 10 bytes */
	p.payload.cyc.value = v;
	snprintf(s, sizeof(s), "0x%" PRIx64, v);
	emit(g, &p, "cyc", s);
}

/* The packets ptdecode names but does not decode: random fields. */
static void other(struct gen *g, enum pt_packet_type t, const char *name)
{
	struct pt_packet p = { .type = t };

	switch (t) {
	case ppt_pip:
		p.payload.pip.cr3 = bits(g, 52) << 5;
		p.payload.pip.nr = (uint32_t)bits(g, 1);
		break;
	case ppt_vmcs:
		p.payload.vmcs.base = bits(g, 40) << 12;
		break;
	case ppt_mnt:
		p.payload.mnt.payload = bits(g, 64);
		break;
	case ppt_exstop:
		p.payload.exstop.ip = (uint32_t)bits(g, 1);
		break;
	case ppt_mwait:
		p.payload.mwait.hints = (uint32_t)bits(g, 32);
		p.payload.mwait.ext = (uint32_t)bits(g, 32);
		break;
	case ppt_pwre:
		p.payload.pwre.state = (uint8_t)bits(g, 4);
		p.payload.pwre.sub_state = (uint8_t)bits(g, 4);
		p.payload.pwre.hw = (uint32_t)bits(g, 1);
		break;
	case ppt_pwrx:
		p.payload.pwrx.last = (uint8_t)bits(g, 4);
		p.payload.pwrx.deepest = (uint8_t)bits(g, 4);
		p.payload.pwrx.interrupt = (uint32_t)bits(g, 1);
		p.payload.pwrx.store = (uint32_t)bits(g, 1);
		p.payload.pwrx.autonomous = (uint32_t)bits(g, 1);
		break;
	case ppt_ptw:
		p.payload.ptw.plc = (uint8_t)bits(g, 1);
		p.payload.ptw.payload = bits(g, p.payload.ptw.plc ? 64 : 32);
		p.payload.ptw.ip = (uint32_t)bits(g, 1);
		break;
	default:
		break;
	}
	emit(g, &p, name, "-");
}

/* PSB+ as a CPU writes it (§36.4.1): PSB, then status packets, PSBEND. */
static void psb_plus(struct gen *g)
{
	plain(g, ppt_psb, "psb");
	if (bits(g, 1))
		timing(g, ppt_tsc);
	if (bits(g, 1))
		timing(g, ppt_tma);
	timing(g, ppt_cbr);
	if (bits(g, 1))
		mode(g, 0);
	if (bits(g, 1))
		ip_packet(g, ppt_fup, "fup");
	plain(g, ppt_psbend, "psbend");
}

/* The draw: TNT, CYC and IP packets most often, as in real traces. */
enum pick {
	P_PSB_PLUS, P_PSB, P_PSBEND, P_PAD, P_TNT8, P_TNT64, P_TIP, P_PGE,
	P_PGD, P_FUP, P_EXEC, P_TSX, P_CBR, P_TSC, P_MTC, P_TMA, P_CYC, P_OVF,
	P_STOP, P_PIP, P_VMCS, P_MNT, P_EXSTOP, P_MWAIT, P_PWRE, P_PWRX,
	P_PTW, P_NR
};

static const unsigned weight[P_NR] = {
	[P_PSB_PLUS] = 3, [P_PSB] = 1, [P_PSBEND] = 1, [P_PAD] = 3,
	[P_TNT8] = 14, [P_TNT64] = 4, [P_TIP] = 6, [P_PGE] = 3, [P_PGD] = 3,
	[P_FUP] = 3, [P_EXEC] = 2, [P_TSX] = 2, [P_CBR] = 1, [P_TSC] = 2,
	[P_MTC] = 4, [P_TMA] = 1, [P_CYC] = 14, [P_OVF] = 1, [P_STOP] = 1,
	[P_PIP] = 1, [P_VMCS] = 1, [P_MNT] = 1, [P_EXSTOP] = 1,
	[P_MWAIT] = 1, [P_PWRE] = 1, [P_PWRX] = 1, [P_PTW] = 1,
};

static enum pick draw(struct gen *g)
{
	unsigned total = 0, x;
	enum pick k;

	for (k = 0; k < P_NR; k++)
		total += weight[k];
	x = (unsigned)rnd(g, total);
	for (k = 0; x >= weight[k]; k++)
		x -= weight[k];
	return k;
}

static void one(struct gen *g)
{
	switch (draw(g)) {
	case P_PSB_PLUS: psb_plus(g); break;
	case P_PSB: plain(g, ppt_psb, "psb"); break;
	case P_PSBEND: plain(g, ppt_psbend, "psbend"); break;
	case P_PAD: plain(g, ppt_pad, "pad"); break;
	case P_TNT8: tnt(g, 0); break;
	case P_TNT64: tnt(g, 1); break;
	case P_TIP: ip_packet(g, ppt_tip, "tip"); break;
	case P_PGE: ip_packet(g, ppt_tip_pge, "tip.pge"); break;
	case P_PGD: ip_packet(g, ppt_tip_pgd, "tip.pgd"); break;
	case P_FUP: ip_packet(g, ppt_fup, "fup"); break;
	case P_EXEC: mode(g, 0); break;
	case P_TSX: mode(g, 1); break;
	case P_CBR: timing(g, ppt_cbr); break;
	case P_TSC: timing(g, ppt_tsc); break;
	case P_MTC: timing(g, ppt_mtc); break;
	case P_TMA: timing(g, ppt_tma); break;
	case P_CYC: cyc(g); break;
	case P_OVF: plain(g, ppt_ovf, "ovf"); break;
	case P_STOP: plain(g, ppt_stop, "stop"); break;
	case P_PIP: other(g, ppt_pip, "pip"); break;
	case P_VMCS: other(g, ppt_vmcs, "vmcs"); break;
	case P_MNT: other(g, ppt_mnt, "mnt"); break;
	case P_EXSTOP: other(g, ppt_exstop, "exstop"); break;
	case P_MWAIT: other(g, ppt_mwait, "mwait"); break;
	case P_PWRE: other(g, ppt_pwre, "pwre"); break;
	case P_PWRX: other(g, ppt_pwrx, "pwrx"); break;
	default: other(g, ppt_ptw, "ptw"); break;
	}
}

int main(int argc, char **argv)
{
	uint64_t seed, count, len, size;
	struct pt_config cfg;
	struct gen g = { 0 };
	uint8_t *buf;
	int rc = 0;

	if (argc < 4 || argc > 5 || pt_tool_parse_u64(argv[1], &seed) ||
	    pt_tool_parse_u64(argv[2], &count) || count > 10000000) {
		fprintf(stderr, "usage: ipt-gen SEED COUNT OUT [EXPECT] "
			"(COUNT at most 10000000)\n");
		return 2;
	}
	/* A PSB+ is the largest draw: 16 + 8 + 7 + 4 + 2 + 9 + 2 bytes. */
	size = count * 48 + 64;
	buf = malloc(size);
	if (!buf) {
		fprintf(stderr, "ipt-gen: out of memory\n");
		return 2;
	}
	pt_config_init(&cfg);
	cfg.begin = buf;
	cfg.end = buf + size;
	g.enc = pt_alloc_encoder(&cfg);
	g.rng.s = seed;
	if (!g.enc) {
		fprintf(stderr, "ipt-gen: pt_alloc_encoder failed\n");
		free(buf);
		return 2;
	}
	if (argc == 5 && !(g.expect = fopen(argv[4], "w"))) {
		fprintf(stderr, "ipt-gen: %s: %s\n", argv[4], strerror(errno));
		pt_free_encoder(g.enc);
		free(buf);
		return 2;
	}
	psb_plus(&g);
	while (g.packets < count)
		one(&g);
	if (pt_enc_get_offset(g.enc, &len) < 0 ||
	    pt_tool_write_file(argv[3], buf, len)) {
		fprintf(stderr, "ipt-gen: %s: %s\n", argv[3], strerror(errno));
		rc = 2;
	}
	if (g.expect && fclose(g.expect)) {
		fprintf(stderr, "ipt-gen: %s: %s\n", argv[4], strerror(errno));
		rc = 2;
	}
	pt_free_encoder(g.enc);
	free(buf);
	return rc;
}
