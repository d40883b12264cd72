/* ipt-dump: the referee of ptdecode --packets.  It decodes an Intel PT
 * stream with libipt's packet decoder (Debian's libipt 2.0.5,
 * pt_pkt_decoder) and prints exactly ptdecode's --packets format
 * (docs/pt.md), so that tools/check/pt.py can diff the two line by line.
 *
 * libipt's packet layer hands back IP payloads as the packet holds them;
 * the last-IP rules are applied here, written from the SDM and not from
 * lib/pt/decode.c (Intel SDM Vol. 3C, order no. 326019-060US, §36.4.2.2
 * "Target IP (TIP) Packet", Table 36-18 "Compression Options with
 * IPBytes"): last IP starts at 0 and is reset at every PSB, a suppressed
 * IP (IPBytes 000b) leaves it alone.
 *
 * libipt's TNT payload is the packet's bits without the stop bit, so its
 * bit count-1 is the oldest branch (B1, right below the stop bit:
 * §36.4.2.1, Table 36-16): the order --packets prints, as it is.  Its
 * CYC reader takes at most 9 bytes (61 bits, pt_pkt_read_cyc).
 *
 * Decoding starts at offset 0 as is (pt_pkt_sync_set(0): no sync), as
 * ptdecode does.  --offset N first syncs forward to the first PSB at or
 * after byte N.  A decode error prints "OFFSET error <pt_errstr>" and the
 * decoder syncs forward to the next PSB after its offset
 * (pt_pkt_sync_forward, then back to the first of PSBs back to back,
 * where libipt lands on the last).  Known difference: libipt's decoder
 * rejects every 10-byte CYC (bad packet) although its encoder writes one
 * for values from 2^61; ptdecode accepts a 10-byte CYC whose value fits
 * in 64 bits (docs/pt.md, the overflow policy).  libipt 2.0.5 knows
 * neither TRIG nor MODE.Exec's IF bit (both printed when built against
 * libipt 2.2 or later, in ptdecode's format), and does not reject
 * MODE.Exec with CS.L and CS.D both 1, which ptdecode does.
 *
 * Usage: ipt-dump [--offset N] FILE
 *        ipt-dump [--offset N] --each FILE...
 * Exit status: 0; 1 when an error line was printed; 2 for a bad argument
 * or an unreadable file (message on stderr).  With --each (all arguments
 * after it are files), every FILE in turn, each one's lines followed by
 * "# end K STATUS" (K its number from 1, STATUS the exit status of
 * ipt-dump FILE alone), as ptdecode --each prints; exit status the
 * largest of them. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <intel-pt.h>

#include "tools/pt/tool.h"

/* Table 36-18: the IP an IP packet gives after last IP; *ok 0 when the
 * IP is suppressed or IPBytes is not one of the defined values. */
static uint64_t apply_last_ip(uint64_t last, enum pt_ip_compression ipc,
			      uint64_t payload, int *ok)
{
	*ok = 1;
	switch (ipc) {
	case pt_ipc_update_16:
		return (last & ~0xffffull) | (payload & 0xffff);
	case pt_ipc_update_32:
		return (last & ~0xffffffffull) | (payload & 0xffffffff);
	case pt_ipc_sext_48:
		return (uint64_t)((int64_t)(payload << 16) >> 16);
	case pt_ipc_update_48:
		return (last & ~0xffffffffffffull) |
		       (payload & 0xffffffffffffull);
	case pt_ipc_full:
		return payload;
	default:
		*ok = 0;
		return last;
	}
}

static const char *ip_name(enum pt_packet_type t)
{
	switch (t) {
	case ppt_tip: return "tip";
	case ppt_tip_pge: return "tip.pge";
	case ppt_tip_pgd: return "tip.pgd";
	default: return "fup";
	}
}

/* MODE.Exec's IF bit (bit 2): libipt reads it from 2.1 on; Debian's
 * 2.0.5 does not, and prints 0 for it (a difference make check's pt
 * stage never meets: ipt-gen's encoder cannot write the bit either). */
static unsigned mode_exec_if(const struct pt_packet_mode_exec *m)
{
#if LIBIPT_VERSION >= 0x201
	return m->iflag;
#else
	(void)m;
	return 0;
#endif
}

/* The names of the packets printed with "-" (no payload in the format). */
static const char *plain_name(enum pt_packet_type t)
{
	switch (t) {
	case ppt_pad: return "pad";
	case ppt_psb: return "psb";
	case ppt_psbend: return "psbend";
	case ppt_ovf: return "ovf";
	case ppt_stop: return "stop";
	case ppt_pip: return "pip";
	case ppt_vmcs: return "vmcs";
	case ppt_mnt: return "mnt";
	case ppt_exstop: return "exstop";
	case ppt_mwait: return "mwait";
	case ppt_pwre: return "pwre";
	case ppt_pwrx: return "pwrx";
	case ppt_ptw: return "ptw";
	default: return NULL;
	}
}

/* One packet's line; returns 0, or -1 for a packet libipt decoded that
 * the format has no line for (printed as an error). */
static int print_packet(uint64_t off, const struct pt_packet *p,
			uint64_t *last_ip)
{
	const char *plain = plain_name(p->type);
	uint64_t ip;
	int ok;

	if (p->type == ppt_psb)
		*last_ip = 0;	/* §36.4.2.2: reset when a PSB is sent */
	if (plain) {
		printf("%" PRIu64 " %s -\n", off, plain);
		return 0;
	}
	switch (p->type) {
	case ppt_tnt_8:
	case ppt_tnt_64:
		printf("%" PRIu64 " %s 0x%" PRIx64 "/%u\n", off,
		       p->type == ppt_tnt_8 ? "tnt.8" : "tnt.64",
		       p->payload.tnt.payload, p->payload.tnt.bit_size);
		return 0;
	case ppt_tip:
	case ppt_tip_pge:
	case ppt_tip_pgd:
	case ppt_fup:
		ip = apply_last_ip(*last_ip, p->payload.ip.ipc,
				   p->payload.ip.ip, &ok);
		if (!ok) {
			printf("%" PRIu64 " %s %u:-\n", off, ip_name(p->type),
			       (unsigned)p->payload.ip.ipc);
			return 0;
		}
		*last_ip = ip;
		printf("%" PRIu64 " %s %u:0x%" PRIx64 "\n", off,
		       ip_name(p->type), (unsigned)p->payload.ip.ipc, ip);
		return 0;
	case ppt_mode:
		if (p->payload.mode.leaf == pt_mol_exec)
			printf("%" PRIu64 " mode.exec 0x%x\n", off,
			       p->payload.mode.bits.exec.csl |
			       p->payload.mode.bits.exec.csd << 1 |
			       mode_exec_if(&p->payload.mode.bits.exec) << 2);
		else
			printf("%" PRIu64 " mode.tsx 0x%x\n", off,
			       p->payload.mode.bits.tsx.intx |
			       p->payload.mode.bits.tsx.abrt << 1);
		return 0;
	case ppt_cbr:
		printf("%" PRIu64 " cbr 0x%x\n", off, p->payload.cbr.ratio);
		return 0;
	case ppt_tsc:
		printf("%" PRIu64 " tsc 0x%" PRIx64 "\n", off,
		       p->payload.tsc.tsc);
		return 0;
	case ppt_mtc:
		printf("%" PRIu64 " mtc 0x%x\n", off, p->payload.mtc.ctc);
		return 0;
	case ppt_tma:
		printf("%" PRIu64 " tma 0x%x:0x%x\n", off, p->payload.tma.ctc,
		       p->payload.tma.fc);
		return 0;
	case ppt_cyc:
		printf("%" PRIu64 " cyc 0x%" PRIx64 "\n", off,
		       p->payload.cyc.value);
		return 0;
#if LIBIPT_VERSION >= 0x202	/* TRIG: libipt 2.2 and later */
	case ppt_trig:
		printf("%" PRIu64 " trig 0x%x%s%s", off,
		       p->payload.trig.trbv, p->payload.trig.ip ? ",ip" : "",
		       p->payload.trig.mult ? ",mult" : "");
		if (p->payload.trig.icntv)
			printf(",icnt=0x%x", p->payload.trig.icnt);
		putchar('\n');
		return 0;
#endif
	default:
		printf("%" PRIu64 " error libipt packet type %d\n", off,
		       (int)p->type);
		return -1;
	}
}

/* Moves dec to the first PSB at or after byte from, as ptdecode syncs.
 * pt_pkt_sync_forward searches from the decoder's position less 15 bytes
 * (a PSB partly consumed), or from one past the last sync point when the
 * decoder is there: with the sync point at from - 1 it searches from
 * from.  Of several PSBs back to back (or any run of 02 82 pairs) it
 * lands on the last one (pt_find_psb walks to the run's end): step back
 * to the first PSB of the run. */
static int sync_first_psb(struct pt_packet_decoder *dec, const uint8_t *buf,
			  size_t len, uint64_t from)
{
	uint64_t at;
	int r = from ? pt_pkt_sync_set(dec, from - 1) : 0;

	do {
		if (r >= 0)
			r = pt_pkt_sync_forward(dec);
		if (r >= 0)
			r = pt_pkt_get_sync_offset(dec, &at);
	} while (r >= 0 && at < from);
	if (r < 0)
		return r;
	while (at >= from + 2 && pt_tool_is_psb(buf, len, at - 2))
		at -= 2;
	return pt_pkt_sync_set(dec, at);
}

static int dump(const uint8_t *buf, size_t len, int sync, uint64_t start)
{
	struct pt_packet_decoder *dec;
	struct pt_config cfg;
	struct pt_packet p;
	uint64_t last_ip = 0, off;
	int errors = 0, r;

	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	dec = pt_pkt_alloc_decoder(&cfg);
	if (!dec) {
		fprintf(stderr, "ipt-dump: pt_pkt_alloc_decoder failed\n");
		return 2;
	}
	r = sync ? sync_first_psb(dec, buf, len, start) :
		   pt_pkt_sync_set(dec, 0);
	while (r >= 0) {
		if (pt_pkt_get_offset(dec, &off) < 0)
			break;
		r = pt_pkt_next(dec, &p, sizeof(p));
		if (r == -pte_eos && off >= len)
			break;			/* the end, between packets */
		if (r >= 0) {
			if (print_packet(off, &p, &last_ip))
				errors++;
			continue;
		}
		printf("%" PRIu64 " error %s\n", off,
		       pt_errstr(pt_errcode(r)));
		errors++;
		r = sync_first_psb(dec, buf, len, off + 1);
	}
	pt_pkt_free_decoder(dec);
	return errors ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: ipt-dump [--offset N] FILE\n"
		"       ipt-dump [--offset N] --each FILE...\n");
}

/* One file dumped: its exit status (a message on stderr for 2). */
static int dump_file(const char *path, int sync, uint64_t start)
{
	uint8_t *buf;
	size_t len;
	int rc;

	if (pt_tool_read_file(path, &buf, &len)) {
		fprintf(stderr, "ipt-dump: %s: %s\n", path, strerror(errno));
		return 2;
	}
	if (sync && start > len)
		start = len;		/* nothing to sync to */
	rc = dump(buf, len, sync, start);
	free(buf);
	return rc;
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	uint64_t start = 0;
	int sync = 0, each = 0, rc = 0;

	for (int i = 1; i < argc && !each; i++) {
		if (!strcmp(argv[i], "--offset") && i + 1 < argc) {
			if (pt_tool_parse_u64(argv[++i], &start)) {
				fprintf(stderr, "ipt-dump: --offset: not a "
					"number: %s\n", argv[i]);
				return 2;
			}
			sync = 1;
		} else if (!path && !strcmp(argv[i], "--each")) {
			each = i + 1;
		} else if (!path && strcmp(argv[i], "--offset")) {
			path = argv[i];
		} else {
			usage();
			return 2;
		}
	}
	if (each ? each >= argc : !path) {
		usage();
		return 2;
	}
	if (!each)
		return dump_file(path, sync, start);
	for (int i = each; i < argc; i++) {
		int r = dump_file(argv[i], sync, start);

		printf("# end %d %d\n", i - each + 1, r);
		if (r > rc)
			rc = r;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "ipt-dump: writing the output: %s\n",
			strerror(errno));
		return 2;
	}
	return rc;
}
