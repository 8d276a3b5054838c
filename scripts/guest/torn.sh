# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC3043 # busybox ash has "local"
# Guest side of the torn-read demonstration (make bench): three vCPUs on
# multi-threaded TCG. mstat_xload's two kthreads make kmalloc/kfree
# pairs across CPUs, allocated on CPU 0 and freed on CPU 1; a reader on
# CPU 2 takes TORN_READS reads (default 2000) of
#  - the eBPF counters' per-CPU map (mstat-bpf counters -t), then the
#    sized set's (mstat-bpf sized -t), each read checked against what one
#    moment's counts satisfy (see tests/helpers/mstat-bpf.c); and the
#    sized set's again, 50 times as many reads, to see how rare a torn
#    one is at full speed;
#  - the sized set's map again, TORN_SLOW_READS reads (default 200) of a
#    walk slowed down on purpose (-s 200: each CPU's value 200 us after
#    the last), which must be caught torn: the checks can see tearing;
#  - /proc/mstat with mstat loaded, all the reads checked by
#    `mstat check -n` (every invariant within and across reads).
# Each prints one line
#	torn: set=S reads=N torn_reads=N ...
#	torn: set=mstat reads=N violations=N
# and the load's own count, "mstat_xload: pairs=N". The programs are
# attached and mstat loaded before the load starts, and detached or
# unloaded after it stops: no tracepoint is switched while the load runs
# (see scripts/guest.sh on MTTCG).
set -u
. ./lib.sh

reads=$(sed -n 's/.*TORN_READS=\([0-9]*\).*/\1/p' /proc/cmdline)
reads=${reads:-2000}
slow=$(sed -n 's/.*TORN_SLOW_READS=\([0-9]*\).*/\1/p' /proc/cmdline)
slow=${slow:-200}
reader_cpu=2

# load_start, load_stop: mstat_xload on CPUs 0 and 1, its count after.
load_start() {
	insmod ./mstat_xload.ko || return
	sleep 1
}
load_stop() {
	rmmod mstat_xload
	dmesg | grep 'mstat_xload: pairs=' | tail -n 1 | sed 's/^\[[^]]*\] //'
}

# ebpf NAME SET ARGS...: the torn-read test of mstat-bpf SET ARGS...
ebpf() {
	local name="$1" set="$2" pid i=0 rc=0
	shift 2
	rm -f /tmp/ready
	./mstat-bpf "$set" -r /tmp/ready -c $reader_cpu "$@" >/tmp/bpf.out 2>&1 &
	pid=$!
	while [ ! -f /tmp/ready ] && kill -0 "$pid" 2>/dev/null &&
	      [ $i -lt 600 ]; do
		usleep 100000
		i=$((i + 1))
	done
	if [ ! -f /tmp/ready ]; then
		not_ok "torn-$name-attach"
		show /tmp/bpf.out
		return
	fi
	if ! load_start; then
		not_ok "torn-$name-load"
		kill -TERM "$pid"
		wait "$pid"
		return
	fi
	kill -USR1 "$pid"
	i=0
	while ! grep -q '^torn: ' /tmp/bpf.out && kill -0 "$pid" 2>/dev/null &&
	      [ $i -lt 6000 ]; do
		usleep 100000
		i=$((i + 1))
	done
	load_stop
	kill -TERM "$pid"
	wait "$pid" || rc=$?
	grep '^# torn read' /tmp/bpf.out
	grep -E '^(torn|bpf: set=.* events=)' /tmp/bpf.out
	grep '^bpf: prog=.*recursion_misses' /tmp/bpf.out | show
	check "torn-$name-ran" grep -q "^torn: set=$set.* reads=[0-9]" /tmp/bpf.out
	check "torn-$name-detached" [ "$rc" -eq 0 ]
}

diag "reads=$reads slow_reads=$slow reader on CPU $reader_cpu, load on CPUs 0 and 1"
ebpf counters counters -t "$reads"
ebpf sized sized -t "$reads"
# Many more reads of the same map, at full speed: how rare tearing is.
ebpf sized-many sized -t "$((reads * 50))"
ebpf sized-slow sized -t "$slow" -s 200
# A walk slowed down: the checks must see it torn.
check torn-sized-slow-caught grep -q '^torn: set=sized-slow .* torn_reads=[1-9]' /tmp/bpf.out

check torn-mstat-insmod insmod ./mstat.ko
if load_start; then
	# taskset's mask: CPU 2 alone.
	taskset 4 ./mstat check -n "$reads" /proc/mstat >/tmp/chk 2>&1
	rc=$?
	load_stop
	tail -n 5 /tmp/chk | show
	v=$(sed -n 's/^mstat-check: reads=[0-9]* violations=\([0-9]*\).*/\1/p' /tmp/chk)
	n=$(sed -n 's/^mstat-check: reads=\([0-9]*\) .*/\1/p' /tmp/chk)
	echo "torn: set=mstat reads=${n:-?} violations=${v:-?}"
	check torn-mstat-reads [ "${n:-0}" -eq "$reads" ]
	if [ "$rc" -eq 0 ] && [ "${v:-1}" -eq 0 ]; then
		ok torn-mstat-consistent
	else
		not_ok "torn-mstat-consistent: violations ${v:-?}, exit $rc"
	fi
else
	not_ok torn-mstat-load
fi
check torn-mstat-rmmod rmmod mstat
finish
