/* pebs/arming-next-event, pebs/arming-next-event-fault-like: the overflow
 * arms PEBS and the NEXT PEBS event writes the record, checked against
 * values worked out by hand from the benchmark's listing - not from the
 * model, nor from the tests' own tap (pebs_expect.c), which is held to
 * the same literals here.
 *
 * The rule (SDM Vol. 3B, order no. 253669-060US):
 *   - Core 2, §18.6.2.4: "an overflow condition in the counter will arm
 *     PEBS.  On the subsequent event following overflow, the processor
 *     will generate a PEBS event";
 *   - Nehalem/Westmere, §18.8.1.1: "When the counter IA32_PMCx overflows
 *     from maximum count to zero, the PEBS hardware is armed.  Upon
 *     occurrence of the next PEBS event, the PEBS hardware triggers an
 *     assist and causes a PEBS record to be written"; the Sandy Bridge
 *     section (§18.9.4) repeats the Core 2 sentence;
 *   - "the reset value for each overflowed counter is loaded" after the
 *     record (§18.8.1.1, PEBS CounterX Reset): the next overflow is
 *     `reset` events after the assist's event.
 * Only INST_RETIRED.PREC_DIST (C0H/01H on PMC1, Sandy Bridge on) records
 * the overflowing instruction itself; Sandy Bridge on (format 1 there,
 * 2-3 after) therefore sample BR_INST_RETIRED.ALL_BRANCHES (C4H/04H;
 * C4H/00H on the adaptive formats 4-5 of Ice Lake on) here, not
 * instructions; Core 2 and Nehalem/Westmere INST_RETIRED (C0H/00H,
 * C0H/01H).  The adaptive records (formats 4-5) change what a record
 * holds, not when it is written: the same literals, read from the basic
 * group (its IP: the eventing instruction) and the GPR group (RIP, RAX).
 *
 * Trap-like records (IA32_PERF_CAPABILITIES.PEBS_TRAP, bit 6, set: every
 * capability row) hold the IP of the instruction after the eventing one
 * and the registers after it; fault-like ones (bit 6 clear, the model
 * only, by a stand-in) the eventing instruction's IP and the registers
 * before it.  Formats 2-3 also hold the eventing IP (offset B0H, Table
 * 18-44; Table 18-55 for format 3).
 *
 * counted-loop, from `objdump -d` of the built benchmark
 * (bench/x86_64/basic.S, bench/i386/basic.S):
 *	x86_64				i386
 *	+0x0 xor %eax,%eax		+0x0 xor %edx,%edx
 *	+0x2 jmp +0x8			+0x2 jmp +0x7
 *	+0x4 add $1,%rax		+0x4 add $1,%edx
 *	+0x8 cmp %rdi,%rax		+0x7 cmp %eax,%edx
 *	+0xb jb +0x4			+0x9 jb +0x4
 *	+0xd ret			+0xb ret
 * The loop counter is RAX on x86_64, EDX on i386.  With n = 20 it
 * retires 65 instructions: 1 xor, 2 jmp, then cmp/jb at 3/4, and for
 * k = 1..20 the add at 3k+2 (counter = k), cmp at 3k+3, jb at 3k+4
 * (taken while k < 20), the ret at 65.
 *
 * Instructions, period and reset 7 (Core 2, Nehalem/Westmere):
 *   overflow at instruction 7 (jb, counter 1), record at 8 (add, counter
 *   1 -> 2): trap-like IP = the cmp, counter 2; fault-like IP = the add,
 *   counter 1.  Reload, overflow at 15 (cmp), record at 16 (jb, taken,
 *   counter 4): trap-like IP = the add (+0x4), fault-like the jb; counter
 *   4 both.  Records at 8, 16, ..., 64: 8 of them.  (Recording at the
 *   overflowing event instead gives 9, the first at instruction 7:
 *   IP +0x4, counter 1.)
 * Branches, period and reset 7 (Sandy Bridge on, formats 1-3): the branches are the jmp
 *   (instruction 2), the 21 jbs (3k+4, k = 0..20) and the ret.  Overflow
 *   at branch 7 (instruction 19), record at branch 8 (instruction 22, jb
 *   taken, counter 6); reload, overflow at branch 15, record at branch 16
 *   (instruction 46, jb taken, counter 14); the third overflow is at
 *   branch 23, the ret, with no branch after it: 2 records.  Trap-like IP
 *   +0x4 (the jb's target), fault-like the jb; eventing IP the jb.
 *
 * pebs/arming-pdir: INST_RETIRED.PREC_DIST (C0H/01H) on PMC1, Sandy
 * Bridge to Skylake, period and reset 7.  Precise distribution records
 * the instruction that caused the overflow, no skid (SDM Vol. 3B
 * §18.9.4.4 "Precise Distribution of Instructions Retired (PDIR)"; PEBS
 * for it must use IA32_PMC1):
 *   overflow and record at instruction 7 (jb, k = 1, taken, counter 1):
 *   trap-like IP = the add (+0x4, the jb's target), counter 1, eventing
 *   IP the jb (+0xb x86_64); fault-like IP = the jb, counter 1 (the jb
 *   does not write it).  Reload, overflow and record at 14 (add, k = 4,
 *   counter 3 -> 4): trap-like IP = the cmp, counter 4, eventing IP the
 *   add; fault-like IP = the add, counter 3.  Records at 7, 14, ..., 63
 *   (63 = 3 * 20 + 3, the last cmp): 9 of them.  (The next-event rule
 *   instead gives 8, the first at instruction 8: IP the cmp, counter 2.)
 * pebs/refuse-pdir-pmc0: the same event on PMC0 is refused, and
 *   IA32_PEBS_ENABLE stays 0.
 *
 * pebs/arming-pdist-pmc0: Sapphire Rapids and Emerald Rapids make PEBS on
 * IA32_PMC0 "PDist": "the PEBS record is generated for the instruction
 * that caused the overflow", with no "wait for next occurrence" (the SDM's
 * Sapphire Rapids PEBS text as KVM commit 974850be0125 quotes it; Linux
 * spr_get_event_constraints()), for any precise event (pebs_sdm.c
 * sdm_pdist_pmc0()).  Tremont's reduced-skid PEBS on PMC0 is the same
 * rule: the machine traps "on the instruction that actually caused the
 * counter overflow" for "all precise events including INST_RETIRED" (the
 * mechanism as SDM Vol. 3, 325384-059US, §18.7.1.2 gives it for Goldmont;
 * Tremont's PMC0 and fixed counter 0 have it: Linux
 * tnt_get_event_constraints(), commit 6daeb8737f8a), and C4H/00H is one
 * of its precise events (Goldmont's Table 18-19; Linux snowridgex
 * pipeline.json "PEBS": "1"): the same literals.  There
 * pebs/arming-next-event samples on PMC1, which keeps the next-event
 * rule.  All branches (C4H/00H, adaptive format),
 * period and reset 7, on PMC0:
 *   overflow and record at branch 7 (instruction 19, the jb of k = 5,
 *   taken, counter 5): trap-like IP the add (+0x4, the jb's target),
 *   eventing IP the jb; fault-like IP the jb; counter 5 both.  Reload,
 *   overflow and record at branch 14 (the jb of k = 12, counter 12), then
 *   21 (k = 19, counter 19); branch 28 is past the 23rd, the ret: 3
 *   records.  (The next-event rule instead gives 2, the first at branch
 *   8, counter 6: br_trap above.)
 *   With the trampoline's CALL counted first (backend=hw, emulated): the
 *   routine's branches 6, 13, 20 (the jbs of k = 4, 11, 18): IP the add,
 *   counter 4 and 11, 3 records. */
#include "pebs_test.h"
#include "../../harness/pmu_run.h"
#include "../../lib/fmt.h"

#ifdef __x86_64__
#define CL_ADD 0x4u
#define CL_CMP 0x8u
#define CL_JB 0xbu
#define CL_REG S_AX
#define CL_REG_NAME "RAX"
#else
#define CL_ADD 0x4u
#define CL_CMP 0x7u
#define CL_JB 0x9u
#define CL_REG S_DX
#define CL_REG_NAME "EDX"
#endif

#define PERIOD 7u
#define N_ITER 20u

/* What the first two records hold, and how many there are. */
struct arming_want {
	unsigned records;
	unsigned ip[2];		/* offsets into counted-loop */
	unsigned eventing_ip[2];
	uint64_t counter[2];	/* the loop counter (CL_REG) */
};

static const struct arming_want inst_trap = {
	.records = 8, .ip = { CL_CMP, CL_ADD },
	.eventing_ip = { CL_ADD, CL_JB }, .counter = { 2, 4 },
};

static const struct arming_want inst_fault = {
	.records = 8, .ip = { CL_ADD, CL_JB },
	.eventing_ip = { CL_ADD, CL_JB }, .counter = { 1, 4 },
};

static const struct arming_want pdir_trap = {
	.records = 9, .ip = { CL_ADD, CL_CMP },
	.eventing_ip = { CL_JB, CL_ADD }, .counter = { 1, 4 },
};

static const struct arming_want pdir_fault = {
	.records = 9, .ip = { CL_JB, CL_ADD },
	.eventing_ip = { CL_JB, CL_ADD }, .counter = { 1, 3 },
};

static const struct arming_want br_trap = {
	.records = 2, .ip = { CL_ADD, CL_ADD },
	.eventing_ip = { CL_JB, CL_JB }, .counter = { 6, 14 },
};

static const struct arming_want br_fault = {
	.records = 2, .ip = { CL_JB, CL_JB },
	.eventing_ip = { CL_JB, CL_JB }, .counter = { 6, 14 },
};

static const struct arming_want pdist_trap = {
	.records = 3, .ip = { CL_ADD, CL_ADD },
	.eventing_ip = { CL_JB, CL_JB }, .counter = { 5, 12 },
};

static const struct arming_want pdist_fault = {
	.records = 3, .ip = { CL_JB, CL_JB },
	.eventing_ip = { CL_JB, CL_JB }, .counter = { 5, 12 },
};

/*
 * On hardware (and under backend=emulated) a CPL 3 run also counts the
 * ring-3 trampoline's CALL into the routine before its first instruction
 * and its INT after the last (harness/pmu_run.h PMU_RING3_EDGES,
 * arch/x86/<mode>/ring3_entry.S): one instruction and one branch each, at
 * CPL 3.  So the first overflow comes one event of the routine earlier,
 * and the rest follow from it.  From the same listing, trap-like (the
 * record kind of every capability row):
 *   instructions: overflow at instruction 6 (cmp, k = 1), record at 7
 *   (jb, taken, counter 1): IP the add (+0x4), eventing IP the jb;
 *   reload, overflow at 14 (add, counter 3 -> 4), record at 15 (cmp): IP
 *   the jb, eventing IP the cmp, counter 4.  Records at 7, 15, ..., 63:
 *   8; the next overflow would be at 70, past the INT (66).
 *   PDIR: overflow and record at 6 (cmp, k = 1): IP the jb, eventing IP
 *   the cmp, counter 1; reload, at 13 (jb, k = 3, taken): IP the add,
 *   eventing IP the jb, counter 3.  Records at 6, 13, ..., 62: 9.
 *   branches (the CALL is the first): overflow at the routine's branch 6
 *   (the jb of k = 4), record at branch 7 (the jb of k = 5, taken): IP
 *   the add, eventing IP the jb, counter 5; reload, overflow at branch 14,
 *   record at 15 (k = 13, counter 13); overflow at branch 22 (the last
 *   jb, k = 20), record at branch 23, the ret: 3 records (the model's
 *   run of the routine alone has 2).
 * The tests' tap (pebs_expect.c) traces the routine alone on every
 * backend, and is held to the literals above (the routine alone).
 */
static const struct arming_want inst_trap_hw = {
	.records = 8, .ip = { CL_ADD, CL_JB },
	.eventing_ip = { CL_JB, CL_CMP }, .counter = { 1, 4 },
};

static const struct arming_want pdir_trap_hw = {
	.records = 9, .ip = { CL_JB, CL_ADD },
	.eventing_ip = { CL_CMP, CL_JB }, .counter = { 1, 3 },
};

static const struct arming_want br_trap_hw = {
	.records = 3, .ip = { CL_ADD, CL_ADD },
	.eventing_ip = { CL_JB, CL_JB }, .counter = { 5, 13 },
};

static const struct arming_want pdist_trap_hw = {
	.records = 3, .ip = { CL_ADD, CL_ADD },
	.eventing_ip = { CL_JB, CL_JB }, .counter = { 4, 11 },
};

/* What the records of a run of w's case are on this backend: w itself
 * on the model (the routine alone); on hardware its _hw twin (fault-like
 * runs need the model: they never get here on hardware). */
static const struct arming_want *on_backend(const struct arming_want *w)
{
	if (pmu_on_model())
		return w;
	return w == &inst_trap ? &inst_trap_hw :
	       w == &pdir_trap ? &pdir_trap_hw :
	       w == &br_trap ? &br_trap_hw :
	       w == &pdist_trap ? &pdist_trap_hw : w;
}

/* Nehalem and Westmere, by DisplayFamily_DisplayModel (SDM Vol. 4,
 * order no. 335592, Table 2-1: 06_1AH, 06_1EH, 06_1FH, 06_2EH Nehalem;
 * 06_25H, 06_2CH, 06_2FH Westmere): there C0H/01H is INST_RETIRED.ANY_P;
 * Sandy Bridge, also format 1, makes it INST_RETIRED.PREC_DIST (PMC1,
 * the other rule). */
static int nehalem_westmere(void)
{
	static const uint8_t dm[] = { 0x1a, 0x1e, 0x1f, 0x2e, 0x25, 0x2c,
				      0x2f };
	const struct cpu_sig *s = &cpu_info()->sig;

	for (unsigned k = 0; s->family == 6 && k < sizeof(dm); k++)
		if (s->model == dm[k])
			return 1;
	return 0;
}

/* The event for fmt, and the literals for it; 0 where not covered:
 * instructions on Core 2 (format 0) and Nehalem/Westmere, all branches
 * on the other formats 1-3. */
static const struct arming_want *arming_case(unsigned fmt, int trap,
					     struct sdm_event *ev)
{
	if (fmt == 0 || (fmt == 1 && nehalem_westmere())) {
		sdm_inst_event(fmt, ev);	/* C0H/00H Core 2, 01H NHM */
		return trap ? &inst_trap : &inst_fault;
	}
	/* formats 4-5 (Ice Lake on): the same rule, the adaptive record's
	 * basic group and GPR group holding the IP and RAX (adaptive_field) */
	if ((fmt <= 3 || !pebs_ds32()) && sdm_branch_event(fmt, ev))
		return trap ? &br_trap : &br_fault;
	return 0;
}

/* Formats 4-5: the record is the basic group, then the GPR group
 * (MSR_PEBS_DATA_CFG bit 1, with the counter's Adaptive_Record).  The
 * basic group's instruction pointer (08H) is the eventing instruction's
 * (there is no separate EventingIP field); the GPR group holds RFLAGS,
 * RIP and RAX at 00H, 08H, 10H, the state after the instruction for a
 * trap-like record (SDM Vol. 3B, adaptive PEBS record layout, Basic Info
 * and GPRs groups; Linux `struct pebs_basic` / `struct pebs_gprs`). */
#define ADAPTIVE_GPRS_CFG 0x2ull
static uint64_t adaptive_field(const struct pebs_run *r, unsigned i,
			       unsigned f)
{
	struct sdm_adaptive a = sdm_adaptive_of(r);

	return pebs_run_field(r, i, f == S_EIP ? 0x08 :
			      a.gprs + (f == S_IP ? 0x08 : 0x10));
}

/* A field of record i: 4 bytes in the 32-bit DS format, else 8. */
static uint64_t field(const struct pebs_run *r, unsigned fmt, unsigned i,
		      unsigned f)
{
	if (fmt >= 4 && !pebs_ds32())
		return adaptive_field(r, i, f);
	if (pebs_ds32())
		return (uint32_t)pebs_run_field(r, i,
					(unsigned)sdm_pebs32_offset(f));
	return pebs_run_field(r, i, (unsigned)sdm_pebs_offset(fmt, f));
}

static void check_record(struct tcase *t, const struct pebs_run *r,
			 unsigned fmt, unsigned i,
			 const struct arming_want *w)
{
	uint64_t ip = field(r, fmt, i, S_IP);
	uint64_t reg = field(r, fmt, i, CL_REG);

	/* the fields are in the log by pebs_run (pebs_log.c: record<i>_ip,
	 * record<i>_rax, record<i>_eventing_ip, ...) */
	check(t, ip == r->range_lo + w->ip[i], "record %u IP counted-loop"
	      "+0x%llx, the listing says +0x%x", i,
	      (unsigned long long)(ip - r->range_lo), w->ip[i]);
	check(t, reg == w->counter[i], "record %u " CL_REG_NAME " 0x%llx, "
	      "the listing says 0x%llx", i, (unsigned long long)reg,
	      (unsigned long long)w->counter[i]);
	if (fmt < 2 || pebs_ds32())
		return;		/* the eventing IP: formats 2 on */
	ip = field(r, fmt, i, S_EIP);
	check(t, ip == r->range_lo + w->eventing_ip[i], "record %u eventing "
	      "IP counted-loop+0x%llx, the listing says +0x%x", i,
	      (unsigned long long)(ip - r->range_lo), w->eventing_ip[i]);
}

static void run_want(struct tcase *t, unsigned fmt, int trap,
		     const struct sdm_event *ev, unsigned pmc,
		     const struct arming_want *w)
{
	struct pebs_run *r = pebs_run_mem();
	const struct arming_want *hw = on_backend(w);
	uint64_t got;

	*r = (struct pebs_run){ .bench = "counted-loop", .n = N_ITER,
		.cpl = 3, .n_ctr = 1, .capacity = 24 };
	r->ctr[0] = (struct pebs_ctr){ .bit = pmc, .sem = ev->sem,
		.sel = sdm_gp_sel(ev, 1, 0), .period = PERIOD,
		.reload = PERIOD, .pdir = w == &pdir_trap || w == &pdir_fault };
	value(t, "event", "%02XH/%02XH on PMC%u, period and reset %u, "
	      "counted-loop n=%u, CPL 3", ev->event, ev->umask, pmc, PERIOD,
	      N_ITER);
	value(t, "record_kind", "%s", trap ? "trap-like" : "fault-like");
	if (fmt >= 4 && !pebs_ds32()) {
		r->cfg = ADAPTIVE_GPRS_CFG;
		r->ctr[0].adaptive = 1;
	}
	if (!pebs_run(t, r))
		return;
	if (!check(t, r->record_size == (fmt >= 4 && !pebs_ds32() ?
					SDM_BASIC + SDM_GPRS :
					sdm_pebs_plain_size(fmt)),
		   "record size %u, the SDM's", r->record_size))
		return;
	got = (r->index - r->base) / r->record_size;
	value(t, "records", "%llu", (unsigned long long)got);
	if (backend_current()->id == BE_HW) {	/* skid: docs/pebs.md */
		pebs_check_hw(t, r, fmt, r->record_size, hw->records);
		return;
	}
	check(t, got == hw->records, "%llu records, the listing says %u%s",
	      (unsigned long long)got, hw->records, hw != w ? " (with the "
	      "trampoline's CALL counted first)" : "");
	/* the tap reads what the counter counts: under backend=emulated the
	 * counting window (the trampoline's CALL first), else the routine */
	check(t, r->n_exp == (backend_current()->id == BE_EMULATED ?
			     hw->records : w->records), "the tests' tap "
	      "(pebs_expect.c) asks for %u records, the listing says %u",
	      r->n_exp, backend_current()->id == BE_EMULATED ? hw->records :
	      w->records);
	for (unsigned i = 0; i < 2 && i < got; i++)
		check_record(t, r, fmt, i, hw);
}

static void run_arming(struct tcase *t, unsigned fmt, int trap)
{
	struct sdm_event ev;
	const struct arming_want *w = arming_case(fmt, trap, &ev);

	if (!w) {
		skip(t, "format %u in the 32-bit DS format: no adaptive "
		     "records there", fmt);
		return;
	}
	/* PMC0 is PDist there: the next-event rule on PMC1 */
	run_want(t, fmt, trap, &ev, sdm_pdist_pmc0() ? 1 : 0, w);
}


/* The CPU's own record kind (trap-like on every capability row). */
static void test_arming(struct tcase *t)
{
	unsigned fmt;
	int trap;

	if (pebs_ready(t, &fmt, &trap))
		run_arming(t, fmt, trap);
}

/* Fault-like (PEBS_TRAP clear): the model, standing in; run(t, fmt, 0)
 * under it. */
static void fault_like(struct tcase *t,
		       void (*run)(struct tcase *, unsigned, int))
{
	const struct perfmon_caps *c;
	struct perfmon_caps fault;
	unsigned fmt;
	int trap;

	if (!(c = pebs_ready_quiet(t, &fmt, &trap)))
		return;
	if (!trap || !pmu_on_model())
		pebs_log_caps(t);
	if (!trap) {
		run(t, fmt, 0);
		return;
	}
	if (!pmu_on_model()) {
		skip(t, "the record kind is the CPU's own (PEBS_TRAP=1); "
		     "fault-like needs the model");
		return;
	}
	fault = *c;
	fault.perf_caps &= ~(1ull << 6);
	fault.source = "model:fault-like";
	if (!check(t, perfmon_caps_stand_in(&fault) == 0, "stand-in"))
		return;
	pebs_log_caps(t);	/* the stand-in's: PEBS_TRAP clear */
	run(t, fmt, 0);
	perfmon_caps_stand_in(0);
}

static void test_arming_fault(struct tcase *t)
{
	fault_like(t, run_arming);
}

/* INST_RETIRED.PREC_DIST on PMC1 where the row has PDIR. */
static void run_pdir(struct tcase *t, unsigned fmt, int trap)
{
	struct sdm_event ev;

	if (!sdm_pdir_row(fmt) || pebs_ds32()) {
		skip(t, "format %u%s: no INST_RETIRED.PREC_DIST (PDIR is "
		     "Sandy Bridge to Skylake, SDM Vol. 3B 18.9.4.4)%s", fmt,
		     sdm_pdir_row(fmt) ? "" : " on this row",
		     pebs_ds32() ? "; the 32-bit DS format has PEBS on PMC0 "
		     "only" : "");
		return;
	}
	sdm_inst_event(fmt, &ev);
	run_want(t, fmt, trap, &ev, 1, trap ? &pdir_trap : &pdir_fault);
}

static void test_pdir(struct tcase *t)
{
	unsigned fmt;
	int trap;

	if (pebs_ready(t, &fmt, &trap))
		run_pdir(t, fmt, trap);
}

static void test_pdir_fault(struct tcase *t)
{
	fault_like(t, run_pdir);
}

/* PDist on PMC0 where the CPU has it: all branches. */
static void run_pdist(struct tcase *t, unsigned fmt, int trap)
{
	struct sdm_event ev;

	if (!sdm_pdist_pmc0()) {
		skip(t, "PDist on PMC0 unavailable: CPUID family %u model 0x%x "
		     "is no Sapphire Rapids or Emerald Rapids (06_8FH, "
		     "06_CFH) and no Tremont (06_86H, 06_96H, 06_9CH: "
		     "reduced skid)", cpu_info()->sig.family,
		     cpu_info()->sig.model);
		return;
	}
	if (pebs_ds32() || !sdm_branch_event(fmt, &ev)) {
		skip(t, "the 32-bit DS format (no DTES64, or not IA-32e mode) "
		     "has no adaptive records");
		return;
	}
	run_want(t, fmt, trap, &ev, 0, trap ? &pdist_trap : &pdist_fault);
}

static void test_pdist(struct tcase *t)
{
	unsigned fmt;
	int trap;

	if (pebs_ready(t, &fmt, &trap))
		run_pdist(t, fmt, trap);
}

static void test_pdist_fault(struct tcase *t)
{
	fault_like(t, run_pdist);
}

/* PREC_DIST on PMC0: refused, IA32_PEBS_ENABLE untouched. */
static void test_pdir_pmc0(struct tcase *t)
{
	static uint8_t area[1024] __attribute__((aligned(64)));
	static uint8_t buf[4096] __attribute__((aligned(4096)));
	struct perfmon_ds s = { .area = area, .use_pebs = 1 };
	uint64_t b = (uintptr_t)buf, en = 1;
	struct sdm_event ev;
	struct pmu_err e;
	unsigned fmt;
	int trap, rc;

	if (!pebs_ready(t, &fmt, &trap))
		return;
	if (!sdm_pdir_row(fmt)) {
		skip(t, "format %u: C0H/01H is no PREC_DIST on this row", fmt);
		return;
	}
	sdm_inst_event(fmt, &ev);
	s.pebs = (struct ds_buffer){ b, b, b + 4 * sdm_pebs_plain_size(fmt),
				     b + 3 * sdm_pebs_plain_size(fmt) };
	if (!check(t, perfmon_driver.init(&e) == 0, "init: %s", e.msg) ||
	    !check(t, perfmon_pebs_buffer(&s, &e) == 0 &&
		   perfmon_ds_install(&s, &e) == 0, "install: %s", e.msg))
		return;
	if (check(t, be_wrmsr(MSR_IA32_PERFEVTSEL(0), sdm_gp_sel(&ev, 1, 0))
		  == 0, "WRMSR PERFEVTSEL0")) {
		rc = perfmon_pebs_enable(1, 0, &e);
		value(t, "refusal", "%s", rc ? e.msg : "(accepted)");
		check(t, rc != 0, "INST_RETIRED.PREC_DIST on PMC0 accepted: "
		      "PDIR must use IA32_PMC1 (SDM Vol. 3B 18.9.4.4)");
		rc = be_rdmsr(MSR_IA32_PEBS_ENABLE, &en);
		check(t, rc == 0 && en == 0, "IA32_PEBS_ENABLE 0x%llx (vector "
		      "%d) after the refusal", (unsigned long long)en, rc);
	}
	(void)perfmon_ds_remove(&e);
	(void)perfmon_driver.init(&e);
}

TEST(pebs_arming, "pebs/arming-next-event",
     "the overflow arms PEBS, the next event writes the record: counted-"
     "loop's records at the listing's hand-computed IPs and counters",
     test_arming, 0);
TEST(pebs_arming_fault, "pebs/arming-next-event-fault-like",
     "fault-like PEBS (PEBS_TRAP clear): the next event's own IP and the "
     "registers before it",
     test_arming_fault, 0);
TEST(pebs_arming_pdist, "pebs/arming-pdist-pmc0",
     "Sapphire Rapids' PDist, Tremont's reduced skid: PEBS on PMC0 "
     "records the overflowing instruction: counted-loop's records at the "
     "listing's hand-computed IPs", test_pdist, 0);
TEST(pebs_arming_pdist_fault, "pebs/arming-pdist-pmc0-fault-like",
     "PDist, fault-like (PEBS_TRAP clear): the overflowing branch's own "
     "IP and the registers before it", test_pdist_fault, 0);
TEST(pebs_arming_pdir, "pebs/arming-pdir",
     "INST_RETIRED.PREC_DIST on PMC1 records the overflowing instruction: "
     "counted-loop's records at the listing's hand-computed IPs",
     test_pdir, 0);
TEST(pebs_arming_pdir_fault, "pebs/arming-pdir-fault-like",
     "PDIR, fault-like (PEBS_TRAP clear): the overflowing instruction's "
     "own IP and the registers before it", test_pdir_fault, 0);
TEST(pebs_ref_pdir, "pebs/refuse-pdir-pmc0",
     "INST_RETIRED.PREC_DIST on PMC0 is refused (PMC1 only)",
     test_pdir_pmc0, 0);
