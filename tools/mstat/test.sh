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
# shellcheck source=test_memory.sh
. ./test_memory.sh
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

# What test_memory.sh's tests share with others, kept here: vm_awk and
# vm_json_rows (its memory_by_caller, test_owners.sh's owners_by_caller),
# pages_args (its pages tests, json_names).

# vm_awk VMALLOCINFO: its areas with pages by caller, "CALLER|BYTES|AREAS",
# sorted: pages=N x 4096, the caller's function without its offset, a
# module's name after it.
vm_awk() {
	awk '{ p = 0; for (i = 4; i <= NF; i++) if ($i ~ /^pages=/) p = substr($i, 7)
		if (!p) next
		c = $3; sub(/\+.*/, "", c); if ($4 ~ /^\[/) c = c " " $4
		b[c] += p * 4096; n[c]++ }
		END { for (c in b) printf "%s|%d|%d\n", c, b[c], n[c] }' "$1" | sort
}

# vm_json_rows JSON: mstat memory --by caller --json's vmalloc_by_caller
# rows as vm_awk's.
vm_json_rows() {
	sed -n 's/.*"vmalloc_by_caller": //p' "$1" | sed 's/}, {/\n/g' |
		sed -n 's/.*"caller": "\([^"]*\)", "kind": [^,]*, "bytes": \([0-9]*\), "areas": \([0-9]*\).*/\1|\2|\3/p' | sort
}

# pages_args: the snapshot and meminfo that mstat memory reads a page
# profile (--sites) beside.
pages_args=(-f testdata/mstat-1.6.txt --meminfo testdata/meminfo-1.6.txt)

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
memory_tests
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
