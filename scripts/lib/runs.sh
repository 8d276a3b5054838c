# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# A guest test's runs, read from its file's header: what it loads and
# runs, its "# Guest:" and "# Run:" lines, and mstat_runs, which queues
# them (with guest(), scripts/lib/guests.sh).
# Sourced by scripts/lib.sh, never alone.

## A guest test's runs, read from its header
#
# A guest test is one file, scripts/guest/NAME.sh. What it loads and runs
# is read from the file itself: each ./MOD.ko it names (built from
# tests/DIR/MOD.c, or kunit/ for the KUnit suites), each program of
# mstat_tools (scripts/lib/tools.sh) it runs as ./PROG. Its header may
# say more, one line each:
#
#   # Kernels: 6.12 7.3          where make test runs it (the first by
#                                default; "debug", "kcsan", "all")
#   # Guest: ARG...              guest()'s arguments every run of it
#                                takes, quoted as in a shell
#   # Run: GROUP NAME [ARG...]   a run of it make check (GROUP check) or
#                                make soak (soak) queues as guest NAME,
#                                guest-ID-X or soak-ID-X, ID the kernel
#                                of scripts/matrix.sh it boots and whose
#                                build (build/ID) it takes; ARG: guest()'s,
#                                or build=B (build/B's modules: 6.12-broken),
#                                or, in parts.sh, parts="P..." (the guest
#                                tests it boots one after the other:
#                                mstat_guests_parts); a line ending in "\"
#                                goes on in the next
#
# mstat_runs GROUP ID... queues every run of GROUP on those kernels;
# scripts/test.sh runs one by its NAME.

# mstat_module_dir MODULE: the directory of tests/ (or kunit) whose source
# builds MODULE.ko; nothing for mstat itself.
mstat_module_dir() {
	local f
	case $1 in
	mstat)		return 0 ;;
	*_kunit)	echo kunit; return 0 ;;
	esac
	for f in "$MSTAT_TOP"/tests/*/"$1".c; do
		[ -f "$f" ] || continue
		f=${f#"$MSTAT_TOP"/tests/}
		echo "${f%%/*}"
		return 0
	done
	return 1
}

# mstat_guest_modules FILE: the modules FILE loads, without .ko.
mstat_guest_modules() {
	grep -o '\./[a-z_0-9*]*\.ko' "$1" | sed 's|^\./||; s|\.ko$||' | sort -u
}

# mstat_guest_tools FILE: the programs of mstat_tools FILE runs as
# ./NAME, and mstat and acct, which the guests' library runs.
mstat_guest_tools() {
	local spec name
	{
		echo mstat
		echo acct
		# shellcheck disable=SC2154 # scripts/lib/tools.sh's
		for spec in "${mstat_tools[@]}"; do
			name=${spec%% *}
			grep -qE "(^|[^a-z_/.-])\./$name([^a-z_.-]|\$)" "$1" &&
				echo "$name"
		done
	} | sort -u
}

# mstat_guest_args FILE BUILD: sets mstat_args, the guest() arguments of
# every run of FILE with the modules of build directory BUILD: mstat.ko,
# the modules and programs FILE names, its "# Guest:" line. Returns 1,
# saying why, if a module has no source.
mstat_guest_args() {
	local file=$1 b=$2 m d hdr=()
	mstat_args=("$b/mstat.ko")
	for m in $(mstat_guest_modules "$file"); do
		case $m in
		mstat)		;;
		*_kunit)	[[ " ${mstat_args[*]} " == *_kunit.ko* ]] ||
					mstat_args+=("$b"/kunit/*_kunit.ko) ;;
		*)		d=$(mstat_module_dir "$m") || {
					mstat_why="$file loads $m.ko, which no tests/*/$m.c builds"
					return 1
				}
				mstat_args+=("$b/tests/$d/$m.ko") ;;
		esac
	done
	for m in $(mstat_guest_tools "$file"); do
		mstat_args+=("--file=build/tools/$m:/mstat/$m")
	done
	eval "hdr=($(mstat_header "$file" Guest))"
	mstat_args+=(${hdr[@]+"${hdr[@]}"})
}

# mstat_run_lines [GROUP]: every "# Run:" line of the guest tests (of
# GROUP), one a line: "FILE GROUP NAME ARG..." (FILE from the tree's
# top, the ARGs as written).
mstat_run_lines() {
	local f
	for f in "$MSTAT_TOP"/scripts/guest/*.sh; do
		# A line that ends in a backslash goes on in the next "#" line.
		head -n 100 "$f" | awk -v f="${f#"$MSTAT_TOP"/}" -v g="${1:-[a-z]+}" '
			run != "" { l = $0; sub(/^#[ \t]*/, "", l); run = run l }
			run == "" && $0 ~ "^# Run: (" g ") " { run = substr($0, 8) }
			run != "" && sub(/[ \t]*\\$/, " ", run) { next }
			run != "" { print f " " run; run = "" }'
	done
}

# mstat_run_kernel NAME: the kernel ID of run NAME (guest-6.12rt-module:
# 6.12rt).
mstat_run_kernel() {
	[[ $1 =~ ^[a-z0-9]+-([0-9]+\.[0-9]+[a-z]*|debug|kcsan)- ]] || return 1
	echo "${BASH_REMATCH[1]}"
}

# mstat_run FILE NAME ARG...: queue run NAME of guest test FILE, booting
# kernel ID of its name (mstat_km ID VMLINUZ, or MSTAT_RUN_VMLINUZ) with
# the modules of $MSTAT_RUN_BUILDS/ID (default build/ID; a build=B
# argument: .../B). Nothing if that build has no mstat.ko (the build's
# own line says why); a not ok if the kernel has no image or a module
# the file loads was not built.
mstat_run() {
	local file=$1 name=$2 id b a p rest=() vmlinuz parts='' all=()
	shift 2
	id=$(mstat_run_kernel "$name") || {
		not_ok "$name: no kernel in the run's name ($file)"
		return 0
	}
	b=${MSTAT_RUN_BUILDS:-build}/$id
	for a; do
		case $a in
		build=*)	b=${MSTAT_RUN_BUILDS:-build}/${a#build=} ;;
		parts=*)	parts=${a#parts=} ;;
		*)		rest+=("$a") ;;
		esac
	done
	vmlinuz=${MSTAT_RUN_VMLINUZ:-$(mstat_km "$id" VMLINUZ)}
	# No build: its own line said why. A build and no image: say so,
	# never a run silently left out.
	[ -f "$b/mstat.ko" ] || return 0
	[ -f "$vmlinuz" ] || {
		not_ok "$name: no image of kernel $id (mstat_km $id VMLINUZ: '$vmlinuz')"
		return 0
	}
	# parts.sh's runs: what each part loads and runs (not their "#
	# Guest:" lines: the parts share one boot and its command line).
	for p in ${parts:-${file#scripts/guest/}}; do
		p=scripts/guest/${p%.sh}.sh
		mstat_guest_args "$MSTAT_TOP/$p" "$b" || {
			not_ok "$name: $mstat_why"
			return 0
		}
		if [ -n "$parts" ]; then
			for a in "${mstat_args[@]}"; do
				[[ $a != --* ]] || [[ $a == --file=* ]] || continue
				[[ " ${all[*]} " == *" $a "* ]] || all+=("$a")
			done
		else
			all=("${mstat_args[@]}")
		fi
	done
	mstat_args=("${all[@]}")
	for a in "${mstat_args[@]}"; do
		case $a in
		*.ko)	[ -f "$a" ] ||
				{ not_ok "$name: no $a (not built: its build's line says why)"; return 0; } ;;
		--file=*)
			a=${a#--file=} a=${a%%:*}
			[ -e "$a" ] ||
				{ not_ok "$name: no $a (build-tools' log: build/logs/build-tools.log)"; return 0; } ;;
		esac
	done
	if [ -n "$parts" ]; then
		mstat_guests_parts "$name" "$vmlinuz" "$parts" "${mstat_args[@]}" \
			${rest[@]+"${rest[@]}"}
	else
		guest "$name" "$vmlinuz" "$file" "${mstat_args[@]}" \
			${rest[@]+"${rest[@]}"}
	fi
}

# mstat_runs GROUP ID...: queue every run of GROUP on kernels ID, in the
# order of the files and of their lines.
mstat_runs() {
	local group=$1 file name line args
	shift
	while read -r file _ name line; do
		[[ " $* " == *" $(mstat_run_kernel "$name") "* ]] || continue
		eval "args=($line)"
		mstat_run "$file" "$name" ${args[@]+"${args[@]}"}
	done < <(mstat_run_lines "$group")
}
