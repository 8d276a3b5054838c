# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# shellcheck disable=SC3043 # busybox ash has "local"
# Guest side of the leak test: `mstat leaks` against the known leaks and
# decoys of tests/leaks/mstat_leaktest.ko, judged by tests/helpers/leaks.c
# (copied in as ./leaks) from the module's truth file. cgroup2 is mounted
# at /sys/fs/cgroup and the cgroup /leaks made; mstat is loaded at
# profile_rate=LEAKS_RATE (default 16384, not the 524288 of a production
# machine: a leak of B bytes a second gives a sample every RATE/B seconds,
# so at 16 KiB the test's 4 KiB/s leaks have about 30 samples in two
# minutes, at 512 KiB one); a busy workload (files made and removed,
# /proc and /sys read, a pipe, a mapping: ./leaks -b) runs throughout.
# Two watches of LEAKS_D seconds (default 120), a read every LEAKS_I
# (default 5):
#
#  1. leak-free: the decoys alone (a plateau filled in 16 s, a sawtooth
#     freed every 20 s, objects living 40 s, a load that rises and falls
#     over 40 s: the module's defaults, the guest's minutes made seconds
#     so that a watch sees several periods); `mstat leaks` must exit 0
#     and name nothing (./leaks -f);
#  2. leaks: the five leaks (lost kmalloc pointer 8 KiB/s, a list in a
#     cache of its own 4 KiB/s, kmalloc by a shell in /leaks through the
#     module's control 4 KiB/s, kmalloc from a soft hrtimer 4 KiB/s, a
#     cache that SLUB merges into another 4 KiB/s) among the same decoys;
#     every leak named with its stack, cache, cgroup and rate, nothing
#     else (./leaks): the merged cache by its own name among the names
#     of the cache it was merged into. Then the module's false truth
#     (tamper 1: every rate four times, lost's function a decoy's,
#     cgroup's cgroup "/", softirq's cache kmalloc-256, merged's cache
#     another) against the same verdict: each of those checks must fail
#     ("tamper-caught-...").
#
# The guest's own processes started since mstat's load (the busy
# workload, the driver, the watching mstat) are growth too, their thread
# stacks a fork's stack suspect (kernel_clone) at this rate: counted
# after each watch (lib.sh's tasks_since), the judge holds such a suspect
# to the stacks they own (leaks-tasks-bound), and the false truth's count
# of none must fail it.
#
# LEAKS_PHASES="free leaks" on the kernel command line: the phases to run
# (default both). LEAKS_TABLE="B0 B1 B2 B3": instead, the detection-time
# run (docs/RESULTS.md, "mstat leaks: time to a verdict"): the table
# leaks tbl0..3 at those rates among the decoys, one watch of LEAKS_D
# saved (--save), then `mstat leaks --from` on the first N reads for
# N = 2, 3, ...: for each leak, the first read at which it is named, and
# its time from the start.
# Run: check guest-6.12-leaks --prio=1
# Run: soak soak-7.3-leaks build=soak-7.3
set -u
. ./lib.sh

rate=$(arg LEAKS_RATE)
dur=$(arg LEAKS_D)
ivl=$(arg LEAKS_I)
phases=$(sed -n 's/.*LEAKS_PHASES="\([^"]*\)".*/\1/p' /proc/cmdline)
table=$(sed -n 's/.*LEAKS_TABLE="\([^"]*\)".*/\1/p' /proc/cmdline)
: "${rate:=16384}" "${dur:=120}" "${ivl:=5}" "${phases:=free leaks}"
L=/sys/kernel/debug/mstat_leaktest
diag "profile_rate $rate, watches of $dur s, a read every $ivl s"

mkdir -p /sys/fs/cgroup
check cgroup-made sh -c 'mount -t cgroup2 none /sys/fs/cgroup &&
	mkdir /sys/fs/cgroup/leaks'
# The guest's own tasks born since mstat's load hold thread stacks whose
# samples grow too: counted beside each verdict (tasks_since).
t_load=$(uptime_s)
check insmod-mstat insmod ./mstat.ko profile_rate="$rate"
targ=
[ -n "$table" ] && targ=table_rates=$(echo "$table" | tr ' ' ,)
# shellcheck disable=SC2086 # empty or one word
check insmod-leaktest insmod ./mstat_leaktest.ko $targ
# merged_with: the other names of mstat_leak_merged's cache (SLUB's
# sysfs: each name a link to the cache's directory).
merged_with() {
	local t n
	t=$(readlink /sys/kernel/slab/mstat_leak_merged) || return 1
	for n in /sys/kernel/slab/*; do
		[ "${n##*/}" != mstat_leak_merged ] &&
			[ "$(readlink "$n")" = "$t" ] && echo "${n##*/}"
	done
}
diag "mstat_leak_merged merged with: $(merged_with | tr '\n' ' ')"
check leak-cache-merged [ -n "$(merged_with)" ]

# The busy workload, for both watches: ./leaks -b, which never forks: a
# fresh guest's vmap_area pool fills for minutes under forks (with
# LEAKS_BUSY=fork, 9 objects a second for 360 s, to 3551, then flat: a
# 6.12 guest), which no two-minute watch tells from a leak.
# LEAKS_BUSY=fork: a shell loop of forked commands instead.
busy_fork() {
	local i=0 f
	while :; do
		i=$((i + 1))
		for f in 1 2 3 4 5 6 7 8; do
			echo "$i" >"/tmp/busy.$f"
		done
		cat /proc/meminfo /proc/self/status >/dev/null
		ls -R /sys/kernel/slab >/dev/null 2>&1
		rm -f /tmp/busy.*
		sleep 0.1
	done
}
if [ "$(arg LEAKS_BUSY)" = fork ]; then
	busy_fork &
else
	./leaks -b &
fi
busypid=$!
# Let boot's and the first /sys walk's caches settle.
sleep 5

# watch NAME: `mstat leaks` for one watch, its JSON in /tmp/NAME.json,
# its exit status in /tmp/NAME.rc, the truth after it in /tmp/NAME.truth.
# At confidence 0.999: each leak's rate must lie in its interval, eight
# intervals over the two kernels of make check, and at the default 0.99
# one of them would miss in about one run of thirteen by chance alone.
watch() {
	local rc=0
	# shellcheck disable=SC2086 # empty or two words
	./mstat leaks --duration "$dur" --interval "$ivl" --confidence 0.999 \
		--json ${2:-} \
		>"/tmp/$1.json" 2>"/tmp/$1.err" || rc=$?
	echo "$rc" >"/tmp/$1.rc"
	cat "$L/truth" >"/tmp/$1.truth"
	# The watching mstat has exited: one task more.
	tasks_since "$t_load" 1 >>"/tmp/$1.truth"
	show "/tmp/$1.err"
	show "/tmp/$1.truth"
	diag "mstat leaks: exit $rc"
}

# judge NAME [-f]: the judge's lines, relayed.
judge() {
	./leaks ${2:+"$2"} "/tmp/$1.truth" "/tmp/$1.json" "$(cat "/tmp/$1.rc")" \
		>"/tmp/$1.judge" 2>&1
	relay "/tmp/$1.judge"
	# The verdict scored, for the precision table (scripts/sidebyside.sh).
	./leaks -s "/tmp/$1.truth" "/tmp/$1.json" | sed "s/^/# $1 /"
	# A judge that died says nothing.
	check "leaks-$1-judged" grep -q '^# checks failed: ' "/tmp/$1.judge"
}

# rows NAME...: each leak's rows of the profile and their live samples
# (a stack split by its outer frames, as a softirq's by the context it
# interrupted, is as many rows).
rows() {
	local f
	cat /proc/mstat_sites >/tmp/sites
	for f; do
		awk -v f="mstat_leak_${f}_alloc" '
		/^[0-9]/ && index($0, " " f "+") { rows++; s += $4 }
		END { printf "%s: %d rows, %d live samples\n", f, rows, s }' \
			/tmp/sites | show
	done
}

if [ -n "$table" ]; then
	check start-table sh -c "echo start table,decoys >$L/control"
	t0=$(cut -d' ' -f1 /proc/uptime)
	watch table "--save /tmp/run"
	show /tmp/table.json
	set -- /tmp/run/*.time
	n=$#
	found=''
	k=2
	while [ "$k" -le "$n" ]; do
		rm -rf /tmp/pre
		mkdir /tmp/pre
		j=0
		for f in /tmp/run/*.time; do
			j=$((j + 1))
			[ "$j" -le "$k" ] || break
			cp "${f%.time}".* /tmp/pre/
			# The k-th read's time (at the break, f is the next).
			tk=$(cat "$f")
		done
		./mstat leaks --from /tmp/pre --json >/tmp/pre.json 2>/dev/null
		t=$tk
		for i in 0 1 2 3; do
			case " $found " in *" tbl$i "*) continue ;; esac
			if ./leaks -n "tbl$i" /tmp/table.truth /tmp/pre.json; then
				found="$found tbl$i"
				s=$(awk -v a="$t" -v b="$t0" 'BEGIN { printf "%.0f", a - b }')
				echo "# table rate $rate tbl$i $(sed -n "s/^tbl$i leak 1 [^ ]* [^ ]* [^ ]* [0-9]* \([0-9]*\) .*/\1/p" /tmp/table.truth) B/s named at read $k, $s s"
				grep -o "\"site\": *\"mstat_leak_tbl${i}_alloc[^}]*" /tmp/pre.json | head -n 1 | show
			fi
		done
		k=$((k + 1))
	done
	rows tbl0 tbl1 tbl2 tbl3
	check table-some-named [ -n "$found" ]
	phases=''
fi

for ph in $phases; do
	case $ph in
	free)
		check start-free sh -c "echo start decoys >$L/control"
		watch free
		judge free -f
		check stop-free sh -c "echo stop >$L/control"
		;;
	leaks)
		check start-leaks sh -c "echo start leaks,decoys >$L/control"
		# The cgroup leak: a task in /leaks (./leaks -d) writes the
		# control every 100 ms, whose allocations then run in its
		# context; "stop" fails its next write, which ends it.
		sh -c "echo \$\$ >/sys/fs/cgroup/leaks/cgroup.procs &&
			exec ./leaks -d $L/control" &
		driverpid=$!
		watch leaks
		judge leaks
		show /tmp/leaks.json
		rows lost list cgroup softirq merged
		# The false truth against the same verdict.
		echo "tamper 1" >"$L/control"
		cat "$L/truth" >/tmp/tamper.truth
		echo "tamper 0" >"$L/control"
		# No task of the guest's: a fork's suspect is then false.
		echo "tasks 0 0" >>/tmp/tamper.truth
		./leaks /tmp/tamper.truth /tmp/leaks.json "$(cat /tmp/leaks.rc)" \
			>/tmp/tamper.judge 2>&1
		show /tmp/tamper.judge
		tc=''
		grep -q '^ok leaks-tasks-bound' /tmp/leaks.judge && tc=tasks-bound
		for c in lost-rate list-rate cgroup-rate softirq-rate \
			 list-cache-tier lost-named cgroup-cgroup softirq-cache \
			 merged-rate merged-cache merged-cache-tier $tc; do
			check "tamper-caught-$c" grep -q "^not ok leaks-$c:" \
				/tmp/tamper.judge
		done
		check stop-leaks sh -c "echo stop >$L/control"
		# Its open control file holds the module: rmmod waits for it
		# (a cold run's rmmod came first once).
		wait "$driverpid"
		;;
	*)	not_ok "phase $ph: free or leaks" ;;
	esac
done

kill "$busypid"
wait "$busypid" 2>/dev/null
echo stop >"$L/control"
check rmmod-leaktest rmmod mstat_leaktest
check rmmod-mstat rmmod mstat
finish
