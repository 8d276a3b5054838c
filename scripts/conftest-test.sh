#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# compat/conftest.sh compiles its tests in batches (its header says
# how); this checks that the batches judge every test as the tests
# judged one at a time do, with the command a W=1 build ran:
#
#   scripts/conftest-test.sh KDIR BUILD
#
# BUILD is scripts/build.sh's OUTDIR against KDIR (its
# .mstat_conftest.h.cmd). Three runs of that command, in KDIR:
#   conftest-batch-same	batches and one-at-a-time give the same header,
#			which is the build's own;
#   conftest-batch-catches	a copy of compat/ with one test made to fail
#			(a line no compiler takes appended): the batches
#			must say so, that test's macro alone changed.
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || die "usage: $0 KDIR BUILD"
kdir=$1 build=$(realpath "$2")
cmdfile=$build/.mstat_conftest.h.cmd
[ -f "$cmdfile" ] || die "no $cmdfile: build against $kdir first"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The build's command, its output (and for the last run, its tests'
# directory) elsewhere.
cmd=$(sed -n 's/^\(saved\)\{0,1\}cmd_[^ ]* := //p' "$cmdfile")
cmd=${cmd//"$build/mstat_conftest.h"/"$tmp/out.h"}
[ -n "$cmd" ] || die "no command in $cmdfile"
# This tree's script, which the build's copy of it is under make check.
cmd=${cmd/" $build/compat/conftest.sh "/" $MSTAT_TOP/compat/conftest.sh "}

# run OUT [ENV...]: the command, its header copied to OUT.
run() {
	local o=$1
	shift
	(cd "$kdir" && env "$@" bash -c "$cmd") && cp "$tmp/out.h" "$o"
}

# Their CPU time (mstat_cpu: this shell's reaped children's), which
# does not grow when other work shares the CPUs.
c0=0 c1=0 c2=0
mstat_cpu c0
run "$tmp/batch.h"
mstat_cpu c1
run "$tmp/single.h" MSTAT_CONFTEST_SINGLE=1
mstat_cpu c2
echo "# conftest: $(grep -c '^#define' "$tmp/single.h") of $(grep -c 'MSTAT_HAVE_' "$tmp/single.h") found; CPU time in batches $(((c1 - c0) * 10)) ms, one at a time $(((c2 - c1) * 10)) ms"
if cmp -s "$tmp/batch.h" "$tmp/single.h" &&
   cmp -s "$tmp/batch.h" "$build/mstat_conftest.h"; then
	ok conftest-batch-same
else
	not_ok "conftest-batch-same: the batches, one at a time and the build's header differ"
	diff "$tmp/batch.h" "$tmp/single.h" | show
	diff "$tmp/batch.h" "$build/mstat_conftest.h" | show
fi

# One test that passes, made to fail in a copy of compat/.
name=$(sed -n 's/^#define MSTAT_HAVE_\([A-Z0-9_]*\) 1$/\1/p' "$tmp/batch.h" |
       head -n 1 | tr '[:upper:]' '[:lower:]')
dir=$(sed -n 's/^.*conftest\.sh [^ ]* \([^ ]*\) .*/\1/p' <<<"$cmd")
if [ -z "$name" ] || [ ! -f "$dir/$name.conftest" ]; then
	not_ok "conftest-batch-catches: no passing test found in ${dir:-the command}"
	finish
fi
cp -a "$dir" "$tmp/compat"
echo 'mstat_conftest_broken here;' >>"$tmp/compat/$name.conftest"
cmd=${cmd/" $dir "/" $tmp/compat "}
run "$tmp/broken.h"
got=$(diff "$tmp/batch.h" "$tmp/broken.h" | grep '^[<>]')
want="< #define MSTAT_HAVE_${name^^} 1
> /* #undef MSTAT_HAVE_${name^^} */"
if [ "$got" = "$want" ]; then
	ok "conftest-batch-catches ($name made to fail)"
else
	not_ok "conftest-batch-catches: $name made to fail, the header's change: ${got:-none}"
fi
finish
