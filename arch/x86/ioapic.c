/* ioapic: redirection-table access (ioapic.h). */
#include "ioapic.h"
#include "mmio.h"

static volatile uint32_t *reg(const struct ioapic *io, unsigned off)
{
	return (volatile uint32_t *)(uintptr_t)(io->base + off);
}

static uint32_t ioapic_read(const struct ioapic *io, unsigned r)
{
	*reg(io, IOAPIC_REGSEL) = r;
	return *reg(io, IOAPIC_WIN);
}

static void ioapic_write(const struct ioapic *io, unsigned r, uint32_t v)
{
	*reg(io, IOAPIC_REGSEL) = r;
	*reg(io, IOAPIC_WIN) = v;
}

int ioapic_open(struct ioapic *io, uint64_t base, uint32_t gsi_base)
{
	uint32_t ver;

	if (base > UINTPTR_MAX - IOAPIC_MMIO_SIZE)
		return -1;	/* not addressable: a 32-bit build, mmio.h */
	io->base = base;
	io->gsi_base = gsi_base;
	ver = ioapic_read(io, IOAPIC_REG_VER);
	if (ver == 0 || ver == 0xffffffffu)
		return -1;
	io->entries = ((ver >> IOAPIC_VER_MAX_REDIR_SHIFT) & 0xff) + 1;
	return 0;
}

int ioapic_open_gsi(struct ioapic *io, const struct acpi_ioapic *list,
		    unsigned n, uint32_t gsi)
{
	for (unsigned i = 0; i < n; i++) {
		const struct acpi_ioapic *a = &list[i];

		if (gsi < a->gsi_base ||
		    mmio_unreachable(a->base, IOAPIC_MMIO_SIZE) ||
		    ioapic_open(io, a->base, a->gsi_base) ||
		    gsi - a->gsi_base >= io->entries)
			continue;
		return 0;
	}
	return -1;
}

uint64_t ioapic_rte(const struct ioapic *io, unsigned pin)
{
	uint64_t lo = ioapic_read(io, IOAPIC_REG_REDTBL(pin));
	uint64_t hi = ioapic_read(io, IOAPIC_REG_REDTBL(pin) + 1);

	return hi << 32 | lo;
}

void ioapic_set_rte(const struct ioapic *io, unsigned pin, uint64_t rte)
{
	unsigned r = IOAPIC_REG_REDTBL(pin);

	ioapic_write(io, r, (uint32_t)(IOAPIC_RTE_MASKED));
	ioapic_write(io, r + 1, (uint32_t)(rte >> 32));
	ioapic_write(io, r, (uint32_t)rte);
}

/* Delivery mode NMI, which "must be edge triggered" (82093AA §3.2.4):
 * trigger mode 0, polarity 0 (high), destination mode 0 (physical). */
uint64_t ioapic_rte_nmi(unsigned dest_apic_id)
{
	return IOAPIC_RTE_DM_NMI |
	       (uint64_t)dest_apic_id << IOAPIC_RTE_DEST_SHIFT;
}
