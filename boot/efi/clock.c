/* clock: TSC calibration against UEFI Stall (see clock.h). */
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
	t0 = rdtsc();
	if (efi.bs->Stall(CALIBRATE_US) != EFI_SUCCESS)
		return 0;
	t1 = rdtsc();
	hz = (t1 - t0) * (1000000 / CALIBRATE_US);
	return hz;
}
