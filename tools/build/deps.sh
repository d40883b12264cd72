#!/bin/sh
# deps.sh PKG...: make sure Debian packages are installed.  As root, installs
# the missing ones with apt-get; otherwise prints the command and fails.
# A PKG:i386 (multiarch: libpfm4:i386 for the P6 referee, docs/testing.md)
# needs the i386 architecture: added with dpkg --add-architecture, then
# apt-get update, only when such a package is missing and the architecture
# is not yet there.
set -eu
missing=""
foreign=""
# One dpkg-query for all of them (every make runs this): a line
# "NAME:ARCH ii " per installed package; a name without :ARCH is the
# native architecture's or an Architecture: all package.
native=$(dpkg --print-architecture)
installed=$(dpkg-query -W -f='${Package}:${Architecture} ${db:Status-Abbrev}\n' \
	"$@" 2>/dev/null || true)
for p in "$@"; do
	case "$p" in
	*:*) want="$p" ;;
	*) want="$p:$native $p:all" ;;
	esac
	found=""
	for w in $want; do
		printf '%s\n' "$installed" | grep -qxF "$w ii " && found=1
	done
	[ -n "$found" ] && continue
	missing="$missing $p"
	case "$p" in *:i386) foreign=i386 ;; esac
done
[ -z "$missing" ] && exit 0
need_arch=""
if [ -n "$foreign" ] && [ "$(dpkg --print-architecture)" != i386 ] &&
   ! dpkg --print-foreign-architectures | grep -qx i386; then
	need_arch=i386
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "pmu-harness needs these Debian packages:$missing" >&2
	[ -z "$need_arch" ] ||
		echo "run: sudo dpkg --add-architecture i386 &&" \
		     "sudo apt-get update" >&2
	echo "run: sudo apt-get install -y --no-install-recommends$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# An index that fails to download (a mirror mid-sync) is not fatal: the
# install below says whether what is needed was found.
update() {
	echo "deps: apt-get update" >&2
	apt-get -o DPkg::Lock::Timeout=600 update >&2 ||
		echo "deps: apt-get update failed; trying the install" >&2
}
updated=""
if [ -n "$need_arch" ]; then
	echo "deps: dpkg --add-architecture i386 (for$missing)" >&2
	dpkg --add-architecture i386
	update
	updated=1
fi
echo "deps: installing$missing" >&2
if ! apt-get install -o DPkg::Lock::Timeout=600 -y --no-install-recommends $missing >&2; then
	[ -n "$updated" ] && exit 1
	update
	apt-get install -o DPkg::Lock::Timeout=600 -y --no-install-recommends $missing >&2
fi
