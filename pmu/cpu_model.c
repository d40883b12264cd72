/* cpu_model: signature decoding and the model-name table (see cpu_model.h). */
#include "cpu_model.h"
#include "../lib/fmt.h"
#include "../lib/string.h"

enum cpu_vendor cpu_vendor_from_id(const char id[12])
{
	if (!memcmp(id, "GenuineIntel", 12))
		return VENDOR_INTEL;
	if (!memcmp(id, "AuthenticAMD", 12))
		return VENDOR_AMD;
	return VENDOR_OTHER;
}

/*
 * SDM Vol. 2A, CPUID leaf 01H, "Version Information": DisplayFamily adds the
 * extended family only when Family_ID is 0FH; DisplayModel prepends the
 * extended model when Family_ID is 06H or 0FH.  AMD (APM Vol. 3, CPUID Fn1
 * EAX) uses the extended model only for base family 0FH.
 */
void cpu_sig_decode(uint32_t eax, enum cpu_vendor v, struct cpu_sig *s)
{
	unsigned base_family = (eax >> 8) & 0xf;
	unsigned base_model = (eax >> 4) & 0xf;
	unsigned ext_family = (eax >> 20) & 0xff;
	unsigned ext_model = (eax >> 16) & 0xf;
	int use_ext_model = base_family == 0xf ||
			    (base_family == 6 && v != VENDOR_AMD);

	s->raw = eax;
	s->stepping = eax & 0xf;
	s->type = (eax >> 12) & 3;
	s->family = base_family == 0xf ? base_family + ext_family : base_family;
	s->model = use_ext_model ? (ext_model << 4) | base_model : base_model;
}

#define I(f, m, n) { VENDOR_INTEL, f, m, n }
#define A(f, m, n) { VENDOR_AMD, f, m, n }

/*
 * Sources: SDM Vol. 4 Table 2-1 (CPUID signature values of DisplayFamily_
 * DisplayModel, for family 06H and 0FH), the Pentium Processor Family
 * Developer's Manual and AP-485 "Intel Processor Identification and the
 * CPUID Instruction" (family 05H and early family 06H models), and the
 * SDM Vol. 3B chapter 19 model lists.  One row per (family, model); a model
 * number shared by several products names them all.
 */
static const struct cpu_model models[] = {
	/* Pentium (P5 microarchitecture): CESR/CTR0/CTR1 */
	I(5, 0x1, "Pentium (P5, 60/66 MHz)"),
	I(5, 0x2, "Pentium (P54C)"),
	I(5, 0x3, "Pentium OverDrive for Intel486 (P24T)"),
	I(5, 0x4, "Pentium with MMX technology (P55C)"),
	I(5, 0x7, "Mobile Pentium (P54CS, 0.35 um)"),
	I(5, 0x8, "Mobile Pentium MMX (Tillamook)"),
	/* Quark SoC X1000: a Pentium-ISA core whose MSR list has no CESR,
	 * CTR0 or CTR1 (pmu/p5/generation.c leaves it out). */
	I(5, 0x9, "Quark SoC X1000"),
	/* P6: Pentium Pro, II, III, M */
	I(6, 0x01, "Pentium Pro"),
	I(6, 0x03, "Pentium II (Klamath)"),
	I(6, 0x05, "Pentium II / Celeron / Xeon (Deschutes)"),
	I(6, 0x06, "Celeron / Mobile Pentium II (Mendocino, Dixon)"),
	I(6, 0x07, "Pentium III (Katmai)"),
	I(6, 0x08, "Pentium III (Coppermine)"),
	I(6, 0x09, "Pentium M (Banias)"),
	I(6, 0x0a, "Pentium III Xeon (Cascades)"),
	I(6, 0x0b, "Pentium III (Tualatin)"),
	I(6, 0x0d, "Pentium M (Dothan)"),
	I(6, 0x0e, "Core Solo / Core Duo (Yonah)"),
	/* Core 2 */
	I(6, 0x0f, "Core 2 (Merom, Conroe, Woodcrest)"),
	I(6, 0x16, "Core 2 / Celeron (Merom-L)"),
	I(6, 0x17, "Core 2 (Penryn, Wolfdale, Yorkfield)"),
	I(6, 0x1d, "Xeon 7400 (Dunnington)"),
	/* Nehalem, Westmere */
	I(6, 0x1a, "Core i7 / Xeon 5500 (Nehalem-EP, Bloomfield)"),
	I(6, 0x1e, "Core i5/i7 (Nehalem, Lynnfield)"),
	I(6, 0x1f, "Core i7 (Nehalem, Auburndale)"),
	I(6, 0x2e, "Xeon 7500 (Nehalem-EX)"),
	I(6, 0x25, "Core i3/i5/i7 (Westmere, Clarkdale)"),
	I(6, 0x2c, "Core i7 / Xeon 5600 (Westmere-EP, Gulftown)"),
	I(6, 0x2f, "Xeon E7 (Westmere-EX)"),
	/* Sandy Bridge to Comet Lake */
	I(6, 0x2a, "Core 2nd gen (Sandy Bridge)"),
	I(6, 0x2d, "Xeon E5 (Sandy Bridge-EP)"),
	I(6, 0x3a, "Core 3rd gen (Ivy Bridge)"),
	I(6, 0x3e, "Xeon E5 v2 (Ivy Bridge-EP)"),
	I(6, 0x3c, "Core 4th gen (Haswell)"),
	I(6, 0x3f, "Xeon E5 v3 (Haswell-EP)"),
	I(6, 0x45, "Core 4th gen (Haswell-ULT)"),
	I(6, 0x46, "Core 4th gen (Haswell, Crystal Well)"),
	I(6, 0x3d, "Core 5th gen (Broadwell)"),
	I(6, 0x47, "Core 5th gen (Broadwell-H)"),
	I(6, 0x4f, "Xeon E5 v4 (Broadwell-EP)"),
	I(6, 0x56, "Xeon D (Broadwell-DE)"),
	I(6, 0x4e, "Core 6th gen mobile (Skylake)"),
	I(6, 0x5e, "Core 6th gen (Skylake)"),
	I(6, 0x55, "Xeon Scalable (Skylake-SP, Cascade Lake, Cooper Lake)"),
	I(6, 0x8e, "Core 7th-10th gen mobile (Kaby/Amber/Whiskey/Comet Lake)"),
	I(6, 0x9e, "Core 7th-9th gen (Kaby Lake, Coffee Lake)"),
	I(6, 0xa5, "Core 10th gen (Comet Lake)"),
	I(6, 0xa6, "Core 10th gen mobile (Comet Lake-U)"),
	I(6, 0x66, "Core (Cannon Lake)"),
	/* Ice Lake onwards */
	I(6, 0x7d, "Core 10th gen (Ice Lake)"),
	I(6, 0x7e, "Core 10th gen mobile (Ice Lake)"),
	I(6, 0x6a, "Xeon Scalable 3rd gen (Ice Lake-SP)"),
	I(6, 0x6c, "Xeon D (Ice Lake-D)"),
	I(6, 0xa7, "Core 11th gen (Rocket Lake)"),
	I(6, 0x8c, "Core 11th gen mobile (Tiger Lake)"),
	I(6, 0x8d, "Core 11th gen (Tiger Lake-H)"),
	I(6, 0x97, "Core 12th gen (Alder Lake-S)"),
	I(6, 0x9a, "Core 12th gen mobile (Alder Lake-P)"),
	I(6, 0xbe, "Core i3 N-series (Alder Lake-N)"),
	I(6, 0xb7, "Core 13th/14th gen (Raptor Lake-S)"),
	I(6, 0xba, "Core 13th gen mobile (Raptor Lake-P)"),
	I(6, 0xbf, "Core 13th/14th gen (Raptor Lake-S refresh)"),
	I(6, 0xaa, "Core Ultra series 1 (Meteor Lake)"),
	I(6, 0xac, "Core Ultra (Meteor Lake-S)"),
	I(6, 0xbd, "Core Ultra series 2 (Lunar Lake)"),
	I(6, 0xc5, "Core Ultra series 2 (Arrow Lake-H)"),
	I(6, 0xc6, "Core Ultra series 2 (Arrow Lake-S)"),
	I(6, 0xcc, "Core Ultra series 3 (Panther Lake)"),
	I(6, 0x8f, "Xeon Scalable 4th gen (Sapphire Rapids)"),
	I(6, 0xcf, "Xeon Scalable 5th gen (Emerald Rapids)"),
	I(6, 0xad, "Xeon 6 (Granite Rapids)"),
	I(6, 0xae, "Xeon 6 (Granite Rapids-D)"),
	I(6, 0xaf, "Xeon 6 E-core (Sierra Forest)"),
	I(6, 0xdd, "Xeon 6 E-core (Clearwater Forest)"),
	/* Atom and Xeon Phi */
	I(6, 0x1c, "Atom (Bonnell, Diamondville/Silverthorne)"),
	I(6, 0x26, "Atom (Bonnell, Lincroft)"),
	I(6, 0x27, "Atom (Saltwell, Penwell)"),
	I(6, 0x35, "Atom (Saltwell, Cloverview)"),
	I(6, 0x36, "Atom (Saltwell, Cedarview)"),
	I(6, 0x37, "Atom (Silvermont, Bay Trail)"),
	I(6, 0x4d, "Atom C2000 (Silvermont, Avoton)"),
	I(6, 0x4a, "Atom (Silvermont, Merrifield)"),
	I(6, 0x5a, "Atom (Silvermont, Moorefield)"),
	I(6, 0x4c, "Atom (Airmont, Cherry Trail/Braswell)"),
	I(6, 0x5c, "Atom (Goldmont, Apollo Lake)"),
	I(6, 0x5f, "Atom C3000 (Goldmont, Denverton)"),
	I(6, 0x7a, "Atom (Goldmont Plus, Gemini Lake)"),
	I(6, 0x86, "Atom (Tremont, Jacobsville/Snow Ridge)"),
	I(6, 0x96, "Atom (Tremont, Elkhart Lake)"),
	I(6, 0x9c, "Atom (Tremont, Jasper Lake)"),
	I(6, 0x57, "Xeon Phi (Knights Landing)"),
	I(6, 0x85, "Xeon Phi (Knights Mill)"),
	/* NetBurst: Pentium 4, Xeon, Pentium D (SDM Vol. 4 Table 2-1) */
	I(15, 0x0, "Pentium 4 / Xeon (Willamette, 180 nm)"),
	I(15, 0x1, "Pentium 4 / Xeon (Willamette, Foster, 180 nm)"),
	I(15, 0x2, "Pentium 4 / Xeon (Northwood, Prestonia, 130 nm)"),
	I(15, 0x3, "Pentium 4 / Xeon (Prescott, Nocona, 90 nm)"),
	I(15, 0x4, "Pentium 4 / Pentium D / Xeon (Prescott 2M, Smithfield, "
	  "Irwindale, 90 nm)"),
	I(15, 0x6, "Pentium 4 / Pentium D / Xeon (Cedar Mill, Presler, "
	  "Dempsey, 65 nm)"),
	/* AMD: named per family; this harness has no AMD PMU driver */
	A(0x05, 0x6, "K6"),
	A(0x06, 0x1, "Athlon (K7)"),
	A(0x0f, 0x05, "Opteron / Athlon 64 FX (K8, SledgeHammer)"),
	A(0x10, 0x02, "Phenom / Opteron (K10, Barcelona/Agena)"),
	A(0x10, 0x04, "Phenom II / Opteron (K10, Deneb/Shanghai)"),
	A(0x15, 0x01, "FX / Opteron (Bulldozer)"),
	A(0x15, 0x02, "FX / Opteron (Piledriver)"),
	A(0x17, 0x01, "Ryzen / EPYC (Zen, Summit Ridge/Naples)"),
	A(0x17, 0x31, "EPYC / Threadripper (Zen 2, Rome)"),
	A(0x17, 0x71, "Ryzen 3000 (Zen 2, Matisse)"),
	A(0x19, 0x01, "EPYC (Zen 3, Milan)"),
	A(0x19, 0x21, "Ryzen 5000 (Zen 3, Vermeer)"),
	A(0x19, 0x11, "EPYC (Zen 4, Genoa)"),
	A(0x19, 0x61, "Ryzen 7000 (Zen 4, Raphael)"),
	A(0x1a, 0x02, "EPYC (Zen 5, Turin)"),
	A(0x1a, 0x44, "Ryzen 9000 (Zen 5, Granite Ridge)"),
};

#undef I
#undef A

/* The table row for this family/model, or NULL when the table has none. */
static const struct cpu_model *cpu_model_lookup(enum cpu_vendor v,
						unsigned family, unsigned model)
{
	for (unsigned i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (models[i].vendor == v && models[i].family == family &&
		    models[i].model == model)
			return &models[i];
	return NULL;
}

static const char *vendor_word(enum cpu_vendor v)
{
	return v == VENDOR_INTEL ? "Intel" : v == VENDOR_AMD ? "AMD" : "x86";
}

const char *cpu_model_name(enum cpu_vendor v, unsigned family, unsigned model,
			   char *buf, unsigned size)
{
	const struct cpu_model *m = cpu_model_lookup(v, family, model);

	if (m)
		return m->name;
	fmt_snprintf(buf, size, "unknown %s family %u model 0x%x",
		     vendor_word(v), family, model);
	return buf;
}

/*
 * AMD processors from the K7 (family 6) on have PerfEvtSel0-3/PerfCtr0-3
 * at MSRs C001_0000h-C001_0007h, family 15h and later six core counters
 * at C001_0200h (AMD64 APM Vol. 2, order no. 24593, §13.2 "Performance
 * Monitoring Counters").  The K5 and K6 (family 5) have none.
 */
const char *pmu_unsupported_reason(enum cpu_vendor v, unsigned family)
{
	if (v == VENDOR_AMD)
		return family >= 0x15 ? "AMD core performance counters "
		       "(PerfEvtSel/PerfCtr at C001_0200h, APM Vol. 2 "
		       "section 13.2): no driver in this harness" :
		       "AMD legacy performance counters (PerfEvtSel0-3/"
		       "PerfCtr0-3 at C001_0000h, APM Vol. 2 section 13.2): no driver "
		       "in this harness";
	return "no driver in this harness";
}

const char *pmu_none_reason(enum cpu_vendor v, unsigned family)
{
	/* The Pentium introduced the counters (SDM Vol. 3B §18.1): an Intel
	 * family 4 and below has none; any other family no generation
	 * matches (family 19, a real one; 0; 255) is a CPU the harness does
	 * not know, which is not the same as one without a PMU. */
	if (v == VENDOR_INTEL && (family < 1 || family > 4))
		return "unknown CPU: none of the harness's PMU generations "
		       "matches this signature (pmu/<gen>/generation.c), so it "
		       "cannot say whether or which PMU it has";
	return v == VENDOR_INTEL ? "no performance-monitoring counters "
	       "(family 4 and below: the Pentium introduced them, SDM Vol. "
	       "3B 18.1)" : "not an Intel or AMD processor";
}
