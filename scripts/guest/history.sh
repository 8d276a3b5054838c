# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# shellcheck disable=SC3043 # busybox ash has "local"
# Guest side of the verdict from the history: `mstat leaks --once`, one
# read, against tests/leaks/mstat_leaktest.ko's leaks after they have run
# for HIST_S seconds (default 180) since mstat's load, judged by
# tests/helpers/leaks.c -o from the module's truth file. mstat is loaded
# first, at profile_rate=HIST_RATE (default 16384: a short history must
# hold enough samples; make bench's long form runs 1800 s at the default
# 524288), as the package loads it at boot; then the leaks (8 KiB/s lost
# pointers, 4 KiB/s a list in a cache of its own, 4 KiB/s by a shell in
# cgroup /leaks, 4 KiB/s from a soft hrtimer, 2 KiB/s in a cache SLUB
# merges into another) among every decoy, the history's too: objects
# allocated at the start and kept, a cache filled early and then stable,
# a cache warming toward a bound, a workload started late that levels
# off, a bounded cache, a sawtooth, finite lifetimes, a load that rises
# and falls; and the busy workload of the leak test (./leaks -b).
# Every leak must be named by its stack with its cache, cgroup and a rate
# interval that holds its rate, no decoy and nothing else; the false
# truth (tamper 1) must fail the same verdict.
# HIST_DECOYS_ONLY=1: the decoys alone, nothing may be named (exit 0).
# Run: check guest-6.12-history --prio=1
set -u
. ./lib.sh

arg() { sed -n "s/.*$1=\"\\{0,1\\}\\([^\" ]*\\).*/\\1/p" /proc/cmdline; }
rate=$(arg HIST_RATE)
secs=$(arg HIST_S)
: "${rate:=16384}" "${secs:=180}"
L=/sys/kernel/debug/mstat_leaktest
diag "profile_rate $rate, a history of $secs s, then one read"

mkdir -p /sys/fs/cgroup
check cgroup-made sh -c 'mount -t cgroup2 none /sys/fs/cgroup &&
	mkdir /sys/fs/cgroup/leaks'
check insmod-mstat insmod ./mstat.ko profile_rate="$rate"
check insmod-leaktest insmod ./mstat_leaktest.ko merged_rate=2048
./leaks -b &
busypid=$!
check start sh -c "echo start leaks,decoys,history >$L/control"
sh -c "echo \$\$ >/sys/fs/cgroup/leaks/cgroup.procs &&
	exec ./leaks -d $L/control" &
driverpid=$!
sleep "$secs"

# At confidence 0.999, as the leak test's watches: five intervals each
# run, and at 0.99 one would miss in about one run of twenty by chance
# alone (the first run here: the softirq leak's 67 samples where 45 were
# expected, 3.2 standard deviations, its 0.99 interval above the truth).
rc=0
./mstat leaks --once --confidence 0.999 --json >/tmp/once.json 2>/tmp/once.err ||
	rc=$?
cat "$L/truth" >/tmp/once.truth
show /tmp/once.err
show /tmp/once.truth
diag "mstat leaks --once: exit $rc"
./leaks -o /tmp/once.truth /tmp/once.json "$rc" >/tmp/once.judge 2>&1
relay /tmp/once.judge
check once-judged grep -q '^# checks failed: ' /tmp/once.judge
show /tmp/once.json
check once-history grep -q '"history_s": [1-9]' /tmp/once.json
# The text form of the same read, for the eye.
./mstat leaks --once --confidence 0.999 | grep -v '^    ' | show

# The false truth against the same verdict.
echo "tamper 1" >"$L/control"
cat "$L/truth" >/tmp/tamper.truth
echo "tamper 0" >"$L/control"
./leaks -o /tmp/tamper.truth /tmp/once.json "$rc" >/tmp/tamper.judge 2>&1
show /tmp/tamper.judge
for c in lost-rate list-rate cgroup-rate softirq-rate lost-named \
	 cgroup-cgroup softirq-cache merged-rate merged-cache; do
	check "tamper-caught-$c" grep -q "^not ok leaks-$c:" /tmp/tamper.judge
done

check stop sh -c "echo stop >$L/control"
wait "$driverpid"
kill "$busypid"
wait "$busypid" 2>/dev/null
check rmmod-leaktest rmmod mstat_leaktest
check rmmod-mstat rmmod mstat
finish
