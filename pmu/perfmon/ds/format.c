/* pmu/perfmon/ds/format.c: the DS format of this CPU and build
 * (format.h): the rule is ds_format64() (regs.c, SDM Vol. 3B §17.4.9),
 * its inputs this build's mode and the CPU's DTES64 flag. */
#include "format.h"
#include "regs.h"
#include "../../detect.h"

int perfmon_ds64(void)
{
	return ds_format64(DS_BUILD_IA32E,
			   !!(cpu_info()->f1_ecx & CPUID1_ECX_DTES64));
}
