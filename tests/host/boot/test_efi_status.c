/* Host tests for boot/efi_status.c: the names the log gives EFI_STATUS
 * codes (UEFI spec 2.10 Appendix D), and unknown codes in hex.
 * efi_status.c is included, so that the table lookup (efi_status_name(),
 * NULL for an unknown code) is in reach without an interface for the tests
 * alone. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "boot/efi_status.c"

/* host-sources: lib/fmt.c lib/string.c */

#define ERR(n) ((1ULL << 63) | (n))

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(efi_status_name(0), "EFI_SUCCESS");
	assert_string_equal(efi_status_name(ERR(7)), "EFI_DEVICE_ERROR");
	assert_string_equal(efi_status_name(ERR(8)), "EFI_WRITE_PROTECTED");
	assert_string_equal(efi_status_name(ERR(11)), "EFI_VOLUME_FULL");
	assert_string_equal(efi_status_name(ERR(14)), "EFI_NOT_FOUND");
	assert_string_equal(efi_status_name(ERR(15)), "EFI_ACCESS_DENIED");
	assert_string_equal(efi_status_name(3), "EFI_WARN_WRITE_FAILURE");
	assert_null(efi_status_name(ERR(29)));
	assert_null(efi_status_name(11));	/* not the error's code */
}

static void test_format(void **state)
{
	char buf[40];

	(void)state;
	efi_status_format(buf, sizeof(buf), ERR(11));
	assert_string_equal(buf, "EFI_VOLUME_FULL");
	efi_status_format(buf, sizeof(buf), ERR(0x7f));
	assert_string_equal(buf, "status 0x800000000000007f");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
