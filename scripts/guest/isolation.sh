# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC3043 # busybox ash has "local"
# Guest side of the isolation test: what a read of /proc/mstat costs an
# idle isolated CPU, per reader mode. Boot with two CPUs and
# "isolcpus=1 nohz_full=1"; runs in /mstat with mstat.ko and readlat.
#
# READS is 200, or ISOLATION_READS from the kernel command line (which
# the kernel passes to init's environment). First READS reads of
# /proc/vmstat, for reference (mode=vmstat); then, for each mode, READS
# reads from CPU 0 while CPU 1 idles; then CPU 0
# idles as long again, as the baseline: CPU 1 takes a few function-call
# interrupts a second when nothing reads (seen here: 4 in 4 s, from the
# kernel's own periodic work). The CAL row of /proc/interrupts counts
# smp_call_function*() IPIs; its CPU 1 deltas and readlat's latencies
# are printed as
#   # mode=NAME cpu1_cal=N idle_cal=N secs=S reads=N p50_us=.. p99_us=..
# Checked: the default mode (rcu) and rcu_expedited interrupt CPU 1 no
# more than the idle baseline does, plus 2 and 1% of the reads; ipi mode
# interrupts it on at least 90% of the reads (IPIs that find CPU 1 busy
# with another cross call coalesce), which also proves the count sees
# IPIs.
#
# Then the lever a reader is: /proc/mstat is 0444, in ipi mode.
# A loop of reads as fast as it can for LOOP_MS (3000) ms, as root, as an
# unprivileged user (runas 65534) under the default proc_min_interval_ms
# (1000), then the same user with proc_min_interval_ms=0 (no bound: the
# broken mode, which must fail the bound). The bound: at most LOOP_MS /
# interval + 1 snapshots, each 2 rounds of IPIs, plus the idle baseline
# and 2: the bounded loop must stay within it while reading at least 4
# times as often as the bound (so that a storm would show), and the
# unbounded loop and root's must not (root's interrupts CPU 1 on 90% of
# its reads, as above). The served snapshot says it is one: an
# unprivileged open within the interval gets the generation of the one
# before, with snapshot_reused 1, and every line of it as it was then
# (a source switched off since still says enabled); root's never. And
# unprivileged open files hold at most 4 snapshots of a file: seven held
# opens past the interval took 4 and were served the 4th three times.
# Prints "ok NAME"/"not ok NAME", last "# checks=N failed=N".
# Guest: '--append=isolcpus=1 nohz_full=1'
# Run: check guest-6.12-isolation
set -u
. ./lib.sh
reads=${ISOLATION_READS:-200}
loop_ms=3000
nobody=65534

# in_range N MIN MAX
in_range() { [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }

# cal CPU: function-call interrupts CPU has taken.
cal() { awk -v c="$1" '$1 == "CAL:" { print $(c + 2) }' /proc/interrupts; }

# uptime_cs: centiseconds since boot.
uptime_cs() { awk '{ sub(/\./, "", $1); print $1 + 0 }' /proc/uptime; }

# measure NAME FILE [COUNT [UID]]: COUNT (default READS; or MSms, as many
# as fit) reads of FILE from CPU 0, as UID if given, then as long idle;
# sets $delta and $idle to the CAL interrupts of CPU 1 in each, $n to the
# reads.
measure() {
	local name="$1" file="$2" count="${3:-$reads}" uid="${4:-}" before t0 cs
	local line rc
	before=$(cal 1)
	t0=$(uptime_cs)
	if [ -n "$uid" ]; then
		line=$(./runas "$uid" "$uid" ./readlat "$file" "$count" 0)
	else
		line=$(./readlat "$file" "$count" 0)
	fi
	rc=$?
	[ "$rc" -eq 0 ] || { delta=-1 idle=0 n=0; return 1; }
	delta=$(($(cal 1) - before))
	cs=$(($(uptime_cs) - t0 + 1))
	before=$(cal 1)
	usleep $((cs * 10000))
	idle=$(($(cal 1) - before))
	n=${line#reads=}
	n=${n%% *}
	echo "# mode=$name cpu1_cal=$delta idle_cal=$idle" \
		"secs=$((cs / 100)).$((cs / 10 % 10))$((cs % 10)) $line"
}

# field NAME FILE: NAME's value in a /proc/mstat text.
field() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

# served AS: /proc/mstat read twice by AS (root or nobody) in a row, into
# /tmp/a and /tmp/b.
served() {
	if [ "$1" = root ]; then
		cat /proc/mstat >/tmp/a && cat /proc/mstat >/tmp/b
	else
		./runas "$nobody" "$nobody" cat /proc/mstat >/tmp/a &&
			./runas "$nobody" "$nobody" cat /proc/mstat >/tmp/b
	fi
}

echo "# cmdline: $(cat /proc/cmdline)"
echo "# isolated: $(cat /sys/devices/system/cpu/isolated)" \
	"nohz_full: $(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)"
dmesg | grep -E 'NO_HZ|nohz' | sed 's/^/# /'
check cpu1-nohz-full [ "$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)" = 1 ]
check cpu1-isolated [ "$(cat /sys/devices/system/cpu/isolated)" = 1 ]
check cal-row-present [ -n "$(cal 1)" ]

insmod ./mstat.ko proc_mode=0444 || { not_ok insmod; finish; }
# Let boot-time work on CPU 1 settle before counting.
sleep 2

measure vmstat /proc/vmstat

measure rcu /proc/mstat
check rcu-is-default grep -q '^sync_mode rcu$' $D/internals
check rcu-no-ipi-to-isolated-cpu \
	in_range "$delta" 0 $((idle + 2 + reads / 100))

echo 1 >$D/sync_mode
measure rcu_expedited /proc/mstat
check rcu-expedited-no-ipi-to-idle-isolated-cpu \
	in_range "$delta" 0 $((idle + 2 + reads / 100))

echo 2 >$D/sync_mode
measure ipi /proc/mstat
# Not quite every read: a call-function IPI that finds CPU 1 still
# handling another (the kernel's own) is served by that one interrupt.
check ipi-mode-interrupts-isolated-cpu-every-read \
	[ "$delta" -ge $((reads * 9 / 10)) ]

# The lever: reader loops in ipi mode.
P=/sys/module/mstat/parameters
interval=$(cat $P/proc_min_interval_ms 2>/dev/null)
check proc-min-interval-default [ "$interval" = 1000 ]
: "${interval:=1000}"
bound() { echo $(((loop_ms / interval + 1) * 2 + idle + 2)); }

measure ipi-root-loop /proc/mstat ${loop_ms}ms
diag "bound $(bound) for a bounded reader in as long; root read $n times"
check root-loop-interrupts-isolated-cpu-every-read \
	[ "$delta" -ge $((n * 9 / 10)) ]

measure ipi-nobody-loop /proc/mstat ${loop_ms}ms "$nobody"
b=$(bound)
diag "bound $b"
check nobody-loop-within-bound in_range "$delta" 0 "$b"
check nobody-loop-reads-past-bound [ "$n" -ge $((b * 4)) ]

measure ipi-nobody-loop-sites /proc/mstat_sites ${loop_ms}ms "$nobody"
b=$(bound)
diag "bound $b"
check nobody-sites-loop-within-bound in_range "$delta" 0 "$b"
check nobody-sites-loop-reads-past-bound [ "$n" -ge $((b * 4)) ]

# What a reader is served. The first open of each pair takes one unless
# the last is recent; the second, within the interval, gets it again.
sleep 1
if served nobody; then
	show /tmp/b | head -n 4
	check nobody-served-same-generation \
		[ "$(field generation /tmp/a)" = "$(field generation /tmp/b)" ]
	check nobody-served-reused [ "$(field snapshot_reused /tmp/b)" = 1 ]
	age=$(field snapshot_age_ms /tmp/b)
	check nobody-served-age-within-interval in_range "${age:--1}" 0 "$interval"
	check nobody-served-consistent mstat_check /tmp/b
else
	not_ok "nobody-served: cannot read /proc/mstat as $nobody"
fi
# sites_reused: the second of two opens of /proc/mstat_sites by nobody
# says it was served the first's snapshot.
sites_reused() {
	./runas "$nobody" "$nobody" cat /proc/mstat_sites >/dev/null &&
		./runas "$nobody" "$nobody" head -n 2 /proc/mstat_sites >/tmp/s &&
		show /tmp/s && grep -q ' reused 1 age_ms [0-9]*\( \|$\)' /tmp/s
}
check nobody-served-sites-reused sites_reused
# root_fresh: both of root's opens took a snapshot of their own.
root_fresh() {
	[ "$(field snapshot_reused /tmp/a)" = 0 ] &&
		[ "$(field snapshot_reused /tmp/b)" = 0 ] &&
		[ "$(field generation /tmp/b)" -gt "$(field generation /tmp/a)" ]
}
if served root; then
	check root-served-fresh root_fresh
else
	not_ok "root-served: cannot read /proc/mstat"
fi

# The lines beside the counts are the snapshot's: root's read is the
# last one; kmalloc switched off after it, nobody's open within the
# interval is served that one, which says kmalloc_enabled 1, as it was.
echo 5000 >$P/proc_min_interval_ms
cat /proc/mstat >/tmp/a
echo 0 >$P/enable_kmalloc
./runas "$nobody" "$nobody" cat /proc/mstat >/tmp/b
echo 1 >$P/enable_kmalloc
# changed: the lines of /tmp/a and /tmp/b that differ.
changed() { diff /tmp/a /tmp/b | grep '^[-+]' | grep -v '^\(---\|+++\) '; }
# served_lines: /tmp/b is /tmp/a but for its snapshot_reused and age.
served_lines() {
	changed | show
	[ "$(field snapshot_reused /tmp/b)" = 1 ] &&
		[ "$(field kmalloc_enabled /tmp/b)" = 1 ] &&
		! changed | grep -qv '^[-+]snapshot_\(reused\|age_ms\) '
}
check nobody-served-lines-of-its-snapshot served_lines

# What unprivileged open files hold: at most 4 snapshots of a file.
# nobody opens /proc/mstat on fds 3 to 9, 0.3 s apart with an interval
# of 0.2 s, and holds them: the first 4 take one each, the rest are
# served the 4th; once they are closed, an open takes one again.
echo 200 >$P/proc_min_interval_ms
cat >/tmp/gen.awk <<'AWK'
$1 == "generation" { g = $2 }
$1 == "snapshot_reused" { r = $2 }
END { print g, r }
AWK
cat >/tmp/hold.sh <<'SH'
for fd in 3 4 5 6 7 8 9; do
	eval "exec $fd</proc/mstat"
	usleep 300000
done
for fd in 3 4 5 6 7 8 9; do
	eval "awk -f /tmp/gen.awk <&$fd"
done
SH
sleep 1
./runas "$nobody" "$nobody" sh /tmp/hold.sh >/tmp/held
show /tmp/held
check nobody-held-snapshots-at-most-4 \
	[ "$(cut -d' ' -f1 /tmp/held | sort -u | wc -l)" -eq 4 ]
check nobody-held-past-4-served-the-last \
	[ "$(cut -d' ' -f2 /tmp/held | tr -d '\n')" = 0000111 ]
usleep 300000
./runas "$nobody" "$nobody" cat /proc/mstat >/tmp/c
check nobody-held-closed-takes-again [ "$(field snapshot_reused /tmp/c)" = 0 ]
echo 1000 >$P/proc_min_interval_ms

# The broken mode: no bound. The same loop must break the bound, or the
# count above could not have seen a storm.
echo 0 >$P/proc_min_interval_ms
measure ipi-nobody-loop-unbounded /proc/mstat ${loop_ms}ms "$nobody"
b=$(bound)
diag "bound $b (the bounded reader's), unbounded"
check unbounded-nobody-loop-breaks-bound [ "$delta" -gt "$b" ]
check unbounded-nobody-loop-interrupts-every-read \
	[ "$delta" -ge $((n * 9 / 10)) ]
if served nobody; then
	check unbounded-nobody-served-fresh [ "$(field snapshot_reused /tmp/b)" = 0 ]
else
	not_ok "unbounded-nobody-served: cannot read /proc/mstat as $nobody"
fi
echo 1000 >$P/proc_min_interval_ms

echo 0 >$D/sync_mode
sed 's/^/# /' $D/history | head -n 5
rmmod mstat
finish
