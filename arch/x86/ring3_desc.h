/* ring3_desc: the mode's TSS and user code descriptor for ring3.c's GDT
 * (the one #if picking the mode's header; see ring3.h). */
#ifndef ARCH_X86_RING3_DESC_H
#define ARCH_X86_RING3_DESC_H

#if defined(__x86_64__)
#include "x86_64/ring3_desc.h"
#else
#include "i386/ring3_desc.h"
#endif

#endif
