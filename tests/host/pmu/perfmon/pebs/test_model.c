/* Host tests for pmu/perfmon/pebs/model.c: pebs_model_assist() on hand-made
 * steps against a DS area and a PEBS buffer in host memory, in the 32-bit
 * DS format and (as a check that it is unchanged) the 64-bit one.
 *
 * Expected values typed from the SDM (Vol. 3B, order no. 253669-060US):
 *   - §17.4.9, the 32-bit DS save area: fields at 00H-1CH, 4 bytes each
 *     (PEBS base 10H, index 14H, absolute maximum 18H, threshold 1CH),
 *     the 8-byte PEBS counter reset at 20H;
 *   - §17.4.9, the 40-byte PEBS record of that format: 00H EFLAGS, 04H
 *     linear IP, 08H EAX, 0CH EBX, 10H ECX, 14H EDX, 18H ESI, 1CH EDI,
 *     20H EBP, 24H ESP; "Nominally the register values are those at the
 *     beginning of the instruction that caused the event" (a fault-like
 *     assist: the state before the step, IP the step's own);
 *   - the record goes at the PEBS index when it fits below the absolute
 *     maximum, the index then moves on by one record; a full buffer takes
 *     no record and gives no signal (§18.8.1.1); reaching the threshold
 *     after a record signals (the caller's PMI);
 *   - the 64-bit (format 0, Core 2) record of §18.6.2.4: 144 bytes, RAX
 *     at 10H, RSP at 48H, the DS index at 28H.
 * perfmon_caps, the PEBS format and trap bit, ds_model_area() and
 * paging_range_writable() are stubs here; the LBR stack
 * (pmu/lbr_model.c) is the real one, empty. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "pmu/perfmon/caps.h"
#include "pmu/perfmon/regs.h"
#include "pmu/perfmon/ds/model.h"
#include "pmu/perfmon/pebs/model.h"
#include "arch/x86/paging.h"
#include "arch/x86/xmm.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: pmu/perfmon/pebs/model.c pmu/lbr_model.c pmu/lbr.c tests/host/pmu/stub_pmu_access.c pmu/sem.c pmu/perfmon/ds/regs.c pmu/perfmon/pebs/regs.c lib/fmt.c pmu/emufault.c lib/escape.c lib/string.c */

#define CAP 3u			/* records the buffer holds */
#define GUARD 64u		/* bytes past it that must stay 0xa5 */
#define REC32 40u
#define REC64 144u

static struct ds_layout lay;
static uint8_t *area, *buf;	/* below 4 GiB (MAP_32BIT) */
static unsigned fmt, trap;
static const struct perfmon_caps caps;

/* ---- stubs ------------------------------------------------------------ */

const struct perfmon_caps *perfmon_caps(const char **why)
{
	(void)why;
	return &caps;
}

unsigned perfmon_pebs_format(const struct perfmon_caps *c)
{
	(void)c;
	return fmt;
}

int perfmon_pebs_trap(const struct perfmon_caps *c)
{
	(void)c;
	return (int)trap;
}

void *ds_model_area(const struct ds_layout **l)
{
	*l = &lay;
	return area;
}

/* The PEBS registers' part of pebs/model.c is not reset here: its
 * MSR_PEBS_DATA_CFG stays 0 (no adaptive groups), and PEBS itself is a
 * row's capability it does not ask for. */
int perfmon_caps_pebs(const struct perfmon_caps *c)
{
	(void)c;
	return 0;
}

int ds_model_branch(const struct insn_event *e)
{
	(void)e;
	return 0;
}

int paging_range_writable(uint64_t va, uint64_t len)
{
	return len && va + len > va;
}

void xmm_read_all(uint64_t out[2 * XMM_REGS])
{
	memset(out, 0, 2 * XMM_REGS * sizeof(out[0]));
}

/* ---- helpers ---------------------------------------------------------- */

static uint64_t at(unsigned rec, unsigned size)
{
	return (uint64_t)(uintptr_t)buf + (uint64_t)rec * size;
}

/* A DS area of layout ds64 (format f), a PEBS buffer of CAP records of
 * size bytes, the index at index records, the threshold at thresh, the
 * reset value of PMC0 (and PMC1 where the layout has a slot). */
static void setup(int ds64, unsigned f, unsigned size, unsigned index,
		  unsigned thresh)
{
	fmt = f;
	trap = 0;
	ds_layout_for(f, ds64, &lay);
	memset(area, 0, 512);
	memset(buf, 0xa5, CAP * REC64 + GUARD);
	ds_put(area, &lay, DS_PEBS_BASE, at(0, size));
	ds_put(area, &lay, DS_PEBS_INDEX, at(index, size));
	ds_put(area, &lay, DS_PEBS_MAX, at(CAP, size));
	ds_put(area, &lay, DS_PEBS_THRESH, at(thresh, size));
	ds_put_reset(area, &lay, 0, 0, 0xfffffffff0ull);
	ds_put_reset(area, &lay, 1, 0, 0xffffffff00ull);
}

static uint32_t get32(unsigned off)
{
	uint32_t v;

	memcpy(&v, buf + off, 4);
	return v;
}

static uint64_t get64(unsigned off)
{
	uint64_t v;

	memcpy(&v, buf + off, 8);
	return v;
}

/* Distinct register values: RAX 0x...a0, RCX a1 ... (encoding order). */
static const struct step_regs before = {
	.gpr = { 0x1000000a0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
		 0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf },
	.rip = 0x401000, .rflags = 0x246,
};
static const struct step_regs after = {
	.gpr = { 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7 },
	.rip = 0x401003, .rflags = 0x202,
};

static struct pebs_assist assist(const struct insn_event *e)
{
	/* PMC0 and PMC1 applicable: only the layout's reset slots reload */
	return (struct pebs_assist){ .e = e, .before = &before,
				     .applicable = 3, .status = 3 };
}

static void assert_untouched(unsigned from, unsigned to)
{
	for (unsigned i = from; i < to; i++)
		if (buf[i] != 0xa5)
			fail_msg("byte %u written: 0x%02x", i, buf[i]);
}

/* ---- tests ------------------------------------------------------------ */

/* The 40-byte record at the index, fault-like (PEBS_TRAP 0): the state
 * before the step, 4 bytes a field, nothing past it. */
static void test_record32(void **state)
{
	struct insn_event e = { .rip = 0x401000, .next_rip = 0x401003,
				.retired = 1, .after = &after };
	struct pebs_assist a = assist(&e);
	uint64_t gp[8] = { 0 }, fixed[4] = { 0 };

	(void)state;
	setup(0, 0, REC32, 0, 2);
	assert_int_equal(pebs_model_assist(&a, gp, fixed), 0);
	assert_int_equal(get32(0x00), 0x246);		/* EFLAGS */
	assert_int_equal(get32(0x04), 0x401000);	/* EIP */
	assert_int_equal(get32(0x08), 0xa0);		/* EAX, bits 31:0 */
	assert_int_equal(get32(0x0c), 0xa3);		/* EBX */
	assert_int_equal(get32(0x10), 0xa1);		/* ECX */
	assert_int_equal(get32(0x14), 0xa2);		/* EDX */
	assert_int_equal(get32(0x18), 0xa6);		/* ESI */
	assert_int_equal(get32(0x1c), 0xa7);		/* EDI */
	assert_int_equal(get32(0x20), 0xa5);		/* EBP */
	assert_int_equal(get32(0x24), 0xa4);		/* ESP */
	assert_untouched(REC32, CAP * REC64 + GUARD);
	/* PEBS index (14H) one record on, 4 bytes; 18H untouched */
	assert_int_equal(ds_get(area, &lay, DS_PEBS_INDEX), at(1, REC32));
	assert_int_equal(lay.field_size, 4);
	/* the one reset slot (20H) reloads PMC0; PMC1 has none */
	assert_int_equal(gp[0], 0xfffffffff0ull);
	assert_int_equal(gp[1], 0);

	/* the second record reaches the threshold (2): signal */
	assert_int_equal(pebs_model_assist(&a, gp, fixed), 1);
	assert_int_equal(get32(REC32 + 0x04), 0x401000);
	assert_int_equal(ds_get(area, &lay, DS_PEBS_INDEX), at(2, REC32));
}

/* Trap-like (PEBS_TRAP 1): the state after, EIP the next instruction's. */
static void test_record32_trap(void **state)
{
	struct insn_event e = { .rip = 0x401000, .next_rip = 0x401003,
				.retired = 1, .after = &after };
	struct pebs_assist a = assist(&e);
	uint64_t gp[8] = { 0 }, fixed[4] = { 0 };

	(void)state;
	setup(0, 0, REC32, 1, 3);
	trap = 1;
	assert_int_equal(pebs_model_assist(&a, gp, fixed), 0);
	assert_untouched(0, REC32);
	assert_int_equal(get32(REC32 + 0x00), 0x202);
	assert_int_equal(get32(REC32 + 0x04), 0x401003);
	assert_int_equal(get32(REC32 + 0x08), 0xb0);
	assert_int_equal(get32(REC32 + 0x24), 0xb4);
	assert_untouched(2 * REC32, CAP * REC64 + GUARD);
}

/* A full buffer: no record, the index stays, no signal, and no reload:
 * "Upon successful bounds checks ... clear the counter overflow status,
 * and reload the counter.  If the bounds checks fail, the PEBS will be
 * skipped entirely" (SDM Vol. 3B §18.8.1.1); the assist says it was
 * dropped so that the caller keeps the status bits. */
static void test_record32_full(void **state)
{
	struct insn_event e = { .rip = 0x401000, .next_rip = 0x401003,
				.retired = 1, .after = &after };
	struct pebs_assist a = assist(&e);
	uint64_t gp[8] = { 5, 6 }, fixed[4] = { 0 };

	(void)state;
	setup(0, 0, REC32, CAP, CAP);
	assert_int_equal(pebs_model_assist(&a, gp, fixed),
			 PEBS_ASSIST_DROPPED);
	assert_untouched(0, CAP * REC64 + GUARD);
	assert_int_equal(ds_get(area, &lay, DS_PEBS_INDEX), at(CAP, REC32));
	assert_int_equal(gp[0], 5);	/* not the reset slot's value */
	assert_int_equal(gp[1], 6);
}

/* Whatever PERF_CAPABILITIES' format says, the 32-bit DS format takes
 * the 40-byte record (format 3 would be 200 bytes). */
static void test_record32_any_format(void **state)
{
	struct insn_event e = { .rip = 0x401000, .next_rip = 0x401003,
				.retired = 1, .after = &after };
	struct pebs_assist a = assist(&e);
	uint64_t gp[8] = { 0 }, fixed[4] = { 0 };

	(void)state;
	setup(0, 3, REC32, 0, CAP);
	assert_int_equal(pebs_model_assist(&a, gp, fixed), 0);
	assert_int_equal(ds_get(area, &lay, DS_PEBS_INDEX), at(1, REC32));
	assert_int_equal(get32(0x08), 0xa0);
	assert_untouched(REC32, CAP * REC64 + GUARD);
}

/* The 64-bit format is as before: 144 bytes, 8-byte fields. */
static void test_record64(void **state)
{
	struct insn_event e = { .rip = 0x401000, .next_rip = 0x401003,
				.retired = 1, .after = &after };
	struct pebs_assist a = assist(&e);
	uint64_t gp[8] = { 0 }, fixed[4] = { 0 };

	(void)state;
	setup(1, 0, REC64, 0, CAP);
	assert_int_equal(pebs_model_assist(&a, gp, fixed), 0);
	assert_int_equal(get64(0x00), 0x246);
	assert_int_equal(get64(0x08), 0x401000);
	assert_int_equal(get64(0x10), 0x1000000a0ull);	/* RAX, whole */
	assert_int_equal(get64(0x48), 0xa4);		/* RSP */
	assert_int_equal(get64(0x88), 0xaf);		/* R15 */
	assert_int_equal(ds_get(area, &lay, DS_PEBS_INDEX), at(1, REC64));
	assert_int_equal(gp[0], 0xfffffffff0ull);
	assert_int_equal(gp[1], 0xffffffff00ull);	/* slot 1 exists */
	assert_untouched(REC64, CAP * REC64 + GUARD);
}

int main(void)
{
	uint8_t *low = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record32),
		cmocka_unit_test(test_record32_trap),
		cmocka_unit_test(test_record32_full),
		cmocka_unit_test(test_record32_any_format),
		cmocka_unit_test(test_record64),
	};

	if (low == MAP_FAILED) {
		perror("mmap MAP_32BIT");
		return 1;
	}
	area = low;
	buf = low + 512;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
