/* serial_port: the log's serial port (see serial_port.h). */
#include "serial_port.h"
#include "efi.h"
#include "../serial_pick.h"
#include "../../arch/x86/port_io.h"
#include "../../arch/x86/serial.h"
#include "../../lib/string.h"

static EFI_GUID serial_io_guid = SERIAL_IO_PROTOCOL;
static EFI_GUID device_path_guid = DEVICE_PATH_PROTOCOL;

static struct {
	SERIAL_IO_INTERFACE *sio;	/* firmware serial, or NULL */
	struct uart uart;		/* polled 16550 otherwise */
	struct serial_pick pick;	/* the port, how, why not serial= */
} port;

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

/* serial_pick()'s open: the firmware's Serial I/O for a COM port, else a
 * polled 16550 once the probe (arch/x86/serial.c) proves one is there.
 * 0 when one is open. */
static int open_port(unsigned base, int com, const char **via, char *why,
		     unsigned size)
{
	if (com)
		port.sio = find_serial_io(com);
	if (port.sio) {
		/* 115200 8N1, firmware defaults for FIFO depth and timeout */
		port.sio->SetAttributes(port.sio, 115200, 0, 0, NoParity, 8,
					OneStopBit);
		*via = "uefi-serial-io";
		return 0;
	}
	if (uart_init(&port.uart, &port_io_cpu, (uint16_t)base, why, size))
		return -1;
	*via = "16550";
	return 0;
}

void serial_port_open(const struct options *o)
{
	memset(&port, 0, sizeof(port));
	serial_pick(&port.pick, o, open_port);
}

int serial_port_in_use(void)
{
	return port.sio || port.uart.alive;
}

const struct serial_pick *serial_port_pick(void)
{
	return &port.pick;
}

void serial_port_write(const char *s, unsigned n)
{
	if (port.sio) {
		UINTN len = n;

		port.sio->Write(port.sio, &len, (void *)s);
	} else if (port.uart.alive) {
		uart_write(&port.uart, s, n);
	}
}
