#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every test of mstat, from a fresh Debian machine: installs what it
# lacks, builds, runs the userspace torture, boots guests. Ends with the
# line "N passed, N failed"; exits non-zero if anything failed.
#
#   scripts/check.sh            (make check)
#
# Logs: build/logs/. The test kernel is cached in $MSTAT_CACHE.
set -uo pipefail

. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP" || exit 1
logs=$MSTAT_TOP/build/logs
mkdir -p "$logs"
passed=0 failed=0

pass() { passed=$((passed + 1)); printf 'PASS: %s\n' "$1"; }
fail() { failed=$((failed + 1)); printf 'FAIL: %s\n' "$1"; }

# t NAME CMD...: one test, its output in build/logs/NAME.log.
t() {
	local name=$1 start=$SECONDS
	shift
	if "$@" >"$logs/$name.log" 2>&1; then
		pass "$name ($((SECONDS - start)) s)"
	else
		fail "$name ($((SECONDS - start)) s), log: build/logs/$name.log"
		tail -n 15 "$logs/$name.log" | sed 's/^/    /'
	fi
}

# count_lines LOG: count "ok"/"not ok" lines of a sub-suite as tests.
count_lines() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok "*)		pass "${line#ok }" ;;
		"not ok "*)	fail "${line#not ok }" ;;
		esac
	done <"$1"
}

finish() {
	echo "total time $SECONDS s"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

# guest_test NAME KERNEL SCRIPT KO...: boot, run, and check the console.
guest_test() {
	local name=$1 kernel=$2 script=$3 ko args=()
	shift 3
	for ko; do args+=(--ko "$ko"); done
	t "$name" scripts/guest.sh --kernel "$kernel" --script "$script" \
		--log "$logs/$name.console" "${args[@]}"
	t "$name-console-clean" scripts/console-check.sh "$logs/$name.console"
}

# 1. Set-up: packages, kernel images and headers, the kernel source.
if ! scripts/setup.sh >"$logs/setup.env" 2>"$logs/setup.log"; then
	cat "$logs/setup.log"
	fail setup
	finish
fi
pass setup
# shellcheck disable=SC1091
. "$logs/setup.env"
export KSRC

# 2. Builds with W=1 against the stock kernels' headers.
t build-6.1-W1 scripts/build.sh "$K61_KDIR" build/6.1
t build-6.12-W1 scripts/build.sh "$K612_KDIR" build/6.12

# 3. The core in userspace: torture under TSan and ASan+UBSan, broken core.
make -C tools/testing check >"$logs/userspace.log" 2>&1
count_lines "$logs/userspace.log"

# 4. The stock kernels: load, read /proc/mstat, unload, clean console.
[ -f build/6.1/mstat.ko ] &&
	guest_test guest-6.1-smoke "$K61_VMLINUZ" scripts/guest/smoke.sh \
		build/6.1/mstat.ko
[ -f build/6.12/mstat.ko ] &&
	guest_test guest-6.12-smoke "$K612_VMLINUZ" scripts/guest/smoke.sh \
		build/6.12/mstat.ko

# 5. The debug test kernel (KUnit, KASAN, lockdep...): the KUnit suites.
if kb=$(scripts/testkernel.sh 2>"$logs/testkernel.log"); then
	pass testkernel
	t build-debug-W1 scripts/build.sh "$kb" build/debug
	guest_test guest-debug-kunit "$kb/arch/x86/boot/bzImage" \
		scripts/guest/kunit.sh build/debug/mstat.ko \
		build/debug/kunit/*_kunit.ko
	scripts/ktap.sh "$logs/guest-debug-kunit.console" "$logs/ktap" \
		>"$logs/ktap.log" 2>&1
	ktap_rc=$?
	# One test per KUnit case, as kunit.py parsed them.
	sed -n 's/^KTAP \([^ ]*\) passed=\([0-9]*\) failed=\([0-9]*\).*/\1 \2 \3/p' \
		"$logs/ktap.log" | while read -r suite np nf; do
		echo "$suite $np $nf"
	done >"$logs/ktap.summary"
	while read -r suite np nf; do
		passed=$((passed + np))
		failed=$((failed + nf))
		echo "KUNIT: $suite passed=$np failed=$nf"
	done <"$logs/ktap.summary"
	if [ "$ktap_rc" -eq 0 ] && [ -s "$logs/ktap.summary" ]; then
		pass kunit-parse
	else
		fail "kunit-parse, log: build/logs/ktap.log"
		tail -n 30 "$logs/ktap.log" | sed 's/^/    /'
	fi
else
	cat "$logs/testkernel.log"
	fail testkernel
fi

finish
