# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC3043 # busybox ash has "local"
# Guest side of the side-by-side bench with /proc/allocinfo
# (scripts/allocinfo.sh), on the 6.12 test kernel with
# CONFIG_MEM_ALLOC_PROFILING=y (kunit/allocinfo.kunitconfig). Run under
# qemu -icount shift=0,sleep=off with one vCPU (scripts/guest.sh --icount
# on --smp 1): a guest ns is one instruction.
#
# 1. Instructions per kmalloc+kfree pair (mstat_probe_bench mode=none,
#    200,000 pairs of 8..240 B), per variant:
#	allocinfo-on		profiling on (sysctl vm.mem_profiling=1)
#	allocinfo-off		profiling off at runtime (vm.mem_profiling=0)
#	mstat			mstat by default, profiling off
#	mstat-kmalloc-noprofile	mstat with the kmalloc source alone and the
#				profile off (counters only), profiling off
#	allocinfo-on-mstat	both
#	as-booted		whatever the command line left (a boot with
#				sysctl.vm.mem_profiling=never: the sysctl is
#				then read-only)
#	as-booted-mstat		the same with mstat by default
#    A warm-up round first, discarded, then ALLOCINFO_RUNS (default 3)
#    rounds, interleaved. Prints
#	icount: run=N variant=V insns_per_pair=X
# 2. Then, unless ALLOCINFO_SITES=0, the sites: per window, the caches
#    dropped, mstat loaded (default rate, in ALLOCINFO_WINDOWS windows,
#    default 20, named default-1...; then, window "exact", profile_rate=1:
#    every allocation sampled, with room for a million live ones),
#    /proc/allocinfo read, the mixed workload run, /proc/allocinfo and
#    /proc/mstat_sites read, mstat unloaded. allocinfo's live figures
#    over the window (after minus before) and mstat's estimated live
#    ones, each summed by function name (allocinfo's "func:NAME",
#    mstat's %pS symbol without its offset and suffixes), for
#    allocinfo's top 30 functions and mstat's top 15 (those where either
#    is not 0):
#	sites: window=W rate=R func=F ai_bytes=B ai_calls=C ms_bytes=B ms_calls=C
#    and per window the totals over every function, and mstat's header:
#	total: window=W rate=R ai_bytes=B ai_calls=C ms_bytes=B ms_calls=C ms_rows=N matched_bytes=B
#	header: window=W LINE (/proc/mstat_sites' second line: "# snapshot ...")
#
# Options on the kernel command line: ALLOCINFO_VARIANTS="V...",
# ALLOCINFO_RUNS=N, ALLOCINFO_SITES=0, ALLOCINFO_WINDOWS=N.
set -u
. ./lib.sh
P=/proc/sys/vm/mem_profiling
variants=$(sed -n 's/.*ALLOCINFO_VARIANTS="\([^"]*\)".*/\1/p' /proc/cmdline)
[ -n "$variants" ] ||
	variants="allocinfo-on allocinfo-off mstat mstat-kmalloc-noprofile
		  allocinfo-on-mstat"
runs=$(sed -n 's/.*ALLOCINFO_RUNS=\([0-9]*\).*/\1/p' /proc/cmdline)
runs=${runs:-3}

if [ ! -r /proc/allocinfo ] || [ ! -f $P ]; then
	not_ok "allocinfo-present: no /proc/allocinfo or $P"
	finish
fi
diag "vm.mem_profiling=$(cat $P) (mode $(stat -c %a $P)), $(head -n 1 /proc/allocinfo)"

# profiling 0|1: allocinfo's accounting off or on (a static key).
profiling() {
	[ "$(cat $P)" = "$1" ] && return
	echo "$1" >$P || exit 1
}

# b: one run of the bench; its ns (instructions) per pair.
b() {
	insmod ./mstat_probe_bench.ko mode=none || exit 1
	rmmod mstat_probe_bench
	dmesg | sed -n 's/.*mstat_probe_bench: mode=[a-z]* loop=[a-z]* pairs=[0-9]* ns_per_pair=\([0-9]*\).*/\1/p' | tail -n 1
}

# with ARGS...: b with mstat loaded with ARGS.
with() {
	insmod ./mstat.ko "$@" || exit 1
	b
	rmmod mstat
}

variant() {
	local x
	case $1 in
	allocinfo-on)		profiling 1; x=$(b) ;;
	allocinfo-off)		profiling 0; x=$(b) ;;
	mstat)			profiling 0; x=$(with) ;;
	mstat-kmalloc-noprofile)
		profiling 0
		x=$(with enable_cache=0 enable_page=0 enable_api=0 \
			profile_rate=0) ;;
	allocinfo-on-mstat)	profiling 1; x=$(with) ;;
	as-booted)		x=$(b) ;;
	as-booted-mstat)	x=$(with) ;;
	*)			not_ok "variant-$1: no such variant"; return ;;
	esac
	echo "icount: run=$2 variant=$1 insns_per_pair=$x"
}

for v in $variants; do
	variant "$v" 0 >/dev/null
done
run=1
while [ "$run" -le "$runs" ]; do
	for v in $variants; do
		variant "$v" "$run"
	done
	run=$((run + 1))
done

# The mixed workload of the other benches (scripts/guest/macro-bench.sh
# and scripts/guest/scale.sh): fork+exec, sysfs walked, procfs read, a
# file written to tmpfs and removed.
workload() {
	local i=0
	while [ "$i" -lt 300 ]; do
		/bin/true
		ls /sys/kernel >/dev/null
		i=$((i + 1))
	done
	ls -R /sys >/dev/null 2>&1
	cat /proc/mstat /proc/slabinfo /proc/vmstat >/dev/null 2>&1
	dd if=/dev/zero of=/tmp/w bs=64k count=16 2>/dev/null
	rm -f /tmp/w
}

# by_func_allocinfo FILE: "func bytes calls" per function of FILE.
by_func_allocinfo() {
	awk 'NR > 2 {
		f = ""
		for (i = 3; i <= NF; i++)
			if ($i ~ /^func:/)
				f = substr($i, 6)
		if (f == "")
			next
		b[f] += $1; c[f] += $2
	}
	END { for (f in b) print f, b[f], c[f] }' "$1"
}

# by_func_sites FILE: "func bytes calls" per function of a
# /proc/mstat_sites (versions 1 and 2: lines that begin with a tab
# continue a row's stack, and from 2.2 lines that begin with "+ " list
# its live objects: both skipped; the site is the column line's last),
# the compiler's suffixes (.constprop.0, .isra.0, .part.0, .cold) taken
# off the names: allocinfo names the function of the source.
by_func_sites() {
	awk '
	NR == 1 { if ($0 !~ /^mstat_sites - version: [12]\./) exit 1; next }
	/^# est_bytes / { for (i = 2; i <= NF; i++) if ($i == "site") sc = i - 1; next }
	/^#/ || /^\t/ || /^\+ / || NF < 9 { next }
	{ f = $(sc ? sc : 9); sub(/\+.*/, "", f); sub(/\..*/, "", f); b[f] += $1; c[f] += $2 }
	END { for (f in b) print f, b[f], c[f] }' "$1"
}

# window NAME ARGS...: one window of the sites' comparison, mstat
# loaded with ARGS.
window() {
	local w="$1" rate
	shift
	profiling 1
	sync
	echo 3 >/proc/sys/vm/drop_caches
	if ! insmod ./mstat.ko "$@"; then
		not_ok "sites-$w: insmod mstat.ko $*"
		return
	fi
	rate=$(cat /sys/module/mstat/parameters/profile_rate)
	cat /proc/allocinfo >/tmp/a0
	workload
	cat /proc/allocinfo >/tmp/a1
	cat /proc/mstat_sites >/tmp/s
	rmmod mstat
	if ! by_func_sites /tmp/s >/tmp/sf; then
		not_ok "sites-$w: $(head -n 1 /tmp/s): not version 1 or 2"
		return
	fi
	echo "header: window=$w $(sed -n 2p /tmp/s)"
	by_func_allocinfo /tmp/a0 >/tmp/a0f
	by_func_allocinfo /tmp/a1 >/tmp/a1f
	# One line per function: allocinfo's growth, mstat's estimate.
	awk -v w="$w" -v r="$rate" '
	FILENAME == "/tmp/a0f" { b0[$1] = $2; c0[$1] = $3; next }
	FILENAME == "/tmp/a1f" { ab[$1] = $2 - b0[$1]; ac[$1] = $3 - c0[$1]; next }
	{ mb[$1] = $2; mc[$1] = $3; all[$1] = 1 }
	END {
		for (f in ab) { all[f] = 1; tab += ab[f]; tac += ac[f] }
		for (f in mb) {
			tmb += mb[f]; tmc += mc[f]; n++
			if (f in ab) matched += mb[f]
		}
		for (f in all)
			printf "%s %d %d %d %d\n", f, ab[f], ac[f], mb[f], mc[f]
		printf "total: window=%s rate=%s ai_bytes=%d ai_calls=%d ms_bytes=%d ms_calls=%d ms_rows=%d matched_bytes=%d\n",
			w, r, tab, tac, tmb, tmc, n, matched > "/tmp/total"
	}' /tmp/a0f /tmp/a1f /tmp/sf >/tmp/j
	awk '$2 != 0 || $4 != 0' /tmp/j >/tmp/jn
	{
		sort -k2,2nr /tmp/jn | head -n 30
		sort -k4,4nr /tmp/jn | head -n 15
	} | sort -u | awk -v w="$w" -v r="$rate" '{
		printf "sites: window=%s rate=%s func=%s ai_bytes=%d ai_calls=%d ms_bytes=%d ms_calls=%d\n",
			w, r, $1, $2, $3, $4, $5 }'
	cat /tmp/total
	ok "sites-$w"
}

if [ "$(sed -n 's/.*ALLOCINFO_SITES=\([0-9]\).*/\1/p' /proc/cmdline)" != 0 ]; then
	windows=$(sed -n 's/.*ALLOCINFO_WINDOWS=\([0-9]*\).*/\1/p' /proc/cmdline)
	i=1
	while [ "$i" -le "${windows:-20}" ]; do
		window "default-$i"
		i=$((i + 1))
	done
	window exact profile_rate=1 profile_addrs=1048576
fi
finish
