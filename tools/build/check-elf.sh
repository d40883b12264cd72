#!/bin/sh
# check-elf.sh SO: the linked object must resolve every symbol and carry only
# relocations that gnu-efi's self-relocation (_relocate) handles.
set -eu
so=$1
undef=$(nm -u "$so" | grep -v ' w ' || true)
if [ -n "$undef" ]; then
	echo "error: $so keeps undefined symbols:" >&2
	echo "$undef" >&2
	rm -f "$so"
	exit 1
fi
# Relocations outside .rela are lost: the PE image takes .rela only
# (EFI_SECTIONS in the Makefile), so pointers there would stay unrelocated.
stray=$(readelf -SW "$so" | awk '$0 ~ /\] / { sub(/^.*\] */, ""); if ($2 ~ /^RELA?$/ && $1 != ".rela") print $1 }' || true)
if [ -n "$stray" ]; then
	echo "error: $so has relocation sections outside .rela (linker.ld" \
		"must collect them):" >&2
	echo "$stray" >&2
	rm -f "$so"
	exit 1
fi
bad=$(readelf -rW "$so" | awk '/^ *[0-9a-f]+ +[0-9a-f]+ R_X86_64_/ && $3 != "R_X86_64_RELATIVE" && $3 != "R_X86_64_NONE"' || true)
if [ -n "$bad" ]; then
	echo "error: $so has relocations _relocate cannot apply:" >&2
	echo "$bad" >&2
	rm -f "$so"
	exit 1
fi
