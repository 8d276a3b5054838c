# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC3043 # busybox ash has "local"
# Guest side of the isolation test: what a read of /proc/mstat costs an
# idle isolated CPU, per reader mode. Boot with two CPUs and
# "isolcpus=1 nohz_full=1"; runs in /mstat with mstat.ko and readlat.
#
# READS is 200, or ISOLATION_READS from the kernel command line (which
# the kernel passes to init's environment). First READS reads of
# /proc/vmstat, for reference (mode=vmstat); then, for each mode, READS
# reads from CPU 0 while CPU 1 idles; then CPU 0
# idles as long again, as the baseline: CPU 1 takes a few function-call
# interrupts a second when nothing reads (seen here: 4 in 4 s, from the
# kernel's own periodic work). The CAL row of /proc/interrupts counts
# smp_call_function*() IPIs; its CPU 1 deltas and readlat's latencies
# are printed as
#   # mode=NAME cpu1_cal=N idle_cal=N secs=S reads=N p50_us=.. p99_us=..
# Checked: the default mode (rcu) and rcu_expedited interrupt CPU 1 no
# more than the idle baseline does, plus 2 and 1% of the reads; ipi mode
# interrupts it on at least 90% of the reads (IPIs that find CPU 1 busy
# with another cross call coalesce), which also proves the count sees
# IPIs.
# Prints "ok NAME"/"not ok NAME", last "# checks=N failed=N".
set -u
. ./lib.sh
reads=${ISOLATION_READS:-200}

# in_range N MIN MAX
in_range() { [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }

# cal CPU: function-call interrupts CPU has taken.
cal() { awk -v c="$1" '$1 == "CAL:" { print $(c + 2) }' /proc/interrupts; }

# uptime_cs: centiseconds since boot.
uptime_cs() { awk '{ sub(/\./, "", $1); print $1 + 0 }' /proc/uptime; }

# measure NAME FILE: READS reads of FILE from CPU 0, then as long idle;
# sets $delta and $idle to the CAL interrupts of CPU 1 in each.
measure() {
	local name="$1" file="$2" before t0 cs line
	before=$(cal 1)
	t0=$(uptime_cs)
	line=$(./readlat "$file" "$reads" 0) || { delta=-1 idle=0; return 1; }
	delta=$(($(cal 1) - before))
	cs=$(($(uptime_cs) - t0 + 1))
	before=$(cal 1)
	usleep $((cs * 10000))
	idle=$(($(cal 1) - before))
	echo "# mode=$name cpu1_cal=$delta idle_cal=$idle" \
		"secs=$((cs / 100)).$((cs / 10 % 10))$((cs % 10)) $line"
}

echo "# cmdline: $(cat /proc/cmdline)"
echo "# isolated: $(cat /sys/devices/system/cpu/isolated)" \
	"nohz_full: $(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)"
dmesg | grep -E 'NO_HZ|nohz' | sed 's/^/# /'
check cpu1-nohz-full [ "$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)" = 1 ]
check cpu1-isolated [ "$(cat /sys/devices/system/cpu/isolated)" = 1 ]
check cal-row-present [ -n "$(cal 1)" ]

insmod ./mstat.ko || { not_ok insmod; finish; }
# Let boot-time work on CPU 1 settle before counting.
sleep 2

measure vmstat /proc/vmstat

measure rcu /proc/mstat
check rcu-is-default grep -q '^sync_mode rcu$' $D/internals
check rcu-no-ipi-to-isolated-cpu \
	in_range "$delta" 0 $((idle + 2 + reads / 100))

echo 1 >$D/sync_mode
measure rcu_expedited /proc/mstat
check rcu-expedited-no-ipi-to-idle-isolated-cpu \
	in_range "$delta" 0 $((idle + 2 + reads / 100))

echo 2 >$D/sync_mode
measure ipi /proc/mstat
# Not quite every read: a call-function IPI that finds CPU 1 still
# handling another (the kernel's own) is served by that one interrupt.
check ipi-mode-interrupts-isolated-cpu-every-read \
	[ "$delta" -ge $((reads * 9 / 10)) ]

echo 0 >$D/sync_mode
sed 's/^/# /' $D/history | head -n 5
rmmod mstat
finish
