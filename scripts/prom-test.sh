#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The exporter with the real components: a stock 6.12 guest loads mstat.ko
# and writes three textfiles with `mstat prom -o`, a known load between
# two (scripts/guest/prom.sh: mstat_probe_bench's 20,000 kmalloc/kfree
# pairs, a walk of /sys, two seconds); the host decodes them from the
# console. Then Debian's prometheus-node-exporter (the textfile collector
# alone) and prometheus (scraping it every second), both started here on
# 127.0.0.1 and stopped at the end, read them: each is written into the
# collector's directory atomically (a temporary file renamed over
# mstat.prom, as the packaged service does) and left there until
# prometheus has scraped it twice. PromQL over the HTTP API must then
# answer what the textfiles say:
#  - every raw sample of mstat_allocs_total{source="kmalloc"}, of the
#    per-cache series mstat_cache_allocs_total of the cache whose
#    allocations grew most, and of mstat_class_allocs_total{class="64"}
#    equals the value in the textfile its scrape read (the one whose
#    mstat_generation the same scrape sampled), each textfile seen by two
#    scrapes at least;
#  - across each change of textfile, irate() at the first scrape of the
#    new one, and rate() over a window that holds just the two scrapes,
#    equal (v2 - v1) / (t2 - t1), t the two scrapes' timestamps and v
#    the two samples, which must also be the two textfiles' values.
# And: `promtool check metrics` accepts each textfile, the known load
# shows in the counts, the collector reported no error, both servers
# listened on 127.0.0.1 only, and the host part took less than 90 s.
#
#   scripts/prom-test.sh [--from DIR]
#
# One "ok NAME" or "not ok NAME: WHY" line per check (scripts/lib.sh);
# exits 1 if one failed. Uses build/6.12/mstat.ko and
# build/6.12/tests/bench/mstat_probe_bench.ko (scripts/build.sh) and
# build/tools/mstat (mstat_build_tools), and builds them if they are
# missing (never if they are stale). Logs, the console, the textfiles
# (snap-N.prom) and both servers' logs: build/logs/prom-test/. --from DIR:
# the textfiles of an earlier run, no guest.
#
# The deliberately broken mode, MSTAT_PROM_TAMPER=1: the second textfile
# is written into the directory with 1 added to each of the three series
# checked (still a valid file); every value check and every rate check
# must then fail, and prints "ok NAME-tampered (caught: WHY)" if it does,
# "not ok NAME-tampered: passed, but must fail" if not. Its logs:
# build/logs/prom-test-tampered/.
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP" || exit 1
snaps=3 pairs=20000 host_limit=90
tamper=${MSTAT_PROM_TAMPER:-0}
from=
if [ "${1:-}" = --from ] && [ $# -eq 2 ]; then
	from=$(realpath "$2")
elif [ $# -gt 0 ]; then
	die "usage: $0 [--from DIR]"
fi
out=$MSTAT_TOP/build/logs/prom-test
[ "$tamper" = 1 ] && out+=-tampered
[ "$from" != "$out" ] || die "--from: not the directory this run writes"
rm -rf "$out"
mkdir -p "$out"
MSTAT_LOGS=$out
tmp=$(mktemp -d)
pids=()

trap 'stop_servers; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

## The textfiles, from a guest

# val FILE SERIES: the value of SERIES (name{labels} as written) in FILE.
val() { awk -v s="$2" 'index($0, s " ") == 1 { print $2; exit }' "$1"; }

# decode: the textfiles printed between the guest's markers, each
# against the sha256 the guest printed with it.
decode() {
	local i sum
	tr -d '\r' <"$out/guest-6.12-prom.console" | awk -v dir="$out" '
		/^=== mstat-prom: end ===$/ { f = ""; next }
		/^=== mstat-prom: [0-9]+ [0-9a-f]+ ===$/ {
			f = dir "/snap-" $3 ".b64"
			print $4 >(dir "/snap-" $3 ".sha256")
			printf "" >f
			next
		}
		f && !/^\[/ { print >f }'
	for ((i = 1; i <= snaps; i++)); do
		base64 -d <"$out/snap-$i.b64" | gunzip >"$out/snap-$i.prom" ||
			return
		sum=$(sha256sum <"$out/snap-$i.prom")
		[ "${sum%% *}" = "$(cat "$out/snap-$i.sha256")" ] || {
			echo "snap-$i.prom: sha256 is not the guest's"
			return 1
		}
	done
}

if [ -n "$from" ]; then
	for ((i = 1; i <= snaps; i++)); do
		cp "$from/snap-$i.prom" "$out/" 2>/dev/null
	done
else
	if [ -z "${K612_VMLINUZ:-}" ] && ! mstat_setup_env; then
		not_ok "prom-setup, log: $mstat_setup_log"
		finish
	fi
	b=build/6.12
	if [ ! -f $b/mstat.ko ] || [ ! -f $b/tests/bench/mstat_probe_bench.ko ]; then
		t prom-build-6.12 scripts/build.sh "$K612_KDIR" $b
	fi
	[ -x build/tools/mstat ] || t prom-build-mstat mstat_build_tools mstat
	guest guest-6.12-prom "$K612_VMLINUZ" scripts/guest/prom.sh \
		$b/mstat.ko $b/tests/bench/mstat_probe_bench.ko \
		--file=build/tools/mstat:/mstat/mstat --timeout=300 \
		"--append=PROM_SNAPS=$snaps PROM_PAIRS=$pairs"
	collect_guests
	t prom-textfiles-decoded decode
fi
for ((i = 1; i <= snaps; i++)); do
	[ -s "$out/snap-$i.prom" ] || {
		not_ok "prom-textfiles: no $out/snap-$i.prom"
		finish
	}
done

## What the textfiles say

start=$SECONDS
deadline=$((start + host_limit))
kmalloc='mstat_allocs_total{source="kmalloc"}'
# promtool_check FILE: promtool's lint of FILE, its findings in the log.
promtool_check() { promtool check metrics <"$1"; }
gen=()
for ((i = 1; i <= snaps; i++)); do
	gen[i]=$(val "$out/snap-$i.prom" mstat_generation)
	t "prom-promtool-check-metrics-$i" promtool_check "$out/snap-$i.prom"
done
# The known load, in the counts: the bench's pairs at least, each time.
for ((i = 2; i <= snaps; i++)); do
	a=$(val "$out/snap-$((i - 1)).prom" "$kmalloc")
	z=$(val "$out/snap-$i.prom" "$kmalloc")
	d=$((${z:-0} - ${a:-0}))
	if [ -n "$a" ] && [ -n "$z" ] && [ "$d" -ge "$pairs" ]; then
		ok "prom-load-seen-$i (kmalloc allocations +$d, >= $pairs)"
	else
		not_ok "prom-load-seen-$i: kmalloc allocations +$d, < $pairs"
	fi
done
# Each textfile its own generation, so that a scrape says which it read.
if [ "$(printf '%s\n' "${gen[@]}" | sort -u | grep -c '^[0-9]\+$')" -ne "$snaps" ]; then
	not_ok "prom-generations: not $snaps different ones: ${gen[*]}"
	finish
fi

# The cache: of those with a plain name in every textfile, the one whose
# allocations grew most from the first to the last.
cache=$(for ((i = 1; i <= snaps; i++)); do
		sed -n 's/^mstat_cache_allocs_total{cache="\([A-Za-z0-9_.:-]\{1,\}\)"} \([0-9]\{1,\}\)$/\1 \2/p' \
			"$out/snap-$i.prom"
	done | awk -v n="$snaps" '
		{ c[$1]++; if (!($1 in a)) a[$1] = $2; z[$1] = $2 }
		END { for (k in c) if (c[k] == n) print z[k] - a[k], k }' |
	sort -k1,1nr -k2,2 | awk 'NR == 1 { print $2 }')
if [ -z "$cache" ]; then
	not_ok "prom-cache: no cache series in every textfile"
	finish
fi
# name series: the checked series.
names=(kmalloc-allocs "cache-allocs-$cache" class-64-allocs)
series=("$kmalloc" "mstat_cache_allocs_total{cache=\"$cache\"}"
	'mstat_class_allocs_total{class="64"}')
for ((k = 0; k < ${#series[@]}; k++)); do
	echo "# ${series[k]}: $(for ((i = 1; i <= snaps; i++)); do
		val "$out/snap-$i.prom" "${series[k]}"; done | tr '\n' ' ')"
done

## The servers

for c in prometheus-node-exporter prometheus promtool curl python3 ss; do
	command -v $c >/dev/null || {
		not_ok "prom-servers: no $c (scripts/setup.sh installs it)"
		finish
	}
done
tf=$tmp/textfile
mkdir -p "$tf" "$tmp/data"
ne_port=''
mstat_free_port ne_port
prometheus-node-exporter --web.listen-address="127.0.0.1:$ne_port" \
	--collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$tf" --web.disable-exporter-metrics \
	>"$out/node-exporter.log" 2>&1 &
pids+=($!)
mstat_prometheus_start "$tmp/prom" mstat "127.0.0.1:$ne_port" "$out/prometheus.log"
prom_port=$mstat_prom_port

# upto SECONDS CMD...: CMD every 0.2 s until it succeeds, for SECONDS at
# most, and never past the host part's deadline.
upto() {
	local end=$((SECONDS + $1))
	shift
	[ "$end" -le "$deadline" ] || end=$deadline
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.2
	done
}
get() { curl -fsS --max-time 5 "$@"; }

# server_up NAME SECONDS URL LOG: the server answers URL within SECONDS,
# or the test ends with its log's tail.
server_up() {
	if upto "$2" get -o /dev/null "$3" 2>/dev/null; then
		ok "prom-$1-up (${3#http://})"
		return
	fi
	not_ok "prom-$1-up, log: ${out#"$MSTAT_TOP"/}/$4"
	tail -n 20 "$out/$4" | show
	finish
}
server_up node-exporter 15 "http://127.0.0.1:$ne_port/metrics" node-exporter.log
server_up prometheus 30 "http://127.0.0.1:$prom_port/-/ready" prometheus.log
# Every socket either server listens on: 127.0.0.1 only.
ss -Hltnp | awk -v a="pid=${pids[0]}," -v b="pid=${pids[1]}," \
	'index($0, a) || index($0, b) { print $4 }' | sort -u >"$tmp/listen"
addrs=$(tr '\n' ' ' <"$tmp/listen")
if [ "$(wc -l <"$tmp/listen")" -ge 2 ] &&
   ! grep -qv '^127\.0\.0\.1:' "$tmp/listen"; then
	ok "prom-servers-loopback-only (${addrs% })"
else
	not_ok "prom-servers-loopback-only: ${addrs:-none found}"
fi

promq() { mstat_promq "$@"; }

# scraped GEN: prometheus holds two samples of mstat_generation GEN.
scraped() {
	[ "$(promq 'mstat_generation[5m]' 2>/dev/null |
	     awk -v g="$1" '$2 == g { n++ } END { print n + 0 }')" -ge 2 ]
}

# Each textfile in turn, atomically, until it has been scraped twice.
for ((i = 1; i <= snaps; i++)); do
	cp "$out/snap-$i.prom" "$tmp/snap.prom"
	if [ "$tamper" = 1 ] && [ "$i" -eq 2 ]; then
		for s in "${series[@]}"; do
			v=$(val "$tmp/snap.prom" "$s")
			awk -v s="$s" -v v="$((v + 1))" \
				'index($0, s " ") == 1 { $0 = s " " v } { print }' \
				"$tmp/snap.prom" >"$tmp/snap.tampered"
			mv "$tmp/snap.tampered" "$tmp/snap.prom"
		done
		t prom-promtool-check-metrics-tampered \
			promtool_check "$tmp/snap.prom"
	fi
	cp "$tmp/snap.prom" "$tf/.mstat.prom.tmp"
	chmod 0644 "$tf/.mstat.prom.tmp"
	mv "$tf/.mstat.prom.tmp" "$tf/mstat.prom"
	t0=$SECONDS
	if upto 20 scraped "${gen[i]}"; then
		ok "prom-scraped-$i (generation ${gen[i]}, twice in $((SECONDS - t0)) s)"
	else
		not_ok "prom-scraped-$i: generation ${gen[i]} not scraped twice in $((SECONDS - t0)) s"
		tail -n 20 "$out/prometheus.log" | show
		finish
	fi
done

## PromQL against the textfiles

# Every query at one time, so that every range holds the same scrapes.
at=$(date +%s%3N)
# Every scrape's generation: "TS GEN" a line.
promq 'mstat_generation[5m]' "$at" >"$tmp/gens" || {
	not_ok "prom-query-generation"
	finish
}
# want SERIES: "GEN VALUE" a line, from the textfiles.
want() {
	local i
	for ((i = 1; i <= snaps; i++)); do
		echo "${gen[i]} $(val "$out/snap-$i.prom" "$1")"
	done
}

# value NAME CMD...: a check of what PromQL answered; CMD prints what it
# found (on failure, only what is wrong), lines joined by "; " here. With
# MSTAT_PROM_TAMPER=1, CMD must fail.
value() {
	local name=$1 rc=0 why
	shift
	why=$("$@" 2>&1) || rc=$?
	why=$(sed ':a;N;$!ba;s/\n/; /g' <<<"$why")
	if [ "$tamper" = 1 ]; then
		if [ "$rc" -ne 0 ]; then
			ok "$name-tampered (caught: $why)"
		else
			not_ok "$name-tampered: passed, but must fail ($why)"
		fi
	elif [ "$rc" -eq 0 ]; then
		ok "$name ($why)"
	else
		not_ok "$name: $why"
	fi
}

# samples SERIES: each raw sample of SERIES is the value of the textfile
# its scrape read, and each textfile was read twice at least.
samples() {
	promq "$1[5m]" "$at" >"$tmp/samples" || return
	want "$1" >"$tmp/want"
	awk 'FILENAME == ARGV[1] { w[$1] = $2; next }
	     FILENAME == ARGV[2] { g[$1] = $2; next }
	     !($1 in g) || !(g[$1] in w) {
		print "sample at " $1 " (" $2 "): no textfile of its scrape"
		bad++
		next
	     }
	     $2 + 0 != w[g[$1]] + 0 {
		print "sample at " $1 ": " $2 ", textfile of generation " \
			g[$1] ": " w[g[$1]]
		bad++
	     }
	     { n[g[$1]]++ }
	     END {
		for (k in w)
			if (n[k] < 2) {
				print "generation " k ": " n[k] + 0 " samples"
				bad++
			}
		if (!bad)
			for (k in w)
				print "generation " k ": " n[k] " samples of " w[k]
		exit (bad > 0)
	     }' "$tmp/want" "$tmp/gens" "$tmp/samples" >"$tmp/judged"
	local rc=$?
	sort -n -k2 "$tmp/judged"
	return "$rc"
}

# near GOT WANT: equal but for rounding (a relative 1e-9).
near() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		d = a - b; m = b < 0 ? -b : b
		exit !((d < 0 ? -d : d) <= 1e-9 * (m > 1 ? m : 1)) }'
}

# rates FUNC I SERIES: FUNC (irate, or rate) at the first scrape of
# textfile I+1 (irate over a minute; rate over a window that holds just
# that scrape and the last of textfile I: their span plus 1 ms, which
# rate() extrapolates over) against (v2 - v1) / (t2 - t1), from those
# two samples and from the two textfiles; t in whole milliseconds, as
# prometheus keeps them, so that no rounding of the epoch enters.
rates() {
	local fn=$1 i=$2 s=$3 t1 t2 v1 v2 w1 w2 q from_samples from_files got
	t1=$(awk -v g="${gen[i]}" '$2 == g { t = $1 } END { print t }' "$tmp/gens")
	t2=$(awk -v g="${gen[i + 1]}" '$2 == g { print $1; exit }' "$tmp/gens")
	promq "${s}[5m]" "$at" >"$tmp/samples" || return
	v1=$(awk -v t="$t1" '$1 == t { print $2 }' "$tmp/samples")
	v2=$(awk -v t="$t2" '$1 == t { print $2 }' "$tmp/samples")
	w1=$(val "$out/snap-$i.prom" "$s")
	w2=$(val "$out/snap-$((i + 1)).prom" "$s")
	if [ -z "$t1" ] || [ -z "$t2" ] || [ -z "$v1" ] || [ -z "$v2" ]; then
		echo "no samples at the change from textfile $i to $((i + 1))"
		return 1
	fi
	from_samples=$(awk -v a="$v1" -v b="$v2" -v d="$((t2 - t1))" \
		'BEGIN { printf "%.15g", (b - a) * 1000 / d }')
	from_files=$(awk -v a="$w1" -v b="$w2" -v d="$((t2 - t1))" \
		'BEGIN { printf "%.15g", (b - a) * 1000 / d }')
	q="irate(${s}[1m])"
	[ "$fn" = irate ] || q="rate(${s}[$((t2 - t1 + 1))ms])"
	got=$(promq "$q" "$t2" | awk '{ print $2 }') || return
	echo "$q at $t2 ms: $got; (v2 - v1) / (t2 - t1): $from_samples from the samples ($v1 at $t1, $v2 at $t2), $from_files from the textfiles ($w1, $w2)"
	near "$got" "$from_samples" && near "$got" "$from_files"
}

for ((k = 0; k < ${#series[@]}; k++)); do
	value "prom-samples-${names[k]}" samples "${series[k]}"
done
for ((i = 1; i < snaps; i++)); do
	for fn in irate rate; do
		value "prom-$fn-kmalloc-allocs-$i-$((i + 1))" \
			rates "$fn" "$i" "$kmalloc"
	done
done
# The collector read every file it was given.
err=$(promq 'max_over_time(node_textfile_scrape_error[5m])' | awk '{ print $2 }')
if [ "$err" = 0 ]; then
	ok "prom-textfile-collector-no-error"
else
	not_ok "prom-textfile-collector-no-error: node_textfile_scrape_error ${err:-missing}"
fi
stop_servers
secs=$((SECONDS - start))
if [ "$secs" -lt "$host_limit" ]; then
	ok "prom-host-time ($secs s, limit $host_limit s)"
else
	not_ok "prom-host-time: $secs s, limit $host_limit s"
fi
finish
