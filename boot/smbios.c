/* smbios: entry points and the type 1 manufacturer (see smbios.h). */
#include "smbios.h"
#include "../lib/string.h"

int smbios_entry(const uint8_t *ep, const uint8_t **base, uint32_t *len)
{
	if (!memcmp(ep, "_SM3_", 5)) {
		uint64_t a;

		memcpy(&a, ep + 0x10, 8);
		memcpy(len, ep + 0x0c, 4);
		*base = (const uint8_t *)(uintptr_t)a;
		return 0;
	}
	if (!memcmp(ep, "_SM_", 4)) {
		uint32_t a = 0;
		uint16_t l = 0;

		memcpy(&a, ep + 0x18, 4);
		memcpy(&l, ep + 0x16, 2);
		*len = l;
		*base = (const uint8_t *)(uintptr_t)a;
		return 0;
	}
	return -1;
}

static const char *smbios_string(const uint8_t *s, const uint8_t *end,
				 unsigned idx)
{
	if (!idx)
		return "";
	while (s < end && *s) {
		if (--idx == 0)
			return (const char *)s;
		while (s < end && *s)
			s++;
		s++;
	}
	return "";
}

void smbios_manufacturer(const uint8_t *p, uint32_t len, char *out,
			 unsigned size)
{
	const uint8_t *end = p + len;

	out[0] = 0;
	while (p + 4 <= end) {
		const uint8_t *strings = p + p[1], *q = strings;

		if (p[1] < 4)
			return;		/* malformed: stop rather than loop */
		while (q + 1 < end && (q[0] || q[1]))
			q++;
		if (p[0] == 1 && p[1] > 4) {
			str_copy(out, smbios_string(strings, end, p[4]), size);
			return;
		}
		if (p[0] == 127)
			return;
		p = q + 2;
	}
}
