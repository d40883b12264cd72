/* platform: is this QEMU, or Bochs?  Detected, never assumed: QEMU from
 * the SMBIOS system manufacturer (QEMU writes "QEMU") and the CPUID
 * hypervisor leaf ("TCGTCGTCGTCG"); Bochs (BIOS build only) from its BIOS's
 * SMBIOS/ROM strings (boot/bios/platform.c).  Only then may the harness
 * touch an emulator's own I/O ports: QEMU's isa-debug-exit, Bochs's
 * shutdown port. */
#ifndef BOOT_PLATFORM_H
#define BOOT_PLATFORM_H

struct platform {
	int qemu;
	int bochs;
	char smbios_vendor[64];		/* SMBIOS type 1 manufacturer */
	char hypervisor[13];		/* CPUID 40000000H signature */
	char evidence[96];
};

/* The firmware entry's: fills smbios_vendor (and looks for Bochs), then
 * calls platform_decide(). */
void platform_detect(struct platform *p);
/* Reads the hypervisor leaf and settles qemu/bochs/evidence from
 * smbios_vendor; bochs_evidence: NULL, or what proved Bochs (BIOS only). */
void platform_decide(struct platform *p, const char *bochs_evidence);

#endif
