#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module's layering, as docs/ARCHITECTURE.md's table states it: no
# file includes a header of a layer above its own, every module source
# is placed in a layer, and no two units (x.c with x.h) include each
# other's headers, directly or through others. Prints "ok"/"not ok"
# lines.
#
#   scripts/layers.sh [TOP]
#   scripts/layers.sh --selftest	a copy with one climbing include, one
#				unplaced file and one cycle must fail
set -uo pipefail

if [ "${1:-}" = --selftest ]; then
	src=$(cd "$(dirname "$0")/.." && pwd)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	rsync -a --exclude .git --exclude /build "$src/" "$tmp/"
	sed -i 's|^#include "mstat_trace.h"|&\n#include "mstat_count.h"|' \
		"$tmp/mstat_stats.c"
	touch "$tmp/mstat_unplaced.c"
	out=$("$0" "$tmp")
	for want in 'not ok layers-placed: mstat_unplaced.c' \
		    'not ok layers-include: mstat_stats.c (layer 1) includes mstat_count.h' \
		    'not ok layers-acyclic'; do
		if grep -qF "$want" <<<"$out"; then
			echo "ok layers-selftest: caught \"$want\""
		else
			echo "not ok layers-selftest: missed \"$want\""
		fi
	done
	exit 0
fi

top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
doc=$top/docs/ARCHITECTURE.md
declare -A layer
fails=0

# Rows "| N | name | `file` `file` ... | ... |" of the layer table.
while IFS='|' read -r _ n _ files _; do
	n=${n// /}
	[[ $n =~ ^[0-9]+$ ]] || continue
	for f in $(grep -o '`[^`]*`' <<<"$files" | tr -d '`'); do
		layer[$f]=$n
	done
done < <(sed -n '/<!-- layers:/,/^$/p' "$doc")
if [ "${#layer[@]}" -eq 0 ]; then
	echo "not ok layers-table: no layer table in $doc"
	exit 1
fi

cd "$top" || exit 1
mapfile -t srcs < <(ls ./*.[ch] mstat_core/*.[ch] | sed 's|^\./||')

# Every module source is placed.
for f in "${srcs[@]}"; do
	if [ -z "${layer[$f]:-}" ]; then
		echo "not ok layers-placed: $f is in no layer of docs/ARCHITECTURE.md"
		fails=$((fails + 1))
	fi
done
[ "$fails" -eq 0 ] && echo "ok layers-placed (${#srcs[@]} files)"

# No include climbs; collect the unit graph on the way.
climbs=0
declare -A edges
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
			echo "not ok layers-include: $f (layer ${layer[$f]}) includes $h (layer ${layer[$h]})"
			climbs=$((climbs + 1))
		fi
		[ "${h%.*}" != "${f%.*}" ] && edges[${f%.*}]+=" ${h%.*}"
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done
fails=$((fails + climbs))
[ "$climbs" -eq 0 ] && echo "ok layers-include (no include climbs)"

# No cycle between units: depth-first search, colouring units.
declare -A colour
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
	echo "not ok layers-acyclic: $cycle closes a cycle"
	fails=$((fails + 1))
else
	echo "ok layers-acyclic"
fi
[ "$fails" -eq 0 ]
