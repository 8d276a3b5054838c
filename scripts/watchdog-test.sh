#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The boot watchdog's test (scripts/guest.sh): a guest whose console goes
# silent before its script starts (here a shell waiting for input as
# init, the kernel's messages off) is stopped after MSTAT_BOOT_SILENCE
# (10) seconds with exit 126, which the queue boots once more, rather
# than sitting out its --timeout (60 s here). Each boot:
#   guest-boot-watchdog-N   exit 126 and the "boot hung" line, and what
#                           guest.sh printed if not
#
#   scripts/watchdog-test.sh [BOOTS]	BOOTS boots (default 1)
#
# make soak boots it five times. Not in make check: it failed once in a
# cold make check (exit 1, its output lost; guest.sh then read the
# console's size with set -e before qemu's shell had made the file, now
# guarded), and passed every boot by hand since, beside CPU hogs too.
set -uo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
cd "$MSTAT_TOP" || exit 1

boots=${1:-1}
if ! mstat_setup_env >/dev/null; then
	not_ok "guest-boot-watchdog: setup, log: $mstat_setup_log"
	finish
fi
logs=$MSTAT_TOP/build/logs/watchdog
mkdir -p "$logs"
for ((i = 1; i <= boots; i++)); do
	rc=0
	out=$(MSTAT_BOOT_SILENCE=10 scripts/guest.sh --kernel "$K612_VMLINUZ" \
		--script scripts/guest/smoke.sh --log "$logs/boot-$i.console" \
		--timeout 60 --append "loglevel=0 rdinit=/bin/sh" 2>&1) || rc=$?
	if [ "$rc" -eq 126 ] && grep -q '^\[mstat\] boot hung: ' <<<"$out"; then
		ok "guest-boot-watchdog-$i"
	else
		not_ok "guest-boot-watchdog-$i: exit $rc, wanted 126 and a \"boot hung\" line, console: build/logs/watchdog/boot-$i.console"
		show <<<"$out"
	fi
done
finish
