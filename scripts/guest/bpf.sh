# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC3043 # busybox ash has "local"
# Guest side of the eBPF comparison's check (make check, guest-6.12-bpf):
# the programs of tests/bpf/ and their loader mstat-bpf, so that they
# cannot rot. The JIT is on; each set (counters, sized) loads, attaches,
# counts every event of a known loop of BPF_PAIRS kmalloc/kfree pairs
# (mstat_probe_bench, 8..240 B: each class at least its share of them,
# bytes = allocs * class size), detaches and leaves no program loaded;
# the torn-read reader runs and reports under mstat_xload's load. The
# figures themselves are make bench's (scripts/guest/icount-bench.sh,
# scripts/guest/torn.sh).
# Run: check guest-6.12-bpf --timeout=300
set -u
. ./lib.sh

pairs=$(sed -n 's/.*BPF_PAIRS=\([0-9]*\).*/\1/p' /proc/cmdline)
pairs=${pairs:-30000}

# bpf_start SET ARGS...: mstat-bpf SET ARGS... in the background, its
# output in /tmp/bpf.SET, its pid in $bpf_pid; fails if it does not say
# it is attached within 60 s.
bpf_start() {
	local set="$1" i=0
	shift
	rm -f /tmp/bpf.ready
	./mstat-bpf "$set" -r /tmp/bpf.ready "$@" >"/tmp/bpf.$set" 2>&1 &
	bpf_pid=$!
	while [ ! -f /tmp/bpf.ready ] && [ $i -lt 600 ]; do
		kill -0 "$bpf_pid" 2>/dev/null || break
		usleep 100000
		i=$((i + 1))
	done
	[ -f /tmp/bpf.ready ]
}

# bpf_stop SET: SIGTERM, then its exit status; its output as diagnostics.
bpf_stop() {
	local rc=0
	kill -TERM "$bpf_pid"
	wait "$bpf_pid" || rc=$?
	show "/tmp/bpf.$1"
	return "$rc"
}

# field NAME FILE: NAME=VALUE of the summary line "bpf: set=...".
field() {
	sed -n "s/^bpf: set=.* $1=\([0-9]*\).*/\1/p" "$2" | tail -n 1
}

# classes SET: every class the loop's sizes fall in has at least its
# share of the loop (sizes 8 + 8k, k = 0..29: per 30 pairs, class 8 gets
# 1, 16 1, 32 2, 64 4, 96 4, 128 4, 192 8, 256 6), in allocs and, for the
# sized set, in frees; and bytes = allocs * size (bytes_freed = frees *
# size) in every class below "large".
classes() {
	awk -v n="$pairs" -v sized="$([ "$1" = sized ] && echo 1)" '
	BEGIN {
		split("8 16 32 64 96 128 192 256 512 1k 2k 4k 8k", name, " ")
		split("8 16 32 64 96 128 192 256 512 1024 2048 4096 8192", size, " ")
		split("1 1 2 4 4 4 8 6", share, " ")
		for (i = 1; i <= 13; i++) { sz[name[i]] = size[i]; want[name[i]] = 0 }
		for (i = 1; i <= 8; i++) want[name[i]] = int(n / 30) * share[i]
		bad = 0
	}
	/^bpf: class=/ {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		c = f["class"]
		seen[c] = 1
		if (f["allocs"] < want[c] || (sized && f["frees"] < want[c])) {
			print "# class " c ": allocs " f["allocs"] " frees " f["frees"] ", want " want[c]; bad = 1
		}
		if ((c in sz) && (f["bytes"] != f["allocs"] * sz[c] ||
				  f["bytes_freed"] != (sized ? f["frees"] * sz[c] : 0))) {
			print "# class " c ": bytes " f["bytes"] " bytes_freed " f["bytes_freed"] " for " f["allocs"] " allocs, " f["frees"] " frees"; bad = 1
		}
	}
	END {
		for (i = 1; i <= 8; i++)
			if (!(name[i] in seen)) { print "# class " name[i] ": no line"; bad = 1 }
		exit bad
	}' "/tmp/bpf.$1"
}

jit=$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null)
diag "bpf_jit_enable=${jit:-none}"
check bpf-jit-on [ "$jit" = 1 ]

for set in counters sized; do
	if ! bpf_start $set; then
		not_ok "bpf-$set-attach"
		show "/tmp/bpf.$set"
		continue
	fi
	ok "bpf-$set-attach"
	grep '^bpf: prog=.* jited_bytes=' "/tmp/bpf.$set" | show
	check "bpf-$set-loop" insmod ./mstat_probe_bench.ko mode=none pairs="$pairs"
	rmmod mstat_probe_bench
	check "bpf-$set-detach" bpf_stop $set
	check "bpf-$set-detached" grep -q "^bpf: set=$set detached" "/tmp/bpf.$set"
	allocs=$(field allocs "/tmp/bpf.$set")
	frees=$(field frees "/tmp/bpf.$set")
	unsized=$(field unsized_frees "/tmp/bpf.$set")
	misses=$(field recursion_misses "/tmp/bpf.$set")
	# The sized set sizes the loop's frees: they are not unsized.
	[ $set = sized ] && frees=$((${frees:-0} - ${unsized:-0}))
	diag "$set: pairs=$pairs allocs=$allocs frees=$frees recursion_misses=$misses"
	check "bpf-$set-counted-allocs" [ "${allocs:-0}" -ge "$pairs" ]
	check "bpf-$set-counted-frees" [ "${frees:-0}" -ge "$pairs" ]
	check "bpf-$set-recursion-misses-read" [ -n "$misses" ]
	check "bpf-$set-classes" classes $set
done

# The torn-read reader, briefly, under cross-CPU load: it must run and
# report; what it finds is make bench's (scripts/guest/torn.sh).
if bpf_start sized -t 100 -c 1; then
	insmod ./mstat_xload.ko
	kill -USR1 "$bpf_pid"
	i=0
	while ! grep -q '^torn: ' /tmp/bpf.sized && [ $i -lt 600 ]; do
		usleep 100000
		i=$((i + 1))
	done
	rmmod mstat_xload
	check bpf-torn-detach bpf_stop sized
	check bpf-torn-reported grep -q '^torn: set=sized reads=100 torn_reads=[0-9]' /tmp/bpf.sized
	dmesg | grep 'mstat_xload: pairs=' | show
else
	not_ok bpf-torn-attach
	show /tmp/bpf.sized
fi
finish
