# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# A live watch on a terminal, captured for the README: `mstat leaks` in a
# tmux pane of the guest (Debian's tmux, --prog tmux, its terminfo
# copied in), the leak test's leaks and decoys running since mstat's
# load; tmux's capture-pane after CAP_READS reads (default 4), then
# Ctrl-C sent to the pane (its shell ignores SIGINT, so that the pane
# outlives the watch), and the pane captured again: the verdict so far.
# By hand (not in make check):
#
#   scripts/guest.sh --kernel K --script scripts/guest/capture-watch.sh \
#	--ko mstat.ko --ko mstat_leaktest.ko --file mstat:/mstat/mstat \
#	--file /lib/terminfo:/lib/terminfo --file /usr/lib/locale/C.utf8:/usr/lib/locale/C.utf8 \
#	--prog tmux --timeout 900
#
# The captures are printed between "capture: begin N" and "capture: end".
set -u
. ./lib.sh

reads=$(arg CAP_READS)
hist=$(arg CAP_HISTORY)
: "${reads:=4}" "${hist:=120}"
L=/sys/kernel/debug/mstat_leaktest

mkdir -p /dev/pts /tmp
check devpts mount -t devpts devpts /dev/pts
mkdir -p /sys/fs/cgroup
check cgroup-made sh -c 'mount -t cgroup2 none /sys/fs/cgroup &&
	mkdir /sys/fs/cgroup/leaks'
check insmod-mstat insmod ./mstat.ko profile_rate=16384
check insmod-leaktest insmod ./mstat_leaktest.ko merged_rate=2048
check start sh -c "echo start leaks,decoys,history >$L/control"
diag "a history of $hist s before the watch"
sleep "$hist"

export TERM=tmux-256color HOME=/tmp LC_ALL=C.UTF-8
check tmux-up ./tmux -u new-session -d -s w -x 120 -y 24 \
	"trap '' INT; ./mstat leaks -d 600 -i 10; echo exit status \$?; sleep 600"
sleep $((reads * 10 - 5))
echo "capture: begin 1"
./tmux capture-pane -p -t w
echo "capture: end"
./tmux send-keys -t w C-c
sleep 5
echo "capture: begin 2"
./tmux capture-pane -p -S -60 -t w
echo "capture: end"
./tmux kill-server
check stop sh -c "echo stop >$L/control"
check rmmod-leaktest rmmod mstat_leaktest
check rmmod-mstat rmmod mstat
finish
