#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The namespaces of mstat.ko's exports, and their imports, in builds that
# scripts/build.sh made: nothing loaded, the objects and modpost's
# Module.symvers read.
#
#   scripts/exports-check.sh BUILD_DIR...
#
# For each BUILD_DIR (named by its last component, ID):
#   exports-ID   every export of mstat.ko is where the sources put it:
#                the core's (EXPORT_SYMBOL_MSTAT_INTERNAL() in
#                mstat_core/mstat_core.c) in MSTAT_INTERNAL, the API of
#                mstat.h (EXPORT_SYMBOL_GPL() in mstat_api.c) in no
#                namespace, EXPORT_SYMBOL_IF_KUNIT()'s in
#                EXPORTED_FOR_KUNIT_TESTING (on a kernel with KUnit; none
#                without); nothing else; and mstat.ko's own symbol table
#                holds the namespace's name (what the kernel's loader
#                reads).
#   imports-ID   every module of tests/ and kunit/ imports each of those
#                namespaces it uses a symbol of (modinfo's import_ns), and
#                none it does not use.
# "ok"/"not ok" lines; diagnostics as "# " lines.
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || die "usage: $0 BUILD_DIR..."

# names PATTERN FILE...: the identifiers inside PATTERN(...) in FILEs.
names() {
	local pat=$1
	shift
	sed -n "s/^$pat(\([A-Za-z0-9_]*\));.*/\1/p" "$@" | sort -u
}
core=$(names EXPORT_SYMBOL_MSTAT_INTERNAL "$MSTAT_TOP/mstat_core/mstat_core.c")
api=$(names EXPORT_SYMBOL_GPL "$MSTAT_TOP"/mstat_*.c)
kunit=$(names EXPORT_SYMBOL_IF_KUNIT "$MSTAT_TOP"/mstat_*.c)
if [ -z "$core" ] || [ -z "$api" ]; then
	die "no EXPORT_SYMBOL_MSTAT_INTERNAL() or EXPORT_SYMBOL_GPL() in sources"
fi

# want SYM: the namespace SYM must be in ("-" for none), or "?".
want() {
	if grep -qx "$1" <<<"$core"; then echo MSTAT_INTERNAL
	elif grep -qx "$1" <<<"$api"; then echo -
	elif grep -qx "$1" <<<"$kunit"; then echo EXPORTED_FOR_KUNIT_TESTING
	else echo '?'
	fi
}

for dir; do
	id=$(basename "$dir")
	symvers=$dir/Module.symvers ko=$dir/mstat.ko
	if [ ! -f "$ko" ] || [ ! -f "$symvers" ]; then
		not_ok "exports-$id: no mstat.ko or Module.symvers in $dir"
		not_ok "imports-$id: no build in $dir"
		continue
	fi
	# mstat.ko's rows: SYM NS ("-" for none).
	rows=$(awk -F'\t' '$3 ~ /(^|\/)mstat$/ { print $2, ($5 == "" ? "-" : $5) }' \
		"$symvers")
	bad=()
	while read -r sym ns; do
		w=$(want "$sym")
		[ "$ns" = "$w" ] || bad+=("$sym in ${ns/#-/no namespace}, wants ${w/#-/none}")
	done <<<"$rows"
	for sym in $core $api; do
		grep -q "^$sym " <<<"$rows" || bad+=("$sym not exported")
	done
	n=$(grep -c ' MSTAT_INTERNAL$' <<<"$rows")
	# The section read whole first: grep -q would stop at its match, and
	# readelf, still writing a large section (the debug build's KUnit
	# exports), die of SIGPIPE, which pipefail counts as a failure.
	strs=$(readelf -p __ksymtab_strings "$ko" 2>/dev/null)
	grep -qw MSTAT_INTERNAL <<<"$strs" ||
		bad+=("no MSTAT_INTERNAL in mstat.ko's __ksymtab_strings")
	if [ ${#bad[@]} -eq 0 ]; then
		ok "exports-$id ($n in MSTAT_INTERNAL, $(grep -c ' -$' <<<"$rows") in none, $(grep -c ' EXPORTED_FOR_KUNIT_TESTING$' <<<"$rows") for KUnit)"
	else
		not_ok "exports-$id: ${#bad[@]} wrong"
		printf '%s\n' "${bad[@]}" | show
	fi

	# The namespaces mstat.ko exports into: NS, one a line.
	nss=$(awk '$2 != "-" { print $2 }' <<<"$rows" | sort -u)
	bad=()
	nmod=0 users=''
	for m in "$dir"/tests/*/*.ko "$dir"/kunit/*.ko; do
		[ -f "$m" ] || continue
		nmod=$((nmod + 1))
		used=$(nm -u "$m" | awk '{ print $2 }' | LC_ALL=C sort -u |
			LC_ALL=C join - <(LC_ALL=C sort -k1,1 <<<"$rows") |
			awk '$2 != "-" { print $2 }' | sort -u | tr '\n' ' ')
		imported=$(modinfo -F import_ns "$m" | grep -Fxf <(echo "$nss") |
			sort -u | tr '\n' ' ')
		[ "$used" = "$imported" ] ||
			bad+=("${m#"$dir"/}: uses [${used% }], imports [${imported% }]")
		[ -z "$used" ] || users+=" $(basename "$m" .ko)"
	done
	if [ "$nmod" -eq 0 ]; then
		not_ok "imports-$id: no test module in $dir"
	elif [ ${#bad[@]} -eq 0 ]; then
		ok "imports-$id ($nmod modules,${users:- none} import)"
	else
		not_ok "imports-$id: ${#bad[@]} wrong"
		printf '%s\n' "${bad[@]}" | show
	fi
done
finish
