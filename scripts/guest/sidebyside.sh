# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# shellcheck disable=SC3043 # busybox ash has "local"
# Guest side of the side-by-side detection run (scripts/sidebyside.sh,
# make bench): the leaks and decoys of tests/leaks/mstat_leaktest.ko (its
# "leaks,decoys" groups: lost 8 KiB/s, list, cgroup, softirq and merged
# 4 KiB/s each; the plateau, sawtooth, long-lived and rising-and-falling
# decoys), the busy workload of the leak test (./leaks -b), watched at
# once by `mstat leaks` and one other tool, SBS_TOOL on the command line:
#
#	memleak		libbpf-tools' memleak (Debian trixie's
#			memleak-libbpf, kernel mode, its defaults: a report
#			of the top 10 stacks every SBS_POLL s), from the
#			bench root copied to /mstat/root (scripts/lib.sh,
#			mstat_bench_root); a kernel with BTF
#	kmemleak-scan	kmemleak, its thread stopped, a forced scan every
#			SBS_SCAN s (default 30), the report read after each
#	kmemleak-auto	kmemleak as booted (CONFIG_DEBUG_KMEMLEAK_AUTO_SCAN:
#			a scan 60 s after boot, then every 600 s), its
#			report read every 10 s
#	none		mstat alone
#
# mstat at profile_rate=SBS_RATE (default 524288), one watch of SBS_D s
# (default 600), a read every SBS_I s (default 10), saved; then `mstat
# leaks --from` on its first N reads, N = 2, 3, ...: a leak is named at
# the first N whose verdict has one stack suspect at its function
# (./leaks -n), and each prefix's verdict scored (./leaks -s); not with
# SBS_PREFIX=0 (make check's smoke: the last verdict alone). The other
# tool names a leak when its report holds a stack through the leak's
# function (mstat_leak_NAME_alloc). Prints, for each tool T:
#
#	sbs: tool=T leak=NAME named_s=S|-	(seconds from the leaks' start)
#	sbs: tool=T reports=N leak_stacks=N false_stacks=N decoy_stacks=N
#	     false=F1;F2...			(its last report: stacks
#						 named that are not leaks)
#	sbs: tool=mstat prefix=N t=S score: ...	(./leaks -s per prefix)
#	sbs: tool=mstat-once leak=NAME named_s=S|-  (each read alone,
#						 from the module's history)
#
# and checks that each tool ran (the leak module's truth, the tool's
# report read). What the tools named is the bench's figure, not a check,
# but for the smoke (SBS_EXPECT on the command line, make check): each
# leak that SBS_EXPECT lists as NAME=1 must be named by the other tool
# and each NAME=0 not.
set -u
. ./lib.sh

tool=$(arg SBS_TOOL)
rate=$(arg SBS_RATE)
dur=$(arg SBS_D)
ivl=$(arg SBS_I)
scan=$(arg SBS_SCAN)
poll=$(arg SBS_POLL)
expect=$(sed -n 's/.*SBS_EXPECT="\([^"]*\)".*/\1/p' /proc/cmdline)
: "${tool:=none}" "${rate:=524288}" "${dur:=600}" "${ivl:=10}"
: "${scan:=30}" "${poll:=10}"
L=/sys/kernel/debug/mstat_leaktest
K=/sys/kernel/debug/kmemleak
leaks="lost list cgroup softirq merged"
decoys="plateau saw life wave"
diag "tool $tool, mstat profile_rate $rate, a watch of $dur s, a read every $ivl s"

now() { cut -d' ' -f1 /proc/uptime; }
since() { awk -v a="$(now)" -v b="$1" 'BEGIN { printf "%.0f", a - b }'; }

# The bench root's programs run through its own loader.
LIB=/mstat/root/usr/lib/x86_64-linux-gnu

# classify FILE: the stacks of a report, one line each "KIND KEY":
# KIND leak (KEY its name), decoy (its name) or other (KEY the first
# frames that are not the allocator's, joined by ">"). Reports are
# blocks: kmemleak's start "unreferenced object", memleak's "N bytes in
# M allocations from stack"; frames are lines with a symbol+0x.
classify() {
	awk -v leaks="$leaks" -v decoys="$decoys" '
	function flush() {
		if (!inb)
			return
		if (kind == "")
			kind = "other"
		print kind, (kind == "other" ? (key == "" ? "?" : key) : name)
		inb = 0
	}
	BEGIN {
		n = split(leaks, a, " "); for (i = 1; i <= n; i++) isleak[a[i]] = 1
		n = split(decoys, a, " "); for (i = 1; i <= n; i++) isdecoy[a[i]] = 1
	}
	/^unreferenced object / || / bytes in [0-9]+ allocations from stack/ {
		flush(); inb = 1; kind = ""; name = ""; key = ""; nk = 0; next
	}
	inb && /[A-Za-z_][A-Za-z0-9_.]*\+0x/ {
		match($0, /[A-Za-z_][A-Za-z0-9_.]*\+0x/)
		f = substr($0, RSTART, RLENGTH - 3)
		if (f ~ /^mstat_leak_[a-z0-9]+_alloc$/) {
			m = f; sub(/^mstat_leak_/, "", m); sub(/_alloc$/, "", m)
			if (m in isleak && kind != "leak") { kind = "leak"; name = m }
			else if (m in isdecoy && kind == "") { kind = "decoy"; name = m }
		}
		if (f ~ /^(kmemleak_|__kmalloc|kmalloc|__kmem_cache|kmem_cache_alloc|slab_|__slab|___slab|alloc_slab|new_slab|allocate_slab|__alloc_pages|alloc_pages|__folio|folio_alloc|__get_free_pages|get_free_pages|trace_|perf_trace|bpf_|__bpf|__traceiter|__do_kmalloc|kmalloc_trace|__kmalloc_cache|kmalloc_node|__kvmalloc|kvmalloc|pcpu_|__pcpu|memleak)/)
			next
		if (nk < 3) { key = key (nk ? ">" : "") f; nk++ }
	}
	END { flush() }' "$1"
}

# summary TOOL FILE: the report's stacks counted.
summary() {
	classify "$2" >/tmp/cls
	awk -v t="$1" '
	{ n[$1]++; if ($1 != "leak") { c[$2]++ } }
	END {
		f = ""
		for (k in c) f = f (f == "" ? "" : ";") k "*" c[k]
		printf "sbs: tool=%s reports=%d leak_stacks=%d false_stacks=%d decoy_stacks=%d false=%s\n",
			t, NR, n["leak"] + 0, n["other"] + 0, n["decoy"] + 0,
			f == "" ? "-" : f
	}' /tmp/cls
}

# The cgroup leak's task in /leaks; a kernel without cgroups (the x86
# debug kernel of make check's smoke) runs it in no cgroup of its own.
mkdir -p /sys/fs/cgroup
if ! mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null ||
   ! mkdir /sys/fs/cgroup/leaks; then
	diag "no cgroup2 here: the cgroup leak's task stays where it is"
fi
ip link set lo up 2>/dev/null
t_load=$(uptime_s)
check insmod-mstat insmod ./mstat.ko profile_rate="$rate"
check insmod-leaktest insmod ./mstat_leaktest.ko

case $tool in
memleak)
	# Started before the leaks, as mstat is: each sees what comes after.
	"$LIB/ld-linux-x86-64.so.2" --library-path "$LIB" \
		/mstat/root/usr/sbin/memleak-libbpf "$poll" \
		>/tmp/memleak.out 2>&1 &
	mlpid=$!
	i=0
	while [ "$i" -lt 300 ] && ! grep -q '^Tracing' /tmp/memleak.out; do
		kill -0 "$mlpid" 2>/dev/null || break
		sleep 1
		i=$((i + 1))
	done
	show /tmp/memleak.out
	check memleak-attached grep -q '^Tracing' /tmp/memleak.out
	;;
kmemleak-scan)
	check kmemleak-present test -w "$K"
	echo scan=off >"$K"
	# What boot left is not the leaks': two scans (an object is
	# reported at the second that finds it unchanged), then cleared.
	echo scan >"$K"
	echo scan >"$K"
	echo clear >"$K"
	;;
kmemleak-auto)
	check kmemleak-present test -r "$K"
	;;
none)	;;
*)	not_ok "tool-$tool: memleak, kmemleak-scan, kmemleak-auto or none" ;;
esac

./leaks -b &
busypid=$!
sleep 5
check start-leaks sh -c "echo start leaks,decoys >$L/control"
t0=$(now)
diag "leaks started at uptime $t0"
sh -c "[ ! -d /sys/fs/cgroup/leaks ] ||
	echo \$\$ >/sys/fs/cgroup/leaks/cgroup.procs &&
	exec ./leaks -d $L/control" &
driverpid=$!
./mstat leaks --duration "$dur" --interval "$ivl" --save /tmp/run --json \
	>/tmp/mstat.json 2>/tmp/mstat.err &
mspid=$!

# The other tool, until the watch ends (kmemleak-auto: until its second
# scan after the start, at most 1300 s, to see its default's verdict).
found=''
name_in() {	# name_in FILE T: the leaks FILE's stacks name, at T
	local n
	classify "$1" | awk '$1 == "leak" { print $2 }' | sort -u >/tmp/named
	while read -r n; do
		case " $found " in *" $n "*) continue ;; esac
		found="$found $n"
		echo "sbs: tool=$tool leak=$n named_s=$2"
	done </tmp/named
}
end=$dur
[ "$tool" = kmemleak-auto ] && end=1300
last=/tmp/none
while :; do
	t=$(since "$t0")
	[ "$t" -lt "$end" ] || break
	case $tool in
	memleak)
		# The last complete report: from its last header to the one
		# before it, or to the end if the tool is between reports.
		awk '/^\[[0-9:]+\] Top / { n++ } { print > ("/tmp/ml." n) }' \
			/tmp/memleak.out
		k=$(for f in /tmp/ml.*; do echo "${f##*.}"; done |
			sort -n | tail -n 2 | head -n 1)
		if [ -n "$k" ] && [ "$k" -gt 0 ]; then
			cp "/tmp/ml.$k" /tmp/report
			last=/tmp/report
			name_in /tmp/report "$t"
		fi
		rm -f /tmp/ml.*
		sleep "$poll"
		;;
	kmemleak-scan)
		echo scan >"$K"
		t=$(since "$t0")
		cat "$K" >/tmp/report
		last=/tmp/report
		name_in /tmp/report "$t"
		sleep "$scan"
		;;
	kmemleak-auto)
		cat "$K" >/tmp/report
		last=/tmp/report
		name_in /tmp/report "$t"
		case $found in *lost*) [ "$t" -ge "$dur" ] && break ;; esac
		sleep 10
		;;
	*)	sleep 10 ;;
	esac
done
wait "$mspid"
echo "$?" >/tmp/mstat.rc
cat "$L/truth" >/tmp/truth
# The guest's tasks born since the load (tests/helpers/leaks.c), mstat's
# watch gone.
tasks_since "$t_load" 1 >>/tmp/truth
show /tmp/truth
show /tmp/mstat.err
for n in $leaks; do
	case " $found " in
	*" $n "*)	;;
	*)		[ "$tool" = none ] ||
				echo "sbs: tool=$tool leak=$n named_s=-" ;;
	esac
done
if [ "$tool" != none ]; then
	check "$tool-report-read" test -s "$last"
	summary "$tool" "$last"
	grep -c '' "$last" | sed 's/^/# report lines: /'
	head -n 60 "$last" | show
fi
case $tool in
memleak)	kill -INT "$mlpid"; wait "$mlpid" 2>/dev/null ;;
esac

# mstat: the first read at which each leak is named, and each prefix's
# score.
set -- /tmp/run/*.time
n=$#
[ "$(arg SBS_PREFIX)" = 0 ] && n=0
mfound=''
k=2
while [ "$k" -le "$n" ]; do
	rm -rf /tmp/pre
	mkdir /tmp/pre
	j=0
	for f in /tmp/run/*.time; do
		j=$((j + 1))
		[ "$j" -le "$k" ] || break
		cp "${f%.time}".* /tmp/pre/
		tk=$(cat "$f")
	done
	for x in slab-names cgroups; do
		[ -f "/tmp/run/$x" ] && cp "/tmp/run/$x" /tmp/pre/
	done
	# Fewer reads than a verdict needs: exit 2, no verdict yet.
	rc=0
	./mstat leaks --from /tmp/pre --json >/tmp/pre.json 2>/dev/null || rc=$?
	if [ "$rc" -gt 1 ]; then
		k=$((k + 1))
		continue
	fi
	t=$(awk -v a="$tk" -v b="$t0" 'BEGIN { printf "%.0f", a - b }')
	echo "sbs: tool=mstat prefix=$k t=$t $(./leaks -s /tmp/truth /tmp/pre.json)"
	for l in $leaks; do
		case " $mfound " in *" $l "*) continue ;; esac
		if ./leaks -n "$l" /tmp/truth /tmp/pre.json; then
			mfound="$mfound $l"
			echo "sbs: tool=mstat leak=$l named_s=$t"
		fi
	done
	k=$((k + 1))
done
[ "$n" = 0 ] || for l in $leaks; do
	case " $mfound " in
	*" $l "*)	;;
	*)		echo "sbs: tool=mstat leak=$l named_s=-" ;;
	esac
done
# mstat's first read: each read judged alone from the module's history
# (mstat leaks --once), the first to name each leak (tool mstat-once).
ofound=''
k=0
for f in /tmp/run/*.time; do
	[ "$n" = 0 ] && break
	k=$((k + 1))
	rm -rf /tmp/one
	mkdir /tmp/one
	cp "${f%.time}".* /tmp/one/
	for x in slab-names cgroups; do
		[ -f "/tmp/run/$x" ] && cp "/tmp/run/$x" /tmp/one/
	done
	rc=0
	./mstat leaks --once --from /tmp/one --json >/tmp/one.json 2>/dev/null || rc=$?
	[ "$rc" -le 1 ] || continue
	t=$(awk -v a="$(cat "$f")" -v b="$t0" 'BEGIN { printf "%.0f", a - b }')
	for l in $leaks; do
		case " $ofound " in *" $l "*) continue ;; esac
		if ./leaks -n "$l" /tmp/truth /tmp/one.json; then
			ofound="$ofound $l"
			echo "sbs: tool=mstat-once leak=$l named_s=$t"
		fi
	done
done
[ "$n" = 0 ] || for l in $leaks; do
	case " $ofound " in
	*" $l "*)	;;
	*)		echo "sbs: tool=mstat-once leak=$l named_s=-" ;;
	esac
done
echo "sbs: tool=mstat final $(./leaks -s /tmp/truth /tmp/mstat.json)"
check mstat-watched grep -q '"suspects"' /tmp/mstat.json
./leaks /tmp/truth /tmp/mstat.json "$(cat /tmp/mstat.rc)" >/tmp/judge 2>&1
show /tmp/judge

# The smoke's expectations of the other tool.
for e in $expect; do
	l=${e%=*}
	case " $found " in *" $l "*) got=1 ;; *) got=0 ;; esac
	check "$tool-named-$l-${e#*=}" [ "$got" = "${e#*=}" ]
done

echo stop >"$L/control"
wait "$driverpid"
kill "$busypid"
wait "$busypid" 2>/dev/null
check rmmod-leaktest rmmod mstat_leaktest
check rmmod-mstat rmmod mstat
finish
