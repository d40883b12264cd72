/* platform: is this QEMU?  Detected, never assumed: from the SMBIOS system
 * manufacturer (QEMU writes "QEMU") and the CPUID hypervisor leaf
 * ("TCGTCGTCGTCG").  Only then may the harness touch
 * QEMU-only I/O ports such as isa-debug-exit. */
#ifndef BOOT_PLATFORM_H
#define BOOT_PLATFORM_H

struct platform {
	int qemu;
	char smbios_vendor[64];		/* SMBIOS type 1 manufacturer */
	char hypervisor[13];		/* CPUID 40000000H signature */
	char evidence[96];
};

void platform_detect(struct platform *p);

#endif
