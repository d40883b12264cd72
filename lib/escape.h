/* escape: untrusted text made safe for a log line.  Bytes from a config
 * file or a command line may hold control characters (an ESC sequence
 * would drive the terminal that shows the serial log) or non-ASCII bytes;
 * they are shown as \xNN instead.  And a line that has to be cut says how
 * much was cut. */
#ifndef LIB_ESCAPE_H
#define LIB_ESCAPE_H

#include <stddef.h>

/* The most characters esc_bytes() writes for one input byte. */
#define ESC_PER_BYTE 4

/* Writes s[0..n) into buf, NUL-terminated: printable ASCII (0x20-0x7e) as
 * is, except the backslash and the double quote; those two, control bytes
 * (0x00-0x1f, 0x7f) and bytes 0x80-0xff as \xNN (two lower-case hex
 * digits), so an escaped value is unambiguous between quotes.  An escape
 * is never cut in two.  Returns the length the whole escaped text has
 * (like snprintf): it did not fit when the return value >= size. */
size_t esc_bytes(char *buf, size_t size, const char *s, size_t n);
/* esc_bytes() of a NUL-terminated string. */
size_t esc_str(char *buf, size_t size, const char *s);
/* True when every byte of s is printable ASCII (0x20-0x7e). */
int esc_is_printable(const char *s);

/* buf (size bytes) holds a NUL-terminated prefix of a text that is 'full'
 * characters long, as snprintf leaves it.  When the text did not fit
 * (full >= size), the end of buf is replaced by " [N more characters
 * cut]", N counting what is left out of the text, moved back so that no
 * \xNN escape is cut in two.  Returns 1 when it cut, 0 when the text was
 * whole.  size must be at least ESC_CUT_MIN. */
#define ESC_CUT_MIN 48
int esc_note_cut(char *buf, size_t size, size_t full);

#endif
