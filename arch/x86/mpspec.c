/* mpspec: the processors of an MP Specification 1.4 table (mpspec.h). */
#include "mpspec.h"
#include "../../lib/string.h"

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* "The checksum of the ... structure ... [makes] all bytes ... add up to
 * zero" (Tables 4-1 and 4-2, CHECKSUM). */
static int sums_to_zero(const uint8_t *p, uint32_t len)
{
	uint8_t sum = 0;

	for (uint32_t i = 0; i < len; i++)
		sum = (uint8_t)(sum + p[i]);
	return sum == 0;
}

int mps_floating_at(const uint8_t *p)
{
	return !memcmp(p, MPS_FPS_SIG, 4) && p[MPS_FPS_LENGTH] == 1 &&
	       sums_to_zero(p, MPS_FPS_SIZE);
}

/* The configuration table the floating pointer names, checked, or NULL
 * with *why. */
static const uint8_t *config_table(const uint8_t *fps, const char **why)
{
	uint32_t addr = get32(fps + MPS_FPS_TABLE);
	const uint8_t *t;
	uint16_t len;

	if (fps[MPS_FPS_FEATURE1]) {
		/* Chapter 5: the BIOS implements one of the default
		 * configurations and provides no table; the harness takes no
		 * processor list it has to make up. */
		*why = "the MP floating pointer names a default configuration "
		       "(MP spec 1.4 chapter 5), no table listing processors";
		return NULL;
	}
	if (!addr) {
		*why = "the MP floating pointer names no configuration table";
		return NULL;
	}
	t = (const uint8_t *)(uintptr_t)addr;
	len = get16(t + MPS_CT_LENGTH);
	if (memcmp(t, MPS_CT_SIG, 4))
		*why = "the MP configuration table has no PCMP signature";
	else if (len < MPS_CT_HDR_SIZE)
		*why = "the MP configuration table is shorter than its header";
	else if (!sums_to_zero(t, len))
		*why = "the MP configuration table's checksum is wrong";
	else
		return t;
	return NULL;
}

const char *mps_processors(const uint8_t *fps, struct mps_cpu *c,
			   unsigned max, unsigned *total)
{
	const char *why = NULL;
	const uint8_t *t;
	uint32_t len, off = MPS_CT_HDR_SIZE;
	unsigned entries;

	*total = 0;
	if (!fps || !mps_floating_at(fps))
		return "no valid MP floating pointer structure";
	t = config_table(fps, &why);
	if (!t)
		return why;
	len = get16(t + MPS_CT_LENGTH);
	entries = get16(t + MPS_CT_ENTRY_COUNT);
	for (unsigned i = 0; i < entries && off < len; i++) {
		const uint8_t *e = t + off;

		if (e[0] > MPS_ENTRY_LAST_KNOWN) {
			why = "the MP configuration table has an entry of a "
			      "reserved type";
			break;		/* its length is unknown: stop */
		}
		if (e[0] != MPS_ENTRY_PROCESSOR) {
			off += MPS_ENTRY_OTHER_LEN;
			continue;
		}
		if (off + MPS_ENTRY_PROCESSOR_LEN > len)
			break;
		if (*total < max)
			c[*total] = (struct mps_cpu){
				.apic_id = e[MPS_CPU_APIC_ID],
				.apic_version = e[MPS_CPU_APIC_VERSION],
				.flags = e[MPS_CPU_FLAGS],
				.signature = get32(e + MPS_CPU_SIGNATURE),
			};
		++*total;
		off += MPS_ENTRY_PROCESSOR_LEN;
	}
	if (*total)
		return NULL;
	return why ? why : "the MP configuration table lists no processor";
}
