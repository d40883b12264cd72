/* nb_test: the NetBurst facts the netburst/ tests share, written out from
 * the SDM (Vol. 3B, order no. 253669-060US: §18.15.1 ESCRs, Figure 18-45;
 * §18.15.3 CCCRs, Figure 18-46; §18.16.1-2 and Figures 18-47, 18-48 with
 * Hyper-Threading; §18.15.5.5 halting; §18.15.5.6 cascading; §18.15.5.7
 * extended cascading and its PMI erratum; Table 18-63 "Performance Counter
 * MSRs and Associated CCCR and ESCR MSRs"; the Chapter 19 NetBurst event
 * tables) rather than taken from pmu/netburst/regs.c, so that a wrong rule
 * in the driver cannot also make an expectation wrong.  Event-select and
 * event-mask values the tests use are checked against Linux
 * perf_event_p4.h as well.
 *
 * Besides the facts: nb_ready() (the driver, initialised, or a SKIP), an
 * access trail (pmu/backend.h's log) and the per-counter log every test
 * leaves: the ESCR and CCCR values written, the count read and the
 * expected count.  The code behind the declarations is in
 * netburst_regs.c (the facts that take code: Table 18-63's ESCR map,
 * extended cascading's bit), netburst_driver.c (the driver for a test),
 * netburst_trail.c (the trail and the refusals checked against it),
 * netburst_log.c (the per-counter log and count check) and
 * netburst_expect.c (the cascaded counter's hand-off). */
#ifndef TESTS_NETBURST_NB_TEST_H
#define TESTS_NETBURST_NB_TEST_H

#include "../../harness/pmu_run.h"
#include "../../pmu/netburst/driver.h"
#include "../../pmu/backend.h"
#include "../../lib/fmt.h"

/* ---- counters, CCCRs (§18.15.2-3) */
#define NBT_COUNTERS 18
#define NBT_TOP (1ull << 40)		/* the counters are 40 bits */
#define NBT_MASK (NBT_TOP - 1)
#define NBT_MSR_COUNTER(n) (0x300u + (n))	/* MSR_BPU_COUNTER0 ... */
#define NBT_MSR_CCCR(n) (0x360u + (n))		/* MSR_BPU_CCCR0 ... */
#define NBT_VEC_GP 13

/* ---- ESCR, Figure 18-45 / 18-47: bit 0 T1_USR, 1 T1_OS, 2 T0_USR, 3 T0_OS
 * (without HT: 2 USR, 3 OS, bits 1:0 reserved), 4 tag enable, 8:5 tag
 * value, 24:9 event mask, 30:25 event select, 31 and 63:32 reserved. */
struct nbt_escr {
	unsigned event, emask, tag_value, tag_enable;
	unsigned t0_os, t0_usr, t1_os, t1_usr;
};

static inline uint64_t nbt_escr(struct nbt_escr f)
{
	return (uint64_t)(f.t1_usr & 1) | (uint64_t)(f.t1_os & 1) << 1 |
	       (uint64_t)(f.t0_usr & 1) << 2 | (uint64_t)(f.t0_os & 1) << 3 |
	       (uint64_t)(f.tag_enable & 1) << 4 |
	       (uint64_t)(f.tag_value & 0xf) << 5 |
	       (uint64_t)(f.emask & 0xffff) << 9 |
	       (uint64_t)(f.event & 0x3f) << 25;
}

#define NBT_ESCR_T1_USR (1ull << 0)
#define NBT_ESCR_T1_OS (1ull << 1)
#define NBT_ESCR_T0_USR (1ull << 2)
#define NBT_ESCR_T0_OS (1ull << 3)

/* ---- CCCR, Figure 18-46 / 18-48: bit 11 extended cascade (§18.15.5.7,
 * where it exists), 12 enable, 15:13 ESCR select, 17:16 active thread,
 * 18 compare, 19 complement, 23:20 threshold, 24 edge, 25 FORCE_OVF, 26
 * OVF_PMI_T0 (without HT: OVF_PMI), 27 OVF_PMI_T1 (HT only), 30 cascade,
 * 31 OVF; 10:0, 29:28 and 63:32 reserved. */
struct nbt_cccr {
	unsigned ext_cascade, enable, escr_sel, active, compare, complement;
	unsigned threshold, edge, force_ovf, ovf_pmi_t0, ovf_pmi_t1;
	unsigned cascade, ovf;
};

/* Active thread (§18.16.2).  Without HT the field "must be set to 11B":
 * every config the tests program without HT sets .active = NBT_ANY. */
#define NBT_NONE 0
#define NBT_SINGLE 1
#define NBT_BOTH 2
#define NBT_ANY 3

static inline uint64_t nbt_cccr(struct nbt_cccr f)
{
	return (uint64_t)(f.ext_cascade & 1) << 11 |
	       (uint64_t)(f.enable & 1) << 12 |
	       (uint64_t)(f.escr_sel & 7) << 13 |
	       (uint64_t)(f.active & 3) << 16 |
	       (uint64_t)(f.compare & 1) << 18 |
	       (uint64_t)(f.complement & 1) << 19 |
	       (uint64_t)(f.threshold & 0xf) << 20 |
	       (uint64_t)(f.edge & 1) << 24 |
	       (uint64_t)(f.force_ovf & 1) << 25 |
	       (uint64_t)(f.ovf_pmi_t0 & 1) << 26 |
	       (uint64_t)(f.ovf_pmi_t1 & 1) << 27 |
	       (uint64_t)(f.cascade & 1) << 30 | (uint64_t)(f.ovf & 1) << 31;
}

#define NBT_CCCR_EXT_CASCADE (1ull << 11)
#define NBT_CCCR_ENABLE (1ull << 12)
#define NBT_CCCR_FORCE_OVF (1ull << 25)
#define NBT_CCCR_OVF_PMI_T0 (1ull << 26)
#define NBT_CCCR_OVF_PMI_T1 (1ull << 27)
#define NBT_CCCR_CASCADE (1ull << 30)
#define NBT_CCCR_OVF (1ull << 31)

/* The ESCR select field of a CCCR value. */
static inline unsigned nbt_cccr_sel(uint64_t cccr)
{
	return (unsigned)(cccr >> 13) & 7;
}

/* Does counter ctr's CCCR have bit 11, extended cascading, on this
 * processor (§18.15.5.7: netburst_regs.c)? */
int nbt_ext_cascade_bit(unsigned ctr, const struct cpu_sig *s);

/* ---- Hyper-Threading: CPUID.01H:EDX bit 28 (HTT), and CPUID.01H:EBX
 * bits 23:16 (addressable logical processors per package) over
 * CPUID.04H:EAX[31:26] + 1 (addressable cores per package; 1 below leaf
 * 4) at least 2 (SDM Vol. 2A CPUID; Vol. 3A §8.6.2): logical processors
 * per core.  Read here, not taken from cpu_info: a Pentium D has 2
 * logical processors and 2 cores, no HT. */
static inline unsigned nbt_cores_per_package(void)
{
	return cpuid(0).eax >= 4 ? (cpuid_count(4, 0).eax >> 26) + 1 : 1;
}

static inline int nbt_has_ht(const struct cpu_info *ci)
{
	return (ci->f1_edx >> 28 & 1) &&
	       (ci->f1_ebx >> 16 & 0xff) / nbt_cores_per_package() >= 2;
}

/* ---- blocks and halves (§18.15.2, Table 18-63) */
enum { NBT_BPU, NBT_MS, NBT_FLAME, NBT_IQ };

/* BPU counters 0-3, MS 4-7, FLAME 8-11, IQ 12-17. */
unsigned nbt_block(unsigned ctr);

/* IQ_ESCR0/1 (0x3BA, 0x3BB) exist on models 0-2 only. */
static inline int nbt_iq_escr_exists(const struct cpu_sig *s)
{
	return s->model <= 2;
}

/* The ESCR MSR that CCCR ESCR select sel names for counter ctr on this
 * processor (Table 18-63: netburst_regs.c), or 0 for none. */
uint32_t nbt_escr_msr(unsigned ctr, unsigned sel, const struct cpu_sig *s);

/* ---- the events the tests use (Chapter 19 NetBurst tables; Linux
 * perf_event_p4.h agrees).  Event mask bit n is ESCR bit 9 + n. */
/* instr_retired: CRU_ESCR0/1, CCCR select 04H, event select 02H;
 * NBOGUSNTAG (bit 0): non-bogus instructions, not tagged. */
#define NBT_INSTR_RETIRED 0x02
#define NBT_INSTR_RETIRED_SEL 4
#define NBT_NBOGUSNTAG (1u << 0)
/* global_power_events: FSB_ESCR0/1, CCCR select 06H, event select 13H;
 * RUNNING (bit 0): the clocks in which the processor is not halted. */
#define NBT_GLOBAL_POWER 0x13
#define NBT_GLOBAL_POWER_SEL 6
#define NBT_RUNNING (1u << 0)
/* retired_branch_type: TBPU_ESCR0/1, CCCR select 02H, event select 04H;
 * CONDITIONAL (bit 1) conditional jumps, CALL (bit 2) calls, RETURN
 * (bit 3) returns. */
#define NBT_RETIRED_BRANCH_TYPE 0x04
#define NBT_RETIRED_BRANCH_TYPE_SEL 2
#define NBT_BT_CONDITIONAL (1u << 1)
#define NBT_BT_CALL (1u << 2)
#define NBT_BT_RETURN (1u << 3)
/* branch_retired: CRU_ESCR2/3, CCCR select 05H, event select 06H;
 * MMNP (bit 0) not-taken predicted, MMNM (1) not-taken mispredicted,
 * MMTP (2) taken predicted, MMTM (3) taken mispredicted. */
#define NBT_BRANCH_RETIRED 0x06
#define NBT_BRANCH_RETIRED_SEL 5
#define NBT_MMNP (1u << 0)
#define NBT_MMNM (1u << 1)
#define NBT_MMTP (1u << 2)
#define NBT_MMTM (1u << 3)
/* x87_FP_uop: FIRM_ESCR0/1 (FLAME block), CCCR select 01H, event select
 * 04H; ALL (bit 15): all x87 floating-point uops. */
#define NBT_X87_FP_UOP 0x04
#define NBT_X87_FP_UOP_SEL 1
#define NBT_X87_ALL (1u << 15)

/* An ESCR value counting event/emask on thread 0 at CPL 3 (without HT:
 * USR). */
static inline uint64_t nbt_escr_usr(unsigned event, unsigned emask)
{
	return nbt_escr((struct nbt_escr){ .event = event, .emask = emask,
					   .t0_usr = 1 });
}

/* A CCCR value selecting ESCR select sel, active thread ANY. */
static inline uint64_t nbt_cccr_sel_any(unsigned sel)
{
	return nbt_cccr((struct nbt_cccr){ .escr_sel = sel,
					   .active = NBT_ANY });
}

/* ---- the driver, initialised (netburst_driver.c) */

/* The NetBurst driver after nb_init(), or NULL (a SKIP when this CPU has
 * no NetBurst PMU or no backend, a failure when init fails). */
const struct pmu_driver *nb_ready(struct tcase *t);
/* Counter ctr and its CCCR through the driver; a failed read fails t. */
int nbt_read_ctr_cccr(struct tcase *t, unsigned ctr, uint64_t *v,
		      uint64_t *cccr);

static inline const struct cpu_sig *nbt_sig(void)
{
	return &cpu_info()->sig;
}

/* ---- the access trail: what the driver wrote (pmu/backend.h's log;
 * netburst_trail.c) */
#define NBT_TRAIL 128

struct nbt_trail {
	struct be_access a[NBT_TRAIL];
	struct be_log log;
};

static inline void nbt_trail_open(struct nbt_trail *tr)
{
	be_log_open(&tr->log, tr->a, NBT_TRAIL);
}

static inline void nbt_trail_close(void)
{
	be_log_close();
}

/* WRMSRs in the trail (those past its end included). */
unsigned nbt_trail_writes(const struct nbt_trail *tr);
/* The last value the trail shows written to msr: 1, or 0 when none. */
int nbt_trail_last(const struct nbt_trail *tr, uint32_t msr, uint64_t *v);

/* ---- refusals: the driver says no, with a message, and writes nothing
 * (netburst_trail.c) */

/* Checks that rc is a refusal and the trail shows no WRMSR; logs the
 * driver's message under key what. */
void nbt_refused(struct tcase *t, const char *what, int rc,
		 const struct pmu_err *e, const struct nbt_trail *tr);

/* ---- the per-counter log (netburst_log.c) */

/* Logs <label>_ctrN_cccr and <label>_ctrN_escr: the last values the trail
 * shows written to counter ctr's CCCR and to the ESCR its ESCR select
 * names (Table 18-63, nbt_escr_msr()'s), with the ESCR's address.  A
 * register the trail did not see written is read back and marked so. */
void nbt_log_regs(struct tcase *t, const char *label,
		  const struct nbt_trail *tr, unsigned ctr);
/* Logs <label>_ctrN (read) and <label>_ctrN_oracle (expected: the
 * counter's value, or the range of its increment over preset with the
 * reason), and checks got against x (an increment over preset, modulo
 * 2^40). */
int nbt_check_count(struct tcase *t, const char *label, unsigned ctr,
		    uint64_t preset, uint64_t got, const struct pmu_expect *x);
/* The model's count of run r beside the count nbt_check_count() logged
 * under the same label (harness/pmu_run.h pmu_log_model_as). */
void nbt_log_model(struct tcase *t, const char *label,
		   const struct pmu_run *r, unsigned ctr);
/* The whole per-counter record: registers written, count read, count
 * expected. */
int nbt_log_counter(struct tcase *t, const char *label,
		    const struct nbt_trail *tr, unsigned ctr, uint64_t preset,
		    uint64_t got, const struct pmu_expect *x);

/* ---- expectations */

/* A CPL 3 run's count of s as a USR counter sees it: the oracle's, plus
 * what the ring-3 trampoline adds on hardware and under backend=emulated
 * (pmu_ring3_sem_edges(): its CALL and INT; 0 on the model). */
static inline uint64_t nbt_usr_count(const struct oracle_counts *oc,
				     enum sem s)
{
	return oc->c[3][s] + pmu_ring3_sem_edges(SEM_BIT(s));
}

/* An exact expectation. */
static inline struct pmu_expect nbt_exact(uint64_t n)
{
	struct pmu_expect x = { n, n, NULL };

	return x;
}

/* The retirement width: the NetBurst core retires at most three uops per
 * clock (Intel 64 and IA-32 Architectures Optimization Reference Manual,
 * order no. 248966, "Retirement" of the Intel NetBurst
 * microarchitecture), so at most three instructions, branches or uops
 * retire in one clock. */
#define NBT_RETIRE_WIDTH 3

/* A counter Y cascaded from X, X preset K below the wrap, after X saw n
 * (> K) retirement events: n - K exactly on the model, on hardware n - K
 * less up to NBT_RETIRE_WIDTH - 1 (netburst_expect.c says why). */
struct pmu_expect nbt_handoff(uint64_t n, uint64_t k);

#endif
