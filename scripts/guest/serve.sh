# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of scripts/serve-test.sh: mstat serve under load, for the
# host's real clients (prometheus, go tool pprof, curl) through qemu's
# port forwarding. The network driver (failover.ko, net_failover.ko,
# virtio_net.ko, Debian's own) is loaded and eth0 set up as 10.0.2.15;
# mstat.ko with proc_gid=4242 and proc_min_interval_ms=0 (after the bad
# values, which must be refused with a log line); a load runs
# (mstat_probe_bench's pairs and a walk of /sys, every second); then
# three servers:
#	:9754  uid 4242, group 4242 (proc_gid): the one the host checks
#	:9755  uid 4243, group 4243: without the group, must answer 503
#	:9756  root: the tampered mode's server, what a unit without its
#	       user would run (its checks must fail)
# each `./mstat serve --min-interval 2000` (the static mstat, which execs
# ./mstat-serve, dynamic: its libraries are in the initramfs). Their
# memory (VmRSS) is sampled every second. "SERVE-READY" when they
# answer; then the guest waits for the host to connect to port 9799 and
# close, and checks: each server's uid, the growth of the first one's
# memory (at most SERVE_RSS_KB, default 16384 KiB, over its first
# sample; tampered: the root server's, which the tampered phase loads,
# against +0 KiB, a bound no server that allocates can meet: that the
# comparison can fail, no more), and that SIGTERM stops each in 5 s.
# shellcheck disable=SC3043 # busybox ash has "local"
set -u
. ./lib.sh

uid=4242 gid=4242 nogroup=4243

# fails CMD...: CMD fails.
fails() { ! "$@"; }

mstat_guest_net

# Bad values: refused, the module not loaded, a line in the log.
check proc-gid-bad-refused fails insmod ./mstat.ko proc_gid=4294967295
check proc-gid-bad-logged sh -c \
	'dmesg | grep -q "proc_gid=4294967295: not a valid group id"'
check proc-gid-word-refused fails insmod ./mstat.ko proc_gid=wheel
# No bound in the module (proc_min_interval_ms=0): the host's
# --min-interval checks see the server's own.
if insmod ./mstat.ko proc_gid=$gid proc_min_interval_ms=0; then
	ok insmod-mstat
else
	not_ok insmod-mstat
	finish
fi
for f in /proc/mstat /proc/mstat_sites; do
	got=$(stat -c '%u %g %a' $f)
	if [ "$got" = "0 $gid 440" ]; then
		ok "proc-gid-${f#/proc/} ($got)"
	else
		not_ok "proc-gid-${f#/proc/}: $got, want 0 $gid 440"
	fi
done

# The load: kmalloc/kfree pairs and dentries, every second.
(
	while :; do
		insmod ./mstat_probe_bench.ko pairs=2000 2>/dev/null
		rmmod mstat_probe_bench 2>/dev/null
		ls -R /sys >/dev/null 2>&1
		sleep 1
	done
) &
load=$!

# serve PORT [runas UID GID]: mstat serve on PORT, as UID:GID if given,
# in place of the shell (run with &: $! is the server's PID; runas and
# mstat exec, mstat serve runs ./mstat-serve).
serve() {
	local p="$1"
	shift
	exec "$@" ./mstat serve --listen "10.0.2.15:$p" --min-interval 2000 \
		>/tmp/serve-"$p".log 2>&1
}
serve 9754 ./runas $uid $gid &
s1=$!
serve 9755 ./runas $nogroup $nogroup &
s2=$!
serve 9756 &
s3=$!

# up PORT: the server on PORT answers.
up() { wget -q -O /dev/null "http://10.0.2.15:$1/metrics" 2>/dev/null; }
n=0
while ! up 9754 || ! up 9756 || ! [ -s /tmp/serve-9755.log ]; do
	n=$((n + 1))
	[ $n -lt 60 ] || break
	sleep 1
done
started() { up 9754 && up 9756; }
check serve-started started
for p in 9754 9755 9756; do
	show /tmp/serve-$p.log
done

# rss PID: its VmRSS in KiB.
rss() { sed -n 's/^VmRSS:[^0-9]*\([0-9]*\) kB$/\1/p' "/proc/$1/status"; }
(
	while :; do
		echo "$(rss $s1) $(rss $s3)"
		sleep 1
	done
) >/tmp/rss &
sampler=$!

echo SERVE-READY
timeout 400 nc -l -p 9799 >/tmp/ctl 2>/dev/null
diag "host: $(cat /tmp/ctl)"
kill $sampler

# uid PID: its real uid.
uid_of() { sed -n 's/^Uid:[^0-9]*\([0-9]*\).*/\1/p' "/proc/$1/status"; }
for s in "$s1 serve-uid-not-root" "$s2 serve-nogroup-uid-not-root" \
	 "$s3 serve-uid-not-root-tampered"; do
	# shellcheck disable=SC2086 # PID and name, split
	set -- $s
	u=$(uid_of "$1")
	case $2 in
	*-tampered)
		if [ "$u" = 0 ]; then ok "$2 (caught: uid $u)"; else not_ok "$2: passed, but must fail (uid ${u:-none})"; fi ;;
	*)
		if [ -n "$u" ] && [ "$u" != 0 ]; then ok "$2 (uid $u)"; else not_ok "$2: uid ${u:-none}"; fi ;;
	esac
done

limit=$(sed -n 's/.*SERVE_RSS_KB=\([0-9]*\).*/\1/p' /proc/cmdline)
limit=${limit:-16384}
# growth COLUMN: the largest sample of that column minus its first.
growth() { awk -v c="$1" 'NR == 1 { a = $c } $c > m { m = $c } END { print m - a, a, m, NR }' /tmp/rss; }
# shellcheck disable=SC2046 # four numbers, split
set -- $(growth 1)
if [ "${4:-0}" -ge 5 ] && [ "$1" -le "$limit" ]; then
	ok "serve-memory-bounded (VmRSS $2 KiB at first, at most $3 KiB in $4 samples: +$1 KiB, limit +$limit KiB)"
else
	not_ok "serve-memory-bounded: VmRSS $2 KiB at first, at most $3 KiB in ${4:-0} samples: +$1 KiB, limit +$limit KiB"
fi
# shellcheck disable=SC2046 # four numbers, split
set -- $(growth 2)
if ! grep -q tampered /tmp/ctl; then
	diag "serve-memory-bounded-tampered: not run (the host ran no tampered phase)"
elif [ "${4:-0}" -lt 5 ] || [ "$1" -gt 0 ]; then
	ok "serve-memory-bounded-tampered (caught: +$1 KiB over a limit of +0 KiB)"
else
	not_ok "serve-memory-bounded-tampered: passed, but must fail (+$1 KiB)"
fi

kill $load
for s in "$s1 9754" "$s2 9755" "$s3 9756"; do
	# shellcheck disable=SC2086 # PID and port, split
	set -- $s
	kill "$1"
	n=0
	while kill -0 "$1" 2>/dev/null && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		not_ok "serve-$2-sigterm: still running after 5 s"
		kill -9 "$1"
	else
		wait "$1"
		rc=$?
		if [ $rc -eq 0 ]; then ok "serve-$2-sigterm"; else not_ok "serve-$2-sigterm: exit $rc"; fi
	fi
	show /tmp/serve-"$2".log
done
rmmod mstat_probe_bench 2>/dev/null
check rmmod-mstat rmmod mstat
finish
