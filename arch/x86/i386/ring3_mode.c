/* ring3_mode (i386): the legacy-BIOS build runs with paging off
 * (physical = linear), so ring 3 is kept apart by segments only (ring3.h):
 * there are no page tables to clone and no U/S bit to grant, and every
 * address is reachable through the flat DPL 3 data segment. */
#include "../ring3_mode.h"

const char *const ring3_mode_caveat = "i386: segments only, paging off";

int ring3_mode_setup(void *(*alloc)(void), const char **why)
{
	(void)alloc;
	(void)why;
	return 0;
}

/* Nothing to grant: with CR0.PG = 0 no page-level protection applies
 * (SDM Vol. 3A §5.1: page-level protection is in effect only
 * with paging on). */
int ring3_mode_map(const void *addr, uint64_t len, int writable)
{
	(void)addr;
	(void)len;
	(void)writable;
	return 0;
}

/* ring3_entry.S loads the user data selector into FS and GS (as into DS
 * and ES) before the IRET, which would otherwise null any that holds a
 * DPL 0 selector (SDM Vol. 2A "IRET", return to outer privilege level).
 * catch_resume() puts DS, ES and SS back; FS and GS are put back here. */
void ring3_mode_enter(struct ring3_saved *s)
{
	__asm__ volatile("mov %%fs, %0" : "=rm"(s->fs));
	__asm__ volatile("mov %%gs, %0" : "=rm"(s->gs));
}

void ring3_mode_leave(const struct ring3_saved *s)
{
	__asm__ volatile("mov %0, %%fs" : : "rm"(s->fs) : "memory");
	__asm__ volatile("mov %0, %%gs" : : "rm"(s->gs) : "memory");
}
