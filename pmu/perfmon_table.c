/* perfmon_table: the architectural-perfmon capabilities of the CPUs the
 * reference model can stand in for, one row per family-6 model, as the
 * CPU reports them in CPUID.0AH and IA32_PERF_CAPABILITIES.  QEMU under
 * TCG reports CPUID.0AH as zero, so under the model these rows, labelled
 * caps=model:<name>, are what the driver sees; where CPUID reports a
 * version the driver uses CPUID (caps=cpuid) and never this table.
 *
 * Counter numbers are per logical processor with Hyper-Threading
 * enabled (4 GP counters from Nehalem to Cascade Lake; 8 with it off).
 *
 * PRELIMINARY ROWS: to be checked against the sources named per row.
 */
#include "perfmon.h"

#define ROW(f, m, n, a, b, c, d, pc, has, why)                              \
	{ .family = f, .model = m, .name = n, .eax = a, .ebx = b, .ecx = c,  \
	  .edx = d, .has_perf_caps = has, .perf_caps = pc, .cite = why }

const struct perfmon_caps_row perfmon_caps_table[] = {
	ROW(6, 0x0e, "Yonah", 0x07280201, 0, 0, 0, 0, 0,
	    "SDM Vol. 3B §18.4: Core Solo/Duo, architectural perfmon v1, "
	    "2 GP counters of 40 bits; no PDCM"),
	ROW(6, 0x0f, "Conroe", 0x07280202, 0, 0, 0x0503, 0xc1, 1,
	    "SDM Vol. 3B §18.6.2: Core 2, v2, 2 GP + 3 fixed of 40 bits"),
	ROW(6, 0x17, "Penryn", 0x07280202, 0, 0, 0x0503, 0xc1, 1,
	    "SDM Vol. 3B §18.6.2: Core 2 (45 nm), v2, 2 GP + 3 fixed"),
	ROW(6, 0x1a, "Nehalem", 0x07300403, 0, 0, 0x0603, 0x1c3, 1,
	    "SDM Vol. 3B §18.3 / §18.8: Nehalem, v3, 4 GP + 3 fixed of 48 "
	    "bits"),
	ROW(6, 0x2c, "Westmere", 0x07300403, 0, 0, 0x0603, 0x1c3, 1,
	    "SDM Vol. 3B §18.8: Westmere, as Nehalem"),
	ROW(6, 0x2a, "SandyBridge", 0x07300403, 0, 0, 0x0603, 0x31c3, 1,
	    "SDM Vol. 3B §18.9: Sandy Bridge, v3, 4 GP + 3 fixed of 48 bits"),
	ROW(6, 0x3c, "Haswell", 0x07300403, 0, 0, 0x0603, 0x32c4, 1,
	    "SDM Vol. 3B §18.11: Haswell, v3, 4 GP + 3 fixed of 48 bits"),
	ROW(6, 0x5e, "Skylake", 0x07300404, 0, 0, 0x0603, 0x33c5, 1,
	    "SDM Vol. 3B §18.13: Skylake, v4, 4 GP + 3 fixed of 48 bits"),
	ROW(6, 0x55, "CascadeLake", 0x07300404, 0, 0, 0x0603, 0x33c5, 1,
	    "SDM Vol. 3B §18.13: Skylake server / Cascade Lake, v4"),
	ROW(6, 0x7e, "IceLake", 0x08300805, 0, 0xf, 0x8604, 0xf4c5, 1,
	    "SDM Vol. 3B §18.2.5: Ice Lake, v5, 8 GP + 4 fixed of 48 bits"),
	ROW(6, 0x8f, "SapphireRapids", 0x08300805, 0, 0xf, 0x8604, 0xf4ff,
	    1, "SDM Vol. 3B §18.2.5: Sapphire Rapids, v5, 8 GP + 4 fixed"),
};

const unsigned perfmon_caps_table_len =
	sizeof(perfmon_caps_table) / sizeof(perfmon_caps_table[0]);
