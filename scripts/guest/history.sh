# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# shellcheck disable=SC3043 # busybox ash has "local"
# Guest side of the verdict from the history: `mstat leaks --once`, one
# read, against tests/leaks/mstat_leaktest.ko's leaks after they have run
# for HIST_S seconds (default 180) since mstat's load, judged by
# tests/helpers/leaks.c -o from the module's truth file. mstat is loaded
# first, at profile_rate=HIST_RATE (default 16384: a short history must
# hold enough samples; make bench's long form runs 1800 s at the default
# 524288), as the package loads it at boot; then the leaks (8 KiB/s lost
# pointers, 4 KiB/s a list in a cache of its own, 4 KiB/s by a shell in
# cgroup /leaks, 4 KiB/s from a soft hrtimer, 2 KiB/s in a cache SLUB
# merges into another) among every decoy, the history's too: objects
# allocated at the start and kept, a cache filled early and then stable,
# a cache warming toward a bound, a workload started late that levels
# off, a bounded cache, a sawtooth, finite lifetimes, a load that rises
# and falls; and the busy workload of the leak test (./leaks -b).
# Every leak must be named by its stack with its cache, cgroup and a rate
# interval that holds its rate, no decoy and nothing else; the false
# truth (tamper 1) must fail the same verdict.
# HIST_EVERY=T (make bench's long form, scripts/bench.sh history): also
# one read every T seconds while the history grows, each judged alone,
# and for each leak the first at which it is named:
#	history: rate=R leak=NAME named_s=S|-
# (S from the leaks' start); then the last read's verdict, a line a leak:
#	history: rate=R leak=NAME truth=B est=E low=L high=H samples=K
# and the stacks named that are no leak (history: rate=R false=...).
# Run: check guest-6.12-history --prio=1
set -u
. ./lib.sh

rate=$(arg HIST_RATE)
secs=$(arg HIST_S)
every=$(arg HIST_EVERY)
: "${rate:=16384}" "${secs:=180}" "${every:=0}"
leaks="lost list cgroup softirq merged"
L=/sys/kernel/debug/mstat_leaktest
diag "profile_rate $rate, a history of $secs s, then one read"

mkdir -p /sys/fs/cgroup
check cgroup-made sh -c 'mount -t cgroup2 none /sys/fs/cgroup &&
	mkdir /sys/fs/cgroup/leaks'
t_load=$(uptime_s)
check insmod-mstat insmod ./mstat.ko profile_rate="$rate"
check insmod-leaktest insmod ./mstat_leaktest.ko merged_rate=2048
./leaks -b &
busypid=$!
check start sh -c "echo start leaks,decoys,history >$L/control"
sh -c "echo \$\$ >/sys/fs/cgroup/leaks/cgroup.procs &&
	exec ./leaks -d $L/control" &
driverpid=$!
t0=$(cut -d' ' -f1 /proc/uptime)
# now: seconds since the leaks' start.
now() { awk -v b="$t0" '{ printf "%.0f", $1 - b }' /proc/uptime; }
if [ "$every" -gt 0 ]; then
	found=''
	while [ "$(now)" -lt "$secs" ]; do
		sleep "$every"
		t=$(now)
		cat "$L/truth" >/tmp/every.truth
		./mstat leaks --once --confidence 0.999 --json >/tmp/every.json 2>/dev/null
		for l in $leaks; do
			case " $found " in *" $l "*) continue ;; esac
			if ./leaks -n "$l" /tmp/every.truth /tmp/every.json; then
				found="$found $l"
				echo "history: rate=$rate leak=$l named_s=$t"
			fi
		done
	done
	for l in $leaks; do
		case " $found " in
		*" $l "*)	;;
		*)		echo "history: rate=$rate leak=$l named_s=-" ;;
		esac
	done
else
	sleep "$secs"
fi

# At confidence 0.999, as the leak test's watches: five intervals each
# run, and at 0.99 one would miss in about one run of twenty by chance
# alone (the first run here: the softirq leak's 67 samples where 45 were
# expected, 3.2 standard deviations, its 0.99 interval above the truth).
rc=0
./mstat leaks --once --confidence 0.999 --json >/tmp/once.json 2>/tmp/once.err ||
	rc=$?
cat "$L/truth" >/tmp/once.truth
# The guest's tasks born since the load (leaks.c), the reader gone.
tasks_since "$t_load" 1 >>/tmp/once.truth
show /tmp/once.err
show /tmp/once.truth
diag "mstat leaks --once: exit $rc"
./leaks -o /tmp/once.truth /tmp/once.json "$rc" >/tmp/once.judge 2>&1
relay /tmp/once.judge
check once-judged grep -q '^# checks failed: ' /tmp/once.judge
show /tmp/once.json
check once-history grep -q '"history_s": [1-9]' /tmp/once.json
# The verdict's figures, a line a leak, and what else it named.
awk -v rate="$rate" '
	$2 == "leak" && $3 == 1 { fn[$4] = $1; truth[$1] = $8 }
	END { for (f in fn) print f, fn[f], truth[fn[f]] }' /tmp/once.truth |
while read -r f n b; do
	sed -n '/"suspects": \[/,/"unexplained": \[/p' /tmp/once.json |
		awk -v f="$f" -v n="$n" -v b="$b" -v rate="$rate" '
		index($0, "\"site\": \"" f "+") { on = 1 }
		on && /"rate_bps"/ {
			gsub(/[",:]/, " ")
			for (i = 1; i <= NF; i++) v[$i] = $(i + 1)
			e = v["rate_bps"]; lo = v["rate_low_bps"]; hi = v["rate_high_bps"]
		}
		on && /"samples"/ {
			gsub(/[",:]/, " ")
			for (i = 1; i <= NF; i++) if ($i == "samples") k = $(i + 1)
			printf "history: rate=%s leak=%s truth=%s est=%s low=%s high=%s samples=%s\n", rate, n, b, e, lo, hi, k
			done = 1
			exit
		}
		END {
			if (!done)
				printf "history: rate=%s leak=%s truth=%s est=- low=- high=- samples=0\n", rate, n, b
		}'
done
echo "history: rate=$rate $(./leaks -s /tmp/once.truth /tmp/once.json)"
# The text form of the same read, for the eye.
./mstat leaks --once --confidence 0.999 | grep -v '^    ' | show

# The false truth against the same verdict.
echo "tamper 1" >"$L/control"
cat "$L/truth" >/tmp/tamper.truth
echo "tamper 0" >"$L/control"
echo "tasks 0 0" >>/tmp/tamper.truth
./leaks -o /tmp/tamper.truth /tmp/once.json "$rc" >/tmp/tamper.judge 2>&1
show /tmp/tamper.judge
tc=''
grep -q '^ok leaks-tasks-bound' /tmp/once.judge && tc=tasks-bound
for c in lost-rate list-rate cgroup-rate softirq-rate lost-named \
	 cgroup-cgroup softirq-cache merged-rate merged-cache $tc; do
	check "tamper-caught-$c" grep -q "^not ok leaks-$c:" /tmp/tamper.judge
done

check stop sh -c "echo stop >$L/control"
wait "$driverpid"
kill "$busypid"
wait "$busypid" 2>/dev/null
check rmmod-leaktest rmmod mstat_leaktest
check rmmod-mstat rmmod mstat
finish
