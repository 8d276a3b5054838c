# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC3043 # busybox ash has "local"
# Guest side of the instruction-count benchmark of the allocation hot
# path. Run under qemu -icount shift=0,sleep=off with one vCPU
# (scripts/guest.sh --icount on --smp 1): a guest ns is then one
# instruction, so mstat_probe_bench's ns_per_pair is the instructions per
# kmalloc+kfree pair, the same from run to run.
#
# Variants: no probe; empty probes on kmalloc and kfree; the floor (see
# tests/bench/mstat_probe_bench.c); ftrace hist triggers (kmalloc by
# bytes_req, kfree by CPU); the eBPF comparison's two program sets
# (tests/bpf/, loaded by mstat-bpf): ebpf-counters, raw tracepoint
# programs adding to a per-CPU array by size class, and ebpf-sized, the
# same plus a hash of pointer to size, memleak's way of sizing a kfree;
# mstat with the kmalloc source alone and the profile off; mstat by
# default (every source, profile at its default rate), and with the
# profile off (their difference: the profile's amortized cost at the
# default rate); every allocation sampled (profile_rate=1), its call site
# alone (profile_depth=1) and its whole stack (the default depth): their
# differences with the profile off are the cost of one sampled
# allocation and its sampled free, with and without the stack; mstat by default
# with the event stream on for kmalloc (nobody reading it: once the ring
# is full, events are dropped); the kmem_cache_alloc+kmem_cache_free pair
# (loop=cache), with no probe and with mstat's cache source alone,
# per-cache counting off and on, and with mstat by default; a
# vmalloc()+vfree() of a page
# (loop=vmalloc) and an alloc_percpu()+free_percpu() of 8 bytes
# (loop=percpu), each with no mstat, with mstat (profile off) and the
# pair's own source off, and with it on: the difference of the last two
# is that source's cost, format 1.6's vm area and percpu tables
# included; an alloc_pages()+__free_pages() of one page (loop=page) with
# no mstat, with mstat (profile off) and the page source off, and on,
# and by default with profile_pages=0 and 1 (the page profile's cost at
# the default rate, stacks from the page allocator's caller out); and,
# if a baseline build of mstat is
# copied in as mstat_base.ko (make bench with MSTAT_BENCH_BASE=REF), its
# kmalloc-only, default and cache-source-only variants, measured in the
# same rounds (any variant mstat-V has its base-V). A warm-up round first, discarded; then RUNS rounds,
# interleaved (ICOUNT_VARIANTS="V..." on the kernel command line: only
# those variants; ICOUNT_RUNS=N: N rounds). Prints
#   icount: run=N variant=V insns_per_pair=X
# and after each eBPF variant's run what its programs counted of the loop
# (frees: for ebpf-sized, those it sized; counted_every_pair: allocs and
# frees at least the loop's pairs; background events come on top):
#   ebpf: run=N variant=V jit=J pairs=P allocs=A frees=F recursion_misses=M counted_every_pair=yes|no
set -u
. ./lib.sh
runs=${ICOUNT_RUNS:-3}

b() {
	insmod ./mstat_probe_bench.ko "$@" || exit 1
	rmmod mstat_probe_bench
	dmesg | sed -n 's/.*mstat_probe_bench: mode=[a-z]* loop=[a-z]* pairs=[0-9]* ns_per_pair=\([0-9]*\).*/\1/p' | tail -n 1
}

# ebpf SET RUN: the bench with mstat-bpf SET attached; sets x, prints
# the "ebpf:" line.
ebpf() {
	local pid i=0 out=/tmp/ebpf.out jit pairs allocs frees unsized misses
	local all=no
	rm -f /tmp/ebpf.ready
	./mstat-bpf "$1" -r /tmp/ebpf.ready >$out 2>&1 &
	pid=$!
	while [ ! -f /tmp/ebpf.ready ] && kill -0 "$pid" 2>/dev/null &&
	      [ $i -lt 6000 ]; do
		usleep 10000
		i=$((i + 1))
	done
	[ -f /tmp/ebpf.ready ] || { cat $out; exit 1; }
	x=$(b mode=none)
	kill -TERM "$pid"
	wait "$pid" || { cat $out; exit 1; }
	jit=$(cat /proc/sys/net/core/bpf_jit_enable)
	pairs=$(dmesg | sed -n 's/.*mstat_probe_bench: mode=none loop=kmalloc pairs=\([0-9]*\).*/\1/p' | tail -n 1)
	allocs=$(sed -n 's/^bpf: set=.* allocs=\([0-9]*\).*/\1/p' $out)
	frees=$(sed -n 's/^bpf: set=.* frees=\([0-9]*\).*/\1/p' $out)
	unsized=$(sed -n 's/^bpf: set=.* unsized_frees=\([0-9]*\).*/\1/p' $out)
	misses=$(sed -n 's/^bpf: set=.* recursion_misses=\([0-9]*\).*/\1/p' $out)
	# The sized set sizes the loop's frees: they are not unsized.
	[ "$1" = sized ] && frees=$((frees - unsized))
	[ "$allocs" -ge "$pairs" ] && [ "$frees" -ge "$pairs" ] && all=yes
	echo "ebpf: run=$2 variant=ebpf-$1 jit=$jit pairs=$pairs allocs=$allocs frees=$frees recursion_misses=$misses counted_every_pair=$all"
}

# with KO ARGS...: the bench with mstat (KO, loaded with ARGS) on; the
# bench's own arguments in $bench (default: the kmalloc loop).
with() {
	local ko="$1"
	shift
	insmod "$ko" "$@" || exit 1
	# shellcheck disable=SC2086 # arguments, split
	b mode=none ${bench:-}
	rmmod mstat
}

# variant NAME RUN: one measurement of NAME; base-V is mstat-V's with the
# baseline build (mstat_base.ko) in mstat.ko's place.
variant() {
	local x ko=./mstat.ko v="$1"
	case $v in
	base-*)	ko=./mstat_base.ko v=mstat-${v#base-} ;;
	esac
	case $v in
	none)	x=$(b mode=none) ;;
	empty)	x=$(b mode=empty) ;;
	floor)	x=$(b mode=floor) ;;
	ftrace-hist)
		echo 'hist:keys=bytes_req' >$T/events/kmem/kmalloc/trigger &&
		echo 'hist:keys=common_cpu' >$T/events/kmem/kfree/trigger ||
			exit 1
		x=$(b mode=none)
		echo '!hist:keys=bytes_req' >$T/events/kmem/kmalloc/trigger
		echo '!hist:keys=common_cpu' >$T/events/kmem/kfree/trigger
		;;
	ebpf-counters|ebpf-sized)
		ebpf "${1#ebpf-}" "$2" ;;
	mstat-kmalloc-noprofile)
		x=$(with "$ko" enable_cache=0 enable_page=0 enable_api=0 \
			profile_rate=0) ;;
	mstat-default)
		x=$(with "$ko") ;;
	mstat-default-noprofile)
		x=$(with "$ko" profile_rate=0) ;;
	mstat-every-site)
		x=$(with "$ko" profile_rate=1 profile_depth=1) ;;
	mstat-every-stack)
		x=$(with "$ko" profile_rate=1) ;;
	cache-none)
		x=$(b mode=none loop=cache) ;;
	mstat-cache-percache)
		x=$(bench=loop=cache with "$ko" enable_kmalloc=0 \
			enable_page=0 enable_api=0 profile_rate=0) ;;
	mstat-cache-default)
		x=$(bench=loop=cache with "$ko") ;;
	mstat-cache-nopercache)
		x=$(bench=loop=cache with "$ko" enable_kmalloc=0 \
			enable_page=0 enable_api=0 profile_rate=0 per_cache=0) ;;
	vmalloc-none)
		x=$(b mode=none loop=vmalloc) ;;
	mstat-vmalloc)
		x=$(bench=loop=vmalloc with "$ko" profile_rate=0) ;;
	mstat-vmalloc-off)
		x=$(bench=loop=vmalloc with "$ko" profile_rate=0 \
			enable_vmalloc=0) ;;
	percpu-none)
		x=$(b mode=none loop=percpu) ;;
	mstat-percpu)
		x=$(bench=loop=percpu with "$ko" profile_rate=0) ;;
	mstat-percpu-off)
		x=$(bench=loop=percpu with "$ko" profile_rate=0 \
			enable_percpu=0) ;;
	page-none)
		x=$(b mode=none loop=page) ;;
	mstat-page-off)
		x=$(bench=loop=page with "$ko" profile_rate=0 \
			enable_page=0) ;;
	mstat-page)
		x=$(bench=loop=page with "$ko" profile_rate=0) ;;
	mstat-page-profile)
		x=$(bench=loop=page with "$ko" profile_pages=1) ;;
	mstat-page-profile-off)
		x=$(bench=loop=page with "$ko") ;;
	mstat-default-stream)
		insmod "$ko" || exit 1
		echo 1 >$D/events_sources
		x=$(b mode=none)
		echo 0 >$D/events_sources
		rmmod mstat
		;;
	esac
	echo "icount: run=$2 variant=$1 insns_per_pair=$x"
}

variants="none empty floor ftrace-hist ebpf-counters ebpf-sized
	  mstat-kmalloc-noprofile mstat-default mstat-default-noprofile
	  mstat-every-site mstat-every-stack mstat-default-stream cache-none mstat-cache-nopercache
	  mstat-cache-percache mstat-cache-default vmalloc-none mstat-vmalloc-off mstat-vmalloc
	  percpu-none mstat-percpu-off mstat-percpu
	  page-none mstat-page-off mstat-page mstat-page-profile-off
	  mstat-page-profile"
[ -f ./mstat_base.ko ] &&
	variants="$variants base-kmalloc-noprofile base-default base-cache-percache
		  base-cache-default base-page-profile-off"
# ICOUNT_VARIANTS="V..." on the kernel command line: only those.
only=$(sed -n 's/.*ICOUNT_VARIANTS="\([^"]*\)".*/\1/p' /proc/cmdline)
[ -n "$only" ] && variants=$only
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
