/* detect group: CPU identification from CPUID (SDM Vol. 2A, CPUID) and the
 * PMU kind and presence probe (pmu/detect.c). */
#include "../../harness/test.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/safe.h"
#include "../../pmu/detect.h"
#include "../../pmu/generation.h"

static int printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return 0;
	return 1;
}

static void test_cpuid_basics(struct tcase *t)
{
	const struct cpu_info *ci = cpu_info();
	struct cpuid_regs r = cpuid(0);

	value(t, "max_leaf", "0x%x", ci->max_leaf);
	value(t, "max_ext_leaf", "0x%x", ci->max_ext_leaf);
	value(t, "vendor", "%s", ci->vendor_id);
	check(t, ci->max_leaf >= 1, "CPUID max leaf %u < 1", ci->max_leaf);
	check(t, r.eax == ci->max_leaf, "CPUID.0 changed: 0x%x then 0x%x",
	      ci->max_leaf, r.eax);
	check(t, printable(ci->vendor_id), "vendor id not printable");
	check(t, ci->max_ext_leaf == 0 || ci->max_ext_leaf >= 0x80000000u,
	      "extended max leaf 0x%x below 0x80000000", ci->max_ext_leaf);
	check(t, printable(ci->brand), "brand string not printable");
}

TEST(detect_cpuid, "detect/cpuid-basics",
     "CPUID.0 gives a printable vendor and max leaf >= 1", test_cpuid_basics,
     0);

/*
 * Re-encode the decoded signature into CPUID.1:EAX (SDM Vol. 2A Figure
 * 3-6: stepping 3:0, model 7:4, family 11:8, type 13:12, extended model
 * 19:16, extended family 27:20) and expect the raw value back.
 */
static void test_signature(struct tcase *t)
{
	const struct cpu_info *ci = cpu_info();
	const struct cpu_sig *s = &ci->sig;
	uint32_t raw = cpuid(1).eax & 0x0fff3fff;
	unsigned base_family = s->family >= 0xf ? 0xf : s->family;
	unsigned ext_family = s->family >= 0xf ? s->family - 0xf : 0;
	uint32_t enc;

	enc = s->stepping | (s->model & 0xf) << 4 | base_family << 8 |
	      s->type << 12 | ext_family << 20;
	/* The extended model is part of DisplayModel only for these families;
	 * elsewhere it is carried as is. */
	if (base_family == 0xf || (base_family == 6 && ci->vendor != VENDOR_AMD))
		enc |= (s->model >> 4) << 16;
	else
		enc |= raw & 0xf0000;
	value(t, "signature", "0x%x", raw);
	value(t, "family", "%u", s->family);
	value(t, "model", "%u", s->model);
	value(t, "stepping", "%u", s->stepping);
	check(t, s->raw == cpuid(1).eax, "stored signature 0x%x != CPUID 0x%x",
	      s->raw, cpuid(1).eax);
	check(t, enc == raw, "re-encoded 0x%x != CPUID.1:EAX 0x%x", enc, raw);
}

TEST(detect_signature, "detect/signature-decode",
     "family/model/stepping re-encode to CPUID.1:EAX", test_signature, 0);

/* CPUID.0AH:EAX as this test reads it, 0 where Intel's leaf 0AH is
 * absent (SDM Vol. 2A CPUID): EAX[7:0] the version ID, [15:8] the GP
 * counters, [23:16] their width (Vol. 3B §18.2.1). */
static uint32_t cpuid_0ah_eax(const struct cpu_info *ci)
{
	if (ci->vendor != VENDOR_INTEL || cpuid(0).eax < 0xa)
		return 0;
	return cpuid(0xa).eax;
}

/* The PMU kind follows the SDM's rules from what CPUID reports. */
static void test_pmu_kind(struct tcase *t)
{
	const struct cpu_info *ci = cpu_info();
	uint32_t eax = cpuid_0ah_eax(ci);
	unsigned version = eax & 0xff, gp = eax >> 8 & 0xff,
		 gp_width = eax >> 16 & 0xff;
	enum pmu_kind want;

	if (ci->vendor == VENDOR_AMD)	/* K7 on: a PMU without a driver */
		want = ci->sig.family >= 6 ? PMU_UNSUPPORTED : PMU_NONE;
	else if (ci->vendor != VENDOR_INTEL)
		want = PMU_NONE;
	else if (version >= 1)
		want = PMU_ARCH;	/* SDM Vol. 3B §18.2 */
	else if (ci->sig.family == 5 && ci->sig.model == 9)
		want = PMU_NONE;	/* Quark X1000: no CESR */
	else if (ci->sig.family == 5)
		want = PMU_P5;		/* §18.23 */
	else if (ci->sig.family == 15)
		want = PMU_NETBURST;	/* §18.16 */
	else if (ci->sig.family == 6 && ci->sig.model <= 0x0d)
		want = PMU_P6;		/* §18.22 */
	else if (ci->sig.family == 6)
		want = PMU_ARCH;
	else
		want = PMU_NONE;
	value(t, "kind", "%s", pmu_kind_name(ci->pmu));
	value(t, "arch_version", "%u", version);
	value(t, "counters", "%u", ci->counters);
	value(t, "width", "%u", ci->width);
	check(t, ci->pmu == want, "kind %s, expected %s",
	      pmu_kind_name(ci->pmu), pmu_kind_name(want));
	if (ci->pmu == PMU_P5)
		check(t, ci->counters == 2 && ci->width == 40,
		      "P5 shape %u x %u bits, expected 2 x 40", ci->counters,
		      ci->width);
	if (ci->pmu == PMU_ARCH && version >= 1)
		check(t, gp >= 1 && gp_width >= 32,
		      "CPUID.0AH: %u counters of %u bits", gp, gp_width);
}

TEST(detect_pmu_kind, "detect/pmu-kind",
     "the PMU kind matches CPUID's vendor, family, model and leaf 0AH",
     test_pmu_kind, 0);

/* The probe proves presence by read-back and leaves the register as found. */
static void test_probe(struct tcase *t)
{
	const struct pmu_probe *p = &cpu_info()->probe;
	uint64_t now = 0;
	int vec;

	if (!p->done) {
		value(t, "probe", "none: no PMU kind to probe");
		check(t, cpu_info()->pmu == PMU_NONE ||
		      cpu_info()->pmu == PMU_UNSUPPORTED,
		      "PMU kind %s was not probed",
		      pmu_kind_name(cpu_info()->pmu));
		return;
	}
	vec = rdmsr_safe(p->msr, &now);
	value(t, "msr", "0x%x", p->msr);
	value(t, "wrote", "0x%llx", (unsigned long long)p->wrote);
	value(t, "read", "0x%llx", (unsigned long long)p->read);
	value(t, "present", "%d", p->present);
	check(t, p->present == (!p->wr_vector && !p->rd_vector &&
				p->read == p->wrote),
	      "present=%d disagrees with the read-back", p->present);
	check(t, vec != 0 || now != p->wrote || p->wrote == 0,
	      "probe value 0x%llx left in MSR 0x%x",
	      (unsigned long long)now, p->msr);
}

TEST(detect_probe, "detect/pmu-probe",
     "counter presence is proven by write/read-back and undone",
     test_probe, 0);
