/* efi: the UEFI context the harness was started with.  Only boot/ talks to
 * the firmware; everything else sees plain C interfaces. */
#ifndef BOOT_EFI_H
#define BOOT_EFI_H

#include <efi.h>

struct efi_ctx {
	EFI_HANDLE image;
	EFI_SYSTEM_TABLE *st;
	EFI_BOOT_SERVICES *bs;
	EFI_RUNTIME_SERVICES *rt;
	EFI_LOADED_IMAGE *loaded;
	EFI_FILE_HANDLE root;		/* boot volume's root, or NULL */
};

extern struct efi_ctx efi;

/* ImageBase from linker.ld: where the image was loaded. */
extern char ImageBase[];

#endif
