#!/bin/bash
# host-test.sh: build and run the host unit tests (cmocka) of the pure-logic
# modules.  Each tests/host/**/test_*.c names the module sources it needs on a
# line "/* host-sources: a.c b.c */"; make builds it with those into
# build/host/test/<name> (tests/host/host.mk: each source compiled once for
# all the tests, nothing rebuilt that is up to date), then the binaries run
# two at a time.  cmocka's output is shown as is, one binary's whole after
# the other's, in order; the last line is "host-tests: passed=N failed=M",
# counting test cases over all binaries (a binary that fails to build or
# crashes counts as at least one failure).  Exits 0 only when M is 0 and N
# is not.
#
# Usage: tools/check/host-test.sh [--build-only | --no-build] [test_NAME ...]
#        (default: all; --build-only builds them and runs none, --no-build
#        runs what an earlier --build-only built: make check's pytest tests
#        build once and run each binary as a test of its own,
#        tools/check/suite/test_host.py)
# Environment: CC (default gcc); HOST_TEST_SANITIZE=0 builds without
# AddressSanitizer/UBSan (used when the compiler supports them);
# HOST_TEST_TIMEOUT is the seconds one binary may run (default 300);
# HOST_TEST_MAKEFILE is the makefile that includes tests/host/host.mk
# (default Makefile).
set -u

cd "$(dirname "$0")/../.." || exit 2
CC=${CC:-gcc}
OUT=build/host/test
MAKEFILE=${HOST_TEST_MAKEFILE:-Makefile}
# Binaries running at once: the two processors make check's host stage
# counts on (its weight), without the sanitizers' memory of many at once.
JOBS=2

# cmocka's plain-text summary is what gets counted.
export CMOCKA_MESSAGE_OUTPUT=stdout
unset CMOCKA_XML_FILE
# Run by make (make host-test), this script's make is a build of its own:
# not tied to that make's jobserver nor given its flags.
unset MAKEFLAGS MFLAGS MAKELEVEL

mode=all
case ${1:-} in
--build-only) mode=build; shift ;;
--no-build) mode=run; shift ;;
esac

if [ $# -gt 0 ]; then
	# Each once: two runs of one binary at once would share its log.
	names=()
	declare -A seen=()
	for a in "$@"; do
		a=${a%.c}
		[ -n "${seen[x$a]+set}" ] && continue
		seen[x$a]=1
		names+=("$a")
	done
else
	names=()
	while IFS= read -r src; do
		src=${src#tests/host/}
		names+=("${src%.c}")
	done < <(find tests/host -name 'test_*.c' -path 'tests/host/*' | LC_ALL=C sort)
fi

# make -k builds what it can: one test that fails to build hides none of
# the others.  A binary is run only when make made its .ok marker, which
# it does only when the binary is up to date; a failed build leaves the
# last good binary in place, which must not count.
goals=()
for name in "${names[@]}"; do
	[ -f "tests/host/$name.c" ] && goals+=("$OUT/$name.ok")
done
if [ "$mode" != run ] && [ ${#goals[@]} -gt 0 ]; then
	rm -f "${goals[@]}"
	make -f "$MAKEFILE" --no-print-directory -k -j"$(nproc)" CC="$CC" \
		"${goals[@]}" ||
		echo "host-test: make failed; the tests it built still run" >&2
fi

if [ "$mode" = build ]; then
	built=0
	for g in "${goals[@]}"; do
		[ -f "$g" ] && built=$((built + 1))
	done
	echo "host-tests: built=$built of ${#names[@]}"
	[ "$built" -eq "${#names[@]}" ]
	exit
fi

passed=0
failed=0
n=${#names[@]}
pids=()		# by index into names: its binary's process, or empty
rcs=()		# by index: its binary's exit status, once it has ended
declare -A index_of=()	# by process: the index
next=0		# the next index to start
running=0

# launch: start binaries until JOBS run (those that did not build start
# nothing).
launch() {
	local name
	while [ "$running" -lt "$JOBS" ] && [ "$next" -lt "$n" ]; do
		name=${names[$next]}
		pids[next]=
		if [ -f "$OUT/$name.ok" ]; then
			timeout "${HOST_TEST_TIMEOUT:-300}" "./$OUT/$name" \
				>"$OUT/$name.log" 2>&1 &
			pids[next]=$!
			index_of[$!]=$next
			running=$((running + 1))
		fi
		next=$((next + 1))
	done
}

# report I: show binary I's output once it has ended, count its cases.
report() {
	local name=${names[$1]} rc p f
	local log="$OUT/$name.log"
	echo "== $name"
	if [ ! -f "tests/host/$name.c" ]; then
		echo "host-test: tests/host/$name.c: no such file" >&2
		failed=$((failed + 1))
		return
	fi
	if [ -z "${pids[$1]}" ]; then
		echo "host-test: $name: build failed" >&2
		failed=$((failed + 1))
		return
	fi
	rc=${rcs[$1]:-127}
	cat "$log"
	p=$(sed -n 's/^\[  PASSED  \] \([0-9][0-9]*\) test(s)\..*/\1/p' "$log" |
	    tail -n 1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9][0-9]*\) test(s).*/\1/p' "$log" |
	    tail -n 1)
	p=${p:-0}
	f=${f:-0}
	# No summary, or a bad exit with no failed case: it crashed, hung
	# or a sanitizer failed it at exit.
	if ! grep -q '^\[==========\] [0-9][0-9]* test(s) run\.' "$log" ||
	   { [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; }; then
		echo "host-test: $name: exit status $rc with no complete" \
		     "cmocka summary or no failed case; counted as a" \
		     "failure" >&2
		[ "$f" -eq 0 ] && f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
}

# JOBS binaries run at once, in any order of ending (one slow binary
# holds up no processor), and their outputs are shown whole in the order
# of names, as when they ran one at a time.  wait -n -p: bash 5.1.
for ((i = 0; i < n; i++)); do
	launch
	while [ -n "${pids[i]}" ] && [ -z "${rcs[i]+set}" ]; do
		pid=
		wait -n -p pid
		rc=$?
		[ -n "$pid" ] || break	# no job left: cannot happen
		idx=${index_of[$pid]}
		rcs[idx]=$rc
		running=$((running - 1))
		launch
	done
	report "$i"
done

echo "host-tests: passed=$passed failed=$failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
