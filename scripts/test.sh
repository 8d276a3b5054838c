#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One test alone, by the name a run printed, in minutes:
#
#   scripts/test.sh [-k KERNEL] [-a APPEND] NAME...   (make test T=NAME [KERNEL=K])
#   scripts/test.sh --list                            the guest tests: kernels, needs
#   scripts/test.sh --resolve NAME...                 what NAME would run
#   scripts/test.sh --resolve-log LOG                 every name of a run's output
#
# NAME is a line of make check's (or make soak's) output, "ok"/"not ok"
# and the times after it or not, or a part of it:
#
#   guest-5.10-counts: kinds/kinds-shmem-huge   scripts/guest/kinds.sh on 5.10
#   kinds/kinds-shmem-huge   kinds-shmem-huge   kinds
#                            the same, on -k KERNEL, else the first kernel
#                            of the file's "# Kernels:" line, else 6.12
#   guest-6.12-leaks         scripts/guest/leaks.sh on 6.12
#   tools/mstat: leaks_serve   leaks_serve
#                            the mstat tool's test (tools/mstat/test.sh,
#                            MSTAT_TEST_ONLY)
#
# A guest test is one file, scripts/guest/NAME.sh; its header says what
# it checks, and may say on which kernels ("# Kernels: 6.12 7.3", the
# first the default; "debug" is the test kernel, scripts/testkernel.sh;
# "all", any; make check's counts guests read it too: mstat_part_on)
# and what its guest needs beyond what its file shows ("# Guest: ARG...",
# guest()'s arguments in scripts/lib.sh, --mem=, --smp=, --append=...,
# quoted as in a shell).
# What it loads and runs is read from the file itself: each ./NAME.ko it
# names is built (the tests/ directory holding NAME.c, kunit/ for the
# KUnit suites), each program of scripts/lib.sh's mstat_tools it runs as
# ./NAME is built, and all are copied in. A bare check name is looked
# for in those files: its literal, else the part whose name begins it
# (truth-kmalloc_large_var: truth.sh's, made at run time).
#
# Nothing is installed but what make check's set-up installs; kernels
# come from scripts/matrix.sh (any of its ids: 5.10, 6.1, 6.12, 6.12rt,
# 7.3...). The build goes to build/test/KERNEL, logs to build/logs/test/.
# Prints the guest's lines as make check does, under the guest name
# guest-KERNEL-PART, then "N passed, N failed"; exits 1 if one failed.
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
cd "$MSTAT_TOP" || exit 1

usage() {
	sed -n '4,8p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}


# list: one line a guest test.
list() {
	local f name k
	printf '%-16s %-22s %s\n' TEST KERNELS NEEDS
	for f in scripts/guest/*.sh; do
		name=${f##*/}
		name=${name%.sh}
		case $name in lib|parts) continue ;; esac
		k=$(mstat_header "$f" Kernels)
		printf '%-16s %-22s %s\n' "$name" "${k:-6.12}" \
			"$(mstat_guest_modules "$f" | sed 's/$/.ko/' | tr '\n' ' ')$(mstat_guest_tools "$f" | tr '\n' ' ')"
	done
}

# split_part: a check "PART/NAME" or "PART" of a guest of several
# parts (PART a guest file) into runpart and check; else runpart empty.
split_part() {
	runpart=''
	[ -n "$check" ] && [ -f "scripts/guest/${check%%/*}.sh" ] || return 0
	runpart=${check%%/*}
	[[ $check == */* ]] && check=${check#*/} || check=''
}

# run_resolve NAME: NAME, less ": CHECK" and the collector's suffixes,
# is a run of a guest file's "# Run:" lines: sets kind (run), part (the
# file), kernel, check, runname and runargs (its ARGs, as written).
run_resolve() {
	local g=${1%%: *} file name args p
	g=${g%-checks-reported} g=${g%-console-clean} g=${g%-kunit-parse}
	while read -r file _ name args; do
		[ "$name" = "$g" ] || continue
		kind=run part=${file##*/} part=${part%.sh}
		kernel=$(mstat_run_kernel "$name") runname=$name runargs=$args
		check='' runpart=''
		[[ $1 != *': '* ]] || check=${1#*: }
		# A part of a run of several ("guest-6.12-counts-broken:
		# truth/NAME"): that part alone, as the run boots it.
		p=${check%%/*}
		if [[ $check == */* && " $args " == *" parts="* ]] &&
		   [ -f "scripts/guest/$p.sh" ]; then
			runpart=$p check=${check#*/}
		fi
		return 0
	done < <(mstat_run_lines)
	return 1
}

# resolve NAME: sets kind (guest or tool), part, kernel (from the name,
# or empty), and check (the check's own name, if it named one).
resolve() {
	local n=$1 f c whole=''
	n=${n#not ok } n=${n#ok } n=${n#skip } n=${n#\# failed: }
	n=${n%% (*} n=${n#soak: }
	kind='' part='' kernel='' check='' hostcmd=''
	# A "t NAME" line of check.sh or soak.sh, its name made of variables
	# or not (soak-build-$id): a host test, whatever else it looks like.
	! host_t_resolve "$n" || return 0
	if [[ $n =~ ^tools/mstat:\ ([a-z0-9_]+) ]] ||
	   { [[ $n =~ ^([a-z0-9_]+)$ ]] &&
	     grep -qE "^[[:space:]]*(t|maybe) \"?${BASH_REMATCH[1]}\"? " \
		tools/mstat/test.sh tools/mstat/test_*.sh; }; then
		kind=tool part=${BASH_REMATCH[1]}
		return 0
	fi
	# A guest's name: make check's guest-K-G, make soak's soak-K-G,
	# arm64's arm64-K-G (K a kernel, G the guest; its -console-clean,
	# -checks-reported and -kunit-parse lines are the guest's too),
	# then ": CHECK" or ": PART/CHECK".
	# A run a guest file's header names ("# Run: GROUP NAME ARG...":
	# guest-6.12-learn-broken), as make check or make soak runs it.
	if run_resolve "$n"; then
		return 0
	fi
	# An arm64 guest of make check's (scripts/arm64.sh), one of them.
	if [[ $n =~ ^(arm64-(stock|debug|[0-9]+\.[0-9]+[a-z]*)-[a-z-]+)(:\ (.*))?$ ]]; then
		kind=arm64 runname=${BASH_REMATCH[1]} check=${BASH_REMATCH[4]}
		runname=${runname%-checks-reported} runname=${runname%-console-clean}
		runname=${runname%-kunit-parse}
		kernel=arm64-${BASH_REMATCH[2]}
		split_part
		return 0
	fi
	# The debug kernel's guests (mstat_debug_guests), one of them.
	if [[ $n =~ ^guest-debug-(kunit|torture|counts|kunit-busted|faults|faults-broken)(-checks-reported|-console-clean|-kunit-parse)?(:\ (.*))?$ ]]; then
		kind=debug kernel=debug runname=guest-debug-${BASH_REMATCH[1]}
		check=${BASH_REMATCH[4]} runpart=''
		[ "$runname" != guest-debug-counts ] || split_part
		return 0
	fi
	# A kernel's counts guest (mstat_counts_guest), whole or one part.
	if [[ $n =~ ^guest-([0-9]+\.[0-9]+[a-z]*)-counts(-checks-reported|-console-clean)?(:\ (.*))?$ ]]; then
		kind=counts kernel=${BASH_REMATCH[1]} check=${BASH_REMATCH[4]}
		split_part
		return 0
	fi
	if [[ $n =~ ^(guest|soak|arm64|soak-arm64)-([0-9]+\.[0-9]+[a-z]*|debug|kcsan|kasan|stock)-([^:]+)(:\ (.*))?$ ]]; then
		kernel=${BASH_REMATCH[2]}
		[[ ${BASH_REMATCH[1]} != *arm64 ]] || kernel=arm64-$kernel
		f=${BASH_REMATCH[3]} n=${BASH_REMATCH[5]}
		f=${f%-checks-reported} f=${f%-console-clean} f=${f%-kunit-parse}
		# Its script: the longest of G, G less its last words, that
		# is a file (debug-faults-broken: faults.sh).
		c=$f
		until [ -f "scripts/guest/$c.sh" ] || [[ $c != *-* ]]; do
			c=${c%-*}
		done
		[ ! -f "scripts/guest/$c.sh" ] || f=$c
		if [ -z "$n" ]; then
			n=$f whole=1
		elif [ -f "scripts/guest/$f.sh" ] &&
		     { [[ $n != */* ]] || [ ! -f "scripts/guest/${n%%/*}.sh" ]; }; then
			# A guest of one script: its checks carry no part.
			n=$f/$n
		fi
	fi
	kind=guest
	if [[ $n == */* ]]; then
		part=${n%%/*} check=${n#*/}
		[ -f "scripts/guest/$part.sh" ] || [ -n "$kernel" ] ||
			! host_resolve "$n" || return 0
	elif [ -f "scripts/guest/$n.sh" ] || [ -n "$whole" ]; then
		part=$n
	else
		# A check's bare name: its literal in a guest file, else a
		# host script's line, else the guest file whose name begins
		# it (truth-kmalloc_large_var: made at run time by truth.sh).
		check=$n
		part=$(grep -lE "(check|ok|skip) \"?$n([\" ]|$)" scripts/guest/*.sh)
		if [ "$(echo "$part" | grep -c .)" -gt 1 ]; then
			echo "not ok test: '$n' is a check of $(echo "$part" | sed 's|.*/||; s|\.sh$||' | tr '\n' ' ')- name it as PART/$n"
			return 1
		fi
		[ -n "$part" ] || ! host_resolve "$n" || return 0
		for c in scripts/guest/*.sh; do
			[ -n "$part" ] && break
			c=${c##*/}
			[[ $n == "${c%.sh}"-* ]] && part=scripts/guest/$c
		done
		part=${part##*/} part=${part%.sh}
	fi
	case $part in
	''|lib|parts)
		echo "not ok test: no guest, host or tool test named '$1' (scripts/test.sh --list)"
		return 1 ;;
	esac
	[ -f "scripts/guest/$part.sh" ] && return 0
	# A guest of several parts: the parts its last run's console named.
	c=$(tr -d '\r' 2>/dev/null <"build/logs/guest-$kernel-$part.console" |
		sed -n 's/^# part \([a-z0-9-]*\)$/\1/p' | tr '\n' ' ')
	echo "not ok test: no scripts/guest/$part.sh (from '$1')${c:+: guest-$kernel-$part boots the parts $c- name one as guest-$kernel-$part: PART}"
	return 1
}

# line_at FILE N: line N of FILE and the lines its backslashes continue,
# as one.
line_at() {
	sed -n "$2,\$p" "$1" | awk '{ sub(/^[ \t]+/, ""); if (sub(/\\$/, "")) { printf "%s", $0; next } print; exit }'
}

# host_t_resolve NAME: a host test make check or make soak runs as
# "t NAME CMD..." (kind host-t: that line; a name of variables matched
# as a pattern). host_resolve NAME: that, or a line a host script
# prints ("ok NAME" or a check of its own: kind host, that script as
# check.sh or soak.sh calls it, its log's redirection left out). Sets
# kind, part (NAME) and hostcmd.
host_t_resolve() {
	local h=${1%%: *} f line re
	for f in scripts/check.sh scripts/soak.sh; do
		while IFS=: read -r line re; do
			# The name's words: a variable matches any run of them.
			re=$(sed -E 's/^t "?([^ "]+)"? .*/\1/' <<<"$re")
			re=$(sed -E 's/[.+]/\\&/g; s/\$\{?[A-Za-z_][A-Za-z0-9_]*\}?/.+/g' <<<"$re")
			[[ $h =~ ^$re$ ]] || continue
			kind=host-t part=$h check=''
			hostcmd=$(line_at "$f" "$line" |
				sed -E 's/^.*(^|if |elif |&& )(t )/\2/; s/;? *then$//')
			return 0
		done < <(grep -nE '(^[[:space:]]*|if |elif |&& )t "?[a-z$][^ ]* ' "$f" |
			sed -E 's/^([0-9]+):.*(^|[[:space:]]|if |elif |&& )(t "?[a-z$])/\1:\3/')
	done
	return 1
}

host_resolve() {
	local h=${1%%: *} c f files
	h=${h%% # SKIP*}
	! host_t_resolve "$h" || return 0
	files=$(grep -lE "(ok|not_ok|check|result|expect|refused|skip|value) \"?$h([\" ]|$)" \
		scripts/*.sh | grep -vE '/(check|soak|lib|test)\.sh$')
	# A name made of variables where it is printed (ok
	# "guest-boot-watchdog-$i"): matched as a pattern.
	if [ -z "$files" ]; then
		local tok re
		# shellcheck disable=SC2016 # the names' own $variables
		while IFS=: read -r f tok; do
			re=$(sed -E 's/^[a-z_]+ "?//; s/[.+]/\\&/g; s/\$\{?[A-Za-z_][A-Za-z0-9_]*\}?/.+/g' <<<"$tok")
			[[ $re == *'.+'* && $h =~ ^$re$ ]] || continue
			files=$f
			break
		done < <(grep -oHE '(ok|not_ok|check|result|value|skip) "?[a-z][A-Za-z0-9_.${}/-]*' \
			scripts/*.sh | grep -vE '^scripts/(check|soak|lib|test)\.sh:')
	fi
	# A name made at run time: the script whose name, less -test or
	# -check, begins it, the longest such (exports-debug:
	# scripts/exports-check.sh; console-check-oops: console-check-test.sh).
	if [ -z "$files" ]; then
		local best=0
		for f in scripts/*.sh; do
			c=${f##*/} c=${c%.sh} c=${c%-test} c=${c%-check}
			if [[ $h == "$c"[-/]* ]] && [ "${#c}" -gt "$best" ]; then
				files=$f best=${#c}
			fi
		done
	fi
	[ "$(echo "$files" | grep -c .)" -eq 1 ] || return 1
	for f in scripts/check.sh scripts/soak.sh; do
		# Of several calls, the one with an option the name has
		# (layers-selftest: scripts/layers.sh --selftest).
		c=$(grep -nE "^[[:space:]]*[A-Z_=0-9]*[[:space:]]*$files( |$)" "$f" |
			awk -v h="$h" '{ n = split(h, w, /[-\/]/); for (i = 1; i <= n; i++)
				if (index($0, "--" w[i])) { print; exit } }
				NR == 1 { first = $0 } END { if (first != "") print first }' |
			head -n 1)
		[ -n "$c" ] || continue
		# shellcheck disable=SC2016 # the line's own $logs, cut
		hostcmd=$(line_at "$f" "${c%%:*}" |
			sed -E 's/ *2?>+ *"?\$logs[^ ]*//g; s/ *2>&1//; s/ *&$//')
		kind=host part=$h check=''
		return 0
	done
	return 1
}

# run_host: the host test resolved, alone: its line run here, after the
# set-up, with make check's variables the set-up and the matrix give
# ($logs: build/logs/test). A line that needs what only make check's
# earlier steps make (a build directory, a variable of its own) says so
# in its output.
run_host() {
	local out=$logs/host-$part.log v
	echo "# $part: $hostcmd"
	# shellcheck disable=SC2016 # the variables the line names
	for v in $(grep -oE '\$\{?[A-Za-z_][A-Za-z0-9_]*' <<<"$hostcmd" | tr -d '${' | sort -u); do
		[ -n "${!v+set}" ] && continue
		not_ok "$part: its line in make check needs \$$v, which only make check's earlier steps set: run make check"
		return 0
	done
	if [ "$kind" = host-t ]; then
		eval "$hostcmd"
	else
		( eval "$hostcmd" ) >"$out" 2>&1
		relay "$out"
	fi
}

# run_tool NAME: the mstat tool's test NAME alone.
run_tool() {
	MSTAT_TEST_ONLY=$1 make -s -C tools/mstat test >"$logs/tools-mstat-$1.log" 2>&1
	relay "$logs/tools-mstat-$1.log" tools/mstat
}

# kernel_env ID: vmlinuz, kdir and root set for kernel ID (the debug test
# kernel built, or a kernel of the matrix set up), or a not ok.
kernel_env() {
	local dir frag
	root=''
	if [ "$1" = debug ] || [ "$1" = kcsan ]; then
		# The x86 test kernels: the debug one (KASAN, lockdep,
		# kmemleak, fault injection) and make soak's KCSAN one.
		frag=kunit/.kunitconfig
		[ "$1" = debug ] || frag=kunit/kcsan.kunitconfig
		dir=$(scripts/testkernel.sh "$frag" 2>"$logs/testkernel.log") || {
			not_ok "testkernel-$1, log: build/logs/test/testkernel.log"
			return 1
		}
		vmlinuz=$dir/arch/x86/boot/bzImage kdir=$dir
		return 0
	fi
	scripts/matrix.sh "$1" >"$logs/matrix-$1.env" 2>"$logs/matrix-$1.log"
	# shellcheck source=/dev/null
	. "$logs/matrix-$1.env"
	vmlinuz=$(mstat_km "$1" VMLINUZ) kdir=$(mstat_km "$1" KDIR)
	root=$(mstat_km "$1" ROOT)
	if [ -z "$vmlinuz" ] || [ -n "$(mstat_km "$1" ERROR)" ]; then
		not_ok "kernel-$1: $(mstat_km "$1" ERROR), log: build/logs/test/matrix-$1.log"
		return 1
	fi
	[ "$(mstat_km "$1" ARCH)" != arm64 ] || {
		not_ok "kernel-$1: arm64 guests run from make check's arm64 part (scripts/arm64.sh), not here yet"
		return 1
	}
}

# build_for FILES KERNEL OUT [broken]: build into OUT, against KERNEL
# (kernel_env's), mstat and the test modules the guest files FILES (a
# path, or the names of parts) load, with the broken build's mutations
# if "broken", and the programs they run.
build_for() {
	local files=() f k=$2 out=$3 m d dirs='' kunit='' tools=()
	for f in $1; do
		[[ $f == */* ]] || f=scripts/guest/$f.sh
		files+=("$f")
	done
	for m in $(for f in "${files[@]}"; do mstat_guest_modules "$f"; done | sort -u); do
		[[ $m != *_kunit ]] || kunit=1
		d=$(mstat_module_dir "$m") || {
			not_ok "build-$k: ${files[*]} load $m.ko, which no tests/*/$m.c builds"
			return 1
		}
		[ -z "$d" ] || [ "$d" = kunit ] || [[ " $dirs " == *" $d "* ]] ||
			dirs+=" $d"
	done
	# The KUnit suites are built only by a build of everything.
	[ -z "$kunit" ] || dirs=''
	t "build-${out#build/test/}" env ${4:+KCFLAGS=-DMSTAT_BROKEN_COUNTS=1} \
		scripts/build.sh ${root:+--root "$root"} \
		${dirs:+--tests "${dirs# }"} "$kdir" "$out"
	[ -f "$out/mstat.ko" ] || return 1
	mapfile -t tools < <(for f in "${files[@]}"; do mstat_guest_tools "$f"; done | sort -u)
	t build-tools mstat_build_tools "${tools[@]}"
}

# run_guest PART KERNEL: build what scripts/guest/PART.sh needs against
# KERNEL, boot it there alone (as a part: parts.sh), collect its lines.
run_guest() {
	local part=$1 k=$2 file=scripts/guest/$1.sh extra=()
	kernel_env "$k" || return 0
	build_for "$file" "$k" "build/test/$k" || return 0
	mstat_guest_args "$file" "build/test/$k" || {
		not_ok "guest-$k-$part: $mstat_why"
		return 0
	}
	[ -z "$append" ] || extra+=("--append=$append")
	mstat_guests_parts "guest-$k-$part" "$vmlinuz" "$part" "${mstat_args[@]}" \
		--timeout=1200 ${extra[@]+"${extra[@]}"}
	collect_guests
}

# run_counts: the counts guest of $kernel (mstat_counts_guest, as make
# check queues it), all its parts built here, only $runpart run if set.
run_counts() {
	kernel_env "$kernel" || return 0
	build_for "truth caches account exact kinds ptkernel bulkpages survive params" \
		"$kernel" "build/test/$kernel" || return 0
	MSTAT_RUN_BUILDS=build/test MSTAT_RUN_ONLY=$runpart \
		mstat_counts_guest "$kernel" "$vmlinuz"
	collect_guests
}

# run_debug: one of the debug kernel's guests (mstat_debug_guests, as
# make check queues them), $runname, its part $runpart alone if set;
# mstat and every test module built here (build/test/debug, and with the
# broken build's mutations build/test/debug-broken, which the fault
# guests' broken run and the KUnit suites' own test take). The fault
# guest's first failed point is drawn each run: MSTAT_FAULTS_START=N
# gives the one a failed run printed.
run_debug() {
	local d=build/test/debug
	kernel_env debug || return 0
	t build-debug scripts/build.sh "$kdir" "$d" || return 0
	case $runname in
	*-broken|*-kunit-busted)
		t build-debug-broken env KCFLAGS=-DMSTAT_BROKEN_COUNTS=1 \
			scripts/build.sh "$kdir" "$d-broken" || return 0 ;;
	esac
	t build-tools mstat_build_tools
	MSTAT_RUN_NAMES=$runname MSTAT_RUN_ONLY=$runpart \
		mstat_debug_guests guest-debug "$vmlinuz" "$d" "$d-broken"
	collect_guests
}

# run_arm64: one of scripts/arm64.sh's guests, $runname, as make check
# runs it (its part $runpart alone if set): arm64.sh itself, queueing
# only that guest (MSTAT_RUN_NAMES), the test kernel built only for the
# arm64-debug-* ones; a matrix kernel's (arm64-5.10-counts) built first
# into build/ID, as make check builds it.
run_arm64() {
	local id=${runname#arm64-} r k
	id=arm64-${id%%-*} k=0
	[[ $runname != arm64-debug-* ]] || k=1
	if [[ $id != arm64-stock && $id != arm64-debug ]]; then
		scripts/matrix.sh "$id" >"$logs/matrix-$id.env" 2>"$logs/matrix-$id.log"
		set -a
		# shellcheck source=/dev/null
		. "$logs/matrix-$id.env"
		set +a
		if [ -z "$(mstat_km "$id" KDIR)" ] || [ -n "$(mstat_km "$id" ERROR)" ]; then
			not_ok "kernel-$id: $(mstat_km "$id" ERROR), log: build/logs/test/matrix-$id.log"
			return 0
		fi
		r=$(mstat_km "$id" ROOT)
		t "build-$id" scripts/build.sh ${r:+--root "$r"} --arch arm64 \
			--tests 'truth caches' "$(mstat_km "$id" KDIR)" "build/$id" ||
			return 0
	fi
	MSTAT_RUN_NAMES=$runname MSTAT_RUN_ONLY=$runpart \
		MSTAT_ARM64_TESTKERNEL=$k KM_IDS=${KM_IDS:-} \
		scripts/arm64.sh >"$logs/arm64.log" 2>&1
	relay "$logs/arm64.log"
}

# run_run: the run resolved (run_resolve), as its "# Run:" line says,
# with the modules built here (build/test/KERNEL; a build=B of a broken
# build, build/test/KERNEL-broken with its mutations).
run_run() {
	local file=scripts/guest/$part.sh a args=() b='' extra=() built
	kernel_env "$kernel" || return 0
	eval "args=($runargs)"
	built=$file
	for a in "${!args[@]}"; do
		case ${args[a]} in
		build=*)	b=''
				[[ ${args[a]} != *-broken ]] || b=-broken
				args[a]=build=$kernel$b ;;
		parts=*)	[ -z "$runpart" ] || args[a]=parts=$runpart
				built=${args[a]#parts=} ;;
		esac
	done
	build_for "$built" "$kernel" "build/test/$kernel$b" ${b:+broken} || return 0
	[ -z "$append" ] || extra+=("--append=$append")
	MSTAT_RUN_BUILDS=build/test MSTAT_RUN_VMLINUZ=$vmlinuz \
		mstat_run "$file" "$runname" ${args[@]+"${args[@]}"} \
		${extra[@]+"${extra[@]}"}
	collect_guests
}

[ $# -gt 0 ] || usage
[ "$1" != --list ] || { list; exit 0; }
# --resolve-log LOG: each result name of a run's output LOG (make check's,
# make soak's) resolved; those that do not, listed; exit 1 if any.
if [ "$1" = --resolve-log ]; then
	bad=0 n=0
	while IFS= read -r name; do
		n=$((n + 1))
		out=$("$0" --resolve "$name" 2>&1) || { bad=$((bad + 1)); echo "$out"; }
	done < <(grep -E '^(not )?ok ' "$2" |
		sed -E 's/^(not )?ok //; s/ # SKIP.*//; s/ \(.*//; s/, log: .*//' | sort -u)
	echo "# $n names, $((n - bad)) resolved, $bad not"
	[ "$bad" -eq 0 ]
	exit
fi
# --resolve NAME...: what each NAME runs ("guest PART KERNEL CHECK" or
# "tool NAME"), nothing run (scripts/test-test.sh).
if [ "$1" = --resolve ]; then
	shift
	for name; do
		resolve "$name" || exit 1
		if [ "$kind" = counts ]; then
			echo "counts guest-$kernel-counts${runpart:+ part $runpart}${check:+ $check}"
			continue
		fi
		if [ "$kind" = debug ]; then
			echo "debug $runname${runpart:+ part $runpart}${check:+ $check}"
			continue
		fi
		if [ "$kind" = arm64 ]; then
			echo "arm64 $runname${runpart:+ part $runpart}${check:+ $check}"
			continue
		fi
		if [ "$kind" = run ]; then
			echo "run $runname ($part)${runpart:+ part $runpart}${check:+ $check}${runargs:+: $runargs}"
			continue
		fi
		echo "$kind $part${kernel:+ $kernel}${check:+ $check}${hostcmd:+: $hostcmd}"
	done
	exit 0
fi
want_kernel='' append=''
while getopts k:a:h o; do
	case $o in
	k)	want_kernel=$OPTARG ;;
	a)	append=$OPTARG ;;
	*)	usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || usage

logs=$MSTAT_TOP/build/logs/test
MSTAT_LOGS=$logs
mkdir -p "$logs"
if ! mstat_setup_env; then
	not_ok "setup, log: $mstat_setup_log"
	summary
fi
for name; do
	resolve "$name" || { mstat_failed=$((mstat_failed + 1)); continue; }
	if [ "$kind" = tool ]; then
		run_tool "$part"
		continue
	fi
	if [[ $kind == host* ]]; then
		run_host
		continue
	fi
	if [ "$kind" = arm64 ]; then
		echo "# $name: $runname as make check runs it (scripts/arm64.sh)${runpart:+, its part $runpart alone}"
		run_arm64
		continue
	fi
	if [ "$kind" = debug ]; then
		echo "# $name: $runname as make check queues it (mstat_debug_guests)${runpart:+, its part $runpart alone}"
		run_debug
		continue
	fi
	if [ "$kind" = counts ]; then
		echo "# $name: guest-$kernel-counts as make check queues it (mstat_counts_guest)${runpart:+, its part $runpart alone}"
		run_counts
		continue
	fi
	if [ "$kind" = run ]; then
		echo "# $name: scripts/guest/$part.sh as its line \"# Run: ... $runname\" says${check:+ (its check $check)}"
		run_run
		continue
	fi
	k=${want_kernel:-$kernel}
	[ -n "$k" ] || k=$(mstat_header "scripts/guest/$part.sh" Kernels | awk '{ print $1 }')
	echo "# $name: scripts/guest/$part.sh${check:+ (its check $check)} on ${k:-6.12}"
	run_guest "$part" "${k:-6.12}"
done
summary
