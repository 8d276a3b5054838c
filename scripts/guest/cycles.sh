# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the load/unload test: CYCLES (default 50; `make stress`
# runs 1000) insmod/rmmod cycles of mstat while an allocating workload
# and a /proc/mstat reader loop run, and a writer of the controls' module
# parameters, which meets mstat loading, loaded and unloading (-EBUSY,
# set, -ENODEV); each cycle's read must pass the checker. The console
# check afterwards catches splats.
# Run: check guest-6.12-cycles --append=CYCLES=10
# Run: soak soak-6.12-cycles build=soak-6.12
set -u
. ./lib.sh
n=${CYCLES:-50}
( while :; do ls -R /sys >/dev/null 2>&1; cat /proc/self/status >/dev/null; done ) &
wl=$!
( while :; do cat /proc/mstat >/dev/null 2>&1; done ) &
rd=$!
P=/sys/module/mstat/parameters
( while :; do
	for v in 2 0; do
		echo $v >$P/sync_mode
		echo $v >$P/events_sources
		echo $((v * 512)) >$P/profile_rate
	done
	echo 1 >$P/reset
done 2>/dev/null ) &
pw=$!
fails=0 i=0
while [ "$i" -lt "$n" ]; do
	i=$((i + 1))
	if ! insmod ./mstat.ko; then
		fails=$((fails + 1))
		continue
	fi
	mstat_check /proc/mstat >/tmp/chk 2>&1 || { fails=$((fails + 1)); cat /tmp/chk; }
	# The reader loop may hold /proc/mstat open for a moment.
	tries=0
	until rmmod mstat 2>/dev/null; do
		tries=$((tries + 1))
		[ "$tries" -gt 50 ] && { fails=$((fails + 1)); break; }
		sleep 0.1
	done
done
kill "$wl" "$rd" "$pw"
wait 2>/dev/null
if [ "$fails" -eq 0 ]; then
	ok "load-unload-cycles: $n under load"
else
	not_ok "load-unload-cycles: $fails of $n failed"
fi
check unloaded-clean [ ! -e /proc/mstat ]
finish
