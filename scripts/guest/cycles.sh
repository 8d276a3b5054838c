# SPDX-License-Identifier: GPL-2.0
# Guest side of the load/unload test: CYCLES (default 50; `make stress`
# runs 1000) insmod/rmmod cycles of mstat while an allocating workload
# and a /proc/mstat reader loop run; each cycle's read must pass the
# checker. The console check afterwards catches splats.
set -u
n=${CYCLES:-50}
( while :; do ls -R /sys >/dev/null 2>&1; cat /proc/self/status >/dev/null; done ) &
wl=$!
( while :; do cat /proc/mstat >/dev/null 2>&1; done ) &
rd=$!
fails=0 i=0
while [ "$i" -lt "$n" ]; do
	i=$((i + 1))
	if ! insmod ./mstat.ko; then
		fails=$((fails + 1))
		continue
	fi
	./mstat-check >/tmp/chk 2>&1 || { fails=$((fails + 1)); cat /tmp/chk; }
	# The reader loop may hold /proc/mstat open for a moment.
	tries=0
	until rmmod mstat 2>/dev/null; do
		tries=$((tries + 1))
		[ "$tries" -gt 50 ] && { fails=$((fails + 1)); break; }
		sleep 0.1
	done
done
kill "$wl" "$rd"
wait 2>/dev/null
if [ "$fails" -eq 0 ]; then
	echo "ok load-unload-cycles: $n under load"
else
	echo "not ok load-unload-cycles: $fails of $n failed"
fi
[ -e /proc/mstat ] && { echo "not ok unloaded-clean"; fails=$((fails + 1)); } || echo "ok unloaded-clean"
echo "# checks=2 failed=$((fails > 0))"
[ "$fails" -eq 0 ]
