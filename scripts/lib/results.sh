# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Test results: the lines every host script prints (ok, not_ok, skip, t,
# relay), their count and summary, and the CPU time a test took.
# Sourced by scripts/lib.sh (its MSTAT_TOP, log and die), never alone.

## Test results
#
# One line per test on stdout, TAP's (without numbers, which TAP 13
# leaves optional), and nothing else that starts with "ok " or "not ok ":
#	ok NAME[ (DETAIL)]
#	not ok NAME[: WHY]
#	ok NAME # SKIP WHY
# Diagnostics are "# " lines. A script that runs several tests ends with
# finish (a sub-suite: exit status only) or summary (make check, the
# mstat tool's tests: also the line "N passed, N failed[, N skipped]").

mstat_passed=0 mstat_failed=0 mstat_skipped=0 mstat_failed_names=()

# show: stdin as diagnostic lines.
show() { sed 's/^/#   /'; }

ok() { mstat_passed=$((mstat_passed + 1)); echo "ok $*"; }
not_ok() {
	local t="$*"

	mstat_failed=$((mstat_failed + 1))
	mstat_failed_names+=("${t:0:120}")
	echo "not ok $*"
}
skip() { mstat_skipped=$((mstat_skipped + 1)); echo "ok $1 # SKIP $2"; }

# result NAME STATUS: ok if STATUS is 0, else not ok.
result() {
	if [ "$2" -eq 0 ]; then ok "$1"; else not_ok "$1"; fi
}

# check NAME CMD...: ok if CMD succeeds. CMD's output is its own.
check() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

# exits STATUS CMD...: succeeds if CMD exits with STATUS (a test that
# must catch something: "t NAME exits 1 CMD...").
exits() {
	local want=$1 rc=0
	shift
	"$@" || rc=$?
	[ "$rc" -eq "$want" ] && return
	echo "exit $rc, wanted $want" >&2
	return 1
}

# mstat_cpu VAR: VAR set to the CPU time, user and system, of this
# shell's children that have ended and been waited for (and of theirs),
# in hundredths of a second (/proc's cutime and cstime; CLK_TCK is 100 on
# Debian's kernels). Unlike a wall-clock time, it does not grow when
# other work shares the CPUs.
mstat_cpu() {
	local cpu_stat
	read -r -a cpu_stat <"/proc/$BASHPID/stat"
	printf -v "$1" '%s' $((cpu_stat[15] + cpu_stat[16]))
}

# t NAME CMD...: one test, timed (wall-clock and CPU time): ok if CMD
# succeeds. Its output goes to
# $MSTAT_LOGS/NAME.log ("/" in NAME becomes "-"); on failure the last 20
# lines of it follow as "#   " lines. With MSTAT_T_SHOW=N, the last N
# lines also follow an "ok" (a summary the command prints last).
t() {
	local name=$1 start=$SECONDS rc=0 log c0 c1
	shift
	log=$MSTAT_LOGS/${name//\//-}.log
	mkdir -p "$MSTAT_LOGS"
	mstat_cpu c0
	"$@" >"$log" 2>&1 || rc=$?
	mstat_cpu c1
	if [ "$rc" -eq 0 ]; then
		ok "$name ($((SECONDS - start)) s, $(((c1 - c0) / 100)) s CPU)"
		[ "${MSTAT_T_SHOW:-0}" -gt 0 ] &&
			tail -n "$MSTAT_T_SHOW" "$log" | show
	else
		not_ok "$name ($((SECONDS - start)) s, exit $rc), log: ${log#"$MSTAT_TOP"/}"
		tail -n 20 "$log" | show
	fi
	return 0
}

# relay LOG [PREFIX]: the "ok"/"not ok"/"skip" lines of a sub-suite's
# output, counted here as tests, PREFIX ": " before their names, and its
# "# KUnit: NAME SUITE passed=N failed=N" lines (collect_kunit's), whose
# cases are tallied here too; its other lines stay in LOG.
relay() {
	local line pre=${2:+$2: } np nf lbl
	while IFS= read -r line; do
		case $line in
		"ok "*" # SKIP "*)
				mstat_skipped=$((mstat_skipped + 1))
				echo "ok $pre${line#ok }" ;;
		"ok "*)		ok "$pre${line#ok }" ;;
		"not ok "*)	not_ok "$pre${line#not ok }" ;;
		"# KUnit: "*" passed="*" failed="*)
				np=${line##* passed=} np=${np%% *}
				nf=${line##* failed=} nf=${nf%% *}
				lbl=${line#"# KUnit: "}
				tally "$np" "$nf" "$pre${lbl%% passed=*}"
				echo "$line" ;;
		esac
	done <"$1"
}

# tally PASSED FAILED [WHAT]: tests counted elsewhere (KUnit cases, as
# kunit.py parse counted them), added to the totals; WHAT names them
# among the failed ones.
tally() {
	mstat_passed=$((mstat_passed + $1))
	mstat_failed=$((mstat_failed + $2))
	[ "$2" -eq 0 ] || mstat_failed_names+=("${3:-KUnit}: KUnit cases failed: $2")
}

# finish: exit 1 if a test failed, else 0.
finish() {
	[ "$mstat_failed" -eq 0 ]
	exit
}

# summary: the line "N passed, N failed" (", N skipped" if any were),
# then finish.
summary() {
	[ "${mstat_retried_boots:-0}" -eq 0 ] ||
		echo "# guests booted twice, the first boot dead before its script: $mstat_retried_boots (their lines say which)"
	# The failures again at the end, where a log's tail shows them.
	local f n=0
	for f in "${mstat_failed_names[@]}"; do
		n=$((n + 1))
		[ "$n" -le 20 ] || { echo "# failed: and $((${#mstat_failed_names[@]} - 20)) more"; break; }
		echo "# failed: $f"
	done
	if [ "$mstat_skipped" -gt 0 ]; then
		echo "$mstat_passed passed, $mstat_failed failed, $mstat_skipped skipped"
	else
		echo "$mstat_passed passed, $mstat_failed failed"
	fi
	finish
}
