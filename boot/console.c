/* console: serial, text console and log file sinks (see console.h). */
#include "console.h"
#include "efi.h"
#include "../arch/x86/port_io.h"
#include "../arch/x86/serial.h"
#include "../lib/escape.h"
#include "../lib/fmt.h"
#include "../lib/string.h"

static EFI_GUID serial_io_guid = SERIAL_IO_PROTOCOL;
static EFI_GUID device_path_guid = DEVICE_PATH_PROTOCOL;
static EFI_GUID text_out_guid = SIMPLE_TEXT_OUTPUT_PROTOCOL;

#define MAX_SCREENS 4
#define COM1_BASE 0x3f8

static struct {
	SERIAL_IO_INTERFACE *sio;	/* firmware serial, or NULL */
	struct uart uart;		/* polled 16550 otherwise */
	const char *serial_via;
	char serial_name[16];
	char serial_refused[OPT_ERROR_MAX];	/* why serial= is not used */
	SIMPLE_TEXT_OUTPUT_INTERFACE *screens[MAX_SCREENS];
	unsigned n_screens;
	const char *text_via;
	EFI_FILE_HANDLE file;
	char file_name[64];
	char file_state[64];
	char describe[200];
} con;

/* The ACPI node of a PC COM port: HID PNP0501, UID = port number - 1. */
static int is_com_port(EFI_DEVICE_PATH *dp, int com)
{
	while (!IsDevicePathEnd(dp)) {
		if (DevicePathType(dp) == ACPI_DEVICE_PATH &&
		    DevicePathSubType(dp) == ACPI_DP) {
			ACPI_HID_DEVICE_PATH *a = (ACPI_HID_DEVICE_PATH *)dp;

			if (a->HID == EISA_PNP_ID(0x0501) &&
			    a->UID == (UINT32)(com - 1))
				return 1;
		}
		dp = NextDevicePathNode(dp);
	}
	return 0;
}

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
static void open_screens(int serial_in_use)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;

	con.text_via = "none";
	if (!serial_in_use) {
		if (efi.st->ConOut) {
			con.screens[con.n_screens++] = efi.st->ConOut;
			con.text_via = "conout";
		}
		return;
	}
	if (efi.bs->LocateHandleBuffer(ByProtocol, &text_out_guid, NULL, &n,
				       &handles) != EFI_SUCCESS)
		return;
	for (UINTN i = 0; i < n && con.n_screens < MAX_SCREENS; i++) {
		EFI_DEVICE_PATH *dp;
		SIMPLE_TEXT_OUTPUT_INTERFACE *out;

		/* The splitter itself has no device path: skip it. */
		if (efi.bs->HandleProtocol(handles[i], &device_path_guid,
					   (void **)&dp) != EFI_SUCCESS ||
		    has_uart_node(dp))
			continue;
		if (efi.bs->HandleProtocol(handles[i], &text_out_guid,
					   (void **)&out) == EFI_SUCCESS)
			con.screens[con.n_screens++] = out;
	}
	efi.bs->FreePool(handles);
	if (con.n_screens)
		con.text_via = "screens";
}

static SERIAL_IO_INTERFACE *find_serial_io(int com)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;
	SERIAL_IO_INTERFACE *found = NULL;

	if (efi.bs->LocateHandleBuffer(ByProtocol, &serial_io_guid, NULL, &n,
				       &handles) != EFI_SUCCESS)
		return NULL;
	for (UINTN i = 0; i < n && !found; i++) {
		EFI_DEVICE_PATH *dp;
		SERIAL_IO_INTERFACE *sio;

		if (efi.bs->HandleProtocol(handles[i], &device_path_guid,
					   (void **)&dp) != EFI_SUCCESS)
			continue;
		if (!is_com_port(dp, com))
			continue;
		if (efi.bs->HandleProtocol(handles[i], &serial_io_guid,
					   (void **)&sio) == EFI_SUCCESS)
			found = sio;
	}
	efi.bs->FreePool(handles);
	return found;
}

/* The firmware's Serial I/O for a COM port, else a polled 16550 once the
 * probe (arch/x86/serial.c) proves one is there.  0 when one is open. */
static int open_port(unsigned port, int com, char *why, unsigned size)
{
	if (com)
		fmt_snprintf(con.serial_name, sizeof(con.serial_name), "com%d",
			     com);
	else
		fmt_snprintf(con.serial_name, sizeof(con.serial_name), "0x%x",
			     port);
	if (com)
		con.sio = find_serial_io(com);
	if (con.sio) {
		/* 115200 8N1, firmware defaults for FIFO depth and timeout */
		con.sio->SetAttributes(con.sio, 115200, 0, 0, NoParity, 8,
				       OneStopBit);
		con.serial_via = "uefi-serial-io";
		return 0;
	}
	if (uart_init(&con.uart, &port_io_cpu, (uint16_t)port, why, size))
		return -1;
	con.serial_via = "16550";
	return 0;
}

/* A port the probe refuses leaves the log on COM1, the default, as a bad
 * option value keeps the previous one; console_serial_refused() says why. */
static void open_serial(const struct options *o)
{
	char why[160], why_com1[160], asked[16];
	int n;

	con.serial_via = "none";
	if (!o->serial_port) {
		str_copy(con.serial_name, "none", sizeof(con.serial_name));
		return;
	}
	if (!open_port(o->serial_port, o->serial_com, why, sizeof(why)))
		return;
	con.serial_via = "absent";
	if (o->serial_port == COM1_BASE)
		return;
	str_copy(asked, con.serial_name, sizeof(asked));
	if (!open_port(COM1_BASE, 1, why_com1, sizeof(why_com1)))
		n = fmt_snprintf(con.serial_refused,
				 sizeof(con.serial_refused), "serial=%s: not "
				 "a 16550 UART (%s); the log goes to com1",
				 asked, why);
	else
		n = fmt_snprintf(con.serial_refused,
				 sizeof(con.serial_refused), "serial=%s: not "
				 "a 16550 UART (%s); com1 is not one either "
				 "(%s)", asked, why, why_com1);
	esc_note_cut(con.serial_refused, sizeof(con.serial_refused),
		     (size_t)n);
}

static void make_run_name(char *buf, unsigned size, unsigned attempt)
{
	EFI_TIME t;

	if (efi.rt->GetTime(&t, NULL) != EFI_SUCCESS)
		fmt_snprintf(buf, size, "run-%u.log", attempt);
	else if (!attempt)
		fmt_snprintf(buf, size, "%04u%02u%02u-%02u%02u%02u.log", t.Year,
			     t.Month, t.Day, t.Hour, t.Minute, t.Second);
	else
		fmt_snprintf(buf, size, "%04u%02u%02u-%02u%02u%02u-%u.log",
			     t.Year, t.Month, t.Day, t.Hour, t.Minute, t.Second,
			     attempt);
}

static void to_wide(CHAR16 *dst, unsigned size, const char *src)
{
	unsigned i;

	for (i = 0; src[i] && i + 1 < size; i++)
		dst[i] = (CHAR16)(unsigned char)src[i];
	dst[i] = 0;
}

static void open_log_file(void)
{
	EFI_FILE_HANDLE dir, f;
	CHAR16 wname[64];
	EFI_STATUS st;

	str_copy(con.file_state, "none", sizeof(con.file_state));
	if (!efi.root)
		return;
	st = efi.root->Open(efi.root, &dir, L"\\pmu-harness",
			    EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE |
			    EFI_FILE_MODE_CREATE, EFI_FILE_DIRECTORY);
	if (st != EFI_SUCCESS) {
		fmt_snprintf(con.file_state, sizeof(con.file_state),
			     "unwritable (status 0x%lx)", (unsigned long)st);
		return;
	}
	for (unsigned attempt = 0; attempt < 100; attempt++) {
		make_run_name(con.file_name, sizeof(con.file_name), attempt);
		to_wide(wname, 64, con.file_name);
		/* Never overwrite an earlier run's log. */
		if (dir->Open(dir, &f, wname, EFI_FILE_MODE_READ, 0) ==
		    EFI_SUCCESS) {
			f->Close(f);
			continue;
		}
		st = dir->Open(dir, &f, wname, EFI_FILE_MODE_READ |
			       EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, 0);
		if (st == EFI_SUCCESS) {
			con.file = f;
			fmt_snprintf(con.file_state, sizeof(con.file_state),
				     "\\pmu-harness\\%s", con.file_name);
		}
		break;
	}
	dir->Close(dir);
}

void console_open(const struct options *o)
{
	memset(&con, 0, sizeof(con));
	open_serial(o);
	open_screens(con.sio || con.uart.alive);
	open_log_file();
	fmt_snprintf(con.describe, sizeof(con.describe),
		     "serial=%s via=%s text=%s(%u) logfile=\"%s\"",
		     con.serial_name, con.serial_via, con.text_via,
		     con.n_screens, con.file_state);
}

const char *console_describe(void)
{
	return con.describe;
}

const char *console_serial_refused(void)
{
	return con.serial_refused;
}

static void write_serial(const char *s, unsigned n)
{
	if (con.sio) {
		UINTN len = n;

		con.sio->Write(con.sio, &len, (void *)s);
	} else if (con.uart.alive) {
		uart_write(&con.uart, s, n);
	}
}

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

static void write_file(const char *s, unsigned n)
{
	UINTN len = n, one = 1;

	if (con.file->Write(con.file, &len, (void *)s) != EFI_SUCCESS ||
	    con.file->Write(con.file, &one, "\n") != EFI_SUCCESS) {
		/* A failing volume must not take the other sinks with it. */
		con.file->Close(con.file);
		con.file = NULL;
	}
}

void console_line(const char *s)
{
	unsigned n = (unsigned)str_len(s);

	write_serial(s, n);
	write_serial("\r\n", 2);
	for (unsigned i = 0; i < con.n_screens; i++)
		write_screen(con.screens[i], s);
	if (con.file)
		write_file(s, n);
}

void console_emit(void *ctx, const char *line)
{
	(void)ctx;
	console_line(line);
}

void console_sync(void)
{
	if (con.file)
		con.file->Flush(con.file);
}

void console_close(void)
{
	if (con.file) {
		con.file->Flush(con.file);
		con.file->Close(con.file);
		con.file = NULL;
	}
}
