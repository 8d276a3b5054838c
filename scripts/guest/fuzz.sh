# SPDX-License-Identifier: GPL-2.0
# Guest side of the fuzz test: mstat-fuzz writes FUZZ_WRITES random inputs
# (default 12500, so 1e5 over the 8 controls) to every writable debugfs
# control of mstat and checks that state changes on valid input only.
# The module parameters are read-only in sysfs (0444): checked too.
set -u
insmod ./mstat.ko || exit 1
./mstat-fuzz -n "${FUZZ_WRITES:-12500}" -s "$(date +%s)"
rc=$?
fails=0
for p in /sys/module/mstat/parameters/*; do
	if echo 1 2>/dev/null >"$p"; then
		echo "not ok param-readonly-$(basename "$p")"
		fails=$((fails + 1))
	else
		echo "ok param-readonly-$(basename "$p")"
	fi
done
rmmod mstat || exit 1
[ "$rc" -eq 0 ] && [ "$fails" -eq 0 ]
