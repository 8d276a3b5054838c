#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The KUnit suites against a kernel whose headers have no KUnit (Debian's
# 6.1): built with CONFIG_KUNIT forced, so that every path of
# mstat_compat.h that only a KUnit kernel of that version would take is
# compiled (kunit/visibility.h is 6.2+, case attributes 6.6+,
# MODULE_IMPORT_NS's string form 6.13+). The KUnit core itself is not in
# those headers: modpost may only miss kunit_* symbols, and must resolve
# every mstat symbol the suites import, in its namespace.
#
#   scripts/compat-build.sh KDIR OUTDIR
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

kdir=$1
mkdir -p "$2"
out=$(realpath "$2")
rsync -a --delete --exclude .git --exclude /build "$MSTAT_TOP/" "$out/"
kunit=(CONFIG_KUNIT=y KCFLAGS=-DCONFIG_KUNIT=1 "${mstat_kbuild_lean[@]}")
if ! { make -C "$kdir" M="$out" W=1 "${kunit[@]}" modules &&
	make -C "$kdir" M="$out/kunit" W=1 "${kunit[@]}" \
		KBUILD_EXTRA_SYMBOLS="$out/Module.symvers" \
		KBUILD_MODPOST_WARN=1 modules; } >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	die "build against $kdir with CONFIG_KUNIT forced failed"
fi
# Compiler warnings, and modpost's, but for the KUnit core's symbols.
bad=$(grep -E 'warning:|error:|WARNING:|ERROR:' "$out/build.log" |
      grep -v -E 'modpost: "kunit_[a-z_]*" \[.*\] undefined!|suppressed [0-9]+ unresolved symbol warnings' || true)
if [ -n "$bad" ]; then
	echo "$bad" >&2
	die "build against $kdir with CONFIG_KUNIT forced printed warnings"
fi
n=0
for ko in "$out"/kunit/*_kunit.ko; do
	n=$((n + 1))
	# Every mstat symbol it needs is exported by mstat.ko, and if in a
	# namespace (EXPORTED_FOR_KUNIT_TESTING, MSTAT_INTERNAL), the module
	# imports that namespace.
	for sym in $(nm -u "$ko" | awk '$2 ~ /^mstat_/ { print $2 }'); do
		line=$(grep -P "\t$sym\t" "$out/Module.symvers") ||
			die "$(basename "$ko") needs $sym, which mstat.ko does not export"
		ns=$(cut -f5 <<<"$line")
		[ -z "$ns" ] || modinfo -F import_ns "$ko" | grep -qx "$ns" ||
			die "$(basename "$ko") uses $sym but does not import its namespace $ns"
	done
done
# One module a suite's source.
want=$(find "$MSTAT_TOP/kunit" -maxdepth 1 -name '*_kunit.c' | wc -l)
[ "$n" -eq "$want" ] || die "$n KUnit modules built, want $want"
grep -q 'EXPORTED_FOR_KUNIT_TESTING' "$out/Module.symvers" ||
	die "mstat.ko exports nothing in EXPORTED_FOR_KUNIT_TESTING"
log "built the $n KUnit modules against $kdir with CONFIG_KUNIT forced"
