#!/bin/sh
# mkimage.sh IMG EFI ELF [CFG]: the one boot image (docs/legacy-boot.md),
# a hybrid ISO 9660 image that boots
#   - on legacy BIOS: ISOLINUX (El Torito no-emulation on a CD; the
#     isohybrid MBR code on a USB stick or disk) -> mboot.c32 -> the
#     32-bit Multiboot ELF (ELF, stored as /boot/pmu-harness.elf), menu
#     from tools/boot/bootmenu.sh;
#   - on UEFI: \EFI\BOOT\BOOTX64.EFI (EFI, the x86-64 harness) on a FAT16
#     EFI system partition appended after the ISO 9660 data: MBR partition
#     2 of type 0xEF on a disk, the El Torito EFI boot image on a CD.
# That FAT volume is the UEFI boot volume: it holds \pmu-harness.cfg (CFG,
# when given) and the \pmu-harness\ log directory, and stays writable on a
# disk.  tools/boot/esp-offset.sh finds it for mtools.
# No root needed: xorriso, mkfs.fat and mtools work on plain files.
# Write it to a USB stick with: dd if=IMG of=/dev/sdX bs=1M conv=fsync
case ${1:-} in	# -h, --help: the text above
-h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac
set -eu
here=$(dirname "$0")
img=$1 efi=$2 elf=$3 cfg=${4:-}
esp_kib=14336			# 14 MiB of FAT16, as the GPT image had
isolinux=/usr/lib/ISOLINUX	# Debian's isolinux
c32=/usr/lib/syslinux/modules/bios	# Debian's syslinux-common
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmu-image.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
rm -f "$img"

# The ESP.
mkfs.fat -F 16 -n PMUHARNESS -C "$tmp/esp.img" "$esp_kib" >/dev/null
export MTOOLS_SKIP_CHECK=1
mmd -i "$tmp/esp.img" ::/EFI ::/EFI/BOOT ::/pmu-harness
mcopy -i "$tmp/esp.img" "$efi" ::/EFI/BOOT/BOOTX64.EFI
if [ -n "$cfg" ]; then
	mcopy -i "$tmp/esp.img" "$cfg" ::/pmu-harness.cfg
fi

# The ISO 9660 tree: ISOLINUX, the COM32 modules mboot.c32 needs (and the
# menu's), the menu, the kernel without its debug sections.
tree=$tmp/tree
mkdir -p "$tree/isolinux" "$tree/boot"
cp "$isolinux/isolinux.bin" "$c32/ldlinux.c32" "$c32/libcom32.c32" \
   "$c32/mboot.c32" "$c32/menu.c32" "$c32/libutil.c32" "$tree/isolinux/"
objcopy --strip-debug "$elf" "$tree/boot/pmu-harness.elf"
# 4 KiB: room for the options tools/boot/bios-args.sh writes into a copy.
"$here/bootmenu.sh" /boot/pmu-harness.elf "" 4096 \
	> "$tree/isolinux/isolinux.cfg"

# -isohybrid-mbr: ISOLINUX's MBR code (isohdpfx.bin) and a partition 1
# over the ISO data, active, so a BIOS boots the image as a disk.
# -append_partition 2 0xef: the ESP after the ISO data, as MBR partition 2
# (UEFI 2.10, section 5.2.2: a firmware takes type 0xEF as an ESP);
# -e --interval:appended_partition_2:all:: makes the same bytes the El
# Torito EFI boot image of a CD.  xorriso pads the ISO to a whole MiB
# (cylinder alignment), so the ESP starts on a MiB boundary.
xorriso -as mkisofs -quiet -o "$img" -V PMUHARNESS -r -J \
	-isohybrid-mbr "$isolinux/isohdpfx.bin" \
	-b isolinux/isolinux.bin -c isolinux/boot.cat \
	-no-emul-boot -boot-load-size 4 -boot-info-table \
	-eltorito-alt-boot -e --interval:appended_partition_2:all:: \
	-no-emul-boot \
	-append_partition 2 0xef "$tmp/esp.img" \
	"$tree" 2>"$tmp/xorriso.err" ||
	{ cat "$tmp/xorriso.err" >&2; rm -f "$img"; exit 1; }
"$here/esp-offset.sh" "$img" >/dev/null
