#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build mstat.ko, then the test and bench modules of tests/ and, on a
# KUnit kernel, the KUnit suites of kunit/, with W=1 against one kernel,
# in a copy of the tree of its own so that builds for several kernels do
# not mix objects.
#
#   scripts/build.sh [--root ROOT] [--arch arm64] [--module]
#	[--tests "DIR..."] KDIR OUTDIR
#
# Fails if the build fails or prints a warning. The log is OUTDIR/build.log.
#
# --module builds mstat.ko alone, for a variant whose guests take the
# test modules of the plain build (make check's 7.3-wrongproto).
# --tests "truth caches" builds mstat.ko and only the test modules of
# those directories of tests/ (no KUnit suites), for a kernel whose
# guests load no other (make check's matrix: each test module is built
# W=1 against 6.12 and the debug kernel, and by make soak and make
# canary where they load it).
#
# --arch arm64 cross-builds (ARCH=arm64, CROSS_COMPILE from the
# environment, default aarch64-linux-gnu-) against an arm64 kernel tree,
# such as scripts/testkernel.sh --arch arm64 gives. Debian's arm64 headers
# need no option: their Makefile sets both itself.
#
# --root ROOT builds in that Debian root (scripts/matrix.sh makes them:
# the suite of the kernel, its compiler, its headers), KDIR as the root
# sees it (/usr/src/linux-headers-REL; ROOT/... is taken too): the tree is
# copied to ROOT/build/, make runs there under chroot, with a clean
# environment but for KCFLAGS, and what it made is copied to OUTDIR. Its
# /proc (objtool reads it) is mounted in a mount namespace of the build's
# own (mstat_in_root_ns), so that no mount outlives the build.
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cross=() root='' only='' tests=''
while [ $# -gt 0 ]; do
	case $1 in
	--module) only=1
		shift ;;
	--tests) [[ ${2:-} =~ ^[a-z0-9]+( [a-z0-9]+)*$ ]] ||
			die "--tests: directories of tests/, as \"truth caches\""
		for t in $2; do
			[ -d "$MSTAT_TOP/tests/$t" ] || die "--tests: no tests/$t"
		done
		tests=$2
		shift 2 ;;
	--arch)	[ "${2:-}" = arm64 ] ||
			die "--arch: only arm64 (x86_64 is the default)"
		cross=(ARCH=arm64 CROSS_COMPILE="${CROSS_COMPILE:-aarch64-linux-gnu-}")
		shift 2 ;;
	--root)	[ -d "${2:-}/usr/bin" ] || die "--root: no Debian root at ${2:-}"
		root=$(realpath "$2")
		shift 2 ;;
	*)	break ;;
	esac
done
[ $# -eq 2 ] || die "usage: $0 [--root ROOT] [--arch arm64] [--module] [--tests \"DIR...\"] KDIR OUTDIR"
[ -z "$only" ] || [ -z "$tests" ] || die "--module and --tests: one or the other"
kdir=$1
if [ -n "$root" ] && [[ $kdir == "$root"/* ]]; then
	kdir=/${kdir#"$root"/}
fi
mkdir -p "$2"
out=$(realpath "$2")
[ -f "$root$kdir/Makefile" ] || die "no kernel build directory at $root$kdir"
# A tree of the other arch would fail later, and less clearly.
if [ ${#cross[@]} -gt 0 ] && ! grep -qx CONFIG_ARM64=y "$root$kdir/.config"; then
	die "--arch arm64: $root$kdir is not an arm64 kernel tree"
fi

# Where make runs: OUTDIR, or its copy in the root.
src=$out
if [ -n "$root" ]; then
	mkdir -p "$root/build"
	src=$(mktemp -d "$root/build/mstat.XXXXXX")
	trap 'rm -rf "$src"' EXIT
fi
rsync -a --delete --delete-excluded --exclude .git --exclude /build --exclude '*.o' \
	--exclude '*.ko' --exclude '*.cmd' --exclude '*.mod*' \
	--exclude build.log "$MSTAT_TOP/" "$src/"
m=${src#"$root"}
# kbuild ARGS...: one W=1 modules build against $kdir, lean
# (mstat_kbuild_lean). kunit/ builds nothing on a kernel without KUnit.
kbuild() {
	local cmd=(make -j"$(nproc)" -C "$kdir" ${cross[@]+"${cross[@]}"} W=1
		   "${mstat_kbuild_lean[@]}" "$@" modules)
	if [ -z "$root" ]; then
		"${cmd[@]}"
	else
		[ -z "${KCFLAGS:-}" ] || cmd+=(KCFLAGS="$KCFLAGS")
		mstat_in_root_ns "$root" "$(printf '%q ' "${cmd[@]}")"
	fi
}
syms=KBUILD_EXTRA_SYMBOLS=$m/Module.symvers
rc=0
{
	kbuild M="$m" &&
	if [ -n "$tests" ]; then
		kbuild M="$m/tests" "$syms" MSTAT_TESTS="$tests"
	elif [ -z "$only" ]; then
		kbuild M="$m/tests" "$syms" && kbuild M="$m/kunit" "$syms"
	fi
} >"$out/build.log" 2>&1 || rc=$?
[ "$src" = "$out" ] ||
	rsync -a --delete --exclude build.log "$src/" "$out/"
if [ "$rc" -ne 0 ]; then
	tail -n 30 "$out/build.log" >&2
	die "build against $root$kdir failed"
fi
if grep -E 'warning:|error:' "$out/build.log" >&2; then
	die "build against $root$kdir printed warnings"
fi
# shellcheck disable=SC2012 # names, for the message
log "built $(cd "$out" && ls ./*.ko tests/*/*.ko kunit/*.ko 2>/dev/null | tr '\n' ' ')against $root$kdir"
