/* screens: the text screens (see screens.h). */
#include "screens.h"
#include "efi.h"

static EFI_GUID device_path_guid = DEVICE_PATH_PROTOCOL;
static EFI_GUID text_out_guid = SIMPLE_TEXT_OUTPUT_PROTOCOL;

#define MAX_SCREENS 4

static struct {
	SIMPLE_TEXT_OUTPUT_INTERFACE *out[MAX_SCREENS];
	unsigned n;
	const char *via;
} screens;

static int has_uart_node(EFI_DEVICE_PATH *dp)
{
	for (; !IsDevicePathEnd(dp); dp = NextDevicePathNode(dp))
		if (DevicePathType(dp) == MESSAGING_DEVICE_PATH &&
		    DevicePathSubType(dp) == MSG_UART_DP)
			return 1;
	return 0;
}

/*
 * The text console.  Firmware console splitters (ConOut) often include a
 * terminal on a serial port, which would put every line twice on the port
 * the log already goes to, wrapped in ANSI escapes.  So with a serial port
 * in use, lines go to each text output device that is not a UART terminal
 * (the screen); with serial=none they go to ConOut as a whole.
 */
void screens_open(int serial_in_use)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;

	screens.n = 0;
	screens.via = "none";
	if (!serial_in_use) {
		if (efi.st->ConOut) {
			screens.out[screens.n++] = efi.st->ConOut;
			screens.via = "conout";
		}
		return;
	}
	if (efi.bs->LocateHandleBuffer(ByProtocol, &text_out_guid, NULL, &n,
				       &handles) != EFI_SUCCESS)
		return;
	for (UINTN i = 0; i < n && screens.n < MAX_SCREENS; i++) {
		EFI_DEVICE_PATH *dp;
		SIMPLE_TEXT_OUTPUT_INTERFACE *out;

		/* The splitter itself has no device path: skip it. */
		if (efi.bs->HandleProtocol(handles[i], &device_path_guid,
					   (void **)&dp) != EFI_SUCCESS ||
		    has_uart_node(dp))
			continue;
		if (efi.bs->HandleProtocol(handles[i], &text_out_guid,
					   (void **)&out) == EFI_SUCCESS)
			screens.out[screens.n++] = out;
	}
	efi.bs->FreePool(handles);
	if (screens.n)
		screens.via = "screens";
}

const char *screens_via(void)
{
	return screens.via;
}

unsigned screens_count(void)
{
	return screens.n;
}

/* OutputString() takes a CHAR16 string (UEFI spec 2.10, 12.4 Simple Text
 * Output Protocol): the line goes in pieces of up to 254 characters. */
static void write_screen(SIMPLE_TEXT_OUTPUT_INTERFACE *out, const char *s)
{
	CHAR16 w[256];
	unsigned i = 0;

	while (*s) {
		w[i++] = (CHAR16)(unsigned char)*s++;
		if (i == 254 || !*s) {
			w[i] = 0;
			out->OutputString(out, w);
			i = 0;
		}
	}
	out->OutputString(out, L"\r\n");
}

void screens_line(const char *s)
{
	for (unsigned i = 0; i < screens.n; i++)
		write_screen(screens.out[i], s);
}
