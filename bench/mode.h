/* mode: what a benchmark's formula needs to know of the CPU mode its
 * routine was assembled for (the routines of bench/x86_64/ or
 * bench/i386/, the one set a build links).  Where the two sets execute
 * the same instructions the formulas share everything; where i386 must
 * differ (fewer registers: callee-saved ones pushed and popped; 8 GPRs;
 * a 32-bit generator) the difference is a named constant here, each
 * mode's header documenting its own routines. */
#ifndef BENCH_MODE_H
#define BENCH_MODE_H

#if defined(__x86_64__)
#include "x86_64/mode.h"
#else
#include "i386/mode.h"
#endif

#endif
