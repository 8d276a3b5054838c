# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC3043 # busybox ash has "local"
# Guest side of the per-CPU free lists' cost in a snapshot (make bench,
# scripts/pcp-cost.sh): the instructions of mstat_kernel_read(), which a
# snapshot of /proc/mstat calls once and which walks every populated
# zone's per-CPU page list of every online CPU (mstat_pcp_free_pages()).
# Run under qemu -icount shift=0,sleep=off (a guest ns is an
# instruction), with the vCPUs and NUMA nodes wanted (scripts/guest.sh
# --smp P --numa N --icount on): ftrace's function_graph times each call
# on the guest clock (the function alone: set_ftrace_filter). Prints
#   pcp: online=O nodes=N zones=Z calls=C min=I median=I
# Z the populated zones (/proc/zoneinfo), I instructions a call, tracer
# included (a constant of each call).
set -u
. ./lib.sh

T=/sys/kernel/tracing
check insmod-mstat insmod ./mstat.ko
[ -d $T/events ] || mount -t tracefs nodev $T
check graph-filter sh -c "echo mstat_kernel_read >$T/set_ftrace_filter"
check graph-tracer sh -c "echo function_graph >$T/current_tracer"
# A first read warms what the snapshot touches; then 21 more.
cat /proc/mstat >/dev/null
echo >$T/trace
i=0
while [ $i -lt 21 ]; do
	cat /proc/mstat >/dev/null
	i=$((i + 1))
done
# Stopped, not switched off: a change of tracer empties the buffer.
echo 0 >$T/tracing_on
grep -v '^#' $T/trace | head -3 | show
# "  1)   12.345 us    |  mstat_kernel_read();" or its closing brace.
sed -n 's/.*[^0-9.]\([0-9][0-9]*\.[0-9]*\) us *|.*/\1/p' $T/trace |
	awk '{ printf "%d\n", $1 * 1000 }' | sort -n >/tmp/ns
n=$(wc -l </tmp/ns)
online=$(grep -c '^processor' /proc/cpuinfo)
nodes=0
for d in /sys/devices/system/node/node[0-9]*; do
	[ -d "$d" ] && nodes=$((nodes + 1))
done
zones=$(awk '/^Node .* zone/ { z = $4 } /present/ && $2 > 0 && z != "" { n++; z = "" } END { print n }' /proc/zoneinfo)
echo "pcp: online=$online nodes=$nodes zones=$zones calls=$n min=$(head -1 /tmp/ns) median=$(sed -n "$(((n + 1) / 2))p" /tmp/ns)"
check pcp-calls-timed [ "$n" -ge 20 ]
echo nop >$T/current_tracer
echo 1 >$T/tracing_on
check rmmod-mstat rmmod mstat
finish
