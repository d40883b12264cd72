/* xmm: read and load XMM0-XMM15 as a block.  The harness is built with
 * -mgeneral-regs-only, so no compiled code touches them: inside the
 * tracer's #DB handling they still hold what the traced code left (the
 * state an adaptive PEBS record's XMM group stores, pmu/pebs.h), and a
 * test can load known values before a traced run.  SSE is on in IA-32e
 * mode under UEFI (CR4.OSFXSR, UEFI spec 2.3.4.1 x64 platforms). */
#ifndef ARCH_X86_XMM_H
#define ARCH_X86_XMM_H

#include <stdint.h>

#define XMM_REGS 16

/* out[2i], out[2i + 1]: the low and high quadwords of XMMi. */
void xmm_read_all(uint64_t out[2 * XMM_REGS]);
void xmm_load_all(const uint64_t in[2 * XMM_REGS]);

#endif
