#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own checks on mstat's sources, one "ok NAME"/"not ok NAME"
# line each:
#   checkpatch.pl --strict --no-tree -f on every kernel source file (the
#   programs under tools/ and tests/{userspace,helpers,fuzz}/ are libc
#   programs, not kernel code),
#   sparse (C=2) with W=1 against the 6.12 and debug kernels,
#   kernel-doc -none -Wall on every file with kernel-doc comments,
#   and every shell script through "shellcheck -x" (settings: .shellcheckrc).
#
#   scripts/lint.sh KSRC KDIR...
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
	-e '^tests/userspace/' -e '^tests/helpers/' -e '^tests/fuzz/')
mapfile -t shs < <(git ls-files '*.sh' .ci/run)
# No file to look at is a failure, not a pass (git missing, say).
if [ ${#srcs[@]} -lt 10 ] || [ ${#shs[@]} -lt 10 ]; then
	not_ok "lint-files: ${#srcs[@]} C files, ${#shs[@]} shell scripts from git ls-files"
	finish
fi

cp_out=$(perl "$ksrc/scripts/checkpatch.pl" --strict --no-tree --terse \
	--show-types -f "${srcs[@]}" 2>&1 | grep -v '^total' |
	grep -v -e '^mstat_trace\.h:[0-9]*: CHECK:\(OPEN_ENDED_LINE\|PARENTHESIS_ALIGNMENT\):' \
		-e '^mstat_core/mstat_core\.h:[0-9]*: CHECK:MACRO_ARG_PRECEDENCE:.*field' \
		-e '^mstat_compat\.h:[0-9]*: WARNING:\(MACRO_ARG_UNUSED\|LINUX_VERSION_CODE\|CONSTANT_COMPARISON\):' \
		-e '^mstat_mutant\.h:[0-9]*: WARNING:MACRO_ARG_UNUSED:')
[ -n "$cp_out" ] && show <<<"$cp_out"
check checkpatch-strict [ -z "$cp_out" ]

kd_out=$(perl "$ksrc/scripts/kernel-doc" -none -Wall "${srcs[@]}" 2>&1)
[ -n "$kd_out" ] && show <<<"$kd_out"
check kernel-doc [ -z "$kd_out" ]

sc_out=$(shellcheck -x "${shs[@]}" 2>&1)
[ -n "$sc_out" ] && show <<<"$sc_out"
check shellcheck [ -z "$sc_out" ]

for kdir; do
	name=sparse-$(basename "$kdir")
	tmp=$(mktemp -d)
	rsync -a --exclude .git --exclude /build ./ "$tmp/"
	{ make -C "$kdir" M="$tmp" C=2 W=1 modules &&
	  make -C "$kdir" M="$tmp/tests" C=2 W=1 \
		KBUILD_EXTRA_SYMBOLS="$tmp/Module.symvers" modules; } \
		>"$tmp/lint.log" 2>&1
	rc=$?
	out=$(grep -E 'warning:|error:' "$tmp/lint.log")
	[ -n "$out" ] && show <<<"$out"
	[ "$rc" -eq 0 ] && [ -z "$out" ]
	result "$name" $?
	rm -rf "$tmp"
done
finish
