#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reads the console of scripts/guest/kunit-busted.sh (mstat_core's KUnit
# cases with a reader that does not wait) and prints "ok"/"not ok" lines:
# the cases that hunt torn snapshots must fail, every other case must
# pass, the failing cases must leave the module unloadable (no writer
# left running), and a bad busted= must be refused. Exits non-zero if a
# line is "not ok".
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

hunters="mstat_read_waits_for_open_section mstat_read_concurrent_writers"
for c in $hunters; do
	expect "$c" "not ok"
done
n=0
while read -r c; do
	case " $hunters " in *" $c "*) continue ;; esac
	expect "$c" ok
	n=$((n + 1))
done < <(sed -n 's/^\(not ok\|ok\) //p' <<<"$cases")
[ "$n" -gt 0 ] || not_ok "kunit-busted-others: no other case ran"
check kunit-busted-unloads-cleanly \
	grep -q 'kunit-busted: unloaded, guest alive' "$con"
check kunit-busted-bad-param-refused \
	grep -q 'busted=3: must be 0, 1 or 2' "$con"
finish
