/* mp: the firmware's EFI_MP_SERVICES_PROTOCOL, handed down to
 * arch/x86/smp.c as a processor list and a function that runs code on one
 * processor with a time limit (arch/x86/smp.h says why the firmware's
 * service and not an INIT-SIPI-SIPI of our own). */
#ifndef BOOT_MP_H
#define BOOT_MP_H

/* Finds the protocol, lists the processors and calls smp_init(); without
 * the protocol, smp_init(NULL, why).  After trap_install(). */
void mp_init(void);

#endif
