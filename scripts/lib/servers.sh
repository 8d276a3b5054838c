# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Servers the host tests start: free ports, Prometheus and its queries.
# Sourced by scripts/lib.sh (its MSTAT_TOP, log and die), never alone.

# mstat_free_port VAR: VAR set to a TCP port free on 127.0.0.1 now, never
# one this shell was given before (two servers started one after the
# other may not be given the same; a variable, not output, so that the
# ports given are remembered here, not in a command substitution's
# subshell). (prom-test.sh, serve-test.sh)
declare -A mstat_ports_taken=()
mstat_free_port() {
	local p
	while :; do
		p=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') ||
			return
		[ -z "${mstat_ports_taken[$p]:-}" ] && break
	done
	mstat_ports_taken[$p]=1
	printf -v "$1" '%s' "$p"
}

mstat_prom_port='' mstat_prom_api=''

# mstat_prometheus_start DIR JOB TARGET LOG: Debian's prometheus, on a
# free port of 127.0.0.1, its data in DIR, scraping TARGET (host:port)
# every second as job JOB, its output in LOG; its pid appended to the
# caller's array pids (for stop_servers). Sets mstat_prom_port and
# mstat_prom_api (its HTTP API's base URL); does not wait for it.
mstat_prometheus_start() {
	mkdir -p "$1/data"
	cat >"$1/prometheus.yml" <<-EOF
	global:
	  scrape_interval: 1s
	  scrape_timeout: 1s
	  evaluation_interval: 1s
	scrape_configs:
	  - job_name: $2
	    static_configs:
	      - targets: ['$3']
	EOF
	mstat_free_port mstat_prom_port || return
	prometheus --config.file="$1/prometheus.yml" \
		--storage.tsdb.path="$1/data" \
		--web.listen-address="127.0.0.1:$mstat_prom_port" >"$4" 2>&1 &
	pids+=($!)
	mstat_prom_api=http://127.0.0.1:$mstat_prom_port/api/v1
}

# mstat_prometheus_ready SECONDS: the started prometheus answers /-/ready
# within SECONDS.
mstat_prometheus_ready() {
	local end=$((SECONDS + $1))
	until curl -fsS --max-time 5 -o /dev/null \
		"http://127.0.0.1:$mstat_prom_port/-/ready" 2>/dev/null; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.2
	done
}

# mstat_promq QUERY [TIME]: an instant query of the started prometheus at
# TIME (milliseconds since the epoch; default now), its one series as "TS
# VALUE" lines (a range vector: its samples; else its value), TS in
# milliseconds as prometheus keeps them. Fails unless one series came
# back.
mstat_promq() {
	local at=
	[ -z "${2:-}" ] || at=${2%???}.${2: -3}
	curl -fsS --max-time 10 -G "$mstat_prom_api/query" \
		--data-urlencode "query=$1" \
		${at:+--data-urlencode "time=$at"} | python3 -c '
import json, sys
d = json.load(sys.stdin)
r = d.get("data", {}).get("result")
if d.get("status") != "success" or not isinstance(r, list) or len(r) != 1:
    sys.exit("want one series, got: " + json.dumps(d)[:400])
for ts, v in r[0].get("values") or [r[0]["value"]]:
    print("%d %s" % (round(ts * 1000), v))'
}

# stop_servers: TERM to the servers a host test started (their pids in
# the caller's array pids), KILL after 10 s; then pids is empty.
# (prom-test.sh, serve-test.sh)
stop_servers() {
	local p n
	for p in ${pids[@]+"${pids[@]}"}; do
		kill "$p" 2>/dev/null
	done
	for p in ${pids[@]+"${pids[@]}"}; do
		for ((n = 0; n < 50; n++)); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.2
		done
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	pids=()
}
