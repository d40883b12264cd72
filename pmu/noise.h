/* noise: silicon's documented non-determinism, added to the emulated PMU
 * by emulated_noise=1 (issue 39 item 3; docs/emulators.md "Silicon's
 * noise"), so that the hardware path's verdicts are shown to allow what
 * silicon does (no false failure) while still catching the emulator
 * faults of pmu/emufault.h (no false pass).  Two effects, each the
 * documented behaviour the hardware tolerances cite:
 *
 *   - PMI skid: a counter overflow's PMI is taken some instructions after
 *     the overflowing one; the model then waits noise_pmi_skid() traced
 *     steps, 0 to NOISE_SKID_MAX - 1, from a fixed pseudo-random sequence
 *     (reproducible run to run); not on the sibling logical processor,
 *     whose steps are traced apart (its PMI comes at once);
 *   - an interrupt counted as a retired instruction: "retired instruction
 *     counts on x86 ... include at least one extra instruction each time
 *     a hardware interrupt happens, even if only user space code is being
 *     monitored" (V. M. Weaver, D. Terpstra, S. Moore, "Non-determinism
 *     and overcount on modern hardware performance counter
 *     implementations", ISPASS 2013, pp. 215-224; the Pentium 4 being the
 *     exception): each interrupt the harness takes while a counter counts
 *     - with maskable interrupts off in every run (harness/runner.c),
 *     the NMIs that carry its PMIs - is one more retired instruction at
 *     the CPL it interrupted (pmu/window.c feeds it to the model), on
 *     the generations whose model says so (pmu/model.h
 *     interrupt_retires: not NetBurst).
 *
 * Neither acts in a prediction beside the run (noise_hold). */
#ifndef PMU_NOISE_H
#define PMU_NOISE_H

/* The most steps a PMI waits under noise, and the bound the PMI tests
 * allow on hardware (tests/perfmon/pmi.c SKID is larger). */
#define NOISE_SKID_MAX 8

/* emulated_noise=1 (boot/session.c arms it under backend=emulated). */
void noise_arm(int on);
/* Armed and not held. */
int noise_on(void);
/* hold 1: no noise until hold 0 (a prediction runs). */
void noise_hold(int hold);
/* Under noise: how many traced steps the PMI being raised waits, the next
 * of a fixed pseudo-random sequence, 0 .. NOISE_SKID_MAX - 1. */
unsigned noise_pmi_skid(void);

#endif
