#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The documents and the tool agree. `mstat --help` (main.c) is the one
# place the commands, options and examples are written; mstat(8) is made
# from it by help2man (tools/mstat/man.sh, mstat.h2m), and the README's
# `mstat ...` lines are checked against it. One "ok NAME"/"not ok NAME:
# WHY" line each:
#
#   doc-help-parsed	--help gives 4 commands, 8 options and an example
#			at least
#   doc-man		mstat(8) generated from it: one SYNOPSIS line per
#			usage line, every option of --help in OPTIONS, every
#			example in EXAMPLES, and no warning from
#			groff -man -ww nor a failure of lexgrog
#   doc-readme-examples	every mstat line of the README's code blocks (at
#			least 8) names a command --help lists and only
#			options --help gives that command (-c as --caches,
#			as --help pairs them)
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
# The deliberately broken mode, MSTAT_DOC_BROKEN=1, checks a copy of the
# README with "mstat top --frobnicate" and "mstat frob -f x" added:
# doc-readme-examples must then fail, on both lines, and prints "ok
# doc-readme-examples-broken (caught: WHY)" if it does, "not ok
# doc-readme-examples-broken: WHY" if not; the others must pass as before.
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP" || exit 1
mstat=${1:-build/tools/mstat}
readme=README.md
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
	# shellcheck disable=SC2016 # a fence, not an expansion
	printf '\n```sh\nmstat top --frobnicate\nmstat frob -f x\n```\n' \
		>>"$tmp/README.md"
	readme=$tmp/README.md
fi

# --help's usage lines (up to the first blank line), as "CMD" for each
# command ("-": plain mstat) and "CMD OPT ARG" for each option (ARG 1 if
# a word follows it); its "-X, --long" pairs as "-X --long"; its examples.
awk '/^$/ { exit }
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
			# An optional argument: --opt[=ARG].
			sub(/\[=[A-Z]+$/, "", o)
			if (o !~ /^--?[a-z][a-z-]*$/)
				continue
			arg = (k == m && w[i] !~ /\]$/ && i < n && \
			       w[i + 1] ~ /^[a-zA-Z]/) ? 1 : 0
			print cmd, o, arg
		}
	}
}' "$tmp/help" >"$tmp/syn"
sed -n 's/^  \(-[a-z]\), \(--[a-z-]*\)  .*/\1 \2/p' "$tmp/help" >"$tmp/alias"
awk '/^Examples:/ { on = 1; next } on && /^$/ { exit }
     on { sub(/^ +/, ""); print }' "$tmp/help" >"$tmp/ex"
awk 'NF == 1' "$tmp/syn" | sort -u >"$tmp/cmds"
awk 'NF == 3 { print $2 }' "$tmp/syn" | sort -u >"$tmp/opts"

nc=$(wc -l <"$tmp/cmds") no=$(wc -l <"$tmp/opts") ne=$(wc -l <"$tmp/ex")
if [ "$nc" -ge 4 ] && [ "$no" -ge 8 ] && [ "$ne" -ge 1 ]; then
	ok doc-help-parsed
else
	not_ok "doc-help-parsed: $nc commands, $no options, $ne examples"
fi

# mstat(8), as make man makes it, read back: what help2man made of
# --help is all there, and the page is clean roff.
man_why=()
if tools/mstat/man.sh "$mstat" 0 "$tmp/mstat.8" >"$tmp/man.log" 2>&1; then
	man -l "$tmp/mstat.8" 2>/dev/null | col -bx >"$tmp/man.txt"
	sect() { sed -n "/^$1\$/,/^[A-Z]/p" "$tmp/man.txt" | sed '1d;$d'; }
	ns=$(awk '/^\.SH/ { s = $2 } s == "SYNOPSIS" && /^\.B mstat$/' \
		"$tmp/mstat.8" | wc -l)
	nu=$(sed -n '/^usage:/,/^$/p' "$tmp/help" | grep -c '^ *\(usage: \)\?mstat')
	[ "$ns" = "$nu" ] || man_why+=("$ns SYNOPSIS lines for $nu usage lines")
	sect OPTIONS | tr -s ' ,' '\n' | grep -- '^-' | sed 's/\[=.*//' |
		sort -u >"$tmp/m.opts"
	o=$(comm -23 "$tmp/opts" "$tmp/m.opts" | paste -sd ' ')
	[ -z "$o" ] || man_why+=("not in OPTIONS: $o")
	sect EXAMPLES | sed 's/^ *//' >"$tmp/m.ex"
	e=$(grep -cvxFf "$tmp/m.ex" "$tmp/ex")
	[ "$e" = 0 ] || man_why+=("$e examples not in EXAMPLES")
	w=$(groff -man -Tutf8 -ww "$tmp/mstat.8" 2>&1 >/dev/null | head -n 3)
	[ -z "$w" ] || man_why+=("groff: $w")
	lexgrog "$tmp/mstat.8" >/dev/null 2>&1 || man_why+=("lexgrog finds no NAME")
else
	man_why+=("tools/mstat/man.sh failed: $(tail -n 1 "$tmp/man.log")")
fi
if [ ${#man_why[@]} -eq 0 ]; then
	ok doc-man
else
	not_ok "doc-man: $(printf '%s; ' "${man_why[@]}" | sed 's/; $//')"
fi

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
			if ! grep -qxF -- "$cmd" "$tmp/cmds"; then
				bad+=("line $lineno: no command $cmd")
				continue
			fi
		fi
		for ((; i < ${#w[@]}; i++)); do
			o=${w[i]}
			[[ $o == [\#\>\<\(]* ]] && break
			[[ $o == -* ]] || continue
			# --opt=VALUE: its value in the word.
			eq=0
			[[ $o == --*=* ]] && o=${o%%=*} eq=1
			long=$(awk -v o="$o" '$1 == o { print $2 }' "$tmp/alias")
			arg=$(awk -v c="$cmd" -v o="${long:-$o}" \
				'$1 == c && $2 == o { print $3; exit }' "$tmp/syn")
			if [ -z "$arg" ]; then
				name=mstat
				[ "$cmd" = - ] || name="mstat $cmd"
				bad+=("line $lineno: $name has no $o")
				break
			fi
			[ "$arg" = 1 ] && [ "$eq" = 0 ] && i=$((i + 1))
		done
	done
done <"$tmp/r.ex"
n=$(wc -l <"$tmp/r.ex")
why=''
[ "$n" -ge 8 ] || why="only $n examples found in $readme"
[ ${#bad[@]} -eq 0 ] || why="${why:+$why; }$(printf '%s; ' "${bad[@]}")"
why=${why%; }
if [ "$broken" != 1 ]; then
	if [ -z "$why" ]; then ok doc-readme-examples
	else not_ok "doc-readme-examples: $why"; fi
elif [[ $why == *"has no --frobnicate"* && $why == *"no command frob"* ]]; then
	ok "doc-readme-examples-broken (caught: $why)"
else
	not_ok "doc-readme-examples-broken: caught ${why:-nothing}," \
		"must catch --frobnicate and frob"
fi

# Each --help example against the README's lines, each without its
# indentation, prompt and trailing comment, spaces squeezed.
sed 's/^ *//; s/^[#$] \{1,\}//; s/  \{1,\}#.*//; s/  */ /g; s/ $//' \
	"$readme" >"$tmp/r.lines"
miss=()
while IFS= read -r ex; do
	grep -qxF -- "$(tr -s ' ' <<<"$ex")" "$tmp/r.lines" || miss+=("$ex")
done <"$tmp/ex"
if [ ${#miss[@]} -eq 0 ]; then
	ok doc-readme-help-examples
else
	not_ok "doc-readme-help-examples: not in $readme:" \
		"$(printf '"%s" ' "${miss[@]}")"
fi

# Every parameter the module declares (module_param*() in mstat_mod.c and
# mstat_ctl.c) but reset, which has no value at load, is on an "#options
# mstat" line of the package's modprobe file, with its default. Broken
# mode: a copy of it without enable_vmalloc must fail.
modprobe=debian/mstat.modprobe
if [ "$broken" = 1 ]; then
	sed 's/ enable_vmalloc=[^ ]*//' "$modprobe" >"$tmp/mstat.modprobe"
	modprobe=$tmp/mstat.modprobe
fi
sed -n 's/^module_param[a-z_]*(\([a-z_0-9]*\),.*/\1/p' mstat_mod.c mstat_ctl.c |
	grep -vx reset | sort -u >"$tmp/params"
sed -n 's/^#options mstat //p' "$modprobe" | tr ' ' '\n' |
	sed -n 's/=.*//p' | sort -u >"$tmp/listed"
pmiss=$(comm -23 "$tmp/params" "$tmp/listed" | tr '\n' ' ')
if [ "$(wc -l <"$tmp/params")" -lt 20 ]; then
	not_ok "doc-modprobe: only $(wc -l <"$tmp/params") parameters found in the sources"
elif [ "$broken" = 1 ]; then
	if [ "$pmiss" = "enable_vmalloc " ]; then
		ok "doc-modprobe-broken (caught: $pmiss)"
	else
		not_ok "doc-modprobe-broken: caught '${pmiss}', not enable_vmalloc"
	fi
elif [ -z "$pmiss" ]; then
	ok doc-modprobe
else
	not_ok "doc-modprobe: not in $modprobe: $pmiss"
fi

finish
