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
finish
