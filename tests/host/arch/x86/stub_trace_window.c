/* Host stub for the tests that link pmu/backend.c: its emulated backend
 * drives arch/x86/trace.c's counting window, which single-steps the
 * target.  On the host no window ever opens. */
#include "arch/x86/trace.h"
#include "arch/x86/trap.h"

int trace_window_open(trace_sink sink, void *ctx)
{
	(void)sink;
	(void)ctx;
	return -1;
}

void trace_window_close(void)
{
}

int trace_window_active(void)
{
	return 0;
}

void trace_window_hold(int hold)
{
	(void)hold;
}

void trace_window_emit(const uint8_t *insn)
{
	(void)insn;
}

void trace_window_wrmsr(void)
{
}

/* ... and asks arch/x86/trap.c whether a #DB hook runs (an access from a
 * handler): on the host none ever does. */
const struct trap_frame *trap_hook_frame(unsigned vector)
{
	(void)vector;
	return 0;
}
