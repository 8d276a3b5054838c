# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the heap profile's labels truth test and its phantom-entry
# test, on a guest of two NUMA nodes (scripts/guest.sh --numa 2):
# tests/labels/mstat_labeltest.ko allocates known bytes from a stack a
# tag (its leaf lt_leafTAG), in the cgroup of the shell that writes its
# control, on a given node, or from a softirq or a hard irq; the judge,
# build/tools/labels (tests/helpers/labels.c), reads /proc/mstat_sites
# (format 2.2) against the module's truth.
#
# Labels, mstat's profile_rate at RATE (8192: 250 to 1500 samples a
# label pair, its estimates within 3 to 7% in one standard deviation, the
# guest still quick): cgroup2 at /sys/fs/cgroup, two cgroups lt-a and
# lt-b made, a shell moved into each (and the root) to write:
#
#	tag 0 (512 B)	lt-a 4 MiB on node 0, 2 MiB on node 1; lt-b 12 MiB
#			on node 0
#	tag 1 (1 KiB)	lt-a 2 MiB on node 0; lt-b 4 MiB on node 1,
#			each freed at once (allocated, never in use)
#	tag 2 (256 B)	2 MiB on node 1 from a tasklet (written from lt-a:
#			its label must be softirq)
#	tag 3 (2 KiB)	the root 4 MiB on node 1; lt-b 4 MiB on node 0,
#			freed at once
#	tag 8 (512 B)	1 MiB on node 0 from a hard-irq hrtimer (written
#			from lt-b: its label must be hardirq)
#
# kept KEEP (10) seconds, then the truth, /proc/mstat_sites and the
# truth's clock again are read: labels judge (every (stack, cgroup) and
# (stack, node) estimate in use and allocated within 5 standard errors,
# the cgroup ids those of the directories, softirq, hardirq, nodes, the ages of
# the kept objects to the second: see tests/helpers/labels.c); then the
# same judge of a false truth, each of which must fail: "swap" (lt-a's
# and lt-b's batches swapped), "bytes" (batch 0 doubled), "age" (every
# batch 3 s older), "cache" (every size doubled for the cache check).
# Then every tag freed: nothing of tags 0 to 3 and 8 in use
# (no live line, sampled_bytes 0).
#
# Phantoms, at profile_rate 1 (every object sampled) for their
# allocations, 256 objects of 256 bytes a tag, each first seen live:
#  - tag 5 freed while the kmalloc source is off (enable_kmalloc 0, then
#    1): no live line of it after, addr_phantoms up by at least 256,
#    and the drops of tag 4's rows and of tag 5's (2.5) 256 each, none
#    before;
#  - tag 6 allocated, then a reset, then tags 4 (allocated before the
#    switch) and 6 freed: nothing of 4, 5 or 6 left, addr_phantoms up by
#    at least 256 over the reset;
#  - tag 7 freed by kfree_bulk() inside a kprobe's handler of the test
#    module: mstat's kprobe on kmem_cache_free_bulk() is then missed
#    (probe_kmem_cache_free_bulk_missed grows), and the next read of
#    /proc/mstat_sites must leave nothing of tag 7, addr_phantoms up by
#    at least 256.
# Guest: --numa=2
# Run: check guest-6.12-labels
# Run: check guest-7.3-labels
set -u
. ./lib.sh

C=/sys/kernel/debug/mstat_labeltest
P=/sys/module/mstat/parameters
CG=/sys/fs/cgroup
RATE=8192
KEEP=10
M=1048576

# ctl CGROUP_DIR COMMAND: COMMAND written to the control by a shell in
# that cgroup (moved there first), so the allocating task is in it.
ctl() {
	sh -c "echo \$\$ >$1/cgroup.procs && echo $2 >$C/ctl"
}

# header FILE FIELD: the value of FIELD in FILE's "# snapshot" line.
header() {
	sed -n "s/^# snapshot .* $2 \([0-9-]*\).*/\1/p" "$1"
}

# sites NAME: /proc/mstat_sites into /tmp/sites.NAME.
sites() { cat /proc/mstat_sites >"/tmp/sites.$1"; }

# grew NAME FROM TO MIN: one check, TO - FROM >= MIN.
grew() {
	diag "$1: ${2:-none} -> ${3:-none}"
	check "$1" [ $((${3:-0} - ${2:-0})) -ge "$4" ]
}

missed() { sed -n 's/^probe_kmem_cache_free_bulk_missed //p' /proc/mstat; }

# drops FILE LEAF: the drops column (2.5: of the rows' frees, the entries
# dropped without theirs) summed over FILE's rows whose site is LEAF's,
# the column found by its name in the column line.
drops() {
	awk -v leaf="$2+" '
	/^# est_bytes / { for (i = 2; i <= NF; i++) {
			if ($i == "drops") d = i - 1
			if ($i == "site") s = i - 1 }
		next }
	/^[0-9]/ && d && index($s, leaf) == 1 { n += $d }
	END { print d ? n + 0 : "none" }' "$1"
}

check numa-2-nodes test -d /sys/devices/system/node/node1
# The test module needs nothing of mstat's: loaded first.
check insmod-labeltest insmod ./mstat_labeltest.ko
check insmod-mstat insmod ./mstat.ko profile_rate=$RATE
mkdir -p $CG
check mount-cgroup2 mount -t cgroup2 none $CG
mkdir $CG/lt-a $CG/lt-b
diag "cgroup ids: / $(stat -c %i $CG), lt-a $(stat -c %i $CG/lt-a), lt-b $(stat -c %i $CG/lt-b)"

## Labels
bad=0
for cmd in "lt-a:alloc 0 $((4 * M)) 512 0" "lt-a:alloc 0 $((2 * M)) 512 1" \
	   "lt-b:alloc 0 $((12 * M)) 512 0" "lt-a:alloc 1 $((2 * M)) 1024 0" \
	   "lt-b:churn 1 $((4 * M)) 1024 1" "lt-a:softirq 2 $((2 * M)) 256 1" \
	   ":alloc 3 $((4 * M)) 2048 1" "lt-b:churn 3 $((4 * M)) 2048 0" \
	   "lt-b:hardirq 8 $((1 * M)) 512 0"; do
	dir=$CG/${cmd%%:*}
	ctl "${dir%/}" "${cmd#*:}" || { bad=1; diag "failed: $cmd"; }
done
check labels-allocated [ "$bad" -eq 0 ]
sleep $KEEP
cat $C/truth >/tmp/truth
sites kept
grep '^now_ns' $C/truth >>/tmp/truth
show /tmp/truth
head -n 2 /tmp/sites.kept | show
./labels judge -g $CG -g $CG/lt-a -g $CG/lt-b /tmp/truth /tmp/sites.kept \
	>/tmp/judge.out 2>&1
echo "exit $?" >>/tmp/judge.out
relay /tmp/judge.out
check labels-judged grep -qx 'exit 0' /tmp/judge.out
# A false truth: the judge must fail, on the check the lie touches.
for how in swap:'labels-inuse-lt_leaf0-cg-' bytes:'labels-inuse-lt_leaf0-' \
	   age:'labels-ages' cache:'labels-caches'; do
	./labels judge -T "${how%%:*}" -g $CG -g $CG/lt-a -g $CG/lt-b \
		/tmp/truth /tmp/sites.kept >"/tmp/judge-${how%%:*}.out" 2>&1
	rc=$?
	grep '^not ok\|tampered' "/tmp/judge-${how%%:*}.out" | show
	check "labels-tampered-${how%%:*}-caught" \
		sh -c "[ $rc -eq 1 ] && grep -q '^not ok ${how#*:}' /tmp/judge-${how%%:*}.out"
done
bad=0
for t in 0 1 2 3 8; do
	ctl $CG "free $t" || bad=1
done
check labels-freed [ "$bad" -eq 0 ]
sites freed
./labels gone labels-freed /tmp/sites.freed lt_leaf0 lt_leaf1 lt_leaf2 \
	lt_leaf3 lt_leaf8 >/tmp/gone.out 2>&1
relay /tmp/gone.out

## Phantoms
# phantom_alloc TAG...: 256 objects of 256 bytes a tag, every one sampled.
phantom_alloc() {
	echo 1 >$P/profile_rate
	for t; do
		ctl $CG "alloc $t 65536 256 0" || diag "alloc $t failed"
	done
	echo $RATE >$P/profile_rate
}
# live NAME TAG...: each tag's 256 objects are in the table.
live() {
	name=$1
	shift
	sites "$name"
	for t; do
		./labels live "$name-$t" "/tmp/sites.$name" "lt_leaf$t" 256 256 \
			>/tmp/live.out 2>&1
		relay /tmp/live.out
	done
}

phantom_alloc 4 5
live phantom-live 4 5
ph0=$(header /tmp/sites.phantom-live addr_phantoms)
d4=$(drops /tmp/sites.phantom-live lt_leaf4)
d5=$(drops /tmp/sites.phantom-live lt_leaf5)
diag "drops before the switch: lt_leaf4 $d4, lt_leaf5 $d5 (want 0, 0)"
check phantom-drops-none [ "$d4" = 0 -a "$d5" = 0 ]
echo 0 >$P/enable_kmalloc
ctl $CG "free 5"
echo 1 >$P/enable_kmalloc
check phantom-kmalloc-on [ "$(cat $P/enable_kmalloc)" = 1 ]
sites switched
./labels gone phantom-switched /tmp/sites.switched lt_leaf5 >/tmp/gone.out 2>&1
relay /tmp/gone.out
ph1=$(header /tmp/sites.switched addr_phantoms)
grew phantom-switch-counted "$ph0" "$ph1" 256
# The switch dropped every kmalloc entry: tag 4's, still live, and tag
# 5's, freed while the source was off: 256 each, in their rows' drops.
d4=$(drops /tmp/sites.switched lt_leaf4)
d5=$(drops /tmp/sites.switched lt_leaf5)
diag "drops after the switch: lt_leaf4 $d4, lt_leaf5 $d5 (want 256, 256)"
check phantom-drops-rows [ "$d4" = 256 -a "$d5" = 256 ]

phantom_alloc 6
live phantom-live-reset 6
ph0=$(header /tmp/sites.phantom-live-reset addr_phantoms)
check phantom-reset sh -c "echo 1 >$P/reset"
ctl $CG "free 4"
ctl $CG "free 6"
sites reset
./labels gone phantom-reset-freed /tmp/sites.reset lt_leaf4 lt_leaf5 lt_leaf6 \
	>/tmp/gone.out 2>&1
relay /tmp/gone.out
ph1=$(header /tmp/sites.reset addr_phantoms)
grew phantom-reset-counted "$ph0" "$ph1" 256

phantom_alloc 7
live phantom-live-missed 7
ph0=$(header /tmp/sites.phantom-live-missed addr_phantoms)
m0=$(missed)
check phantom-kpfree ctl $CG "kpfree 7"
m1=$(missed)
grew phantom-probe-missed "${m0:-0}" "${m1:-0}" 1
sites missed
./labels gone phantom-missed-freed /tmp/sites.missed lt_leaf7 \
	>/tmp/gone.out 2>&1
relay /tmp/gone.out
ph1=$(header /tmp/sites.missed addr_phantoms)
grew phantom-missed-counted "$ph0" "$ph1" 256
head -n 2 /tmp/sites.missed | show

check rmmod-labeltest rmmod mstat_labeltest
check rmmod-mstat rmmod mstat
check no-splat sh -c "! dmesg | grep -q -E 'WARNING:|BUG:|Oops'"
finish
