# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of `make run`: load mstat, make some allocation traffic, show
# /proc/mstat and the top of /proc/mstat_sites between markers that
# scripts/run.sh cuts out.
set -u
. ./lib.sh
insmod ./mstat.ko || exit 1
for _ in 1 2 3 4 5; do
	ls -R /sys >/dev/null 2>&1
	dd if=/dev/zero of=/tmp/f bs=64k count=16 2>/dev/null
	rm -f /tmp/f
done
echo "=== mstat guest: begin ==="
echo "# uname -r: $(uname -r)"
echo "# insmod mstat.ko; (some ls -R /sys and dd); cat /proc/mstat"
cat /proc/mstat
echo "# head -n 12 /proc/mstat_sites"
head -n 12 /proc/mstat_sites
echo "=== mstat guest: end ==="
rmmod mstat
