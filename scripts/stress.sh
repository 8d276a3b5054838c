#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make stress: the long runs that do not fit in make check. Figures go to
# build/stress/RESULTS.md with their commands. Guests are TCG-emulated.
#
#   scripts/stress.sh     (CYCLES=1000 TORTURE_SECONDS=600 ROTATIONS=100000)
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP"
out=build/stress
mkdir -p "$out"
res=$out/RESULTS.md
cycles=${CYCLES:-1000}
secs=${TORTURE_SECONDS:-600}
rot=${ROTATIONS:-100000}
mstat_setup_env || die "set-up failed; log: $mstat_setup_log"
kb=$(scripts/testkernel.sh kunit/.kunitconfig)
scripts/build.sh "$K612_KDIR" build/6.12 >/dev/null
scripts/build.sh "$kb" build/debug >/dev/null
mstat_build_tools mstat
make -s -C tests/userspace build/torture >/dev/null

# with VAR=VALUE SCRIPT: a copy of the guest script with VAR set first.
with() {
	local f
	f=$out/$(basename "$2" .sh)-${1#*=}.sh
	{ echo "$1"; cat "$2"; } >"$f"
	echo "$f"
}

{
	echo "# mstat stress results"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(nproc) CPUs, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1); commit $(git rev-parse --short HEAD)"
	echo "- made by: \`make stress\` (scripts/stress.sh); guests are qemu TCG (emulated)"
} >"$res"

# run NAME CMD...: the command, its result lines, and a console check.
run() {
	local name=$1 rc=0
	shift
	"$@" >"$out/$name.out" 2>&1 || rc=$?
	{
		echo
		echo "## $name (exit $rc)"
		echo
		echo '```'
		echo "\$ $*"
		tr -d '\r' <"$out/$name.out" | grep -E '^(ok|not ok|#|mstat_torture)' || true
		if [ -f "$out/$name.console" ]; then
			tr -d '\r' <"$out/$name.console" |
				grep -E '^(ok|not ok)|mstat_torture: (SUCCESS|FAILURE)' || true
			scripts/console-check.sh "$out/$name.console" 2>&1 | tail -n 3
		fi
		echo '```'
	} | tee -a "$res"
}

run userspace-torture tests/userspace/build/torture --cpus 8 --offline 2 \
	--rotations "$rot" --seconds 3600
run load-unload-cycles scripts/guest.sh --kernel "$K612_VMLINUZ" \
	--script "$(with CYCLES="$cycles" scripts/guest/cycles.sh)" \
	--ko build/6.12/mstat.ko --file build/tools/mstat:/mstat/mstat \
	--timeout $((cycles * 10 + 300)) --log "$out/load-unload-cycles.console"
run kernel-torture scripts/guest.sh --kernel "$kb/arch/x86/boot/bzImage" \
	--smp 4 --tcg multi \
	--script "$(with TORTURE_SECONDS="$secs" scripts/guest/torture.sh)" \
	--ko build/debug/mstat.ko --ko build/debug/tests/torture/mstat_torture.ko \
	--timeout $((secs + 600)) --log "$out/kernel-torture.console"
log "results: $res"
