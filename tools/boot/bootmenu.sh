#!/bin/sh
# bootmenu.sh KERNEL [WORDS [SIZE]]: the SYSLINUX/ISOLINUX configuration of the
# BIOS boot on stdout, shared by the image (tools/boot/mkimage.sh) and the
# floppy (tools/boot/mkfloppy.sh).  KERNEL is the Multiboot ELF's path on the
# boot medium; mboot.c32 loads it and passes the rest of the APPEND line
# as the Multiboot command line, "KERNEL option...": the harness takes the
# words after the kernel's path as its options (docs/legacy-boot.md).
#
# With WORDS, a first entry "args" runs with those options and is the
# default (the boot scripts use it on a private copy of the floppy), after
# 0.1 s instead of 5 (the copy is booted unattended: the wait was idle
# time of every scripted BIOS boot); WORDS is one line of harness options,
# no newline, no control byte.
# With SIZE, the text is padded with a last comment line to exactly SIZE
# bytes (an error when it is longer): the image keeps its menu in a file
# of fixed size that tools/boot/bios-args.sh rewrites in place.
#
# The menu shows on the screen and on COM1 at 115200 8N1 (SERIAL 0), the
# harness's own port and speed, so a serial terminal alone can pick an
# entry; unattended, the default runs after 5 s.
case ${1:-} in	# -h, --help: the text above
-h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac
set -eu
export LC_ALL=C		# sizes in bytes
kernel=${1:?usage: bootmenu.sh KERNEL [WORDS [SIZE]]}
words=${2-} size=${3-}
# A newline would end the APPEND line and start a configuration line.
case "$kernel$words" in
*[[:cntrl:]]*) echo "bootmenu: a newline or control byte in the kernel path or the options" >&2
	exit 1 ;;
esac
# mboot.c32 reads a word "---" as the start of a module's entry.
case " $words " in
*" --- "*) echo "bootmenu: the word --- in the options (mboot.c32's module separator)" >&2
	exit 1 ;;
esac
timeout=50			# tenths of a second
[ -n "$words" ] && timeout=1
menu() {
cat <<CFG
# pmu-harness BIOS boot menu (tools/boot/bootmenu.sh)
SERIAL 0 115200
UI menu.c32
PROMPT 0
TIMEOUT $timeout
MENU TITLE pmu-harness (32-bit, legacy BIOS)
CFG
entry() {	# entry LABEL TITLE WORDS
	printf 'LABEL %s\n  MENU LABEL %s\n  KERNEL mboot.c32\n  APPEND %s%s\n' \
		"$1" "$2" "$kernel" "${3:+ $3}"
}
if [ -n "$words" ]; then
	echo "DEFAULT args"
	entry args "Run with: $words" "$words"
else
	echo "DEFAULT run"
fi
entry run "Run all tests" ""
entry detect "Detect the CPU and PMU only (tests=detect/*)" "tests=detect/*"
entry verbose "Run all tests, verbose (verbose=1)" "verbose=1"
entry com2 "Run all tests, log on COM2 (serial=com2)" "serial=com2"
entry reboot "Run all tests, then reboot (exit=reboot)" "exit=reboot"
}
if [ -z "$size" ]; then
	menu
	exit 0
fi
text=$(menu; echo .)		# the "." keeps the last newline
text=${text%.}
# The padding: "#", spaces, a newline; at least 2 bytes.
pad=$((size - ${#text} - 2))
if [ "$pad" -lt 0 ]; then
	echo "bootmenu: the menu needs $((${#text} + 2)) bytes, more than $size" >&2
	exit 1
fi
printf '%s#%*s\n' "$text" "$pad" ""
