#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build mstat.ko, then the test and bench modules of tests/ and, on a
# KUnit kernel, the KUnit suites of kunit/, with W=1 against one kernel,
# in a copy of the tree of its own so that builds for several kernels do
# not mix objects.
#
#   scripts/build.sh [--arch arm64] KDIR OUTDIR
#
# Fails if the build fails or prints a warning. The log is OUTDIR/build.log.
#
# --arch arm64 cross-builds (ARCH=arm64, CROSS_COMPILE from the
# environment, default aarch64-linux-gnu-) against an arm64 kernel tree,
# such as scripts/testkernel.sh --arch arm64 gives. Debian's arm64 headers
# need no option: their Makefile sets both itself.
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cross=()
if [ "${1:-}" = --arch ]; then
	[ "${2:-}" = arm64 ] || die "--arch: only arm64 (x86_64 is the default)"
	cross=(ARCH=arm64 CROSS_COMPILE="${CROSS_COMPILE:-aarch64-linux-gnu-}")
	shift 2
fi
[ $# -eq 2 ] || die "usage: $0 [--arch arm64] KDIR OUTDIR"
kdir=$1
mkdir -p "$2"
out=$(realpath "$2")
[ -f "$kdir/Makefile" ] || die "no kernel build directory at $kdir"
# A tree of the other arch would fail later, and less clearly.
if [ ${#cross[@]} -gt 0 ] && ! grep -qx CONFIG_ARM64=y "$kdir/.config"; then
	die "--arch arm64: $kdir is not an arm64 kernel tree"
fi

rsync -a --delete --delete-excluded --exclude .git --exclude /build --exclude '*.o' \
	--exclude '*.ko' --exclude '*.cmd' --exclude '*.mod*' \
	--exclude build.log "$MSTAT_TOP/" "$out/"
# kbuild ARGS...: one W=1 modules build against $kdir. kunit/ builds
# nothing on a kernel without KUnit.
kbuild() { make -C "$kdir" ${cross[@]+"${cross[@]}"} W=1 "$@" modules; }
syms=KBUILD_EXTRA_SYMBOLS=$out/Module.symvers
if ! { kbuild M="$out" && kbuild M="$out/tests" "$syms" &&
	kbuild M="$out/kunit" "$syms"; } >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	die "build against $kdir failed"
fi
if grep -E 'warning:|error:' "$out/build.log" >&2; then
	die "build against $kdir printed warnings"
fi
# shellcheck disable=SC2012 # names, for the message
log "built $(cd "$out" && ls ./*.ko tests/*/*.ko kunit/*.ko 2>/dev/null | tr '\n' ' ')against $kdir"
