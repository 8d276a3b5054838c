#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: every benchmark of mstat, figures into build/bench/RESULTS.md
# with the command that made each, the machine and the date. Guest figures
# come from qemu under TCG (software emulation) and say so.
#
#   scripts/bench.sh
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP"
out=build/bench
mkdir -p "$out"
res=$out/RESULTS.md
mstat_setup_env || die "set-up failed; log: $mstat_setup_log"
make -s -C tests/userspace build/bench >/dev/null
bench=tests/userspace/build/bench

# run CMD...: record the command and its output in the results file.
run() {
	{
		echo
		echo '```'
		echo "\$ $*"
		"$@" 2>&1
		echo '```'
	} | tee -a "$res"
}

cat >"$res" <<EOT
# mstat benchmark results

- date: $(date -u '+%Y-%m-%d %H:%M UTC')
- machine: $(nproc) CPUs, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1), $(free -g | awk '/^Mem:/ {print $2}') GiB; host kernel $(uname -r)
- made by: \`make bench\` (scripts/bench.sh) at commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)

## 1. Writer, userspace build of the core (host CPUs, not emulated)

ns per allocation event (8 counters), median and p99 over batches of 1000
events; see tests/userspace/core_bench.c for each variant.
EOT
for t in 1 2 4; do
	run "$bench" --threads "$t" --iters 4000000
done
echo -e "\nWith a reader taking snapshots at 1 kHz, and spinning:" >>"$res"
run "$bench" --threads 2 --iters 4000000 --only mstat --reader-hz 1000
run "$bench" --threads 2 --iters 4000000 --only mstat --reader-hz -1

cat >>"$res" <<EOT

Instructions per event, valgrind --tool=callgrind (inclusive Ir of the
event function / events; 1 thread, 200000 events; repeatable):

\`\`\`
EOT
for v in floor atomic seqcount irqoff golit mstat; do
	valgrind --tool=callgrind --callgrind-out-file="$out/cg.$v" \
		"$bench" --threads 1 --iters 200000 --only "$v" >/dev/null 2>&1
	# The first (largest) inclusive count of the event function.
	ir=$(callgrind_annotate --inclusive=yes "$out/cg.$v" 2>/dev/null |
	     awk -v f=":event_$v" 'index($0, f) && !n++ {gsub(",", "", $1); print $1}')
	printf '%-9s %s instructions/event\n' "$v" \
		"$(awk -v i="${ir:-0}" 'BEGIN {printf "%.1f", i / 200000}')" |
		tee -a "$res"
done
echo '```' >>"$res"

cat >>"$res" <<EOT

## 2. Reader, userspace: snapshot latency (us), 1 to 64 simulated CPUs

Idle, and with two writers spinning on two of the CPUs, in IPI mode: the
reader's barrier is membarrier(2), the userspace analogue of the kernel's
IPI. The RCU modes' latency is a grace period's, measured in section 5.
EOT
for c in 1 4 16 64; do
	run "$bench" --reader-lat "$c"
done

cat >>"$res" <<EOT

## 3. In the guest: kmalloc/kfree probe cost (TCG emulation: not hardware timings)

Stock Debian $K612_REL kernel in qemu TCG, 2 vCPUs. 200,000 kmalloc/kfree
pairs of 8..240 B per variant, three interleaved runs, ns per pair.
EOT
scripts/build.sh "$K612_KDIR" build/6.12 >/dev/null
scripts/guest.sh --kernel "$K612_VMLINUZ" --script scripts/guest/probe-bench.sh \
	--ko build/6.12/mstat.ko --ko build/6.12/tests/bench/mstat_probe_bench.ko \
	--log "$out/probe-bench.console" >/dev/null
{
	echo
	echo '```'
	echo "\$ scripts/guest.sh --kernel $K612_VMLINUZ --script scripts/guest/probe-bench.sh --ko mstat.ko --ko mstat_probe_bench.ko"
	tr -d '\r' <"$out/probe-bench.console" | grep '^bench:'
	echo '```'
	echo
	echo 'Median per variant (ns per pair) and ratio to the empty probe:'
	echo
	echo '```'
	tr -d '\r' <"$out/probe-bench.console" | grep '^bench:' |
		sed 's/.*variant=\([^ ]*\) ns_per_pair=\([0-9]*\)/\1 \2/' |
		sort -k1,1 -k2,2n | awk '
		{ v[$1] = v[$1] " " $2; n[$1]++ }
		END {
			for (k in v) { split(substr(v[k], 2), a, " "); med[k] = a[int((n[k] + 1) / 2)] }
			for (k in med) printf "%-24s %6d ns  x%.2f of empty\n", k, med[k], med[k] / med["empty"]
		}' | sort -k2,2n
	echo '```'
} | tee -a "$res"
cat >>"$res" <<EOT

## 4. In the guest: a macro workload and a read (TCG emulation)

A fork/exec- and allocation-heavy shell workload (300 x fork+exec of
/bin/true and ls /sys/kernel, then ls -R /sys) without and with mstat
(all sources, profile at its default rate), three interleaved runs; then
200 reads of /proc/mstat next to 200 of /proc/vmstat.
EOT
scripts/guest.sh --kernel "$K612_VMLINUZ" --script scripts/guest/macro-bench.sh \
	--ko build/6.12/mstat.ko --log "$out/macro-bench.console" >/dev/null
{
	echo
	echo '```'
	echo "\$ scripts/guest.sh --kernel $K612_VMLINUZ --script scripts/guest/macro-bench.sh --ko mstat.ko"
	tr -d '\r' <"$out/macro-bench.console" | grep -E '^(macro|read):'
	echo '```'
} | tee -a "$res"
cat >>"$res" <<EOT

## 5. In the guest: the reader modes on an isolated CPU (TCG emulation)

Stock $K612_REL kernel, 2 vCPUs, booted with isolcpus=1 nohz_full=1
(scripts/guest/isolation.sh, also run by make check with 200 reads). Per
mode, 1000 reads of /proc/mstat from CPU 0 (readlat: open, read, close; latency in
us), then an idle window as long: the function-call interrupts (CAL row
of /proc/interrupts) idle CPU 1 took during the reads (cpu1_cal) and
during the idle window (idle_cal).
EOT
mstat_build_tools readlat runas mstat
scripts/guest.sh --kernel "$K612_VMLINUZ" --script scripts/guest/isolation.sh \
	--ko build/6.12/mstat.ko --file build/tools/readlat:/mstat/readlat \
	--file build/tools/runas:/mstat/runas --file build/tools/mstat:/mstat/mstat \
	--append "isolcpus=1 nohz_full=1 ISOLATION_READS=1000" \
	--log "$out/isolation.console" >/dev/null
{
	echo
	echo '```'
	echo "\$ scripts/guest.sh --kernel $K612_VMLINUZ --script scripts/guest/isolation.sh --ko mstat.ko --file readlat:/mstat/readlat --file runas:/mstat/runas --file mstat:/mstat/mstat --append \"isolcpus=1 nohz_full=1 ISOLATION_READS=1000\""
	tr -d '\r' <"$out/isolation.console" |
		grep -E '^(# mode=|# isolated|# .*NO_HZ|ok |not ok )'
	echo '```'
} | tee -a "$res"
cat >>"$res" <<EOT

## 6. In the guest: instructions per kmalloc+kfree pair (TCG, -icount)

Stock $K612_REL kernel, one vCPU, qemu -icount shift=0,sleep=off: the
guest clock advances one nanosecond per instruction, so these are
instruction counts, repeatable to the instruction (icount cannot see what
an instruction costs, a fence or a cache miss: section 1 measures those on
real CPUs). 200,000 pairs of 8..240 B per variant; a warm-up round
discarded, then three rounds. See scripts/guest/icount-bench.sh for the
variants and tests/bench/mstat_probe_bench.c for the floor.
EOT
# MSTAT_BENCH_BASE=REF: mstat as of git REF too, as a baseline in the
# same rounds (variants base-*).
base=()
if [ -n "${MSTAT_BENCH_BASE:-}" ]; then
	mstat_build_base "$MSTAT_BENCH_BASE" "$K612_KDIR" "$out/base" ||
		die "cannot build MSTAT_BENCH_BASE=$MSTAT_BENCH_BASE"
	cp "$out/base/mstat.ko" "$out/mstat_base.ko"
	base=(--ko "$out/mstat_base.ko")
	echo "Baseline (variants base-*): mstat at $(git rev-parse --short "$MSTAT_BENCH_BASE")." >>"$res"
fi
# The eBPF variants' loader, its programs built in (tests/bpf/).
mstat_build_tools mstat-bpf
scripts/guest.sh --kernel "$K612_VMLINUZ" --script scripts/guest/icount-bench.sh \
	--ko build/6.12/mstat.ko --ko build/6.12/tests/bench/mstat_probe_bench.ko \
	${base[@]+"${base[@]}"} --file build/tools/mstat-bpf:/mstat/mstat-bpf \
	--smp 1 --icount on --log "$out/icount-bench.console" >/dev/null
{
	echo
	echo '```'
	echo "\$ scripts/guest.sh --kernel $K612_VMLINUZ --script scripts/guest/icount-bench.sh --ko mstat.ko --ko mstat_probe_bench.ko --file mstat-bpf:/mstat/mstat-bpf --smp 1 --icount on"
	tr -d '\r' <"$out/icount-bench.console" | grep '^icount:'
	echo '```'
	echo
	echo 'The eBPF variants (tests/bpf/, loaded by mstat-bpf): the JIT on (jit=1),'
	echo 'and what their programs counted of each run of the loop, all of it'
	echo '(counted_every_pair=yes: allocs and frees at least its pairs; the'
	echo "guest's background events come on top); recursion_misses: events the"
	echo 'kernel skipped because the program was already running on that CPU.'
	echo
	echo '```'
	tr -d '\r' <"$out/icount-bench.console" | grep '^ebpf:'
	echo '```'
	echo
	echo 'Median per variant, and against the floor and the empty probes:'
	echo
	echo '| variant | instructions per pair | / floor | added over empty probes |'
	echo '|---|---|---|---|'
	tr -d '\r' <"$out/icount-bench.console" | grep '^icount:' |
		sed 's/.*variant=\([^ ]*\) insns_per_pair=\([0-9]*\)/\1 \2/' |
		awk '
		{ if (!($1 in n)) order[++k] = $1; v[$1, ++n[$1]] = $2 }
		END {
			for (i = 1; i <= k; i++) {
				name = order[i]
				# median of n values, sorted by insertion
				m = n[name]
				for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++)
					if (v[name, b] < v[name, a]) { t = v[name, a]; v[name, a] = v[name, b]; v[name, b] = t }
				med[name] = v[name, int((m + 1) / 2)]
			}
			for (i = 1; i <= k; i++) {
				name = order[i]
				printf "| %s | %d | %.2fx | %+d |\n", name, med[name],
					med[name] / med["floor"], med[name] - med["empty"]
			}
			if (med["mstat-cache-nopercache"])
				printf "\nkmem_cache_alloc+kmem_cache_free pair: no probe %d, mstat (cache source alone) per-cache off %d, on %d: on/off %.3fx\n",
					med["cache-none"], med["mstat-cache-nopercache"],
					med["mstat-cache-percache"],
					med["mstat-cache-percache"] / med["mstat-cache-nopercache"]
			# The heap profile: one sampled allocation with
			# its whole stack, and the profile amortized at the
			# default rate over these pairs.
			if (med["mstat-every-stack"] && med["mstat-default-noprofile"])
				printf "\nheap profile: one sampled allocation and its free, with the stack: +%d instructions over an unsampled pair (the call site alone: +%d; the unwinding: %d); amortized at the default rate: +%d a pair (default %d, profile off %d)\n",
					med["mstat-every-stack"] - med["mstat-default-noprofile"],
					med["mstat-every-site"] - med["mstat-default-noprofile"],
					med["mstat-every-stack"] - med["mstat-every-site"],
					med["mstat-default"] - med["mstat-default-noprofile"],
					med["mstat-default"], med["mstat-default-noprofile"]
		}'
} | tee -a "$res"

cat >>"$res" <<EOT

## 7. /proc/slabinfo against the truth (TCG emulation, quiet guest)

Stock $K612_REL kernel, 2 vCPUs, nothing else running. One cache,
mstat_slabtest (200 B objects; tests/slabinfo/mstat_slabtest.c), whose
live objects the module knows at every step: 20,000 allocated, 10,000 of
them freed (every other one), the cache shrunk through
/sys/kernel/slab/mstat_slabtest/shrink, all freed, shrunk again. After
each step: the truth, /proc/slabinfo's active and total objects for the
cache (what slabtop shows), and mstat's live objects in the cache's row
(scripts/guest/slabinfo.sh checks that one against the truth).
EOT
mstat_build_tools mstat
scripts/guest.sh --kernel "$K612_VMLINUZ" --script scripts/guest/slabinfo.sh \
	--ko build/6.12/mstat.ko --ko build/6.12/tests/slabinfo/mstat_slabtest.ko \
	--file build/tools/mstat:/mstat/mstat \
	--log "$out/slabinfo.console" >/dev/null
{
	echo
	echo '```'
	echo "\$ scripts/guest.sh --kernel $K612_VMLINUZ --script scripts/guest/slabinfo.sh --ko mstat.ko --ko mstat_slabtest.ko --file mstat:/mstat/mstat"
	tr -d '\r' <"$out/slabinfo.console" | grep -E '^(slabinfo:|not ok )'
	echo '```'
	echo
	echo '| step | truth | slabinfo active (off by) | slabinfo total | mstat live (off by) |'
	echo '|---|---|---|---|---|'
	tr -d '\r' <"$out/slabinfo.console" | grep '^slabinfo:' | sed 's/[a-z_]*=//g' |
		awk '{ printf "| %s | %d | %d (%+d) | %d | %d (%+d) |\n",
			$2, $3, $4, $4 - $3, $5, $6, $6 - $3 }'
} | tee -a "$res"
cat >>"$res" <<EOT

## 8. Torn reads: eBPF's per-CPU map against /proc/mstat (TCG emulation)

Stock $K612_REL kernel, 3 vCPUs on multi-threaded TCG. mstat_xload's two
kthreads make kmalloc/kfree pairs of 8..240 B across CPUs: allocated on
CPU 0, passed through a ring of 16, freed on CPU 1
(tests/bench/mstat_xload.c). A reader bound to
CPU 2 takes the same number of reads of each, and each read is checked
against what the counts at any one moment satisfy. The eBPF maps are read
as userspace reads a per-CPU map, one lookup per class copying one CPU's
value after another (tests/helpers/mstat-bpf.c): per class below
"large", bytes = allocs x size; for the sized set also bytes_freed =
frees x size and frees <= allocs (it counts a free only after recording
its allocation). torn_reads: the reads that broke one. /proc/mstat's
reads are checked by \`mstat check -n\` (every invariant of a snapshot,
within and across reads; violations must be 0). A second line of the
sized set has 50 times as many reads. The set=sized-slow line
is a walk torn on purpose, each CPU's value from a lookup of its own
200 us after the last: it shows the checks catch a torn read. Each
"mstat_xload: pairs=N" line is the cross-CPU pairs made during the run
whose lines follow it (the reader's own and the guest's events besides).
EOT
scripts/guest.sh --kernel "$K612_VMLINUZ" --script scripts/guest/torn.sh \
	--ko build/6.12/mstat.ko --ko build/6.12/tests/bench/mstat_xload.ko \
	--file build/tools/mstat-bpf:/mstat/mstat-bpf \
	--file build/tools/mstat:/mstat/mstat --smp 3 --tcg multi \
	--timeout 1200 --log "$out/torn.console" >/dev/null
{
	echo
	echo '```'
	echo "\$ scripts/guest.sh --kernel $K612_VMLINUZ --script scripts/guest/torn.sh --ko mstat.ko --ko mstat_xload.ko --file mstat-bpf:/mstat/mstat-bpf --file mstat:/mstat/mstat --smp 3 --tcg multi"
	tr -d '\r' <"$out/torn.console" |
		grep -E '^(# reads=|torn:|# torn read|mstat_xload:|bpf: set=|not ok )'
	echo '```'
} | tee -a "$res"
cat >>"$res" <<EOT

## 9. Scale: memory and read cost per possible CPU (TCG, -icount)

One vCPU online, the rest of the possible CPUs empty hotplug slots (6.1)
or booted and taken offline (6.12); memory is what /proc/meminfo's
Percpu, VmallocUsed and SUnreclaim grow by at insmod, module text
included; a read is an open-read-close (instructions: the guest clock
under -icount), p50 of 20, after a mixed workload, beside
/proc/slabinfo's and /proc/vmstat's in the same guest; the fit is least
squares over the possible CPUs (scripts/scale.sh,
scripts/guest/scale.sh; MSTAT_BENCH_BASE=REF adds the baseline).
EOT
{
	echo
	echo "\$ scripts/scale.sh"
	echo
	scripts/scale.sh
} | tee -a "$res"
cat >>"$res" <<EOT

## 10. Side by side with /proc/allocinfo (TCG, -icount)

A 6.12 test kernel with CONFIG_MEM_ALLOC_PROFILING=y
(kunit/allocinfo.kunitconfig; built by scripts/testkernel.sh on the
first make bench, then cached by its config), one vCPU under -icount:
instructions per kmalloc+kfree pair with allocinfo on, off and with
mstat, and the top functions by allocinfo's live bytes against mstat's
estimates at the same functions after the mixed workload
(scripts/allocinfo.sh, scripts/guest/allocinfo.sh).
EOT
{
	echo
	echo "\$ scripts/allocinfo.sh"
	echo
	scripts/allocinfo.sh
} | tee -a "$res"
cat >>"$res" <<EOT

## 11. Leak tools side by side: kmemleak, memleak, mstat leaks (TCG)

The leak test's five leaks (one a list that only grows, referenced) and
four decoys under its busy workload, watched by \`mstat leaks\` beside
libbpf-tools' memleak (Debian 6.12), kmemleak with forced scans and
kmemleak as booted (a test kernel of kunit/kmemleak.kunitconfig): the
time to name each leak, what each named that is not a leak; then what
each costs under -icount, per kmalloc+kfree pair and on hackbench,
iperf3 over loopback and a file tree, with /proc/allocinfo's kernel
beside (scripts/sidebyside.sh, scripts/guest/sidebyside.sh,
scripts/guest/cost.sh).
EOT
{
	echo
	echo "\$ scripts/sidebyside.sh"
	echo
	scripts/sidebyside.sh
} | tee -a "$res"
cat >>"$res" <<EOT

## 12. The debug kernel: KASAN on mstat's code against KASAN everywhere (TCG)

make check's x86 debug kernel instruments mstat's modules and the
kernel files that take their buffers (kunit/.kunitconfig's "#make
x86_64" lines), not the rest of the kernel: what that saves, its build
and its guests, against the same fragment with KASAN on every object,
and the verdicts of the same checks on both (scripts/kasan-cost.sh).
EOT
{
	echo
	echo "\$ scripts/kasan-cost.sh"
	echo
	scripts/kasan-cost.sh
} | tee -a "$res"
log "results: $res"
