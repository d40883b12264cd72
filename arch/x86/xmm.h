/* xmm: read and load the XMM registers as a block.  The harness is built
 * with -mgeneral-regs-only, so no compiled code touches them: inside the
 * tracer's #DB handling they still hold what the traced code left (the
 * state an adaptive PEBS record's XMM group stores, pmu/perfmon/pebs/regs.h), and a
 * test can load known values before a traced run.
 *
 * x86-64: XMM0-XMM15, SSE is on in IA-32e mode under UEFI (CR4.OSFXSR,
 * UEFI spec 2.3.4.1 x64 platforms).  i386: XMM0-XMM7 exist (SDM Vol. 1
 * §10.2.2), and only when the CPU has SSE (CPUID.01H:EDX.SSE[bit 25]) and
 * the boot turned it on (CR4.OSFXSR, SDM Vol. 3A §13.1.3); a Pentium has
 * none.  xmm_count() says how many the calls reach: xmm_read_all() gives
 * zeros for the others and xmm_load_all() leaves them alone. */
#ifndef ARCH_X86_XMM_H
#define ARCH_X86_XMM_H

#include <stdint.h>

#define XMM_REGS 16

/* out[2i], out[2i + 1]: the low and high quadwords of XMMi. */
void xmm_read_all(uint64_t out[2 * XMM_REGS]);
void xmm_load_all(const uint64_t in[2 * XMM_REGS]);
/* The registers read and loaded: 16 in x86-64; 8 or 0 in i386. */
unsigned xmm_count(void);

#endif
