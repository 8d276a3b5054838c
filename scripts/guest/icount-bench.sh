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
# bytes_req, kfree by CPU); mstat with the kmalloc source alone and the
# profile off; mstat by default (every source, profile at its default
# rate); mstat by default with the event stream on for kmalloc (nobody
# reading it: once the ring is full, events are dropped); and, if a
# baseline build of mstat is copied in as mstat_base.ko (make bench with
# MSTAT_BENCH_BASE=REF), its kmalloc-only and default variants, measured
# in the same rounds. A warm-up round first, discarded; then RUNS rounds,
# interleaved. Prints
#   icount: run=N variant=V insns_per_pair=X
set -u
. ./lib.sh
runs=${ICOUNT_RUNS:-3}

b() {
	insmod ./mstat_probe_bench.ko "$@" || exit 1
	rmmod mstat_probe_bench
	dmesg | sed -n 's/.*mstat_probe_bench: mode=[a-z]* pairs=[0-9]* ns_per_pair=\([0-9]*\).*/\1/p' | tail -n 1
}

# with KO ARGS...: the bench with mstat (KO, loaded with ARGS) on.
with() {
	local ko="$1"
	shift
	insmod "$ko" "$@" || exit 1
	b mode=none
	rmmod mstat
}

# variant NAME RUN: one measurement of NAME.
variant() {
	local x
	case $1 in
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
	mstat-kmalloc-noprofile)
		x=$(with ./mstat.ko enable_cache=0 enable_page=0 enable_api=0 \
			profile_rate=0) ;;
	mstat-default)
		x=$(with ./mstat.ko) ;;
	base-kmalloc-noprofile)
		x=$(with ./mstat_base.ko enable_cache=0 enable_page=0 \
			enable_api=0 profile_rate=0) ;;
	base-default)
		x=$(with ./mstat_base.ko) ;;
	mstat-default-stream)
		insmod ./mstat.ko || exit 1
		echo 1 >$D/events_sources
		x=$(b mode=none)
		echo 0 >$D/events_sources
		rmmod mstat
		;;
	esac
	echo "icount: run=$2 variant=$1 insns_per_pair=$x"
}

variants="none empty floor ftrace-hist mstat-kmalloc-noprofile mstat-default
	  mstat-default-stream"
[ -f ./mstat_base.ko ] &&
	variants="$variants base-kmalloc-noprofile base-default"
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
