/* generation: one descriptor per PMU generation, registered the way tests
 * (harness/test.h) are, in a linker section.
 *
 * A generation is a folder pmu/<name>/ holding its register layout, event
 * tables, driver and model; its pmu/<name>/generation.c says what the rest
 * of the harness needs to know about it: the PMU kind it drives, its
 * driver and reference model, the presence probe, and the test groups
 * that belong to it.  detect.c's probe, the driver and model lookups
 * (model_for(), pmu/model.h), the "# pmu:" line and the test
 * selection (harness/select.c) are derived from the descriptors, and the
 * build lists them for the host tools (build/pmu-generations.txt, see the
 * Makefile).  It also says whose PMU it is (detect, match), its
 * counters' shape and the hardware path's bound per counter, and, for
 * the host tools, its event listing and its libpfm4 referee, so that the
 * core and the tools name no generation (docs/architecture.md lists
 * where a new one goes).
 *
 * A feature generation (Intel PT) extends another one's kind: it owns its
 * test groups, but no driver or probe of its own.
 */
#ifndef PMU_GENERATION_H
#define PMU_GENERATION_H

#include <stddef.h>
#include <stdint.h>
#include "cpu_model.h"

struct pmu_driver;
struct pmu_listing;
struct pmu_model;
struct pmu_referee_tables;
struct cpu_info;
struct pmu_cpu_report;
struct lbr_layout;

/* An event selection with every enable and privilege bit clear, written
 * and read back to see whether the PMU's first selection register exists
 * (pmu/detect.c). */
struct pmu_presence_probe {
	uint32_t msr;
	uint64_t value;
};

#define PMU_GENERATION_GROUPS 4

/* Tests of a generation's groups that need more of the CPU than its PMU
 * kind: those whose names start with prefix, and whether the CPU ci
 * describes has what they need, said in why (size bytes) where it does
 * not or where only an MSR could tell.  The host's test plan reads it
 * (tools/lab/pmu_detect.c, `detect --cpuid`); each test still decides
 * for itself on the machine (and restates its own rule). */
enum pmu_need_answer { PMU_NEED_MET, PMU_NEED_LACKING, PMU_NEED_UNKNOWN };
struct pmu_need {
	const char *prefix;		/* NULL: the end of the list */
	/* NULL in a build without the generation's code
	 * (PMU_GENERATION_NO_OPS) */
	enum pmu_need_answer (*check)(const struct cpu_info *ci, char *why,
				      unsigned size);
};
#define PMU_GENERATION_NEEDS 3

/* Intel CPUs whose PMU a generation is, by CPUID signature: a
 * DisplayFamily and a DisplayModel range (SDM Vol. 2A CPUID.01H). */
struct pmu_cpu_match {
	unsigned family;		/* 0: the end of the list */
	unsigned model_first, model_last;
};
#define PMU_GENERATION_MATCHES 3

struct pmu_generation {
	const char *name;		/* its folder under pmu/ */
	enum pmu_kind kind;
	const char *kind_name;		/* "# pmu: kind=" (NULL for a feature) */
	int feature;			/* 1: extends kind's generation */
	const struct pmu_driver *driver;	/* NULL for a feature */
	/* Its reference model (pmu/model.h), which model_for() answers
	 * with; NULL for a feature. */
	const struct pmu_model *model;
	struct pmu_presence_probe probe;	/* msr 0: none */
	/* Test-name prefixes ("p5/") of the groups that need this kind. */
	const char *groups[PMU_GENERATION_GROUPS];
	struct pmu_need needs[PMU_GENERATION_NEEDS];
	/* Whose PMU it is: an Intel CPU that reports it itself, whatever
	 * its signature; else one whose signature it matches.  detect
	 * reads what the CPU reports of this PMU (its CPUID leaf and
	 * capability MSR) into *r and answers 1 when the CPU reports it;
	 * NULL: no CPU does, the signatures alone say (pmu/detect.c; the
	 * image's only: PMU_GENERATION_OPS). */
	int (*detect)(const struct cpu_info *ci, struct pmu_cpu_report *r);
	struct pmu_cpu_match match[PMU_GENERATION_MATCHES];
	/* Its general-purpose counters and their width: fixed by the
	 * generation (counters, width), or, where the CPU reports them
	 * (CPUID), what cpuid_shape() reads from ci->report (detection's
	 * counters and width; the driver's own shape op numbers the
	 * counters it drives, pmu/driver.h). */
	unsigned counters, width;
	void (*cpuid_shape)(const struct cpu_info *ci, unsigned *counters,
			    unsigned *width);
	/* Its Last Branch Records on the CPU ci describes (pmu/lbr.h): 0
	 * with *l filled, or with *why -1 (this CPU has none) or -2 (it
	 * has LBRs the generation's table does not place); NULL: the
	 * generation has no LBRs (the Pentium).  The image's only
	 * (PMU_GENERATION_OPS). */
	int (*lbr)(const struct cpu_info *ci, struct lbr_layout *l,
		   const char **why);
	/* Its events for one CPU, for the host's `events` tool
	 * (pmu/listing.h, pmu/<gen>/listing.c): NULL in the image. */
	int (*list_events)(const struct pmu_listing *out,
			   const struct cpu_sig *sig, const char **why);
	/* Its event tables against libpfm4 and the libpfm4 library that
	 * has its PMUs, for the host's pfm-check (pmu/referee.h,
	 * pmu/<gen>/referee.c): NULL in the image, and for a generation
	 * libpfm4 has no PMUs of. */
	const struct pmu_referee_tables *referee;
} __attribute__((aligned(8)));	/* a multiple of the objects' alignment:
				 * the section is walked as an array */

/* The driver and the detect hook as a descriptor names them:
 * `.driver = PMU_GENERATION_OPS(&p5_driver)`.  The host tools that read the
 * descriptors (tools/lab/pmu_events.c) link none of them: they build with
 * PMU_GENERATION_NO_OPS, and the pointers are NULL there. */
#ifdef PMU_GENERATION_NO_OPS
#define PMU_GENERATION_OPS(ops) NULL
#else
#define PMU_GENERATION_OPS(ops) (ops)
#endif

/* The model as a descriptor names it: `.model =
 * PMU_GENERATION_MODEL(&p5_model)`.  The host's `detect` tool
 * (tools/lab/pmu_detect.c) links the drivers and the detect hooks, to
 * say what the image would of a CPU, but no model: it builds with
 * PMU_GENERATION_NO_MODELS. */
#if defined(PMU_GENERATION_NO_OPS) || defined(PMU_GENERATION_NO_MODELS)
#define PMU_GENERATION_MODEL(model) NULL
#else
#define PMU_GENERATION_MODEL(model) (model)
#endif

/* The event listing as a descriptor names it: `.list_events =
 * PMU_GENERATION_EVENTS(p5_list_events)`.  Only the `events` tool has
 * the listings (pmu/<gen>/listing.c is no part of the image; the Makefile
 * builds pmu-events with PMU_GENERATION_WITH_EVENTS). */
#ifdef PMU_GENERATION_WITH_EVENTS
#define PMU_GENERATION_EVENTS(fn) (fn)
#else
#define PMU_GENERATION_EVENTS(fn) NULL
#endif

/* The referee as a descriptor names it: `.referee =
 * PMU_GENERATION_REFEREE(&p6_referee)`.  Only pfm-check has the referees
 * (pmu/<gen>/referee.c is no part of the image; the Makefile builds
 * pfm-check with PMU_GENERATION_WITH_REFEREE). */
#ifdef PMU_GENERATION_WITH_REFEREE
#define PMU_GENERATION_REFEREE(tables) (tables)
#else
#define PMU_GENERATION_REFEREE(tables) NULL
#endif

/* The section's name is a C identifier, so the host's linker brackets it
 * with __start_/__stop_ symbols by itself; linker.ld and linker-i386.ld
 * define the same two symbols around it. */
#ifndef PMU_GENERATION_LISTING
#define PMU_GENERATION(id, ...)                                              \
	static const struct pmu_generation generation_##id                   \
		__attribute__((used, section("pmu_generations"),             \
			       aligned(8))) = { __VA_ARGS__ }
#else
/* The build's listing for the host tools (build/pmu-generations.txt):
 * the preprocessed descriptor on one line (the Makefile says more). */
#define PMU_GENERATION(id, ...) pmu_generation_listing: __VA_ARGS__
#endif

/* The PMU a CPU has: none on a vendor this harness knows no PMU of; on
 * AMD from the K7 on one it has no driver for (pmu_unsupported_reason());
 * on Intel the generation that the CPU reports itself (reported: the kind
 * whose generation's detect hook said so, PMU_NONE for none), else the
 * one whose signatures match, else none. */
enum pmu_kind cpu_pmu_kind(enum cpu_vendor v, unsigned family, unsigned model,
			   enum pmu_kind reported);
/* The generations linked in, in link order: *n of them. */
const struct pmu_generation *pmu_generations(unsigned *n);
/* The generation that drives kind k (not a feature), or NULL. */
const struct pmu_generation *pmu_generation_for(enum pmu_kind k);
/* The generation whose test group name starts with, or NULL for a test of
 * no generation (apic/, arch/, detect/, ...). */
const struct pmu_generation *pmu_generation_of_test(const char *name);
/* The "# pmu: kind=" word of k: its generation's, "none" or
 * "unsupported". */
const char *pmu_kind_name(enum pmu_kind k);
/* The driver of a PMU kind, or NULL when none is built yet. */
const struct pmu_driver *pmu_driver_for(enum pmu_kind k);
/* The Last Branch Records of the CPU ci describes, whose PMU is of kind
 * k, as the lbr hook of k's generation says (pmu/lbr.h): 0, or -1 (none)
 * or -2 (a layout the table does not know) with *why, and *l not to be
 * used. */
int pmu_lbr_layout(enum pmu_kind k, const struct cpu_info *ci,
		   struct lbr_layout *l, const char **why);
/* The general-purpose counters and their width of PMU kind k on the CPU
 * ci describes (0, 0 for a kind no generation drives). */
void pmu_generation_shape(enum pmu_kind k, const struct cpu_info *ci,
			  unsigned *counters, unsigned *width);

#endif
