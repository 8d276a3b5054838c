# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# shellcheck disable=SC3043 # busybox ash has "local"
# alloc_pages_bulk()'s pages are sampled for the heap profile as traced
# pages are: the
# pages it takes from the per-CPU lists trace no mm_page_alloc, and
# mstat_kprobes.c's kretprobe counts them; with profile_pages=1 it also
# samples each at the profile's rate, its stack from the call's return
# address, and the mm_page_free probe matches its free. page_pool's RX
# buffers and 6.x vmalloc()'s order-0 pages come so. 6.12 and 7.3 (5.10
# has no alloc_pages_bulk()).
#
# tests/hold/mstat_hold.ko bulk_pages=8192 holds N = 8192 order-0 pages
# (32 MiB) from alloc_pages_bulk() called by hold_bulk(). At
# profile_rate=R=16384 a page of S = 4096 bytes is sampled with
# probability p = 1 - exp(-S/R) = 0.221, each page on its own (the
# countdown is exponential, memoryless): about 1800 samples, and the
# estimate N S k/(N p) has a standard error of S sqrt(N (1 - p) / p),
# 2.1% of the truth.
#
#  - bulk-sampled: /proc/mstat_sites has page rows whose site is
#    hold_bulk(), past the allocator's frames and the kretprobe's own;
#  - bulk-stack: the first one's stack goes on past hold_bulk() to its
#    callers: the unwinder crossed the kretprobe's trampoline (a stack
#    of one frame would be the site alone, "leafless");
#  - bulk-estimate: their estimated bytes in use within 4 standard
#    errors of N S (a true estimator fails it once in 16000 runs);
#  - bulk-freed: once the module is gone, those rows hold nothing live,
#    and every sampled page's free was matched. They are found again by
#    their labels and their sampled allocations and bytes (which only
#    grow), not by their site's name: the module's text is gone, and
#    6.12 then named the same site "mstat_init+0x107/0xff0 [mstat]".
#
# BULKPAGES_BROKEN=1 on the command line: the broken build's guest
# (MSTAT_MUT_BULK_UNSAMPLED: the bulk pages counted, never sampled):
# bulk-sampled and bulk-estimate must fail, and pass as "NAME-caught" if
# they do; bulk-stack and bulk-freed have no rows to judge there.
#
# Groups: profile, pages. Runs in /mstat with mstat.ko, mstat_hold.ko.
# Kernels: 6.12 6.1 7.3
# (5.10 has no alloc_pages_bulk())
set -u
. ./lib.sh

broken=$(sed -n 's/.*BULKPAGES_BROKEN=\([01]\).*/\1/p' /proc/cmdline)
n=8192 size=4096 rate=16384


check insmod-mstat insmod ./mstat.ko profile_pages=1 profile_rate=$rate
grep '^probe_alloc_pages_bulk' /proc/mstat | show
check insmod-hold insmod ./mstat_hold.ko bulk_pages=$n
dmesg | grep -E 'mstat: (alloc_pages_bulk|page stacks)|mstat_hold: held' | show
# est_bytes est_calls sampled_bytes sampled_calls allocs alloc_bytes
# frees free_bytes cgroup node cache source drops site [module]
awk '$1 ~ /^-?[0-9]/ && $12 == "page" && $14 ~ /^hold_bulk\+/' \
	/proc/mstat_sites >/tmp/held
show /tmp/held
rows=$(wc -l </tmp/held)
samples=$(awk '{ n += $5 } END { print n + 0 }' /tmp/held)
est=$(awk '{ n += $1 } END { printf "%d\n", n }' /tmp/held)
# The bound: 4 standard errors of the estimate of N pages of S bytes.
# (busybox's awk has no exp() nor sqrt(): a series and Newton's steps.)
bound=$(awk -v n=$n -v s=$size -v r=$rate 'BEGIN {
	e = 1; t = 1
	for (i = 1; i < 40; i++) { t *= s / r / i; e += t }
	p = 1 - 1 / e; v = n * (1 - p) / p; y = v
	for (i = 0; i < 100; i++) y = (y + v / y) / 2
	printf "%d\n", 4 * s * y }')
truth=$((n * size))
off=$((est > truth ? est - truth : truth - est))
diag "hold_bulk: $rows rows, $samples pages sampled, $est bytes estimated in use; truth $truth, off by $off, bound $bound (4 s.e.)"
judge bulk-sampled "no sampled page named hold_bulk()" [ "$samples" -gt 0 ]
within() { [ "$samples" -gt 0 ] && [ "$off" -le "$bound" ]; }
judge bulk-estimate "estimate $est, truth $truth, off by $off > $bound" within
# The first row's frames (the lines after it that start with a tab): a
# stack unwound across the kretprobe's trampoline holds hold_bulk()'s
# callers; one the unwinder stopped at it is the site alone, leafless.
awk '$1 ~ /^-?[0-9]/ { on = !done && $12 == "page" && $14 ~ /^hold_bulk\+/
		done = done || on; next }
	on && /^\t/' /proc/mstat_sites >/tmp/frames
show /tmp/frames
frames=$(wc -l </tmp/frames)
grep '^# snapshot' /proc/mstat_sites | show
if [ "${broken:-0}" = 1 ]; then
	diag "bulk-stack: not judged (no sampled rows in the broken build)"
else
	check bulk-stack [ "$frames" -gt 0 ]
fi
check rmmod-hold rmmod mstat_hold
# The same rows, by their labels and their sampled allocations and
# bytes, which only grow: their site is no longer named hold_bulk().
awk '{ k = $5 " " $6 " " $9 " " $10 " " $11 " " $12 }
	NR == FNR { want[k]++; next }
	$1 ~ /^-?[0-9]/ && want[k] > 0 { want[k]--; print }' \
	/tmp/held /proc/mstat_sites >/tmp/freed
show /tmp/freed
found=$(wc -l </tmp/freed)
inuse=$(awk '{ n += $3 } END { print n + 0 }' /tmp/freed)
live=$(awk '{ n += $6 - $8 } END { print n + 0 }' /tmp/freed)
unmatched=$(awk '{ n += $5 - $7 } END { print n + 0 }' /tmp/freed)
diag "after the unload: $found of $rows rows found, $inuse bytes in use, $live live, $unmatched samples without their free"
if [ "${broken:-0}" = 1 ]; then
	diag "bulk-freed: not judged (no sampled rows in the broken build)"
else
	freed() {
		[ "$rows" -gt 0 ] && [ "$found" -eq "$rows" ] &&
			[ "$inuse" -eq 0 ] && [ "$live" -eq 0 ] &&
			[ "$unmatched" -eq 0 ]
	}
	check bulk-freed freed
fi
grep '^bulk_pages_' /sys/kernel/debug/mstat/internals 2>/dev/null | show
check rmmod-mstat rmmod mstat
finish
