/* pt_errata: the Intel PT errata the packet decoder works around
 * (lib/pt/packet.h, PT_ERRATUM_*), and the CPUs that have them.
 *
 * SKD007 "Intel(R) PT Buffer Overflow May Result in Incorrect Packets"
 * (the 6th Generation Intel Core Processor Family Specification Update;
 * the same erratum is SKL049 and KBL041 in the Skylake and Kaby Lake
 * updates): "an Intel PT OVF packet may be issued after the first
 * byte of a multi-byte CYC packet, instead of any remaining bytes of the
 * CYC".  CPUs: Skylake, Kaby Lake, Coffee Lake client, 06_4EH, 06_5EH,
 * 06_8EH, 06_9EH, 06_A5H, 06_A6H.
 *
 * SKZ84 "Use of VMX TSC Scaling or TSC Offsetting Will Result in
 * Corrupted Intel PT Packets" (Intel Xeon Scalable Processors
 * Specification Update, doc. 336065): in a VMX guest with TSC offsetting
 * or scaling "any TMA packet generated will have corrupted values in the
 * CTC and FastCounter fields.  Additionally, the corrupted TMA packet
 * will be followed by a bogus data byte."  CPUs: Skylake/Cascade Lake
 * server 06_55H, Ice Lake server 06_6AH, 06_6CH, Sapphire Rapids 06_8FH,
 * Emerald Rapids 06_CFH, Granite Rapids 06_ADH, 06_AEH, and family 19
 * model 1.
 *
 * The lists of CPUs are libipt's (libipt/src/pt_config.c, pt_cpu_errata,
 * and its test streams skd007.ptt and skz84.ptt, which quote the two
 * errata in the specification updates' words), restated here as
 * data.
 *
 * Freestanding. */
#include <stddef.h>
#include <stdint.h>
#include "packet.h"

struct cpu_errata {
	uint8_t family;
	uint8_t model;
	uint8_t errata;		/* PT_ERRATUM_* */
};

static const struct cpu_errata cpus[] = {
	{ .family = 6, .model = 0x4e, .errata = PT_ERRATUM_SKD007 },
	{ .family = 6, .model = 0x5e, .errata = PT_ERRATUM_SKD007 },
	{ .family = 6, .model = 0x8e, .errata = PT_ERRATUM_SKD007 },
	{ .family = 6, .model = 0x9e, .errata = PT_ERRATUM_SKD007 },
	{ .family = 6, .model = 0xa5, .errata = PT_ERRATUM_SKD007 },
	{ .family = 6, .model = 0xa6, .errata = PT_ERRATUM_SKD007 },
	{ .family = 6, .model = 0x55, .errata = PT_ERRATUM_SKZ84 },
	{ .family = 6, .model = 0x6a, .errata = PT_ERRATUM_SKZ84 },
	{ .family = 6, .model = 0x6c, .errata = PT_ERRATUM_SKZ84 },
	{ .family = 6, .model = 0x8f, .errata = PT_ERRATUM_SKZ84 },
	{ .family = 6, .model = 0xcf, .errata = PT_ERRATUM_SKZ84 },
	{ .family = 6, .model = 0xad, .errata = PT_ERRATUM_SKZ84 },
	{ .family = 6, .model = 0xae, .errata = PT_ERRATUM_SKZ84 },
	{ .family = 19, .model = 0x01, .errata = PT_ERRATUM_SKZ84 },
};

unsigned pt_errata_for_cpu(unsigned family, unsigned model)
{
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++)
		if (cpus[i].family == family && cpus[i].model == model)
			return cpus[i].errata;
	return 0;
}

const char *pt_erratum_name(unsigned bit)
{
	switch (bit) {
	case PT_ERRATUM_SKD007:
		return "skd007";
	case PT_ERRATUM_SKZ84:
		return "skz84";
	default:
		return "unknown";
	}
}
