/* serial_pick: which serial port carries the log, the same rule under
 * both firmwares (README "Serial ports"): the port serial= names; when
 * the probe refuses it, COM1, as a bad option value keeps the previous
 * one, and a line saying why; serial=none: no port. */
#ifndef BOOT_SERIAL_PICK_H
#define BOOT_SERIAL_PICK_H

#include "options.h"

struct serial_pick {
	char name[16];			/* "com1".."com4", "0x2f8", "none" */
	const char *via;		/* what opened it; "absent", "none" */
	char refused[OPT_ERROR_MAX];	/* why serial= is not used, or "" */
};

/* Opens port (com: its COM number, 0 when given as a base); returns 0
 * with *via naming how, or -1 with why. */
typedef int (*serial_open_fn)(unsigned port, int com, const char **via,
			      char *why, unsigned size);

void serial_pick(struct serial_pick *sp, const struct options *o,
		 serial_open_fn open);

#endif
