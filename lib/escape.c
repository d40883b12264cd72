/* escape: untrusted text made safe for a log line (see escape.h). */
#include "escape.h"
#include "fmt.h"
#include "string.h"

static const char hex_digits[] = "0123456789abcdef";

static int shown_as_is(unsigned char c)
{
	return c >= 0x20 && c <= 0x7e && c != '\\' && c != '"';
}

size_t esc_bytes(char *buf, size_t size, const char *s, size_t n)
{
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t w = shown_as_is(c) ? 1 : ESC_PER_BYTE;

		/* Written only while the whole of it fits before the NUL. */
		if (size && len + w < size) {
			if (w == 1) {
				buf[len] = (char)c;
			} else {
				buf[len] = '\\';
				buf[len + 1] = 'x';
				buf[len + 2] = hex_digits[c >> 4];
				buf[len + 3] = hex_digits[c & 15];
			}
		} else if (size && len < size) {
			buf[len] = 0;
			size = 0;	/* full: nothing more is written */
		}
		len += w;
	}
	if (size)
		buf[len < size ? len : size - 1] = 0;
	return len;
}

size_t esc_str(char *buf, size_t size, const char *s)
{
	return esc_bytes(buf, size, s, str_len(s));
}

int esc_is_printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			return 0;
	return 1;
}

/* Moves a cut point back to the start of a \xNN escape it would split. */
static size_t keep_escapes_whole(const char *buf, size_t keep)
{
	for (size_t back = 1; back <= 3 && back <= keep; back++) {
		size_t at = keep - back;

		if (buf[at] == '\\' && (back == 1 || buf[at + 1] == 'x'))
			return at;
	}
	return keep;
}

int esc_note_cut(char *buf, size_t size, size_t full)
{
	char note[40];
	size_t keep;
	int n;

	if (full < size)
		return 0;
	/* The note's length depends on N, which depends on where the text
	 * is cut: start from the longest note N can need. */
	n = fmt_snprintf(note, sizeof(note), " [%zu more characters cut]",
			 full);
	keep = keep_escapes_whole(buf, size - 1 - (size_t)n);
	n = fmt_snprintf(note, sizeof(note), " [%zu more characters cut]",
			 full - keep);
	str_copy(buf + keep, note, size - keep);
	return 1;
}
