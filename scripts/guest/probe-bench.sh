# SPDX-License-Identifier: GPL-2.0
# Guest side of the probe-cost benchmark (scripts/bench.sh): kmalloc/kfree
# pairs timed with no probe, an empty probe, mstat's kmalloc source alone,
# and mstat with every source. Three runs each, interleaved.
set -u
b() {
	insmod ./mstat_probe_bench.ko "$@" || exit 1
	rmmod mstat_probe_bench
}
for run in 1 2 3; do
	echo "bench: run $run variant=none"
	b mode=none
	echo "bench: run $run variant=empty"
	b mode=empty
	insmod ./mstat.ko enable_cache=0 enable_page=0 enable_api=0 || exit 1
	echo "bench: run $run variant=mstat-kmalloc"
	b mode=none
	rmmod mstat
	insmod ./mstat.ko || exit 1
	echo "bench: run $run variant=mstat-all"
	b mode=none
	rmmod mstat
done
