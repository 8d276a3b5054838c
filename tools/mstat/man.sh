#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mstat(8), generated: help2man reads `mstat --help` (the one place the
# commands, options and examples are written) and mstat.h2m, which has
# what --help does not carry (description, commands, exit status, files,
# notes, see also).
#
#   ./man.sh MSTAT VERSION OUT	(make man: build/mstat.8)
#
# help2man wants GNU's shape of --help, so it is given the tool's --help
# reshaped, through a stand-in that answers --help and --version: usage
# lines as "Usage:" and "  or:", each on one line without its gloss; an
# "Options:" heading; an option's continuation lines under its text; the
# "Exit status" lines left to mstat.h2m. Then the examples are kept as
# lines (.EX), as help2man would fill them into one paragraph.
set -eu

[ $# -eq 3 ] || { echo "usage: $0 MSTAT VERSION OUT" >&2; exit 2; }
mstat=$1 version=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$mstat" --help | awk '
/^usage: / { sub(/^usage:/, "Usage:"); u = 1 }
u && /^$/ { u = 0; print l; print; print "Options:"; next }
u {
	if (match($0, /[^ ]  +[^ []/))
		$0 = substr($0, 1, RSTART)
	if ($0 ~ /^                    +[^ []/)
		next
	if ($0 ~ /^ +\[/) {
		sub(/^ +/, " ")
		l = l $0
		next
	}
	if (l != "")
		print l
	l = $0
	sub(/^ +mstat/, "  or:  mstat", l)
	next
}
/^Exit status/ { exit }
/^  -/ && match($0, /[^ ]  +[^ ]/) { c = RSTART + RLENGTH - 2; print; next }
/^           [^ ]/ && c { printf "%*s%s\n", c, "", substr($0, 12); next }
{ c = 0; print }' >"$tmp/help"
[ -s "$tmp/help" ] || { echo "$0: no --help from $mstat" >&2; exit 1; }

cat >"$tmp/mstat" <<STANDIN
#!/bin/sh
if [ "\$1" = --version ]; then echo "mstat $version"; else cat "$tmp/help"; fi
STANDIN
chmod +x "$tmp/mstat"

name="read, watch, export, profile and check kernel memory allocation"
help2man --no-info --section=8 --manual="System Administration" \
	--name="$name statistics" \
	--include="$here/mstat.h2m" --output="$tmp/mstat.8" "$tmp/mstat"
awk '/^\.SH / { ex = $2 == "EXAMPLES" }
     ex && /^\.IP$/ { print ".EX"; on = 1; next }
     on && /^\.(SH|PP|IP|TP)/ { print ".EE"; on = 0 }
     { print }
     END { if (on) print ".EE" }' "$tmp/mstat.8" >"$out"
