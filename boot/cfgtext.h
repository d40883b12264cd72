/* cfgtext: the bytes of \pmu-harness.cfg turned into text for
 * options_parse().  Pure logic (host tests reach it); boot/efi/cfgfile.c reads
 * the file.  README "Options" states the rules:
 *  - at most CFG_LIMIT bytes: a longer file is an error and nothing from it
 *    is applied (no option is half-read at a buffer's end);
 *  - a UTF-8 byte-order mark (EF BB BF) at the start is skipped;
 *  - UTF-16 (a byte-order mark FF FE or FE FF, or without one, NUL bytes at
 *    every other offset of the start) is an error line and is decoded, to
 *    UTF-8, so an ASCII option in it still applies;
 *  - a NUL byte is an error line naming its offset, and reads as a space;
 *  - other control bytes (not tab, CR, LF) are an error line naming the
 *    offset of the first; they are kept, so a word holding one is
 *    reported (escaped) by options_parse() and not applied.
 * Offsets are byte offsets in the file. */
#ifndef BOOT_CFGTEXT_H
#define BOOT_CFGTEXT_H

#include <stddef.h>
#include "options.h"

#define CFG_SOURCE "\\pmu-harness.cfg"
#define CFG_LIMIT 65536u
/* The text buffer cfg_decode() needs for CFG_LIMIT bytes: UTF-16 turned
 * into UTF-8 grows by half at most (2 bytes in, up to 3 out). */
#define CFG_TEXT_MAX (CFG_LIMIT / 2 * 3 + 1)

/* Decodes raw[0..n) of a file that is file_size bytes long (n may be less
 * when only the start was read) into out, NUL-terminated.  Problems go to
 * err as lines starting with "source: ".  Returns 0 when out is to be
 * parsed, -1 when nothing from the file may be applied (the file is over
 * CFG_LIMIT, or out is smaller than the text needs). */
int cfg_decode(const unsigned char *raw, size_t n, size_t file_size,
	       char *out, size_t out_size, const char *source,
	       opt_error_fn err, void *ctx);

#endif
