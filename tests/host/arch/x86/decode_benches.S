/* decode_benches.S: the benchmark routines of bench/, assembled into
 * the host test test_decode.c (named on its host-sources line), which walks
 * each routine with decode_insn().  tools/check/host-test.sh passes no
 * -D__ASSEMBLY__, which routine.h needs to give its assembler half; this
 * wrapper defines it.  Only the bytes are used: nothing here runs on the
 * host.  A new .S file in bench/ goes in the list below (and its
 * routines in test_decode.c's table). */
#define __ASSEMBLY__ 1
#include "bench/x86_64/basic.S"
#include "bench/x86_64/branches.S"
#include "bench/x86_64/gprs.S"
#include "bench/x86_64/memory.S"
#include "bench/x86_64/misc.S"
