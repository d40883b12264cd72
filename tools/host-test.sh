#!/bin/bash
# host-test.sh: build and run the host unit tests (cmocka) of the pure-logic
# modules.  Each tests/host/test_*.c names the module sources it needs on a
# line "/* host-sources: a.c b.c */"; it is built with those into
# build/host/<name> by the host gcc and run.  cmocka's output is shown as is;
# the last line is "host-tests: passed=N failed=M", counting test cases over
# all binaries (a binary that fails to build or crashes counts as at least
# one failure).  Exits 0 only when M is 0 and N is not.
#
# Usage: tools/host-test.sh [test_NAME ...]   (default: all)
# Environment: CC (default gcc); HOST_TEST_SANITIZE=0 builds without
# AddressSanitizer/UBSan (used when the compiler supports them);
# HOST_TEST_TIMEOUT is the seconds one binary may run (default 300).
set -u

cd "$(dirname "$0")/.." || exit 2
CC=${CC:-gcc}
OUT=build/host
mkdir -p "$OUT" || exit 2

CFLAGS=(-std=gnu11 -O1 -g -Wall -Wextra -Werror -Wno-unused-parameter
	-Wshadow -Wstrict-prototypes -Wmissing-prototypes
	-Wno-missing-field-initializers -DHOST_TEST -I.)
if pkg-config --exists cmocka 2>/dev/null; then
	read -r -a CM_CFLAGS <<<"$(pkg-config --cflags cmocka)"
	read -r -a CM_LIBS <<<"$(pkg-config --libs cmocka)"
else
	CM_CFLAGS=()
	CM_LIBS=(-lcmocka)
fi

SAN=()
if [ "${HOST_TEST_SANITIZE:-1}" != 0 ]; then
	probe="$OUT/.sanitize-probe"
	if echo 'int main(void) { return 0; }' |
	   "$CC" -x c -fsanitize=address,undefined -o "$probe" - \
		2>/dev/null && "$probe"; then
		SAN=("-fsanitize=address,undefined"
		     -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
	fi
	rm -f "$probe"
fi

# cmocka's plain-text summary is what gets counted.
export CMOCKA_MESSAGE_OUTPUT=stdout
unset CMOCKA_XML_FILE

if [ $# -gt 0 ]; then
	files=()
	for n in "$@"; do
		files+=("tests/host/${n%.c}.c")
	done
else
	files=(tests/host/test_*.c)
fi

passed=0
failed=0
for src in "${files[@]}"; do
	name=$(basename "$src" .c)
	bin="$OUT/$name"
	log="$OUT/$name.log"
	echo "== $name"
	if [ ! -f "$src" ]; then
		echo "host-test: $src: no such file" >&2
		failed=$((failed + 1))
		continue
	fi
	line=$(sed -n 's|^/\* host-sources:\(.*\)\*/ *$|\1|p' "$src" |
	       head -n 1)
	read -r -a deps <<<"$line"
	if [ ${#deps[@]} -eq 0 ]; then
		echo "host-test: $src: no /* host-sources: ... */ line" >&2
		failed=$((failed + 1))
		continue
	fi
	if ! "$CC" "${CFLAGS[@]}" "${SAN[@]}" "${CM_CFLAGS[@]}" "$src" \
		"${deps[@]}" -o "$bin" "${CM_LIBS[@]}"; then
		echo "host-test: $name: build failed" >&2
		failed=$((failed + 1))
		continue
	fi
	timeout "${HOST_TEST_TIMEOUT:-300}" "./$bin" >"$log" 2>&1
	rc=$?
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
done

echo "host-tests: passed=$passed failed=$failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
