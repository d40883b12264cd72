#!/bin/bash
# qemu-boot.sh: boot the harness image once in QEMU (q35, TCG, OVMF) and
# exit with the harness's verdict.  With --bios, boot the 32-bit harness on
# legacy BIOS instead (qemu-system-i386, i440FX, SeaBIOS).
#
#   --image IMG    disk image from mkimage.sh (a private copy is booted)
#   --bios MEDIUM  legacy BIOS boot of MEDIUM (docs/legacy-boot.md):
#                  kernel  IMG is the Multiboot ELF (build/i386/...elf),
#                          booted by QEMU's -kernel, --args its -append
#                          (the Multiboot command line after the kernel)
#                  disk    IMG is mkimage.sh's image, an IDE disk
#                  cd      IMG is mkimage.sh's image, an IDE CD-ROM
#                  floppy  IMG is mkfloppy.sh's floppy, drive A:
#                  For disk, cd and floppy, non-empty --args become the
#                  default entry of the private copy's boot menu
#                  (tools/boot/bios-args.sh); else the menu's own default
#                  entry runs, after its 5 s timeout.  A BIOS boot
#                  has no boot volume log: --cfg-file, --volume-free,
#                  --logdir-file, --readonly and --write-iops are refused.
#                  The machine has a std VGA adapter (no window), as a PC.
#   --no-hpet      (--bios only) a machine without an HPET (-machine
#                  pc,hpet=off), as Pentium, P6 and early Pentium 4 boards:
#                  the harness's time limits then run on the PIT
#   --no-acpi      (--bios only) no ACPI tables (-machine pc,acpi=off), as
#                  boards before ACPI: the harness finds no I/O APIC and
#                  routes the PIT through the 8259 and LINT0
#   --cpu MODEL    QEMU -cpu argument (--bios: of qemu-system-i386, e.g.
#                  pentium, pentium2, pentium3, 486)
#   --smp SPEC     QEMU -smp argument (default 1), e.g.
#                  2,sockets=1,cores=1,threads=2 for two threads of a core
#   --args WORDS   harness options, written to \pmu-harness.cfg
#   --cfg-file F   copy the file F byte for byte as \pmu-harness.cfg instead
#                  (not together with --args)
#   --mem MIB      QEMU -m in MiB (default 256)
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
#   --volume-free KIB  fill the boot volume with a file \filler.bin so that
#                  KIB KiB stay free (to the FAT cluster below), after the
#                  cfg is copied; says on stderr what is left
#   --logdir-file  a regular file \pmu-harness on the boot volume in place
#                  of the directory the harness writes its log into
#   --readonly     attach the boot disk read-only (virtio-blk: q35's AHCI
#                  disk cannot be read-only)
#   --pidfile F    QEMU writes its process id to F (QEMU -pidfile), so that
#                  a caller can kill it
#   --vars F       start OVMF with a copy of the variable store F (default
#                  Debian's empty /usr/share/OVMF/OVMF_VARS_4M.fd, as on a
#                  new machine); one an earlier boot saved is "warm": OVMF
#                  skips its first-boot writes and starts 1.5 s faster
#   --save-vars F  after the boot, write the variable store it left to F
#   --write-iops N at most N writes a second to the boot disk (QEMU
#                  throttling.iops-write): a slow medium, where the writes
#                  of one flush are 1/N s apart (tools/check/kill.py)
#   --save-snapshot F  boot until OVMF enters its DXE phase (before any
#                  disk is read), save the machine's state to F and stop
#                  (tools/boot/snapshot.py): status 0 saved, 3 not, 4 not
#                  because a disk had been used (too late: try dxe)
#   --snapshot-point P  where --save-snapshot stops: dxe (the default, the
#                  DXE core's entry) or console (the boot manager's first
#                  serial output, later: saves DXE's driver dispatch too,
#                  but the state holds the tables DXE built from the
#                  machine's description, the CPU signature's included)
#   --snapshot F   start from the state F that --save-snapshot saved
#                  with the same machine arguments (--cpu may differ in
#                  family=, model= and stepping= only, --vars must be
#                  the same store), instead of from reset: the boot skips
#                  OVMF's SEC and PEI phases, about 3 s of CPU; everything
#                  from DXE on, the disk and the harness run as in any boot
#                  (docs/check.md, "Firmware snapshots")
#
# Every argument is data: none is ever evaluated by a shell.  A bad one is
# an error (status 3) before QEMU starts.
#
# Exit status: 0 all tests passed, 1 a test failed, 2 the harness broke
# (Bail out!), 4 nothing failed but the log has "# error:" lines (an
# option not applied, inject= refused, the log file failing: the lab
# tools' ERRORS), 77 untested (nothing failed, but no test of what the run
# asked for ran, e.g. every PMU test skipped: the summary says
# verdict=untested reason="..."; automake's and kvm-unit-tests' SKIP
# status), 3 QEMU ended without a verdict (it failed to start, the
# machine powered off, or its exit status disagrees with the log's
# "# summary:" line; QEMU's own messages then follow on stderr; or a bad
# argument), 124 the time limit ran out or QEMU was killed (SIGKILL).
case ${1:-} in	# -h, --help: the text above
-h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac
set -u
image= cpu=qemu64 smp=1 args= log= stream=0 limit=120 keep= com4=0 vga=none
mem=256 cfg_file= have_args=0 volume_free= logdir_file=0 readonly=0 pidfile=
write_iops= bios= vars= save_vars= snapshot= save_snapshot= point=dxe no_hpet= no_acpi=
usage() { echo "qemu-boot: $*" >&2; exit 3; }
# A flag's value: the next argument, which must exist.
value() { [ "$2" -ge 2 ] || usage "$1 needs a value"; }
whole() {		# whole NAME VALUE MIN: a decimal integer >= MIN
	case "$2" in
	''|*[!0-9]*) usage "$1 wants a whole number, not '$2'" ;;
	esac
	[ "${#2}" -le 9 ] && [ "$((10#$2))" -ge "$3" ] ||
		usage "$1 $2 is out of range (at least $3, at most 9 digits)"
}
while [ $# -gt 0 ]; do
	case "$1" in
	--image|--cpu|--smp|--args|--log|--timeout|--keep|--mem|--cfg-file|\
	--volume-free|--pidfile|--write-iops|--bios|--vars|--save-vars|\
	--snapshot|--save-snapshot|--snapshot-point)
		value "$1" $# ;;
	esac
	case "$1" in
	--image) image=$2; shift ;;
	--bios)
		case "$2" in
		kernel|disk|cd|floppy) bios=$2 ;;
		*) usage "--bios wants kernel, disk, cd or floppy, not '$2'" ;;
		esac
		shift ;;
	--cpu) cpu=$2; shift ;;
	--smp) smp=$2; shift ;;
	--args) args=$2; have_args=1; shift ;;
	--cfg-file) cfg_file=$2; shift ;;
	--mem) whole --mem "$2" 1; mem=$((10#$2)); shift ;;
	--log) log=$2; shift ;;
	--stream) stream=1 ;;
	--timeout) limit=$2; shift ;;
	--keep) keep=$2; shift ;;
	--com4) com4=1 ;;
	--no-hpet) no_hpet=1 ;;
	--no-acpi) no_acpi=1 ;;
	--vga) vga=std ;;
	--volume-free) whole --volume-free "$2" 0; volume_free=$((10#$2)); shift ;;
	--logdir-file) logdir_file=1 ;;
	--readonly) readonly=1 ;;
	--pidfile) pidfile=$2; shift ;;
	--write-iops) whole --write-iops "$2" 1; write_iops=$((10#$2)); shift ;;
	--vars) vars=$2; shift ;;
	--save-vars) save_vars=$2; shift ;;
	--snapshot) snapshot=$2; shift ;;
	--save-snapshot) save_snapshot=$2; shift ;;
	--snapshot-point)
		case "$2" in
		dxe|console) point=$2 ;;
		*) usage "--snapshot-point wants dxe or console, not '$2'" ;;
		esac
		shift ;;
	*) usage "unknown argument $1" ;;
	esac
	shift
done
[ -n "$image" ] && [ -n "$log" ] || usage "need --image and --log"
[ -f "$image" ] && [ -r "$image" ] || usage "--image $image is not a readable file"
[ -z "$no_hpet$no_acpi" ] || [ -n "$bios" ] ||
	usage "--no-hpet and --no-acpi are for --bios boots (OVMF needs ACPI," \
	      "q35's HPET is built in)"
if [ -n "$bios" ]; then
	[ -z "$cfg_file" ] && [ -z "$volume_free" ] && [ "$logdir_file" = 0 ] &&
	[ "$readonly" = 0 ] && [ -z "$write_iops" ] && [ -z "$vars" ] &&
	[ -z "$save_vars" ] && [ -z "$snapshot" ] && [ -z "$save_snapshot" ] ||
		usage "--bios $bios: a BIOS boot has no boot volume (no" \
		      "--cfg-file, --volume-free, --logdir-file, --readonly," \
		      "--write-iops), no UEFI variables (no --vars," \
		      "--save-vars) and no firmware snapshot (no --snapshot," \
		      "--save-snapshot)"
	case "$args" in
	*[[:cntrl:]]*) usage "--args: a newline or control byte" ;;
	esac
fi
if [ -n "$cfg_file" ]; then
	[ "$have_args" = 0 ] || usage "--cfg-file and --args exclude each other"
	[ -f "$cfg_file" ] && [ -r "$cfg_file" ] ||
		usage "--cfg-file $cfg_file is not a readable file"
fi

if [ -n "$snapshot" ]; then
	[ -z "$save_snapshot" ] ||
		usage "--snapshot and --save-snapshot exclude each other"
	[ -f "$snapshot" ] && [ -r "$snapshot" ] ||
		usage "--snapshot $snapshot is not a readable file"
fi

ovmf_code=/usr/share/OVMF/OVMF_CODE_4M.fd
ovmf_vars=/usr/share/OVMF/OVMF_VARS_4M.fd
if [ -n "$vars" ]; then
	[ -f "$vars" ] && [ -r "$vars" ] ||
		usage "--vars $vars is not a readable file"
	[ "$(stat -c %s -- "$vars")" = "$(stat -c %s "$ovmf_vars")" ] ||
		usage "--vars $vars is not the size of $ovmf_vars"
	ovmf_vars=$vars
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/pmu-boot.XXXXXX")
trap 'rm -rf "$work"' EXIT
here=$(dirname -- "$0")
export MTOOLS_SKIP_CHECK=1

cp --sparse=always "$image" "$work/disk.img"
if [ -z "$bios" ]; then		# UEFI: the boot volume, up to "fi # UEFI"
cp "$ovmf_vars" "$work/vars.fd"
# The FAT boot volume: the image's EFI system partition.
off=$("$here/esp-offset.sh" "$work/disk.img") ||
	usage "--image $image has no EFI system partition (make image)"
vol="$work/disk.img@@$off"
if [ -n "$cfg_file" ]; then
	cp -- "$cfg_file" "$work/pmu-harness.cfg"
else
	printf '%s\n' "$args" > "$work/pmu-harness.cfg"
fi
mcopy -o -i "$vol" "$work/pmu-harness.cfg" ::/pmu-harness.cfg

# The volume's free bytes, as mdir counts them ("12 976 128 bytes free").
free_bytes() {
	mdir -i "$vol" ::/ 2>/dev/null |
		sed -n 's/^ *\([0-9][0-9 ]*\) bytes free$/\1/p' | tail -n 1 |
		tr -d ' '
}
if [ "$logdir_file" = 1 ]; then
	# mkimage.sh made \pmu-harness an empty directory: a file takes its
	# place, so the harness cannot create the directory.
	{ mrd -i "$vol" ::/pmu-harness 2>/dev/null || true; } &&
	printf 'a file, not the log directory\n' > "$work/logdir-file" &&
	mcopy -o -i "$vol" "$work/logdir-file" ::/pmu-harness ||
		usage "--logdir-file: mtools could not make \\pmu-harness a file"
fi
if [ -n "$volume_free" ]; then
	# A FAT file takes whole clusters: fill to a multiple of the cluster
	# size, so at least KIB KiB and less than one cluster more stay free.
	cluster=$(minfo -i "$vol" 2>/dev/null | awk '
		/^sector size:/ { s = $3 } /^cluster size:/ { c = $3 }
		END { if (s && c) print s * c }')
	free=$(free_bytes)
	[ -n "$cluster" ] && [ -n "$free" ] ||
		usage "--volume-free: mtools could not read the boot volume"
	want=$((volume_free * 1024))
	[ "$free" -ge "$want" ] ||
		usage "--volume-free $volume_free: the boot volume has only" \
		      "$((free / 1024)) KiB free"
	fill=$(( (free - want) / cluster * cluster ))
	if [ "$fill" -gt 0 ]; then
		truncate -s "$fill" "$work/filler.bin" &&
		mcopy -o -i "$vol" "$work/filler.bin" ::/filler.bin ||
			usage "--volume-free: mtools could not write the filler"
		rm -f "$work/filler.bin"
	fi
	echo "qemu-boot: boot volume: $(free_bytes) bytes free" \
	     "(asked ${volume_free} KiB; filler $fill bytes," \
	     "clusters of $cluster bytes)" >&2
fi
fi	# UEFI

# A --log is a file name even when it starts with '-' (hence the --).
mkdir -p -- "$(dirname -- "$log")"
rm -f -- "$log"
# QEMU runs in $work (see --bios kernel below): paths made absolute.
case "$log" in /*) ;; *) log=$PWD/$log ;; esac
case "$pidfile" in /*|'') ;; *) pidfile=$PWD/$pidfile ;; esac
throttle=
[ -n "$write_iops" ] && throttle=",throttling.iops-write=$write_iops"
disk=(-drive "format=raw$throttle,file=$work/disk.img")
if [ "$readonly" = 1 ]; then
	disk=(-drive "if=none,id=boot,format=raw,readonly=on,file=$work/disk.img"
	      -device virtio-blk-pci,drive=boot)
fi
pid=()
if [ -n "$pidfile" ]; then
	# No stale process id for a caller to read before QEMU writes its own.
	mkdir -p "$(dirname -- "$pidfile")" && rm -f -- "$pidfile" ||
		usage "--pidfile $pidfile: cannot prepare the file"
	pid=(-pidfile "$pidfile")
fi
if [ -z "$bios" ]; then
	machine=(qemu-system-x86_64 -machine q35
		 -drive "if=pflash,format=raw,unit=0,readonly=on,file=$ovmf_code"
		 -drive "if=pflash,format=raw,unit=1,file=$work/vars.fd"
		 "${disk[@]}")
else
	vga=std
	machine=(qemu-system-i386
		 -machine "pc${no_hpet:+,hpet=off}${no_acpi:+,acpi=off}")
	case "$bios" in
	kernel)
		# QEMU passes "-kernel's path, a space, -append" as the
		# Multiboot command line: the path is a name without spaces
		# (QEMU runs in $work), so the harness finds its options.
		cp "$work/disk.img" "$work/pmu-harness.elf"
		machine+=(-kernel pmu-harness.elf -append "$args") ;;
	disk) machine+=(-drive "format=raw,if=ide,index=0,file=$work/disk.img"
			-boot c) ;;
	cd) machine+=(-drive "format=raw,if=ide,index=2,media=cdrom,file=$work/disk.img"
		      -boot d) ;;
	floppy) machine+=(-drive "format=raw,if=floppy,index=0,file=$work/disk.img"
			  -boot a) ;;
	esac
	case "$bios" in
	disk|cd|floppy)
		kind=iso
		[ "$bios" = floppy ] && kind=floppy
		[ -z "$args" ] || "$here/bios-args.sh" "$kind" "$work/disk.img" "$args" ||
			usage "--bios $bios: cannot write --args into the" \
			      "menu of the image" ;;
	esac
fi
# A firmware snapshot: QEMU reads it through its exec: migration, whose
# line is run by a shell: the line is fixed ("snapshot" and "snapshot.part"
# are names in $work); the caller's path is only a symbolic link's target.
incoming=() monitor=()
if [ -n "$snapshot" ]; then
	case "$snapshot" in /*) target=$snapshot ;; *) target=$PWD/$snapshot ;; esac
	ln -s -- "$target" "$work/snapshot"
	incoming=(-incoming "exec:cat snapshot")
fi
# The state without the run state (store-global-state=off): a boot from a
# machine stopped to be saved runs at once.
[ -n "$save_snapshot" ] &&
	monitor=(-qmp "unix:$work/qmp,server=on,wait=off"
		 -global migration.store-global-state=off)
ports=(-serial "file:$log")
if [ "$com4" = 1 ]; then
	ports=(-serial "file:$log.com1" -chardev "file,id=com4,path=$log"
	       -device isa-serial,chardev=com4,iobase=0x2e8,irq=3)
fi
(cd "$work" && exec timeout --foreground -k 5 "$limit" "${machine[@]}" \
	-accel tcg -cpu "$cpu" -smp "$smp" \
	-m "$mem" "${pid[@]}" "${incoming[@]}" "${monitor[@]}" \
	-display none -vga "$vga" -nic none -no-reboot \
	"${ports[@]}" \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	</dev/null 2> "$log.qemu-stderr") &
qemu=$!
if [ -n "$save_snapshot" ]; then
	root=$(cd "$here/../.." && pwd)
	(cd "$work" && PYTHONPATH=$root exec python3 -m tools.boot.snapshot \
		--qmp "$work/qmp" --name snapshot.part --serial "$log" \
		--point "$point" --timeout "$limit")
	saved=$?
	wait $qemu
	if [ "$saved" = 0 ] && [ -s "$work/snapshot.part" ] &&
	   cp -- "$work/snapshot.part" "$save_snapshot.tmp.$$" &&
	   mv -f -- "$save_snapshot.tmp.$$" "$save_snapshot"; then
		exit 0
	fi
	rm -f -- "$save_snapshot.tmp.$$"
	echo "qemu-boot: --save-snapshot $save_snapshot: not saved" >&2
	[ -s "$log.qemu-stderr" ] && sed 's/^/qemu: /' "$log.qemu-stderr" >&2
	[ "$saved" = 4 ] && exit 4
	exit 3
fi
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
	mkdir -p -- "$keep"
	cp --sparse=always -- "$work/disk.img" "$keep/disk.img"
fi
# The variable store as the boot left it (a warm store for later boots);
# written whole or not at all.
if [ -n "$save_vars" ] && [ -z "$bios" ]; then
	cp -- "$work/vars.fd" "$save_vars.tmp.$$" &&
		mv -f -- "$save_vars.tmp.$$" "$save_vars" ||
		echo "qemu-boot: --save-vars $save_vars: not written" >&2
fi
# QEMU's own messages, for a boot that ended without a verdict.
qemu_says() {
	[ -s "$log.qemu-stderr" ] && sed 's/^/qemu: /' "$log.qemu-stderr" >&2
	return 0
}
# The log's "# summary:" line as "PASSED FAILED SKIPPED VERDICT", empty
# if none; VERDICT is its verdict= field (untested) or "-"; other fields
# after the counts (logfile_error="...") are allowed.
summary() {
	tr -d '\r' 2>/dev/null < "$log" |
		sed -n 's/^# summary: passed=\([0-9]*\) failed=\([0-9]*\) skipped=\([0-9]*\)\( .*\)\{0,1\}$/\1 \2 \3 -\4/p' |
		sed 's/^\([0-9]* [0-9]* [0-9]*\) - verdict=\([a-z]*\).*$/\1 \2/; s/^\([0-9]* [0-9]* [0-9]* -\) .*$/\1/' |
		tail -n 1
}
# QEMU's status 1 is also what QEMU itself exits with when it cannot start
# (a bad -cpu, a missing file): a verdict counts only when the log has a
# summary that agrees with it.
case $status in
1|3|7)
	want=$(( status >> 1 ))		# isa-debug-exit: (verdict << 1) | 1
	read -r p f s v <<< "$(summary)"
	if [ -z "${p:-}" ]; then
		echo "qemu-boot: QEMU exited with status $status and the log" \
		     "has no '# summary:' line: QEMU failed or the harness" \
		     "did not finish" >&2
		qemu_says
		exit 3
	fi
	# The summary's own verdict (lib/tap.c tap_verdict()).
	if [ "$f" -ne 0 ] || [ $((p + s)) -eq 0 ]; then got=1
	elif [ "$v" = untested ]; then got=3
	else got=0; fi
	if [ "$got" != "$want" ]; then
		[ "$v" = - ] && v= || v=" verdict=$v"
		echo "qemu-boot: QEMU exited with status $status (verdict" \
		     "$want) but the log's summary is passed=$p failed=$f" \
		     "skipped=$s$v (verdict $got)" >&2
		qemu_says
		exit 3
	fi
	# nothing failed, but options were not applied (or inject= was
	# refused, the log file failed): the run may not be the one asked
	# for (docs/log-format.md "Verdicts", docs/lab.md: ERRORS, 4)
	errs=$(tr -d '\r' 2>/dev/null < "$log" | grep -ac '^# error: ')
	if [ "$want" != 1 ] && [ "${errs:-0}" -gt 0 ]; then
		echo "qemu-boot: errors (exit 4): $errs '# error:' line(s)," \
		     "first: $(tr -d '\r' 2>/dev/null < "$log" |
			grep -a -m1 '^# error: ' | cut -c3-200)" >&2
		exit 4
	fi
	if [ "$want" = 3 ]; then
		echo "qemu-boot: untested (exit 77):" \
		     "$(tr -d '\r' 2>/dev/null < "$log" |
			sed -n 's/^# summary: .* verdict=untested //p' | tail -n 1)" >&2
		exit 77
	fi
	exit "$want" ;;		# 0 or 1
5) echo "qemu-boot: the harness broke (verdict 2):" \
	"$(tr -d '\r' 2>/dev/null < "$log" | grep -a '^Bail out!' | head -n 1)" >&2
   exit 2 ;;
124) echo "qemu-boot: no verdict within ${limit}s (killed)" >&2; exit 124 ;;
137) echo "qemu-boot: QEMU was killed (SIGKILL, from outside or after the" \
	"${limit}s limit) without a verdict" >&2; exit 124 ;;
*) echo "qemu-boot: QEMU exited with status $status without a verdict" >&2
   qemu_says
   exit 3 ;;
esac
