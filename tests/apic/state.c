/* apic/state: the local APIC as the firmware left it - its mode agrees
 * with IA32_APIC_BASE and CPUID, this is the bootstrap processor, its ID
 * is the initial APIC ID CPUID reports (some processors let firmware
 * rewrite the ID, SDM Vol. 3A §10.4.6: this would show it), it has an
 * LVTPC, and (xAPIC, with paging on) its register page is mapped.  Logs
 * the registers the PMI path uses. */
#include "../../harness/pmi_run.h"
#include "../../arch/x86/apic.h"
#include "apic_test.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/paging.h"

#define CPUID_TOPOLOGY 0x0b	/* EDX: x2APIC ID (SDM Vol. 3A §10.12.8) */

static uint32_t cpuid_apic_id(void)
{
	if (apic_mode() == APIC_X2APIC && cpuid(0).eax >= CPUID_TOPOLOGY)
		return cpuid_count(CPUID_TOPOLOGY, 0).edx;
	return cpuid(1).ebx >> CPUID1_EBX_APIC_ID_SHIFT;
}

static void log_registers(struct tcase *t)
{
	uint32_t version = apic_read(APIC_VERSION);

	value(t, "version", "0x%x", version & 0xff);
	value(t, "lvt_entries", "%u",
	      SDM_APIC_MAX_LVT(version));
	value(t, "svr", "0x%x", apic_read(APIC_SVR));
	value(t, "tpr", "0x%x", apic_read(APIC_TPR));
	value(t, "lvt_timer", "0x%x", apic_read(APIC_LVT_TIMER));
	value(t, "lvt_lint0", "0x%x", apic_read(APIC_LVT_LINT0));
	value(t, "lvt_lint1", "0x%x", apic_read(APIC_LVT_LINT1));
	value(t, "lvt_error", "0x%x", apic_read(APIC_LVT_ERROR));
}

static void check_page(struct tcase *t)
{
	struct paging_leaf leaf;

	if (!(read_cr0() & X86_CR0_PG)) {
		/* i386 build: no page tables, linear = physical */
		value(t, "page_level", "none (paging off)");
		return;
	}
	if (!check(t, !paging_lookup(read_cr3(), apic_base(), &leaf),
		   "APIC page 0x%llx not mapped",
		   (unsigned long long)apic_base()))
		return;
	value(t, "page_level", "%d", leaf.level);
	value(t, "page_pat_index", "%u (PAT:PCD:PWT)", leaf.pat_index);
	value(t, "page_user", "%d", leaf.user);
	check(t, leaf.writable, "APIC page mapped read-only");
}

static void test_state(struct tcase *t)
{
	uint64_t base = apic_base_msr();
	int x2 = !!(cpuid(1).ecx & CPUID1_ECX_X2APIC);

	if (!apic_ready(t))
		return;
	apic_log(t);
	log_registers(t);
	value(t, "cpuid_x2apic", "%d", x2);
	value(t, "cpuid_apic_id", "%u", cpuid_apic_id());
	check(t, (apic_mode() == APIC_X2APIC) == !!(base & SDM_APIC_BASE_EXTD),
	      "mode %s but IA32_APIC_BASE 0x%llx",
	      apic_mode_name(apic_mode()), (unsigned long long)base);
	check(t, apic_mode() != APIC_X2APIC || x2, "x2APIC mode on a CPU "
	      "without CPUID.01H:ECX.x2APIC");
	check(t, base & SDM_APIC_BASE_BSP, "IA32_APIC_BASE.BSP clear: the "
	      "harness should run on the bootstrap processor");
	check(t, apic_id() == cpuid_apic_id(), "APIC ID %u, CPUID says %u",
	      apic_id(), cpuid_apic_id());
	if (apic_mode() == APIC_XAPIC)
		check_page(t);
}

TEST(apic_state, "apic/state",
     "the local APIC's mode, ID, LVTPC and register page as found",
     test_state, 0);
