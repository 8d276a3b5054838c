#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What KASAN on mstat's code alone saves against KASAN on the whole
# kernel (make bench's "KASAN on mstat's code"; or alone): the x86 debug
# kernel of make check (kunit/.kunitconfig: KASAN_SANITIZE=n for the
# kernel's own objects but vsprintf, seq_file, libfs, sort, kstrtox and
# params, its "#make x86_64" lines) against the same fragment without
# those lines, KASAN everywhere, as the debug kernel once was.
#
#  - the build: each kernel built in a directory of this run's, one after
#    the other, kunit.py's --jobs=$(nproc), its CPU time and wall time;
#  - the guests: make check's debug guests (mstat_debug_guests: KUnit,
#    the torture, the counts, the busted KUnit with kasan_probe, the
#    faults on the good build and on the broken one) on each kernel, two
#    queues of one slot side by side, one per kernel, so that each guest
#    runs beside the other kernel's guest of the same kind; the faults'
#    same first point of failure on both. Each guest's CPU time, and
#    every check's verdict on both.
#
# Timings under qemu TCG are emulation's, not hardware's; the ratio is the
# figure (one run, the two side by side). Prints markdown on stdout; the
# logs in build/bench/kasan-cost/. KASAN_COST_BUILD=0 takes the kernels
# from the cache instead (scripts/testkernel.sh; no build figures).
#
#   scripts/kasan-cost.sh
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP"
out=build/bench/kasan-cost
rm -rf "$out"
mkdir -p "$out"
mstat_setup_env || die "set-up failed; log: $mstat_setup_log"
mstat_build_tools mstat truth caches faultio >/dev/null || die "cannot build the tools"

# The fragment without its "#make x86_64" lines: KASAN on every object.
grep -v '^#make x86_64 ' kunit/.kunitconfig >"$out/kasan-all.kunitconfig"
cmp -s kunit/.kunitconfig "$out/kasan-all.kunitconfig" &&
	die "kunit/.kunitconfig has no \"#make x86_64\" lines: nothing to compare"

# kernel NAME FRAGMENT: built (or found), its directory in kb[NAME], its
# build's figures in built[NAME].
declare -A kb built
kbuild=()
[ "${KASAN_COST_BUILD:-1}" = 0 ] || kbuild=("MSTAT_KBUILD=$MSTAT_TOP/$out/kbuild")
trap 'rm -rf "$out/kbuild"' EXIT
kernel() {
	local name=$1 frag=$2 log=$out/kernel-$1.log
	kb[$name]=$(env ${kbuild[@]+"${kbuild[@]}"} scripts/testkernel.sh "$frag" 2>"$log") ||
		die "no $name kernel, log: $log"
	built[$name]=$(sed -n 's/.*test kernel built in \([0-9]*\) s, \([0-9]*\) s of CPU/\2 s of CPU in \1 s/p' "$log")
	built[$name]=${built[$name]:-cached}
	scripts/build.sh "${kb[$name]}" "$out/$name" >"$out/build-$name.log" 2>&1 ||
		die "cannot build mstat against the $name kernel, log: $out/build-$name.log"
	KCFLAGS=-DMSTAT_BROKEN_COUNTS=1 scripts/build.sh "${kb[$name]}" \
		"$out/$name-broken" >"$out/build-$name-broken.log" 2>&1 ||
		die "cannot build mstat's broken build against the $name kernel, log: $out/build-$name-broken.log"
}
kernel mstat kunit/.kunitconfig
kernel all "$out/kasan-all.kunitconfig"

# The two kernels' guests side by side, a queue of one slot each.
export MSTAT_FAULTS_START=$((RANDOM % 8 + 1))
for name in mstat all; do
	(
		# The queue's functions, as make check runs them, not under
		# set -e (a guest's check that fails is a line, not the end).
		set +e
		unset MSTAT_QUEUE
		export MSTAT_LOGS=$MSTAT_TOP/$out/logs-$name GUEST_SLOTS=1
		mstat_guests=()
		mstat_queue_owner=''
		mstat_debug_guests "kasan-$name" "${kb[$name]}/arch/x86/boot/bzImage" \
			"$out/$name" "$out/$name-broken"
		collect_guests
		echo "# $mstat_passed passed, $mstat_failed failed"
	) >"$out/guests-$name.txt" 2>&1 &
done
wait
for name in mstat all; do
	tail -n 1 "$out/guests-$name.txt" | grep -q '^# [0-9]* passed, [0-9]* failed$' ||
		die "the $name kernel's guests were not all collected: $out/guests-$name.txt"
done

# cpu NAME GUEST: that guest's CPU time, from its collected line.
cpu() {
	sed -n "s/^\(not \)\{0,1\}ok kasan-$1-$2 ([0-9]* s TCG, \([0-9]*\) s CPU.*/\2/p" \
		"$out/guests-$1.txt" | head -n 1
}

# verdicts NAME: that kernel's checks, "ok NAME" or "not ok NAME", the
# guests' prefix and every figure in parentheses left out, sorted.
verdicts() {
	grep -E '^(not )?ok ' "$out/guests-$1.txt" |
		sed "s/kasan-$1-//; s/ (.*//" | sort
}

cat <<EOT
KASAN on mstat's code alone (kunit/.kunitconfig, make check's debug
kernel) against KASAN on the whole kernel (the same fragment without its
"#make x86_64" lines). The guests ran two at a time, one per kernel
(\`scripts/kasan-cost.sh\`, $(date -u '+%Y-%m-%d %H:%M UTC'), commit
$(git rev-parse --short HEAD), $(nproc) CPUs; qemu TCG: emulation's
times, not hardware's).

| | KASAN on mstat's code | KASAN everywhere |
|---|---|---|
| the kernel's build | ${built[mstat]} | ${built[all]} |
EOT
tm=0 ta=0
for g in kunit torture counts kunit-busted faults faults-broken; do
	m=$(cpu mstat "$g") a=$(cpu all "$g")
	echo "| guest $g, CPU | ${m:-?} s | ${a:-?} s |"
	tm=$((tm + ${m:-0})) ta=$((ta + ${a:-0}))
done
echo "| the guests, CPU | $tm s | $ta s |"
echo "| their checks | $(tail -n 1 "$out/guests-mstat.txt" | sed 's/^# //') | $(tail -n 1 "$out/guests-all.txt" | sed 's/^# //') |"
echo
echo "Verdicts on one kernel and not on the other (none: the same):"
echo
echo '```'
diff <(verdicts mstat) <(verdicts all) || true
echo '```'
