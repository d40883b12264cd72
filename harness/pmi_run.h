/* pmi_run: the harness steps of PMI tests - skip where no APIC can be
 * used, log the APIC's state and a PMI record, run a step with the PMI
 * handler armed (and always disarmed after, even when the step faults),
 * and the firing routine whose code range the tests check RIPs against. */
#ifndef HARNESS_PMI_RUN_H
#define HARNESS_PMI_RUN_H

#include <stddef.h>
#include <stdint.h>
#include "test.h"
#include "../arch/x86/pmi.h"
#include "../arch/x86/trap.h"

/* SKIPs (and returns 0) when apic_init() found no usable APIC. */
int apic_ready(struct tcase *t);
/* YAML values: mode, base (and the whole IA32_APIC_BASE), ID, LVTPC now
 * and as the firmware left it. */
void apic_log(struct tcase *t);
/* YAML values of r, keys prefixed with prefix ("pmi" when NULL). */
void pmi_log(struct tcase *t, const char *prefix, const struct pmi_record *r);

/* Arms path, runs fn(arg) under trap_catch, disarms.  Returns 0, 1 on a
 * fault (*f), or -1 when the path could not be armed. */
int pmi_run(enum pmi_path path, void (*fn)(void *), void *arg,
	    struct fault *f);
/* pmi_run() on the NMI path as a test step: logs "pmis" (the count after
 * the run) and fails the test when the path could not be armed or fn
 * faulted.  Returns 1 when fn ran to its end. */
int pmi_run_nmi_checked(struct tcase *t, void (*fn)(void *), void *arg);

/* int apic_fire(int mask_after): calls apic_lvtpc_deliver(mask_after),
 * then runs a sled of NOPs, and returns what apic_lvtpc_deliver returned.
 * A PMI that nothing holds back is taken a few instructions after the
 * IPI is sent: inside apic_lvtpc_deliver or in the sled (SDM Vol. 3A
 * §10.6.1 gives no bound).  apic_fire_sled is the call's return address,
 * apic_fire_end the end of its code. */
int apic_fire(int mask_after);
extern const char apic_fire_sled[], apic_fire_end[];
/* 1 when r interrupted apic_fire or what it called: CPL 0, a RIP in the
 * harness's code, a stack pointer at or below apic_fire's at the call. */
int pmi_in_fire_call(const struct pmi_record *r);

/* int apic_fire_sti(void): with IF clear on entry, STI and a NOP sled:
 * a fixed interrupt already waiting in the IRR is taken at
 * apic_fire_sti_land, the boundary after the one instruction that
 * follows STI (SDM Vol. 2B, STI).  Returns with IF clear. */
void apic_fire_sti(void);
extern const char apic_fire_sti_land[], apic_fire_sti_end[];

/* Spins about n TSC-free iterations: time for a stray PMI to show up. */
void apic_delay(unsigned n);

#endif
