# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the ground-truth test: mstat's counts against what the
# mstat_truth module (tests/truth/) really allocated and freed, through
# every kernel API, with an idle window beside each run to bound the
# background (tests/helpers/truth.c, copied in as ./truth, judges).
# TRUTH_ARGS on the kernel command line go to ./truth: "-x PATTERN" for a
# pattern that must fail (a broken build's test). Then every named
# per-cache row's object size against /sys/kernel/slab (mstat_objsize,
# lib.sh). First, the allocator's boot options on the command line, if
# any, must have taken effect (mstat_bootopts, lib.sh).
# Kernels: 6.12 5.10 6.1 7.3 6.12rt 6.12cloud 7.2
# guest-6.12-bulk-fallback: alloc_pages_bulk()'s single-page fallback,
# traced by the page allocator, counted once among interrupts that
# allocate pages and with the task moved from CPU to CPU (the pattern
# bulk_fallback, in a memory cgroup so that the kernel takes the
# fallback, preempt=full so that the task can move inside a call); the
# broken build, which watches nothing, fails it (guest-6.12-counts-broken).
# Run: check guest-6.12-bulk-fallback '--append=preempt=full TRUTH_MEMCG=1 TRUTH_ARGS="-n 40000 bulk_fallback"'
set -u
. ./lib.sh

args=$(sed -n 's/.*TRUTH_ARGS="\([^"]*\)".*/\1/p' /proc/cmdline)
mstat_bootopts
# TRUTH_MEMCG=1: the judge runs in a memory cgroup of its own, so that
# kmem accounting is on and alloc_pages_bulk() with __GFP_ACCOUNT takes
# its single-page fallback; the bulk_fallback pattern must then say it
# took it.
memcg=$(sed -n 's/.*TRUTH_MEMCG=\([0-9]\).*/\1/p' /proc/cmdline)
if [ "$memcg" = 1 ]; then
	mkdir -p /sys/fs/cgroup
	check memcg-made sh -c 'mount -t cgroup2 none /sys/fs/cgroup &&
		echo +memory >/sys/fs/cgroup/cgroup.subtree_control &&
		mkdir /sys/fs/cgroup/truth'
	check memcg-joined sh -c "echo $$ >/sys/fs/cgroup/truth/cgroup.procs"
fi
check insmod-mstat insmod ./mstat.ko
# kasan_probe=1 (scripts/guest/kunit-busted.sh) refused without KASAN
# (its log line names no "KASAN": scripts/console-check.sh would take it
# for a report).
if ! dmesg | grep -q 'KernelAddressSanitizer initialized'; then
	check kasan-probe-refused sh -c '! insmod ./mstat_truth.ko kasan_probe=1 2>/dev/null &&
		dmesg | grep -q "kasan_probe=1 refused: no address sanitizer"'
fi
check insmod-truth insmod ./mstat_truth.ko
# Let boot's own work settle before the windows.
sleep 2
# shellcheck disable=SC2086 # options, split
./truth $args >/tmp/truth.out 2>&1
relay /tmp/truth.out
if [ "$memcg" = 1 ] && grep -q bulk_fallback /tmp/truth.out; then
	took=$(dmesg | sed -n 's/.*bulk_fallback: \([0-9]*\) of .*/\1/p' | tail -n 1)
	dmesg | grep 'bulk_fallback:' | tail -n 1 | show
	check bulk-fallback-taken [ "${took:-0}" -gt 0 ]
fi
# No bulk call went uncounted for want of a kretprobe instance. Not
# kmem_cache_free()'s kprobe (before 6.0, where its event lacks the
# cache): kprobes count as missed a hit on a CPU where another kprobe's
# handler runs, and an interrupt that frees an object while one runs (on
# 5.10 the ftrace-based kprobe's handler runs with interrupts on) is such
# a hit, once in a cold make check here (guest-5.10-truth and
# arm64-5.10-truth, every count of the patterns exact). It is
# shown, as the module reports it (probe_kmem_cache_free_missed): a
# free not counted, a limit of kprobes on those kernels.
if grep '^probe_.*_missed ' /proc/mstat >/tmp/missed &&
   ! grep -v '^probe_kmem_cache_free_missed ' /tmp/missed | grep -qv ' 0$'; then
	ok probes-missed-none
	grep '^probe_kmem_cache_free_missed [1-9]' /tmp/missed | show
else
	show /tmp/missed
	not_ok "probes-missed-none: a probe missed calls"
fi
# Every alloc_pages_bulk() call found a page watch free.
full=$(awk '$1 == "page_watch_full" { print $2 }' $D/internals)
check page-watch-full-none [ "$full" = 0 ]
# Every named per-cache row's object size against /sys/kernel/slab.
cat /proc/mstat >/tmp/final
mstat_objsize /tmp/final
# The whole-memory account, where the guest has the tool: the snapshot's
# invariants, then mstat memory (mstat_memory_check, lib.sh).
if [ -x ./mstat ]; then
	check mstat-check ./mstat check /proc/mstat
	mstat_memory_check
fi
# The account's page tables and kernel stacks against a process that
# makes a known amount of each (mstat_acct_check, lib.sh).
[ -x ./acct ] && mstat_acct_check
check rmmod-truth rmmod mstat_truth
check rmmod-mstat rmmod mstat
finish
