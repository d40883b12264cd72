#!/bin/sh
# fuzz.sh [SECONDS] | fuzz.sh --smoke RUNS: runs the PT decoder's libFuzzer
# target (build/host/pt-fuzz, tools/pt/pt_fuzz.c) for SECONDS (default 60),
# or, with --smoke, for RUNS inputs in all.
#
# It starts from the committed seed corpus, tests/host/pt/corpus/, which
# it only reads (libFuzzer runs every input of it first, then mutates):
# the inputs libFuzzer finds go to a scratch corpus, build/fuzz/corpus/
# (kept between runs: a longer `make fuzz` goes on from what the last one
# found; --smoke starts from an empty one in build/fuzz/smoke/, as make
# check's pt stage does).  A crash, a leak, a sanitizer report or a hang
# (a single input over 10 s) stops it with a non-zero status and leaves
# the input in build/fuzz/artifacts/.
#
#   make fuzz                  60 s
#   make fuzz FUZZ_TIME=3600   an hour
#   tools/pt/fuzz.sh --smoke 5000   the corpus, then mutations up to 5000 runs
set -eu
cd "$(dirname "$0")/../.."

scratch=build/fuzz/corpus
if [ "${1:-}" = --smoke ]; then
	[ $# -eq 2 ] || { echo "usage: fuzz.sh --smoke RUNS" >&2; exit 2; }
	what=RUNS
	n=$2
	scratch=build/fuzz/smoke
else
	[ $# -le 1 ] || { echo "usage: fuzz.sh [SECONDS]" >&2; exit 2; }
	what=SECONDS
	n=${1:-60}
fi
raw=$n
case $n in
''|*[!0-9]*) n=0 ;;
esac
if [ "${#n}" -gt 9 ] || [ "$n" -eq 0 ]; then
	echo "fuzz.sh: $what must be a whole number from 1: $raw" >&2
	exit 2
fi
if [ "$what" = RUNS ]; then
	limit=-runs=$n
	rm -rf "$scratch"
else
	limit=-max_total_time=$n
fi
bin=build/host/pt-fuzz
[ -x "$bin" ] || { echo "fuzz.sh: $bin missing (make $bin)" >&2; exit 2; }
mkdir -p "$scratch" build/fuzz/artifacts
# The first directory gets the new inputs; the committed corpus is read.
exec "$bin" "$limit" -timeout=10 -max_len=65536 \
	-print_final_stats=1 -artifact_prefix=build/fuzz/artifacts/ \
	"$scratch" tests/host/pt/corpus
