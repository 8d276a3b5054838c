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
passed=0 failed=0 kb_debug=

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
# A KO of the form --file=SRC:DEST, --smp=N or --tcg=MODE is that option
# of scripts/guest.sh.
guest_test() {
	local name=$1 kernel=$2 script=$3 ko args=()
	shift 3
	for ko; do
		case $ko in
		--file=*)	args+=(--file "${ko#--file=}") ;;
		--smp=*)	args+=(--smp "${ko#--smp=}") ;;
		--tcg=*)	args+=(--tcg "${ko#--tcg=}") ;;
		*)		args+=(--ko "$ko") ;;
		esac
	done
	t "$name" scripts/guest.sh --kernel "$kernel" --script "$script" \
		--log "$logs/$name.console" "${args[@]}"
	t "$name-console-clean" scripts/console-check.sh "$logs/$name.console"
}

# guest_checks NAME: count the "ok"/"not ok" lines a guest script printed
# on build/logs/NAME.console as tests "NAME: CHECK", and check that their
# number is the one it announced ("# checks=N failed=N"), since kernel
# messages on the console may garble a line.
guest_checks() {
	local name=$1 con=$logs/$1.console want got
	[ -f "$con" ] || return
	tr -d '\r' <"$con" | sed -n -E "s/^(not )?ok /&$name: /p" \
		>"$logs/$name.checks"
	count_lines "$logs/$name.checks"
	want=$(tr -d '\r' <"$con" |
	       sed -n 's/^# checks=\([0-9]*\) failed=[0-9]*$/\1/p' | tail -n 1)
	got=$(wc -l <"$logs/$name.checks")
	if [ -n "$want" ] && [ "$want" -eq "$got" ]; then
		pass "$name-checks-reported ($got)"
	else
		fail "$name-checks-reported: $got lines of ${want:-?} checks, console: build/logs/$name.console"
	fi
}

# build_tools: the static checker and helpers the guests run.
build_tools() {
	local tool
	mkdir -p build/tools || return
	for tool in mstat-check runas write1; do
		gcc -static -O2 -Wall -Wextra -Werror \
			-o "build/tools/$tool" "tools/mstat-check/$tool.c" ||
			return
	done
	gcc -static -O2 -Wall -Wextra -Werror -o build/tools/mstat-fuzz \
		tools/fuzz/mstat-fuzz.c
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

# 4. The /proc/mstat checker and the guests' helpers, static; the
# checker must catch corrupted samples.
t build-tools build_tools
t mstat-check-selftest build/tools/mstat-check --selftest

# 5. The stock kernels: load, read /proc/mstat, unload, clean console;
# then the module test: one test per check of scripts/guest/module.sh.
[ -f build/6.1/mstat.ko ] &&
	guest_test guest-6.1-smoke "$K61_VMLINUZ" scripts/guest/smoke.sh \
		build/6.1/mstat.ko
[ -f build/6.12/mstat.ko ] &&
	guest_test guest-6.12-smoke "$K612_VMLINUZ" scripts/guest/smoke.sh \
		build/6.12/mstat.ko
tools=()
for tool in mstat-check runas write1; do
	tools+=("--file=build/tools/$tool:/mstat/$tool")
done
for v in 6.1 6.12; do
	vmlinuz=K${v/./}_VMLINUZ
	[ -f "build/$v/mstat.ko" ] && [ -x build/tools/write1 ] || continue
	guest_test "guest-$v-module" "${!vmlinuz}" scripts/guest/module.sh \
		"build/$v/mstat.ko" "${tools[@]}"
	guest_checks "guest-$v-module"
done

# kunit_run NAME KERNEL_BUILD_DIR: build against a KUnit kernel, run the
# KUnit suites (one test per case, as kunit.py parsed them) and the kernel
# torture (one test per run) in its guests.
kunit_run() {
	local name=$1 kb=$2 b=build/$1 suite np nf ktap_rc
	t "build-$name-W1" scripts/build.sh "$kb" "$b"
	[ -f "$b/mstat.ko" ] || return
	guest_test "guest-$name-kunit" "$kb/arch/x86/boot/bzImage" \
		scripts/guest/kunit.sh "$b/mstat.ko" "$b"/kunit/*_kunit.ko
	scripts/ktap.sh "$logs/guest-$name-kunit.console" "$logs/ktap-$name" \
		>"$logs/ktap-$name.log" 2>&1
	ktap_rc=$?
	sed -n 's/^KTAP \([^ ]*\) passed=\([0-9]*\) failed=\([0-9]*\).*/\1 \2 \3/p' \
		"$logs/ktap-$name.log" >"$logs/ktap-$name.summary"
	while read -r suite np nf; do
		passed=$((passed + np))
		failed=$((failed + nf))
		echo "KUNIT: $name $suite passed=$np failed=$nf"
	done <"$logs/ktap-$name.summary"
	if [ "$ktap_rc" -eq 0 ] && [ -s "$logs/ktap-$name.summary" ]; then
		pass "kunit-parse-$name"
	else
		fail "kunit-parse-$name, log: build/logs/ktap-$name.log"
		tail -n 30 "$logs/ktap-$name.log" | sed 's/^/    /'
	fi
	# Four vCPUs on multi-threaded TCG: the torture toggles no
	# tracepoint under load (see scripts/guest.sh).
	guest_test "guest-$name-torture" "$kb/arch/x86/boot/bzImage" \
		scripts/guest/torture.sh "$b/mstat.ko" \
		"$b/tools/torture/mstat_torture.ko" --smp=4 --tcg=multi
	guest_checks "guest-$name-torture"
}

# 6. The debug test kernel (KUnit, KASAN, lockdep, atomic-sleep and
# preempt checks, kmemleak), then a KCSAN kernel.
for cfg in kunit/.kunitconfig:debug kunit/kcsan.kunitconfig:kcsan; do
	if kb=$(scripts/testkernel.sh "${cfg%%:*}" 2>"$logs/testkernel-${cfg#*:}.log"); then
		pass "testkernel-${cfg#*:}"
		[ "${cfg#*:}" = debug ] && kb_debug=$kb
		kunit_run "${cfg#*:}" "$kb"
	else
		cat "$logs/testkernel-${cfg#*:}.log"
		fail "testkernel-${cfg#*:}"
	fi
done

# 7. Fuzzing every debugfs control (1e5 inputs) and read-only parameters;
# load/unload cycles under load; on the stock 6.12 kernel.
if [ -f build/6.12/mstat.ko ]; then
	guest_test guest-6.12-fuzz "$K612_VMLINUZ" scripts/guest/fuzz.sh \
		build/6.12/mstat.ko --file=build/tools/mstat-fuzz:/mstat/mstat-fuzz
	guest_checks guest-6.12-fuzz
	guest_test guest-6.12-cycles "$K612_VMLINUZ" scripts/guest/cycles.sh \
		build/6.12/mstat.ko --file=build/tools/mstat-check:/mstat/mstat-check
	guest_checks guest-6.12-cycles
fi

# 8. The ecosystem: the mstat tool (parsers, promtool, protoc, in a
# guest), the kernel's own style checks, DKMS builds.
make -C tools/mstat test >"$logs/tools-mstat.log" 2>&1
count_lines "$logs/tools-mstat.log"
scripts/lint.sh "$KSRC" "$K612_KDIR" ${kb_debug:+"$kb_debug"} \
	>"$logs/lint.log" 2>&1
count_lines "$logs/lint.log"
scripts/dkms-test.sh "$K61_REL" "$K612_REL" >"$logs/dkms.log" 2>&1
count_lines "$logs/dkms.log"

finish
