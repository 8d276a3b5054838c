#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Capture real /proc/mstat and /proc/mstat_sites output from a stock 6.12
# guest, and check the tool against the live module there.
#
#   tools/mstat/capture.sh [--update] [OUTDIR]
#
# Builds mstat.ko (scripts/build.sh, into build/mstat-tool/6.12, a
# directory of its own) and mstat (static), boots the guest with
# tools/mstat/guest.sh, and writes what the guest printed between its
# markers to OUTDIR (default build/mstat-tool/capture). With --update it
# also copies the fixtures into tools/mstat/testdata/ and remakes the
# hand-made bad ones from them. Prints the guest's
# "ok NAME" / "not ok NAME" lines; exits non-zero if one failed (or set-up,
# scripts/setup.sh through mstat_setup_env, did), 77 if the guest kernel
# or headers are missing. Never loads anything on the host.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../scripts/lib.sh
. "$here/../../scripts/lib.sh"
top=$MSTAT_TOP
update=0
if [ "${1:-}" = --update ]; then
	update=1
	shift
fi
out=${1:-$top/build/mstat-tool/capture}

mstat_setup_env || exit 1
kdir=$K612_KDIR
vmlinuz=$K612_VMLINUZ
if [ ! -d "$kdir" ] || [ ! -f "$vmlinuz" ]; then
	echo "no 6.12 headers or kernel image" >&2
	exit 77
fi

mkdir -p "$out"
bld=$top/build/mstat-tool/6.12
"$top/scripts/build.sh" "$kdir" "$bld" 2>"$out/build.err" || { cat "$out/build.err" >&2; exit 1; }
make -s -C "$here" mstat >/dev/null

# 600 s, guest.sh's default: at 300 s the guest was once stopped
# unfinished in a cold make check, beside its guests on a slow spell of
# the machine (the run's CPU time 4328 s against 3198 s two hours
# before, the same work). A guest stopped so is said to be a timeout,
# with the last line it printed: the machine's, not the tool's failure.
rc=0
"$top/scripts/guest.sh" --kernel "$vmlinuz" --script "$here/guest.sh" \
	--ko "$bld/mstat.ko" --ko "$bld/tests/bench/mstat_probe_bench.ko" \
	--file "$here/build/mstat:/mstat/mstat" --timeout 600 \
	--log "$out/console.log" 2>"$out/guest.err" || rc=$?
if [ $rc -eq 124 ]; then
	echo "timeout: the guest ran past its --timeout of 600 s; its last line: $(tr -d '\r' <"$out/console.log" | grep -v '^\[ *[0-9]' | tail -n 1)" >&2
	exit 1
fi
[ $rc -eq 0 ] || { cat "$out/guest.err" >&2; tail -n 30 "$out/console.log" >&2; exit 1; }

# The console has CRs, and kernel messages may interleave: keep marked
# sections, drop lines that look like printk ("[    1.234] ...").
tr -d '\r' <"$out/console.log" | awk -v dir="$out" '
	/^=== mstat-capture: end ===$/ { f = ""; next }
	/^=== mstat-capture: .* ===$/ { f = dir "/" $3; printf "" >f; next }
	f && !/^\[ *[0-9]+\.[0-9]+\] / { print >f }
'
tr -d '\r' <"$out/console.log" |
	grep -E '^(ok |not ok |# checks=)' >"$out/results.txt" || true
grep -v '^# checks=' "$out/results.txt"
if [ $update -eq 1 ]; then
	for f in mstat-1.0.txt mstat-1.0-b.txt mstat_sites-1.0.txt; do
		cp "$out/$f" "$here/testdata/$f"
	done
	# The hand-made bad inputs, kept in step (testdata/README.md).
	sed '1s/1\.0$/9.0/' "$here/testdata/mstat-1.0.txt" >"$here/testdata/mstat-9.0.txt"
	head -n 70 "$here/testdata/mstat-1.0.txt" >"$here/testdata/mstat-truncated.txt"
	: >"$here/testdata/mstat-empty.txt"
	# The first of the two frames, for the README.
	awk '/^mstat top - / { n++ }
	     n == 1 { buf = buf $0 "\n" }
	     END { sub(/\n+$/, "\n", buf); printf "%s", buf }' \
		"$out/top-capture.txt" >"$here/testdata/top-capture.txt"
fi
# Every check ran, none failed, and no line was garbled by a kernel message.
n=$(grep -cE '^(ok|not ok) ' "$out/results.txt")
grep -qx "# checks=$n failed=0" "$out/results.txt"
