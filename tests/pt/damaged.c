/* pt/damaged-stream-resync: a stream PT wrote, with one byte damaged,
 * decodes as the undamaged one up to the damage, then gives an error at
 * the damaged byte's offset, then resumes at the next PSB and decodes as
 * the undamaged one from there to the end (Intel SDM Vol. 3C, order no.
 * 326019-060US, §36.3.7 "Decoder Synchronization (PSB+)": the decoder
 * needs no state from before a PSB; the last IP is reset there,
 * §36.4.2.2).  The times of the branches after that PSB restart at 0 in a
 * new epoch: each is its undamaged time less the cycles of the CYCs
 * before the PSB (lib/pt/timing.h).
 *
 * The damage: 05H written over the first byte of a packet halfway between
 * the last two PSBs.  No packet starts with 05H (bits 1:0 = 01b but bits
 * 4:0 none of TIP.PGD 00001b, TIP 01101b, TIP.PGE 10001b, FUP 11101b, nor
 * the 1-byte TSC/MTC/MODE opcodes: Table 36-15 ff.), so the decoder must
 * report it as such.  A small PSBFreq gives several PSBs. */
#include "pt_test.h"

#define DAMAGE 0x05
#define MAX_PSBS 64

/* The smallest PSBFreq the CPU offers, 0 when it is not configurable. */
static unsigned psb_freq_min(const struct pt_caps *c)
{
	if (!(c->ebx0 & SDM_PT_EBX_PSB_CYC))
		return 0;
	for (unsigned i = 0; i < 16; i++)
		if (SDM_PT_PSB_BITMAP(c) >> i & 1)
			return i;
	return 0;
}

static int same_pkt(const struct pt_pkt *a, const struct pt_pkt *b)
{
	return a->type == b->type && a->offset == b->offset &&
	       a->size == b->size && a->payload == b->payload &&
	       a->ip_valid == b->ip_valid && (!a->ip_valid || a->ip == b->ip);
}

static int pkt_check(struct tcase *t, const struct pt_pkt *a,
		     const struct pt_pkt *b, const char *where)
{
	return check(t, same_pkt(a, b), "%s: %s at %llu (payload 0x%llx), "
		     "undamaged %s at %llu (payload 0x%llx)", where,
		     pt_pkt_name((enum pt_pkt_type)b->type),
		     (unsigned long long)b->offset,
		     (unsigned long long)b->payload,
		     pt_pkt_name((enum pt_pkt_type)a->type),
		     (unsigned long long)a->offset,
		     (unsigned long long)a->payload);
}

/* The PSB offsets of buf[0, len) into psb; the count. */
static unsigned find_psbs(const uint8_t *buf, uint64_t len, uint64_t *psb)
{
	struct pt_dec d;
	struct pt_pkt k;
	unsigned n = 0;

	pt_dec_init(&d, buf, len);
	while (pt_dec_next(&d, &k) != PT_PKT_NONE && n < MAX_PSBS)
		if (k.type == PT_PKT_PSB)
			psb[n++] = k.offset;
	return n;
}

/* The first packet at or after from that is outside PSB+: its offset. */
static uint64_t damage_at(const uint8_t *buf, uint64_t len, uint64_t from)
{
	struct pt_dec d;
	struct pt_pkt k;
	int in_psb = 0;

	pt_dec_init(&d, buf, len);
	while (pt_dec_next(&d, &k) != PT_PKT_NONE) {
		if (k.type == PT_PKT_PSB)
			in_psb = 1;
		else if (k.type == PT_PKT_PSBEND)
			in_psb = 0;
		else if (!in_psb && k.offset >= from)
			return k.offset;
	}
	return len;
}

/* The packets of the damaged copy against the undamaged ones. */
static int packets(struct tcase *t, const uint8_t *orig, const uint8_t *bad,
		   uint64_t len, uint64_t dmg, uint64_t resume)
{
	struct pt_dec o, c;
	struct pt_pkt a = { 0 }, b = { 0 };

	pt_dec_init(&o, orig, len);
	pt_dec_init(&c, bad, len);
	for (;;) {
		pt_dec_next(&o, &a);
		if (a.offset >= dmg)
			break;
		pt_dec_next(&c, &b);
		if (!pkt_check(t, &a, &b, "before the damage"))
			return 0;
	}
	pt_dec_next(&c, &b);
	if (!check(t, b.type == PT_PKT_ERROR && b.offset == dmg &&
		   b.err == PT_ERR_OPCODE, "the damaged byte: %s at %llu "
		   "(%s), expected error unknown opcode at %llu",
		   pt_pkt_name((enum pt_pkt_type)b.type),
		   (unsigned long long)b.offset,
		   pt_err_name((enum pt_err)b.err), (unsigned long long)dmg))
		return 0;
	while (a.type != PT_PKT_NONE && a.offset < resume)
		pt_dec_next(&o, &a);
	for (;;) {
		pt_dec_next(&c, &b);
		if (!pkt_check(t, &a, &b, "after the damage"))
			return 0;
		if (a.type == PT_PKT_NONE)
			return 1;
		pt_dec_next(&o, &a);
	}
}

/* The branches of the damaged copy: the undamaged ones before the damage,
 * none from it to the next PSB, then the undamaged ones in epoch 1 at
 * their times less the cycles before that PSB. */
static void branches(struct pt_env *v, const uint8_t *bad, uint64_t dmg,
		     uint64_t resume)
{
	const struct pt_branch *a = v->m->br, *b = v->m->br2;
	struct pt_timing_result r;
	uint64_t base = 0;
	size_t i = 0, j = 0;
	struct pt_dec d;
	struct pt_pkt k;

	/* the cycles before the PSB decoding resumes at */
	pt_dec_init(&d, v->m->out, v->len);
	d.errata = v->errata;
	while (pt_dec_next(&d, &k) != PT_PKT_NONE && k.offset < resume)
		base += k.type == PT_PKT_CYC ? k.payload : 0;
	pt_timing_errata(bad, v->len, v->errata, v->m->br2, PT_MAX_BRANCHES,
			 &r);
	value(v->t, "timing", "%llu branches (undamaged %llu), %llu errors, "
	      "the first at %llu, cycles before the PSB %llu",
	      (unsigned long long)r.branches, (unsigned long long)v->res.branches,
	      (unsigned long long)r.errors,
	      (unsigned long long)r.first_error, (unsigned long long)base);
	if (!check(v->t, r.errors == 1 && r.first_error == dmg, "timing: "
		   "%llu errors, the first at %llu; expected 1 at %llu",
		   (unsigned long long)r.errors,
		   (unsigned long long)r.first_error,
		   (unsigned long long)dmg))
		return;
	for (; i < v->res.branches && a[i].offset < dmg; i++, j++)
		if (!check(v->t, j < r.branches && b[j].offset == a[i].offset &&
			   b[j].type == a[i].type && b[j].taken == a[i].taken &&
			   b[j].ip == a[i].ip && b[j].epoch == 0 &&
			   (!a[i].exact || b[j].time == a[i].time),
			   "branch %llu at offset %llu differs before the "
			   "damage", (unsigned long long)i,
			   (unsigned long long)a[i].offset))
			return;
	while (i < v->res.branches && a[i].offset < resume)
		i++;
	for (; i < v->res.branches; i++, j++)
		if (!check(v->t, j < r.branches && b[j].offset == a[i].offset &&
			   b[j].type == a[i].type && b[j].taken == a[i].taken &&
			   b[j].ip == a[i].ip && b[j].epoch == 1 &&
			   b[j].exact == a[i].exact &&
			   (!a[i].exact || b[j].time + base == a[i].time),
			   "branch at offset %llu after the PSB at %llu: epoch "
			   "%u time %llu, undamaged time %llu less %llu",
			   (unsigned long long)a[i].offset,
			   (unsigned long long)resume,
			   j < r.branches ? b[j].epoch : 0,
			   j < r.branches ? (unsigned long long)b[j].time : 0,
			   (unsigned long long)a[i].time,
			   (unsigned long long)base))
			return;
	check(v->t, j == r.branches, "%llu branches in the damaged stream, "
	      "%llu expected", (unsigned long long)r.branches,
	      (unsigned long long)j);
}

static void test_damaged(struct tcase *t)
{
	const struct bench *b = bench_find("indirect-jump");
	uint64_t psb[MAX_PSBS], dmg, resume;
	struct pt_config c;
	struct pt_env v;
	unsigned n, cycs;
	uint8_t *bad;

	if (!check(t, b != NULL, "no benchmark indirect-jump") ||
	    !pt_begin(t, &v))
		goto out;
	c = pt_config_for(&v, 3, 0);
	c.psb_freq = psb_freq_min(v.c);
	v.steps_only = 1;
	if (!pt_run(&v, b, 600, 3, &c) ||
	    !pt_check_packets(&v, "undamaged", 0, &n, &cycs) ||
	    !check(t, v.len <= PT_OUT_BYTES / 2, "%llu bytes: no room for "
		   "the copy", (unsigned long long)v.len))
		goto out;
	n = find_psbs(v.m->out, v.len, psb);
	value(t, "stream", "%llu bytes, PSBFreq %u, %u PSBs, %llu branches",
	      (unsigned long long)v.len, c.psb_freq, n,
	      (unsigned long long)v.res.branches);
	if (!check(t, n >= 2, "%u PSBs in %llu bytes with PSBFreq %u: "
		   "nowhere to resume", n, (unsigned long long)v.len,
		   c.psb_freq))
		goto out;
	/* halfway between the last two PSBs; decoding resumes at the last */
	resume = psb[n - 1];
	dmg = damage_at(v.m->out, v.len, psb[n - 2] +
			(resume - psb[n - 2]) / 2);
	if (!check(t, dmg < resume, "no packet between %llu and the PSB at "
		   "%llu", (unsigned long long)psb[n - 2],
		   (unsigned long long)resume))
		goto out;
	bad = v.m->out + PT_OUT_BYTES / 2;
	memcpy(bad, v.m->out, v.len);
	value(t, "damage", "offset %llu: 0x%02x -> 0x%02x, resume at the PSB "
	      "at %llu", (unsigned long long)dmg, bad[dmg], DAMAGE,
	      (unsigned long long)resume);
	bad[dmg] = DAMAGE;
	if (packets(t, v.m->out, bad, v.len, dmg, resume))
		branches(&v, bad, dmg, resume);
out:
	pt_end(&v);
}

TEST(pt_damaged_stream, "pt/damaged-stream-resync",
     "a damaged byte in a PT stream: an error at its offset, decoding "
     "resumes at the next PSB, and packets and branches match from there",
     test_damaged, 0);
