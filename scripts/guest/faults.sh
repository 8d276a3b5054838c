# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the fault tests, on the debug test kernel (fault injection:
# failslab, fail_page_alloc, the per-task fail-nth, a stack filter; KASAN,
# lockdep, kmemleak; booted with nokaslr, so that kernel text lies below
# the module area). ./faultio (tests/helpers/faultio.c) does the failing
# calls, ./truth judges counts, ./mstat check judges snapshots.
#
#  1. Failures at load: every allocation mstat's init makes fails in turn
#     (fail-nth N, N = 1, 2, ... until a load passes fewer than N points),
#     those whose stack has mstat's code within its DEPTH innermost
#     frames: mstat's own calls and the first levels of the kernel
#     functions it calls (kmem_cache_create()'s, tracepoint and kprobe
#     registration's, ...), not every allocation deep inside them (each
#     point is a load and an unload: all of them would take an hour
#     here). Each: insmod fails with a log line "mstat: not loaded: ...",
#     or loads without what failed (a debugging allocator's own metadata,
#     a slab's higher-order attempt), no splat; every tenth, and after
#     the last, a plain insmod works. At the end kmemleak must find
#     nothing.
#  2. Failures while running: failslab and fail_page_alloc fail one in
#     twenty of faultio's allocations (about half its opens and reads)
#     while allocation load runs: reads of
#     /proc/mstat, /proc/mstat_sites, the internals, the history and the
#     event stream, and writes of the controls. Every read complete or
#     failed cleanly, every complete /proc/mstat passes `mstat check` in
#     sequence, every control write took effect iff it succeeded; then
#     counts are still exact (./truth, injection off).
#  3. Failures counted as truth: ./truth's failure patterns, whose
#     allocations fail one in four (fail_nth, set by the module).
#  4. Memory pressure: a hog the OOM killer kills, three times, while
#     reads and allocation load run (make check: the hog's own page
#     faults the load, FAULTS_OOM_LOAD=0); every read passes `mstat
#     check`, and mstat unloads afterwards.
#
# FAULTS="broken" on the command line: a broken build (MSTAT_BROKEN_COUNTS:
# it leaks the profile's tables on an init failure path, reports success
# for a control write that failed, counts a failed large kmalloc twice and
# does not count fail_page_alloc's failures). Each part must then catch
# its bug. The parts that have no bug of it to catch (part 2's reads, its
# writes but the switches' and its truth with the injection off, part 4)
# are left out, as they take half the guest's time, unless
# FAULTS="broken full" (make soak): there they must pass as on a good
# build.
#
# Each part's start is a "# part N at S s" line (S: the guest's uptime).
# Kernels: debug
# Guest: --mem=384M --timeout=1500 '--append=nokaslr FAULTS_STRIDE=8 FAULTS_READS=80 FAULTS_WRITES=40 FAULTS_HOGS=1 FAULTS_OOM_LOAD=0'
set -u
. ./lib.sh

mode=$(sed -n 's/.*FAULTS="\([^"]*\)".*/\1/p' /proc/cmdline)
# all: the parts with nothing of the broken build to catch run too.
all=1
case $mode in
'' | 'broken full')	;;
broken)			all='' ;;
*)	not_ok "faults-mode: FAULTS=\"$mode\" (\"broken\", \"broken full\" or none)"
	finish ;;
esac
mode=${mode%% *}
F=/sys/kernel/debug
ML=$F/kmemleak
echo "# console-check allows: oom alloc-failure${mode:+ kmemleak}"

# load_start, load_stop: allocation load beside, the kernel's own, from
# walking /proc and /sys; stopped and waited for, the walk under way
# included. A kill of the loop's shell had left its ls walking through
# the truth that follows (7789 cache allocations in an idle window of 5
# s, 38 s of the guest's CPU), and waiting for one walk to end took 57
# s of the broken build's guest's CPU (tracefs' files among the walk's):
# each walk is cut at 5 s.
load_start() {
	: >/tmp/load.on
	(while [ -e /tmp/load.on ]; do
		timeout 5 ls -lR /proc/self /sys/kernel >/dev/null 2>&1
	done) &
	load=$!
}
load_stop() {
	rm -f /tmp/load.on
	wait "$load" 2>/dev/null
}

# part N: part N begins now.
part() {
	diag "part $1 at $(cut -d' ' -f1 /proc/uptime) s"
}

# knob KNOB VALUE: the same knob of failslab and fail_page_alloc.
knob() {
	echo "$2" >"$F/failslab/$1" && echo "$2" >"$F/fail_page_alloc/$1"
}
if [ ! -d "$F/failslab" ] || [ ! -d "$F/fail_page_alloc" ]; then
	not_ok "faults-setup: no failslab or fail_page_alloc in this kernel"
	finish
fi
knob ignore-gfp-wait N
knob verbose 0
knob probability 0
echo 0 >"$F/fail_page_alloc/min-order"

## 1. Failures at load
part 1
DEPTH=7
# FAULTS_STRIDE=S fails every S-th point only, from FAULTS_START=F (1 to
# S; 1 by default): points F, F+S, F+2S, ... Each point loads and unloads
# mstat, some 10 s of guest time in a cold make check (288 s of the 608 s
# guest at stride 5 in a cold run). make check takes stride 8
# from a start of its own each run, so that its runs between them fail
# every point; make soak fails every point in one. The broken build's
# test needs only to reach the leaking path: below.
stride=${FAULTS_STRIDE:-1}
start=${FAULTS_START:-1}
case $stride in
[1-9]) ;;
*)	not_ok "faults-stride: FAULTS_STRIDE=$stride (1 to 9)"
	finish ;;
esac
case $start in
[1-9])	[ "$start" -le "$stride" ] ;;
*)	false ;;
esac || {
	not_ok "faults-start: FAULTS_START=$start (1 to the stride, $stride)"
	finish
}
knob stacktrace-depth "$DEPTH"
knob verbose 1
knob require-start 0xffffffffa0000000
knob require-end 0xffffffffff000000
[ -w "$ML" ] && echo clear >"$ML"
points=0 refused=0 tolerated=0 unlogged=0 relaunch=0 last=0 stage=''

# point N: load mstat with its N-th point failed; 1 if the load passed
# fewer than N points (nothing injected; then loaded and unloaded), else
# 0, with what the load did counted. stage: the part of mstat's init
# named by its "not loaded" line, if it refused.
point() {
	dmesg -c >/dev/null
	./faultio nth "$1" ./mstat.ko >/tmp/nth 2>&1
	rc=$?
	stage=''
	if grep -q 'injected 0' /tmp/nth; then
		last=$(sed -n 's/.* left \([0-9]*\)$/\1/p' /tmp/nth)
		if [ "$rc" -eq 0 ]; then
			rmmod mstat
		else
			not_ok "faults-init-$1: failed with nothing injected: $(cat /tmp/nth)"
		fi
		return 1
	fi
	points=$((points + 1))
	if [ "$rc" -eq 0 ]; then
		tolerated=$((tolerated + 1))
		# What it logged beyond a plain load's lines.
		dmesg | grep 'mstat: ' |
			grep -vE 'mstat: (loaded|this kernel traces|cache names at|slab layout validated|fail_page_alloc in)' |
			show
		if ! rmmod mstat; then
			not_ok "faults-init-$1: loaded, and will not unload"
		fi
	elif [ "$rc" -eq 1 ]; then
		refused=$((refused + 1))
		stage=$(dmesg | sed -n 's/.*mstat: not loaded: \(.*\): [^:]*$/\1/p' | tail -n 1)
		if [ -z "$stage" ]; then
			unlogged=$((unlogged + 1))
			diag "point $1: $(cat /tmp/nth), no log line:"
			dmesg | tail -n 5 | show
		fi
	else
		not_ok "faults-init-$1: $(cat /tmp/nth)"
	fi
	if [ $((points % 10)) -eq 0 ]; then
		if insmod ./mstat.ko; then
			rmmod mstat || not_ok "faults-init-$1: the plain load will not unload"
		else
			relaunch=$((relaunch + 1))
			diag "point $1: the plain insmod after it failed"
		fi
	fi
	return 0
}

if [ "$mode" != broken ]; then
	n=$start
	while [ "$n" -le 1000 ] && point "$n"; do
		n=$((n + stride))
	done
	want=$((40 / stride))
else
	# The broken build leaks the profile's tables when the load fails
	# after them (mstat_init()'s last steps): its points are taken from
	# the last one down, until a refusal names one of those steps
	# (before, it failed every fourth point from the first: 36 points,
	# 246 s of a 404 s guest in a cold run). A first load passes more
	# points than the next ones (150 against 140 in a cold run, ten
	# loads with nothing injected, 140 s): a
	# point past the last goes on from the last that load passed.
	point 100000
	n=$((100000 - ${last:-100000}))
	diag "load: $n failure points in all; from the last down"
	while [ "$n" -ge 1 ] && [ "$points" -lt 16 ]; do
		if ! point "$n"; then
			diag "point $n: not reached, the load passed $((n - ${last:-1}))"
			n=$((n - (${last:-1} > 1 ? ${last:-1} : 1)))
			continue
		fi
		case $stage in
		'/proc/mstat' | "the bulk APIs' probes" | "a source's tracepoints")
			diag "point $n: refused at $stage, after the heap profile"
			break ;;
		esac
		n=$((n - 1))
	done
	want=1
fi
knob verbose 0
knob require-start 0
knob require-end 0xffffffffffffffff
diag "load: $points failure points reached (stack depth $DEPTH, stride $stride from $start): $refused refused the load, $tolerated loaded without what failed; $unlogged refusals without a log line; $relaunch plain loads after one failed"
if [ "$points" -ge "$want" ] && [ "$unlogged" -eq 0 ] && [ "$relaunch" -eq 0 ]; then
	ok "faults-init ($points points, stride $stride from $start: $refused refused, $tolerated tolerated)"
else
	not_ok "faults-init: $points points, $unlogged without a log line, $relaunch plain loads failed"
fi
if [ -w "$ML" ]; then
	# kmemleak reports objects unreferenced for more than 5 s.
	sleep 6
	echo scan >"$ML"
	echo scan >"$ML"
	leaks=$(grep -c 'unreferenced object' "$ML")
	diag "kmemleak after the failed loads: $leaks leaked objects reported"
	if [ "$mode" = broken ]; then
		if [ "$leaks" -gt 0 ]; then
			ok "faults-init-leak-caught ($leaks objects)"
		else
			not_ok "faults-init-leak-caught: the broken build leaked, kmemleak found nothing"
		fi
		echo clear >"$ML"
	elif [ "$leaks" -eq 0 ]; then
		ok faults-init-no-leak
	else
		not_ok "faults-init-no-leak: $leaks objects"
		head -n 40 "$ML" | show
	fi
else
	not_ok "faults-init-no-leak: no kmemleak"
fi

## 2. Failures while running
part 2
check insmod-mstat insmod ./mstat.ko
check insmod-truth insmod ./mstat_truth.ko
load_start
knob times 1000000
knob interval 1
knob task-filter Y
knob probability 5
mkdir -p /tmp/snaps
# The stream on, so that its reads have events to allocate for.
ev=$(cat "$D/events_sources")
echo 15 >"$D/events_sources"
# FAULTS_READS=R reads of each file, FAULTS_WRITES=W writes of each
# control (150 and 60 by default, make soak's; make check: 80 and 40, a
# read failed one time in three to five at 150, a write one in four to
# thirty at 60, in a cold run).
reads=${FAULTS_READS:-150}
writes=${FAULTS_WRITES:-60}
case $reads$writes in
*[!0-9]*)
	not_ok "faults-counts: FAULTS_READS=$reads FAULTS_WRITES=$writes (numbers)"
	reads=150 writes=60 ;;
esac
if [ -n "$all" ]; then
	./faultio read -n "$reads" -o /tmp/snaps /proc/mstat /proc/mstat_sites \
		"$D/internals" "$D/history" "$D/events" >/tmp/fio 2>&1
	relay /tmp/fio
fi
echo "$ev" >"$D/events_sources"
caught=''
for c in "sync_mode 1 2 0" "profile_rate 1 0 524288" "per_cache 0 1" \
	 "enable_page 0 1" "enable_cache 0 1" "enable_kmalloc 0 1" \
	 "events_sources 15 0" "events_min_size 4096 0"; do
	# shellcheck disable=SC2086 # a control and its values, split
	set -- $c
	f=$1
	shift
	# The broken build's bug is in the switches: only theirs are
	# written on it (but in make soak's "broken full").
	if [ "$mode" = broken ] && [ "${f#enable_}" = "$f" ] && [ -z "$all" ]; then
		continue
	fi
	./faultio write -n "$writes" "$D/$f" "$@" >/tmp/fio 2>&1
	if [ "$mode" = broken ] && [ "${f#enable_}" != "$f" ]; then
		# The broken build says a failed switch succeeded: one of
		# the switches' writes must be caught at it (which one
		# meets a failure in the tracepoint's registration is luck).
		grep -q "^not ok .* not as reported" /tmp/fio &&
			caught="$caught $f"
		show /tmp/fio
	else
		relay /tmp/fio
	fi
done
if [ "$mode" = broken ]; then
	if [ -n "$caught" ]; then
		ok "faults-write-caught:$caught"
	else
		not_ok "faults-write-caught: a failed switch reported as done, not seen"
	fi
fi
knob probability 0
knob task-filter N
load_stop
if [ -n "$all" ]; then
	nsnap=$(find /tmp/snaps -type f | wc -l)
	# shellcheck disable=SC2046 # the snapshots, in order
	if [ "$nsnap" -gt 0 ] && mstat_check $(find /tmp/snaps -type f | sort) >/tmp/chk 2>&1; then
		ok "faults-reads-check ($nsnap snapshots read under injection, one sequence)"
	else
		not_ok "faults-reads-check: $nsnap snapshots"
		tail -n 20 /tmp/chk | show
	fi
	# No count lost: the truth, with the injection off; 1000
	# allocations a pattern, as on this kernel's truth guest.
	./truth -n 1000 -r cache -r page -r order:0 -r order:1 -r order:2 \
		kmalloc_small_var cache pages_order4 >/tmp/truth.out 2>&1
	relay /tmp/truth.out
fi

## 3. Failures counted as truth
part 3
# The broken build's patterns must fail every one of ./truth's runs (it
# runs a failing pattern again, up to three times): 500 allocations a
# run, its count off by every failure (one in four), against 2000.
if [ "$mode" = broken ]; then
	xs="-x fail_kmalloc_large -x fail_pages_order0 -x fail_pages_order4"
	tn=500
else
	xs=""
	tn=2000
fi
# shellcheck disable=SC2086 # options, split
./truth -n "$tn" -r cache -r page -r order:0 -r order:1 -r order:2 $xs \
	fail_kmalloc_small fail_kmalloc_large fail_cache \
	fail_pages_order0 fail_pages_order4 >/tmp/truth.out 2>&1
relay /tmp/truth.out
grep '^# fails' /tmp/truth.out >/dev/null || not_ok "faults-truth: no failure figures"

## 4. Memory pressure
if [ -z "$all" ]; then
	part end
	check rmmod-truth rmmod mstat_truth
	check rmmod-mstat rmmod mstat
	finish
fi
part 4
echo -1000 >/proc/self/oom_score_adj
dmesg -c >/dev/null
rm -rf /tmp/snaps
mkdir -p /tmp/snaps
# FAULTS_OOM_LOAD=0 (make check): no walk of /proc and /sys beside the
# hog, whose page faults are then the allocation load, with the reads'
# own. The walk took most of the part's CPU, the hog filling 2.5 MB a
# second beside it: by hand, this part alone on one hog took 83 s of
# the guest's CPU with the walk (45 reads under pressure) and 38 s
# without (36 reads), the OOM killer at work in both.
oom_load=${FAULTS_OOM_LOAD:-1}
case $oom_load in
0|1) ;;
*)	not_ok "faults-oom-load: FAULTS_OOM_LOAD=$oom_load (0 or 1)"
	oom_load=1 ;;
esac
[ "$oom_load" = 0 ] || load_start
# FAULTS_HOGS=H (make check: 1) hogs, one after the other; 3 by default
# (make soak). Each fills what is free until the OOM killer kills it:
# the part took 288 s of a cold run's guest with 3; by hand, side by
# side, 40 s with 1 and 83 s
# with 3, the guests 245 and 285 s of CPU, the same 30 checks passed.
hogs=${FAULTS_HOGS:-3}
case $hogs in
[1-9]) ;;
*)	not_ok "faults-hogs: FAULTS_HOGS=$hogs (1 to 9)"
	hogs=3 ;;
esac
k=0
while [ "$k" -lt "$hogs" ]; do
	./faultio hog &
	hog=$!
	i=0
	while kill -0 "$hog" 2>/dev/null && [ "$i" -lt 200 ]; do
		cat /proc/mstat >"/tmp/snaps/$(printf '%03d%04d' "$k" "$i")" 2>/dev/null ||
			rm -f "/tmp/snaps/$(printf '%03d%04d' "$k" "$i")"
		i=$((i + 1))
	done
	wait "$hog" 2>/dev/null
	k=$((k + 1))
done
[ "$oom_load" = 0 ] || load_stop
kills=$(dmesg | grep -c 'Out of memory: Killed process')
nsnap=$(find /tmp/snaps -type f | wc -l)
diag "pressure: $kills OOM kills, $nsnap reads of /proc/mstat"
if [ "$kills" -ge "$hogs" ]; then
	ok "faults-oom ($kills OOM kills)"
else
	not_ok "faults-oom: $kills OOM kills, $hogs hogs"
fi
# shellcheck disable=SC2046 # the snapshots, in order
if [ "$nsnap" -gt 0 ] && mstat_check $(find /tmp/snaps -type f | sort) >/tmp/chk 2>&1; then
	ok "faults-oom-reads-check ($nsnap snapshots)"
else
	not_ok "faults-oom-reads-check: $nsnap snapshots"
	tail -n 20 /tmp/chk | show
fi
part end
check rmmod-truth rmmod mstat_truth
check rmmod-mstat rmmod mstat
finish
