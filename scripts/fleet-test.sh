#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fleet test (make fleet): three machines, one Prometheus, one
# Alertmanager, the package's rules, and the alert that must page for
# the leaking machine alone.
#
# Three stock 6.12 guests (software emulation; scripts/guest/fleet.sh),
# each with mstat.ko, tests/leaks/'s mstat_leaktest.ko, `mstat serve`,
# and Debian's node exporter serving what `mstat leaks --prom` writes
# after each watch of FLEET_WATCH (default 120) seconds, both forwarded to
# 127.0.0.1 here: "leak" runs the test module's leaks (a
# lost pointer's kmalloc(256), a list in cache mstat_leak_list, a softirq
# kmalloc(128), a merged cache), "decoy-a" and "decoy-b" its decoys (a
# plateau, a sawtooth, objects that live 40 s, a wave). On this host:
# Debian's prometheus scrapes the six every FLEET_SCRAPE (default 2 s)
# and evaluates tools/mstat/prometheus/mstat.rules.yml, as the package
# installs it but for its times (each `for:` made FLEET_FOR, default
# 30s, and a stack verdict's 30 minutes of life a watch and 60 s, so that the test
# takes minutes, not hours: the script prints the difference); Debian's
# prometheus-alertmanager (installed here if missing) delivers to a
# webhook receiver (a small python3 server writing each notification
# to a file). The checks:
#
#  - fleet-leak-fires: MstatKernelCacheLeak reaches the webhook, firing,
#    for the leaking machine, with the cache mstat_leak_list among its
#    alerts' caches and its summary and next step (the command to run on
#    that machine) filled in; and MstatKernelStackLeak, for the same
#    machine, with the function mstat_leak_list_alloc of the module
#    mstat_leaktest among its stacks;
#  - fleet-leak-pod: the cgroup leak runs in a pod's container (a
#    kubepods cgroup path, scripts/guest/fleet.sh): its stack's alert
#    names that pod (pod_uid), and Prometheus has the leaking machine's
#    series of that pod's kernel memory (mstat_cgroup_kernel_bytes,
#    slab);
#  - fleet-decoys-quiet: in FLEET_QUIET (default 360) seconds from the
#    first read, no alert fires for either decoy machine (the webhook's
#    notifications, and Prometheus's ALERTS series);
#  - fleet-decoy-leak-caught, the test's own test: decoy-a then starts
#    the leaks too, and an alert for it must reach the webhook, so that
#    the quiet check above could fail;
#  - fleet-resolves: mstat unloaded on the leaking machine (its /metrics
#    then answers 503, its series end; its last verdict file stays, and
#    ages out), its alerts, of both kinds, reach the webhook resolved.
#
# What it took (wall time, and the CPU time of the guests and of the
# servers) is printed at the end.
#
#   scripts/fleet-test.sh
#
# One "ok NAME" or "not ok NAME: WHY" line per check (scripts/lib.sh);
# exits 1 if one failed. Builds what it needs if missing (never if
# stale): build/6.12 (scripts/build.sh), build/tools/{mstat,mstat-serve,leaks}.
# Logs: build/logs/fleet/.
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP" || exit 1
out=$MSTAT_TOP/build/logs/fleet
rm -rf "$out"
mkdir -p "$out"
MSTAT_LOGS=$out
# The three machines at once.
GUEST_SLOTS=3
tmp=$(mktemp -d)
pids=()
start=$SECONDS
# busy CPU seconds of this machine (user, nice, system), from /proc/stat.
busy() { awk '/^cpu / { printf "%d", ($2 + $3 + $4) / 100 }' /proc/stat; }
busy0=$(busy)
scrape=${FLEET_SCRAPE:-2s}
hold=${FLEET_FOR:-30s}
watch=${FLEET_WATCH:-120}
quiet=${FLEET_QUIET:-360}
machines=(leak decoy-a decoy-b)
declare -A p_serve p_node p_ctl groups=([leak]=leaks [decoy-a]=decoys [decoy-b]=decoys)

# tell MACHINE WORDS: one command to the machine's control port.
tell() {
	[ -n "${p_ctl[$1]:-}" ] || return 0
	echo "$2" 2>/dev/null >/dev/tcp/127.0.0.1/"${p_ctl[$1]}"
}
release() {
	local m
	for m in "${machines[@]}"; do
		tell "$m" "done"
		p_ctl[$m]=
	done
}
trap 'release; stop_servers; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

## Set-up

if [ -z "${K612_VMLINUZ:-}" ] && ! mstat_setup_env; then
	not_ok "fleet-setup, log: $mstat_setup_log"
	finish
fi
if ! command -v prometheus-alertmanager >/dev/null; then
	t fleet-install-alertmanager env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y --no-install-recommends prometheus-alertmanager
fi
for c in prometheus prometheus-alertmanager prometheus-node-exporter curl python3; do
	command -v $c >/dev/null || {
		not_ok "fleet-setup: no $c"
		finish
	}
done
b=build/6.12
if [ ! -f $b/mstat.ko ] || [ ! -f $b/tests/leaks/mstat_leaktest.ko ]; then
	t fleet-build-6.12 scripts/build.sh "$K612_KDIR" $b
fi
if [ ! -x build/tools/mstat ] || [ ! -x build/tools/mstat-serve ] ||
   [ ! -x build/tools/leaks ]; then
	t fleet-build-tools mstat_build_tools mstat leaks
fi
if ! mapfile -t netmods < <(mstat_guest_netmods "$K612_REL") ||
   [ "${#netmods[@]}" -ne 3 ]; then
	not_ok "fleet-setup: no virtio_net.ko for $K612_REL"
	finish
fi
# mstat-serve's libraries and its loader, and the tools (leaks: the
# cgroup leak's driver), in the guest.
mapfile -t files < <(mstat_serve_files mstat mstat-serve leaks)
# The node exporter, and its libraries (libc: the same as mstat-serve's).
files+=("--file=$(command -v prometheus-node-exporter):/mstat/prometheus-node-exporter")

## The machines

for m in "${machines[@]}"; do
	mstat_free_port "p_serve[$m]"
	mstat_free_port "p_node[$m]"
	mstat_free_port "p_ctl[$m]"
	guest "guest-fleet-$m" "$K612_VMLINUZ" scripts/guest/fleet.sh \
		$b/mstat.ko $b/tests/leaks/mstat_leaktest.ko "${netmods[@]}" \
		"${files[@]}" --timeout=2400 \
		"--hostfwd=${p_serve[$m]}:9754" "--hostfwd=${p_node[$m]}:9100" \
		"--hostfwd=${p_ctl[$m]}:9799" \
		"--append=FLEET_GROUPS=${groups[$m]} FLEET_WATCH=$watch"
done
t0=$SECONDS
for m in "${machines[@]}"; do
	console=$out/guest-fleet-$m.console
	until grep -q '^FLEET-READY' "$console" 2>/dev/null; do
		if [ -f "$out/guest-fleet-$m.rc" ] || [ $((SECONDS - t0)) -gt 600 ]; then
			not_ok "fleet-ready-$m: no FLEET-READY in $((SECONDS - t0)) s, console: ${console#"$MSTAT_TOP"/}"
			tail -n 20 "$console" | show
			release
			collect_guests
			finish
		fi
		sleep 1
	done
done
ok "fleet-ready ($((SECONDS - t0)) s, TCG, three guests)"

## The servers: the webhook, Alertmanager, Prometheus

p_hook="" p_am=""
mstat_free_port p_hook
mstat_free_port p_am
mstat_free_port mstat_prom_port
hooks=$out/webhook.jsonl
: >"$hooks"
/usr/bin/python3 -c '
import http.server, sys
out = sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with open(out, "ab") as f:
            f.write(body.replace(b"\n", b" ") + b"\n")
        self.send_response(200)
        self.end_headers()
    def log_message(self, *a):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
' "$p_hook" "$hooks" >"$out/webhook.log" 2>&1 &
pids+=($!)

mkdir -p "$tmp/am" "$tmp/prom/data"
cat >"$tmp/am/alertmanager.yml" <<EOF
route:
  receiver: hook
  group_by: [alertname, instance, cache]
  group_wait: 1s
  group_interval: 2s
  repeat_interval: 1h
receivers:
  - name: hook
    webhook_configs:
      - url: http://127.0.0.1:$p_hook/
        send_resolved: true
EOF
prometheus-alertmanager --config.file="$tmp/am/alertmanager.yml" \
	--storage.path="$tmp/am" --web.listen-address="127.0.0.1:$p_am" \
	--cluster.listen-address= >"$out/alertmanager.log" 2>&1 &
pids+=($!)

# The shipped rules, their times shortened (and nothing else).
sed -e "s/^\(        for: \)[0-9]*m$/\1$hold/" \
	-e "s/(time() - mstat_leaks_time_seconds < 1800)/(time() - mstat_leaks_time_seconds < $((watch + 60)))/" \
	tools/mstat/prometheus/mstat.rules.yml >"$tmp/prom/mstat.rules.yml"
diff tools/mstat/prometheus/mstat.rules.yml "$tmp/prom/mstat.rules.yml" |
	sed 's/^/# rules as tested: /'
{
	cat <<EOF
global:
  scrape_interval: $scrape
  scrape_timeout: $scrape
  evaluation_interval: 1s
rule_files: [$tmp/prom/mstat.rules.yml]
alerting:
  alertmanagers:
    - static_configs:
        - targets: ['127.0.0.1:$p_am']
scrape_configs:
  - job_name: mstat
    static_configs:
EOF
	for m in "${machines[@]}"; do
		echo "      - targets: ['127.0.0.1:${p_serve[$m]}']"
		echo "        labels: {machine: $m}"
	done
	echo "  - job_name: node"
	echo "    static_configs:"
	for m in "${machines[@]}"; do
		echo "      - targets: ['127.0.0.1:${p_node[$m]}']"
		echo "        labels: {machine: $m}"
	done
} >"$tmp/prom/prometheus.yml"
promtool check config "$tmp/prom/prometheus.yml" >"$out/promtool.log" 2>&1 ||
	not_ok "fleet-prometheus-config: $(tail -n 3 "$out/promtool.log" | tr '\n' ' ')"
prometheus --config.file="$tmp/prom/prometheus.yml" \
	--storage.tsdb.path="$tmp/prom/data" \
	--web.listen-address="127.0.0.1:$mstat_prom_port" \
	>"$out/prometheus.log" 2>&1 &
pids+=($!)
mstat_prom_api=http://127.0.0.1:$mstat_prom_port/api/v1
if mstat_prometheus_ready 60; then
	ok "fleet-servers-started (prometheus, alertmanager, webhook)"
else
	not_ok "fleet-servers-started: prometheus not ready, log: ${out#"$MSTAT_TOP"/}/prometheus.log"
	release
	collect_guests
	finish
fi
scrape_t0=$SECONDS

## The judge

# alerts STATUS: the webhook's alerts of that status ("firing",
# "resolved"), one line each: "ALERTNAME MACHINE INSTANCE CACHE".
alerts() {
	/usr/bin/python3 -c '
import json, sys
for line in open(sys.argv[1]):
    try:
        n = json.loads(line)
    except ValueError:
        continue
    for a in n.get("alerts", []):
        if a.get("status") != sys.argv[2]:
            continue
        l = a.get("labels", {})
        ann = a.get("annotations", {})
        print(l.get("alertname", "-"), l.get("machine", "-"),
              l.get("instance", "-"), l.get("cache", "-") if
              l.get("alertname") != "MstatKernelStackLeak" else
              l.get("site", "-") + "[" + l.get("module", "") + "]",
              "summary" if ann.get("summary") else "-",
              "next" if "mstat leaks" in ann.get("next", "") else "-",
              "pod=" + (l.get("pod_uid") or "-"))
' "$hooks" "$1" | sort -u
}

# wait_for SECONDS CMD...: CMD succeeds within SECONDS.
wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 2
	done
}

leak_fired() {
	alerts firing | grep -q '^MstatKernelCacheLeak leak .* mstat_leak_list summary next pod=' &&
		alerts firing | grep -q '^MstatKernelStackLeak leak .* mstat_leak_list_alloc\[mstat_leaktest\] summary next pod='
}
# The pod whose container runs the cgroup leak (scripts/guest/fleet.sh).
pod_uid=7c1e4d2a-9b3f-4e6a-8d5c-1f2e3a4b5c6d
# pod_fired: the cgroup leak's stack alert names the leaking pod, and the
# leaking machine's /metrics give that pod's kernel memory as series.
pod_fired() {
	alerts firing | grep -q "^MstatKernelStackLeak leak .* mstat_leak_cgroup_alloc\[mstat_leaktest\] summary next pod=$pod_uid\$" &&
	curl -fsS --max-time 10 -G "$mstat_prom_api/query" \
		--data-urlencode "query=mstat_cgroup_kernel_bytes{machine=\"leak\",pod_uid=\"$pod_uid\",kind=\"slab\"} > 0" |
		grep -q '"result":\[{'
}
# decoys_fired: an alert of a decoy machine, at the webhook or in ALERTS.
decoys_fired() {
	alerts firing | grep -q '^[A-Za-z]* decoy-' && return 0
	curl -fsS --max-time 10 -G "$mstat_prom_api/query" \
		--data-urlencode 'query=count(ALERTS{alertstate="firing",machine=~"decoy-.*"})' |
		grep -q '"result":\[{'
}

if wait_for 900 leak_fired; then
	ok "fleet-leak-fires ($((SECONDS - scrape_t0)) s after the first scrape; $(alerts firing | awk '$2 == "leak" { printf "%s%s", s, $4; s = ", " }'))"
else
	not_ok "fleet-leak-fires: not both alerts for mstat_leak_list from the leaking machine in $((SECONDS - scrape_t0)) s; the webhook had: $(alerts firing | tr '\n' ';')"
fi
if wait_for 300 pod_fired; then
	ok "fleet-leak-pod (the stack alert names pod $pod_uid, whose kernel memory the leaking machine serves; $((SECONDS - scrape_t0)) s)"
else
	not_ok "fleet-leak-pod: no stack alert for mstat_leak_cgroup_alloc naming pod $pod_uid, or no series of its kernel memory; the webhook had: $(alerts firing | tr '\n' ';')"
fi
left=$((quiet - (SECONDS - scrape_t0)))
[ "$left" -le 0 ] || sleep "$left"
if decoys_fired; then
	not_ok "fleet-decoys-quiet: an alert for a decoy machine: $(alerts firing | grep ' decoy-' | tr '\n' ';')"
else
	ok "fleet-decoys-quiet ($((SECONDS - scrape_t0)) s of reads; the webhook's firing alerts: $(alerts firing | awk '{ printf "%s%s %s %s", s, $1, $2, $4; s = "; " }'))"
fi

# The judge's own test: the same leaks on a decoy machine must page too.
tell decoy-a "start leaks,decoys"
if wait_for 900 decoys_fired; then
	ok "fleet-decoy-leak-caught (decoy-a leaking: the quiet check fails, $((SECONDS - scrape_t0)) s)"
else
	not_ok "fleet-decoy-leak-caught: decoy-a leaks and nothing fired for it"
fi

# The module unloaded on the leaking machine: its alerts end.
tell leak unload
resolved() {
	alerts resolved | grep -q '^MstatKernelCacheLeak leak .* mstat_leak_list ' &&
		alerts resolved | grep -q '^MstatKernelStackLeak leak .* mstat_leak_list_alloc\[mstat_leaktest\] '
}
if wait_for 480 resolved; then
	ok "fleet-resolves ($((SECONDS - scrape_t0)) s)"
else
	not_ok "fleet-resolves: not both alerts of the leaking machine resolved; the webhook had: $(alerts resolved | tr '\n' ';')"
fi

alerts firing | show
release
collect_guests
stop_servers
echo "# fleet: $((SECONDS - start)) s wall, $(($(busy) - busy0)) s of CPU on this machine (three TCG guests, prometheus, alertmanager), $(wc -l <"$hooks") notifications at the webhook (${hooks#"$MSTAT_TOP"/})"
finish
