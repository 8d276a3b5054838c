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

# shellcheck disable=SC2086
{
expect torture 0 "$out/torture" $args
expect torture_tsan 0 "$out/torture-tsan" $args
expect torture_asan_ubsan 0 "$out/torture-asan" $args
# The broken reader (no wait for open sections) must be caught: exit 1.
expect torture_catches_nowait 1 "$out/torture" $args --broken nowait
expect torture_tsan_catches_nowait 1 "$out/torture-tsan" $args --broken nowait
}
exit $((fails > 0))
