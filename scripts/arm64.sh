#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mstat on arm64: cross-built on this host, run in qemu-system-aarch64
# guests (virt machine, -cpu max, TCG). One line per test, every name
# prefixed "arm64-" ("ok NAME", "not ok NAME: WHY", "ok NAME # SKIP WHY");
# exits non-zero if a test failed. scripts/check.sh relays its lines.
#
#   scripts/arm64.sh
#
# Two kernels: the arm64 debug test kernel (kunit/arm64.kunitconfig:
# KUnit, KCSAN with its strict and weak-memory modes, DEBUG_ATOMIC_SLEEP,
# DEBUG_PREEMPT; the x86 debug kernel has KASAN, lockdep and kmemleak,
# and make soak boots arm64 under KASAN),
# cross-built from linux-source-6.12 by scripts/testkernel.sh and cached
# like the x86 ones; and Debian's stock arm64 kernel of the 6.12 release
# the x86 tests use, with its headers (scripts/setup.sh). Against each,
# W=1 builds with no warning (build/arm64-debug, build/arm64-stock). Then
# the guests, two at a time:
#   arm64-debug-kunit         the KUnit suites, parsed by kunit.py
#   arm64-debug-kunit-busted  mstat_core's cases with a reader that does
#                             not wait: the hunters must fail, cleanly
#   arm64-debug-torture       the kernel torture on 4 vCPUs in every
#                             reader mode, with CPU hotplug, and its
#                             busted modes, which must fail
#   arm64-stock-torture       the same on Debian's kernel
#   arm64-stock-module        the module test (scripts/guest/module.sh)
#                             with the invariant checker `mstat check`,
#                             the tool cross-built static
#                             (build/arm64-tools)
# each with a clean console. QEMU's TCG runs the guest's memory accesses
# with the host's (x86, strong) ordering: these runs prove that mstat
# builds, loads, counts and passes its tests on arm64, not its memory
# ordering, which the litmus tests of mstat_core/litmus/ prove (KCSAN's
# weak-memory mode reports some races a missing barrier would make, on
# either arch).
#
# MSTAT_ARM64_TESTKERNEL=0 (make check's, whose budget has no room for
# the test kernel: make soak boots it) leaves out the test kernel and
# its arm64-debug-* guests.
#
# Uses the set-up environment if the caller exported it (check.sh does),
# else runs scripts/setup.sh. Logs: build/logs/arm64/.
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP" || exit 1
MSTAT_LOGS=$MSTAT_TOP/build/logs/arm64
logs=$MSTAT_LOGS
rm -rf "$logs"
mkdir -p "$logs"

# 1. Set-up: the cross compiler, qemu-system-aarch64, Debian's arm64
# kernel, headers, busybox and zlib.
if [ -z "${KSRC:-}" ] && ! mstat_setup_env; then
	not_ok "arm64-setup, log: $mstat_setup_log"
	finish
fi
if [ -z "${KA64_REL:-}" ]; then
	not_ok "arm64-setup: ${KA64_ERROR:-no KA64_* from scripts/setup.sh}"
	finish
fi
ok "arm64-setup ($KA64_REL)"

# 2. The debug test kernel (cached; its build time is in its log).
start=$SECONDS
kb=''
if [ "${MSTAT_ARM64_TESTKERNEL:-1}" = 0 ]; then
	echo "# arm64-testkernel-debug: left out (MSTAT_ARM64_TESTKERNEL=0; make soak boots it)"
elif kb=$(scripts/testkernel.sh --arch arm64 kunit/arm64.kunitconfig \
	2>"$logs/testkernel-debug.log"); then
	ok "arm64-testkernel-debug ($((SECONDS - start)) s)"
	sed -n 's/^\[mstat\] \(.*built in .*\)/# \1/p' "$logs/testkernel-debug.log"
else
	not_ok "arm64-testkernel-debug, log: build/logs/arm64/testkernel-debug.log"
	kb=''
fi

# 3. W=1 builds, no warnings allowed; the guests' static programs.
# Debian's arm64 6.12 is also the kernel matrix's arm64-6.12: make check
# passes its W=1 build (build-arm64-6.12-W1, passed, against the same
# headers) as MSTAT_ARM64_STOCK, and the guests use it rather than
# build it twice (48 s of CPU).
stock=build/arm64-stock
if [ -n "${MSTAT_ARM64_STOCK:-}" ] && [ -f "$MSTAT_ARM64_STOCK/mstat.ko" ]; then
	stock=$MSTAT_ARM64_STOCK
	echo "# arm64-stock: make check's W=1 build of the same headers, $stock"
else
	t arm64-build-stock-W1 scripts/build.sh "$KA64_KDIR" "$stock"
fi
[ -n "$kb" ] &&
	t arm64-build-debug-W1 scripts/build.sh --arch arm64 "$kb" build/arm64-debug
t arm64-build-tools mstat_build_tools --arch arm64 mstat runas write1 evpoll truth caches

# 4. Guests. KUnit on multi-threaded TCG, for true parallelism (the
# suites toggle no tracepoint under load, see guest.sh). The torture on
# single-threaded TCG, where it is seen to catch its busted readers: it
# widens a write section now and then with a cpu_relax() loop, so that a
# reader meets it open; arm64's cpu_relax() is YIELD, which QEMU's
# multi-threaded TCG translates as a no-op, so the sections stay too
# short to be met (x86's PAUSE leaves the vCPU's loop in either mode).
# Measured, debug kernel, 4 vCPUs, 5 s runs: multi-threaded,
# busted=1 caught 8 of 8 times in rcu mode with 2-175 violations in
# ~4,500 rotations, and 0 of 8 times in ipi mode; single-threaded, 6 of 6
# times in each mode, violations on 97% of the rotations or more.
if [ -n "$kb" ] && [ -f build/arm64-debug/mstat.ko ]; then
	img=$kb/arch/arm64/boot/Image.gz
	d=build/arm64-debug
	mstat_suite_guests arm64-debug "$img" "$d" --arch=arm64
	guest arm64-debug-kunit-busted "$img" scripts/guest/kunit-busted.sh \
		"$d/mstat.ko" "$d/kunit/mstat_core_kunit.ko" \
		--arch=arm64 --tcg=multi --timeout=300
fi
if [ -f "$stock/mstat.ko" ] && [ -x build/arm64-tools/mstat ]; then
	helpers=()
	for tool in mstat runas write1 evpoll; do
		helpers+=("--file=build/arm64-tools/$tool:/mstat/$tool")
	done
	# The torture as on the test kernel: single-threaded TCG, 10 s.
	guest arm64-stock-torture "$KA64_VMLINUZ" scripts/guest/torture.sh \
		"$stock"/mstat.ko "$stock"/tests/torture/mstat_torture.ko \
		--smp=4 --append=TORTURE_SECONDS=10 --arch=arm64 --timeout=600
	guest arm64-stock-module "$KA64_VMLINUZ" scripts/guest/module.sh \
		"$stock"/mstat.ko "${helpers[@]}" \
		--arch=arm64 --timeout=600
	# The ground truth and the per-cache test in one boot.
	mstat_guests_parts arm64-stock-counts "$KA64_VMLINUZ" 'truth caches' \
		"$stock"/mstat.ko "$stock"/tests/truth/mstat_truth.ko \
		"$stock"/tests/caches/mstat_cachetest.ko \
		--file=build/arm64-tools/truth:/mstat/truth \
		--file=build/arm64-tools/caches:/mstat/caches \
		--file=build/arm64-tools/mstat:/mstat/mstat \
		'--append=CACHES_ARGS="-a"' --arch=arm64 --timeout=1200
fi

# The kernel matrix's other arm64 kernels (5.10, 7.3), built by make
# check into build/ID (scripts/matrix.sh's KM_* in the environment): the
# ground truth, the per-cache test, the survival test, and on 7.3 the load
# parameters' limits (the module's own code and the kernel's
# moduleparam: one arm64 kernel, the newest; x86 judges them on 5.10,
# 6.12 and 7.3). 5.10 has no alloc_pages_bulk().
if [ -x build/arm64-tools/mstat ]; then
	for id in ${KM_IDS:-}; do
		case $id in arm64-6.12) continue ;; arm64-*) ;; *) continue ;; esac
		img=$(mstat_km "$id" VMLINUZ) d=build/$id
		if [ ! -f "$d/mstat.ko" ] || [ ! -f "$img" ]; then
			not_ok "$id-guests: no build ($d/mstat.ko) or image ($img)"
			continue
		fi
		on='alloc_pages_bulk kmem_cache_alloc_bulk kmem_cache_free_bulk'
		[ "$id" = arm64-5.10 ] &&
			on='kmem_cache_alloc_bulk kmem_cache_free_bulk kmem_cache_free'
		parts='truth caches survive'
		[ "$id" != arm64-7.3 ] || parts+=' params'
		# All in one boot.
		mstat_guests_parts "$id-counts" "$img" "$parts" "$d/mstat.ko" \
			"$d/tests/truth/mstat_truth.ko" \
			"$d/tests/caches/mstat_cachetest.ko" \
			--file=build/arm64-tools/truth:/mstat/truth \
			--file=build/arm64-tools/caches:/mstat/caches \
			--file=build/arm64-tools/mstat:/mstat/mstat \
			'--append=CACHES_ARGS="-a"' "--append=SURVIVE_ON=\"$on\"" \
			--arch=arm64 --timeout=2400
	done
fi

collect_guests
echo "# arm64 total $SECONDS s (guests under TCG emulation)"
finish
