/* pmi_entry (i386): the stub behind PMI_VECTOR while pmi_arm() lends it;
 * it enters the trap code like an exception stub without error code
 * (trap.h), which hands the frame to the PMI handler's hook. */
#include "../pmi.h"

	.text
	.globl pmi_vector_entry
	.hidden pmi_vector_entry
pmi_vector_entry:
	pushl $0
	pushl $PMI_VECTOR
	jmp trap_entry_common

	.section .note.GNU-stack, "", @progbits
