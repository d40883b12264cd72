/* netburst/reserved-*: reserved bits and absent registers (SDM Vol. 3B,
 * order no. 253669-060US, Figures 18-45/18-46, 18-47/18-48, Table 18-63;
 * Vol. 2B WRMSR: "#GP(0) if ... the value in EDX:EAX sets bits that are
 * reserved in the MSR", and an MSR that does not exist raises #GP(0) on
 * RDMSR and WRMSR), written directly, and the same setups offered to the
 * driver, which must refuse each with a message before writing anything
 * (the access log shows no WRMSR).  Reserved (below):
 *   - CCCR: bits 10:0, 29:28, 63:32; bit 11 except where extended
 *     cascading has it (§18.15.5.7); bit 27 (OVF_PMI_T1) without HT;
 *   - ESCR: bit 31, 63:32; bits 1:0 (T1_USR/T1_OS) without HT;
 *   - no ESCR at 0x3BF (the SSU has no ESCR1), none at IQ_ESCR0/1 (0x3BA,
 *     0x3BB) on models 3 and later, none at the other gaps of 0x3A0-0x3E1;
 *   - without HT the active-thread field must be 11B. */
#include "nb_test.h"

/* Reserved ESCR bits: 31 and 63:32; without HT also 1:0. */
static uint64_t nbt_escr_reserved(int ht)
{
	return 0xffffffff80000000ull | (ht ? 0 : 3ull);
}

/* The reserved bits of counter ctr's CCCR on this processor. */
static uint64_t nbt_cccr_reserved(unsigned ctr, const struct cpu_sig *s,
				  int ht)
{
	uint64_t r = 0xffffffff00000000ull | 3ull << 28 | 0x7ffull;

	if (!nbt_ext_cascade_bit(ctr, s))
		r |= NBT_CCCR_EXT_CASCADE;
	if (!ht)
		r |= NBT_CCCR_OVF_PMI_T1;
	return r;
}

/* Every ESCR MSR of Table 18-63 on this processor (for #GP tests: any
 * other address in 0x3A0-0x3E1 is no ESCR). */
static int nbt_is_escr(uint32_t msr, const struct cpu_sig *s)
{
	for (unsigned c = 0; c < NBT_COUNTERS; c++)
		for (unsigned sel = 0; sel < 8; sel++)
			if (nbt_escr_msr(c, sel, s) == msr)
				return 1;
	return 0;
}

/* nb_program() of (escr, cccr) on ctr, expected to be refused with
 * nothing written. */
static void nbt_expect_refused(struct tcase *t, const char *what, unsigned ctr,
			       uint64_t escr, uint64_t cccr)
{
	struct nbt_trail tr;
	struct pmu_err e = { "", 0 };
	int rc;

	nbt_trail_open(&tr);
	rc = nb_program(ctr, escr, cccr, &e);
	nbt_trail_close();
	nbt_refused(t, what, rc, &e, &tr);
}

static int ht(void)
{
	return nbt_has_ht(cpu_info());
}

/* ---- direct writes */

/* Every bit of counter ctr's CCCR: reserved ones raise #GP and leave the
 * CCCR as it was, the others are taken (and put back). */
static unsigned cccr_bits(struct tcase *t, unsigned ctr, uint64_t reserved)
{
	unsigned faults = 0;
	uint64_t v = 0;
	struct pmu_err e;

	for (unsigned bit = 0; bit < 64; bit++) {
		uint64_t b = 1ull << bit;
		int rc = nb_write_cccr_raw(ctr, b, &e);
		int gp = rc != 0 && e.vector == NBT_VEC_GP;

		if (reserved & b) {
			faults += gp;
			check(t, gp, "CCCR %u bit %u (reserved): %s", ctr, bit,
			      rc ? e.msg : "written without #GP");
		} else {
			check(t, rc == 0, "CCCR %u bit %u: %s", ctr, bit,
			      e.msg);
		}
		(void)nb_write_cccr_raw(ctr, 0, &e);
		/* a #GP leaves the register as it was: 0 */
		check(t, nb_read_cccr(ctr, &v, &e) == 0 && v == 0, "CCCR %u "
		      "after bit %u: 0x%llx", ctr, bit, (unsigned long long)v);
	}
	return faults;
}

static void test_cccr_gp(struct tcase *t)
{
	const struct cpu_sig *s = nbt_sig();
	char k[16];

	if (!nb_ready(t))
		return;
	value(t, "ht", "%d", ht());
	for (unsigned c = 0; c < NBT_COUNTERS; c++) {
		uint64_t r = nbt_cccr_reserved(c, s, ht());
		unsigned n = cccr_bits(t, c, r);

		fmt_snprintf(k, sizeof(k), "cccr%u", c);
		value(t, k, "reserved 0x%llx, %u #GP", (unsigned long long)r,
		      n);
	}
}

TEST(nb_reserved_cccr, "netburst/reserved-cccr-gp",
     "WRMSR of a reserved CCCR bit raises #GP: 10:0, 29:28, 63:32, 11 "
     "without extended cascading, 27 without HT", test_cccr_gp, 0);

static void escr_bits(struct tcase *t, uint32_t msr, uint64_t reserved)
{
	static const unsigned bits[] = { 0, 1, 2, 3, 31, 32, 40, 63 };
	uint64_t before = 0, held, after = 0;
	int vec;

	vec = be_rdmsr(msr, &before);
	if (!check(t, vec == 0, "RDMSR ESCR 0x%x raised vector %d", msr,
		   vec))
		return;
	held = before;
	for (unsigned i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		uint64_t b = 1ull << bits[i];

		vec = be_wrmsr(msr, b);
		if (!(reserved & b)) {
			check(t, vec == 0, "ESCR 0x%x bit %u: vector %d", msr,
			      bits[i], vec);
			held = b;
			continue;
		}
		/* a #GP leaves the register as it was */
		check(t, vec == NBT_VEC_GP && be_rdmsr(msr, &after) == 0 &&
		      after == held, "ESCR 0x%x bit %u (reserved): vector %d, "
		      "reads 0x%llx (held 0x%llx)", msr, bits[i], vec,
		      (unsigned long long)after, (unsigned long long)held);
	}
	(void)be_wrmsr(msr, before);
	check(t, be_rdmsr(msr, &after) == 0 && after == before, "ESCR 0x%x "
	      "0x%llx not restored: 0x%llx", msr, (unsigned long long)before,
	      (unsigned long long)after);
}

static void test_escr_gp(struct tcase *t)
{
	const struct cpu_sig *s = nbt_sig();
	uint64_t r = nbt_escr_reserved(ht());
	unsigned n = 0;

	if (!nb_ready(t))
		return;
	value(t, "reserved", "0x%llx (ht %d)", (unsigned long long)r, ht());
	for (uint32_t msr = 0x3a0; msr <= 0x3e1; msr++) {
		if (!nbt_is_escr(msr, s))
			continue;
		escr_bits(t, msr, r);
		n++;
	}
	value(t, "escrs", "%u", n);
	check(t, n == (nbt_iq_escr_exists(s) ? 45u : 43u), "%u ESCRs in "
	      "Table 18-63 for model %u", n, s->model);
}

TEST(nb_reserved_escr, "netburst/reserved-escr-gp",
     "WRMSR of a reserved ESCR bit raises #GP: 31, 63:32, 1:0 without HT",
     test_escr_gp, 0);

/* An address with no ESCR: RDMSR and WRMSR raise #GP. */
static void absent(struct tcase *t, uint32_t msr, const char *what)
{
	uint64_t v = 0;
	int rd = be_rdmsr(msr, &v), wr = be_wrmsr(msr, 0);

	check(t, rd == NBT_VEC_GP && wr == NBT_VEC_GP, "MSR 0x%x (%s): RDMSR "
	      "vector %d, WRMSR vector %d, expected 13 (no such ESCR)", msr,
	      what, rd, wr);
}

/* 0x3BF: the SSU has an ESCR0 only.  Under the model every other gap of
 * 0x3A0-0x3E1 too (on hardware an undocumented MSR there may exist). */
static void test_no_escr(struct tcase *t)
{
	const struct cpu_sig *s = nbt_sig();
	unsigned n = 0;

	if (!nb_ready(t))
		return;
	absent(t, 0x3bf, "SSU_ESCR1 does not exist");
	if (!pmu_on_model())
		return;
	for (uint32_t msr = 0x3a0; msr <= 0x3e1; msr++) {
		if (nbt_is_escr(msr, s) || msr == 0x3bf)
			continue;
		absent(t, msr, "not in Table 18-63");
		n++;
	}
	value(t, "gaps_checked", "%u", n);
}

TEST(nb_reserved_no_escr, "netburst/reserved-no-ssu-escr1",
     "MSR 0x3BF (no SSU_ESCR1) and the other gaps of 0x3A0-0x3E1 raise #GP",
     test_no_escr, 0);

/* IQ_ESCR0/1: present on models 0-2 (read back what was written), #GP on
 * models 3 and later. */
static void test_iq_escr(struct tcase *t)
{
	const struct cpu_sig *s = nbt_sig();
	uint64_t v = 0, want = nbt_escr_usr(0x01, 1);

	if (!nb_ready(t))
		return;
	value(t, "model", "%u: IQ_ESCR0/1 %s", s->model,
	      nbt_iq_escr_exists(s) ? "exist" : "do not exist");
	for (uint32_t msr = 0x3ba; msr <= 0x3bb; msr++) {
		if (!nbt_iq_escr_exists(s)) {
			absent(t, msr, "IQ_ESCR: models 0-2 only");
			continue;
		}
		check(t, be_wrmsr(msr, want) == 0 && be_rdmsr(msr, &v) == 0 &&
		      v == want, "IQ_ESCR 0x%x on model %u: wrote 0x%llx, "
		      "read 0x%llx", msr, s->model, (unsigned long long)want,
		      (unsigned long long)v);
		(void)be_wrmsr(msr, 0);
	}
}

TEST(nb_reserved_iq_escr, "netburst/reserved-iq-escr",
     "IQ_ESCR0/1 exist on models 0-2 and raise #GP on models 3 and later",
     test_iq_escr, 0);

/* ---- the driver's refusals: nothing written */

static void test_driver(struct tcase *t)
{
	uint64_t instr = nbt_escr_usr(NBT_INSTR_RETIRED, NBT_NBOGUSNTAG);
	uint64_t cru = nbt_cccr_sel_any(NBT_INSTR_RETIRED_SEL);
	const struct cpu_sig *s = nbt_sig();

	if (!nb_ready(t))
		return;
	nbt_expect_refused(t, "counter_18", 18, instr, cru);
	nbt_expect_refused(t, "escr_bit31", 12, instr | 1ull << 31, cru);
	nbt_expect_refused(t, "escr_bit32", 12, instr | 1ull << 32, cru);
	nbt_expect_refused(t, "cccr_bit0", 12, instr, cru | 1);
	nbt_expect_refused(t, "cccr_bit29", 12, instr, cru | 1ull << 29);
	nbt_expect_refused(t, "cccr_bit40", 12, instr, cru | 1ull << 40);
	nbt_expect_refused(t, "enable_in_config", 12, instr,
			   cru | NBT_CCCR_ENABLE);
	nbt_expect_refused(t, "ovf_in_config", 12, instr, cru | NBT_CCCR_OVF);
	/* bit 11: extended cascading where it exists (not supported by the
	 * driver), reserved elsewhere */
	value(t, "ext_cascade_ctr12", "%s",
	      nbt_ext_cascade_bit(12, s) ? "exists" : "reserved");
	nbt_expect_refused(t, "ext_cascade_ctr12", 12, instr,
			   cru | NBT_CCCR_EXT_CASCADE);
	nbt_expect_refused(t, "bit11_ctr13", 13, instr,
			   cru | NBT_CCCR_EXT_CASCADE);
	/* events on counters their ESCRs cannot feed */
	nbt_expect_refused(t, "instr_retired_on_ctr0", 0, instr, cru);
	nbt_expect_refused(t, "instr_retired_on_ctr4", 4, instr, cru);
	nbt_expect_refused(t, "global_power_on_cru_escr0", 12,
			   nbt_escr_usr(NBT_GLOBAL_POWER, NBT_RUNNING), cru);
	nbt_expect_refused(t, "ssu_select_on_ctr14", 14,
			   nbt_escr_usr(0x01, 1), nbt_cccr_sel_any(3));
	nbt_expect_refused(t, "emask_bit4_instr_retired", 12,
			   nbt_escr_usr(NBT_INSTR_RETIRED, 1u << 4), cru);
}

TEST(nb_reserved_driver, "netburst/reserved-driver-refuses",
     "the driver refuses reserved bits, ENABLE/OVF, extended cascading, "
     "events their ESCR cannot feed, writing nothing", test_driver, 0);

/* One ESCR, one value: CRU_ESCR0 feeds 12, 13 and 16. */
static void test_shared(struct tcase *t)
{
	uint64_t usr = nbt_escr((struct nbt_escr){ .event = NBT_INSTR_RETIRED,
						   .emask = NBT_NBOGUSNTAG,
						   .t0_usr = 1 });
	uint64_t os = nbt_escr((struct nbt_escr){ .event = NBT_INSTR_RETIRED,
						  .emask = NBT_NBOGUSNTAG,
						  .t0_os = 1 });
	uint64_t cru = nbt_cccr_sel_any(NBT_INSTR_RETIRED_SEL);
	struct pmu_err e = { "", 0 };

	if (!nb_ready(t) ||
	    !check(t, nb_program(12, usr, cru, &e) == 0, "12: %s", e.msg))
		return;
	nbt_expect_refused(t, "ctr13_other_t0_bits", 13, os, cru);
	nbt_expect_refused(t, "ctr16_other_t0_bits", 16, os, cru);
	check(t, nb_program(13, usr, cru, &e) == 0, "13 with CRU_ESCR0's "
	      "value: %s", e.msg);
	check(t, nb_program(14, os, cru, &e) == 0, "14 on CRU_ESCR1: %s",
	      e.msg);
	(void)nb_release(12, &e);
	nbt_expect_refused(t, "ctr16_while_13_holds_it", 16, os, cru);
	(void)nb_release(13, &e);
	check(t, nb_program(16, os, cru, &e) == 0, "16 once 12 and 13 are "
	      "released: %s", e.msg);
	(void)nb_release(16, &e);
	(void)nb_release(14, &e);
}

TEST(nb_reserved_shared, "netburst/reserved-escr-shared",
     "an ESCR feeding several counters holds one value: another setup "
     "on it is refused, writing nothing", test_shared, 0);

/* Without HT: T1_USR/T1_OS, OVF_PMI_T1 and an active thread other than
 * 11B. */
static void test_no_ht(struct tcase *t)
{
	uint64_t instr = nbt_escr_usr(NBT_INSTR_RETIRED, NBT_NBOGUSNTAG);
	struct nbt_cccr k = { .escr_sel = NBT_INSTR_RETIRED_SEL,
			      .active = NBT_ANY };
	char what[24];

	if (!nb_ready(t))
		return;
	if (ht()) {
		skip(t, "Hyper-Threading present: T1 bits, OVF_PMI_T1 and the "
		     "active-thread field are legal (netburst/ HT tests)");
		return;
	}
	nbt_expect_refused(t, "t1_usr", 12, instr | NBT_ESCR_T1_USR,
			   nbt_cccr(k));
	nbt_expect_refused(t, "t1_os", 12, instr | NBT_ESCR_T1_OS, nbt_cccr(k));
	nbt_expect_refused(t, "ovf_pmi_t1", 12, instr,
			   nbt_cccr(k) | NBT_CCCR_OVF_PMI_T1);
	for (unsigned a = NBT_NONE; a < NBT_ANY; a++) {
		k.active = a;
		fmt_snprintf(what, sizeof(what), "active_%u%u", a >> 1, a & 1);
		nbt_expect_refused(t, what, 12, instr, nbt_cccr(k));
	}
}

TEST(nb_reserved_no_ht, "netburst/reserved-no-ht",
     "without HT the driver refuses T1 bits, OVF_PMI_T1 and active thread "
     "!= 11B, writing nothing", test_no_ht, 0);
