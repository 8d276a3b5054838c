#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of the mstat tool, run by `make -C tools/mstat test`. Prints, with
# scripts/lib.sh's emitters, "ok NAME (N s)", "not ok NAME" (then the tail
# of its log, kept in build/logs/tools-mstat/, as "# " lines) or
# "ok NAME # SKIP WHY" per test, then "N passed, N failed[, N skipped]"; exits
# non-zero if a test failed.
#
# Every test goes through the tool, so through its one parser (parse.c),
# and compares what it prints with testdata/expected/, whose key numbers
# were checked by hand against the inputs (testdata/README.md says how);
# `mstat check` asserts the snapshot invariants of the inputs, and must
# catch broken variants of them. Nothing is installed here: promtool
# (Debian: prometheus), protoc (protobuf-compiler), go (golang-go, for
# the optional go tool pprof test) and python3 (JSON syntax) come from
# scripts/setup.sh; a test whose tool is missing prints "skip". The
# guest_live test boots a 6.12 guest (capture.sh, about 45 s) when the
# kernel and headers are there; MSTAT_GUEST=0 skips it. Nothing is loaded
# on the host.
#
# One test, or a few, alone: MSTAT_TEST_ONLY=NAME[,NAME...] runs those
# (and build, always first) and no other, not even counted as skipped:
#   cd tools/mstat && MSTAT_TEST_ONLY=leaks_serve,leaks_watch ./test.sh
# A few read what an earlier one made: name that one too (leaks_find
# before leaks_find_tampered); leaks_find's replay directory, which most
# leak tests read, is made again when missing.
set -u

cd "$(dirname "$0")" || exit 1
# shellcheck source=../../scripts/lib.sh
. ../../scripts/lib.sh
# shellcheck source=test_owners.sh
. ./test_owners.sh
# shellcheck source=test_history.sh
. ./test_history.sh
# shellcheck source=test_leaks.sh
. ./test_leaks.sh
# Each test's output, kept for a failure's reason: build/logs/tools-mstat/.
MSTAT_LOGS=$MSTAT_TOP/build/logs/tools-mstat
here=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=${HOME:-$tmp} PPROF_TMPDIR=$tmp
# No SLUB directory but a test's own (slab_merged_names): this host's
# merged caches would rename the fixtures' caches.
export MSTAT_SLAB_ROOT=$tmp/no-slab

# only NAME: NAME is to run (MSTAT_TEST_ONLY unset, or NAME among its
# comma-separated names). t and skip (lib.sh's) count only such tests.
only() {
	case ",${MSTAT_TEST_ONLY:-$1}," in
	*",$1,"*) return 0 ;;
	esac
	return 1
}
eval "mstat_t_one() $(declare -f t | sed 1d)"
eval "mstat_skip_one() $(declare -f skip | sed 1d)"
t() {
	if [ "$1" = build ] || only "$1"; then
		mstat_t_one "$@"
	fi
}
skip() {
	if only "$1"; then
		mstat_skip_one "$@"
	fi
}

# maybe NAME COMMAND WHY TEST...: TEST if COMMAND is installed, else skip.
maybe() {
	local name=$1 cmd=$2 why=$3

	shift 3
	if command -v "$cmd" >/dev/null; then
		t "$name" "$@"
	else
		skip "$name" "no $cmd ($why; scripts/setup.sh installs it)"
	fi
}

# One line on stderr matching PATTERN, nothing on stdout, exit status RC.
expect_err() {
	local rc=$1 pattern=$2 got

	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	echo "exit $got (want $rc); stderr: $(cat "$tmp/err")"
	[ "$got" -eq "$rc" ] && [ ! -s "$tmp/out" ] &&
		[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -Eq "$pattern" "$tmp/err"
}

# same EXPECTED RC COMMAND...: COMMAND exits RC and prints EXPECTED.
same() {
	local want=$1 rc=$2 got

	shift 2
	"$@" >"$tmp/got"
	got=$?
	echo "exit $got (want $rc)"
	diff -u "$want" "$tmp/got" && [ "$got" -eq "$rc" ]
}

# serve_start ERR ARGS...: build/mstat-serve serve ARGS on a port the
# kernel picks (--listen 127.0.0.1:0), its stderr in ERR; once the line
# that says it is up names that port: serve_pid and serve_port set. Fails
# if it exits first, or says "timeout" if not up within 30 s. ERR emptied
# here first: the server's own redirection may come after the first look
# at it, which then read the line of a server before.
serve_start() {
	local err=$1 end=$((SECONDS + 30))

	shift
	: >"$err" || return
	build/mstat-serve serve --listen 127.0.0.1:0 "$@" 2>"$err" &
	serve_pid=$!
	until serve_port=$(sed -n 's|^mstat: serving .* on http://127\.0\.0\.1:\([0-9][0-9]*\)/ .*|\1|p' "$err") &&
		[ -n "$serve_port" ]; do
		if ! kill -0 "$serve_pid" 2>/dev/null; then
			echo "mstat serve exited before it was up: $(cat "$err")"
			return 1
		fi
		if [ "$SECONDS" -ge "$end" ]; then
			echo "timeout: mstat serve not up within 30 s (its stderr: $(cat "$err"))"
			kill "$serve_pid"
			return 1
		fi
		sleep 0.02
	done
}

# serve_stop: the server serve_start started, stopped.
serve_stop() {
	kill "$serve_pid"
	wait "$serve_pid"
}

# The fixtures of the error tests and of the checker's, made from the
# captured ones (testdata/README.md).
make_bad_inputs() {
	sed '1s/1\.0$/9.0/' testdata/mstat_sites-1.0.txt >"$tmp/sites-9.0.txt"
	head -n 8 testdata/mstat_sites-1.0.txt >"$tmp/sites-truncated.txt"
	: >"$tmp/sites-empty.txt"
	head -c 1000 testdata/mstat-1.0.txt >"$tmp/mstat-midline.txt"
	head -n 80 testdata/mstat-1.0.txt >"$tmp/mstat-cut-orders.txt"
	printf 'hello\n' >"$tmp/other.txt"
	sed 's/^kmalloc_allocs .*/kmalloc_allocs 12x/' testdata/mstat-1.0.txt \
		>"$tmp/mstat-badnum.txt"
	mkdir "$tmp/chk"
	cp testdata/mstat-1.0.txt "$tmp/chk/a.txt"
	cp testdata/mstat-1.0-b.txt "$tmp/chk/b.txt"
	cp testdata/mstat-truncated.txt "$tmp/chk/truncated.txt"
	cp testdata/mstat-9.0.txt "$tmp/chk/v9.txt"
	sed 's/^kmalloc_frees 20075$/kmalloc_frees 20076/' testdata/mstat-1.0.txt \
		>"$tmp/chk/frees.txt"
	sed 's/^class 96 28138 /class 96 28139 /' testdata/mstat-1.0.txt \
		>"$tmp/chk/class.txt"
	sed 's/^order 2 499 0 0 1996$/order 2 499 0 0 1995/' testdata/mstat-1.0.txt \
		>"$tmp/chk/order.txt"
	sed '2p' testdata/mstat-1.0.txt >"$tmp/chk/dup.txt"
	sed -e 's/^kmalloc_live_objects 80$/kmalloc_live_objects -20/' \
		-e 's/^snapshot_wait_ns 0$/snapshot_wait_ns 1234567/' \
		testdata/mstat-1.0.txt >"$tmp/chk/neg.txt"
	# Format 1.2's per-cache table, each invariant broken once.
	cp testdata/mstat-1.2.txt "$tmp/chk/c-a.txt"
	cp testdata/mstat-1.2-b.txt "$tmp/chk/c-b.txt"
	sed 's/^cache 28 3201 7 3 0 4 12804 /cache 28 3201 7 3 0 5 12804 /' \
		testdata/mstat-1.2.txt >"$tmp/chk/c-live.txt"
	sed 's/^cache 28 3201 7 3 0 4 12804 /cache 28 3201 7 3 0 4 12805 /' \
		testdata/mstat-1.2.txt >"$tmp/chk/c-bytes.txt"
	sed 's/^cache 28 3201 7 3 0 4 12804 /cache 28 3201 8 3 0 5 16005 /' \
		testdata/mstat-1.2.txt >"$tmp/chk/c-sum.txt"
	sed 's/^cache_overflow 38 30 0 8 3304$/cache_overflow 38 30 0 9 3304/' \
		testdata/mstat-1.2.txt >"$tmp/chk/c-over.txt"
	sed '/^cache_overflow /d' testdata/mstat-1.2.txt >"$tmp/chk/c-noover.txt"
	sed 's/^caches_rows 128$/caches_rows 100/' testdata/mstat-1.2.txt \
		>"$tmp/chk/c-used.txt"
	sed 's/^cache 29 3203 9 4 0 5 16015 live mstat_ct_dup$/cache 28 3203 9 4 0 5 16015 live mstat_ct_dup/' \
		testdata/mstat-1.2.txt >"$tmp/chk/c-dupid.txt"
	sed 's/live mstat\\040ct"q\\134x\\011$/live mstat\\9ct/' \
		testdata/mstat-1.2.txt >"$tmp/chk/c-escape.txt"
	sed 's/ live mstat_ct_00$/ live mstat_ct_0x/' testdata/mstat-1.2-b.txt \
		>"$tmp/chk/c-b-renamed.txt"
	sed 's/ live mstat_ct_00$/ gone mstat_ct_00/' testdata/mstat-1.2.txt \
		>"$tmp/chk/c-a-gone.txt"
	sed '1s/1\.2$/1.1/' testdata/mstat-1.2.txt >"$tmp/chk/c-v11.txt"
	# Counters near 2^63, frag x live past 2^64 (testdata/README.md):
	# the exact estimate, off by one, and what the u64 product gave.
	cp testdata/mstat-1.0-2e63.txt "$tmp/chk/big.txt"
	sed 's/^\(class 16 .*\) 2017612633061979978$/\1 2017612633061979979/' \
		testdata/mstat-1.0-2e63.txt >"$tmp/chk/big-est.txt"
	sed 's/^\(class 16 .*\) 2017612633061979978$/\1 9/' \
		testdata/mstat-1.0-2e63.txt >"$tmp/chk/big-wrapped.txt"
	# api_allocs across 2^63, by 20, for top.
	sed 's/^api_allocs 0$/api_allocs 9223372036854775798/' \
		testdata/mstat-1.0.txt >"$tmp/chk/top-a.txt"
	sed 's/^api_allocs 0$/api_allocs 9223372036854775818/' \
		testdata/mstat-1.0.txt >"$tmp/chk/top-b.txt"
	# Format 2.2 (testdata/mstat_sites-2.2.txt, made by hand): each new
	# field broken once, a live line before any row, a frame after live
	# lines, the column line of 2.0; and a 2.3 with a column more.
	local s22=testdata/mstat_sites-2.2.txt row4='5770601 9248 6864 11 11 6864 0 0'
	sed "s/^$row4 4001 /$row4 4x01 /" $s22 >"$tmp/s22-cgroup.txt"
	sed "s/^$row4 4001 0 /$row4 4001 zero /" $s22 >"$tmp/s22-node.txt"
	sed "s/^$row4 4001 0 /$row4 0 0 /" $s22 >"$tmp/s22-cgroup0.txt"
	sed '3a + 12 656' $s22 >"$tmp/s22-orphan.txt"
	sed 's/^+ 7199999 624$/+ 7199999 -624/' $s22 >"$tmp/s22-live.txt"
	sed 's/^+ 7199999 624$/+ 7199999/' $s22 >"$tmp/s22-live-short.txt"
	sed 's/^+ 7199999 624$/&\n\tfoo+0x1\/0x2/' $s22 >"$tmp/s22-frame.txt"
	sed '3s/ cgroup node / /' $s22 >"$tmp/s22-columns.txt"
	sed "s/^$row4 4001 0 inode_cache /$row4 4001 0 inode\\\\9 /" $s22 >"$tmp/s22-cache.txt"
	# 2.3: the source column; 2.4 (a later minor): a column more before
	# the site, and a word more on the live lines.
	sed -e '1s/2\.2$/2.3/' -e '3s/ cache / cache source /' \
		-e 's/^\([0-9]* [0-9]* [0-9]* [0-9]* [0-9]* [0-9]* [0-9]* [0-9]* [^ ]* [^ ]* [^ ]*\) /\1 page /' \
		$s22 >"$tmp/s23.txt"
	sed -e '1s/2\.3$/2.4/' -e '3s/ source / source extra /' \
		-e 's/^\([0-9]* [0-9]* [0-9]* [0-9]* [0-9]* [0-9]* [0-9]* [0-9]* [^ ]* [^ ]* [^ ]* [^ ]*\) /\1 X /' \
		-e 's/^+ .*/& 1/' "$tmp/s23.txt" >"$tmp/s24.txt"
	sed 's/ page / frob /' "$tmp/s23.txt" >"$tmp/s23-source.txt"
	# 2.5: the drops column (of the row's frees); more drops than frees
	# is an error.
	sed -e '1s/2\.3$/2.5/' -e '3s/ source / source drops /' \
		-e 's/^\([0-9]* [0-9]* [0-9]* [0-9]* [0-9]* [0-9]* \([0-9]*\) [0-9]* [^ ]* [^ ]* [^ ]* [^ ]*\) /\1 \2 /' \
		"$tmp/s23.txt" >"$tmp/s25.txt"
	sed "s/^$row4 4001 0 inode_cache page 0 /$row4 4001 0 inode_cache page 1 /" \
		"$tmp/s25.txt" >"$tmp/s25-drops.txt"
	# Format 1.5: a snapshot served again (snapshot_reused 1), and one
	# that says it was not.
	sed -e '1s/1\.2$/1.5/' \
		-e '/^generation /a snapshot_reused 1\nsnapshot_age_ms 250' \
		testdata/mstat-1.2.txt >"$tmp/chk/c-reused.txt"
	sed 's/^snapshot_reused 1$/snapshot_reused 0/' "$tmp/chk/c-reused.txt" \
		>"$tmp/chk/c-fresh.txt"
}

# A sites file of N made-up rows (a third in modules): a profile over
# 500 KiB, that compresses.
big_sites() {
	awk -v n="$1" 'NR == 1 { print; next }
		NR == 2 { sub(/ sites [0-9]+ /, " sites " n " "); print; next }
		NR == 3 { print
			for (i = 0; i < n; i++)
				printf "%d 1 64 1 1 64 0 0 synthetic_function_%d+0x%x/0x200%s\n",
					n - i, i, i % 512, i % 3 ? "" : " [mod" i % 7 "]"
			exit }' testdata/mstat_sites-1.0.txt
}

build() { make -s mstat check-selftest stats-selftest leaks-weak; }

# The shipped tool has no self-test: none of the symbols check_selftest.o
# defines (but main, and the compiler's own: .L*, and static locals,
# NAME.N) is in build/mstat or build/mstat-serve.
no_selftest_in_tool() {
	local bin syms found

	syms=$(nm --defined-only build/check_selftest.o |
		awk '$3 != "main" && $3 !~ /\./ { print $3 }' | sort -u)
	echo "check_selftest.o defines: ${syms//$'\n'/ }"
	[ -n "$syms" ] || return 1
	for bin in build/mstat build/mstat-serve; do
		found=$(nm "$bin" | awk '{ print $NF }' | sort -u |
			comm -12 - <(echo "$syms"))
		echo "$bin: ${found:-none of them}"
		[ -z "$found" ] || return 1
	done
}

show_text() {
	same testdata/expected/show-1.0.txt 0 build/mstat -f testdata/mstat-1.0.txt &&
		same testdata/expected/show-1.0-b.txt 0 build/mstat -f testdata/mstat-1.0-b.txt
}

json_valid() {
	build/mstat --json -f testdata/mstat-1.0.txt >"$tmp/j.json" &&
		python3 -m json.tool "$tmp/j.json" >/dev/null
}

json_values() {
	same testdata/expected/json-1.0.json 0 build/mstat --json -f testdata/mstat-1.0.txt &&
		same testdata/expected/json-1.0-b.json 0 build/mstat --json -f testdata/mstat-1.0-b.txt
}

# json_names_py make|check TMP: the names of json_names, written into
# fixtures (make) or looked for in the tool's JSON (check). A function's
# name (a sites row's site, raw as the module writes it: no blank, '+',
# '.' or tab) and a cache's (octal-escaped, as /proc/mstat and the sites
# file write it): a quote, a backslash, control bytes and DEL; valid
# UTF-8 of two, three and four bytes; a lone 0xff, a three-byte sequence
# cut short, a surrogate and an overlong form; the cache's ends inside a
# four-byte sequence. Each output must be valid UTF-8 and JSON, and each
# name in it as Python's decode("utf-8", "replace") reads the bytes
# (json.h's rule: every ill-formed part one U+FFFD).
json_names_py='
import json, os, sys
FN = b"q\"b\\\x01\x1f\x7f" + "\u00e9\u20ac\U0001f600".encode() + \
     b"\xff\xe2\x82z\xed\xa0\x80\xc0\xaf"
CACHE = b"c\"\\\t\x01" + "\u00e9\U0001f600".encode() + b"\xfe\xf0\x9f\x98"
def octal(b):
    return b"".join(bytes([c]) if 0x21 <= c <= 0x7e and c != 0x5c
                    else b"\\%03o" % c for c in b)
def sub(path, old, new, out=None):
    with open(path, "rb") as f:
        d = f.read()
    assert old in d, (path, old)
    with open(out or path, "wb") as f:
        f.write(d.replace(old, new))
def strings(v):
    if isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)
    elif isinstance(v, str):
        yield v
mode, tmp = sys.argv[1:3]
if mode == "make":
    sub("testdata/mstat-1.2.txt", b" live mstat_ct_00\n",
        b" live " + octal(CACHE) + b"\n", tmp + "/jn.mstat")
    sub("testdata/mstat_sites-2.3.txt", b" page __rb_allocate_pages+",
        b" page " + FN + b"+", tmp + "/jn.sites")
    d = tmp + "/jn-leaks"
    for n in os.listdir(d):
        if n.endswith((".mstat", ".sites")):
            sub(d + "/" + n, b"mstat_json_name", octal(CACHE))
        if n.endswith(".sites"):
            sub(d + "/" + n, b"json_name_fn", FN)
    sys.exit(0)
fn, cache = FN.decode("utf-8", "replace"), CACHE.decode("utf-8", "replace")
want = {"snap": [cache], "leaks": [cache, fn + "+0x1a/0x40 [mstat_leakgen]"],
        "memory": [fn]}
bad = 0
for out, names in want.items():
    with open(tmp + "/jn-" + out + ".json", "rb") as f:
        raw = f.read()
    try:
        got = set(strings(json.loads(raw.decode("utf-8"))))
    except ValueError as e:
        print("%s: not UTF-8 JSON: %s" % (out, e))
        bad += 1
        continue
    for n in names:
        if n not in got:
            print("%s: no string %a" % (out, n))
            bad += 1
        else:
            print("%s: %a" % (out, n))
sys.exit(bad > 0)
'

# Names with quotes, control bytes, valid and invalid UTF-8 (json_names_py)
# in a cache's name and a function's, through mstat --json, mstat leaks
# --json (a leak in a cache of its own, so both are a suspect's) and
# mstat memory --json (the function a raw page's caller). Before json.c
# wrote every JSON string, each failed: mstat --json wrote é as
# "\u00c3\u00a9" ("Ã©"); mstat leaks and mstat memory passed 0xff
# through (not UTF-8), mstat memory the quote too (not JSON).
json_names() {
	local rc

	leaks_gen "$tmp/jn-leaks" \
		'list leak size=192 rate=20 cache=mstat_json_name fn=json_name_fn' &&
		python3 -c "$json_names_py" make "$tmp" || return
	build/mstat --json -f "$tmp/jn.mstat" >"$tmp/jn-snap.json" &&
		build/mstat memory --json "${pages_args[@]}" \
			--sites "$tmp/jn.sites" >"$tmp/jn-memory.json" || return
	build/mstat leaks --json --from "$tmp/jn-leaks" >"$tmp/jn-leaks.json"
	rc=$?
	echo "leaks: exit $rc (want 1)"
	[ "$rc" -eq 1 ] && python3 -c "$json_names_py" check "$tmp"
}

# An s64 below zero (live counts may be), and a wait in ns made seconds.
values_edit() {
	build/mstat --json -f "$tmp/chk/neg.txt" >"$tmp/neg.json" &&
		grep -qx '    "kmalloc_live_objects": -20,' "$tmp/neg.json" &&
		build/mstat -f "$tmp/chk/neg.txt" | grep -q '^kmalloc .* -20 ' &&
		build/mstat prom -f "$tmp/chk/neg.txt" |
		grep -qx 'mstat_snapshot_wait_seconds 0.001234567' &&
		(cd "$tmp/chk" && "$here/build/mstat" check neg.txt) |
		grep -qx 'mstat-check: neg.txt read 1: kmalloc_live_objects is -20, expected 80'
}

prom_promtool() {
	build/mstat prom -f testdata/mstat-1.0.txt -o "$tmp/mstat.prom" &&
		promtool check metrics <"$tmp/mstat.prom" &&
		! ls "$tmp"/mstat.prom.tmp.* 2>/dev/null
}

prom_values() {
	build/mstat prom -f testdata/mstat-1.0.txt -o "$tmp/mstat.prom" &&
		diff -u testdata/expected/prom-1.0.prom "$tmp/mstat.prom" &&
		! ls "$tmp"/mstat.prom.tmp.* 2>/dev/null
}

# top_matches EXPECTED OUTPUT: OUTPUT's cells (split at two or more
# blanks) are EXPECTED's ("|" between cells), clock and interval masked;
# a cell "~N" is a rate whose value times the interval must be N, within
# 2% (the interval is printed to 10 ms) plus the rounding of its digits.
top_matches() {
	awk -F'|' '
	function val(s) {
		sub(/\/s$/, "", s)
		gsub(/,/, "", s)
		unit = 1
		if (s ~ / KiB$/) unit = 1024
		else if (s ~ / MiB$/) unit = 1048576
		else if (s ~ / GiB$/) unit = 1073741824
		sub(/ [A-Za-z]+$/, "", s)
		return s * unit
	}
	function bad(msg) { print "line " FNR ": " msg; fails++ }
	NR == FNR { want[FNR] = $0; nwant = FNR; next }
	{
		ngot = FNR
		n = split($0, f, /  +/)
		if (f[1] ~ /^mstat top - /) {
			dt = f[3]
			sub(/^interval /, "", dt)
			sub(/ s$/, "", dt)
			f[1] = "mstat top - HH:MM:SS"
			f[3] = "interval DT s"
		}
		m = split(want[FNR], w, "|")
		if (n != m) {
			bad("\"" $0 "\": " n " cells, want " m)
			next
		}
		for (i = 1; i <= n; i++) {
			if (w[i] !~ /^~/) {
				if (w[i] != f[i])
					bad("\"" f[i] "\", want \"" w[i] "\"")
				continue
			}
			d = substr(w[i], 2) + 0
			x = val(f[i]) * dt - d
			if (x < 0)
				x = -x
			if (x > 0.02 * d + 0.05 * unit * dt + 1)
				bad(f[i] " over " dt " s is not " d)
		}
	}
	END {
		if (ngot != nwant)
			bad(ngot " lines, want " nwant)
		exit fails > 0
	}' "$1" "$2"
}

# Frame 1 has the rates of a -> b, frame 2 (b twice) none.
top_rates() {
	build/mstat top -n 2 -d 0.5 -f testdata/mstat-1.0.txt -f testdata/mstat-1.0-b.txt \
		>"$tmp/top.txt" &&
		top_matches testdata/expected/top-1.0-b.txt "$tmp/top.txt"
}

# Snapshot a served again between a and b, as an unprivileged reader
# under proc_min_interval_ms gets it ("snapshot_reused 1", its age): no
# frame of its own, and frame 1 the rates of a -> b over the time
# between their snapshots (1 s, two delays), not 0.
top_served_again() {
	awk '{ print } /^generation / { print "snapshot_reused 1"; print "snapshot_age_ms 500" }' \
		testdata/mstat-1.0.txt >"$tmp/top-again.txt" &&
	build/mstat top -n 2 -d 0.5 -f testdata/mstat-1.0.txt -f "$tmp/top-again.txt" \
		-f testdata/mstat-1.0-b.txt >"$tmp/top2.txt" &&
		cat "$tmp/top2.txt" &&
		top_matches testdata/expected/top-1.0-b.txt "$tmp/top2.txt"
}

# On a terminal each frame starts by clearing the screen.
top_tty() {
	script -qec "build/mstat top -n 1 -d 0.1 -f testdata/mstat-1.0.txt" \
		"$tmp/typescript" >/dev/null &&
		grep -q $'\033\[H\033\[2J' "$tmp/typescript"
}

pprof_write() {
	build/mstat pprof -f testdata/mstat_sites-1.0.txt -o "$tmp/profile.pb.gz" &&
		gzip -t "$tmp/profile.pb.gz" &&
		! ls "$tmp"/profile.pb.gz.tmp.* 2>/dev/null
}

# decode FILE.pb.gz: the Profile as protoc prints it, time_nanos left out.
decode() {
	gzip -dc "$1" |
		protoc --decode perftools.profiles.Profile profile.proto |
		grep -v '^time_nanos: '
}

pprof_protoc() {
	decode "$tmp/profile.pb.gz" >"$tmp/profile.txt" &&
		diff -u testdata/expected/profile-1.0.txt "$tmp/profile.txt"
}

# Real deflate: a large profile shrinks (stored blocks would grow it),
# and gzip -dc gives back the protobuf, CRC and length checked.
pprof_compressed() {
	local raw gz

	big_sites 5000 >"$tmp/big.txt" &&
		build/mstat pprof -f "$tmp/big.txt" -o "$tmp/big.pb.gz" &&
		gzip -dc "$tmp/big.pb.gz" >"$tmp/big.pb" || return
	raw=$(wc -c <"$tmp/big.pb")
	gz=$(wc -c <"$tmp/big.pb.gz")
	echo "protobuf $raw bytes, gzipped $gz"
	[ "$raw" -gt 500000 ] && [ "$gz" -lt $((raw / 3)) ]
}

# The large profile decodes, one sample, location and function per row.
pprof_big() {
	decode "$tmp/big.pb.gz" >"$tmp/big.decoded" || return
	[ "$(grep -c '^sample {' "$tmp/big.decoded")" -eq 5000 ] &&
		[ "$(grep -c '^location {' "$tmp/big.decoded")" -eq 5000 ] &&
		[ "$(grep -c '^function {' "$tmp/big.decoded")" -eq 5000 ] &&
		grep -qx 'string_table: "synthetic_function_4998 \[mod0\]"' \
			"$tmp/big.decoded" &&
		grep -qx 'string_table: "synthetic_function_4999+0x187/0x200"' \
			"$tmp/big.decoded" &&
		grep -qx 'string_table: "mod6"' "$tmp/big.decoded"
}

pprof_go() {
	go tool pprof -top "$tmp/profile.pb.gz" >"$tmp/pprof-top.txt" &&
		cat "$tmp/pprof-top.txt" &&
		grep -q '^Type: inuse_space' "$tmp/pprof-top.txt" &&
		grep -q ' alloc_inode$' "$tmp/pprof-top.txt"
}

# Format 2.0: every stack a Sample whose locations are its frames, leaf
# first; one Location per distinct frame, one Function per distinct
# function, however many stacks share them.
pprof_stacks() {
	local frames fns locs funcs deepest

	build/mstat pprof -f testdata/mstat_sites-2.0.txt -o "$tmp/p2.pb.gz" &&
		decode "$tmp/p2.pb.gz" >"$tmp/p2.txt" || return
	frames=$(awk 'NR > 3 { sub(/^\t/, ""); for (i = 0; i < 8; i++) sub(/^[-0-9]+ /, ""); print }' \
		testdata/mstat_sites-2.0.txt | sort -u | wc -l)
	fns=$(awk 'NR > 3 { sub(/^\t/, ""); for (i = 0; i < 8; i++) sub(/^[-0-9]+ /, "");
		m = ""; if (match($0, / \[.*\]$/)) m = substr($0, RSTART)
		sub(/[+ ].*/, ""); print $0 m }' testdata/mstat_sites-2.0.txt |
		sort -u | wc -l)
	locs=$(grep -c '^location {' "$tmp/p2.txt")
	funcs=$(grep -c '^function {' "$tmp/p2.txt")
	deepest=$(awk '/^sample {/ { n = 0 } /^  location_id:/ { n++ }
		/^}/ && n > d { d = n } END { print d + 0 }' "$tmp/p2.txt")
	echo "frames $frames locations $locs functions $fns/$funcs deepest $deepest"
	[ "$locs" -eq "$frames" ] && [ "$funcs" -eq "$fns" ] && [ "$deepest" -ge 10 ]
}

# go tool pprof -traces shows the fixture's first stack whole, in order.
pprof_go_traces() {
	local want

	build/mstat pprof -f testdata/mstat_sites-2.0.txt -o "$tmp/p2.pb.gz" &&
		go tool pprof -traces "$tmp/p2.pb.gz" >"$tmp/traces.txt" || return
	want=$(awk 'NR == 4 { for (i = 0; i < 8; i++) sub(/^[-0-9]+ /, ""); sub(/[+ ].*/, ""); print }
		NR > 4 && /^\t/ { sub(/^\t/, ""); sub(/[+ ].*/, ""); print; next }
		NR > 4 && !/^\t/ { exit }' testdata/mstat_sites-2.0.txt | paste -sd' ')
	echo "want: $want"
	awk '/^-+\+-+$/ { if (s != "") print s; s = ""; next }
		NF && $1 !~ /^[A-Za-z]+:$/ { s = s (s == "" ? "" : " ") $NF }
		END { if (s != "") print s }' "$tmp/traces.txt" | grep -qxF "$want"
}

# The checker: the invariants of the fixtures hold, its self-test
# catches every corruption, and broken fixtures fail with the messages
# and status mstat-check gave.
check_files() {
	local want=$1

	shift
	(cd "$tmp/chk" && same "$here/testdata/expected/$want" "$@")
}

# The statistics against published tables, and the t quantile mstat
# leaks had before stats.c, which the tables must catch.
stats_catches_old_t() {
	build/stats-selftest -b >"$tmp/stats-b" && return 1
	cat "$tmp/stats-b"
	grep -q '^not ok t-q-0.999-3: ' "$tmp/stats-b" &&
		grep -q '^not ok t-q-0.99-3: ' "$tmp/stats-b"
}

# A wrong variance of a sampled estimate, est^2 / samples, which
# understates the error of objects near the rate: the enumeration of a sample's outcomes catches it, and
# so does an object sure to be sampled, whose error must be 0.
stats_catches_old_se() {
	build/stats-selftest -b >"$tmp/stats-b" && return 1
	grep '^not ok ht-' "$tmp/stats-b"
	grep -q '^not ok ht-var-unbiased: ' "$tmp/stats-b" &&
		grep -q '^not ok ht-sure: ' "$tmp/stats-b" &&
		grep -q '^ok ht-var-true ' "$tmp/stats-b"
}

check_tests() {
	t stats_selftest build/stats-selftest
	t stats_catches_old_t stats_catches_old_t
	t stats_catches_old_se stats_catches_old_se
	t check_selftest same testdata/expected/check-selftest.txt 0 build/check-selftest
	t check_selftest_not_shipped no_selftest_in_tool
	t check_good check_files check-good.txt 0 "$here/build/mstat" check a.txt b.txt
	t check_catches_repeat check_files check-repeat.txt 1 \
		"$here/build/mstat" check -n 2 a.txt
	local c
	for c in frees class order dup truncated; do
		t "check_catches_$c" check_files "check-$c.txt" 1 \
			"$here/build/mstat" check "$c.txt"
	done
	t check_catches_backwards check_files check-backwards.txt 1 \
		"$here/build/mstat" check b.txt a.txt
	t check_catches_version check_files check-version.txt 1 \
		"$here/build/mstat" check v9.txt
	t check_2e63 check_2e63
	t check_catches_2e63_est check_catches big-est.txt \
		'^mstat-check: big-est\.txt read 1: class 16 frag_live_bytes_est is 2017612633061979979, expected 2017612633061979978$'
	t check_catches_2e63_wrapped check_catches big-wrapped.txt \
		'^mstat-check: big-wrapped\.txt read 1: class 16 frag_live_bytes_est is 9, expected 2017612633061979978$'
	t check_usage expect_err 2 '^mstat: unknown option -x for mstat check ' \
		build/mstat check -x
	t check_usage_missing expect_err 2 '^mstat: missing argument to -n for mstat check ' \
		build/mstat check a.txt -n
	t check_usage_value expect_err 2 '^mstat: check: -i wants 0 to 1000000 ms, got x ' \
		build/mstat check -i x
	t check_missing expect_err 2 '^mstat-check: nope\.txt: No such file' \
		build/mstat check nope.txt
}

errors() {
	t err_missing expect_err 1 'nope\.txt not found$' \
		build/mstat -f testdata/nope.txt
	t err_version expect_err 1 'unsupported format version 9\.0 \(this mstat reads 1\.x\)$' \
		build/mstat -f testdata/mstat-9.0.txt
	t err_truncated expect_err 1 'truncated or incomplete' \
		build/mstat -f testdata/mstat-truncated.txt
	t err_truncated_orders expect_err 1 'truncated or incomplete: [0-9]+ page-order rows, want 11$' \
		build/mstat -f "$tmp/mstat-cut-orders.txt"
	t err_midline expect_err 1 'truncated \(the last line is incomplete\)$' \
		build/mstat -f "$tmp/mstat-midline.txt"
	t err_empty expect_err 1 'empty \(no version line\)$' \
		build/mstat -f testdata/mstat-empty.txt
	t err_not_mstat expect_err 1 'not an mstat file' \
		build/mstat -f "$tmp/other.txt"
	t err_bad_number expect_err 1 'line 6: malformed "kmalloc_allocs 12x"$' \
		build/mstat -f "$tmp/mstat-badnum.txt"
	t err_duplicate expect_err 1 'line 3: generation given twice$' \
		build/mstat -f "$tmp/chk/dup.txt"
	t err_json_version expect_err 1 'unsupported format version 9\.0' \
		build/mstat --json -f testdata/mstat-9.0.txt
	t err_prom_empty expect_err 1 'empty' \
		build/mstat prom -f testdata/mstat-empty.txt -o "$tmp/never.prom"
	t err_prom_no_output test ! -e "$tmp/never.prom"
	t err_top_version expect_err 1 'unsupported format version 9\.0' \
		build/mstat top -n 1 -d 0.1 -f testdata/mstat-9.0.txt
	t err_sites_version expect_err 1 'unsupported format version 9\.0' \
		build/mstat pprof -f "$tmp/sites-9.0.txt" -o "$tmp/x.pb.gz"
	t err_sites_truncated expect_err 1 'truncated or incomplete: 5 site rows, header says' \
		build/mstat pprof -f "$tmp/sites-truncated.txt" -o "$tmp/x.pb.gz"
	t err_sites_empty expect_err 1 'empty' \
		build/mstat pprof -f "$tmp/sites-empty.txt" -o "$tmp/x.pb.gz"
	t err_sites_as_mstat expect_err 1 'not an mstat file' \
		build/mstat -f testdata/mstat_sites-1.0.txt
	t err_sites_cgroup expect_err 1 's22-cgroup\.txt: line 4: malformed cgroup \(an id >= 1, hardirq, softirq or -\): "5770601 9248 6864 11 11 6864 0 0 4x01 0 inode_cache alloc_inode\+0x5e/0xc0"$' \
		build/mstat pprof -f "$tmp/s22-cgroup.txt" -o "$tmp/x.pb.gz"
	t err_sites_cgroup0 expect_err 1 's22-cgroup0\.txt: line 4: malformed cgroup ' \
		build/mstat pprof -f "$tmp/s22-cgroup0.txt" -o "$tmp/x.pb.gz"
	t err_sites_cache expect_err 1 's22-cache\.txt: line 4: malformed cache \(a name or -\): ' \
		build/mstat pprof -f "$tmp/s22-cache.txt" -o "$tmp/x.pb.gz"
	t err_sites_node expect_err 1 's22-node\.txt: line 4: malformed node \(a number or -\): "5770601 9248 6864 11 11 6864 0 0 4001 zero inode_cache alloc_inode' \
		build/mstat pprof -f "$tmp/s22-node.txt" -o "$tmp/x.pb.gz"
	t err_sites_live_orphan expect_err 1 's22-orphan\.txt: line 4: live line before any row: "\+ 12 656"$' \
		build/mstat pprof -f "$tmp/s22-orphan.txt" -o "$tmp/x.pb.gz"
	t err_sites_live_bad expect_err 1 's22-live\.txt: line 18: malformed live line \(\+ AGE_MS BYTES\): "\+ 7199999 -624"$' \
		build/mstat pprof -f "$tmp/s22-live.txt" -o "$tmp/x.pb.gz"
	t err_sites_live_short expect_err 1 's22-live-short\.txt: line 18: malformed live line ' \
		build/mstat pprof -f "$tmp/s22-live-short.txt" -o "$tmp/x.pb.gz"
	t err_sites_frame_after_live expect_err 1 "s22-frame\\.txt: line 19: frame before any row or after its row's live lines: \"$(printf '\t')foo\\+0x1/0x2\"\$" \
		build/mstat pprof -f "$tmp/s22-frame.txt" -o "$tmp/x.pb.gz"
	t err_sites_columns expect_err 1 "s22-columns\\.txt: line 3: not the columns of the file's version: \"# est_bytes " \
		build/mstat pprof -f "$tmp/s22-columns.txt" -o "$tmp/x.pb.gz"
}

# Root reads anything: the test needs setpriv to drop to nobody.
err_permission() {
	cp testdata/mstat-1.0.txt "$tmp/secret.txt"
	chmod 600 "$tmp/secret.txt"
	chmod 755 "$tmp"
	expect_err 1 'secret\.txt: permission denied$' \
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		build/mstat -f "$tmp/secret.txt"
}

# Without -f: the host has no mstat module (and must never load one).
err_not_loaded() {
	expect_err 1 '^mstat: /proc/mstat not found: is the mstat module loaded\?$' build/mstat
}

usage() {
	expect_err 2 "unknown option '?-x" build/mstat -x &&
		expect_err 2 'positive count' build/mstat top -n 0 &&
		expect_err 2 'seconds' build/mstat top -d -1 &&
		expect_err 2 '^mstat: unknown option --json for mstat prom ' build/mstat prom --json &&
		expect_err 2 '^mstat: unknown option -n for plain mstat ' build/mstat -n 3 &&
		expect_err 2 'unexpected argument bogus' build/mstat bogus &&
		expect_err 2 'missing argument to -f' build/mstat -f &&
		build/mstat --help | grep -q '^usage: mstat'
}

# getopt_long()'s command line: --opt=value as --opt value, and every
# error names the option and what is wrong with it.
opt_equals() {
	build/mstat prom -f testdata/mstat-1.2.txt --cache-max 3 >"$tmp/eq-a.prom" &&
		build/mstat prom -f testdata/mstat-1.2.txt --cache-max=3 >"$tmp/eq-b.prom" &&
		diff -u "$tmp/eq-a.prom" "$tmp/eq-b.prom" &&
		grep -qx 'mstat_cache_rows_dropped [1-9][0-9]*' "$tmp/eq-b.prom" &&
		build/mstat top -n 1 -d 0.1 --caches --sort=live \
			-f testdata/mstat-1.2.txt -f testdata/mstat-1.2-b.txt >"$tmp/eq-top.txt" &&
		grep -q 'sorted by live bytes$' "$tmp/eq-top.txt" &&
		expect_err 2 '^mstat: --cache-max wants 0 to 1000000, got x ' \
			build/mstat prom --cache-max=x
}

opt_missing_last() {
	expect_err 2 '^mstat: missing argument to --sort ' build/mstat top --caches --sort &&
		expect_err 2 '^mstat: missing argument to --cache-include ' \
			build/mstat prom --cache-include
}

opt_unknown() {
	expect_err 2 '^mstat: unknown option --frobnicate ' build/mstat top --frobnicate &&
		expect_err 2 '^mstat: unknown option --frobnicate ' build/mstat --frobnicate=1 prom &&
		expect_err 2 '^mstat: unknown option -q ' build/mstat top -cq &&
		expect_err 2 '^mstat: --json takes no argument ' build/mstat --json=yes
}

# The command table (main.c): the command is the first word that is no
# option and no option's argument, so it may come after options, which
# are its own; an option of another command is unknown to it.
opt_command_after() {
	build/mstat prom -f testdata/mstat-1.2.txt --cache-max 3 >"$tmp/ca-a.prom" &&
		build/mstat --cache-max 3 -f testdata/mstat-1.2.txt prom >"$tmp/ca-b.prom" &&
		diff -u "$tmp/ca-a.prom" "$tmp/ca-b.prom" &&
		expect_err 1 '^mstat: top not found$' build/mstat -f top prom &&
		expect_err 2 '^mstat: unknown option --listen for mstat top ' \
			build/mstat --listen 1 top &&
		expect_err 2 '^mstat: unknown option -c for mstat check ' \
			build/mstat -c check &&
		expect_err 2 '^mstat: unexpected argument top ' build/mstat -- top top
}

# Counters near 2^63 (u64s past it): every invariant holds, the estimate
# exact where frag x live passes 2^64; and every output prints the u64s
# as u64s, the live counts as s64s.
check_2e63() {
	(cd "$tmp/chk" && "$here/build/mstat" check big.txt) |
		grep -qx 'mstat-check: reads=1 violations=0 generation=1..1' &&
		build/mstat prom -f "$tmp/chk/big.txt" >"$tmp/big.prom" &&
		grep -qx 'mstat_class_allocated_bytes_total{class="16"} 9223372036854787216' "$tmp/big.prom" &&
		grep -qx 'mstat_class_frag_live_bytes{class="16"} 2017612633061979978' "$tmp/big.prom" &&
		grep -qx 'mstat_allocated_bytes_total{source="api"} 9223372036854775808' "$tmp/big.prom" &&
		grep -qx 'mstat_class_live_bytes{class="4096"} 8192' "$tmp/big.prom" &&
		build/mstat --json -f "$tmp/chk/big.txt" >"$tmp/big.json" &&
		grep -qx '    "slab_bytes_allocated": 9223372037361508392,' "$tmp/big.json" &&
		grep -q '"bytes_allocated": 9223372036854787216,' "$tmp/big.json" &&
		build/mstat -f "$tmp/chk/big.txt" |
		grep -Eq '^16 B +576,460,752,303,424,201 .* 4608\.0 PiB +8192\.0 PiB '
}

# top: a counter that passes 2^63 (a long long's sign) went forward.
top_2e63() {
	build/mstat top -n 1 -d 0.2 -f "$tmp/chk/top-a.txt" -f "$tmp/chk/top-b.txt" >"$tmp/top.txt"
	cat "$tmp/top.txt"
	! grep -q 'counters went back' "$tmp/top.txt" &&
		grep -Eq '^api +[0-9.]+ ' "$tmp/top.txt"
}

# check_catches NAME FILE... PATTERN: mstat check FILE... exits 1 and
# says PATTERN (an extended regex).
check_catches() {
	local pattern=${*: -1} out

	out=$(cd "$tmp/chk" && "$here/build/mstat" check "${@:1:$#-1}")
	echo "exit $? (want 1): $out"
	(cd "$tmp/chk" && ! "$here/build/mstat" check "${@:1:$#-1}" >/dev/null) &&
		grep -Eq "$pattern" <<<"$out"
}

# Format 1.2: the per-cache table, through every output and the checker.
caches_show() {
	same testdata/expected/show-1.2.txt 0 build/mstat -f testdata/mstat-1.2.txt
}

caches_json() {
	same testdata/expected/json-1.2.json 0 build/mstat --json -f testdata/mstat-1.2.txt &&
		{ ! command -v python3 >/dev/null ||
		  build/mstat --json -f testdata/mstat-1.2.txt | python3 -c '
import json, sys
c = json.load(sys.stdin)["caches"]
names = [r["name"] for r in c["table"]]
assert "mstat ct\"q\\x\t" in names, names
assert c["overflow"]["allocs"] == 38 and len(c["table"]) == 128
'; }
}

caches_prom() {
	build/mstat prom -f testdata/mstat-1.2.txt -o "$tmp/c.prom" &&
		diff -u testdata/expected/prom-1.2.prom "$tmp/c.prom" &&
		{ ! command -v promtool >/dev/null ||
		  promtool check metrics <"$tmp/c.prom"; } &&
		# No series twice, whatever the names.
		[ -z "$(grep -v '^#' "$tmp/c.prom" | sed 's/ [^ ]*$//' | sort | uniq -d)" ] &&
		grep -qx 'mstat_cache_live_objects{cache="mstat_ct_dup"} 4' "$tmp/c.prom" &&
		grep -qx 'mstat_cache_live_objects{cache="mstat_ct_dup#29"} 5' "$tmp/c.prom" &&
		grep -qxF 'mstat_cache_frees_total{cache="mstat ct\"q\\x'$'\t''"} 1' "$tmp/c.prom" &&
		! grep -q 'mstat_ct_pre' "$tmp/c.prom"
}

# The filters and the limit, as node_exporter's slabinfo collector has.
caches_prom_filters() {
	local n live

	live=$(grep -c '^cache [0-9].* live [^ ]*$' testdata/mstat-1.2.txt)
	n=$(build/mstat prom -f testdata/mstat-1.2.txt --cache-max 3 |
		grep -c '^mstat_cache_live_bytes{') &&
		[ "$n" -eq 3 ] &&
		build/mstat prom -f testdata/mstat-1.2.txt --cache-max 3 |
		grep -qx "mstat_cache_rows_dropped $((live - 3))" &&
		n=$(build/mstat prom -f testdata/mstat-1.2.txt --cache-include '^mstat_ct_0' |
		grep -c '^mstat_cache_allocs_total{') && [ "$n" -eq 8 ] &&
		! build/mstat prom -f testdata/mstat-1.2.txt --cache-exclude 'mstat' |
		grep -q '^mstat_cache_allocs_total{cache="mstat' &&
		[ "$(build/mstat prom -f testdata/mstat-1.2.txt --cache-max 0 |
		grep -c '^mstat_cache_allocs_total{')" -eq 0 ] &&
		expect_err 2 'cache-include "\(": ' build/mstat prom -f testdata/mstat-1.2.txt \
		--cache-include '(' -o "$tmp/never2.prom" &&
		test ! -e "$tmp/never2.prom" &&
		expect_err 2 'cache-max wants' build/mstat prom --cache-max x &&
		expect_err 2 '^mstat: unknown option --cache-max for plain mstat ' build/mstat --cache-max 3 &&
		expect_err 2 'sort goes with --caches' build/mstat top --sort live &&
		expect_err 2 'sort wants allocs or live' build/mstat top --caches --sort x
}

# Each filter's regex is compiled once, not per snapshot (mstat serve
# keeps them for all its scrapes): regcomp(), counted by a wrapper
# preloaded into mstat-serve (dynamic; the same commands), is called
# twice for the two filters.
prom_regex_once() {
	local n

	cat >"$tmp/regcomp.c" <<-'EOF'
	#define _GNU_SOURCE
	#include <dlfcn.h>
	#include <regex.h>
	#include <stdio.h>
	int regcomp(regex_t *re, const char *pat, int flags)
	{
		int (*real)(regex_t *, const char *, int) =
			(int (*)(regex_t *, const char *, int))dlsym(RTLD_NEXT, "regcomp");

		fprintf(stderr, "regcomp %s\n", pat);
		return real(re, pat, flags);
	}
	EOF
	cc -shared -fPIC -o "$tmp/regcomp.so" "$tmp/regcomp.c" -ldl &&
		LD_PRELOAD=$tmp/regcomp.so build/mstat-serve prom -f testdata/mstat-1.2.txt \
		--cache-include '^mstat' --cache-exclude dup >"$tmp/re.prom" 2>"$tmp/re.err" || return
	cat "$tmp/re.err"
	n=$(grep -c '^regcomp ' "$tmp/re.err")
	echo "$n regcomp() calls"
	[ "$n" -eq 2 ] && grep -q '^mstat_cache_allocs_total{cache="mstat' "$tmp/re.prom"
}

# The busiest cache of a -> b first; with --sort live, the largest.
caches_top() {
	local busy large

	busy=$(awk '$1 == "cache" { if (FILENAME ~ /-b/) { d = $4 - a[$2]
			if (d > best) { best = d; name = $NF } } else a[$2] = $4 }
		END { print name }' testdata/mstat-1.2.txt testdata/mstat-1.2-b.txt)
	large=$(awk '$1 == "cache" && $9 == "live" && $8 > best { best = $8; name = $NF }
		END { print name }' testdata/mstat-1.2-b.txt)
	echo "busiest $busy, largest $large"
	build/mstat top --caches -n 1 -d 0.1 -f testdata/mstat-1.2.txt \
		-f testdata/mstat-1.2-b.txt >"$tmp/ctop.txt" &&
		cat "$tmp/ctop.txt" &&
		sed -n 4p "$tmp/ctop.txt" | grep -q "^$busy " &&
		grep -q '^(overflow) ' "$tmp/ctop.txt" &&
		grep -q '^caches: 25 rows shown of 128, table 128 of 128 rows used, names yes, sorted by allocations/s$' "$tmp/ctop.txt" &&
		build/mstat top -c --sort live -n 1 -d 0.1 -f testdata/mstat-1.2.txt \
		-f testdata/mstat-1.2-b.txt >"$tmp/ctop2.txt" &&
		sed -n 4p "$tmp/ctop2.txt" | grep -q "^$large " &&
		expect_err 1 'format 1\.0 has no per-cache table' \
		build/mstat top --caches -n 1 -d 0.1 -f testdata/mstat-1.0.txt
}

caches_tests() {
	t caches_show caches_show
	t caches_json caches_json
	t caches_prom caches_prom
	t caches_prom_filters caches_prom_filters
	maybe prom_regex_once cc "a C compiler" prom_regex_once
	t caches_top caches_top
	t caches_check_good check_files check-good-1.2.txt 0 \
		"$here/build/mstat" check c-a.txt c-b.txt
	t caches_check_catches_live check_catches c-live.txt 'cache 28 live_objects is 5, expected 4'
	t caches_check_catches_bytes check_catches c-bytes.txt 'cache 28 live_bytes is 12805, expected 12804'
	t caches_check_catches_sum check_catches c-sum.txt 'sum of cache rows allocs is 5204, expected 5203'
	t caches_check_catches_overflow check_catches c-over.txt 'cache_overflow live_objects is 9, expected 8'
	t caches_check_catches_no_overflow check_catches c-noover.txt 'no cache_overflow row'
	t caches_check_catches_used check_catches c-used.txt 'caches_used 128, caches_rows 100'
	t caches_check_catches_dup_id check_catches c-dupid.txt 'cache 28 appears twice'
	t caches_check_catches_escape check_catches c-escape.txt 'does not parse'
	t caches_check_catches_renamed check_catches c-a.txt c-b-renamed.txt 'cache [0-9]+ changed from mstat_ct_00'
	t caches_check_catches_alive check_catches c-a-gone.txt c-b.txt 'was gone, is live'
	t caches_check_catches_backwards check_catches c-b.txt c-a.txt 'cache [0-9]+ allocs decreased'
	t caches_check_catches_in_1_1 check_catches c-v11.txt 'does not parse'
	if git -C "$here" cat-file -e "$old_reader_ref" 2>/dev/null; then
		t caches_old_reader old_reader
	else
		skip caches_old_reader "no git history here (needs $old_reader_ref)"
	fi
}

# The tool as it was before format 1.2 reads a 1.2 file: the cache lines
# are of shapes it does not know, which a later minor may add.
old_reader_ref=b1040ea
old_reader() {
	mkdir -p "$tmp/old" &&
		git -C "$here" archive "$old_reader_ref" . | tar -x -C "$tmp/old" &&
		make -s -C "$tmp/old" mstat &&
		"$tmp/old/build/mstat" -f testdata/mstat-1.2.txt >"$tmp/old.txt" &&
		grep -q '^cache ' "$tmp/old.txt" &&
		"$tmp/old/build/mstat" --json -f testdata/mstat-1.2.txt >/dev/null &&
		"$tmp/old/build/mstat" prom -f testdata/mstat-1.2.txt >/dev/null &&
		! "$tmp/old/build/mstat" check testdata/mstat-1.2.txt >/dev/null
}

# Format 1.5 and sites 2.1, what a reader without CAP_SYS_ADMIN is served
# within proc_min_interval_ms: the same snapshot twice is no violation
# when the second says snapshot_reused 1, one when it does not; every
# output reads the added lines, and the sites header's reused and age_ms.
reused_snapshot() {
	(cd "$tmp/chk" && "$here/build/mstat" check c-a.txt c-reused.txt) &&
		check_catches c-a.txt c-fresh.txt \
			'generation 1 after 1 \(not snapshot_reused\)' &&
		build/mstat -f "$tmp/chk/c-reused.txt" >/dev/null &&
		build/mstat --json -f "$tmp/chk/c-reused.txt" >/dev/null &&
		build/mstat prom -f "$tmp/chk/c-reused.txt" >/dev/null &&
		sed -e '1s/2\.0$/2.1/' -e '2s/$/ reused 1 age_ms 250/' \
			testdata/mstat_sites-2.0.txt >"$tmp/sites-2.1.txt" &&
		build/mstat pprof -f "$tmp/sites-2.1.txt" -o "$tmp/p21.pb.gz" &&
		build/mstat pprof -f testdata/mstat_sites-2.0.txt -o "$tmp/p20.pb.gz" &&
		[ "$(gzip -dc "$tmp/p21.pb.gz" | wc -c)" -gt 0 ]
}

# labels_input: testdata/mstat_sites-2.2.txt with its cgroup ids 1, 4000
# and 4001 made those of a tree of our own, $tmp/cg, / /a /a/b (the inode
# numbers of its directories; 9999 stays the id of none), for
# MSTAT_CGROUP_ROOT; into $tmp/labels.txt, and the ids into $tmp/ids.
labels_input() {
	local r a b

	mkdir -p "$tmp/cg/a/b" "$tmp/cg/c" &&
		r=$(stat -c %i "$tmp/cg") && a=$(stat -c %i "$tmp/cg/a") &&
		b=$(stat -c %i "$tmp/cg/a/b") || return
	printf '%s /\n%s /a\n%s /a/b\n9999 id:9999\nhardirq hardirq\nsoftirq softirq\n- \n' \
		"$r" "$a" "$b" >"$tmp/ids"
	echo "ids: / $r, /a $a, /a/b $b"
	# No directory of ours may have the id of the gone cgroup.
	! find "$tmp/cg" -inum 9999 | grep -q . &&
		awk -v r="$r" -v a="$a" -v b="$b" '
		NR > 3 && /^[0-9]/ { if ($9 == "1") $9 = r
			else if ($9 == "4000") $9 = a
			else if ($9 == "4001") $9 = b }
		{ print }' testdata/mstat_sites-2.2.txt >"$tmp/labels.txt"
}

# raw_rows: `go tool pprof -raw` of a profile on stdin, its samples summed
# by stack and labels cgroup and node: "inuse_objects inuse_space
# cgroup node" a line, sorted. sites_rows FILE: the same of a 2.2 file,
# from its est_calls and est_bytes, its cgroups by $tmp/ids.
raw_rows() {
	awk '
	function flush() {
		if (key != "") {
			k = key "|" cg "|" nd
			io[k] += v2
			is[k] += v3
		}
		key = ""
	}
	/^ +-?[0-9]+ +-?[0-9]+ +-?[0-9]+ +-?[0-9]+: / {
		flush()
		key = $0
		sub(/^[^:]*: */, "", key)
		v2 = $3; v3 = $4; cg = ""; nd = ""
		next
	}
	key != "" && /^ +[a-z]+:\[/ {
		if (match($0, /cgroup:\[[^]]*\]/))
			cg = substr($0, RSTART + 8, RLENGTH - 9)
		if (match($0, /node:\[[0-9]+ node\]/)) {
			nd = substr($0, RSTART + 6, RLENGTH - 6)
			sub(/ node\]$/, "", nd)
		}
		next
	}
	{ flush() }
	END {
		flush()
		for (k in io) {
			split(k, f, "|")
			print io[k], is[k], f[2], f[3]
		}
	}' | sort
}

sites_rows() {
	awk 'NR == FNR { path[$1] = $2; next }
		FNR > 3 && /^[0-9]/ { print $2, $1, path[$9], ($10 == "-" ? "" : $10) }' \
		"$tmp/ids" "$1" | sort
}

# sum_values FILE.pb.gz: the sums of the four values over its samples.
sum_values() {
	decode "$1" | awk '/^sample \{/ { i = 0 } /^  value: / { s[i++ % 4] += $2 }
		END { printf "%d %d %d %d\n", s[0], s[1], s[2], s[3] }'
}

# alloc_values FILE.pb.gz: each sample's alloc values but zeros, sorted.
alloc_values() {
	decode "$1" | awk '/^sample \{/ { i = 0 }
		/^  value: / { v[i++] = $2; if (i == 4 && (v[0] || v[1])) print v[0], v[1] }' |
		sort
}

# Format 2.2's labels (testdata/mstat_sites-2.2.txt, its cgroups a tree
# of our own), through protoc: each row's in-use adds up to its est_
# columns over its samples (raw_rows needs go: pprof_go_labels), the
# totals and each row's alloc values are those of the same rows without
# labels and live lines (as format 2.1), the labels are there, one age
# per live line.
pprof_labels() {
	local want got n

	labels_input &&
		MSTAT_CGROUP_ROOT=$tmp/cg build/mstat pprof -f "$tmp/labels.txt" -o "$tmp/pl.pb.gz" &&
		awk 'NR == 1 { sub(/2\.2$/, "2.1") } NR == 3 { sub(/ cgroup node cache/, "") }
			NR > 3 && /^[0-9]/ { $9 = ""; $10 = ""; $11 = ""; sub(/    */, " ") }
			/^\+ / { next } { print }' "$tmp/labels.txt" >"$tmp/nolabels.txt" &&
		build/mstat pprof -f "$tmp/nolabels.txt" -o "$tmp/pn.pb.gz" || return
	want=$(awk 'FNR > 3 && /^[0-9]/ { c += $2; b += $1 } END { print c, b }' "$tmp/labels.txt")
	got=$(sum_values "$tmp/pl.pb.gz")
	echo "in-use: est_calls est_bytes $want; profile $got; without labels $(sum_values "$tmp/pn.pb.gz")"
	[ "${got#* * }" = "$want" ] && [ "$got" = "$(sum_values "$tmp/pn.pb.gz")" ] &&
		diff -u <(alloc_values "$tmp/pn.pb.gz") <(alloc_values "$tmp/pl.pb.gz") || return
	decode "$tmp/pl.pb.gz" >"$tmp/pl.txt" &&
		for s in / /a /a/b id:9999 hardirq softirq node seconds age cache "mstat_leak list"; do
			grep -qxF "string_table: \"$s\"" "$tmp/pl.txt" || { echo "no string $s"; return 1; }
		done
	n=$(grep -c '^+ ' "$tmp/labels.txt")
	# Labels whose unit is "seconds": the ages.
	got=$(grep -cx "    num_unit: $(grep '^string_table: ' "$tmp/pl.txt" |
		grep -nx 'string_table: "seconds"' | awk -F: '{ print $1 - 1 }')" "$tmp/pl.txt")
	echo "live lines $n, age labels $got"
	[ "$got" -eq "$n" ]
}

# The rules the package ships (prometheus/mstat.rules.yml): promtool's
# check, and its unit tests (prometheus/mstat.rules.test.yml: a leak, a
# decoy, a module unloaded and loaded again, a scrape gap, a fleet);
# then the rules tampered, each of which the tests must catch: the leak
# alert without its 10 minutes held (the gap's alert back at once), and
# on any verdict, not a suspect's (the decoy's alert); the unexplained
# memory alert without the bound (the noise machine's alert), without
# the snapshot's age (the stale one's), and at 100% of MemTotal (the
# leak's alert gone); the cgroup alert without the standard errors (the
# noisy unit's alert), on "other" (its alert), and at 512 MiB (the pod's
# alert gone). A tamper after "|" must fail with that machine's alert
# among those promtool got.
prom_rules() {
	local d=prometheus t=$tmp/rules bad want

	promtool check rules "$d/mstat.rules.yml" &&
		promtool test rules "$d/mstat.rules.test.yml" || return
	mkdir -p "$t" && cp "$d/mstat.rules.test.yml" "$t/" || return
	for bad in '0,/^        for: 10m$/{/^        for: 10m$/d}' \
		   's/mstat_leak_suspect == 1$/mstat_leak_suspect >= 0/' \
		   's/ignoring (line, from) mstat_memory_unexplained_bound_bytes)/ignoring (line, from) (0 * mstat_memory_unexplained_bound_bytes))/|n:9754' \
		   's/mstat_memory_snapshot_age_seconds <= 60/mstat_memory_snapshot_age_seconds >= 0/|s:9754' \
		   's/0\.01 \* mstat_memory_bytes{line="total"}/1 * mstat_memory_bytes{line="total"}/' \
		   's/3 \* cgroup:mstat_cgroup_kernel_stderr_bytes:sum/0 * cgroup:mstat_cgroup_kernel_stderr_bytes:sum/g|y:9754' \
		   's/cgroup:mstat_cgroup_kernel_bytes:sum{cgroup!="other"}/cgroup:mstat_cgroup_kernel_bytes:sum/|z:9754' \
		   's/> 268435456$/> 536870912/'; do
		want=
		[ "${bad##*|}" = "$bad" ] || want=${bad##*|} bad=${bad%|*}
		sed "$bad" "$d/mstat.rules.yml" >"$t/mstat.rules.yml" || return
		if cmp -s "$d/mstat.rules.yml" "$t/mstat.rules.yml"; then
			echo "tamper '$bad' changed nothing"
			return 1
		fi
		if promtool test rules "$t/mstat.rules.test.yml" >"$t/out" 2>&1; then
			echo "tamper '$bad' passed the tests"
			return 1
		fi
		if [ -n "$want" ] &&
		   ! sed -n '/got:/,$p' "$t/out" | grep -q "instance=\"$want\""; then
			echo "tamper '$bad' failed, but not with $want's alert"
			return 1
		fi
		echo "caught: $bad${want:+ ($want fired)}"
	done
}

# The labels a fleet knows a cgroup by (mstat_cgroup_tags(), cgroup.c),
# from real layouts: each runtime's systemd scope and cgroupfs directory,
# the kubelet's systemd and cgroupfs drivers (pod UID, QoS class), kind's
# nested kubelet, systemd units and slices (a user manager's, a
# container's own systemd, a delegated subtree), and paths of no known
# layout, which get no label. A line: PATH|container_id|container_runtime
# |pod_uid|pod_qos|systemd_unit|systemd_slice.
C1=d0f631ca1ddba8db3bcfcb9e057cdc98d0379f1bee00e75a545147a27dadd982
C2=9c0abe51c6e6655d81de2d044d4fb194931f058c0426c67c7285d8f5657ed64a
C3=7c1c97df17c066924822b0af09a65251554962c61e23329aed04cd19020dc3b8
C4=0012a3fa000c5dc26ee658c3c58e12cecd58d6455cec3d5621f0c787675b38aa
C5=d0bf3e6ee1d668de18c9ca200a4f152062f345283ee68cadfe41204f215d75e9
C6=6db53c9d5a2ca72a85ddf3a681c0d9567899f4c48632a2e9b0beeba0d6938485
C7=f28d5b0d6f8be0da8446dabe79044cb9ed0ffa3150a003936155409fe778b885
C8=7ed6a8377b92b49472195f1201af304341daf4abb3643f837eafb38066111f6d
C9=95144b44f2a5ff5aa796af152bc61f599db54b2d1b7ecbc5c593ed4aeb47ba13
P1=e6ad2b47-524d-5472-b6fd-cd5deeb0e561
P2=f4e2b41a-8589-5dac-abeb-5439ed42d10a
P3=8683adea-a445-598d-89db-04bc27c8debe
P4=4aa9792e-831e-5eab-aa1d-72eaff8de30e
fleet_table() {
	local u1=${P1//-/_} u2=${P2//-/_} u3=${P3//-/_}
	cat <<EOT
/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod$u1.slice/cri-containerd-$C1.scope|$C1|containerd|$P1|burstable|cri-containerd-$C1.scope|kubepods-burstable-pod$u1.slice
/kubepods.slice/kubepods-pod$u2.slice/crio-$C2.scope|$C2|cri-o|$P2|guaranteed|crio-$C2.scope|kubepods-pod$u2.slice
/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod$u3.slice/crio-conmon-$C3.scope|||$P3|besteffort|crio-conmon-$C3.scope|kubepods-besteffort-pod$u3.slice
/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod$u3.slice|||$P3|besteffort||
/kubepods/burstable/pod$P1/$C3|$C3||$P1|burstable||
/kubepods/pod$P2/crio-$C4|$C4|cri-o|$P2|guaranteed||
/kubepods/besteffort/pod$P4|||$P4|besteffort||
/kubepods/burstable/podnot-a-pod-uid/$C4||||burstable||
/system.slice/docker-$C5.scope|$C5|docker|||docker-$C5.scope|system.slice
/docker/$C6|$C6|docker||||
/machine.slice/libpod-$C7.scope|$C7|podman|||libpod-$C7.scope|machine.slice
/machine.slice/libpod-conmon-$C7.scope|||||libpod-conmon-$C7.scope|machine.slice
/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-$C8.scope|$C8|podman|||libpod-$C8.scope|user.slice
/system.slice/nginx.service|||||nginx.service|system.slice
/system.slice/system-getty.slice/getty@tty1.service|||||getty@tty1.service|system-getty.slice
/user.slice/user-1000.slice/session-3.scope|||||session-3.scope|user-1000.slice
/user.slice/user-1000.slice/user@1000.service/app.slice/app-firefox-1234.scope|||||app-firefox-1234.scope|app.slice
/init.scope|||||init.scope|-.slice
/system.slice/docker-$C9.scope/init.scope|$C9|docker|||init.scope|-.slice
/system.slice/foo.service/sub/leaf|||||foo.service|system.slice
/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-besteffort.slice/kubelet-kubepods-besteffort-pod$u1.slice/cri-containerd-$C2.scope|$C2|containerd|$P1|besteffort|cri-containerd-$C2.scope|kubelet-kubepods-besteffort-pod$u1.slice
/docker/$C6/kubepods/burstable/pod$P4/$C1|$C1||$P4|burstable||
/system.slice/docker-abc.scope|||||docker-abc.scope|system.slice
/a/b||||||
/leaks/$C1||||||
EOT
}

# fleet_labels: each path of fleet_table as a cgroup of a tree of our
# own (MSTAT_CGROUP_ROOT), on the rows of testdata/mstat_sites-2.2.txt
# that have a cgroup id (14 a profile), through mstat pprof and go tool
# pprof -raw: every sample of the path has the table's labels, and no
# others. MSTAT_FLEET_TAMPER=1: the table's first runtime made another,
# which must fail.
fleet_labels() {
	local tab=$tmp/fleet-table paths=() ids=() i j k n=14 p
	fleet_table >"$tab"
	[ "${MSTAT_FLEET_TAMPER:-0}" != 1 ] || sed -i '1s/|containerd|/|cri-o|/' "$tab"
	mapfile -t paths < <(cut -d'|' -f1 "$tab")
	rm -rf "$tmp/cgf"
	for p in "${paths[@]}"; do
		mkdir -p "$tmp/cgf$p" && ids+=("$(stat -c %i "$tmp/cgf$p")") || return
	done
	: >"$tmp/fleet-got"
	for ((i = 0; i < ${#paths[@]}; i += n)); do
		# Row k of those with a cgroup id: the table's i + k.
		awk -v ids="${ids[*]:i:n}" '
			BEGIN { m = split(ids, id, " ") }
			NR > 3 && /^[0-9]/ && $9 ~ /^[0-9]+$/ { k++; $9 = id[(k - 1) % m + 1] }
			{ print }' testdata/mstat_sites-2.2.txt >"$tmp/fleet-$i.txt" &&
		MSTAT_CGROUP_ROOT=$tmp/cgf build/mstat pprof -f "$tmp/fleet-$i.txt" \
			-o "$tmp/fleet-$i.pb.gz" || return
		go tool pprof -raw "$tmp/fleet-$i.pb.gz" 2>/dev/null | awk '
			function tag(k,   r) {
				if (match($0, " " k ":\\[[^]]*\\]"))
					return substr($0, RSTART + length(k) + 3,
						      RLENGTH - length(k) - 4)
				return ""
			}
			/ cgroup:\[\// {
				print tag("cgroup") "|" tag("container_id") "|" \
				      tag("container_runtime") "|" tag("pod_uid") "|" \
				      tag("pod_qos") "|" tag("systemd_unit") "|" \
				      tag("systemd_slice")
			}' >>"$tmp/fleet-got" || return
	done
	j=$(sort -u "$tmp/fleet-got" | wc -l)
	k=$(wc -l <"$tab")
	echo "table: $k paths; profiles: $j labelled cgroups"
	diff -u <(sort -u "$tab") <(sort -u "$tmp/fleet-got")
}

# labels_total FILTER...: the inuse_space total go tool pprof shows of
# $tmp/pl.pb.gz; labels_sum [CGROUP [NODE]]: the est_bytes of the rows of
# $tmp/labels.txt with those labels ("" for any).
labels_total() {
	go tool pprof -unit=B -top "$@" "$tmp/pl.pb.gz" 2>/dev/null |
		sed -n 's/^Showing nodes accounting for \([0-9]*\)B\{0,1\}, .*/\1/p'
}

labels_sum() {
	awk -v c="${1-}" -v n="${2-}" 'NR == FNR { id[$2] = $1; next }
		FNR > 3 && /^[0-9]/ && (c == "" || $9 == id[c]) && (n == "" || $10 == n) { s += $1 }
		END { print s + 0 }' "$tmp/ids" "$tmp/labels.txt"
}

# The same through go tool pprof: -tags lists cgroup, node and age;
# -tagfocus keeps a cgroup's rows (by a regex of its path: ^/a$ the
# cgroup, ^/a(/|$) its subtree), a node's, the objects an hour old or
# older (age=3600s:, whose in-use is their shares of their rows'
# est_bytes, computed here), and -tagignore leaves a cgroup out; each
# row's in-use over its samples is its est_ columns.
pprof_go_labels() {
	local want got

	[ -s "$tmp/pl.pb.gz" ] || { labels_input &&
		MSTAT_CGROUP_ROOT=$tmp/cg build/mstat pprof -f "$tmp/labels.txt" -o "$tmp/pl.pb.gz"; } ||
		return
	go tool pprof -raw "$tmp/pl.pb.gz" | raw_rows >"$tmp/raw-rows" &&
		sites_rows "$tmp/labels.txt" >"$tmp/want-rows" &&
		diff -u "$tmp/want-rows" "$tmp/raw-rows" || return
	go tool pprof -tags "$tmp/pl.pb.gz" >"$tmp/tags.txt" && cat "$tmp/tags.txt" &&
		grep -q '^ cgroup: Total ' "$tmp/tags.txt" &&
		grep -q '^ node: Total ' "$tmp/tags.txt" &&
		grep -q '^ age: Total ' "$tmp/tags.txt" &&
		grep -Eq '%\): /a/b$' "$tmp/tags.txt" &&
		grep -Eq '%\): id:9999$' "$tmp/tags.txt" &&
		grep -Eq '%\): 2hrs$' "$tmp/tags.txt" || return
	got=$(labels_total -tagfocus 'cgroup=^/a$'); want=$(labels_sum /a)
	echo "cgroup /a: $got, est_bytes $want"
	[ "$got" = "$want" ] || return
	got=$(labels_total -tagfocus 'cgroup=^/a(/|$)'); want=$(($(labels_sum /a) + $(labels_sum /a/b)))
	echo "cgroup /a and below: $got, est_bytes $want"
	[ "$got" = "$want" ] || return
	got=$(labels_total -tagfocus 'node=1'); want=$(labels_sum "" 1)
	echo "node 1: $got, est_bytes $want"
	[ "$got" = "$want" ] || return
	got=$(labels_total -tagignore 'cgroup=softirq'); want=$(($(labels_sum "" "") - $(labels_sum softirq)))
	echo "all but softirq: $got, est_bytes $want"
	[ "$got" = "$want" ] || return
	# The old objects' shares, an hour and two hours old or older (the
	# 7199999 ms one is not two hours old in whole seconds).
	labels_old 3600 && labels_old 7200
}

# A merged cache's names (MSTAT_SLAB_ROOT: kmalloc-64 and two aliases of
# one SLUB directory) are three labels cache=NAME of each of its samples,
# not one "a,b,c": -tagfocus by any one of them keeps that cache's rows,
# their in-use its est_bytes; -tags lists each name.
pprof_go_cache_aliases() {
	local want got name
	rm -rf "$tmp/slabal" && mkdir -p "$tmp/slabal/:t-0000064" &&
		for name in kmalloc-64 mstat_alias_a mstat_alias_b; do
			ln -s :t-0000064 "$tmp/slabal/$name" || return
		done
	labels_input &&
		MSTAT_SLAB_ROOT=$tmp/slabal MSTAT_CGROUP_ROOT=$tmp/cg \
		build/mstat pprof -f "$tmp/labels.txt" -o "$tmp/al.pb.gz" || return
	want=$(awk 'NR > 3 && /^[0-9]/ && $11 == "kmalloc-64" { s += $1 } END { print s + 0 }' \
		"$tmp/labels.txt")
	[ "$want" -gt 0 ] || { echo "no kmalloc-64 row in the input"; return 1; }
	go tool pprof -tags "$tmp/al.pb.gz" >"$tmp/al-tags.txt" || return
	for name in kmalloc-64 mstat_alias_a mstat_alias_b; do
		got=$(go tool pprof -unit=B -top -tagfocus "cache=^$name\$" "$tmp/al.pb.gz" 2>/dev/null |
			sed -n 's/^Showing nodes accounting for \([0-9]*\)B\{0,1\}, .*/\1/p')
		echo "cache=^$name\$: $got, est_bytes $want"
		[ "$got" = "$want" ] || return
		grep -Eq "%\): $name\$" "$tmp/al-tags.txt" ||
			{ echo "-tags lists no $name"; return 1; }
	done
	! grep -q 'kmalloc-64,' "$tmp/al-tags.txt" ||
		{ echo "-tags lists a joined value"; return 1; }
}

# labels_old SECS: -tagfocus age=SECSs: keeps the objects of an age of
# SECS s or more: its total is their shares, est_bytes x bytes /
# max(sampled_bytes, the row's live lines' bytes), within a byte each of
# the rounding.
labels_old() {
	local want got

	want=$(awk -v t="$1" 'function row() { if (n) for (i = 0; i < n; i++)
				if (int(age[i] / 1000) >= t) s += e * by[i] / (sb > lb ? sb : lb)
			n = 0; lb = 0 }
		FNR > 3 && /^[0-9]/ { row(); e = $1; sb = $3 }
		/^\+ / { age[n] = $2; by[n++] = $3; lb += $3 }
		END { row(); printf "%.0f\n", s }' "$tmp/labels.txt")
	got=$(labels_total -tagfocus "age=$1s:")
	echo "$1 s old or older: $got, shares $want"
	[ "$got" -gt 0 ] && [ $((got - want)) -le 5 ] && [ $((want - got)) -le 5 ]
}

# Format 2.2 reads, its 2.1 header and its column line; 2.3's source
# column; a 2.4 with a column more before the site, and a word more on
# its live lines, too; 2.5's drops (every row's frees, here); a source
# 2.3 does not know is an error, and so are more drops than frees.
sites_2_2() {
	build/mstat pprof -f testdata/mstat_sites-2.2.txt -o "$tmp/p22.pb.gz" &&
		gzip -t "$tmp/p22.pb.gz" &&
		build/mstat pprof -f "$tmp/s23.txt" -o "$tmp/p23.pb.gz" &&
		gzip -t "$tmp/p23.pb.gz" &&
		build/mstat pprof -f "$tmp/s24.txt" -o "$tmp/p24.pb.gz" &&
		gzip -t "$tmp/p24.pb.gz" &&
		build/mstat pprof -f "$tmp/s25.txt" -o "$tmp/p25.pb.gz" &&
		gzip -t "$tmp/p25.pb.gz" &&
		expect_err 1 'line 4: unknown source' \
			build/mstat pprof -f "$tmp/s23-source.txt" -o "$tmp/never.pb.gz" &&
		expect_err 1 'line 4: ' \
			build/mstat pprof -f "$tmp/s25-drops.txt" -o "$tmp/never.pb.gz"
}

# The replays of the leak tests (test_leaks.sh, test_history.sh, and
# json_names here): leaks_gen makes them, leaks_judge judges a verdict
# against their truth, hist_live offers their reads under a tmpfs over
# /proc.

# leaks_gen DIR SPEC [VAR=VALUE...]: the replay directory of SPEC.
leaks_gen() {
	local dir=$1 spec=$2 v args=()

	shift 2
	for v in D=600 I=10 R=16384 seed=1 warm=300 cachecol=1 "$@"; do
		args+=(-v "$v")
	done
	rm -rf "$dir" && mkdir -p "$dir" &&
		printf '%s\n' "$spec" >"$dir.spec" &&
		awk -v dir="$dir" "${args[@]}" -f testdata/leaks-gen.awk \
			testdata/mstat-1.2.txt "$dir.spec"
}

# leaks_judge JSON TRUTH: every line of TRUTH, "stack FN BYTES_PER_S
# CACHE CGROUP" or "cache NAME BYTES_PER_S [optional]", is a suspect of
# JSON (its site's function FN, CACHE among its caches, CGROUP among its
# cgroups; CGROUP - for none) whose interval holds the rate (an optional
# cache need not be a suspect: one whose leak a decoy's swings hide from
# the exact tier); and JSON has no other suspect.
leaks_judge() {
	awk 'NR == FNR { want[$1 " " $2] = $0; n++; next }
	function field(k,   v) {
		if (!match($0, "\"" k "\": [^,}]*")) return ""
		v = substr($0, RSTART + length(k) + 4, RLENGTH - length(k) - 4)
		gsub(/"/, "", v)
		return v
	}
	/"unexplained": \[/ { sec = "u" }
	/\{"kind": "stack", "site": / && sec != "u" { cur = "stack " field("site"); sub(/\+.*/, "", cur); got[cur] = 1 }
	/\{"kind": "cache", "cache": / && sec != "u" { cur = "cache " field("cache"); got[cur] = 1 }
	/"cgroups": / && sec != "u" { cgs[cur] = $0 }
	/"rate_low_bps": / && sec != "u" { low[cur] = field("rate_low_bps"); high[cur] = field("rate_high_bps"); est[cur] = field("rate_bps") }
	END {
		for (k in got) {
			print "suspect " k ": " est[k] " B/s in [" low[k] ", " high[k] "]"
			if (!(k in want)) { print "  not a leak of the truth"; bad++ }
		}
		for (k in want) {
			split(want[k], w, " ")
			if (!(k in got) && w[4] == "optional") continue
			if (!(k in got)) { print "missed " k; bad++; continue }
			if (w[3] + 0 < low[k] + 0 || (high[k] != "null" && w[3] + 0 > high[k] + 0)) {
				print "  " k ": true rate " w[3] " outside its interval"; bad++
			}
			if (w[1] == "stack" && w[5] != "-" && index(cgs[k], "\"" w[5] "\"") == 0) {
				print "  " k ": no cgroup " w[5] " in " cgs[k]; bad++
			}
			if (w[1] == "stack" && index(cgs[k], "\"" w[4] "\"") == 0) {
				print "  " k ": no cache " w[4] " in " cgs[k]; bad++
			}
		}
		exit bad > 0
	}' "$2" "$1"
}

# hist_live SRC OUT WHEN N CMD: CMD under a tmpfs over /proc holding
# SRC's reads, the test's clock at each one's time (MSTAT_LEAK_CLOCK):
# read 0 offered first, then read r + 1 once WHEN r (a shell test of
# $r) holds, up to read N - 1; once WHEN N - 1 holds, if SRC has more
# reads than N, SIGINT to the
# pid in OUT.pid (CMD's unless CMD writes its own child's there: script's
# child, the watch on its pty). CMD's status in OUT.rc.
hist_live() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	MSTAT_LEAK_CLOCK=/proc/clock timeout 60 unshare -m sh -c '
		src=$1 out=$2 when=$3 n=$4
		shift 4
		mount -t tmpfs none /proc || exit 9
		offer() {
			f=$(printf %04d "$1")
			cp "$src/$f.mstat" /proc/n && mv /proc/n /proc/mstat &&
				cp "$src/$f.sites" /proc/n && mv /proc/n /proc/mstat_sites &&
				cp "$src/$f.time" /proc/n && mv /proc/n /proc/clock
		}
		offer 0 || exit 9
		(sh -c "[ -e $out.pid ] || echo \$\$ >$out.pid; exec \"\$@\"" sh "$@"
		 echo $? >"$out.rc") &
		r=0
		while [ $r -lt "$n" ]; do
			t=0
			until eval "$when" || [ -s "$out.rc" ]; do
				t=$((t + 1))
				[ $t -le 3000 ] || { echo "read $r not taken in 30 s"; exit 1; }
				sleep 0.01
			done
			r=$((r + 1))
			# Not past the Nth: the watch would take it before
			# the signal came, or not (a race).
			[ $r -lt "$n" ] && [ -e "$src/$(printf %04d $r).mstat" ] &&
				{ offer $r || exit 1; }
		done
		[ -s "$out.rc" ] || [ ! -e "$src/$(printf %04d $r).mstat" ] ||
			kill -INT "$(cat "$out.pid")"
		wait' sh "$@"
}

# mstat serve builds a profile without the lock its scrapes take: a
# /metrics scrape made while a /debug/pprof/heap request is held before
# its build (MSTAT_SERVE_HOLD, a FIFO: serve.c's mstat_serve_hold()) ends,
# and the profile ends after it, whole. Built under that lock (as it was
# once), the scrape would wait for the held profile: it times out (30 s),
# and the test says so. No sleep: the hold says when the profile is in
# its build, on any machine.
serve_pprof_unlocked() {
	local cpid ok=1

	rm -f "$tmp/hold" "$tmp/u.order" && mkfifo "$tmp/hold" || return
	MSTAT_SERVE_HOLD=$tmp/hold serve_start "$tmp/serve-u.err" \
		--min-interval 0 -f testdata/mstat-1.2.txt \
		--sites testdata/mstat_sites-2.2.txt || return
	curl -sS --max-time 30 -o /dev/null "http://127.0.0.1:$serve_port/metrics" || ok=0
	( curl -sS --max-time 60 -o "$tmp/u.pb.gz" "http://127.0.0.1:$serve_port/debug/pprof/heap" &&
		echo pprof >>"$tmp/u.order" ) &
	cpid=$!
	if ! timeout 30 cat "$tmp/hold"; then
		echo "timeout: the profile not held before its build within 30 s"
		ok=0
	elif curl -sS --max-time 30 -o /dev/null "http://127.0.0.1:$serve_port/metrics"; then
		echo metrics >>"$tmp/u.order"
	else
		echo "timeout: the scrape did not end while the profile was held (30 s)"
		ok=0
	fi
	# shellcheck disable=SC2016 # expanded by the inner shell
	timeout 30 sh -c ': >"$1"' sh "$tmp/hold" ||
		{ echo "timeout: the profile not let go within 30 s"; ok=0; }
	wait "$cpid"
	serve_stop
	echo "ended in this order: $(cat "$tmp/u.order")"
	[ "$ok" = 1 ] && gzip -t "$tmp/u.pb.gz" &&
		[ "$(cat "$tmp/u.order")" = "metrics
pprof" ]
}

# mstat serve's --min-interval, off the clock: five scrapes of /metrics
# and five profiles, the files rewritten before each with the next
# generation (mstat) and snapshot (mstat_sites), 1 to 5. With an hour's
# interval, every answer is the first read's (1); with none, each its
# own (1 to 5): the test takes no time an interval must outlast.
# (scripts/serve-test.sh's serve-min-interval judges the same against a
# live module in a guest, in the 2 s of its --min-interval.)
serve_min_interval() {
	local ivl i g h got want bad=0

	for ivl in 3600000 0; do
		cp testdata/mstat-1.2.txt "$tmp/mi.mstat" &&
			cp testdata/mstat_sites-2.2.txt "$tmp/mi.sites" || return
		serve_start "$tmp/mi.err" --min-interval "$ivl" \
			-f "$tmp/mi.mstat" --sites "$tmp/mi.sites" || return
		got=
		for i in 1 2 3 4 5; do
			sed "s/^generation .*/generation $i/" testdata/mstat-1.2.txt \
				>"$tmp/mi.new" && mv "$tmp/mi.new" "$tmp/mi.mstat" &&
				sed "2s/^# snapshot [0-9]* /# snapshot $i /" \
					testdata/mstat_sites-2.2.txt >"$tmp/mi.new" &&
				mv "$tmp/mi.new" "$tmp/mi.sites" || return
			g=$(curl -sS --max-time 30 "http://127.0.0.1:$serve_port/metrics" |
				awk '$1 == "mstat_generation" { print $2 }')
			rm -f "$tmp/mi.gz"
			curl -sS --max-time 30 -o "$tmp/mi.gz" \
				"http://127.0.0.1:$serve_port/debug/pprof/heap"
			h=$(gzip -dc "$tmp/mi.gz" | tr -c '[:print:]' '\n' |
				grep -o 'mstat_sites [^ ]* snapshot [0-9]*' |
				awk '{ print $4; exit }')
			got="$got ${g:-none}/${h:-none}"
		done
		serve_stop
		want=" 1/1 1/1 1/1 1/1 1/1"
		[ "$ivl" != 0 ] || want=" 1/1 2/2 3/3 4/4 5/5"
		echo "--min-interval $ivl: generation/snapshot$got (want$want)"
		[ "$got" = "$want" ] || bad=1
	done
	[ "$bad" = 0 ]
}

guest_live() {
	./capture.sh "$tmp/capture"
	local rc=$?

	[ $rc -eq 77 ] && return 77
	[ $rc -eq 0 ] || return $rc
	guest_fleet_labels "$tmp/capture" || return
	if MSTAT_FLEET_TAMPER=1 guest_fleet_labels "$tmp/capture" >/dev/null; then
		echo "guest_fleet_labels: the tampered judge passed"
		return 1
	fi
	echo "ok guest_fleet_labels (its tampered judge failed, as it must)"
}

# guest_fleet_labels DIR: the guest's real hierarchy (guest.sh: a
# containerd container of a burstable pod, systemd driver, and the
# service nginx.service), its profile (DIR/fleet-labels.b64) through go
# tool pprof: -tagfocus on the container's id keeps samples, all of
# them of that container, runtime, pod and QoS class; on the unit, all
# of nginx.service in system.slice; each cgroup's samples are the
# other's complement; an id of no container keeps none
# (MSTAT_FLEET_TAMPER=1: the id looked for is another's: guest_live
# checks that this fails).
guest_fleet_labels() {
	local d=$1 pod=0a1b2c3d-4e5f-6789-abcd-ef0123456789 ctr
	ctr=3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a
	[ "${MSTAT_FLEET_TAMPER:-0}" != 1 ] || ctr=${ctr/3f2a/4f2a}
	base64 -d "$d/fleet-labels.b64" >"$d/fleet.pb.gz" || return
	# raw TAGFOCUS: one line a sample, its labels as "key:[value]" words.
	raw() {
		go tool pprof -raw -tagfocus "$1" "$d/fleet.pb.gz" 2>/dev/null |
			awk '/^Samples:/ { s = 1; next } /^Locations/ { s = 0 }
			     s && /^ *[0-9]/ { n++ } s && / cgroup:\[/ { print }
			     END { if (!n) exit 1 }'
	}
	raw "container_id=^$ctr\$" >"$d/ctr.txt" || { echo "no sample of container $ctr"; return 1; }
	raw 'systemd_unit=^nginx\.service$' >"$d/unit.txt" || { echo "no sample of nginx.service"; return 1; }
	echo "container $ctr: $(wc -l <"$d/ctr.txt") samples; nginx.service: $(wc -l <"$d/unit.txt")"
	grep -v "container_id:\[$ctr\]" "$d/ctr.txt" | head -n 3
	! grep -qv -e "container_id:\[$ctr\]" "$d/ctr.txt" &&
	! grep -qv -e 'container_runtime:\[containerd\]' "$d/ctr.txt" &&
	! grep -qv -e "pod_uid:\[$pod\]" "$d/ctr.txt" &&
	! grep -qv -e 'pod_qos:\[burstable\]' "$d/ctr.txt" &&
	! grep -qv -e 'systemd_unit:\[nginx\.service\]' "$d/unit.txt" &&
	! grep -qv -e 'systemd_slice:\[system\.slice\]' "$d/unit.txt" &&
	! grep -q container_id "$d/unit.txt" &&
	! raw "container_id=^${ctr/3f/00}\$" >/dev/null
}

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

# Format 1.8: rows count from what their caches held at load
# (testdata/mstat-1.8.txt: mstat loaded after boot, the caches dropped,
# rows that read below zero counted since load alone). The checker
# takes it; a cache row's or a kmalloc class's objects at load that do
# not match its live count, a row without the column, and objects at
# load for "large", are each caught.
live_at_load() {
	local f=testdata/mstat-1.8.txt d=$tmp/chk18

	build/mstat check "$f" || return 1
	# Its rows below zero without their objects at load: the case for 1.8.
	awk '$1 == "cache" && $7 - $11 < 0 { n++ } $1 == "cache" && $7 < 0 { z++ }
		END { print n + 0 " rows below zero since load, " z + 0 " with their objects at load"; exit !(n > 0 && z == 0) }' "$f" || return 1
	mkdir -p "$d"
	awk '$1 == "cache" && !done { $11++; done = 1 } { print }' "$f" >"$d/row.txt"
	awk '$1 == "kmalloc_class" && $2 == 64 { $7++ } { print }' "$f" >"$d/kcls.txt"
	awk '$1 == "cache" && !done { NF--; done = 1 } { print }' "$f" >"$d/col.txt"
	awk '$1 == "kmalloc_class" && $2 == "large" { $7 = 1; $5++ } { print }' "$f" >"$d/large.txt"
	! build/mstat check "$d/row.txt" >"$d/row.out" &&
		grep -q 'live_objects' "$d/row.out" &&
		! build/mstat check "$d/kcls.txt" >"$d/kcls.out" &&
		grep -q 'kmalloc_class 64 live_objects' "$d/kcls.out" &&
		! build/mstat check "$d/col.txt" >"$d/col.out" 2>&1 &&
		! build/mstat check "$d/large.txt" >"$d/large.out" &&
		grep -q 'kmalloc_class large has 1 objects at load' "$d/large.out"
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
vm_awk() {
	awk '{ p = 0; for (i = 4; i <= NF; i++) if ($i ~ /^pages=/) p = substr($i, 7)
		if (!p) next
		c = $3; sub(/\+.*/, "", c); if ($4 ~ /^\[/) c = c " " $4
		b[c] += p * 4096; n[c]++ }
		END { for (c in b) printf "%s|%d|%d\n", c, b[c], n[c] }' "$1" | sort
}

vm_json_rows() {
	sed -n 's/.*"vmalloc_by_caller": //p' "$1" | sed 's/}, {/\n/g' |
		sed -n 's/.*"caller": "\([^"]*\)", "kind": [^,]*, "bytes": \([0-9]*\), "areas": \([0-9]*\).*/\1|\2|\3/p' | sort
}

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
pages_args=(-f testdata/mstat-1.6.txt --meminfo testdata/meminfo-1.6.txt)
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

t build build
[ -x build/mstat ] || summary
make_bad_inputs
t show show_text
maybe json_valid python3 "JSON syntax" json_valid
t json_values json_values
maybe json_names python3 "JSON syntax" json_names
maybe prom_promtool promtool "Debian: prometheus" prom_promtool
maybe prom_rules promtool "Debian: prometheus" prom_rules
t prom_values prom_values
t values_edit values_edit
t top_rates top_rates
t top_served_again top_served_again
t top_2e63 top_2e63
maybe top_tty script "util-linux" top_tty
t pprof_write pprof_write
maybe pprof_protoc protoc "Debian: protobuf-compiler" pprof_protoc
t pprof_compressed pprof_compressed
maybe pprof_big protoc "Debian: protobuf-compiler" pprof_big
maybe pprof_stacks protoc "Debian: protobuf-compiler" pprof_stacks
maybe pprof_labels protoc "Debian: protobuf-compiler" pprof_labels
if command -v go >/dev/null && go tool pprof -h >/dev/null 2>&1; then
	t pprof_go pprof_go
	t pprof_go_traces pprof_go_traces
	t pprof_go_labels pprof_go_labels
	t pprof_go_cache_aliases pprof_go_cache_aliases
	t fleet_labels fleet_labels
	if ! only fleet_labels_tamper_caught; then
		:
	elif MSTAT_FLEET_TAMPER=1 fleet_labels >"$MSTAT_LOGS/fleet-tamper.log" 2>&1; then
		not_ok "fleet_labels_tamper_caught: a runtime changed in the table, and the profile still matched it"
	else
		ok fleet_labels_tamper_caught
	fi
else
	skip pprof_go "no go tool pprof (optional; Debian: golang-go)"
	skip pprof_go_traces "no go tool pprof (optional; Debian: golang-go)"
	skip pprof_go_labels "no go tool pprof (optional; Debian: golang-go)"
	skip pprof_go_cache_aliases "no go tool pprof (optional; Debian: golang-go)"
	skip fleet_labels "no go tool pprof (optional; Debian: golang-go)"
fi
check_tests
caches_tests
t reused_snapshot reused_snapshot
t sites_2_2 sites_2_2
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
errors
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	t err_permission err_permission
else
	skip err_permission "needs root and setpriv"
fi
if [ -e /proc/mstat ]; then
	skip err_not_loaded "/proc/mstat exists here"
else
	t err_not_loaded err_not_loaded
fi
t usage usage
t opt_equals opt_equals
t opt_missing_last opt_missing_last
t opt_unknown opt_unknown
t opt_command_after opt_command_after
leaks_tests
history_tests
owners_tests
if ! only guest_live; then
	:
elif [ "${MSTAT_GUEST:-1}" = 0 ]; then
	skip guest_live "MSTAT_GUEST=0"
else
	mkdir -p "$MSTAT_LOGS"
	why=$MSTAT_LOGS/guest_live.log
	guest_live >"$why" 2>&1
	case $? in
	0)	ok guest_live; grep '^ok ' "$why" | sed 's/^/# guest: /' ;;
	77)	skip guest_live "no 6.12 guest kernel or headers: $(tail -n 1 "$why")" ;;
	*)	not_ok "guest_live, log: ${why#"$MSTAT_TOP"/}"
		tail -n 20 "$why" | show ;;
	esac
fi
summary
