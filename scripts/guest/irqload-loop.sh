# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the count of an emulator's fault (scripts/check.sh, 3c:
# why the learning guests boot without CMPXCHG16B): the learning test's
# interrupt load (tests/irqload/, a large kmalloc/kfree
# pair every LOOP_PERIOD_US, 5, microseconds on every CPU from an
# hrtimer) for LOOP_SECS (600) seconds of guest time, with mstat loaded,
# /proc/mstat read twice a second apart and mstat unloaded, over and
# over. Not in make check: it counts how often the emulator fails, with
# and without CMPXCHG16B, e.g.
#
#   scripts/guest.sh --kernel "$K612_VMLINUZ" \
#	--script scripts/guest/irqload-loop.sh --ko build/6.12/mstat.ko \
#	--ko build/6.12/tests/irqload/mstat_irqload.ko --timeout 900 \
#	--append LOOP_SECS=600 [--cpu cx16=off] --log LOG
#
# A guest that lives reports "# loads N" and exits 0; one the emulator
# broke leaves a splat on the console and no exit status (guest.sh: 125).
# Counted on 6.12 (a 2-CPU machine, qemu 7.2 TCG): with
# CMPXCHG16B, 2 such crashes in about 480 loads; without, none in about
# 630.
set -u
. ./lib.sh

secs=${LOOP_SECS:-600}
period=${LOOP_PERIOD_US:-5}
uptime() { cut -d. -f1 /proc/uptime; }

check insmod-irqload insmod ./mstat_irqload.ko period_us="$period"
start=$(uptime)
n=0
while [ $(($(uptime) - start)) -lt "$secs" ]; do
	insmod ./mstat.ko || { not_ok "load-$((n + 1))"; break; }
	cat /proc/mstat >/dev/null
	sleep 1
	cat /proc/mstat >/dev/null
	rmmod mstat || { not_ok "unload-$((n + 1))"; break; }
	n=$((n + 1))
done
diag "loads $n"
ok looped
check rmmod-irqload rmmod mstat_irqload
finish
