/* topology: where a logical processor sits - which thread of which core
 * of which package - from its APIC ID and the CPUID leaves that say how
 * the ID is split into fields.
 *
 * SDM Vol. 3A §8.9 (order no. 253668-059US), "Programming Considerations
 * for Hardware Multi-Threading Capable Processors": every logical
 * processor's APIC ID is the concatenation package : core : SMT (§8.9.1,
 * §8.9.3); the field widths come from CPUID leaf 0BH where it exists
 * (§8.9.4 and Vol. 2A CPUID, "Extended Topology Enumeration Leaf", order
 * no. 253666), else from leaf 01H EBX[23:16] (addressable logical
 * processor IDs in the package) and leaf 04H EAX[31:26] (addressable core
 * IDs in the package, minus 1) (§8.9.4, "legacy" algorithm).
 *
 * topo_read() executes CPUID on the processor it runs on: run it there to
 * learn that processor's place.  Decoding what it read is pure
 * (host-tested). */
#ifndef ARCH_X86_TOPOLOGY_H
#define ARCH_X86_TOPOLOGY_H

#include <stdint.h>

enum topo_source {
	TOPO_LEAF_0B,		/* extended topology leaf */
	TOPO_LEAF_01_04,	/* legacy: 01H logical count, 04H core count */
	TOPO_LEAF_01,		/* 01H only (no leaf 04H): one core */
	TOPO_SINGLE,		/* CPUID.01H:EDX.HTT = 0: one logical
				 * processor per package */
};

struct topo {
	enum topo_source source;
	uint32_t apic_id;	/* x2APIC ID (0BH EDX) or initial APIC ID
				 * (01H EBX[31:24]) */
	unsigned smt_bits;	/* low APIC ID bits: the thread in its core */
	unsigned core_bits;	/* the next bits: the core in its package */
	unsigned threads_per_core;	/* 0BH: logical processors at the SMT
					 * level; else 1 << smt_bits (an
					 * upper bound, §8.9.4) */
	uint32_t thread_id, core_id, package_id;
};

/* CPUID.01H:EDX.HTT[bit 28]: EBX[23:16] is valid (Vol. 2A CPUID). */
#define CPUID1_EDX_HTT (1u << 28)
#define CPUID_LEAF_CACHE 0x04u
#define CPUID_LEAF_TOPOLOGY 0x0bu

/* Reads the leaves on this processor and decodes them. */
void topo_read(struct topo *t);
/* Where another processor's APIC ID puts it, split with the field widths
 * of t (read on this processor; the processors of one system split their
 * IDs alike, §8.9.1): a firmware table that lists APIC IDs only (the ACPI
 * MADT, an MP table) gives no location of its own. */
void topo_locate(const struct topo *t, uint32_t apic_id, uint32_t *package,
		 uint32_t *core, uint32_t *thread);
/* Two processors are threads of one core: same package and core ID,
 * decoded with the same field widths. */
int topo_same_core(const struct topo *a, const struct topo *b);
const char *topo_source_name(enum topo_source s);

#endif
