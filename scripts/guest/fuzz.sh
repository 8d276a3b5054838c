# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the fuzz test: mstat-fuzz writes FUZZ_WRITES random inputs
# (default 12500, so 1e5 over the 8 controls) to every writable debugfs
# control of mstat and checks that state changes on valid input only.
# The module parameters are read-only in sysfs (0444): checked too.
# Prints "ok NAME"/"not ok NAME", last "# checks=N failed=N".
set -u
. ./lib.sh
insmod ./mstat.ko || exit 1
./mstat-fuzz -n "${FUZZ_WRITES:-12500}" -s "$(date +%s)" >/tmp/fuzz.out 2>&1
rc=$?
relay /tmp/fuzz.out
[ "$rc" -eq 0 ] || not_ok "mstat-fuzz: exit $rc"
read_only() { ! echo 1 2>/dev/null >"$1"; }
for p in /sys/module/mstat/parameters/*; do
	check "param-readonly-$(basename "$p")" read_only "$p"
done
rmmod mstat || exit 1
finish
