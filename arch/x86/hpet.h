/* hpet: the High Precision Event Timer, the timer the harness's watchdog
 * counts on (arch/x86/watchdog.h): its register layout, its 64-bit
 * registers read and written whole from either build, the main counter,
 * and a timer set up as a one-shot to an I/O APIC input, stopped, saved
 * and put back.  Knows nothing of what the timer is used for.
 *
 * Citation: IA-PC HPET (High Precision Event Timers) Specification,
 * revision 1.0a, Intel, October 2004: §2.3 register set (Table 2, the
 * memory map), §2.3.4 General Capabilities and ID, §2.3.5 General
 * Configuration, §2.3.7 Main Counter, §2.3.8 Timer N Configuration and
 * Capability, §2.3.9 Timer N Comparator. */
#ifndef ARCH_X86_HPET_H
#define ARCH_X86_HPET_H

#include <stdint.h>

/* Register offsets from the base the ACPI HPET table gives (Table 2). */
#define HPET_GCAP_ID 0x000
#define HPET_GEN_CONF 0x010
#define HPET_GINTR_STA 0x020
#define HPET_MAIN_COUNTER 0x0f0
#define HPET_TIMER_CONF(n) (0x100 + 0x20 * (n))
#define HPET_TIMER_COMPARATOR(n) (0x108 + 0x20 * (n))
#define HPET_MMIO_SIZE 0x400

/* General Capabilities and ID (§2.3.4). */
#define HPET_CAP_PERIOD_SHIFT 32	/* COUNTER_CLK_PERIOD, femtoseconds */
#define HPET_CAP_PERIOD_MAX 0x05f5e100ull	/* 100 ns, "<= 05F5E100h" */
#define HPET_CAP_COUNT_SIZE (1ull << 13)	/* main counter is 64-bit */
#define HPET_CAP_NUM_TIM_SHIFT 8	/* NUM_TIM_CAP: last timer's number */
#define HPET_CAP_NUM_TIM_MASK 0x1full

/* General Configuration (§2.3.5). */
#define HPET_CONF_ENABLE (1ull << 0)	/* ENABLE_CNF: the counter runs */
#define HPET_CONF_LEGACY (1ull << 1)	/* LEG_RT_CNF: timers 0/1 to IRQ0/8 */

/* Timer N Configuration and Capability (§2.3.8). */
#define HPET_TN_INT_TYPE_LEVEL (1ull << 1)	/* Tn_INT_TYPE_CNF */
#define HPET_TN_INT_ENB (1ull << 2)		/* Tn_INT_ENB_CNF */
#define HPET_TN_PERIODIC (1ull << 3)		/* Tn_TYPE_CNF */
#define HPET_TN_SIZE_64 (1ull << 5)		/* Tn_SIZE_CAP */
#define HPET_TN_32MODE (1ull << 8)		/* Tn_32MODE_CNF */
#define HPET_TN_ROUTE_SHIFT 9			/* Tn_INT_ROUTE_CNF, 13:9 */
#define HPET_TN_ROUTE_MASK (0x1full << HPET_TN_ROUTE_SHIFT)
#define HPET_TN_FSB_EN (1ull << 14)		/* FSB (MSI) delivery */
#define HPET_TN_ROUTE_CAP_SHIFT 32		/* Tn_INT_ROUTE_CAP, 63:32 */

/* Femtoseconds per second, for the tick rate. */
#define HPET_FS_PER_S 1000000000000000ull

/* One HPET, as hpet_open() found it. */
struct hpet {
	uint64_t base;		/* registers (reachable: mmio.h) */
	uint64_t hz;		/* main counter ticks per second */
	unsigned last_timer;	/* NUM_TIM_CAP: the highest timer number */
};

/* What hpet_save() keeps of the firmware's set-up, for hpet_restore(). */
struct hpet_saved {
	uint64_t gen_conf, conf, cmp;
};

/* Reads the capabilities of the HPET at base (check mmio_unreachable()
 * first).  -1 when the counter period is not a valid one. */
int hpet_open(struct hpet *h, uint64_t base);
uint64_t hpet_read(const struct hpet *h, unsigned off);
void hpet_write(const struct hpet *h, unsigned off, uint64_t v);

uint64_t hpet_main_counter(const struct hpet *h);
/* 1 when the main counter has reached cmp, within 2^31 ticks either
 * side of it. */
int hpet_counter_reached(const struct hpet *h, uint64_t cmp);
/* Sets ENABLE_CNF: the main counter runs. */
void hpet_counter_run(const struct hpet *h);
/* 1 when LEG_RT_CNF gives timers 0 and 1 to IRQ 0 and 8. */
int hpet_legacy_route(const struct hpet *h);

/* Timer n's interrupt is enabled (Tn_INT_ENB_CNF). */
int hpet_timer_enabled(const struct hpet *h, unsigned n);
/* The I/O APIC inputs timer n can drive: bit g for GSI g. */
uint32_t hpet_timer_route_cap(const struct hpet *h, unsigned n);
/* Timer n as a one-shot, edge-triggered, to I/O APIC input gsi, its
 * comparator ticks ahead of the main counter, its interrupt still
 * disabled.  Returns the comparator. */
uint64_t hpet_timer_set_oneshot(const struct hpet *h, unsigned n,
				unsigned gsi, uint64_t ticks);
void hpet_timer_enable(const struct hpet *h, unsigned n);
void hpet_timer_disable(const struct hpet *h, unsigned n);

/* The general configuration and timer n's, as found; put back. */
void hpet_save(const struct hpet *h, unsigned n, struct hpet_saved *s);
void hpet_restore(const struct hpet *h, unsigned n,
		  const struct hpet_saved *s);

#endif
