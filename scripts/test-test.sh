#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/test.sh's own test (make check's test-by-name): the names a run
# prints resolve to the file that makes them, on the kernel they name,
# without booting anything (--resolve):
#  - test-resolve-NAME: a line of make check's output, a part's check, a
#    check's bare name, a whole guest, a test of the mstat tool, each to
#    what it must run;
#  - test-resolve-host-*: a host test of check.sh ("t NAME"), a line a
#    host script prints (literal, made at run time, or a sub-suite's
#    "PREFIX/NAME"), to the line check.sh runs it with;
#  - test-resolve-unknown, -ambiguous, -parts-guest: a name no file
#    makes, a check of several files named bare, a guest of several
#    parts named whole, refused (exit 1, and why);
#  - test-lines-tap: the results' lines are TAP that perl's TAP::Parser
#    reads, skips as "# SKIP";
#  - test-timeout-named: a guest stopped by its --timeout is reported as
#    a timeout, in which part and after which line;
#  - test-resolve-every-check: each check a guest file names literally
#    ("check NAME", "ok NAME", "skip NAME") resolves, bare, to that file
#    (the whole file, where the check has its name) or is refused as a
#    check of several files, it among them; never to another file.
set -uo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
cd "$MSTAT_TOP" || exit 1

# expect NAME INPUT WANT: test.sh --resolve INPUT prints WANT (a line of
# check.sh's, its variables unexpanded).
expect() {
	local got
	got=$(scripts/test.sh --resolve "$2" 2>&1)
	if [ "$got" = "$3" ]; then
		ok "test-resolve-$1"
	else
		not_ok "test-resolve-$1: '$2' gave '$got', not '$3'"
	fi
}

expect line 'not ok guest-5.10-counts: kinds/kinds-shmem-huge' \
	'counts guest-5.10-counts part kinds kinds-shmem-huge'
expect line-times 'ok guest-7.3-parts: chains/chains-A-live (3 s)' \
	'run guest-7.3-parts (parts) part chains chains-A-live: parts="memory chains"'
expect counts-whole 'not ok guest-6.12rt-counts (exit 1)' 'counts guest-6.12rt-counts'
expect arm64-part 'not ok arm64-stock-counts: truth/truth-kfree (4 s)' \
	'arm64 arm64-stock-counts part truth truth-kfree'
expect arm64-matrix 'ok arm64-7.3-counts-console-clean' 'arm64 arm64-7.3-counts'
expect debug-broken 'not ok guest-debug-faults-broken: load/x' \
	'debug guest-debug-faults-broken load/x'
expect debug-part 'ok guest-debug-counts: truth/truth-kfree (2 s)' \
	'debug guest-debug-counts part truth truth-kfree'
expect parts-broken 'not ok guest-6.12-counts-broken: caches/objsize-catches-x' \
	"run guest-6.12-counts-broken (parts) part caches objsize-catches-x: $(mstat_run_lines | sed -n 's/.* guest-6.12-counts-broken //p')"
expect part-check kinds/kinds-shmem-huge 'guest kinds kinds-shmem-huge'
expect bare kinds-shmem-huge 'guest kinds kinds-shmem-huge'
expect made-at-run-time truth-kmalloc_large_var \
	'guest truth truth-kmalloc_large_var'
expect guest guest-6.12rt-torture 'run guest-6.12rt-torture (torture)'
expect run-broken 'not ok guest-6.12-learn-broken: learn-differs (3 s)' \
	'run guest-6.12-learn-broken (learn) learn-differs: build=6.12-broken --append=LEARN_BROKEN=1'
expect file kinds 'guest kinds'
expect tool 'tools/mstat: leaks_serve (3 s, 1 s CPU)' 'tool leaks_serve'
expect tool-bare json_names 'tool json_names'
expect tool-bare-sourced leaks_serve 'tool leaks_serve'

# refused NAME INPUT WHY: test.sh --resolve INPUT exits 1 and says WHY.
refused() {
	local out rc=0
	out=$(scripts/test.sh --resolve "$2" 2>&1) || rc=$?
	if [ "$rc" -eq 1 ] && [[ $out == *"$3"* ]]; then
		ok "test-resolve-$1"
	else
		not_ok "test-resolve-$1: '$2' gave exit $rc, '$out'"
	fi
}
refused unknown no-such-check 'no guest, host or tool test named'
refused ambiguous insmod-mstat 'name it as PART/insmod-mstat'
# shellcheck disable=SC2016 # check.sh's line, unexpanded
expect host-t build-6.12-W1 \
	'host-t build-6.12-W1: t build-6.12-W1 scripts/build.sh "$K612_KDIR" build/6.12'
expect host-script layers-selftest 'host layers-selftest: scripts/layers.sh --selftest'
expect host-made-at-run-time console-check-oops \
	'host console-check-oops: scripts/console-check-test.sh'
# shellcheck disable=SC2016 # check.sh's line, unexpanded
expect host-part litmus/broken-rcu-nogp \
	'host litmus/broken-rcu-nogp: LITMUS_PAIRS=4 scripts/litmus.sh "$KSRC"'
refused parts-guest guest-6.12-nosuchguest 'no scripts/guest/nosuchguest.sh'
expect parts-guest-part 'guest-5.10-counts: truth' 'counts guest-5.10-counts part truth'
expect soak-guest-check 'soak-debug-faults-every-point: faultio-read /proc/mstat' \
	'guest faults debug faultio-read /proc/mstat'
expect guest-console 'guest-6.12-module-console-clean' \
	'run guest-6.12-module (module): --boot=bzimage'
# shellcheck disable=SC2016 # soak.sh's line, unexpanded
expect host-t-made soak-build-debug \
	'host-t soak-build-debug: t soak-build-debug scripts/build.sh "$kb" build/soak-debug'

# The lines' form is TAP's: what the emitters and relay print (a guest's
# skip relayed with its prefix among them), read by perl's TAP::Parser
# (prove's), gives back the passes, failures and skips made.
tap_sample() {
	printf 'TAP version 13\n'
	( mstat_passed=0 mstat_failed=0 mstat_skipped=0
	  ok one
	  not_ok "two: why"
	  skip three "no such thing"
	  printf 'ok p/four\nok p/five # SKIP MADV_COLLAPSE: EINVAL\n' >"$tmp"
	  relay "$tmp" guest-x
	  echo "# $mstat_passed $mstat_failed $mstat_skipped" )
	echo 1..5
}
tmp=$(mktemp)
if perl -MTAP::Parser -e 1 2>/dev/null; then
	got=$(tap_sample | perl -MTAP::Parser -e '
		my $p = TAP::Parser->new({ tap => join("", <STDIN>) });
		1 while $p->next;
		printf "%d %d %d %d\n", scalar($p->passed) - scalar($p->skipped),
			scalar($p->failed), scalar($p->skipped),
			scalar($p->parse_errors);')
	counted=$(tap_sample | sed -n 's/^# \([0-9]* [0-9]* [0-9]*\)$/\1/p')
	if [ "$got" = "2 1 2 0" ] && [ "$counted" = "2 1 2" ]; then
		ok test-lines-tap
	else
		not_ok "test-lines-tap: TAP::Parser read passed, failed, skipped, errors: $got; the emitters counted $counted; wanted 2 1 2"
	fi
else
	skip test-lines-tap "no perl TAP::Parser (Debian: perl-modules)"
fi
rm -f "$tmp"

# A guest stopped by its --timeout (guest.sh's exit 124) is reported as a
# timeout, with its part and last result line, not as the product's exit
# status (collect, scripts/lib.sh).
timeout_line() {
	local MSTAT_LOGS=$tmp.logs
	mkdir -p "$MSTAT_LOGS"
	echo "124 600 30" >"$MSTAT_LOGS/guest-x.rc"
	printf 'MSTAT-GUEST-START\r\n# part kinds\r\nok kinds/read-shmem\r\n' \
		>"$MSTAT_LOGS/guest-x.console"
	: >"$MSTAT_LOGS/guest-x.log"
	collect guest-x | grep '^not ok guest-x ('
	rm -rf "$MSTAT_LOGS"
}
tmp=$(mktemp)
got=$(timeout_line)
if [[ $got == *"timeout: stopped at its --timeout in part kinds, after ok kinds/read-shmem"* ]]; then
	ok test-timeout-named
else
	not_ok "test-timeout-named: $got"
fi
rm -f "$tmp"

# The guest files' "# Run:" lines (mstat_runs, scripts/lib/runs.sh):
# each name one run's, resolving to it (test-runs-named); make check's
# of 6.12 queued once each, with the modules each file loads from the
# build its line names (test-runs-queued); without the kernel's image,
# each a not ok (test-runs-no-image); a run whose build lacks a module
# refused, naming it (test-runs-missing).
bad=0 n=0
while read -r f _ name args; do
	n=$((n + 1))
	got=$(scripts/test.sh --resolve "$name" 2>&1)
	p=${f##*/}
	[ "$got" = "run $name (${p%.sh})${args:+: $args}" ] ||
		{ echo "# $name gave: $got"; bad=$((bad + 1)); }
done < <(mstat_run_lines)
dups=$(mstat_run_lines | awk '{ print $3 }' | sort | uniq -d)
if [ "$bad" -eq 0 ] && [ "$n" -gt 10 ] && [ -z "$dups" ]; then
	ok "test-runs-named ($n)"
else
	not_ok "test-runs-named: $bad of $n resolved elsewhere; named twice: ${dups:-none}"
fi
# runs_queued: mstat_runs check 6.12 with guest() and not_ok() printing,
# in a tree of empty modules and programs ($tmp: build/6.12...,
# build/tools).
runs_queued() {
	guest() { echo "guest $*"; }
	not_ok() { echo "not_ok $*"; }
	cd "$tmp" || return
	# shellcheck disable=SC2034 # mstat_km's
	KM_6_12_VMLINUZ=${1-$tmp/vmlinuz}
	mstat_runs check 6.12
}
tmp=$(mktemp -d)
: >"$tmp/vmlinuz"
for f in scripts/guest/*.sh; do
	for b in 6.12 6.12-broken; do
		mstat_guest_args "$MSTAT_TOP/$f" "build/$b"
		for a in "${mstat_args[@]}"; do
			case $a in
			*.ko)		a=$tmp/$a ;;
			--file=*)	a=${a#--file=} a=$tmp/${a%%:*} ;;
			*)		continue ;;
			esac
			mkdir -p "${a%/*}" && : >"$a"
		done
	done
done
want=$(mstat_run_lines check | awk '$3 ~ /^guest-6\.12-/ { print $3 }' | sort)
got=$(runs_queued)
broken=$(grep -c "^guest guest-6.12-learn-broken $tmp/vmlinuz scripts/guest/learn.sh build/6.12-broken/mstat.ko build/6.12-broken/tests/irqload/mstat_irqload.ko " <<<"$got")
if [ "$(grep '^guest ' <<<"$got" | awk '{ print $2 }' | sort)" = "$want" ] &&
   ! grep -q '^not_ok' <<<"$got" && [ "$broken" -eq 1 ]; then
	ok "test-runs-queued ($(grep -c . <<<"$want"))"
else
	not_ok "test-runs-queued: wanted $(tr '\n' ' ' <<<"$want"), got: $(grep -o '^[a-z_]* [^ ]*' <<<"$got" | tr '\n' ' ')"
fi
# A kernel without an image (its KM_ variables not set where the runs
# are queued): every run says so, none is left out in silence.
got=$(runs_queued '')
if [ "$(grep -c "^not_ok guest-6.12-[a-z-]*: no image of kernel 6.12 " <<<"$got")" -eq "$(grep -c . <<<"$want")" ] &&
   ! grep -q '^guest ' <<<"$got"; then
	ok test-runs-no-image
else
	not_ok "test-runs-no-image: $(grep -o '^[a-z_]* [^ ]*' <<<"$got" | tr '\n' ' ')"
fi
rm -f "$tmp/build/6.12/tests/irqload/mstat_irqload.ko"
got=$(runs_queued)
if grep -q "^not_ok guest-6.12-learn: no build/6.12/tests/irqload/mstat_irqload.ko" <<<"$got" &&
   ! grep -q '^guest guest-6.12-learn ' <<<"$got"; then
	ok test-runs-missing
else
	not_ok "test-runs-missing: $(grep -o '^[a-z_]* [^ ]*' <<<"$got" | tr '\n' ' ')"
fi
rm -rf "$tmp"

# Every literal check of every guest file, bare.
bad=0 n=0
for f in scripts/guest/*.sh; do
	p=${f##*/} p=${p%.sh}
	case $p in lib|parts) continue ;; esac
	while read -r c; do
		n=$((n + 1))
		got=$(scripts/test.sh --resolve "$c" 2>&1)
		case $got in
		"guest $p $c")	;;
		"guest $c")	[ "$c" = "$p" ] || { echo "# $p: $c gave: $got"; bad=$((bad + 1)); } ;;
		*"is a check of"*" $p "*) ;;
		*)	echo "# $p: $c gave: $got"
			bad=$((bad + 1)) ;;
		esac
	done < <(sed -nE 's/^[[:space:]]*(check|ok|skip) "?([a-z][a-z0-9_.-]*[a-z0-9])"?( .*|$)/\2/p' "$f" |
		grep -v '\$' | sort -u)
done
if [ "$bad" -eq 0 ] && [ "$n" -gt 300 ]; then
	ok "test-resolve-every-check ($n)"
else
	not_ok "test-resolve-every-check: $bad of $n resolved elsewhere"
fi
finish
