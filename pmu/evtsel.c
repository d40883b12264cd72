/* evtsel: PerfEvtSel fields and the per-cycle CMASK/INV/E rule
 * (evtsel.h).  Pure logic: host-tested. */
#include "evtsel.h"
#include "../lib/fmt.h"

uint64_t evtsel_encode(const struct evtsel *s)
{
	return (uint64_t)s->event | (uint64_t)s->umask << EVTSEL_UMASK_SHIFT |
	       (s->usr ? EVTSEL_USR : 0) | (s->os ? EVTSEL_OS : 0) |
	       (s->edge ? EVTSEL_EDGE : 0) | (s->pc ? EVTSEL_PC : 0) |
	       (s->intr ? EVTSEL_INT : 0) | (s->any ? EVTSEL_ANY : 0) |
	       (s->en ? EVTSEL_EN : 0) | (s->inv ? EVTSEL_INV : 0) |
	       (uint64_t)s->cmask << EVTSEL_CMASK_SHIFT;
}

struct evtsel evtsel_decode(uint64_t v)
{
	return (struct evtsel){
		.event = (uint8_t)(v & EVTSEL_EVENT_MASK),
		.umask = (uint8_t)(v >> EVTSEL_UMASK_SHIFT),
		.cmask = (uint8_t)(v >> EVTSEL_CMASK_SHIFT),
		.usr = !!(v & EVTSEL_USR),
		.os = !!(v & EVTSEL_OS),
		.edge = !!(v & EVTSEL_EDGE),
		.pc = !!(v & EVTSEL_PC),
		.intr = !!(v & EVTSEL_INT),
		.any = !!(v & EVTSEL_ANY),
		.en = !!(v & EVTSEL_EN),
		.inv = !!(v & EVTSEL_INV),
	};
}

void evtsel_name(uint64_t v, char *buf, unsigned size)
{
	struct evtsel s = evtsel_decode(v);

	fmt_snprintf(buf, size, "ev=0x%02x um=0x%02x%s%s%s%s%s%s%s%s "
		     "cmask=%u", s.event, s.umask, s.usr ? " usr" : "",
		     s.os ? " os" : "", s.edge ? " e" : "", s.pc ? " pc" : "",
		     s.intr ? " int" : "", s.any ? " any" : "",
		     s.en ? " en" : "", s.inv ? " inv" : "", s.cmask);
}

static int condition(const struct evtsel *s, uint64_t n)
{
	if (!s->cmask)
		return n > 0;
	return s->inv ? n < s->cmask : n >= s->cmask;
}

uint64_t evtsel_cycles(const struct evtsel *s, struct evtsel_edge *edge,
		       uint64_t n, uint64_t cycles)
{
	int now = condition(s, n);
	uint64_t add;

	if (!cycles)
		return 0;
	if (s->edge)
		add = now && !edge->asserted;
	else if (!s->cmask)
		add = n * cycles;
	else
		add = now ? cycles : 0;
	edge->asserted = (uint8_t)now;
	return add;
}

void evtsel_idle(struct evtsel_edge *edge)
{
	edge->asserted = 0;
}
