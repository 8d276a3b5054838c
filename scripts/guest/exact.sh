# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The heap profile's sample of an alloc_pages_exact() block is the bytes
# its caller holds (issue 62, "Samples"): alloc_pages_exact(3 MiB) takes
# an order-10 block (4 MiB), traced and sampled at that order, and gives
# back its last 1 MiB before it returns; mstat_bulk.c's kretprobe cuts
# the sample to 3 MiB there (mstat_count_page_trim()). Every kernel
# (5.10 splits the block with split_page(), 6.1 and 6.12 inline, 7.x as
# learnt at load).
#
#  - exact-sampled: both blocks of tests/hold/mstat_hold.ko exact=2
#    exact_size=3 MiB sampled at hold_exact(), past the allocator's
#    frames (profile_pages=1, at a rate that samples a 3 MiB block with
#    probability 1 - exp(-48));
#  - exact-live: their live sampled bytes (/proc/mstat_sites'
#    sampled_bytes, and alloc_bytes - free_bytes) 2 x 3 MiB, not
#    2 x 4 MiB;
#  - exact-freed: once the module is gone, none left live, every byte
#    sampled freed (the rows found again by their figures, not by their
#    site's name, which went with the module).
#
# Groups: profile, pages. Runs in /mstat with mstat.ko, mstat_hold.ko.
set -u
. ./lib.sh

size=$((3 << 20))
check insmod-mstat insmod ./mstat.ko profile_pages=1 profile_rate=65536
check insmod-hold insmod ./mstat_hold.ko exact=2 exact_size=$size
dmesg | grep -E 'mstat: (alloc_pages_exact|page stacks)|mstat_hold: held' | show
# est_bytes est_calls sampled_bytes sampled_calls allocs alloc_bytes
# frees free_bytes cgroup node cache source site [module]
exact_rows() {
	awk '$1 ~ /^[0-9]/ && $12 == "page" && $13 ~ /^hold_exact\+/' \
		/proc/mstat_sites
}
exact_rows >/tmp/held
show /tmp/held
calls=$(awk '{ n += $5 } END { print n + 0 }' /tmp/held)
inuse=$(awk '{ n += $3 } END { print n + 0 }' /tmp/held)
live=$(awk '{ n += $6 - $8 } END { print n + 0 }' /tmp/held)
diag "hold_exact: $calls sampled, $inuse bytes in use, $live live (allocated - freed); truth 2 x $size"
check exact-sampled [ "$calls" -eq 2 ]
check exact-live [ "$inuse" -eq $((2 * size)) -a "$live" -eq $((2 * size)) ]
check rmmod-hold rmmod mstat_hold
# The same rows, by their labels and their sampled allocations and
# bytes, which only grow: with the module gone its site is no longer
# named hold_exact() (6.12 and 7.3 name it after mstat's init text).
awk '{ k = $5 " " $6 " " $9 " " $10 " " $11 " " $12 }
	NR == FNR { want[k]++; next }
	$1 ~ /^[0-9]/ && want[k] > 0 { want[k]--; print }' \
	/tmp/held /proc/mstat_sites >/tmp/freed
show /tmp/freed
rows=$(wc -l </tmp/held)
found=$(wc -l </tmp/freed)
inuse=$(awk '{ n += $3 } END { print n + 0 }' /tmp/freed)
live=$(awk '{ n += $6 - $8 } END { print n + 0 }' /tmp/freed)
diag "after the unload: $found of $rows rows found, $inuse bytes in use, $live live"
check exact-freed [ "$rows" -gt 0 -a "$found" -eq "$rows" -a "$inuse" -eq 0 -a "$live" -eq 0 ]
check rmmod-mstat rmmod mstat
finish
