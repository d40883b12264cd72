/* emufault: the emulated_fault= vocabulary, parser and armed set
 * (emufault.h). */
#include "emufault.h"
#include "../lib/escape.h"
#include "../lib/fmt.h"
#include "../lib/string.h"

/* A name longer than any fault's is unknown anyway. */
#define ITEM_MAX 32
#define ALL_GENS "p5 p6 netburst perfmon"

const struct emufault_info emufault_table[EMUFAULT_COUNT] = {
	[EF_DOUBLE] = { .name = "double", .gens = ALL_GENS,
		.what = "every counted event counts 2" },
	[EF_DOUBLE_CPL0] = { .name = "double-cpl0", .gens = ALL_GENS,
		.what = "events at CPL 0 count 2" },
	[EF_ENABLE_PLUS_ONE] = { .name = "enable-plus-one", .gens = ALL_GENS,
		.what = "a counter gains 1 each time it is enabled" },
	[EF_FILTER_IGNORED] = { .name = "filter-ignored", .gens = ALL_GENS,
		.what = "the OS/USR filter ignored: counts at every CPL" },
	[EF_FILTER_SWAPPED] = { .name = "filter-swapped", .gens = ALL_GENS,
		.what = "OS and USR swapped (P5 CC, NetBurst T0_OS/T0_USR)" },
	[EF_OVERFLOW_LATE] = { .name = "overflow-late",
		.gens = "p6 netburst perfmon",
		.what = "an overflow signalled one event late" },
	[EF_STATUS_READ_CLEARS] = { .name = "status-read-clears",
		.gens = "netburst perfmon",
		.what = "reading an overflow status bit clears it" },
	[EF_PMI_LOST] = { .name = "pmi-lost", .gens = "p6 netburst perfmon",
		.what = "the PMI is never delivered" },
	[EF_PMI_TWICE] = { .name = "pmi-twice", .gens = "p6 netburst perfmon",
		.what = "the PMI is delivered again at the next step" },
	[EF_FREEZE_IGNORED] = { .name = "freeze-ignored", .gens = "perfmon",
		.what = "DEBUGCTL.Freeze_PerfMon_on_PMI ignored" },
	[EF_GLOBAL_CTRL_IGNORED] = { .name = "global-ctrl-ignored",
		.gens = "perfmon",
		.what = "IA32_PERF_GLOBAL_CTRL ignored: every counter enabled" },
	[EF_FIXED_SWAPPED] = { .name = "fixed-swapped", .gens = "perfmon",
		.what = "fixed counters 1 and 2 swapped" },
	[EF_WRAP_32] = { .name = "wrap-32", .gens = ALL_GENS,
		.what = "counters wrap at 32 bits" },
	[EF_NO_SIGN_EXTEND] = { .name = "no-sign-extend",
		.gens = "p6 perfmon",
		.what = "a 32-bit counter write not sign-extended" },
	[EF_ESCR_THREADS_SWAPPED] = { .name = "escr-threads-swapped",
		.gens = "netburst",
		.what = "ESCR T0_OS/T0_USR and T1_OS/T1_USR swapped" },
	[EF_CASCADE_IGNORED] = { .name = "cascade-ignored", .gens = "netburst",
		.what = "CCCR CASCADE ignored" },
	[EF_PEBS_EARLY] = { .name = "pebs-early", .gens = "perfmon",
		.what = "a PEBS record written one event early" },
	[EF_PEBS_NO_RELOAD] = { .name = "pebs-no-reload", .gens = "perfmon",
		.what = "a PEBS counter not reloaded from the DS reset value" },
	[EF_BTS_SWAPPED] = { .name = "bts-swapped", .gens = "perfmon",
		.what = "a BTS record with FROM and TO swapped" },
	[EF_LBR_TOS_BACKWARDS] = { .name = "lbr-tos-backwards",
		.gens = "perfmon", .what = "the LBR TOS moves backwards" },
	[EF_PT_TNT_REVERSED] = { .name = "pt-tnt-reversed", .gens = "perfmon",
		.what = "PT TNT bits in reverse order" },
	[EF_EXIT_COUNTED] = { .name = "exit-counted", .gens = ALL_GENS,
		.what = "each PMU access counts 64 instructions of the "
			"emulator's exit handling at CPL 0" },
};

static uint32_t armed;
static int held;

static int find(const char *name, unsigned len)
{
	for (int f = 0; f < EMUFAULT_COUNT; f++)
		if (str_len(emufault_table[f].name) == len &&
		    !str_ncmp(emufault_table[f].name, name, len))
			return f;
	return -1;
}

struct parse {
	emufault_error_fn err;
	void *ctx;
	unsigned errors, item_no;
};

__attribute__((format(printf, 4, 5)))
static void bad(struct parse *p, const char *item, unsigned len,
		const char *fmt, ...)
{
	char text[ITEM_MAX + 1], shown[(ITEM_MAX + 1) * ESC_PER_BYTE + 8];
	char why[EMUFAULT_NAMES_MAX + 40], msg[sizeof(why) + sizeof(shown) + 48];
	unsigned n = len < ITEM_MAX ? len : ITEM_MAX;
	va_list ap;

	p->errors++;
	if (!p->err)
		return;
	memcpy(text, item, n);
	text[n] = 0;
	esc_str(shown, sizeof(shown), text);
	va_start(ap, fmt);
	fmt_vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	fmt_snprintf(msg, sizeof(msg), "emulated_fault=: item %u \"%s%s\": %s",
		     p->item_no, shown, len > ITEM_MAX ? "..." : "", why);
	p->err(p->ctx, msg);
}

static void item(struct parse *p, uint32_t *set, const char *s, unsigned len)
{
	char known[EMUFAULT_NAMES_MAX];
	int f;

	if (!len) {
		bad(p, s, len, "empty item");
		return;
	}
	f = find(s, len);
	if (f < 0) {
		emufault_describe((1u << EMUFAULT_COUNT) - 1, known,
				  sizeof(known));
		bad(p, s, len, "unknown fault (known: %s)", known);
	} else if (*set >> f & 1) {
		bad(p, s, len, "given twice");
	} else {
		*set |= 1u << f;
	}
}

int emufault_parse(uint32_t *set, const char *spec, emufault_error_fn err,
		   void *ctx)
{
	struct parse p = { .err = err, .ctx = ctx };
	const char *s = spec;

	*set = 0;
	for (;;) {
		unsigned len = 0;

		while (s[len] && s[len] != ',')
			len++;
		p.item_no++;
		item(&p, set, s, len);
		if (!s[len])
			break;
		s += len + 1;
	}
	if (p.errors)
		*set = 0;
	return (int)p.errors;
}

void emufault_describe(uint32_t set, char *buf, unsigned size)
{
	unsigned o = 0;

	buf[0] = 0;
	for (int f = 0; f < EMUFAULT_COUNT && o < size; f++)
		if (set >> f & 1)
			o += (unsigned)fmt_snprintf(buf + o, size - o, "%s%s",
						    o ? "," : "",
						    emufault_table[f].name);
}

void emufault_arm(uint32_t set)
{
	armed = set;
}

uint32_t emufault_armed(void)
{
	return armed;
}

void emufault_hold(int hold)
{
	held = hold;
}

int emufault_on(enum emufault f)
{
	return !held && (armed >> f & 1);
}

uint64_t emufault_count(uint64_t inc, unsigned cpl)
{
	if (emufault_on(EF_DOUBLE) || (!cpl && emufault_on(EF_DOUBLE_CPL0)))
		return inc * 2;
	return inc;
}

int emufault_filter(int at, int os, int usr, unsigned cpl)
{
	if (emufault_on(EF_FILTER_IGNORED))
		return os || usr;
	if (emufault_on(EF_FILTER_SWAPPED))
		return cpl ? os : usr;
	return at;
}

uint64_t emufault_width(uint64_t mask)
{
	return emufault_on(EF_WRAP_32) ? mask & 0xffffffffull : mask;
}
