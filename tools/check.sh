#!/bin/bash
# check.sh: `make check`.  Host unit tests, then the image booted under a
# matrix of QEMU CPU models, two boots at a time, each log checked by
# tools/check-log.sh.  Ends with the line "N passed, M failed".
set -u
cd "$(dirname "$0")/.."
B=build
OUT=$B/check
IMG=$B/pmu-harness.img
JOBS=${JOBS:-2}
rm -rf "$OUT"
mkdir -p "$OUT"

passed=0 failed=0
tally() {	# count "ok - " / "not ok - " lines from a file
	local p f
	p=$(grep -c '^ok - ' "$1" || true)
	f=$(grep -c '^not ok - ' "$1" || true)
	passed=$((passed + p)); failed=$((failed + f))
}

# 1. Host unit tests (cmocka).
echo "== host unit tests"
if tools/host-test.sh > "$OUT/host.txt" 2>&1; then
	echo "ok - host: $(tail -1 "$OUT/host.txt")" | tee "$OUT/host.result"
else
	tail -40 "$OUT/host.txt"
	echo "not ok - host: $(tail -1 "$OUT/host.txt")" | tee "$OUT/host.result"
fi
tally "$OUT/host.result"

# 1b. The benchmark formulas, single-stepped on the build machine with
#     ptrace: a second, independent witness next to the on-target oracle.
echo "== benchmark formulas on the host (ptrace)"
if tests/host/bench/run.sh > "$OUT/bench-host.txt" 2>&1; then
	echo "ok - bench-host: $(tail -1 "$OUT/bench-host.txt")" | tee "$OUT/bench-host.result"
else
	grep -E '^(FAIL|error)|error:' "$OUT/bench-host.txt" | head -20
	echo "not ok - bench-host: $(tail -1 "$OUT/bench-host.txt")" | tee "$OUT/bench-host.result"
fi
tally "$OUT/bench-host.result"

# 2. Boot matrix: name | -cpu | vendor:family:model:stepping | options |
#    expected verdict | extra qemu-boot flags | extra check-log arguments
#    (the last field takes the rest of the line, '|' in regexes included)
P5='^# pmu: kind=p5 counters=2 width=40 '
# The P5 group must run on the model there, not skip.
P5RUN='--line ^#.backend:.model.reason=.*model.counts,.not.hardware.counts --line ^ok.[0-9]+.-.p5/cc-111$ --line ^ok.[0-9]+.-.p5/event-0x16-ctr1$ --no-line ^ok.[0-9]+.-.p5/(cc-|two-|program-|ctr-|clocks-|pin-|reserved-|rdpmc-).*#.SKIP'
ORACLE='--line ^ok.[0-9]+.-.oracle/gpr-values$ --no-line ^ok.[0-9]+.-.oracle/.*#.SKIP'
matrix=(
"p54c|qemu64,vendor=GenuineIntel,family=5,model=2,stepping=5|GenuineIntel:5:2:5||pass||--line $P5 --line name=\"Pentium.\(P54C\)\" $P5RUN $ORACLE --line ^..rdpmc_exists:.0"
"p55c|qemu64,vendor=GenuineIntel,family=5,model=4,stepping=3|GenuineIntel:5:4:3||pass||--line $P5 $P5RUN $ORACLE --line ^..rdpmc_exists:.1 --line ^ok.[0-9]+.-.p5/event-0x39-ctr0$"
"netburst-f15m2|qemu64,vendor=GenuineIntel,family=15,model=2,stepping=9|GenuineIntel:15:2:9||pass||--line ^#.pmu:.kind=netburst.counters=18.width=40"
"netburst-f15m4|qemu64,vendor=GenuineIntel,family=15,model=4,stepping=1|GenuineIntel:15:4:1||pass||--line ^#.pmu:.kind=netburst"
"conroe|Conroe|GenuineIntel:6:15:3||pass||--line ^#.pmu:.kind=arch-perfmon"
"nehalem|Nehalem|GenuineIntel:6:26:3|verbose=1 bogus=1 backend=fast serial|pass||--line ^#.error:.option.*unknown.option..bogus --line ^#.error:.option.*backend=.fast. --line ^#.error:.option.*.serial.:.expected.key=value --line ^#.running.detect/"
"skylake|Skylake-Client|GenuineIntel:6:94:3||pass||--line ^#.platform:.qemu=yes"
"amd-epyc|EPYC|AuthenticAMD:23:1:2||pass||--line ^#.pmu:.kind=none"
"com4-16550|Westmere|GenuineIntel:6:44:1|serial=com4 tests=detect/*,arch/*|pass|--com4|--line ^#.console:.serial=com4.via=16550."
"exit-shutdown|SandyBridge|GenuineIntel:6:42:1|exit=shutdown tests=detect/*|shutdown|--vga|--line ^#.options:.*exit=shutdown --line ^#.console:.*text=screens\(1\)"
"selftest|Skylake-Client|GenuineIntel:6:94:3|tests=selftest/*|fail||--line ^not.ok.[0-9]+.-.selftest/fails-by-design$ --line by.design:.measured.1,.expected.2 --line ^not.ok.[0-9]+.-.selftest/unexpected-ud$ --line ^..exception:.\"#UD\" --line ^ok.[0-9]+.-.selftest/passes-after-failures$ --line ^not.ok.[0-9]+.-.selftest/checks-nothing$"
)

boot_one() {	# boot_one "matrix line"
	local name cpu sig args expect flags extra status
	IFS='|' read -r name cpu sig args expect flags extra <<< "$1"
	# shellcheck disable=SC2086
	tools/qemu-boot.sh --image "$IMG" --cpu "$cpu" --args "$args" \
		--log "$OUT/$name.log" --timeout 180 --keep "$OUT/$name.disk" \
		$flags 2> "$OUT/$name.stderr"
	status=$?
	# shellcheck disable=SC2086
	tools/check-log.sh "$OUT/$name.log" "$status" --cpu "$sig" \
		--expect "$expect" $extra > "$OUT/$name.result" 2>&1
	check_volume_log "$name" >> "$OUT/$name.result"
}

# The log file on the boot volume holds the same lines as the serial port.
check_volume_log() {
	local name=$1 disk=$OUT/$1.disk/disk.img f
	export MTOOLS_SKIP_CHECK=1
	f=$(mdir -b -i "$disk@@1M" ::/pmu-harness 2>/dev/null | grep -i '\.log$' | head -1)
	if [ -z "$f" ]; then
		echo "not ok - $name: no log file in \\pmu-harness on the boot volume"
		return
	fi
	mcopy -n -i "$disk@@1M" "$f" "$OUT/$name.volume.log" 2>/dev/null
	if diff -q <(sed -n '/TAP version 13/,$p' "$OUT/$name.log" | tr -d '\r' | sed 's/^.*TAP version 13/TAP version 13/') \
		   "$OUT/$name.volume.log" > /dev/null; then
		echo "ok - $name: volume log $(basename "$f") equals the serial log"
	else
		echo "not ok - $name: volume log $(basename "$f") differs from the serial log"
	fi
	rm -rf "$OUT/$name.disk"
}

echo "== boot matrix (${#matrix[@]} boots, $JOBS at a time)"
running=0
for m in "${matrix[@]}"; do
	boot_one "$m" &
	running=$((running + 1))
	if [ "$running" -ge "$JOBS" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait
for m in "${matrix[@]}"; do
	name=${m%%|*}
	cat "$OUT/$name.result"
	tally "$OUT/$name.result"
done

echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
