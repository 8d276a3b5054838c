#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Extract the KTAP documents from a guest console log (scripts/guest.sh)
# and check each with the kernel's own parser, kunit.py parse, which reads
# only the first document it meets.
#
#   scripts/ktap.sh LOGFILE [OUTDIR]
#
# Writes OUTDIR/ktap-NNN.txt (kernel log prefixes removed) and ktap-NNN.json
# per document (OUTDIR defaults to a temporary directory), prints the
# parser's output and one line per suite:
#   KTAP <suite> passed=N failed=N skipped=N
# and, for each problem found, a line "KTAP-ERROR ktap-NNN.txt: <reason>".
# Exits 1 if no document is found, or any fails to parse, reports a failure
# or a crash, is cut short, or holds a "not ok" line. A document seen twice
# (on the console and in a dmesg by the guest script) is checked once; an
# empty one ("1..0", printed at boot by a KUnit kernel without built-in
# suites) is skipped.
# KSRC (default $MSTAT_CACHE/linux-source-6.12) locates kunit.py.
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || [ $# -eq 2 ] || die "usage: $0 LOGFILE [OUTDIR]"
logfile=$1
[ -f "$logfile" ] || die "no such file: $logfile"
kunit=${KSRC:-$MSTAT_CACHE/linux-source-6.12}/tools/testing/kunit/kunit.py
[ -f "$kunit" ] || die "no $kunit: run scripts/setup.sh"
if [ $# -eq 2 ]; then
	out=$2
	mkdir -p "$out"
	rm -f "$out"/ktap-* "$out/incomplete"
else
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
fi

# One file per top-level document, "[  12.345678] " prefixes removed. A
# document ends after as many top-level results as its plan announced;
# one cut short by the next version line or the end of the log (a crash)
# is listed in OUTDIR/incomplete.
tr -d '\r' <"$logfile" | sed -E 's/^(\[[^]]*\] ?)+//' | awk -v out="$out" '
	/^K?TAP version [0-9]+$/ {
		if (f) print f > (out "/incomplete")
		f = sprintf("%s/ktap-%03d.txt", out, ++n)
		plan = -1; results = 0
	}
	!f { next }
	{ print > f }
	plan < 0 && /^1\.\.[0-9]+/ { plan = substr($1, 4) + 0 }
	/^(not )?ok [0-9]+/ { results++ }
	plan >= 0 && results >= plan { close(f); f = "" }
	END { if (f) print f > (out "/incomplete") }
'

docs=()
for doc in "$out"/ktap-*.txt; do
	[ -f "$doc" ] || continue
	# The kernel's own run of built-in suites, when there are none.
	if [ "$(sed -n 2p "$doc")" = 1..0 ]; then
		log "$(basename "$doc") is empty (1..0): skipped"
		continue
	fi
	for seen in ${docs[@]+"${docs[@]}"}; do
		cmp -s "$doc" "$seen" || continue
		log "$(basename "$doc") repeats $(basename "$seen"): skipped"
		continue 2
	done
	docs+=("$doc")
done
[ ${#docs[@]} -gt 0 ] || die "no KTAP document in $logfile"

# Leaf test cases per suite from kunit.py's KernelCI-style JSON.
summary() {
	python3 - "$1" <<-'EOF'
	import json, sys
	def count(group, c):
	    for case in group["test_cases"]:
	        c[case["status"]] = c.get(case["status"], 0) + 1
	    for sub in group["sub_groups"]:
	        count(sub, c)
	    return c
	top = json.load(open(sys.argv[1]))
	# A suite that crashed before its first case has no subtests.
	suites = top["sub_groups"] + [
	    {"name": t["name"], "sub_groups": [], "test_cases": [t]}
	    for t in top["test_cases"]]
	for s in suites:
	    c = count(s, {})
	    print("KTAP %s passed=%d failed=%d skipped=%d" % (
	        s["name"], c.get("PASS", 0),
	        c.get("FAIL", 0) + c.get("ERROR", 0), c.get("SKIP", 0)))
	EOF
}

# kunit.py parse exits 0 on a document that stops mid-suite ("missing
# subtest result line", [CRASHED]): it counts those as errors, not
# failures. So its [ERROR]/[CRASHED] lines fail the check here.
bad() { echo "KTAP-ERROR $(basename "$doc"): $*"; status=1; }
status=0
for doc in "${docs[@]}"; do
	log "kunit.py parse $doc"
	base=${doc%.txt}
	python3 "$kunit" parse --json="$base.json" "$doc" |
		tee "$base.parsed" || bad "kunit.py parse reports failure"
	grep -q -E '\[(ERROR|CRASHED)\]' "$base.parsed" &&
		bad "parser reports errors or a crash"
	grep -q -x -F "$doc" "$out/incomplete" 2>/dev/null &&
		bad "document ends before its plan is complete"
	grep -n -E '^[[:space:]]*not ok ' "$doc" && bad "'not ok' lines"
	summary "$base.json" || bad "no JSON from kunit.py parse"
done
exit $status
