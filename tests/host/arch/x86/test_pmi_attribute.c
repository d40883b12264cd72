/* Host tests for arch/x86/pmi_attribute.c: where a PMI is recorded.
 * Rules (arch/x86/pmi.h): with no trace running, or with RFLAGS.TF set
 * in the interrupt frame (the traced code itself was interrupted), the
 * frame's RIP and CPL; with TF clear while a trace runs (the tracer's own
 * #DB handling was interrupted), the traced code's resume RIP and the CPL
 * of the #DB frame, or the frame's CPL when no #DB frame is known; the
 * frame fields always as pushed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "arch/x86/cpu.h"
#include "arch/x86/pmi.h"
#include "arch/x86/trap.h"

/* host-sources: arch/x86/pmi_attribute.c */

#define HANDLER_RIP 0xe2240eeull	/* somewhere in the harness */
#define TRACED_RIP 0x401000ull
#define RESUME_RIP 0x401004ull
#define CS0 0x38ull
#define CS3 0x53ull			/* RPL 3 */

static struct trap_frame frame(uint64_t rip, uint64_t cs, uint64_t rflags)
{
	struct trap_frame f = { 0 };

	f.rip = rip;
	f.cs = cs;
	f.rflags = rflags;
	f.rsp = 0x8000;
	return f;
}

static void no_trace(void **state)
{
	struct trap_frame f = frame(HANDLER_RIP, CS0, 0x46);
	struct pmi_record r;

	pmi_attribute(&r, &f, 0, NULL);
	assert_int_equal(r.rip, HANDLER_RIP);
	assert_int_equal(r.cpl, 0);
	assert_int_equal(r.in_tracer, 0);
	assert_int_equal(r.frame_rip, HANDLER_RIP);
	assert_int_equal(r.frame_rsp, 0x8000);
	assert_int_equal(r.frame_rflags, 0x46);
}

/* Taken after the #DB's IRET: the frame is the traced code's own. */
static void traced_code_interrupted(void **state)
{
	struct trap_frame f = frame(RESUME_RIP, CS3, 0x2 | X86_EFLAGS_TF);
	struct pmi_record r;

	pmi_attribute(&r, &f, RESUME_RIP, NULL);
	assert_int_equal(r.rip, RESUME_RIP);
	assert_int_equal(r.cpl, 3);
	assert_int_equal(r.in_tracer, 0);
}

/* Taken inside the #DB hook of a CPL 3 step: the traced code's resume
 * RIP and CPL, not the handler's. */
static void inside_db_hook(void **state)
{
	struct trap_frame f = frame(HANDLER_RIP, CS0, 0x46);
	struct trap_frame db = frame(RESUME_RIP, CS3, 0x2 | X86_EFLAGS_TF);
	struct pmi_record r;

	pmi_attribute(&r, &f, RESUME_RIP, &db);
	assert_int_equal(r.rip, RESUME_RIP);
	assert_int_equal(r.cpl, 3);
	assert_int_equal(r.in_tracer, 1);
	assert_int_equal(r.frame_rip, HANDLER_RIP);
	assert_int_equal(r.frame_cpl, 0);
}

/* Past the hook, before its IRET: the resume RIP still; no #DB frame. */
static void past_db_hook(void **state)
{
	struct trap_frame f = frame(HANDLER_RIP, CS0, 0x46);
	struct pmi_record r;

	pmi_attribute(&r, &f, TRACED_RIP, NULL);
	assert_int_equal(r.rip, TRACED_RIP);
	assert_int_equal(r.cpl, 0);
	assert_int_equal(r.in_tracer, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_trace),
		cmocka_unit_test(traced_code_interrupted),
		cmocka_unit_test(inside_db_hook),
		cmocka_unit_test(past_db_hook),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
