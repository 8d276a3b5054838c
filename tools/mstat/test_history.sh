# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2154,SC2015 # tmp and the helpers are test.sh's; A && B || fail
# mstat leaks from the module's history (/proc/mstat_sites 2.4): the
# verdict of one read, each later read's, the watch on a terminal, its
# end by SIGINT and by --until-sure. The histories are simulated by
# testdata/leaks-gen.awk (hist=1: the module loaded when the patterns
# start, history_ms and counts_ms from then), every object sampled as the
# module samples it, so each has a known truth. Sourced by test.sh, which
# runs history_tests.

# 30 minutes of history before the first read: leaks of 8, 4 and 2 KiB/s,
# one from a softirq, one in a cache of its own (as a merged cache's);
# decoys running since the load: objects allocated then and kept, a cache
# filled early then stable, a cache warming toward a bound, a sawtooth,
# objects of a finite lifetime, a workload started 10 minutes before the
# read that levels off, a bounded cache that replaces its oldest, a load
# that rises and falls, short-lived churn.
hist_leaks='l8 leak size=256 rate=32 cache=kmalloc-256 cgroup=4001 fn=leak_lost
l4 leak size=256 rate=16 cache=mstat_leak_list fn=leak_list
l2 leak size=256 rate=8 cache=kmalloc-256 fn=leak_slow
irq leak size=128 rate=32 cache=kmalloc-128 cgroup=softirq fn=leak_softirq irq=soft split=4
mrg leak size=200 rate=20 cache=mstat_leak_host fn=leak_merged'
hist_decoys='keep leak size=512 rate=400 cache=kmalloc-512 fn=decoy_boot until=-1790
early leak size=192 rate=100 cache=mstat_decoy_early fn=decoy_early from=-1700 until=-1500
warm fill size=192 rate=200 cache=bg_dentry tau=300 fn=decoy_warm
saw sawtooth size=512 rate=50 cache=kmalloc-512 period=120 fn=decoy_saw
long life size=1024 rate=5 cache=kmalloc-1k life=180 fn=decoy_long
late life size=1024 rate=10 cache=kmalloc-1k life=120 fn=decoy_late from=-600
plat plateau size=128 rate=30 cache=mstat_decoy_plateau cap=3000 fn=decoy_plateau
rf risefall size=256 cache=kmalloc-256 cap=5000 period=120 fn=decoy_risefall
bg churn size=64 rate=50 cache=kmalloc-64 life=30 fn=bg_churn jitter=0.5'
# The truth, as leaks_judge reads it: each leak's stack, its true rate,
# cache and cgroup.
hist_truth='stack leak_lost 8192 kmalloc-256 id:4001
stack leak_list 4096 mstat_leak_list -
stack leak_slow 2048 kmalloc-256 -
stack leak_softirq 4096 kmalloc-128 softirq
stack leak_merged 4000 mstat_leak_host -'

# hist_gen DIR [VAR=VALUE...]: a replay of the spec above, one read (D=0)
# after 30 minutes (warm=1800) at the default rate unless told.
hist_gen() {
	local dir=$1

	shift
	leaks_gen "$dir" "$hist_leaks
$hist_decoys" D=0 warm=1800 R=524288 hist=1 "$@"
}

# hist_once R: $tmp/hist-R.json, the one-read verdict of the history at
# rate R, made if missing (a test run alone: MSTAT_TEST_ONLY); and the
# truth file.
hist_once() {
	printf '%s\n' "$hist_truth" >"$tmp/hist.truth"
	[ -s "$tmp/hist-$1.json" ] && return
	hist_gen "$tmp/hist-$1" R="$1" &&
		{ build/mstat leaks --once --json --from "$tmp/hist-$1" >"$tmp/hist-$1.json"
		  [ $? -le 1 ]; }
}

# One read of the history at the default rate and at the hunting rate
# (64 KiB): every leak named, its interval holding its rate, no decoy;
# exit 1. The decoys' stacks that would have enough samples are said not
# to grow now, and why.
history_once() {
	local r rc

	printf '%s\n' "$hist_truth" >"$tmp/hist.truth"
	for r in 524288 65536; do
		hist_gen "$tmp/hist-$r" R=$r || return
		build/mstat leaks --once --json --from "$tmp/hist-$r" >"$tmp/hist-$r.json"
		rc=$?
		cat "$tmp/hist-$r.json"
		echo "R=$r: exit $rc (want 1)"
		[ "$rc" -eq 1 ] && leaks_judge "$tmp/hist-$r.json" "$tmp/hist.truth" &&
			grep -q '"history_s": 1800.0' "$tmp/hist-$r.json" || return
	done
	grep -q '"site": "decoy_boot+0x1a/0x40 \[mstat_leakgen\]", "cache": "kmalloc-512", "samples": [0-9]*, "why": "stopped' \
		"$tmp/hist-524288.json" &&
		grep -q '"site": "decoy_warm+0x1a/0x40 \[mstat_leakgen\]", "cache": "bg_dentry", "samples": [0-9]*, "why": "slowing' \
			"$tmp/hist-524288.json" &&
		build/mstat leaks --once --from "$tmp/hist-524288" >"$tmp/hist-once.txt"
	rc=$?
	cat "$tmp/hist-once.txt"
	[ "$rc" -eq 1 ] &&
		grep -qx "judged from the profile's history of 1800 s (since mstat's load, its rate's last change, a reset or dropped entries)" \
			"$tmp/hist-once.txt" &&
		grep -q '^  rate .* from [0-9]* samples, began [0-9]* s ago or before, no sampled free$' \
			"$tmp/hist-once.txt"
}

# The same judge fails on a tampered truth (a rate four times its own, a
# leak renamed), and the naive detector (every live sample a leak's, no
# churn horizon, no test of the births' shape: build/mstat-leaks-weak)
# calls decoys leaks in the same history.
history_catches() {
	local rc

	hist_once 524288 && hist_once 65536 || return
	sed 's/^stack leak_lost 8192/stack leak_lost 32768/' "$tmp/hist.truth" >"$tmp/hist-t1.truth"
	sed 's/^stack leak_slow /stack leak_slaw /' "$tmp/hist.truth" >"$tmp/hist-t2.truth"
	! leaks_judge "$tmp/hist-524288.json" "$tmp/hist-t1.truth" &&
		! leaks_judge "$tmp/hist-524288.json" "$tmp/hist-t2.truth" || return
	build/mstat-leaks-weak leaks --once --json --from "$tmp/hist-65536" >"$tmp/hist-weak.json"
	rc=$?
	grep -o '"site": "decoy_[a-z]*' "$tmp/hist-weak.json" | sort -u
	echo "weak: exit $rc (want 1)"
	[ "$rc" -eq 1 ] && ! leaks_judge "$tmp/hist-weak.json" "$tmp/hist.truth" &&
		[ "$(grep -c '"kind": "stack", "site": "decoy_' "$tmp/hist-weak.json")" -ge 3 ]
}

# The error rates over histories of their own (seeds 1 to N: N is
# $MSTAT_HISTORY_SEEDS, default 12; make soak runs 60), one read each at
# the default rate, at confidence 0.99: each leak's share of histories
# naming it, the share of those whose interval holds its rate, and each
# decoy's share naming it. The bounds: no decoy named in more than 1 of
# 12 (its tests are at 1 - 0.99 a decoy); the intervals, at 0.99, hold
# the rates in 95% at least of all the namings; the leaks of 4 KiB/s and more named in
# every history but one in 12, the 2 KiB/s one (7 samples expected) in
# 2 of 3 (its Poisson count is 4 or more in 0.92).
history_rates() {
	local n=${MSTAT_HISTORY_SEEDS:-12} s files=()

	for s in $(seq 1 "$n"); do
		files+=("$tmp/hist-s$s.json")
		hist_gen "$tmp/hist-s$s" seed="$s" &&
			build/mstat leaks --once --json --from "$tmp/hist-s$s" >"$tmp/hist-s$s.json"
		[ $? -le 1 ] || return
	done
	printf '%s\n' "$hist_truth" |
		awk -v n="$n" -v dir="$tmp" '
		NR == FNR { t[$2] = $3; next }
		FNR == 1 { in_s = 0 }
		/"suspects": \[/ { in_s = 1 }
		/"unexplained": \[/ { in_s = 0 }
		in_s && /"kind": "stack", "site": "/ { s = $0; sub(/.*"site": "/, "", s); sub(/\+.*/, "", s); named[s]++; cur = s }
		/"rate_low_bps": / && cur != "" {
			lo = $0; sub(/.*"rate_low_bps": /, "", lo); sub(/,.*/, "", lo)
			hi = $0; sub(/.*"rate_high_bps": /, "", hi); sub(/[,}].*/, "", hi)
			if (cur in t) { k[cur]++; if (t[cur] >= lo + 0 && t[cur] <= hi + 0) held[cur]++ }
			cur = ""
		}
		END {
			for (s in t) {
				printf "leak %s: named in %d of %d, its interval holding %d\n", s, named[s], n, held[s]
				if (s == "leak_slow" ? named[s] * 3 < 2 * n : named[s] < n - n / 12) bad++
				namings += k[s]; holds += held[s]
			}
			for (s in named) if (!(s in t)) {
				printf "decoy %s: named in %d of %d\n", s, named[s], n
				if (named[s] > n / 12) bad++
			}
			printf "intervals holding the truth: %d of %d\n", holds, namings
			if (holds < 0.95 * namings) bad++
			exit bad > 0
		}' - "${files[@]}"
}

# A leak on the error path of a busy allocation: 2 KiB/s of a stack
# that also allocates and frees 10 KiB/s, objects living 2 s, beside a
# churn of its own, 30 minutes at 64 KiB (seeds 1 to 3). The churn's
# horizon counts the samples younger than itself (mstat_leak_churn()):
# counting all the stack's live samples, the leak's own among them, it
# was 761 s on seed 1, and the leak, whose samples younger than that
# were then taken for churn, was named in 12 of 60 simulated histories
# at the default rate, against 41 of 60 now (docs/RESULTS.md, "The
# churn's horizon"); here under a minute, and the leak named, its
# interval holding its rate, nothing else.
history_errpath() {
	local s h spec='err leak size=256 rate=8 cache=kmalloc-256 cgroup=4002 fn=leak_errpath
errc churn size=256 rate=40 life=2 cache=kmalloc-256 cgroup=4003 fn=leak_errpath
bg churn size=64 rate=50 cache=kmalloc-64 life=30 fn=bg_churn jitter=0.5'

	echo "stack leak_errpath 2048 kmalloc-256 id:4002" >"$tmp/errpath.truth"
	for s in 1 2 3; do
		leaks_gen "$tmp/errpath-$s" "$spec" D=0 warm=1800 R=65536 hist=1 seed=$s &&
			build/mstat leaks --once --json --from "$tmp/errpath-$s" >"$tmp/errpath-$s.json"
		[ $? -eq 1 ] || return
		h=$(grep -A8 '"site": "leak_errpath' "$tmp/errpath-$s.json" |
			sed -n 's/.*"churn_horizon_s": \([0-9.]*\).*/\1/p' | head -n 1)
		echo "seed $s: churn horizon ${h:-none} s"
		[ -n "$h" ] && awk -v h="$h" 'BEGIN { exit !(h < 60) }' &&
			leaks_judge "$tmp/errpath-$s.json" "$tmp/errpath.truth" || return
	done
}

# A watch after the history (reads every 10 s for 140 s): each read
# judged from the whole history, the leaks still named with their rates,
# no decoy; the exact counts judged too.
history_watch() {
	local rc f

	hist_gen "$tmp/hist-w" D=140 I=10 R=65536 || return
	build/mstat leaks --json --from "$tmp/hist-w" >"$tmp/hist-w.json"
	rc=$?
	echo "exit $rc (want 1)"
	grep -E '"(site|cache)": |"history_s"|"judged"' "$tmp/hist-w.json"
	sed -n '/"suspects": /,/"unexplained": /p' "$tmp/hist-w.json" >"$tmp/hist-w.suspects"
	[ "$rc" -eq 1 ] && grep -q '"history_s": 1940.0' "$tmp/hist-w.json" &&
		grep -q '"judged": true' "$tmp/hist-w.json" &&
		! grep -q '"kind": "stack", "site": "decoy_' "$tmp/hist-w.suspects" || return
	for f in leak_lost leak_list leak_slow leak_softirq leak_merged; do
		grep -q "\"kind\": \"stack\", \"site\": \"$f+" "$tmp/hist-w.suspects" || return
	done
}

# The module could no longer vouch for the ages before a moment (entries
# dropped: a source switched, missed frees): its history restarts there,
# 600 s before the read, and the verdict judges those 600 s alone: no
# suspect began before them. The dropped samples count as their stacks'
# frees (README's addr_phantoms), and from format 2.5 in their rows'
# drops, which the churn's horizon (leaks.c) leaves out: the five leaks,
# which never free, are named from those 600 s. From 2.4 (nodrops=1, a
# module before 2.5) the leaks' stacks look as if they freed, their
# churn's horizon too long for 600 s to judge them.
history_restart() {
	local rc f v nd

	for v in 2.5 2.4; do
		nd=0
		[ "$v" = 2.5 ] || nd=1
		hist_gen "$tmp/hist-r" R=65536 forget=-600 nodrops=$nd || return
		head -n 3 "$tmp/hist-r/0000.sites"
		build/mstat leaks --once --json --from "$tmp/hist-r" >"$tmp/hist-r.json"
		rc=$?
		grep -E '"(site|cache)": |"history_s"|"oldest_s"' "$tmp/hist-r.json"
		echo "$v: exit $rc (want 1 from 2.5; 0, 1 or 3 from 2.4)"
		grep -q "^mstat_sites - version: $v\$" "$tmp/hist-r/0000.sites" &&
			[ "$rc" -ne 2 ] && grep -Eq '"history_s": (599\.9|600\.0),' "$tmp/hist-r.json" &&
			! grep -Eq '"oldest_s": (6[0-9][1-9]|[7-9][0-9][0-9]|[0-9]{4,})' "$tmp/hist-r.json" &&
			grep -q '"oldest_s": [1-9]' "$tmp/hist-r.json" || return
		[ "$v" = 2.4 ] && continue
		[ "$rc" -eq 1 ] || return
		for f in leak_lost leak_list leak_slow leak_softirq leak_merged; do
			grep -q "\"kind\": \"stack\", \"site\": \"$f+" "$tmp/hist-r.json" ||
				return
		done
	done
}

# On a terminal (script(1)'s pty) the watch redraws, after each read,
# where it is and the suspects so far; SIGINT (Ctrl-C) after the third
# read ends it with the verdict of the reads taken: exit 1, the leaks.
history_tty() {
	local o=$tmp/hist-tty

	hist_gen "$tmp/hist-t" D=140 I=10 R=65536 || return
	rm -f "$o.out" "$o.rc" "$o.pid"
	# shellcheck disable=SC2016 # $r is hist_live's
	hist_live "$tmp/hist-t" "$o" 'grep -q "read $((r + 1)) of 15" '"$o.out"' 2>/dev/null' 3 \
		script -qfec "sh -c 'echo \$\$ >$o.pid; exec build/mstat leaks -d 140 -i 10'" \
		"$o.out" >/dev/null || return
	sed 's/\x1b\[H\x1b\[2J/\n<clear>\n/g' "$o.out" | tr -d '\r'
	echo "exit $(cat "$o.rc") (want 0: script's own)"
	[ "$(grep -c 'Ctrl-C ends the watch with the verdict so far' "$o.out")" -eq 3 ] &&
		grep -q '^stack  *[0-9.]* KiB  [0-9.]* KiB - [0-9.]* KiB  *[0-9]*  *[0-9]* s  leak_slow+' "$o.out" &&
		grep -q 'interrupted after 3 of 15 reads: the verdict so far' "$o.out" &&
		grep -q '^LEAK stack leak_slow+' "$o.out" &&
		! grep -q '^LEAK stack decoy_' "$o.out"
}

# --until-sure: the suspects the same three reads in a row, each with
# enough for the exact counts to judge (14 reads at 0.99): the watch of
# 61 reads ends at the 16th, saved, with its verdict.
history_until_sure() {
	local o=$tmp/hist-us n

	hist_gen "$tmp/hist-u" D=200 I=10 R=65536 || return
	rm -rf "$o" "$o.rc" "$o.pid"
	# shellcheck disable=SC2016 # $r is hist_live's
	hist_live "$tmp/hist-u" "$o" '[ -s '"$o"'/$(printf %04d $r).time ]' 20 \
		build/mstat leaks -d 600 -i 10 --until-sure --save "$o" >"$o.txt" || return
	cat "$o.txt"
	n=$(find "$o" -name '*.time' | wc -l)
	echo "exit $(cat "$o.rc") (want 1); $n reads saved (want 16)"
	[ "$(cat "$o.rc")" -eq 1 ] && [ "$n" -eq 16 ] &&
		grep -q '^mstat leaks: 16 reads over 150 s' "$o.txt" &&
		grep -q '^LEAK stack leak_lost+' "$o.txt"
}

# One read for scripts and Prometheus: --once --prom writes the stacks'
# series of the history's verdict (the five leaks, no decoy), and mstat
# serve adds them to every snapshot's /metrics with the history's
# length, from a sites file of 2.4; of an older one, none.
history_prom() {
	local m rc

	hist_once 65536 || return
	build/mstat leaks --once --prom -o "$tmp/hist.prom" --from "$tmp/hist-65536" || return
	grep -c '^mstat_leak_stack_suspect{' "$tmp/hist.prom"
	[ "$(grep -c '^mstat_leak_stack_suspect{' "$tmp/hist.prom")" -eq 5 ] &&
		! grep -q '^mstat_leak_stack_suspect{site="decoy_' "$tmp/hist.prom" || return
	serve_start "$tmp/hist-serve.err" -f "$tmp/hist-65536/0000.mstat" \
		--sites "$tmp/hist-65536/0000.sites" || return
	m=$(curl -sf "http://127.0.0.1:$serve_port/metrics")
	rc=$?
	serve_stop
	[ "$rc" -eq 0 ] || return
	printf '%s\n' "$m" | grep -E '^mstat_leaks_history_seconds|^mstat_leak_stack_suspect\{' | sed 's/,.*//'
	printf '%s\n' "$m" | grep -qx 'mstat_leaks_history_seconds 1800.0' &&
		[ "$(printf '%s\n' "$m" | grep -c '^mstat_leak_stack_suspect{site="leak_')" -eq 5 ] &&
		! printf '%s\n' "$m" | grep -q '^mstat_leak_stack_suspect{site="decoy_' &&
		printf '%s\n' "$m" | grep -q '^mstat_leak_stack_rate_bytes_per_second{site="leak_lost",.*bound="low"} ' || return
	history_prom_cgroup || return
	serve_start "$tmp/hist-serve.err" -f testdata/mstat-1.9.txt \
		--sites testdata/mstat_sites-2.3.txt || return
	m=$(curl -sf "http://127.0.0.1:$serve_port/metrics")
	rc=$?
	serve_stop
	[ "$rc" -eq 0 ] && ! printf '%s\n' "$m" | grep -q '^mstat_leaks_history_seconds'
}

# mstat serve keeps the cgroups' paths from one snapshot to the next:
# leak_lost's cgroup (4001) made a directory of a tree of our own
# (MSTAT_CGROUP_ROOT), its suspect series labelled by its path; the
# directory removed, the next snapshot's series still are (each snapshot
# learnt its paths afresh before, and named it "id:N" then).
history_prom_cgroup() {
	local id m1 m2 rc

	mkdir -p "$tmp/hcg/leakcg" && id=$(stat -c %i "$tmp/hcg/leakcg") || return
	awk -v id="$id" '/^[0-9]/ && $9 == "4001" { $9 = id } { print }' \
		"$tmp/hist-65536/0000.sites" >"$tmp/hist-cg.sites"
	grep -q " $id " "$tmp/hist-cg.sites" || return
	MSTAT_CGROUP_ROOT=$tmp/hcg serve_start "$tmp/hist-serve.err" \
		--min-interval 0 -f "$tmp/hist-65536/0000.mstat" \
		--sites "$tmp/hist-cg.sites" || return
	m1=$(curl -sf "http://127.0.0.1:$serve_port/metrics")
	rc=$?
	rmdir "$tmp/hcg/leakcg"
	m2=$(curl -sf "http://127.0.0.1:$serve_port/metrics")
	serve_stop
	[ "$rc" -eq 0 ] || return
	printf '%s\n' "$m1" "$m2" | grep '^mstat_leak_stack_suspect{site="leak_lost"' | sed 's/.*\(cgroups="[^"]*"\).*/\1/'
	[ "$(printf '%s\n' "$m1" | grep -c '^mstat_leak_stack_suspect{site="leak_lost",.*cgroup="/leakcg"')" -eq 1 ] &&
		[ "$(printf '%s\n' "$m2" | grep -c '^mstat_leak_stack_suspect{site="leak_lost",.*cgroup="/leakcg"')" -eq 1 ]
}

history_tests() {
	t history_once history_once
	t history_catches history_catches
	t history_rates history_rates
	t history_errpath history_errpath
	t history_watch history_watch
	t history_restart history_restart
	maybe history_prom curl "HTTP client" history_prom
	if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null &&
		command -v script >/dev/null; then
		t history_tty history_tty
		t history_until_sure history_until_sure
	else
		skip history_tty "needs root, unshare -m (a tmpfs over /proc) and script(1)"
		skip history_until_sure "needs root and unshare -m (a tmpfs over /proc)"
	fi
}
