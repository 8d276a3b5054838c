# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of scripts/prom-test.sh: mstat loaded, `mstat prom -o` run
# PROM_SNAPS times (kernel command line; default 3), a known load between
# two runs: mstat_probe_bench's PROM_PAIRS kmalloc/kfree pairs (default
# 20000; sizes 8..240 B) and a walk of /sys (dentries, inodes: slab
# cache traffic), then two seconds of the guest's own activity. Each
# textfile is printed gzipped and base64-encoded between
#	=== mstat-prom: N SHA256 ===
#	=== mstat-prom: end ===
# (SHA256: the textfile's, for the host to check what it decodes). The
# console's log level is lowered while a file is printed, so that no
# kernel message cuts a line; what the kernel logged meanwhile is
# printed after it.
set -u
. ./lib.sh

snaps=$(sed -n 's/.*PROM_SNAPS=\([0-9]*\).*/\1/p' /proc/cmdline)
pairs=$(sed -n 's/.*PROM_PAIRS=\([0-9]*\).*/\1/p' /proc/cmdline)
snaps=${snaps:-3} pairs=${pairs:-20000}
dir=/tmp/textfile

if insmod ./mstat.ko; then ok insmod-mstat; else not_ok insmod-mstat; finish; fi
mkdir -p $dir
i=1
while [ $i -le "$snaps" ]; do
	if [ $i -gt 1 ]; then
		check "load-$i" insmod ./mstat_probe_bench.ko pairs="$pairs"
		rmmod mstat_probe_bench
		ls -R /sys >/dev/null 2>&1
		sleep 2
	fi
	check "prom-o-$i" ./mstat prom -o $dir/mstat.prom
	# -o writes FILE.tmp.PID and renames it: nothing else is left.
	check "prom-o-$i-no-temp-left" [ "$(ls -A $dir)" = mstat.prom ]
	sum=$(sha256sum <$dir/mstat.prom)
	lines=$(dmesg | wc -l)
	dmesg -n 1
	echo "=== mstat-prom: $i ${sum%% *} ==="
	gzip -c $dir/mstat.prom | base64
	echo "=== mstat-prom: end ==="
	dmesg -n 7
	dmesg | tail -n +$((lines + 1))
	i=$((i + 1))
done
check rmmod-mstat rmmod mstat
finish
