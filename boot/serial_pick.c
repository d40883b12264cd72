/* serial_pick: the log's serial port (see serial_pick.h). */
#include "serial_pick.h"
#include "../lib/escape.h"
#include "../lib/fmt.h"
#include "../lib/string.h"

#define COM1_BASE 0x3f8

static int try_port(struct serial_pick *sp, unsigned port, int com,
		    serial_open_fn open, char *why, unsigned size)
{
	if (com)
		fmt_snprintf(sp->name, sizeof(sp->name), "com%d", com);
	else
		fmt_snprintf(sp->name, sizeof(sp->name), "0x%x", port);
	return open(port, com, &sp->via, why, size);
}

void serial_pick(struct serial_pick *sp, const struct options *o,
		 serial_open_fn open)
{
	char why[160], why_com1[160], asked[16];
	int n;

	memset(sp, 0, sizeof(*sp));
	sp->via = "none";
	if (!o->serial_port) {
		str_copy(sp->name, "none", sizeof(sp->name));
		return;
	}
	if (!try_port(sp, o->serial_port, o->serial_com, open, why,
		      sizeof(why)))
		return;
	sp->via = "absent";
	if (o->serial_port == COM1_BASE)
		return;
	str_copy(asked, sp->name, sizeof(asked));
	if (!try_port(sp, COM1_BASE, 1, open, why_com1, sizeof(why_com1)))
		n = fmt_snprintf(sp->refused, sizeof(sp->refused), "serial=%s: "
				 "not a 16550 UART (%s); the log goes to com1",
				 asked, why);
	else
		n = fmt_snprintf(sp->refused, sizeof(sp->refused), "serial=%s: "
				 "not a 16550 UART (%s); com1 is not one either "
				 "(%s)", asked, why, why_com1);
	esc_note_cut(sp->refused, sizeof(sp->refused), (size_t)n);
}
