/* emufault: emulator faults under backend=emulated (the emulated_fault=
 * option, docs/emulators.md "Emulator faults and the tests that catch
 * them").  Each fault makes the live reference model misbehave the way an
 * emulator's PMU gets it wrong, so the matrix can show that the hardware
 * path's tests catch it.  Pure logic: the vocabulary, the parser and the
 * armed set; the misbehaviour itself is in the models, where the rule it
 * breaks is (pmu/<gen>/model.c, pmu/model.c for the PMI).
 *
 * Faults act only where armed (boot/session.c arms them under
 * backend=emulated alone) and never while held: a prediction beside the
 * run (pmu/model.h model_predict_begin) is the model's clean count. */
#ifndef PMU_EMUFAULT_H
#define PMU_EMUFAULT_H

#include <stdint.h>

enum emufault {
	EF_DOUBLE,		/* every counted event counts 2 */
	EF_DOUBLE_CPL0,		/* events at CPL 0 count 2 */
	EF_ENABLE_PLUS_ONE,	/* a counter gains 1 each time it is enabled */
	EF_FILTER_IGNORED,	/* OS/USR ignored: counts at every CPL */
	EF_FILTER_SWAPPED,	/* OS counts CPL 1-3, USR CPL 0 */
	EF_OVERFLOW_LATE,	/* overflow signalled one event late */
	EF_STATUS_READ_CLEARS,	/* reading an overflow status clears it */
	EF_PMI_LOST,		/* the PMI is never delivered */
	EF_PMI_TWICE,		/* the PMI is delivered twice */
	EF_FREEZE_IGNORED,	/* DEBUGCTL.Freeze_PerfMon_on_PMI ignored */
	EF_GLOBAL_CTRL_IGNORED,	/* IA32_PERF_GLOBAL_CTRL ignored */
	EF_FIXED_SWAPPED,	/* fixed counters 1 and 2 swapped */
	EF_WRAP_32,		/* counters wrap at 32 bits */
	EF_NO_SIGN_EXTEND,	/* a 32-bit counter write not sign-extended */
	EF_ESCR_THREADS_SWAPPED, /* ESCR T0_* and T1_* bits swapped */
	EF_CASCADE_IGNORED,	/* CCCR CASCADE ignored */
	EF_PEBS_EARLY,		/* PEBS record written one event early */
	EF_PEBS_NO_RELOAD,	/* PEBS counter not reloaded from the DS */
	EF_BTS_SWAPPED,		/* BTS record with FROM and TO swapped */
	EF_LBR_TOS_BACKWARDS,	/* the LBR TOS moves backwards */
	EF_PT_TNT_REVERSED,	/* PT TNT bits in reverse order */
	EF_EXIT_COUNTED,	/* each emulated PMU access counts the
				 * emulator's exit handling: EMUFAULT_EXIT_COST
				 * instructions at CPL 0 */
	EMUFAULT_COUNT
};

/* EF_EXIT_COUNTED: the instructions one emulated access adds at CPL 0,
 * as an emulator that counts its own WRMSR/RDMSR/RDPMC exit handling as
 * the guest's would: a few hundred per counter over a run's accesses,
 * which the hardware bound of CPL 0 counts (pmu_run.h) lets through. */
#define EMUFAULT_EXIT_COST 64

struct emufault_info {
	const char *name;	/* the emulated_fault= word */
	const char *gens;	/* the generation folders it acts in */
	const char *what;	/* one line for the docs and the log */
};

extern const struct emufault_info emufault_table[EMUFAULT_COUNT];

/* The longest list of every name, commas included, and its NUL. */
#define EMUFAULT_NAMES_MAX 400

typedef void (*emufault_error_fn)(void *ctx, const char *msg);

/* Parses NAME[,NAME...] into *set (bit 1 << enum emufault).  Each bad
 * item (unknown, empty, given twice) is one call of err naming it and,
 * for an unknown one, the known names; with any error *set is 0: a list
 * is applied whole or not at all.  Returns the number of errors. */
int emufault_parse(uint32_t *set, const char *spec, emufault_error_fn err,
		   void *ctx);
/* set as emulated_fault= names it ("double,pmi-lost"), "" when empty. */
void emufault_describe(uint32_t set, char *buf, unsigned size);

/* The faults of the live model (0: none). */
void emufault_arm(uint32_t set);
uint32_t emufault_armed(void);
/* hold 1: no fault acts until hold 0 (a prediction runs). */
void emufault_hold(int hold);
int emufault_on(enum emufault f);

/* Shared by the models: an event count of a step at cpl as the armed
 * faults make it (EF_DOUBLE, EF_DOUBLE_CPL0) ... */
uint64_t emufault_count(uint64_t inc, unsigned cpl);
/* ... whether a counter counts at cpl: at, the model's own answer, or
 * under EF_FILTER_IGNORED / EF_FILTER_SWAPPED what its OS flag (counts
 * at CPL 0) and USR flag (counts at CPL 3) make of it ... */
int emufault_filter(int at, int os, int usr, unsigned cpl);
/* ... and the width mask a counter wraps at (EF_WRAP_32). */
uint64_t emufault_width(uint64_t mask);

#endif
