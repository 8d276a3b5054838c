# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the whole-memory account with swap: a zram device as the
# swap (Debian's zram.ko and what it needs, copied in as ./zram/ with
# their load order, zram/order), mstat loaded, then ./swapper (copied in)
# writing 96 MiB of anonymous memory in a memory cgroup of 32 MiB and
# reading it all back, so that most of it went out to swap and part of it
# came back in through the swap cache, mapped again. With it held, after
# the kernel's per-CPU vmstat differences are folded (vm.stat_refresh):
#
#  - swap-used: at least 32 MiB of swap in use (meminfo);
#  - account-swap-file: mstat memory's file line is NR_FILE_PAGES less
#    the swap cache, /proc/meminfo's Cached + Buffers (within the node
#    counters' lag bound): a swapped-in page mapped again is anon, and
#    its swap cache page is not counted a second time as file;
#  - account-swap-once: the unexplained rest did not fall by the swap
#    cache (counted twice, it would: within the lag bounds and the
#    background of an idle read beside it);
#  - account-zsmalloc: the zsmalloc line is zram's own count of the
#    memory its pool uses (/sys/block/zram0/mm_stat's mem_used_total),
#    within the zone counters' lag bound;
#  - account-swap-nonneg, account-swap-reset-*: no line below zero (a
#    line the kernel's counters make, by more than unexplained's stated
#    bound: their lag), then a reset with all of it held: still none, no
#    `.mstat` line below zero, and unexplained where it was, within the
#    slack above (a reset moves mstat's counts between a kind's lines,
#    never memory); and the same judged against a tampered truth (64
#    MiB moved): account-swap-reset-still-tamper passes if that fails.
#
# Each check prints both figures; every line of the account is printed.
set -u
. ./lib.sh

mi() { awk -v k="$1:" '$1 == k { print $2 * 1024 }' /proc/meminfo; }
lag() { awk -v k="$1" '$1 == k { print $2 }' /proc/mstat; }

while read -r m; do
	check "insmod-$m" insmod "zram/$m.ko"
done <zram/order
check zram-swap sh -c 'echo 256M >/sys/block/zram0/disksize &&
	mkswap /dev/zram0 >/dev/null && swapon /dev/zram0'
check insmod-mstat insmod ./mstat.ko
mkdir -p /sys/fs/cgroup
check cgroup-made sh -c 'mount -t cgroup2 none /sys/fs/cgroup &&
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control &&
	mkdir /sys/fs/cgroup/swap && echo 32M >/sys/fs/cgroup/swap/memory.max'
sleep 1
check read-idle-0 read_account /tmp/s0
sleep 1
check read-idle-1 read_account /tmp/s1
bg=$(abs $(($(val /tmp/s1 unexplained) - $(val /tmp/s0 unexplained))))

mkfifo /tmp/swapper.in
sh -c 'echo $$ >/sys/fs/cgroup/swap/cgroup.procs && exec ./swapper 96' \
	</tmp/swapper.in >/tmp/swapper.out 2>&1 &
exec 3>/tmp/swapper.in
i=0
while ! grep -q '^ready' /tmp/swapper.out && [ $i -lt 600 ]; do
	kill -0 $! 2>/dev/null || break
	sleep 0.5
	i=$((i + 1))
done
show /tmp/swapper.out
check swapper-ready grep -q '^ready' /tmp/swapper.out
check read-held read_account /tmp/s2
show /tmp/account.json
grep -E '^(SwapTotal|SwapFree|SwapCached|Cached|Buffers|AnonPages):' /proc/meminfo | show
mm=$(cat /sys/block/zram0/mm_stat)
diag "zram0 mm_stat: $mm"
zlag=$(lag kernel_zone_stat_lag_bytes) nlag=$(lag kernel_node_stat_lag_bytes)
diag "lag bounds: zone counters $zlag, node counters $nlag bytes; background $bg"

used=$(($(mi SwapTotal) - $(mi SwapFree)))
check swap-used [ "$used" -ge $((32 << 20)) ]
file=$(val /tmp/s2 user.file) want=$(($(mi Cached) + $(mi Buffers)))
diag "file line $file, meminfo Cached + Buffers $want (SwapCached $(mi SwapCached))"
check account-swap-file within "$file" "$want" "$((nlag + nlag))"
u0=$(val /tmp/s1 unexplained) u2=$(val /tmp/s2 unexplained)
diag "unexplained: $u0 before, $u2 with the swapper held"
# Every counter of the sum may lag: at most a node or zone bound each.
slack=$((8 * (zlag + nlag) + bg))
check account-swap-once [ $((u2 - u0)) -ge $((-slack)) ]
zs=$(val /tmp/s2 kernel.zsmalloc)
pool=$(echo "$mm" | awk '{ print $3 }')
diag "zsmalloc line ${zs:-none}, zram's mem_used_total $pool"
check account-zsmalloc within "${zs:-0}" "$pool" "$zlag"

# nonneg FILE BOUND: no line of FILE below -BOUND, no .mstat one below 0.
nonneg() {
	awk -v b="$2" '($2 < -b || ($1 ~ /\.mstat$/ && $2 < 0)) {
		print "below zero: " $1 " " $2; bad = 1 } END { exit bad }' "$1"
}
bound=$(sed -n 's/.*"unexplained_bound": \(-*[0-9]*\).*/\1/p' /tmp/account.json)
check account-swap-nonneg nonneg /tmp/s2 "${bound:-0}"
check reset sh -c 'echo 1 >/sys/module/mstat/parameters/reset'
check read-reset read_account /tmp/s3
u3=$(val /tmp/s3 unexplained)
diag "after a reset: unexplained $u3 (was $u2), bound ${bound:-none}"
grep -E '\.mstat ' /tmp/s3 | show
check account-swap-reset-nonneg nonneg /tmp/s3 "${bound:-0}"
check account-swap-reset-still within "$u3" "$u2" "$slack"
moved() { ! within "$u3" "$1" "$slack"; }
check account-swap-reset-still-tamper moved $((u2 + (64 << 20)))

exec 3>&-
wait
check swapoff swapoff /dev/zram0
check rmmod-mstat rmmod mstat
finish
