# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# shellcheck disable=SC3043 # busybox ash has "local"
# Guest side of the side-by-side cost bench (scripts/sidebyside.sh, make
# bench): what each leak tool costs, under qemu -icount
# shift=0,sleep=off with one vCPU (scripts/guest.sh --icount on --smp
# 1): a guest nanosecond is one instruction. Per variant, in one round:
#
#	pair		instructions per kmalloc+kfree pair (mstat_probe_bench
#			mode=none, 200,000 pairs of 8..240 B)
#	hackbench	rt-tests' hackbench, COST_HB (default "-g 2 -l 50":
#			2 groups of 20 tasks over Unix sockets)
#	iperf3		iperf3 over loopback for COST_IPERF guest seconds
#			(default 2: 2e9 instructions), from a client to the
#			server started at boot: the instructions from the
#			client's start to its end per MiB the server
#			received (iperf3 -J's sum_received; with -n the
#			client of 3.18 does not end here)
#	filetree	COST_FILES (default 1000) files made in 40
#			directories of tmpfs, the tree archived with tar,
#			removed, extracted, listed, removed
#
# each workload's figure the instructions from its start to its end
# (./nsrun; a guest that idles jumps its clock to its next timer, so
# idle time counts too, the same in every variant). Variants
# (COST_VARIANTS):
#
#	none		nothing loaded (allocinfo off, where the kernel has
#			it: sysctl vm.mem_profiling=0)
#	mstat		mstat by default (profile_rate 524288)
#	mstat-hunt	mstat at profile_rate=65536, the README's hunting rate
#	mstat-nopage	mstat by default but its page source (enable_page=0)
#	mstat-noprofile	mstat by default but its profile (profile_rate=0)
#	mstat-pages	mstat by default and its page samples (profile_pages=1)
#	mstat-site	mstat by default but each sample's call site alone
#			(profile_depth=1): against mstat, what unwinding the
#			samples' stacks costs
#	base		mstat by default, the baseline build (./mstat_base.ko,
#			as icount-bench.sh's): a change's cost against its
#			parent's in the same rounds
#	empty		mstat's floor: the same tracepoints and kprobes, each
#			probe returning at once (./mstat-empty.ko, built with
#			KCFLAGS=-DMSTAT_EMPTY_PROBES=1: mstat_mutant.h)
#	bare		the design's floor for the cache events: each counted
#			by a write section and its cache's row alone, the
#			other sources as mstat's, the profile off
#			(./mstat-bare.ko, built with KCFLAGS=-DMSTAT_BARE_CACHE=1:
#			mstat_mutant.h)
#	memleak		libbpf-tools' memleak (trixie's memleak-libbpf,
#			kernel mode, from the bench root in /mstat/root) as
#			it runs by default: its top 10 stacks reported every
#			5 s (its output to a file is buffered: its first
#			"Tracing" line, which says it attached, comes out
#			with the first report's)
#	allocinfo	/proc/allocinfo's accounting on (vm.mem_profiling=1)
#
# A warm-up round first (run=0), discarded, then COST_RUNS (default 3) rounds,
# the variants interleaved, each round's order rotated one place. Prints, per round and variant,
#	cost: boot=B run=N variant=V pair=X hackbench=NS iperf3=PER_MIB filetree=NS
# B the boot's label (COST_BOOT, default "-"); on a kernel with kmemleak
# on, its scan thread stopped first, and after the rounds one forced
# scan's instructions and kmemleak's objects then (its kmemleak_object
# slab, in /proc/slabinfo):
#	cost: boot=B kmemleak_scan_insns=N objects=N
# A variant's workload that fails is a failed check, and its figure "-".
set -u
. ./lib.sh

variants=$(sed -n 's/.*COST_VARIANTS="\([^"]*\)".*/\1/p' /proc/cmdline)
hb=$(sed -n 's/.*COST_HB="\([^"]*\)".*/\1/p' /proc/cmdline)
runs=$(arg COST_RUNS)
boot=$(arg COST_BOOT)
iperf=$(arg COST_IPERF)
files=$(arg COST_FILES)
: "${variants:=none mstat}" "${hb:=-g 2 -l 50}" "${runs:=3}" "${boot:=-}"
: "${iperf:=2}" "${files:=1000}"
P=/proc/sys/vm/mem_profiling
LIB=/mstat/root/usr/lib/x86_64-linux-gnu
LD=$LIB/ld-linux-x86-64.so.2
diag "boot $boot, variants $variants, $runs rounds; hackbench $hb, iperf3 $iperf s, $files files"

ip link set lo up || not_ok "lo-up"
# kmemleak's thread would scan 60 s after boot, 6e10 instructions here,
# inside the rounds: stopped; one forced scan measured after them.
K=/sys/kernel/debug/kmemleak
kml=0
[ -w $K ] && echo scan=off >$K 2>/dev/null && kml=1
# shellcheck disable=SC2086 # its options, split
"$LD" --library-path "$LIB" /mstat/root/usr/bin/iperf3 -s -D ||
	not_ok "iperf3-server"
cat >/tmp/filetree.sh <<EOF
set -e
cd /tmp
mkdir ft
d=0
while [ \$d -lt 40 ]; do
	mkdir ft/d\$d
	d=\$((d + 1))
done
i=0
while [ \$i -lt $files ]; do
	echo "file \$i of the tree" >ft/d\$((i % 40))/f\$i
	i=\$((i + 1))
done
tar -cf ft.tar ft
rm -rf ft
tar -xf ft.tar
ls -lR ft >/dev/null
rm -rf ft ft.tar
EOF
sleep 1

profiling() {
	[ -f $P ] || return 0
	[ "$(cat $P)" = "$1" ] && return 0
	echo "$1" >$P
}

mlpid=
memleak_on() {
	local i=0
	"$LD" --library-path "$LIB" /mstat/root/usr/sbin/memleak-libbpf \
		>/tmp/memleak.out 2>&1 &
	mlpid=$!
	while [ "$i" -lt 600 ] && ! grep -q '^Tracing' /tmp/memleak.out; do
		kill -0 "$mlpid" 2>/dev/null || break
		sleep 1
		i=$((i + 1))
	done
	grep -q '^Tracing' /tmp/memleak.out && return 0
	show /tmp/memleak.out
	return 1
}

memleak_off() {
	kill -INT "$mlpid"
	wait "$mlpid" 2>/dev/null
	mlpid=
}

pair() {
	insmod ./mstat_probe_bench.ko mode=none || return 1
	rmmod mstat_probe_bench
	dmesg | sed -n 's/.*mstat_probe_bench: mode=[a-z]* loop=[a-z]* pairs=[0-9]* ns_per_pair=\([0-9]*\).*/\1/p' | tail -n 1
}

# measure: the four figures, "-" for one that failed.
measure() {
	local p h i f
	p=$(pair) || p=-
	# shellcheck disable=SC2086 # its options, split
	h=$(./nsrun "$LD" --library-path "$LIB" /mstat/root/usr/bin/hackbench $hb) || h=-
	i=$(./nsrun /bin/sh -c "$LD --library-path $LIB \
		/mstat/root/usr/bin/iperf3 -c 127.0.0.1 -t $iperf -i 0 -J \
		>/tmp/iperf.json") && i=$(awk -v ns="$i" '
		/"sum_received"/ { f = 1 }
		f && /"bytes"/ {
			gsub(/[^0-9]/, "")
			if ($0 > 0)
				printf "%.0f", ns * 1048576 / $0
			exit
		}' /tmp/iperf.json) && [ -n "$i" ] || i=-
	f=$(./nsrun /bin/sh /tmp/filetree.sh) || f=-
	echo "pair=${p:--} hackbench=$h iperf3=$i filetree=$f"
}

variant() {
	local v="$1" run="$2" x ok=1
	case $v in
	none)		profiling 0 ;;
	mstat)		profiling 0; insmod ./mstat.ko || ok=0 ;;
	mstat-hunt)	profiling 0; insmod ./mstat.ko profile_rate=65536 || ok=0 ;;
	mstat-nopage)	profiling 0; insmod ./mstat.ko enable_page=0 || ok=0 ;;
	mstat-noprofile)
			profiling 0; insmod ./mstat.ko profile_rate=0 || ok=0 ;;
	mstat-pages)	profiling 0; insmod ./mstat.ko profile_pages=1 || ok=0 ;;
	mstat-site)	profiling 0; insmod ./mstat.ko profile_depth=1 || ok=0 ;;
	base)		profiling 0; insmod ./mstat_base.ko || ok=0 ;;
	empty)		profiling 0; insmod ./mstat-empty.ko || ok=0 ;;
	bare)		profiling 0
			insmod ./mstat-bare.ko profile_rate=0 || ok=0 ;;
	memleak)	profiling 0; memleak_on || ok=0 ;;
	allocinfo)	[ -f $P ] && profiling 1 || ok=0 ;;
	*)		not_ok "variant-$v: no such variant"; return ;;
	esac
	if [ "$ok" = 0 ]; then
		not_ok "variant-$v-set-up: round $run"
		return
	fi
	x=$(measure)
	case $v in
	mstat*|empty|bare|base)	rmmod mstat ;;
	memleak)		memleak_off ;;
	esac
	# What an unload or an exit left to free runs now, not in the next
	# variant's figures (memleak's maps: a "none" pair of 336 against
	# 254 after it); an idle guest's clock jumps, free.
	sleep 5
	case $x in
	*=-*)	not_ok "variant-$v-measured: round $run: $x" ;;
	esac
	echo "cost: boot=$boot run=$run variant=$v $x"
}

for v in $variants; do
	variant "$v" 0
done
# Round N runs the variants rotated by N - 1 places, so that no variant
# always follows the same one (its unload, the dentries and pages it left
# behind): with as many rounds as variants, each takes every place once.
run=1
while [ "$run" -le "$runs" ]; do
	# shellcheck disable=SC2086 # the variants, split
	set -- $variants
	i=1
	while [ "$i" -lt "$run" ] && [ $# -gt 1 ]; do
		first=$1
		shift
		set -- "$@" "$first"
		i=$((i + 1))
	done
	for v in "$@"; do
		variant "$v" "$run"
	done
	run=$((run + 1))
done
if [ "$kml" = 1 ]; then
	x=$(./nsrun /bin/sh -c "echo scan >$K") || x=-
	echo "cost: boot=$boot kmemleak_scan_insns=$x objects=$(sed -n 's/^kmemleak_object *\([0-9]*\) .*/\1/p' /proc/slabinfo)"
fi
ok cost-rounds
finish
