#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The memory-model proof of mstat_core's reader synchronization: the
# hand-kept litmus tests of mstat_core/litmus/ and the exhaustive families
# that mstat_core/litmus/gen.py generates into build/litmus/ (not
# tracked), through herd7 with the Linux-kernel memory model
# (tools/memory-model of KSRC), each result against the "Result:" line in
# the test's header comment, as in the kernel's own
# tools/memory-model/litmus-tests. One line per test:
#   ok litmus/NAME (Never, 0.4 s)
#   not ok litmus/NAME: wanted Never, got Sometimes
# and also:
#   litmus/lkmm-selfcheck-*	the kernel's SB+fencembonceonces (Never) and
#				SB+poonceonces (Sometimes): herd7 and the
#				model work;
#   litmus/generated		gen.py wrote its tests into build/litmus/;
#   litmus/hand-kept		no test of mstat_core/litmus/ is marked as
#				gen.py's, and no name is in both sets.
# Lines starting "# " are diagnostics. Exits non-zero if anything is not ok.
#
#   scripts/litmus.sh [KSRC]	(default $MSTAT_CACHE/linux-source-6.12)
#
# herd7: $HERD7, else ../shared/tools/herd7/bin/herd7 beside the clone,
# else herd7 in PATH (it needs libgmp10). Without one that runs, prints the
# single line "skip litmus: herd7 not found (REASON)" and exits 0.
# LITMUS_JOBS herd7 runs at a time (default: the number of CPUs),
# LITMUS_TIMEOUT seconds each (default 60). LITMUS_PAIRS=N runs, of the
# two families where an IPI meets an interrupt section
# (ipi+ipi-at-K+irq-at-J, ipi+ipi-at-irq-M+irq-at-J), only the tests with
# the interrupt section at point J = N, every IPI placement against it:
# `make check` runs N = 4, between the section's two adds (11 of their 77
# tests; the whole run took 30 s of CPU so, 189 s with all, `/usr/bin/time
# scripts/litmus.sh`, a 2-CPU machine alone), `make
# soak` all (the default, LITMUS_PAIRS=all). A diagnostic line says how
# many were left out.
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

export LC_ALL=C
ksrc=${1:-$MSTAT_CACHE/linux-source-6.12}
jobs=${LITMUS_JOBS:-$(nproc)}
limit=${LITMUS_TIMEOUT:-60}
pairs=${LITMUS_PAIRS:-all}
case $pairs in
all|[0-9])	;;
*)	die "LITMUS_PAIRS: all or a point 0-9, not '$pairs'" ;;
esac
dir=$MSTAT_TOP/mstat_core/litmus
gen_dir=$MSTAT_TOP/build/litmus
start=$EPOCHREALTIME

if [ -n "${HERD7:-}" ]; then
	herd=$HERD7
elif [ -x "$MSTAT_TOP/../shared/tools/herd7/bin/herd7" ]; then
	herd=$(cd "$MSTAT_TOP/../shared/tools/herd7/bin" && pwd)/herd7
else
	herd=$(command -v herd7) || {
		skip litmus "herd7 not found (no \$HERD7, no $MSTAT_TOP/../shared/tools/herd7/bin/herd7, none in PATH)"
		finish
	}
fi
if [ ! -x "$herd" ]; then
	skip litmus "herd7 not found ($herd is not an executable)"
	finish
fi
if ! err=$("$herd" -version 2>&1); then
	skip litmus "herd7 not found ($herd does not run: $(echo "$err" | tail -n 1); libgmp10 missing?)"
	finish
fi

mm=$ksrc/tools/memory-model
if [ ! -f "$mm/linux-kernel.cfg" ]; then
	not_ok "litmus/lkmm: no $mm/linux-kernel.cfg (KSRC: an unpacked linux-source-6.12)"
	finish
fi
echo "# herd7: $herd ($(echo "$err" | head -n 1)), model: $mm"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run_herd TEST.litmus OUT: herd7's output into OUT.out, its exit code and
# start and end times into OUT.rc.
run_herd() {
	local t0=$EPOCHREALTIME rc
	(cd "$mm" && timeout "$limit" "$herd" -conf linux-kernel.cfg "$1") \
		>"$2.out" 2>&1
	rc=$?
	echo "$rc $t0 $EPOCHREALTIME" >"$2.rc"
}

# report NAME TEST.litmus OUT: one line for a test run by run_herd.
report() {
	local name=$1 test=$2 out=$3 want got nneg rc t0 t1 secs
	want=$(sed -n 's/^[[:space:]]*\*[[:space:]]*Result:[[:space:]]*//p' \
		"$test" | head -n 1 | awk '{ print $1 }')
	read -r rc t0 t1 <"$out.rc"
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	read -r got nneg < <(awk '$1 == "Observation" { print $3, $5; exit }' \
		"$out.out")
	if [ "$rc" -eq 124 ]; then
		not_ok "litmus/$name: timed out after $limit s"
	elif [ "$rc" -ne 0 ] || [ -z "$got" ]; then
		not_ok "litmus/$name: herd7 failed (exit $rc)"
		tail -n 5 "$out.out" | show
	elif [ -z "$want" ]; then
		not_ok "litmus/$name: no \"Result:\" line in its header (got $got)"
	elif [ "$got" != "$want" ]; then
		not_ok "litmus/$name: wanted $want, got $got"
		show <"$out.out"
		echo "#   witness graphs: cd $mm && $herd -conf linux-kernel.cfg" \
			"-show prop -o DIR $test"
	elif [ "$got" = Never ] && [ "${nneg:-0}" = 0 ]; then
		# Nothing passed the filter: "Never" would prove nothing.
		not_ok "litmus/$name: vacuous, no execution passes its filter"
	else
		ok "litmus/$name ($got, $secs s)"
	fi
}

# The exhaustive families, generated afresh (gen.py removes the files it
# no longer writes, and refuses to overwrite any it did not write).
rm -f "$gen_dir"/*.litmus
if gen_err=$(python3 "$dir/gen.py" "$gen_dir" 2>&1); then
	ngen=$(find "$gen_dir" -name '*.litmus' | wc -l)
	ok "litmus/generated ($ngen tests in build/litmus/)"
else
	not_ok "litmus/generated: mstat_core/litmus/gen.py failed"
	show <<<"$gen_err"
fi

# The hand-kept tests are not gen.py's: none carries its mark, none has
# the name of a generated one.
marked=$(grep -l 'Generated by mstat_core/litmus/gen.py' "$dir"/*.litmus)
both=$(cd "$dir" && for f in *.litmus; do
	[ -e "$gen_dir/$f" ] && echo "$f"
done)
if [ -z "$marked$both" ]; then
	ok litmus/hand-kept
else
	not_ok "litmus/hand-kept: generated files in mstat_core/litmus/"
	{ [ -z "$marked" ] || echo "marked as gen.py's: $marked"
	  [ -z "$both" ] || echo "also generated: $both"; } | show
fi

# The tests: the kernel's two set-up checks, then ours, hand-kept first.
# Run up to $jobs at a time; report in this order once all are done.
names=() files=()
for t in SB+fencembonceonces SB+poonceonces; do
	names+=("lkmm-selfcheck-$t")
	files+=("$mm/litmus-tests/$t.litmus")
done
nkept=0 nleft=0
for f in "$dir"/*.litmus "$gen_dir"/*.litmus; do
	[ -e "$f" ] || continue
	[ "${f%/*}" = "$dir" ] && nkept=$((nkept + 1))
	n=${f##*/}
	if [ "$pairs" != all ] && [ "${f%/*}" = "$gen_dir" ] &&
	   [[ $n =~ ^ipi\+ipi-at-(irq-)?[0-9]+\+irq-at-([0-9]+)\.litmus$ ]] &&
	   [ "${BASH_REMATCH[2]}" != "$pairs" ]; then
		nleft=$((nleft + 1))
		continue
	fi
	names+=("${n%.litmus}")
	files+=("$f")
done

running=0
for i in "${!files[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	run_herd "${files[$i]}" "$tmp/$i" &
	running=$((running + 1))
done

wait

for i in "${!files[@]}"; do
	report "${names[$i]}" "${files[$i]}" "$tmp/$i"
done

if [ "$pairs" != all ]; then
	echo "# litmus: of the IPI-meets-interrupt families, the interrupt section at point $pairs only; $nleft tests left to make soak"
fi

secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" \
	'BEGIN { printf "%.0f", b - a }')
echo "# $((${#files[@]} - 2)) tests ($nkept hand-kept, $((${#files[@]} - 2 - nkept)) generated), $jobs at a time, in $secs s"
finish
