# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the whole-memory account at boot: mstat loaded first
# thing, before anything of the guest's own runs (the kernel's boot and
# the busybox init that starts this script come before it), with pages
# sampled (profile_pages=1) at MEMORY_RATE (default 65536) bytes a sample;
# then a little work (a walk of /sys, a file written and read, a shell
# pipeline), then `mstat memory` read as text and JSON:
#
#  - memory-account-*: its lines add up, MemTotal is meminfo's
#    (mstat_memory_check, lib.sh);
#  - memory-at-load: the kernel's counters at mstat's load are given
#    (format 1.7), and what the slab held then is printed: the memory
#    that predates mstat;
#  - memory-raw-sampled: raw pages by caller are given, each caller's
#    estimate with its standard error;
#  - memory-unexplained-named: the unexplained rest less the raw pages
#    the samples name, as a share of MemTotal, printed; at most
#    MEMORY_MAX_PERMILLE (default 10: 1%) of it, unless MEMORY_JUDGE=0.
#
# Then live means live (format 1.8): mstat loaded again, after that work,
# and the kernel's caches dropped (drop_caches: dentries, inodes, pages
# of files, all allocated before this load). A row's live count starts
# from what its cache held at load, so:
#
#  - live-means-live-caches, live-means-live-kmalloc: no cache row and no
#    kmalloc_class row below "large" reads below zero, where their counts
#    since load alone (1.7's live counts) do; both figures are printed,
#    with the bytes the rows held at load. "large" (kmalloc's pages) and
#    the page orders have no count at load: how far they read below zero
#    is printed, not judged.
set -u
. ./lib.sh

rate=$(sed -n 's/.*MEMORY_RATE=\([0-9]*\).*/\1/p' /proc/cmdline)
max=$(sed -n 's/.*MEMORY_MAX_PERMILLE=\([0-9]*\).*/\1/p' /proc/cmdline)
judge=$(sed -n 's/.*MEMORY_JUDGE=\([01]\).*/\1/p' /proc/cmdline)
check insmod-mstat insmod ./mstat.ko profile_pages=1 \
	profile_rate="${rate:-65536}"
diag "loaded at $(cut -d' ' -f1 /proc/uptime) s of uptime"
ls -R /sys >/dev/null 2>&1
dd if=/dev/zero of=/tmp/zero bs=64k count=64 2>/dev/null
cat /tmp/zero >/dev/null
rm -f /tmp/zero
sleep 1
check mstat-check ./mstat check /proc/mstat
mstat_memory_check
check memory-at-load grep -q '^kernel_slab_unreclaimable_bytes_at_load [0-9]' /proc/mstat
grep '_at_load ' /proc/mstat | show
total=$(awk -F'|' '$2 == "MemTotal" { print $3 }' /tmp/memory.rows)
rest=$(awk -F'|' '$2 == "unexplained" { print $3 }' /tmp/memory.rows)
raw=$(awk -F'|' '$2 == "of which raw pages, sampled" { print $3 }' /tmp/memory.rows)
check memory-raw-sampled [ -n "$raw" ]
left=$((rest - ${raw:-0}))
permille=$(awk -v l="$left" -v t="$total" 'BEGIN { printf "%d", 1000 * l / t }')
diag "unexplained $rest bytes, of which sampled raw pages $raw: $left left, $(awk -v l="$left" -v t="$total" 'BEGIN { printf "%.2f", 100 * l / t }')% of MemTotal $total"
if [ "${judge:-1}" = 1 ]; then
	check memory-unexplained-named [ "$permille" -le "${max:-10}" ]
fi
check rmmod-mstat rmmod mstat

check insmod-mstat-late insmod ./mstat.ko
ls -R /sys >/dev/null 2>&1
check drop-caches sh -c 'echo 3 >/proc/sys/vm/drop_caches'
cat /proc/mstat >/tmp/late
check mstat-check-late ./mstat check /tmp/late
# cache id object_size allocs frees failures live_objects live_bytes state name at_load
awk '$1 == "cache" { n++; if ($7 < 0) neg++; if ($7 - $11 < 0) old++; b += $11 * $3 }
	END { printf "%d %d %d %d\n", n, neg, old, b }' /tmp/late >/tmp/late.caches
# kmalloc_class size allocs frees live_objects live_bytes at_load
awk '$1 == "kmalloc_class" && $2 != "large" { if ($5 < 0) neg++; if ($5 - $7 < 0) old++; b += $7 * $2 }
	$1 == "kmalloc_class" && $2 == "large" { large = $5 }
	$1 == "order" && $6 < 0 { op += $6 }
	END { printf "%d %d %d %d %d\n", neg, old, b, large, op }' /tmp/late >/tmp/late.kmalloc
read -r n neg old b </tmp/late.caches
diag "cache rows: $n; below zero: $neg, counted since load alone: $old; held at load: $b bytes"
check live-means-live-caches [ "$((n > 0 && neg == 0))" = 1 ]
read -r neg old b large op </tmp/late.kmalloc
diag "kmalloc_class rows below zero: $neg, counted since load alone: $old; held at load: $b bytes; large: $large objects; page orders below zero: $op pages"
check live-means-live-kmalloc [ "$neg" = 0 ]
check rmmod-mstat-late rmmod mstat
finish
