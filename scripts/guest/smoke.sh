# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the stock-kernel smoke test: load, read, unload. Runs in
# /mstat. Fails unless /proc/mstat opens with its format line.
# Run: check guest-6.12-smoke --boot=bzimage
set -u
. ./lib.sh
insmod ./mstat.ko || exit 1
ls -l /proc/mstat
cat /proc/mstat >/tmp/mstat.out || exit 1
cat /tmp/mstat.out
head -n 1 /tmp/mstat.out | grep -q '^mstat - version: ' || exit 1
grep -q '^generation [1-9]' /tmp/mstat.out || exit 1
rmmod mstat || exit 1
[ ! -e /proc/mstat ] || exit 1
