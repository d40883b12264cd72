/* main: the legacy-BIOS entry (boot/bios/entry.S calls bios_main).  Takes
 * what the Multiboot loader hands over (Multiboot 0.6.96 §3.3): the
 * command line, whose words after the kernel's path are the options
 * (README "Options"; a BIOS boot has no \pmu-harness.cfg), the memory map
 * and the text screen; then runs the session (boot/session.h) and halts
 * where leave() does not end the machine. */
#include "bios.h"
#include "../mp.h"
#include "../options.h"
#include "../session.h"
#include "../../arch/x86/cpu.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

void bios_main(uint32_t magic, const struct multiboot_info *mb);

static const struct firmware bios = {
	.name = "bios",
	.watchdog = NULL,
	.owns_isa_timers = 1,
	.mp_init = mp_init,
};

/* Loaders put the kernel's path first (GRUB's "multiboot PATH words",
 * SYSLINUX's mboot.c32, QEMU -kernel PATH -append words): a first word
 * without '=' is that path, not an option. */
static const char *past_path(const char *s)
{
	const char *w;

	while (*s == ' ' || *s == '\t')
		s++;
	for (w = s; *w && *w != ' ' && *w != '\t'; w++)
		if (*w == '=')
			return s;
	return w;
}

/* Copied before any allocation: the loader's strings may sit in RAM that
 * the allocator hands out.  A line longer than the buffer is an error and
 * none of it applies (a cut tests= list would run the wrong tests). */
static void read_cmdline(const struct multiboot_info *mb, char *buf,
			 unsigned size)
{
	const char *src = (const char *)(uintptr_t)mb->cmdline;
	char why[OPT_ERROR_MAX];
	unsigned i;

	buf[0] = 0;
	if (!(mb->flags & MB_INFO_CMDLINE) || !src)
		return;
	for (i = 0; i + 1 < size && src[i]; i++)
		buf[i] = src[i];
	buf[i] = 0;
	if (!src[i])
		return;
	buf[0] = 0;
	fmt_snprintf(why, sizeof(why), "multiboot command line: longer than "
		     "%u characters; nothing from it applied, and no test "
		     "runs", size - 1);
	session_opt_error(NULL, why);
	options_reject_source(session_options());
}

static void bad_magic(uint32_t magic)
{
	char why[OPT_ERROR_MAX];

	fmt_snprintf(why, sizeof(why), "multiboot: loader magic 0x%x is not "
		     "0x%x: no memory map or command line was trusted", magic,
		     MULTIBOOT_BOOTLOADER_MAGIC);
	session_opt_error(NULL, why);
}

/* The BIOS leaves the 8259 PICs mapped at vectors 08h-0Fh with the timer
 * unmasked: an interrupt a test lets in would land on the #DF gate.  Both
 * PICs are masked (OCW1 to the master's 21h and the slave's A1h; Intel
 * 8259A datasheet); only the watchdog, on a board without a local APIC,
 * moves the master off those vectors and unmasks the PIT's IR0 while a
 * limit runs (arch/x86/watchdog.h). */
static void mask_pics(void)
{
	outb(0x21, 0xff);
	outb(0xa1, 0xff);
}

void bios_main(uint32_t magic, const struct multiboot_info *mb)
{
	/* room for a 4 KiB tests= list and an inject= list */
	static char cmdline[OPT_TESTS_MAX + OPT_INJECT_MAX + 1024];
	static const struct multiboot_info none;

	mask_pics();
	options_defaults(session_options());
	if (magic != MULTIBOOT_BOOTLOADER_MAGIC) {
		bad_magic(magic);
		mb = &none;
	}
	read_cmdline(mb, cmdline, sizeof(cmdline));
	bios_vga_init(mb);
	bios_mem_init(mb);
	options_parse(session_options(), past_path(cmdline),
		      "multiboot command line", session_opt_error, NULL);
	(void)session_run(&bios);
	for (;;)
		__asm__ volatile("cli; hlt");
}
