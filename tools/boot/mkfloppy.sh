#!/bin/sh
# mkfloppy.sh IMG ELF: a 1.44 MB floppy image (FAT12) that boots the
# 32-bit Multiboot ELF on legacy BIOS: SYSLINUX -> mboot.c32 -> ELF
# (stored as \PMU.ELF without its debug sections), with the menu of
# tools/boot/bootmenu.sh in \syslinux.cfg.  For boards that boot neither USB
# nor CD (docs/legacy-boot.md).  No root needed: mkfs.fat, mtools and
# Debian's syslinux (the mtools installer) work on plain files.
# Write it to a floppy with: dd if=IMG of=/dev/fd0 bs=512 conv=fsync
case ${1:-} in	# -h, --help: the text above
-h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac
set -eu
here=$(dirname "$0")
img=$1 elf=$2
c32=/usr/lib/syslinux/modules/bios	# Debian's syslinux-common
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmu-floppy.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
rm -f "$img"
mkfs.fat -F 12 -n PMUHARNESS -C "$img" 1440 >/dev/null
# The boot sector and \ldlinux.sys, \ldlinux.c32 (syslinux 6 writes both).
syslinux --install "$img"
export MTOOLS_SKIP_CHECK=1
objcopy --strip-debug "$elf" "$tmp/pmu.elf"
"$here/bootmenu.sh" /pmu.elf > "$tmp/syslinux.cfg"
mcopy -i "$img" "$c32/libcom32.c32" "$c32/mboot.c32" "$c32/menu.c32" \
	"$c32/libutil.c32" "$tmp/pmu.elf" "$tmp/syslinux.cfg" ::/ ||
	{ echo "mkfloppy: the files do not fit on the floppy:" >&2
	  mdir -i "$img" ::/ >&2; rm -f "$img"; exit 1; }
