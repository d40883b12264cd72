/* platform: QEMU detection from SMBIOS and CPUID (see platform.h). */
#include "../platform.h"
#include "efi.h"
#include "../../arch/x86/cpu.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

static EFI_GUID smbios_guid = SMBIOS_TABLE_GUID;
static EFI_GUID smbios3_guid = SMBIOS3_TABLE_GUID;

static int guid_eq(const EFI_GUID *a, const EFI_GUID *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* SMBIOS 3.x entry point "_SM3_": table address at 0x10 (64-bit), maximum
 * size at 0x0C; 2.x entry point "_SM_": address at 0x18 (32-bit), length
 * at 0x16 (DMTF DSP0134 §5.2). */
static int smbios_table(const uint8_t **base, uint32_t *len)
{
	for (UINTN i = 0; i < efi.st->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &efi.st->ConfigurationTable[i];
		const uint8_t *ep = t->VendorTable;

		if (guid_eq(&t->VendorGuid, &smbios3_guid) &&
		    !memcmp(ep, "_SM3_", 5)) {
			uint64_t a;

			memcpy(&a, ep + 0x10, 8);
			memcpy(len, ep + 0x0c, 4);
			*base = (const uint8_t *)(uintptr_t)a;
			return 0;
		}
	}
	for (UINTN i = 0; i < efi.st->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &efi.st->ConfigurationTable[i];
		const uint8_t *ep = t->VendorTable;

		if (guid_eq(&t->VendorGuid, &smbios_guid) &&
		    !memcmp(ep, "_SM_", 4)) {
			uint32_t a = 0;
			uint16_t l = 0;

			memcpy(&a, ep + 0x18, 4);
			memcpy(&l, ep + 0x16, 2);
			*len = l;
			*base = (const uint8_t *)(uintptr_t)a;
			return 0;
		}
	}
	return -1;
}

static const char *smbios_string(const uint8_t *s, const uint8_t *end,
				 unsigned idx)
{
	if (!idx)
		return "";
	while (s < end && *s) {
		if (--idx == 0)
			return (const char *)s;
		while (s < end && *s)
			s++;
		s++;
	}
	return "";
}

/* Type 1 (System Information), offset 04h: Manufacturer string. */
static void read_manufacturer(char *out, unsigned size)
{
	const uint8_t *p, *end;
	uint32_t len;

	out[0] = 0;
	if (smbios_table(&p, &len))
		return;
	end = p + len;
	while (p + 4 <= end) {
		const uint8_t *strings = p + p[1], *q = strings;

		if (p[1] < 4)
			return;		/* malformed: stop rather than loop */
		while (q + 1 < end && (q[0] || q[1]))
			q++;
		if (p[0] == 1 && p[1] > 4) {
			str_copy(out, smbios_string(strings, end, p[4]), size);
			return;
		}
		if (p[0] == 127)
			return;
		p = q + 2;
	}
}

static void read_hypervisor(char out[13])
{
	struct cpuid_regs r;

	out[0] = 0;
	if (!(cpuid(1).ecx & (1u << 31)))
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

void platform_detect(struct platform *p)
{
	int by_smbios, by_cpuid;

	memset(p, 0, sizeof(*p));
	read_manufacturer(p->smbios_vendor, sizeof(p->smbios_vendor));
	read_hypervisor(p->hypervisor);
	by_smbios = !str_cmp(p->smbios_vendor, "QEMU");
	/* KVM alone does not mean QEMU (other VMMs use it): TCG does. */
	by_cpuid = !str_cmp(p->hypervisor, "TCGTCGTCGTCG");
	p->qemu = by_smbios || by_cpuid;
	fmt_snprintf(p->evidence, sizeof(p->evidence), "%s%s%s",
		     by_smbios ? "smbios" : "", by_smbios && by_cpuid ? "," : "",
		     by_cpuid ? "cpuid" : "");
}
