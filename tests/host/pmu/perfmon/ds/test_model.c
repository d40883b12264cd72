/* Conformance of the DS save area and PEBS as the architectural-perfmon
 * reference model implements them (pmu/perfmon/model.c routing
 * IA32_DS_AREA, IA32_PEBS_ENABLE to pmu/perfmon/ds/model.c and the PEBS
 * assist to pmu/perfmon/pebs/model.c), driven through the model's MSR
 * interface alone (struct pmu_model: reset, rdmsr, wrmsr, rdpmc, event)
 * with scripted steps, without the driver.  On the host a linear address
 * is a host pointer: the suite writes the DS area bytes itself, at the
 * offsets the SDM gives, and reads the records back from its own buffer.
 *
 * Restated here, never taken from pmu/perfmon/{ds,pebs}/regs.c (SDM Vol.
 * 3B, order no. 253669-060US, unless said):
 *   - the 64-bit DS save area (§17.4.9.1 and its 64-bit DS save area
 *     figure; Figure 18-22 for Nehalem): PEBS buffer base 20H, index 28H,
 *     absolute maximum 30H, interrupt threshold 38H, PEBS counter n reset
 *     40H + 8n (formats 0-3: counters 0-3; the 8 GP slots of the adaptive
 *     formats, later editions, start there too);
 *   - PEBS arming (§18.8.1.1): "When the counter IA32_PMCx overflows from
 *     maximum count to zero, the PEBS hardware is armed.  Upon occurrence
 *     of the next PEBS event, the PEBS hardware triggers an assist and
 *     causes a PEBS record to be written", then "the reset value for each
 *     overflowed counter is loaded" from the DS area;
 *   - the index: the record goes at the PEBS index and the index then
 *     holds "the address of the next PEBS record to be written" (one
 *     record further); "The processor will not write any PEBS record
 *     beyond the end of PEBS buffer ... No signaling is generated when
 *     PEBS buffer is full" (§18.8.1.1);
 *   - the threshold: a record that brings the index to the interrupt
 *     threshold raises the DS interrupt, IA32_PERF_GLOBAL_STATUS bit 62
 *     OvfBuffer (§18.2.2, the GLOBAL_STATUS figure; §18.8.1.1);
 *   - the record formats: 0 (Core 2, §18.6.2.4, 90H bytes), 1 (Table
 *     18-23, B0H), 3 (Table 18-55, C8H; 90H holds the applicable PEBS
 *     counters); the adaptive basic group (format 4, later editions: 20H
 *     bytes, size in bits 63:48 of its first quadword, applicable
 *     counters at 10H); 90H of format 1 is "the state of the
 *     IA32_PERF_GLOBAL_STATUS register before the PEBS assist ...
 *     regardless of whether they were programmed for PEBS or not";
 *   - PEBS_TRAP, IA32_PERF_CAPABILITIES bit 6, PEBS record format bits
 *     11:8 (§18.6.2.4 and the IA32_PERF_CAPABILITIES figure): with the
 *     trap bit the record holds the state after the instruction and
 *     R/EIP is the next instruction's; the eventing IP (format 2 on) is
 *     the instruction's own;
 *   - the counters IA32_PEBS_ENABLE may name: Core 2 PMC0 only
 *     (§18.6.2.4), Nehalem to Skylake PMC0-3 (§18.8.1.1, Figure 18-17),
 *     Ice Lake (extended PEBS, later editions) every GP counter and the
 *     fixed counters at bit 32 + i; a bit beyond #GP (Vol. 2B WRMSR).
 * The CPUs and their IA32_PERF_CAPABILITIES are the real parts' values
 * (model_test.h says where from); the suite checks the model reports
 * them, then uses its own copy. */
#include <stdio.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/host/pmu/perfmon/model_test.h"

/* host-sources: tests/host/pmu/perfmon/stub_model.c pmu/model.c pmu/noise.c pmu/perfmon/regs.c pmu/perfmon/events.c pmu/perfmon/caps_table.c pmu/perfmon/ds/model.c pmu/perfmon/ds/regs.c pmu/lbr_model.c pmu/lbr.c tests/host/pmu/stub_pmu_access.c pmu/perfmon/lbr/layout.c pmu/perfmon/lbr/events.c pmu/perfmon/bts/model.c pmu/perfmon/pebs/model.c pmu/perfmon/pebs/events.c pmu/perfmon/pebs/regs.c pmu/pt/model.c pmu/pt/gen.c pmu/pt/caps.c lib/pt/encode.c arch/x86/decode.c pmu/evtsel.c pmu/sem.c pmu/cpu_model.c lib/fmt.c lib/string.c pmu/emufault.c lib/escape.c */

/* ---- MSRs (Vol. 4 Table 2-2) */
#define DS_AREA 0x600u
#define PEBS_ENABLE 0x3f1u

/* ---- the 64-bit DS save area (§17.4.9.1) */
#define DS_PEBS_BASE 0x20u
#define DS_PEBS_INDEX 0x28u
#define DS_PEBS_MAX 0x30u
#define DS_PEBS_THRESH 0x38u
#define DS_RESET(n) (0x40u + 8u * (n))

/* ---- the record fields the suite reads (formats 0-3: 8 bytes each in
 * the order RFLAGS, RIP, RAX, RBX, RCX, RDX, RSI, RDI, RBP, RSP, R8-R15,
 * then format 1's GLOBAL_STATUS at 90H; Table 18-23) */
#define R_FLAGS 0x00u
#define R_IP 0x08u
#define R_STATUS 0x90u		/* format 3: applicable counters */
#define R_EVENTING_IP 0xb0u	/* format 2 on (Table 18-44) */
#define R_TSC 0xc0u		/* format 3 (Table 18-55) */
/* The register each slot from 10H on holds, by encoding number (RAX 0,
 * RCX 1, RDX 2, RBX 3, RSP 4, RBP 5, RSI 6, RDI 7, R8-R15 8-15). */
static const unsigned rec_gpr[16] = { 0, 3, 1, 2, 6, 7, 5, 4,
				      8, 9, 10, 11, 12, 13, 14, 15 };
#define R_GPR(k) (0x10u + 8u * (k))

/* The adaptive basic group (format 4). */
#define B_FORMAT_SIZE 0x00u
#define B_IP 0x08u
#define B_APPLICABLE 0x10u
#define B_SIZE_SHIFT 48

/* The PEBS CPUs (model_test.h pm_cpus has the CPUID.0AH side). */
struct ds_cpu {
	const char *name;
	unsigned model;
	uint64_t perf_caps;	/* the real part's IA32_PERF_CAPABILITIES */
	unsigned fmt;		/* its bits 11:8 */
	unsigned gp, gp_width, version;
	uint64_t pebs_ctrs;	/* PEBS_ENABLE counter bits (GLOBAL
				 * numbering) */
	unsigned rec;		/* bytes of a record, MSR_PEBS_DATA_CFG 0 */
	uint8_t inst_umask;	/* the precise instructions-retired event
				 * C0H with this unit mask */
	int pdir;		/* C0H/01H is INST_RETIRED.PREC_DIST: on PMC1
				 * its record is at the overflowing
				 * instruction (SDM Vol. 3B §18.9.4.4) */
};

static const struct ds_cpu ds_cpus[] = {
	/* PERF_CAP C1H: format 0, trap; PEBS on PMC0 only; 144 bytes;
	 * INST_RETIRED.ANY_P C0H/00H */
	{ .name = "Core 2 06_0FH", .model = 0x0f, .perf_caps = 0xc1,
	  .fmt = 0, .gp = 2, .gp_width = 40, .version = 2,
	  .pebs_ctrs = 0x1, .rec = 0x90, .inst_umask = 0x00 },
	/* 11C3H: format 1, trap; PMC0-3; 176 bytes; C0H/01H (Table 18-10) */
	{ .name = "Nehalem 06_1AH", .model = 0x1a, .perf_caps = 0x11c3,
	  .fmt = 1, .gp = 4, .gp_width = 48, .version = 3,
	  .pebs_ctrs = 0xf, .rec = 0xb0, .inst_umask = 0x01 },
	/* 31C3H: format 1, trap */
	{ .name = "Sandy Bridge 06_2AH", .model = 0x2a, .perf_caps = 0x31c3,
	  .fmt = 1, .gp = 4, .gp_width = 48, .version = 3,
	  .pebs_ctrs = 0xf, .rec = 0xb0, .inst_umask = 0x01, .pdir = 1 },
	/* 33C5H: format 3, trap; 200 bytes */
	{ .name = "Skylake 06_5EH", .model = 0x5e, .perf_caps = 0x33c5,
	  .fmt = 3, .gp = 4, .gp_width = 48, .version = 4,
	  .pebs_ctrs = 0xf, .rec = 0xc8, .inst_umask = 0x01, .pdir = 1 },
	/* F4C5H: format 4, trap, PEBS_BASELINE (bit 14); 8 GP counters and
	 * fixed 0-3; the basic group alone, 32 bytes; C0H/00H */
	{ .name = "Ice Lake server 06_6AH", .model = 0x6a,
	  .perf_caps = 0xf4c5, .fmt = 4, .gp = 8, .gp_width = 48,
	  .version = 5, .pebs_ctrs = 0xffull | 0xfull << 32, .rec = 0x20,
	  .inst_umask = 0x00 },
};

#define PEBS_TRAP (1ull << 6)
#define OVF_BUFFER (1ull << 62)
#define NEVER 1000u		/* a threshold the tests never reach */
#define GUARD 0x200u		/* bytes past the maximum kept 0xa5 */

static _Alignas(64) uint8_t ds[0x100];
static _Alignas(64) uint8_t buf[8 * 0x100 + GUARD];

static uint64_t get64(const uint8_t *p, unsigned off)
{
	uint64_t v;

	memcpy(&v, p + off, 8);
	return v;
}

static void put64(uint8_t *p, unsigned off, uint64_t v)
{
	memcpy(p + off, &v, 8);
}

static uint64_t rd(const struct ds_cpu *c, uint32_t msr)
{
	uint64_t v;
	int vec = pm_rd(msr, &v);

	EXPECT(c, vec == 0, "RDMSR %#x: fault %d", (unsigned)msr, vec);
	return v;
}

static uint64_t buf_at(unsigned bytes)
{
	return (uint64_t)(uintptr_t)buf + bytes;
}

static uint64_t index_now(void)
{
	return get64(ds, DS_PEBS_INDEX);
}

/* Records written so far, by the index. */
static unsigned records(const struct ds_cpu *c)
{
	return (unsigned)((index_now() - buf_at(0)) / c->rec);
}

/* The model stands in for c (it must report c's PERF_CAPABILITIES); the
 * DS area has the buffer at its base, room for max records, the
 * threshold at thresh records, the reset slot of PMCn = reset - n (each
 * slot its own value, so that a slot read for another shows). */
static void ds_setup(const struct ds_cpu *c, unsigned max, unsigned thresh,
		     uint64_t reset)
{
	uint64_t caps;

	stub_pm_cpu(6, c->model);
	pm = model_for(PMU_ARCH);
	assert_non_null(pm);
	model_activate(pm);
	stub_pm.ds_memory = 1;
	caps = rd(c, PERF_CAPABILITIES);
	/* but bit 15, PERF_METRICS, which the model does not have and so
	 * does not advertise (docs/perfmon.md) */
	EXPECT(c, caps == (c->perf_caps & ~(1ull << 15)), "PERF_CAPABILITIES "
	       "%#llx, the part reports %#llx", (unsigned long long)caps,
	       (unsigned long long)c->perf_caps);
	EXPECT(c, (caps >> 8 & 0xf) == c->fmt && (caps & PEBS_TRAP),
	       "PEBS format/trap");
	memset(ds, 0, sizeof(ds));
	memset(buf, 0xa5, sizeof(buf));
	put64(ds, DS_PEBS_BASE, buf_at(0));
	put64(ds, DS_PEBS_INDEX, buf_at(0));
	put64(ds, DS_PEBS_MAX, buf_at(max * c->rec));
	put64(ds, DS_PEBS_THRESH, buf_at(thresh * c->rec));
	for (unsigned n = 0; n < 8; n++)
		put64(ds, DS_RESET(n), reset - n);
	WR(c, DS_AREA, (uint64_t)(uintptr_t)ds);
}

/* The counter value `left` events below the wrap: the left-th event
 * overflows it.  Written through IA32_PMCx, whose bits 31:0 sign-extend
 * to the width (§18.2.1, Vol. 2B WRMSR). */
static uint64_t below_wrap(const struct ds_cpu *c, unsigned left)
{
	return pm_max(c->gp_width) - (left - 1);
}

/* GP counters in mask count instructions retired (the precise event C0H
 * with the CPU's unit mask, USR and OS, INT clear) from `left` events
 * below the wrap; those in pebs also have their PEBS_ENABLE bit. */
static void arm(const struct ds_cpu *c, uint64_t mask, uint64_t pebs,
		unsigned left)
{
	for (unsigned n = 0; n < c->gp; n++) {
		if (!(mask >> n & 1))
			continue;
		WR(c, EVTSEL(n), 0);
		WR(c, PMC(n), below_wrap(c, left) & 0xffffffffull);
		WR(c, EVTSEL(n), EV(0xc0, c->inst_umask) | USR | OS | EN);
	}
	WR(c, PEBS_ENABLE, pebs);
	WR(c, GLOBAL_CTRL, mask);
}

/* Step k of the script: one retired instruction at 0x2000 + 4k, the
 * registers after it distinct per step and per register. */
static struct step_regs regs_after(unsigned k)
{
	struct step_regs r = { .rflags = 0x202 | (uint64_t)(k & 1) << 7 };

	for (unsigned i = 0; i < 16; i++)
		r.gpr[i] = (uint64_t)(k + 1) << 32 | 0x100u * (k + 1) | i;
	r.rip = 0x2004 + 4ull * k;
	return r;
}

static uint64_t ip_of(unsigned k)
{
	return 0x2000 + 4ull * k;
}

static void step(unsigned k)
{
	struct step_regs r = regs_after(k);
	struct insn_event e = { .rip = ip_of(k), .next_rip = r.rip,
				.retired = 1, .cpl = 3, .after = &r };

	model_feed(&e, 0);
}

/* Steps k0 .. k1 - 1. */
static void steps(unsigned k0, unsigned k1)
{
	for (unsigned k = k0; k < k1; k++)
		step(k);
}

/* Record r was written at step k: the trap-like state after it, R/EIP the
 * next instruction (formats 0-3), the eventing IP its own (format 2 on,
 * and the adaptive basic group). */
static void check_record(const struct ds_cpu *c, unsigned r, unsigned k)
{
	const uint8_t *rec = buf + r * c->rec;
	struct step_regs want = regs_after(k);

	if (c->fmt >= 4) {
		EXPECT(c, get64(rec, B_FORMAT_SIZE) >> B_SIZE_SHIFT == c->rec,
		       "record %u: size %llu", r, (unsigned long long)
		       (get64(rec, B_FORMAT_SIZE) >> B_SIZE_SHIFT));
		EXPECT(c, get64(rec, B_IP) == ip_of(k), "record %u: IP %#llx,"
		       " step %u's is %#llx", r,
		       (unsigned long long)get64(rec, B_IP), k,
		       (unsigned long long)ip_of(k));
		return;
	}
	EXPECT(c, get64(rec, R_IP) == want.rip, "record %u: RIP %#llx, the "
	       "instruction after step %u is at %#llx", r,
	       (unsigned long long)get64(rec, R_IP), k,
	       (unsigned long long)want.rip);
	EXPECT(c, get64(rec, R_FLAGS) == want.rflags, "record %u: RFLAGS", r);
	for (unsigned s = 0; s < 16; s++)
		EXPECT(c, get64(rec, R_GPR(s)) == want.gpr[rec_gpr[s]],
		       "record %u: slot %#x holds %#llx, want register %u "
		       "after step %u = %#llx", r, R_GPR(s),
		       (unsigned long long)get64(rec, R_GPR(s)), rec_gpr[s], k,
		       (unsigned long long)want.gpr[rec_gpr[s]]);
	if (c->fmt >= 2)
		EXPECT(c, get64(rec, R_EVENTING_IP) == ip_of(k),
		       "record %u: eventing IP", r);
	if (c->fmt >= 3)
		EXPECT(c, get64(rec, R_TSC) != 0, "record %u: TSC 0", r);
}

/* pebs-record-at-next-event: the event that overflows the counter writes
 * nothing; the next one writes the record (§18.8.1.1). */
static void test_record_at_next_event(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(ds_cpus); i++) {
		const struct ds_cpu *c = &ds_cpus[i];

		ds_setup(c, 4, NEVER, below_wrap(c, 10));
		arm(c, 1, 1, 3);	/* step 2 overflows PMC0 */
		steps(0, 3);
		EXPECT(c, records(c) == 0, "%u records by the overflowing "
		       "event (step 2), none is due before the next",
		       records(c));
		EXPECT(c, get64(buf, 0) == 0xa5a5a5a5a5a5a5a5ull,
		       "the buffer written at the overflow");
		step(3);
		EXPECT(c, records(c) == 1, "%u records after the event "
		       "following the overflow, want 1", records(c));
		check_record(c, 0, 3);
	}
}

/* pebs-reset-after-record: after the record the counter holds the DS
 * area's reset value; it overflows again after that many events and
 * records at the event after (§18.8.1.1). */
static void test_reset_after_record(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(ds_cpus); i++) {
		const struct ds_cpu *c = &ds_cpus[i];
		uint64_t v;

		ds_setup(c, 4, NEVER, below_wrap(c, 5));
		arm(c, 1, 1, 1);	/* step 0 overflows */
		steps(0, 2);		/* step 1 records */
		v = rd(c, PMC(0));
		EXPECT(c, v == below_wrap(c, 5), "PMC0 %#llx after the record,"
		       " the reset value is %#llx", (unsigned long long)v,
		       (unsigned long long)below_wrap(c, 5));
		steps(2, 7);		/* step 6 overflows */
		EXPECT(c, records(c) == 1, "%u records by step 6", records(c));
		step(7);
		EXPECT(c, records(c) == 2, "%u records by step 7", records(c));
		check_record(c, 1, 7);
	}
}

/* pebs-index-advance: each record goes at the index, which then moves by
 * the format's record size (Table 18-23 and the formats above). */
static void test_index_advance(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(ds_cpus); i++) {
		const struct ds_cpu *c = &ds_cpus[i];

		ds_setup(c, 4, NEVER, below_wrap(c, 1));
		arm(c, 1, 1, 1);
		/* the reset value is the maximum: an overflow at every even
		 * step, a record at every odd one */
		steps(0, 6);
		EXPECT(c, index_now() == buf_at(3 * c->rec), "index %#llx "
		       "after 3 records of %u bytes, want base + %u",
		       (unsigned long long)(index_now() - buf_at(0)), c->rec,
		       3 * c->rec);
		for (unsigned r = 0; r < 3; r++)
			check_record(c, r, 2 * r + 1);
		EXPECT(c, buf[3 * c->rec] == 0xa5, "bytes past the third "
		       "record written");
	}
}

/* pebs-no-record-past-maximum: with the buffer full the assist writes
 * nothing past the absolute maximum, the index stays, no signal (no PMI,
 * no OvfBuffer); a maximum that leaves room for part of a record takes
 * none.  The counter goes on counting (the SDM says no more of it). */
static void test_no_record_past_maximum(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(ds_cpus); i++) {
		const struct ds_cpu *c = &ds_cpus[i];
		uint64_t v0, v1;

		ds_setup(c, 2, NEVER, below_wrap(c, 1));
		put64(ds, DS_PEBS_MAX, buf_at(2 * c->rec + c->rec / 2));
		arm(c, 1, 1, 1);
		steps(0, 8);	/* records due at steps 1, 3, 5, 7 */
		EXPECT(c, index_now() == buf_at(2 * c->rec), "index base + "
		       "%llu, want the 2 records that fit",
		       (unsigned long long)(index_now() - buf_at(0)));
		for (unsigned b = 2 * c->rec; b < sizeof(buf); b++)
			if (buf[b] != 0xa5) {
				FAILF(c, "byte %u past the last record that "
				      "fits written", b);
				break;
			}
		EXPECT(c, stub_pm.pmis == 0, "%u PMIs from a full buffer",
		       stub_pm.pmis);
		EXPECT(c, !(rd(c, GLOBAL_STATUS) &
			    OVF_BUFFER), "OvfBuffer from a full buffer");
		WR(c, PEBS_ENABLE, 0);
		v0 = rd(c, PMC(0));
		steps(8, 10);
		v1 = rd(c, PMC(0));
		EXPECT(c, ((v1 - v0) & pm_max(c->gp_width)) == 2,
		       "PMC0 counted %llu of 2 events after the buffer filled",
		       (unsigned long long)((v1 - v0) & pm_max(c->gp_width)));
	}
}

/* pebs-dropped-record-skipped-entirely: once the buffer is full, an
 * armed counter's assist fails the bounds checks and "the PEBS will be
 * skipped entirely": only "Upon successful bounds checks" does the
 * processor "clear the counter overflow status, and reload the counter"
 * (§18.8.1.1, PEBS CounterX Reset).  So after a run that fills the
 * buffer: nothing past the absolute maximum is written (guard bytes),
 * the index stays at the maximum, the counter is not at its reload value
 * but counts on from the wrap, and its GLOBAL_STATUS bit (bit 0 for
 * PMC0, §18.2.2) is still set. */
static void test_dropped_record_skipped(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(ds_cpus); i++) {
		const struct ds_cpu *c = &ds_cpus[i];
		uint64_t v, st;

		/* room for 2 records; reload 3 events below the wrap */
		ds_setup(c, 2, NEVER, below_wrap(c, 3));
		arm(c, 1, 1, 1);
		/* overflows at steps 0, 4, 8; records at 1 and 5; the
		 * assist due at step 9 finds the buffer full */
		steps(0, 10);
		EXPECT(c, index_now() == buf_at(2 * c->rec), "index base + "
		       "%llu, want the 2 records that fit",
		       (unsigned long long)(index_now() - buf_at(0)));
		v = rd(c, PMC(0));
		EXPECT(c, v == 1, "PMC0 %#llx after the dropped assist (step "
		       "9): reloaded? want 1, the one event since its wrap at "
		       "step 8 (reload value %#llx)", (unsigned long long)v,
		       (unsigned long long)below_wrap(c, 3));
		st = rd(c, GLOBAL_STATUS);
		EXPECT(c, st & 1, "GLOBAL_STATUS %#llx: PMC0's overflow bit "
		       "cleared by an assist whose bounds checks failed",
		       (unsigned long long)st);
		/* the rest of a long run changes none of it */
		steps(10, 40);
		for (unsigned b = 2 * c->rec; b < sizeof(buf); b++)
			if (buf[b] != 0xa5) {
				FAILF(c, "guard byte %u past the absolute "
				      "maximum (%u) written", b, 2 * c->rec);
				break;
			}
		v = rd(c, PMC(0));
		EXPECT(c, v != below_wrap(c, 3) && v == 31, "PMC0 %#llx at "
		       "the end of the run, want 31 events since the wrap, "
		       "never the reload value", (unsigned long long)v);
		EXPECT(c, rd(c, GLOBAL_STATUS) & 1, "GLOBAL_STATUS bit 0 "
		       "clear at the end of a run that filled the buffer");
		EXPECT(c, index_now() == buf_at(2 * c->rec), "index moved");
		EXPECT(c, stub_pm.pmis == 0, "%u PMIs", stub_pm.pmis);
	}
}

/* pebs-threshold-pmi: the record that brings the index to the interrupt
 * threshold raises the PMI and GLOBAL_STATUS bit 62 (OvfBuffer); the
 * records before it and the overflow itself (INT clear) do not. */
static void test_threshold_pmi(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(ds_cpus); i++) {
		const struct ds_cpu *c = &ds_cpus[i];

		ds_setup(c, 4, 2, below_wrap(c, 2));
		arm(c, 1, 1, 1);
		steps(0, 4);	/* overflows at 0, 3; records at 1, 4 */
		EXPECT(c, records(c) == 1 && stub_pm.pmis == 0 &&
		       !(rd(c, GLOBAL_STATUS) & OVF_BUFFER),
		       "%u records, %u PMIs before the threshold record",
		       records(c), stub_pm.pmis);
		step(4);
		EXPECT(c, records(c) == 2, "%u records", records(c));
		EXPECT(c, stub_pm.pmis == 1, "%u PMIs at the threshold",
		       stub_pm.pmis);
		EXPECT(c, rd(c, GLOBAL_STATUS) & OVF_BUFFER,
		       "GLOBAL_STATUS %#llx: OvfBuffer (bit 62) clear at the "
		       "threshold", (unsigned long long)rd(c, GLOBAL_STATUS));
	}
}

/* pebs-enable-counters: PEBS_ENABLE takes the bits of the counters the
 * CPU allows PEBS on, and #GP for the counter bit just beyond. */
static void test_enable_counters(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(ds_cpus); i++) {
		const struct ds_cpu *c = &ds_cpus[i];
		unsigned last = 63 - (unsigned)__builtin_clzll(c->pebs_ctrs &
							      0xffffffffull);

		ds_setup(c, 4, NEVER, 0);
		for (unsigned b = 0; b < 64; b++)
			if (c->pebs_ctrs >> b & 1)
				WR(c, PEBS_ENABLE, 1ull << b);
		WR(c, PEBS_ENABLE, c->pebs_ctrs);
		EXPECT(c, rd(c, PEBS_ENABLE) ==
		       c->pebs_ctrs, "PEBS_ENABLE reads back");
		/* GP counters only to bit 31: the fixed counters start at
		 * 32 (and Nehalem-Skylake's LL_EN bits are there) */
		if (last + 1 < 32)
			EXPECT(c, pm_wr(PEBS_ENABLE, 1ull << (last + 1)) == GP,
			       "PEBS_ENABLE bit %u (no PEBS counter) taken",
			       last + 1);
	}
}

/* pebs-enable-precise-store-snb-only: IA32_PEBS_ENABLE bit 63 is
 * PS_ENABLE on Sandy Bridge ("In IA32_PEBS_ENABLE MSR, bit 63 is defined
 * as PS_ENABLE: When set, this enables IA32_PMC3 to capture precise store
 * information", §18.9.4; Ivy Bridge has the same PMU).  Elsewhere the
 * bit does not exist: Core 2 has PEBS_ENABLE bit 0 alone (§18.6.2.4);
 * Nehalem and Westmere, and Haswell and Skylake, whose PEBS facility
 * comparison tables (§18.11.1, §18.13.1) give Nehalem's layout, have
 * PEBS_EN_PMC0-3 (3:0), LL_EN_PMC0-3 (35:32) and bits 63:36 reserved
 * (§18.8.1.1, the IA32_PEBS_ENABLE layout figure); Ice Lake's extended
 * PEBS names counters only.  A reserved bit #GPs (Vol. 2B WRMSR). */
static const struct {
	const char *name;
	unsigned model;		/* family 6 */
	int ps_en;		/* bit 63 exists */
	int ll_en;		/* LL_EN_PMC0 (bit 32) exists */
} ps_cpus[] = {
	{ .name = "Core 2 06_0FH", .model = 0x0f, .ps_en = 0, .ll_en = 0 },
	{ .name = "Nehalem 06_1AH", .model = 0x1a, .ps_en = 0, .ll_en = 1 },
	{ .name = "Westmere 06_2CH", .model = 0x2c, .ps_en = 0, .ll_en = 1 },
	{ .name = "Sandy Bridge 06_2AH", .model = 0x2a, .ps_en = 1,
	  .ll_en = 1 },
	{ .name = "Haswell 06_3CH", .model = 0x3c, .ps_en = 0, .ll_en = 1 },
	{ .name = "Skylake 06_5EH", .model = 0x5e, .ps_en = 0, .ll_en = 1 },
};

static void test_enable_precise_store(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(ps_cpus); i++) {
		const char *name = ps_cpus[i].name;
		uint64_t v = ~0ull;
		int vec;

		stub_pm_cpu(6, ps_cpus[i].model);
		pm = model_for(PMU_ARCH);
		assert_non_null(pm);
		model_activate(pm);
		vec = pm_wr(PEBS_ENABLE, 1ull << 63 | 1);
		if (ps_cpus[i].ps_en) {
			if (vec != 0 || pm_rd(PEBS_ENABLE, &v) != 0 ||
			    v != (1ull << 63 | 1))
				fail_msg("%s: PS_EN (bit 63) refused (%d) or "
					 "lost (%#llx)", name, vec,
					 (unsigned long long)v);
		} else if (vec != GP) {
			fail_msg("%s: IA32_PEBS_ENABLE bit 63 taken (%d): "
				 "PS_EN is Sandy Bridge's alone", name, vec);
		}
		/* bits 62:36 reserved everywhere; LL_EN_PMC0 where load
		 * latency exists (Nehalem on) */
		if (pm_wr(PEBS_ENABLE, 1ull << 36 | 1) != GP)
			fail_msg("%s: IA32_PEBS_ENABLE bit 36 taken", name);
		vec = pm_wr(PEBS_ENABLE, 1ull << 32 | 1);
		if ((vec == 0) != ps_cpus[i].ll_en)
			fail_msg("%s: LL_EN_PMC0 (bit 32): WRMSR gives %d",
				 name, vec);
	}
}

/* pebs-events-by-microarchitecture: the precise events are the
 * microarchitecture's, not the record format's.  Nehalem's load event is
 * MEM_INST_RETIRED.LOADS, 0BH/01H (§18.8.1.1, the Core i7 precise events);
 * Sandy Bridge, which writes the same format 1, has no 0BH event in its
 * table and samples loads with MEM_UOPS_RETIRED.ALL_LOADS, D0H/81H
 * (§18.9.4.2).  Driven through the MSRs: a step with one load retired,
 * PMC0 at PEBS; the event the CPU has counts the loads and writes a
 * record at the event after the overflow, the other one is not a
 * precise event there and writes nothing. */
static void load_step(unsigned k)
{
	struct step_regs r = regs_after(k);
	struct insn_event e = { .rip = ip_of(k), .next_rip = r.rip,
				.retired = 1, .cpl = 3, .after = &r,
				.loads = 1, .n_access = 1 };

	e.access[0] = (struct mem_access){ .addr = 0x9000 + 8 * k,
					   .size = 8 };
	model_feed(&e, 0);
}

static void test_events_by_uarch(void **state)
{
	static const struct {
		const struct ds_cpu *c;
		uint8_t has_ev, has_um, not_ev, not_um;
	} cases[] = {
		{ &ds_cpus[1], 0x0b, 0x01, 0xd0, 0x81 },	/* Nehalem */
		{ &ds_cpus[2], 0xd0, 0x81, 0x0b, 0x01 },	/* SNB */
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		const struct ds_cpu *c = cases[i].c;
		uint64_t v;

		for (int precise = 1; precise >= 0; precise--) {
			uint64_t ev = precise ?
				EV(cases[i].has_ev, cases[i].has_um) :
				EV(cases[i].not_ev, cases[i].not_um);

			ds_setup(c, 4, NEVER, below_wrap(c, 2));
			WR(c, EVTSEL(0), 0);
			WR(c, PMC(0), below_wrap(c, 2) & 0xffffffffull);
			WR(c, EVTSEL(0), ev | USR | OS | EN);
			WR(c, PEBS_ENABLE, 1);
			WR(c, GLOBAL_CTRL, 1);
			for (unsigned k = 0; k < 3; k++)
				load_step(k);
			v = (rd(c, PMC(0)) - below_wrap(c, 2)) &
			    pm_max(c->gp_width);
			EXPECT(c, records(c) == (precise ? 1u : 0u),
			       "event %#llx: %u records after 3 loads "
			       "(overflow at the 2nd), want %u",
			       (unsigned long long)ev, records(c),
			       precise ? 1u : 0u);
			if (!precise)
				EXPECT(c, v == 0, "event %#llx, not one of "
				       "this CPU's, counted %llu loads",
				       (unsigned long long)ev,
				       (unsigned long long)v);
		}
	}
}

/* pebs-applicable-counters: PEBS counters that overflowed together get
 * one record naming them all (SDM Vol. 3B §18.8.1.1, PEBS CounterX
 * Reset: every overflowed PEBS counter is reloaded after the record): format 1's 90H is GLOBAL_STATUS before the
 * assist (every overflowed counter, PEBS or not); format 3's 90H and the
 * basic group's 10H the applicable PEBS counters. */
static void test_applicable_counters(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(ds_cpus); i++) {
		const struct ds_cpu *c = &ds_cpus[i];
		uint64_t got, want;
		unsigned off;

		if (c->fmt == 0)
			continue;	/* PEBS on PMC0 alone, no such field */
		ds_setup(c, 4, NEVER, below_wrap(c, 50));
		/* PMC0, PMC1 PEBS; PMC2 not: all overflow at step 0 */
		arm(c, 0x7, 0x3, 1);
		steps(0, 2);
		EXPECT(c, records(c) == 1, "%u records for two PEBS counters "
		       "overflowing together, want 1", records(c));
		off = c->fmt >= 4 ? B_APPLICABLE : R_STATUS;
		want = c->fmt == 1 ? 0x7 : 0x3;
		got = get64(buf, off);
		EXPECT(c, got == want, "record at %#x: %#llx, want %#llx", off,
		       (unsigned long long)got, (unsigned long long)want);
		/* PDIR rows: PMC1 counts INST_RETIRED.PREC_DIST, whose
		 * record is at its overflow, step 0, naming both; both
		 * reload there and count step 1.  Else the record is at
		 * step 1, the event after the overflow */
		for (unsigned n = 0; n < 2; n++)
			EXPECT(c, rd(c, PMC(n)) ==
			       below_wrap(c, 50) - n + (c->pdir ? 1 : 0),
			       "PMC%u %#llx, its reset slot (%#x) holds %#llx",
			       n, (unsigned long long)rd(c, PMC(n)),
			       DS_RESET(n),
			       (unsigned long long)(below_wrap(c, 50) - n));
		check_record(c, 0, c->pdir ? 0 : 1);
	}
}

/* Tremont 06_86H (the Snowridge row; QEMU 7.2's Icelake-Server reports
 * it too): PERF_CAPABILITIES 74C5H as the row restates it
 * (tests/host/pmu/perfmon/test_caps_rows.c: format 4, trap, arch regs,
 * baseline; a Celeron N5105 boot prints "PEBS fmt4+-baseline"); 4 GP
 * counters of 48 bits and fixed counters 0-2 (CPUID.0AH 07300405H,
 * 8603H, ECX 7), PEBS on all of them with baseline; the basic group
 * alone, 32 bytes; INST_RETIRED.ANY_P C0H/00H (Goldmont's Table 18-19,
 * SDM Vol. 3, 325384-059US). */
static const struct ds_cpu tremont = {
	.name = "Tremont 06_86H", .model = 0x86, .perf_caps = 0x74c5,
	.fmt = 4, .gp = 4, .gp_width = 48, .version = 5,
	.pebs_ctrs = 0xfull | 0x7ull << 32, .rec = 0x20, .inst_umask = 0x00,
};

/* Fixed counter 0 (instructions retired, §18.2.2 Table 18-2) from `left`
 * events below its wrap (48 bits, a full-width write), USR and OS, with
 * its PEBS_ENABLE bit (32). */
static void arm_fixed0(const struct ds_cpu *c, unsigned left)
{
	WR(c, FIXED_CTR_CTRL, 0);
	WR(c, FIXED_CTR(0), below_wrap(c, left));
	WR(c, FIXED_CTR_CTRL, FX(0, FX_OS | FX_USR));
	WR(c, PEBS_ENABLE, G_FIXED(0));
	WR(c, GLOBAL_CTRL, G_FIXED(0));
}

/* pebs-reduced-skid: Tremont's PMC0 and fixed counter 0 record the
 * instruction that caused the overflow, with no wait for the next event
 * (reduced-skid PEBS: SDM Vol. 3, 325384-059US, §18.7.1.2 "Reduced Skid
 * PEBS", the machine traps "on the instruction that actually caused the
 * counter overflow", for "all precise events including INST_RETIRED";
 * Tremont has it on PMC0 and fixed counter 0: Linux commit 6daeb8737f8a
 * "The generic purpose counter 0 and fixed counter 0 have less skid",
 * tnt_get_event_constraints()).  PMC1 keeps the next-event rule
 * (§18.8.1.1).  Ice Lake server, the same record format, is the
 * contrast: PMC0 records at the next event, fixed counter 0 at the
 * overflow (precise distribution there; the SDM's Ice Lake PEBS text). */
static void test_reduced_skid(void **state)
{
	static const struct {
		const struct ds_cpu *c;
		unsigned pmc0, pmc1, fixed0;	/* the step of the record */
	} cases[] = {
		{ &tremont, 2, 3, 2 },
		{ &ds_cpus[4], 3, 3, 2 },	/* Ice Lake server 06_6AH */
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		const struct ds_cpu *c = cases[i].c;

		assert_int_equal(c->fmt, 4);
		/* PMC0, then PMC1, overflowing at step 2 */
		for (unsigned n = 0; n < 2; n++) {
			unsigned want = n ? cases[i].pmc1 : cases[i].pmc0;

			ds_setup(c, 4, NEVER, below_wrap(c, 10));
			arm(c, 1u << n, 1u << n, 3);
			steps(0, 3);
			EXPECT(c, records(c) == (want == 2 ? 1u : 0u),
			       "PMC%u: %u records by its overflowing event "
			       "(step 2), want %u", n, records(c),
			       want == 2 ? 1u : 0u);
			step(3);
			EXPECT(c, records(c) == 1, "PMC%u: %u records by step 3",
			       n, records(c));
			check_record(c, 0, want);
		}
		ds_setup(c, 4, NEVER, below_wrap(c, 10));
		arm_fixed0(c, 3);
		steps(0, 3);
		EXPECT(c, records(c) == (cases[i].fixed0 == 2 ? 1u : 0u),
		       "fixed counter 0: %u records by its overflowing event "
		       "(step 2)", records(c));
		step(3);
		EXPECT(c, records(c) == 1, "fixed counter 0: %u records by "
		       "step 3", records(c));
		check_record(c, 0, cases[i].fixed0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_at_next_event),
		cmocka_unit_test(test_reset_after_record),
		cmocka_unit_test(test_index_advance),
		cmocka_unit_test(test_no_record_past_maximum),
		cmocka_unit_test(test_dropped_record_skipped),
		cmocka_unit_test(test_threshold_pmi),
		cmocka_unit_test(test_enable_counters),
		cmocka_unit_test(test_applicable_counters),
		cmocka_unit_test(test_enable_precise_store),
		cmocka_unit_test(test_events_by_uarch),
		cmocka_unit_test(test_reduced_skid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
