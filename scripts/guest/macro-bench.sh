# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the macro benchmark (scripts/bench.sh): a fork/exec- and
# allocation-heavy workload timed without and with mstat, three runs
# interleaved; then 200 reads of /proc/mstat next to 200 of /proc/vmstat.
# Prints "macro: run=N variant=V ms=T" and "read: file=F reads=200 ms=T".
set -u
. ./lib.sh
now_ms() { cut -d' ' -f1 /proc/uptime | awk '{printf "%d", $1 * 1000}'; }
workload() {
	i=0
	while [ "$i" -lt 300 ]; do
		/bin/true
		ls /sys/kernel >/dev/null
		i=$((i + 1))
	done
	ls -R /sys >/dev/null 2>&1
}
for run in 1 2 3; do
	t0=$(now_ms); workload; t1=$(now_ms)
	echo "macro: run=$run variant=without ms=$((t1 - t0))"
	insmod ./mstat.ko || exit 1
	t0=$(now_ms); workload; t1=$(now_ms)
	echo "macro: run=$run variant=with-mstat ms=$((t1 - t0))"
	rmmod mstat
done
insmod ./mstat.ko || exit 1
for f in /proc/vmstat /proc/mstat /proc/vmstat /proc/mstat; do
	t0=$(now_ms)
	i=0
	while [ "$i" -lt 200 ]; do
		cat "$f" >/dev/null
		i=$((i + 1))
	done
	t1=$(now_ms)
	echo "read: file=$f reads=200 ms=$((t1 - t0))"
done
rmmod mstat
