#!/bin/sh
# pfm.sh: make check's `pfm` stage - the product's event tables against
# libpfm4 (docs/testing.md "libpfm4, the referee of the event tables").
# Builds build/host/pfm-check and pfm-check-i386 (make pfm-check) and runs
# both: one "ok - pfm: TABLE vs libpfm4 PMU: ..." line per table and
# libpfm4 PMU, the differences as "#" lines; exit status 1 when a
# difference is neither fixed nor an exception with its citation.
cd "$(dirname "$0")/../.." || exit 1
if ! make --no-print-directory pfm-check >&2; then
	echo "not ok - pfm: make pfm-check"
	exit 1
fi
rc=0
build/host/pfm-check || rc=1
build/host/pfm-check-i386 || rc=1
exit $rc
