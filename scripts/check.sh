#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every test of mstat, from a fresh Debian machine: installs what it
# lacks, builds, runs the userspace torture, boots guests. One line per
# test ("ok NAME", "not ok NAME: WHY", "ok NAME # SKIP WHY"; a sub-suite's
# lines with its name in front), and last the line "N passed, N failed"
# (", N skipped" if any were); exits non-zero if anything failed. The
# emitters and that line are scripts/lib.sh's.
#
#   scripts/check.sh            (make check)
#
# The run is a pipeline on the machine's CPUs (docs/TESTING.md says
# where each test runs). After the set-up, two things run in the
# background from the start: the kernel matrix's set-up
# (scripts/matrix.sh: downloads and mmdebstrap) and the test kernel's
# build (x86 debug, with KASAN; at the priority of the rest: what boots
# it is the run's longest chain). Each guest
# is queued as soon as what it boots and loads is built (guest, in
# scripts/lib.sh): one dispatcher runs them, GUEST_SLOTS (default: twice
# the number of CPUs: a guest waits much of its time, and took half a CPU
# on average) at a time, one fewer while host tests run in the
# foreground, the long ones first. Host tests run one at a time in the
# foreground; arm64 (scripts/arm64.sh), whose guests join the same
# queue, in the background from the end of the matrix's builds. Then
# every guest's result is counted in the order queued. Last,
# host-untouched: /boot and the kernel packages dpkg has installed are as
# they were at the start (nothing here installs a kernel), and the time
# of each phase against the budget (MSTAT_BUDGET, 2700 s).
#
# Logs: build/logs/. Test kernels, the matrix's kernels and its build
# roots are cached in $MSTAT_CACHE.
set -uo pipefail

# The kernel matrix's ids (scripts/matrix.sh) whose build is not expected
# to pass yet: a failure of build-ID-W1 is then a "skip", not a "not ok".
MATRIX_XFAIL=""

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP" || exit 1
logs=$MSTAT_TOP/build/logs
MSTAT_LOGS=$logs
rm -rf "$logs"
mkdir -p "$logs"
slots=${GUEST_SLOTS:-$((2 * $(nproc)))}

# host_state: what make check must not change on the host, kernels
# least of all: /boot, and the kernel packages installed (dpkg knows of).
host_state() {
	ls -la /boot 2>&1
	dpkg-query -W -f='${db:Status-Abbrev} ${Package} ${Version}\n' \
		'linux-image-*' 'linux-headers-*' 2>/dev/null | grep -v '^[up]n ' | sort
}
host_state >"$logs/host-before"

## Phases
#
# phase NAME: the foreground's phase NAME begins now (the one before it
# ends); phase_bg NAME START END: a background one's times. The end of
# the run prints them all, with the budget: cold make check on this kind
# of machine (2 CPUs) within 45 minutes, so that a machine twice as slow
# still ends within CI's 90.
budget=${MSTAT_BUDGET:-2700}
phase_name='' phase_start=0 phase_cpu=0
: >"$logs/phases"
phase() {
	local c
	mstat_cpu c
	[ -z "$phase_name" ] ||
		echo "$phase_name $phase_start $SECONDS $(((c - phase_cpu) / 100))" >>"$logs/phases"
	phase_name=$1 phase_start=$SECONDS phase_cpu=$c
	echo "# phase $1 at $SECONDS s"
}

# phases_table: one line a phase, in order of their start; the CPU time
# taken by the guests, the test kernels' builds and the rest, against
# what the CPUs could give over the run; then the total against the
# budget, and, past it, so.
phases_table() {
	local name b e f r w c guests=0 kernels=0 all
	phase end
	[ -z "${tk_pid:-}" ] || wait "$tk_pid" 2>/dev/null
	mstat_cpu all
	for f in "$logs"/*.rc "$logs"/arm64/*.rc; do
		[ -f "$f" ] || continue
		read -r r w c <"$f"
		case ${f##*/} in
		testkernel-*)	kernels=$((kernels + ${c:-0})) ;;
		*)		guests=$((guests + ${c:-0})) ;;
		esac
	done
	all=$((all / 100))
	echo "# phases: start, end and length (s from the start of the run), and"
	echo "# the CPU time of what ended in each (a background job's, the guest"
	echo "# queue's among them, counts where it is reaped; (bg): beside the"
	echo "# others; the guests' and the test kernels' own CPU time below):"
	sort -k2,2n "$logs/phases" | while read -r name b e c; do
		printf '#   %-22s %5d %5d %5d s %6s\n' "$name" "$b" "$e" $((e - b)) \
			"${c:+$c s CPU}"
	done
	echo "# CPU time: $all s in all: guests $guests s, test kernels $kernels s, the rest $((all - guests - kernels)) s; $((all * 100 / (SECONDS * $(nproc) + 1)))% of what $(nproc) CPUs give in $SECONDS s"
	if [ "$SECONDS" -le "$budget" ]; then
		echo "# total $SECONDS s, within the budget of $budget s"
	else
		echo "# total $SECONDS s: OVER the budget of $budget s by $((SECONDS - budget)) s; the phases above say where"
	fi
}

# The end: the host as it was, the phases and the time taken, then "N
# passed, N failed".
end() {
	host_state >"$logs/host-after"
	if diff "$logs/host-before" "$logs/host-after" >"$logs/host.diff"; then
		ok host-untouched
	else
		not_ok "host-untouched: $(grep '^[<>]' "$logs/host.diff" | head -n 5 | tr '\n' ' ')"
		show <"$logs/host.diff"
	fi
	phases_table
	echo "total time $SECONDS s"
	summary
}

## Set-up

# 1. Packages, kernel images and headers, the kernel source.
phase set-up
if ! mstat_setup_env; then
	not_ok "setup, log: $mstat_setup_log"
	end
fi
ok setup

# 1a. The core in userspace: torture under TSan and ASan+UBSan, broken
# core. Alone, before anything else starts: its ten threads wait for
# each other on the machine's CPUs, spinning, so that beside a kernel
# build and a guest it took 480 s where alone it takes 30 s, and 156 s
# beside the matrix's set-up, in a cold run.
phase userspace
make -C tests/userspace check >"$logs/userspace.log" 2>&1
relay "$logs/userspace.log"

# 1b. The kernel matrix (scripts/matrix.sh): Debian's kernels from 5.10 to
# 7.x, amd64 and arm64, images and headers extracted, the build roots of
# bullseye, trixie and sid made (cached). In the background: a cold
# set-up is mostly its build roots (mmdebstrap) and downloads.
( b=$SECONDS
  scripts/matrix.sh >"$logs/matrix.env" 2>"$logs/matrix-setup.log"
  echo "matrix-set-up(bg) $b $SECONDS" >>"$logs/phases" ) &
matrix_pid=$!

# 1c. The test kernel (scripts/testkernel.sh, cached), in the background:
# the x86 debug kernel (KUnit, KASAN, lockdep, kmemleak, fault
# injection). The KCSAN kernels (arm64's, x86's) and arm64 under KASAN
# are make soak's, as each kernel costs 10 to 16 minutes of CPU cold
# and a cold make check has 45 minutes (docs/TESTING.md); arm64 keeps
# Debian's kernels here, the kernel torture among their guests.
# Not at nice 10, as they were: beside the guests the debug kernel then
# took 1996 s (756 s of CPU), and its guests and the arm64 kernel's
# waited for it at the end of a cold run.
# Each leaves build/logs/testkernel-K.rc ("STATUS SECONDS CPU_SECONDS")
# and, built, testkernel-K.dir (its directory); tk_wait K waits for it.
( k=debug b=$SECONDS rc=0 c0=0 c1=0
  mstat_cpu c0
  scripts/testkernel.sh kunit/.kunitconfig >"$logs/testkernel-$k.dir" \
	2>"$logs/testkernel-$k.log" || rc=$?
  mstat_cpu c1
  echo "testkernel-$k(bg) $b $SECONDS" >>"$logs/phases"
  echo "$rc $((SECONDS - b)) $(((c1 - c0) / 100))" >"$logs/testkernel-$k.rc.tmp"
  mv "$logs/testkernel-$k.rc.tmp" "$logs/testkernel-$k.rc"
) &
tk_pid=$!

# tk_done K: wait until test kernel K's build has ended; one whose
# background job is gone without saying so is written as failed.
tk_done() {
	until [ -f "$logs/testkernel-$1.rc" ]; do
		if ! kill -0 "$tk_pid" 2>/dev/null; then
			[ -f "$logs/testkernel-$1.rc" ] ||
				echo "1 0 0" >"$logs/testkernel-$1.rc"
			break
		fi
		mstat_nap 2
	done
}

# tk_wait K: tk_done K; then kb_K is its directory, or empty if its build
# failed ("ok/not ok testkernel-K").
tk_wait() {
	local rc secs cpu var=kb_$1
	tk_done "$1"
	read -r rc secs cpu <"$logs/testkernel-$1.rc"
	if [ "$rc" -eq 0 ] && [ -s "$logs/testkernel-$1.dir" ]; then
		ok "testkernel-$1 ($secs s, $cpu s CPU)"
		printf -v "$var" '%s' "$(cat "$logs/testkernel-$1.dir")"
	else
		not_ok "testkernel-$1, log: build/logs/testkernel-$1.log"
		tail -n 20 "$logs/testkernel-$1.log" | show
		printf -v "$var" '%s' ''
	fi
}
kb_debug=''

# 1d. The arm64 set-up's first run, from no package lists: after the
# userspace torture, beside the test kernel's build (it fetches lists,
# 38 s of a CPU; it had run before the torture, the CPUs half idle).
phase set-up-arm64
t setup-arm64-nolists scripts/setup-test.sh

## The stock kernels: builds, then their guests queued

# 2. W=1 builds, no warnings allowed, against every stock kernel. Every
# test module against 6.12 (and the debug kernel, 6); against another
# kernel, those its guests load (build.sh --tests; the matrix's too, 5:
# they took some 25 s of CPU a kernel in a cold run, 7.3-wrongproto's
# build of mstat.ko alone against 7.3's of everything).
phase builds
t build-6.1-W1 scripts/build.sh --tests "truth caches hold" "$K61_KDIR" build/6.1
t build-6.12-W1 scripts/build.sh "$K612_KDIR" build/6.12
t build-6.12rt-W1 scripts/build.sh --tests "truth caches torture hold" \
	"$K612RT_KDIR" build/6.12rt
t build-6.12cloud-W1 scripts/build.sh --tests "truth caches hold" \
	"$K612CLOUD_KDIR" build/6.12cloud
# A build that must fail the ground-truth test: it counts both events of
# a large kmalloc the kernel traces twice, ignores bulk frees, never
# uses the slab layout (MSTAT_BROKEN_COUNTS), nor the cache names' offset,
# and does not count alloc_pages_exact()'s split.
t build-6.12-broken env KCFLAGS=-DMSTAT_BROKEN_COUNTS=1 \
	scripts/build.sh --tests "truth caches irqload hold owners" "$K612_KDIR" \
	build/6.12-broken
# The KUnit suites against 6.1's headers, CONFIG_KUNIT forced: every
# compat path of a 6.1 KUnit kernel compiles and links.
t build-6.1-kunit-compat scripts/compat-build.sh "$K61_KDIR" build/6.1-kunit
# The checker (which must catch corrupted samples: its test program,
# which mstat does not ship) and guest helpers.
t build-tools mstat_build_tools
t mstat-check-selftest make -s -C tools/mstat selftest

# 3. The guests of the stock kernels, queued: they run while the host
# tests below do.
phase queue-stock
mstat_queue_start
mstat_queue_slots $((slots > 1 ? slots - 1 : 1))

# 3a. The counts against a known truth on the stock kernels (6.1, 6.12,
# 6.12-rt), each one boot of several parts (mstat_guests_counts), first:
# they are the longest.
for v in 6.1 6.12 6.12rt; do
	[ ! -f "build/$v/mstat.ko" ] ||
		mstat_counts_guest "$v" "$(mstat_km "$v" VMLINUZ)"
done

# 3b. The whole-memory account with swap (scripts/guest/swap.sh): a zram
# swap device (Debian's zram.ko and what it needs, from the image
# package), anonymous memory written out in a memory cgroup of 32 MiB
# and read back: the swap cache counted once, the zsmalloc line against
# zram's own count. On 6.12 here, 7.3 in 5a.
swap_guest() {
	local id=$1 rel=$2 vmlinuz=$3 zram=()
	[ -f "build/$id/mstat.ko" ] && [ -n "$rel" ] || return 0
	# All its lines read: under pipefail, "| head -n 1" failed the
	# pipeline whenever the list's next line met the closed pipe
	# (SIGPIPE), with nothing in the log (make check, 2026-12-07).
	mapfile -t zram < <(mstat_guest_zrammods "$rel" 2>>"$logs/zram.log")
	if [ "${#zram[@]}" -eq 0 ]; then
		not_ok "guest-$id-swap: no zram modules for $rel, log: build/logs/zram.log"
		return
	fi
	guest "guest-$id-swap" "$vmlinuz" scripts/guest/swap.sh \
		"build/$id/mstat.ko" "--file=${zram[0]%/*}:/mstat/zram" \
		--file=build/tools/mstat:/mstat/mstat \
		--file=build/tools/swapper:/mstat/swapper
}
swap_guest 6.12 "$K612_REL" "$K612_VMLINUZ"

# 3c. Every other guest of the stock kernels: a guest test's file,
# scripts/guest/X.sh, run as its header's "# Run: check NAME ARG..."
# lines say (mstat_runs, scripts/lib/runs.sh): the smoke and module
# tests, the learning of how a large kmalloc is traced (and its broken
# build), alloc_pages_bulk()'s single-page fallback, the known call
# chains' false truth, the labels and the leaks (whose two watches of
# 120 s mostly wait: --prio=1, first), 6.12-rt's torture, the isolated
# CPU's IPIs, the eBPF comparison's programs, fuzzing every control, a
# boot under lockdown=integrity and load/unload cycles under load; and
# scripts/guest/parts.sh's boots of several tests: guest-6.12-parts, the
# ground truth's own test on the broken build, the slab layouts under
# the allocator's boot options and in the -cloud config.
mstat_runs check 6.12 6.1 6.12rt 6.12cloud

## The kernel matrix: its builds, then its guests queued

# 5. Each kernel of the matrix set up, then a W=1 build against it in
# build/ID, in its suite's root (scripts/build.sh --root) with the
# compiler its headers name. 6.1, 6.12, 6.12rt and 6.12cloud are the
# trees built above. A kernel of MATRIX_XFAIL whose build fails is skipped.
# Before the host tests, so that the matrix's guests are queued early:
# after them, the queue had run dry while the matrix built, one build at
# a time, and the CPUs were 20 to 56% idle for some 400 s of a cold run
# (vmstat beside it).
phase matrix
# matrix_build ID CMD...: as t build-ID-W1 CMD..., but for MATRIX_XFAIL;
# the IDs built are in matrix_built.
matrix_built=''
matrix_build() {
	local id=$1 name=build-$1-W1 start=$SECONDS rc=0 first
	shift
	"$@" >"$logs/$name.log" 2>&1 || rc=$?
	first=$(grep -m 1 -E 'error:|warning:|Error [0-9]' "$logs/$name.log")
	if [ "$rc" -eq 0 ]; then
		ok "$name ($((SECONDS - start)) s)"
		matrix_built+=" $id"
		[[ " $MATRIX_XFAIL " != *" $id "* ]] ||
			echo "# $id builds now: take it out of MATRIX_XFAIL"
	elif [[ " $MATRIX_XFAIL " == *" $id "* ]]; then
		skip "$name" "expected to fail (MATRIX_XFAIL): ${first:-exit $rc}, log: build/logs/$name.log"
	else
		not_ok "$name ($((SECONDS - start)) s, exit $rc), log: build/logs/$name.log: $first"
		tail -n 20 "$logs/$name.log" | show
	fi
}

wait "$matrix_pid"
if ! grep -q '^KM_IDS=' "$logs/matrix.env"; then
	not_ok "matrix-setup, log: build/logs/matrix-setup.log"
	tail -n 20 "$logs/matrix-setup.log" | show
else
	set -a
	# shellcheck source=/dev/null
	. "$logs/matrix.env"
	set +a
fi
for id in ${KM_IDS:-}; do
	err=$(mstat_km "$id" ERROR)
	if [ -n "$err" ]; then
		not_ok "matrix-$id: $err, log: build/logs/matrix-setup.log"
		continue
	fi
	ok "matrix-$id ($(mstat_km "$id" REL), $(mstat_km "$id" VERSION) from $(mstat_km "$id" SUITE), $(mstat_km "$id" GCC))"
	case $id in 6.1|6.12|6.12rt|6.12cloud) continue ;; esac
	a=() r=$(mstat_km "$id" ROOT)
	[ "$(mstat_km "$id" ARCH)" = arm64 ] && a=(--arch arm64)
	# The test modules its guests load (5a, 5b; scripts/arm64.sh).
	case $id in
	7.3)		tests='truth caches chains labels hold owners' ;;
	arm64-6.12)	tests='truth caches torture' ;;
	*)		tests='truth caches hold' ;;
	esac
	matrix_build "$id" scripts/build.sh ${r:+--root "$r"} ${a[@]+"${a[@]}"} \
		--tests "$tests" "$(mstat_km "$id" KDIR)" "build/$id"
done
# A build whose expected prototypes are all wrong (compat/'s
# -DMSTAT_CONFTEST_WRONG), against the newest kernel: it must build, and
# its guest must leave those probes out and survive (5b). mstat.ko
# alone: the guest takes 7.3's test modules.
if [ -n "$(mstat_km 7.3 KDIR)" ] && [ -z "$(mstat_km 7.3 ERROR)" ]; then
	r=$(mstat_km 7.3 ROOT)
	matrix_build 7.3-wrongproto env KCFLAGS=-DMSTAT_CONFTEST_WRONG \
		scripts/build.sh ${r:+--root "$r"} --module \
		"$(mstat_km 7.3 KDIR)" build/7.3-wrongproto
fi

# 5a. The newest kernel's runs (3c: mstat_runs): the labels, the
# account and the known chains (guest-7.3-parts); its swap guest (3b).
vmlinuz=$(mstat_km 7.3 VMLINUZ)
mstat_runs check 7.3
[ -z "$vmlinuz" ] || swap_guest 7.3 "$(mstat_km 7.3 REL)" "$vmlinuz"

# 5b. The kernel matrix (scripts/matrix.sh) beyond 6.1 and 6.12, amd64:
# the ground truth, the per-cache test, the survival test (module loads,
# vmalloc and kvmalloc under mstat, mstat check on the snapshots; it
# stands for the smoke test, which the matrix no longer boots alone) and
# on 5.10 the load parameters' limits, in one boot (mstat_counts_guest);
# not on x86's 7.2, 7.3 and 7.3-rt, whose params guests took 43 and 45 s
# of CPU in a cold run. Then the wrong-prototype build on the newest.
for id in ${KM_IDS:-}; do
	case $id in 6.1|6.12|6.12rt|6.12cloud|arm64-*) continue ;; esac
	vmlinuz=$(mstat_km "$id" VMLINUZ)
	if [ ! -f "build/$id/mstat.ko" ] || [ ! -f "$vmlinuz" ]; then
		continue
	fi
	mstat_counts_guest "$id" "$vmlinuz"
done
# alloc_pages_exact() is not among the probes left out: its sample is
# cut at make_alloc_exact(), whose arguments no header gives, so they are
# checked at load by a call of the module's own (mstat_exact_learn()),
# not by a prototype; its kretprobes, the fallback, are by theirs.
if [ -f build/7.3-wrongproto/mstat.ko ] && [ -f build/7.3/mstat.ko ]; then
	guest guest-7.3-wrongproto "$(mstat_km 7.3 VMLINUZ)" \
		scripts/guest/survive.sh build/7.3-wrongproto/mstat.ko \
		build/7.3/tests/truth/mstat_truth.ko \
		build/7.3/tests/caches/mstat_cachetest.ko \
		--file=build/tools/mstat:/mstat/mstat \
		'--append=SURVIVE_OFF="kmem_cache_alloc_bulk kmem_cache_free_bulk alloc_pages_bulk split_page" SURVIVE_ABSENT="percpu vmalloc"'
fi

# 5c. arm64: mstat cross-built, then the torture, the module test and
# the counts in qemu-system-aarch64 guests of Debian's kernels
# (scripts/arm64.sh; its test kernel, KCSAN's, is make soak's), its
# guests in the same queue as the x86 ones. In the background from
# here, once the matrix has built for arm64, its lines relayed at the
# end (7): run after the host tests and lint, its guests were the run's
# tail, and a CPU stood idle for much of a cold run's last 200 s (vmstat
# beside it). Debian's arm64 6.12 is the matrix's
# arm64-6.12: one build of it.
stock=''
[[ " $matrix_built " != *" arm64-6.12 "* ]] ||
	[ "$(mstat_km arm64-6.12 KDIR)" != "${KA64_KDIR:-}" ] ||
	stock=build/arm64-6.12
( b=$SECONDS
  MSTAT_ARM64_TESTKERNEL=0 MSTAT_ARM64_STOCK=$stock scripts/arm64.sh \
	>"$logs/arm64.log" 2>&1
  echo "arm64(bg) $b $SECONDS" >>"$logs/phases" ) &
arm64_pid=$!

## The test kernel: its builds, then its guests queued

# 6. The test kernel, as soon as its build in the background has ended:
# W=1 builds against it, then its guests. The debug kernel's also the
# broken build, for the fault tests: it also leaks on an init failure
# path, reports a failed control write as done, and does not count
# fail_page_alloc's failures. debug_kernel_poll, between the host tests
# (4), queues them if the kernel is there; debug_kernel_queue, after
# them, waits for it. Before, they waited for the host tests to end:
# in a cold run the kernel was built at 1584 s and its guests queued at
# 2605 s, while the queue ran dry and the CPUs stood 22 to 48% idle
# (vmstat beside it).
debug_queued=''

# lint_start: the kernel's own style checks (6e), in the background from
# the debug build on (sparse reads its directory; nothing is rebuilt).
# In the foreground after the host tests they were the run's tail, 113
# s of a cold run with a CPU idle (vmstat beside it).
lint_pid=''
lint_start() {
	[ -z "$lint_pid" ] || return 0
	scripts/lint.sh "$KSRC" "$K612_KDIR:build/6.12" \
		${kb_debug:+"$kb_debug:build/debug"} >"$logs/lint.log" 2>&1 &
	lint_pid=$!
}

debug_kernel_queue() {
	[ -z "$debug_queued" ] || return 0
	debug_queued=1
	tk_wait debug
	[ -n "$kb_debug" ] || return 0
	t build-debug-W1 scripts/build.sh "$kb_debug" build/debug
	t build-debug-broken env KCFLAGS=-DMSTAT_BROKEN_COUNTS=1 \
		scripts/build.sh "$kb_debug" build/debug-broken
	lint_start
	[ -f build/debug/mstat.ko ] || return 0

	# The debug kernel's guests (mstat_debug_guests, scripts/lib.sh,
	# says why each is as it is): 6a, KUnit (then kmemleak) and the
	# torture; 6b, the ground truth and the per-cache test; 6c, the
	# KUnit suites' own test and KASAN's reports of kasan_probe; 6d,
	# the faults, on the good build and on the broken one.
	mstat_debug_guests guest-debug "$kb_debug/arch/x86/boot/bzImage" \
		build/debug build/debug-broken
}

# debug_kernel_poll: debug_kernel_queue, if the test kernel's build has
# ended.
debug_kernel_poll() {
	[ -n "$debug_queued" ] || [ ! -f "$logs/testkernel-debug.rc" ] ||
		debug_kernel_queue
}

## Host tests, in the foreground, while the stock and matrix guests run

phase host-tests
# The mstat tool's own tests (tools/mstat/test.sh, 4d below), in the
# background from here: its lines where they were, after the packages'
# test (4d). In the foreground they took 306 s of the host tests' 1299
# (a 6.12 guest of their own, the leak watches' reads), while the CPUs
# stood idle at a cold run's end.
make -C tools/mstat test >"$logs/tools-mstat.log" 2>&1 &
tools_pid=$!

# 4. The reader's ordering argument under the kernel memory model: the
# litmus tests of mstat_core/litmus/ through herd7.
LITMUS_PAIRS=4 scripts/litmus.sh "$KSRC" >"$logs/litmus.log" 2>&1
relay "$logs/litmus.log"
debug_kernel_poll

# 4a. The module's layering as docs/ARCHITECTURE.md states it, and the
# check's own test (a climbing include, an unplaced file, a cycle).
scripts/layers.sh >"$logs/layers.log" 2>&1
relay "$logs/layers.log"
scripts/layers.sh --selftest >"$logs/layers-selftest.log" 2>&1
relay "$logs/layers-selftest.log"

# 4a''. make test's names (scripts/test.sh): a line this run prints, a
# part's check, a check's bare name, a tool test, each resolved to the
# file that makes it, every literal check of every guest file among them
# (scripts/test-test.sh; nothing booted).
scripts/test-test.sh >"$logs/test-test.log" 2>&1
relay "$logs/test-test.log"

# 4a'. compat/'s compile tests in batches (compat/conftest.sh) judge as
# they do one at a time, on 6.12's headers with build-6.12-W1's command,
# and a test made to fail is caught (scripts/conftest-test.sh).
if [ -f build/6.12/.mstat_conftest.h.cmd ]; then
	scripts/conftest-test.sh "$K612_KDIR" build/6.12 >"$logs/conftest-test.log" 2>&1
	relay "$logs/conftest-test.log"
else
	not_ok "conftest-batch-same: no build-6.12-W1 to take the command of"
fi

# 4b. The guest queue itself (scripts/queue-test.sh, with a stand-in
# for guest.sh): slots kept, priorities, collection in order; and a
# dispatcher that ignores its slots, which it must catch.
scripts/queue-test.sh >"$logs/queue-test.log" 2>&1
relay "$logs/queue-test.log"
scripts/queue-test.sh --broken >"$logs/queue-test-broken.log" 2>&1
relay "$logs/queue-test-broken.log"

# 4b''. The console check itself (scripts/console-check-test.sh): the
# reports it must fail on, and those it lets through, each alone and
# with a splat after them.
scripts/console-check-test.sh >"$logs/console-check-test.log" 2>&1
relay "$logs/console-check-test.log"

# 4b'. The boot watchdog's test (scripts/watchdog-test.sh) runs in make
# soak, five boots, until a cold make check's one failure is understood.

# 4c. The documents and the tool agree (scripts/doc-check.sh): mstat(8),
# generated from `mstat --help` by help2man, has all of it and is clean
# roff, and the README's `mstat` lines use only what --help lists. Then
# its broken mode (an unknown option and command in the README), which
# it must catch.
scripts/doc-check.sh >"$logs/doc-check.log" 2>&1
relay "$logs/doc-check.log"
MSTAT_DOC_BROKEN=1 scripts/doc-check.sh >"$logs/doc-check-broken.log" 2>&1
relay "$logs/doc-check-broken.log" doc-check-broken

# 4d. make install, the Debian packages, the mstat tool (its parsers,
# promtool, protoc, and a guest of its own). The kernel's own style
# checks need the debug kernel: after it (6e). make install against
# 6.12's headers; not DKMS on this host as well (make soak: against one
# kernel, scripts/dkms-test.sh took 57 s, 66 s of CPU, by hand on a
# 2-CPU machine, half of it DKMS's build): the package's test
# below has DKMS build the package for 6.1 and 6.12, and checks each
# build as dkms-test.sh did.
scripts/dkms-test.sh --install-only "$K612_KDIR" >"$logs/dkms.log" 2>&1
relay "$logs/dkms.log"
debug_kernel_poll
# The Debian packages: make deb, lintian, apt-get install into a clean
# Debian 12 root (cached) where DKMS builds for 6.1 and 6.12, then purge.
scripts/deb-test.sh "$K61_REL" "$K612_REL" >"$logs/deb.log" 2>&1
relay "$logs/deb.log"
debug_kernel_poll
wait "$tools_pid"
relay "$logs/tools-mstat.log" tools/mstat
debug_kernel_poll

# 4e. The exporter with the real servers (scripts/prom-test.sh): a 6.12
# guest's `mstat prom -o` textfiles, one after another, through Debian's
# prometheus-node-exporter into prometheus, both on 127.0.0.1; PromQL's
# samples and rates against the textfiles. Then the same textfiles with
# one tampered: every value and rate check must catch it.
scripts/prom-test.sh >"$logs/prom-test.log" 2>&1
relay "$logs/prom-test.log"
MSTAT_PROM_TAMPER=1 scripts/prom-test.sh --from build/logs/prom-test \
	>"$logs/prom-test-tampered.log" 2>&1
relay "$logs/prom-test-tampered.log" prom-test-tampered
debug_kernel_poll

# 4f. mstat serve with the real clients (scripts/serve-test.sh): a 6.12
# guest under load serves /metrics and the heap profiles as an
# unprivileged user of proc_gid's group, through qemu's forwarded ports;
# Debian's prometheus scrapes it, go tool pprof renders -top, -traces and
# -svg, curl sends bad, slow and many requests. Then, in the same guest
# (one boot for both), its tampered phase: every check again through a
# tampering proxy and against a root server, each of which must fail
# ("ok NAME-tampered (caught: ...)").
scripts/serve-test.sh >"$logs/serve-test.log" 2>&1
relay "$logs/serve-test.log"

# All the queue's slots from here: the foreground's work is lighter.
mstat_queue_slots "$slots"

## The test kernel's guests, if not yet queued; the style checks

phase test-kernels
debug_kernel_queue

# 6e. The kernel's own style checks: checkpatch, sparse (C=2) against
# 6.12 and the debug kernel (in build-6.12-W1's and build-debug-W1's
# directories: sparse alone, no second build), kernel-doc.
phase lint
lint_start
wait "$lint_pid"
relay "$logs/lint.log"

# 6f. The exports' namespaces (scripts/exports-check.sh), in each build
# above that made mstat.ko, arm64's too: the core's exports in
# MSTAT_INTERNAL, mstat.h's API in none, the KUnit internals in
# EXPORTED_FOR_KUNIT_TESTING; every test and KUnit module imports the
# namespaces it uses, no other.
phase exports
ns_dirs=()
for id in 6.1 6.12 6.12rt ${kb_debug:+debug} 6.1-kunit \
	${KM_IDS:-}; do
	case " ${ns_dirs[*]} " in *" build/$id "*) continue ;; esac
	[ ! -f "build/$id/mstat.ko" ] || ns_dirs+=("build/$id")
done
if [ ${#ns_dirs[@]} -eq 0 ]; then
	not_ok "exports: no build with mstat.ko"
else
	scripts/exports-check.sh "${ns_dirs[@]}" >"$logs/exports.log" 2>&1
	relay "$logs/exports.log"
fi

# 7. arm64 (started in 5c): its lines.
phase arm64
wait "$arm64_pid"
relay "$logs/arm64.log"

phase guests
collect_guests

end
