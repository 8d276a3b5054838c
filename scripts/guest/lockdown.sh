# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC3043 # busybox ash has "local"
# Guest side of the lockdown test, on Debian's stock 6.12 kernel.
#
# A kernel locked down for integrity (what Debian's kernel does under
# Secure Boot) refuses an unsigned module, and a qemu guest without UEFI
# and shim has no MOK keyring to trust a key of ours: so, booted with
# lockdown=integrity (on the kernel command line), this checks only that
# insmod of the unsigned mstat.ko is refused. Else it loads mstat, raises
# the lockdown to integrity at runtime (securityfs), as Secure Boot would
# have it from the start, and checks: every control through its module parameter (a valid
# value, read back, its effect where one is visible), bad input refused
# with EINVAL and a log line, every writable debugfs control refused as
# the kernel refuses it (open fails with EPERM), /proc/mstat readable and
# consistent, and rmmod.
# Prints "ok NAME"/"not ok NAME", last "# checks=N failed=N".
# Guest: --append=lockdown=integrity
# Run: check guest-6.12-lockdown-boot
set -u
. ./lib.sh
P=/sys/module/mstat/parameters
L=/sys/kernel/security/lockdown

[ -e $L ] || mount -t securityfs securityfs /sys/kernel/security
diag "lockdown at boot: $(cat $L 2>&1)"

if grep -q 'lockdown=integrity' /proc/cmdline; then
	check boot-lockdown-integrity grep -q '\[integrity\]' $L
	dmesg -c >/dev/null
	out=$(insmod ./mstat.ko 2>&1)
	rc=$?
	diag "insmod: rc=$rc: $out"
	dmesg | show
	[ $rc -eq 0 ] && rmmod mstat
	check boot-insmod-unsigned-refused [ $rc -ne 0 ]
	check boot-insmod-refused-eperm \
		[ "${out%Operation not permitted*}" != "$out" ]
	logged() { dmesg | grep -q 'Lockdown: insmod: unsigned module'; }
	check boot-insmod-lockdown-log logged
	finish
fi

if ! insmod ./mstat.ko; then
	not_ok insmod
	finish
fi
ok insmod
# Allocations to count, all along.
(while :; do ls -lR /sys/kernel /proc/self >/dev/null 2>&1; done) &
load=$!

readable() { cat "$1" >/dev/null; }
check debugfs-readable-before readable $D/sync_mode
echo integrity >$L
diag "lockdown now: $(cat $L)"
check lockdown-integrity grep -q '\[integrity\]' $L

# /proc/mstat: readable, consistent.
field() { sed -n "s/^$1 //p" /proc/mstat; }
check proc-readable readable /proc/mstat
mstat_check -n 5 -i 10 >/tmp/chk 2>&1
rc=$?
show /tmp/chk
check proc-consistent [ $rc -eq 0 ]

# The debugfs controls: refused at open with EPERM, for writing and, as
# their mode has write bits, for reading too. The read-only files stay.
eperm() {
	local out
	out=$( (eval "$1") 2>&1) && return 1
	[ "${out%Operation not permitted*}" != "$out" ]
}
for f in enable_kmalloc enable_cache enable_page enable_api reset \
	 events_sources events_min_size profile_rate sync_mode per_cache \
	 proc_min_interval_ms; do
	check "debugfs-write-eperm $f" eperm "echo 1 >$D/$f"
	[ "$f" = reset ] ||
		check "debugfs-read-eperm $f" eperm "cat $D/$f"
done
check debugfs-internals-readable grep -q '^sync_mode ' $D/internals
check debugfs-events-dropped-readable readable $D/events_dropped

# set NAME VALUE: a valid write to the parameter, read back.
set_param() {
	echo "$2" >"$P/$1" && [ "$(cat "$P/$1")" = "$2" ]
}

# The sources: off stops the counts, on starts them again.
for s in kmalloc cache page api; do
	check "param-enable-$s-0" set_param "enable_$s" 0
	check "param-enable-$s-0-proc" grep -q "^${s}_enabled 0\$" /proc/mstat
	a=$(field "${s}_allocs")
	sleep 1
	check "param-enable-$s-0-stopped" [ "$(field "${s}_allocs")" = "$a" ]
	check "param-enable-$s-1" set_param "enable_$s" 1
	check "param-enable-$s-1-proc" grep -q "^${s}_enabled 1\$" /proc/mstat
done
a=$(field kmalloc_allocs)
sleep 1
check param-enable-kmalloc-counts-again [ "$(field kmalloc_allocs)" -gt "$a" ]

# Every reader mode, as internals (read-only, so readable) names it.
for m in 2:ipi 1:rcu_expedited 0:rcu; do
	check "param-sync-mode-${m%:*}" set_param sync_mode "${m%:*}"
	check "param-sync-mode-${m%:*}-internals" \
		grep -q "^sync_mode ${m#*:}\$" $D/internals
	check "param-sync-mode-${m%:*}-proc" mstat_check /proc/mstat
done

# reset zeroes: the counts after it are fewer than before.
a=$(field kmalloc_allocs)
rc=0
echo 1 >$P/reset || rc=1
b=$(field kmalloc_allocs)
diag "reset: kmalloc_allocs $a -> $b"
fewer() { [ "$1" -eq 0 ] && [ "$2" -lt "$3" ]; }
check param-reset fewer "$rc" "$b" "$a"
check param-reset-proc mstat_check /proc/mstat

# per_cache: the table off and on, as /proc/mstat says.
check param-per-cache-0 set_param per_cache 0
check param-per-cache-0-proc grep -q '^caches_enabled 0$' /proc/mstat
check param-per-cache-1 set_param per_cache 1
check param-per-cache-1-proc grep -q '^caches_enabled 1$' /proc/mstat

# profile_rate: /proc/mstat_sites gives the rate it samples at.
rate=$(cat $P/profile_rate)
check param-profile-rate-1 set_param profile_rate 1
check param-profile-rate-1-sites grep -q 'sample_rate 1 ' /proc/mstat_sites
check param-profile-rate-back set_param profile_rate "$rate"

# proc_min_interval_ms: 0 and back (what it bounds: isolation.sh).
check param-proc-min-interval-0 set_param proc_min_interval_ms 0
check param-proc-min-interval-back set_param proc_min_interval_ms 1000

# The event stream: kmalloc's events, then none smaller than min_size.
check param-events-sources set_param events_sources 1
timeout 2 cat $D/events >/tmp/ev 2>/dev/null
diag "events: $(wc -l </tmp/ev) lines in 2 s; first: $(head -n 1 /tmp/ev)"
check param-events-streamed [ -s /tmp/ev ]
check param-events-min-size set_param events_min_size 4096
# What the rings held from before goes first.
timeout 1 cat $D/events >/dev/null 2>&1
timeout 2 cat $D/events >/tmp/ev 2>/dev/null
small=$(sed -n 's/.* size=\([0-9]*\) .*/\1/p' /tmp/ev | awk '$1 < 4096' | wc -l)
diag "events of 4096 bytes or more: $(wc -l </tmp/ev) lines in 2 s, $small smaller"
check param-events-min-size-streamed [ "$small" -eq 0 ]
check param-events-min-size-0 set_param events_min_size 0
check param-events-sources-0 set_param events_sources 0

# Bad input: EINVAL, the value unchanged, a log line naming it. The log
# line is rate-limited (10 in 5 s from one place): a pause every 8.
n=0
bad_param() {
	local p="$1" v="$2" before out rc
	n=$((n + 1))
	[ $((n % 8)) -eq 0 ] && sleep 5
	dmesg -c >/dev/null
	before=$(cat "$P/$p" 2>/dev/null)
	out=$( (echo "$v" >"$P/$p") 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] || [ "${out%Invalid argument}" = "$out" ]; then
		diag "$p <$v: rc=$rc: $out"
		return 1
	fi
	[ "$(cat "$P/$p" 2>/dev/null)" = "$before" ] || return 1
	dmesg | grep -q "$p"
}
for p in enable_kmalloc enable_cache enable_page enable_api events_sources \
	 events_min_size profile_rate sync_mode per_cache reset \
	 proc_min_interval_ms; do
	check "param-bad $p abc" bad_param "$p" abc
done
for pv in enable_kmalloc:2 enable_page:-1 events_sources:64 \
	  profile_rate:1099511627777 sync_mode:3 per_cache:2 reset:0 \
	  events_min_size:18446744073709551616 proc_min_interval_ms:3600001; do
	check "param-bad ${pv%%:*} ${pv#*:}" bad_param "${pv%%:*}" "${pv#*:}"
done
check param-bad-left-on [ "$(cat $P/enable_kmalloc $P/enable_cache \
	$P/enable_page $P/enable_api | tr -d '\n')" = 1111 ]
# The load-only parameters stay read-only.
for p in proc_mode events_per_cpu profile_buckets profile_addrs cache_rows; do
	check "param-readonly $p" eval "! echo 1 2>/dev/null >$P/$p"
done

mstat_check /proc/mstat >/tmp/chk 2>&1
rc=$?
show /tmp/chk
check proc-consistent-after [ $rc -eq 0 ]
kill "$load"
wait "$load" 2>/dev/null
check rmmod rmmod mstat
check unloaded-proc [ ! -e /proc/mstat ]
check unloaded-params [ ! -e $P ]
check still-locked-down grep -q '\[integrity\]' $L
finish
