#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The ground-truth test's results as Markdown, from guest consoles of
# scripts/guest/truth.sh: per console, one table row per (pattern, row)
# of the pattern's last run (a pattern runs again only if a run was off
# by background), with the truth, what mstat counted, the error and the
# largest idle-window change beside it.
#
#   scripts/truth-table.sh NAME=CONSOLE...
set -euo pipefail

for arg; do
	name=${arg%%=*} con=${arg#*=}
	echo
	echo "$name:"
	echo
	echo '| pattern | row | allocs: truth / counted / idle | frees: truth / counted / idle | verdict |'
	echo '|---|---|---|---|---|'
	tr -d '\r' <"$con" | awk '
	/^# row / {
		# "# row PAT ROW: allocs truth A counted C (error E, idle I);
		#  frees truth A counted C (error E, idle I); live ...; VERDICT"
		pat = $3; row = $4; sub(/:$/, "", row)
		key = pat " " row
		if (!(pat in runs_seen)) { order_p[++np] = pat; runs_seen[pat] = 1 }
		if (!((pat, row) in seen_row)) { rows[pat] = rows[pat] " " row; seen_row[pat, row] = 1 }
		at = $7; ac = $9; ai = $13; sub(/\).*/, "", ai)
		ft = $16; fc = $18; fi = $22; sub(/\).*/, "", fi)
		v = $NF; if (v == "background") v = "within background"
		val[pat, row] = sprintf("%s / %s / %s | %s / %s / %s | %s", at, ac, ai, ft, fc, fi, v)
	}
	END {
		for (i = 1; i <= np; i++) {
			p = order_p[i]
			n = split(rows[p], r, " ")
			for (j = 1; j <= n; j++)
				printf "| %s | %s | %s |\n", p, r[j], val[p, r[j]]
		}
	}'
done
