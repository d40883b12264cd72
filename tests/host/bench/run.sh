#!/bin/sh
# run.sh [--mode x86_64|i386|all] [BENCH...]: check the benchmark formulas
# of bench/ on the host.  For each mode (default: all) it builds that
# mode's routines (bench/<mode>/*.S; i386 with gcc -m32) with the
# descriptors as a host program (trace_check.c), lists the routines'
# instructions with objdump, classified by the awk below, and has
# trace_check single-step every benchmark at both its parameters and hold
# the oracle's decoder to objdump's listing.  The last line sums the modes:
# "bench-host: passed=N failed=M".
# A development aid: the on-target oracle is what the harness trusts.
set -eu
cd "$(dirname "$0")/../../.."

modes="x86_64 i386"
if [ "${1:-}" = --mode ]; then
	[ $# -ge 2 ] || { echo "run.sh: --mode needs a value" >&2; exit 2; }
	case $2 in
	all) ;;
	x86_64|i386) modes=$2 ;;
	*) echo "run.sh: unknown mode $2" >&2; exit 2 ;;
	esac
	shift 2
fi

# -O1 and no debug info: the run is ptrace's time, and -O2 -g took half
# as long again to compile (tools/pt/pt_modelgen is built the same way).
CFLAGS="-std=gnu11 -O1 -Wall -Wextra -Werror -Wno-unused-parameter \
	-Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wno-missing-field-initializers -DHOST_TEST -I."

# build MODE: the checker of bench/MODE/*.S and its instruction table
# into build/host-bench/MODE.
build() {
	mode=$1
	out=build/host-bench/$mode
	m=
	[ "$mode" = i386 ] && m=-m32
	mkdir -p "$out"
	objs=
	# Routines and descriptors only: bench/ also holds target-only code
	# (the oracle, which needs the tracer).
	for src in bench/$mode/*.S bench/b_*.c bench/registry.c pmu/sem.c \
		   lib/fmt.c arch/x86/decode.c tests/host/bench/single_step.c \
		   tests/host/bench/trace_check.c; do
		obj=$out/$(basename "$src").o
		case $src in
		*.S) gcc $m $CFLAGS -D__ASSEMBLY__ -c "$src" -o "$obj" ;;
		*) gcc $m $CFLAGS -c "$src" -o "$obj" ;;
		esac || return 1
		objs="$objs $obj"
	done
	# -no-pie: the addresses objdump prints are the ones the child
	# runs at.
	gcc $m -no-pie -Wl,-T,tests/host/bench/host.ld -o "$out/trace_check" \
		$objs || return 1
	insns "$out/trace_check" >"$out/insns.txt"
}

# One line per instruction of .text.bench:
#   ADDR LEN KIND LOADS STORES ALLOWED MNEMONIC
# KIND: - jcc jmp call ret far rep seg (a segment register load).  LOADS/STORES: data accesses the
# encoding implies (AT&T puts the destination last; CMP/TEST only read;
# for REP the checker counts iterations itself).  ALLOWED: on the list of
# instructions the oracle's decoder classifies (bench/routine.h).
insns() {
	objdump -d -w -j .text.bench "$1" | awk -F '\t' '
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
}'
}

passed=0
failed=0
for mode in $modes; do
	echo "== $mode"
	log=build/host-bench/$mode.log
	mkdir -p build/host-bench
	if build "$mode"; then
		rc=0
		"build/host-bench/$mode/trace_check" \
			"build/host-bench/$mode/insns.txt" "$@" >"$log" 2>&1 ||
			rc=$?
		cat "$log"
	else
		echo "run.sh: $mode: build failed" >&2
		echo "bench-host: passed=0 failed=1" >"$log"
		rc=1
	fi
	p=$(sed -n 's/^bench-host: passed=\([0-9]*\) failed=.*/\1/p' "$log")
	f=$(sed -n 's/^bench-host: passed=[0-9]* failed=\([0-9]*\)/\1/p' "$log")
	[ -n "$f" ] || f=1
	[ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || f=1
	passed=$((passed + ${p:-0}))
	failed=$((failed + f))
done
echo "bench-host: passed=$passed failed=$failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
