#!/bin/bash
# check-log.sh: check one harness serial log against what the boot was
# told.  Prints one "ok - ..." or "not ok - ..." line per check; exits 0
# only when every check held.
#
#   check-log.sh LOG STATUS --cpu VENDOR:FAMILY:MODEL:STEPPING \
#                --expect pass|fail|shutdown [--line REGEX]...
#                [--no-line REGEX]...
#
# STATUS is tools/qemu-boot.sh's exit status for the boot.  "shutdown":
# the run passed and the harness powered the machine off (exit=shutdown)
# instead of using isa-debug-exit, so QEMU ended without a verdict (3).
set -u
log=$1 status=$2
shift 2
cpu= expect= lines=() nolines=()
while [ $# -gt 0 ]; do
	case "$1" in
	--cpu) cpu=$2; shift ;;
	--expect) expect=$2; shift ;;
	--line) lines+=("$2"); shift ;;
	--no-line) nolines+=("$2"); shift ;;
	*) echo "check-log: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done
name=$(basename "$log" .log)
bad=0
say() {		# say OK|FAIL text
	if [ "$1" = OK ]; then echo "ok - $name: $2"; else echo "not ok - $name: $2"; bad=1; fi
}

# The harness's part of the serial stream, without carriage returns.
tap=$(sed -n '/TAP version 13/,$p' "$log" 2>/dev/null | tr -d '\r' | sed 's/^.*TAP version 13/TAP version 13/')
if [ -z "$tap" ]; then
	say FAIL "no 'TAP version 13' line in $log (qemu status $status)"
	exit 1
fi

IFS=: read -r vendor family model stepping <<< "$cpu"
want="# cpu: vendor=$vendor family=$family model=$model stepping=$stepping "
if grep -qF -- "$want" <<< "$tap"; then
	say OK "cpu line matches vendor=$vendor family=$family model=$model stepping=$stepping"
else
	say FAIL "cpu line is '$(grep '^# cpu:' <<< "$tap")', expected '$want...'"
fi

for h in '^# harness: pmu-harness [^ ]+$' '^# pmu: kind=(p5|p6|netburst|arch-perfmon|none) ' \
	 '^# backend: (hw|model|none) reason="[^"]+"$'; do
	if grep -qE -- "$h" <<< "$tap"; then say OK "header /$h/"; else say FAIL "missing header /$h/"; fi
done

# The TAP stream is complete: plan = results, summary = counted results.
read -r n_ok n_notok n_skip <<< "$(awk '
	/^ok [0-9]+ - / { if ($0 ~ /# SKIP/) s++; else p++ }
	/^not ok [0-9]+ - / { f++ }
	END { print p+0, f+0, s+0 }' <<< "$tap")"
total=$((n_ok + n_notok + n_skip))
plan=$(grep -E '^1\.\.[0-9]+$' <<< "$tap" | tail -1 | cut -c4-)
if [ -n "$plan" ] && [ "$plan" = "$total" ] && [ "$total" -gt 0 ]; then
	say OK "plan 1..$plan equals $total results"
else
	say FAIL "plan '1..${plan:-missing}' but $total results"
fi
if grep -q '^Bail out!' <<< "$tap"; then
	say FAIL "harness bailed out: $(grep '^Bail out!' <<< "$tap")"
fi
summary=$(grep -E '^# summary: ' <<< "$tap" | tail -1)
if [ "$summary" = "# summary: passed=$n_ok failed=$n_notok skipped=$n_skip" ]; then
	say OK "summary matches results (passed=$n_ok failed=$n_notok skipped=$n_skip)"
else
	say FAIL "summary '$summary' but counted passed=$n_ok failed=$n_notok skipped=$n_skip"
fi

# QEMU's exit status carries the harness's verdict.
if [ "$n_notok" -eq 0 ]; then verdict=0; else verdict=1; fi
if [ "$expect" = shutdown ]; then
	[ "$status" = 3 ] && say OK "QEMU powered off without isa-debug-exit" ||
		say FAIL "exit status $status, expected 3 (powered off, no verdict)"
	status=$verdict expect=pass
fi
if [ "$status" = "$verdict" ]; then
	say OK "exit status $status matches the summary"
else
	say FAIL "exit status $status, summary says verdict $verdict"
fi
case "$expect" in
pass) [ "$verdict" = 0 ] && say OK "run passed as expected" || say FAIL "run failed: $(grep '^not ok' <<< "$tap" | head -5 | tr '\n' ';')" ;;
fail) [ "$verdict" = 1 ] && say OK "run failed as expected" || say FAIL "run passed, a failure was expected" ;;
esac

for re in "${lines[@]+"${lines[@]}"}"; do
	if grep -qE -- "$re" <<< "$tap"; then say OK "has /$re/"; else say FAIL "no line matches /$re/"; fi
done
for re in "${nolines[@]+"${nolines[@]}"}"; do
	if grep -qE -- "$re" <<< "$tap"; then say FAIL "unexpected /$re/: $(grep -E -- "$re" <<< "$tap" | head -2 | tr '\n' ';')"; else say OK "no /$re/"; fi
done
exit $bad
