#!/bin/sh
# bios-args.sh KIND IMG WORDS: make WORDS (harness options) the default
# entry of the BIOS boot menu of IMG, a private copy that a boot script
# is about to boot (qemu-boot.sh --bios, bochs-boot.sh, beside this
# script in tools/boot/), as the UEFI boots write \pmu-harness.cfg into
# theirs.  Only the menu changes: loader, kernel and layout stay the image's.
#   KIND iso     IMG is mkimage.sh's image: /isolinux/isolinux.cfg is
#                rewritten in place, padded to its size (bootmenu.sh),
#                at the blocks xorriso reports for it
#   KIND floppy  IMG is mkfloppy.sh's floppy: \syslinux.cfg replaced
# WORDS are data: they go into the APPEND line, nowhere else.
case ${1:-} in	# -h, --help: the text above
-h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac
set -eu
here=$(dirname "$0")
kind=$1 img=$2 words=$3
export MTOOLS_SKIP_CHECK=1 LC_ALL=C
tmp=$(mktemp "${TMPDIR:-/tmp}/pmu-menu.XXXXXX")
trap 'rm -f "$tmp"' EXIT
case "$kind" in
floppy)
	"$here/bootmenu.sh" /pmu.elf "$words" > "$tmp"
	mcopy -o -i "$img" "$tmp" ::/syslinux.cfg ;;
iso)
	# "File data lba:  0 ,  57 ,  1 ,  4096 , '/isolinux/isolinux.cfg'":
	# the first block (2 KiB) and the size of the file's one extent.
	set -- $(xorriso -indev "$img" -find /isolinux/isolinux.cfg \
		-exec report_lba -- 2>/dev/null |
		sed -n "s/^File data lba: *0 *, *\([0-9]*\) *, *[0-9]* *, *\([0-9]*\) *, '\/isolinux\/isolinux.cfg'\$/\1 \2/p")
	if [ $# -ne 2 ]; then
		echo "bios-args: no /isolinux/isolinux.cfg in one extent in $img" >&2
		exit 1
	fi
	"$here/bootmenu.sh" /boot/pmu-harness.elf "$words" "$2" > "$tmp"
	dd if="$tmp" of="$img" bs=2048 seek="$1" conv=notrunc status=none ;;
*)
	echo "bios-args: KIND is iso or floppy, not '$kind'" >&2
	exit 1 ;;
esac
