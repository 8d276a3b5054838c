# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the known-chains accuracy test of the heap profile: mstat
# at its default parameters (sample rate 512 KiB, stacks of 32 frames)
# but for profile_pages=1 (pages sampled too), then
# tests/chains/mstat_chains.ko, whose init allocates 192 MiB from each of
# four call chains of different depths and sizes (256-byte and 2048-byte
# kmalloc(), 1024-byte objects of a cache of its own, alloc_pages() of
# order 2: raw pages, whose stack mstat finds past the page allocator's
# own frames) and keeps half of each live. Its log lines are the truth; /proc/mstat_sites is
# judged against them, per chain:
#
#  - chains-X-stack: a stack whose frames are the chain's functions, in
#    order from the call site out, and no stack from the chain's call
#    site that is not;
#  - chains-X-allocated and chains-X-live: the estimated bytes allocated
#    (alloc_bytes scaled as mstat pprof scales them) and in use
#    (est_bytes) within Z standard errors of the truth. An object of
#    size s is sampled with p = 1 - exp(-s/rate); the number of samples
#    of N objects is then binomial, the estimate's relative standard
#    error sqrt((1-p)/(N p)), about 1/sqrt(E[samples]) (384 samples
#    allocated and 192 live a chain here: 5.1% and 7.2%). Z = 5: in 30
#    chain runs in TCG guests (6.12 and 7.3) the squared
#    deviations averaged 1.5 squared standard errors, not 1 (the guests'
#    random seeds repeat from boot to boot), and at 1.5 times the
#    variance Z = 5 fails a good build about once in 20,000 checks;
#  - chains-X-released: after the module frees its live half, the
#    chain's sampled bytes in use are exactly 0: every sampled object's
#    free found its bucket.
#
# CHAINS_TAMPER=1 on the kernel command line: the module logs a false
# truth (counts doubled: 2 x the truth is 19 standard errors off, chain
# B's frames out of order), and the stack,
# allocated and live checks must fail (scripts/check.sh expects it).
# Run: check guest-6.12-chains-tamper --append=CHAINS_TAMPER=1
set -u
. ./lib.sh

tamper=$(sed -n 's/.*CHAINS_TAMPER=\([01]\).*/\1/p' /proc/cmdline)
check insmod-mstat insmod ./mstat.ko profile_pages=1
targ=
[ "$tamper" = 1 ] && targ=tamper=1
# shellcheck disable=SC2086 # empty or one word
check insmod-chains insmod ./mstat_chains.ko $targ
dmesg | sed -n 's/.*mstat_chains: chain /chain /p' >/tmp/truth
show /tmp/truth
cat /proc/mstat_sites >/tmp/sites
check release sh -c 'echo 1 >/sys/module/mstat_chains/parameters/release'
cat /proc/mstat_sites >/tmp/sites.rel
head -n 2 /tmp/sites | show

# judge TRUTH SITES RELEASED: one "ok"/"not ok" line per check.
judge() {
	awk -v Z=5 '
	# Busybox awk has no exp() or sqrt(): series and Newton.
	function xexp(x,   k, i, t, e) {
		for (k = 0; x > 0.5 || x < -0.5; k++) x /= 2
		e = 1; t = 1
		for (i = 1; i < 20; i++) { t *= x / i; e += t }
		while (k-- > 0) e *= e
		return e
	}
	function xsqrt(x,   y, i) {
		if (x <= 0) return 0
		y = x > 1 ? x : 1
		for (i = 0; i < 60; i++) y = (y + x / y) / 2
		return y
	}
	function fname(t) { sub(/[+ ].*/, "", t); return t }
	FILENAME == ARGV[1] {
		# chain X size S allocs N frees M live_bytes L frames F...
		# (%ps names a module function "f [module]": the names alone)
		c = $2; chains[++nc] = c; size[c] = $4; allocs[c] = $6
		live[c] = $10; fr = ""
		for (i = 12; i <= NF; i++)
			if ($i !~ /^\[/) fr = fr (fr == "" ? "" : " ") $i
		frames[c] = fr; leaf[c] = $12
		next
	}
	FNR == 1 { f++; next }
	/^# snapshot / { for (i = 2; i < NF; i++) if ($i == "sample_rate") rate = $(i + 1); next }
	# The site is the last column (2.2: after cgroup, node and cache).
	/^# est_bytes / { for (i = 2; i <= NF; i++) if ($i == "site") scol[f] = i - 1; next }
	/^#/ { next }
	/^\t/ { if (row) { nst[f, row]++; st[f, row, nst[f, row]] = fname(substr($0, 2)) }; next }
	/^\+ / { next }
	{
		row++; nrow[f] = row; nst[f, row] = 1; st[f, row, 1] = fname($(scol[f] ? scol[f] : 9))
		est[f, row] = $1; sbytes[f, row] = $3; sc[f, row] = $4
		al[f, row] = $5; ab[f, row] = $6
	}
	function prefix(f, r, c,   n, a, i) {
		n = split(frames[c], a, " ")
		if (nst[f, r] < n) return 0
		for (i = 1; i <= n; i++) if (st[f, r, i] != a[i]) return 0
		return 1
	}
	function verdict(name, good, why) {
		print (good ? "ok " : "not ok ") name (good ? "" : ": " why)
	}
	function abs(x) { return x < 0 ? -x : x }
	END {
		if (!rate) { print "not ok chains-rate: no sample_rate"; exit }
		for (k = 1; k <= nc; k++) {
			c = chains[k]; good = 0; bad = 0
			aest = 0; lest = 0; ksamp = 0; rel = 0
			for (r = 1; r <= nrow[1]; r++) {
				if (st[1, r, 1] != leaf[c]) continue
				if (!prefix(1, r, c)) { bad++; continue }
				good++
				lest += est[1, r]; ksamp += al[1, r]
				if (al[1, r] > 0) {
					avg = ab[1, r] / al[1, r]
					aest += ab[1, r] / (1 - xexp(-avg / rate))
				}
			}
			for (r = 1; r <= nrow[2]; r++)
				if (st[2, r, 1] == leaf[c] && prefix(2, r, c))
					rel += sbytes[2, r] + est[2, r]
			p = 1 - xexp(-size[c] / rate)
			ta = allocs[c] * size[c]; tl = live[c]
			ea = allocs[c] * p; el = live[c] / size[c] * p
			ba = Z * ta * xsqrt((1 - p) / ea); bl = Z * tl * xsqrt((1 - p) / el)
			printf "# chain %s: %d stacks match, %d from its site do not; %d samples (expected %.0f)\n", c, good, bad, ksamp, ea
			printf "# chain %s: allocated %.0f estimated, %.0f true, bound %.0f; live %.0f estimated, %.0f true, bound %.0f; released: %d\n", c, aest, ta, ba, lest, tl, bl, rel
			verdict("chains-" c "-stack", good > 0 && bad == 0, good " matching stacks, " bad " not matching " frames[c])
			verdict("chains-" c "-allocated", good > 0 && abs(aest - ta) <= ba, "estimate " aest " truth " ta " bound " ba)
			verdict("chains-" c "-live", good > 0 && abs(lest - tl) <= bl, "estimate " lest " truth " tl " bound " bl)
			verdict("chains-" c "-released", good > 0 && rel == 0, "in use after release: " rel)
		}
		if (nc != 4) print "not ok chains-truth: " nc " chains logged, not 4"
	}' "$1" "$2" "$3"
}

judge /tmp/truth /tmp/sites /tmp/sites.rel >/tmp/judge.out 2>&1
if [ "$tamper" = 1 ]; then
	# Every check the false truth touches must fail; the rest still pass.
	show /tmp/judge.out
	for c in A B C D; do
		for k in allocated live; do
			check "tamper-caught-$c-$k" grep -q "^not ok chains-$c-$k" /tmp/judge.out
		done
	done
	check tamper-caught-B-stack grep -q "^not ok chains-B-stack" /tmp/judge.out
else
	relay /tmp/judge.out
fi
# Sixteen verdicts, four a chain: a judge that died says nothing.
check chains-judged test "$(grep -c -E '^(not )?ok chains-[ABCD]-' /tmp/judge.out)" -eq 16
grep -A4 'chains_b_leaf' /tmp/sites | head -n 8 | show
check rmmod-chains rmmod mstat_chains
check rmmod-mstat rmmod mstat
finish
