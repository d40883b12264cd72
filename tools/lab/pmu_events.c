/* pmu-events: every event the harness knows for one CPU's PMU, as JSON -
 * the host half of `tools/lab/pmu-harness events` (tools/lab/events.py
 * formats it; docs/lab.md#events).
 *
 *     pmu-events VENDOR FAMILY MODEL STEPPING
 *
 * VENDOR is the CPUID.0 vendor string (GenuineIntel, AuthenticAMD),
 * the numbers decimal or 0x-hex (DisplayFamily, DisplayModel).  The
 * listing comes from the tables the harness itself uses on the target,
 * built for the host: pmu/cpu_model.c says which PMU the CPU has, the
 * generation's event table says what it can count (pmu/p5, pmu/p6,
 * pmu/netburst, pmu/perfmon with its PEBS events), the arch-perfmon
 * capability table (pmu/perfmon/caps_table.c) what an arch-perfmon CPU
 * reports in CPUID.0AH and IA32_PERF_CAPABILITIES, and pmu/sem.h's names
 * what the reference model counts for each event.  Nothing is restated
 * here: the listing shows the product's reading of the SDM, for a lab
 * to check against the manual (the lab's tests do, test_events.py).
 *
 * Which events a CPU has, per generation:
 *   - P5: the MMX-technology events only on a Pentium with MMX
 *     (p5_is_mmx_cpu());
 *   - P6: the events of its generation (p6_gen_of(): Pentium Pro, II,
 *     III, M);
 *   - NetBurst: every event from the model that has it (models_min);
 *   - arch-perfmon: the architectural events CPUID.0AH:EBX of the
 *     capability row leaves available, the fixed counters the row has,
 *     and the precise events of the row's PEBS format.  A CPU without a
 *     row (on hardware the harness reads CPUID.0AH) is refused.
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
#include "pmu/sem.h"
#include "pmu/p5/events.h"
#include "pmu/p5/regs.h"
#include "pmu/p6/events.h"
#include "pmu/p6/regs.h"
#include "pmu/netburst/events.h"
#include "pmu/netburst/regs.h"
#include "pmu/perfmon/caps.h"
#include "pmu/perfmon/caps_table.h"
#include "pmu/perfmon/events.h"
#include "pmu/perfmon/regs.h"
#include "pmu/perfmon/pebs/events.h"
#include "pmu/perfmon/pebs/regs.h"

/* ---- JSON output */

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

static void json_key_str(const char *key, const char *val)
{
	printf(", \"%s\": ", key);
	json_str(val);
}

/* "counts": [names] for a SEM_BIT() mask. */
static void json_counts(uint32_t sem)
{
	int first = 1;

	printf(", \"counts\": [");
	for (unsigned s = 0; s < SEM_NR; s++)
		if (sem & SEM_BIT(s)) {
			printf("%s", first ? "" : ", ");
			json_str(sem_name((enum sem)s));
			first = 0;
		}
	putchar(']');
}

/* What the model counts: its counts, or "not_modelled": why. */
static void json_model(uint32_t sem, const char *why_not)
{
	if (sem)
		json_counts(sem);
	else
		json_key_str("not_modelled", why_not ? why_not :
			     "the trace cannot see it");
}

/* "counters": [n, ...] for a bit mask of counters. */
static void json_counters(uint64_t mask)
{
	int first = 1;

	printf(", \"counters\": [");
	for (unsigned i = 0; i < 64; i++)
		if (mask >> i & 1) {
			printf("%s%u", first ? "" : ", ", i);
			first = 0;
		}
	putchar(']');
}

static int first_event = 1;

static void event_begin(const char *name)
{
	printf("%s\n    {\"name\": ", first_event ? "" : ",");
	json_str(name);
	first_event = 0;
}

static void event_end(void)
{
	putchar('}');
}

/* ---- P5 (pmu/p5/events.c) */

static void list_p5(const struct cpu_sig *sig)
{
	int mmx = p5_is_mmx_cpu(sig);

	for (unsigned i = 0; i < p5_n_events; i++) {
		const struct p5_event *e = &p5_events[i];

		if (e->mmx && !mmx)
			continue;
		event_begin(e->name);
		printf(", \"event\": %u, \"umask\": null", e->code);
		json_counters(e->counters);
		printf(", \"precise\": false, \"duration\": %s, \"mmx\": %s",
		       e->duration ? "true" : "false",
		       e->mmx ? "true" : "false");
		json_model(e->sem, e->why_not);
		event_end();
	}
}

/* ---- P6 (pmu/p6/events.c) */

static void list_p6(const struct cpu_sig *sig)
{
	unsigned gen = p6_gen_of(sig);

	for (unsigned i = 0; i < p6_n_events; i++) {
		const struct p6_event *e = &p6_events[i];

		if (!(e->gens & gen))
			continue;
		event_begin(e->name);
		printf(", \"event\": %u, \"umask\": %u", e->code,
		       e->umask_bits);
		json_counters(e->counters);
		printf(", \"precise\": false");
		json_model(e->sem, e->why_not);
		event_end();
	}
}

/* ---- NetBurst (pmu/netburst/events.c, regs.c) */

static const char *escr_name(uint32_t msr)
{
	const struct nb_escr *x = nb_escr_at(msr);

	return x ? x->name : "?";
}

static void nb_bits(const struct nb_event *e)
{
	printf(", \"escr_mask\": [");
	for (unsigned b = 0; b < e->n_bits; b++) {
		const struct nb_emask_bit *x = &e->bits[b];

		printf("%s{\"bit\": %u, \"name\": ", b ? ", " : "", x->bit);
		json_str(x->name);
		if (x->how == NB_SEM) {
			json_counts(x->sem);
			if (x->sem_minus) {
				printf(", \"minus\": [");
				for (unsigned s = 0, n = 0; s < SEM_NR; s++)
					if (x->sem_minus & SEM_BIT(s)) {
						printf("%s", n++ ? ", " : "");
						json_str(sem_name((enum sem)s));
					}
				putchar(']');
			}
		} else if (x->how == NB_ZERO) {
			printf(", \"counts\": [], \"zero\": true");
		} else {
			json_key_str("not_modelled", e->why_not ? e->why_not :
				     "the trace cannot see it");
		}
		putchar('}');
	}
	putchar(']');
}

/* The counts of the modelled bits (0 when none is). */
static uint32_t nb_sem(const struct nb_event *e, int *modelled)
{
	uint32_t sem = 0;

	*modelled = 0;
	for (unsigned b = 0; b < e->n_bits; b++)
		if (e->bits[b].how != NB_NOT_MODELLED) {
			*modelled = 1;
			if (e->bits[b].how == NB_SEM)
				sem |= e->bits[b].sem;
		}
	return sem;
}

static void list_netburst(const struct cpu_sig *sig)
{
	for (unsigned i = 0; i < nb_n_events; i++) {
		const struct nb_event *e = &nb_events[i];
		int modelled, n = 0;
		uint32_t sem = nb_sem(e, &modelled);

		if (sig->model < e->models_min)
			continue;
		event_begin(e->name);
		printf(", \"event\": %u, \"umask\": null, \"escr_select\": %u",
		       e->select, e->select);
		printf(", \"cccr_select\": %u, \"escrs\": [", e->escr_sel);
		for (unsigned t = 0; t < 2; t++)
			if (e->escr[t]) {
				printf("%s{\"name\": ", n++ ? ", " : "");
				json_str(escr_name(e->escr[t]));
				printf(", \"msr\": %u", e->escr[t]);
				json_counters(e->ctrs[t]);
				putchar('}');
			}
		putchar(']');
		json_counters(e->ctrs[0] | e->ctrs[1]);
		printf(", \"precise\": false, \"at_retirement\": %s",
		       e->at_retirement ? "true" : "false");
		if (modelled)
			json_counts(sem);
		else
			json_key_str("not_modelled", e->why_not);
		nb_bits(e);
		event_end();
	}
}

/* ---- arch-perfmon (pmu/perfmon/events.c, pebs/events.c, caps) */

static uint64_t gp_mask(const struct perfmon_caps *c)
{
	return c->gp >= 64 ? ~0ull : (1ull << c->gp) - 1;
}

static void list_arch(const struct perfmon_caps *c)
{
	unsigned fmt = perfmon_pebs_format(c);
	int pebs = perfmon_caps_pebs(c);
	uint64_t capable = pebs ? pebs_capable_counters(fmt, c->gp,
				  c->fixed_mask, perfmon_pebs_baseline(c)) : 0;
	const struct pebs_event *p;

	for (unsigned i = 0; i < ARCH_EV_NR; i++) {
		const struct perfmon_event *e = &perfmon_arch_events[i];

		if (!perfmon_event_available(c, e->arch))
			continue;
		event_begin(e->name);
		printf(", \"event\": %u, \"umask\": %u", e->event, e->umask);
		json_counters(gp_mask(c));
		printf(", \"precise\": %s, \"architectural\": true",
		       pebs && pebs_event_for(pebs_events_uarch(c), e->event,
					      e->umask) ?
		       "true" : "false");
		json_model(e->sem, e->why_not);
		event_end();
	}
	for (unsigned i = 0; i < PERFMON_MAX_FIXED; i++) {
		const struct perfmon_event *e = perfmon_fixed_event(i);
		char name[96];

		if (!perfmon_fixed_exists(c, i) || !e)
			continue;
		snprintf(name, sizeof(name), "Fixed counter %u: %s", i,
			 e->name);
		event_begin(name);
		printf(", \"event\": %u, \"umask\": %u, \"fixed\": %u",
		       e->event, e->umask, i);
		json_counters(1ull << i);
		printf(", \"precise\": %s",
		       capable >> (GLOBAL_FIXED_SHIFT + i) & 1 ? "true" :
		       "false");
		json_model(e->sem, e->why_not);
		event_end();
	}
	for (unsigned n = 0;
	     pebs && (p = pebs_event_nth(pebs_events_uarch(c), n)); n++) {
		event_begin(p->name);
		printf(", \"event\": %u, \"umask\": %u", p->event, p->umask);
		json_counters(capable & gp_mask(c));
		printf(", \"precise\": true, \"pebs_format\": %u", fmt);
		json_key_str("data_address", p->data == PEBS_DATA_LOAD ?
			     "load" : p->data == PEBS_DATA_STORE ? "store" :
			     "none");
		json_key_str("cite", p->cite);
		json_model(p->sem, 0);
		event_end();
	}
}

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
	json_key_str("name", cpu_model_name(v, sig->family, sig->model, buf,
					    sizeof(buf)));
	printf("}, \"pmu\": ");
	json_str(pmu_kind_name(k));
}

static int refuse(const char *why)
{
	json_key_str("why", why);
	printf("}\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct cpu_sig sig = { 0 };
	enum cpu_vendor v;
	enum pmu_kind k;
	const struct perfmon_caps_row *row = 0;
	struct perfmon_caps caps = { .source = "table" };

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
	k = cpu_pmu_kind(v, sig.family, sig.model, 0);
	if (k == PMU_ARCH)
		row = perfmon_caps_row_for(sig.family, sig.model);
	header(v, argv[1], &sig, k);
	if (k == PMU_UNSUPPORTED)
		return refuse(pmu_unsupported_reason(v, sig.family));
	if (k == PMU_NONE)
		return refuse(v == VENDOR_INTEL ? "no performance-monitoring "
			      "counters (no generation's descriptor matches: "
			      "pmu/<gen>/generation.c)" :
			      "not an Intel or AMD processor");
	if (k == PMU_ARCH && !row)
		return refuse("architectural perfmon, but the capability "
			      "table (pmu/perfmon/caps_table.c) has no row "
			      "for this model: on hardware the harness reads "
			      "CPUID.0AH, which only the CPU can answer");
	if (row) {
		perfmon_caps_of_row(row, &caps);
		printf(", \"caps\": {\"row\": ");
		json_str(row->name);
		/* pebs_format null: no PEBS as the row states it (no
		 * PERF_CAPABILITIES, v1, or a microarchitecture whose PEBS
		 * the model lacks: perfmon_caps_pebs()) */
		printf(", \"version\": %u, \"gp\": %u, \"fixed_mask\": %u, "
		       "\"ebx\": %u, \"pebs_format\": %s",
		       caps.version, caps.gp, caps.fixed_mask,
		       caps.events_unavail,
		       perfmon_caps_pebs(&caps) ? "" : "null");
		if (perfmon_caps_pebs(&caps))
			printf("%u", perfmon_pebs_format(&caps));
		json_key_str("cite", row->cite);
		putchar('}');
	}
	printf(", \"events\": [");
	switch (k) {
	case PMU_P5: list_p5(&sig); break;
	case PMU_P6: list_p6(&sig); break;
	case PMU_NETBURST: list_netburst(&sig); break;
	default: list_arch(&caps); break;
	}
	printf("\n]}\n");
	return 0;
}
