# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# shellcheck disable=SC3043 # busybox ash has "local"
# The heap profile's sample of an alloc_pages_exact() block is the bytes
# its caller holds: alloc_pages_exact(3 MiB) takes
# an order-10 block (4 MiB), traced and sampled at that order, and gives
# back its last 1 MiB before it returns; mstat_exact.c's probe cuts the
# sample to 3 MiB there (mstat_count_page_trim()): a kprobe on
# make_alloc_exact() where it can (5.10, 6.1, 6.12: the log line says),
# which leaves the caller's stack whole, else kretprobes on
# alloc_pages_exact(_nid)(), whose trampoline 5.10's unwinder cannot
# cross (the caller then named wrong: elfcorehdr_read). Every kernel
# (Debian's 5.10, 6.1 and 6.12 split the block inline, with no call of
# split_page(); whether a kernel does is learnt at load).
#
#  - exact-sampled: both blocks of tests/hold/mstat_hold.ko exact=2
#    exact_size=3 MiB sampled at hold_exact(), past the allocator's
#    frames (profile_pages=1, at a rate that samples a 3 MiB block with
#    probability 1 - exp(-48));
#  - exact-live: their live sampled bytes (/proc/mstat_sites'
#    sampled_bytes, and alloc_bytes - free_bytes) 2 x 3 MiB, not
#    2 x 4 MiB;
#  - exact-freed: once the module is gone, none left live, every byte
#    sampled freed (the rows found again by their figures, which only
#    grow);
#  - exact-named: and those rows named as they were before the unload,
#    site and frames (hold_exact+0x.../0x... [mstat_hold]): mstat_profile.c's
#    module notifier kept their names as the module went, so that none is
#    named after whatever text is at its address later (without it:
#    mstat_init+0x.../0xff0 [mstat] on 7.3, [unknown] on 6.12).
#
# EXACT_BROKEN=1 on the command line: the broken build's guest
# (MSTAT_MUT_NO_EXACT: no exact probe, the sample not cut;
# MSTAT_MUT_UNLOADED_NAMES: the notifier names nothing): exact-live and
# exact-named must fail, and pass as "NAME-caught" if they do.
#
# Groups: profile, pages. Runs in /mstat with mstat.ko, mstat_hold.ko.
# Kernels: 6.12 5.10 6.1 7.3
# (make_alloc_exact()'s kprobe leaves 5.10's stacks whole, where a
# kretprobe's trampoline stopped its unwinder)
set -u
. ./lib.sh

# shellcheck disable=SC2034 # read by judge() (lib.sh)
broken=$(sed -n 's/.*EXACT_BROKEN=\([01]\).*/\1/p' /proc/cmdline)
size=$((3 << 20))


# named [KEYS]: each row of /proc/mstat_sites on one line, its labels and
# sampled figures that only grow (allocs alloc_bytes cgroup node cache
# source), "|", then its site's and frames' names; only the rows of
# hold_exact(), or with KEYS (a file of such lines), the rows whose
# figures one of its lines has.
named() {
	awk -v keys="${1:-}" '
	BEGIN { while (keys != "" && (getline l <keys) > 0) {
			split(l, f, "|"); want[f[1]]++ } }
	function flush() { if (row != "") print row; row = "" }
	$1 ~ /^-?[0-9]/ {
		flush()
		k = $5 " " $6 " " $9 " " $10 " " $11 " " $12 " "
		if (keys == "" ? $14 !~ /^hold_exact\+/ : !(want[k] > 0))
			next
		if (keys != "")
			want[k]--
		row = k "|" $14 " " $15
		next
	}
	row != "" && /^\t/ { sub(/^\t/, ""); row = row " ; " $0; next }
	{ flush() }
	END { flush() }' /proc/mstat_sites
}
check insmod-mstat insmod ./mstat.ko profile_pages=1 profile_rate=65536
check insmod-hold insmod ./mstat_hold.ko exact=2 exact_size=$size
dmesg | grep -E 'mstat: (alloc_pages_exact|page stacks)|mstat_hold: held' | show
# est_bytes est_calls sampled_bytes sampled_calls allocs alloc_bytes
# frees free_bytes cgroup node cache source drops site [module]
exact_rows() {
	awk '$1 ~ /^[0-9]/ && $12 == "page" && $14 ~ /^hold_exact\+/' \
		/proc/mstat_sites
}
exact_rows >/tmp/held
named | sort >/tmp/held-named
show /tmp/held
calls=$(awk '{ n += $5 } END { print n + 0 }' /tmp/held)
inuse=$(awk '{ n += $3 } END { print n + 0 }' /tmp/held)
live=$(awk '{ n += $6 - $8 } END { print n + 0 }' /tmp/held)
diag "hold_exact: $calls sampled, $inuse bytes in use, $live live (allocated - freed); truth 2 x $size"
check exact-sampled [ "$calls" -eq 2 ]
judge exact-live "$inuse bytes in use, $live live, truth $((2 * size))" \
	[ "$inuse" -eq $((2 * size)) -a "$live" -eq $((2 * size)) ]
check rmmod-hold rmmod mstat_hold
# The same rows, by their labels and their sampled allocations and
# bytes, which only grow (not by their names, which exact-named judges).
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
# Their names, site and frames, as they were while the module was there.
named /tmp/held-named | sort >/tmp/freed-named
show /tmp/held-named
show /tmp/freed-named
dmesg | grep -E 'mstat: heap profile: .* named for good' | show
same() { [ -s /tmp/held-named ] && cmp -s /tmp/held-named /tmp/freed-named; }
judge exact-named "the rows of hold_exact() named otherwise after the unload" same
check rmmod-mstat rmmod mstat
finish
