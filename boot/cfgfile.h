/* cfgfile: reads \pmu-harness.cfg from the boot volume and applies it
 * (boot/cfgtext.h states the rules: the size limit, byte-order marks,
 * UTF-16, NUL and control bytes). */
#ifndef BOOT_CFGFILE_H
#define BOOT_CFGFILE_H

#include "options.h"

/* No file, no volume: nothing happens.  A file that cannot be read or is
 * over the limit: one error, and nothing from it is applied. */
void cfgfile_apply(struct options *o, opt_error_fn err, void *ctx);

#endif
