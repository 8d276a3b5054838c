# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the README's `mstat leaks` capture: mstat at
# profile_rate=16384, tests/leaks/mstat_leaktest.ko's leaks and decoys
# started (scripts/guest/leaks.sh says what each is), a task in cgroup
# /leaks driving the cgroup leak, then a 120 s watch, its text verdict
# printed between markers.
#
#   scripts/guest.sh --kernel VMLINUZ --script tools/mstat/guest-leaks.sh \
#	--ko mstat.ko --ko mstat_leaktest.ko --file build/tools/mstat:/mstat/mstat \
#	--file build/tools/leaks:/mstat/leaks --log LOG
set -u
# shellcheck source=../../scripts/guest/lib.sh
. ./lib.sh
L=/sys/kernel/debug/mstat_leaktest
mount -t cgroup2 none /sys/fs/cgroup && mkdir /sys/fs/cgroup/leaks || exit 1
insmod ./mstat.ko profile_rate=16384 || exit 1
insmod ./mstat_leaktest.ko || exit 1
echo "start leaks,decoys" >$L/control || exit 1
sh -c "echo \$\$ >/sys/fs/cgroup/leaks/cgroup.procs && exec ./leaks -d $L/control" &
./mstat leaks -d 120 -i 5 >/tmp/verdict 2>&1
echo "exit $?" >>/tmp/verdict
echo stop >$L/control
echo "=== mstat leaks: begin ==="
cat /tmp/verdict
echo "=== mstat leaks: end ==="
