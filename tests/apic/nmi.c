/* apic/lvtpc-nmi-*: a PMI through an LVTPC programmed for NMI delivery
 * (SDM Vol. 3A §10.5.1, delivery mode 100) reaches the harness's NMI
 * handler once, at a boundary of the code that raised it, and the LVTPC
 * is masked afterwards, as the local APIC masks it when it handles a PMI
 * (§10.5.1 Mask; Vol. 3B §18.15.5.8). */
#include "../../harness/pmi_run.h"
#include "../../arch/x86/apic.h"
#include "apic_test.h"

struct fire {
	int ret;
	uint64_t count;		/* right after the firing routine */
	uint32_t lvtpc;		/* likewise */
};

static void fire(void *arg)
{
	struct fire *x = arg;

	x->ret = apic_fire(1);
	x->count = pmi_count();
	x->lvtpc = apic_lvtpc();
}

static void test_nmi(struct tcase *t)
{
	struct fire x = { -2, 0, 0 };
	struct pmi_record r = { 0 };
	struct fault f;
	int rc;

	if (!apic_ready(t))
		return;
	rc = pmi_run(PMI_PATH_NMI, fire, &x, &f);
	apic_log(t);
	value(t, "lvtpc_after", "0x%x", x.lvtpc);
	value(t, "deliver_returned", "%d", x.ret);
	value(t, "pmis", "%llu", (unsigned long long)pmi_count());
	if (!check(t, rc == 0, "pmi_run returned %d (vector %u)", rc,
		   rc == 1 ? f.vector : 0))
		return;
	check(t, x.ret == 1, "apic_lvtpc_deliver returned %d, expected 1",
	      x.ret);
	check(t, x.count == 1 && pmi_count() == 1, "%llu PMIs after the "
	      "firing routine, %llu in all; expected exactly 1",
	      (unsigned long long)x.count, (unsigned long long)pmi_count());
	if (!check(t, pmi_last(&r), "no PMI recorded"))
		return;
	pmi_log(t, NULL, &r);
	value(t, "fire_code", "[0x%llx, 0x%llx)",
	      (unsigned long long)(uintptr_t)apic_fire,
	      (unsigned long long)(uintptr_t)apic_fire_end);
	check(t, r.path == PMI_PATH_NMI, "recorded path %s, expected nmi",
	      pmi_path_name(r.path));
	check(t, r.cpl == 0 && !r.in_tracer, "recorded cpl %u in_tracer %u, "
	      "expected 0 and 0", r.cpl, r.in_tracer);
	value(t, "in_fire_sled", "%s", r.rip >= (uintptr_t)apic_fire_sled &&
	      r.rip < (uintptr_t)apic_fire_end ? "yes" : "no (in a callee)");
	check(t, pmi_in_fire_call(&r) && r.rip == r.frame_rip, "rip 0x%llx "
	      "rsp 0x%llx: not inside the firing routine's call",
	      (unsigned long long)r.rip, (unsigned long long)r.frame_rsp);
	check(t, x.lvtpc & SDM_LVT_MASK, "LVTPC 0x%x not masked after the PMI",
	      x.lvtpc);
	check(t, SDM_LVT_DM(x.lvtpc) == SDM_DM_NMI,
	      "LVTPC 0x%x lost its NMI delivery mode", x.lvtpc);
}

TEST(apic_lvtpc_nmi, "apic/lvtpc-nmi-self-ipi",
     "an NMI-mode LVTPC delivers one PMI by NMI and is masked after",
     test_nmi, 0);
