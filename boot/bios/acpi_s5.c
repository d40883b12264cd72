/* acpi_s5: power off a BIOS machine through ACPI sleep state S5 (ACPI 6.4
 * §16.1.7 "Transitioning from the Working to the Soft Off State": write
 * SLP_TYPa with SLP_EN, §4.8.3.2.1 PM1 control register: SLP_TYP bits
 * 12:10, SLP_EN bit 13).  SLP_TYPa is the first element of the DSDT's \_S5
 * package (§7.4.2); the harness has no AML interpreter, so it reads the
 * package where a DSDT defines it as plain data: NameOp (08h) "_S5_",
 * PackageOp (12h), PkgLength, NumElements, then a ByteConst (0Ah n) or
 * ZeroOp/OneOp (ACPI §20.2.3, §20.2.5.4).  A \_S5 built by a method, or
 * none, leaves the machine running: leave() then halts. */
#include "bios.h"
#include "../acpi_root.h"
#include "../../arch/x86/acpi.h"
#include "../../arch/x86/cpu.h"
#include "../../lib/string.h"

#define FADT_DSDT		40	/* FADT offsets (ACPI 6.4 Table 5.9) */
#define FADT_SMI_CMD		48
#define FADT_ACPI_ENABLE	52
#define FADT_PM1A_CNT		64
#define PM1_SCI_EN		(1u << 0)
#define PM1_SLP_TYP_SHIFT	10
#define PM1_SLP_EN		(1u << 13)
#define AML_NAME_OP		0x08
#define AML_PACKAGE_OP		0x12
#define AML_BYTE_PREFIX		0x0a
#define AML_ONE_OP		0x01


static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* SLP_TYPa of \_S5, or -1 when the DSDT does not hold it as data. */
static int s5_type(const uint8_t *dsdt)
{
	uint32_t len = rd32(dsdt + 4);

	for (uint32_t i = 36; i + 10 < len; i++) {
		const uint8_t *p = dsdt + i;
		unsigned skip;

		if (memcmp(p, "_S5_", 4) || p[4] != AML_PACKAGE_OP ||
		    (p[-1] != AML_NAME_OP && p[-2] != AML_NAME_OP))
			continue;
		skip = 1 + ((p[5] >> 6) & 3);	/* PkgLength bytes */
		p += 5 + skip + 1;		/* past NumElements */
		if (p[0] == AML_BYTE_PREFIX)
			return p[1] & 7;
		return p[0] <= AML_ONE_OP ? p[0] : -1;
	}
	return -1;
}

void acpi_power_off(void)
{
	const uint8_t *fadt = acpi_find(acpi_rsdp(), "FACP");
	uint16_t pm1a;
	int typ;

	if (!fadt)
		return;
	pm1a = (uint16_t)rd32(fadt + FADT_PM1A_CNT);
	typ = s5_type((const uint8_t *)(uintptr_t)rd32(fadt + FADT_DSDT));
	if (!pm1a || typ < 0)
		return;
	if (!(inw(pm1a) & PM1_SCI_EN) && rd32(fadt + FADT_SMI_CMD))
		outb((uint16_t)rd32(fadt + FADT_SMI_CMD), fadt[FADT_ACPI_ENABLE]);
	outw(pm1a, (uint16_t)(typ << PM1_SLP_TYP_SHIFT | PM1_SLP_EN));
}
