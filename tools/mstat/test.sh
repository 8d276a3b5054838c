#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of the mstat tool, run by `make -C tools/mstat test`. Prints
# "ok NAME", "not ok NAME" (with the reason as "# " lines) or
# "skip NAME: WHY" per test, then "N passed, N failed, N skipped"; exits
# non-zero if a test failed.
#
# Host tests read the fixtures in testdata/ (captured from a 6.12 guest by
# capture.sh). promtool (Debian: prometheus), protoc (protobuf-compiler)
# and go (golang-go, optional) are installed with apt-get when missing and
# this runs as root; MSTAT_NO_INSTALL=1 turns that off. The guest_live
# test boots a 6.12 guest (capture.sh, about 45 s) when the kernel and
# headers are there; MSTAT_GUEST=0 skips it. Nothing is loaded on the host.
set -u

cd "$(dirname "$0")" || exit 1
td=testdata
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=${HOME:-$tmp} PPROF_TMPDIR=$tmp
pass=0 fail=0 skipped=0

ok() { echo "ok $1"; pass=$((pass + 1)); }
skip() { echo "skip $1: $2"; skipped=$((skipped + 1)); }
not_ok() {
	echo "not ok $1"
	[ -s "$tmp/why" ] && sed 's/^/# /' "$tmp/why" | head -n 20
	fail=$((fail + 1))
}

# t NAME COMMAND...: a test passes if COMMAND does; its output is the reason.
t() {
	local name=$1

	shift
	if "$@" >"$tmp/why" 2>&1; then
		ok "$name"
	else
		not_ok "$name"
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

apt_updated=0
# have COMMAND PACKAGE: COMMAND is there, or apt-get installs PACKAGE.
have() {
	command -v "$1" >/dev/null && return 0
	[ "${MSTAT_NO_INSTALL:-0}" = 1 ] && return 1
	[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || return 1
	if [ $apt_updated = 0 ]; then
		apt-get update >>"$tmp/apt.log" 2>&1
		apt_updated=1
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y "$2" \
		>>"$tmp/apt.log" 2>&1
	command -v "$1" >/dev/null
}

# The fixtures of the error tests, made from the captured ones.
make_bad_inputs() {
	sed '1s/1\.0$/9.0/' $td/mstat_sites-1.0.txt >"$tmp/sites-9.0.txt"
	head -n 8 $td/mstat_sites-1.0.txt >"$tmp/sites-truncated.txt"
	: >"$tmp/sites-empty.txt"
	head -c 1000 $td/mstat-1.0.txt >"$tmp/mstat-midline.txt"
	head -n 80 $td/mstat-1.0.txt >"$tmp/mstat-cut-orders.txt"
	printf 'hello\n' >"$tmp/other.txt"
	sed 's/^kmalloc_allocs .*/kmalloc_allocs 12x/' $td/mstat-1.0.txt \
		>"$tmp/mstat-badnum.txt"
}

build() { make -s mstat; }

show() {
	./mstat -f $td/mstat-1.0.txt >"$tmp/show.txt" &&
		python3 check.py show $td/mstat-1.0.txt "$tmp/show.txt" &&
		./mstat -f $td/mstat-1.0-b.txt >"$tmp/show-b.txt" &&
		python3 check.py show $td/mstat-1.0-b.txt "$tmp/show-b.txt"
}

json_valid() {
	./mstat --json -f $td/mstat-1.0.txt >"$tmp/j.json" &&
		python3 -m json.tool "$tmp/j.json" >/dev/null
}

json_values() {
	python3 check.py json $td/mstat-1.0.txt "$tmp/j.json" &&
		./mstat --json -f $td/mstat-1.0-b.txt >"$tmp/jb.json" &&
		python3 check.py json $td/mstat-1.0-b.txt "$tmp/jb.json"
}

prom_promtool() {
	./mstat prom -f $td/mstat-1.0.txt -o "$tmp/mstat.prom" &&
		promtool check metrics <"$tmp/mstat.prom" &&
		! ls "$tmp"/mstat.prom.tmp.* 2>/dev/null
}

prom_values() { python3 check.py prom $td/mstat-1.0.txt "$tmp/mstat.prom"; }

top_rates() {
	./mstat top -n 2 -d 0.5 -f $td/mstat-1.0.txt -f $td/mstat-1.0-b.txt \
		>"$tmp/top.txt" &&
		python3 check.py top $td/mstat-1.0.txt $td/mstat-1.0-b.txt \
			"$tmp/top.txt"
}

# On a terminal each frame starts by clearing the screen.
top_tty() {
	script -qec "./mstat top -n 1 -d 0.1 -f $td/mstat-1.0.txt" \
		"$tmp/typescript" >/dev/null &&
		grep -q $'\033\[H\033\[2J' "$tmp/typescript"
}

pprof_write() {
	./mstat pprof -f $td/mstat_sites-1.0.txt -o "$tmp/profile.pb.gz" &&
		gzip -t "$tmp/profile.pb.gz"
}

pprof_protoc() {
	gunzip <"$tmp/profile.pb.gz" >"$tmp/profile.pb" &&
		protoc --decode perftools.profiles.Profile profile.proto \
			<"$tmp/profile.pb" >"$tmp/profile.txt" &&
		python3 check.py pprof $td/mstat_sites-1.0.txt \
			"$tmp/profile.pb.gz" "$tmp/profile.txt"
}

# Over 64 KiB: several stored blocks.
pprof_big() {
	python3 check.py bigsites $td/mstat_sites-1.0.txt 5000 "$tmp/big.txt" &&
		./mstat pprof -f "$tmp/big.txt" -o "$tmp/big.pb.gz" &&
		[ "$(gunzip <"$tmp/big.pb.gz" | wc -c)" -gt 200000 ] &&
		gunzip <"$tmp/big.pb.gz" |
		protoc --decode perftools.profiles.Profile profile.proto \
			>"$tmp/big.decoded" &&
		python3 check.py pprof "$tmp/big.txt" "$tmp/big.pb.gz" \
			"$tmp/big.decoded"
}

pprof_go() {
	go tool pprof -top "$tmp/profile.pb.gz" >"$tmp/pprof-top.txt" &&
		cat "$tmp/pprof-top.txt" &&
		grep -q '^Type: inuse_space' "$tmp/pprof-top.txt" &&
		first=$(awk 'NR == 4 { print $9 }' $td/mstat_sites-1.0.txt) &&
		grep -q " ${first%%+*}\$" "$tmp/pprof-top.txt"
}

errors() {
	t err_missing expect_err 1 'nope\.txt not found$' \
		./mstat -f $td/nope.txt
	t err_version expect_err 1 'unsupported format version 9\.0 \(this mstat reads 1\.x\)$' \
		./mstat -f $td/mstat-9.0.txt
	t err_truncated expect_err 1 'truncated or incomplete' \
		./mstat -f $td/mstat-truncated.txt
	t err_truncated_orders expect_err 1 'truncated or incomplete: [0-9]+ page-order rows, want 11$' \
		./mstat -f "$tmp/mstat-cut-orders.txt"
	t err_midline expect_err 1 'truncated \(the last line is incomplete\)$' \
		./mstat -f "$tmp/mstat-midline.txt"
	t err_empty expect_err 1 'empty \(no version line\)$' \
		./mstat -f $td/mstat-empty.txt
	t err_not_mstat expect_err 1 'not an mstat file' \
		./mstat -f "$tmp/other.txt"
	t err_bad_number expect_err 1 'line 6: malformed "kmalloc_allocs 12x"$' \
		./mstat -f "$tmp/mstat-badnum.txt"
	t err_json_version expect_err 1 'unsupported format version 9\.0' \
		./mstat --json -f $td/mstat-9.0.txt
	t err_prom_empty expect_err 1 'empty' \
		./mstat prom -f $td/mstat-empty.txt -o "$tmp/never.prom"
	t err_prom_no_output test ! -e "$tmp/never.prom"
	t err_top_version expect_err 1 'unsupported format version 9\.0' \
		./mstat top -n 1 -d 0.1 -f $td/mstat-9.0.txt
	t err_sites_version expect_err 1 'unsupported format version 9\.0' \
		./mstat pprof -f "$tmp/sites-9.0.txt" -o "$tmp/x.pb.gz"
	t err_sites_truncated expect_err 1 'truncated or incomplete: 5 site rows, header says' \
		./mstat pprof -f "$tmp/sites-truncated.txt" -o "$tmp/x.pb.gz"
	t err_sites_empty expect_err 1 'empty' \
		./mstat pprof -f "$tmp/sites-empty.txt" -o "$tmp/x.pb.gz"
	t err_sites_as_mstat expect_err 1 'not an mstat file' \
		./mstat -f $td/mstat_sites-1.0.txt
}

# Root reads anything: the test needs setpriv to drop to nobody.
err_permission() {
	cp $td/mstat-1.0.txt "$tmp/secret.txt"
	chmod 600 "$tmp/secret.txt"
	chmod 755 "$tmp"
	expect_err 1 'secret\.txt: permission denied$' \
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		./mstat -f "$tmp/secret.txt"
}

# Without -f: the host has no mstat module (and must never load one).
err_not_loaded() {
	expect_err 1 '^mstat: /proc/mstat not found: is the mstat module loaded\?$' ./mstat
}

usage() {
	expect_err 2 "unknown option '?-x" ./mstat -x &&
		expect_err 2 'positive count' ./mstat top -n 0 &&
		expect_err 2 'seconds' ./mstat top -d -1 &&
		expect_err 2 'with plain mstat only' ./mstat prom --json &&
		expect_err 2 'with mstat top only' ./mstat -n 3 &&
		expect_err 2 'unexpected argument bogus' ./mstat bogus &&
		expect_err 2 'missing argument to -f' ./mstat -f &&
		./mstat --help | grep -q '^usage: mstat'
}

guest_live() {
	./capture.sh "$tmp/capture"
	local rc=$?

	[ $rc -eq 77 ] && return 77
	return $rc
}

t build build || { echo "0 passed, 1 failed"; exit 1; }
make_bad_inputs
t show show
t json_valid json_valid
t json_values json_values
if have promtool prometheus; then
	t prom_promtool prom_promtool
else
	skip prom_promtool "promtool missing and apt-get install prometheus failed"
	./mstat prom -f $td/mstat-1.0.txt -o "$tmp/mstat.prom"
fi
t prom_values prom_values
t top_rates top_rates
if command -v script >/dev/null; then
	t top_tty top_tty
else
	skip top_tty "no script(1)"
fi
t pprof_write pprof_write
if have protoc protobuf-compiler; then
	t pprof_protoc pprof_protoc
	t pprof_big pprof_big
else
	skip pprof_protoc "protoc missing and apt-get install protobuf-compiler failed"
	skip pprof_big "no protoc"
fi
if have go golang-go && go tool pprof -h >/dev/null 2>&1; then
	t pprof_go pprof_go
else
	skip pprof_go "go tool pprof not available (optional)"
fi
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
if [ "${MSTAT_GUEST:-1}" = 0 ]; then
	skip guest_live "MSTAT_GUEST=0"
else
	guest_live >"$tmp/why" 2>&1
	case $? in
	0)	ok guest_live; sed 's/^/# guest: /' "$tmp/why" | grep '# guest: ok' ;;
	77)	skip guest_live "no 6.12 guest kernel or headers: $(tail -n 1 "$tmp/why")" ;;
	*)	not_ok guest_live ;;
	esac
fi
echo "$pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ]
