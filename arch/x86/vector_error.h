/* vector_error: which exception vectors push an error code (SDM Vol. 3A
 * Table 6-1, order no. 253668): #DF 8, #TS 10, #NP 11, #SS 12, #GP 13,
 * #PF 14, #AC 17, #CP 21, #VC 29, #SX 30.  One definition for the entry
 * stubs of both modes (assembly) and trap.c. */
#ifndef ARCH_X86_VECTOR_ERROR_H
#define ARCH_X86_VECTOR_ERROR_H

#define VECTOR_HAS_ERROR(v) ((v) == 8 || (v) == 10 || (v) == 11 ||     \
			     (v) == 12 || (v) == 13 || (v) == 14 ||     \
			     (v) == 17 || (v) == 21 || (v) == 29 ||     \
			     (v) == 30)

#endif
