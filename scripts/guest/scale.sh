# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC3043 # busybox ash has "local"
# Guest side of the scale bench (scripts/bench.sh, section "scale"): what
# mstat costs per possible CPU, in memory and in instructions per read.
# Run under qemu -icount shift=0,sleep=off with one vCPU online and
# hotplug slots up to the possible CPUs wanted (scripts/guest.sh --icount
# on --smp 1,maxcpus=P): a guest ns is one instruction.
#
# For mstat.ko, and mstat_base.ko if copied in (a baseline build, in the
# same guest): the memory the load takes, module text included (what
# /proc/meminfo's Percpu, VmallocUsed and SUnreclaim grow by: MemFree
# does not see pages taken from the per-CPU page lists), then a mixed
# workload, then the instructions of an open-read-close of /proc/mstat
# (readlat's p50 of 20) in each sync mode; and, in the same guest, of
# /proc/slabinfo and /proc/vmstat. Prints
#   scale: ko=NAME possible=P online=O mem_kib=K percpu_kib=K vmalloc_kib=K slab_kib=K read_rcu=I read_rcu_expedited=I read_ipi=I folded=F
# (read_rcu is no instruction count: the grace period's idle time is
# skipped ahead on the guest clock, sleep=off)
#   scale: file=/proc/slabinfo possible=P online=O read=I
set -u
. ./lib.sh

# With SCALE_OFFLINE=1 on the command line, every CPU but CPU 0 goes
# offline first (a kernel that counts no empty hotplug slot as possible
# is booted with them all online).
if grep -q 'SCALE_OFFLINE=1' /proc/cmdline; then
	for c in /sys/devices/system/cpu/cpu[0-9]*/online; do
		echo 0 >"$c"
	done
fi
# SCALE_ARGS="..." on the command line: load parameters.
args=$(sed -n 's/.*SCALE_ARGS="\([^"]*\)".*/\1/p' /proc/cmdline)
possible=$(cat /sys/devices/system/cpu/possible)
online=$(grep -c '^processor' /proc/cpuinfo)
np=$((${possible#*-} + 1))
[ "$possible" = 0 ] && np=1
diag "possible CPUs $possible ($np), online $online"

meminfo() { sed -n "s/^$1: *\([0-9]*\) kB/\1/p" /proc/meminfo; }
p50() { ./readlat "$1" 20 0 | sed -n 's/.* p50_ns=\([0-9]*\).*/\1/p'; }

# Some of everything: slab objects of many caches, pages, a module's
# vmalloc, files, on the one online CPU.
workload() {
	ls -R /sys >/dev/null 2>&1
	cat /proc/mstat /proc/slabinfo /proc/vmstat >/dev/null 2>&1
	dd if=/dev/zero of=/tmp/w bs=64k count=16 2>/dev/null
	rm -f /tmp/w
}

measure() {
	local ko="$1" pcpu0 vm0 slab0 pcpu vm slab r s out
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 1
	pcpu0=$(meminfo Percpu)
	vm0=$(meminfo VmallocUsed)
	slab0=$(meminfo SUnreclaim)
	# shellcheck disable=SC2086 # parameters, split
	if ! insmod "./$ko.ko" $args; then
		not_ok "scale-load-$ko"
		return
	fi
	sleep 1
	pcpu=$(($(meminfo Percpu) - pcpu0))
	vm=$(($(meminfo VmallocUsed) - vm0))
	slab=$(($(meminfo SUnreclaim) - slab0))
	out="scale: ko=$ko possible=$np online=$online mem_kib=$((pcpu + vm + slab)) percpu_kib=$pcpu vmalloc_kib=$vm slab_kib=$slab"
	for s in rcu rcu_expedited ipi; do
		case $s in
		rcu)		echo 0 >$D/sync_mode ;;
		rcu_expedited)	echo 1 >$D/sync_mode ;;
		ipi)		echo 2 >$D/sync_mode ;;
		esac
		workload
		r=$(p50 /proc/mstat)
		out="$out read_$s=$r"
	done
	echo 0 >$D/sync_mode
	out="$out folded=$(sed -n 's/^snapshot_folded_cpus //p' /proc/mstat)"
	echo "$out"
	rmmod "$ko" 2>/dev/null || rmmod mstat
	ok "scale-load-$ko"
}

measure mstat
[ -f ./mstat_base.ko ] && measure mstat_base
workload
for f in /proc/slabinfo /proc/vmstat; do
	echo "scale: file=$f possible=$np online=$online read=$(p50 $f)"
done
finish
