#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the userspace torture of mstat_core in each build, and the broken
# reader that it must catch. One line per test: "ok NAME" or "not ok NAME".
#
#   run-checks.sh BUILD_DIR "TORTURE ARGS"
set -uo pipefail

out=$1
args=$2
fails=0

# Halt on the first report, with an exit code of its own.
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
export ASAN_OPTIONS="halt_on_error=1 exitcode=67 ${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1 print_stacktrace=1 ${UBSAN_OPTIONS:-}"

# expect NAME WANT_RC CMD...: the command must exit with WANT_RC.
expect() {
	local name=$1 want=$2 rc log
	shift 2
	log=$(mktemp)
	"$@" >"$log" 2>&1
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		echo "ok $name: $(tail -n 1 "$log")"
	else
		echo "not ok $name: exit $rc, wanted $want"
		tail -n 20 "$log" | sed 's/^/#   /'
		fails=$((fails + 1))
	fi
	rm -f "$log"
}

# Every sync mode under each build; then the broken readers, which must
# be caught (exit 1): no grace period (RCU), no wait (IPI).
# shellcheck disable=SC2086
{
for sync in rcu rcu_expedited ipi; do
	expect "torture_$sync" 0 "$out/torture" $args --sync $sync
done
expect torture_tsan_rcu 0 "$out/torture-tsan" $args --sync rcu
expect torture_tsan_ipi 0 "$out/torture-tsan" $args --sync ipi
expect torture_asan_ubsan_rcu 0 "$out/torture-asan" $args --sync rcu
expect torture_asan_ubsan_ipi 0 "$out/torture-asan" $args --sync ipi
expect torture_catches_rcu_nowait 1 "$out/torture" $args --sync rcu --broken nowait
expect torture_catches_ipi_nowait 1 "$out/torture" $args --sync ipi --broken nowait
expect torture_tsan_catches_rcu_nowait 1 "$out/torture-tsan" $args --sync rcu --broken nowait
}
exit $((fails > 0))
