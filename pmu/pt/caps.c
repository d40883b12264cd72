/* pmu/pt/caps.c: what Intel PT a CPU offers (caps.h) - CPUID leaf 14H where
 * the CPU reports PT, else, where the reference model answers the MSRs
 * (backend=model, and backend=emulated: backend_model_backed()), the
 * capability row of the CPU the model stands in for (QEMU under TCG
 * reports no PT: its CPUID.07H:EBX[25] is clear).
 *
 * CPUID leaf 14H (Intel SDM Vol. 3C, order no. 326019-060US, §36.3.1,
 * Table 36-11 sub-leaf 0, Table 36-12 sub-leaf 1; Vol. 2A CPUID "Intel
 * Processor Trace Enumeration"):
 *   sub-leaf 0: EAX the highest sub-leaf; EBX bit 0 CR3 filtering, bit 1
 *   configurable PSB and cycle-accurate mode (CYCEn, CycThresh,
 *   PSBFreq), bit 2 IP filtering and TraceStop, bit 3 MTC, bit 4
 *   PTWRITE, bit 5 power event trace; ECX bit 0 ToPA output, bit 1 ToPA
 *   tables of many entries, bit 2 single-range output, bit 3 output to
 *   the trace transport, bit 31 IP payloads are LIPs;
 *   sub-leaf 1: EAX bits 2:0 the address ranges, bits 31:16 the MTCFreq
 *   encodings; EBX bits 15:0 the CycThresh encodings, bits 31:16 the
 *   PSBFreq encodings (bit n: encoding n is supported).
 *
 * Where the rows come from: raw CPUID dumps of real parts, the AIDA64 /
 * cpuid dumps libcpuid keeps as test data (github.com/anrieff/libcpuid
 * tests/intel/x86-64/..., at 2d1e0190b189) and the dumps of
 * github.com/InstLatx64/InstLatx64 (GenuineIntel/..., at 087af2c7d72c),
 * both printing sub-leaves 0 and 1 of leaf 14H; QEMU's fixed PT
 * capabilities (target/i386/cpu.c INTEL_PT_MINIMAL_EBX 0xf,
 * INTEL_PT_MINIMAL_ECX 0x7, 2 address ranges, MTC bitmap 0x0249, cycle
 * bitmap 0x1fff, PSB bitmap 0x003f), which its developers describe as the
 * values an Ice Lake server reports, agree with the Ice Lake rows.  Every
 * value below was read from at least one dump of a part with that
 * family/model ("confirmed"); none is derived.  Broadwell also has PT
 * (06_3D, 06_47, 06_4F: 14H.0 = 0 1 1 0 in InstLatx64's dumps, ToPA only,
 * no sub-leaf 1) but the arch-perfmon table has no Broadwell row, so it
 * has none here either.
 */
#include "caps.h"
#include "../backend.h"
#include "../detect.h"
#include "../../arch/x86/cpu.h"

#define PT_ROW(f, m, n, a0, b0, c0, a1, b1, why)                           \
	{ .family = f, .model = m, .name = n,                                \
	  .caps = { .eax0 = a0, .ebx0 = b0, .ecx0 = c0, .eax1 = a1,          \
		    .ebx1 = b1, .source = "model:" n },                      \
	  .cite = why }

static const struct pt_caps_row pt_caps_table[] = {
	/* Skylake client (06_5E): CR3 filter, PSB/CYC, IP filter, MTC; ToPA
	 * of many entries and single-range output; 2 address ranges, MTC
	 * periods 0, 3, 6, 9, CycThresh 0-13, PSBFreq 0-5. */
	PT_ROW(6, 0x5e, "Skylake-Client", 1, 0x0f, 0x07, 0x02490002,
	       0x003f3fff,
	       "confirmed CPUID.14H (libcpuid skylake/intel-core-i7-6700k-cpu "
	       "506E3, intel-core-i3-6100-cpu 506E3; InstLatx64 "
	       "GenuineIntel00506E3_Skylake_CPUID): 0: 1 F 7 0, "
	       "1: 02490002 003F3FFF"),
	/* Skylake mobile (06_4E): as 06_5E. */
	PT_ROW(6, 0x4e, "Skylake-Client-Mobile", 1, 0x0f, 0x07, 0x02490002,
	       0x003f3fff,
	       "confirmed CPUID.14H (libcpuid skylake/intel-core-i7-6500u-cpu "
	       "406E3, intel-core-m3-6y30-cpu 406E3; InstLatx64 "
	       "GenuineIntel00406E3_Skylake_CPUID): 0: 1 F 7 0, "
	       "1: 02490002 003F3FFF"),
	/* Cascade Lake server (06_55 stepping 7): as Skylake client. */
	PT_ROW(6, 0x55, "Cascadelake-Server", 1, 0x0f, 0x07, 0x02490002,
	       0x003f3fff,
	       "confirmed CPUID.14H (InstLatx64 GenuineIntel0050657_"
	       "CascadeLakeSP_CPUID1; libcpuid skylake/intel-core-i9-10980xe-"
	       "cpu 50657): 0: 1 F 7 0, 1: 02490002 003F3FFF"),
	/* Ice Lake client (06_7E): CycThresh 0-12. */
	PT_ROW(6, 0x7e, "Icelake-Client", 1, 0x0f, 0x07, 0x02490002,
	       0x003f1fff,
	       "confirmed CPUID.14H (libcpuid sunny-cove/intel-core-i7-1065g7-"
	       "cpu 706E5; InstLatx64 GenuineIntel00706E5_IceLakeY_CPUID): "
	       "0: 1 F 7 0, 1: 02490002 003F1FFF"),
	/* Ice Lake server (06_6A): as Ice Lake client; QEMU's fixed PT
	 * capabilities are these values. */
	PT_ROW(6, 0x6a, "Icelake-Server", 1, 0x0f, 0x07, 0x02490002,
	       0x003f1fff,
	       "confirmed CPUID.14H (InstLatx64 GenuineIntel00606A6_ICX_"
	       "CPUID2, _CPUID3 606A6): 0: 1 F 7 0, 1: 02490002 003F1FFF; "
	       "QEMU INTEL_PT_* (ICX) agree"),
	/* Sapphire Rapids (06_8F): EBX0 adds bit 6 (reserved in the 060
	 * SDM; kept as the part reports it); CycThresh 0-5 only. */
	PT_ROW(6, 0x8f, "SapphireRapids", 1, 0x5f, 0x07, 0x02490002,
	       0x003f003f,
	       "confirmed CPUID.14H (InstLatx64 GenuineIntel00806F8_"
	       "SapphireRapids_05_CPUID, _06_CPUID 806F8): 0: 1 5F 7 0, "
	       "1: 02490002 003F003F"),
};

static const unsigned pt_caps_table_len =
	sizeof(pt_caps_table) / sizeof(pt_caps_table[0]);

const struct pt_caps_row *pt_caps_row_for(unsigned family, unsigned model)
{
	for (unsigned i = 0; i < pt_caps_table_len; i++)
		if (pt_caps_table[i].family == family &&
		    pt_caps_table[i].model == model)
			return &pt_caps_table[i];
	return 0;
}

/* CPUID.14H as this CPU reports it; NULL when its highest leaf is
 * below 14H. */
static const struct pt_caps *from_cpuid(const struct cpu_info *ci,
					const char **why)
{
	static struct pt_caps own;
	struct cpuid_regs r0, r1 = { 0 };

	if (ci->max_leaf < 0x14) {
		*why = "CPUID.07H:EBX[25] (Intel PT) is set but the highest "
		       "basic CPUID leaf is below 14H";
		return 0;
	}
	r0 = cpuid_count(0x14, 0);
	if (r0.eax >= 1)
		r1 = cpuid_count(0x14, 1);
	own = (struct pt_caps){ .eax0 = r0.eax, .ebx0 = r0.ebx,
				.ecx0 = r0.ecx, .eax1 = r1.eax,
				.ebx1 = r1.ebx, .source = "cpuid" };
	return &own;
}

const struct pt_caps *pt_caps(const char **why)
{
	const struct cpu_info *ci = cpu_info();
	const struct pt_caps_row *row;
	const char *dummy;

	if (!why)
		why = &dummy;
	*why = 0;
	if (ci->f7_ebx & CPUID7_EBX_PT)
		return from_cpuid(ci, why);
	if (!backend_model_backed()) {
		*why = "CPUID.07H:EBX[25] (Intel PT) is clear and the model "
		       "does not stand in";
		return 0;
	}
	row = pt_caps_row_for(ci->sig.family, ci->sig.model);
	if (!row) {
		*why = "CPUID.07H:EBX[25] (Intel PT) is clear and the PT "
		       "capability table has no row for this family/model";
		return 0;
	}
	return &row->caps;
}

int pt_has_cyc(const struct pt_caps *c)
{
	return c && (c->ebx0 & PT_EBX_PSB_CYC);
}

int pt_has_mtc(const struct pt_caps *c)
{
	return c && (c->ebx0 & PT_EBX_MTC);
}

int pt_has_single_range(const struct pt_caps *c)
{
	return c && (c->ecx0 & PT_ECX_SINGLE_RANGE);
}

int pt_has_topa(const struct pt_caps *c)
{
	return c && (c->ecx0 & PT_ECX_TOPA);
}

/* Table 36-12: the bitmap applies only with EBX[1]; without it the field
 * is reserved to 0. */
int pt_cyc_thresh_ok(const struct pt_caps *c, unsigned v)
{
	if (v > 15)
		return 0;
	if (!pt_has_cyc(c))
		return v == 0;
	return (c->ebx1 >> v & 1) != 0;
}

/* Table 36-12: sub-leaf 1 EAX[31:16] the MTCFreq encodings (with MTC),
 * EBX[31:16] the PSBFreq encodings (with EBX[1]). */
int pt_mtc_freq_ok(const struct pt_caps *c, unsigned v)
{
	return v <= 15 && pt_has_mtc(c) && (c->eax1 >> (16 + v) & 1);
}

int pt_psb_freq_ok(const struct pt_caps *c, unsigned v)
{
	return v <= 15 && pt_has_cyc(c) && (c->ebx1 >> (16 + v) & 1);
}
