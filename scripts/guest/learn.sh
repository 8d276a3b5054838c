# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the learning test: at its load mstat learns whether this
# kernel traces a large kmalloc twice (mstat_twice_learn(), from its own
# events of four large kmallocs), and skips the inner events' call sites
# from then on. An interrupt on the learning CPU that makes a large
# kmalloc, whose pages the next kmalloc of the learning task is then
# given, must not be taken for one of its events.
#
# First a load with no interrupt load: the sites learnt, N0. Then, with
# mstat_irqload making a large kmalloc/kfree pair every LEARN_PERIOD_US
# (5) microseconds on every CPU from an hrtimer, LEARN_LOADS (16) loads,
# each of which must
#  - learn N0 sites again, without the "traced in a way mstat does not
#    know" warning;
#  - count the interrupts' pairs against their truth (the module's own
#    count) over a second: every pair's kmalloc counted in the large class
#    (allocations at least the pairs, less one a CPU in the middle of a
#    pair at a snapshot's cut), and as many frees as allocations
#    (within LEARN_SLACK, 16, for the kernel's own large kmallocs). A site
#    learnt wrongly drops the interrupts' kmallocs and keeps their frees.
#
# LEARN_BROKEN=1 (a broken build's test: it learns from the interrupts'
# events too) turns it around: one of up to 48 loads must learn other
# than the quiet load did, the pairs not judged (that build counts both
# events of a large kmalloc anyway).
#
# On a CPU without CMPXCHG16B (--cpu=cx16=off): under this load, an
# interrupt every 5 us on each vCPU, qemu 7.2's TCG now and then resumes
# a task right after its "cmpxchg16b %gs:(%rsi)" (SLUB's per-CPU fast
# path) with impossible RFLAGS, reserved bits and TF set: a #DB splat in
# the kernel, user tasks killed by a #GP, a double fault; once while
# mstat was not loaded (scripts/guest/irqload-loop.sh counts it). Without
# the instruction the kernel takes its emulation (this_cpu_cmpxchg16b_emu),
# which the test does not care about.
# Guest: --cpu=cx16=off
# Run: check guest-6.12-learn
# Run: check guest-6.12-learn-broken build=6.12-broken --append=LEARN_BROKEN=1
set -u
. ./lib.sh

broken=${LEARN_BROKEN:-0}
loads=${LEARN_LOADS:-16}
[ "$broken" = 1 ] && loads=48
period=${LEARN_PERIOD_US:-5}
slack=${LEARN_SLACK:-16}
P=/sys/module/mstat_irqload/parameters
ncpus=$(grep -c '^processor' /proc/cpuinfo)

# sites: what the loaded mstat learnt.
sites() { awk '$1 == "kmalloc_twice_sites" { print $2 }' $D/internals; }

# large: "allocs frees" of the kmalloc source's large class.
large() { awk '$1 == "kmalloc_class" && $2 == "large" { print $3, $4 }' /proc/mstat; }

# unknown: whether the last load warned that it could not learn.
unknown() { dmesg | grep -c 'traced in a way mstat does not know'; }

# Booted without it in make check (scripts/check.sh, 3c, says why).
if grep -qw cx16 /proc/cpuinfo; then
	diag "this CPU has cmpxchg16b"
else
	diag "this CPU has no cmpxchg16b"
fi

check insmod-mstat-quiet insmod ./mstat.ko
n0=$(sites)
diag "quiet load: kmalloc_twice_sites $n0"
if [ -n "$n0" ] && [ "$(unknown)" -eq 0 ]; then
	ok learnt-quiet
else
	not_ok "learnt-quiet: kmalloc_twice_sites '$n0', $(unknown) warnings"
fi
check rmmod-mstat-quiet rmmod mstat

check insmod-irqload insmod ./mstat_irqload.ko period_us="$period"
i=1
while [ "$i" -le "$loads" ]; do
	warned=$(unknown)
	if ! insmod ./mstat.ko; then
		not_ok "load-$i: insmod"
		break
	fi
	n=$(sites)
	if [ "$broken" = 1 ]; then
		if [ "$n" != "$n0" ] || [ "$(unknown)" -ne "$warned" ]; then
			ok "broken-learning-caught-at-load-$i"
			rmmod mstat
			break
		fi
		rmmod mstat || { not_ok "load-$i: rmmod"; break; }
		[ "$i" -eq "$loads" ] &&
			not_ok "broken-learning-caught: $loads loads learnt as the quiet one"
		i=$((i + 1))
		continue
	fi
	if [ "$n" = "$n0" ] && [ "$(unknown)" -eq "$warned" ]; then
		ok "load-$i-learnt-as-quiet"
	else
		not_ok "load-$i-learnt-as-quiet: kmalloc_twice_sites $n, quiet $n0; warnings $(($(unknown) - warned))"
		dmesg | grep 'large kmalloc' | tail -n 6 >/tmp/learnt
		show /tmp/learnt
	fi
	# The truth's window inside mstat's: a pair counted in done was
	# counted by mstat between the two snapshots, but for the one each
	# CPU may be in the middle of at a snapshot's cut.
	large >/tmp/large0
	d0=$(cat $P/done)
	sleep 1
	d1=$(cat $P/done)
	large >/tmp/large1
	read -r a0 f0 </tmp/large0
	read -r a1 f1 </tmp/large1
	da=$((a1 - a0)) df=$((f1 - f0)) dd=$((d1 - d0))
	diag "load $i: irq pairs $dd; large class allocs $da frees $df"
	if [ "$dd" -gt 0 ] && [ $((da + ncpus)) -ge "$dd" ] &&
	   [ $((da - df)) -le "$slack" ] && [ $((df - da)) -le "$slack" ]; then
		ok "load-$i-irq-pairs-counted"
	else
		not_ok "load-$i-irq-pairs-counted: $dd pairs; allocs $da, frees $df"
	fi
	rmmod mstat || { not_ok "load-$i: rmmod"; break; }
	i=$((i + 1))
done
check rmmod-irqload rmmod mstat_irqload
finish
