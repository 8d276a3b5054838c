#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make soak: the test kernels make check does not boot, each sanitizer on
# the other arch. make check keeps one kernel of each arch: x86's debug
# kernel (KASAN, lockdep, kmemleak, fault injection: kunit/.kunitconfig)
# and arm64's (KCSAN, lockdep, kmemleak: kunit/arm64.kunitconfig). Here:
#   soak-kcsan-*        the x86 KCSAN kernel (kunit/kcsan.kunitconfig): a
#                       W=1 build, the KUnit suites, the kernel torture on
#                       4 vCPUs (multi-threaded TCG)
#   soak-arm64-kasan-*  the arm64 debug kernel of kunit/.kunitconfig
#                       (KASAN): a W=1 build, the KUnit suites, the
#                       torture (single-threaded TCG, as scripts/arm64.sh)
# Both were in make check until its cold run had to fit in 45 minutes;
# each test kernel takes 12 to 16 minutes of CPU to build cold here
# (docs/TESTING.md, "Where make check's time goes"). Lines as make
# check's, then "N passed, N failed". Guests are TCG-emulated.
#
#   scripts/soak.sh
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP" || exit 1
MSTAT_LOGS=$MSTAT_TOP/build/logs/soak
logs=$MSTAT_LOGS
rm -rf "$logs"
mkdir -p "$logs"

if ! mstat_setup_env; then
	not_ok "soak-setup, log: $mstat_setup_log"
	finish
fi
t build-tools mstat_build_tools
mstat_queue_start

# kernel ID ARGS...: test kernel ID (scripts/testkernel.sh ARGS); its
# directory in kb, empty if the build failed.
kernel() {
	local id=$1 start=$SECONDS
	shift
	if kb=$(scripts/testkernel.sh "$@" 2>"$logs/testkernel-$id.log"); then
		ok "soak-testkernel-$id ($((SECONDS - start)) s)"
	else
		not_ok "soak-testkernel-$id, log: build/logs/soak/testkernel-$id.log"
		kb=''
	fi
}

kernel kcsan kunit/kcsan.kunitconfig
if [ -n "$kb" ] &&
   t soak-kcsan-build-W1 scripts/build.sh "$kb" build/soak-kcsan; then
	mstat_suite_guests soak-kcsan "$kb/arch/x86/boot/bzImage" \
		build/soak-kcsan
fi

kernel arm64-kasan --arch arm64 kunit/.kunitconfig
if [ -n "$kb" ] &&
   t soak-arm64-kasan-build-W1 scripts/build.sh --arch arm64 "$kb" \
	build/soak-arm64-kasan; then
	mstat_suite_guests soak-arm64-kasan "$kb/arch/arm64/boot/Image.gz" \
		build/soak-arm64-kasan --arch=arm64
fi

collect_guests
summary
