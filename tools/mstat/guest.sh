# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of tools/mstat/capture.sh (run by scripts/guest.sh as
# /mstat/run.sh, with mstat.ko, mstat_probe_bench.ko and a static mstat
# in /mstat). Loads mstat, makes allocation traffic, prints /proc/mstat
# and /proc/mstat_sites between "=== mstat-capture: NAME ===" and
# "=== mstat-capture: end ===" markers, then runs the tool against the
# live module: "ok NAME" or "not ok NAME" per check, then finish's
# "# checks=N failed=N" (scripts/guest/lib.sh, copied in as ./lib.sh).
set -u
# shellcheck source=../../scripts/guest/lib.sh
. ./lib.sh

begin() { echo "=== mstat-capture: $1 ==="; }
end() { echo "=== mstat-capture: end ==="; }
load() {
	ls -R /sys >/dev/null 2>&1
	dd if=/dev/zero of=/tmp/f bs=64k count=16 2>/dev/null
	rm -f /tmp/f
}
# "OUTPUT" "RC" "WANT_OUTPUT" "WANT_RC"
is() { [ "$1" = "$3" ] && [ "$2" -eq "$4" ]; }

insmod ./mstat.ko || exit 1
for _ in 1 2 3; do load; done
# kmalloc traffic from a module: call sites with a [module] suffix.
insmod ./mstat_probe_bench.ko pairs=20000 || exit 1

begin mstat-1.0.txt
cat /proc/mstat
end
sleep 1
load
begin mstat-1.0-b.txt
cat /proc/mstat
end
begin mstat_sites-1.0.txt
cat /proc/mstat_sites
end

# The tool against the live module, under load.
(while :; do load; done) &
loadpid=$!
./mstat top -n 2 -d 1 >/tmp/top.txt
rc=$?
kill $loadpid
wait $loadpid 2>/dev/null
begin top-capture.txt
cat /tmp/top.txt
end
check top_two_frames [ $rc -eq 0 -a "$(grep -c '^mstat top - ' /tmp/top.txt)" -eq 2 ]
./mstat >/tmp/show.txt
rc=$?
check show [ $rc -eq 0 -a "$(grep -c '^kmalloc ' /tmp/show.txt)" -eq 1 ]
begin show-live.txt
cat /tmp/show.txt
end
./mstat --json >/tmp/json.txt
rc=$?
check json [ $rc -eq 0 -a "$(grep -c '"orders"' /tmp/json.txt)" -eq 1 ]
./mstat prom >/tmp/prom.txt
rc=$?
check prom [ $rc -eq 0 -a "$(grep -c '^mstat_generation ' /tmp/prom.txt)" -eq 1 ]
./mstat pprof -o /tmp/p.pb.gz
check pprof [ $? -eq 0 ]
check pprof_gzip gunzip -t /tmp/p.pb.gz
# The invariants of five snapshots under load, through the same parser.
(while :; do load; done) &
loadpid=$!
./mstat check -n 5 -i 100 >/tmp/check.txt
rc=$?
kill $loadpid
wait $loadpid 2>/dev/null
check check [ $rc -eq 0 ]
[ $rc -eq 0 ] || show /tmp/check.txt

# Not root: /proc/mstat and /proc/mstat_sites are 0400.
mkdir -p /etc
echo 'root:x:0:0::/:/bin/sh' >/etc/passwd
echo 'nobody:x:65534:65534::/:/bin/sh' >>/etc/passwd
echo 'nogroup:x:65534:' >/etc/group
out=$(su -s /bin/sh nobody -c ./mstat 2>&1)
check permission is "$out" $? \
	"mstat: /proc/mstat: permission denied (root only by default; see proc_mode)" 1
out=$(su -s /bin/sh nobody -c './mstat pprof -o /tmp/nobody.pb.gz' 2>&1)
check permission_sites is "$out" $? \
	"mstat: /proc/mstat_sites: permission denied (root only by default; see proc_mode)" 1

# After the bench module is gone, its sites no longer resolve.
rmmod mstat_probe_bench
begin mstat_sites-after-rmmod.txt
cat /proc/mstat_sites
end
rmmod mstat
out=$(./mstat 2>&1)
check not_loaded is "$out" $? \
	"mstat: /proc/mstat not found: is the mstat module loaded?" 1
out=$(./mstat pprof -o /tmp/x.pb.gz 2>&1)
check not_loaded_sites is "$out" $? \
	"mstat: /proc/mstat_sites not found: is the mstat module loaded?" 1

# A fleet's hierarchy (the labels of mstat_cgroup_tags(), cgroup.c): a
# containerd container of a burstable pod under the systemd driver, and
# a systemd service; each cgroup walks /sys and writes files on tmpfs,
# sampled at 4 KiB, then the profile, base64 between markers, which the
# host reads with go tool pprof -tagfocus (test.sh, guest_live).
pod=0a1b2c3d_4e5f_6789_abcd_ef0123456789
ctr=3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a
cg=/sys/fs/cgroup
kube=$cg/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod$pod.slice
mkdir -p $cg
mount -t cgroup2 none $cg
check fleet_cgroups mkdir -p "$kube/cri-containerd-$ctr.scope" \
	$cg/system.slice/nginx.service
insmod ./mstat.ko profile_rate=4096 || exit 1
for d in "$kube/cri-containerd-$ctr.scope" $cg/system.slice/nginx.service; do
	sh -c "echo \$\$ >$d/cgroup.procs
		mkdir -p /tmp/w\$\$
		for i in 1 2 3 4 5 6 7 8; do
			ls -R /sys >/dev/null 2>&1
			dd if=/dev/zero of=/tmp/w\$\$/f\$i bs=4k count=8 2>/dev/null
		done"
done
./mstat pprof -o /tmp/fleet.pb.gz
check fleet_pprof [ $? -eq 0 ]
begin fleet-labels.b64
base64 /tmp/fleet.pb.gz
end
rmmod mstat

# proc_mode=0444 opens /proc/mstat to everyone; /proc/mstat_sites stays 0400.
insmod ./mstat.ko proc_mode=0444 || exit 1
out=$(su -s /bin/sh nobody -c ./mstat 2>&1)
check proc_mode_0444 [ $? -eq 0 ]
begin proc-modes.txt
ls -l /proc/mstat /proc/mstat_sites
end
rmmod mstat
finish
