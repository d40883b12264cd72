#!/bin/bash
# bochs-boot.sh: boot the 32-bit harness once in Bochs (Debian's bochs 2.7,
# its rombios and the LGPL VGA BIOS), headless, and exit with the
# harness's verdict as read from the log (docs/legacy-boot.md).
#
#   --image IMG    the medium (a private copy is booted)
#   --medium M     what IMG is and how it is attached:
#                  cd      tools/boot/mkimage.sh's image, a CD-ROM
#                          (ata0-slave)
#                  disk    tools/boot/mkimage.sh's image, a flat disk
#                          (ata0-master)
#                  floppy  tools/boot/mkfloppy.sh's floppy, drive A:
#   --cpu MODEL    Bochs CPU model (`bochs --help cpu`), e.g. pentium,
#                  pentium_mmx, p4_willamette, core2_penryn_t9600
#   --args WORDS   harness options: the default entry of the copy's boot
#                  menu (tools/boot/bios-args.sh); empty: the menu's own
#                  default
#   --mem MIB      guest memory in MiB (default 128)
#   --smp P:C:T    processors as Bochs's cpu count=P:C:T: P packages of
#                  C cores of T threads (default 1: one processor); e.g.
#                  1:1:2 for two Hyper-Threading threads of one core.  The
#                  BIOS lists them in its ACPI MADT and MP table
#   --log FILE     COM1 as captured: SYSLINUX's menu, then the harness log
#                  from "TAP version 13" on.  FILE.bochs keeps what Bochs
#                  printed, then its own log (its CPU, devices, the reason
#                  it stopped).
#   --timeout S    wall-clock limit (default 300)
#   --keep DIR     keep the booted medium copy here
#
# The machine: the CPU model with ignore_bad_msrs=0, so an MSR Bochs does
# not implement (every PMU MSR) raises #GP as on a CPU without it, instead
# of reading 0; a 16550 at COM1 written to a file; clock sync=none (the
# emulated clock runs at the emulation's speed: runs are repeatable) at
# ips=20000000 (20 million instructions an emulated second: the BIOS's
# disk and floppy waits, counted in instructions, cost 2.5 times fewer
# than at Bochs's usual 50 million, and the slowest test, the pointer
# chase, takes 3 of its 60 emulated seconds), and ips=5000000 for a
# floppy, where the BIOS's floppy waits are two thirds of the boot's
# instructions at 20 million (12.4 s of CPU to run detect/*, 4.1 s at
# 5 million);
# the display Bochs's VNC server, not waiting for a viewer (Debian's
# Bochs has no headless display; see below); no sound, speaker, parallel
# port, game port or network card, so nothing of the host's (ALSA,
# /dev/lp0, a joystick, a network) is opened or needed.  The harness
# detects Bochs and ends it
# through the shutdown port 8900h, which makes Bochs exit with status 1
# whatever the verdict: the verdict is the log's.
#
# Every argument is data: none is ever evaluated by a shell, and none is
# written into the Bochs configuration (values are checked; files are
# copied to fixed names in a private directory).
#
# Exit status: 0 all tests passed, 1 a test failed, 2 the harness broke
# (Bail out!), 4 nothing failed but the log has "# error:" lines, 77
# untested (the summary's verdict=untested, as qemu-boot.sh), 3 Bochs ended without a verdict (no "# summary:" line: it
# failed to start, the guest hung up or Bochs panicked; the end of Bochs's
# log follows on stderr) or a bad argument, 124 the time limit ran out.
case ${1:-} in	# -h, --help: the text above
-h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac
set -u
image= medium= cpu= args= log= limit=300 keep= mem=128 count=1
usage() { echo "bochs-boot: $*" >&2; exit 3; }
value() { [ "$2" -ge 2 ] || usage "$1 needs a value"; }
whole() {		# whole NAME VALUE MIN MAX: a decimal integer
	case "$2" in
	''|*[!0-9]*) usage "$1 wants a whole number, not '$2'" ;;
	esac
	[ "${#2}" -le 9 ] && [ "$((10#$2))" -ge "$3" ] &&
	[ "$((10#$2))" -le "$4" ] || usage "$1 $2 is out of range ($3..$4)"
}
while [ $# -gt 0 ]; do
	case "$1" in
	--image|--medium|--cpu|--args|--log|--timeout|--keep|--mem|--smp)
		value "$1" $# ;;
	esac
	case "$1" in
	--image) image=$2; shift ;;
	--medium)
		case "$2" in
		cd|disk|floppy) medium=$2 ;;
		*) usage "--medium wants cd, disk or floppy, not '$2'" ;;
		esac
		shift ;;
	--cpu)
		case "$2" in
		''|*[!a-z0-9_]*) usage "--cpu wants a Bochs model name" \
				       "([a-z0-9_]), not '$2'" ;;
		esac
		cpu=$2; shift ;;
	--args) args=$2; shift ;;
	--log) log=$2; shift ;;
	--timeout) whole --timeout "$2" 1 86400; limit=$((10#$2)); shift ;;
	--keep) keep=$2; shift ;;
	--mem) whole --mem "$2" 4 2048; mem=$((10#$2)); shift ;;
	--smp)
		case "$2" in
		[1-9]:[1-9]:[1-9]) count=$2 ;;
		*) usage "--smp wants P:C:T (digits 1-9), not '$2'" ;;
		esac
		shift ;;
	*) usage "unknown argument $1" ;;
	esac
	shift
done
[ -n "$image" ] && [ -n "$log" ] && [ -n "$medium" ] && [ -n "$cpu" ] ||
	usage "need --image, --medium, --cpu and --log"
[ -f "$image" ] && [ -r "$image" ] || usage "--image $image is not a readable file"
case "$args" in
*[[:cntrl:]]*) usage "--args: a newline or control byte" ;;
esac
command -v bochs >/dev/null ||
	usage "needs bochs (Debian: bochs bochsbios vgabios)"

here=$(dirname -- "$0")
work=$(mktemp -d "${TMPDIR:-/tmp}/pmu-bochs.XXXXXX")
trap 'rm -rf "$work"' EXIT
case "$medium" in
floppy) media=floppy.img kind=floppy ;;
*) media=image.img kind=iso ;;
esac
cp --sparse=always -- "$image" "$work/$media"
if [ -n "$args" ]; then
	"$here/bios-args.sh" "$kind" "$work/$media" "$args" ||
		usage "cannot write --args into the menu of $image"
fi

ips=20000000
[ "$medium" = floppy ] && ips=5000000
{
	echo "megs: $mem"
	echo "cpu: model=$cpu, count=$count, ips=$ips," \
	     "reset_on_triple_fault=0, ignore_bad_msrs=0"
	echo "romimage: file=/usr/share/bochs/BIOS-bochs-latest"
	echo "vgaromimage: file=/usr/share/vgabios/vgabios.bin"
	echo "display_library: rfb, options=\"timeout=0\""
	# Nothing on the host may decide whether Bochs starts: every device
	# the harness does not use is left out, and sound (which the PC
	# speaker and SB16 would open through ALSA, aborting Bochs where ALSA
	# has no default device) goes to the dummy driver.  The plugins
	# kept: serial (COM1), unmapped (the shutdown port 8900h), biosdev
	# (the BIOS's debug ports) and extfpuirq (IRQ13 of the x87).
	# (A "speaker:" or "parport1:" line would load its plugin again.)
	echo "plugin_ctrl: speaker=0, gameport=0, parallel=0, iodebug=0"
	echo "sound: driver=dummy"
	echo "clock: sync=none, time0=local"
	echo "com1: enabled=1, mode=file, dev=com1.log"
	echo "mouse: enabled=0"
	echo "log: bochs.log"
	# A triple fault or an emulator error ends the run (no reset loop).
	echo "panic: action=fatal"
	echo "error: action=report"
	echo "ata0: enabled=1, ioaddr1=0x1f0, ioaddr2=0x3f0, irq=14"
	case "$medium" in
	floppy) echo "floppya: 1_44=$media, status=inserted"
		echo "boot: floppy" ;;
	cd) echo "ata0-slave: type=cdrom, path=$media, status=inserted"
	    echo "boot: cdrom" ;;
	disk) echo "ata0-master: type=disk, path=$media, mode=flat"
	      echo "boot: disk" ;;
	esac
} > "$work/bochsrc"
echo c > "$work/debug.rc"	# the debugger's first command: continue

mkdir -p "$(dirname -- "$log")"
rm -f -- "$log"
# The display is Bochs's VNC server with no wait for a viewer (Debian's
# Bochs has no headless display; its `term` display blocks Bochs for good
# once the pseudo-terminal it writes the screen to is full, ~55 KB of
# screen output, when nothing reads it).  It listens on the first free TCP
# port from 5900 while Bochs runs.
# Where it can, Bochs runs in a network namespace of its own (root's
# `unshare -n`, else a user namespace's `unshare -rn`): its VNC port is
# then reachable from nowhere and never taken by another program or by a
# Bochs boot running beside it.
netns=()
if unshare -n true 2>/dev/null; then
	netns=(unshare -n)
elif unshare -rn true 2>/dev/null; then
	netns=(unshare -rn)
fi
( cd "$work" && exec timeout -k 5 "$limit" "${netns[@]}" \
	bochs -q -f bochsrc -rc debug.rc </dev/null >bochs.out 2>&1 )
status=$?
cp -- "$work/com1.log" "$log" 2>/dev/null || : > "$log"
# Bochs's own log, after what it printed before it opened that log (a
# bochsrc it refuses, a plugin that aborts it).
cat -- "$work/bochs.out" "$work/bochs.log" > "$log.bochs" 2>/dev/null
if [ -n "$keep" ]; then
	mkdir -p -- "$keep"
	cp --sparse=always -- "$work/$media" "$keep/$media"
fi

bochs_says() {		# why Bochs stopped, then the end of its log
	{ grep -a -A 1 'exiting with the following message' "$log.bochs" |
		grep -a -v -e '^=*$' -e 'exiting with the following'
	  tail -n 5 "$log.bochs"; } | sed 's/^/bochs: /' >&2
	return 0
}
clean() { tr -d '\r' 2>/dev/null < "$log"; }
if [ "$status" = 124 ] || [ "$status" = 137 ]; then
	echo "bochs-boot: no verdict within ${limit}s (killed)" >&2
	exit 124
fi
bail=$(clean | grep -a -m 1 '^Bail out!')
if [ -n "$bail" ]; then
	echo "bochs-boot: the harness broke (verdict 2): $bail" >&2
	exit 2
fi
# "# summary: passed=P failed=F skipped=S[ more fields]", the last one.
read -r p f s <<< "$(clean | sed -n 's/^# summary: passed=\([0-9]*\) failed=\([0-9]*\) skipped=\([0-9]*\)\( .*\)\{0,1\}$/\1 \2 \3/p' | tail -n 1)"
if [ -z "${p:-}" ]; then
	echo "bochs-boot: Bochs exited with status $status and the log has" \
	     "no '# summary:' line: Bochs failed or the harness did not" \
	     "finish" >&2
	bochs_says
	exit 3
fi
if ! grep -q 'Shutdown port: shutdown requested' "$log.bochs"; then
	echo "bochs-boot: the log has a summary but the harness did not" \
	     "end Bochs through its shutdown port" >&2
	bochs_says
	exit 3
fi
if [ "$f" -ne 0 ] || [ $((p + s)) -eq 0 ]; then exit 1; fi
# Nothing failed, but "# error:" lines (an option not applied): no pass,
# as qemu-boot.sh says it (ERRORS, docs/lab.md).
errs=$(clean | grep -ac '^# error: ')
if [ "${errs:-0}" -gt 0 ]; then
	echo "bochs-boot: errors (exit 4): $errs '# error:' line(s)," \
	     "first: $(clean | grep -a -m1 '^# error: ' | cut -c3-200)" >&2
	exit 4
fi
# Nothing failed: untested when the summary says so (lib/tap.c).
if clean | sed -n '/^# summary: /p' | tail -n 1 |
   grep -q '^# summary: passed=[0-9]* failed=[0-9]* skipped=[0-9]* verdict=untested'; then
	echo "bochs-boot: untested (exit 77)" >&2
	exit 77
fi
exit 0
