/* inject: fault injection under the reference model (the inject= option).
 * Pure logic: the spec parser and the fault table; pmu/backend.c consults
 * an armed table on every model access, so a driver's error paths run in
 * CI where no hardware fault can be had on demand.
 *
 * Spec: comma-separated items, at most INJECT_MAX:
 *
 *	msr:<hex>:gp	RDMSR and WRMSR of that MSR raise #GP (vector 13)
 *	msr:<hex>:ud	... raise #UD (vector 6)
 *	msr:<hex>:stuck	WRMSR is dropped (no fault, as a stuck register
 *			would); RDMSR keeps returning the value the
 *			register held at its first access
 *	rdpmc:gp	RDPMC (any counter) raises #GP (vector 13)
 *	rdpmc:ud	... raises #UD (vector 6)
 *
 * MSR numbers are hexadecimal with 0x (up to 8 digits); one item per MSR,
 * one rdpmc item.  Vectors are those of an access to an absent or
 * misused register on hardware (SDM Vol. 2B RDMSR, WRMSR and RDPMC,
 * "Protected Mode Exceptions"). */
#ifndef PMU_INJECT_H
#define PMU_INJECT_H

#include <stdint.h>

#define INJECT_MAX 16
/* A bad item is echoed in its error message up to this many bytes. */
#define INJECT_ECHO_MAX 40

enum inject_target { INJECT_MSR, INJECT_RDPMC };
enum inject_effect { INJECT_FAULT, INJECT_STUCK };
enum inject_op { INJECT_OP_RDMSR, INJECT_OP_WRMSR, INJECT_OP_RDPMC };

struct inject_rule {
	enum inject_target target;
	enum inject_effect effect;
	uint32_t msr;		/* INJECT_MSR */
	int vector;		/* INJECT_FAULT: the vector raised */
	/* INJECT_STUCK, once latched: what every read answers */
	int latched, latch_vector;
	uint64_t latch_value;
	unsigned hits;		/* accesses the rule changed */
};

/* One access a rule changed, for the observer. */
struct inject_hit {
	const struct inject_rule *rule;
	enum inject_op op;
	uint32_t reg;		/* MSR number or RDPMC index */
	uint64_t value;		/* WRMSR: the value dropped or refused */
	int vector;		/* what the access returned (0: a dropped
				 * write or a stuck read) */
};

typedef void (*inject_observer)(void *ctx, const struct inject_hit *h);

struct inject_table {
	struct inject_rule rule[INJECT_MAX];
	unsigned n;
	inject_observer observe;	/* optional: told of every hit */
	void *observe_ctx;
};

typedef void (*inject_error_fn)(void *ctx, const char *msg);

/* Parses spec into t.  Each bad item is one call of err naming the item
 * (by position and text, control bytes escaped); with any error t is
 * left empty (n = 0): a spec is applied whole or not at all.  Returns
 * the number of errors. */
int inject_parse(struct inject_table *t, const char *spec,
		 inject_error_fn err, void *ctx);
/* The table in spec syntax ("msr:0x11:gp,rdpmc:ud"), "" when empty. */
void inject_describe(const struct inject_table *t, char *buf, unsigned size);
/* One hit as a log message naming the register and the vector, e.g.
 * "WRMSR 0x11=0x16 raised injected #GP (vector 13)". */
void inject_hit_text(const struct inject_hit *h, char *buf, unsigned size);

/* The underlying (model) accessors the table stands in front of. */
typedef int (*inject_rd_fn)(uint32_t reg, uint64_t *v);
typedef int (*inject_wr_fn)(uint32_t reg, uint64_t v);

/* An access through the table: the injected vector, the stuck value or
 * the dropped write where a rule applies, else the accessor's answer. */
int inject_rdmsr(struct inject_table *t, uint32_t msr, uint64_t *v,
		 inject_rd_fn rd);
int inject_wrmsr(struct inject_table *t, uint32_t msr, uint64_t v,
		 inject_rd_fn rd, inject_wr_fn wr);
int inject_rdpmc(struct inject_table *t, uint32_t idx, uint64_t *v,
		 inject_rd_fn rd);

#endif
