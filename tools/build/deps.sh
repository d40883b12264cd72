#!/bin/sh
# deps.sh PKG...: make sure Debian packages are installed.  As root, installs
# the missing ones with apt-get; otherwise prints the command and fails.
set -eu
missing=""
for p in "$@"; do
	s=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case "$s" in ii*) ;; *) missing="$missing $p" ;; esac
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "pmu-harness needs these Debian packages:$missing" >&2
	echo "run: sudo apt-get install -y --no-install-recommends$missing" >&2
	exit 1
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y --no-install-recommends $missing >&2; then
	apt-get update >&2
	apt-get install -y --no-install-recommends $missing >&2
fi
