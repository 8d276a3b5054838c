#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest queue's own test (guest, mstat_queue_* and collect_guests in
# scripts/lib.sh), with a stand-in for guest.sh that boots nothing: it
# logs when each "guest" starts and ends, sleeps for the seconds its
# --kernel names and exits with the status its --script names. One line
# per check ("ok NAME", "not ok NAME: WHY").
#
#   scripts/queue-test.sh            the queue as make check uses it
#   scripts/queue-test.sh --broken   a dispatcher that ignores its slots:
#                                    the slot check must catch it
#
# Checks: never more guests at once than the slots (a --tcg=multi one
# weighing two), and that many at once when enough wait; a --tcg=multi
# guest runs alone in two slots; a guest of a lower --prio queued last
# starts first; slots raised while guests run are used; every guest
# collected once, in the order queued, a failed one as "not ok"; a
# dispatcher killed is started again, its guests run, and that reported.
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

broken=
[ "${1:-}" = --broken ] && broken=1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
MSTAT_LOGS=$tmp/logs
mkdir -p "$MSTAT_LOGS"
unset MSTAT_QUEUE
export EVENTS=$tmp/events MSTAT_GUEST_SH=$tmp/guest.sh

cat >"$MSTAT_GUEST_SH" <<'EOF'
#!/bin/bash
while [ $# -ge 2 ]; do
	case $1 in
	--kernel)	secs=$2 ;;
	--script)	rc=$2 ;;
	--log)		log=$2 ;;
	esac
	shift 2
done
name=$(basename "$log" .console)
echo "start $name $(date +%s%N)" >>"$EVENTS"
sleep "$secs"
echo "end $name $(date +%s%N)" >>"$EVENTS"
echo MSTAT-GUEST-START >"$log"
exit "$rc"
EOF
chmod +x "$MSTAT_GUEST_SH"

# The broken dispatcher: starts whatever waits, whatever the slots.
if [ -n "$broken" ]; then
	mstat_queue_dispatch() {
		local q=$1 next
		while :; do
			for next in "$q"/wait/*; do
				[ -f "$next" ] || continue
				[ -f "$q/hold" ] && break
				next=${next##*/}
				echo 1 >"$q/run/$next"
				mv "$q/wait/$next" "$q/started-$next"
				( bash "$q/started-$next"; mv "$q/run/$next" "$q/done/$next" ) &
			done
			[ -f "$q/closed" ] && [ -z "$(find "$q/run" -type f)" ] && break
			sleep 0.2
		done
		wait
	}
fi

# most: the most weight that ran at once, from the events (a guest whose
# name has "multi" weighs 2).
most() {
	sort -k3,3n "$EVENTS" | awk '
		{ w = ($2 ~ /multi/) ? 2 : 1 }
		$1 == "start" { n += w; if (n > m) m = n }
		$1 == "end" { n -= w }
		END { print m + 0 }'
}

# Batch 1, two slots, queued while the dispatcher holds: five guests of
# a second, one multi, one that fails, then one of prio 1.
mstat_queue_start
echo 2 >"$MSTAT_QUEUE/slots"
touch "$MSTAT_QUEUE/hold"
for i in 1 2 3 4 5; do
	guest "g$i" 1 0
done
guest multi1 1 0 --tcg=multi
guest fail1 0.2 1
guest first1 0.5 0 --prio=1
rm "$MSTAT_QUEUE/hold"
# Collected in a subshell: the stand-ins' own lines are not this test's.
( collect_guests ) >"$tmp/collected1" 2>&1
mstat_guests=()

m=$(most)
if [ -n "$broken" ]; then
	if [ "$m" -gt 2 ]; then
		ok "queue-broken-caught (weight $m at once in 2 slots)"
	else
		not_ok "queue-broken-caught: weight $m at once, the broken dispatcher not seen"
	fi
	finish
fi
check "queue-slots-kept (weight $m at once in 2 slots)" [ "$m" -eq 2 ]
# The first slots' guests: those started before any ended. first1 must be
# one (queued last; by the order queued it would start last). Not "the
# first start": two guests dispatched together log their starts in
# either order (g1 logged before first1, 1 ms apart, in 1 of 13 runs).
first=$(sort -k3,3n "$EVENTS" | awk '$1 == "end" { exit } $1 == "start" { print $2 }' |
	tr '\n' ' ')
check "queue-prio-first (started first: $first)" \
	[ "${first/first1/}" != "$first" ]
alone=$(sort -k3,3n "$EVENTS" | awk '
	$1 == "start" && $2 == "multi1" { on = 1; next }
	$1 == "end" && $2 == "multi1" { on = 0 }
	on && $1 == "start" { print $2 }')
check "queue-multi-alone${alone:+ (beside it: $alone)}" [ -z "$alone" ]
order=$(sed -n 's/^\(not \)\{0,1\}ok \([a-z0-9]*\) (.*TCG.*/\2/p' "$tmp/collected1" | tr '\n' ' ')
check "queue-collected-in-order ($order)" \
	[ "$order" = "g1 g2 g3 g4 g5 multi1 fail1 first1 " ]
check queue-failed-not-ok grep -q '^not ok fail1 (.*exit 1' "$tmp/collected1"
check queue-ok-ok grep -q '^ok g1 (.*s TCG, [0-9]* s CPU)' "$tmp/collected1"

# Batch 2, one slot raised to three while the guests run.
: >"$EVENTS"
mstat_queue_start
echo 1 >"$MSTAT_QUEUE/slots"
for i in 1 2 3 4 5 6; do
	guest "h$i" 1.5 0
done
sleep 1
mstat_queue_slots 3
( collect_guests ) >"$tmp/collected2" 2>&1
m=$(most)
check "queue-slots-raised (weight $m at once, 3 slots from 1)" [ "$m" -eq 3 ]
mstat_guests=()

# Batch 3: the dispatcher killed while guests wait. collect_guests must
# start it again, run every guest and report the restart as a failure.
: >"$EVENTS"
mstat_queue_start
echo 1 >"$MSTAT_QUEUE/slots"
touch "$MSTAT_QUEUE/hold"
for i in 1 2 3; do
	guest "k$i" 0.3 0
done
kill "$(cat "$MSTAT_QUEUE/pid")"
rm "$MSTAT_QUEUE/hold"
( collect_guests ) >"$tmp/collected3" 2>&1
n=$(grep -c '^ok k[123] (' "$tmp/collected3")
check "queue-restarted-ran-all ($n of 3)" [ "$n" -eq 3 ]
check queue-restart-reported \
	grep -q '^not ok guest-queue: its dispatcher died and was started again 1 times' \
	"$tmp/collected3"
finish
