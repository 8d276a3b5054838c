#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The side-by-side bench with /proc/allocinfo (make bench's "Side by side
# with /proc/allocinfo"; or alone). A 6.12 test kernel with
# CONFIG_MEM_ALLOC_PROFILING=y
# (kunit/allocinfo.kunitconfig, built by scripts/testkernel.sh and
# cached by its config: about 6 min cold on 2 cores, built by make bench
# only), mstat built against it, scripts/guest/allocinfo.sh in a guest
# under qemu -icount shift=0,sleep=off with one vCPU (a guest ns is an
# instruction):
#
# - instructions per kmalloc+kfree pair with allocinfo on, off (sysctl
#   vm.mem_profiling=0 at runtime), with mstat (allocinfo off) and with
#   both, in the same boot; then, in a second boot with
#   sysctl.vm.mem_profiling=never (no page_ext, no slab object vectors:
#   allocinfo as if it were not built in), without and with mstat;
# - over the mixed workload of the other benches, the top functions by
#   /proc/allocinfo's live bytes against mstat's estimated live bytes at
#   the same functions, mstat at its default rate and at rate 1 (every
#   allocation sampled: exact, so that what differs there is attribution,
#   not sampling).
#
# Prints markdown to stdout; the guests' consoles in build/bench/allocinfo/.
#
#   scripts/allocinfo.sh
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP"
out=build/bench/allocinfo
mkdir -p "$out"
start=$SECONDS
mstat_setup_env || die "set-up failed; log: $mstat_setup_log"
kstart=$SECONDS
kb=$(scripts/testkernel.sh kunit/allocinfo.kunitconfig 2>"$out/testkernel.log") ||
	die "no allocinfo test kernel, log: $out/testkernel.log"
ksecs=$((SECONDS - kstart))
# Built anew: a build left from an older tree would be measured as this one.
scripts/build.sh "$kb" build/allocinfo >"$out/build.log" 2>&1 ||
	die "cannot build against $kb, log: $out/build.log"
vmlinuz=$kb/arch/x86/boot/bzImage
kos=(--ko build/allocinfo/mstat.ko
     --ko build/allocinfo/tests/bench/mstat_probe_bench.ko)

# guest NAME ARGS...: scripts/guest/allocinfo.sh in a guest of its own.
guest() {
	local log=$out/$1.console
	shift
	scripts/guest.sh --kernel "$vmlinuz" --script scripts/guest/allocinfo.sh \
		"${kos[@]}" --smp 1 --icount on --mem 2G --timeout 3600 \
		--log "$log" "$@" >"$log.out" 2>&1 ||
		die "guest failed: $log"
	scripts/console-check.sh "$log" >"$log.check" 2>&1 ||
		die "the guest's console is not clean: $log.check"
	tr -d '\r' <"$log" >"$log.txt"
}
guest main
guest never --append 'sysctl.vm.mem_profiling=never ALLOCINFO_VARIANTS="as-booted as-booted-mstat" ALLOCINFO_SITES=0'

cat <<EOT
- kernel: linux-source-6.12 ($(sed -n 's/^SUBLEVEL = /6.12./p' "$KSRC/Makefile")) built by kunit.py with kunit/allocinfo.kunitconfig (CONFIG_MEM_ALLOC_PROFILING=y, enabled by default; no debug options): $kb ($( [ "$ksecs" -gt 60 ] && echo "built in $ksecs s" || echo cached))
- guests: \`scripts/guest.sh --kernel $vmlinuz --script scripts/guest/allocinfo.sh --ko mstat.ko --ko mstat_probe_bench.ko --smp 1 --icount on --mem 2G\`, a second with \`--append 'sysctl.vm.mem_profiling=never ALLOCINFO_VARIANTS="as-booted as-booted-mstat" ALLOCINFO_SITES=0'\`
- $(sed -n 's/^# \(vm.mem_profiling=.*\)/main guest as booted: \1/p' "$out/main.console.txt"); never guest: $(sed -n 's/^# vm.mem_profiling=\([^,]*\),.*/vm.mem_profiling=\1/p' "$out/never.console.txt")

Instructions per kmalloc+kfree pair (mstat_probe_bench mode=none, 200,000
pairs of 8..240 B), median of 3 rounds after a warm-up round discarded:

\`\`\`
EOT
grep -h '^icount:' "$out/main.console.txt" "$out/never.console.txt" |
	sed 's/variant=as-booted/variant=never/'
echo '```'
echo
echo '| allocinfo | mstat | instructions per pair | over allocinfo off, no mstat |'
echo '|---|---|---|---|'
grep -h '^icount:' "$out/main.console.txt" "$out/never.console.txt" |
	sed 's/variant=as-booted/variant=never/' |
	sed 's/.*variant=\([^ ]*\) insns_per_pair=\([0-9]*\)/\1 \2/' | awk '
	{ if (!($1 in n)) order[++k] = $1; v[$1, ++n[$1]] = $2 }
	END {
		for (i = 1; i <= k; i++) {
			name = order[i]; m = n[name]
			for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++)
				if (v[name, b] < v[name, a]) { t = v[name, a]; v[name, a] = v[name, b]; v[name, b] = t }
			med[name] = v[name, int((m + 1) / 2)]
		}
		ai["allocinfo-on"] = "on"; ms["allocinfo-on"] = "-"
		ai["allocinfo-off"] = "off (sysctl vm.mem_profiling=0)"; ms["allocinfo-off"] = "-"
		ai["mstat"] = "off (sysctl vm.mem_profiling=0)"; ms["mstat"] = "default"
		ai["mstat-kmalloc-noprofile"] = ai["mstat"]
		ms["mstat-kmalloc-noprofile"] = "kmalloc source alone, profile off"
		ai["allocinfo-on-mstat"] = "on"; ms["allocinfo-on-mstat"] = "default"
		ai["never"] = "never (boot: sysctl.vm.mem_profiling=never)"; ms["never"] = "-"
		ai["never-mstat"] = "never (boot: sysctl.vm.mem_profiling=never)"; ms["never-mstat"] = "default"
		for (i = 1; i <= k; i++) {
			name = order[i]
			printf "| %s | %s | %d | %+d (%+.1f%%) |\n", ai[name], ms[name],
				med[name], med[name] - med["allocinfo-off"],
				100 * (med[name] / med["allocinfo-off"] - 1)
		}
	}'

cat <<EOT

The sites, in the main guest after the bench: windows, each the caches
dropped, mstat loaded, /proc/allocinfo read, the mixed workload of the
other benches (300 x fork+exec of /bin/true and ls /sys/kernel, ls -R
/sys, /proc/mstat, /proc/slabinfo and /proc/vmstat read, 1 MiB written to
tmpfs and removed), /proc/allocinfo and /proc/mstat_sites read, mstat
unloaded. Windows default-1 to default-$(grep -c '^total: window=default-' "$out/main.console.txt"): mstat at its default
rate; window "exact": profile_rate=1 (every allocation sampled) and
profile_addrs=1048576. allocinfo's figure is its live bytes (calls) at
the end minus at the start of the window; mstat's is its estimated live
bytes (calls) of what it saw allocated during the window. Both summed by
function name (allocinfo's func:, mstat's %pS symbol less its offset and
.constprop/.isra/.part suffixes). mstat's header and the totals of the
first default-rate window and of the exact one (every window's in
$out/main.console):

\`\`\`
EOT
grep -h -E '^(header|total): window=(default-1|exact) ' "$out/main.console.txt"
echo '```'
cat <<EOT

Top 15 functions by allocinfo's growth in the exact window, beside the
first default-rate window; the last column is the sampling error an
estimate of that window's bytes should show, one standard deviation,
about sqrt(bytes x rate) for objects far smaller than the rate:

EOT
# The figures as "sites: WINDOW RATE FUNC AI_BYTES AI_CALLS MS_BYTES
# MS_CALLS" and "total: WINDOW RATE AI_BYTES AI_CALLS MS_BYTES MS_CALLS
# ROWS MATCHED" lines.
grep -h -E '^(sites|total):' "$out/main.console.txt" | sed 's/[a-z_]*=//g' \
	>"$out/sites"
awk '
function commas(x,   s, neg) {
	neg = x < 0; s = sprintf("%.0f", neg ? -x : x)
	while (s ~ /[0-9][0-9][0-9][0-9]/)
		sub(/[0-9][0-9][0-9]($|,)/, ",&", s)
	return (neg ? "-" : "") s
}
function cell(b, c) { return commas(b) " (" commas(c) ")" }
function ratio(m, a) { return a > 0 ? sprintf("%.2f", m / a) : "-" }
# The sampling error expected of an estimate of B bytes at rate R, one
# standard deviation: about sqrt(B x R) bytes (objects far smaller than R).
function sigma(b, r) { return b > 0 && r > 1 ? sprintf("%.0f%%", 100 * sqrt(r / b)) : "-" }
$1 == "total:" {
	w = $2; rate[w] = $3
	# allocinfo also charges the slab pages under the objects, at
	# alloc_slab_page: mstat'\''s page events have no call site.
	tab[w] = $4; tac[w] = $5; mb[w, "*"] = $6; mc[w, "*"] = $7
	tmb[w] = $6; tmc[w] = $7
	next
}
{
	w = $2; f = $4; seen[f] = 1; rate[w] = $3
	ab[w, f] = $5; ac[w, f] = $6; mb[w, f] = $7; mc[w, f] = $8
}
# row F LABEL: one row of the main table; W1 the window beside "exact".
function row(f, label) {
	printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", label,
		cell(ab["exact", f], ac["exact", f]), cell(mb["exact", f], mc["exact", f]),
		ratio(mb["exact", f], ab["exact", f]),
		cell(ab[W1, f], ac[W1, f]), cell(mb[W1, f], mc[W1, f]),
		ratio(mb[W1, f], ab[W1, f]), sigma(mb["exact", f], rate[W1])
}
END {
	W1 = "default-1"
	for (w in tab) {
		ab[w, "*"] = tab[w] - ab[w, "alloc_slab_page"]
		ac[w, "*"] = tac[w] - ac[w, "alloc_slab_page"]
		if (w ~ /^default-/)
			nw++
	}
	# Nor mstat'\''s own functions: its /proc/mstat_sites read allocates
	# its buffers (mstat_profile_read: 25.7 MB at profile_addrs=1048576,
	# 2026-12-07) after the window'\''s /proc/allocinfo read.
	for (k in mb) {
		split(k, wf, SUBSEP)
		if (wf[2] !~ /^mstat_/)
			continue
		mb[wf[1], "*"] -= mb[k]; mc[wf[1], "*"] -= mc[k]
		ab[wf[1], "*"] -= ab[k]; ac[wf[1], "*"] -= ac[k]
	}
	n = 0
	for (f in seen) { n++; fn[n] = f }
	# By the exact window'\''s allocinfo bytes, descending.
	for (a = 1; a <= n; a++) for (b = a + 1; b <= n; b++)
		if (ab["exact", fn[b]] > ab["exact", fn[a]]) { t = fn[a]; fn[a] = fn[b]; fn[b] = t }
	print "| function | allocinfo, exact window | mstat rate 1 | mstat / allocinfo | allocinfo, " W1 " | mstat default rate, estimate | estimate / allocinfo | sampling error expected, 1 sigma |"
	print "|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= n && shown < 15; i++) {
		f = fn[i]
		if (!ab["exact", f] && !mb["exact", f] && !ab[W1, f] && !mb[W1, f])
			continue
		top[f] = 1
		row(f, f)
		shown++
	}
	printf "| all functions | %s | %s | %s | %s | %s | %s | %s |\n",
		cell(tab["exact"], tac["exact"]), cell(tmb["exact"], tmc["exact"]),
		ratio(tmb["exact"], tab["exact"]),
		cell(tab[W1], tac[W1]), cell(tmb[W1], tmc[W1]),
		ratio(tmb[W1], tab[W1]), sigma(tmb["exact"], rate[W1])
	row("*", "all functions but alloc_slab_page and mstat'\''s own")

	# mstat'\''s own top functions at rate 1 that are not above.
	for (a = 1; a <= n; a++) for (b = a + 1; b <= n; b++)
		if (mb["exact", fn[b]] > mb["exact", fn[a]]) { t = fn[a]; fn[a] = fn[b]; fn[b] = t }
	print ""
	print "mstat'\''s top functions at rate 1 that are not among those:"
	print ""
	print "| function | allocinfo, exact window | mstat rate 1 | allocinfo, " W1 " | mstat default rate, estimate |"
	print "|---|---|---|---|---|"
	for (i = 1; i <= n && i <= 10; i++) {
		f = fn[i]
		if ((f in top) || !mb["exact", f])
			continue
		printf "| %s | %s | %s | %s | %s |\n", f,
			cell(ab["exact", f], ac["exact", f]), cell(mb["exact", f], mc["exact", f]),
			cell(ab[W1, f], ac[W1, f]), cell(mb[W1, f], mc[W1, f])
	}

	# The estimate over every default-rate window, for the functions
	# that hold the most of what mstat saw at rate 1.
	for (a = 1; a <= n; a++)
		if (mb["exact", fn[a]] >= 0.02 * mb["exact", "*"])
			big[++nb] = fn[a]
	big[++nb] = "*"
	print ""
	printf "The default rate'\''s estimate / allocinfo over the %d windows, for the\n", nw
	print "functions that hold 2% or more of what mstat saw at rate 1: mean,"
	print "standard deviation, least and most, against the sampling error"
	print "expected of one window (1 sigma, as above):"
	print ""
	print "| function | allocinfo, mean over the windows | estimate / allocinfo, mean | sd | least | most | expected 1 sigma |"
	print "|---|---|---|---|---|---|---|"
	for (i = 1; i <= nb; i++) {
		f = big[i]; sa = 0; sr = 0; srr = 0; lo = -1; hi = 0
		for (k = 1; k <= nw; k++) {
			w = "default-" k; sa += ab[w, f]
			r = ab[w, f] > 0 ? mb[w, f] / ab[w, f] : 0
			sr += r; srr += r * r
			if (lo < 0 || r < lo) lo = r
			if (r > hi) hi = r
		}
		m = sr / nw; v = nw > 1 ? (srr - nw * m * m) / (nw - 1) : 0
		printf "| %s | %s | %.2f | %.2f | %.2f | %.2f | %s |\n",
			f == "*" ? "all functions but alloc_slab_page and mstat'\''s own" : f,
			commas(sa / nw), m, sqrt(v > 0 ? v : 0), lo, hi,
			sigma(mb["exact", f], rate[W1])
	}
}' "$out/sites"
grep -h '^not ok ' "$out/main.console.txt" "$out/never.console.txt" || true
echo
echo "Wall time of this section: $((SECONDS - start)) s (set-up, kernel $( [ "$ksecs" -gt 60 ] && echo "build $ksecs s" || echo cached), mstat build, two guests under -icount)."
