# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the ground-truth test: mstat's counts against what the
# mstat_truth module (tests/truth/) really allocated and freed, through
# every kernel API, with an idle window beside each run to bound the
# background (tests/helpers/truth.c, copied in as ./truth, judges).
# TRUTH_ARGS on the kernel command line go to ./truth: "-x PATTERN" for a
# pattern that must fail (a broken build's test).
set -u
. ./lib.sh

args=$(sed -n 's/.*TRUTH_ARGS="\([^"]*\)".*/\1/p' /proc/cmdline)
check insmod-mstat insmod ./mstat.ko
check insmod-truth insmod ./mstat_truth.ko
# Let boot's own work settle before the windows.
sleep 2
# shellcheck disable=SC2086 # options, split
./truth $args >/tmp/truth.out 2>&1
relay /tmp/truth.out
# No bulk call went uncounted for want of a kretprobe instance.
if grep '^probe_.*_missed ' /proc/mstat >/tmp/missed &&
   ! grep -qv ' 0$' /tmp/missed; then
	ok probes-missed-none
else
	show /tmp/missed
	not_ok "probes-missed-none: a probe missed calls"
fi
check rmmod-truth rmmod mstat_truth
check rmmod-mstat rmmod mstat
finish
