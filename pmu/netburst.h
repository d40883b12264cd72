/* netburst: register layout of the Pentium 4 / Xeon (NetBurst) counters,
 * SDM Vol. 3B §18.16 (order no. 253669-060US): ESCRs select events, CCCRs
 * control the 18 counters.  The NetBurst driver builds on this header. */
#ifndef PMU_NETBURST_H
#define PMU_NETBURST_H

#define NB_MSR_CRU_ESCR0 0x3b8

/* ESCR fields (SDM Vol. 3B Figure 18-48): event select 30:25, event mask
 * 24:9, T0_OS 3, T0_USR 2, T1_OS 1, T1_USR 0. */
#define NB_ESCR_EVENT_SHIFT 25
#define NB_ESCR_EVENT_MASK (0x3full << NB_ESCR_EVENT_SHIFT)

/* instr_retired: CRU_ESCR0/1 event select 02H (SDM Vol. 3B Table 19-29). */
#define NB_EVENT_INSTR_RETIRED 0x02

#endif
