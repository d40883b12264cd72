/* single_step: a benchmark routine (bench/bench.h) run by a forked child
 * and single-stepped with ptrace from its first instruction, for the host
 * programs that follow a routine instruction by instruction:
 * trace_check (the formulas, run.sh) and tools/pt/pt_modelgen (the PT
 * model's streams of the benchmarks).  Built as x86-64 and with -m32: the
 * same source, EIP for RIP.  The programs link -no-pie so that the
 * routines run at the addresses the parent sees (and decodes). */
#ifndef TESTS_HOST_BENCH_SINGLE_STEP_H
#define TESTS_HOST_BENCH_SINGLE_STEP_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

#include "bench/bench.h"

/* The registers ptrace gives, by mode (<sys/user.h>). */
#if defined(__x86_64__)
#define R_IP(r) ((uint64_t)(r).rip)
#define R_CX(r) ((uint64_t)(r).rcx)
#else
#define R_IP(r) ((uint64_t)(uint32_t)(r).eip)
#define R_CX(r) ((uint64_t)(uint32_t)(r).ecx)
#endif

struct single_step {
	pid_t pid;
	struct user_regs_struct r;	/* the child's registers now */
	char error[160];		/* why it stopped short */
};

/* Forks a child that calls b->fn(n, data) (data: b->data_size bytes,
 * filled by b->prepare) and steps it up to the routine's first
 * instruction.  Returns 0, or -1 with s->error set (the child reaped). */
int single_step_start(struct single_step *s, const struct bench *b,
		      uint64_t n);
/* One instruction (or one REP iteration): s->r becomes the registers
 * after it.  Returns 1, or 0 with s->error set. */
int single_step_next(struct single_step *s);
/* Kills and reaps the child. */
void single_step_end(struct single_step *s);

/* bench/registry.c's one dependency on lib/string.c, which would shadow
 * libc on the host: defined in single_step.c. */
int str_cmp(const char *a, const char *b);

#endif
