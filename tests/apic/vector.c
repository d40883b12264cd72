/* apic/lvtpc-fixed-*: a PMI through an LVTPC programmed for fixed
 * delivery on PMI_VECTOR (SDM Vol. 3A §10.5.1, delivery mode 000) reaches
 * the harness's handler once, which sends EOI (§10.8.5); while IF is
 * clear it waits in the IRR and is taken right after the instruction
 * that follows STI (§6.8.1; Vol. 2B, STI). */
#include "../../harness/pmi_run.h"
#include "../../arch/x86/apic.h"
#include "apic_test.h"
#include "../../arch/x86/cpu.h"

struct fire {
	int ret;
	int irr_before;		/* waiting in the IRR before STI */
	uint64_t count_before;
	uint64_t count;
	int isr_after;		/* still in service after the handler */
	uint32_t lvtpc;
};

static void check_common(struct tcase *t, const struct fire *x,
			 struct pmi_record *r)
{
	value(t, "deliver_returned", "%d", x->ret);
	value(t, "lvtpc_after", "0x%x", x->lvtpc);
	value(t, "pmis", "%llu", (unsigned long long)pmi_count());
	check(t, x->ret == 1, "apic_lvtpc_deliver returned %d, expected 1",
	      x->ret);
	check(t, x->count == 1 && pmi_count() == 1, "%llu PMIs after the "
	      "firing, %llu in all; expected exactly 1",
	      (unsigned long long)x->count, (unsigned long long)pmi_count());
	check(t, !x->isr_after, "vector 0x%x still in service: no EOI",
	      PMI_VECTOR);
	check(t, (x->lvtpc & SDM_LVT_MASK) &&
	      (x->lvtpc & SDM_LVT_VECTOR) == PMI_VECTOR &&
	      SDM_LVT_DM(x->lvtpc) == SDM_DM_FIXED, "LVTPC 0x%x after the "
	      "PMI, expected masked, fixed, vector 0x%x", x->lvtpc, PMI_VECTOR);
	if (!check(t, pmi_last(r), "no PMI recorded"))
		return;
	pmi_log(t, NULL, r);
	check(t, r->path == PMI_PATH_VECTOR && r->cpl == 0 && !r->in_tracer,
	      "recorded path %s cpl %u in_tracer %u, expected vector, 0, 0",
	      pmi_path_name(r->path), r->cpl, r->in_tracer);
}

static void fire_if_set(void *arg)
{
	struct fire *x = arg;
	ureg_t flags = read_flags();

	__asm__ volatile("sti" ::: "memory");
	x->ret = apic_fire(1);
	x->count = pmi_count();
	irq_disable();
	x->isr_after = apic_isr(PMI_VECTOR);
	x->lvtpc = apic_lvtpc();
	write_flags(flags);
}

static void test_fixed(struct tcase *t)
{
	struct fire x = { -2, 0, 0, 0, 0, 0 };
	struct pmi_record r = { 0 };
	struct fault f;
	int rc;

	if (!apic_ready(t))
		return;
	rc = pmi_run(PMI_PATH_VECTOR, fire_if_set, &x, &f);
	apic_log(t);
	value(t, "vector", "0x%x", PMI_VECTOR);
	if (!check(t, rc == 0, "pmi_run returned %d (vector %u)", rc,
		   rc == 1 ? f.vector : 0))
		return;
	check_common(t, &x, &r);
	check(t, pmi_in_fire_call(&r), "rip 0x%llx rsp 0x%llx: not inside "
	      "the firing routine's call", (unsigned long long)r.rip,
	      (unsigned long long)r.frame_rsp);
	check(t, r.frame_rflags & X86_EFLAGS_IF, "taken with IF clear "
	      "(rflags 0x%llx)", (unsigned long long)r.frame_rflags);
}

TEST(apic_lvtpc_fixed, "apic/lvtpc-fixed-self-ipi",
     "a fixed-mode LVTPC delivers one PMI on its vector, with EOI, and is "
     "masked after", test_fixed, 0);

static void fire_if_clear(void *arg)
{
	struct fire *x = arg;
	ureg_t flags = read_flags();

	irq_disable();
	x->ret = apic_lvtpc_deliver(1);
	apic_delay(10000);
	x->irr_before = apic_irr(PMI_VECTOR);
	x->count_before = pmi_count();
	apic_fire_sti();
	x->count = pmi_count();
	x->isr_after = apic_isr(PMI_VECTOR);
	x->lvtpc = apic_lvtpc();
	write_flags(flags);
}

static void test_waits(struct tcase *t)
{
	struct fire x = { -2, 0, 0, 0, 0, 0 };
	struct pmi_record r = { 0 };
	struct fault f;
	int rc;

	if (!apic_ready(t))
		return;
	rc = pmi_run(PMI_PATH_VECTOR, fire_if_clear, &x, &f);
	value(t, "irr_before_sti", "%d", x.irr_before);
	value(t, "pmis_before_sti", "%llu", (unsigned long long)x.count_before);
	value(t, "expected_rip", "0x%llx",
	      (unsigned long long)(uintptr_t)apic_fire_sti_land);
	if (!check(t, rc == 0, "pmi_run returned %d (vector %u)", rc,
		   rc == 1 ? f.vector : 0))
		return;
	check(t, x.irr_before && x.count_before == 0, "with IF clear: IRR "
	      "bit %d and %llu PMIs, expected the request waiting (1, 0)",
	      x.irr_before, (unsigned long long)x.count_before);
	check_common(t, &x, &r);
	check(t, r.rip == (uintptr_t)apic_fire_sti_land, "rip 0x%llx, "
	      "expected 0x%llx (after STI and the next instruction)",
	      (unsigned long long)r.rip,
	      (unsigned long long)(uintptr_t)apic_fire_sti_land);
}

TEST(apic_lvtpc_fixed_if, "apic/lvtpc-fixed-waits-for-if",
     "a fixed-mode PMI sent with IF clear waits in the IRR and is taken "
     "one instruction after STI", test_waits, 0);
