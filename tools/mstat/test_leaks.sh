# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2154,SC2015 # tmp and the helpers are test.sh's; A && B || fail
# mstat leaks on replays (--from) of simulated reads: every leak named
# with its stack, cache and cgroup, its true rate within its interval,
# and no decoy (the weak detectors, which name them, caught); the text,
# JSON and Prometheus verdicts, no verdict, bad input and usage; mstat
# serve's verdict over its scrapes; the watch with --save under a tmpfs
# over /proc, and the cgroup paths, fleet labels and SLUB's merged names
# it saves. The replay directories are leaks_gen's, the judge
# leaks_judge and the replay under /proc hist_live (test.sh's, shared
# with test_history.sh). Sourced by test.sh, which runs leaks_tests;
# leaks_tests runs test.sh's serve_pprof_unlocked and serve_min_interval
# too, after leaks_serve.

# mstat leaks, replayed (--from) from directories testdata/leaks-gen.awk
# makes: 600 s read every 10 s, patterns started 300 s before the first
# read unless they say from=, profile_rate 16384 unless R= says. The
# leaks: a lost pointer (kmalloc-256, in cgroup 4001), a list that only
# grows (its own cache), one from softirq; the decoys: a bounded cache
# that fills then replaces, a sawtooth freed every minute, objects that
# live 3 minutes, a load that rises and falls; the background: churn of
# short-lived objects, a cache filling ever slower (a dcache warming),
# a random walk.
leaks_decoys='saw sawtooth size=512 rate=50 cache=kmalloc-512 period=60 fn=decoy_saw
plat plateau size=128 rate=30 cache=mstat_decoy_plateau cap=3000 fn=decoy_plateau
long life size=1024 rate=5 cache=kmalloc-1k life=180 fn=decoy_long
rf risefall size=256 cache=kmalloc-256 cap=5000 period=120 fn=decoy_risefall
bg churn size=64 rate=50 cache=kmalloc-64 life=2 fn=bg_churn jitter=0.5
warm fill size=192 rate=200 cache=bg_dentry tau=60 from=-30 fn=bg_d_alloc
walk walk size=96 cache=kmalloc-96 cap=20 fn=bg_walk'
leaks_leaks='lost leak size=256 rate=40 cache=kmalloc-256 cgroup=4001 fn=leak_lost from=0
list leak size=192 rate=20 cache=mstat_leak_list fn=leak_list from=0
irq leak size=64 rate=30 cache=kmalloc-64 cgroup=softirq fn=leak_softirq from=0'

# leaks_all: leaks_find's replay directory, $tmp/lk-all, made if missing
# (a test run alone: MSTAT_TEST_ONLY).
leaks_all() {
	[ -d "$tmp/lk-all" ] || leaks_gen "$tmp/lk-all" "$leaks_leaks
$leaks_decoys"
}

# Every leak named, with its stack, cache and cgroup, its rate within
# its interval; no decoy, no background; exit 1.
leaks_find() {
	local rc

	leaks_gen "$tmp/lk-all" "$leaks_leaks
$leaks_decoys" || return
	build/mstat leaks --json --from "$tmp/lk-all" >"$tmp/lk-all.json"
	rc=$?
	cat "$tmp/lk-all.json"
	printf '%s\n' 'stack leak_lost 10240 kmalloc-256 id:4001' \
		'stack leak_list 3840 mstat_leak_list -' \
		'stack leak_softirq 1920 kmalloc-64 softirq' \
		'cache kmalloc-256 10240 optional' 'cache mstat_leak_list 3840' \
		'cache kmalloc-64 1920' >"$tmp/lk-all.truth"
	echo "exit $rc (want 1)"
	[ "$rc" -eq 1 ] && leaks_judge "$tmp/lk-all.json" "$tmp/lk-all.truth" &&
		grep -q '"explained": true' "$tmp/lk-all.json"
}

# The same, a tampered truth (a rate ten times off, a stack renamed):
# the judge must fail.
leaks_find_tampered() {
	[ -s "$tmp/lk-all.json" ] || return
	sed 's/^stack leak_lost 10240/stack leak_lost 102400/' "$tmp/lk-all.truth" \
		>"$tmp/lk-t1.truth"
	sed 's/^stack leak_list /stack leak_lust /' "$tmp/lk-all.truth" >"$tmp/lk-t2.truth"
	! leaks_judge "$tmp/lk-all.json" "$tmp/lk-t1.truth" &&
		! leaks_judge "$tmp/lk-all.json" "$tmp/lk-t2.truth"
}

# Decoys and background only: nothing, exit 0; in text, one line says so.
leaks_none() {
	local rc

	leaks_gen "$tmp/lk-none" "$leaks_decoys" || return
	build/mstat leaks --from "$tmp/lk-none" >"$tmp/lk-none.txt"
	rc=$?
	cat "$tmp/lk-none.txt"
	echo "exit $rc (want 0)"
	[ "$rc" -eq 0 ] && grep -qx 'no suspect: nothing grows without bound' "$tmp/lk-none.txt" &&
		build/mstat leaks --json --from "$tmp/lk-none" >"$tmp/lk-none.json" &&
		grep -q '"suspects": \[\],' "$tmp/lk-none.json"
}

# The decoy tests can fail: the naive detectors (a difference of two
# snapshots per cache, every sample born in the watch per stack) call
# decoys leaks in the same directory.
leaks_weak_catches() {
	local rc

	[ -d "$tmp/lk-none" ] || return
	build/mstat-leaks-weak leaks --json --from "$tmp/lk-none" >"$tmp/lk-weak.json"
	rc=$?
	grep -E '"(site|cache)": ' "$tmp/lk-weak.json"
	echo "exit $rc (want 1)"
	# A truth of no leak (a line of none: awk reads an empty file as none).
	echo 'none none 0 optional' >"$tmp/lk-noleak.truth"
	[ "$rc" -eq 1 ] && ! leaks_judge "$tmp/lk-weak.json" "$tmp/lk-noleak.truth" &&
		leaks_judge "$tmp/lk-none.json" "$tmp/lk-noleak.truth"
}

# A sawtooth alone (freed every minute), its last read 30 s into a tooth:
# no suspect; the naive detector calls its cache a leak.
leaks_sawtooth() {
	local rc

	leaks_gen "$tmp/lk-saw" 'saw sawtooth size=512 rate=50 cache=kmalloc-512 period=60 fn=decoy_saw' \
		D=630 || return
	build/mstat leaks --from "$tmp/lk-saw"
	rc=$?
	echo "exit $rc (want 0)"
	[ "$rc" -eq 0 ] || return
	build/mstat-leaks-weak leaks --from "$tmp/lk-saw" >"$tmp/lk-saw-weak.txt"
	rc=$?
	cat "$tmp/lk-saw-weak.txt"
	echo "weak: exit $rc (want 1)"
	[ "$rc" -eq 1 ] && grep -qx 'LEAK cache kmalloc-512' "$tmp/lk-saw-weak.txt"
}

# Objects of a 3-minute lifetime whose allocations start with the watch
# (it sees them grow for 3 minutes, then level): no suspect.
leaks_long_fresh() {
	leaks_gen "$tmp/lk-fresh" 'long life size=1024 rate=5 cache=kmalloc-1k life=180 fn=decoy_long from=0' &&
		build/mstat leaks --json --from "$tmp/lk-fresh" >"$tmp/lk-fresh.json"
	local rc=$?
	cat "$tmp/lk-fresh.json"
	[ "$rc" -eq 0 ]
}

# A slow leak, 100 B/s into a cache of its own, at the default
# profile_rate: too slow for samples, the exact counts name it, with no
# stack to explain it yet.
leaks_slow() {
	local rc

	leaks_gen "$tmp/lk-slow" "slow leak size=200 rate=0.5 cache=mstat_leak_slow fn=leak_slow
$leaks_decoys" R=524288 || return
	build/mstat leaks --json --from "$tmp/lk-slow" >"$tmp/lk-slow.json"
	rc=$?
	cat "$tmp/lk-slow.json"
	echo "exit $rc (want 1)"
	[ "$rc" -eq 1 ] && echo 'cache mstat_leak_slow 100' >"$tmp/lk-slow.truth" &&
		leaks_judge "$tmp/lk-slow.json" "$tmp/lk-slow.truth" &&
		grep -q '{"kind": "cache", "cache": "mstat_leak_slow", "why": "grows, no sampled stack yet"}' \
			"$tmp/lk-slow.json"
}

# The tiers checked against each other: the list's rows say its samples
# are of mstat_ct_00, a cache whose exact count stays: the stack "grows
# while its cache does not" (no suspect), and mstat_leak_list, which
# grows, "grows, no sampled stack yet".
leaks_contradicted() {
	local rc f

	leaks_gen "$tmp/lk-contra" 'list leak size=192 rate=20 cache=mstat_leak_list fn=leak_list' || return
	for f in "$tmp"/lk-contra/*.sites; do
		sed -i 's/ mstat_leak_list leak_list+/ mstat_ct_00 leak_list+/' "$f" || return
	done
	build/mstat leaks --json --from "$tmp/lk-contra" >"$tmp/lk-contra.json"
	rc=$?
	cat "$tmp/lk-contra.json"
	echo "exit $rc (want 1)"
	[ "$rc" -eq 1 ] && echo 'cache mstat_leak_list 3840' >"$tmp/lk-contra.truth" &&
		leaks_judge "$tmp/lk-contra.json" "$tmp/lk-contra.truth" &&
		grep -q '{"kind": "stack", "site": "leak_list+0x1a/0x40 \[mstat_leakgen\]", "cache": "mstat_ct_00", "rate_low_bps": [0-9.]*, "why": "grows while its cache does not"}' \
			"$tmp/lk-contra.json" &&
		grep -q '{"kind": "cache", "cache": "mstat_leak_list", "why": "grows, no sampled stack yet"}' \
			"$tmp/lk-contra.json"
}

# --min-rate above a leak's interval: not called.
leaks_min_rate() {
	leaks_all || return
	build/mstat leaks --json --min-rate 20000 --from "$tmp/lk-all" >"$tmp/lk-min.json"
	local rc=$?
	echo "exit $rc (want 0)"
	[ "$rc" -eq 0 ]
}

# Bad replay directories: exit 2, one line naming the file (and line).
leaks_bad_input() {
	local d=$tmp/lk-bad

	leaks_gen "$d" 'list leak size=192 rate=20 cache=mstat_leak_list' D=100 || return
	mv "$d/0005.sites" "$d/0005.sites.x"
	expect_err 2 "lk-bad/0005\\.sites: not found\$" build/mstat leaks --from "$d" || return
	mv "$d/0005.sites.x" "$d/0005.sites"
	sed -i '4s/^[0-9]* /12x /' "$d/0003.sites"
	expect_err 2 "lk-bad/0003\\.sites: line 4: malformed site row: \"12x " \
		build/mstat leaks --from "$d" || return
	leaks_gen "$d" 'list leak size=192 rate=20 cache=mstat_leak_list' D=100 &&
		echo 'soon' >"$d/0007.time" &&
		expect_err 2 'lk-bad/0007\.time: line 1: not CLOCK_MONOTONIC seconds: "soon"$' \
			build/mstat leaks --from "$d" || return
	leaks_gen "$d" 'list leak size=192 rate=20 cache=mstat_leak_list' D=100 &&
		rm "$d/0002.time" &&
		expect_err 2 'lk-bad/0002\.time: not found$' build/mstat leaks --from "$d" || return
	leaks_gen "$d" 'list leak size=192 rate=20 cache=mstat_leak_list' D=100 &&
		head -n 40 "$d/0004.mstat" >"$d/0004.mstat.cut" && mv "$d/0004.mstat.cut" "$d/0004.mstat" &&
		expect_err 2 'lk-bad/0004\.mstat: truncated or incomplete' \
			build/mstat leaks --from "$d" || return
	expect_err 2 'nope: No such file or directory$' build/mstat leaks --from "$tmp/nope" &&
		mkdir -p "$tmp/lk-empty" &&
		expect_err 2 'lk-empty: no read \(NNNN\.mstat\)$' \
			build/mstat leaks --from "$tmp/lk-empty" || return
	# One read of format 2.2: no history to judge from.
	leaks_gen "$d" 'list leak size=192 rate=20 cache=mstat_leak_list' D=100 &&
		expect_err 2 "lk-bad: one read without the profile's history \\(format 2\\.4 of /proc/mstat_sites\\): mstat leaks needs 2 at least\$" \
			build/mstat leaks --once --from "$d"
}

leaks_usage() {
	expect_err 2 '^mstat: --confidence wants a number in \(0\.5, 1\), got 1 ' \
		build/mstat leaks --confidence 1 &&
		expect_err 2 '^mstat: --min-rate wants bytes per second' build/mstat leaks --min-rate -1 &&
		expect_err 2 '^mstat: -i wants seconds' build/mstat leaks -i 0 &&
		expect_err 2 '^mstat: mstat leaks: -i longer than -d ' build/mstat leaks -d 5 -i 10 &&
		expect_err 2 '^mstat: --from and --save go apart ' build/mstat leaks --from a --save b &&
		expect_err 2 '^mstat: unknown option --duration for mstat top ' \
			build/mstat top --duration 5 &&
		expect_err 2 '^mstat: mstat leaks reads no -f ' build/mstat leaks -f x &&
		expect_err 2 '^mstat: mstat leaks: -d / -i gives 2 reads; a verdict at confidence 0.99 needs 14 ' \
			build/mstat leaks -d 1 -i 1 &&
		expect_err 2 '^mstat: mstat leaks: -d / -i gives 13 reads; a verdict at confidence 0.999 needs 18 ' \
			build/mstat leaks -d 120 -i 10 --confidence 0.999 &&
		expect_err 2 '^mstat: /proc/mstat not found: is the mstat module loaded\?$' \
			build/mstat leaks -d 130 -i 10
}

# A replay of 16 reads (8 blocks): at confidence 0.999 Sen's interval has
# no low end below 9 blocks, so the exact counts cannot judge: "no
# verdict", exit 3, "judged": false, not "no suspect" (a rule that took
# 7 blocks as enough at any confidence would say exit 0, nothing grows).
# At 0.99 the same reads name the slow leak.
leaks_unjudged() {
	local rc

	leaks_gen "$tmp/lk-few" 'slow leak size=200 rate=0.5 cache=mstat_leak_slow fn=leak_slow' \
		D=150 R=524288 || return
	build/mstat leaks --confidence 0.999 --from "$tmp/lk-few" >"$tmp/lk-few.txt"
	rc=$?
	cat "$tmp/lk-few.txt"
	echo "exit $rc (want 3)"
	[ "$rc" -eq 3 ] &&
		grep -qx 'no verdict: not enough reads to judge (16; at confidence 0.999 the exact counts need 18)' \
			"$tmp/lk-few.txt" || return
	build/mstat leaks --json --confidence 0.999 --from "$tmp/lk-few" >"$tmp/lk-few.json"
	[ $? -eq 3 ] && grep -q '"judged": false' "$tmp/lk-few.json" || return
	build/mstat leaks --from "$tmp/lk-few" >"$tmp/lk-few99.txt"
	rc=$?
	cat "$tmp/lk-few99.txt"
	echo "exit $rc (want 1)"
	[ "$rc" -eq 1 ] && grep -qx 'LEAK cache mstat_leak_slow' "$tmp/lk-few99.txt"
}

# mstat serve: the per-cache verdict over the window of its scrapes,
# each of the next read of a replay directory (-f a file rewritten), at
# the time the replay recorded (NNNN.time, 10 s apart): the file
# MSTAT_LEAK_CLOCK names holds it while the read is offered, and the
# window places the snapshot there, as it places a live one at the
# monotonic clock's. Each scrape after the one before has ended: no
# sleep, no wall clock. (Placed at the scrapes' own times, a read a
# second, a scrape that a loaded machine delayed moved its point, and a
# late half so slowed read as a leak slowing down: two cold runs of make
# check failed so.) That a live server takes the monotonic clock's time
# is not judged here: only the wall clock could say it took the right
# one.
leaks_serve() {
	local i f ok=1

	leaks_all || return
	cp "$tmp/lk-all/0000.mstat" "$tmp/cur.mstat" &&
		cp "$tmp/lk-all/0000.time" "$tmp/cur.time" || return
	MSTAT_LEAK_CLOCK=$tmp/cur.time serve_start "$tmp/serve.err" \
		--min-interval 0 -f "$tmp/cur.mstat" || return
	for i in $(seq 0 20); do
		f=$tmp/lk-all/$(printf %04d "$i")
		cp "$f.mstat" "$tmp/cur.mstat.new" &&
			mv "$tmp/cur.mstat.new" "$tmp/cur.mstat" &&
			cp "$f.time" "$tmp/cur.time.new" &&
			mv "$tmp/cur.time.new" "$tmp/cur.time" || ok=0
		curl -sS --max-time 30 "http://127.0.0.1:$serve_port/metrics" \
			>"$tmp/lk-metrics" || { echo "scrape $i failed"; ok=0; }
	done
	serve_stop
	grep '^mstat_leak' "$tmp/lk-metrics"
	[ "$ok" = 1 ] &&
		grep -qx 'mstat_leak_window_reads 21' "$tmp/lk-metrics" &&
		grep -qx 'mstat_leak_suspect{cache="mstat_leak_list"} 1' "$tmp/lk-metrics" &&
		grep -qx 'mstat_leak_suspect{cache="kmalloc-64"} 1' "$tmp/lk-metrics" &&
		grep -qx 'mstat_leak_suspect{cache="bg_dentry"} 0' "$tmp/lk-metrics" &&
		grep -qx 'mstat_leak_suspect{cache="mstat_decoy_plateau"} 0' "$tmp/lk-metrics" &&
		grep -qx 'mstat_leak_suspect{cache="kmalloc-512"} 0' "$tmp/lk-metrics" &&
		grep -q '^mstat_leak_rate_bytes_per_second{cache="mstat_leak_list",bound="low"} [0-9]' \
			"$tmp/lk-metrics" &&
		{ ! command -v promtool >/dev/null || promtool check metrics <"$tmp/lk-metrics"; }
}

# Watching, with --save: in a mount namespace of its own, a tmpfs over
# /proc holds an mstat and an mstat_sites that hist_live replaces by every
# other read of a replay directory (a copy of them, $tmp/lk-half), the
# read's own time (NNNN.time) in a file that MSTAT_LEAK_CLOCK names;
# mstat leaks -d 320 -i 20 reads them, on that clock: 17 reads, 20 s
# apart, each offered once the one before is saved (DIR/NNNN.time), so
# that the watch takes each, on any machine (replaced four times a
# second and read twice a second on the wall clock, which reads the watch
# took, and so its verdict, was a race a loaded machine could lose). Its
# verdict names the growing caches, and --from the directory it saved
# gives the same text. The lost pointer's rows are of cgroup /leaks of a
# tree of the test's (MSTAT_CGROUP_ROOT, its id the directory's inode):
# the watch learns its path while it exists and saves it in DIR/cgroups
# (leaks_cgroups_from judges by it); SLUB's merged names (MSTAT_SLAB_ROOT,
# a tree of the test's) in DIR/slab-names. A wait that times out says so
# and what it waited for. The watch on the monotonic clock, a live
# module's reads, is the guest's leak test's (scripts/guest/leaks.sh).
leaks_watch() {
	local id rc r x

	leaks_all || return
	rm -rf "$tmp/lk-saved" "$tmp/lk-saved.rc" "$tmp/lk-saved.pid" \
		"$tmp/lk-allcg" "$tmp/lk-half" "$tmp/cgw" "$tmp/slabw"
	mkdir -p "$tmp/slabw/:A-0000192" "$tmp/lk-half" &&
		ln -s :A-0000192 "$tmp/slabw/mstat_leak_merged" &&
		mkdir -p "$tmp/cgw/leaks" && id=$(stat -c %i "$tmp/cgw/leaks") &&
		cp -r "$tmp/lk-all" "$tmp/lk-allcg" &&
		sed -i "s/^\([0-9]* [0-9]* [0-9]* [0-9]* [0-9]* [0-9]* [0-9]* [0-9]*\) 4001 /\1 $id /" \
			"$tmp"/lk-allcg/*.sites || return
	for r in $(seq 0 16); do
		for x in mstat sites time; do
			cp "$tmp/lk-allcg/$(printf %04d $((2 * r))).$x" \
				"$tmp/lk-half/$(printf %04d "$r").$x" || return
		done
	done
	# shellcheck disable=SC2016 # $r is hist_live's
	MSTAT_CGROUP_ROOT=$tmp/cgw MSTAT_SLAB_ROOT=$tmp/slabw \
		hist_live "$tmp/lk-half" "$tmp/lk-saved" \
		'[ -s '"$tmp/lk-saved"'/$(printf %04d $r).time ]' 17 \
		build/mstat leaks -d 320 -i 20 --save "$tmp/lk-saved" >"$tmp/lk-saved.txt"
	rc=$?
	[ "$rc" -ne 124 ] || echo "timeout: the watch did not end within 60 s"
	[ "$rc" -eq 0 ] || { cat "$tmp/lk-saved.txt"; return 1; }
	cat "$tmp/lk-saved.txt" "$tmp/lk-saved/cgroups"
	echo "watch: exit $(cat "$tmp/lk-saved.rc") (want 1)"
	local times=("$tmp"/lk-saved/*.time)
	echo "${#times[@]} reads saved, at $(cat "${times[@]}" | tr '\n' ' ')"
	grep -qx 1 "$tmp/lk-saved.rc" && [ "${#times[@]}" -eq 17 ] &&
		grep -qx 'LEAK cache mstat_leak_list' "$tmp/lk-saved.txt" &&
		grep -qx "$id /leaks" "$tmp/lk-saved/cgroups" &&
		grep -qx 'mstat_leak_merged :A-0000192' "$tmp/lk-saved/slab-names" ||
		return
	build/mstat leaks --from "$tmp/lk-saved" >"$tmp/lk-replayed.txt"
	[ $? -eq 1 ] && diff -u "$tmp/lk-saved.txt" "$tmp/lk-replayed.txt"
}

# lk_cg: $tmp/lk-cg, leaks_all's replay with the lost pointer's rows in
# cgroup id I, the inode of $tmp/cgo/other (a tree of the test's), made
# if missing (a test run alone: MSTAT_TEST_ONLY).
lk_cg() {
	local id

	[ -d "$tmp/lk-cg" ] && [ -d "$tmp/cgo/other" ] && return
	leaks_all && mkdir -p "$tmp/cgo/other" &&
		id=$(stat -c %i "$tmp/cgo/other") &&
		cp -r "$tmp/lk-all" "$tmp/lk-cg" &&
		sed -i "s/^\([0-9]* [0-9]* [0-9]* [0-9]* [0-9]* [0-9]* [0-9]* [0-9]*\) 4001 /\1 $id /" \
			"$tmp"/lk-cg/*.sites
}

# A cgroup's name at judging time: --from takes the paths the watch
# saved in DIR/cgroups, and never this host's tree, where the same id
# (an inode number) may be another cgroup's or none. The lost pointer's
# rows of a replay of 600 s are of id I, the inode of /other in a tree of
# the test's (MSTAT_CGROUP_ROOT): with DIR/cgroups "I /leaks", the stack
# is labelled /leaks; without it, "id:I" (never "/other", the judging
# host's cgroup of that number); a malformed line is an error.
leaks_cgroups_from() {
	local id

	rm -rf "$tmp/lk-cg" "$tmp/cgo"
	lk_cg && id=$(stat -c %i "$tmp/cgo/other") || return
	echo "$id /leaks" >"$tmp/lk-cg/cgroups"
	MSTAT_CGROUP_ROOT=$tmp/cgo build/mstat leaks --json --from "$tmp/lk-cg" >"$tmp/lk-cg.json"
	[ $? -eq 1 ] && grep '"cgroups": ' "$tmp/lk-cg.json" &&
		grep -q '"cgroups": \["/leaks"\]' "$tmp/lk-cg.json" || return
	rm "$tmp/lk-cg/cgroups"
	MSTAT_CGROUP_ROOT=$tmp/cgo build/mstat leaks --json --from "$tmp/lk-cg" >"$tmp/lk-cg2.json"
	[ $? -eq 1 ] && grep '"cgroups": ' "$tmp/lk-cg2.json" &&
		grep -q "\"cgroups\": \[\"id:$id\"\]" "$tmp/lk-cg2.json" || return
	printf '%s /x\nnot a line\n' "$id" >"$tmp/lk-cg/cgroups"
	expect_err 2 "^mstat: .*/cgroups: line 2: not \"ID PATH\": \"not a line\"\$" \
		build/mstat leaks --from "$tmp/lk-cg"
}

# A fleet's labels of a verdict's stack (mstat_cgroup_tags()), from the
# path DIR/cgroups saved on the machine that watched, not from the
# judging host: the lost pointer's rows of id I (as leaks_cgroups_from)
# saved as a containerd container of a burstable pod (systemd driver):
# the JSON's containers, pods and units, and the words after its cgroups;
# with the plain path /leaks, none.
leaks_fleet_from() {
	local id u1=${P1//-/_} path

	lk_cg && id=$(stat -c %i "$tmp/cgo/other") || return
	path=/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod$u1.slice/cri-containerd-$C1.scope
	echo "$id $path" >"$tmp/lk-cg/cgroups"
	MSTAT_CGROUP_ROOT=$tmp/cgo build/mstat leaks --json --from "$tmp/lk-cg" >"$tmp/lk-fl.json"
	[ $? -eq 1 ] && grep '"containers": ' "$tmp/lk-fl.json" &&
		grep -qF "\"containers\": [\"containerd:$C1\"], \"pods\": [\"$P1\"], \"units\": [\"cri-containerd-$C1.scope\"]" \
			"$tmp/lk-fl.json" || return
	MSTAT_CGROUP_ROOT=$tmp/cgo build/mstat leaks --from "$tmp/lk-cg" >"$tmp/lk-fl.txt"
	[ $? -eq 1 ] && grep -F '; containers ' "$tmp/lk-fl.txt" &&
		grep -qF "; containers containerd:${C1:0:12}; pods $P1; units cri-containerd-$C1.scope" \
			"$tmp/lk-fl.txt" || return
	echo "$id /leaks" >"$tmp/lk-cg/cgroups"
	MSTAT_CGROUP_ROOT=$tmp/cgo build/mstat leaks --json --from "$tmp/lk-cg" >"$tmp/lk-fl2.json"
	[ $? -eq 1 ] && grep -qF '"containers": [], "pods": [], "units": []' "$tmp/lk-fl2.json" &&
		MSTAT_CGROUP_ROOT=$tmp/cgo build/mstat leaks --from "$tmp/lk-cg" >"$tmp/lk-fl2.txt"
	[ $? -eq 1 ] && ! grep -F '; containers ' "$tmp/lk-fl2.txt"
}

# The verdict as Prometheus text (--prom, -o FILE for the textfile
# collector): the same suspects as --json, one series each, the stack's
# container, pod and unit whole as labels; exit 0 with suspects (the
# verdict is in the file); promtool takes it; --json beside it, and -o
# without it, are usage errors.
leaks_prom() {
	local id u1=${P1//-/_} path f=$tmp/lk-prom/mstat-leaks.prom n

	lk_cg && id=$(stat -c %i "$tmp/cgo/other") || return
	path=/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod$u1.slice/cri-containerd-$C1.scope
	echo "$id $path" >"$tmp/lk-cg/cgroups"
	mkdir -p "$tmp/lk-prom"
	MSTAT_CGROUP_ROOT=$tmp/cgo build/mstat leaks --prom --from "$tmp/lk-cg" -o "$f" ||
		return
	MSTAT_CGROUP_ROOT=$tmp/cgo build/mstat leaks --json --from "$tmp/lk-cg" >"$tmp/lk-prom/v.json"
	n=$(grep -c '"kind": "stack"' "$tmp/lk-prom/v.json")
	grep '^mstat_leak_stack_suspect{' "$f" | head -n 2
	[ "$n" -gt 0 ] &&
		[ "$(grep -c '^mstat_leak_stack_suspect{.*} 1$' "$f")" = "$n" ] &&
		[ "$(grep -c '^mstat_leak_stack_rate_bytes_per_second{' "$f")" = $((3 * n)) ] &&
		grep -qF "container_id=\"containerd:$C1\",pod_uid=\"$P1\",systemd_unit=\"cri-containerd-$C1.scope\"" "$f" &&
		grep -q '^mstat_leaks_judged 1$' "$f" &&
		[ "$(grep -c '^mstat_leaks_cache_suspect{' "$f")" = "$(grep -c '"kind": "cache"' "$tmp/lk-prom/v.json")" ] &&
		{ ! command -v promtool >/dev/null || promtool check metrics <"$f"; } &&
		expect_err 2 'json and --prom go apart' \
			build/mstat leaks --prom --json --from "$tmp/lk-cg" &&
		expect_err 2 'goes with mstat leaks --prom' \
			build/mstat leaks -o "$f" --from "$tmp/lk-cg" &&
		expect_err 2 '^mstat: unknown option --prom for plain mstat ' build/mstat --prom
}

# SLUB's merged caches (slab.h): a cache is named by every name linked
# to its directory, its own first. In a tree of the test's
# (MSTAT_SLAB_ROOT), dentry, mstat_host_192 and mstat_leak_merged are
# links to ":A-0000192" (a module's cache merged into dentry),
# kmem_cache_node a directory of its own: show, prom (its label, and
# --cache-include by the merged name alone) and json name dentry by all
# three; kmem_cache_node by its own. A leak in
# a merged cache (mstat_host_192 and mstat_leak_merged) is named by both
# names, on the cache's verdict and the stack's caches, from the
# DIR/slab-names a watch saves; --from never reads this host's tree
# (without the file, the one name), and a malformed line is an error.
slab_merged_names() {
	local s=$tmp/slab rc
	local l='mstat_host_192,mstat_leak_merged'

	rm -rf "$s" && mkdir -p "$s/:A-0000192" "$s/kmem_cache_node" &&
		ln -s :A-0000192 "$s/dentry" && ln -s :A-0000192 "$s/mstat_leak_merged" &&
		ln -s :A-0000192 "$s/mstat_host_192" || return
	MSTAT_SLAB_ROOT=$s build/mstat -f testdata/mstat-1.2.txt >"$tmp/slab.txt" &&
		MSTAT_SLAB_ROOT=$s build/mstat prom -f testdata/mstat-1.2.txt \
			--cache-include '(^|,)mstat_leak_merged(,|$)' >"$tmp/slab.prom" &&
		MSTAT_SLAB_ROOT=$s build/mstat --json -f testdata/mstat-1.2.txt >"$tmp/slab.json" ||
		return
	grep -E '^(dentry|kmem_cache_node)' "$tmp/slab.txt"
	grep 'cache=' "$tmp/slab.prom"
	grep -E '"(dentry|kmem_cache_node)"' "$tmp/slab.json"
	grep -q '^dentry,mstat_host_192,mstat_leak_merged ' "$tmp/slab.txt" &&
		grep -q '^kmem_cache_node ' "$tmp/slab.txt" &&
		grep -q '^mstat_cache_live_bytes{cache="dentry,mstat_host_192,mstat_leak_merged"} ' "$tmp/slab.prom" &&
		[ "$(grep -c '^mstat_cache_live_bytes{' "$tmp/slab.prom")" -eq 1 ] &&
		grep -q '"name": "dentry", "names": "dentry,mstat_host_192,mstat_leak_merged"' "$tmp/slab.json" &&
		grep -q '"name": "kmem_cache_node", "names": "kmem_cache_node"' "$tmp/slab.json" || return
	leaks_gen "$tmp/lk-slab" "merged leak size=192 rate=30 cache=mstat_host_192 fn=leak_merged from=0
$leaks_decoys" || return
	printf '%s\n' "mstat_host_192 :A-0000192" "mstat_leak_merged :A-0000192" \
		"kmalloc-64 kmalloc-64" >"$tmp/lk-slab/slab-names"
	build/mstat leaks --from "$tmp/lk-slab" >"$tmp/lk-slab.txt"
	rc=$?
	cat "$tmp/lk-slab.txt"
	echo "exit $rc (want 1)"
	[ "$rc" -eq 1 ] && grep -qx "LEAK cache $l" "$tmp/lk-slab.txt" &&
		grep -q "; caches $l;" "$tmp/lk-slab.txt" || return
	rm "$tmp/lk-slab/slab-names"
	MSTAT_SLAB_ROOT=$s build/mstat leaks --from "$tmp/lk-slab" >"$tmp/lk-slab2.txt"
	[ $? -eq 1 ] && grep -qx 'LEAK cache mstat_host_192' "$tmp/lk-slab2.txt" ||
		return
	printf 'a :A\nnot-a-line\n' >"$tmp/lk-slab/slab-names"
	expect_err 2 "^mstat: .*/slab-names: line 2: not \"NAME DIR\": \"not-a-line\"\$" \
		build/mstat leaks --from "$tmp/lk-slab"
}

# The kernel's lazily freed areas: vmap_area, which vfree() purges in
# batches, grows by 6.4 KB/s (its stack alloc_vmap_area) beside the
# decoys: no suspect (exit 0), shown apart ("lazy", "Freed lazily by the
# kernel"); a leak of the same rate in another cache is still one.
leaks_lazy_vmap_area() {
	local rc

	leaks_gen "$tmp/lk-lazy" "vmap leak size=64 rate=100 cache=vmap_area fn=alloc_vmap_area from=0
$leaks_decoys" || return
	build/mstat leaks --json --from "$tmp/lk-lazy" >"$tmp/lk-lazy.json"
	rc=$?
	build/mstat leaks --from "$tmp/lk-lazy" >"$tmp/lk-lazy.txt"
	cat "$tmp/lk-lazy.json" "$tmp/lk-lazy.txt"
	echo "exit $rc (want 0)"
	[ "$rc" -eq 0 ] && grep -q '"suspects": \[\]' "$tmp/lk-lazy.json" &&
		grep -q '"lazy": \[$' "$tmp/lk-lazy.json" &&
		grep -q '{"kind": "cache", "cache": "vmap_area", "rate_bps": ' "$tmp/lk-lazy.json" &&
		grep -qx '  cache vmap_area: grows .*/s (vfree() purges its areas in batches)' "$tmp/lk-lazy.txt" ||
		return
	leaks_gen "$tmp/lk-lazy2" "vmap leak size=64 rate=100 cache=mstat_not_lazy fn=alloc_vmap_area from=0
$leaks_decoys" || return
	build/mstat leaks --from "$tmp/lk-lazy2" >"$tmp/lk-lazy2.txt"
	[ $? -eq 1 ] && grep -qx 'LEAK cache mstat_not_lazy' "$tmp/lk-lazy2.txt"
}

# A leak in an interrupt: its stack goes on into whatever the interrupt
# stopped, a row each (the softirq's 8, the hard irq's 6, as a guest's
# /proc/mstat_sites shows them). Each is one suspect, its stack cut at
# the interrupt's entry, its rate the whole leak's, inside its interval.
leaks_irq_split() {
	local rc

	leaks_gen "$tmp/lk-irq" 'irq leak size=64 rate=30 cache=kmalloc-64 cgroup=softirq fn=leak_softirq from=0 irq=soft split=8
hirq leak size=128 rate=20 cache=kmalloc-128 cgroup=hardirq fn=leak_hardirq from=0 irq=hard split=6
'"$leaks_decoys" || return
	[ "$(grep -c '^[0-9].* leak_softirq+' "$tmp/lk-irq/0060.sites")" -eq 8 ] ||
		{ echo "the replay has not 8 softirq rows"; return 1; }
	build/mstat leaks --json --from "$tmp/lk-irq" >"$tmp/lk-irq.json"
	rc=$?
	cat "$tmp/lk-irq.json"
	printf '%s\n' 'stack leak_softirq 1920 kmalloc-64 softirq' \
		'stack leak_hardirq 2560 kmalloc-128 hardirq' \
		'cache kmalloc-64 1920' 'cache kmalloc-128 2560' >"$tmp/lk-irq.truth"
	echo "exit $rc (want 1)"
	[ "$rc" -eq 1 ] && leaks_judge "$tmp/lk-irq.json" "$tmp/lk-irq.truth" &&
		[ "$(grep -c '"site": "leak_softirq+' "$tmp/lk-irq.json")" -eq 1 ] &&
		[ "$(grep -c '"site": "leak_hardirq+' "$tmp/lk-irq.json")" -eq 1 ] &&
		grep -q '"leak_softirq+.*"handle_softirqs+0xd0/0x2c0"\]' "$tmp/lk-irq.json" &&
		grep -q '"leak_hardirq+.*"asm_sysvec_apic_timer_interrupt+0x1a/0x20"\]' "$tmp/lk-irq.json"
}

# The same reads, each read's time off by up to 2 s (a loaded machine's
# delay between a read's clock and the module's snapshot, where the
# ages are taken): an object's two births then differ by more than any
# fixed tolerance, and a leak's sample taken for freed would teach its
# stack a lifetime. The same verdict: every leak named, nothing else.
leaks_skewed() {
	local rc f n=0

	[ -s "$tmp/lk-all.truth" ] || return
	rm -rf "$tmp/lk-skew" && cp -r "$tmp/lk-all" "$tmp/lk-skew" || return
	for f in "$tmp/lk-skew"/*.time; do
		n=$((n + 1))
		awk -v n="$n" '{ srand(n); printf "%.3f\n", $1 + 2 * rand() }' "$f" \
			>"$f.new" && mv "$f.new" "$f" || return
	done
	build/mstat leaks --json --from "$tmp/lk-skew" >"$tmp/lk-skew.json"
	rc=$?
	cat "$tmp/lk-skew.json"
	echo "exit $rc (want 1)"
	[ "$rc" -eq 1 ] && leaks_judge "$tmp/lk-skew.json" "$tmp/lk-all.truth"
}

# A watch of more than 9,999 reads (--save names them %04ld): its reads
# 9995 to 10007 judged as the same reads numbered from 0, the same.
leaks_past_9999() {
	local f i=0 n

	leaks_gen "$tmp/lk-9999" 'saw sawtooth size=512 rate=50 cache=kmalloc-512 period=60 fn=decoy_saw' \
		D=120 || return
	build/mstat leaks --from "$tmp/lk-9999" >"$tmp/lk-9999.want" 2>&1
	echo "numbered from 0: exit $?"
	rm -rf "$tmp/lk-10k" && mkdir "$tmp/lk-10k" || return
	for f in $(find "$tmp/lk-9999" -name '*.mstat' -printf '%f\n' | sort -n); do
		n=$((9995 + i))
		i=$((i + 1))
		for e in mstat sites time; do
			cp "$tmp/lk-9999/${f%.mstat}.$e" "$tmp/lk-10k/$n.$e" || return
		done
	done
	echo "$i reads, numbered 9995 to $n"
	build/mstat leaks --from "$tmp/lk-10k" >"$tmp/lk-10k.got" 2>&1
	echo "numbered from 9995: exit $?"
	sed "s#$tmp/lk-10k#DIR#" "$tmp/lk-10k.got" >"$tmp/lk-10k.a"
	sed "s#$tmp/lk-9999#DIR#" "$tmp/lk-9999.want" >"$tmp/lk-10k.b"
	diff "$tmp/lk-10k.b" "$tmp/lk-10k.a" && [ "$i" -ge 10 ] && [ "$n" -ge 10000 ]
}

# Two objects of the leaking stack born in one millisecond (30 s into
# the watch), of two sizes, listed in one order in a read and in the
# other in the next: neither was freed, and the stack is named.
leaks_same_ms() {
	local f rc

	leaks_gen "$tmp/lk-ms" 'lost leak size=256 rate=40 cache=kmalloc-256 cgroup=4001 fn=leak_lost from=0' ||
		return
	for f in "$tmp"/lk-ms/*.sites; do
		awk -v t="$(cat "${f%.sites}.time")" -v odd="$(( 10#$(basename "$f" .sites) % 2 ))" '
			/leak_lost\+/ { in_lost = 1 }
			in_lost && /^\+ / && t >= 30 {
				a = int((t - 30) * 1000)
				print "+ " a " " (odd ? 256 : 200)
				print "+ " a " " (odd ? 200 : 256)
				in_lost = 0
			}
			{ print }' "$f" >"$f.new" && mv "$f.new" "$f" || return
	done
	build/mstat leaks --json --from "$tmp/lk-ms" >"$tmp/lk-ms.json"
	rc=$?
	cat "$tmp/lk-ms.json"
	echo 'stack leak_lost 10240 kmalloc-256 id:4001' >"$tmp/lk-ms.truth"
	echo 'cache kmalloc-256 10240 optional' >>"$tmp/lk-ms.truth"
	echo "exit $rc (want 1)"
	[ "$rc" -eq 1 ] && leaks_judge "$tmp/lk-ms.json" "$tmp/lk-ms.truth"
}

# The module's address table dropped mid-watch (a source switched off
# and on, a free probe that missed calls, a reset: addr_phantoms grows
# and every sample live then leaves the reads), at 200 s and at 400 s,
# among the decoys: the samples gone are not frees, and every leak is
# still named by its stack, from the births after the last drop. Were
# each gone sample taken for a free, it would teach its stack a lifetime
# of up to 700 s, and no leak would be named by its stack.
leaks_source_switch() {
	local rc

	leaks_gen "$tmp/lk-sw" "$leaks_leaks
$leaks_decoys" forget=200,400 || return
	grep -q 'addr_phantoms [1-9]' "$tmp/lk-sw/0059.sites" || return
	build/mstat leaks --json --from "$tmp/lk-sw" >"$tmp/lk-sw.json"
	rc=$?
	cat "$tmp/lk-sw.json"
	echo "exit $rc (want 1)"
	[ "$rc" -eq 1 ] && leaks_judge "$tmp/lk-sw.json" "$tmp/lk-all.truth" &&
		grep -q '"restarts": 2' "$tmp/lk-sw.json"
}

# One object of the leaking stack that lived 400 s, freed 500 s into the
# watch, while the stack's other objects, older than it, are all live:
# that free tells of it alone, and the leak is named. Were it taken for
# the stack's lifetime, the stack's leak-like age would be 1.5 x 400 s,
# more than the watch.
leaks_long_lived_free() {
	local rc

	leaks_gen "$tmp/lk-llf" 'lost leak size=256 rate=40 cache=kmalloc-256 cgroup=4001 fn=leak_lost from=0 keep=100:400' ||
		return
	build/mstat leaks --json --from "$tmp/lk-llf" >"$tmp/lk-llf.json"
	rc=$?
	cat "$tmp/lk-llf.json"
	echo "exit $rc (want 1)"
	printf '%s\n' 'stack leak_lost 10240 kmalloc-256 id:4001' \
		'cache kmalloc-256 10240 optional' >"$tmp/lk-llf.truth"
	[ "$rc" -eq 1 ] && leaks_judge "$tmp/lk-llf.json" "$tmp/lk-llf.truth" &&
		grep -q '"frees_seen": 1}' "$tmp/lk-llf.json"
}

# Caches warming up from the watch's start, x(t) = P (1 - exp(-t/tau)),
# tau 1, 3, 5 and 10 minutes in a 10-minute watch (the last still rises
# at 37% of its first rate at the end), beside the leaks and decoys:
# each is "filling" toward its plateau, its stack too, none a suspect;
# the leaks are named as before. The later-half test alone lets the
# fills of 5 and 10 minutes pass, and would call them leaks, by cache
# and by stack.
leaks_filling() {
	local rc tau

	leaks_gen "$tmp/lk-fill" "$leaks_leaks
$leaks_decoys
w1 fill size=320 rate=60 cache=mstat_warm_60 tau=60 from=0 fn=warm_60
w3 fill size=320 rate=60 cache=mstat_warm_180 tau=180 from=0 fn=warm_180
w5 fill size=320 rate=60 cache=mstat_warm_300 tau=300 from=0 fn=warm_300
w10 fill size=320 rate=60 cache=mstat_warm_600 tau=600 from=0 fn=warm_600" || return
	build/mstat leaks --json --from "$tmp/lk-fill" >"$tmp/lk-fill.json"
	rc=$?
	cat "$tmp/lk-fill.json"
	echo "exit $rc (want 1)"
	[ "$rc" -eq 1 ] && leaks_judge "$tmp/lk-fill.json" "$tmp/lk-all.truth" || return
	for tau in 300 600; do
		grep -q "{\"kind\": \"cache\", \"cache\": \"mstat_warm_$tau\", \"live_bytes\": [0-9.]*, \"plateau_bytes\": [0-9.]*, \"tau_s\": [0-9.]*}" \
			"$tmp/lk-fill.json" || { echo "mstat_warm_$tau not filling"; return 1; }
	done
	build/mstat leaks --from "$tmp/lk-fill" | sed -n '/^Filling/,$p'
}

# One stack leaking objects of two sizes, 256 B (40 a second, 10 KiB/s)
# and 256 KiB (one every 20 s, 12.8 KiB/s), into two caches, arriving as
# Poisson processes, 20 seeds of a 300-s watch: each names the stack, and
# its interval holds the true 23,347 B/s in 19 of 20 at least (the
# default confidence 0.99). Its samples are a compound Poisson: an
# interval of the count times the mean weight missed the truth in 6 of
# 30 seeds of 600 s (by hand: these replays, seeds 1 to 30, D=600, the
# interval recomputed from each verdict's rate and samples); and, were
# its whole rate held against the growth of the one cache where most of
# its bytes go ("grows while its cache does not"), the stack would not
# be named at all.
leaks_mixed() {
	local seed miss=0 named=0 truth=23347 line

	for seed in $(seq 1 20); do
		leaks_gen "$tmp/lk-mix" 'mix leak size=256 rate=40 cache=kmalloc-256 fn=leak_mix from=0 poisson=1
big leak size=262144 rate=0.05 cache=mstat_big fn=leak_mix from=0 poisson=1' \
			seed="$seed" D=300 || return
		build/mstat leaks --json --from "$tmp/lk-mix" >"$tmp/lk-mix.json"
		line=$(tr -d '\n' <"$tmp/lk-mix.json" |
		       grep -o '"kind": "stack", "site": "leak_mix[^}]*' |
		       grep -o '"rate_low_bps": [0-9.]*, "rate_high_bps": [0-9.]*')
		if [ -z "$line" ]; then
			echo "seed $seed: the stack is not named"
			continue
		fi
		named=$((named + 1))
		# shellcheck disable=SC2086 # its words
		set -- $line
		echo "seed $seed: [${2%,}, $4]"
		awk -v l="${2%,}" -v h="$4" -v t="$truth" 'BEGIN { exit !(t < l || t > h) }' &&
			miss=$((miss + 1))
	done
	echo "named $named of 20, the truth outside $miss"
	[ "$named" -eq 20 ] && [ "$miss" -le 1 ]
}

# One stack with 12,000 live samples of one size (profile_rate=64, 200
# allocations a second of 64 B for 100 s, read every 5 s): judged in
# under 3 s of CPU (a few tenths of a second), and named. Pairing every
# sample with every one of the last read's within 2.5 s of its birth,
# quadratic in the stack's samples, would take several seconds (5.4 s
# measured).
leaks_many_samples() {
	local rc

	leaks_gen "$tmp/lk-many" 'many leak size=64 rate=200 cache=kmalloc-64 fn=leak_many from=0' \
		D=100 I=5 R=64 warm=0 || return
	(ulimit -t 3 && exec build/mstat leaks --json --from "$tmp/lk-many") \
		>"$tmp/lk-many.json"
	rc=$?
	grep -c '^+ ' "$tmp/lk-many/0020.sites"
	echo "exit $rc (want 1)"
	[ "$rc" -eq 1 ] && grep -q '"site": "leak_many+' "$tmp/lk-many.json"
}

# Out of memory is an error (2), not a suspect (1): mstat leaks on a
# leaking replay under data limits from 300 KiB up. A limit too small for
# the C library's own start-up kills it before main() (a signal, no
# message); at least one limit must reach mstat's "out of memory".
leaks_oom() {
	local kib rc oom=0 dir=$tmp/lk-ms

	[ -d "$dir" ] || return
	for kib in 300 400 500 600 700 800 900 1000 1200 1400 1600 2000; do
		(ulimit -d "$kib" && exec build/mstat leaks --from "$dir") \
			>/dev/null 2>"$tmp/oom.err"
		rc=$?
		echo "ulimit -d $kib: exit $rc, $(cat "$tmp/oom.err")"
		if grep -q 'out of memory' "$tmp/oom.err"; then
			oom=$((oom + 1))
			[ "$rc" -eq 2 ] || return
		fi
	done
	[ "$oom" -gt 0 ]
}

# Every other read's /proc/mstat the read before's served again, as an
# unprivileged watch under proc_min_interval_ms reads it (the same
# generation, "snapshot_reused 1", 10 s old): the caches' verdicts are
# those of the reads between, alone.
leaks_served_again() {
	local f i

	leaks_gen "$tmp/lk-sa" 'lost leak size=256 rate=40 cache=kmalloc-256 cgroup=4001 fn=leak_lost from=0' ||
		return
	rm -rf "$tmp/lk-even" && mkdir "$tmp/lk-even" || return
	for f in "$tmp"/lk-sa/*.mstat; do
		i=$((10#$(basename "$f" .mstat)))
		sed -i "s/^generation .*/generation $((100 + i / 2 * 2))/" "$f"
		if [ $((i % 2)) -eq 1 ]; then
			awk '{ print } /^generation / { print "snapshot_reused 1"; print "snapshot_age_ms 10000" }' \
				"$prev" >"$f" || return
		else
			cp "$f" "${f%.mstat}.sites" "${f%.mstat}.time" "$tmp/lk-even/" || return
			prev=$f
		fi
	done
	build/mstat leaks --json --from "$tmp/lk-sa" >"$tmp/lk-sa.json"
	build/mstat leaks --json --from "$tmp/lk-even" >"$tmp/lk-even.json"
	grep -A2 '"kind": "cache"' "$tmp/lk-sa.json" >"$tmp/lk-sa.caches"
	grep -A2 '"kind": "cache"' "$tmp/lk-even.json" >"$tmp/lk-even.caches"
	cat "$tmp/lk-sa.caches"
	[ -s "$tmp/lk-sa.caches" ] && diff "$tmp/lk-even.caches" "$tmp/lk-sa.caches"
}

leaks_tests() {
	t leaks_served_again leaks_served_again
	t leaks_same_ms leaks_same_ms
	t leaks_oom leaks_oom
	t leaks_past_9999 leaks_past_9999
	t leaks_find leaks_find
	t leaks_source_switch leaks_source_switch
	t leaks_long_lived_free leaks_long_lived_free
	t leaks_filling leaks_filling
	t leaks_mixed leaks_mixed
	t leaks_many_samples leaks_many_samples
	t leaks_skewed leaks_skewed
	t leaks_irq_split leaks_irq_split
	t leaks_find_tampered leaks_find_tampered
	t leaks_none leaks_none
	t leaks_weak_catches leaks_weak_catches
	t leaks_sawtooth leaks_sawtooth
	t leaks_long_fresh leaks_long_fresh
	t leaks_slow leaks_slow
	t leaks_contradicted leaks_contradicted
	t leaks_min_rate leaks_min_rate
	t leaks_bad_input leaks_bad_input
	t leaks_usage leaks_usage
	t leaks_unjudged leaks_unjudged
	maybe leaks_serve curl "HTTP client" leaks_serve
	maybe serve_pprof_unlocked curl "HTTP client" serve_pprof_unlocked
	maybe serve_min_interval curl "HTTP client" serve_min_interval
	if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
		t leaks_watch leaks_watch
	else
		skip leaks_watch "needs root and unshare -m (a tmpfs over /proc)"
	fi
	t leaks_cgroups_from leaks_cgroups_from
	t leaks_fleet_from leaks_fleet_from
	t leaks_prom leaks_prom
	t slab_merged_names slab_merged_names
	t leaks_lazy_vmap_area leaks_lazy_vmap_area
}
