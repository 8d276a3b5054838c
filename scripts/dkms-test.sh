#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms add/build/remove of this tree against the installed Debian 6.1 and
# 6.12 headers (no install, nothing loaded). One "ok"/"not ok" line per
# kernel.
#
#   scripts/dkms-test.sh KERNELRELEASE...
set -uo pipefail

. "$(dirname "$0")/lib.sh"

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$MSTAT_TOP/dkms.conf")
src=/usr/src/mstat-$ver
fails=0

dkms remove "mstat/$ver" --all >/dev/null 2>&1
rm -rf "$src"
mkdir -p "$src"
rsync -a --exclude .git --exclude /build "$MSTAT_TOP/" "$src/"
(cd "$src" && make clean KDIR=/nonexistent >/dev/null 2>&1)
dkms add "mstat/$ver" >/dev/null || die "dkms add failed"
for k; do
	if dkms build "mstat/$ver" -k "$k" >"$MSTAT_TOP/build/logs/dkms-$k.log" 2>&1 &&
	   ls /var/lib/dkms/mstat/"$ver"/"$k"/*/module/mstat.ko* >/dev/null 2>&1; then
		echo "ok dkms-build-$k"
	else
		echo "not ok dkms-build-$k (build/logs/dkms-$k.log)"
		fails=$((fails + 1))
	fi
done
dkms remove "mstat/$ver" --all >/dev/null 2>&1
rm -rf "$src"
exit $((fails > 0))
