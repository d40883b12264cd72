/* tests/netburst/netburst_log.c: the per-counter log every netburst/ test
 * leaves (nb_test.h): the CCCR and ESCR values written, the count read,
 * the expected count and the model's beside it; and the check of the
 * count against its expectation. */
#include "nb_test.h"

/* "<label>_<name>", or name alone without a label. */
static void nbt_key(char *buf, unsigned size, const char *label,
		    const char *name)
{
	if (label)
		fmt_snprintf(buf, size, "%s_%s", label, name);
	else
		fmt_snprintf(buf, size, "%s", name);
}

void nbt_log_regs(struct tcase *t, const char *label,
		  const struct nbt_trail *tr, unsigned ctr)
{
	uint64_t cccr = 0, escr = 0;
	int wc = nbt_trail_last(tr, NBT_MSR_CCCR(ctr), &cccr);
	uint32_t msr;
	char name[24], k[48];
	int we;

	if (!wc)
		(void)be_rdmsr(NBT_MSR_CCCR(ctr), &cccr);
	msr = nbt_escr_msr(ctr, nbt_cccr_sel(cccr), nbt_sig());
	we = msr && nbt_trail_last(tr, msr, &escr);
	if (msr && !we)
		(void)be_rdmsr(msr, &escr);
	fmt_snprintf(name, sizeof(name), "ctr%u_cccr", ctr);
	nbt_key(k, sizeof(k), label, name);
	value(t, k, "0x%llx%s", (unsigned long long)cccr,
	      wc ? "" : " (read: not written here)");
	fmt_snprintf(name, sizeof(name), "ctr%u_escr", ctr);
	nbt_key(k, sizeof(k), label, name);
	value(t, k, "0x%llx (MSR 0x%x)%s", (unsigned long long)escr, msr,
	      we ? "" : " (read: not written here)");
}

int nbt_check_count(struct tcase *t, const char *label, unsigned ctr,
		    uint64_t preset, uint64_t got, const struct pmu_expect *x)
{
	uint64_t inc = (got - preset) & NBT_MASK;
	char name[24], k[48];

	fmt_snprintf(name, sizeof(name), "ctr%u", ctr);
	nbt_key(k, sizeof(k), label, name);
	value(t, k, "%llu", (unsigned long long)got);
	fmt_snprintf(name, sizeof(name), "ctr%u_oracle", ctr);
	nbt_key(k, sizeof(k), label, name);
	if (x->lo == x->hi)
		value(t, k, "%llu", (unsigned long long)
		      ((preset + x->lo) & NBT_MASK));
	else
		value(t, k, "increment %llu..%llu (%s)",
		      (unsigned long long)x->lo, (unsigned long long)x->hi,
		      x->tolerance);
	fmt_snprintf(name, sizeof(name), "ctr%u", ctr);
	nbt_key(k, sizeof(k), label, name);
	pmu_check_window(t, k, ctr, x);
	return check(t, inc >= x->lo && inc <= x->hi, "%s%scounter %u: read "
		     "%llu (+%llu over its preset 0x%llx), expected +%llu.."
		     "%llu", label ? label : "", label ? ": " : "", ctr,
		     (unsigned long long)got, (unsigned long long)inc,
		     (unsigned long long)preset, (unsigned long long)x->lo,
		     (unsigned long long)x->hi);
}

void nbt_log_model(struct tcase *t, const char *label, const struct pmu_run *r,
		   unsigned ctr)
{
	char name[24], k[48];

	fmt_snprintf(name, sizeof(name), "ctr%u", ctr);
	nbt_key(k, sizeof(k), label, name);
	pmu_log_model_as(t, r, ctr, k);
}

int nbt_log_counter(struct tcase *t, const char *label,
		    const struct nbt_trail *tr, unsigned ctr, uint64_t preset,
		    uint64_t got, const struct pmu_expect *x)
{
	nbt_log_regs(t, label, tr, ctr);
	return nbt_check_count(t, label, ctr, preset, got, x);
}
