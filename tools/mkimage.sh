#!/bin/sh
# mkimage.sh IMG EFI [CFG]: a raw GPT disk image with one EFI system
# partition (FAT16) holding \EFI\BOOT\BOOTX64.EFI, and \pmu-harness.cfg when
# CFG is given.  No root needed: sgdisk and mtools work on plain files.
# Write it to a USB stick with: dd if=IMG of=/dev/sdX bs=1M conv=fsync
set -eu
img=$1 efi=$2 cfg=${3:-}
part_start=2048			# LBA of the ESP: 1 MiB, aligned
part_kib=14336			# 14 MiB of FAT16
tmp="$img.part"
rm -f "$img" "$tmp"
truncate -s 16M "$img"
sgdisk -o -n "1:$part_start:+${part_kib}K" -t 1:ef00 -c "1:EFI system" "$img" >/dev/null
mkfs.fat -F 16 -n PMUHARNESS -C "$tmp" "$part_kib" >/dev/null
export MTOOLS_SKIP_CHECK=1
mmd -i "$tmp" ::/EFI ::/EFI/BOOT ::/pmu-harness
mcopy -i "$tmp" "$efi" ::/EFI/BOOT/BOOTX64.EFI
if [ -n "$cfg" ]; then
	mcopy -i "$tmp" "$cfg" ::/pmu-harness.cfg
fi
dd if="$tmp" of="$img" bs=512 seek="$part_start" conv=notrunc,sparse \
	status=none
rm -f "$tmp"
