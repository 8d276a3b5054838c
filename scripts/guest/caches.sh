# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the per-cache test: mstat's cache rows against what the
# mstat_cachetest module (tests/caches/) did, caches of known names made,
# used, destroyed, re-created, merged, named alike and escaped, and more
# of them than the table holds (mstat loaded with cache_rows=128). The
# test module is loaded first: objects it allocated before mstat are
# freed after. tests/helpers/caches.c, copied in as ./caches, judges;
# CACHES_ARGS on the kernel command line go to it ("-n": names must be
# off, a broken build's test; "-a": the re-created cache must reuse the
# address). Then every named row's object size against
# /sys/kernel/slab (mstat_objsize, lib.sh). First, the allocator's boot
# options on the command line, if any, must have taken effect
# (mstat_bootopts, lib.sh).
# Kernels: 6.12 5.10 6.1 7.3 6.12rt 6.12cloud 7.2
# Guest: '--append=CACHES_ARGS="-a"'
set -u
. ./lib.sh

args=$(sed -n 's/.*CACHES_ARGS="\([^"]*\)".*/\1/p' /proc/cmdline)
mstat_bootopts
check insmod-cachetest insmod ./mstat_cachetest.ko
# mstat_ct_pre's objects that KFENCE gave (kfence.sample_interval on the
# command line), which /proc/slabinfo, read at mstat's load, does not
# count: each is listed allocated, with no free after it.
K=/sys/kernel/debug/kfence/objects
kf=0
if [ -r $K ]; then
	kf=$(awk '/^kfence-#/ { n += pre && !freed; pre = ($0 ~ / cache=mstat_ct_pre$/); freed = 0; next }
		  /^(freed|rcu freeing) by task/ { freed = 1 }
		  END { print n + pre * !freed }' $K)
	[ "$kf" -gt 0 ] && args="$args -k $kf" && diag "KFENCE holds $kf of mstat_ct_pre's objects"
fi
check insmod-mstat insmod ./mstat.ko cache_rows=128
cat /proc/mstat >/tmp/before
# On one CPU: a destroyed cache's struct goes back to the free list of
# the CPU that frees it, and the re-created one is allocated from the
# same list only if the run is still there (unpinned, caches-reused
# failed once beside a kernel build).
check cachetest-run taskset 1 sh -c 'echo 1 >/sys/kernel/debug/mstat_cachetest/run'
cat /proc/mstat >/tmp/after
cat /sys/kernel/debug/mstat_cachetest/run >/tmp/expect
# shellcheck disable=SC2086 # options, split
./caches $args /tmp/before /tmp/after /tmp/expect >/tmp/caches.out 2>&1
relay /tmp/caches.out
# The judge's own test: one allocation too many in one row must fail it,
# and so must names, where a build has none.
# (busybox awk takes no "$4++": a field is incremented by assignment.)
awk '$1 == "cache" && $3 == 3003 { $4 = $4 + 1 } { print }' /tmp/after >/tmp/after-bad
# shellcheck disable=SC2086 # options, split
check judge-catches-count sh -c "grep -q '^cache_overflow ' /tmp/after-bad &&
	! ./caches $args /tmp/before /tmp/after-bad /tmp/expect >/dev/null"
# And one KFENCE object more than there were must fail mstat_ct_pre's
# row, where the objects at load are known: the allowance moves what
# they must be.
grep -q '^caches_at_load 1$' /tmp/after &&
	check judge-catches-kfence sh -c "! ./caches $args -k $((kf + 1)) /tmp/before /tmp/after /tmp/expect >/dev/null"
case " $args " in
*" -n "*)
	check judge-catches-no-names sh -c '! ./caches /tmp/before /tmp/after /tmp/expect >/dev/null' ;;
*)
	# Each named row's object size against /sys/kernel/slab's; and
	# that judge's own test: a row one byte off, and a row whose name
	# no cache has, must fail it.
	mstat_objsize /tmp/after
	awk '$1 == "cache" && $3 == 3003 { $3 = $3 + 1 } { print }' /tmp/after >/tmp/after-bad
	if mstat_objsize_judge /tmp/after-bad; then
		not_ok "objsize-catches-size: a row one byte off passed"
	else
		ok objsize-catches-size
	fi
	awk '$1 == "cache" && $10 == "mstat_ct_00" { $10 = "mstat_ct_none" } { print }' \
		/tmp/after >/tmp/after-bad
	if mstat_objsize_judge /tmp/after-bad; then
		not_ok "objsize-catches-name: a row of no cache's name passed"
	else
		ok objsize-catches-name
	fi ;;
esac
if mstat_check /tmp/after; then
	ok mstat-check-after
else
	not_ok mstat-check-after
	show /tmp/after
fi
diag "the table as /proc/mstat has it:"
grep -E '^(caches_|# caches|cache_overflow|cache [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ -?[0-9]+ -?[0-9]+ [a-z]+ (mstat|-|kmem_cache|dentry|inode_cache|kmalloc))' \
	/tmp/after | grep -v 'mstat_ct_many_' >/tmp/table
show /tmp/table
grep "^cache_" "$D/internals" >/tmp/internals
show /tmp/internals
check rmmod-cachetest rmmod mstat_cachetest
check rmmod-mstat rmmod mstat
finish
