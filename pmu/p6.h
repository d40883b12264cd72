/* p6: register layout of the family-6 counters, P6 (Pentium Pro/II/III/M,
 * SDM Vol. 3B §18.22 in order no. 253669-060US) and architectural
 * performance monitoring (§18.2.1.1), which keeps the same PerfEvtSel and
 * PMC addresses.  The Family-6 driver builds on this header. */
#ifndef PMU_P6_H
#define PMU_P6_H

#define P6_MSR_PERFEVTSEL0 0x186
#define P6_MSR_PERFEVTSEL1 0x187
#define P6_MSR_PERFCTR0 0xc1
#define P6_MSR_PERFCTR1 0xc2

/* PerfEvtSel fields (SDM Vol. 3B Figure 18-1 / 18-60). */
#define P6_EVTSEL_EVENT_MASK 0xffull
#define P6_EVTSEL_UMASK_SHIFT 8
#define P6_EVTSEL_USR (1ull << 16)
#define P6_EVTSEL_OS (1ull << 17)
#define P6_EVTSEL_EN (1ull << 22)

/* INST_RETIRED (0xC0) on P6, architectural "instructions retired". */
#define P6_EVENT_INST_RETIRED 0xc0

#endif
