# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the fuzz test: mstat-fuzz writes FUZZ_WRITES random inputs
# (default 12500, so 1.375e5 over the 11 controls) to every writable debugfs
# control of mstat, then as many to each control's module parameter
# (/sys/module/mstat/parameters, mstat-fuzz -p: sysfs's model), and checks
# that state changes on valid input only. The load-only parameters stay
# read-only (0444): checked too.
# Prints "ok NAME"/"not ok NAME", last "# checks=N failed=N". A valid
# sync_mode write into or out of ipi switches the writers' sequence words
# (mstat_core.c's mstat_seq_get(): two static keys patched and a grace
# period): soak's 275,000 inputs took 423 s of TCG before them (80 s of
# CPU), and after them 702 s (153 s of CPU) beside a make check, in
# make soak at 2e6ce3c (2026-12-07).
# Run: check guest-6.12-fuzz --append=FUZZ_WRITES=2000
# Run: soak soak-6.12-fuzz build=soak-6.12 --timeout=1200
set -u
. ./lib.sh
P=/sys/module/mstat/parameters
# Load values: the controls' parameters at insmod, applied as they say;
# reset refused at load.
values() { cat "$@" | tr '\n' ' '; }
if insmod ./mstat.ko enable_page=0 enable_api=0 sync_mode=2 \
	events_sources=3 events_min_size=0x1000 profile_rate=0 per_cache=0 \
	proc_min_interval_ms=0; then
	v=$(values $P/enable_kmalloc $P/enable_page $P/enable_api $P/sync_mode \
		   $P/events_sources $P/events_min_size $P/profile_rate \
		   $P/per_cache $P/proc_min_interval_ms)
	diag "load values: $v"
	check load-values [ "$v" = "1 0 0 2 3 4096 0 0 0 " ]
	v=$(grep -E '^(kmalloc|page|api|caches)_enabled ' /proc/mstat |
	    values)
	diag "/proc/mstat: $v"
	check load-values-proc [ "$v" = "kmalloc_enabled 1 page_enabled 0 api_enabled 0 caches_enabled 0 " ]
	check load-values-internals grep -q '^sync_mode ipi$' $D/internals
	rmmod mstat || exit 1
else
	not_ok load-values: insmod
fi
check load-reset-refused eval '! insmod ./mstat.ko reset=1 2>/dev/null'
insmod ./mstat.ko || exit 1
for mode in debugfs param; do
	flag=''
	[ "$mode" = param ] && flag=-p
	# shellcheck disable=SC2086 # -p or nothing
	./mstat-fuzz $flag -n "${FUZZ_WRITES:-12500}" -s "$(date +%s)" \
		>/tmp/fuzz.out 2>&1
	rc=$?
	relay /tmp/fuzz.out
	[ "$rc" -eq 0 ] || not_ok "mstat-fuzz $mode: exit $rc"
done
read_only() { ! echo 1 2>/dev/null >"$1"; }
for p in proc_mode events_per_cpu profile_buckets profile_addrs cache_rows; do
	check "param-readonly-$p" read_only "$P/$p"
done
check param-modes [ "$(stat -c %a "$P/sync_mode" "$P/reset" \
	"$P/proc_min_interval_ms")" = "644
200
644" ]
rmmod mstat || exit 1
finish
