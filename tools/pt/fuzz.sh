#!/bin/sh
# fuzz.sh [SECONDS] [--smoke]: runs the PT decoder's libFuzzer target
# (build/host/pt-fuzz, tools/pt/pt_fuzz.c) for SECONDS (default 60).
#
# It starts from the committed seed corpus, tests/host/pt/corpus/, which
# it only reads: the inputs libFuzzer finds go to a scratch corpus,
# build/fuzz/corpus/ (kept between runs: a longer `make fuzz` goes on
# from what the last one found; --smoke starts from an empty one in
# build/fuzz/smoke/, as make check's pt stage does).  A crash, a leak, a
# sanitizer report or a hang (a single input over 10 s) stops it with a
# non-zero status and leaves the input in build/fuzz/artifacts/.
#
#   make fuzz                  60 s
#   make fuzz FUZZ_TIME=3600   an hour
#   tools/pt/fuzz.sh 5 --smoke
set -eu
cd "$(dirname "$0")/../.."

secs=${1:-60}
case $secs in
''|*[!0-9]*) secs=0 ;;
esac
if [ "${#secs}" -gt 9 ] || [ "$secs" -eq 0 ]; then
	echo "fuzz.sh: SECONDS must be a whole number from 1: ${1:-}" >&2
	exit 2
fi
scratch=build/fuzz/corpus
if [ "${2:-}" = --smoke ]; then
	scratch=build/fuzz/smoke
	rm -rf "$scratch"
elif [ $# -gt 1 ]; then
	echo "usage: fuzz.sh [SECONDS] [--smoke]" >&2
	exit 2
fi
bin=build/host/pt-fuzz
[ -x "$bin" ] || { echo "fuzz.sh: $bin missing (make $bin)" >&2; exit 2; }
mkdir -p "$scratch" build/fuzz/artifacts
# The first directory gets the new inputs; the committed corpus is read.
exec "$bin" -max_total_time="$secs" -timeout=10 -max_len=65536 \
	-print_final_stats=1 -artifact_prefix=build/fuzz/artifacts/ \
	"$scratch" tests/host/pt/corpus
