#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every test of mstat, from a fresh Debian machine: installs what it
# lacks, builds, runs the userspace torture, boots guests. One line per
# test ("ok NAME", "not ok NAME: WHY", "skip NAME: WHY"; a sub-suite's
# lines with its name in front), and last the line "N passed, N failed"
# (", N skipped" if any were); exits non-zero if anything failed. The
# emitters and that line are scripts/lib.sh's.
#
#   scripts/check.sh            (make check)
#
# Host work runs first, one thing at a time but the kernel matrix's
# set-up (scripts/matrix.sh), which runs in the background from the start;
# then the x86 guests, GUEST_JOBS (default: the number of CPUs) at a time
# (guest and collect_guests, scripts/lib.sh), and every result is counted
# in a fixed order; then arm64, its builds and guests (scripts/arm64.sh).
# Last, host-untouched: /boot and the kernel packages dpkg has installed
# are as they were at the start (nothing here installs a kernel).
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

# host_state: what make check must not change on the host, kernels
# least of all: /boot, and the kernel packages installed (dpkg knows of).
host_state() {
	ls -la /boot 2>&1
	dpkg-query -W -f='${db:Status-Abbrev} ${Package} ${Version}\n' \
		'linux-image-*' 'linux-headers-*' 2>/dev/null | grep -v '^[up]n ' | sort
}
host_state >"$logs/host-before"

# The end: the host as it was, the time taken, then "N passed, N failed".
end() {
	host_state >"$logs/host-after"
	if diff "$logs/host-before" "$logs/host-after" >"$logs/host.diff"; then
		ok host-untouched
	else
		not_ok "host-untouched: $(grep '^[<>]' "$logs/host.diff" | head -n 5 | tr '\n' ' ')"
		show <"$logs/host.diff"
	fi
	echo "total time $SECONDS s"
	summary
}

## Host work

# 1. Set-up: packages, kernel images and headers, the kernel source.
if ! mstat_setup_env; then
	not_ok "setup, log: $mstat_setup_log"
	end
fi
ok setup
# The arm64 set-up's first run, from no package lists.
t setup-arm64-nolists scripts/setup-test.sh

# 1a. The kernel matrix (scripts/matrix.sh): Debian's kernels from 5.10 to
# 7.x, amd64 and arm64, images and headers extracted, the build roots of
# bullseye, trixie and sid made (cached). In the background, while the
# test kernels build: a cold set-up is mostly debootstrap and downloads.
scripts/matrix.sh >"$logs/matrix.env" 2>"$logs/matrix-setup.log" &
matrix_pid=$!

# 2. Test kernels (cached): KUnit + KASAN + lockdep..., and KCSAN.
kb_debug='' kb_kcsan=''
if kb_debug=$(scripts/testkernel.sh kunit/.kunitconfig 2>"$logs/testkernel-debug.log"); then
	ok testkernel-debug
else
	not_ok "testkernel-debug, log: build/logs/testkernel-debug.log"
	kb_debug=''
fi
if kb_kcsan=$(scripts/testkernel.sh kunit/kcsan.kunitconfig 2>"$logs/testkernel-kcsan.log"); then
	ok testkernel-kcsan
else
	not_ok "testkernel-kcsan, log: build/logs/testkernel-kcsan.log"
	kb_kcsan=''
fi

# 3. W=1 builds, no warnings allowed, against every kernel.
t build-6.1-W1 scripts/build.sh "$K61_KDIR" build/6.1
t build-6.12-W1 scripts/build.sh "$K612_KDIR" build/6.12
t build-6.12rt-W1 scripts/build.sh "$K612RT_KDIR" build/6.12rt
t build-6.12cloud-W1 scripts/build.sh "$K612CLOUD_KDIR" build/6.12cloud
[ -n "$kb_debug" ] && t build-debug-W1 scripts/build.sh "$kb_debug" build/debug
[ -n "$kb_kcsan" ] && t build-kcsan-W1 scripts/build.sh "$kb_kcsan" build/kcsan
# A build that must fail the ground-truth test: it counts both events of
# a large kmalloc the kernel traces twice, ignores bulk frees, never
# uses the slab layout (MSTAT_BROKEN_COUNTS), nor the cache names' offset,
# and does not count alloc_pages_exact()'s split.
t build-6.12-broken env KCFLAGS=-DMSTAT_BROKEN_COUNTS=1 \
	scripts/build.sh "$K612_KDIR" build/6.12-broken
# The same on the debug kernel, for the fault tests: it also leaks on an
# init failure path, reports a failed control write as done, and does not
# count fail_page_alloc's failures.
[ -n "$kb_debug" ] && t build-debug-broken env KCFLAGS=-DMSTAT_BROKEN_COUNTS=1 \
	scripts/build.sh "$kb_debug" build/debug-broken
# The KUnit suites against 6.1's headers, CONFIG_KUNIT forced: every
# compat path of a 6.1 KUnit kernel compiles and links.
t build-6.1-kunit-compat scripts/compat-build.sh "$K61_KDIR" build/6.1-kunit

# 3a. The kernel matrix: each kernel set up, then a W=1 build against it
# in build/ID, in its suite's root (scripts/build.sh --root) with the
# compiler its headers name. 6.1, 6.12, 6.12rt and 6.12cloud are the
# trees built above. A kernel of MATRIX_XFAIL whose build fails is skipped.

# matrix_build ID CMD...: as t build-ID-W1 CMD..., but for MATRIX_XFAIL.
matrix_build() {
	local id=$1 name=build-$1-W1 start=$SECONDS rc=0 first
	shift
	"$@" >"$logs/$name.log" 2>&1 || rc=$?
	first=$(grep -m 1 -E 'error:|warning:|Error [0-9]' "$logs/$name.log")
	if [ "$rc" -eq 0 ]; then
		ok "$name ($((SECONDS - start)) s)"
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
	matrix_build "$id" scripts/build.sh ${r:+--root "$r"} ${a[@]+"${a[@]}"} \
		"$(mstat_km "$id" KDIR)" "build/$id"
done
# A build whose expected prototypes are all wrong (compat/'s
# -DMSTAT_CONFTEST_WRONG), against the newest kernel: it must build, and
# its guest must leave those probes out and survive (7f).
if [ -n "$(mstat_km 7.3 KDIR)" ] && [ -z "$(mstat_km 7.3 ERROR)" ]; then
	r=$(mstat_km 7.3 ROOT)
	matrix_build 7.3-wrongproto env KCFLAGS=-DMSTAT_CONFTEST_WRONG \
		scripts/build.sh ${r:+--root "$r"} "$(mstat_km 7.3 KDIR)" \
		build/7.3-wrongproto
fi

# 3b. The exports' namespaces (scripts/exports-check.sh), in each build
# above that made mstat.ko, arm64's too: the core's exports in
# MSTAT_INTERNAL, mstat.h's API in none, the KUnit internals in
# EXPORTED_FOR_KUNIT_TESTING; every test and KUnit module imports the
# namespaces it uses, no other.
ns_dirs=()
for id in 6.1 6.12 6.12rt ${kb_debug:+debug} ${kb_kcsan:+kcsan} 6.1-kunit \
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

# 4. The core in userspace: torture under TSan and ASan+UBSan, broken core.
make -C tests/userspace check >"$logs/userspace.log" 2>&1
relay "$logs/userspace.log"

# 4b. The reader's ordering argument under the kernel memory model: the
# litmus tests of mstat_core/litmus/ through herd7.
scripts/litmus.sh "$KSRC" >"$logs/litmus.log" 2>&1
relay "$logs/litmus.log"

# 4c. The module's layering as docs/ARCHITECTURE.md states it, and the
# check's own test (a climbing include, an unplaced file, a cycle).
scripts/layers.sh >"$logs/layers.log" 2>&1
relay "$logs/layers.log"
scripts/layers.sh --selftest >"$logs/layers-selftest.log" 2>&1
relay "$logs/layers-selftest.log"

# 5. The checker (which must catch corrupted samples: its test program,
# which mstat does not ship) and guest helpers.
t build-tools mstat_build_tools
t mstat-check-selftest make -s -C tools/mstat selftest
# 5a. The documents and the tool agree (scripts/doc-check.sh): mstat(8),
# generated from `mstat --help` by help2man, has all of it and is clean
# roff, and the README's `mstat` lines use only what --help lists. Then
# its broken mode (an unknown option and command in the README), which
# it must catch.
scripts/doc-check.sh >"$logs/doc-check.log" 2>&1
relay "$logs/doc-check.log"
MSTAT_DOC_BROKEN=1 scripts/doc-check.sh >"$logs/doc-check-broken.log" 2>&1
relay "$logs/doc-check-broken.log" doc-check-broken

# 6. The kernel's own style checks, DKMS builds, the Debian packages, the
# mstat tool (its parsers, promtool, protoc, and a guest of its own).
scripts/lint.sh "$KSRC" "$K612_KDIR" ${kb_debug:+"$kb_debug"} \
	>"$logs/lint.log" 2>&1
relay "$logs/lint.log"
scripts/dkms-test.sh "$K61_KDIR" "$K612_KDIR" >"$logs/dkms.log" 2>&1
relay "$logs/dkms.log"
# The Debian packages: make deb, lintian, apt-get install into a clean
# Debian 12 root (cached) where DKMS builds for 6.1 and 6.12, then purge.
scripts/deb-test.sh "$K61_REL" "$K612_REL" >"$logs/deb.log" 2>&1
relay "$logs/deb.log"
make -C tools/mstat test >"$logs/tools-mstat.log" 2>&1
relay "$logs/tools-mstat.log" tools/mstat

# 6a. The exporter with the real servers (scripts/prom-test.sh): a 6.12
# guest's `mstat prom -o` textfiles, one after another, through Debian's
# prometheus-node-exporter into prometheus, both on 127.0.0.1; PromQL's
# samples and rates against the textfiles. Then the same textfiles with
# one tampered: every value and rate check must catch it.
scripts/prom-test.sh >"$logs/prom-test.log" 2>&1
relay "$logs/prom-test.log"
MSTAT_PROM_TAMPER=1 scripts/prom-test.sh --from build/logs/prom-test \
	>"$logs/prom-test-tampered.log" 2>&1
relay "$logs/prom-test-tampered.log" prom-test-tampered

# 6b. mstat serve with the real clients (scripts/serve-test.sh): a 6.12
# guest under load serves /metrics and the heap profiles as an
# unprivileged user of proc_gid's group, through qemu's forwarded ports;
# Debian's prometheus scrapes it, go tool pprof renders -top, -traces and
# -svg, curl sends bad, slow and many requests. Then, in the same guest
# (one boot for both), its tampered phase: every check again through a
# tampering proxy and against a root server, each of which must fail
# ("ok NAME-tampered (caught: ...)").
scripts/serve-test.sh >"$logs/serve-test.log" 2>&1
relay "$logs/serve-test.log"

## Guests

helpers=()
for tool in mstat runas write1 evpoll; do
	helpers+=("--file=build/tools/$tool:/mstat/$tool")
done

# 7. Stock kernels: smoke test, then the module test (invariants under
# load, bad input, permissions, events, rmmod under load).
for v in 6.1 6.12; do
	vmlinuz=K${v/./}_VMLINUZ
	[ -f "build/$v/mstat.ko" ] || continue
	guest "guest-$v-smoke" "${!vmlinuz}" scripts/guest/smoke.sh \
		"build/$v/mstat.ko"
	guest "guest-$v-module" "${!vmlinuz}" scripts/guest/module.sh \
		"build/$v/mstat.ko" "${helpers[@]}"
	mstat_guests_counts "$v" "${!vmlinuz}"
done

# 7a. The ground-truth test's own test: the broken build must fail it, on
# each pattern whose count it breaks.
if [ -f build/6.12-broken/mstat.ko ]; then
	broken=(kmalloc_large_var kmemdup_large kvmalloc_large cache_kfree
		cache_bulk cache_free_bulk kfree_bulk kfree_rcu memdup_user msg_msg
		bulk_fallback pages_exact)
	guest guest-6.12-truth-broken "$K612_VMLINUZ" scripts/guest/truth.sh \
		build/6.12-broken/mstat.ko \
		build/6.12-broken/tests/truth/mstat_truth.ko \
		--file=build/tools/truth:/mstat/truth \
		"--append=TRUTH_MEMCG=1 TRUTH_ARGS=\"$(printf -- '-x %s ' "${broken[@]}")${broken[*]}\""
	# Its names' offset is off by a word: validation must refuse it, and
	# every row count on, by id, with no name.
	guest guest-6.12-caches-broken "$K612_VMLINUZ" scripts/guest/caches.sh \
		build/6.12-broken/mstat.ko \
		build/6.12-broken/tests/caches/mstat_cachetest.ko \
		--file=build/tools/caches:/mstat/caches \
		--file=build/tools/mstat:/mstat/mstat \
		'--append=CACHES_ARGS="-n -a"'
fi

# 7a'''. How a large kmalloc is traced, learnt at load under an interrupt
# load of large kmallocs on every CPU (tests/irqload/): every load learns
# what a quiet one did, and counts the interrupts' pairs against their
# truth; the broken build, which learns from the interrupts' events too,
# must be caught learning otherwise.
#
# On a CPU without CMPXCHG16B (--cpu=cx16=off): under this load, an
# interrupt every 5 us on each vCPU, qemu 7.2's TCG now and then resumes
# a task right after its "cmpxchg16b %gs:(%rsi)" (SLUB's per-CPU fast
# path) with impossible RFLAGS, reserved bits and TF set: a #DB splat in
# the kernel, user tasks killed by a #GP, a double fault; once while
# mstat was not loaded (docs/TESTING.md, "An emulator's fault"). Without
# the instruction the kernel takes its emulation (this_cpu_cmpxchg16b_emu),
# which the test does not care about.
learn_cpu=--cpu=cx16=off
if [ -f build/6.12/tests/irqload/mstat_irqload.ko ]; then
	guest guest-6.12-learn "$K612_VMLINUZ" scripts/guest/learn.sh \
		build/6.12/mstat.ko build/6.12/tests/irqload/mstat_irqload.ko \
		"$learn_cpu"
fi
if [ -f build/6.12-broken/tests/irqload/mstat_irqload.ko ]; then
	guest guest-6.12-learn-broken "$K612_VMLINUZ" scripts/guest/learn.sh \
		build/6.12-broken/mstat.ko \
		build/6.12-broken/tests/irqload/mstat_irqload.ko \
		--append=LEARN_BROKEN=1 "$learn_cpu"
fi

# 7a''''. alloc_pages_bulk()'s single-page fallback, traced by the page
# allocator, counted once among interrupts that allocate pages and with
# the task moved from CPU to CPU (the truth pattern bulk_fallback, in a
# memory cgroup so that the kernel takes the fallback, preempt=full so
# that the task can move inside a call); the broken build, which watches
# nothing, must fail it (7a).
if [ -f build/6.12/tests/truth/mstat_truth.ko ]; then
	guest guest-6.12-bulk-fallback "$K612_VMLINUZ" scripts/guest/truth.sh \
		build/6.12/mstat.ko build/6.12/tests/truth/mstat_truth.ko \
		--file=build/tools/truth:/mstat/truth \
		'--append=preempt=full TRUTH_MEMCG=1 TRUTH_ARGS="-n 40000 bulk_fallback"'
fi

# 7a''. The heap profile against known call chains (scripts/guest/chains.sh):
# each chain's stack, frame by frame, and its estimated bytes allocated
# and in use within five standard errors of the truth, at the default
# rate, on 6.12 and on the newest kernel of the matrix; then the false
# truth of CHAINS_TAMPER=1, which every such check must catch.
# And its labels (scripts/guest/labels.sh), on the same kernels with two
# NUMA nodes: each (stack, cgroup) and (stack, node) estimate against
# allocations of known cgroups, nodes, softirq and ages, a false truth
# of each kind caught; then the phantom entries (objects freed while the
# kmalloc source is off, a reset, a missed free probe) leave nothing in
# use.
for id in 6.12 7.3; do
	if [ "$id" = 6.12 ]; then
		vmlinuz=$K612_VMLINUZ
	else
		vmlinuz=$(mstat_km "$id" VMLINUZ) || continue
	fi
	if [ -f "build/$id/tests/chains/mstat_chains.ko" ] && [ -f "$vmlinuz" ]; then
		guest "guest-$id-chains" "$vmlinuz" scripts/guest/chains.sh \
			"build/$id/mstat.ko" "build/$id/tests/chains/mstat_chains.ko"
	fi
	if [ -f "build/$id/tests/labels/mstat_labeltest.ko" ] && [ -f "$vmlinuz" ]; then
		guest "guest-$id-labels" "$vmlinuz" scripts/guest/labels.sh \
			"build/$id/mstat.ko" \
			"build/$id/tests/labels/mstat_labeltest.ko" \
			--file=build/tools/labels:/mstat/labels --numa=2
	fi
done
[ -f build/6.12/tests/chains/mstat_chains.ko ] &&
	guest guest-6.12-chains-tamper "$K612_VMLINUZ" scripts/guest/chains.sh \
		build/6.12/mstat.ko build/6.12/tests/chains/mstat_chains.ko \
		--append=CHAINS_TAMPER=1

# 7a'''''. mstat leaks against known leaks among decoys
# (scripts/guest/leaks.sh), on 6.12 and 7.3: a leak-free watch under a
# busy workload that must name nothing, then every leak named with its
# stack, cache, cgroup and rate and no decoy, then the module's false
# truth, whose every lie the judge must catch. Each guest runs two
# watches of 120 s at profile_rate=16384 (docs/TESTING.md).
for id in 6.12 7.3; do
	if [ "$id" = 6.12 ]; then
		vmlinuz=$K612_VMLINUZ
	else
		vmlinuz=$(mstat_km "$id" VMLINUZ) || continue
	fi
	if [ -f "build/$id/tests/leaks/mstat_leaktest.ko" ] && [ -f "$vmlinuz" ]; then
		guest "guest-$id-leaks" "$vmlinuz" scripts/guest/leaks.sh \
			"build/$id/mstat.ko" \
			"build/$id/tests/leaks/mstat_leaktest.ko" \
			--file=build/tools/mstat:/mstat/mstat \
			--file=build/tools/leaks:/mstat/leaks
	fi
done

# 7a'. Every load parameter at its limits, on the stock kernels (and on
# every kernel of the matrix, below): no WARNING on the console.
for v in 6.1 6.12; do
	vmlinuz=K${v/./}_VMLINUZ
	[ -f "build/$v/mstat.ko" ] &&
		guest "guest-$v-params" "${!vmlinuz}" scripts/guest/params.sh \
			"build/$v/mstat.ko"
done

# 7f. The kernel matrix (scripts/matrix.sh) beyond 6.1 and 6.12, amd64:
# the smoke test, the ground truth, the per-cache test, the survival test
# (module loads, vmalloc and kvmalloc under mstat, mstat check on the
# snapshots) and the load parameters' limits. 5.10 has no
# alloc_pages_bulk(). Then the wrong-prototype build on the newest.
for id in ${KM_IDS:-}; do
	case $id in 6.1|6.12|6.12rt|6.12cloud|arm64-*) continue ;; esac
	vmlinuz=$(mstat_km "$id" VMLINUZ)
	if [ ! -f "build/$id/mstat.ko" ] || [ ! -f "$vmlinuz" ]; then
		continue
	fi
	on='alloc_pages_bulk alloc_pages_exact kmem_cache_alloc_bulk kmem_cache_free_bulk'
	# 5.10: no alloc_pages_bulk(); kmem_cache_free() counted at its entry.
	[ "$id" = 5.10 ] &&
		on='alloc_pages_exact kmem_cache_alloc_bulk kmem_cache_free_bulk kmem_cache_free'
	mstat_guests_kernel "$id" "$vmlinuz" "$on"
done
if [ -f build/7.3-wrongproto/mstat.ko ] && [ -f build/7.3/mstat.ko ]; then
	guest guest-7.3-wrongproto "$(mstat_km 7.3 VMLINUZ)" \
		scripts/guest/survive.sh build/7.3-wrongproto/mstat.ko \
		build/7.3/tests/truth/mstat_truth.ko \
		build/7.3/tests/caches/mstat_cachetest.ko \
		--file=build/tools/mstat:/mstat/mstat \
		'--append=SURVIVE_OFF="kmem_cache_alloc_bulk kmem_cache_free_bulk alloc_pages_bulk split_page alloc_pages_exact"'
fi

# 7b. PREEMPT_RT (Debian's stock -rt flavour): the module test, and the
# kernel torture, on four vCPUs.
if [ -f build/6.12rt/mstat.ko ]; then
	guest guest-6.12rt-module "$K612RT_VMLINUZ" scripts/guest/module.sh \
		build/6.12rt/mstat.ko "${helpers[@]}"
	guest guest-6.12rt-truth "$K612RT_VMLINUZ" scripts/guest/truth.sh \
		build/6.12rt/mstat.ko build/6.12rt/tests/truth/mstat_truth.ko \
		--file=build/tools/truth:/mstat/truth
	guest guest-6.12rt-caches "$K612RT_VMLINUZ" scripts/guest/caches.sh \
		build/6.12rt/mstat.ko \
		build/6.12rt/tests/caches/mstat_cachetest.ko \
		--file=build/tools/caches:/mstat/caches \
		--file=build/tools/mstat:/mstat/mstat \
		'--append=CACHES_ARGS="-a"'
	guest guest-6.12rt-torture "$K612RT_VMLINUZ" scripts/guest/torture.sh \
		build/6.12rt/mstat.ko build/6.12rt/tests/torture/mstat_torture.ko \
		--smp=4 --tcg=multi
fi

# 7b'. The slab layout mstat finds at load (mstat_slab.c) and reads on
# every kfree, under the boot options that change the allocator, and in
# Debian's -cloud config of 6.12: the ground truth and the per-cache
# test, every count exact (a layout refused, its log line saying why,
# fails the truth's cache_kfree), each checking that its options took
# effect and every named row's object size against /sys/kernel/slab
# (scripts/guest/lib.sh: mstat_bootopts, mstat_objsize), on a clean
# console (slub_debug's and KFENCE's reports are splats). Options that do
# not conflict share a guest. Under KFENCE a re-created cache's struct
# may come from KFENCE's pool, so that guest does not require its
# address reused (no "-a").
# slab_guests NAME BUILD VMLINUZ CACHES_ARGS [BOOT_OPTIONS]
slab_guests() {
	local b=build/$2
	[ -f "$b/mstat.ko" ] || return 0
	guest "guest-$1-truth" "$3" scripts/guest/truth.sh "$b/mstat.ko" \
		"$b/tests/truth/mstat_truth.ko" \
		--file=build/tools/truth:/mstat/truth ${5:+"--append=$5"}
	guest "guest-$1-caches" "$3" scripts/guest/caches.sh "$b/mstat.ko" \
		"$b/tests/caches/mstat_cachetest.ko" \
		--file=build/tools/caches:/mstat/caches \
		--file=build/tools/mstat:/mstat/mstat \
		"--append=${5:+$5 }CACHES_ARGS=\"$4\""
}
slab_guests 6.12-slub-debug 6.12 "$K612_VMLINUZ" -a slub_debug=FZPU
slab_guests 6.12-slub-nodebug 6.12 "$K612_VMLINUZ" -a slub_debug=-
slab_guests 6.12-slab-opts 6.12 "$K612_VMLINUZ" '' \
	'slab_nomerge init_on_free=1 kfence.sample_interval=1'
slab_guests 6.12cloud 6.12cloud "$K612CLOUD_VMLINUZ" -a

# 7c. An isolated nohz_full CPU: the IPIs a read sends it, per reader
# mode, and each mode's read latency; and the IPIs a reader loop sends it
# in ipi mode, root's, an unprivileged one's under proc_min_interval_ms
# (bounded) and without it (the storm the bound must catch).
if [ -f build/6.12/mstat.ko ]; then
	guest guest-6.12-isolation "$K612_VMLINUZ" scripts/guest/isolation.sh \
		build/6.12/mstat.ko --file=build/tools/readlat:/mstat/readlat \
		--file=build/tools/runas:/mstat/runas \
		--file=build/tools/mstat:/mstat/mstat \
		"--append=isolcpus=1 nohz_full=1"
fi

# 7d. mstat against the allocator's own counts: per kmalloc class, the
# change in live objects against /proc/slabinfo's, under a mixed workload.
if [ -f build/6.12/mstat.ko ]; then
	guest guest-6.12-reconcile "$K612_VMLINUZ" scripts/guest/reconcile.sh \
		build/6.12/mstat.ko --file=build/tools/reconcile:/mstat/reconcile
	# And one cache of known live objects, step by step (make bench
	# reports slabinfo's figures beside it).
	guest guest-6.12-slabinfo "$K612_VMLINUZ" scripts/guest/slabinfo.sh \
		build/6.12/mstat.ko build/6.12/tests/slabinfo/mstat_slabtest.ko \
		--file=build/tools/mstat:/mstat/mstat
fi

# 7e. The eBPF comparison's programs and loader (tests/bpf/, built by
# build-tools), so that they cannot rot: the JIT on; each set loads,
# attaches, counts every pair of a known loop, class by class, and
# detaches leaving no program loaded; the torn-read reader runs under
# cross-CPU load. make bench measures them (scripts/guest/icount-bench.sh,
# scripts/guest/torn.sh).
if [ -f build/6.12/tests/bench/mstat_probe_bench.ko ] &&
   [ -f build/6.12/tests/bench/mstat_xload.ko ] &&
   [ -x build/tools/mstat-bpf ]; then
	guest guest-6.12-bpf "$K612_VMLINUZ" scripts/guest/bpf.sh \
		build/6.12/tests/bench/mstat_probe_bench.ko \
		build/6.12/tests/bench/mstat_xload.ko \
		--file=build/tools/mstat-bpf:/mstat/mstat-bpf --timeout=300
else
	not_ok "guest-6.12-bpf: no mstat-bpf or test modules (build-6.12-W1, build-tools)"
fi

# 8. Fuzzing every control, through debugfs and through its module
# parameter (1.375e5 inputs each way), read-only load-time parameters, and
# load/unload cycles under load, on 6.12; the controls under lockdown
# (raised to integrity at runtime: an unsigned module cannot load once it
# is up), and a guest booted with lockdown=integrity, which must refuse
# the unsigned module.
if [ -f build/6.12/mstat.ko ]; then
	guest guest-6.12-fuzz "$K612_VMLINUZ" scripts/guest/fuzz.sh \
		build/6.12/mstat.ko --file=build/tools/mstat-fuzz:/mstat/mstat-fuzz
	guest guest-6.12-lockdown "$K612_VMLINUZ" scripts/guest/lockdown.sh \
		build/6.12/mstat.ko --file=build/tools/mstat:/mstat/mstat
	guest guest-6.12-lockdown-boot "$K612_VMLINUZ" scripts/guest/lockdown.sh \
		build/6.12/mstat.ko --append=lockdown=integrity
	guest guest-6.12-cycles "$K612_VMLINUZ" scripts/guest/cycles.sh \
		build/6.12/mstat.ko --file=build/tools/mstat:/mstat/mstat
fi

# 9. The debug and KCSAN kernels: KUnit suites (then kmemleak), and the
# kernel torture on four vCPUs; both on multi-threaded TCG, for true
# parallelism (they toggle no tracepoint under load, see guest.sh).
for k in debug kcsan; do
	kb=kb_$k
	if [ -z "${!kb}" ] || [ ! -f "build/$k/mstat.ko" ]; then
		continue
	fi
	guest "guest-$k-kunit" "${!kb}/arch/x86/boot/bzImage" \
		scripts/guest/kunit.sh "build/$k/mstat.ko" \
		"build/$k"/kunit/*_kunit.ko --tcg=multi
	guest "guest-$k-torture" "${!kb}/arch/x86/boot/bzImage" \
		scripts/guest/torture.sh "build/$k/mstat.ko" \
		"build/$k/tests/torture/mstat_torture.ko" --smp=4 --tcg=multi
done

# 9a. The ground-truth test on the debug kernel (KASAN, lockdep,
# kmemleak). kmemleak allocates an object of its own cache beside every
# allocation, and KASAN shadow pages beside every vmalloc. KASAN's
# quarantine holds freed slab objects back and frees them when a later
# allocation drains it: a pattern's own allocations then free the
# earlier patterns' empty slabs, pages of orders 0 to 2 here (CI met 53
# order-2 frees in one kvfree_rcu_large run, none in its idle windows).
# So the cache and page sources' totals and orders 0 to 2 are printed,
# not judged, there; every other row is (kmalloc, its classes, the large
# class, order 4).
if [ -n "$kb_debug" ] && [ -f build/debug/mstat.ko ]; then
	guest guest-debug-truth "$kb_debug/arch/x86/boot/bzImage" \
		scripts/guest/truth.sh build/debug/mstat.ko \
		build/debug/tests/truth/mstat_truth.ko \
		--file=build/tools/truth:/mstat/truth --tcg=multi \
		'--append=TRUTH_ARGS="-r cache -r page -r order:0 -r order:1 -r order:2"'
	# Every row exact here too (kmemleak's own objects are its cache's
	# rows); KASAN's quarantine holds a freed struct kmem_cache back, so
	# the re-created cache's address is not required to be the same.
	guest guest-debug-caches "$kb_debug/arch/x86/boot/bzImage" \
		scripts/guest/caches.sh build/debug/mstat.ko \
		build/debug/tests/caches/mstat_cachetest.ko \
		--file=build/tools/caches:/mstat/caches \
		--file=build/tools/mstat:/mstat/mstat --tcg=multi
fi

# 9b. The KUnit suites' own test, on the debug kernel: mstat_core's cases
# with a reader that does not wait must fail, cleanly.
if [ -n "$kb_debug" ] && [ -f build/debug/mstat.ko ]; then
	guest guest-debug-kunit-busted "$kb_debug/arch/x86/boot/bzImage" \
		scripts/guest/kunit-busted.sh build/debug/mstat.ko \
		build/debug/kunit/mstat_core_kunit.ko --tcg=multi
fi

# 9c. Faults (scripts/guest/faults.sh), on the debug kernel's fault
# injection: every allocation of mstat's init failed in turn, failures
# injected into reads and control writes under load, failures counted
# against the truth, the OOM killer at work; and the broken build, whose
# bug each part must catch.
if [ -n "$kb_debug" ] && [ -f build/debug/mstat.ko ]; then
	faults=(--file=build/tools/faultio:/mstat/faultio
		--file=build/tools/truth:/mstat/truth
		--file=build/tools/mstat:/mstat/mstat --timeout=1500
		--tcg=multi)
	guest guest-debug-faults "$kb_debug/arch/x86/boot/bzImage" \
		scripts/guest/faults.sh build/debug/mstat.ko \
		build/debug/tests/truth/mstat_truth.ko "${faults[@]}" \
		--append=nokaslr
	[ -f build/debug-broken/mstat.ko ] &&
	guest guest-debug-faults-broken "$kb_debug/arch/x86/boot/bzImage" \
		scripts/guest/faults.sh build/debug-broken/mstat.ko \
		build/debug-broken/tests/truth/mstat_truth.ko "${faults[@]}" \
		'--append=nokaslr FAULTS="broken"'
fi

collect_guests

# 10. arm64: mstat cross-built, then its KUnit suites, the torture and
# the module test in qemu-system-aarch64 guests (scripts/arm64.sh).
scripts/arm64.sh >"$logs/arm64.log" 2>&1
relay "$logs/arm64.log"

end
