# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the probe-cost benchmark: kmalloc/kfree pairs timed with
# no probe, an empty probe on kmalloc+kfree, mstat's kmalloc source alone
# with the profile off (counters only), with the profile at its default
# rate, and with every allocation sampled; then mstat with every source.
# Three runs, interleaved. Prints "bench: variant=V ns_per_pair=N".
set -u
. ./lib.sh
b() {
	insmod ./mstat_probe_bench.ko "$@" || exit 1
	rmmod mstat_probe_bench
	dmesg | sed -n 's/.*mstat_probe_bench: mode=[a-z]* loop=[a-z]* pairs=[0-9]* ns_per_pair=\([0-9]*\).*/\1/p' | tail -n 1
}
m() {
	insmod ./mstat.ko "$@" || exit 1
}
only_kmalloc="enable_cache=0 enable_page=0 enable_api=0"
# shellcheck disable=SC2086 # $only_kmalloc: three parameters
for run in 1 2 3; do
	echo "bench: run=$run variant=none ns_per_pair=$(b mode=none)"
	echo "bench: run=$run variant=empty ns_per_pair=$(b mode=empty)"
	m $only_kmalloc profile_rate=0
	echo "bench: run=$run variant=mstat-counters ns_per_pair=$(b mode=none)"
	rmmod mstat
	m $only_kmalloc
	echo "bench: run=$run variant=mstat-profile-default ns_per_pair=$(b mode=none)"
	rmmod mstat
	m $only_kmalloc profile_rate=1
	echo "bench: run=$run variant=mstat-profile-every ns_per_pair=$(b mode=none)"
	rmmod mstat
	m
	echo "bench: run=$run variant=mstat-all-sources ns_per_pair=$(b mode=none)"
	rmmod mstat
done
