# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC3043 # busybox ash has "local"
# Guest side of the stock-kernel module test. Runs in /mstat with
# mstat.ko and the static helpers mstat (for `mstat check`), runas and write1 (from
# tests/helpers/ and tools/mstat/, copied in with --file). Prints "ok NAME" or
# "not ok NAME" per check, diagnostics as "# ..." lines, and last
# "# checks=N failed=N"; exits 1 if any check failed.
#
# Checks /proc/mstat's mode, consistent snapshots under an allocating
# workload (also read 7 bytes at a time), EACCES for non-root, every
# debugfs control rejecting bad input and keeping its value, valid writes
# taking effect, the event stream's format, no raw kernel address in any
# output, history, internals (the bulk probes as /proc/mstat says them),
# the trace events, a valid reset, and rmmod under the workload while
# readers loop and a file is held open.
# Run: check guest-6.1-module --boot=bzimage
# Run: check guest-6.12-module --boot=bzimage
# Run: check guest-6.12rt-module
set -u
. ./lib.sh

# The workload: reads of proc and sysfs, files in the initramfs' tmpfs,
# many short-lived processes; two loops at once.
wl_fs() {
	while :; do
		cat /proc/self/status >/dev/null
		ls -R /sys >/dev/null 2>&1
	done
}
wl_forks() {
	while :; do
		dd if=/dev/zero of=/tmp/wl.$$ bs=64k count=8 2>/dev/null
		rm -f /tmp/wl.$$
		for i in 1 2 3 4 5 6; do /bin/true & done
		wait
	done
}

# Static keys flip when sources are switched (tracepoint probes come and
# go), and QEMU's multi-threaded TCG sometimes runs a stale int3 of that
# text patching on the other vCPU ("Oops: int3", stock kernels, no mstat
# needed): so the workload pauses while the controls are exercised. rmmod
# still runs under it, as it must; that leaves a small chance of the Oops
# on 6.12 (none with -accel tcg,thread=single).
start_workload() {
	wl_fs & wl1=$!
	wl_forks & wl2=$!
}
stop_workload() {
	kill $wl1 $wl2
	wait $wl1 $wl2 2>/dev/null
}

# check_snapshots NAME ARGS...: a check by the invariant checker, whose
# output it shows.
check_snapshots() {
	local name="$1"
	shift
	mstat_check "$@" >/tmp/check.out 2>&1
	local rc=$?
	show /tmp/check.out
	if [ $rc -eq 0 ]; then ok "$name"; else not_ok "$name"; fi
}

# Bad module parameters: insmod fails, with a line in the kernel log that
# names the parameter, and leaves nothing behind.
for bad in proc_mode=0777 events_per_cpu=1 events_per_cpu=1000000 \
	   profile_buckets=1 profile_addrs=0 profile_rate=18446744073709551615 \
	   enable_kmalloc=maybe proc_mode=-1 sync_mode=3; do
	name=${bad%%=*}
	dmesg -c >/dev/null
	if insmod ./mstat.ko "$bad" 2>/dev/null; then
		not_ok "bad-param-$bad"
		rmmod mstat
	elif dmesg | grep -q "$name" && [ ! -e /proc/mstat ]; then
		ok "bad-param-$bad"
	else
		not_ok "bad-param-$bad: no log line"
	fi
done

if insmod ./mstat.ko; then
	ok insmod
else
	not_ok insmod
	finish
fi

mode=$(stat -c %A /proc/mstat)
diag "/proc/mstat mode $mode"
check proc-mode-0400 [ "$mode" = "-r--------" ]

start_workload
sleep 1

# Consistent snapshots, within and across reads, under the workload.
check_snapshots snapshots-under-load -n 50 -i 20

# Every allocation sampled for the profile, and streamed, for a while:
# the sections' out-of-line paths run on every event (on PREEMPT_RT, a
# sleeping lock taken there is a "scheduling while atomic" on the console).
if [ -e $D/profile_rate ]; then
	rate=$(cat $D/profile_rate)
	echo 1 >$D/profile_rate
	echo 15 >$D/events_sources
	check_snapshots snapshots-every-event-sampled -n 10 -i 20
	echo 0 >$D/events_sources
	echo "$rate" >$D/profile_rate
	timeout 2 cat $D/events >/dev/null 2>&1
fi

# One open is one snapshot, however small the reads.
dd if=/proc/mstat of=/tmp/m7 bs=7 2>/tmp/dd.err
records=$(sed -n 's/^\([0-9]*\)+[0-9]* records in$/\1/p' /tmp/dd.err)
diag "dd bs=7: ${records:-?} full records"
check read-7-bytes-at-a-time [ "${records:-0}" -ge 100 ]
check_snapshots read-7-bytes-consistent /tmp/m7

# Non-root readers get EACCES.
check runas-drops-root [ "$(./runas 65534 65534 id -u)" = 65534 ]
out=$(./runas 65534 65534 cat /proc/mstat 2>&1)
rc=$?
diag "non-root cat: rc=$rc: $(echo "$out" | head -n 1)"
case $rc:$out in
0:*)			not_ok nonroot-eacces ;;
*"Permission denied"*)	ok nonroot-eacces ;;
*)			not_ok nonroot-eacces ;;
esac

stop_workload

# Bad input to every control: EINVAL, and the value unchanged.
: >/tmp/in.empty
head -c 65536 /dev/zero | tr '\0' '1' >/tmp/in.long
printf -- '-1' >/tmp/in.negative
printf 'abc' >/tmp/in.nonnumeric
printf '18446744073709551616' >/tmp/in.overflow
{ head -c 8 /dev/urandom; printf '\000'; head -c 7 /dev/urandom; } \
	>/tmp/in.binary
printf '1 ' >/tmp/in.trailing-space
printf ' 1' >/tmp/in.leading-space
printf '1\n\n' >/tmp/in.two-newlines

# ctl_value FILE: what the control reads now ("-" if write-only); the
# shell's own read, no process: this loop makes 130 bad writes.
ctl_value() {
	local v=-
	[ "$1" = reset ] || read -r v <"$D/$1"
	echo "$v"
}

# bad_write FILE INPUT: one bad write, which must fail with EINVAL and
# change nothing: the value reads the same. That it lost no count (for
# reset: counters go on growing, where a reset would zero them) is one
# check a control, of snapshots before and after all its bad writes
# (bad_counts): one a write took 2 reads of /proc/mstat and a run of
# mstat check, the most of this guest's 100 s of bad writes under TCG.
bad_write() {
	local f="$1" inp="$2" before after err='' rc
	before=$(ctl_value "$f")
	./write1 "$D/$f" <"/tmp/in.$inp" 2>/tmp/err
	rc=$?
	read -r err </tmp/err
	after=$(ctl_value "$f")
	# Put back what a wrongly accepted write changed.
	[ "$before" = "$after" ] || echo "$before" >"$D/$f"
	if [ $rc -ne 1 ] || [ "${err%Invalid argument}" = "$err" ]; then
		diag "$f <$inp: rc=$rc: ${err:-write succeeded}"
		not_ok "debugfs-bad-input $f $inp"
	elif [ "$before" != "$after" ]; then
		diag "$f <$inp: value $before became $after"
		not_ok "debugfs-bad-input $f $inp"
	else
		ok "debugfs-bad-input $f $inp"
	fi
}

# bad_counts FILE: the snapshots before (/tmp/pre) and after FILE's bad
# writes pass mstat check in sequence: no count lost, none reset.
bad_counts() {
	cat /proc/mstat >/tmp/post
	if mstat_check /tmp/pre /tmp/post >/tmp/check.out 2>&1; then
		ok "debugfs-bad-input-counts $1"
	else
		show /tmp/check.out
		not_ok "debugfs-bad-input-counts $1"
	fi
}

# bad_echo FILE TEXT: the same through the shell's redirection.
bad_echo() {
	local f="$1" before after out rc
	before=$(ctl_value "$f")
	out=$( (echo "$2" >"$D/$f") 2>&1)
	rc=$?
	after=$(ctl_value "$f")
	if [ $rc -ne 0 ] && [ "${out%Invalid argument}" != "$out" ] &&
	   [ "$before" = "$after" ]; then
		ok "debugfs-bad-echo $f $2"
	else
		diag "echo $2 >$f: rc=$rc: $out; value $before -> $after"
		not_ok "debugfs-bad-echo $f $2"
	fi
}

# A value that parses but is out of range, per control.
printf '2' >/tmp/in.range-2
printf '0' >/tmp/in.range-0
printf '64' >/tmp/in.range-64
printf '3' >/tmp/in.range-3
printf '1099511627777' >/tmp/in.range-2to40plus1
# A valid number, then NUL and junk: the write is not a number.
printf '0\000junk' >/tmp/in.nul-0
printf '1\000junk' >/tmp/in.nul-1

controls="enable_kmalloc enable_cache enable_page enable_api reset"
controls="$controls events_sources events_min_size"
[ -e $D/profile_rate ] && controls="$controls profile_rate"
controls="$controls sync_mode"
for f in $controls; do
	case $f in
	enable_*)	extra="range-2 nul-0" ;;
	reset)		extra="range-2 range-0 nul-1" ;;
	events_sources)	extra="range-64 nul-1" ;;
	profile_rate)	extra="range-2to40plus1 nul-1" ;;
	sync_mode)	extra="range-3 nul-1" ;;
	*)		extra="nul-1" ;;
	esac
	cat /proc/mstat >/tmp/pre
	for inp in empty long negative nonnumeric overflow binary \
		   trailing-space leading-space two-newlines $extra; do
		bad_write "$f" "$inp"
	done
	bad_echo "$f" abc
	bad_echo "$f" -1
	bad_counts "$f"
done
check enables-still-on [ "$(cat $D/enable_kmalloc $D/enable_cache \
	$D/enable_page $D/enable_api | tr -d '\n')" = 1111 ]

# Valid writes take effect.
valid_page() {
	echo "$1" >"$D/enable_page" || return 1
	[ "$(cat "$D/enable_page")" = "$1" ] || return 1
	grep -q "^page_enabled $1\$" /proc/mstat
}
check debugfs-enable-page-0 valid_page 0
check debugfs-enable-page-1 valid_page 1

# Every reader mode gives a snapshot and says which it is; back to rcu.
valid_sync() {
	echo "$1" >"$D/sync_mode" || return 1
	[ "$(cat "$D/sync_mode")" = "$1" ] || return 1
	grep -q "^sync_mode $2\$" "$D/internals" || return 1
	grep -q '^generation ' /proc/mstat
}
check debugfs-sync-mode-rcu-default grep -q '^sync_mode rcu$' $D/internals
check debugfs-sync-mode-2 valid_sync 2 ipi
check debugfs-sync-mode-1 valid_sync 1 rcu_expedited
check debugfs-sync-mode-0 valid_sync 0 rcu

# cpu_list LIST: the CPUs of a list like 0-3,5, one a line.
cpu_list() {
	local r i
	for r in $(echo "$1" | tr ',' ' '); do
		i=${r%-*}
		while [ "$i" -le "${r#*-}" ]; do echo "$i"; i=$((i + 1)); done
	done
}

# The event stream: kmalloc events only, well formed, pointers hashed.
# drain: what the rings still hold, read out once the sources are off
# (the read then blocks for more: a time bound ends it; nothing is judged
# on it).
drain() { timeout 2 cat $D/events >/dev/null 2>&1; }
# read_events FILE: five records of the stream into FILE, made by a loop
# of /proc reads meanwhile (seq_file's buffer is a kmalloc() of 4 KiB
# per open), so that they come however slow the guest; a bound of 60 s
# that ends the read early is said as a timeout, not judged.
read_events() {
	( while :; do cat /proc/self/status /proc/meminfo >/dev/null; done ) &
	timeout 60 head -n 5 $D/events >"$1"
	kill $! 2>/dev/null
	wait $! 2>/dev/null
	[ "$(wc -l <"$1")" -ge 5 ] ||
		diag "timeout: $(wc -l <"$1") of 5 events read in 60 s"
}
# The rings' records exist only while the stream is on.
ring_records() { sed -n 's/^events_ring_records //p' $D/internals; }
ncpus=$(cpu_list "$(cat /sys/devices/system/cpu/possible)" | wc -l)
per_cpu=$(cat /sys/module/mstat/parameters/events_per_cpu)
check events-rings-off-at-load [ "$(ring_records)" = 0 ]
echo 1 >$D/events_sources
check events-rings-on [ "$(ring_records)" = $((ncpus * per_cpu)) ]
read_events /tmp/ev.kmalloc
echo 0 >$D/events_sources
check events-rings-freed [ "$(ring_records)" = 0 ]
drain
show /tmp/ev.kmalloc
n=$(wc -l </tmp/ev.kmalloc)
check events-read [ "$n" -eq 5 ]
ev_re='^[0-9]+ cpu=[0-9]+ kmalloc (alloc|free) ptr=00000000[0-9a-f]{8} size=[0-9]+ site=[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+/0x[0-9a-f]+( \[[A-Za-z0-9_]+\])?$'
check events-format [ "$(grep -c -v -E "$ev_re" /tmp/ev.kmalloc)" = 0 ]

echo 4096 >$D/events_min_size
echo 1 >$D/events_sources
read_events /tmp/ev.big
echo 0 >$D/events_sources
echo 0 >$D/events_min_size
drain
show /tmp/ev.big
small=$(sed -n 's/.* size=\([0-9]*\) .*/\1/p' /tmp/ev.big |
	while read -r s; do [ "$s" -ge 4096 ] || echo "$s"; done)
check events-min-size [ -z "$small" ]
check events-dropped-reads grep -q '^[0-9][0-9]*$' $D/events_dropped
# poll() and O_NONBLOCK on the stream (evpoll prints its own checks).
./evpoll $D >/tmp/evpoll 2>&1
relay /tmp/evpoll

# history and internals.
cat $D/history >/tmp/history
cat $D/internals >/tmp/internals
head -n 5 /tmp/history | show
check history-snapshots grep -q '^snapshots [1-9]' /tmp/history
want=$(cpu_list "$(cat /sys/devices/system/cpu/possible)")
got=$(sed -n 's/^cpu \([0-9]*\) online .*/\1/p' /tmp/internals)
# shellcheck disable=SC2086,SC2116 # echo joins the lines
diag "possible CPUs: $(echo $want); internals: $(echo $got)"
check internals-one-line-per-cpu [ "$want" = "$got" ]
check_probes_agree
# Each slot's line whole, though streamed in records of 64 words.
nw=$(sed -n 's/^words_per_slot //p' /tmp/internals)
nslots=$(grep -c '^cpu [0-9]* slot [01]:' /tmp/internals)
bad=$(grep '^cpu [0-9]* slot [01]:' /tmp/internals | awk -v n="$nw" 'NF - 4 != n' | wc -l)
diag "internals: $nslots slot lines of $nw words, $bad not whole"
slots_whole() { [ "$bad" = 0 ] && [ "$nslots" = $((2 * $(echo "$want" | wc -w))) ]; }
check internals-slot-lines-whole slots_whole

# Trace events.
check tracefs-event-exists [ -d $T/events/mstat/mstat_snapshot ]
echo >$T/trace
echo 1 >$T/events/mstat/enable
cat /proc/mstat >/dev/null
echo 0 >$D/enable_cache
echo 1 >$D/enable_cache
echo 0 >$T/events/mstat/enable
grep mstat_ $T/trace | tail -n 3 | show
check trace-mstat-snapshot grep -q 'mstat_snapshot: gen=[0-9]' $T/trace
check trace-mstat-source grep -q 'mstat_source: source=cache enabled=0' $T/trace
cp $T/trace /tmp/trace

# No raw kernel address anywhere (hashed %p is 00000000xxxxxxxx). Kernel
# addresses start with fff: x86-64's at ffff8880..., arm64's linear map
# at fff0... when the CPU has 52-bit VAs (Debian's arm64 kernel on qemu's
# -cpu max: "52-bit Virtual Addressing (LPA2)"), ffff... otherwise.
cat /proc/mstat >/tmp/mstat.now
: >/tmp/sites
[ -e /proc/mstat_sites ] && cat /proc/mstat_sites >/tmp/sites
raw=$(grep -l -E 'fff[0-9a-f]{13}' /tmp/mstat.now /tmp/m7 /tmp/ev.kmalloc \
	/tmp/ev.big /tmp/history /tmp/internals $D/events_dropped \
	/tmp/trace /tmp/sites 2>/dev/null)
[ -z "$raw" ] || diag "raw addresses in: $raw"
check no-raw-addresses [ -z "$raw" ]

# A valid reset: counters restart, snapshots stay consistent.
gen_before=$(sed -n 's/^generation //p' /tmp/mstat.now)
allocs_before=$(sed -n 's/^kmalloc_allocs //p' /tmp/mstat.now)
check reset-write sh -c "echo 1 >$D/reset"
cat /proc/mstat >/tmp/mstat.reset
gen_after=$(sed -n 's/^generation //p' /tmp/mstat.reset)
allocs_after=$(sed -n 's/^kmalloc_allocs //p' /tmp/mstat.reset)
diag "reset: generation $gen_before -> $gen_after, kmalloc_allocs $allocs_before -> $allocs_after"
check reset-zeroes test "${gen_after:-0}" -gt "${gen_before:-0}" -a \
	"${allocs_after:-0}" -lt "${allocs_before:-0}"
check_snapshots snapshots-after-reset -n 10 -i 20

# rmmod while the workload runs, readers loop and a file is held open.
start_workload
while :; do cat /proc/mstat >/dev/null 2>&1; done &
reader=$!
exec 3</proc/mstat
sleep 1
tries=0
while ! rmmod mstat 2>/tmp/rmmod.err; do
	tries=$((tries + 1))
	show /tmp/rmmod.err
	[ $tries -lt 20 ] || break
	sleep 0.2
done
diag "rmmod: $tries retries"
check rmmod-under-load [ $tries -lt 20 ]
fd3_fails() { ! cat <&3 >/dev/null 2>&1; }
check held-open-file-fails fd3_fails
exec 3<&-
kill $reader
stop_workload
wait
check proc-gone [ ! -e /proc/mstat ]
check debugfs-gone [ ! -e $D ]
check trace-events-gone [ ! -e $T/events/mstat ]
check not-in-lsmod sh -c '! grep -q "^mstat " /proc/modules'
finish
