/* arch/hook-frame-after-fault: trap_hook_frame() names the frame a hook
 * is handling while it runs - here the tracer's #DB hook, whose frame's
 * RIP is where the traced code resumes (trace_resume_rip()) - and forgets
 * it when a fault in the hook unwinds to a catch frame without the #DB's
 * IRET, so no later trace or PMI reads a dead frame. */
#include "../../harness/test.h"
#include "../../harness/need.h"
#include "../../bench/oracle.h"
#include "../../arch/x86/trace.h"
#include "../../arch/x86/trap.h"

#define FAULT_AT 3

struct seen {
	uint64_t events, next_rip, frame_rip, resume_rip;
	int had_frame;
};

static void faulting_sink(const struct insn_event *e, void *ctx)
{
	struct seen *s = ctx;
	const struct trap_frame *db = trap_hook_frame(VEC_DB);

	if (++s->events != FAULT_AT)
		return;
	s->had_frame = db != NULL;
	s->frame_rip = db ? db->rip : 0;
	s->next_rip = e->next_rip;
	s->resume_rip = trace_resume_rip();
	__asm__ volatile("ud2");
}

static void test_hook_frame(struct tcase *t)
{
	const struct bench *b = bench_find("nops");
	struct seen s = { 0 };
	struct fault f = { 0 };
	int r;

	if (!check(t, b != NULL, "no nops benchmark") ||
	    !need_bench_data(t, b))
		return;
	r = trace_run(b->fn, 4, bench_data(b), 0,
		      (struct trace_range){ (const void *)b->fn, b->end },
		      faulting_sink, &s, &f);
	value(t, "trace_run", "%d", r);
	value(t, "vector", "%u", f.vector);
	value(t, "frame_rip_in_hook", "0x%llx",
	      (unsigned long long)s.frame_rip);
	value(t, "next_rip", "0x%llx", (unsigned long long)s.next_rip);
	check(t, r == 1 && f.vector == VEC_UD, "trace_run returned %d, "
	      "vector %u; expected 1 and #UD from the sink", r, f.vector);
	check(t, s.had_frame && s.frame_rip == s.next_rip &&
	      s.resume_rip == s.next_rip, "in the hook: frame %d rip 0x%llx "
	      "resume 0x%llx, expected the event's next_rip 0x%llx",
	      s.had_frame, (unsigned long long)s.frame_rip,
	      (unsigned long long)s.resume_rip,
	      (unsigned long long)s.next_rip);
	check(t, !trap_hook_frame(VEC_DB), "the dead #DB frame is still "
	      "named after the fault");
	check(t, !trace_resume_rip(), "trace_resume_rip() is 0x%llx with "
	      "no trace running", (unsigned long long)trace_resume_rip());
}

TEST(arch_hook_frame, "arch/hook-frame-after-fault",
     "the #DB hook's frame is named while it runs and forgotten when a "
     "fault unwinds it", test_hook_frame, 0);
