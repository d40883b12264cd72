/* apic/restore-firmware-lvtpc: apic_restore() gives the firmware back
 * the LVTPC it had (what the harness does when it leaves), after a PMI
 * test changed it; the PMI path can be armed again afterwards. */
#include "../../harness/pmi_run.h"
#include "../../arch/x86/apic.h"
#include "apic_test.h"

#define LVTPC_BITS (SDM_LVT_VECTOR | SDM_LVT_DM_BITS | SDM_LVT_MASK)

static void test_restore(struct tcase *t)
{
	uint32_t fw, armed, restored;
	int rearmed;

	if (!apic_ready(t))
		return;
	fw = apic_firmware_lvtpc() & LVTPC_BITS;
	if (!check(t, pmi_arm(PMI_PATH_NMI) == 0, "pmi_arm failed"))
		return;
	armed = apic_lvtpc();
	pmi_disarm();
	apic_restore();
	restored = apic_lvtpc();
	rearmed = pmi_arm(PMI_PATH_VECTOR);
	pmi_disarm();
	apic_restore();
	value(t, "lvtpc_firmware", "0x%x", apic_firmware_lvtpc());
	value(t, "lvtpc_armed", "0x%x", armed);
	value(t, "lvtpc_restored", "0x%x", restored);
	check(t, armed != fw, "arming left LVTPC at the firmware's 0x%x", fw);
	check(t, (restored & LVTPC_BITS) == fw, "LVTPC 0x%x after "
	      "apic_restore, the firmware had 0x%x", restored, fw);
	check(t, rearmed == 0, "pmi_arm after apic_restore failed");
	check(t, (apic_lvtpc() & LVTPC_BITS) == fw, "LVTPC 0x%x at the end",
	      apic_lvtpc());
}

TEST(apic_restore, "apic/restore-firmware-lvtpc",
     "apic_restore writes back the firmware's LVTPC after the harness "
     "changed it", test_restore, 0);
