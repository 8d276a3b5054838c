# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# shellcheck disable=SC3043 # busybox ash has "local"
# Each page kind's frames, checked against known allocations: mstat
# memory sorts the heap profile's page samples into
# kinds by their stacks' frames (tools/mstat/pages.c's page_frames[]),
# and names the rest raw pages by caller. A page misfiled as raw counts
# twice: in the kernel's line (Shmem, AnonHugePages, VmallocUsed, Slab)
# and again among the unexplained raw pages. Each step makes a known
# amount of one kind, then reads `mstat memory --json` with the test's
# own page rows alone (--sites: /proc/mstat_sites cut to the rows of the
# step's own memory cgroup, or whose stack holds a frame of
# mstat_hold.ko), and judges:
#
#  - kinds-KIND-STEP: that kind's estimate (pages_sampled) is the truth,
#    the bytes made, within 4 of its standard errors
#    (pages_sampled_stderr, as the tool computes it: 0 for objects far
#    above the rate, such as 2 MiB folios at 64 KiB, so those are exact);
#  - kinds-STEP-not-raw: no raw page among those rows (no raw caller row,
#    the raw estimate 0).
#
# The steps, profile_pages=1 at profile_rate=65536:
#  - kmalloc: tests/hold/mstat_hold.ko kmalloc=256 kmalloc_size=32768,
#    8 MiB of large kmallocs (above 8 KiB, the page allocator's): slab;
#  - vmalloc: mstat_hold.ko vmalloc=8 vmalloc_size=4 MiB: vmalloc. From
#    5.13 to 6.x vmalloc() takes its order-0 pages from
#    alloc_pages_bulk(), sampled through mstat's probe on it: where the
#    probe is off (probe_alloc_pages_bulk 0) and no page was sampled,
#    the kind's check is a skip that says so, not a pass;
#  - shmem: ./huge (tests/helpers/huge.c) writes 32 MiB to a tmpfs
#    mounted huge=always, 2 MiB folios (shmem_alloc_hugepage,
#    shmem_alloc_hugefolio or shmem_alloc_folio by kernel): file, and
#    meminfo's ShmemHugePages moved by them (kinds-shmem-huge; tmpfs
#    takes small pages where no 2 MiB block is free, even after the
#    compaction each huge step begins with: then a skip that says how
#    many folios the kernel gave);
#  - thp: ./huge thp 32, MADV_HUGEPAGE and a write a page, each 2 MiB one
#    do_huge_pmd_anonymous_page(): anon, all of it AnonHugePages
#    (kinds-thp-huge);
#  - collapse: ./huge collapse 32 with the system's THP "never" (no
#    khugepaged, no huge fault), written as small pages, then
#    MADV_COLLAPSE: collapse_huge_page() in the helper: anon, all of it
#    huge after (kinds-collapse-huge). Before 6.1 (no MADV_COLLAPSE) a
#    skip that says so.
# Without transparent huge pages in the kernel the last three are skips.
#
# KINDS_TAMPER=1 on the command line (the broken build's guest): each
# step judged against a false truth, the expected kind swapped (slab for
# vmalloc and back, anon for file and back), and raw pages of its own
# (mstat_hold.ko pages=256 pages_order=1, hold_pages(), loaded with it
# or in its cgroup): every kind and not-raw check must fail, and passes
# as NAME-caught if it does.
#
# Groups: profile, pages. Runs in /mstat with mstat.ko, mstat_hold.ko,
# ./mstat and ./huge.
# Kernels: 6.12 5.10 6.1 7.3
set -u
. ./lib.sh

tamper=$(sed -n 's/.*KINDS_TAMPER=\([01]\).*/\1/p' /proc/cmdline)
# shellcheck disable=SC2034 # read by judge() (lib.sh)
broken=${tamper:-0}
tamper=${tamper:-0}
rate=65536 mib=32
rel=$(uname -r)
major=${rel%%.*} minor=${rel#*.} minor=${minor%%.*}
cg=/sys/fs/cgroup
thp=/sys/kernel/mm/transparent_hugepage
# The raw pages a tampered step makes among its own.
raw_args='pages=256 pages_order=1'


# own_sites cgroup ID|module NAME OUT: /proc/mstat_sites cut to the rows
# of cgroup ID, or to those whose site or stack is in module NAME, each
# with its frames and live lines, the header's row count made theirs.
own_sites() {
	awk -v mode="$1" -v want="$2" '
	function flush() {
		if (blk != "" && keep) {
			body = body blk
			n++
		}
		blk = ""
		keep = 0
	}
	NR == 1 || /^#/ { flush(); head[++nh] = $0; next }
	/^[0-9]/ {
		flush()
		blk = $0 "\n"
		keep = mode == "cgroup" ? $9 == want : index($0, " [" want "]") > 0
		next
	}
	{
		blk = blk $0 "\n"
		if (mode == "module" && index($0, " [" want "]"))
			keep = 1
	}
	END {
		flush()
		for (i = 1; i <= nh; i++) {
			if (head[i] ~ /^# snapshot /)
				sub(/ stacks [0-9]+/, " stacks " n + 0, head[i])
			print head[i]
		}
		printf "%s", body
	}' /proc/mstat_sites >"$3"
}

# jget JSON OBJECT KEY: a number of one of mstat memory --json's
# pages_sampled objects.
jget() {
	sed -n "s/^  \"$2\": {.*[{,] \"$3\": \(-*[0-9]*\).*/\1/p" "$1"
}

# kinds_read STEP SITES: mstat memory --json over SITES alone into
# /tmp/kinds-STEP.json, its rows and figures shown.
kinds_read() {
	local j="/tmp/kinds-$1.json"
	awk '/^[0-9]/ && $12 == "page" { print $1, $4, $14 }' "$2" |
		sort -rn | head -n 8 | show
	./mstat memory --json --sites "$2" >"$j" 2>/tmp/kinds.err ||
		{ show /tmp/kinds.err; return 1; }
	grep -E '^  "pages_sampled' "$j" | show
	grep '"line": "unexplained\.raw_sampled' "$j" | show
}

# kind_ok JSON KIND TRUTH: KIND's estimate is TRUTH within 4 s.e.
kind_ok() {
	local est se
	est=$(jget "$1" pages_sampled "$2")
	se=$(jget "$1" pages_sampled_stderr "$2")
	[ -n "$est" ] && [ -n "$se" ] && within "$est" "$3" $((4 * se))
}

# not_raw JSON: no raw caller row, the raw estimate 0.
not_raw() {
	! grep -q '"line": "unexplained\.raw_sampled\.' "$1" &&
	[ "$(jget "$1" pages_sampled raw)" = 0 ]
}

# judge_step STEP KIND TRUTH: the step's two checks (kind swapped with
# KINDS_TAMPER=1).
judge_step() {
	local j="/tmp/kinds-$1.json" want="$2" est se n
	[ "$3" = skipped ] && { judge_not_raw "$1"; return; }
	if [ "$tamper" = 1 ]; then
		case $2 in
		slab) want=vmalloc ;; vmalloc) want=slab ;;
		file) want=anon ;; anon) want="file" ;;
		esac
	fi
	est=$(jget "$j" pages_sampled "$want")
	se=$(jget "$j" pages_sampled_stderr "$want")
	n=$(jget "$j" pages_sampled_n "$want")
	diag "$1: $want ${est:-none} bytes +- ${se:-none} (1 s.e.), ${n:-none} samples; truth $3"
	judge "kinds-$2-$1" "$want ${est:-none} +- 4 x ${se:-none}, truth $3" \
		kind_ok "$j" "$want" "$3"
	judge_not_raw "$1"
}

# judge_not_raw STEP: the step's not-raw check.
judge_not_raw() {
	local j="/tmp/kinds-$1.json"
	judge "kinds-$1-not-raw" "raw $(jget "$j" pages_sampled raw), callers: $(sed -n 's/.*"name": "\([^"]*\)", "bytes": \([0-9]*\), "line": "unexplained\.raw_sampled\..*/\1 \2;/p' "$j" | tr '\n' ' ')" \
		not_raw "$j"
}

# in_cgroup NAME CMD...: CMD run in memory cgroup NAME (made if need be).
in_cgroup() {
	local c="$cg/$1"
	shift
	mkdir -p "$c"
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$c" "$@"
}

# cg_id NAME: the cgroup's id, as /proc/mstat_sites labels its rows (the
# cgroup v2 directory's inode number on 64-bit).
cg_id() {
	mkdir -p "$cg/$1"
	stat -c %i "$cg/$1"
}

# bulk_vmalloc: vmalloc() takes its order-0 pages from alloc_pages_bulk()
# here (5.13 to 6.x; 7.x splits a larger block, split_page()).
bulk_vmalloc() {
	[ "$major" = 6 ] || { [ "$major" = 5 ] && [ "$minor" -ge 13 ]; }
}

# hold_step STEP KIND TRUTH ARGS...: mstat_hold.ko loaded with ARGS, its
# own rows judged, unloaded.
hold_step() {
	local step="$1" kind="$2" truth="$3" n
	shift 3
	# shellcheck disable=SC2086 # the raw pages' arguments, split
	[ "$tamper" = 1 ] && set -- "$@" $raw_args
	check "insmod-hold-$step" insmod ./mstat_hold.ko "$@"
	dmesg | grep 'mstat_hold: held' | tail -n 1 | show
	own_sites module mstat_hold "/tmp/kinds-$step.sites"
	check "read-$step" kinds_read "$step" "/tmp/kinds-$step.sites"
	check "rmmod-hold-$step" rmmod mstat_hold
	n=$(jget "/tmp/kinds-$step.json" pages_sampled_n "$kind")
	if [ "$step" = vmalloc ] && [ "${n:-0}" = 0 ] && bulk_vmalloc &&
	   ! grep -qx 'probe_alloc_pages_bulk 1' /proc/mstat; then
		skip "kinds-$kind-$step" "no page sample of vmalloc()'s pages on $rel: from 5.13 to 6.x they come from alloc_pages_bulk(), which mstat cannot probe here (probe_alloc_pages_bulk 0)"
		truth=skipped
	fi
	judge_step "$step" "$kind" "$truth"
}

# helper_step STEP KIND ARGS...: ./huge ARGS run in cgroup kinds-STEP
# (with KINDS_TAMPER=1 mstat_hold.ko's raw pages made in it too), held
# while its own rows are read and judged; "ready BYTES HUGE" is its
# truth. Sets $huge to HUGE, or returns 2 on the helper's skip.
helper_step() {
	local step="$1" kind="$2" id out="/tmp/kinds-$1.out" i rc=0
	shift 2
	id=$(cg_id "kinds-$step")
	diag "$step: cgroup kinds-$step, id $id"
	# shellcheck disable=SC2086 # the raw pages' arguments, split
	[ "$tamper" = 1 ] &&
		check "insmod-hold-$step" in_cgroup "kinds-$step" \
			insmod ./mstat_hold.ko $raw_args
	rm -f /tmp/kinds.in
	mkfifo /tmp/kinds.in
	in_cgroup "kinds-$step" ./huge "$@" </tmp/kinds.in >"$out" 2>&1 &
	exec 3>/tmp/kinds.in
	i=0
	while ! grep -qE '^(ready|skip) ' "$out" && [ $i -lt 600 ]; do
		kill -0 $! 2>/dev/null || break
		sleep 0.2
		i=$((i + 1))
	done
	show "$out"
	huge=''
	if grep -q '^skip ' "$out"; then
		skip "kinds-$kind-$step" "$(sed -n 's/^skip //p' "$out") on $rel"
		rc=2
	elif check "helper-$step-ready" grep -q '^ready ' "$out"; then
		huge=$(awk '$1 == "ready" { print $3 }' "$out")
		own_sites cgroup "$id" "/tmp/kinds-$step.sites"
		check "read-$step" kinds_read "$step" "/tmp/kinds-$step.sites"
		judge_step "$step" "$kind" "$(awk '$1 == "ready" { print $2 }' "$out")"
	else
		rc=1
	fi
	exec 3>&-
	wait
	[ "$tamper" = 1 ] && check "rmmod-hold-$step" rmmod mstat_hold
	return $rc
}

meminfo() { awk -v k="$1:" '$1 == k { print $2 * 1024 }' /proc/meminfo; }

# compact: free memory made into 2 MiB blocks where it can be (page cache
# dropped, then the whole of it compacted), so that a huge allocation
# that does not retry finds one.
compact() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	[ -w /proc/sys/vm/compact_memory ] && echo 1 >/proc/sys/vm/compact_memory
	return 0
}

check insmod-mstat insmod ./mstat.ko profile_pages=1 profile_rate=$rate
diag "kernel $rel; KINDS_TAMPER=$tamper"

# Large kmallocs and vm areas, from the hold module.
hold_step kmalloc slab $((256 * 32768)) kmalloc=256 kmalloc_size=32768
hold_step vmalloc vmalloc $((8 << 22)) vmalloc=8 vmalloc_size=$((4 << 20))

mkdir -p $cg
grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg
if [ ! -d $thp ]; then
	for s in shmem thp collapse; do
		skip "kinds-$s" "no transparent huge pages in $rel (no $thp)"
	done
	check rmmod-mstat rmmod mstat
	finish
fi
diag "THP: enabled $(cat $thp/enabled), shmem_enabled $(cat $thp/shmem_enabled 2>/dev/null)"

# Huge shmem: a tmpfs of 2 MiB folios.
mkdir -p /mnt/kinds
if mount -t tmpfs -o huge=always,size=$((2 * mib))m none /mnt/kinds; then
	# tmpfs asks for its 2 MiB folios without retrying and falls back
	# to small pages where none is free (5.10 did so for some once, in
	# CI): memory compacted first, and a shortfall the
	# kernel's, said as a skip, not mstat's failure (the step's kind
	# was judged on what the kernel gave either way).
	compact
	h0=$(meminfo ShmemHugePages)
	helper_step shmem file shmem /mnt/kinds/f $mib
	h1=$(meminfo ShmemHugePages)
	diag "ShmemHugePages: $h0 before, $h1 after"
	if [ $((h1 - h0)) -ge $((mib << 20)) ]; then
		check kinds-shmem-huge true
	else
		skip kinds-shmem-huge "the kernel gave $(((h1 - h0) >> 21)) of $((mib / 2)) 2 MiB folios to tmpfs on $rel (no free huge page after compaction)"
	fi
	rm -f /mnt/kinds/f
	umount /mnt/kinds
else
	skip kinds-file-shmem "tmpfs refused huge=always on $rel"
fi

# Anonymous huge pages, faulted.
compact
if helper_step thp anon thp $mib; then
	check kinds-thp-huge [ "${huge:-0}" = $((mib << 20)) ]
fi

# A range of small pages collapsed, THP off meanwhile (no khugepaged).
was=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $thp/enabled)
echo never >$thp/enabled
compact
if helper_step collapse anon collapse $mib; then
	check kinds-collapse-huge [ "${huge:-0}" = $((mib << 20)) ]
fi
echo "$was" >$thp/enabled

check mstat-check ./mstat check /proc/mstat
check rmmod-mstat rmmod mstat
finish
