/* generation: one descriptor per PMU generation, registered the way tests
 * (harness/test.h) and models (pmu/model.h) are, in a linker section.
 *
 * A generation is a folder pmu/<name>/ holding its register layout, event
 * tables, driver and model; its pmu/<name>/generation.c says what the rest
 * of the harness needs to know about it: the PMU kind it drives, its
 * driver, the presence probe, and the test groups that belong to it.
 * detect.c's probe, the driver lookup, the "# pmu:" line and the test
 * selection (harness/select.c) are derived from the descriptors, and the
 * build lists them for the host tools (build/pmu-generations.txt, see the
 * Makefile).  Adding a generation is one folder plus its boot-table
 * entries, and a kind in cpu_model.h.
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

/* An event selection with every enable and privilege bit clear, written
 * and read back to see whether the PMU's first selection register exists
 * (pmu/detect.c). */
struct pmu_presence_probe {
	uint32_t msr;
	uint64_t value;
};

#define PMU_GENERATION_GROUPS 4

struct pmu_generation {
	const char *name;		/* its folder under pmu/ */
	enum pmu_kind kind;
	const char *kind_name;		/* "# pmu: kind=" (NULL for a feature) */
	int feature;			/* 1: extends kind's generation */
	const struct pmu_driver *driver;	/* NULL for a feature */
	struct pmu_presence_probe probe;	/* msr 0: none */
	/* Test-name prefixes ("p5/") of the groups that need this kind. */
	const char *groups[PMU_GENERATION_GROUPS];
} __attribute__((aligned(8)));	/* a multiple of the objects' alignment:
				 * the section is walked as an array */

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

#endif
