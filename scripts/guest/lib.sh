# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# shellcheck disable=SC3043 # busybox ash has "local"
#
# The one library of the scripts that run in a guest (busybox sh):
# scripts/guest.sh copies it to /mstat/lib.sh beside every guest script,
# which sources it first:
#
#	. ./lib.sh
#
# Set-up: PATH=/bin; D and T, mstat's debugfs directory and tracefs.
# Results, as on the host (scripts/lib.sh): one line per check,
#	ok NAME
#	not ok NAME[: WHY]
# diagnostics as "# " lines, and last, from finish,
#	# checks=N failed=N
# which scripts/check.sh's collect() compares with the "ok"/"not ok"
# lines it finds on the console (kernel messages may garble a line).

PATH=/bin
# shellcheck disable=SC2034 # for the scripts that source this
D=/sys/kernel/debug/mstat
# shellcheck disable=SC2034
T=/sys/kernel/tracing
nchecks=0
nfailed=0

diag() { echo "# $*"; }
# show [FILE]: lines of FILE (or stdin; no /dev/stdin here) as diagnostics.
show() { sed 's/^/# /' "$@"; }

ok() { nchecks=$((nchecks + 1)); echo "ok $*"; }
not_ok() {
	nchecks=$((nchecks + 1))
	nfailed=$((nfailed + 1))
	echo "not ok $*"
}

# check NAME CMD...: one check, passing if CMD succeeds.
check() {
	local name="$1"
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

# relay FILE: a helper's output (evpoll, mstat-fuzz): its "ok"/"not ok"
# lines counted as checks here, every other line as a diagnostic.
relay() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok "*)		ok "${line#ok }" ;;
		"not ok "*)	not_ok "${line#not ok }" ;;
		"# "*)		echo "$line" ;;
		*)		echo "# $line" ;;
		esac
	done <"$1"
}

# mstat_check ARGS...: the invariant checker, `mstat check` (the tool
# build/tools/mstat, copied in; see mstat_tools in scripts/lib.sh).
mstat_check() { ./mstat check "$@"; }

# check_probes_agree: one check, that debugfs' internals say of the bulk
# probes what /proc/mstat's probe_* lines say (one table, mstat_bulk.c,
# behind both): each of bulk_alloc_counted, bulk_free_counted and
# bulk_pages_counted is its API's probe_* line.
check_probes_agree() {
	local f api want got bad=0
	for f in alloc:kmem_cache_alloc_bulk free:kmem_cache_free_bulk \
		 pages:alloc_pages_bulk; do
		api=${f#*:}
		want=$(sed -n "s/^probe_$api //p" /proc/mstat)
		got=$(sed -n "s/^bulk_${f%%:*}_counted //p" "$D/internals")
		diag "probe_$api $want, internals bulk_${f%%:*}_counted $got"
		[ -n "$want" ] && [ "$want" = "$got" ] || bad=1
	done
	check probes-internals-agree [ "$bad" -eq 0 ]
}

# finish: the summary line, then exit 1 if a check failed, else 0.
finish() {
	echo "# checks=$nchecks failed=$nfailed"
	[ "$nfailed" -eq 0 ] || exit 1
	exit 0
}
