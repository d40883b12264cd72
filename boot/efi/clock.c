/* clock: TSC calibration against the ACPI PM timer (clock_pm.c), else
 * UEFI Stall(), whose end a busy host can delay (see clock.h). */
#include "../clock.h"
#include "efi.h"
#include "../../arch/x86/cpu.h"

#define CALIBRATE_US 50000

uint64_t clock_tsc_hz(void)
{
	static uint64_t hz;
	uint64_t t0, t1;

	if (hz)
		return hz;
	hz = clock_tsc_hz_pm_timer();
	if (hz)
		return hz;
	t0 = rdtsc();
	if (efi.bs->Stall(CALIBRATE_US) != EFI_SUCCESS)
		return 0;
	t1 = rdtsc();
	hz = (t1 - t0) * (1000000 / CALIBRATE_US);
	clock_set_source("uefi-stall");
	return hz;
}
