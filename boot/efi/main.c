/* main: the UEFI entry.  Finds the boot volume, reads the options (the
 * volume's \pmu-harness.cfg, then the load options) and runs the session
 * (boot/session.h); returns the verdict to the firmware as a status. */
#include "efi.h"
#include "../cfgfile.h"
#include "../mp.h"
#include "../options.h"
#include "../session.h"
#include "../../lib/tap.h"

struct efi_ctx efi;

static void open_root(void)
{
	EFI_GUID li_guid = LOADED_IMAGE_PROTOCOL;
	EFI_GUID fs_guid = SIMPLE_FILE_SYSTEM_PROTOCOL;
	EFI_FILE_IO_INTERFACE *fs;

	if (efi.bs->HandleProtocol(efi.image, &li_guid,
				   (void **)&efi.loaded) != EFI_SUCCESS) {
		efi.loaded = NULL;
		return;
	}
	if (efi.bs->HandleProtocol(efi.loaded->DeviceHandle, &fs_guid,
				   (void **)&fs) != EFI_SUCCESS)
		return;
	if (fs->OpenVolume(fs, &efi.root) != EFI_SUCCESS)
		efi.root = NULL;
}

/* Load options are UCS-2 (UEFI shell command line, or a boot entry's
 * optional data); non-ASCII becomes '?', which the parser then rejects.
 * Options longer than the buffer are an error and none of them applies
 * (a cut tests= list would run the wrong tests). */
static void read_load_options(void)
{
	/* room for a 4 KiB tests= list and an inject= list */
	static char text[OPT_TESTS_MAX + OPT_INJECT_MAX + 1024];
	const CHAR16 *w;
	unsigned n, i;

	if (!efi.loaded || !efi.loaded->LoadOptions)
		return;
	w = efi.loaded->LoadOptions;
	n = efi.loaded->LoadOptionsSize / sizeof(CHAR16);
	for (i = 0; i < n && i + 1 < sizeof(text) && w[i]; i++)
		text[i] = w[i] < 0x80 && (w[i] >= 0x20 || w[i] == '\t') ?
			  (char)w[i] : '?';
	text[i] = 0;
	if (i < n && w[i]) {
		session_opt_error(NULL, "load options: longer than the "
				  "harness reads; nothing from them applied, "
				  "and no test runs");
		options_reject_source(session_options());
		return;
	}
	options_parse(session_options(), options_skip_program(text), "load options",
		      session_opt_error, NULL);
}

/* Last resort on a real machine: the firmware's watchdog resets a machine
 * wedged past the run's remaining time (UEFI 2.8 §7.5,
 * SetWatchdogTimer; codes up to 0xFFFF are the firmware's). */
static void firmware_watchdog(unsigned seconds)
{
	efi.bs->SetWatchdogTimer(seconds, 0x10000 + 0x504d, 0, NULL);
}

static const struct firmware uefi = {
	.name = "uefi",
	.watchdog = firmware_watchdog,
	.mp_init = mp_init,
};

/* Called by gnu-efi's crt0 (_start) after self-relocation; must stay
 * visible to it. */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
	__attribute__((visibility("default")));

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	efi.image = image;
	efi.st = st;
	efi.bs = st->BootServices;
	efi.rt = st->RuntimeServices;
	efi.bs->SetWatchdogTimer(0, 0, 0, NULL);
	open_root();
	options_defaults(session_options());
	cfgfile_apply(session_options(), session_opt_error, NULL);
	read_load_options();
	switch (session_run(&uefi)) {
	case TAP_VERDICT_PASS:
		return EFI_SUCCESS;
	case TAP_VERDICT_UNTESTED:
		return EFI_UNSUPPORTED;	/* nothing failed, nothing tested */
	default:
		return EFI_ABORTED;
	}
}
