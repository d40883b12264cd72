#!/bin/bash
# fresh-check.sh: `make run` and `make check` on a fresh Debian 12 machine,
# as a new user (or CI on a new machine) would run them: a debootstrap
# minbase bookworm tree with only make and git installed by hand, the
# project cloned into it from a commit of this repository, then the README's
# two commands.  A package the Makefile forgets to install fails here, where
# the developer's own machine (which has it from some earlier install) hides
# it (docs/check.md, "The fresh-machine check").
#
# Usage (as root; `make fresh-check` runs it):
#   tools/build/fresh-check.sh            # the commit HEAD names
#   tools/build/fresh-check.sh --rev REV  # another commit
#   tools/build/fresh-check.sh --unmount  # end and unmount what a killed
#                                         # run left
#   tools/build/fresh-check.sh --sources  # the host's bookworm apt sources
#                                         # as "URI SUITE COMPONENT..." lines
#
# Variables:
#   FRESH_DIR        where the cached base tarball, the root and the logs
#                    go (default build/fresh)
#   FRESH_APT_CACHE  0: no shared .deb cache (default 1: the chroot's
#                    /var/cache/apt/archives is $FRESH_DIR/apt-archives, so
#                    a second run does not download the packages again; they
#                    are still installed from scratch)
#   FRESH_APT_ETC    the apt configuration the mirror is read from
#                    (default /etc/apt; host tests point it elsewhere)
#
# The mirror is read at run time from the machine's own apt sources (one-line
# sources.list files and deb822 .sources files) and never written into the
# repository.  proc, sys, dev, dev/pts and dev/shm are mounted inside the
# root for the run and unmounted on every exit path; a run killed with
# SIGKILL leaves them (and its commands running in the root), and the next
# run (or --unmount, or `make clean`) ends those and unmounts them first.
#
# Exit status: 0 when both commands passed; 1 when either failed; 2 when the
# fresh machine could not be made (no root, no mirror, debootstrap failed).
set -euo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
FRESH_DIR=${FRESH_DIR:-$here/build/fresh}
FRESH_APT_CACHE=${FRESH_APT_CACHE:-1}
FRESH_APT_ETC=${FRESH_APT_ETC:-/etc/apt}
SUITE=bookworm
# A fresh root's environment: nothing of the caller's leaks in.
CHROOT_ENV=(/usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root)
SRC=/root/pmu-harness

die() { echo "fresh-check: $*" >&2; exit 2; }
say() { echo "fresh-check: $*"; }

# The host's apt sources for $SUITE, its -updates and -security, as
# "URI SUITE COMPONENT..." lines, in the order apt reads them.  One-line
# entries ("deb [options] URI SUITE COMPONENT...") and deb822 paragraphs
# (Types/URIs/Suites/Components, Enabled: no skipped) both count; deb-src
# and other suites do not.
host_sources() {
	local f files=()
	[ -f "$FRESH_APT_ETC/sources.list" ] &&
		files+=("$FRESH_APT_ETC/sources.list")
	for f in "$FRESH_APT_ETC"/sources.list.d/*.list \
		 "$FRESH_APT_ETC"/sources.list.d/*.sources; do
		[ -f "$f" ] && files+=("$f")
	done
	[ ${#files[@]} -gt 0 ] || return 0
	for f in "${files[@]}"; do
		case "$f" in
		*.sources) deb822_sources "$f" ;;
		*) oneline_sources "$f" ;;
		esac
	done
}

suite_re="^$SUITE(-updates|-security)?\$"

oneline_sources() {
	awk -v re="$suite_re" '
	{ sub(/#.*/, "") }
	$1 != "deb" { next }
	{
		i = 2
		if ($i ~ /^\[/) {	# [ options ], possibly several words
			while (i <= NF && $i !~ /\]$/) i++
			i++
		}
		if (i + 1 > NF || $(i + 1) !~ re) next
		line = $i " " $(i + 1)
		for (j = i + 2; j <= NF; j++) line = line " " $j
		print line
	}' "$1"
}

deb822_sources() {
	awk -v re="$suite_re" '
	function flush(   n, u, s, i, j, us, ss) {
		if (types ~ /(^| )deb( |$)/ && enabled != "no") {
			n = split(uris, us, " ")
			split(suites, ss, " ")
			for (i = 1; i <= n; i++)
				for (j = 1; j in ss; j++)
					if (ss[j] ~ re)
						print us[i] " " ss[j] " " comps
		}
		types = uris = suites = comps = enabled = ""
	}
	/^[ \t]*#/ { next }
	/^[ \t]*$/ { flush(); next }
	{
		key = tolower($1); sub(/:$/, "", key)
		val = $0; sub(/^[^:]*:[ \t]*/, "", val)
		gsub(/[ \t]+/, " ", val); sub(/ $/, "", val)
		if (key == "types") types = val
		else if (key == "uris") uris = val
		else if (key == "suites") suites = val
		else if (key == "components") comps = val
		else if (key == "enabled") enabled = tolower(val)
	}
	END { flush() }' "$1"
}

# Every mount point at or below $1, deepest first.
mounts_below() {
	local dir
	dir=$(realpath -m "$1")
	awk -v d="$dir" '$2 == d || index($2, d "/") == 1 { print $2 }' \
		/proc/self/mounts | sort -r
}

# Processes whose root is the fresh root: what a run killed with SIGKILL
# left running there (its commands run in a process group of their own,
# which only the trap ends).  Ended first, so the unmount finds nothing
# busy.
end_processes_in() {
	local dir p r n=0
	dir=$(realpath -m "$1")
	for p in /proc/[0-9]*; do
		r=$(readlink "$p/root" 2>/dev/null) || continue
		case "$r" in
		"$dir"|"$dir"/*) kill -KILL "${p#/proc/}" 2>/dev/null && n=$((n + 1)) ;;
		esac
	done
	[ "$n" -eq 0 ] || echo "fresh-check: ended $n processes a killed run left in $dir" >&2
}

unmount_below() {
	local m
	end_processes_in "$1"
	for m in $(mounts_below "$1"); do
		umount "$m" 2>/dev/null || umount -l "$m" ||
			echo "fresh-check: could not unmount $m" >&2
	done
}

root=$FRESH_DIR/root
base=$FRESH_DIR/$SUITE-minbase.tar.gz
logs=$FRESH_DIR/logs
archives=$FRESH_DIR/apt-archives
rev=HEAD

case "${1:-}" in
--sources) host_sources; exit 0 ;;
--unmount) unmount_below "$root"; exit 0 ;;
--rev) [ $# -eq 2 ] || die "--rev takes one commit"; rev=$2 ;;
"") ;;
-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
*) die "unknown argument '$1' (see --help)" ;;
esac

[ "$(id -u)" -eq 0 ] ||
	die "needs root (debootstrap, chroot and mount); run it as root"
command -v debootstrap >/dev/null ||
	die "debootstrap is not installed (make fresh-check installs it)"
commit=$(git -C "$here" rev-parse --verify "$rev^{commit}") ||
	die "no commit '$rev' in $here"
if [ "$rev" = HEAD ] && [ -n "$(git -C "$here" status --porcelain \
	--untracked-files=no)" ]; then
	say "note: uncommitted changes are not in the check (it clones $commit)"
fi
sources=$(host_sources)
mirror=$(printf '%s\n' "$sources" | awk -v s="$SUITE" '$2 == s { print $1; exit }')
[ -n "$mirror" ] ||
	die "no '$SUITE' source in $FRESH_APT_ETC/sources.list{,.d}: no mirror"

child=""
cleanup() {
	if [ -n "$child" ]; then
		kill -TERM -- "-$child" 2>/dev/null || true
		wait "$child" 2>/dev/null || true
	fi
	unmount_below "$root"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# Runs "$@" in its own process group, in the background, and waits for it,
# so that a signal to this script is handled at once (bash defers traps
# while a foreground command runs) and the trap can end the whole group.
run_group() {
	setsid --wait "$@" &
	child=$!
	local st=0
	wait "$child" || st=$?
	child=""
	return "$st"
}

mkdir -p "$FRESH_DIR" "$logs"
unmount_below "$root"

if [ ! -s "$base" ]; then
	say "debootstrap --variant=minbase $SUITE from $mirror (once; kept as $base)"
	rm -rf --one-file-system "$FRESH_DIR/base.tmp"
	run_group debootstrap --variant=minbase "$SUITE" "$FRESH_DIR/base.tmp" \
		"$mirror" >"$logs/debootstrap.txt" 2>&1 ||
		die "debootstrap failed (see $logs/debootstrap.txt)"
	# The mirror the tree was made from is no part of the cached base:
	# each run writes the host's sources of that day.
	rm -f "$FRESH_DIR/base.tmp/etc/apt/sources.list"
	tar -C "$FRESH_DIR/base.tmp" -czf "$base.part" . ||
		die "could not write $base"
	mv "$base.part" "$base"
	rm -rf --one-file-system "$FRESH_DIR/base.tmp"
else
	say "base tree: $base (cached)"
fi

rm -rf --one-file-system "$root"
mkdir -p "$root"
tar -C "$root" -xzf "$base"
printf '%s\n' "$sources" |
	awk '{ printf "deb %s", $1; for (i = 2; i <= NF; i++) printf " %s", $i; print "" }' \
	>"$root/etc/apt/sources.list"
# Name resolution as the host has it (a fresh machine gets its own).
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

mount -t proc proc "$root/proc"
mount --bind /sys "$root/sys"
mount --make-rslave "$root/sys"
mount --bind /dev "$root/dev"
mount --make-private "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
mount --make-private "$root/dev/pts"
mount --bind /dev/shm "$root/dev/shm"
mount --make-private "$root/dev/shm"
if [ "$FRESH_APT_CACHE" != 0 ]; then
	mkdir -p "$archives/partial"
	mount --bind "$archives" "$root/var/cache/apt/archives"
	mount --make-private "$root/var/cache/apt/archives"
fi

# Only make and git, by hand, as the README's prerequisites say.
say "installing make and git by hand"
run_group chroot "$root" "${CHROOT_ENV[@]}" DEBIAN_FRONTEND=noninteractive \
	/bin/sh -c 'apt-get update && apt-get install -y --no-install-recommends make git' \
	>"$logs/setup.txt" 2>&1 ||
	die "apt-get install make git failed in the fresh root (see $logs/setup.txt)"

# The project, as git clones it: a bundle of the commit (under a branch
# name of its own for the moment it takes: a bundle holds refs, not bare
# commits), cloned inside by the fresh root's git.
ref=refs/heads/pmu-fresh-check
git -C "$here" update-ref "$ref" "$commit"
st=0
git -C "$here" bundle create "$root/tmp/project.bundle" "$ref" \
	>"$logs/bundle.txt" 2>&1 || st=$?
git -C "$here" update-ref -d "$ref"
[ "$st" -eq 0 ] || die "could not bundle $commit (see $logs/bundle.txt)"
run_group chroot "$root" "${CHROOT_ENV[@]}" /bin/sh -c \
	"git clone --quiet --branch pmu-fresh-check /tmp/project.bundle $SRC &&
	 git -C $SRC checkout --quiet --detach $commit" \
	>>"$logs/setup.txt" 2>&1 ||
	die "git clone in the fresh root failed (see $logs/setup.txt)"
say "cloned $commit"

# One README command in the fresh root: its output to logs/NAME.txt, then
# its result line and wall time.
failed=0
fresh_make() {
	local target=$1 pattern=$2 t0 t1 st=0 line
	t0=$(date +%s.%N)
	run_group chroot "$root" "${CHROOT_ENV[@]}" /bin/sh -c \
		"cd $SRC && exec make $target" </dev/null \
		>"$logs/$target.txt" 2>&1 || st=$?
	t1=$(date +%s.%N)
	line=$(grep -aE "$pattern" "$logs/$target.txt" | tail -n 1 || true)
	printf 'fresh-check: make %s: exit %d, %s s wall\n' "$target" "$st" \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
	printf 'fresh-check: make %s: %s\n' "$target" "${line:-(no result line)}"
	if [ "$st" -ne 0 ]; then
		failed=1
		echo "fresh-check: make $target failed; its last lines" \
		     "($logs/$target.txt):"
		tail -n 15 "$logs/$target.txt" | sed 's/^/  | /'
	fi
}
fresh_make run '^# summary: '
fresh_make check '^=+ [0-9]+ (passed|failed|errors?)\b.* in [0-9.]+s'
if [ "$failed" -ne 0 ]; then
	say "FAILED on a fresh $SUITE"
	exit 1
fi
say "passed on a fresh $SUITE"
