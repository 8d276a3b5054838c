# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the load-parameter limits test: every load-time parameter
# at the minimum and the maximum its description allows must load (and
# /proc/mstat read, and unload); one step past either end must fail with
# EINVAL and a log line naming the parameter (NAME=VALUE, or, for a
# runtime control's parameter, the controls' parser's "parameter NAME:
# invalid input"). The host's collect then
# requires a console with no WARNING: a value the README allows must
# never make the per-CPU allocator (or anything) WARN, which is a panic
# under panic_on_warn. Runs in /mstat with mstat.ko.
# Kernels: 6.12 5.10 6.1 7.3 6.12rt 6.12cloud 7.2
set -u
. ./lib.sh

# "NAME MIN MAX BELOW ABOVE": BELOW or ABOVE "-" where there is none.
specs='proc_mode 0400 0444 0377 0445
events_per_cpu 16 65536 15 65537
cache_rows 0 511 - 512
profile_buckets 64 65536 63 65537
profile_addrs 64 1048576 63 1048577
profile_depth 1 64 0 65
kmem_objects 64 1048576 63 1048577
proc_min_interval_ms 0 3600000 - 3600001'

# The limits here are the ones the module describes (its .modinfo's parm,
# read without modinfo, which busybox looks up by name only).
if tr '\000' '\n' <./mstat.ko | grep '^parm=cache_rows:' >/tmp/desc &&
   grep -q ' 0 to 511 ' /tmp/desc; then
	ok param-desc
else
	show /tmp/desc
	not_ok "param-desc: cache_rows is not described as 0 to 511"
fi

loads() {
	insmod ./mstat.ko "$1" || return 1
	head -n 1 /proc/mstat | grep -q '^mstat - version: ' || {
		rmmod mstat
		return 1
	}
	rmmod mstat
}

refused() {
	if insmod ./mstat.ko "$1" 2>/tmp/insmod.err; then
		rmmod mstat
		echo "# $1: loaded"
		return 1
	fi
	show /tmp/insmod.err
	grep -q 'Invalid argument' /tmp/insmod.err || return 1
	dmesg | grep -qE "mstat: (.*${1%%=*}=${1#*=}|parameter ${1%%=*}: invalid input)" || {
		echo "# $1: no log line"
		return 1
	}
}

echo "$specs" | while read -r p lo hi below above; do
	check "param-$p-min" loads "$p=$lo"
	check "param-$p-max" loads "$p=$hi"
	[ "$below" = - ] || check "param-$p-below" refused "$p=$below"
	[ "$above" = - ] || check "param-$p-above" refused "$p=$above"
done >/tmp/params.out
relay /tmp/params.out
finish
