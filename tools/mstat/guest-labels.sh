# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the README's pprof labels capture: two cgroups, each with
# its own load, then `mstat pprof` of /proc/mstat_sites in the guest (the
# cgroup paths resolve there), the profile printed base64 between markers.
#
#   scripts/guest.sh --kernel VMLINUZ --script tools/mstat/guest-labels.sh \
#	--ko mstat.ko --file build/mstat:/mstat/mstat --log LOG
set -u
# shellcheck source=../../scripts/guest/lib.sh
. ./lib.sh
insmod ./mstat.ko profile_rate=65536 || exit 1
mount -t cgroup2 none /sys/fs/cgroup || exit 1
mkdir /sys/fs/cgroup/build /sys/fs/cgroup/web || exit 1
# "build": walks of /sys and /proc (inodes, dentries, kernfs nodes).
sh -c 'echo $$ >/sys/fs/cgroup/build/cgroup.procs
	for _ in 1 2 3; do ls -R /sys /proc >/dev/null 2>&1; done'
# "web": files written and kept on tmpfs (pages, radix nodes, inodes).
mkdir -p /tmp/www
sh -c 'echo $$ >/sys/fs/cgroup/web/cgroup.procs
	i=0; while [ $i -lt 400 ]; do
		dd if=/dev/zero of=/tmp/www/f$i bs=4k count=4 2>/dev/null
		i=$((i + 1)); done'
./mstat pprof -o /tmp/heap.pb.gz || exit 1
echo "=== mstat pprof: begin ==="
base64 /tmp/heap.pb.gz
echo "=== mstat pprof: end ==="
