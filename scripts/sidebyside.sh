#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The side-by-side of leak tools (make bench's "Leak tools side by side";
# or alone): `mstat leaks` beside kmemleak and libbpf-tools' memleak on
# the same leaks, decoys and busy workload (tests/leaks/mstat_leaktest.ko: five
# leaks, one of them a list that only grows, referenced; four decoys),
# and what each costs, under -icount, per kmalloc+kfree pair and on three
# workloads (hackbench, iperf3 over loopback, a file tree), with
# /proc/allocinfo's kernel beside.
#
# Kernels: Debian's 6.12 (BTF, for memleak), and two test kernels built
# from linux-source-6.12 by kunit.py, cached outside the clone (about 5
# min each, cold, on 2 cores; make check never builds them):
# kunit/kmemleak.kunitconfig (kmemleak as its Kconfig defaults it) and
# kunit/allocinfo.kunitconfig (CONFIG_MEM_ALLOC_PROFILING).
#
# Detection (scripts/guest/sidebyside.sh, qemu TCG, 2 vCPUs), three
# guests, each with mstat's watch of 600 s beside the other tool:
#	memleak		Debian 6.12, mstat at its default rate (512 KiB)
#	kmemleak-scan	the kmemleak kernel, a forced scan every 30 s,
#			mstat at the hunting rate (64 KiB)
#	kmemleak-auto	the kmemleak kernel as booted (its scans 60 s after
#			boot, then every 600 s), watched 1300 s at most;
#			mstat at its default rate
# Precision: the leak test of make check (scripts/guest/leaks.sh: a
# leak-free watch, then the five leaks among the decoys) on Debian's 6.1,
# 6.12, 6.12-rt, 6.12-cloud and the kmemleak kernel: per kernel, true
# suspects over all suspects, leaks named over leaks.
# Cost (scripts/guest/cost.sh, -icount, one vCPU), four boots:
#	debian-6.12	none, empty, mstat, mstat-pages, mstat-hunt, memleak
#	allocinfo	none (profiling off), allocinfo, empty, bare, mstat,
#			mstat-noprofile, mstat-pages (cost.sh says what each is)
#	kmemleak-off	the kmemleak kernel, kmemleak=off: none, mstat
#	kmemleak-on	the kmemleak kernel: none and mstat (kmemleak on,
#			its scan thread stopped), and one forced scan's cost
#
# Prints markdown to stdout; the guests' consoles in build/bench/sidebyside/.
# SBS_PARTS="detect precision cost" (the default) picks the parts; SBS_D the
# detection watch (600 s), COST_RUNS the rounds (3).
#
#   scripts/sidebyside.sh
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP"
out=build/bench/sidebyside
mkdir -p "$out"
parts=${SBS_PARTS:-detect precision cost}
dur=${SBS_D:-600}
runs=${COST_RUNS:-3}
mstat_setup_env || die "set-up failed; log: $mstat_setup_log"

# The kernels, mstat and its test modules built against each, the tools.
kt0=$SECONDS
kb_km=$(scripts/testkernel.sh kunit/kmemleak.kunitconfig 2>"$out/kmemleak-kernel.log") ||
	die "no kmemleak test kernel, log: $out/kmemleak-kernel.log"
kb_ai=$(scripts/testkernel.sh kunit/allocinfo.kunitconfig 2>"$out/allocinfo-kernel.log") ||
	die "no allocinfo test kernel, log: $out/allocinfo-kernel.log"
ksecs=$((SECONDS - kt0))
for b in "$K612_KDIR:6.12" "$kb_km:kmemleak" "$kb_ai:allocinfo" \
	 "$K61_KDIR:6.1" "$K612RT_KDIR:6.12rt" "$K612CLOUD_KDIR:6.12cloud"; do
	scripts/build.sh "${b%:*}" "build/${b##*:}" >"$out/build-${b##*:}.log" 2>&1 ||
		die "cannot build against ${b%:*}, log: $out/build-${b##*:}.log"
done
# The floor: the same probes, empty (scripts/guest/cost.sh's "empty").
for b in "$K612_KDIR:6.12" "$kb_ai:allocinfo"; do
	KCFLAGS=-DMSTAT_EMPTY_PROBES=1 scripts/build.sh --module "${b%:*}" \
		"build/${b##*:}-empty" >"$out/build-${b##*:}-empty.log" 2>&1 ||
		die "cannot build the empty probes against ${b%:*}, log: $out/build-${b##*:}-empty.log"
done
# The design's floor for the cache events (cost.sh's "bare").
KCFLAGS=-DMSTAT_BARE_CACHE=1 scripts/build.sh --module "$kb_ai" \
	build/allocinfo-bare >"$out/build-allocinfo-bare.log" 2>&1 ||
	die "cannot build the bare cache probes, log: $out/build-allocinfo-bare.log"
mstat_build_tools mstat leaks nsrun >/dev/null || die "cannot build the tools"
root=$(mstat_bench_root) || die "no bench root (trixie's memleak-libbpf, hackbench, iperf3)"
vm_km=$kb_km/arch/x86/boot/bzImage
vm_ai=$kb_ai/arch/x86/boot/bzImage
files=(--file build/tools/mstat:/mstat/mstat --file build/tools/leaks:/mstat/leaks
       --file build/tools/nsrun:/mstat/nsrun --file "$root:/mstat/root")

# guest NAME KERNEL BUILD ARGS...: a guest of its own, its console in
# $out/NAME.console(.txt); the guest's script in ARGS.
guest() {
	local name=$1 kernel=$2 b=$3 log=$out/$1.console
	shift 3
	local empty=()
	[ -f "build/$b-empty/mstat.ko" ] &&
		empty=(--file "build/$b-empty/mstat.ko:/mstat/mstat-empty.ko")
	[ -f "build/$b-bare/mstat.ko" ] &&
		empty+=(--file "build/$b-bare/mstat.ko:/mstat/mstat-bare.ko")
	scripts/guest.sh --kernel "$kernel" --ko "build/$b/mstat.ko" \
		--ko "build/$b/tests/leaks/mstat_leaktest.ko" \
		--ko "build/$b/tests/bench/mstat_probe_bench.ko" \
		"${files[@]}" "${empty[@]}" --log "$log" "$@" >"$log.out" 2>&1 ||
		echo "guest $name: exit $? (log $log.out)" >&2
	tr -d '\r' <"$log" >"$log.txt"
}

# Four lanes at once, each its guests one after the other: the
# detection guests wait on the clock (the leaks' rates, the watches),
# the cost guests count instructions, which the host's load does not
# change.
t0=$SECONDS
det=(--script scripts/guest/sidebyside.sh --mem 2G --timeout $((dur + 1500)))
cost=(--script scripts/guest/cost.sh --smp 1 --icount on --mem 2G --timeout 5400)
if [[ " $parts " == *" detect "* ]]; then
	(
		guest det-memleak "$K612_VMLINUZ" 6.12 "${det[@]}" \
			--append "SBS_TOOL=memleak SBS_RATE=524288 SBS_D=$dur"
		guest det-kmemleak-scan "$vm_km" kmemleak "${det[@]}" \
			--append "SBS_TOOL=kmemleak-scan SBS_RATE=65536 SBS_D=$dur"
	) &
	guest det-kmemleak-auto "$vm_km" kmemleak "${det[@]}" \
		--append "SBS_TOOL=kmemleak-auto SBS_RATE=524288 SBS_D=$dur" &
fi
if [[ " $parts " == *" precision "* ]]; then
	# The leak test (scripts/guest/leaks.sh, as make check runs it on
	# 6.12: a leak-free watch, then the five leaks among the decoys)
	# on each kernel, for the verdict's precision and recall.
	(
		for k in "6.1:$K61_VMLINUZ" "6.12:$K612_VMLINUZ" \
			 "6.12rt:$K612RT_VMLINUZ" "6.12cloud:$K612CLOUD_VMLINUZ" \
			 "kmemleak:$vm_km"; do
			guest "prec-${k%%:*}" "${k#*:}" "${k%%:*}" \
				--script scripts/guest/leaks.sh --timeout 1200
		done
	) &
fi
if [[ " $parts " == *" cost "* ]]; then
	(
		guest cost-debian "$K612_VMLINUZ" 6.12 "${cost[@]}" \
			--append "COST_BOOT=debian-6.12 COST_RUNS=$runs COST_VARIANTS=\"none empty mstat mstat-pages mstat-hunt memleak\""
		guest cost-allocinfo "$vm_ai" allocinfo "${cost[@]}" \
			--append "COST_BOOT=allocinfo COST_RUNS=$runs COST_VARIANTS=\"none allocinfo empty bare mstat mstat-noprofile mstat-pages\""
		guest cost-kmemleak-off "$vm_km" kmemleak "${cost[@]}" \
			--append "kmemleak=off COST_BOOT=kmemleak-off COST_RUNS=$runs COST_VARIANTS=\"none mstat\""
		guest cost-kmemleak-on "$vm_km" kmemleak "${cost[@]}" \
			--append "COST_BOOT=kmemleak-on COST_RUNS=$runs COST_VARIANTS=\"none mstat\""
	) &
fi
wait
gsecs=$((SECONDS - t0))

cat <<EOT
- date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPUs, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1); qemu TCG (software emulation)
- made by: \`scripts/sidebyside.sh\` (make bench's "Leak tools side by side") at $(git rev-parse --short HEAD), the guests $gsecs s; the test kernels $( [ "$ksecs" -gt 60 ] && echo "built in $ksecs s" || echo cached)
- kernels: Debian $K612_REL; $kb_km (kunit/kmemleak.kunitconfig); $kb_ai (kunit/allocinfo.kunitconfig)
- tools: Debian trixie's libbpf-tools memleak-libbpf, rt-tests hackbench, iperf3 ($root)
EOT
if [[ " $parts " == *" detect "* ]]; then
	cat <<EOT

### Detection: the time from the leaks' start to each named (s)

One guest each (TCG, 2 vCPUs), \`scripts/guest.sh --script
scripts/guest/sidebyside.sh --mem 2G --append 'SBS_TOOL=T SBS_RATE=R
SBS_D=$dur'\`. "-": not named in the watch.

| tool | guest | lost | list (referenced) | cgroup | softirq | merged |
|---|---|---|---|---|---|---|
EOT
	for g in det-memleak det-kmemleak-scan det-kmemleak-auto; do
		f=$out/$g.console.txt
		[ -f "$f" ] || continue
		grep -h '^sbs: tool=[^ ]* leak=' "$f" | awk -v g="$g" '
		{
			split($2, a, "="); split($3, b, "="); split($4, c, "=")
			t = a[2]
			if (!(t in seen)) { seen[t] = 1; order[++n] = t }
			v[t, b[2]] = c[2]
		}
		END {
			for (i = 1; i <= n; i++) {
				t = order[i]
				printf "| %s | %s |", t, g
				split("lost list cgroup softirq merged", L, " ")
				for (j = 1; j <= 5; j++)
					printf " %s |", ((t, L[j]) in v) ? v[t, L[j]] : "?"
				printf "\n"
			}
		}'
	done
	echo
	echo 'What each named at the end (its last report; mstat: its verdict):'
	echo
	echo '```'
	grep -h -E '^sbs: tool=[^ ]* (reports=|final )' "$out"/det-*.console.txt || true
	echo '```'
	echo
	echo "mstat's verdict on each prefix of its watch (reads 2..N), scored:"
	echo
	echo '```'
	for g in det-memleak det-kmemleak-scan det-kmemleak-auto; do
		grep -h '^sbs: tool=mstat prefix=' "$out/$g.console.txt" 2>/dev/null |
			sed "s/^sbs: /$g: /" | awk 'NR % 6 == 1'
	done
	echo '```'
fi
if [[ " $parts " == *" precision "* ]]; then
	cat <<EOT

### The verdict's precision and recall, per kernel

\`scripts/guest.sh --script scripts/guest/leaks.sh\` (make check's leak
test: profile_rate 16384, two watches of 120 s, a read every 5 s, at
confidence 0.999): the leak-free watch (decoys and the busy workload
alone) and the leaks' (five leaks among them). A suspect is true when
its stack's call site is a leak's function or its cache a leak's cache
(./leaks -s); precision is true suspects over all suspects of both
watches, recall the leaks named by their stack over the leaks.

| kernel | leak-free watch: suspects | leaks' watch: suspects (true) | leaks named by stack | precision | recall |
|---|---|---|---|---|---|
EOT
	for k in 6.1 6.12 6.12rt 6.12cloud kmemleak; do
		f=$out/prec-$k.console.txt
		[ -f "$f" ] || continue
		awk -v k="$k" '
		function get(s, key,   a) { return match(s, key "=[^ ]*") ? substr(s, RSTART + length(key) + 1, RLENGTH - length(key) - 1) : "" }
		/^# (free|leaks) score: / {
			w = $2
			t = get($0, "stack_true") + get($0, "cache_true")
			f = get($0, "stack_false") + get($0, "cache_false")
			all[w] = t + f; tru[w] = t
			if (w == "leaks") { named = get($0, "named"); n = named == "-" ? 0 : split(named, x, ",") }
		}
		END {
			a = all["free"] + all["leaks"]; t = tru["free"] + tru["leaks"]
			printf "| %s | %d | %d (%d) | %d of 5 (%s) | %s | %.2f |\n", k,
				all["free"], all["leaks"], tru["leaks"], n, named,
				a ? sprintf("%.2f", t / a) : "-", n / 5
		}' "$f"
	done
fi
if [[ " $parts " == *" cost "* ]]; then
	cat <<EOT

### Cost: instructions (-icount, one vCPU), median of $runs rounds

\`scripts/guest.sh --script scripts/guest/cost.sh --smp 1 --icount on
--mem 2G\`; pair: per kmalloc+kfree pair; the workloads: from start to
end. "+" is over the same boot's "none" (kmemleak's: over the same
kernel booted with kmemleak=off).

| boot | variant | pair | hackbench | iperf3, per MiB | filetree |
|---|---|---|---|---|---|
EOT
	grep -h '^cost: boot=' "$out"/cost-*.console.txt | awk '
	{
		for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		if (f["run"] == 0) next
		k = f["boot"] SUBSEP f["variant"]
		if (!(k in seen)) { seen[k] = 1; order[++n] = k }
		split("pair hackbench iperf3 filetree", W, " ")
		for (j = 1; j <= 4; j++) { m = ++c[k, j]; v[k, j, m] = f[W[j]] }
	}
	function median(k, j,   m, a, b, t) {
		m = c[k, j]
		for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++)
			if (v[k, j, b] + 0 < v[k, j, a] + 0) { t = v[k, j, a]; v[k, j, a] = v[k, j, b]; v[k, j, b] = t }
		return v[k, j, int((m + 1) / 2)]
	}
	END {
		for (i = 1; i <= n; i++)
			for (j = 1; j <= 4; j++)
				med[order[i], j] = median(order[i], j)
		for (i = 1; i <= n; i++) {
			split(order[i], bv, SUBSEP)
			# kmemleak on: over the same kernel booted with it off.
			on = bv[1] == "kmemleak-on"
			base = (on ? "kmemleak-off" : bv[1]) SUBSEP "none"
			printf "| %s | %s |", bv[1], on ? (bv[2] == "none" ? "kmemleak" : "kmemleak and " bv[2]) : bv[2]
			for (j = 1; j <= 4; j++) {
				x = med[order[i], j]; b0 = med[base, j]
				if ((bv[2] == "none" && !on) || !((base, j) in med))
					printf " %d |", x
				else
					printf " %d (%+d, %+.1f%%) |", x, x - b0, 100 * (x / b0 - 1)
			}
			printf "\n"
		}
		# The bar: the instructions mstat adds over those allocinfo
		# adds, on the allocinfo boot; and the floor, the empty probes.
		split("pair hackbench iperf3 filetree", W, " ")
		b = "allocinfo"
		if (!((b SUBSEP "allocinfo", 1) in med)) exit
		printf "\nOn the allocinfo boot, the instructions added over those allocinfo adds:"
		for (j = 1; j <= 4; j++) {
			a = med[b SUBSEP "allocinfo", j] - med[b SUBSEP "none", j]
			printf " %s: mstat %.2fx", W[j], (med[b SUBSEP "mstat", j] - med[b SUBSEP "none", j]) / a
			if ((b SUBSEP "mstat-pages", j) in med)
				printf ", with page samples %.2fx", (med[b SUBSEP "mstat-pages", j] - med[b SUBSEP "none", j]) / a
			if ((b SUBSEP "empty", j) in med)
				printf ", empty probes %.2fx", (med[b SUBSEP "empty", j] - med[b SUBSEP "none", j]) / a
			if ((b SUBSEP "mstat-noprofile", j) in med)
				printf ", profile off %.2fx", (med[b SUBSEP "mstat-noprofile", j] - med[b SUBSEP "none", j]) / a
			if ((b SUBSEP "bare", j) in med)
				printf ", bare cache probes %.2fx", (med[b SUBSEP "bare", j] - med[b SUBSEP "none", j]) / a
			printf "%s", j < 4 ? ";" : ".\n"
		}
	}'
	echo
	echo '```'
	grep -h -E '^cost: boot=[^ ]* kmemleak_scan' "$out"/cost-*.console.txt || true
	echo '```'
fi
