/* platform: the detection both firmware entries share (see platform.h):
 * the CPUID hypervisor leaf and the verdict from the evidence. */
#include "platform.h"
#include "../arch/x86/cpu.h"
#include "../lib/fmt.h"
#include "../lib/string.h"

static void read_hypervisor(char out[13])
{
	struct cpuid_regs r;

	out[0] = 0;
	if (cpuid(0).eax < 1 || !(cpuid(1).ecx & (1u << 31)))
		return;
	r = cpuid(0x40000000);
	memcpy(out + 0, &r.ebx, 4);
	memcpy(out + 4, &r.ecx, 4);
	memcpy(out + 8, &r.edx, 4);
	out[12] = 0;
	for (int i = 0; i < 12; i++)
		if (out[i] && (out[i] < 0x20 || out[i] > 0x7e))
			out[i] = '?';
}

void platform_decide(struct platform *p, const char *bochs_evidence)
{
	int by_smbios, by_cpuid;

	read_hypervisor(p->hypervisor);
	by_smbios = !str_cmp(p->smbios_vendor, "QEMU");
	/* KVM alone does not mean QEMU (other VMMs use it): TCG does. */
	by_cpuid = !str_cmp(p->hypervisor, "TCGTCGTCGTCG");
	p->qemu = by_smbios || by_cpuid;
	p->bochs = !p->qemu && bochs_evidence;
	fmt_snprintf(p->evidence, sizeof(p->evidence), "%s%s%s%s",
		     by_smbios ? "smbios" : "", by_smbios && by_cpuid ? "," : "",
		     by_cpuid ? "cpuid" : "",
		     p->bochs ? bochs_evidence : "");
}
