#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module's layering, as docs/ARCHITECTURE.md's table states it: no
# file includes a header of a layer above its own, every module source
# is placed in a layer, and no two units (x.c with x.h) include each
# other's headers, directly or through others. And the mstat tool's
# (tools/mstat/): no cycle between its units, by include, by call (a
# unit's object uses a symbol another's defines: each .c is compiled
# with $CC, default cc, and read with nm), or by the two together.
# Prints "ok"/"not ok" lines; exits non-zero if one is "not ok".
#
#   scripts/layers.sh [TOP]
#   scripts/layers.sh --selftest	copies that must fail: one with a
#				climbing include, an unplaced file and a
#				cycle in the module, and an include cycle
#				and a call cycle in the tool; one with a
#				cycle in the tool that is an include one
#				way and a call the other
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# plant FILE AFTER LINE...: LINEs into FILE after the line AFTER; fails
# if AFTER is not there.
plant() {
	local f=$1 after=$2 line done=false
	shift 2
	grep -qxF -- "$after" "$f" || return 1
	while IFS= read -r line; do
		printf '%s\n' "$line"
		if ! "$done" && [ "$line" = "$after" ]; then
			printf '%s\n' "$@"
			done=true
		fi
	done <"$f" >"$f.new" && mv "$f.new" "$f"
}

# want OUT LINE...: an ok line for each LINE that OUT has, else not ok.
want() {
	local out=$1 w
	shift
	for w; do
		if grep -qF "$w" <<<"$out"; then
			ok "layers-selftest: caught \"$w\""
		else
			not_ok "layers-selftest: missed \"$w\""
		fi
	done
}

if [ "${1:-}" = --selftest ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	for c in a b; do
		rsync -a --exclude .git --exclude /build "$MSTAT_TOP/" "$tmp/$c/"
	done
	a=$tmp/a b=$tmp/b t=tools/mstat

	# Copy a, the module: a climbing include, after an include that
	# mstat_stats.c has; an unplaced file.
	plant "$a/mstat_stats.c" '#include "mstat_stats.h"' \
		'#include "mstat_count.h"' ||
		not_ok "layers-selftest: the climbing include was not planted"
	touch "$a/mstat_unplaced.c"
	# Copy a, the tool: input.h includes check.h, whose check.c includes
	# input.h; util.c calls into input.c, which calls into util.c.
	plant "$a/$t/input.h" '#include "parse.h"' '#include "check.h"' ||
		not_ok "layers-selftest: the tool's include cycle was not planted"
	plant "$a/$t/util.c" '#include "util.h"' '' \
		'void mstat_snap_free(struct mstat_snap *s);' \
		'void mstat_planted(void);' \
		'void mstat_planted(void) { mstat_snap_free(NULL); }' ||
		not_ok "layers-selftest: the tool's call cycle was not planted"
	want "$("$0" "$a")" \
		'not ok layers-placed: mstat_unplaced.c' \
		'not ok layers-include: mstat_stats.c (layer 1) includes mstat_count.h' \
		'not ok layers-acyclic' \
		'not ok layers-tools-include-acyclic' \
		'not ok layers-tools-call-acyclic'

	# Copy b: json.c includes show.h, and show.c calls mstat_json(),
	# declared by hand: neither graph alone has a cycle, the two do, as
	# main.c and check.c had through main.h.
	if ! plant "$b/$t/json.c" '#include "json.h"' '#include "show.h"' ||
	   ! plant "$b/$t/show.c" '#include "util.h"' '' \
		'void mstat_json(const struct mstat_snap *s);' \
		'void mstat_planted(const struct mstat_snap *s);' \
		'void mstat_planted(const struct mstat_snap *s) { mstat_json(s); }'; then
		not_ok "layers-selftest: the tool's mixed cycle was not planted"
	fi
	out=$("$0" "$b")
	want "$out" 'not ok layers-tools-acyclic'
	# ... and only that.
	if grep -q '^not ok' <<<"$(grep -v '^not ok layers-tools-acyclic' <<<"$out")"; then
		not_ok "layers-selftest: copy b fails more than layers-tools-acyclic"
		grep '^not ok' <<<"$out" | show
	else
		ok "layers-selftest: copy b fails layers-tools-acyclic alone"
	fi
	finish
fi

# find_cycle GRAPH: a cycle of GRAPH (the name of an associative array:
# unit -> " unit unit ...", the units it depends on) into the array cyc,
# as the units along it, the first one again last; empty if there is
# none. A depth-first search, colouring units.
declare -A colour=()
cyc=() path=()
find_cycle() {
	local -n find_graph=$1
	local u
	colour=() cyc=() path=()
	for u in $(printf '%s\n' "${!find_graph[@]}" | sort); do
		[ "${colour[$u]:-white}" = white ] || continue
		visit "$1" "$u" || return 0
	done
}
visit() {
	local -n visit_graph=$1
	local u=$2 v i
	colour[$u]=grey
	path+=("$u")
	for v in ${visit_graph[$u]:-}; do
		case ${colour[$v]:-white} in
		grey)
			for i in "${!path[@]}"; do
				[ "${path[$i]}" = "$v" ] && break
			done
			cyc=("${path[@]:$i}" "$v")
			return 1 ;;
		white)	visit "$1" "$v" || return 1 ;;
		esac
	done
	unset 'path[-1]'
	colour[$u]=black
}

top=$(cd "${1:-$MSTAT_TOP}" && pwd) || exit 1
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

# No cycle between units.
find_cycle edges
if [ "${#cyc[@]}" -gt 0 ]; then
	not_ok "layers-acyclic: $(printf '%s -> ' "${cyc[@]}" | sed 's/ -> $//')"
else
	ok layers-acyclic
fi

# The mstat tool: its units' includes and calls.
cd "$top/tools/mstat" || exit 1
objs=$(mktemp -d)
trap 'rm -rf "$objs"' EXIT
declare -A inc=() call=() dep=() kind=() def=()
units=()
for f in *.[ch]; do
	u=${f%.*}
	[[ " ${units[*]} " == *" $u "* ]] || units+=("$u")
	while read -r h; do
		v=${h%.h}
		if [ ! -f "$h" ] || [ "$v" = "$u" ] ||
		   [[ " ${inc[$u]:-} " == *" $v "* ]]; then
			continue
		fi
		inc[$u]+=" $v" dep[$u]+=" $v" kind[$u $v]=include
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done
built=0
for f in *.c; do
	if ! err=$("${CC:-cc}" -std=c99 -O0 -w -c -o "$objs/${f%.c}.o" "$f" 2>&1); then
		not_ok "layers-tools-build: $f does not compile (${CC:-cc})"
		show <<<"$err"
		continue
	fi
	built=$((built + 1))
	for s in $(nm -g --defined-only "$objs/${f%.c}.o" | awk '{ print $3 }'); do
		def[$s]=${f%.c}
	done
done
for o in "$objs"/*.o; do
	[ -e "$o" ] || continue
	u=$(basename "$o" .o)
	for s in $(nm -u "$o" | awk '{ print $2 }'); do
		v=${def[$s]:-}
		if [ -z "$v" ] || [ "$v" = "$u" ] ||
		   [[ " ${call[$u]:-} " == *" $v "* ]]; then
			continue
		fi
		call[$u]+=" $v" dep[$u]+=" $v"
		kind[$u $v]=${kind[$u $v]:+${kind[$u $v]}+}call
	done
done
[ "$built" -gt 0 ] && ok "layers-tools-units (${#units[@]} units, $built objects)"

# tool_cycle NAME GRAPH: ok NAME, or not ok NAME and the cycle, each
# step with its kind (include, call).
tool_cycle() {
	local i step=
	find_cycle "$2"
	if [ "${#cyc[@]}" -eq 0 ]; then
		ok "$1"
		return
	fi
	for ((i = 0; i + 1 < ${#cyc[@]}; i++)); do
		step+="${cyc[$i]} -(${kind[${cyc[$i]} ${cyc[$((i + 1))]}]})-> "
	done
	not_ok "$1: $step${cyc[-1]}"
}
tool_cycle layers-tools-include-acyclic inc
tool_cycle layers-tools-call-acyclic call
tool_cycle layers-tools-acyclic dep
finish
