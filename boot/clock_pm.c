/* clock_pm: the TSC's rate against the ACPI PM timer, for both boots'
 * clock_tsc_hz() (clock.h): pairs of reads at both ends of a 50 ms span,
 * so that a machine held back by its host meanwhile is measured right
 * (arch/x86/tsc_calibrate.h). */
#include "clock.h"
#include "acpi_root.h"
#include "../arch/x86/acpi.h"
#include "../arch/x86/cpu.h"
#include "../arch/x86/tsc_calibrate.h"

/* 50 ms of the PM timer; a counter still for this many reads in a row is
 * none: it ticks every 279 ns, and an IN of an ISA-speed port takes about
 * a microsecond, so a live one moves every read or two, and a dead port
 * costs about a second of the boot, not ten. */
#define PM_SPAN (ACPI_PM_TIMER_HZ / 20)
#define PM_SPIN_LIMIT 1000000u

static const char *source = "none";

static uint32_t pm_read(void *ctx)
{
	return inl((uint16_t)(uintptr_t)ctx);
}

static uint64_t tsc_read(void *ctx)
{
	(void)ctx;
	return rdtsc();
}

uint64_t clock_tsc_hz_pm_timer(void)
{
	struct acpi_pm_timer pm;
	struct tsc_ref ref = { .read = pm_read, .tsc = tsc_read,
			       .hz = ACPI_PM_TIMER_HZ };
	uint64_t hz;

	if (!cpu_has_tsc() || acpi_pm_timer(acpi_rsdp(), &pm))
		return 0;
	ref.ctx = (void *)(uintptr_t)pm.port;
	ref.mask = pm.mask;
	hz = tsc_hz_against(&ref, PM_SPAN, PM_SPIN_LIMIT);
	if (hz)
		clock_set_source(pm.mask == 0xffffffffu ?
				 "acpi-pm-timer(32-bit)" :
				 "acpi-pm-timer(24-bit)");
	return hz;
}

void clock_set_source(const char *what)
{
	source = what;
}

const char *clock_source(void)
{
	return source;
}
