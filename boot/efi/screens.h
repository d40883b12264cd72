/* screens: the UEFI build's text screens, the log's second sink.  With a
 * serial port in use, lines go to each text output device that is not a
 * terminal on a UART; with serial=none, to the firmware's ConOut as a
 * whole (screens.c says why). */
#ifndef BOOT_EFI_SCREENS_H
#define BOOT_EFI_SCREENS_H

/* Finds the screens; serial_in_use: a serial port carries the log. */
void screens_open(int serial_in_use);
/* A line (without its line end) on every screen, then CR LF. */
void screens_line(const char *s);
/* What the lines go to, for the header's text=VIA(N): "screens",
 * "conout" or "none", and how many outputs. */
const char *screens_via(void);
unsigned screens_count(void);

#endif
