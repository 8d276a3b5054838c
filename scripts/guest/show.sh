# SPDX-License-Identifier: GPL-2.0
# Guest side of `make run`: load mstat, make a little allocation traffic,
# show /proc/mstat between markers that scripts/run.sh cuts out.
set -u
insmod ./mstat.ko || exit 1
echo "=== mstat guest: begin ==="
echo "# uname -r: $(uname -r)"
echo "# insmod mstat.ko && cat /proc/mstat"
cat /proc/mstat
echo "=== mstat guest: end ==="
rmmod mstat
