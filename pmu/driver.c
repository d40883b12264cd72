/* driver: what every PMU driver shares: its errors, its MSR accesses
 * through the backend, and the "# pmu:" line (driver.h). */
#include "driver.h"
#include "backend.h"
#include "generation.h"
#include "../lib/fmt.h"

int pmu_fail(struct pmu_err *e, int vector, const char *fmt, ...)
{
	va_list ap;

	e->vector = vector;
	va_start(ap, fmt);
	fmt_vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int pmu_wrmsr(uint32_t msr, uint64_t v, const char *what, struct pmu_err *e)
{
	int vec = be_wrmsr(msr, v);

	if (vec)
		return pmu_fail(e, vec, "WRMSR %s (0x%x)=0x%llx raised vector "
				"%d", what, msr, (unsigned long long)v, vec);
	return 0;
}

int pmu_rdmsr(uint32_t msr, uint64_t *v, const char *what, struct pmu_err *e)
{
	int vec = be_rdmsr(msr, v);

	if (vec)
		return pmu_fail(e, vec, "RDMSR %s (0x%x) raised vector %d",
				what, msr, vec);
	return 0;
}

/* Kinds no driver describes (every generation's driver does): why the
 * PMU is unsupported, or the shape its descriptor gives. */
static void describe_generic(const struct cpu_info *ci, char *buf,
			     unsigned size)
{
	if (ci->pmu == PMU_UNSUPPORTED)
		fmt_snprintf(buf, size, "vendor=%s reason=\"%s\"",
			     ci->vendor_id, pmu_unsupported_reason(
				     ci->vendor, ci->sig.family));
	else if (ci->pmu == PMU_NONE)
		fmt_snprintf(buf, size, "counters=0 width=0 reason=\"%s\"",
			     pmu_none_reason(ci->vendor, ci->sig.family));
	else
		fmt_snprintf(buf, size, "counters=%u width=%u", ci->counters,
			     ci->width);
}

void pmu_describe(const struct cpu_info *ci, char *buf, unsigned size)
{
	const struct pmu_driver *d = pmu_driver_for(ci->pmu);
	const struct pmu_probe *p = &ci->probe;
	/* fields: the arch-perfmon line of a v5 row is about 230 bytes */
	char fields[320], probe[160] = "none";

	if (d && d->describe)
		d->describe(ci, fields, sizeof(fields));
	else
		describe_generic(ci, fields, sizeof(fields));
	if (p->done)
		fmt_snprintf(probe, sizeof(probe), "msr=0x%x wrote=0x%llx "
			     "read=0x%llx wr_vector=%d rd_vector=%d", p->msr,
			     (unsigned long long)p->wrote,
			     (unsigned long long)p->read, p->wr_vector,
			     p->rd_vector);
	fmt_snprintf(buf, size, "kind=%s %s present=%s probe=\"%s\"",
		     pmu_kind_name(ci->pmu), fields,
		     p->present ? "yes" : "no", probe);
}
