/* ptdecode: an Intel PT stream decoded on the host by the harness's own
 * decoder (lib/pt/decode.c, lib/pt/timing.c), in the format libipt's
 * referee (ipt-dump) prints too (docs/pt.md).
 *
 *   ptdecode --packets [--offset N] FILE
 *	one line per packet, "OFFSET NAME PAYLOAD": OFFSET decimal, numbers
 *	lower-case hex with 0x; a damaged packet "OFFSET error WHAT", after
 *	which decoding resumes at the next PSB.  Decoding starts at offset 0
 *	as is (last IP 0); --offset N first syncs forward from byte N to the
 *	next PSB (none: no packet).
 *	TRIG prints "trig 0x<TRBV>" then ",ip", ",mult", ",icnt=0x<ICNT>"
 *	as the packet has them; MODE.Exec "0x<bits>", bit 0 CS.L, bit 1
 *	CS.D, bit 2 IF; bytes an erratum made (--cpu) "invalid <erratum>".
 *   ptdecode --timing [--offset N] FILE
 *	one line per branch in stream order, "OFFSET tnt BIT/COUNT T|N TIME"
 *	or "OFFSET tip|tip.pge|tip.pgd 0x<ip>|- TIME", TIME the decimal
 *	cycle count when exact, else "[LO,HI)" with HI "-" when open;
 *	" epoch=E" after a line of epoch E > 0 (the times restart at 0 after
 *	each error); the error lines as above; last
 *	"# branches=N exact=N bounded=N errors=N cycles=N", and
 *	" saturated=1" when a cycle sum passed 2^64-1 (it stays at 2^64-1;
 *	the branches after it are "[18446744073709551615,-)").
 *   --cpu FAMILY/MODEL (decimal or 0x-hex, e.g. 6/0x5e): the stream was
 *	recorded on that CPU; the workarounds of its Intel PT errata apply
 *	(lib/pt/errata.c: SKD007, SKZ84), none without --cpu.
 *
 * Exit status: 0; 1 when an error line was printed; 2 for a bad argument
 * or an unreadable file (a message on stderr).  The file is read whole
 * into memory; its bytes are data, never trusted.
 *
 *   ptdecode --packets|--timing [--offset N] --each FILE...
 *	every FILE in turn (all arguments after --each are files), each one's
 *	lines as above followed by "# end K STATUS": K its number from 1,
 *	STATUS the exit status ptdecode FILE alone would have had.  Exit
 *	status: the largest of them (make check's pt stage decodes many
 *	streams in one process this way). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pt/packet.h"
#include "lib/pt/timing.h"
#include "tools/pt/tool.h"

enum mode { MODE_NONE, MODE_PACKETS, MODE_TIMING };

struct error_at {
	uint64_t offset;
	uint8_t err;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: ptdecode --packets|--timing [--offset N] FILE\n"
		"       ptdecode --packets|--timing [--offset N] --each "
		"FILE...\n"
		"options: --cpu FAMILY/MODEL (the errata of that CPU)\n");
}

static void print_error(uint64_t offset, unsigned err)
{
	printf("%" PRIu64 " error %s\n", offset, pt_err_name(err));
}

static void print_packet(const struct pt_pkt *k)
{
	const char *name = pt_pkt_name(k->type);

	switch (k->type) {
	case PT_PKT_ERROR:
		print_error(k->offset, k->err);
		return;
	case PT_PKT_TNT8:
	case PT_PKT_TNT64:
		printf("%" PRIu64 " %s 0x%" PRIx64 "/%u\n", k->offset, name,
		       k->payload, k->count);
		return;
	case PT_PKT_TIP:
	case PT_PKT_TIP_PGE:
	case PT_PKT_TIP_PGD:
	case PT_PKT_FUP:
		if (k->ip_valid)
			printf("%" PRIu64 " %s %u:0x%" PRIx64 "\n", k->offset,
			       name, k->ipc, k->ip);
		else
			printf("%" PRIu64 " %s %u:-\n", k->offset, name,
			       k->ipc);
		return;
	case PT_PKT_MODE_EXEC:
	case PT_PKT_MODE_TSX:
	case PT_PKT_CBR:
	case PT_PKT_TSC:
	case PT_PKT_MTC:
	case PT_PKT_CYC:
		printf("%" PRIu64 " %s 0x%" PRIx64 "\n", k->offset, name,
		       k->payload);
		return;
	case PT_PKT_TMA:
		printf("%" PRIu64 " tma 0x%" PRIx64 ":0x%x\n", k->offset,
		       k->payload, k->fc);
		return;
	case PT_PKT_TRIG:	/* payload: lib/pt/packet.h */
		printf("%" PRIu64 " trig 0x%x%s%s", k->offset,
		       (unsigned)(k->payload & 0xff),
		       k->payload >> 8 & 1 ? ",ip" : "",
		       k->payload >> 10 & 1 ? ",mult" : "");
		if (k->payload >> 9 & 1)
			printf(",icnt=0x%x", (unsigned)(k->payload >> 16));
		putchar('\n');
		return;
	case PT_PKT_INVALID:
		printf("%" PRIu64 " invalid %s\n", k->offset,
		       pt_erratum_name((unsigned)k->payload));
		return;
	default:
		printf("%" PRIu64 " %s -\n", k->offset, name);
		return;
	}
}

/* Where decoding starts: 0, or with --offset the first PSB at or after
 * it (len when there is none, or from is past the end). */
static size_t start_at(const uint8_t *buf, size_t len, int sync,
		       uint64_t from)
{
	struct pt_dec d;

	if (!sync)
		return 0;
	if (from >= len)
		return len;
	pt_dec_init(&d, buf, len);
	d.pos = from;
	pt_dec_sync(&d);
	return d.pos;
}

static int packets(const uint8_t *buf, size_t len, size_t start,
		   unsigned errata)
{
	struct pt_dec d;
	struct pt_pkt k;
	int errors = 0;

	pt_dec_init(&d, buf, len);
	d.errata = (uint8_t)errata;
	d.pos = start;
	while (pt_dec_next(&d, &k) != PT_PKT_NONE) {
		print_packet(&k);
		errors += k.type == PT_PKT_ERROR;
	}
	return errors ? 1 : 0;
}

static void print_time(const struct pt_branch *b)
{
	if (b->exact)
		printf("%" PRIu64, b->time);
	else if (b->open)
		printf("[%" PRIu64 ",-)", b->time);
	else
		printf("[%" PRIu64 ",%" PRIu64 ")", b->time, b->hi);
}

/* out[i]'s line; out[i .. i+count) are the bits of one TNT. */
static void print_branch(const struct pt_branch *b, uint64_t base,
			 unsigned count)
{
	if (b->type == PT_PKT_TNT8 || b->type == PT_PKT_TNT64)
		printf("%" PRIu64 " tnt %u/%u %c ", base + b->offset, b->bit,
		       count, b->taken ? 'T' : 'N');
	else if (b->ip_valid)
		printf("%" PRIu64 " %s 0x%" PRIx64 " ", base + b->offset,
		       pt_pkt_name(b->type), b->ip);
	else
		printf("%" PRIu64 " %s - ", base + b->offset,
		       pt_pkt_name(b->type));
	print_time(b);
	if (b->epoch)
		printf(" epoch=%u", b->epoch);
	putchar('\n');
}

/* The max errors pt_timing counted in buf[0, len), in order (it counts
 * them only); no decoding when there are none. */
static struct error_at *find_errors(const uint8_t *buf, size_t len,
				    unsigned errata, size_t max, size_t *n)
{
	struct error_at *e = malloc(sizeof(*e) * (max + 1));
	struct pt_dec d;
	struct pt_pkt k;

	*n = 0;
	if (!e || !max)
		return e;
	pt_dec_init(&d, buf, len);
	d.errata = (uint8_t)errata;
	while (*n < max && pt_dec_next(&d, &k) != PT_PKT_NONE)
		if (k.type == PT_PKT_ERROR)
			e[(*n)++] = (struct error_at){ k.offset, k.err };
	return e;
}

/* pt_timing() into an array that holds every branch: a guess, then the
 * count it reported. */
static struct pt_branch *all_branches(const uint8_t *buf, size_t len,
				      unsigned errata,
				      struct pt_timing_result *r)
{
	size_t max = len / 2 + 64;
	struct pt_branch *out = malloc(sizeof(*out) * max);

	if (!out)
		return NULL;
	pt_timing_errata(buf, len, errata, out, max, r);
	if (!r->lost)
		return out;
	free(out);
	max = r->branches + r->lost;
	out = malloc(sizeof(*out) * max);
	if (out)
		pt_timing_errata(buf, len, errata, out, max, r);
	return out;
}

static int timing(const uint8_t *buf, size_t len, size_t start,
		  unsigned errata)
{
	struct pt_timing_result r;
	struct pt_branch *out = all_branches(buf + start, len - start, errata,
					     &r);
	size_t nerr, e = 0, exact = 0;
	struct error_at *errs = find_errors(buf + start, len - start, errata,
					    out ? r.errors : 0, &nerr);

	if (!out || !errs) {
		fprintf(stderr, "ptdecode: out of memory\n");
		free(out);
		free(errs);
		return 2;
	}
	for (size_t i = 0, j; i < r.branches; i = j) {
		const struct pt_branch *b = &out[i];

		/* the branches of one packet share its offset */
		for (j = i + 1; j < r.branches && out[j].offset == b->offset;)
			j++;
		for (; e < nerr && errs[e].offset < b->offset; e++)
			print_error(start + errs[e].offset, errs[e].err);
		for (size_t m = i; m < j; m++) {
			print_branch(&out[m], start, (unsigned)(j - i));
			exact += out[m].exact;
		}
	}
	for (; e < nerr; e++)
		print_error(start + errs[e].offset, errs[e].err);
	printf("# branches=%zu exact=%zu bounded=%zu errors=%zu cycles=%"
	       PRIu64 "%s\n", r.branches, exact, r.branches - exact, r.errors,
	       r.cycles, r.saturated ? " saturated=1" : "");
	free(out);
	free(errs);
	return r.errors ? 1 : 0;
}

/* One file decoded: its exit status (a message on stderr for 2). */
static int decode_file(const char *path, enum mode mode, int sync,
		       uint64_t from, unsigned errata)
{
	uint8_t *buf;
	size_t len;
	int rc;

	if (pt_tool_read_file(path, &buf, &len)) {
		fprintf(stderr, "ptdecode: %s: %s\n", path, strerror(errno));
		return 2;
	}
	if (mode == MODE_PACKETS)
		rc = packets(buf, len, start_at(buf, len, sync, from), errata);
	else
		rc = timing(buf, len, start_at(buf, len, sync, from), errata);
	free(buf);
	return rc;
}

/* FAMILY/MODEL, each decimal or 0x-hex, below 256 (CPUID's display
 * family and model).  Returns 0, or -1. */
static int parse_cpu(const char *s, unsigned *family, unsigned *model)
{
	const char *slash = strchr(s, '/');
	char fam[24];
	uint64_t f, m;

	if (!slash || (size_t)(slash - s) >= sizeof(fam))
		return -1;
	memcpy(fam, s, (size_t)(slash - s));
	fam[slash - s] = 0;
	if (pt_tool_parse_u64(fam, &f) || pt_tool_parse_u64(slash + 1, &m) ||
	    f > 255 || m > 255)
		return -1;
	*family = (unsigned)f;
	*model = (unsigned)m;
	return 0;
}

int main(int argc, char **argv)
{
	enum mode mode = MODE_NONE;
	const char *path = NULL;
	uint64_t from = 0;
	int sync = 0, rc = 0, opts = 1, each = 0;
	unsigned errata = 0, family, model;

	for (int i = 1; i < argc && !each; i++) {
		const char *a = argv[i];
		enum mode m = MODE_NONE;

		if (opts && !strcmp(a, "--")) {
			opts = 0;
		} else if (opts && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
			usage(stdout);
			return 0;
		} else if (opts && !strcmp(a, "--packets")) {
			m = MODE_PACKETS;
		} else if (opts && !strcmp(a, "--timing")) {
			m = MODE_TIMING;
		} else if (opts && !path && !strcmp(a, "--each")) {
			each = i + 1;
		} else if (opts && !strcmp(a, "--offset")) {
			if (i + 1 >= argc || pt_tool_parse_u64(argv[i + 1], &from)) {
				fprintf(stderr, "ptdecode: --offset needs a "
					"number of bytes\n");
				usage(stderr);
				return 2;
			}
			sync = 1;
			i++;
		} else if (opts && !strcmp(a, "--cpu")) {
			if (i + 1 >= argc ||
			    parse_cpu(argv[i + 1], &family, &model)) {
				fprintf(stderr, "ptdecode: --cpu needs "
					"FAMILY/MODEL, e.g. 6/0x5e\n");
				usage(stderr);
				return 2;
			}
			errata = pt_errata_for_cpu(family, model);
			i++;
		} else if (opts && a[0] == '-' && a[1]) {
			fprintf(stderr, "ptdecode: unknown option: %s\n", a);
			usage(stderr);
			return 2;
		} else if (path) {
			fprintf(stderr, "ptdecode: one FILE only\n");
			usage(stderr);
			return 2;
		} else {
			path = a;
		}
		if (m != MODE_NONE) {
			if (mode != MODE_NONE && mode != m) {
				fprintf(stderr, "ptdecode: --packets or "
					"--timing, not both\n");
				usage(stderr);
				return 2;
			}
			mode = m;
		}
	}
	if (mode == MODE_NONE || (each ? each >= argc : !path)) {
		fprintf(stderr, "ptdecode: %s\n", mode == MODE_NONE ?
			"--packets or --timing is needed" : "no FILE");
		usage(stderr);
		return 2;
	}
	if (!each) {
		rc = decode_file(path, mode, sync, from, errata);
	} else {
		for (int i = each; i < argc; i++) {
			int r = decode_file(argv[i], mode, sync, from, errata);

			printf("# end %d %d\n", i - each + 1, r);
			if (r > rc)
				rc = r;
		}
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "ptdecode: writing the output: %s\n",
			strerror(errno));
		return 2;
	}
	return rc;
}
