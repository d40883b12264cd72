/* hpet: register access, the main counter and one-shot timers (hpet.h). */
#include "hpet.h"
#include "mmio.h"

int hpet_open(struct hpet *h, uint64_t base)
{
	uint64_t cap, period;

	h->base = base;
	cap = hpet_read(h, HPET_GCAP_ID);
	period = cap >> HPET_CAP_PERIOD_SHIFT;
	if (!period || period > HPET_CAP_PERIOD_MAX)
		return -1;
	h->hz = HPET_FS_PER_S / period;
	h->last_timer = (unsigned)(cap >> HPET_CAP_NUM_TIM_SHIFT &
				   HPET_CAP_NUM_TIM_MASK);
	return 0;
}

/* The HPET's 64-bit registers: one access in x86-64, two 32-bit halves
 * in i386, as the HPET spec 1.0a allows a 32-bit CPU ("Issues related to
 * 64-bit Timers with 32-bit CPUs").  The main counter runs while it is
 * read: read the high half again until it holds still. */
uint64_t hpet_read(const struct hpet *h, unsigned off)
{
	volatile uint32_t *p = mmio_ptr(h->base + off);
	uint32_t hi, lo;

	if (sizeof(uintptr_t) == 8)
		return *(volatile uint64_t *)mmio_ptr(h->base + off);
	do {
		hi = p[1];
		lo = p[0];
	} while (hi != p[1]);
	return (uint64_t)hi << 32 | lo;
}

/* In halves, low first: hpet_timer_enable() comes after the comparator
 * is whole. */
void hpet_write(const struct hpet *h, unsigned off, uint64_t v)
{
	volatile uint32_t *p = mmio_ptr(h->base + off);

	if (sizeof(uintptr_t) == 8) {
		*(volatile uint64_t *)mmio_ptr(h->base + off) = v;
		return;
	}
	p[0] = (uint32_t)v;
	p[1] = (uint32_t)(v >> 32);
}

uint64_t hpet_main_counter(const struct hpet *h)
{
	return hpet_read(h, HPET_MAIN_COUNTER);
}

/* The low 32 bits, as a 32-bit timer compares them (§2.3.8,
 * Tn_32MODE_CNF): they tell before from after while cmp is less than
 * 2^31 ticks away. */
int hpet_counter_reached(const struct hpet *h, uint64_t cmp)
{
	uint32_t now = (uint32_t)hpet_main_counter(h);

	return (int32_t)(now - (uint32_t)cmp) >= 0;
}

void hpet_counter_run(const struct hpet *h)
{
	hpet_write(h, HPET_GEN_CONF,
		   hpet_read(h, HPET_GEN_CONF) | HPET_CONF_ENABLE);
}

int hpet_legacy_route(const struct hpet *h)
{
	return !!(hpet_read(h, HPET_GEN_CONF) & HPET_CONF_LEGACY);
}

int hpet_timer_enabled(const struct hpet *h, unsigned n)
{
	return !!(hpet_read(h, HPET_TIMER_CONF(n)) & HPET_TN_INT_ENB);
}

uint32_t hpet_timer_route_cap(const struct hpet *h, unsigned n)
{
	return (uint32_t)(hpet_read(h, HPET_TIMER_CONF(n)) >>
			  HPET_TN_ROUTE_CAP_SHIFT);
}

/* Edge-triggered, not periodic, no FSB delivery, routed to gsi; a timer
 * without Tn_SIZE_CAP compares 32 bits. */
uint64_t hpet_timer_set_oneshot(const struct hpet *h, unsigned n,
				unsigned gsi, uint64_t ticks)
{
	uint64_t c = hpet_read(h, HPET_TIMER_CONF(n));
	uint64_t cmp;

	c &= ~(HPET_TN_INT_ENB | HPET_TN_INT_TYPE_LEVEL | HPET_TN_PERIODIC |
	       HPET_TN_FSB_EN | HPET_TN_ROUTE_MASK);
	c |= (uint64_t)gsi << HPET_TN_ROUTE_SHIFT;
	if (!(c & HPET_TN_SIZE_64))
		c |= HPET_TN_32MODE;
	hpet_write(h, HPET_TIMER_CONF(n), c);
	cmp = hpet_main_counter(h) + ticks;
	hpet_write(h, HPET_TIMER_COMPARATOR(n), cmp);
	return cmp;
}

void hpet_timer_enable(const struct hpet *h, unsigned n)
{
	uint64_t c = hpet_read(h, HPET_TIMER_CONF(n));

	hpet_write(h, HPET_TIMER_CONF(n), c | HPET_TN_INT_ENB);
}

void hpet_timer_disable(const struct hpet *h, unsigned n)
{
	uint64_t c = hpet_read(h, HPET_TIMER_CONF(n));

	hpet_write(h, HPET_TIMER_CONF(n), c & ~HPET_TN_INT_ENB);
}

void hpet_save(const struct hpet *h, unsigned n, struct hpet_saved *s)
{
	s->gen_conf = hpet_read(h, HPET_GEN_CONF);
	s->conf = hpet_read(h, HPET_TIMER_CONF(n));
	s->cmp = hpet_read(h, HPET_TIMER_COMPARATOR(n));
}

/* The timer first, the counter's enable last. */
void hpet_restore(const struct hpet *h, unsigned n,
		  const struct hpet_saved *s)
{
	hpet_write(h, HPET_TIMER_CONF(n), s->conf);
	hpet_write(h, HPET_TIMER_COMPARATOR(n), s->cmp);
	hpet_write(h, HPET_GEN_CONF, s->gen_conf);
}
