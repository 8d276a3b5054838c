#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The console check's own test (scripts/console-check.sh): consoles made
# of the reports it must fail on and of those it lets through (a KCSAN
# report of the kernel's own code, a soft lockup with no module loaded,
# kasan_probe's KASAN reports where the guest allows them), each shaped
# as the kernel prints it (the KASAN ones as in the debug kernel's busted
# KUnit guest). One line per check ("ok NAME", "not ok NAME").
#
#   scripts/console-check-test.sh
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

boot='[    0.000000] Linux version 6.12.117 (gcc-12) #1 SMP
[    0.010000] kasan: KernelAddressSanitizer initialized (generic)
[    0.020000] Command line: console=ttyS0 kasan_multi_shot
'
rule='[    5.077468] =================================================================='

# kcsan TITLE: a KCSAN report, "data-race in TITLE".
kcsan() {
	printf '%s\n' "$rule" \
		"[    6.000001] BUG: KCSAN: data-race in $1" \
		'[    6.000002] ' \
		'[    6.000003] write to 0xffff88800766a0c8 of 8 bytes by interrupt on cpu 1:' \
		'[    6.000004]  hrtimer_interrupt+0x1b2/0x3c0' \
		'[    6.000005] Reported by Kernel Concurrency Sanitizer on:' \
		"$rule"
}

# lockup MODULES: a soft lockup, its "Modules linked in:" MODULES.
lockup() {
	printf '%s\n' \
		'[   48.100000] watchdog: BUG: soft lockup - CPU#0 stuck for 26s! [swapper/0:1]' \
		"[   48.100001] Modules linked in:${1:+ $1}" \
		'[   48.100002] CPU: 0 UID: 0 PID: 1 Comm: swapper/0 Not tainted 6.12.117 #1' \
		'[   48.100003] Call Trace:' \
		'[   48.100004]  <TASK>' \
		'[   48.100005]  jent_entropy_init+0x40/0x90' \
		'[   48.100006]  </TASK>'
}

# kasan FUNCTION ACCESS [CALLER]: a KASAN report of an access in
# FUNCTION, CALLER on the stack below it.
kasan() {
	printf '%s\n' "$rule" \
		"[    5.062942] BUG: KASAN: slab-out-of-bounds in $1+0x3d/0x50" \
		"[    5.063732] $2 of size 1 at addr ffff888002669907 by task insmod/93" \
		'[    5.064454] Call Trace:' \
		'[    5.064455]  <TASK>' \
		'[    5.064456]  kasan_report+0xc7/0x100' \
		"[    5.064457]  ${3:-$1}+0x3d/0x50 [mstat_truth]" \
		'[    5.064458]  do_one_initcall+0x91/0x2e0' \
		'[    5.064459]  </TASK>' \
		"$rule"
}

allow='# console-check allows: kasan-probe'

# verdict NAME WANT CONSOLE-TEXT: the check's exit status on a console of
# the boot lines and CONSOLE-TEXT must be WANT (0: clean, 1: a splat).
verdict() {
	local name=$1 want=$2 rc=0
	printf '%s%s\n' "$boot" "$3" >"$tmp/$name.console"
	"$MSTAT_TOP/scripts/console-check.sh" "$tmp/$name.console" \
		>"$tmp/$name.out" 2>&1 || rc=$?
	if [ "$rc" -eq "$want" ]; then
		ok "console-check-$name (exit $rc)"
	else
		not_ok "console-check-$name: exit $rc, not $want"
		sed 's/^/#   /' "$tmp/$name.out"
	fi
}

verdict clean 0 '[    5.000000] mstat: loaded, format 1.8'
verdict warning 1 '[    5.000000] WARNING: CPU: 0 PID: 93 at mm/slub.c:4000 kfree+0x1/0x2'
verdict kcsan-kernel 0 "$(kcsan 'hrtimer_interrupt / hrtimer_start_range_ns')"
verdict kcsan-mstat 1 "$(kcsan 'mstat_flip / mstat_record_alloc')"
verdict lockup-no-module 0 "$(lockup '')"
verdict lockup-module 1 "$(lockup 'mstat(O)')"
verdict kasan-probe-allowed 0 "$allow
$(kasan truth_kasan_read Read)
$(kasan vsnprintf Write truth_kasan_vsprintf)"
verdict kasan-probe-unasked 1 "$(kasan truth_kasan_read Read)"
verdict kasan-other-allowed 1 "$allow
$(kasan mstat_snapshot_fold Read)"
# What follows a dropped report's closing line is judged.
verdict after-dropped 1 "$allow
$(kcsan 'hrtimer_interrupt / hrtimer_start_range_ns')
$(kasan truth_kasan_read Read)
$(lockup '')
[    9.000000] BUG: unable to handle page fault for address: 0000000000000008"
# A report that never closes is dropped for its length alone.
verdict unclosed 1 "$allow
$(kasan truth_kasan_read Read | head -n -1)
$(for i in $(seq 130); do echo "[    7.$i] filler $i"; done)
[    9.000000] Oops: general protection fault, probably for non-canonical address"

if grep -q 'not counted, a KCSAN report of the kernel' "$tmp/kcsan-kernel.out"; then
	ok console-check-dropped-said
else
	not_ok "console-check-dropped-said: no line on what was not counted"
fi
