/* mp: a BIOS boot has no firmware service that runs code on another
 * processor (the UEFI build uses EFI_MP_SERVICES_PROTOCOL, boot/efi/mp.c),
 * and the harness starts none itself: the smp tests say why. */
#include <stddef.h>
#include "../mp.h"
#include "../../arch/x86/smp.h"

void mp_init(void)
{
	smp_init(NULL, "BIOS boot: no firmware MP service, and the harness "
		 "starts no processor itself (INIT-SIPI-SIPI is not done)");
}
