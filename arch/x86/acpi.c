/* acpi: the HPET table, the MADT's I/O APICs and processors, the FADT's
 * PM timer (acpi.h). */
#include "acpi.h"
#include "../../lib/string.h"

/* Tables larger than this are not believed (a corrupt length). */
#define ACPI_TABLE_MAX (1u << 20)

/* A table was skipped for lying above what a pointer reaches (a 32-bit
 * build: physical = linear with paging off, 32-bit pointers). */
static int beyond_reach;

/* The table at addr, or NULL when a pointer cannot reach its header. */
static const uint8_t *table_at(uint64_t addr)
{
	if (addr > UINTPTR_MAX - ACPI_HDR_SIZE) {
		beyond_reach = 1;
		return NULL;
	}
	return (const uint8_t *)(uintptr_t)addr;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* All bytes of a checksummed structure add up to 0 (ACPI 6.3 §5.2.5.3,
 * §5.2.6). */
static int sums_to_zero(const uint8_t *p, uint32_t len)
{
	uint8_t sum = 0;

	for (uint32_t i = 0; i < len; i++)
		sum = (uint8_t)(sum + p[i]);
	return sum == 0;
}

static const uint8_t *valid_table(uint64_t addr, const char *sig)
{
	const uint8_t *t = addr ? table_at(addr) : NULL;
	uint32_t len;

	if (!t)
		return NULL;
	if (sig && memcmp(t, sig, 4))
		return NULL;
	len = get32(t + ACPI_HDR_LENGTH);
	if (len < ACPI_HDR_SIZE || len > ACPI_TABLE_MAX ||
	    addr > UINTPTR_MAX - len)
		return NULL;
	return sums_to_zero(t, len) ? t : NULL;
}

/* The root table: the XSDT (64-bit entries) when the RSDP is revision 2
 * or later and names one (that a pointer reaches), else the RSDT (32-bit
 * entries). */
static const uint8_t *root_table(uint64_t rsdp, unsigned *entry_size)
{
	const uint8_t *r = rsdp ? table_at(rsdp) : NULL;
	const uint8_t *t;

	if (!r || memcmp(r, ACPI_RSDP_SIG, 8) ||
	    !sums_to_zero(r, ACPI_RSDP_V1_LEN))
		return NULL;
	if (r[ACPI_RSDP_REVISION] >= 2) {
		uint32_t len = get32(r + ACPI_RSDP_LENGTH);

		if (len >= ACPI_RSDP_V2_MIN && len <= 4096 &&
		    sums_to_zero(r, len)) {
			t = valid_table(get64(r + ACPI_RSDP_XSDT), "XSDT");
			if (t) {
				*entry_size = 8;
				return t;
			}
		}
	}
	*entry_size = 4;
	return valid_table(get32(r + ACPI_RSDP_RSDT), "RSDT");
}

const uint8_t *acpi_find(uint64_t rsdp, const char *sig)
{
	unsigned esize;
	const uint8_t *root = root_table(rsdp, &esize);
	uint32_t len;

	if (!root)
		return NULL;
	len = get32(root + ACPI_HDR_LENGTH);
	for (uint32_t off = ACPI_HDR_SIZE; off + esize <= len; off += esize) {
		uint64_t a = esize == 8 ? get64(root + off) : get32(root + off);
		const uint8_t *t = valid_table(a, sig);

		if (t)
			return t;
	}
	return NULL;
}

/* The MADT's next interrupt controller structure at *off (each starts
 * with its type and length, Table 5-43), or NULL at the end: a zero or
 * overlong entry ends the walk (nothing past it can be trusted). */
static const uint8_t *madt_next(const uint8_t *madt, uint32_t *off)
{
	uint32_t len = get32(madt + ACPI_HDR_LENGTH);
	const uint8_t *e = madt + *off;

	if (*off + 2 > len || e[1] < 2 || *off + e[1] > len)
		return NULL;
	*off += e[1];
	return e;
}

static void read_ioapics(const uint8_t *madt, struct acpi_timers *t)
{
	uint32_t off = ACPI_MADT_ENTRIES;
	const uint8_t *e;

	while ((e = madt_next(madt, &off))) {
		if (e[0] == ACPI_MADT_ISO && e[1] >= ACPI_MADT_ISO_LEN &&
		    e[ACPI_MADT_ISO_BUS] == 0 &&
		    e[ACPI_MADT_ISO_SOURCE] == ACPI_ISA_IRQ_PIT) {
			t->pit_gsi = get32(e + ACPI_MADT_ISO_GSI);
			t->pit_flags = (uint16_t)(e[ACPI_MADT_ISO_FLAGS] |
					e[ACPI_MADT_ISO_FLAGS + 1] << 8);
		}
		if (e[0] == ACPI_MADT_IOAPIC && e[1] >= ACPI_MADT_IOAPIC_LEN &&
		    t->n_ioapics < ACPI_MAX_IOAPICS) {
			struct acpi_ioapic *io = &t->ioapic[t->n_ioapics++];

			io->id = e[ACPI_MADT_IOAPIC_ID];
			io->base = get32(e + ACPI_MADT_IOAPIC_ADDR);
			io->gsi_base = get32(e + ACPI_MADT_IOAPIC_GSI);
		}
	}
}

/* Why the root table cannot be read, or NULL (beyond_reach reset for the
 * lookups that follow). */
static const char *no_root(uint64_t rsdp)
{
	unsigned esize;

	beyond_reach = 0;
	if (root_table(rsdp, &esize))
		return NULL;
	return beyond_reach ? "the ACPI RSDP is above 4 GiB, out of a 32-bit "
			      "build's reach" : "no valid ACPI RSDP/XSDT/RSDT";
}

const char *acpi_lapics(uint64_t rsdp, struct acpi_lapic *l, unsigned max,
			unsigned *total)
{
	uint32_t off = ACPI_MADT_ENTRIES;
	const uint8_t *madt, *e;
	const char *why = no_root(rsdp);

	*total = 0;
	if (why)
		return why;
	madt = acpi_find(rsdp, "APIC");
	if (!madt)
		return beyond_reach ? "no ACPI MADT below 4 GiB (a 32-bit "
		       "build reaches no further)" : "no ACPI MADT";
	while ((e = madt_next(madt, &off))) {
		if (e[0] != ACPI_MADT_LAPIC || e[1] < ACPI_MADT_LAPIC_LEN)
			continue;
		if (*total < max)
			l[*total] = (struct acpi_lapic){
				.uid = e[ACPI_MADT_LAPIC_UID],
				.apic_id = e[ACPI_MADT_LAPIC_ID],
				.flags = get32(e + ACPI_MADT_LAPIC_FLAGS),
			};
		++*total;
	}
	return *total ? NULL : "the ACPI MADT lists no Processor Local APIC";
}

const char *acpi_timers(uint64_t rsdp, struct acpi_timers *t)
{
	const uint8_t *hpet, *madt;
	const char *why;

	memset(t, 0, sizeof(*t));
	why = no_root(rsdp);
	if (why)
		return why;
	madt = acpi_find(rsdp, "APIC");
	if (madt)
		read_ioapics(madt, t);
	hpet = acpi_find(rsdp, "HPET");
	if (!hpet && beyond_reach)
		return "no ACPI HPET table below 4 GiB (a 32-bit build reaches "
		       "no further)";
	if (!hpet || get32(hpet + ACPI_HDR_LENGTH) < ACPI_HPET_MIN_LEN)
		return "no ACPI HPET table";
	if (hpet[ACPI_HPET_GAS] != ACPI_GAS_SYSTEM_MEMORY)
		return "the HPET is not in memory space";
	t->hpet_base = get64(hpet + ACPI_HPET_GAS_ADDR);
	if (!madt && beyond_reach)
		return "no ACPI MADT below 4 GiB (a 32-bit build reaches no "
		       "further)";
	if (!madt)
		return "no ACPI MADT";
	if (!t->n_ioapics)
		return "the MADT lists no I/O APIC";
	return NULL;
}

/* The port a FADT names for its PM timer, 0 for none. */
static uint32_t pm_timer_port(const uint8_t *fadt, uint32_t len)
{
	const uint8_t *x = fadt + ACPI_FADT_X_PM_TMR_BLK;
	uint64_t xaddr;

	if (len >= ACPI_FADT_X_PM_TMR_END && x[0] == ACPI_GAS_SYSTEM_IO) {
		xaddr = get64(x + 4);
		if (xaddr && xaddr <= 0xffff)
			return (uint32_t)xaddr;
	}
	if (len > ACPI_FADT_PM_TMR_LEN && fadt[ACPI_FADT_PM_TMR_LEN] == 4)
		return get32(fadt + ACPI_FADT_PM_TMR_BLK);
	return 0;
}

const char *acpi_pm_timer(uint64_t rsdp, struct acpi_pm_timer *pm)
{
	const uint8_t *fadt;
	uint32_t len, port;

	memset(pm, 0, sizeof(*pm));
	fadt = acpi_find(rsdp, "FACP");
	if (!fadt)
		return "no ACPI FADT (or no valid RSDP)";
	len = get32(fadt + ACPI_HDR_LENGTH);
	port = pm_timer_port(fadt, len);
	if (!port || port > 0xfffc)
		return "the FADT names no PM timer port";
	pm->port = (uint16_t)port;
	pm->mask = len >= ACPI_FADT_FLAGS_END &&
		   (get32(fadt + ACPI_FADT_FLAGS) & ACPI_FADT_TMR_VAL_EXT) ?
		   0xffffffffu : 0xffffffu;
	return NULL;
}
