# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC3043 # busybox ash has "local"
# Guest side of /proc/slabinfo against the truth (make bench): one cache
# of known live objects (tests/slabinfo/mstat_slabtest.c), on a quiet
# guest. After each step, the truth (the objects the module keeps),
# /proc/slabinfo's active and total objects for that cache (the figures
# slabtop shows), and mstat's live objects in the cache's row, one line:
#	slabinfo: step=S truth=N slabinfo_active=A slabinfo_total=T mstat_live=M
# Steps: 20,000 objects allocated; 10,000 of them freed (every other
# one, which leaves every slab half used); the cache shrunk
# (/sys/kernel/slab/NAME/shrink, what `slabinfo -s` does); all freed;
# shrunk again. mstat's row must equal the truth at every step (checked,
# with `mstat check` on every read); slabinfo's figures are reported.
#
# Then objects from before mstat's load (format 1.8: a row's live count
# starts from the objects its cache held at load, its at_load_objects,
# read from /proc/slabinfo): the cache filled and half emptied first,
# mstat loaded after. Unshrunk, slabinfo counts the free objects of the
# per-CPU slabs as active, so the row's count at load may exceed the
# truth, by at most their capacity (CPUs x (cpu_partial +
# objs_per_slab)); one line:
#	slabinfo: step=preload-unshrunk truth_at_load=N at_load=A error=E bound=B
# Shrunk before the load, the count is the truth, and the row follows it
# exactly through frees down to none, and, after a reset (the cache
# shrunk first), from what it held at the reset.
set -u
. ./lib.sh

c=mstat_slabtest
ctl=/sys/kernel/debug/mstat_slabtest/ctl

# step NAME: the three figures after step NAME.
step() {
	local truth active total live
	truth=$(sed -n 's/^live //p' $ctl)
	# name active_objs num_objs ...
	active=$(awk -v c=$c '$1 == c { print $2 }' /proc/slabinfo)
	total=$(awk -v c=$c '$1 == c { print $3 }' /proc/slabinfo)
	cat /proc/mstat >/tmp/snap
	# cache id object_size allocs frees failures live_objects live_bytes state name
	live=$(awk -v c=$c '$1 == "cache" && $10 == c && $9 == "live" { print $7 }' /tmp/snap)
	# No row yet: the cache has had no event since mstat was loaded.
	[ -z "$live" ] && ! grep -q "^cache .* $c\$" /tmp/snap && live=0
	echo "slabinfo: step=$1 truth=$truth slabinfo_active=$active slabinfo_total=$total mstat_live=$live"
	if [ -n "$truth" ] && [ "$live" = "$truth" ]; then
		ok "slabinfo-mstat-$1 ($live)"
	else
		not_ok "slabinfo-mstat-$1: mstat ${live:-no row}, truth ${truth:-?}"
	fi
	mstat_check /tmp/snap >/dev/null || not_ok "slabinfo-check-$1"
}

check insmod-mstat insmod ./mstat.ko
check insmod-slabtest insmod ./mstat_slabtest.ko
step created
check alloc sh -c "echo 'alloc 20000' >$ctl"
step alloc-20000
check free sh -c "echo 'free 10000' >$ctl"
step free-10000
check shrink sh -c "echo 1 >/sys/kernel/slab/$c/shrink"
step shrink
check free-all sh -c "echo free_all >$ctl"
step free-all
check shrink-again sh -c "echo 1 >/sys/kernel/slab/$c/shrink"
step shrink-again
check rmmod-slabtest rmmod mstat_slabtest
check rmmod-mstat rmmod mstat

# row: the row's live objects and objects at load ("" if no row).
row() {
	awk -v c=$c '$1 == "cache" && $10 == c && $9 == "live" { print $7, $11 }' /proc/mstat
}
check insmod-slabtest-first insmod ./mstat_slabtest.ko
check pre-alloc sh -c "echo 'alloc 20000' >$ctl"
check pre-free sh -c "echo 'free 10000' >$ctl"
check insmod-mstat-after insmod ./mstat.ko
if grep -q '^caches_at_load 1$' /proc/mstat; then
	ok "caches-at-load-known ($(sed -n 's/^# caches at load: //p' /proc/mstat))"
else
	not_ok "caches-at-load: $(grep -A1 '^caches_at_load' /proc/mstat | tr '\n' ' ')"
fi
# An event of the cache since the load: its row.
check post-alloc sh -c "echo 'alloc 100' >$ctl"
# shellcheck disable=SC2046 # its two words, split on purpose
set -- $(row)
ncpu=$(grep -c '^processor' /proc/cpuinfo)
cp=$(cat /sys/kernel/slab/$c/cpu_partial 2>/dev/null || echo 0)
ops=$(cat /sys/kernel/slab/$c/objs_per_slab)
bound=$((ncpu * (cp + ops)))
echo "slabinfo: step=preload-unshrunk truth_at_load=10000 at_load=${2:-} error=$((${2:-0} - 10000)) bound=$bound"
if [ -n "${2:-}" ] && [ "$2" -ge 10000 ] && [ "$2" -le $((10000 + bound)) ] &&
   [ "$1" = $(($2 + 100)) ]; then
	ok "slabinfo-at-load-unshrunk-bounded ($2 - 10000 <= $bound)"
else
	not_ok "slabinfo-at-load-unshrunk: live ${1:-none}, at load ${2:-none}, truth 10000, bound $bound"
fi
check rmmod-mstat-again rmmod mstat
check shrink-before-load sh -c "echo 1 >/sys/kernel/slab/$c/shrink"
check insmod-mstat-shrunk insmod ./mstat.ko
check post-free sh -c "echo 'free 5000' >$ctl"
step preload-shrunk-free-5000
# A reset counts from zero again, and from what the caches hold then:
# the cache shrunk first, so that slabinfo's count is the truth.
check shrink-before-reset sh -c "echo 1 >/sys/kernel/slab/$c/shrink"
check reset sh -c 'echo 1 >/sys/module/mstat/parameters/reset'
check post-free-all sh -c "echo free_all >$ctl"
step preload-reset-free-all
# shellcheck disable=SC2046 # its two words, split on purpose
set -- $(row)
if [ "${2:-}" = 5100 ]; then
	ok "slabinfo-at-reset (5100)"
else
	not_ok "slabinfo-at-reset: the row held ${2:-no row} at the reset, truth 5100"
fi
check rmmod-slabtest-last rmmod mstat_slabtest
check rmmod-mstat-last rmmod mstat
finish
