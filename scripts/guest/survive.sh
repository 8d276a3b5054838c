# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the survival test, for every kernel of the matrix: with
# mstat loaded, a vmalloc-heavy load (module loads and unloads, large
# kvmallocs and vmallocs through the truth module) must not oops, WARN or
# lock up the kernel (the host's collect reads the console for that), and
# `mstat check` must pass on snapshots taken under it. Runs in /mstat
# with mstat.ko, mstat_truth.ko, mstat_cachetest.ko and the mstat tool.
#
# SURVIVE_OFF="API..." on the kernel command line: the bulk APIs whose
# probe must be off (probe_API 0 in /proc/mstat) with a "not counted"
# line in the log, as a build whose expected prototypes are wrong
# (-DMSTAT_CONFTEST_WRONG) must leave them; every other probe_API line
# is then not judged. Without it, the probes SURVIVE_ON names must be on
# (default: alloc_pages_bulk kmem_cache_alloc_bulk kmem_cache_free_bulk;
# 5.10 has no alloc_pages_bulk()). Either way, debugfs' internals must
# say of the bulk probes what /proc/mstat says (check_probes_agree).
# Kernels: 6.12 5.10 6.1 7.3 6.12rt 6.12cloud 7.2
set -u
. ./lib.sh

off=$(sed -n 's/.*SURVIVE_OFF="\([^"]*\)".*/\1/p' /proc/cmdline)
on=$(sed -n 's/.*SURVIVE_ON="\([^"]*\)".*/\1/p' /proc/cmdline)
: "${on:=alloc_pages_bulk kmem_cache_alloc_bulk kmem_cache_free_bulk}"
check insmod-mstat insmod ./mstat.ko
grep '^probe_' /proc/mstat | show
if [ -n "$off" ]; then
	for api in $off; do
		check "probe-$api-off" grep -qx "probe_$api 0" /proc/mstat
		check "probe-$api-logged" \
			sh -c "dmesg | grep -q 'mstat: $api() not counted'"
	done
else
	for api in $on; do
		check "probe-$api-on" grep -qx "probe_$api 1" /proc/mstat
	done
fi
check_probes_agree
# Format 1.6's sources beside the probes: SURVIVE_ABSENT="SRC..." must
# say it is absent (SRC_present 0), with a "not counted" log line, and
# count nothing under the load below; every other must be present.
absent=$(sed -n 's/.*SURVIVE_ABSENT="\([^"]*\)".*/\1/p' /proc/cmdline)
for src in vmalloc percpu; do
	case " $absent " in
	*" $src "*)
		check "source-$src-absent" grep -qx "${src}_present 0" /proc/mstat ;;
	*)	check "source-$src-present" grep -qx "${src}_present 1" /proc/mstat ;;
	esac
done

# Snapshots under load, for mstat check.
mkdir -p /tmp/snaps
snap() { cat /proc/mstat >"/tmp/snaps/$(printf '%04d' "$1")"; }

# Module loads and unloads: each vmallocs the module's image.
i=0 fails=0
while [ $i -lt 20 ]; do
	insmod ./mstat_cachetest.ko || fails=$((fails + 1))
	rmmod mstat_cachetest || fails=$((fails + 1))
	snap $i
	i=$((i + 1))
done
check insmod-rmmod-loop [ "$fails" -eq 0 ]

# Large kvmallocs and vmallocs (4,000 of each pattern, twice).
check insmod-truth insmod ./mstat_truth.ko
fails=0
for pat in kvmalloc_large vmalloc_pages kvfree_rcu_large kfree_rcu \
	   kvmalloc_large vmalloc_pages vmalloc_areas percpu; do
	echo "$pat 4000" >/sys/kernel/debug/mstat_truth/run ||
		fails=$((fails + 1))
	snap $i
	i=$((i + 1))
done
check truth-patterns-ran [ "$fails" -eq 0 ]
check rmmod-truth rmmod mstat_truth
# An absent source counted nothing, through all that.
for src in $absent; do
	check "source-$src-counted-nothing" \
		grep -qx "${src}_allocs 0" /proc/mstat
	case $src in
	percpu)	what='percpu objects not counted' ;;
	*)	what='vm_area() not counted' ;;
	esac
	check "source-$src-logged" sh -c "dmesg | grep -q 'mstat: .*$what'"
done

# shellcheck disable=SC2046 # the snapshots' names, split
if mstat_check $(find /tmp/snaps -type f | sort) >/tmp/chk 2>&1; then
	ok mstat-check-under-load
else
	show /tmp/chk
	not_ok mstat-check-under-load
fi
check rmmod-mstat rmmod mstat
check proc-mstat-gone [ ! -e /proc/mstat ]
finish
