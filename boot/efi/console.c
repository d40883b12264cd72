/* console: serial, text console and log file sinks (see console.h). */
#include "../console.h"
#include "../serial_pick.h"
#include "efi.h"
#include "../efi_status.h"
#include "../logname.h"
#include "../../arch/x86/port_io.h"
#include "../../arch/x86/serial.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

static EFI_GUID serial_io_guid = SERIAL_IO_PROTOCOL;
static EFI_GUID device_path_guid = DEVICE_PATH_PROTOCOL;
static EFI_GUID text_out_guid = SIMPLE_TEXT_OUTPUT_PROTOCOL;
static EFI_GUID file_info_guid = EFI_FILE_INFO_ID;

#define MAX_SCREENS 4

static struct {
	SERIAL_IO_INTERFACE *sio;	/* firmware serial, or NULL */
	struct uart uart;		/* polled 16550 otherwise */
	struct serial_pick serial;	/* the port, how, why not serial= */
	SIMPLE_TEXT_OUTPUT_INTERFACE *screens[MAX_SCREENS];
	unsigned n_screens;
	const char *text_via;
	EFI_FILE_HANDLE dir;		/* \pmu-harness: see flush_in_order() */
	EFI_FILE_HANDLE file;		/* NULL when none, or after a failure */
	char file_name[LOGNAME_MAX];
	char file_state[200];		/* the header's logfile="..." */
	UINT64 written;			/* bytes of whole lines written */
	UINT64 flushed;			/* of those, durable at the last sync */
	char file_error[240];		/* the first failure, "" while none */
	int error_unsaid;		/* its error line is yet to be written */
	char describe[320];
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
static int open_port(unsigned port, int com, const char **via, char *why,
		     unsigned size)
{
	if (com)
		con.sio = find_serial_io(com);
	if (con.sio) {
		/* 115200 8N1, firmware defaults for FIFO depth and timeout */
		con.sio->SetAttributes(con.sio, 115200, 0, 0, NoParity, 8,
				       OneStopBit);
		*via = "uefi-serial-io";
		return 0;
	}
	if (uart_init(&con.uart, &port_io_cpu, (uint16_t)port, why, size))
		return -1;
	*via = "16550";
	return 0;
}

/* The firmware clock for the log's name (UEFI spec 2.10, 8.3 GetTime). */
static void read_clock(struct logname_time *lt)
{
	EFI_TIME t;

	memset(lt, 0, sizeof(*lt));
	if (efi.rt->GetTime(&t, NULL) != EFI_SUCCESS)
		return;
	*lt = (struct logname_time){
		.valid = 1, .year = t.Year, .month = t.Month, .day = t.Day,
		.hour = t.Hour, .minute = t.Minute, .second = t.Second,
	};
}

static void to_wide(CHAR16 *dst, unsigned size, const char *src)
{
	unsigned i;

	for (i = 0; src[i] && i + 1 < size; i++)
		dst[i] = (CHAR16)(unsigned char)src[i];
	dst[i] = 0;
}

/* EFI_FILE_INFO of an open handle (UEFI spec 2.10, 13.5 File Protocol:
 * EFI_FILE_PROTOCOL.GetInfo(), EFI_FILE_INFO): room for names up to 64
 * characters. */
static EFI_STATUS file_info(EFI_FILE_HANDLE f, EFI_FILE_INFO **info)
{
	static UINT64 buf[(__builtin_offsetof(EFI_FILE_INFO, FileName) +
			   65 * sizeof(CHAR16)) / 8 + 1];
	UINTN size = sizeof(buf);
	EFI_STATUS st = f->GetInfo(f, &file_info_guid, &size, buf);

	*info = (EFI_FILE_INFO *)buf;
	return st;
}

/* The state of a step that failed: a write-protected volume has its own
 * words, anything else says what failed and the status. */
static enum logfile_state open_failed(char *detail, unsigned size,
				      const char *what, EFI_STATUS st)
{
	char name[40];

	if (st == EFI_WRITE_PROTECTED)
		return LOGFILE_READ_ONLY;
	efi_status_format(name, sizeof(name), st);
	fmt_snprintf(detail, size, "%s (%s)", what, name);
	return LOGFILE_FAILED;
}

static int is_directory(EFI_FILE_HANDLE f)
{
	EFI_FILE_INFO *info;

	return file_info(f, &info) != EFI_SUCCESS ||
	       (info->Attribute & EFI_FILE_DIRECTORY);
}

/* A \pmu-harness that is a file opens like a directory would (FatPkg opens
 * the existing entry whatever the attributes asked for), so the handle's
 * attributes decide; a read-only file refuses the write open, so a read
 * open is tried before calling that a failure. */
static enum logfile_state open_log_dir(char *detail, unsigned size)
{
	EFI_FILE_HANDLE f;
	EFI_STATUS st;

	st = efi.root->Open(efi.root, &con.dir, L"\\pmu-harness",
			    EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE |
			    EFI_FILE_MODE_CREATE, EFI_FILE_DIRECTORY);
	if (st == EFI_SUCCESS) {
		if (is_directory(con.dir))
			return LOGFILE_OPEN;
		con.dir->Close(con.dir);
		con.dir = NULL;
		return LOGFILE_NOT_DIR;
	}
	con.dir = NULL;
	if (st != EFI_WRITE_PROTECTED &&
	    efi.root->Open(efi.root, &f, L"\\pmu-harness", EFI_FILE_MODE_READ,
			   0) == EFI_SUCCESS) {
		int dir = is_directory(f);

		f->Close(f);
		if (!dir)
			return LOGFILE_NOT_DIR;
	}
	return open_failed(detail, size, "cannot open \\pmu-harness", st);
}

static EFI_STATUS probe_status;

/* logname_choose()'s probe: a name is taken when it opens. */
static int name_taken(void *ctx, const char *name)
{
	EFI_FILE_HANDLE dir = ctx, f;
	CHAR16 wname[LOGNAME_MAX];

	to_wide(wname, LOGNAME_MAX, name);
	probe_status = dir->Open(dir, &f, wname, EFI_FILE_MODE_READ, 0);
	if (probe_status == EFI_SUCCESS) {
		f->Close(f);
		return 1;
	}
	return probe_status == EFI_NOT_FOUND ? 0 : -1;
}

static enum logfile_state create_log_file(char *detail, unsigned size,
					  unsigned *taken)
{
	struct logname_time lt;
	enum logfile_state state;
	CHAR16 wname[LOGNAME_MAX];
	char what[80];
	EFI_STATUS st;

	read_clock(&lt);
	state = logname_choose(&lt, name_taken, con.dir, con.file_name,
			       sizeof(con.file_name), taken);
	fmt_snprintf(what, sizeof(what), "cannot %s \\pmu-harness\\%s",
		     state == LOGFILE_FAILED ? "check" : "create",
		     con.file_name);
	if (state == LOGFILE_FAILED)
		return open_failed(detail, size, what, probe_status);
	if (state != LOGFILE_OPEN)
		return state;
	to_wide(wname, LOGNAME_MAX, con.file_name);
	st = con.dir->Open(con.dir, &con.file, wname, EFI_FILE_MODE_READ |
			   EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, 0);
	if (st == EFI_SUCCESS)
		return LOGFILE_OPEN;
	con.file = NULL;
	return open_failed(detail, size, what, st);
}

/* Opens \pmu-harness\<name>.log, or says in file_state why there is none. */
static void open_log_file(void)
{
	enum logfile_state state = LOGFILE_NO_VOLUME;
	char detail[160] = "";
	unsigned taken = 0;

	if (efi.root)
		state = open_log_dir(detail, sizeof(detail));
	if (state == LOGFILE_OPEN)
		state = create_log_file(detail, sizeof(detail), &taken);
	if (state != LOGFILE_OPEN && con.dir) {
		con.dir->Close(con.dir);
		con.dir = NULL;
	}
	logfile_describe(con.file_state, sizeof(con.file_state), state,
			 con.file_name, taken, detail);
}

void console_open(const struct options *o)
{
	memset(&con, 0, sizeof(con));
	serial_pick(&con.serial, o, open_port);
	open_screens(con.sio || con.uart.alive);
	open_log_file();
	fmt_snprintf(con.describe, sizeof(con.describe),
		     "serial=%s via=%s text=%s(%u) logfile=\"%s\"",
		     con.serial.name, con.serial.via, con.text_via,
		     con.n_screens, con.file_state);
}

const char *console_describe(void)
{
	return con.describe;
}

const char *console_serial_refused(void)
{
	return con.serial.refused;
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

/* A line on the serial port and the screens (every sink but the file). */
static void write_ports(const char *s, unsigned n)
{
	write_serial(s, n);
	write_serial("\r\n", 2);
	for (unsigned i = 0; i < con.n_screens; i++)
		write_screen(con.screens[i], s);
}

/* The failure line goes where the file does not: serial and screens. */
static void say_file_error(void)
{
	char line[sizeof(con.file_error) + 32];

	if (!con.error_unsaid)
		return;
	con.error_unsaid = 0;
	fmt_snprintf(line, sizeof(line), "# error: log file: %s",
		     con.file_error);
	write_ports(line, (unsigned)str_len(line));
}

/*
 * Makes what was written durable, file data before file size.  The UEFI
 * spec (2.10, 13.5, EFI_FILE_PROTOCOL.Flush()) promises only that a Flush
 * writes "all modified data associated with a file"; it says nothing of
 * the order.
 * OVMF's FAT driver (FatPkg) writes the directory entry (size) and the
 * data pages of its cache in disk order, so the size could land first and
 * a kill in between leave NULs at the end.  Flushing the directory handle
 * first writes the volume's dirty cache (our data) but not our entry;
 * the file's own Flush then writes the entry, with data already on disk.
 * docs/reliability.md, "The log file", has the details.
 */
static EFI_STATUS flush_in_order(const char **what)
{
	EFI_STATUS st = con.dir->Flush(con.dir);

	if (st != EFI_SUCCESS) {
		*what = "flush of \\pmu-harness failed";
		return st;
	}
	st = con.file->Flush(con.file);
	if (st != EFI_SUCCESS)
		*what = "flush failed";
	return st;
}

/* Cuts the file back to the whole lines written (UEFI spec 2.10, 13.5,
 * EFI_FILE_PROTOCOL.SetInfo() with EFI_FILE_INFO: a smaller FileSize
 * truncates). */
static EFI_STATUS cut_to_whole_lines(void)
{
	EFI_FILE_INFO *info;
	EFI_STATUS st = file_info(con.file, &info);

	if (st != EFI_SUCCESS || info->FileSize == con.written)
		return st;
	info->FileSize = con.written;
	return con.file->SetInfo(con.file, &file_info_guid, info->Size, info);
}

/* After a failure: keep the whole lines, make them durable and stop
 * writing.  Returns the bytes the file keeps: every whole line written
 * when the cut and the flush worked, else what the last good sync made
 * durable. */
static UINT64 give_up_file(void)
{
	const char *what;
	int ok = cut_to_whole_lines() == EFI_SUCCESS &&
		 flush_in_order(&what) == EFI_SUCCESS;

	con.file->Close(con.file);
	con.dir->Close(con.dir);
	con.file = NULL;
	con.dir = NULL;
	return ok ? con.written : con.flushed;
}

static void file_failed(const char *what, EFI_STATUS st)
{
	char name[40];
	UINT64 kept = give_up_file();

	efi_status_format(name, sizeof(name), st);
	fmt_snprintf(con.file_error, sizeof(con.file_error),
		     "%s (%s), %llu bytes kept in \\pmu-harness\\%s", what,
		     name, (unsigned long long)kept, con.file_name);
	con.error_unsaid = 1;
}

/* One Write at the end of the file; a short or failed one ends the file. */
static int file_put(const char *p, unsigned n)
{
	UINTN len = n;
	EFI_STATUS st = con.file->Write(con.file, &len, (void *)p);
	char what[80];

	if (st == EFI_SUCCESS && len == n)
		return 0;
	if (st == EFI_SUCCESS)
		fmt_snprintf(what, sizeof(what), "short write, %u of %u bytes",
			     (unsigned)len, n);
	else
		fmt_snprintf(what, sizeof(what), "write of %u bytes failed",
			     n);
	file_failed(what, st);
	return -1;
}

/* A line and its LF in one Write where it fits: the file grows by whole
 * lines, and a failure is cut back to the last one. */
static void write_file(const char *s, unsigned n)
{
	static char buf[1024];

	if (n + 1 <= sizeof(buf)) {
		memcpy(buf, s, n);
		buf[n] = '\n';
		if (file_put(buf, n + 1))
			return;
	} else if (file_put(s, n) || file_put("\n", 1)) {
		return;
	}
	con.written += n + 1;
}

void console_line(const char *s)
{
	unsigned n = (unsigned)str_len(s);

	write_ports(s, n);
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
	const char *what;
	EFI_STATUS st;

	if (con.file) {
		st = flush_in_order(&what);
		if (st == EFI_SUCCESS)
			con.flushed = con.written;
		else
			file_failed(what, st);
	}
	say_file_error();
}

const char *console_file_error(void)
{
	return con.file_error[0] ? con.file_error : NULL;
}

void console_close(void)
{
	console_sync();
	if (con.file) {
		con.file->Close(con.file);
		con.dir->Close(con.dir);
		con.file = NULL;
		con.dir = NULL;
	}
}
