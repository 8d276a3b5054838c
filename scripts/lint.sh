#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own checks on mstat's sources, one "ok NAME"/"not ok NAME"
# line each:
#   checkpatch.pl --strict --no-tree -f on every kernel source file (the
#   programs under tools/, scripts/ and tests/{userspace,helpers,fuzz}/
#   are libc programs, not kernel code),
#   sparse (C=2) with W=1 against the 6.12 and debug kernels, in their
#   builds' directories,
#   kernel-doc -none -Wall on every file with kernel-doc comments,
#   and every shell script through "shellcheck -x" (settings: .shellcheckrc).
#
#   scripts/lint.sh KSRC KDIR[:BUILD]...
#
# checkpatch's remaining exceptions, each a kernel convention:
#   mstat_trace.h		TRACE_EVENT() layout, as in include/trace/events
#				(OPEN_ENDED_LINE, PARENTHESIS_ALIGNMENT);
#   mstat_core.h mstat_add()	"field" is a member designator and cannot be
#				parenthesized (MACRO_ARG_PRECEDENCE);
#   mstat_compat.h		the empty EXPORT_SYMBOL_IF_KUNIT() stub, as in
#				kunit/visibility.h (MACRO_ARG_UNUSED); the
#				kernel-version tests that are that file's one
#				job (LINUX_VERSION_CODE, CONSTANT_COMPARISON);
#   mstat_mutant.h		mstat_mutant() of a product build, false without
#				looking its name up, as the stub above
#				(MACRO_ARG_UNUSED).
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

ksrc=$1
shift
cd "$MSTAT_TOP" || exit 1

mapfile -t srcs < <(git ls-files '*.c' '*.h' | grep -v -e '^tools/' \
	-e '^tests/userspace/' -e '^tests/helpers/' -e '^tests/fuzz/' \
	-e '^scripts/')
mapfile -t shs < <(git ls-files '*.sh' .ci/run)
# No file to look at is a failure, not a pass (git missing, say).
if [ ${#srcs[@]} -lt 10 ] || [ ${#shs[@]} -lt 10 ]; then
	not_ok "lint-files: ${#srcs[@]} C files, ${#shs[@]} shell scripts from git ls-files"
	finish
fi

# checkpatch (in as many parts as CPUs), kernel-doc and shellcheck at
# once: one after the other they left a CPU idle in make check, where
# lint runs beside the last guests (243 s, 108 s of CPU, with the CPUs
# 37 to 61% idle in a cold run, vmstat beside it). Alone on a 2-CPU
# machine: 103 s, 139 s of CPU.
out_dir=$(mktemp -d)
n=$(nproc)
for ((i = 0; i < n; i++)); do
	part=()
	for ((j = i; j < ${#srcs[@]}; j += n)); do
		part+=("${srcs[j]}")
	done
	[ ${#part[@]} -gt 0 ] || continue
	perl "$ksrc/scripts/checkpatch.pl" --strict --no-tree --terse \
		--show-types -f "${part[@]}" >"$out_dir/cp.$i" 2>&1 &
done
perl "$ksrc/scripts/kernel-doc" -none -Wall "${srcs[@]}" >"$out_dir/kd" 2>&1 &
shellcheck -x "${shs[@]}" >"$out_dir/sc" 2>&1 &
wait
cp_out=$(cat "$out_dir"/cp.* | grep -v '^total' |
	grep -v -e '^mstat_trace\.h:[0-9]*: CHECK:\(OPEN_ENDED_LINE\|PARENTHESIS_ALIGNMENT\):' \
		-e '^mstat_core/mstat_core\.h:[0-9]*: CHECK:MACRO_ARG_PRECEDENCE:.*field' \
		-e '^mstat_compat\.h:[0-9]*: WARNING:\(MACRO_ARG_UNUSED\|LINUX_VERSION_CODE\|CONSTANT_COMPARISON\):' \
		-e '^mstat_mutant\.h:[0-9]*: WARNING:MACRO_ARG_UNUSED:')
[ -n "$cp_out" ] && show <<<"$cp_out"
check checkpatch-strict [ -z "$cp_out" ]

kd_out=$(cat "$out_dir/kd")
[ -n "$kd_out" ] && show <<<"$kd_out"
check kernel-doc [ -z "$kd_out" ]

sc_out=$(cat "$out_dir/sc")
[ -n "$sc_out" ] && show <<<"$sc_out"
check shellcheck [ -z "$sc_out" ]
rm -rf "$out_dir"

# sparse, on the sources a W=1 build compiled: C=2 checks every source
# whether or not it is rebuilt, so in that build's own directory
# (KDIR:BUILD, scripts/build.sh's OUTDIR) it runs sparse alone, and
# leaves the objects and modules as they are: 7 s of CPU for mstat.ko,
# where a build of its own in a copy of the tree took 48 s (by hand on
# 6.12's headers, beside a make check). A bare
# KDIR is checked in a copy, built from nothing.
for arg; do
	kdir=${arg%%:*} dir=''
	[ "$kdir" = "$arg" ] || dir=$(realpath "${arg#*:}")
	name=sparse-$(basename "$kdir")
	tmp=$(mktemp -d)
	if [ -z "$dir" ] || [ ! -f "$dir/mstat.ko" ]; then
		dir=$tmp/src
		rsync -a --exclude .git --exclude /build ./ "$dir/"
	fi
	{ make -j"$n" -C "$kdir" M="$dir" C=2 W=1 "${mstat_kbuild_lean[@]}" \
		modules &&
	  make -j"$n" -C "$kdir" M="$dir/tests" C=2 W=1 "${mstat_kbuild_lean[@]}" \
		KBUILD_EXTRA_SYMBOLS="$dir/Module.symvers" modules; } \
		>"$tmp/lint.log" 2>&1
	rc=$?
	out=$(grep -E 'warning:|error:' "$tmp/lint.log")
	[ -n "$out" ] && show <<<"$out"
	# Sparse ran: a CHECK line a source.
	checked=$(grep -c '^ *CHECK ' "$tmp/lint.log")
	[ "$rc" -eq 0 ] && [ -z "$out" ] && [ "$checked" -ge 10 ]
	result "$name" $?
	echo "# $name: $checked sources checked in $dir"
	rm -rf "$tmp"
done
finish
