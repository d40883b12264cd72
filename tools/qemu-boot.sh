#!/bin/bash
# qemu-boot.sh: boot the harness image once in QEMU (q35, TCG, OVMF) and
# exit with the harness's verdict.
#
#   --image IMG    disk image from mkimage.sh (a private copy is booted)
#   --cpu MODEL    QEMU -cpu argument
#   --smp SPEC     QEMU -smp argument (default 1), e.g.
#                  2,sockets=1,cores=1,threads=2 for two threads of a core
#   --args WORDS   harness options, written to \pmu-harness.cfg
#   --log FILE     the serial port (COM1) as captured: OVMF's boot messages,
#                  then the harness log from "TAP version 13" on
#   --stream       also stream the log to the terminal
#   --timeout S    wall-clock limit (default 120)
#   --keep DIR     keep the booted image copy here
#   --vga          give the machine a display adapter (std VGA, no window):
#                  the firmware then has a graphics text console
#   --com4         also give the machine a 16550 at COM4 (0x2e8) and capture
#                  FILE from it instead (COM1 goes to FILE.com1): OVMF offers
#                  no Serial I/O protocol there, so the harness's polled
#                  16550 driver is what writes it (pass serial=com4)
#
# Exit status: 0 all tests passed, 1 a test failed, 2 the harness broke
# (Bail out!), 3 QEMU ended without a verdict (it failed to start, the
# machine powered off, or its exit status disagrees with the log's
# "# summary:" line; QEMU's own messages then follow on stderr), 124 the
# time limit ran out.
set -u
image= cpu=qemu64 smp=1 args= log= stream=0 limit=120 keep= com4=0 vga=none
while [ $# -gt 0 ]; do
	case "$1" in
	--image) image=$2; shift ;;
	--cpu) cpu=$2; shift ;;
	--smp) smp=$2; shift ;;
	--args) args=$2; shift ;;
	--log) log=$2; shift ;;
	--stream) stream=1 ;;
	--timeout) limit=$2; shift ;;
	--keep) keep=$2; shift ;;
	--com4) com4=1 ;;
	--vga) vga=std ;;
	*) echo "qemu-boot: unknown argument $1" >&2; exit 3 ;;
	esac
	shift
done
[ -n "$image" ] && [ -n "$log" ] || { echo "qemu-boot: need --image and --log" >&2; exit 3; }

ovmf_code=/usr/share/OVMF/OVMF_CODE_4M.fd
ovmf_vars=/usr/share/OVMF/OVMF_VARS_4M.fd
work=$(mktemp -d "${TMPDIR:-/tmp}/pmu-boot.XXXXXX")
trap 'rm -rf "$work"' EXIT

cp --sparse=always "$image" "$work/disk.img"
cp "$ovmf_vars" "$work/vars.fd"
printf '%s\n' "$args" > "$work/pmu-harness.cfg"
export MTOOLS_SKIP_CHECK=1
mcopy -o -i "$work/disk.img@@1M" "$work/pmu-harness.cfg" ::/pmu-harness.cfg

mkdir -p "$(dirname "$log")"
rm -f "$log"
ports=(-serial "file:$log")
if [ "$com4" = 1 ]; then
	ports=(-serial "file:$log.com1" -chardev "file,id=com4,path=$log"
	       -device isa-serial,chardev=com4,iobase=0x2e8,irq=3)
fi
timeout --foreground -k 5 "$limit" qemu-system-x86_64 \
	-machine q35 -accel tcg -cpu "$cpu" -m 256 -smp "$smp" \
	-drive "if=pflash,format=raw,unit=0,readonly=on,file=$ovmf_code" \
	-drive "if=pflash,format=raw,unit=1,file=$work/vars.fd" \
	-drive "format=raw,file=$work/disk.img" \
	-display none -vga "$vga" -nic none -no-reboot \
	"${ports[@]}" \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	</dev/null 2> "$log.qemu-stderr" &
qemu=$!
if [ "$stream" = 1 ]; then
	# The terminal gets the harness's lines without OVMF's screen escapes.
	tail -n +1 -F --pid=$qemu "$log" 2>/dev/null |
		sed -u -n '/TAP version 13/,$p' | tr -d '\r' &
	streamer=$!
fi
wait $qemu
status=$?
[ "$stream" = 1 ] && wait $streamer

if [ -n "$keep" ]; then
	mkdir -p "$keep"
	cp --sparse=always "$work/disk.img" "$keep/disk.img"
fi
# QEMU's own messages, for a boot that ended without a verdict.
qemu_says() {
	[ -s "$log.qemu-stderr" ] && sed 's/^/qemu: /' "$log.qemu-stderr" >&2
	return 0
}
# The log's "# summary:" line as "PASSED FAILED SKIPPED", empty if none;
# fields after the counts (logfile_error="...") are allowed.
summary() {
	tr -d '\r' 2>/dev/null < "$log" |
		sed -n 's/^# summary: passed=\([0-9]*\) failed=\([0-9]*\) skipped=\([0-9]*\)\( .*\)\{0,1\}$/\1 \2 \3/p' |
		tail -n 1
}
# QEMU's status 1 is also what QEMU itself exits with when it cannot start
# (a bad -cpu, a missing file): a verdict counts only when the log has a
# summary that agrees with it.
case $status in
1|3)
	want=$(( status == 1 ? 0 : 1 ))
	read -r p f s <<< "$(summary)"
	if [ -z "${p:-}" ]; then
		echo "qemu-boot: QEMU exited with status $status and the log" \
		     "has no '# summary:' line: QEMU failed or the harness" \
		     "did not finish" >&2
		qemu_says
		exit 3
	fi
	if [ "$f" -eq 0 ] && [ $((p + s)) -gt 0 ]; then got=0; else got=1; fi
	if [ "$got" != "$want" ]; then
		echo "qemu-boot: QEMU exited with status $status (verdict" \
		     "$want) but the log's summary is passed=$p failed=$f" \
		     "skipped=$s (verdict $got)" >&2
		qemu_says
		exit 3
	fi
	exit "$want" ;;		# isa-debug-exit wrote the verdict: 0 or 1
5) echo "qemu-boot: the harness broke (verdict 2):" \
	"$(tr -d '\r' 2>/dev/null < "$log" | grep -a '^Bail out!' | head -n 1)" >&2
   exit 2 ;;
124|137) echo "qemu-boot: no verdict within ${limit}s (killed)" >&2; exit 124 ;;
*) echo "qemu-boot: QEMU exited with status $status without a verdict" >&2
   qemu_says
   exit 3 ;;
esac
