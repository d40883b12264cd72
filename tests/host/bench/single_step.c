/* single_step: a benchmark routine single-stepped in a child under ptrace
 * (single_step.h). */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/host/bench/single_step.h"

int str_cmp(const char *a, const char *b)
{
	return strcmp(a, b);
}

static void __attribute__((noreturn)) child(const struct bench *b,
					    uint64_t n)
{
	void *data = NULL;

	if (b->data_size) {
		data = mmap(NULL, b->data_size, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (data == MAP_FAILED)
			_exit(2);
	}
	if (b->prepare)
		b->prepare(data, b->data_size, n);
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(3);
	raise(SIGSTOP);
	b->fn(n, data);
	_exit(0);
}

int single_step_next(struct single_step *s)
{
	int st;

	if (ptrace(PTRACE_SINGLESTEP, s->pid, NULL, NULL) ||
	    waitpid(s->pid, &st, 0) != s->pid) {
		snprintf(s->error, sizeof(s->error), "ptrace step failed");
		return 0;
	}
	if (!WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP) {
		snprintf(s->error, sizeof(s->error),
			 "child status %#x at rip %#llx", st,
			 (unsigned long long)R_IP(s->r));
		return 0;
	}
	ptrace(PTRACE_GETREGS, s->pid, NULL, &s->r);
	return 1;
}

/* The parent and the child take turns, one step each: on one processor
 * (the one the parent runs on, the child inheriting it), each step is a
 * switch between them there.  Left free, the kernel spreads them over
 * two, and every step wakes the other processor: on a loaded machine the
 * system time of a run doubled, and more (the steps are the same).  Best
 * effort: a failed call leaves them free. */
static void pin_to_this_cpu(void)
{
	static int done;
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (done || cpu < 0)
		return;
	done = 1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

int single_step_start(struct single_step *s, const struct bench *b,
		      uint64_t n)
{
	const uint64_t fn = (uintptr_t)b->fn;
	unsigned long steps = 0;
	int st;

	memset(s, 0, sizeof(*s));
	pin_to_this_cpu();
	fflush(stdout);
	s->pid = fork();
	if (s->pid < 0) {
		perror("fork");
		exit(2);
	}
	if (!s->pid)
		child(b, n);
	if (waitpid(s->pid, &st, 0) != s->pid || !WIFSTOPPED(st)) {
		/* gone, or unknown: nothing to kill */
		snprintf(s->error, sizeof(s->error), "child did not stop");
		s->pid = 0;
		return -1;
	}
	/* Out of raise() and up to the routine's first instruction. */
	ptrace(PTRACE_GETREGS, s->pid, NULL, &s->r);
	while (R_IP(s->r) != fn) {
		if (++steps > 100000)
			snprintf(s->error, sizeof(s->error), "never reached");
		if (s->error[0] || !single_step_next(s)) {
			single_step_end(s);
			return -1;
		}
	}
	return 0;
}

void single_step_end(struct single_step *s)
{
	int st;

	if (s->pid > 0) {
		kill(s->pid, SIGKILL);
		waitpid(s->pid, &st, 0);
		s->pid = 0;
	}
}
