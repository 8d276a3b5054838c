# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The static programs the guests run: their list and build, the invariant
# checker, the test module builds' options.
# Sourced by scripts/lib.sh (its MSTAT_TOP, log and die), never alone.

## The static programs the guests run

# Built into build/tools/NAME by mstat_build_tools: NAME, then its C
# sources, one program a line; and "mstat", the tool of tools/mstat (its
# own Makefile: static, zlib; mstat-serve beside it, the dynamic build
# with mstat serve's server), whose `mstat check` is the invariant
# checker, run through mstat_check here and in the guests' library; and
# "mstat-bpf", the eBPF comparison's loader with its programs built in
# (tests/bpf/Makefile: clang -target bpf, static against libbpf).
mstat_tools=(
	"mstat tools/mstat"
	"runas tests/helpers/runas.c"
	"write1 tests/helpers/write1.c"
	"evpoll tests/helpers/evpoll.c"
	"readlat tests/helpers/readlat.c"
	"mstat-fuzz tests/fuzz/mstat-fuzz.c"
	"truth tests/helpers/truth.c"
	"caches tests/helpers/caches.c"
	"reconcile tests/helpers/reconcile.c"
	"faultio tests/helpers/faultio.c"
	"labels tests/helpers/labels.c tools/mstat/parse.c -lm"
	"leaks tests/helpers/leaks.c tests/helpers/leaks_json.c tests/helpers/leaks_load.c"
	"nsrun tests/helpers/nsrun.c"
	"acct tests/helpers/acct.c -pthread"
	"swapper tests/helpers/swapper.c"
	"huge tests/helpers/huge.c"
	"mstat-bpf tests/bpf"
)

# mstat_check ARGS...: the invariant checker, on the host.
mstat_check() { "$MSTAT_TOP/build/tools/mstat" check "$@"; }

# mstat_kbuild_lean: what the tests' module builds (scripts/build.sh,
# scripts/compat-build.sh, and scripts/lint.sh's sparse in the same
# directories, which must not rebuild) add to make: no debug information
# and no BTF for the modules. Debian's configs ask for both (DWARF, and
# pahole's "BTF [M]" step), no test reads them (a guest's oops is
# decoded by kallsyms; the eBPF tests attach to raw tracepoints), and
# they took 11% of a build's CPU: everything against 6.12, 51.4 s of CPU
# against 56.4 and 59.2 s (scripts/build.sh by hand, a 2-CPU machine).
# DKMS, make install and make deb build as the kernel's
# config says.
# shellcheck disable=SC2034 # used by the scripts that source this
mstat_kbuild_lean=(CONFIG_DEBUG_INFO= CONFIG_DEBUG_INFO_BTF_MODULES=)

# mstat_build_base REF KDIR DIR: mstat as of git REF, a baseline for the
# benches (MSTAT_BENCH_BASE), built against KDIR in DIR (remade); its
# log in DIR.log.
mstat_build_base() {
	rm -rf "$3"
	mkdir -p "$3"
	if ! git -C "$MSTAT_TOP" archive "$1" | tar -x -C "$3" ||
	   ! make -s -C "$2" M="$(realpath "$3")" modules >"$3.log" 2>&1; then
		log "cannot build $1 against $2, log: $3.log"
		return 1
	fi
}

# mstat_build_tools [--arch arm64] [NAME...]: build those programs
# (default: all), static, with -Werror: a warning fails the build. With
# --arch arm64, cross-built by aarch64-linux-gnu-gcc into
# build/arm64-tools/NAME, the mstat tool against Debian's arm64 zlib
# ($KA64_ZLIB, from scripts/setup.sh), its objects apart from the host's.
mstat_build_tools() {
	local line name srcs want cc=gcc out=$MSTAT_TOP/build/tools obj='' mk=()
	if [ "${1:-}" = --arch ]; then
		[ "${2:-}" = arm64 ] || { log "mstat_build_tools: --arch arm64"; return 1; }
		[ -f "${KA64_ZLIB:-}/usr/lib/aarch64-linux-gnu/libz.a" ] ||
			{ log "no arm64 libz.a: \$KA64_ZLIB (scripts/setup.sh)"; return 1; }
		cc=aarch64-linux-gnu-gcc out=$MSTAT_TOP/build/arm64-tools
		obj=$out/obj
		mk=(CC="$cc" B="$obj" CFLAGS="-g -isystem $KA64_ZLIB/usr/include"
		    LDFLAGS="-L$KA64_ZLIB/usr/lib/aarch64-linux-gnu")
		shift 2
	fi
	want=" $* "
	mkdir -p "$out" || return
	for line in "${mstat_tools[@]}"; do
		read -r name srcs <<<"$line"
		[ $# -eq 0 ] || [[ $want == *" $name "* ]] || continue
		# Cross-built, the program alone: mstat's make also links
		# mstat-serve, dynamic against the build machine's
		# libmicrohttpd, which is copied beside mstat when there.
		if [ -d "$MSTAT_TOP/$srcs" ]; then
			make -s -C "$MSTAT_TOP/$srcs" ${mk[@]+"${mk[@]}"} \
				${obj:+"$obj/$name"} >&2 &&
				cp "${obj:-$MSTAT_TOP/$srcs/build}/$name" \
					"$out/$name" || return
			if [ -z "$obj" ] && [ "$name" = mstat ]; then
				cp "$MSTAT_TOP/$srcs/build/mstat-serve" \
					"$out/mstat-serve" || return
			fi
			continue
		fi
		# shellcheck disable=SC2086 # sources, split
		(cd "$MSTAT_TOP" && $cc -static -O2 -Wall -Wextra -Werror \
			-o "$out/$name" $srcs) || return
	done
}
