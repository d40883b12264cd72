/* pmu-events: every event the harness knows for one CPU's PMU, as JSON -
 * the host half of `tools/lab/pmu-harness events` (tools/lab/events.py
 * formats it; docs/lab.md#events).
 *
 *     pmu-events VENDOR FAMILY MODEL STEPPING
 *
 * VENDOR is the CPUID.0 vendor string (GenuineIntel, AuthenticAMD),
 * the numbers decimal or 0x-hex (DisplayFamily, DisplayModel).  The
 * listing comes from the tables the harness itself uses on the target,
 * built for the host: the generations' descriptors say which PMU the CPU
 * has (pmu/generation.h cpu_pmu_kind()), and that generation's listing
 * (its descriptor's list_events, pmu/<gen>/listing.c) what it can count
 * from its own event tables, with pmu/sem.h's names for what the
 * reference model counts.  This file only writes JSON (the writer of
 * pmu/listing.h) and knows no generation.  Nothing is restated here: the
 * listing shows the product's reading of the SDM, for a lab to check
 * against the manual (the lab's tests do, test_events.py).  Which events
 * a CPU has is each listing.c's header comment.
 *
 * Exit status: 0 with the listing, or with {"pmu": "none" |
 * "unsupported", "why": ...} for a CPU whose PMU no driver drives; 2 for
 * bad arguments.  Host code (libc). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/cpu_model.h"
#include "pmu/generation.h"
#include "pmu/listing.h"
#include "pmu/sem.h"

/* ---- JSON output: the writer a generation's listing writes through
 * (pmu/listing.h).  Each open object or list keeps whether the next field
 * or item is its first (no comma before it). */

#define DEPTH 8
static int first[DEPTH];
static int depth;		/* the open top-level object is depth 0 */

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void open_level(int is_first)
{
	if (depth + 1 < DEPTH)
		first[++depth] = is_first;
}

static void close_level(char c)
{
	putchar(c);
	if (depth > 0)
		depth--;
}

/* The separator and the key of the open object's next field. */
static void key(const char *k)
{
	printf("%s\"%s\": ", first[depth] ? "" : ", ", k);
	first[depth] = 0;
}

static void w_num(const char *k, unsigned long long v)
{
	key(k);
	printf("%llu", v);
}

static void w_str(const char *k, const char *v)
{
	key(k);
	json_str(v);
}

static void w_null(const char *k)
{
	key(k);
	printf("null");
}

static void w_flag(const char *k, int v)
{
	key(k);
	printf("%s", v ? "true" : "false");
}

static void w_counters(const char *k, uint64_t mask)
{
	int any = 0;

	key(k);
	putchar('[');
	for (unsigned i = 0; i < 64; i++)
		if (mask >> i & 1) {
			printf("%s%u", any ? ", " : "", i);
			any = 1;
		}
	putchar(']');
}

static void w_counts(const char *k, uint32_t sem)
{
	int any = 0;

	key(k);
	putchar('[');
	for (unsigned s = 0; s < SEM_NR; s++)
		if (sem & SEM_BIT(s)) {
			printf("%s", any ? ", " : "");
			json_str(sem_name((enum sem)s));
			any = 1;
		}
	putchar(']');
}

static void w_object_begin(const char *k)
{
	key(k);
	putchar('{');
	open_level(1);
}

static void w_object_end(void)
{
	close_level('}');
}

static void w_list_begin(const char *k)
{
	key(k);
	putchar('[');
	open_level(1);
}

static void w_item_begin(void)
{
	printf("%s{", first[depth] ? "" : ", ");
	first[depth] = 0;
	open_level(1);
}

static void w_list_end(void)
{
	close_level(']');
}

static void w_events_begin(void)
{
	w_list_begin("events");
}

static void w_event_begin(const char *name)
{
	printf("%s\n    {\"name\": ", first[depth] ? "" : ",");
	first[depth] = 0;
	json_str(name);
	open_level(0);
}

static void w_events_end(void)
{
	printf("\n");
	close_level(']');
}

static const struct pmu_listing json_out = {
	.num = w_num,
	.str = w_str,
	.null = w_null,
	.flag = w_flag,
	.counters = w_counters,
	.counts = w_counts,
	.object_begin = w_object_begin,
	.object_end = w_object_end,
	.list_begin = w_list_begin,
	.item_begin = w_item_begin,
	.item_end = w_object_end,
	.list_end = w_list_end,
	.events_begin = w_events_begin,
	.event_begin = w_event_begin,
	.event_end = w_object_end,
	.events_end = w_events_end,
};

/* ---- the CPU */

static int parse_uint(const char *s, unsigned max, unsigned *v)
{
	char *end;
	unsigned long n;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	n = strtoul(s, &end, 0);
	if (errno || *end || n > max)
		return -1;
	*v = (unsigned)n;
	return 0;
}

static void header(enum cpu_vendor v, const char *vendor,
		   const struct cpu_sig *sig, enum pmu_kind k)
{
	char buf[96];

	printf("{\"cpu\": {\"vendor\": ");
	json_str(vendor);
	printf(", \"family\": %u, \"model\": %u, \"stepping\": %u",
	       sig->family, sig->model, sig->stepping);
	first[0] = 0;
	w_str("name", cpu_model_name(v, sig->family, sig->model, buf,
				     sizeof(buf)));
	printf("}, \"pmu\": ");
	json_str(pmu_kind_name(k));
}

static int refuse(const char *why)
{
	w_str("why", why);
	printf("}\n");
	return 0;
}

/* Why a CPU whose PMU has no listing gets none. */
static const char *no_listing(enum cpu_vendor v, const struct cpu_sig *sig,
			      enum pmu_kind k)
{
	if (k == PMU_UNSUPPORTED)
		return pmu_unsupported_reason(v, sig->family);
	if (k == PMU_NONE)
		return pmu_none_reason(v, sig->family);
	return "its generation has no event listing (pmu/<gen>/listing.c)";
}

int main(int argc, char **argv)
{
	struct cpu_sig sig = { 0 };
	const struct pmu_generation *g;
	const char *why = 0;
	enum cpu_vendor v;
	enum pmu_kind k;

	if (argc != 5 || strlen(argv[1]) != 12 ||
	    parse_uint(argv[2], 0x10e, &sig.family) ||
	    parse_uint(argv[3], 0xff, &sig.model) ||
	    parse_uint(argv[4], 0xf, &sig.stepping)) {
		fprintf(stderr, "usage: pmu-events VENDOR FAMILY MODEL "
			"STEPPING (VENDOR: the 12-character CPUID vendor "
			"string; family up to 0x10e, model up to 0xff, "
			"stepping up to 0xf)\n");
		return 2;
	}
	v = cpu_vendor_from_id(argv[1]);
	k = cpu_pmu_kind(v, sig.family, sig.model, PMU_NONE);
	g = pmu_generation_for(k);
	header(v, argv[1], &sig, k);
	if (!g || !g->list_events)
		return refuse(no_listing(v, &sig, k));
	if (g->list_events(&json_out, &sig, &why))
		return refuse(why);
	printf("}\n");
	return 0;
}
