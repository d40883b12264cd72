/* serial_port: the UEFI build's serial port, the log's first sink.  The
 * port is the one serial_pick() chooses (boot/serial_pick.h, README
 * "Serial ports"); it is written through the firmware's Serial I/O
 * protocol when the firmware offers one for that COM port, else through
 * the harness's polled 16550 (arch/x86/serial.h). */
#ifndef BOOT_EFI_SERIAL_PORT_H
#define BOOT_EFI_SERIAL_PORT_H

struct options;
struct serial_pick;

/* Opens the port o's serial= asks for, or COM1 when the probe refuses it,
 * or none with serial=none. */
void serial_port_open(const struct options *o);
/* 1 when a port is open and lines go to it. */
int serial_port_in_use(void);
/* Which port, how it is written, why serial= was refused. */
const struct serial_pick *serial_port_pick(void);
/* n bytes as they are (the caller adds the CR LF); nothing without a
 * port. */
void serial_port_write(const char *s, unsigned n);

#endif
