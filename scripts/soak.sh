#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make soak: the test kernels make check does not boot. make check keeps
# x86's debug kernel (KASAN, lockdep, kmemleak, fault injection:
# kunit/.kunitconfig), and Debian's kernels on arm64. Here:
#   soak-arm64-kcsan-*  the arm64 test kernel (kunit/arm64.kunitconfig:
#                       KCSAN strict, weak memory): a W=1 build, the
#                       KUnit suites, the torture (single-threaded TCG),
#                       mstat_core's suite with a reader that does not
#                       wait (its hunters must fail); make check's
#                       arm64-debug-* until its cold run had to fit in
#                       45 minutes
#   soak-kcsan-*        the x86 KCSAN kernel (kunit/kcsan.kunitconfig): a
#                       W=1 build, the KUnit suites, the kernel torture on
#                       4 vCPUs (multi-threaded TCG)
#   soak-arm64-kasan-*  the arm64 debug kernel of kunit/.kunitconfig
#                       (KASAN): a W=1 build, the KUnit suites, the
#                       torture (single-threaded TCG, as scripts/arm64.sh)
# Both were in make check until its cold run had to fit in 45 minutes;
# each test kernel takes 12 to 16 minutes of CPU to build cold here
# (make check's testkernel-debug line gives its CPU time). And the long forms
# of what make check runs shortened, for the same reason:
#   litmus/*             every test of the IPI-meets-interrupt families
#                        (make check: the interrupt at point 4 only)
#   soak-6.12-fuzz       137,500 inputs each way (make check: 22,000)
#   soak-6.12-cycles     50 load/unload cycles (make check: 10)
#   soak-7.3-leaks       the leak guest on 7.3 (make check: on 6.12)
#   soak-debug-faults-broken-full  the broken build's fault guest with
#                        the parts that have nothing of it to catch
#   soak: dkms-*         DKMS on this host against 6.12's unpacked
#                        headers (make check: make install alone)
#   soak: guest-boot-watchdog-N  the boot watchdog, five boots (make
#                        check: none, scripts/watchdog-test.sh says why)
# Lines as make check's, then "N passed, N failed". Guests are
# TCG-emulated.
#
#   scripts/soak.sh
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP" || exit 1
MSTAT_LOGS=$MSTAT_TOP/build/logs/soak
logs=$MSTAT_LOGS
rm -rf "$logs"
mkdir -p "$logs"

if ! mstat_setup_env; then
	not_ok "soak-setup, log: $mstat_setup_log"
	finish
fi
t build-tools mstat_build_tools
mstat_queue_start

# kernel ID ARGS...: test kernel ID (scripts/testkernel.sh ARGS); its
# directory in kb, empty if the build failed.
kernel() {
	local id=$1 start=$SECONDS
	shift
	if kb=$(scripts/testkernel.sh "$@" 2>"$logs/testkernel-$id.log"); then
		ok "soak-testkernel-$id ($((SECONDS - start)) s)"
	else
		not_ok "soak-testkernel-$id, log: build/logs/soak/testkernel-$id.log"
		kb=''
	fi
}

kernel arm64-kcsan --arch arm64 kunit/arm64.kunitconfig
if [ -n "$kb" ] &&
   t soak-arm64-kcsan-build-W1 scripts/build.sh --arch arm64 "$kb" \
	build/soak-arm64-kcsan; then
	img=$kb/arch/arm64/boot/Image.gz
	d=build/soak-arm64-kcsan
	mstat_suite_guests soak-arm64-kcsan "$img" "$d" --arch=arm64
	guest soak-arm64-kcsan-kunit-busted "$img" scripts/guest/kunit-busted.sh \
		"$d/mstat.ko" "$d/kunit/mstat_core_kunit.ko" \
		--arch=arm64 --tcg=multi --timeout=300
fi

kernel kcsan kunit/kcsan.kunitconfig
if [ -n "$kb" ] &&
   t soak-kcsan-build-W1 scripts/build.sh "$kb" build/soak-kcsan; then
	mstat_suite_guests soak-kcsan "$kb/arch/x86/boot/bzImage" \
		build/soak-kcsan
fi

kernel arm64-kasan --arch arm64 kunit/.kunitconfig
if [ -n "$kb" ] &&
   t soak-arm64-kasan-build-W1 scripts/build.sh --arch arm64 "$kb" \
	build/soak-arm64-kasan; then
	mstat_suite_guests soak-arm64-kasan "$kb/arch/arm64/boot/Image.gz" \
		build/soak-arm64-kasan --arch=arm64
fi

## make check's long forms

LITMUS_PAIRS=all scripts/litmus.sh "${KSRC:-$MSTAT_CACHE/linux-source-6.12}" \
	>"$logs/litmus.log" 2>&1
relay "$logs/litmus.log"

# DKMS on this host against 6.12's unpacked headers, --kernelsourcedir
# (make check: make install alone; the packages' test has DKMS build).
scripts/dkms-test.sh "$K612_KDIR" >"$logs/dkms.log" 2>&1
relay "$logs/dkms.log" soak

# The guest tests' "# Run: soak NAME ARG..." lines (mstat_runs): on 6.12
# the fuzz guest and the load/unload cycles at their own sizes, on the
# newest kernel the leak guest.
t soak-build-6.12 scripts/build.sh "$K612_KDIR" build/soak-6.12 &&
	mstat_runs soak 6.12

# The newest kernel of the matrix (scripts/matrix.sh, cached after make
# check).
if scripts/matrix.sh >"$logs/matrix.env" 2>"$logs/matrix-setup.log"; then
	set -a
	# shellcheck source=/dev/null
	. "$logs/matrix.env"
	set +a
fi
v73=$(mstat_km 7.3 VMLINUZ)
r=$(mstat_km 7.3 ROOT)
if [ -z "$v73" ] || [ -n "$(mstat_km 7.3 ERROR)" ]; then
	not_ok "soak-matrix-7.3, log: build/logs/soak/matrix-setup.log"
elif t soak-build-7.3 scripts/build.sh ${r:+--root "$r"} \
	"$(mstat_km 7.3 KDIR)" build/soak-7.3; then
	mstat_runs soak 7.3
fi

# The x86 debug kernel (make check's, cached) and the broken build.
kernel debug
if [ -n "$kb" ] &&
   t soak-build-debug-broken env KCFLAGS=-DMSTAT_BROKEN_COUNTS=1 \
	scripts/build.sh "$kb" build/soak-debug-broken; then
	guest soak-debug-faults-broken-full "$kb/arch/x86/boot/bzImage" \
		scripts/guest/faults.sh build/soak-debug-broken/mstat.ko \
		build/soak-debug-broken/tests/truth/mstat_truth.ko \
		--file=build/tools/faultio:/mstat/faultio \
		--file=build/tools/truth:/mstat/truth \
		--file=build/tools/mstat:/mstat/mstat --timeout=1500 \
		--mem=384M --tcg=multi \
		'--append=nokaslr FAULTS="broken full"'
fi
# The good build's fault guest with every point of mstat's init failed
# (make check fails every other one).
# And its torture's main run at 20 s (make check's runs 10).
if [ -n "$kb" ] && t soak-build-debug scripts/build.sh "$kb" build/soak-debug
then
	guest soak-debug-torture "$kb/arch/x86/boot/bzImage" \
		scripts/guest/torture.sh build/soak-debug/mstat.ko \
		build/soak-debug/tests/torture/mstat_torture.ko --smp=4 --tcg=multi
	guest soak-debug-faults-every-point "$kb/arch/x86/boot/bzImage" \
		scripts/guest/faults.sh build/soak-debug/mstat.ko \
		build/soak-debug/tests/truth/mstat_truth.ko \
		--file=build/tools/faultio:/mstat/faultio \
		--file=build/tools/truth:/mstat/truth \
		--file=build/tools/mstat:/mstat/mstat --timeout=1500 \
		--mem=384M --append=nokaslr
fi

collect_guests

# The boot watchdog (scripts/watchdog-test.sh), five boots: a console
# silent before the script starts is a hung boot, exit 126.
scripts/watchdog-test.sh 5 >"$logs/watchdog.log" 2>&1
relay "$logs/watchdog.log" soak
summary
