#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fail if a guest console log (scripts/guest.sh) holds a kernel splat:
# WARN, BUG, Oops, panic, KASAN/UBSAN/KCSAN/KFENCE and slub_debug
# reports, lockdep reports, atomic-context bugs, kmemleak leaks, hung
# tasks, RCU stalls.
#
#   scripts/console-check.sh LOGFILE
#
# Prints the offending lines (with line numbers) and exits 1; exits 0 on a
# clean log. Test failures are not splats: scripts/ktap.sh judges those.
# The whole log is scanned, the guest script's own output included.
#
# One exception: a KCSAN report whose title ("data-race in A / B", the
# two racing functions) does not name mstat is a race inside the kernel's
# own code (e.g. hrtimer's, which KCSAN_STRICT reports on 6.12 with or
# without mstat; mstat may still be on the interrupted stack): it is
# listed on stderr, not counted.
#
# Another: a soft lockup reported while no module at all is loaded (its
# "Modules linked in:" line empty), as during boot, before the guest
# script runs: under TCG on a busy host the emulated CPU can stall in
# the kernel's own work for tens of seconds (jitterentropy's start-up
# on 6.12 took 48 s in a cold make check), and mstat is not
# there to be blamed. Listed on stderr, not counted; one with a module
# loaded still fails.
#
# And what a guest script provokes on purpose, when it says so on the
# console first with a line "# console-check allows: WHAT..." (the fault
# tests, scripts/guest/faults.sh):
#  - oom: the OOM killer's report, from "invoked oom-killer:" to the end
#    of its stack dump ("</TASK>");
#  - alloc-failure: the allocator's report of a failed allocation it was
#    not told to keep quiet about, "page allocation failure: order:",
#    "vmalloc error: size" or "kmem_cache_create(NAME) failed with
#    error" (6.12: "__kmem_cache_create_args(NAME)"), to the end of its
#    stack dump;
#  - kmemleak: kmemleak's reports (a broken build's test must leak);
#  - kasan-probe: KASAN's reports (from "BUG: KASAN:" to its closing
#    "=====" line) of mstat_truth's kasan_probe, those that name its
#    truth_kasan_* functions (scripts/guest/kunit-busted.sh).
# Each report dropped is counted on stderr. Anything else in those
# blocks (a BUG, a KASAN report) still fails.
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 LOGFILE"
[ -f "$1" ] || die "no such file: $1"

splats=(
	'BUG:'			# KASAN, KCSAN, KFENCE, atomic sleep, NULL deref
	'BUG [^ ]+ \((Not t|T)ainted'	# slub_debug: "BUG kmalloc-64 (Not tainted): ..."
	'WARNING:'		# WARN*(), lockdep reports
	'KASAN' 'UBSAN' 'KCSAN'
	'Oops' 'Call Trace:' 'general protection fault' '[Kk]ernel panic'
	'possible circular locking' 'inconsistent lock state'
	'lockdep' 'DEBUG_LOCKS_WARN_ON'
	'sleeping function called from invalid context'
	'scheduling while atomic'
	'unreferenced object' 'suspected memory leak'	# kmemleak
	'blocked for more than [0-9]+ seconds'		# hung task
	'rcu: INFO: .* detected stalls'
)
# Lines that match the above but are not reports.
benign=(
	'Command line:'		# the command line may name options
	'kasan: KernelAddressSanitizer initialized'
	'kmemleak: Kernel memory leak detector initialized'
	'Lock dependency validator: Copyright'
	'RCU lockdep checking is enabled'
)

join() { local IFS='|'; echo "$*"; }

allows=$(tr -d '\r' <"$1" | sed -n 's/.*# console-check allows: //p' | tr '\n' ' ')

# Drop the reports the guest said it provokes (see above).
filter_allowed() {
	awk -v allows=" $allows " '
	function allowed(w) { return index(allows, " " w " ") > 0 }
	skip {
		if ($0 ~ /(BUG:|KASAN|Oops|general protection|WARNING:)/) { skip = 0 }
		else { if ($0 ~ /<\/TASK>/ || ++n > 200) skip = 0; next }
	}
	allowed("oom") && /invoked oom-killer:/ { skip = 1; n = 0; oom++; next }
	allowed("alloc-failure") && /(page allocation failure: order:|vmalloc error: size|kmem_cache_create[a-z_]*\(.*\) failed with error)/ {
		skip = 1; n = 0; af++; next
	}
	allowed("kmemleak") && /(unreferenced object|suspected memory leak)/ { kl++; next }
	{ print }
	END {
		if (oom + af + kl)
			printf "console-check: allowed by the guest: %d OOM reports, %d allocation-failure reports, %d kmemleak lines\n", oom, af, kl > "/dev/stderr"
	}'
}

# filter_reports WHY OPEN END_RE MAX HOW PATTERN: drop each report that
# opens with a line matching OPEN and runs to one matching END_RE (or for
# MAX lines more), if HOW holds: "title!~", its first line does not
# match PATTERN; "any~", one of its lines does. Each dropped report's
# first line goes to stderr with WHY.
filter_reports() {
	awk -v why="$1" -v open="$2" -v end_re="$3" -v max="$4" -v how="$5" \
	    -v pat="$6" '
	function flush() {
		if (buf == "") return
		if ((how == "title!~") ? first !~ pat : hit)
			print "console-check: not counted, " why ": " first > "/dev/stderr"
		else
			printf "%s", buf
		buf = ""
	}
	$0 ~ open { flush(); first = $0; buf = $0 "\n"; hit = (how == "any~" && $0 ~ pat); n = 0; next }
	buf != "" {
		buf = buf $0 "\n"
		if (how == "any~" && $0 ~ pat) hit = 1
		if ($0 ~ end_re || ++n > max) flush()
		next
	}
	{ print }
	END { flush() }'
}

# The report filters (see the top): a KCSAN report whose title does not
# name mstat; a soft lockup with no module loaded (its "Modules linked
# in:" empty, to the end of its stack); kasan_probe's KASAN reports
# where the guest allows them (KASAN's and KCSAN's reports end with a
# line of "=").
filter_kcsan() {
	filter_reports "a KCSAN report of the kernel's own code" \
		'BUG: KCSAN:' '^=+$|\] =+$' 60 'title!~' mstat
}
filter_early_lockup() {
	filter_reports "a soft lockup with no module loaded" \
		'watchdog: BUG: soft lockup' '</TASK>' 80 'any~' \
		'Modules linked in:[[:space:]]*$'
}
filter_kasan_probe() {
	if [[ " $allows " == *" kasan-probe "* ]]; then
		filter_reports "mstat_truth's kasan_probe, allowed by the guest" \
			'BUG: KASAN:' '^=+$|\] =+$' 120 'any~' \
			'truth_kasan_(read|vsprintf)'
	else
		cat
	fi
}

bad=$(tr -d '\r' <"$1" | filter_allowed | filter_kasan_probe | filter_kcsan | filter_early_lockup | grep -n -E "$(join "${splats[@]}")" |
      grep -v -E "$(join "${benign[@]}")" || true)
if [ -n "$bad" ]; then
	log "kernel splat in $1:"
	printf '%s\n' "$bad"
	exit 1
fi
log "console clean: $1"
