# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the KUnit run: load mstat, then every test module; each
# prints its KTAP document to the kernel log. Then unload everything
# (mstat with sampled objects of the profile still live) and let kmemleak
# look for what the modules leaked. Runs in /mstat.
# Kernels: debug
# Guest: --tcg=multi --mem=512M
set -u
. ./lib.sh
# Forget what the boot left unreferenced: only what follows is ours.
[ -w /sys/kernel/debug/kmemleak ] && echo clear >/sys/kernel/debug/kmemleak
insmod ./mstat.ko || exit 1
for t in ./*_kunit.ko; do
	insmod "$t" || echo "insmod $t failed"
done
# Keep some sampled objects live across the unload: every allocation
# sampled while a part of sysfs is walked (its inodes and dentries stay
# cached). A part, not all of /sys: that took 46 s of the guest's 117
# (scripts/guest.sh by hand).
echo 1 >"$D/profile_rate"
ls -R /sys/devices/system >/dev/null 2>&1
live=$(sed -n 's/.* addr_live \([0-9]*\) .*/\1/p' /proc/mstat_sites | head -n 1)
echo "# sampled objects live at the unload: ${live:-none}"
if [ "${live:-0}" -eq 0 ]; then
	echo "no sampled object live: the unload's path with live objects untried"
	exit 1
fi
for t in ./*_kunit.ko; do
	rmmod "$(basename "$t" .ko)"
done
rmmod mstat || exit 1
if [ -w /sys/kernel/debug/kmemleak ]; then
	# kmemleak reports objects unreferenced for more than 5 s.
	sleep 6
	echo scan >/sys/kernel/debug/kmemleak
	echo scan >/sys/kernel/debug/kmemleak
	# A report here contains "unreferenced object": console-check fails it.
	cat /sys/kernel/debug/kmemleak
	echo "kmemleak: scanned"
fi
