#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the userspace torture of mstat_core in each build, and the broken
# reader that it must catch. One line per test: "ok NAME (N s)", then the
# torture's own verdict as a "#" line, or "not ok NAME" (scripts/lib.sh's
# emitters); each run's output in BUILD_DIR/logs/NAME.log.
#
#   run-checks.sh BUILD_DIR "TORTURE ARGS"
set -uo pipefail

# shellcheck source-path=SCRIPTDIR source=../../scripts/lib.sh
. "$(dirname "$0")/../../scripts/lib.sh"

out=$1
read -ra targs <<<"$2"
MSTAT_LOGS=$(realpath "$out")/logs
# After an "ok", the torture's last line: its verdict and figures.
MSTAT_T_SHOW=1

# Halt on the first report, with an exit code of its own.
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
export ASAN_OPTIONS="halt_on_error=1 exitcode=67 ${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1 print_stacktrace=1 ${UBSAN_OPTIONS:-}"

# Every sync mode under each build, and the mode switched before every
# read (the writers' sequence words on and off as they run); then the
# broken readers, which must be caught (exit 1): no grace period (RCU),
# no wait (IPI), the words on without a grace period (switch).
{
for sync in rcu rcu_expedited ipi switch; do
	t "torture_$sync" "$out/torture" "${targs[@]}" --sync "$sync"
done
t torture_tsan_rcu "$out/torture-tsan" "${targs[@]}" --sync rcu
t torture_tsan_ipi "$out/torture-tsan" "${targs[@]}" --sync ipi
t torture_asan_ubsan_rcu "$out/torture-asan" "${targs[@]}" --sync rcu
t torture_asan_ubsan_ipi "$out/torture-asan" "${targs[@]}" --sync ipi
t torture_catches_rcu_nowait exits 1 "$out/torture" "${targs[@]}" --sync rcu --broken nowait
t torture_catches_ipi_nowait exits 1 "$out/torture" "${targs[@]}" --sync ipi --broken nowait
t torture_catches_switch_seq_nogp exits 1 "$out/torture" "${targs[@]}" --sync switch --broken seq-nogp
t torture_tsan_catches_rcu_nowait exits 1 "$out/torture-tsan" "${targs[@]}" --sync rcu --broken nowait
}
finish
