/* gpr_values: the constants bench "gpr-values" (gprs.S) holds in every
 * general-purpose register but RSP while it runs its marker loop, so that a
 * sample taken there (a PEBS record's GPR group) can be checked register by
 * register.  Usable from C and from .S files.
 *
 * Value of register number R (SDM order: rax 0, rcx 1, rdx 2, rbx 3,
 * rsp 4, rbp 5, rsi 6, rdi 7, r8 8 ... r15 15): 0xc0de_00RR_feed_RRRR,
 * distinct in every byte lane that carries R, and above 2^32 so a
 * truncated or sign-extended copy cannot pass. */
#ifndef TESTS_BENCH_GPR_VALUES_H
#define TESTS_BENCH_GPR_VALUES_H

#define GPR_VALUE_RAX	0xc0de0000feed0000
#define GPR_VALUE_RCX	0xc0de0001feed0101
#define GPR_VALUE_RDX	0xc0de0002feed0202
#define GPR_VALUE_RBX	0xc0de0003feed0303
#define GPR_VALUE_RBP	0xc0de0005feed0505
#define GPR_VALUE_RSI	0xc0de0006feed0606
#define GPR_VALUE_RDI	0xc0de0007feed0707
#define GPR_VALUE_R8	0xc0de0008feed0808
#define GPR_VALUE_R9	0xc0de0009feed0909
#define GPR_VALUE_R10	0xc0de000afeed0a0a
#define GPR_VALUE_R11	0xc0de000bfeed0b0b
#define GPR_VALUE_R12	0xc0de000cfeed0c0c
#define GPR_VALUE_R13	0xc0de000dfeed0d0d
#define GPR_VALUE_R14	0xc0de000efeed0e0e
#define GPR_VALUE_R15	0xc0de000ffeed0f0f

#ifndef __ASSEMBLY__
#include <stdint.h>

/* Indexed by register number as above; [4] (RSP) is 0: RSP is not set. */
extern const uint64_t bench_gpr_values[16];

/* Every instruction boundary whose RIP lies in [marker, marker_end) has
 * all GPRs but RSP equal to bench_gpr_values: the marker loop's JMP, NOP,
 * SUB and JNC.  The loop counter lives at (%rsp) meanwhile. */
extern const char bench_gprs_marker[], bench_gprs_marker_end[];
#endif

#endif
