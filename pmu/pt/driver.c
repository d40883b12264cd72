/* pmu/pt/driver.c: the Intel PT driver (driver.h): branch tracing with
 * CYC, MTC and TSC as asked, into a single-range output region, every
 * register access through the backend (pmu_wrmsr / pmu_rdmsr), so the
 * same code programs the real MSRs on hardware with PT and the PT model
 * (pmu/pt/model.c) elsewhere.  What the capabilities do not offer is refused before any
 * register is touched.
 *
 * Citations: Intel SDM Vol. 3C, order no. 326019-060US: §36.2.7.2 Table
 * 36-6 (IA32_RTIT_CTL), §36.2.6.1 (single-range output: a base aligned
 * to the region, a mask of contiguous low 1s, at least 128 bytes since
 * mask bits 6:0 are always 1), §36.2.7.8 (OUTPUT_MASK_PTRS: bits 31:0
 * the mask, 63:32 the offset), §36.3.2 "Enabling and Configuring Trace
 * Generation" (the output MSRs and STATUS written with TraceEn clear,
 * IA32_RTIT_CTL last), Tables 36-11 and 36-12 (CPUID leaf 14H). */
#include "driver.h"
#include "regs.h"
#include "caps.h"
#include "../driver.h"

#define MIN_REGION 128ull		/* MASK_PTRS bits 6:0 read as 1 */
#define MAX_REGION (1ull << 32)		/* the mask is bits 31:0 */

static uint64_t fld(unsigned v, unsigned shift)
{
	return (uint64_t)(v & RTIT_CTL_FIELD_MASK) << shift;
}

static int check_cyc(const struct pt_caps *caps, const struct pt_config *c,
		     struct pmu_err *e)
{
	if (c->cyc && !pt_has_cyc(caps))
		return pmu_fail(e, 0, "PT: CYC asked but cycle-accurate mode "
				"is not offered (CPUID.14H:EBX[1] clear)");
	if (c->cyc_thresh && !c->cyc)
		return pmu_fail(e, 0, "PT: CycThresh %u asked without CYC",
				c->cyc_thresh);
	if (!pt_cyc_thresh_ok(caps, c->cyc_thresh))
		return pmu_fail(e, 0, "PT: CycThresh %u is not offered "
				"(CPUID.14H.1:EBX[15:0] = 0x%x)", c->cyc_thresh,
				caps->ebx1 & 0xffff);
	return 0;
}

static int check_mtc(const struct pt_caps *caps, const struct pt_config *c,
		     struct pmu_err *e)
{
	if (c->mtc && !pt_has_mtc(caps))
		return pmu_fail(e, 0, "PT: MTC asked but not offered "
				"(CPUID.14H:EBX[3] clear)");
	if (c->mtc_freq && !c->mtc)
		return pmu_fail(e, 0, "PT: MTCFreq %u asked without MTC",
				c->mtc_freq);
	if (c->mtc && !pt_mtc_freq_ok(caps, c->mtc_freq))
		return pmu_fail(e, 0, "PT: MTCFreq %u is not offered "
				"(CPUID.14H.1:EAX[31:16] = 0x%x)", c->mtc_freq,
				caps->eax1 >> 16);
	return 0;
}

static int check_psb(const struct pt_caps *caps, const struct pt_config *c,
		     struct pmu_err *e)
{
	if (!c->psb_freq)
		return 0;
	if (!pt_psb_freq_ok(caps, c->psb_freq))
		return pmu_fail(e, 0, "PT: PSBFreq %u is not offered "
				"(CPUID.14H:EBX[1] %s, sub-leaf 1 EBX[31:16] = "
				"0x%x)", c->psb_freq,
				pt_has_cyc(caps) ? "set" : "clear",
				caps->ebx1 >> 16);
	return 0;
}

/* The IA32_RTIT_CTL value of c with TraceEn and BranchEn set, single-
 * range output; -1 with e when caps do not offer what c asks. */
static int ctl_for(const struct pt_caps *caps, const struct pt_config *c,
		   uint64_t *ctl, struct pmu_err *e)
{
	if (!caps)
		return pmu_fail(e, 0, "PT: this CPU has no Intel PT");
	if (!pt_has_single_range(caps))
		return pmu_fail(e, 0, "PT: single-range output is not offered "
				"(CPUID.14H:ECX[2] clear); this driver writes "
				"no ToPA tables");
	if (check_cyc(caps, c, e) || check_mtc(caps, c, e) ||
	    check_psb(caps, c, e))
		return -1;
	*ctl = RTIT_CTL_TRACEEN | RTIT_CTL_BRANCHEN |
	       (c->os ? RTIT_CTL_OS : 0) | (c->user ? RTIT_CTL_USER : 0) |
	       (c->cyc ? RTIT_CTL_CYCEN : 0) |
	       (c->mtc ? RTIT_CTL_MTCEN : 0) |
	       (c->tsc ? RTIT_CTL_TSCEN : 0) |
	       (c->disretc ? RTIT_CTL_DISRETC : 0) |
	       fld(c->mtc_freq, RTIT_CTL_MTCFREQ_SHIFT) |
	       fld(c->cyc_thresh, RTIT_CTL_CYCTHRESH_SHIFT) |
	       fld(c->psb_freq, RTIT_CTL_PSBFREQ_SHIFT);
	return 0;
}

int pt_stop(struct pmu_err *e)
{
	uint64_t ctl;

	if (pmu_rdmsr(MSR_IA32_RTIT_CTL, &ctl, "IA32_RTIT_CTL", e))
		return -1;
	if (!(ctl & RTIT_CTL_TRACEEN))
		return 0;
	return pmu_wrmsr(MSR_IA32_RTIT_CTL, ctl & ~RTIT_CTL_TRACEEN,
			 "IA32_RTIT_CTL", e);
}

int pt_setup_output(uint64_t base, uint64_t size, struct pmu_err *e)
{
	const char *why = 0;
	const struct pt_caps *caps = pt_caps(&why);

	if (!caps)
		return pmu_fail(e, 0, "PT: no Intel PT: %s", why);
	if (!pt_has_single_range(caps))
		return pmu_fail(e, 0, "PT: single-range output is not offered "
				"(CPUID.14H:ECX[2] clear)");
	if (size < MIN_REGION || size > MAX_REGION || (size & (size - 1)))
		return pmu_fail(e, 0, "PT: output size 0x%llx is not a power "
				"of two from 128 bytes to 4 GiB",
				(unsigned long long)size);
	if (base & (size - 1))
		return pmu_fail(e, 0, "PT: output base 0x%llx is not aligned "
				"to its size 0x%llx", (unsigned long long)base,
				(unsigned long long)size);
	if (pt_stop(e) ||
	    pmu_wrmsr(MSR_IA32_RTIT_OUTPUT_BASE, base,
		      "IA32_RTIT_OUTPUT_BASE", e) ||
	    pmu_wrmsr(MSR_IA32_RTIT_OUTPUT_MASK_PTRS, size - 1,
		      "IA32_RTIT_OUTPUT_MASK_PTRS", e) ||
	    pmu_wrmsr(MSR_IA32_RTIT_STATUS, 0, "IA32_RTIT_STATUS", e))
		return -1;
	return 0;
}

int pt_start(const struct pt_config *c, struct pmu_err *e)
{
	const char *why = 0;
	const struct pt_caps *caps = pt_caps(&why);
	uint64_t ctl = 0;	/* set when ctl_for() returns 0: GCC, which
				 * inlines it, cannot see that pmu_fail()
				 * never does */

	if (!caps)
		return pmu_fail(e, 0, "PT: no Intel PT: %s", why);
	if (ctl_for(caps, c, &ctl, e))
		return -1;
	return pmu_wrmsr(MSR_IA32_RTIT_CTL, ctl, "IA32_RTIT_CTL", e);
}

int pt_output_offset(uint64_t *off, struct pmu_err *e)
{
	uint64_t v;

	if (pmu_rdmsr(MSR_IA32_RTIT_OUTPUT_MASK_PTRS, &v,
		      "IA32_RTIT_OUTPUT_MASK_PTRS", e))
		return -1;
	*off = v >> RTIT_OUTPUT_OFFSET_SHIFT;
	return 0;
}
