/* dec_flags: short names for the decoder's class bits and the tracer's
 * event bits, for the host tests' tables of hand-made steps and
 * encodings (arch/x86/decode.h, arch/x86/trace.h). */
#ifndef TESTS_HOST_DEC_FLAGS_H
#define TESTS_HOST_DEC_FLAGS_H

#include "arch/x86/trace.h"

enum {
	BR = DEC_BRANCH,
	CND = DEC_COND,
	CL = DEC_CALL,
	RT = DEC_RET,
	IND = DEC_INDIRECT,
	FAR = DEC_FAR,
	REP = DEC_REP_STRING,
	SEG = DEC_SEGLOAD,
	SER = DEC_SERIALIZE,
	UNC = DEC_UNCLASSIFIED,
	MU = DEC_MEM_UNKNOWN,
	TK = EV_TAKEN,
};

#endif
