#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The arm64 set-up from no package lists, the first-run path that once
# aborted under set -u before it ever ran apt-get update ("ver: unbound
# variable"): scripts/setup.sh --arm64 with mstat's own apt
# (MSTAT_APT_DIR, scripts/lib.sh) in an empty directory, as on a machine
# that never set up. It must fetch its lists itself and print the KA64_*
# assignments.
#
# Its cache is its own too, a copy of the caller's arm64 parts (6.12's
# images, the headers, busybox, zlib): what they hold is not downloaded again, and
# what it changes is not the caller's. Fresh lists can name a newer
# kernel than the caller's day-old ones: with the caller's cache, this
# test once extracted 6.12.118's arm64 headers, removed 6.12.117's (the
# one set make ARCH=arm64 finds) and rewrote the matrix's picks while
# make check built against them (in CI). make fresh runs the
# same path from an empty cache, in a root debootstrap just made.
#
#   scripts/setup-test.sh
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# Under the caller's cache, so that the copies are on its file system.
top=$MSTAT_CACHE
mkdir -p "$top" || exit
tmp=$(mktemp -d "$top/setup-test.XXXXXX") || exit
trap 'rm -rf "$tmp"' EXIT
export MSTAT_APT_DIR=$tmp/apt MSTAT_CACHE=$tmp/cache
mkdir -p "$MSTAT_CACHE/kernels" || exit
for d in "$top"/arm64 "$top"/kernels/6.12.*-arm64; do
	[ ! -d "$d" ] || cp -a "$d" "$MSTAT_CACHE/${d#"$top"/}" || exit
done

"$MSTAT_TOP/scripts/setup.sh" --arm64 >"$tmp/env"
cat "$tmp/env"
grep -q '^KA64_REL=' "$tmp/env" || die "no KA64_REL from setup.sh --arm64"
compgen -G "$tmp/apt/lists/*arm64*" >/dev/null || die "no arm64 lists were fetched"
