/* session: one run of the harness, the same under every firmware.  A
 * firmware entry (boot/efi/main.c, boot/bios/main.c) fills the options from
 * where its firmware keeps them, then calls session_run(), which opens the
 * console, sets up the CPU side (exceptions, APIC, watchdog, ring 3),
 * writes the log header, runs the suite and leaves with the verdict
 * (docs/log-format.md describes the log, docs/boot.md the entries). */
#ifndef BOOT_SESSION_H
#define BOOT_SESSION_H

#include "options.h"

/* What differs by firmware. */
struct firmware {
	const char *name;		/* "uefi", "bios" */
	/* Arms (seconds > 0) or stops (0) the firmware's last-resort reset
	 * of a wedged machine; NULL where the firmware has none. */
	void (*watchdog)(unsigned seconds);
	/* The harness owns the PIT, the 8259s and the I/O APIC's ISA pins
	 * (legacy BIOS: the firmware is never called again), so the time
	 * limits may use them (arch/x86/watchdog.h). */
	int owns_isa_timers;
	/* Starts the sibling processor service (boot/mp.h). */
	void (*mp_init)(void);
};

/* The options the entry fills before session_run() (defaults set). */
struct options *session_options(void);
/* The error callback for options_parse(): messages go into the header. */
void session_opt_error(void *ctx, const char *msg);
/* Runs the session; returns the verdict (0 passed, 1 a test failed,
 * 2 the harness broke) when leave() returned (exit=return). */
int session_run(const struct firmware *fw);

#endif
