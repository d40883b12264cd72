/* pmu/netburst/listing.c: the Pentium 4's events for the host's `events`
 * tool (listing.h): the table of events.c, every event from the model
 * that has it (models_min), with its ESCRs (regs.c), counters and each
 * ESCR event-mask bit as the model reads it. */
#include "listing.h"
#include "events.h"
#include "regs.h"

static const char *escr_name(uint32_t msr)
{
	const struct nb_escr *x = nb_escr_at(msr);

	return x ? x->name : "?";
}

static void bits(const struct pmu_listing *out, const struct nb_event *e)
{
	out->list_begin("escr_mask");
	for (unsigned b = 0; b < e->n_bits; b++) {
		const struct nb_emask_bit *x = &e->bits[b];

		out->item_begin();
		out->num("bit", x->bit);
		out->str("name", x->name);
		if (x->how == NB_SEM) {
			out->counts("counts", x->sem);
			if (x->sem_minus)
				out->counts("minus", x->sem_minus);
		} else if (x->how == NB_ZERO) {
			out->counts("counts", 0);
			out->flag("zero", 1);
		} else {
			out->str("not_modelled", e->why_not ? e->why_not :
				 "the trace cannot see it");
		}
		out->item_end();
	}
	out->list_end();
}

/* The counts of the modelled bits (0 when none is). */
static uint32_t sem_of(const struct nb_event *e, int *modelled)
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

static void escrs(const struct pmu_listing *out, const struct nb_event *e)
{
	out->list_begin("escrs");
	for (unsigned t = 0; t < 2; t++)
		if (e->escr[t]) {
			out->item_begin();
			out->str("name", escr_name(e->escr[t]));
			out->num("msr", e->escr[t]);
			out->counters("counters", e->ctrs[t]);
			out->item_end();
		}
	out->list_end();
}

static void event(const struct pmu_listing *out, const struct nb_event *e)
{
	int modelled;
	uint32_t sem = sem_of(e, &modelled);

	out->event_begin(e->name);
	out->num("event", e->select);
	out->null("umask");
	out->num("escr_select", e->select);
	out->num("cccr_select", e->escr_sel);
	escrs(out, e);
	out->counters("counters", e->ctrs[0] | e->ctrs[1]);
	out->flag("precise", 0);
	out->flag("at_retirement", e->at_retirement);
	if (modelled)
		out->counts("counts", sem);
	else
		out->str("not_modelled", e->why_not);
	bits(out, e);
	out->event_end();
}

int nb_list_events(const struct pmu_listing *out, const struct cpu_sig *sig,
		   const char **why)
{
	(void)why;
	out->events_begin();
	for (unsigned i = 0; i < nb_n_events; i++)
		if (sig->model >= nb_events[i].models_min)
			event(out, &nb_events[i]);
	out->events_end();
	return 0;
}
