# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the fleet test (scripts/fleet-test.sh, make fleet): one
# machine of the fleet. The network driver (Debian's virtio_net.ko and
# its two helpers) and eth0 as 10.0.2.15; mstat.ko, its heap profile at
# one sample per 16 KiB; mstat_leaktest.ko started with FLEET_GROUPS
# from the command line ("leaks" on the leaking machine, "decoys" on the
# others: tests/leaks/); then `mstat serve` on :9754, and Debian's node
# exporter on :9100 with its textfile collector alone, reading what
# `mstat leaks --prom -o` writes after each watch of FLEET_WATCH seconds
# (default 120), one after another, as mstat-leaks.timer does, once the
# servers have answered 40 scrapes (their threads made); qemu
# forwards both to the host's Prometheus. "FLEET-READY". Then the host's
# commands, one a connection to :9799:
#	start GROUPS	the test module's patterns, anew (the tampered
#			phase starts leaks on a decoy machine)
#	unload		the watches stopped (their last file stays, as the
#			timer's does when the module is gone) and mstat
#			unloaded: /metrics answers 503, the host's scrapes
#			fail and the series end ("FLEET-UNLOADED")
#	done		stop the patterns, check and exit
set -u
. ./lib.sh

mstat_guest_net
groups=$(sed -n 's/.*FLEET_GROUPS=\([a-z,]*\).*/\1/p' /proc/cmdline)
ctl=/sys/kernel/debug/mstat_leaktest/control
watch=$(sed -n 's/.*FLEET_WATCH=\([0-9]*\).*/\1/p' /proc/cmdline)
check insmod-mstat insmod ./mstat.ko profile_rate=16384
check insmod-leaktest insmod ./mstat_leaktest.ko
# A node's cgroup tree: the cgroup leak runs in a pod's container, whose
# driver (./leaks -d) writes the control every 100 ms from there, so that
# its objects are that pod's; "stop" (and a new "start") fails its next
# write, which ends it.
POD=/sys/fs/cgroup/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod7c1e4d2a_9b3f_4e6a_8d5c_1f2e3a4b5c6d.slice/cri-containerd-5a6b7c8d9e0f5a6b7c8d9e0f5a6b7c8d9e0f5a6b7c8d9e0f5a6b7c8d9e0f5a6b.scope
mkdir -p /sys/fs/cgroup
check cgroup-pod sh -c "mount -t cgroup2 none /sys/fs/cgroup && mkdir -p $POD"
driver=
# start GROUPS: the module's patterns, and the cgroup leak's driver in
# the pod when GROUPS has the leaks.
start() {
	[ -z "$driver" ] || { kill "$driver" 2>/dev/null; wait "$driver" 2>/dev/null; }
	driver=
	check "start-${1:-none}" sh -c "echo 'start $1' >$ctl" || return
	case ,$1, in
	*,leaks,*)
		sh -c "echo \$\$ >$POD/cgroup.procs && exec ./leaks -d $ctl" &
		driver=$! ;;
	esac
}
start "$groups"
./mstat serve --listen 10.0.2.15:9754 --min-interval 1000 >/tmp/serve.log 2>&1 &
serve=$!
mkdir -p /tmp/tf
./prometheus-node-exporter --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory=/tmp/tf \
	--web.listen-address=10.0.2.15:9100 >/tmp/node.log 2>&1 &
node=$!
# The servers' threads made before the first watch: Go's node exporter
# and mstat serve start threads under their first scrapes, each a kernel
# stack from kernel_clone() that lives as long as its process, and a
# young guest's watch takes that rise for a leak (the first run of this
# test: MstatKernelStackLeak for kernel_clone on a decoy machine).
i=0
while [ $i -lt 40 ]; do
	wget -q -O /dev/null http://10.0.2.15:9100/metrics 2>/dev/null &
	w1=$!
	wget -q -O /dev/null http://10.0.2.15:9754/metrics 2>/dev/null &
	w2=$!
	wget -q -O /dev/null http://10.0.2.15:9100/metrics 2>/dev/null
	wait "$w1" "$w2"
	i=$((i + 1))
done
(
	while :; do
		./mstat leaks -d "${watch:-120}" -i 4 --prom -o /tmp/tf/mstat-leaks.prom
	done
) >/tmp/watch.log 2>&1 &
watcher=$!
n=0
until wget -q -O /dev/null http://10.0.2.15:9754/metrics 2>/dev/null; do
	n=$((n + 1))
	[ $n -lt 60 ] || break
	sleep 1
done
check serve-started wget -q -O /dev/null http://10.0.2.15:9754/metrics
check node-exporter-started wget -q -O /dev/null http://10.0.2.15:9100/metrics
echo FLEET-READY
while :; do
	cmd=$(timeout 1800 nc -l -p 9799 2>/dev/null)
	diag "host: ${cmd:-nothing}"
	case $cmd in
	"start "*)
		start "${cmd#* }" ;;
	unload)
		# The loop, then its watch (mstat serve is mstat-serve by now).
		kill "$watcher"
		killall mstat 2>/dev/null
		wait "$watcher" 2>/dev/null
		n=0
		until rmmod mstat 2>/dev/null; do
			n=$((n + 1))
			[ $n -lt 20 ] || break
			sleep 0.5
		done
		check mstat-unloaded sh -c '! grep -q "^mstat " /proc/modules'
		echo FLEET-UNLOADED ;;
	*)
		break ;;
	esac
done
[ -z "$driver" ] || kill "$driver" 2>/dev/null
check leaktest-stopped sh -c "echo stop >$ctl"
check rmmod-leaktest rmmod mstat_leaktest
kill "$serve" "$node" 2>/dev/null
kill "$watcher" 2>/dev/null
show /tmp/serve.log
show /tmp/watch.log
finish
