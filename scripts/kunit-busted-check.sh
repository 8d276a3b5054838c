#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reads the console of scripts/guest/kunit-busted.sh (mstat_core's KUnit
# cases with a reader that does not wait) and prints "ok"/"not ok" lines:
# the cases that hunt torn snapshots must fail, every other case must
# pass, the failing cases must leave the module unloadable (no writer
# left running), and a bad busted= must be refused; on a kernel with
# KASAN, KASAN must have reported both accesses of mstat_truth's
# kasan_probe (scripts/guest/kunit-busted.sh). Where the guest was given
# the broken build, its mstat_profile suite must fail the cases that
# catch MSTAT_MUT_FORGET_ALL and MSTAT_MUT_PAGE_SYMBOLS
# (tests/mstat_mutants.h) and pass every other, and unload. Exits non-zero if a line is "not ok".
#
#   scripts/kunit-busted-check.sh CONSOLE
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

con=$1
cases=$(tr -d '\r' <"$con" | sed 's/^\[[ 0-9.]*\] //' |
	sed -n '/busted=1: cases/,/^not ok [0-9]* mstat_core$/p' |
	sed -n 's/^    \(not ok\|ok\) [0-9]* \([a-z_]*\)$/\1 \2/p')

expect() {	# expect NAME WANT: WANT is "ok" or "not ok"
	local got
	got=$(sed -n "s/^\(not ok\|ok\) $1\$/\1/p" <<<"$cases")
	if [ "$got" = "$2" ]; then
		ok "kunit-busted-$1-$(tr ' ' - <<<"$2")"
	else
		not_ok "kunit-busted-$1: ${got:-no result}, want $2"
	fi
}

# expect_catchers NAME "CASE...": each CASE of $cases fails, every other
# passes, and at least one other ran (else "not ok kunit-busted-NAME").
expect_catchers() {
	local c n=0
	for c in $2; do
		expect "$c" "not ok"
	done
	while read -r c; do
		case " $2 " in *" $c "*) continue ;; esac
		expect "$c" ok
		n=$((n + 1))
	done < <(sed -n 's/^\(not ok\|ok\) //p' <<<"$cases")
	[ "$n" -gt 0 ] || not_ok "kunit-busted-$1: no other case ran"
}

expect_catchers others \
	"mstat_read_waits_for_open_section mstat_read_concurrent_writers"
check kunit-busted-unloads-cleanly \
	grep -q 'kunit-busted: unloaded, guest alive' "$con"
check kunit-busted-bad-param-refused \
	grep -q 'busted=3: must be 0, 1 or 2' "$con"

# The broken build's mstat_profile suite, if the guest had it: the cases
# that catch MSTAT_MUT_FORGET_ALL and MSTAT_MUT_PAGE_SYMBOLS fail, every
# other passes.
if grep -q 'kunit-busted: no broken build' "$con"; then
	skip kunit-busted-profile "the guest was given no broken build"
else
	cases=$(tr -d '\r' <"$con" | sed 's/^\[[ 0-9.]*\] //' |
		sed -n "/kunit-busted: the broken build's mstat_profile/,/^not ok [0-9]* mstat_profile\$/p" |
		sed -n 's/^    \(not ok\|ok\) [0-9]* \([a-z0-9_]*\)$/\1 \2/p')
	expect_catchers profile-others \
		"mstat_profile_forget_sources_keeps_others mstat_profile_page_stack_no_symbols"
	check kunit-busted-profile-unloads \
		grep -q 'kunit-busted: the broken build unloaded' "$con"
fi

# kasan_report FUNCTION ACCESS: a KASAN report (its "BUG: KASAN:" line to
# its closing "=====" line) of a slab-out-of-bounds ACCESS ("Read of
# size 1") with FUNCTION among its lines.
kasan_report() {
	tr -d '\r' <"$con" | sed 's/^\[[ 0-9.]*\] //' | awk -v fn="$1" -v acc="$2" '
	/BUG: KASAN: slab-out-of-bounds/ { on = 1; a = 0; f = 0; next }
	on && index($0, acc " at addr") { a = 1 }
	on && index($0, fn "+0x") { f = 1 }
	on && /^=+$/ { on = 0; if (a && f) found = 1 }
	END { exit !found }'
}
# On a KASAN kernel, the probe's two reports: KASAN instruments the
# modules' code, and vsnprintf() (kunit/.kunitconfig).
if grep -q 'KernelAddressSanitizer initialized' "$con"; then
	check kunit-busted-kasan-probe-loaded \
		grep -q 'kunit-busted: kasan_probe loaded and unloaded' "$con"
	check kunit-busted-kasan-module-read \
		kasan_report truth_kasan_read 'Read of size 1'
	check kunit-busted-kasan-vsprintf-write \
		kasan_report truth_kasan_vsprintf 'Write of size 1'
fi
finish
