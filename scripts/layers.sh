#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module's layering, as docs/ARCHITECTURE.md's table states it: no
# file includes a header of a layer above its own, every module source
# is placed in a layer, and no two units (x.c with x.h) include each
# other's headers, directly or through others. Prints "ok"/"not ok"
# lines; exits non-zero if one is "not ok".
#
#   scripts/layers.sh [TOP]
#   scripts/layers.sh --selftest	a copy with one climbing include, one
#				unplaced file and one cycle must fail
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" = --selftest ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	rsync -a --exclude .git --exclude /build "$MSTAT_TOP/" "$tmp/"
	sed -i 's|^#include "mstat_stats.h"|&\n#include "mstat_count.h"|' \
		"$tmp/mstat_stats.c"
	grep -q '^#include "mstat_count.h"' "$tmp/mstat_stats.c" ||
		not_ok "layers-selftest: the climbing include was not planted"
	touch "$tmp/mstat_unplaced.c"
	out=$("$0" "$tmp")
	for want in 'not ok layers-placed: mstat_unplaced.c' \
		    'not ok layers-include: mstat_stats.c (layer 1) includes mstat_count.h' \
		    'not ok layers-acyclic'; do
		if grep -qF "$want" <<<"$out"; then
			ok "layers-selftest: caught \"$want\""
		else
			not_ok "layers-selftest: missed \"$want\""
		fi
	done
	finish
fi

top=${1:-$MSTAT_TOP}
doc=$top/docs/ARCHITECTURE.md
declare -A layer=()
unplaced=0

# Rows "| N | name | `file` `file` ... | ... |" of the layer table.
while IFS='|' read -r _ n _ files _; do
	n=${n// /}
	[[ $n =~ ^[0-9]+$ ]] || continue
	# shellcheck disable=SC2016 # backquotes, not an expansion
	for f in $(grep -o '`[^`]*`' <<<"$files" | tr -d '`'); do
		layer[$f]=$n
	done
done < <(sed -n '/<!-- layers:/,/^$/p' "$doc")
if [ "${#layer[@]}" -eq 0 ]; then
	not_ok "layers-table: no layer table in $doc"
	finish
fi

cd "$top" || exit 1
srcs=(*.[ch] mstat_core/*.[ch])

# Every module source is placed.
for f in "${srcs[@]}"; do
	if [ -z "${layer[$f]:-}" ]; then
		not_ok "layers-placed: $f is in no layer of docs/ARCHITECTURE.md"
		unplaced=$((unplaced + 1))
	fi
done
[ "$unplaced" -eq 0 ] && ok "layers-placed (${#srcs[@]} files)"

# No include climbs; collect the unit graph on the way.
climbs=0
declare -A edges=()
for f in "${srcs[@]}"; do
	[ -n "${layer[$f]:-}" ] || continue
	dir=$(dirname "$f")
	while read -r inc; do
		# Includes are relative to the file's directory, else to the top.
		if [ -f "$dir/$inc" ]; then
			h=$(realpath --relative-to=. "$dir/$inc")
		else
			h=$inc
		fi
		[ -n "${layer[$h]:-}" ] || continue
		if [ "${layer[$h]}" -gt "${layer[$f]}" ]; then
			not_ok "layers-include: $f (layer ${layer[$f]}) includes $h (layer ${layer[$h]})"
			climbs=$((climbs + 1))
		fi
		[ "${h%.*}" != "${f%.*}" ] && edges[${f%.*}]+=" ${h%.*}"
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done
[ "$climbs" -eq 0 ] && ok "layers-include (no include climbs)"

# No cycle between units: depth-first search, colouring units.
declare -A colour=()
cycle=
visit() {
	local u=$1 v
	colour[$u]=grey
	for v in ${edges[$u]:-}; do
		case ${colour[$v]:-white} in
		grey)	cycle="$u -> $v"; return 1 ;;
		white)	visit "$v" || return 1 ;;
		esac
	done
	colour[$u]=black
}
for u in "${!edges[@]}"; do
	[ "${colour[$u]:-white}" = white ] || continue
	visit "$u" || break
done
if [ -n "$cycle" ]; then
	not_ok "layers-acyclic: $cycle closes a cycle"
else
	ok layers-acyclic
fi
finish
