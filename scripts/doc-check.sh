#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The documents and the tool agree: mstat(8) (tools/mstat/mstat.8) and
# `mstat --help` list the same commands, the same options for each
# command, the same option entries and the same examples; and every
# `mstat ...` line of the README's code blocks names a command --help
# lists and only options --help gives that command (-c as --caches, as
# --help pairs them); and each of --help's examples is one of the
# README's lines. One "ok NAME"/"not ok NAME: WHY" line each:
#
#   doc-help-parsed	--help gives 4 commands and 8 options at least
#   doc-man-commands	the commands of the man page's SYNOPSIS and
#			COMMANDS, and of --help's usage lines
#   doc-man-synopsis	per command, the options of the SYNOPSIS and of
#			--help's usage lines
#   doc-man-options	the options of the OPTIONS section and of --help's
#			option list
#   doc-man-examples	EXAMPLES and --help's "Examples:"
#   doc-readme-examples	every mstat line of the README's code blocks (at
#			least 8 of them)
#   doc-readme-help-examples  every --help example is a README line
#
#   scripts/doc-check.sh [MSTAT]	MSTAT: the tool (default
#				build/tools/mstat, built if missing)
#
# What is an example in the README: in a fenced block whose info string is
# sh, shell or bash, every line that starts with "mstat" (or "sudo mstat");
# in any other code block, fenced or indented, the lines that start with a
# prompt, "# " or "$ ", then "mstat" (the others are output). A line is cut
# at "&&", "||", "|" and ";", and each part that runs mstat is checked up
# to a word that starts with "#", ">", "<" or "(".
#
# The deliberately broken mode, MSTAT_DOC_BROKEN=1, runs the checks on
# copies: the README with "mstat top --frobnicate" and "mstat frob" added,
# the man page without plain mstat's --json in its SYNOPSIS, without -d in
# its OPTIONS and without its first example. doc-readme-examples,
# doc-man-synopsis, doc-man-options and doc-man-examples must then fail:
# each prints "ok NAME-broken (caught: WHY)" if it does, "not ok
# NAME-broken: passed, but must fail" if not; the others must pass as
# before.
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP" || exit 1
mstat=${1:-build/tools/mstat}
readme=README.md
man=tools/mstat/mstat.8
broken=${MSTAT_DOC_BROKEN:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$mstat" ] && [ $# -eq 0 ]; then
	mstat_build_tools mstat >"$tmp/build.log" 2>&1 || show <"$tmp/build.log"
fi
if ! "$mstat" --help >"$tmp/help" 2>&1; then
	not_ok "doc-help-parsed: $mstat --help failed"
	show <"$tmp/help"
	finish
fi

if [ "$broken" = 1 ]; then
	cp "$readme" "$tmp/README.md"
	cat >>"$tmp/README.md" <<-'EOF'

	```sh
	mstat top --frobnicate
	mstat frob -f x
	```
	EOF
	# The first .OP \-\-json (plain mstat's SYNOPSIS), the first tag of
	# \-d (OPTIONS), the first line after .EX (EXAMPLES).
	awk '!j && /^\.OP \\-\\-json$/ { j = 1; next }
	     !d && /^\.BI \\-d " SECS"$/ { d = 1; next }
	     ex == 1 { ex = 2; next }
	     /^\.EX$/ && !ex && sect == "EXAMPLES" { ex = 1 }
	     /^\.SH / { sect = $2 }
	     { print }' "$man" >"$tmp/mstat.8"
	readme=$tmp/README.md man=$tmp/mstat.8
fi

# --help, parsed. Usage lines (up to the first blank line): a line with
# "mstat" starts a command, the word after it unless that is an option;
# "CMD OPT ARG" for each option (ARG 1 if a word follows it), "CMD" for
# each command ("-" is plain mstat). Option list (up to "Examples:" or
# "Exit status"): each entry's options, "-X, --long" a pair (alias lines
# "= -X --long"). Examples: the lines after "Examples:".
help_synopsis() {
	awk '
	/^$/ { exit }
	{
		line = $0
		sub(/^usage: /, "", line)
		if (line ~ /^ *mstat( |$)/) {
			sub(/^ *mstat */, "", line)
			cmd = "-"
			if (line ~ /^[a-z]/) {
				cmd = line
				sub(/ .*/, "", cmd)
				sub(/^[a-z]+/, "", line)
			}
			print cmd
		}
		n = split(line, w, / +/)
		for (i = 1; i <= n; i++) {
			m = split(w[i], alt, /\|/)
			for (k = 1; k <= m; k++) {
				o = alt[k]
				sub(/^\[+/, "", o)
				sub(/\]+(\.\.\.)?$/, "", o)
				if (o !~ /^--?[a-z][a-z-]*$/)
					continue
				arg = (k == m && w[i] !~ /\]$/ && i < n && \
				       w[i + 1] ~ /^[a-zA-Z]/) ? 1 : 0
				print cmd, o, arg
			}
		}
	}' "$1"
}

help_options() {
	awk '
	/^Examples:|^Exit status/ { exit }
	/^$/ { body++; next }
	body == 1 && /^  -/ {
		term = $0
		sub(/^  /, "", term)
		sub(/  .*/, "", term)
		n = split(term, w, /,? +/)
		opts = ""
		for (i = 1; i <= n; i++)
			if (w[i] ~ /^--?[a-z][a-z-]*$/) {
				print w[i]
				opts = opts " " w[i]
			}
		if (term ~ /^-[a-z], --[a-z-]+$/)
			print "=" opts
	}' "$1"
}

help_examples() {
	awk '/^Examples:/ { on = 1; next } on && /^$/ { exit }
	     on { sub(/^ +/, ""); print }' "$1"
}

# The man page, parsed: "\-" is "-"; a .SY block's command is its second
# word; SYNOPSIS as help_synopsis prints it; the COMMANDS section's tags;
# the OPTIONS section's tags' options; the lines of EXAMPLES' .EX block,
# their "# " prompt taken off.
man_synopsis() {
	sed 's/\\-/-/g' "$1" | awk '
	/^\.SH / { sect = $2; next }
	sect != "SYNOPSIS" { next }
	/^\.SY / {
		line = $0
		gsub(/"/, "", line)
		n = split(line, w, / +/)
		cmd = n > 2 ? w[3] : "-"
		print cmd
		next
	}
	/^\.YS/ { next }
	{
		n = split($0, w, / +/)
		for (i = 1; i <= n; i++)
			if (w[i] ~ /^--?[a-z][a-z-]*$/) {
				arg = (w[1] == ".OP" && i == 2 && n > 2) ||
				      (w[1] == ".B" && w[i] == "--sort") ? 1 : 0
				print cmd, w[i], arg
			}
	}'
}

man_commands() {
	sed 's/\\-/-/g' "$1" | awk '
	/^\.SH / { sect = $2; next }
	sect == "COMMANDS" && tag {
		tag = 0
		line = $0
		sub(/^\.B +/, "", line)
		gsub(/"/, "", line)
		n = split(line, w, / +/)
		print (n > 1 ? w[2] : "-")
	}
	sect == "COMMANDS" && /^\.TP/ { tag = 1 }'
}

man_options() {
	sed 's/\\-/-/g' "$1" | awk '
	/^\.SH / { sect = $2; next }
	sect == "OPTIONS" && tag {
		tag = 0
		line = $0
		gsub(/"/, " ", line)
		n = split(line, w, / +/)
		for (i = 2; i <= n; i++)
			if (w[i] ~ /^--?[a-z][a-z-]*$/)
				print w[i]
	}
	sect == "OPTIONS" && /^\.T[PQ]/ { tag = 1 }'
}

man_examples() {
	sed 's/\\-/-/g' "$1" | awk '
	/^\.SH / { sect = $2; next }
	sect != "EXAMPLES" { next }
	/^\.EX/ { on = 1; next }
	/^\.EE/ { on = 0 }
	on { sub(/^[#$] /, ""); print }'
}

# readme_examples FILE: "LINENO<TAB>COMMAND LINE" for each example.
readme_examples() {
	awk '
	function out(s) {
		sub(/^ +/, "", s)
		if (s ~ /^[#$] +(sudo +)?mstat( |$)/) {
			sub(/^[#$] +/, "", s)
			print NR "\t" s
		} else if (sh && s ~ /^(sudo +)?mstat( |$)/)
			print NR "\t" s
	}
	/^ *```/ {
		if (fence) { fence = 0; next }
		fence = 1
		sh = $0 ~ /^ *```+ *(sh|shell|bash) *$/
		next
	}
	fence { out($0); next }
	/^    / && prev_blank_or_code { out($0); next }
	{ prev_blank_or_code = 0 }
	/^$/ { prev_blank_or_code = 1; next }
	' "$1"
}

help_synopsis "$tmp/help" >"$tmp/h.syn"
help_options "$tmp/help" | grep -v '^=' | sort -u >"$tmp/h.opts"
help_options "$tmp/help" | sed -n 's/^= //p' >"$tmp/h.alias"
help_examples "$tmp/help" >"$tmp/h.ex"

# The sets each side gives, one item a line, sorted.
cmds() { awk 'NF == 1' "$1" | sort -u; }
pairs() { awk 'NF == 3 { print $1, $2 }' "$1" | sort -u; }

# verdict NAME MUST_CATCH WHY: ok if WHY is empty (in broken mode, a test
# that must catch passes only if WHY is not).
verdict() {
	local name=$1 must=$2 why=$3
	if [ "$broken" = 1 ] && [ "$must" = 1 ]; then
		if [ -n "$why" ]; then
			ok "$name-broken (caught: $why)"
		else
			not_ok "$name-broken: passed, but must fail"
		fi
	elif [ -z "$why" ]; then
		ok "$name"
	else
		not_ok "$name: $why"
	fi
}

# differ A B: "WHAT only in --help; WHAT only in mstat(8)" of two sorted
# lists, empty if they are equal.
differ() {
	local a b
	a=$(comm -23 "$1" "$2" | paste -sd ',' | sed 's/,/, /g')
	b=$(comm -13 "$1" "$2" | paste -sd ',' | sed 's/,/, /g')
	[ -n "$a" ] && printf 'only in --help: %s' "$a"
	[ -n "$a" ] && [ -n "$b" ] && printf '; '
	[ -n "$b" ] && printf 'only in mstat(8): %s' "$b"
}

nc=$(cmds "$tmp/h.syn" | wc -l) no=$(wc -l <"$tmp/h.opts")
why=''
[ "$nc" -ge 4 ] && [ "$no" -ge 8 ] && [ -s "$tmp/h.ex" ] ||
	why="$nc commands, $no options, $(wc -l <"$tmp/h.ex") examples"
verdict doc-help-parsed 0 "$why"

man_synopsis "$man" >"$tmp/m.syn"
cmds "$tmp/h.syn" >"$tmp/h.cmds"
cmds "$tmp/m.syn" >"$tmp/m.cmds"
man_commands "$man" | sort -u >"$tmp/m.cmds2"
why=$(differ "$tmp/h.cmds" "$tmp/m.cmds")
d2=$(comm -3 "$tmp/m.cmds" "$tmp/m.cmds2" | tr -d '\t' | tr '\n' ' ')
[ -n "$d2" ] && why="${why:+$why; }SYNOPSIS and COMMANDS differ in: $d2"
verdict doc-man-commands 0 "$why"

pairs "$tmp/h.syn" >"$tmp/h.pairs"
pairs "$tmp/m.syn" >"$tmp/m.pairs"
verdict doc-man-synopsis 1 "$(differ "$tmp/h.pairs" "$tmp/m.pairs")"

man_options "$man" | sort -u >"$tmp/m.opts"
verdict doc-man-options 1 "$(differ "$tmp/h.opts" "$tmp/m.opts")"

sort -u "$tmp/h.ex" >"$tmp/h.exs"
man_examples "$man" | sort -u >"$tmp/m.exs"
verdict doc-man-examples 1 "$(differ "$tmp/h.exs" "$tmp/m.exs")"

# Each README example against --help: its command, then its options (an
# option's argument skipped), -X as its pair's long option.
readme_examples "$readme" >"$tmp/r.ex"
bad=()
while IFS=$'\t' read -r lineno text; do
	text=${text//&&/;} text=${text//||/;} text=${text//|/;}
	IFS=';' read -ra parts <<<"$text"
	for part in "${parts[@]}"; do
		read -ra w <<<"$part"
		[ "${w[0]:-}" = sudo ] && w=("${w[@]:1}")
		[ "${w[0]:-}" = mstat ] || continue
		cmd=- i=1
		if [[ ${w[1]:-} == [a-z]* ]]; then
			cmd=${w[1]} i=2
			if ! grep -qxF -- "$cmd" "$tmp/h.cmds"; then
				bad+=("line $lineno: no command $cmd")
				continue
			fi
		fi
		for ((; i < ${#w[@]}; i++)); do
			o=${w[i]}
			[[ $o == [\#\>\<\(]* ]] && break
			[[ $o == -* ]] || continue
			long=$(awk -v o="$o" '$1 == o { print $2 }' "$tmp/h.alias")
			arg=$(awk -v c="$cmd" -v o="${long:-$o}" \
				'$1 == c && $2 == o { print $3; exit }' "$tmp/h.syn")
			if [ -z "$arg" ]; then
				name=mstat
				[ "$cmd" = - ] || name="mstat $cmd"
				bad+=("line $lineno: $name has no $o")
				break
			fi
			[ "$arg" = 1 ] && i=$((i + 1))
		done
	done
done <"$tmp/r.ex"
n=$(wc -l <"$tmp/r.ex")
why=''
[ "$n" -ge 8 ] || why="only $n examples found in $readme"
[ ${#bad[@]} -eq 0 ] || why="${why:+$why; }$(printf '%s; ' "${bad[@]}")"
why=${why%; }
verdict doc-readme-examples 1 "$why"

# Each --help example against the README's lines, each without its
# indentation, prompt and trailing comment, spaces squeezed.
sed 's/^ *//; s/^[#$] \{1,\}//; s/  \{1,\}#.*//; s/  */ /g; s/ $//' \
	"$readme" >"$tmp/r.lines"
miss=()
while IFS= read -r ex; do
	grep -qxF -- "$(tr -s ' ' <<<"$ex")" "$tmp/r.lines" || miss+=("$ex")
done <"$tmp/h.ex"
why=''
[ ${#miss[@]} -eq 0 ] || why="not in $readme: $(printf '"%s" ' "${miss[@]}")"
verdict doc-readme-help-examples 0 "$why"

finish
