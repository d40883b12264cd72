/* efi_status: EFI_STATUS names (see efi_status.h).  The codes are UEFI
 * spec 2.10, Appendix D "Status Codes" (Tables D-3 to D-5): errors have
 * the top bit set, warnings not. */
#include "efi_status.h"
#include "../lib/fmt.h"
#include "../lib/string.h"

#define ERR(n) ((1ULL << 63) | (n))

static const struct {
	uint64_t code;
	const char *name;
} names[] = {
	{ 0, "EFI_SUCCESS" },
	{ ERR(1), "EFI_LOAD_ERROR" },
	{ ERR(2), "EFI_INVALID_PARAMETER" },
	{ ERR(3), "EFI_UNSUPPORTED" },
	{ ERR(4), "EFI_BAD_BUFFER_SIZE" },
	{ ERR(5), "EFI_BUFFER_TOO_SMALL" },
	{ ERR(6), "EFI_NOT_READY" },
	{ ERR(7), "EFI_DEVICE_ERROR" },
	{ ERR(8), "EFI_WRITE_PROTECTED" },
	{ ERR(9), "EFI_OUT_OF_RESOURCES" },
	{ ERR(10), "EFI_VOLUME_CORRUPTED" },
	{ ERR(11), "EFI_VOLUME_FULL" },
	{ ERR(12), "EFI_NO_MEDIA" },
	{ ERR(13), "EFI_MEDIA_CHANGED" },
	{ ERR(14), "EFI_NOT_FOUND" },
	{ ERR(15), "EFI_ACCESS_DENIED" },
	{ ERR(16), "EFI_NO_RESPONSE" },
	{ ERR(17), "EFI_NO_MAPPING" },
	{ ERR(18), "EFI_TIMEOUT" },
	{ ERR(19), "EFI_NOT_STARTED" },
	{ ERR(20), "EFI_ALREADY_STARTED" },
	{ ERR(21), "EFI_ABORTED" },
	{ ERR(22), "EFI_ICMP_ERROR" },
	{ ERR(23), "EFI_TFTP_ERROR" },
	{ ERR(24), "EFI_PROTOCOL_ERROR" },
	{ ERR(25), "EFI_INCOMPATIBLE_VERSION" },
	{ ERR(26), "EFI_SECURITY_VIOLATION" },
	{ ERR(27), "EFI_CRC_ERROR" },
	{ ERR(28), "EFI_END_OF_MEDIA" },
	{ ERR(31), "EFI_END_OF_FILE" },
	{ ERR(32), "EFI_INVALID_LANGUAGE" },
	{ ERR(33), "EFI_COMPROMISED_DATA" },
	{ ERR(34), "EFI_IP_ADDRESS_CONFLICT" },
	{ ERR(35), "EFI_HTTP_ERROR" },
	{ 1, "EFI_WARN_UNKNOWN_GLYPH" },
	{ 2, "EFI_WARN_DELETE_FAILURE" },
	{ 3, "EFI_WARN_WRITE_FAILURE" },
	{ 4, "EFI_WARN_BUFFER_TOO_SMALL" },
	{ 5, "EFI_WARN_STALE_DATA" },
	{ 6, "EFI_WARN_FILE_SYSTEM" },
	{ 7, "EFI_WARN_RESET_REQUIRED" },
};

/* "EFI_VOLUME_FULL" for a code of the UEFI spec's status tables, else
 * NULL. */
static const char *efi_status_name(uint64_t status)
{
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].code == status)
			return names[i].name;
	return NULL;
}

void efi_status_format(char *buf, unsigned size, uint64_t status)
{
	const char *name = efi_status_name(status);

	if (name)
		str_copy(buf, name, size);
	else
		fmt_snprintf(buf, size, "status 0x%llx",
			     (unsigned long long)status);
}
