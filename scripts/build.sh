#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build mstat.ko, then the test and bench modules of tests/ (and, on a
# KUnit kernel, the KUnit suites), with W=1 against one kernel, in a copy
# of the tree of its own so that builds for several kernels do not mix
# objects.
#
#   scripts/build.sh KDIR OUTDIR
#
# Fails if the build fails or prints a warning. The log is OUTDIR/build.log.
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

kdir=$1
mkdir -p "$2"
out=$(realpath "$2")
[ -f "$kdir/Makefile" ] || die "no kernel build directory at $kdir"


rsync -a --delete --delete-excluded --exclude .git --exclude /build --exclude '*.o' \
	--exclude '*.ko' --exclude '*.cmd' --exclude '*.mod*' \
	--exclude build.log "$MSTAT_TOP/" "$out/"
if ! { make -C "$kdir" M="$out" W=1 modules &&
	make -C "$kdir" M="$out/tests" W=1 \
		KBUILD_EXTRA_SYMBOLS="$out/Module.symvers" modules; } \
	>"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	die "build against $kdir failed"
fi
if grep -E 'warning:|error:' "$out/build.log" >&2; then
	die "build against $kdir printed warnings"
fi
# shellcheck disable=SC2012 # names, for the message
log "built $(cd "$out" && ls ./*.ko tests/*/*.ko 2>/dev/null | tr '\n' ' ')against $kdir"
