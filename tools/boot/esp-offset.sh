#!/bin/sh
# esp-offset.sh IMG: the byte offset of the EFI system partition (the boot
# volume of a UEFI boot) in the disk image IMG, for mtools' -i IMG@@OFFSET:
#
#   mcopy -i "build/pmu-harness.img@@$(tools/boot/esp-offset.sh build/pmu-harness.img)" \
#       my.cfg ::/pmu-harness.cfg
#
# The partition is the first MBR entry of type 0xEF (what
# tools/boot/mkimage.sh writes), or, on a GPT disk (an MBR entry of type
# 0xEE), the first GPT entry whose type is the EFI system partition GUID
# C12A7328-F81F-11D2-BA4B-00A0C93EC93B (UEFI 2.10, sections 5.2.2 and
# 5.3.3).  Sectors are 512 bytes.  Exit status 1, with a message, when
# there is none.
case ${1:-} in	# -h, --help: the text above
-h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac
set -eu
img=${1:?usage: esp-offset.sh IMG}
[ -f "$img" ] && [ -r "$img" ] || { echo "esp-offset: $img: not a readable file" >&2; exit 1; }
# u32 FILE OFFSET / u64 FILE OFFSET: a little-endian number at OFFSET.
u32() { od -An -t u4 -j "$2" -N 4 --endian=little "$1" | tr -d ' '; }
u64() { od -An -t u8 -j "$2" -N 8 --endian=little "$1" | tr -d ' '; }
u8() { od -An -t u1 -j "$2" -N 1 "$1" | tr -d ' '; }
[ "$(od -An -t x1 -j 510 -N 2 "$img" | tr -d ' ')" = 55aa ] ||
	{ echo "esp-offset: $img: no MBR (no 55 AA at byte 510)" >&2; exit 1; }
gpt=0
for i in 0 1 2 3; do
	e=$((446 + 16 * i))
	type=$(u8 "$img" $((e + 4)))
	start=$(u32 "$img" $((e + 8)))
	if [ "$type" = 239 ] && [ "$start" -gt 0 ]; then	# 0xEF
		echo $((start * 512))
		exit 0
	fi
	[ "$type" = 238 ] && gpt=1				# 0xEE
done
if [ "$gpt" = 1 ] &&
   [ "$(od -An -c -j 512 -N 8 "$img" | tr -d ' ')" = EFIPART ]; then
	entries=$(u64 "$img" $((512 + 72)))
	count=$(u32 "$img" $((512 + 80)))
	size=$(u32 "$img" $((512 + 84)))
	[ "$count" -le 1024 ] && [ "$size" -ge 128 ] || count=0
	# The ESP type GUID as stored (mixed-endian), in hex.
	esp=28732ac11ff8d211ba4b00a0c93ec93b
	i=0
	while [ "$i" -lt "$count" ]; do
		e=$((entries * 512 + i * size))
		if [ "$(od -An -t x1 -j "$e" -N 16 "$img" | tr -d ' \n')" = "$esp" ]; then
			echo $(($(u64 "$img" $((e + 32))) * 512))
			exit 0
		fi
		i=$((i + 1))
	done
fi
echo "esp-offset: $img: no EFI system partition (MBR type 0xEF or GPT)" >&2
exit 1
