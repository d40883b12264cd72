/* topology: APIC ID fields from CPUID (topology.h). */
#include "topology.h"
#include "cpu.h"

#define TOPO_SUBLEAVES 4	/* leaf 0BH sub-leaves read (SMT, core, ...) */

/* The CPUID outputs topo_decode() needs, as read on one processor. */
struct topo_leaves {
	uint32_t max_leaf;			/* CPUID.00H:EAX */
	struct cpuid_regs l1;			/* CPUID.01H */
	struct cpuid_regs l4;			/* CPUID.04H, ECX = 0 */
	struct cpuid_regs lb[TOPO_SUBLEAVES];	/* CPUID.0BH, ECX = 0.. */
};

/* Leaf 0BH, Vol. 2A CPUID (order no. 253666): EAX[4:0] the shift that
 * takes the x2APIC ID to the next level's ID; EBX[15:0] the logical
 * processors at this level; ECX[15:8] the level type (0 invalid, 1 SMT,
 * 2 core); EDX the x2APIC ID. */
#define LB_SHIFT(r) ((r).eax & 0x1fu)
#define LB_COUNT(r) ((r).ebx & 0xffffu)
#define LB_TYPE(r) ((r).ecx >> 8 & 0xffu)
#define LB_TYPE_SMT 1u
#define LB_TYPE_CORE 2u
/* Leaf 04H EAX[4:0]: cache type, 0 = no more caches (the leaf is empty). */
#define L4_TYPE(r) ((r).eax & 0x1fu)
#define L4_CORES(r) (((r).eax >> 26) + 1u)

/* Bits needed for n distinct IDs: ceil(log2(n)), 0 for n <= 1. */
static unsigned id_bits(uint32_t n)
{
	unsigned b = 0;

	while (b < 32 && (1ull << b) < n)
		b++;
	return b;
}

static uint32_t field(uint32_t v, unsigned shift, unsigned bits)
{
	if (shift >= 32)
		return 0;
	v >>= shift;
	return bits >= 32 ? v : v & ((1u << bits) - 1);
}

static int has_leaf_0b(const struct topo_leaves *l)
{
	return l->max_leaf >= CPUID_LEAF_TOPOLOGY && LB_COUNT(l->lb[0]) != 0;
}

/* §8.9.4: walk the levels; the last valid level's shift is where the
 * package ID starts. */
static void decode_0b(const struct topo_leaves *l, struct topo *t)
{
	unsigned smt = 0, pkg = 0;

	t->source = TOPO_LEAF_0B;
	t->apic_id = l->lb[0].edx;
	t->threads_per_core = 1;
	for (unsigned i = 0; i < TOPO_SUBLEAVES; i++) {
		unsigned type = LB_TYPE(l->lb[i]);

		if (type == 0)
			break;
		if (type == LB_TYPE_SMT) {
			smt = LB_SHIFT(l->lb[i]);
			t->threads_per_core = LB_COUNT(l->lb[i]);
		}
		pkg = LB_SHIFT(l->lb[i]);
	}
	t->smt_bits = smt;
	t->core_bits = pkg > smt ? pkg - smt : 0;
}

/* §8.9.4, the algorithm for processors without leaf 0BH. */
static void decode_legacy(const struct topo_leaves *l, struct topo *t)
{
	uint32_t logical = l->l1.ebx >> 16 & 0xffu, cores = 1;
	unsigned lbits;

	t->apic_id = l->l1.ebx >> 24;
	if (!(l->l1.edx & CPUID1_EDX_HTT)) {
		t->source = TOPO_SINGLE;
		t->smt_bits = t->core_bits = 0;
		t->threads_per_core = 1;
		return;
	}
	t->source = TOPO_LEAF_01;
	if (l->max_leaf >= CPUID_LEAF_CACHE && L4_TYPE(l->l4) != 0) {
		t->source = TOPO_LEAF_01_04;
		cores = L4_CORES(l->l4);
	}
	lbits = id_bits(logical);
	t->core_bits = id_bits(cores);
	t->smt_bits = lbits > t->core_bits ? lbits - t->core_bits : 0;
	t->threads_per_core = 1u << t->smt_bits;
}

/* The fields of the APIC ID in l, by leaf 0BH where it has levels, else
 * by leaves 01H and 04H. */
static void topo_decode(const struct topo_leaves *l, struct topo *t)
{
	if (has_leaf_0b(l))
		decode_0b(l, t);
	else
		decode_legacy(l, t);
	topo_locate(t, t->apic_id, &t->package_id, &t->core_id,
		    &t->thread_id);
}

void topo_locate(const struct topo *t, uint32_t apic_id, uint32_t *package,
		 uint32_t *core, uint32_t *thread)
{
	*thread = field(apic_id, 0, t->smt_bits);
	*core = field(apic_id, t->smt_bits, t->core_bits);
	*package = field(apic_id, t->smt_bits + t->core_bits, 32);
}

int topo_same_core(const struct topo *a, const struct topo *b)
{
	return a->smt_bits == b->smt_bits && a->core_bits == b->core_bits &&
	       a->package_id == b->package_id && a->core_id == b->core_id;
}

const char *topo_source_name(enum topo_source s)
{
	switch (s) {
	case TOPO_LEAF_0B: return "cpuid-0bh";
	case TOPO_LEAF_01_04: return "cpuid-01h-04h";
	case TOPO_LEAF_01: return "cpuid-01h";
	default: return "single";
	}
}

/* On the target; and in a host tool whose CPUID answers from a dump
 * (arch/x86/cpu.h HOST_CPUID, tools/lab/pmu_detect.c). */
#if !defined(HOST_TEST) || defined(HOST_CPUID)
void topo_read(struct topo *t)
{
	struct topo_leaves l = { 0 };

	l.max_leaf = cpuid(0).eax;
	l.l1 = cpuid(1);
	if (l.max_leaf >= CPUID_LEAF_CACHE)
		l.l4 = cpuid_count(CPUID_LEAF_CACHE, 0);
	if (l.max_leaf >= CPUID_LEAF_TOPOLOGY)
		for (unsigned i = 0; i < TOPO_SUBLEAVES; i++)
			l.lb[i] = cpuid_count(CPUID_LEAF_TOPOLOGY, i);
	topo_decode(&l, t);
}
#endif
