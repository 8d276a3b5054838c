# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2154,SC2015 # tmp and the helpers are test.sh's; A && B || fail
# mstat memory, the account of a capture (format 1.6 on) beside its
# meminfo: its text and JSON, every line the sum of its parts, the slab's
# rows, a saved snapshot alone or served again, boot's first percpu
# chunk, the api line, the 1.6 checks, bad input; --by caller's vm
# areas; the account as Prometheus series, its moments and error (mstat
# prom, mstat serve); the heap profile's page samples (--sites, format
# 2.3): their kinds, the raw pages by caller, each estimate's standard
# error worked out from the file in awk, their series; tampered copies
# caught. vm_awk, vm_json_rows (shared with test_owners.sh) and pages_args
# (with json_names) are test.sh's. Sourced by test.sh, which runs
# memory_tests; memory_tests runs test.sh's live_at_load too, after
# memory_check.

# Format 1.6: the vmalloc and percpu sources, the vm rows, the kernel's
# counters, and mstat memory's account of them (memory.c), from a
# capture (testdata/README.md).
memory_text() {
	same testdata/expected/memory-1.6.txt 0 build/mstat memory \
		-f testdata/mstat-1.6.txt --meminfo testdata/meminfo-1.6.txt
}

memory_json() {
	same testdata/expected/memory-1.6.json 0 build/mstat memory --json \
		-f testdata/mstat-1.6.txt --meminfo testdata/meminfo-1.6.txt
}

# From format 1.8 (caches_at_load 1) the slab's objects are its rows' live
# bytes, which count from the caches' objects when counting began (at
# load or a reset), so never below zero for a free of an older object;
# "large" kmalloc and the overflow row, with no count then, are a line
# of their own, net; the rest is Slab less both. The figures from the
# fixture's rows by awk from $1, the tool's from $2 (default $1).
memory_slab_rows_check() {
	local want got
	want=$(awk '$1 == "cache" { o += $8 }
		$1 == "kmalloc_class" && $2 != "large" { o += $6 }
		$1 == "kmalloc_class" && $2 == "large" { n += $6 }
		$1 == "cache_overflow" { n += $6 }
		$1 == "kernel_slab_reclaimable_bytes" ||
		$1 == "kernel_slab_unreclaimable_bytes" { s += $2 }
		END { print o, n, s - o - n }' "$1")
	got=$(build/mstat memory --json -f "${2:-$1}" \
		--meminfo testdata/meminfo-1.6.txt |
		sed -n 's/.*"bytes": \(-*[0-9]*\), "line": "kernel\.slab\.\(mstat\|net\|rest\)".*/\1/p' |
		tr '\n' ' ' | sed 's/ $//')
	echo "want '$want' got '$got'"
	[ -n "$got" ] && [ "$want" = "$got" ]
}

memory_slab_rows() {
	memory_slab_rows_check testdata/mstat-1.8.txt || return
	# A row's live bytes moved under the tool: the check must see it.
	sed 's/^\(kmalloc_class 8 3 3 3072\) 24576/\1 28672/' \
		testdata/mstat-1.8.txt >"$tmp/slab-rows.txt"
	! memory_slab_rows_check testdata/mstat-1.8.txt "$tmp/slab-rows.txt" ||
		{ echo "the moved row went unnoticed"; return 1; }
}

# A saved snapshot without --meminfo is never set beside this machine's
# /proc/meminfo: its vmalloc and percpu lines are the snapshot's own
# counts (the fixture's vm vmalloc row's live bytes, its percpu source's),
# from="mstat".
memory_saved_alone() {
	local vm pc j
	vm=$(awk '$1 == "vm" && $2 == "vmalloc" { print $8 }' testdata/mstat-1.8.txt)
	pc=$(awk '$1 == "percpu_live_bytes" { print $2 }' testdata/mstat-1.8.txt)
	j=$(build/mstat memory --json -f testdata/mstat-1.8.txt) || return
	echo "$j" | grep '"line": "kernel\.\(vmalloc\|percpu\)"'
	echo "$j" | grep -q "\"bytes\": $vm, \"line\": \"kernel.vmalloc\", \"source\": \"mstat\"" &&
		echo "$j" | grep -q "\"bytes\": $pc, \"line\": \"kernel.percpu\", \"source\": \"mstat\""
}

# A snapshot served again (snapshot_age_ms 1500): the lines read from
# meminfo say it was read after a snapshot that old; a fresh one's do not.
memory_snapshot_age() {
	sed 's/^snapshot_age_ms 0$/snapshot_age_ms 1500/' testdata/mstat-1.8.txt \
		>"$tmp/aged.txt"
	grep -q '^snapshot_age_ms 1500$' "$tmp/aged.txt" || return
	build/mstat memory -f "$tmp/aged.txt" --meminfo testdata/meminfo-1.6.txt |
		grep -E '^ +(vmalloc|percpu) ' | tee "$tmp/aged.out"
	[ "$(grep -c 'served 1500 ms old' "$tmp/aged.out")" = 2 ] &&
		! build/mstat memory -f testdata/mstat-1.8.txt \
			--meminfo testdata/meminfo-1.6.txt | grep -q 'ms old'
}

# Boot's first percpu chunk (1.10): outside MemTotal's sum, sized from
# the static per-CPU data in kallsyms (0x39000, 6.12's), the module's
# reserve and dynamic part (8 + 28 KiB), page-aligned (66 pages) x 2
# units: 540,672 bytes; the percpu line is Percpu (584 KiB) less it, and
# its objects mstat counted are the live 160 bytes less the 64 in the
# first chunk, a line under it. Tampered: kallsyms with its addresses
# hidden (all 0, kptr_restrict) sizes nothing: Percpu stays whole.
memory_first_chunk() {
	local j

	sed -e 's/^mstat - version: 1.8$/mstat - version: 1.10/' \
		-e 's/^percpu_live_bytes 160$/percpu_live_bytes 160\npercpu_first_chunk_bytes 64/' \
		testdata/mstat-1.8.txt >"$tmp/fc.txt"
	printf '%s\n' 'kernel_percpu_first_chunk_reserved_bytes 8192' \
		'kernel_percpu_first_chunk_dynamic_bytes 28672' \
		'kernel_percpu_units 2' >>"$tmp/fc.txt"
	printf '%s\n' '0000000000000000 A __per_cpu_start' \
		'ffffffff81000000 T _stext' \
		'0000000000039000 A __per_cpu_end' >"$tmp/kallsyms"
	sed 's/^[0-9a-f]*/0000000000000000/' "$tmp/kallsyms" >"$tmp/kallsyms0"
	j=$(build/mstat memory --json -f "$tmp/fc.txt" \
		--meminfo testdata/meminfo-1.6.txt --kallsyms "$tmp/kallsyms") ||
		return
	echo "$j" | grep -E 'first_chunk|"kernel.percpu' >&2
	echo "$j" | grep -q '"bytes": 540672, "line": "boot.percpu_first_chunk"' &&
		echo "$j" | grep -q '"bytes": 64, "line": "boot.percpu_first_chunk.mstat"' &&
		echo "$j" | grep -q "\"bytes\": $((584 * 1024 - 540672)), \"line\": \"kernel.percpu\"" &&
		echo "$j" | grep -q '"bytes": 96, "line": "kernel.percpu.mstat"' || return
	j=$(build/mstat memory --json -f "$tmp/fc.txt" \
		--meminfo testdata/meminfo-1.6.txt --kallsyms "$tmp/kallsyms0") ||
		return
	! echo "$j" | grep -q 'boot.percpu_first_chunk' &&
		echo "$j" | grep -q "\"bytes\": $((584 * 1024)), \"line\": \"kernel.percpu\""
}

# What other modules reported through mstat's API (the api source) is a
# line of its own under MemTotal, "of which", in no sum: the unexplained
# rest is the same with it as without; no line with none live.
memory_api_line() {
	local j0 j1

	sed -e 's/^api_live_objects 0$/api_live_objects 3/' \
		-e 's/^api_live_bytes 0$/api_live_bytes 12288/' \
		testdata/mstat-1.8.txt >"$tmp/api.txt"
	grep -q '^api_live_bytes 12288$' "$tmp/api.txt" || return
	j0=$(build/mstat memory --json -f testdata/mstat-1.8.txt \
		--meminfo testdata/meminfo-1.6.txt) &&
	j1=$(build/mstat memory --json -f "$tmp/api.txt" \
		--meminfo testdata/meminfo-1.6.txt) || return
	! echo "$j0" | grep -q '"line": "api"' &&
		echo "$j1" | grep -q '"depth": 1, "name": "of which reported through mstat.s API", "bytes": 12288, "line": "api"' &&
		[ "$(echo "$j0" | grep '"line": "unexplained"')" = \
		  "$(echo "$j1" | grep '"line": "unexplained"')" ]
}

# Every line with parts is their sum ("of which" lines are inside their
# line, not parts of it); MemTotal is meminfo's; the rest is a line.
memory_sums() {
	build/mstat memory --json -f testdata/mstat-1.6.txt \
		--meminfo testdata/meminfo-1.6.txt | python3 -c '
import json, sys
a = json.load(sys.stdin)
l = a["lines"]
bad = 0
for i, x in enumerate(l):
    parts = []
    for y in l[i + 1:]:
        if y["depth"] <= x["depth"]:
            break
        if y["depth"] == x["depth"] + 1 and not y["name"].startswith("of which"):
            parts.append(y["bytes"])
    if parts and sum(parts) != x["bytes"]:
        print(x["name"], x["bytes"], "!= parts", sum(parts))
        bad = 1
mi = dict(s.split(":")[0:2] for s in open("testdata/meminfo-1.6.txt"))
if l[0]["bytes"] != int(mi["MemTotal"].split()[0]) * 1024:
    print("MemTotal", l[0]["bytes"], "not meminfo'"'"'s")
    bad = 1
if [x["name"] for x in l if x["depth"] == 1][-1] != "unexplained":
    print("no unexplained line")
    bad = 1
sys.exit(bad)'
}

# A change of one kernel counter moves the unexplained line by as much:
# the account takes it, and hides nothing.
memory_moves() {
	local u0 u1 f

	f=$(sed -n 's/^kernel_mem_free_bytes //p' testdata/mstat-1.6.txt)
	sed "s/^kernel_mem_free_bytes .*/kernel_mem_free_bytes $((f - 8192))/" \
		testdata/mstat-1.6.txt >"$tmp/m16.txt" &&
	u0=$(build/mstat memory --json -f testdata/mstat-1.6.txt \
		--meminfo testdata/meminfo-1.6.txt | grep -o '"unexplained": [0-9]*') &&
	u1=$(build/mstat memory --json -f "$tmp/m16.txt" \
		--meminfo testdata/meminfo-1.6.txt | grep -o '"unexplained": [0-9]*') &&
	echo "$u0 / $u1" && [ $((${u1##* } - ${u0##* })) = 8192 ]
}

# The 1.6 capture through the checker; a vm row that does not add up to
# the vmalloc source, and a missing kind, are caught.
memory_check() {
	build/mstat check testdata/mstat-1.6.txt || return 1
	mkdir -p "$tmp/chk16"
	sed 's/^vm vmap \([0-9]*\) /vm vmap 1\1 /' testdata/mstat-1.6.txt \
		>"$tmp/chk16/sum.txt"
	sed '/^vm ioremap /d' testdata/mstat-1.6.txt >"$tmp/chk16/kind.txt"
	! build/mstat check "$tmp/chk16/sum.txt" >"$tmp/chk16/sum.out" &&
		grep -q 'sum of vm allocs' "$tmp/chk16/sum.out" &&
		! build/mstat check "$tmp/chk16/kind.txt" >"$tmp/chk16/kind.out" &&
		grep -q 'vm ioremap missing' "$tmp/chk16/kind.out"
}
# Older formats have no account to give; a missing meminfo is an error.
memory_errors() {
	expect_err 1 'format 1\.2 has no kernel counters \(1\.6 on\)' \
		build/mstat memory -f testdata/mstat-1.2.txt \
		--meminfo testdata/meminfo-1.6.txt &&
	expect_err 1 'nope: No such file' build/mstat memory \
		-f testdata/mstat-1.6.txt --meminfo "$tmp/nope" &&
	expect_err 2 '^mstat: unknown option --meminfo for mstat top ' \
		build/mstat top --meminfo x
}

# --by caller: the vm areas of testdata/vmallocinfo-host.txt (a trimmed
# capture of a host's /proc/vmallocinfo and two areas of a module made by
# hand) by caller. Each caller's bytes and areas against awk's sums of
# the same file (pages=N x 4096 of the areas that have pages, the
# caller's function without its offset, a module's name after it); the
# total theirs; --top 3 the three largest and "every other caller", the
# rest's sum; the areas without pages (ioremap, vmap, vm_map_ram,
# unpurged) apart. Bad input: --by or --top wrong (usage), a saved
# snapshot without --vmallocinfo, a file of another format (errors).
memory_by_caller() {
	local f=testdata/vmallocinfo-host.txt want got total rest
	local m=(build/mstat memory -f testdata/mstat-1.9.txt --meminfo testdata/meminfo-1.9.txt)
	"${m[@]}" --by caller --top 10000 --vmallocinfo "$f" --json >"$tmp/vm.json" || return
	want=$(vm_awk "$f") got=$(vm_json_rows "$tmp/vm.json")
	echo "awk:"; echo "$want"; echo "mstat:"; echo "$got"
	[ -n "$want" ] && [ "$want" = "$got" ] || return
	total=$(awk -F'|' '{ s += $2 } END { print s }' <<<"$want")
	grep -q "\"areas\": 19, \"bytes\": $total, \"areas_without_pages\": 8," "$tmp/vm.json" ||
		{ echo "total not $total, or not 8 areas without pages"; return 1; }
	"${m[@]}" --by caller --top 3 --vmallocinfo "$f" --json >"$tmp/vm3.json" || return
	got=$(vm_json_rows "$tmp/vm3.json")
	rest=$(sort -t'|' -k2,2nr <<<"$want" | tail -n +4 | awk -F'|' '{ s += $2; n += $3 } END { print s "|" n }')
	echo "--top 3:"; echo "$got"
	[ "$(grep -c . <<<"$got")" -eq 4 ] &&
		grep -qx "every other caller|$rest" <<<"$got" &&
		[ "$(grep -v '^every other' <<<"$got")" = "$(sort -t'|' -k2,2nr <<<"$want" | head -n 3 | sort)" ] ||
		return
	"${m[@]}" --by caller --vmallocinfo "$f" >"$tmp/vm.txt" || return
	grep -q '^vmalloc by caller (the kernel.s testdata/vmallocinfo-host.txt: 19 areas with pages, ' "$tmp/vm.txt" &&
		grep -Eq '^ +8\.0 MiB  hold_init \[mstat_hold\] +2 areas$' "$tmp/vm.txt" &&
		grep -Eq '^ +2\.8 MiB  htab_map_alloc +3 areas  BPF maps$' "$tmp/vm.txt" || return
	expect_err 2 '^mstat: --by wants caller, got cgroups' "${m[@]}" --by cgroups &&
		expect_err 2 '^mstat: --top wants 1 to 10000, got 0' "${m[@]}" --by caller --top 0 &&
		expect_err 1 'needs --vmallocinfo FILE' "${m[@]}" --by caller &&
		expect_err 1 "not /proc/vmallocinfo's format" "${m[@]}" --by caller \
			--vmallocinfo testdata/meminfo-1.9.txt
}

# The two sources through the snapshot's outputs: JSON and Prometheus
# name them; a 1.0 file's outputs do not (json_values, prom_values).
memory_sources() {
	build/mstat --json -f testdata/mstat-1.6.txt | grep -q '"vmalloc": {' &&
		build/mstat prom -f testdata/mstat-1.6.txt |
		grep -q '^mstat_allocs_total{source="percpu"} ' &&
		! build/mstat --json -f testdata/mstat-1.0.txt | grep -q vmalloc
}

# The account as Prometheus series (mstat prom, mstat serve): one series
# a line, the same bytes as mstat memory --json's, total = free + user +
# kernel + unexplained; without --meminfo beside a saved file, vmalloc
# and percpu are mstat's own counts (from="mstat"); a format before 1.6
# has none. promtool takes them (prom_promtool's check on this file).
memory_prom() {
	local p=$tmp/m16.prom j=$tmp/m16.json

	build/mstat prom -f testdata/mstat-1.6.txt \
		--meminfo testdata/meminfo-1.6.txt >"$p" &&
	build/mstat memory --json -f testdata/mstat-1.6.txt \
		--meminfo testdata/meminfo-1.6.txt >"$j" || return 1
	# Each JSON line's bytes as the series of its line.
	sed -n 's/.*"bytes": \(-*[0-9]*\), "line": "\([^"]*\)", "source": "\([a-z]*\)".*/mstat_memory_bytes{line="\2",from="\3"} \1/p' \
		"$j" >"$tmp/m16.want" &&
	grep '^mstat_memory_bytes{' "$p" >"$tmp/m16.got" &&
	[ "$(wc -l <"$tmp/m16.got")" -ge 18 ] &&
	diff -u "$tmp/m16.want" "$tmp/m16.got" &&
	awk -F' ' '/^mstat_memory_bytes\{line="(free|free_pcp|user|kernel|unexplained)",/ { s += $2 }
		/^mstat_memory_bytes\{line="total",/ { t = $2 }
		END { print "total " t ", parts " s; exit !(t > 0 && s == t) }' "$p" &&
	{ ! command -v promtool >/dev/null || promtool check metrics <"$p"; } &&
	build/mstat prom -f testdata/mstat-1.6.txt |
		grep -qx 'mstat_memory_bytes{line="kernel.vmalloc",from="mstat"} [0-9]*' &&
	! build/mstat prom -f testdata/mstat-1.2.txt | grep -q '^mstat_memory_bytes'
}

# The account's moments and error as series (mstat prom, mstat serve):
# testdata/mstat-1.9-reused.txt is mstat-1.9.txt served again 2.5 s old
# (snapshot_reused 1, snapshot_age_ms 2500), meminfo-1.9.txt read beside
# each. prom_moment FILE AGE [MEMINFO] checks mstat prom on FILE: the
# snapshot's age AGE (seconds, 3 places) once, and beside MEMINFO the
# account's too; unexplained's bound as lag_bound()'s rule gives it from
# the file, the zone lag for each zone counter it has (mem_free, zspages,
# unaccepted), the node lag for each node one (anon, file, swapcache, the
# two slabs, kernel stacks, page tables, secondary ones, reclaimable not
# slab, vmalloc): 3 x 163840 + 9 x 131072 = 1671168 for these, and as
# mstat memory --json's unexplained_bound; no account age without
# MEMINFO (nothing read beside the snapshot).
prom_moment() {
	local f=$1 age=$2 mi=${3:-} want p=$tmp/moment.prom args=()

	[ -n "$mi" ] && args=(--meminfo "$mi")
	want=$(awk '$1 == "kernel_zone_stat_lag_bytes" { z = $2 }
		$1 == "kernel_node_stat_lag_bytes" { n = $2 }
		$1 ~ /^kernel_(mem_free|zspages|unaccepted)_bytes$/ { nz++ }
		$1 ~ /^kernel_(anon|file|swapcache|slab_reclaimable|slab_unreclaimable|kernel_stack|page_tables|sec_page_tables|kernel_misc_reclaimable|vmalloc)_bytes$/ { nn++ }
		END { if (z != "") print nz * z + nn * n }' "$f")
	build/mstat prom -f "$f" "${args[@]}" >"$p" || return
	grep -E '^mstat_(memory_unexplained_bound_bytes|memory_snapshot_age_seconds|snapshot_age_seconds) ' "$p"
	echo "want: bound ${want:-none}, age $age${mi:+, and the account age}"
	[ "$(grep -cx "mstat_snapshot_age_seconds $age" "$p")" = 1 ] || return
	if [ -n "$mi" ]; then
		[ "$(grep -cx "mstat_memory_snapshot_age_seconds $age" "$p")" = 1 ] ||
			return
	else
		! grep -q '^mstat_memory_snapshot_age_seconds' "$p" || return
	fi
	if [ -z "$want" ]; then
		! grep -q '^mstat_memory_unexplained_bound_bytes' "$p"
		return
	fi
	grep -qx "mstat_memory_unexplained_bound_bytes $want" "$p" &&
		build/mstat memory --json -f "$f" "${args[@]}" |
		grep -qx "  \"unexplained_bound\": $want," &&
		{ ! command -v promtool >/dev/null || promtool check metrics <"$p"; }
}

# The fresh snapshot (age 0) and the one served again (2.5 s) beside
# meminfo, and without it; 1.8 has no bound, nor 1.0 an age. The account's
# lines are the same for both: the age is said, not folded in. Tampered:
# the served-again file without its snapshot_age_ms line reads 0 s old,
# which must fail the 2.5 s check; its lag lines changed must fail the
# bound's (the want is the untampered file's).
memory_prom_moment() {
	local r=testdata/mstat-1.9-reused.txt mi=testdata/meminfo-1.9.txt

	grep -qx 'snapshot_age_ms 2500' "$r" &&
		grep -qx 'snapshot_reused 1' "$r" || return
	prom_moment testdata/mstat-1.9.txt 0.000 "$mi" &&
		prom_moment "$r" 2.500 "$mi" &&
		prom_moment "$r" 2.500 &&
		prom_moment testdata/mstat-1.8.txt 0.000 testdata/meminfo-1.6.txt &&
		prom_moment testdata/mstat-1.0.txt 0.000 || return
	build/mstat prom -f testdata/mstat-1.9.txt --meminfo "$mi" |
		grep '^mstat_memory_bytes{' >"$tmp/moment-fresh" &&
	build/mstat prom -f "$r" --meminfo "$mi" |
		grep '^mstat_memory_bytes{' >"$tmp/moment-reused" &&
	diff -u "$tmp/moment-fresh" "$tmp/moment-reused" || return
	sed '/^snapshot_age_ms /d' "$r" >"$tmp/moment-noage.txt"
	if prom_moment "$tmp/moment-noage.txt" 2.500 "$mi" >"$tmp/moment-t.out"; then
		echo "the age dropped went unnoticed"
		return 1
	fi
	echo "caught: the age dropped ($(grep '^mstat_.*_age_seconds ' "$tmp/moment-t.out" | tr '\n' ' '))"
	sed 's/^kernel_node_stat_lag_bytes .*/kernel_node_stat_lag_bytes 0/' "$r" \
		>"$tmp/moment-lag.txt" &&
		build/mstat prom -f "$tmp/moment-lag.txt" --meminfo "$mi" \
		>"$tmp/moment-lag.prom" || return
	if grep -qx 'mstat_memory_unexplained_bound_bytes 1671168' "$tmp/moment-lag.prom"; then
		echo "the node lag zeroed went unnoticed"
		return 1
	fi
	echo "caught: the node lag zeroed ($(grep '^mstat_memory_unexplained_bound_bytes' "$tmp/moment-lag.prom"))"
}

# mstat serve on the snapshot served again, 2.5 s old, with a
# --min-interval of 1 s (the snapshot older than the server's own bound
# allows): /metrics gives it as it is, its age in both series, its account
# as mstat prom's (serve.c: served and held as any other). Tampered: the
# same file without its age must fail the check.
serve_moment() {
	local f=$1 out=$2 ok=1

	serve_start "$out.err" --min-interval 1000 \
		-f "$f" --meminfo testdata/meminfo-1.9.txt || return
	curl -sS --max-time 30 "http://127.0.0.1:$serve_port/metrics" >"$out" || ok=0
	serve_stop
	grep -E '^mstat_(memory_snapshot_age_seconds|snapshot_age_seconds|memory_unexplained_bound_bytes) ' "$out"
	build/mstat prom -f "$f" --meminfo testdata/meminfo-1.9.txt |
		grep '^mstat_memory_' >"$out.want"
	[ "$ok" = 1 ] &&
		grep -qx 'mstat_memory_snapshot_age_seconds 2.500' "$out" &&
		grep -qx 'mstat_snapshot_age_seconds 2.500' "$out" &&
		grep -qx 'mstat_memory_unexplained_bound_bytes 1671168' "$out" &&
		grep '^mstat_memory_' "$out" | diff -u "$out.want" -
}

memory_serve_moment() {
	serve_moment testdata/mstat-1.9-reused.txt "$tmp/moment-serve.prom" ||
		return
	sed '/^snapshot_age_ms /d' testdata/mstat-1.9-reused.txt \
		>"$tmp/moment-serve-noage.txt"
	if serve_moment "$tmp/moment-serve-noage.txt" "$tmp/moment-serve-t.prom" \
		>"$tmp/moment-serve-t.out" 2>&1; then
		echo "the age dropped went unnoticed"
		return 1
	fi
	echo "caught: the age dropped ($(grep -h '^mstat_.*_age_seconds ' "$tmp/moment-serve-t.prom" | tr '\n' ' '))"
}

# mstat memory with the heap profile's page samples (format 2.3:
# testdata/mstat_sites-2.3.txt, made by testdata/pages-gen.awk; README):
# each page row goes to the kind its stack names, and only the raw ones
# are "of which raw pages, sampled", by caller, largest first. The
# figures, by hand from the file's est_bytes and sampled_calls: raw
# 540843 + 270421 (e1000_alloc_rx_buffers's two stacks, 8 and 4 pages) +
# 473237 (__rb_allocate_pages, 7) = 1284501 from 19 samples; one s.e. of
# n pages, each sampled with p = 1 - e^(-4096/65536), sqrt(n (1 - p)) x
# 4096 / p (Horvitz-Thompson), rounded: 285618 for the 19; by caller
# 811264 (12 samples, +- 226986), then 473237 (7, +- 173364); slab
# 608448 (allocate_slab), vmalloc 338027
# (vm_area_alloc_pages), page tables 202816 (pte_alloc_one, nearer than
# the fault's frames), anon 270421 + 135211 = 405632 (do_anonymous_page,
# wp_page_copy under do_wp_page); 42 page samples. The kmalloc row of
# e1000_alloc_rx_buffers (est_bytes 1969922) and the cache row are no
# pages: counted, either would show.
pages_want_kinds='"pages_sampled": { "rate": 65536, "samples": 42, "raw": 1284501, "slab": 608448, "vmalloc": 338027, "page tables": 202816, "kernel stacks": 0, "percpu": 0, "file": 0, "anon": 405632, "PUD page tables": 0, "kernel page tables": 0 },'

# pages_raw JSON: mstat memory --json's raw page lines, "NAME|BYTES|SE|N".
pages_raw() {
	sed -n 's/.*"name": "\([^"]*\)", "bytes": \(-*[0-9]*\), "line": "unexplained\.raw_sampled[^"]*", "source": "mstat", "from": "mstat: [^"]*+-\([0-9]*\) (1 s\.e\.), \([0-9]*\) samples".*/\1|\2|\3|\4/p' "$1"
}

# pages_check SITES KINDS RAW: mstat memory --json with SITES has the
# page kinds KINDS and the raw lines RAW (pages_raw's), in that order.
pages_check() {
	local j=$tmp/pages.json

	build/mstat memory --json "${pages_args[@]}" --sites "$1" >"$j" ||
		return 1
	grep -F "\"pages_sampled\"" "$j"
	pages_raw "$j" | tee "$tmp/pages.raw"
	grep -qxF "  $2" "$j" && diff -u <(printf '%s\n' "$3") "$tmp/pages.raw"
}

memory_pages_text() {
	same testdata/expected/memory-pages-2.3.txt 0 build/mstat memory \
		"${pages_args[@]}" --sites testdata/mstat_sites-2.3.txt
}

# The hand's figures; and the rest of the account is the same lines as
# without the profile (the samples only add "of which" lines).
memory_pages() {
	pages_check testdata/mstat_sites-2.3.txt "$pages_want_kinds" \
		'of which raw pages, sampled|1284501|285618|19
e1000_alloc_rx_buffers [e1000]|811264|226986|12
__rb_allocate_pages|473237|173364|7' || return 1
	build/mstat memory --json "${pages_args[@]}" | grep '"depth"' \
		>"$tmp/pages-none.lines" &&
	build/mstat memory --json "${pages_args[@]}" \
		--sites testdata/mstat_sites-2.3.txt |
		grep '"depth"' | grep -v '"line": "unexplained\.raw_sampled' |
		sed 's/ },$/ }/' >"$tmp/pages-with.lines" &&
	diff -u <(sed 's/ },$/ }/' "$tmp/pages-none.lines") "$tmp/pages-with.lines"
}

# Tampered copies move the figures as the hand says, so the test above
# can fail. __rb_allocate_pages's stack with new_slab for
# ring_buffer_resize: its 473237 are slab (608448 + 473237 = 1081685),
# one raw caller is left, 811264 from 12 samples (+-226986). The 8-page
# e1000 row's source made kmalloc: 34 page samples, raw 270421 + 473237
# = 743658 from 11 (+- sqrt(11 (1 - p)) 4096 / p = 217323, as above), and
# __rb_allocate_pages (473237) now comes first, e1000_alloc_rx_buffers
# 270421 from 4 (+-131051) second.
memory_pages_tamper() {
	local f=testdata/mstat_sites-2.3.txt

	sed 's/^\tring_buffer_resize+/\tnew_slab+/' "$f" >"$tmp/pages-slab.txt" &&
	sed 's/^\(540843 132 32768 8 10 .* \)page \(e1000_alloc_rx_buffers+\)/\1kmalloc \2/' \
		"$f" >"$tmp/pages-src.txt" &&
	! cmp -s "$f" "$tmp/pages-slab.txt" && ! cmp -s "$f" "$tmp/pages-src.txt" &&
	pages_check "$tmp/pages-slab.txt" \
		'"pages_sampled": { "rate": 65536, "samples": 42, "raw": 811264, "slab": 1081685, "vmalloc": 338027, "page tables": 202816, "kernel stacks": 0, "percpu": 0, "file": 0, "anon": 405632, "PUD page tables": 0, "kernel page tables": 0 },' \
		'of which raw pages, sampled|811264|226986|12
e1000_alloc_rx_buffers [e1000]|811264|226986|12' &&
	pages_check "$tmp/pages-src.txt" \
		'"pages_sampled": { "rate": 65536, "samples": 34, "raw": 743658, "slab": 608448, "vmalloc": 338027, "page tables": 202816, "kernel stacks": 0, "percpu": 0, "file": 0, "anon": 405632, "PUD page tables": 0, "kernel page tables": 0 },' \
		'of which raw pages, sampled|743658|217323|11
__rb_allocate_pages|473237|173364|7
e1000_alloc_rx_buffers [e1000]|270421|131051|4' &&
	! pages_check "$tmp/pages-src.txt" "$pages_want_kinds" \
		'of which raw pages, sampled|1284501|285618|19
e1000_alloc_rx_buffers [e1000]|811264|226986|12
__rb_allocate_pages|473237|173364|7' >/dev/null
}

# Each kind's standard error and samples (pages_sampled_stderr,
# pages_sampled_n), what scripts/guest/kinds.sh judges a kind's estimate
# by: every page of testdata/mstat_sites-2.3.txt is an order-0 page
# sampled with p = 1 - e^(-1/16), so a kind of n samples has one s.e. of
# sqrt(n (1 - p)) x 4096 / p, by hand: raw 19 (285618), slab 9 (196576),
# vmalloc 5 (146519), page tables 3 (113493), anon 6 (160504); with
# __rb_allocate_pages's 7 made slab (memory_pages_tamper's copy), slab
# 16 (262101) and raw 12 (226986).
pages_want_se() {
	printf '  "pages_sampled_stderr": { "raw": %s, "slab": %s, "vmalloc": 146519, "page tables": 113493, "kernel stacks": 0, "percpu": 0, "file": 0, "anon": 160504, "PUD page tables": 0, "kernel page tables": 0 },\n' "$1" "$2"
	printf '  "pages_sampled_n": { "raw": %s, "slab": %s, "vmalloc": 5, "page tables": 3, "kernel stacks": 0, "percpu": 0, "file": 0, "anon": 6, "PUD page tables": 0, "kernel page tables": 0 },\n' "$3" "$4"
}
memory_pages_kinds_stderr() {
	local f=testdata/mstat_sites-2.3.txt

	sed 's/^\tring_buffer_resize+/\tnew_slab+/' "$f" >"$tmp/pages-slab.txt" &&
	build/mstat memory --json "${pages_args[@]}" --sites "$f" |
		grep -E '^  "pages_sampled_(stderr|n)"' >"$tmp/kinds-se" &&
	diff -u <(pages_want_se 285618 196576 19 9) "$tmp/kinds-se" &&
	build/mstat memory --json "${pages_args[@]}" --sites "$tmp/pages-slab.txt" |
		grep -E '^  "pages_sampled_(stderr|n)"' >"$tmp/kinds-se-t" &&
	diff -u <(pages_want_se 226986 262101 12 16) "$tmp/kinds-se-t" &&
	! diff -q "$tmp/kinds-se" "$tmp/kinds-se-t" >/dev/null
}

# Page tables NR_PAGETABLE leaves out (1.10): the row whose innermost
# known frame is __pud_alloc (the testdata's pte_alloc_one row, renamed)
# is a kind of its own, and a line under unexplained where the snapshot says
# kernel_pud_uncounted 1, its bytes the kind's, with its standard error;
# none where it says 0 (the kernel counts them: page tables); the
# kernel's PTE pages likewise (__pte_alloc_kernel).
memory_pages_pt_uncounted() {
	local f=$tmp/pt-sites.txt j

	sed 's/ page pte_alloc_one+/ page __pud_alloc+/' testdata/mstat_sites-2.3.txt >"$f"
	grep -q ' page __pud_alloc+' "$f" || return
	sed 's/^mstat - version: 1.8$/mstat - version: 1.10/' testdata/mstat-1.8.txt >"$tmp/pt.txt"
	printf '%s\n' 'kernel_pud_uncounted 1' 'kernel_pte_kernel_uncounted 1' >>"$tmp/pt.txt"
	j=$(build/mstat memory --json -f "$tmp/pt.txt" --meminfo testdata/meminfo-1.6.txt --sites "$f") || return
	echo "$j" | grep -E 'pt_(pud|kernel)_sampled|"pages_sampled"' >&2
	echo "$j" | grep -q '"bytes": 202816, "line": "unexplained.pt_pud_sampled".*+-113493 (1 s.e.), 3 samples' &&
		echo "$j" | grep -q '"bytes": 0, "line": "unexplained.pt_kernel_sampled"' &&
		echo "$j" | grep -q '"page tables": 0, .*"PUD page tables": 202816' || return
	sed 's/ page __pud_alloc+/ page __pte_alloc_kernel+/' "$f" >"$f.k"
	j=$(build/mstat memory --json -f "$tmp/pt.txt" --meminfo testdata/meminfo-1.6.txt --sites "$f.k") || return
	echo "$j" | grep -q '"bytes": 202816, "line": "unexplained.pt_kernel_sampled"' || return
	sed -i 's/^kernel_pud_uncounted 1$/kernel_pud_uncounted 0/' "$tmp/pt.txt"
	j=$(build/mstat memory --json -f "$tmp/pt.txt" --meminfo testdata/meminfo-1.6.txt --sites "$f") || return
	! echo "$j" | grep -q 'pt_pud_sampled'
}

# Samples the profile dropped (no room: stack_drops, addr_drops) make
# every sampled line low: mstat memory says how many, in its text and as
# pages_sampled_dropped; 0 and no such line where none was.
memory_pages_dropped() {
	local f=$tmp/dropped-sites.txt

	sed '2s/ stack_drops 0 addr_drops 0 / stack_drops 5 addr_drops 37 /' \
		testdata/mstat_sites-2.3.txt >"$f"
	grep -q ' addr_drops 37 ' "$f" || return
	build/mstat memory "${pages_args[@]}" --sites "$f" |
		grep -q '^  the profile dropped 42 samples' &&
		build/mstat memory --json "${pages_args[@]}" --sites "$f" |
		grep -q '"pages_sampled_dropped": 42,' &&
		build/mstat memory --json "${pages_args[@]}" \
			--sites testdata/mstat_sites-2.3.txt |
		grep -q '"pages_sampled_dropped": 0,' &&
		! build/mstat memory "${pages_args[@]}" \
			--sites testdata/mstat_sites-2.3.txt | grep -q 'dropped'
}

# The raw pages by caller as Prometheus series (mstat prom --sites): a
# caller's bytes and standard error are mstat memory --json's; every
# other series but the cgroups' sampled ones (test_owners.sh's) is as
# without --sites, in the same order (guests parse them); no raw series
# without page samples (a 2.2 file) or --sites.
memory_pages_prom() {
	local p=$tmp/pages.prom

	build/mstat prom "${pages_args[@]}" --sites testdata/mstat_sites-2.3.txt \
		>"$p" &&
	build/mstat memory --json "${pages_args[@]}" \
		--sites testdata/mstat_sites-2.3.txt >"$tmp/pages.json" || return 1
	pages_raw "$tmp/pages.json" | sed 1d | awk -F'|' '
		{ b = b sprintf("mstat_memory_raw_pages_bytes{caller=\"%s\"} %s\n", $1, $2)
		  e = e sprintf("mstat_memory_raw_pages_stderr_bytes{caller=\"%s\"} %s\n", $1, $3) }
		END { printf "%s%s", b, e }' >"$tmp/pages-prom.want" &&
	grep '^mstat_memory_raw_pages' "$p" | tee "$tmp/pages-prom.got" &&
	[ "$(wc -l <"$tmp/pages-prom.got")" = 4 ] &&
	diff -u "$tmp/pages-prom.want" "$tmp/pages-prom.got" &&
	build/mstat prom "${pages_args[@]}" >"$tmp/pages-none.prom" &&
	grep -v '^\(# [A-Z]* \)\?mstat_\(memory_raw_pages\|cgroup_kernel\)' "$p" |
		grep -v '^mstat_snapshot_wait_seconds ' >"$tmp/pages-rest.prom" &&
	grep -v '^mstat_snapshot_wait_seconds ' "$tmp/pages-none.prom" |
		diff -u - "$tmp/pages-rest.prom" &&
	{ ! command -v promtool >/dev/null || promtool check metrics <"$p"; } &&
	! build/mstat prom "${pages_args[@]}" --sites testdata/mstat_sites-2.2.txt |
		grep -q raw_pages &&
	expect_err 1 'nope' build/mstat prom "${pages_args[@]}" --sites "$tmp/nope"
}

# The same series from mstat serve's /metrics (--sites beside -f).
memory_pages_serve() {
	local ok=1

	serve_start "$tmp/serve-p.err" --min-interval 0 \
		-f testdata/mstat-1.6.txt --sites testdata/mstat_sites-2.3.txt ||
		return
	curl -sS --max-time 30 "http://127.0.0.1:$serve_port/metrics" \
		>"$tmp/pages-serve.prom" || ok=0
	serve_stop
	build/mstat prom -f testdata/mstat-1.6.txt \
		--sites testdata/mstat_sites-2.3.txt | grep '^mstat_memory_raw' \
		>"$tmp/pages-serve.want"
	grep '^mstat_memory_raw' "$tmp/pages-serve.prom" | tee "$tmp/pages-serve.got"
	[ "$ok" = 1 ] && [ -s "$tmp/pages-serve.want" ] &&
		diff -u "$tmp/pages-serve.want" "$tmp/pages-serve.got"
}

# The second page fixture, testdata/mstat_sites-2.3-mydrv.txt (made by
# pages-gen.awk -v set=mydrv; README): a driver's raw pages under the page
# allocator's own frames, clones, kinds decided by other kernels' frames,
# and a row of mixed sizes.
mydrv=testdata/mstat_sites-2.3-mydrv.txt

# pages_ht SITES: each page row of SITES as "SITE|CALLER|E|V|N", worked
# from the file alone. E, its estimate in use, and V, the variance of E,
# by Horvitz-Thompson: each live line an object of s bytes sampled with
# p = 1 - exp(-s/R), E += s/p, V += (1 - p) s^2 / p^2; what the live
# lines leave of the row's sampled bytes and objects, objects of their
# mean size sampled with the chance the module scaled the row by
# (sampled_bytes / est_bytes). E rounded a row. SITE: the first frame's
# function; CALLER: the first frame of a module, "FUNC [MOD]", FUNC cut
# at its first "+" or "." (in these fixtures every frame of the page
# allocator's is the kernel's and every caller a module's), "-" if none;
# N: sampled_calls.
pages_ht() {
	awk '
	function flush(    rb, rn, q) {
		if (!on)
			return
		rb = sb - lb
		rn = sn - ln
		if (rb > 0 && est > 0) {
			q = sb / est
			if (rn < 1)
				rn = 1
			e += rb / q
			v += rn * (1 - q) * (rb / rn / q) ^ 2
		}
		printf "%s|%s|%.0f|%.6f|%d\n", site, caller, e, v, sn
		on = 0
	}
	function func_of(f) {
		sub(/[+.].*/, "", f)
		return f
	}
	/^# snapshot / {
		for (i = 2; i < NF; i++)
			if ($i == "sample_rate")
				R = $(i + 1)
	}
	/^[-0-9]/ {
		flush()
		if ($12 != "page")
			next
		on = 1
		est = $1; sb = $3; sn = $4
		e = v = lb = ln = 0
		site = func_of($13)
		caller = $14 ~ /^\[/ ? site " " $14 : "-"
		next
	}
	/^\t/ && on && caller == "-" && $2 ~ /^\[/ { caller = func_of($1) " " $2 }
	/^\+ / && on {
		p = 1 - exp(-$3 / R)
		e += $3 / p
		v += (1 - p) * $3 * $3 / (p * p)
		lb += $3
		ln++
	}
	END { flush() }' "$1"
}

# pages_ht_check SITES [TRUTH]: mstat memory --json with SITES has, as
# its raw pages and their callers ("NAME|BYTES|SE|N"), the sums of
# pages_ht TRUTH's (SITES' if not given) raw rows, caller by caller: the
# bytes and the standard error, sqrt of the variances' sum, within 1
# (rounding), the samples equal. A row is raw but where its first frame
# is allocate_slab or kmalloc_large_node (slab) or
# __vmalloc_node_range_noprof (vmalloc): the truth of these fixtures.
pages_ht_check() {
	local j=$tmp/ht.json

	build/mstat memory --json "${pages_args[@]}" --sites "$1" >"$j" ||
		return 1
	pages_raw "$j" | tee "$tmp/pages.raw"
	pages_ht "${2:-$1}" | awk -F'|' '
		$1 !~ /^(allocate_slab|kmalloc_large_node|__vmalloc_node_range_noprof)$/ {
			b[$2] += $3; v[$2] += $4; n[$2] += $5
			B += $3; V += $4; N += $5
		}
		END {
			printf "of which raw pages, sampled|%d|%.0f|%d\n", B, sqrt(V), N
			for (c in b)
				printf "%s|%d|%.0f|%d\n", c, b[c], sqrt(v[c]), n[c]
		}' >"$tmp/ht.want"
	echo "want:"
	cat "$tmp/ht.want"
	awk -F'|' 'function d(x, y) { return x > y ? x - y : y - x }
		NR == FNR { b[$1] = $2; s[$1] = $3; n[$1] = $4; w++; next }
		!($1 in b) || d($2, b[$1]) > 1 || d($3, s[$1]) > 1 || $4 != n[$1] {
			print "wrong: " $0; bad = 1
		}
		{ g++ }
		END { exit bad || g != w }' "$tmp/ht.want" "$tmp/pages.raw"
}

# Raw pages named by their caller, the first frame outside the page
# allocator's own (else get_free_pages_noprof would name 8 MiB of a
# module's __get_free_pages()): past 6.12's get_free_pages_noprof and
# __alloc_pages_noprof's kind, past 5.10's __alloc_pages_nodemask's,
# clone suffixes cut (alloc_pages_exact_noprof.constprop.0 skipped as
# alloc_pages_exact_noprof, mydrv_ring_alloc.isra.0 named
# mydrv_ring_alloc); a kind's frame a clone (allocate_slab.constprop.0:
# slab), 5.10's large kmalloc (kmalloc_large_node: slab), vmalloc's
# pages with vm_area_alloc_pages inlined (__vmalloc_node_range_noprof:
# vmalloc), a GPU buffer's page under a fault (ttm_pool_alloc_page: raw,
# not anon). The names and kinds by hand; the bytes pages_ht's; the
# callers by bytes, largest first.
memory_pages_callers() {
	local j=$tmp/mydrv.json kinds

	build/mstat memory --json "${pages_args[@]}" --sites "$mydrv" >"$j" ||
		return 1
	pages_raw "$j" | cut -d'|' -f1 >"$tmp/mydrv.names"
	diff -u - "$tmp/mydrv.names" <<-EOF || return 1
	of which raw pages, sampled
	mydrv_rx_refill [mydrv]
	mydrv_fill [mydrv]
	mydrv_mixed [mydrv]
	ttm_pool_alloc_page [ttm]
	mydrv_ring_alloc [mydrv]
	EOF
	kinds=$(pages_ht "$mydrv" | awk -F'|' '
		$1 ~ /^(allocate_slab|kmalloc_large_node)$/ { k = "slab" }
		$1 == "__vmalloc_node_range_noprof" { k = "vmalloc" }
		k == "" { k = "raw" }
		{ b[k] += $3; n += $5; k = "" }
		END { printf "\"pages_sampled\": { \"rate\": 65536, \"samples\": %d, \"raw\": %d, \"slab\": %d, \"vmalloc\": %d, \"page tables\": 0, \"kernel stacks\": 0, \"percpu\": 0, \"file\": 0, \"anon\": 0, \"PUD page tables\": 0, \"kernel page tables\": 0 },", n, b["raw"], b["slab"], b["vmalloc"] }')
	echo "want: $kinds"
	grep -F '"pages_sampled"' "$j"
	grep -qxF "  $kinds" "$j"
}

# The standard error of the sampled estimates from the sampled objects'
# own chances (Horvitz-Thompson, pages_ht), not bytes / sqrt(samples):
# (a) two objects of 3 MiB at rate 65536, each sampled with p = 1 -
# e^-48: exact, 6291456 +- 0 (bytes / sqrt(2) would say +- 4448731);
# (b) 96 pages of 4096 bytes, far below the rate: s.e. = bytes / sqrt(n)
# times sqrt(1 - p), p = 1 - e^(-1/16), so between 0.95 and 1 of it; the
# mixed row (ten pages and a 2 MiB block) estimated object by object,
# 10 x 4096 / p + 2 MiB = 2773205, not as the module's est_bytes, all
# scaled by the chance of their mean size (2254237).
memory_pages_stderr() {
	local est

	pages_ht_check "$mydrv" &&
	grep -qx 'mydrv_fill \[mydrv\]|6291456|0|2' "$tmp/pages.raw" || return 1
	est=$(awk '$13 ~ /^alloc_pages_noprof\+/ { print $1 }' "$mydrv")
	echo "mydrv_mixed's est_bytes: $est"
	[ -n "$est" ] && ! grep -q "^mydrv_mixed \[mydrv\]|$est|" "$tmp/pages.raw" &&
	awk -F'|' '$1 == "mydrv_rx_refill [mydrv]" {
		r = $3 / ($2 / sqrt($4))
		print "s.e. / (bytes / sqrt(samples)) = " r
		ok = r > 0.95 && r <= 1
	} END { exit !ok }' "$tmp/pages.raw"
}

# Where a row's live lines do not cover its sampled objects (a format
# without them, an address the module could not keep, a free after the
# cut), the rest are objects of the row's mean size, sampled with the
# chance the module scaled it by: with none, a row's bytes are its
# est_bytes and its variance (1 - q) est_bytes^2 / sampled_calls, q =
# sampled_bytes / est_bytes; with every other one, those listed each by
# its own chance, the rest so.
memory_pages_stderr_fallback() {
	local est

	awk '!/^\+ /' "$mydrv" >"$tmp/mydrv-none.txt" &&
	awk '!/^\+ / || ++k % 2' "$mydrv" >"$tmp/mydrv-half.txt" &&
	pages_ht_check "$tmp/mydrv-none.txt" &&
	est=$(awk '$13 ~ /^alloc_pages_noprof\+/ { print $1 }' "$mydrv") &&
	grep -q "^mydrv_mixed \[mydrv\]|$est|" "$tmp/pages.raw" &&
	pages_ht_check "$tmp/mydrv-half.txt"
}

# A tampered copy (the 2 MiB block said to be a page) moves the figures
# as pages_ht says, so that the checks above can fail.
memory_pages_stderr_tamper() {
	sed 's/^+ 50000 2097152$/+ 50000 4096/' "$mydrv" >"$tmp/mydrv-t.txt" &&
	! cmp -s "$mydrv" "$tmp/mydrv-t.txt" &&
	pages_ht_check "$tmp/mydrv-t.txt" &&
	! pages_ht_check "$tmp/mydrv-t.txt" "$mydrv" >/dev/null
}

memory_tests() {
	t memory_text memory_text
	t memory_json memory_json
	t memory_by_caller memory_by_caller
	maybe memory_sums python3 "JSON" memory_sums
	t memory_moves memory_moves
	t memory_check memory_check
	t live_at_load live_at_load
	t memory_errors memory_errors
	t memory_slab_rows memory_slab_rows
	t memory_saved_alone memory_saved_alone
	t memory_snapshot_age memory_snapshot_age
	t memory_first_chunk memory_first_chunk
	t memory_api_line memory_api_line
	t memory_sources memory_sources
	t memory_prom memory_prom
	t memory_prom_moment memory_prom_moment
	maybe memory_serve_moment curl "HTTP client" memory_serve_moment
	t memory_pages_text memory_pages_text
	t memory_pages memory_pages
	t memory_pages_tamper memory_pages_tamper
	t memory_pages_kinds_stderr memory_pages_kinds_stderr
	t memory_pages_pt_uncounted memory_pages_pt_uncounted
	t memory_pages_dropped memory_pages_dropped
	t memory_pages_prom memory_pages_prom
	maybe memory_pages_serve curl "HTTP client" memory_pages_serve
	t memory_pages_callers memory_pages_callers
	t memory_pages_stderr memory_pages_stderr
	t memory_pages_stderr_fallback memory_pages_stderr_fallback
	t memory_pages_stderr_tamper memory_pages_stderr_tamper
}
