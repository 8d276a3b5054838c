#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms add/build/remove of this tree against Debian's headers as
# scripts/setup.sh extracts them, make check's 6.12 (nothing installed,
# nothing loaded: --kernelsourcedir names the tree, which is nowhere
# under /lib/modules), and "make install" into a scratch root (the last
# tree's): each builds and installs mstat.ko alone. "ok"/"not ok" lines,
# named by each tree's release.
#
#   scripts/dkms-test.sh [--install-only] KDIR...
#
# --install-only: "make install" alone, no DKMS (make check: the
# packages' test, scripts/deb-test.sh, has DKMS build the package for
# 6.1 and 6.12 in a root where the headers are installed as a user's
# are, and checks the same of each build).
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

dkms=1
if [ "${1:-}" = --install-only ]; then
	dkms=
	shift
fi
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$MSTAT_TOP/dkms.conf")
src=/usr/src/mstat-$ver
if [ -n "$dkms" ]; then
	dkms remove "mstat/$ver" --all >/dev/null 2>&1
	rm -rf "$src"
	mkdir -p "$src"
	rsync -a --exclude .git --exclude /build "$MSTAT_TOP/" "$src/"
	(cd "$src" && make clean KDIR=/nonexistent >/dev/null 2>&1)
	dkms add "mstat/$ver" >/dev/null || die "dkms add failed"
fi
for kdir; do
	k=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$kdir/include/generated/utsrelease.h" 2>/dev/null)
	if [ -z "$k" ]; then
		not_ok "dkms-build-$kdir: no kernel headers there"
		continue
	fi
	if [ -n "$dkms" ]; then
		if dkms build "mstat/$ver" -k "$k" --kernelsourcedir "$kdir" \
			>"$MSTAT_TOP/build/logs/dkms-$k.log" 2>&1 &&
		   ls /var/lib/dkms/mstat/"$ver"/"$k"/*/module/mstat.ko* >/dev/null 2>&1; then
			ok "dkms-build-$k"
		else
			not_ok "dkms-build-$k (build/logs/dkms-$k.log)"
		fi
		# The package builds the product only: no test or bench
		# module. DKMS cleans its build area, but keeps the build's
		# log.
		kos=$(sed -n 's|^ *LD \[M\] *.*/build/\(.*\.ko\)$|\1|p' \
			/var/lib/dkms/mstat/"$ver"/"$k"/*/log/make.log 2>/dev/null |
		      sort | tr '\n' ' ')
		if [ "$kos" = "mstat.ko " ]; then
			ok "dkms-builds-mstat-only-$k"
		else
			not_ok "dkms-builds-mstat-only-$k: built ${kos:-nothing}"
		fi
	fi
	# make install, into a scratch root: mstat.ko alone, under updates/.
	# Against the last tree only: the same Makefile with another KDIR,
	# and each is a build of its own (45 s of CPU).
	[ "$kdir" = "${*: -1}" ] || continue
	tmp=$(mktemp -d)
	rsync -a --exclude .git --exclude /build "$MSTAT_TOP/" "$tmp/src/"
	if make -C "$tmp/src" KDIR="$kdir" \
		INSTALL_MOD_PATH="$tmp/root" install \
		>"$MSTAT_TOP/build/logs/install-$k.log" 2>&1; then
		kos=$(cd "$tmp/root" && find . -name '*.ko*' | sort | tr '\n' ' ')
	else
		kos="(make install failed: build/logs/install-$k.log)"
	fi
	case $kos in
	"./lib/modules/"*"/updates/mstat.ko"*" ")
		if [ "$(echo "$kos" | wc -w)" -eq 1 ]; then
			ok "make-install-mstat-only-$k"
		else
			not_ok "make-install-mstat-only-$k: $kos"
		fi ;;
	*)	not_ok "make-install-mstat-only-$k: $kos" ;;
	esac
	rm -rf "$tmp"
done
if [ -n "$dkms" ]; then
	dkms remove "mstat/$ver" --all >/dev/null 2>&1
	rm -rf "$src"
fi
finish
