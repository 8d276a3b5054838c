#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mstat serve with the real clients: one stock 6.12 guest (software
# emulation) loads mstat.ko with proc_gid, runs a load and three `mstat
# serve`s (scripts/guest/serve.sh): as an unprivileged user in that group
# (the one checked), as one without it (must answer 503), and as root
# (the tampered phase's). qemu forwards their ports to 127.0.0.1 here
# (guest.sh --hostfwd; Debian's virtio_net.ko, mstat_guest_netmods), and
# on this host:
#  - Debian's prometheus scrapes /metrics every second; PromQL over its
#    HTTP API: up is 1, mstat_allocs_total{source="kmalloc"} has three
#    samples at least and grew;
#  - go tool pprof fetches /debug/pprof/heap and /debug/pprof/allocs and
#    renders -top (the default sample type, a kernel function of the
#    load), -raw (Go's four sample types), -traces (stacks of more than
#    one frame) and -svg through graphviz's dot;
#  - curl: /metrics is promtool-clean Prometheus text, HEAD is answered,
#    --min-interval holds, for /metrics and for /debug/pprof/heap (two
#    snapshots at least 2 s apart; the module loaded with
#    proc_min_interval_ms=0, so that the bound seen is the server's), unknown
#    paths get 404, POST 405, bad seconds= and malformed queries 400,
#    ?seconds=2 a delta ("allocs-delta") after 2 s at least, the server
#    without the group 503 and the reason;
#  - a slow client (three connections each holding half a request) does
#    not delay a /metrics scrape past 3 s, and the server closes them
#    within 20 s; 120 clients at once (more than the 64 connections, 32
#    per address, the server takes) are each served or refused within
#    30 s, some of each, at most 32 served, and a scrape right after is
#    served in 5 s;
# and in the guest: the servers' uids are not 0, the proc files belong
# to the group with mode 0440, bad proc_gid values are refused and
# logged, the server's memory grew by at most 16 MiB, SIGTERM stops it.
#
#   scripts/serve-test.sh
#
# One "ok NAME" or "not ok NAME: WHY" line per check (scripts/lib.sh);
# exits 1 if one failed. Builds what it needs if missing (never if
# stale): build/6.12 (scripts/build.sh), build/tools/{mstat,mstat-serve,
# runas} (mstat_build_tools). Logs: build/logs/serve-test/.
#
# The tampered phase, in the same guest after the plain one: every host
# check again, through a tampering proxy on 127.0.0.1 in front of the
# root server: one connection at a time (a slow client stalls it, none is
# refused), every status 200, every Content-Type text/html, /metrics
# unparsable and without mstat_generation, profiles cut in half. Each
# check must then fail, and prints "ok NAME-tampered (caught: WHY)" if it
# does, "not ok NAME-tampered: passed, but must fail" if not; the guest's
# own tampered checks (the root server's uid, a memory bound of +0 KiB)
# likewise. MSTAT_SERVE_TAMPER=0: the plain phase only; =1: the
# tampered one only; unset: both (one guest boot for the two).
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP" || exit 1
phases="plain tampered"
case ${MSTAT_SERVE_TAMPER:-} in
0)	phases=plain ;;
1)	phases=tampered ;;
esac
out=$MSTAT_TOP/build/logs/serve-test
rm -rf "$out"
mkdir -p "$out"
MSTAT_LOGS=$out
tmp=$(mktemp -d)
pids=()
start=$SECONDS

# release: the guest's wait for the host ended (a connection to its
# control port), so that it checks, stops its servers and exits.
release() {
	[ -n "${p_ctl:-}" ] || return 0
	echo "host done after $((SECONDS - start)) s, phases: $phases" 2>/dev/null \
		>/dev/tcp/127.0.0.1/"$p_ctl"
	p_ctl=
}
trap 'release; stop_servers; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

## Set-up

if [ -z "${K612_VMLINUZ:-}" ] && ! mstat_setup_env; then
	not_ok "serve-setup, log: $mstat_setup_log"
	finish
fi
for c in prometheus promtool go dot curl python3; do
	command -v $c >/dev/null || {
		not_ok "serve-setup: no $c (scripts/setup.sh installs it)"
		finish
	}
done
b=build/6.12
if [ ! -f $b/mstat.ko ] || [ ! -f $b/tests/bench/mstat_probe_bench.ko ]; then
	t serve-build-6.12 scripts/build.sh "$K612_KDIR" $b
fi
if [ ! -x build/tools/mstat ] || [ ! -x build/tools/mstat-serve ] ||
   [ ! -x build/tools/runas ]; then
	t serve-build-tools mstat_build_tools mstat runas
fi
if ! mapfile -t netmods < <(mstat_guest_netmods "$K612_REL") ||
   [ "${#netmods[@]}" -ne 3 ]; then
	not_ok "serve-setup: no virtio_net.ko for $K612_REL"
	finish
fi
# mstat-serve's libraries and its loader, and the tools, in the guest.
mapfile -t files < <(mstat_serve_files mstat mstat-serve runas)

p_serve='' p_nogroup='' p_root='' p_ctl=''
for v in p_serve p_nogroup p_root p_ctl; do
	mstat_free_port "$v"
done

guest guest-6.12-serve "$K612_VMLINUZ" scripts/guest/serve.sh \
	$b/mstat.ko $b/tests/bench/mstat_probe_bench.ko "${netmods[@]}" \
	"${files[@]}" --timeout=600 \
	"--hostfwd=$p_serve:9754" "--hostfwd=$p_nogroup:9755" \
	"--hostfwd=$p_root:9756" "--hostfwd=$p_ctl:9799"
console=$out/guest-6.12-serve.console
t0=$SECONDS
until grep -q '^SERVE-READY' "$console" 2>/dev/null; do
	if [ -f "$out/guest-6.12-serve.rc" ] || [ $((SECONDS - t0)) -gt 300 ]; then
		not_ok "serve-guest-ready: no SERVE-READY in $((SECONDS - t0)) s, console: ${console#"$MSTAT_TOP"/}"
		tail -n 20 "$console" | show
		p_ctl=
		collect_guests
		finish
	fi
	sleep 1
done
ok "serve-guest-ready ($((SECONDS - t0)) s, TCG)"

## The checks

get() { curl -sS --max-time 10 "$@"; }

# value NAME CMD...: a check; CMD prints what it found (on failure, what
# is wrong), lines joined by "; ". In the tampered phase CMD must fail.
value() {
	local name=$1 rc=0 why
	shift
	why=$("$@" 2>&1) || rc=$?
	why=$(sed ':a;N;$!ba;s/\n/; /g' <<<"$why")
	why=${why:0:400}
	if [ "$phase" = tampered ]; then
		if [ "$rc" -ne 0 ]; then
			ok "$name-tampered (caught: $why)"
		else
			not_ok "$name-tampered: passed, but must fail ($why)"
		fi
	elif [ "$rc" -eq 0 ]; then
		ok "$name ($why)"
	else
		not_ok "$name: $why"
	fi
}

# status WANT CURL-ARGS...: the status curl gets is WANT.
status() {
	local want=$1 got
	shift
	got=$(get -o "$tmp/body" -w '%{http_code}' "$@") || true
	echo "$* -> $got: $(head -c 120 "$tmp/body" 2>/dev/null | tr -cd '[:print:]')"
	[ "$got" = "$want" ]
}

# header NAME FILE: the value of header NAME in the headers in FILE.
header() {
	tr -d '\r' <"$2" | awk -v h="$(tr '[:upper:]' '[:lower:]' <<<"$1"):" \
		'tolower($1) == h { sub(/^[^:]*: */, ""); print; exit }'
}

check_metrics() {
	get -D "$tmp/h" -o "$tmp/m" "$url/metrics" || return
	local type gen
	type=$(header Content-Type "$tmp/h")
	gen=$(awk '$1 == "mstat_generation" { print $2 }' "$tmp/m")
	echo "Content-Type: $type; $(wc -l <"$tmp/m") lines; generation ${gen:-none}"
	[[ $type == "text/plain; version=0.0.4"* ]] && [ -n "$gen" ] &&
		grep -q '^mstat_allocs_total{source="kmalloc"} [0-9]' "$tmp/m" ||
		return
	if ! promtool check metrics <"$tmp/m" >"$tmp/promtool" 2>&1; then
		head -c 300 "$tmp/promtool"
		return 1
	fi
}

check_head() {
	get -I -D "$tmp/h" -o "$tmp/b" "$url/metrics" || return
	local len type
	len=$(header Content-Length "$tmp/h") type=$(header Content-Type "$tmp/h")
	echo "HEAD: $(head -n 1 "$tmp/h" | tr -d '\r'), Content-Length $len, $type"
	head -n 1 "$tmp/h" | grep -q ' 200' && [ "${len:-0}" -gt 0 ] &&
		[[ $type == "text/plain; version=0.0.4"* ]]
}

# metrics_gen: the generation of a /metrics scrape.
metrics_gen() {
	get "$url/metrics" | awk '$1 == "mstat_generation" { print $2 }'
}

# heap_gen: the snapshot a /debug/pprof/heap profile was encoded from, as
# its comment says ("mstat_sites VERSION snapshot N ...").
heap_gen() {
	get -o "$tmp/g.gz" "$url/debug/pprof/heap" && gzip -t "$tmp/g.gz" 2>/dev/null &&
		gzip -dc "$tmp/g.gz" | tr -c '[:print:]' '\n' |
		grep -o 'mstat_sites [^ ]* snapshot [0-9]*' |
		awk '{ print $4; exit }'
}

# check_min_interval READ: five READs (metrics_gen, heap_gen) back to
# back, then one 2.5 s later (a sleep is never shorter: the server's 2 s
# have passed), which must be newer. The five may see two generations,
# one before and one after a 2 s boundary (Prometheus's scrapes make
# snapshots too), and one more for each 2 s they took: a slow machine
# allows more, never fails the check; a server with no bound makes one
# a scrape, five in the milliseconds five scrapes take. The guest's
# module has no bound of its own (proc_min_interval_ms=0): the server's
# is what this sees.
check_min_interval() {
	local read=$1 i t1 t2 gens last n allowed
	t1=$(date +%s%N)
	for ((i = 0; i < 5; i++)); do
		"$read"
	done >"$tmp/gens"
	t2=$(date +%s%N)
	sleep 2.5
	last=$("$read")
	gens=$(sort -un "$tmp/gens" | tr '\n' ' ')
	n=$(sort -u "$tmp/gens" | grep -c .)
	allowed=$((2 + (t2 - t1) / 2000000000))
	echo "generations ${gens}in $(((t2 - t1) / 1000000)) ms ($n, at most $allowed), then ${last:-none}"
	[ "$(grep -c . "$tmp/gens")" -eq 5 ] && [ -n "$last" ] || return 1
	[ "$n" -le "$allowed" ] &&
		[ "$last" -gt "$(sort -n "$tmp/gens" | tail -n 1)" ]
}

check_404() { status 404 "$url/nope" && status 404 "$url/debug/pprof/profile"; }
check_405() {
	status 405 -X POST -d x "$url/metrics" &&
		status 405 -X DELETE "$url/debug/pprof/heap"
}
check_400_seconds() {
	local s
	for s in abc 0 -1 100000 1.5; do
		status 400 "$url/debug/pprof/heap?seconds=$s" || return
	done
}
check_400_query() {
	status 400 "$url/metrics?x=%zz" &&
		status 400 "$url/debug/pprof/allocs?seconds=1&seconds=2" &&
		status 400 "$url/debug/pprof/heap?debug=1"
}

# check_profile KIND: the profile's headers, and that it is gzip.
check_profile() {
	get -D "$tmp/h" -o "$tmp/p.gz" "$url/debug/pprof/$1" || return
	local type disp
	type=$(header Content-Type "$tmp/h") disp=$(header Content-Disposition "$tmp/h")
	echo "$1: $(wc -c <"$tmp/p.gz") bytes, Content-Type: $type, Content-Disposition: $disp"
	[ "$type" = application/octet-stream ] &&
		[ "$disp" = "attachment; filename=\"$1\"" ] &&
		gzip -t "$tmp/p.gz"
}

check_delta() {
	local t1 t2 disp
	t1=$(date +%s%N)
	get -D "$tmp/h" -o "$tmp/d.gz" "$url/debug/pprof/allocs?seconds=2" || return
	t2=$(date +%s%N)
	disp=$(header Content-Disposition "$tmp/h")
	echo "?seconds=2: $(((t2 - t1) / 1000000)) ms, $(wc -c <"$tmp/d.gz") bytes, $disp"
	[ $((t2 - t1)) -ge 2000000000 ] &&
		[ "$disp" = 'attachment; filename="allocs-delta"' ] &&
		gzip -t "$tmp/d.gz"
}

# pprof ARGS...: go tool pprof, its profiles saved under $tmp.
pprof() {
	HOME=$tmp PPROF_TMPDIR=$tmp/pprof timeout 120 go tool pprof "$@"
}

# check_go_top KIND TYPE: -top of KIND over HTTP: its default sample
# type TYPE, and a function of the load: a kernel function of the VFS or
# kernfs (ls -R /sys), or the bench module.
check_go_top() {
	pprof -top "$url/debug/pprof/$1" >"$tmp/top" 2>&1 || {
		tail -n 3 "$tmp/top"
		return 1
	}
	local fn
	fn=$(grep -oE '(__d_alloc|d_alloc[a-z_]*|alloc_inode|kernfs_[a-z_]+|[a-z_]*mstat_probe_bench[a-z_]*|getname[a-z_]*|seq_[a-z_]+|kmalloc[a-z_]*|__kmalloc[a-z_]*)' \
		"$tmp/top" | head -n 1)
	echo "$(grep -m 1 '^Type:' "$tmp/top"); $(grep -c . "$tmp/top") lines; ${fn:-no known function}"
	grep -qx "Type: $2" "$tmp/top" && [ -n "$fn" ]
}

check_go_types() {
	pprof -raw "$url/debug/pprof/heap" >"$tmp/raw" 2>&1 || {
		tail -n 3 "$tmp/raw"
		return 1
	}
	local types
	types=$(grep -m 1 '^Samples:' -A 1 "$tmp/raw" | tail -n 1)
	echo "sample types: $types"
	for t in alloc_objects/count alloc_space/bytes inuse_objects/count inuse_space/bytes; do
		grep -qw "$t" <<<"$types" || return
	done
}

# -traces: the stacks, one of two frames at least.
check_go_traces() {
	pprof -traces "$url/debug/pprof/allocs" >"$tmp/traces" 2>&1 || {
		tail -n 3 "$tmp/traces"
		return 1
	}
	local n deepest
	n=$(grep -c '^-----------+' "$tmp/traces")
	cp "$tmp/traces" "$out/allocs-traces-$phase.txt"
	# After a separator: label lines ("bytes:  64B"), then the frames,
	# the first with the value, the others indented.
	deepest=$(awk '/^-----------\+/ { if (d > m) m = d; d = 0; in_ = 1; next }
		       in_ && !/^ +[a-z_]+: / && /^ +[^ ]/ { d++ }
		       END { if (d > m) m = d; print m + 0 }' "$tmp/traces")
	echo "$n traces, the deepest $deepest frames"
	[ "$n" -gt 0 ] && [ "$deepest" -ge 2 ]
}

check_go_svg() {
	pprof -svg -output "$tmp/heap.svg" "$url/debug/pprof/allocs" \
		>"$tmp/svg.log" 2>&1 || {
		tail -n 3 "$tmp/svg.log"
		return 1
	}
	cp "$tmp/heap.svg" "$out/allocs-$phase.svg"
	echo "$(wc -c <"$tmp/heap.svg") bytes of SVG, $(grep -c '<g id="node' "$tmp/heap.svg") nodes"
	grep -q '<svg' "$tmp/heap.svg" && grep -q '<g id="node' "$tmp/heap.svg"
}

check_nogroup() {
	status 503 "$nogroup/metrics" || return
	grep -q 'permission denied' "$tmp/body" || return
	status 503 "$nogroup/debug/pprof/heap" &&
		grep -q 'permission denied' "$tmp/body"
}

# A slow client: three connections each sending half a request, and a
# scrape meanwhile; then how long the server kept them.
check_slow() {
	python3 - "$host" "$port" "$url/metrics" <<-'EOF'
	import socket, sys, time, urllib.request
	host, port, url = sys.argv[1], int(sys.argv[2]), sys.argv[3]
	slow = []
	for i in range(3):
	    s = socket.create_connection((host, port), timeout=5)
	    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: mstat\r\nX-Slow: ")
	    slow.append(s)
	t0 = time.monotonic()
	time.sleep(0.5)
	t = time.monotonic()
	try:
	    code = urllib.request.urlopen(url, timeout=10).status
	except Exception as e:
	    code = repr(e)
	took = time.monotonic() - t
	closed = 0
	for s in slow:
	    s.settimeout(max(0.1, 20 - (time.monotonic() - t0)))
	    try:
	        closed += s.recv(4096) == b""
	    except (socket.timeout, OSError):
	        pass
	kept = time.monotonic() - t0
	print("scrape beside 3 slow clients: %s in %.2f s (bound 3 s); the server closed %d of them, the last after %.1f s (bound 20 s)"
	      % (code, took, closed, kept))
	sys.exit(0 if code == 200 and took < 3 and closed == 3 else 1)
	EOF
}

# 120 clients at once: each connects and sends half a request, one
# after the other (qemu's forwarder listens with a backlog of one: a burst
# of connects would be dropped there, before the server, and retried by
# this host's TCP a second or more later, so that connecting them all
# took 2 to 22 s here under TCG). Every 2 s until all are connected, each
# open one sends one more header line: the server closes a connection
# after 10 s without progress, and once (CI, stop 41) all 32 it took
# were closed so before their second halves were sent. When
# all are connected, the other halves: every one served (200) or refused
# (closed, reset, 503) within 30 s, some of each, no more served than
# the 32 the server takes from one address; then a scrape is served
# within 5 s.
check_many() {
	python3 - "$host" "$port" "$url/metrics" <<-'EOF'
	import socket, sys, threading, time, urllib.request
	host, port, url = sys.argv[1], int(sys.argv[2]), sys.argv[3]
	n = 120
	res = {"served": 0, "refused": 0, "hung": 0, "unconnected": 0}
	how = {}
	lock = threading.Lock()
	socks = []
	connecting = True
	# A refused one fails here, and again below, where it is counted.
	def hold():
	    while True:
	        time.sleep(2)
	        with lock:
	            if not connecting:
	                return
	            held = list(socks)
	        for s in held:
	            try:
	                s.sendall(b"X-Hold: 1\r\n")
	            except OSError:
	                pass
	holder = threading.Thread(target=hold)
	holder.start()
	t = time.monotonic()
	for i in range(n):
	    try:
	        s = socket.create_connection((host, port), timeout=10)
	        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: mstat\r\n")
	        with lock:
	            socks.append(s)
	    except OSError:
	        res["unconnected"] += 1
	with lock:
	    connecting = False
	holder.join()
	connect = time.monotonic() - t
	def one(s):
	    what, why = "refused", "closed"
	    try:
	        s.settimeout(30)
	        s.sendall(b"Connection: close\r\n\r\n")
	        d = b""
	        while True:
	            c = s.recv(65536)
	            if not c:
	                break
	            d += c
	        if d.startswith(b"HTTP/1.1 200"):
	            what = "served"
	        elif d:
	            why = d.split(b"\r\n")[0][:40].decode("ascii", "replace")
	    except socket.timeout:
	        what = "hung"
	    except OSError as e:
	        why = e.__class__.__name__
	    with lock:
	        res[what] += 1
	        if what == "refused":
	            how[why] = how.get(why, 0) + 1
	t0 = time.monotonic()
	time.sleep(1)
	th = [threading.Thread(target=one, args=(s,)) for s in socks]
	for x in th:
	    x.start()
	for x in th:
	    x.join(40)
	took = time.monotonic() - t0
	alive = sum(x.is_alive() for x in th)
	t = time.monotonic()
	try:
	    code = urllib.request.urlopen(url, timeout=5).status
	except Exception as e:
	    code = repr(e)
	after = time.monotonic() - t
	print("%d clients, %d connected in %.1f s, then in %.1f s: %d served, %d refused (%s), %d hung, %d unfinished; a scrape after: %s in %.2f s"
	      % (n, len(socks), connect, took, res["served"], res["refused"],
	         ", ".join("%d %s" % (v, k) for k, v in sorted(how.items())) or "none",
	         res["hung"], alive, code, after))
	sys.exit(0 if 0 < res["served"] <= 32 and res["refused"]
	         and not res["hung"] and not res["unconnected"] and not alive
	         and code == 200 and after < 5 else 1)
	EOF
}

# promq QUERY: the instant query's one series, its values on one line.
promq() { mstat_promq "$1" | awk '{ printf "%s%s", sep, $2; sep = " " }'; }
check_prom_up() {
	local v
	v=$(promq 'up{job="mstat-serve"}')
	echo "up{job=\"mstat-serve\"}: ${v:-none}"
	[ "$v" = 1 ]
}
check_prom_series() {
	local v
	v=$(promq 'mstat_allocs_total{source="kmalloc"}[2m]')
	read -r -a s <<<"$v"
	if [ "${#s[@]}" -lt 3 ]; then
		echo "${#s[@]} samples of mstat_allocs_total{source=\"kmalloc\"}, want 3 at least"
		return 1
	fi
	echo "${#s[@]} samples of mstat_allocs_total{source=\"kmalloc\"}: ${s[0]} ... ${s[-1]}"
	[ "${s[-1]%.*}" -gt "${s[0]%.*}" ]
}

# A tampering proxy: one connection at a time, every status 200, every
# Content-Type text/html, /metrics unparsable, profiles cut in half.
# exec: started with &, the subshell's pid that stop_servers kills is the
# proxy's own (a python3 child of it outlived make check once).
proxy() {
	exec python3 - "$1" "$2" <<-'EOF'
	import re, socket, sys
	ls = socket.socket()
	ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
	ls.bind(("127.0.0.1", int(sys.argv[1])))
	ls.listen(1024)
	while True:
	    c, _ = ls.accept()
	    try:
	        req = b""
	        while b"\r\n\r\n" not in req:
	            d = c.recv(65536)
	            if not d:
	                break
	            req += d
	        if b"\r\n\r\n" not in req:
	            continue
	        head = req.split(b"\r\n\r\n")[0].split(b"\r\n")
	        head = [h for h in head if not h.lower().startswith(b"connection:")]
	        b = socket.create_connection(("127.0.0.1", int(sys.argv[2])), timeout=60)
	        b.sendall(b"\r\n".join(head + [b"Connection: close"]) + b"\r\n\r\n")
	        resp = b""
	        while True:
	            d = b.recv(65536)
	            if not d:
	                break
	            resp += d
	        b.close()
	        rh, _, body = resp.partition(b"\r\n\r\n")
	        method, path = head[0].split()[:2]
	        rh = [h for h in rh.split(b"\r\n")[1:]
	              if not h.lower().startswith((b"content-type:", b"content-length:",
	                                           b"content-disposition:"))]
	        if path.startswith(b"/metrics"):
	            body = b"tampered{\n" + re.sub(rb"(?m)^mstat_generation.*\n", b"", body)
	        else:
	            body = body[:len(body) // 2]
	        rh = [b"HTTP/1.1 200 OK", b"Content-Type: text/html"] + rh
	        if method != b"HEAD":
	            rh.append(b"Content-Length: %d" % len(body))
	        c.sendall(b"\r\n".join(rh) + b"\r\n\r\n" + (body if method != b"HEAD" else b""))
	    except OSError:
	        pass
	    finally:
	        c.close()
	EOF
}

# prometheus_start TARGET: prometheus scraping TARGET every second.
prometheus_start() {
	mstat_prometheus_start "$tmp/prometheus-$phase" mstat-serve "$1" \
		"$out/prometheus-$phase.log" &&
		mstat_prometheus_ready 30 && return
	not_ok "serve-prometheus-started-$phase, log: ${out#"$MSTAT_TOP"/}/prometheus-$phase.log"
}

for phase in $phases; do
	phase_start=$SECONDS
	if [ "$phase" = plain ]; then
		port=$p_serve nogroup_port=$p_nogroup
	else
		mstat_free_port port
		proxy "$port" "$p_root" 2>"$out/proxy.log" &
		pids+=($!)
		nogroup_port=$port
		sleep 1
	fi
	host=127.0.0.1 url=http://127.0.0.1:$port
	nogroup=http://127.0.0.1:$nogroup_port
	prometheus_start "$host:$port"
	value serve-metrics check_metrics
	value serve-head check_head
	value serve-min-interval check_min_interval metrics_gen
	value serve-pprof-min-interval check_min_interval heap_gen
	value serve-404 check_404
	value serve-405 check_405
	value serve-400-seconds check_400_seconds
	value serve-400-query check_400_query
	value serve-pprof-heap-headers check_profile heap
	value serve-pprof-allocs-headers check_profile allocs
	value serve-pprof-delta check_delta
	value serve-go-pprof-heap-top check_go_top heap inuse_space
	value serve-go-pprof-allocs-top check_go_top allocs alloc_space
	value serve-go-pprof-sample-types check_go_types
	value serve-go-pprof-traces check_go_traces
	value serve-go-pprof-svg check_go_svg
	value serve-nogroup-503 check_nogroup
	value serve-slow-client check_slow
	value serve-many-clients check_many
	# Scrapes every second since the start of the phase: three at least;
	# and three seconds after the many clients, whose burst may have had
	# a scrape refused (all come from 10.0.2.2, 32 connections at most).
	sleep 3
	value serve-prometheus-up check_prom_up
	value serve-prometheus-series check_prom_series
	stop_servers
	echo "# phase $phase: $((SECONDS - phase_start)) s"
done

release
collect_guests
secs=$((SECONDS - start))
if [ "$secs" -lt 300 ]; then
	ok "serve-test-time ($secs s, limit 300 s)"
else
	not_ok "serve-test-time: $secs s, limit 300 s"
fi
finish
