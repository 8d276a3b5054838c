# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest side of the KUnit suites' own test: mstat_core's cases with a
# deliberately broken reader (busted=1, a reader that does not wait).
# The cases that hunt torn snapshots must report "not ok", and cleanly:
# every writer stopped (the module unloads, the console stays clean, the
# guest goes on). Then busted=3 must be refused; on a KASAN kernel, KASAN
# must report mstat_truth's kasan_probe. Then, if given the broken build
# (./broken/: MSTAT_BROKEN_COUNTS, tests/mstat_mutants.h), its
# mstat_profile suite, whose cases mstat_profile_forget_sources_keeps_others
# (MSTAT_MUT_FORGET_ALL) and mstat_profile_page_stack_no_symbols
# (MSTAT_MUT_PAGE_SYMBOLS) must report "not ok", every other "ok". Runs in
# /mstat.
# Kernels: debug
# Guest: --tcg=multi --append=kasan_multi_shot
set -u
. ./lib.sh
insmod ./mstat.ko || exit 1
insmod ./mstat_core_kunit.ko busted=1 || exit 1
rmmod mstat_core_kunit || exit 1
if insmod ./mstat_core_kunit.ko busted=3 2>/dev/null; then
	echo "busted=3 accepted"
	exit 1
fi
# On a kernel with KASAN (booted kasan_multi_shot): mstat_truth's
# kasan_probe, one byte past an object by a module's code and by
# vsnprintf()'s, which the debug kernel keeps instrumented though the
# rest of it is not (kunit/.kunitconfig). The host's check wants both
# reports, the console check lets them through for this guest alone.
if [ -f ./mstat_truth.ko ] &&
   dmesg | grep -q 'KernelAddressSanitizer initialized'; then
	echo "# console-check allows: kasan-probe"
	insmod ./mstat_truth.ko kasan_probe=1 || exit 1
	rmmod mstat_truth || exit 1
	echo "kunit-busted: kasan_probe loaded and unloaded"
fi
rmmod mstat || exit 1
echo "kunit-busted: unloaded, guest alive"
if [ -f ./broken/mstat.ko ]; then
	echo "kunit-busted: the broken build's mstat_profile"
	insmod ./broken/mstat.ko || exit 1
	insmod ./broken/mstat_profile_kunit.ko || exit 1
	rmmod mstat_profile_kunit || exit 1
	rmmod mstat || exit 1
	echo "kunit-busted: the broken build unloaded"
else
	echo "kunit-busted: no broken build"
fi
