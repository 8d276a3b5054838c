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
finish
