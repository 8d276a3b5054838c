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
# on 6.12 took 48 s in a cold make check, 2026-11-28), and mstat is not
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

# Drop KCSAN reports (from "BUG: KCSAN" to the closing "=====" line)
# that do not mention mstat; say which on stderr.
filter_kcsan() {
	awk '
	function flush() {
		if (buf == "") return
		if (first ~ /mstat/) printf "%s", buf
		else print "console-check: kernel-internal KCSAN report, not mstat: " first > "/dev/stderr"
		buf = ""
	}
	/BUG: KCSAN:/ { flush(); first = $0; buf = $0 "\n"; n = 0; next }
	buf != "" {
		buf = buf $0 "\n"
		if (/^=+$/ || /\] =+$/ || ++n > 60) flush()
		next
	}
	{ print }
	END { flush() }'
}

# Drop the KASAN reports of mstat_truth's kasan_probe, if the guest
# allows them; say how many on stderr.
filter_kasan_probe() {
	awk -v allows=" $allows " '
	function flush() {
		if (buf == "") return
		if (buf ~ /truth_kasan_(read|vsprintf)/) probes++
		else printf "%s", buf
		buf = ""
	}
	index(allows, " kasan-probe ") && /BUG: KASAN:/ { flush(); buf = $0 "\n"; n = 0; next }
	buf != "" {
		buf = buf $0 "\n"
		if (/^=+$/ || /\] =+$/ || ++n > 120) flush()
		next
	}
	{ print }
	END {
		flush()
		if (probes)
			printf "console-check: allowed by the guest: %d KASAN reports of kasan_probe\n", probes > "/dev/stderr"
	}'
}

# Drop soft lockup reports (to the end of their stack, "</TASK>") whose
# "Modules linked in:" is empty; say which on stderr.
filter_early_lockup() {
	awk '
	function flush() {
		if (buf == "") return
		if (mods) printf "%s", buf
		else print "console-check: soft lockup with no module loaded, not mstat: " first > "/dev/stderr"
		buf = ""
	}
	/watchdog: BUG: soft lockup/ { flush(); first = $0; buf = $0 "\n"; mods = 1; n = 0; next }
	buf != "" {
		buf = buf $0 "\n"
		if (/Modules linked in:/)
			mods = $0 !~ /Modules linked in:[[:space:]]*$/
		if (/<\/TASK>/ || ++n > 80) flush()
		next
	}
	{ print }
	END { flush() }'
}

bad=$(tr -d '\r' <"$1" | filter_allowed | filter_kasan_probe | filter_kcsan | filter_early_lockup | grep -n -E "$(join "${splats[@]}")" |
      grep -v -E "$(join "${benign[@]}")" || true)
if [ -n "$bad" ]; then
	log "kernel splat in $1:"
	printf '%s\n' "$bad"
	exit 1
fi
log "console clean: $1"
