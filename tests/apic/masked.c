/* apic/lvtpc-masked-*: a masked LVTPC inhibits reception of the PMI (SDM
 * Vol. 3A §10.5.1, Mask: "(1) inhibits reception of the interrupt"): the
 * overflow delivers nothing, and nothing is held back either - unmasking
 * later brings no PMI and leaves no request in the IRR.  Only the next
 * overflow after unmasking delivers (the positive control). */
#include "../../harness/pmi_run.h"
#include "../../arch/x86/apic.h"
#include "apic_test.h"
#include "../../arch/x86/cpu.h"

#define DELAY 200000

struct fire {
	int ret_masked, ret_unmasked;
	uint64_t count_masked;	/* after a masked overflow, a delay */
	uint64_t count_unmasked; /* after unmasking and a delay */
	int irr_masked, irr_unmasked;
	uint64_t count_control;	/* after one more, unmasked overflow */
};

static void fire(void *arg)
{
	struct fire *x = arg;
	ureg_t flags = read_flags();

	__asm__ volatile("sti" ::: "memory");	/* let a fixed PMI in */
	apic_set_lvtpc(apic_lvtpc() | SDM_LVT_MASK);
	x->ret_masked = apic_fire(1);
	apic_delay(DELAY);
	x->count_masked = pmi_count();
	x->irr_masked = apic_irr(PMI_VECTOR);
	apic_set_lvtpc(apic_lvtpc() & ~SDM_LVT_MASK);
	apic_delay(DELAY);
	x->count_unmasked = pmi_count();
	x->irr_unmasked = apic_irr(PMI_VECTOR);
	x->ret_unmasked = apic_fire(1);
	apic_delay(DELAY);
	x->count_control = pmi_count();
	write_flags(flags);
}

static void test_masked(struct tcase *t, enum pmi_path path)
{
	struct fire x = { -2, -2, 0, 0, 0, 0, 0 };
	struct fault f;
	int rc;

	if (!apic_ready(t))
		return;
	rc = pmi_run(path, fire, &x, &f);
	value(t, "path", "%s", pmi_path_name(path));
	value(t, "deliver_masked_returned", "%d", x.ret_masked);
	value(t, "pmis_while_masked", "%llu",
	      (unsigned long long)x.count_masked);
	value(t, "pmis_after_unmasking", "%llu",
	      (unsigned long long)x.count_unmasked);
	value(t, "irr_while_masked", "%d", x.irr_masked);
	value(t, "irr_after_unmasking", "%d", x.irr_unmasked);
	value(t, "pmis_after_control", "%llu",
	      (unsigned long long)x.count_control);
	if (!check(t, rc == 0, "pmi_run returned %d (vector %u)", rc,
		   rc == 1 ? f.vector : 0))
		return;
	check(t, x.ret_masked == 0, "apic_lvtpc_deliver on a masked LVTPC "
	      "returned %d, expected 0", x.ret_masked);
	check(t, x.count_masked == 0 && !x.irr_masked, "masked: %llu PMIs, "
	      "IRR bit %d; expected 0, 0", (unsigned long long)x.count_masked,
	      x.irr_masked);
	check(t, x.count_unmasked == 0 && !x.irr_unmasked, "after "
	      "unmasking: %llu PMIs, IRR bit %d; expected 0, 0 (a masked "
	      "PMI is dropped, not held)",
	      (unsigned long long)x.count_unmasked, x.irr_unmasked);
	check(t, x.ret_unmasked == 1 && x.count_control == 1, "control: "
	      "deliver returned %d, %llu PMIs; expected 1, 1",
	      x.ret_unmasked, (unsigned long long)x.count_control);
}

static void test_nmi(struct tcase *t)
{
	test_masked(t, PMI_PATH_NMI);
}

static void test_fixed(struct tcase *t)
{
	test_masked(t, PMI_PATH_VECTOR);
}

TEST(apic_masked_nmi, "apic/lvtpc-masked-nmi",
     "a masked NMI-mode LVTPC delivers nothing, and nothing after "
     "unmasking", test_nmi, 0);
TEST(apic_masked_fixed, "apic/lvtpc-masked-fixed",
     "a masked fixed-mode LVTPC delivers nothing, and nothing after "
     "unmasking", test_fixed, 0);
