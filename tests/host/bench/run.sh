#!/bin/sh
# run.sh [BENCH...]: check the benchmark formulas of bench/ on the host.
# Builds the routines and descriptors as a host program (trace_check.c),
# lists the routines' instructions with objdump, classified by the awk below,
# and has trace_check single-step every benchmark at both its parameters.
# A development aid: the on-target oracle is what the harness trusts.
set -eu
cd "$(dirname "$0")/../../.."
out=build/host-bench
mkdir -p "$out"

CFLAGS="-std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
	-Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wno-missing-field-initializers -DHOST_TEST -I."
objs=
# Routines and descriptors only: bench/ also holds target-only code
# (the oracle, which needs the tracer).
for src in bench/*.S bench/b_*.c bench/registry.c pmu/sem.c lib/fmt.c \
	   tests/host/bench/trace_check.c; do
	obj=$out/$(basename "$src").o
	case $src in
	*.S) gcc $CFLAGS -D__ASSEMBLY__ -c "$src" -o "$obj" ;;
	*) gcc $CFLAGS -c "$src" -o "$obj" ;;
	esac
	objs="$objs $obj"
done
# -no-pie: the addresses objdump prints are the ones the child runs at.
gcc -no-pie -Wl,-T,tests/host/bench/host.ld -o "$out/trace_check" $objs

# One line per instruction of .text.bench:
#   ADDR LEN KIND LOADS STORES ALLOWED MNEMONIC
# KIND: - jcc jmp call ret far rep seg (a segment register load).  LOADS/STORES: data accesses the
# encoding implies (AT&T puts the destination last; CMP/TEST only read;
# for REP the checker counts iterations itself).  ALLOWED: on the list of
# instructions the oracle's decoder classifies (bench/routine.h).
objdump -d -w -j .text.bench "$out/trace_check" | awk -F '\t' '
/^ *[0-9a-f]+:\t/ {
	addr = $1; sub(/^ */, "", addr); sub(/:$/, "", addr)
	len = split($2, bytes, " ")
	text = $3; sub(/ *#.*$/, "", text); sub(/ *<[^>]*> *$/, "", text)
	m = text; sub(/ .*/, "", m)
	ops = text; if (!sub(/^[^ ]+ +/, "", ops)) ops = ""
	kind = "-"; ld = 0; st = 0
	ok = m ~ /^(nop[wl]?|movabs|mov[bwlq]?|lea|push|pop|call|ret|cpuid|cqto|cltd|jmp|j[a-z]+)$/ ||
	     m ~ /^(add|sub|and|or|xor|cmp|test|inc|dec|shl|shr|sar|rol|ror|imul|div|idiv)[bwlq]?$/
	if (m ~ /^j[er]cxz$/)
		ok = 0
	if (m ~ /^rep/) {
		kind = "rep"; m2 = ops; sub(/ .*/, "", m2)
		ok = m == "rep" && m2 == "movsb"; m = m "-" m2
	} else if (m ~ /^(ljmp|lcall|lret|iret|int|syscall|sysret|sysenter|sysexit)/) {
		kind = "far"
	} else if (m == "jmp") {
		kind = "jmp"; ld = ops ~ /^\*.*\(/
	} else if (m ~ /^j/) {
		kind = "jcc"
	} else if (m == "call") {
		kind = "call"; st = 1; ld = ops ~ /^\*.*\(/
	} else if (m == "ret") {
		kind = "ret"; ld = 1
	} else if (m == "push") {
		st = 1; ld = ops ~ /\(/
	} else if (m == "pop") {
		ld = 1; st = ops ~ /\(/
	} else if (m ~ /^mov/ && ops ~ /,%[c-gs]s$/) {
		kind = "seg"			# loads a segment register
	} else if (m !~ /^(nop|lea)/ && ops ~ /\(/) {
		if (ops !~ /\)$/)
			ld = 1			# memory source
		else if (m ~ /^mov/)
			st = 1			# memory destination
		else if (m ~ /^(cmp|test)/)
			ld = 1
		else {
			ld = 1; st = 1		# read-modify-write
		}
	}
	printf "%s %d %s %d %d %d %s\n", addr, len, kind, ld, st, ok, m
}' >"$out/insns.txt"

exec "$out/trace_check" "$out/insns.txt" "$@"
