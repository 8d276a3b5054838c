#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: every benchmark of mstat, into build/bench/RESULTS.md in
# docs/RESULTS.md's sections, each headed by the command that made it,
# the commit, the machine, the date and the emulation (guest figures come
# from qemu under TCG, software emulation, and say so). A section of that
# file replaces the section of the same name in docs/RESULTS.md.
#
#   scripts/bench.sh [NAME...]	those sections alone (default: all)
#   scripts/bench.sh --list	each NAME and its section
#
# MSTAT_BENCH_BASE=REF: mstat as of git REF too, measured as a baseline
# in the same rounds (icount's base-* variants; scale's guests).
# Markdown's backquotes stand in single quotes throughout, unexpanded.
# shellcheck disable=SC2016
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# NAME|the section's heading, in docs/RESULTS.md's order. icount writes
# three more: the per-cache table's cost, what a sample costs and the
# other sources' pairs, from the same guest.
sections=(
	"writer|The writer in userspace"
	"reader|The reader's latency in userspace"
	"probe|The probe cost in the guest"
	"macro|A macro workload and a read"
	"isolation|Reader modes on an isolated CPU"
	"icount|Instructions per kmalloc+kfree pair"
	"slabinfo|/proc/slabinfo against the truth"
	"torn|Torn reads"
	"scale|Scale per possible CPU"
	"allocinfo|Side by side with /proc/allocinfo"
	"leaktools|Leak tools side by side"
	"history|The verdict from 30 minutes of history"
	"kasan|KASAN on mstat's code against KASAN everywhere"
)
names=()
for s in "${sections[@]}"; do
	names+=("${s%%|*}")
done
if [ "${1:-}" = --list ]; then
	for s in "${sections[@]}"; do
		printf '%-10s %s\n' "${s%%|*}" "${s#*|}"
	done
	exit 0
fi
want=("$@")
[ $# -gt 0 ] || want=("${names[@]}")
for w in "${want[@]}"; do
	[[ " ${names[*]} " == *" $w "* ]] ||
		die "no section '$w'; scripts/bench.sh --list names them"
done

cd "$MSTAT_TOP"
out=build/bench
mkdir -p "$out"
res=$out/RESULTS.md
bench=tests/userspace/build/bench
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit="$commit, with changes not committed"
machine="this $(nproc)-CPU machine ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1), $(free -g | awk '/^Mem:/ {print $2}') GiB, host kernel $(uname -r))"
tcg2='qemu TCG, 2 vCPUs: not hardware timings'
icount='qemu TCG, one vCPU under `-icount shift=0,sleep=off`: instruction counts; a warm-up round discarded, then three rounds'

# section_head HEADING MADE_BY EMULATION: a section's heading and the
# header lines docs/RESULTS.md's sections have.
section_head() {
	cat >>"$res" <<EOT

## $1

- made by: $2
- commit: $commit; machine: $machine; date: $(date -u '+%Y-%m-%d %H:%M UTC')
- emulation: $3
EOT
}

# run CMD...: the command and its output, into a code block.
run() {
	echo "\$ $*"
	"$@" 2>&1
}

# need_env, need_612: the set-up's environment, then mstat and its test
# modules built for the stock 6.12 guest; each once.
env_done='' k612_done=''
need_env() {
	[ -n "$env_done" ] && return
	mstat_setup_env || die "set-up failed; log: $mstat_setup_log"
	env_done=1
}
need_612() {
	need_env
	[ -n "$k612_done" ] && return
	scripts/build.sh "$K612_KDIR" build/6.12 >/dev/null
	k612_done=1
}

# console LOG: a guest's console without its carriage returns.
console() {
	tr -d '\r' <"$1"
}

bench_writer() {
	need_env
	make -s -C tests/userspace build/bench >/dev/null
	section_head "The writer in userspace" \
		'`make bench` (scripts/bench.sh; alone: `scripts/bench.sh writer`), the commands below' \
		"none, the host's CPUs"
	cat >>"$res" <<EOT

ns per allocation event (8 counters), median and p99 over batches of 1000
events, then with a reader taking snapshots at 1 kHz and spinning; then
instructions per event under valgrind --tool=callgrind (inclusive Ir of
the event function / events; 1 thread, 200000 events; repeatable). See
tests/userspace/core_bench.c for each variant.

EOT
	{
		echo '```'
		for t in 1 2 4; do
			run "$bench" --threads "$t" --iters 4000000
		done
		run "$bench" --threads 2 --iters 4000000 --only mstat --reader-hz 1000
		run "$bench" --threads 2 --iters 4000000 --only mstat --reader-hz -1
		echo "\$ valgrind --tool=callgrind $bench --threads 1 --iters 200000 --only V"
		for v in floor atomic seqcount irqoff golit mstat; do
			valgrind --tool=callgrind --callgrind-out-file="$out/cg.$v" \
				"$bench" --threads 1 --iters 200000 --only "$v" \
				>/dev/null 2>&1
			# The first (largest) inclusive count of the event
			# function.
			ir=$(callgrind_annotate --inclusive=yes "$out/cg.$v" 2>/dev/null |
			     awk -v f=":event_$v" 'index($0, f) && !n++ {gsub(",", "", $1); print $1}')
			printf '%-9s %s instructions/event\n' "$v" \
				"$(awk -v i="${ir:-0}" 'BEGIN {printf "%.1f", i / 200000}')"
		done
		echo '```'
	} | tee -a "$res"
}

bench_reader() {
	need_env
	make -s -C tests/userspace build/bench >/dev/null
	section_head "The reader's latency in userspace" \
		'`make bench` (scripts/bench.sh; alone: `scripts/bench.sh reader`), the commands below' \
		"none, the host's CPUs"
	cat >>"$res" <<EOT

Snapshot latency (us) at 1 to 64 simulated CPUs, idle and with two
writers spinning on two of the CPUs, in IPI mode: the reader's barrier
is membarrier(2), the userspace analogue of the kernel's IPI. The RCU
modes' latency is a grace period's: [reader modes on an isolated
CPU](#reader-modes-on-an-isolated-cpu).

EOT
	{
		echo '```'
		for c in 1 4 16 64; do
			run "$bench" --reader-lat "$c"
		done
		echo '```'
	} | tee -a "$res"
}

bench_probe() {
	need_612
	scripts/guest.sh --kernel "$K612_VMLINUZ" --script scripts/guest/probe-bench.sh \
		--ko build/6.12/mstat.ko --ko build/6.12/tests/bench/mstat_probe_bench.ko \
		--log "$out/probe-bench.console" >/dev/null
	section_head "The probe cost in the guest" \
		"\`scripts/guest.sh --kernel $K612_VMLINUZ --script scripts/guest/probe-bench.sh --ko mstat.ko --ko mstat_probe_bench.ko\` (make bench; alone: \`scripts/bench.sh probe\`)" \
		"$tcg2"
	cat >>"$res" <<EOT

Stock Debian $K612_REL. 200,000 kmalloc/kfree pairs of 8..240 B per
variant, three interleaved runs (each run's lines:
$out/probe-bench.console); the median per variant, ns per pair, and
its ratio to the empty probe's:

EOT
	{
		echo '```'
		console "$out/probe-bench.console" | grep '^bench:' |
			sed 's/.*variant=\([^ ]*\) ns_per_pair=\([0-9]*\)/\1 \2/' |
			sort -k1,1 -k2,2n | awk '
			{ v[$1] = v[$1] " " $2; n[$1]++ }
			END {
				for (k in v) { split(substr(v[k], 2), a, " "); med[k] = a[int((n[k] + 1) / 2)] }
				for (k in med) printf "%-24s %6d ns  x%.2f of empty\n", k, med[k], med[k] / med["empty"]
			}' | sort -k2,2n
		echo '```'
	} | tee -a "$res"
}

bench_macro() {
	need_612
	scripts/guest.sh --kernel "$K612_VMLINUZ" --script scripts/guest/macro-bench.sh \
		--ko build/6.12/mstat.ko --log "$out/macro-bench.console" >/dev/null
	section_head "A macro workload and a read" \
		"\`scripts/guest.sh --kernel $K612_VMLINUZ --script scripts/guest/macro-bench.sh --ko mstat.ko\` (make bench; alone: \`scripts/bench.sh macro\`)" \
		"$tcg2"
	cat >>"$res" <<EOT

A fork/exec- and allocation-heavy shell workload (300 x fork+exec of
/bin/true and ls /sys/kernel, then ls -R /sys) without and with mstat
(all sources, profile at its default rate), three interleaved runs; then
200 reads of /proc/mstat next to 200 of /proc/vmstat.

EOT
	{
		echo '```'
		console "$out/macro-bench.console" | grep -E '^(macro|read):'
		echo '```'
	} | tee -a "$res"
}

bench_isolation() {
	need_612
	mstat_build_tools readlat runas mstat
	scripts/guest.sh --kernel "$K612_VMLINUZ" --script scripts/guest/isolation.sh \
		--ko build/6.12/mstat.ko --file build/tools/readlat:/mstat/readlat \
		--file build/tools/runas:/mstat/runas --file build/tools/mstat:/mstat/mstat \
		--append "isolcpus=1 nohz_full=1 ISOLATION_READS=1000" \
		--log "$out/isolation.console" >/dev/null
	section_head "Reader modes on an isolated CPU" \
		"\`scripts/guest.sh --kernel $K612_VMLINUZ --script scripts/guest/isolation.sh --ko mstat.ko --file readlat:/mstat/readlat --file runas:/mstat/runas --file mstat:/mstat/mstat --append \"isolcpus=1 nohz_full=1 ISOLATION_READS=1000\"\` (make bench; alone: \`scripts/bench.sh isolation\`; make check runs the same guest with 200 reads)" \
		"$tcg2"
	cat >>"$res" <<EOT

Stock $K612_REL booted with isolcpus=1 nohz_full=1. Per mode,
1000 reads of /proc/mstat from CPU 0 (readlat: open, read, close;
latency in us), then an idle window as long: the function-call
interrupts (CAL row of /proc/interrupts) idle CPU 1 took during the
reads (cpu1_cal) and during the idle window (idle_cal). The README's
table of reader modes quotes these p50/p99.

EOT
	{
		echo '```'
		console "$out/isolation.console" |
			grep -E '^(# mode=|# isolated|# .*NO_HZ|ok |not ok )'
		echo '```'
	} | tee -a "$res"
}

# icount_what VARIANT: what icount-bench.sh's variant measures.
icount_what() {
	case $1 in
	none) echo 'no probe' ;;
	empty) echo 'empty probes on kmalloc and kfree' ;;
	floor) echo 'the least a size-aware consistent counter must do' ;;
	ftrace-hist) echo 'ftrace hist triggers, kmalloc by bytes_req, kfree by CPU' ;;
	ebpf-counters) echo 'eBPF raw tracepoints, a per-CPU array by size class' ;;
	ebpf-sized) echo "the same and a pointer-to-size hash, memleak's way of sizing a kfree" ;;
	mstat-kmalloc-noprofile) echo 'mstat, the kmalloc source alone, profile off' ;;
	mstat-default) echo 'mstat by default: every source, profile at its default rate' ;;
	mstat-default-noprofile) echo 'every source, profile off' ;;
	mstat-default-stream) echo 'by default, the event stream on for kmalloc, nobody reading' ;;
	mstat-every-site) echo 'every allocation sampled, its call site alone' ;;
	mstat-every-stack) echo 'every allocation sampled, its whole stack' ;;
	cache-none) echo 'no probe' ;;
	mstat-cache-nopercache) echo 'mstat, the cache source alone, per-cache off' ;;
	mstat-cache-percache) echo 'the same, per-cache on' ;;
	mstat-cache-default) echo 'mstat by default (every source, profile at its default rate)' ;;
	vmalloc-none) echo 'vmalloc(4 KiB)+vfree, no mstat' ;;
	mstat-vmalloc-off) echo 'mstat (profile off), vmalloc source off' ;;
	mstat-vmalloc) echo 'the vmalloc source on' ;;
	percpu-none) echo 'alloc_percpu(8)+free_percpu, no mstat' ;;
	mstat-percpu-off) echo 'mstat, percpu source off' ;;
	mstat-percpu) echo 'the percpu source on' ;;
	page-none) echo 'alloc_pages(0)+__free_pages, no mstat' ;;
	mstat-page-off) echo 'mstat (profile off), page source off' ;;
	mstat-page) echo 'the page source on' ;;
	mstat-page-profile-off) echo 'mstat by default, `profile_pages=0`' ;;
	mstat-page-profile) echo 'mstat by default, `profile_pages=1`' ;;
	base-*) echo "the baseline${MSTAT_BENCH_BASE:+, $MSTAT_BENCH_BASE}: as mstat-${1#base-}" ;;
	*) echo '' ;;
	esac
}

# icount_table VARIANT...: the table of those variants that ran, from
# $out/icount.medians ("VARIANT MEDIAN ROUNDS").
icount_table() {
	local v line rows=0
	echo
	echo '| variant | what | instructions per pair | rounds |'
	echo '|---|---|---|---|'
	for v in "$@"; do
		line=$(awk -v v="$v" '$1 == v { $1 = ""; print substr($0, 2) }' \
			"$out/icount.medians")
		[ -n "$line" ] || continue
		printf '| %s | %s | %s | %s |\n' "$v" "$(icount_what "$v")" \
			"${line%% *}" "${line#* }"
		rows=$((rows + 1))
	done
	[ "$rows" -gt 0 ] ||
		echo "| - | none of $* ran (ICOUNT_VARIANTS) | | |"
}

bench_icount() {
	local base=() cmd
	need_612
	if [ -n "${MSTAT_BENCH_BASE:-}" ]; then
		mstat_build_base "$MSTAT_BENCH_BASE" "$K612_KDIR" "$out/base" ||
			die "cannot build MSTAT_BENCH_BASE=$MSTAT_BENCH_BASE"
		cp "$out/base/mstat.ko" "$out/mstat_base.ko"
		base=(--ko "$out/mstat_base.ko")
	fi
	# The eBPF variants' loader, its programs built in (tests/bpf/).
	mstat_build_tools mstat-bpf
	scripts/guest.sh --kernel "$K612_VMLINUZ" --script scripts/guest/icount-bench.sh \
		--ko build/6.12/mstat.ko --ko build/6.12/tests/bench/mstat_probe_bench.ko \
		${base[@]+"${base[@]}"} --file build/tools/mstat-bpf:/mstat/mstat-bpf \
		--smp 1 --icount on --timeout 1800 \
		--log "$out/icount-bench.console" >/dev/null
	# The median of each variant's rounds, then the rounds.
	console "$out/icount-bench.console" | grep '^icount:' |
		sed 's/.*variant=\([^ ]*\) insns_per_pair=\([0-9]*\)/\1 \2/' |
		awk '
		{ if (!($1 in n)) order[++k] = $1; v[$1, ++n[$1]] = $2
		  r[$1] = r[$1] (n[$1] > 1 ? ", " : "") $2 }
		END {
			for (i = 1; i <= k; i++) {
				name = order[i]; m = n[name]
				for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++)
					if (v[name, b] < v[name, a]) { t = v[name, a]; v[name, a] = v[name, b]; v[name, b] = t }
				print name, v[name, int((m + 1) / 2)], r[name]
			}
		}' >"$out/icount.medians"
	cmd="\`scripts/guest.sh --kernel $K612_VMLINUZ --script scripts/guest/icount-bench.sh --ko mstat.ko --ko mstat_probe_bench.ko${base[*]:+ --ko mstat_base.ko} --file mstat-bpf:/mstat/mstat-bpf --smp 1 --icount on\`"

	section_head "Instructions per kmalloc+kfree pair" \
		"$cmd (make bench runs every variant; alone: \`scripts/bench.sh icount\`)" \
		"$icount"
	{
		echo
		echo "Stock Debian $K612_REL, 200,000 kmalloc+kfree pairs of 8..240 B per"
		echo 'variant (tests/bench/mstat_probe_bench.c, which holds the floor; the'
		echo 'variants: scripts/guest/icount-bench.sh). The eBPF sets (tests/bpf/,'
		echo 'JIT on), per round: the events the kernel skipped (recursion_misses:'
		echo 'the program already running on that CPU) and whether they counted'
		echo 'every pair of the loop:'
		echo
		console "$out/icount-bench.console" | grep '^ebpf:' | awk '
			{ for (i = 2; i <= NF; i++) { split($i, a, "="); f[a[1]] = a[2] }
			  s[f["variant"]] = s[f["variant"]] (s[f["variant"]] ? ", " : "") f["recursion_misses"] " (" f["counted_every_pair"] ")" }
			END { for (k in s) printf "- %s: %s\n", k, s[k] }' | sort
		icount_table none empty floor ftrace-hist ebpf-counters ebpf-sized \
			mstat-kmalloc-noprofile mstat-default mstat-default-noprofile \
			mstat-default-stream base-kmalloc-noprofile base-default
	} | tee -a "$res"

	section_head "The per-cache table's cost" \
		"the same run as [the pair](#instructions-per-kmallockfree-pair) (make bench; alone: \`scripts/bench.sh icount\`)" \
		"$icount"
	{
		echo
		echo "A kmem_cache_alloc+kmem_cache_free pair of a cache of the bench's own"
		echo "(\`mstat_probe_bench loop=cache\`), with no probe and with mstat's cache"
		echo 'source alone, the profile off, `per_cache=0` and `per_cache=1`,'
		echo 'and with mstat by default.'
		icount_table cache-none mstat-cache-nopercache mstat-cache-percache \
			mstat-cache-default base-cache-percache base-cache-default
	} | tee -a "$res"

	section_head "Stacks and labels: what a sample costs" \
		"the same run as [the pair](#instructions-per-kmallockfree-pair) (make bench; alone: \`scripts/bench.sh icount\`)" \
		"$icount"
	{
		echo
		echo 'Every allocation sampled (`profile_rate=1`), with its call site alone'
		echo '(`profile_depth=1`) or its whole stack (the default depth),'
		echo 'its cgroup, node, cache and time labels; their difference with the'
		echo 'profile off is what one sampled allocation and its sampled free cost.'
		icount_table mstat-kmalloc-noprofile mstat-default-noprofile \
			mstat-default mstat-every-site mstat-every-stack
	} | tee -a "$res"

	section_head "The other sources' pairs" \
		"the same run as [the pair](#instructions-per-kmallockfree-pair) (make bench; alone: \`scripts/bench.sh icount\`)" \
		"$icount"
	{
		echo
		echo 'A vmalloc()+vfree() of a page (`loop=vmalloc`), an'
		echo 'alloc_percpu()+free_percpu() of 8 bytes (`loop=percpu`) and an'
		echo 'alloc_pages()+__free_pages() of one page (`loop=page`), each with no'
		echo 'mstat, with mstat (profile off) and that source off, and on; pages also'
		echo 'by default with `profile_pages=0` and `1`.'
		icount_table vmalloc-none mstat-vmalloc-off mstat-vmalloc \
			percpu-none mstat-percpu-off mstat-percpu page-none \
			mstat-page-off mstat-page mstat-page-profile-off \
			mstat-page-profile
	} | tee -a "$res"
}

bench_slabinfo() {
	need_612
	mstat_build_tools mstat
	scripts/guest.sh --kernel "$K612_VMLINUZ" --script scripts/guest/slabinfo.sh \
		--ko build/6.12/mstat.ko --ko build/6.12/tests/slabinfo/mstat_slabtest.ko \
		--file build/tools/mstat:/mstat/mstat \
		--log "$out/slabinfo.console" >/dev/null
	section_head "/proc/slabinfo against the truth" \
		"\`scripts/guest.sh --kernel $K612_VMLINUZ --script scripts/guest/slabinfo.sh --ko mstat.ko --ko mstat_slabtest.ko --file mstat:/mstat/mstat\` (make bench; alone: \`scripts/bench.sh slabinfo\`)" \
		'qemu TCG, 2 vCPUs, a quiet guest'
	cat >>"$res" <<EOT

One cache, mstat_slabtest (200 B objects; tests/slabinfo/mstat_slabtest.c),
whose live objects the module knows at every step: 20,000 allocated,
10,000 of them freed (every other one), the cache shrunk through
/sys/kernel/slab/mstat_slabtest/shrink, all freed, shrunk again. After
each step: the truth, /proc/slabinfo's active and total objects for the
cache (what slabtop shows), and mstat's live objects in the cache's row.
EOT
	{
		console "$out/slabinfo.console" | grep '^not ok ' || true
		echo
		echo '| step | truth | slabinfo active (off by) | slabinfo total | mstat live (off by) |'
		echo '|---|---|---|---|---|'
		console "$out/slabinfo.console" | grep '^slabinfo:' | sed 's/[a-z_]*=//g' |
			awk '{ printf "| %s | %d | %d (%+d) | %d | %d (%+d) |\n",
				$2, $3, $4, $4 - $3, $5, $6, $6 - $3 }'
	} | tee -a "$res"
}

bench_torn() {
	need_612
	mstat_build_tools mstat-bpf mstat
	scripts/guest.sh --kernel "$K612_VMLINUZ" --script scripts/guest/torn.sh \
		--ko build/6.12/mstat.ko --ko build/6.12/tests/bench/mstat_xload.ko \
		--file build/tools/mstat-bpf:/mstat/mstat-bpf \
		--file build/tools/mstat:/mstat/mstat --smp 3 --tcg multi \
		--timeout 1200 --log "$out/torn.console" >/dev/null
	section_head "Torn reads" \
		"\`scripts/guest.sh --kernel $K612_VMLINUZ --script scripts/guest/torn.sh --ko mstat.ko --ko mstat_xload.ko --file mstat-bpf:/mstat/mstat-bpf --file mstat:/mstat/mstat --smp 3 --tcg multi\` (make bench; alone: \`scripts/bench.sh torn\`)" \
		'qemu TCG, 3 vCPUs on multi-threaded TCG'
	cat >>"$res" <<EOT

eBPF's per-CPU map against /proc/mstat. mstat_xload's two kthreads make
kmalloc/kfree pairs of 8..240 B across CPUs: allocated on CPU 0, passed
through a ring of 16, freed on CPU 1 (tests/bench/mstat_xload.c). A
reader bound to CPU 2 takes the same number of reads of each, and each
read is checked against what the counts at any one moment satisfy. The
eBPF maps are read as userspace reads a per-CPU map, one lookup per
class copying one CPU's value after another (tests/helpers/mstat-bpf.c):
per class below "large", bytes = allocs x size; for the sized set also
bytes_freed = frees x size and frees <= allocs. torn_reads: the reads
that broke one. /proc/mstat's reads are checked by \`mstat check -n\`
(every invariant of a snapshot, within and across reads; violations
must be 0). A second line of the sized set has 50 times as many reads.
The set=sized-slow line is a walk torn on purpose, each CPU's value from
a lookup of its own 200 us after the last: it shows the checks catch a
torn read. Each "mstat_xload: pairs=N" line is the cross-CPU pairs made
during the run whose lines follow it.

EOT
	{
		echo '```'
		console "$out/torn.console" |
			grep -E '^(# reads=|torn:|# torn read|mstat_xload:|bpf: set=|not ok )'
		echo '```'
	} | tee -a "$res"
}

# The scripts of their own: scale.sh, allocinfo.sh, sidebyside.sh and
# kasan-cost.sh print their tables; the heading and header are ours.

bench_scale() {
	section_head "Scale per possible CPU" \
		'`scripts/scale.sh` (make bench; alone: `scripts/bench.sh scale`)' \
		'qemu TCG, one vCPU online under `-icount`: instruction counts'
	cat >>"$res" <<EOT

One vCPU online. On 6.1 the other possible CPUs are empty hotplug slots
(\`--smp 1,maxcpus=P\`); 6.12 counts such slots only under a hypervisor it
knows, which TCG is not, so 6.12 and 7.3 boot P CPUs and take all but
CPU 0 offline (scripts/guest/scale.sh, SCALE_OFFLINE=1). Memory is what
/proc/meminfo's Percpu, VmallocUsed and SUnreclaim grow by at insmod,
module text included. A read is an open-read-close of the file, p50 of
20, after a mixed workload, in instructions; "ipi" and "rcu_expedited"
are /proc/mstat in those sync modes.
EOT
	# The per-CPU free lists' walk, scale.sh's last part, under a
	# heading of its own.
	scripts/scale.sh | awk '
		/^\| online CPUs/ && !h {
			print "### The per-CPU free lists'\'' walk\n"
			print "- made by: the same run'\''s last part, scripts/guest/pcp-cost.sh in 6.12 guests of P vCPUs in N NUMA nodes (`--smp P --numa N --mem 2G --icount on`), mstat_kernel_read()'\''s instructions on the guest clock\n"
			h = 1
		}
		{ print }' | tee -a "$res"
}

bench_allocinfo() {
	section_head "Side by side with /proc/allocinfo" \
		'`scripts/allocinfo.sh` (make bench; alone: `scripts/bench.sh allocinfo`)' \
		'qemu TCG, one vCPU under `-icount`; the byte figures are the guest'\''s own'
	{
		echo
		scripts/allocinfo.sh
	} | tee -a "$res"
}

bench_leaktools() {
	section_head "Leak tools side by side" \
		'`scripts/sidebyside.sh` (make bench; alone: `scripts/bench.sh leaktools`)' \
		"qemu TCG; detection: 2 vCPUs a guest; cost: one vCPU under \`-icount\`"
	{
		echo
		scripts/sidebyside.sh
	} | tee -a "$res"
}

# The long form of make check's guest-6.12-history: 30 minutes of the
# leaks and decoys before the last read, a one-read verdict every 30 s
# before it; at the default rate and at 64 KiB, side by side.
bench_history() {
	local r pids=()

	need_612
	mstat_build_tools mstat leaks
	for r in 524288 65536; do
		scripts/guest.sh --kernel "$K612_VMLINUZ" --script scripts/guest/history.sh \
			--ko build/6.12/mstat.ko --ko build/6.12/tests/leaks/mstat_leaktest.ko \
			--file build/tools/mstat:/mstat/mstat --file build/tools/leaks:/mstat/leaks \
			--mem 2G --timeout 3600 \
			--append "HIST_S=1800 HIST_RATE=$r HIST_EVERY=30" \
			--log "$out/history-$r.console" >/dev/null &
		pids+=($!)
	done
	wait "${pids[@]}" || true
	section_head "The verdict from 30 minutes of history" \
		"\`scripts/guest.sh --kernel $K612_VMLINUZ --script scripts/guest/history.sh --ko mstat.ko --ko mstat_leaktest.ko --file mstat:/mstat/mstat --file leaks:/mstat/leaks --mem 2G --append 'HIST_S=1800 HIST_RATE=R HIST_EVERY=30'\`, R 524288 and 65536, two guests at once (make bench; alone: \`scripts/bench.sh history\`)" \
		'qemu TCG, 2 vCPUs a guest, Debian 6.12'
	cat >>"$res" <<EOT

make check's guest-6.12-history at length: mstat loaded first, the five
leaks (lost 8 KiB/s, list, cgroup, softirq 4 KiB/s, merged 2 KiB/s) and
the twelve decoys running from then; every 30 s one read judged alone
(\`mstat leaks --once --confidence 0.999\`), and the first of them to
name each leak (the time of history a single read needed; beside it,
the watches of the same leaks in "Leak tools side by side"); then the
read at 30 minutes, each leak's rate, interval and samples, and its
verdict scored (./leaks -s: a stack suspect true when it is a leak's).
EOT
	{
		echo
		echo '| profile_rate | leak | truth B/s | first named (s of history) | at 1800 s: B/s [interval], samples |'
		echo '|---|---|---|---|---|'
		for r in 524288 65536; do
			console "$out/history-$r.console" | awk -v r="$r" '
				/^history: rate=[0-9]* leak=[a-z]* named_s=/ {
					split($3, a, "="); split($4, b, "="); named[a[2]] = b[2]
				}
				/^history: rate=[0-9]* leak=[a-z]* truth=/ {
					for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
					tr[f["leak"]] = f["truth"]
					if (f["est"] == "-")
						vd[f["leak"]] = "not named"
					else
						vd[f["leak"]] = sprintf("%.0f [%.0f, %.0f], %s", f["est"], f["low"], f["high"], f["samples"])
				}
				END {
					split("lost list cgroup softirq merged", L, " ")
					for (j = 1; j <= 5; j++)
						printf "| %s | %s | %s | %s | %s |\n", r, L[j],
							(L[j] in tr) ? tr[L[j]] : "?",
							(L[j] in named) ? named[L[j]] : "?",
							(L[j] in vd) ? vd[L[j]] : "not named"
				}'
		done
		echo
		echo '```'
		for r in 524288 65536; do
			console "$out/history-$r.console" |
				grep -E '^(history: rate=[0-9]* score|not ok )' || true
		done
		echo '```'
	} | tee -a "$res"
}

bench_kasan() {
	section_head "KASAN on mstat's code against KASAN everywhere" \
		'`scripts/kasan-cost.sh` (make bench; alone: `scripts/bench.sh kasan`)' \
		"qemu TCG: the times are emulation's, the ratios the figure"
	{
		echo
		scripts/kasan-cost.sh
	} | tee -a "$res"
}

cat >"$res" <<EOT
# mstat benchmark results

Made by \`scripts/bench.sh ${want[*]}\`. Each section replaces the one of
the same name in docs/RESULTS.md.
EOT
for w in "${want[@]}"; do
	"bench_$w"
done
log "results: $res"
