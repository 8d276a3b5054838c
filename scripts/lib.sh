# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The one library of mstat's host scripts: where things are, messages,
# test results, the set-up environment and the static programs the guests
# run. Source it, do not run it:
#
#	. "$(dirname "$0")/lib.sh"
#
# Its guest-side counterpart, for the scripts that run in a guest, is
# scripts/guest/lib.sh.

# Kernel builds, extracted kernel images and guest logs live here, outside
# the clone, so a fresh clone on the same machine reuses them.
MSTAT_CACHE=${MSTAT_CACHE:-/var/cache/mstat}
MSTAT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Where t() keeps each test's output (a script may set another).
MSTAT_LOGS=$MSTAT_TOP/build/logs

log() { printf '[mstat] %s\n' "$*" >&2; }
die() { printf '[mstat] error: %s\n' "$*" >&2; exit 1; }

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

## The set-up environment

# mstat_setup_env: install what is missing (scripts/setup.sh), then load
# and export what it prints: K61_REL K61_VMLINUZ K61_KDIR K612_REL
# K612_VMLINUZ K612_KDIR K612RT_REL K612RT_VMLINUZ K612RT_KDIR
# K612CLOUD_REL K612CLOUD_VMLINUZ K612CLOUD_KDIR KSRC, and
# the arm64 ones if that part succeeded: KA64_REL KA64_VMLINUZ KA64_KDIR
# KA64_BUSYBOX KA64_ZLIB, else KA64_ERROR (why it failed). Each calling
# script keeps its own log and environment, build/logs/setup-CALLER.log
# and .env (CALLER: the script's name without .sh), so that a later
# set-up in the same run (the mstat tool's live test, say) cannot
# overwrite what an earlier one said; mstat_setup_log names that log.
# Fails, with the log's tail on stderr, if set-up does.
mstat_setup_log=
mstat_setup_env() {
	local caller
	caller=$(basename "$0" .sh)
	local env=$MSTAT_TOP/build/logs/setup-$caller.env
	local err=$MSTAT_TOP/build/logs/setup-$caller.log
	mstat_setup_log=build/logs/setup-$caller.log
	mkdir -p "$MSTAT_TOP/build/logs"
	log "set-up (scripts/setup.sh, log: $mstat_setup_log)"
	if ! "$MSTAT_TOP/scripts/setup.sh" >"$env" 2>"$err"; then
		tail -n 30 "$err" >&2
		return 1
	fi
	set -a
	# shellcheck source=/dev/null
	. "$env"
	set +a
}

## Debian roots, for a chroot (scripts/fresh.sh, scripts/deb-test.sh)

# mstat_host_mirror SUITE: this host's Debian mirror for SUITE, from a
# one-line or a deb822 source; http://deb.debian.org/debian if it has none.
mstat_host_mirror() {
	local m
	m=$({
		sed -nE "s/^deb +(\[[^]]*\] +)?([^ ]+) +$1 +.*/\2/p" \
			/etc/apt/sources.list 2>/dev/null
		awk -v suite="$1" '
			/^$/ { u = "" }
			/^URIs:/ { u = $2 }
			/^Suites:/ && u {
				for (i = 2; i <= NF; i++)
					if ($i == suite) { print u; exit }
			}' /etc/apt/sources.list.d/*.sources 2>/dev/null
	} | head -n 1)
	echo "${m:-http://deb.debian.org/debian}"
}

# mstat_root_remakable ROOT: ROOT may be removed and made anew: not
# empty, and not /, nor one of the host's own top directories.
mstat_root_remakable() {
	case $(realpath -m "${1:-/}") in
	/|/usr|/var|/tmp|/root|/home|/etc|/boot) return 1 ;;
	esac
}

# mstat_need_cmd CMD [PKG]: CMD, installed from Debian's PKG (default
# CMD) if this host lacks it.
mstat_need_cmd() {
	command -v "$1" >/dev/null && return
	if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	       apt-get install -y -qq -o DPkg::Lock::Timeout=600 "${2:-$1}" \
	       >/dev/null; }; then
		log "cannot install ${2:-$1}"
		return 1
	fi
}

# mstat_apt_acquire: this host's apt configuration files with the
# Acquire settings that reach the registry (proxy, validity of a
# snapshot's Release), one a line.
mstat_apt_acquire() {
	local f
	for f in /etc/apt/apt.conf /etc/apt/apt.conf.d/*; do
		if [ -f "$f" ] && grep -qE 'Proxy|Check-Valid-Until|Check-Date' "$f"; then
			echo "$f"
		fi
	done
}

# mstat_root_sources ROOT: ROOT's apt reaches the registry this host's
# apt does: the host's sources, mstat_apt_acquire's files and
# resolv.conf are copied in, nothing else.
mstat_root_sources() {
	local root=$1 f
	rm -f "$root"/etc/apt/sources.list "$root"/etc/apt/sources.list.d/*
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		 /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && cp "$f" "$root$f"
	done
	mstat_apt_acquire | while read -r f; do cp "$f" "$root$f"; done
	cp /etc/resolv.conf "$root/etc/resolv.conf"
}

# mstat_debootstrap SUITE ROOT MIRROR: a pristine Debian root in ROOT,
# remade by debootstrap, as a fresh machine is (make fresh's), its apt
# set up by mstat_root_sources.
mstat_debootstrap() {
	local suite=$1 root=$2 mirror=$3
	mstat_root_remakable "$root" || { log "$root: not a root to remake"; return 1; }
	mstat_need_cmd debootstrap || return
	mstat_root_umount "$root" || return
	rm -rf --one-file-system "$root"
	mkdir -p "$root"
	log "debootstrap $suite $root $mirror"
	debootstrap "$suite" "$root" "$mirror" || return
	mstat_root_sources "$root"
}

# mstat_mmdebstrap VARIANT SUITE ROOT MIRROR [PKG...]: the roots the tests
# make (the packages' test's, the kernel matrix's build roots): ROOT
# remade, debootstrap's VARIANT of SUITE (important, its default, or
# minbase) with PKG in it, by mmdebstrap, which installs them all in one
# apt run where debootstrap unpacks and configures package by package.
# The same packages as debootstrap's: bookworm's important root 156 of
# them (with the merged-usr hook: without it apt picks usrmerge, and perl
# with it, for usr-is-merged), 41.5 s of CPU against debootstrap's 88.9
# s; trixie's minbase with the matrix's compilers 31.5 s against 55.2 s
# (one after the other on a 2-CPU machine, alone). make fresh's
# root stays debootstrap's (mstat_debootstrap).
mstat_mmdebstrap() {
	local variant=$1 suite=$2 root=$3 mirror=$4 opts=() f
	shift 4
	mstat_root_remakable "$root" || { log "$root: not a root to remake"; return 1; }
	mstat_need_cmd mmdebstrap || return
	[ "$suite" != bookworm ] ||
		opts+=(--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr)
	# Its apt does not read the host's configuration: the settings that
	# reach the registry given (a snapshot's sid, its Release expired, is
	# refused without them).
	while read -r f; do
		opts+=("--aptopt=$f")
	done < <(mstat_apt_acquire)
	[ $# -eq 0 ] || opts+=("--include=$(IFS=,; echo "$*")")
	mstat_root_umount "$root" || return
	rm -rf --one-file-system "$root"
	mkdir -p "$root"
	log "mmdebstrap --variant=$variant ${opts[*]} $suite $root $mirror"
	mmdebstrap --mode=root --variant="$variant" ${opts[@]+"${opts[@]}"} \
		"$suite" "$root" "$mirror"
}

# mstat_root_mount ROOT: /proc, and /sys and /dev bound, for a chroot.
mstat_root_mount() {
	mount -t proc proc "$1/proc" &&
	mount --rbind /sys "$1/sys" && mount --make-rslave "$1/sys" &&
	mount --rbind /dev "$1/dev" && mount --make-rslave "$1/dev"
}

# mstat_root_umount ROOT: the mounts undone, in reverse order (--rbind'ed
# /dev has its own submounts); fails if one is left.
mstat_root_umount() {
	local m
	for m in dev sys proc; do
		mountpoint -q "$1/$m" && umount -R "$1/$m"
	done
	for m in dev sys proc; do
		! mountpoint -q "$1/$m" || { log "$1/$m: still mounted"; return 1; }
	done
}

# mstat_in_root ROOT CMD: the shell command CMD as root in ROOT, with a
# clean environment (CI=true, as CI's run has).
mstat_in_root() {
	chroot "$1" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		CI=true /bin/bash -c "$2"
}

# mstat_in_root_ns ROOT CMD: mstat_in_root, in mount and PID namespaces
# of its own with a /proc of its own (objtool reads it), which vanish
# with CMD: nothing is left mounted, however CMD ends.
mstat_in_root_ns() {
	unshare --mount --pid --fork --mount-proc="$1/proc" \
		chroot "$1" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		CI=true /bin/bash -c "$2"
}

## Debian's kernels, through an apt of mstat's own (scripts/matrix.sh)
#
# Kernel images and headers are downloaded with apt-get and extracted
# (dpkg-deb), never installed: not through the host's apt either, whose
# sources have one suite, but through a private configuration under
# $MSTAT_APT_DIR, with its own sources.list, lists, status (empty) and
# archives: the suites of mstat_apt_suites from the mirror the host uses,
# for amd64 and arm64, checked against Debian's archive keyring. Nothing
# of it reaches the host's dpkg database or its apt lists.

MSTAT_APT_DIR=${MSTAT_APT_DIR:-$MSTAT_CACHE/apt}
mstat_apt_suites=(bookworm bookworm-security bullseye bullseye-security
		  trixie trixie-backports sid experimental)

# mstat_apt CMD ARG...: apt-get or apt-cache (CMD) with the private
# configuration.
mstat_apt() {
	local cmd=$1
	shift
	"$cmd" -c "$MSTAT_APT_DIR/apt.conf" "$@"
}

# mstat_security_mirror: the host's security mirror, else the main one's
# "-security" sibling (deb.debian.org/debian-security).
mstat_security_mirror() {
	if grep -qsE '(^deb .* |^Suites:.* )bookworm-security( |$)' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.sources; then
		mstat_host_mirror bookworm-security
	else
		echo "$(mstat_host_mirror bookworm)-security"
	fi
}

# mstat_apt_update: the private configuration written, and its
# lists updated if they are a day old or the sources changed; then
# $MSTAT_APT_DIR/index: a line "SUITE ARCH PACKAGE VERSION URI DEPENDS..."
# for every kernel package (linux-image-*, linux-binary-*, linux-modules-*,
# linux-headers-*, linux-kbuild-*), compiler and the few others
# scripts/matrix.sh and scripts/setup.sh look up, one suite's Packages at
# a time, so that a look-up can name its suite (apt-cache cannot), and
# quickly (an apt-get run reads every list: a second or two). Serialized
# by a lock.
mstat_apt_update() {
	local d=$MSTAT_APT_DIR main sec suite m f b s a list
	main=$(mstat_host_mirror bookworm)
	sec=$(mstat_security_mirror)
	mkdir -p "$d/lists/partial" "$d/archives/partial" "$d/cache" || return
	(
		flock 9 || exit
		: >>"$d/status"
		cat >"$d/apt.conf.new" <<-EOT
		Dir::State "$d";
		Dir::State::Lists "$d/lists";
		Dir::State::status "$d/status";
		Dir::Etc::SourceList "$d/sources.list";
		Dir::Etc::SourceParts "/dev/null";
		Dir::Cache "$d/cache";
		Dir::Cache::archives "$d/archives";
		Dir::Cache::pkgcache "$d/cache/pkgcache.bin";
		Dir::Cache::srcpkgcache "";
		APT::Architecture "amd64";
		APT::Architectures { "amd64"; "arm64"; };
		APT::Sandbox::User "root";
		EOT
		mv "$d/apt.conf.new" "$d/apt.conf"
		list=$(for suite in "${mstat_apt_suites[@]}"; do
			m=$main
			[[ $suite == *-security ]] && m=$sec
			echo "deb [arch=amd64,arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $m $suite main"
		done)
		if [ ! -s "$d/index" ] ||
		   [ "$list" != "$(cat "$d/sources.list" 2>/dev/null)" ] ||
		   [ -n "$(find "$d/index" -mmin +1440)" ]; then
			echo "$list" >"$d/sources.list"
			log "apt-get update (private: $d, ${#mstat_apt_suites[@]} suites)"
			mstat_apt apt-get update -qq -o DPkg::Lock::Timeout=600 \
				>/dev/null || exit
			for f in "$d"/lists/*_Packages*; do
				b=${f##*_dists_} s=${b%%_*} a=${b##*_binary-}
				a=${a%%_*} m=$main
				[[ $s == *-security ]] && m=$sec
				/usr/lib/apt/apt-helper cat-file "$f" |
				awk -v s="$s" -v a="$a" -v m="$m" '
				/^Package: / { p = $2; v = ""; u = ""; dep = "" }
				/^Version: / { v = $2 }
				/^Filename: / { u = m "/" $2 }
				/^Depends: / { dep = substr($0, 10) }
				/^$/ {
					if (p ~ /^linux-(image|binary|modules|headers|kbuild)-/ ||
					    p ~ /^gcc-[0-9]+(-aarch64-linux-gnu)?$/ ||
					    p ~ /^(busybox-static|zlib1g-dev|dwarves)$/)
						print s, a, p, v, u, dep
					p = ""
				}' || exit
			done >"$d/index.new" && mv "$d/index.new" "$d/index"
			rm -f "$d/table"
		fi
	) 9>"$d/lock"
}

# mstat_apt_lookup SUITES ARCH NAME [VERSION]: "SUITE VERSION DEPENDS..."
# of that package in mstat_apt_update's index, in one of SUITES
# (comma-separated), VERSION or the newest (sort -V orders Debian's kernel
# versions as dpkg does, "~" first; they have no epoch).
mstat_apt_lookup() {
	local lines
	lines=$(awk -v ss=",$1," -v a="$2" -v n="$3" -v want="${4:-}" '
		index(ss, "," $1 ",") && $2 == a && $3 == n &&
		(want == "" || $4 == want) {
			out = $1 " " $4
			for (i = 6; i <= NF; i++)
				out = out " " $i
			print out
		}' "$MSTAT_APT_DIR/index")
	[ -n "$lines" ] || return 1
	sort -V -r -k2,2 <<<"$lines" | head -n 1
}

# mstat_apt_uri NAME[:ARCH]=VERSION: where the .deb of that package is
# (ARCH: amd64 by default, an arch-all package is in every arch's list).
mstat_apt_uri() {
	local n=${1%%=*} a=amd64
	[[ $n == *:* ]] && a=${n#*:} n=${n%%:*}
	awk -v a="$a" -v n="$n" -v v="${1#*=}" '
		$2 == a && $3 == n && $4 == v { print $5; exit }' "$MSTAT_APT_DIR/index" |
		grep .
}

# mstat_deb_extract DIR STAMP PKG...: the packages (NAME[:ARCH]=VERSION)
# downloaded and extracted into DIR, over what is there, unless STAMP
# already lists them. Existing links to directories are kept (a merged
# /usr root's /lib). The .debs are not kept.
mstat_deb_extract() {
	local dir=$1 stamp=$2 want tmp deb
	shift 2
	want=$(printf '%s\n' "$@")
	[ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && return
	mkdir -p "$MSTAT_APT_DIR/archives" "$dir" || return
	tmp=$(mktemp -d "$MSTAT_APT_DIR/archives/get.XXXXXX") || return
	log "download ${*%%=*}"
	if ! (cd "$tmp" && mstat_apt apt-get download -qq "$@" >/dev/null); then
		rm -rf "$tmp"
		log "apt-get download $* failed"
		return 1
	fi
	for deb in "$tmp"/*.deb; do
		dpkg-deb --fsys-tarfile "$deb" |
			tar -x -C "$dir" --keep-directory-symlink || {
			rm -rf "$tmp"
			log "cannot extract ${deb##*/} into $dir"
			return 1
		}
	done
	rm -rf "$tmp"
	mkdir -p "$(dirname "$stamp")" && echo "$want" >"$stamp"
}

# mstat_bench_root: the programs of the side-by-side bench
# (scripts/sidebyside.sh) for a guest, which has busybox and no libc:
# Debian trixie's memleak-libbpf (libbpf-tools; bookworm's has no
# memleak), hackbench (rt-tests) and iperf3, with the shared libraries
# their ELF headers need, found one NEEDED at a time (and libgcc_s,
# which glibc loads itself), under
# $MSTAT_CACHE/benchroot/root/usr/{sbin,bin,lib/x86_64-linux-gnu}: run
# through that root's loader (ld-linux-x86-64.so.2 --library-path).
# Prints the root's path.
mstat_bench_root() {
	local d=$MSTAT_CACHE/benchroot lib=usr/lib/x86_64-linux-gnu
	local pkgs=(libbpf-tools libc6 libelf1t64 zlib1g libzstd1 rt-tests
		    libnuma1 iperf3 libiperf0 libssl3t64 libsctp1 libgcc-s1)
	local bins=(usr/sbin/memleak-libbpf usr/bin/hackbench usr/bin/iperf3)
	local todo=() seen=" " f n
	mstat_deb_extract "$d/x" "$d/x.stamp" "${pkgs[@]/%//trixie}" || return
	rm -rf "$d/root.new"
	mkdir -p "$d/root.new/$lib" "$d/root.new/usr/sbin" "$d/root.new/usr/bin"
	# The loader, and what glibc dlopen()s: libgcc_s for pthread_cancel
	# (iperf3's threads; without it the client hangs at its end).
	for f in ld-linux-x86-64.so.2 libgcc_s.so.1; do
		cp -L "$d/x/$lib/$f" "$d/root.new/$lib/" || return
	done
	for f in "${bins[@]}"; do
		cp -L "$d/x/$f" "$d/root.new/$f" || return
		todo+=("$d/x/$f")
	done
	while [ ${#todo[@]} -gt 0 ]; do
		f=${todo[0]}
		todo=("${todo[@]:1}")
		for n in $(readelf -d "$f" |
			   sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			[[ $seen == *" $n "* ]] && continue
			seen+="$n "
			[ -e "$d/x/$lib/$n" ] ||
				{ log "bench root: no $n (needed by ${f##*/})"; return 1; }
			cp -L "$d/x/$lib/$n" "$d/root.new/$lib/" || return
			todo+=("$d/x/$lib/$n")
		done
	done
	rm -rf "$d/root"
	mv "$d/root.new" "$d/root" && echo "$d/root"
}

# mstat_serve_files TOOL...: guest.sh --file arguments, one a line, for a
# guest that runs mstat serve: mstat-serve's libraries and its loader at
# their paths in the guest, and each of build/tools/TOOL in /mstat.
# (serve-test.sh, fleet-test.sh)
mstat_serve_files() {
	local l f
	ldd "$MSTAT_TOP/build/tools/mstat-serve" |
		awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
		while read -r l; do
			echo "--file=$l:$l"
		done
	for f; do
		echo "--file=build/tools/$f:/mstat/$f"
	done
}

# mstat_guest_kmods REL SET MOD...: modules of Debian's amd64 kernel REL,
# each MOD with the modules it needs (modules.dep), in load order (what
# a module needs before it), decompressed: their paths, one a line. The
# kernel cache keeps only the image's vmlinuz, so they are taken once
# from the image package (linux-image-REL-unsigned, or 7.x's
# linux-modules-REL, through mstat's apt) into
# $MSTAT_CACHE/kernels/REL/SET/, with the list in SET/order.
mstat_guest_kmods() {
	local rel=$1 dir=$MSTAT_CACHE/kernels/$1/$2
	local pkg v='' tmp deb m f
	shift 2
	if [ ! -f "$dir/.done" ]; then
		# 7.x keeps its modules in linux-modules-REL.
		for pkg in "linux-image-$rel-unsigned" "linux-modules-$rel"; do
			v=$(mstat_apt_lookup "$(IFS=,; echo "${mstat_apt_suites[*]}")" \
				amd64 "$pkg" | cut -d' ' -f2)
			[ -z "$v" ] || break
		done
		[ -n "$v" ] || { log "no image package of $rel in mstat's apt"; return 1; }
		tmp=$(mktemp -d "$MSTAT_APT_DIR/archives/get.XXXXXX") || return
		log "download $pkg=$v (for its $*)"
		if ! (cd "$tmp" && mstat_apt apt-get download -qq "$pkg:amd64=$v" \
			>/dev/null) || ! deb=$(compgen -G "$tmp/*.deb"); then
			rm -rf "$tmp"
			log "apt-get download $pkg=$v failed"
			return 1
		fi
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards \
			'*.ko*' 2>/dev/null
		rm -rf "$dir.new"
		mkdir -p "$dir.new"
		# Each module's needs (modinfo's depends: the package has no
		# modules.dep) first, depth first, each once.
		mstat_kmods_order "$tmp" "$@" >"$dir.new/order.paths"
		if grep -q '^MISSING' "$dir.new/order.paths"; then
			log "$pkg=$v: $(grep '^MISSING' "$dir.new/order.paths" | tr '\n' ' ')"
			rm -rf "$tmp" "$dir.new"
			return 1
		fi
		while read -r m f; do
			case $f in
			*.ko.xz)	xz -dc "$f" ;;
			*.ko.zst)	zstd -qdc "$f" ;;
			*.ko)		cat "$f" ;;
			*)		false ;;
			esac >"$dir.new/$m.ko" || {
				rm -rf "$tmp" "$dir.new"
				log "no $m.ko in $pkg=$v"
				return 1
			}
			echo "$m" >>"$dir.new/order"
		done <"$dir.new/order.paths"
		rm -rf "$tmp" "$dir"
		mv "$dir.new" "$dir" && touch "$dir/.done" || return
	fi
	while read -r m; do
		echo "$dir/$m.ko"
	done <"$dir/order"
}

# mstat_kmods_order DIR MOD...: "NAME PATH" a line for each MOD and what
# it needs (modinfo's depends), those first, each once, the modules
# found under DIR; "MISSING NAME" for one not there.
mstat_kmods_order() {
	local dir=$1 m
	declare -A seen=()
	shift
	visit() {
		local f d
		[ -z "${seen[$1]:-}" ] || return 0
		seen[$1]=1
		f=$(find "$dir" \( -name "$1.ko*" -o -name "${1//_/-}.ko*" \) | head -n 1)
		[ -n "$f" ] || { echo "MISSING $1"; return 0; }
		for d in $(modinfo -F depends "$f" 2>/dev/null | tr ',' ' '); do
			visit "$d"
		done
		echo "$1 $f"
	}
	for m; do
		visit "$m"
	done
}

# mstat_guest_netmods REL: the virtio-net driver of Debian's amd64
# kernel REL and the modules it needs, in load order (failover,
# net_failover, virtio_net), for a guest with a network (guest.sh
# --hostfwd): their paths, one a line (mstat_guest_kmods, in
# $MSTAT_CACHE/kernels/REL/netmods/).
mstat_guest_netmods() {
	mstat_guest_kmods "$1" netmods virtio_net
}

# mstat_guest_zrammods REL: zram and what it needs, for a guest with
# swap (scripts/guest/swap.sh): their paths, in load order.
mstat_guest_zrammods() {
	mstat_guest_kmods "$1" zram zram
}

# mstat_km_var ID FIELD: the name of a field of scripts/matrix.sh's
# output for kernel ID (REL, VMLINUZ, KDIR, ROOT, ARCH, ERROR...):
# KM_<ID>_<FIELD>, ID upper-cased with "." and "-" as "_" (arm64-7.3's
# REL: KM_ARM64_7_3_REL). mstat_km ID FIELD: its value, once sourced.
mstat_km_var() {
	local v=${1^^}
	v=${v//[.-]/_}
	echo "KM_${v}_$2"
}
mstat_km() {
	local v
	v=$(mstat_km_var "$1" "$2")
	echo "${!v:-}"
}

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
	"leaks tests/helpers/leaks.c"
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

## Guests, queued and collected
#
# guest() queues a guest run (scripts/guest.sh) and returns at once. One
# dispatcher (mstat_queue_start, in the background) starts the queued
# guests, by priority and then in the order queued, while their weights
# fit in its slots: a guest on multi-threaded TCG (--tcg=multi) weighs
# 2, any other 1, and one guest runs whenever none does. The slots
# (GUEST_SLOTS, default twice the number of CPUs) may be changed while
# guests run (mstat_queue_slots), so that a caller that has host work of
# its own to do leaves it a CPU. A script started by one that owns a
# dispatcher (arm64.sh from check.sh) queues into the same one: its
# directory is exported as MSTAT_QUEUE. Each guest leaves in its
# caller's $MSTAT_LOGS: NAME.console (the serial console), NAME.log
# (guest.sh's messages), NAME.rc ("STATUS SECONDS CPU_SECONDS": its
# wall-clock time and the CPU time qemu took); collect_guests
# waits for the caller's own and collects them in the order queued.
mstat_guests=()
mstat_queue_owner=

# mstat_queue_start: start the dispatcher, unless this process or its
# parent has one. One that died (it must not) is started again on the
# same queue, so that what waits there runs, and that is counted in
# DIR/restarts, which collect_guests reports as a failure.
mstat_queue_start() {
	local pid
	if [ -n "${MSTAT_QUEUE:-}" ] && [ -d "$MSTAT_QUEUE/wait" ]; then
		pid=''
		read -r pid 2>/dev/null <"$MSTAT_QUEUE/pid"
		! kill -0 "$pid" 2>/dev/null || return 0
		log "the guest queue's dispatcher (${pid:-no pid}) is gone: started again"
		echo "$pid" >>"$MSTAT_QUEUE/restarts"
		mstat_queue_dispatch "$MSTAT_QUEUE" </dev/null >/dev/null 2>&1 &
		echo "$!" >"$MSTAT_QUEUE/pid"
		return 0
	fi
	MSTAT_QUEUE=$(mktemp -d "${TMPDIR:-/tmp}/mstat-queue.XXXXXX") || return
	export MSTAT_QUEUE
	mkdir -p "$MSTAT_QUEUE/wait" "$MSTAT_QUEUE/run" "$MSTAT_QUEUE/done"
	echo "${GUEST_SLOTS:-$((2 * $(nproc)))}" >"$MSTAT_QUEUE/slots"
	mstat_queue_dispatch "$MSTAT_QUEUE" </dev/null >/dev/null 2>&1 &
	echo "$!" >"$MSTAT_QUEUE/pid"
	mstat_queue_owner=1
}

# mstat_queue_slots N: the dispatcher's slots from now on.
mstat_queue_slots() {
	[ -n "${MSTAT_QUEUE:-}" ] || return 0
	echo "$1" >"$MSTAT_QUEUE/slots.new" && mv "$MSTAT_QUEUE/slots.new" "$MSTAT_QUEUE/slots"
}

# mstat_nap SECONDS: sleep without a process of its own: a read that
# times out on a FIFO nobody writes, opened once per shell (a subshell
# shares its parent's: nobody writes it either). The pollers below nap
# so: sleep(1), cat and find, forked twice a second by the dispatcher
# through a whole make check, took 1.26 s of CPU in 30 s idle (`time`
# on an idle queue): some 125 s of a 3000 s run at that rate; the
# guests' phase of a cold run took 138 s less with naps.
mstat_nap_fd=
mstat_nap() {
	local f
	if [ -z "$mstat_nap_fd" ]; then
		f=$(mktemp -u "${TMPDIR:-/tmp}/mstat-nap.XXXXXX")
		if mkfifo -m 600 "$f" 2>/dev/null; then
			exec {mstat_nap_fd}<>"$f"
			rm -f "$f"
		fi
	fi
	if [ -n "$mstat_nap_fd" ]; then
		read -r -t "$1" -u "$mstat_nap_fd" _ 2>/dev/null || :
	else
		sleep "$1"
	fi
	return 0
}

# mstat_queue_dispatch DIR: the dispatcher. A queued guest is a script
# wait/PRIO-NANOSECONDS-NAME whose first line is "#weight N"; it runs
# with a file run/ITS-NAME holding its weight, moved to done/ at its end.
# Starts nothing while DIR/hold exists (a caller queueing a batch whose
# order it wants kept); ends when DIR/closed exists and nothing waits or
# runs. Its loop runs on builtins alone (mstat_nap).
mstat_queue_dispatch() {
	local q=$1 next w used f slots waiting
	local LC_COLLATE=C
	# Its own shell, in the background: a caller's set -e must not end
	# it at the first read of a file a guest moved away.
	set +e
	shopt -s nullglob
	while [ -d "$q" ]; do
		read -r slots 2>/dev/null <"$q/slots" || slots=1
		[[ $slots =~ ^[0-9]+$ ]] || slots=1
		used=0
		# A guest that ends moves its file away at any moment: read
		# each once, and count one gone as 0 (an empty expansion in
		# the arithmetic would end this shell).
		for f in "$q"/run/*; do
			w=0
			read -r w 2>/dev/null <"$f"
			[[ $w =~ ^[0-9]+$ ]] || w=0
			used=$((used + w))
		done
		# Globs sort (LC_COLLATE=C): the lowest priority first, then
		# the first queued. Listed only once the hold is seen gone
		# (listed before, a guest queued just before the hold's end
		# could be missed), and the hold looked at again after: one
		# set while listing holds what was listed.
		next=''
		if [ ! -f "$q/hold" ]; then
			waiting=("$q"/wait/*)
			next=${waiting[0]:+${waiting[0]##*/}}
		fi
		if [ -f "$q/hold" ]; then
			:
		elif [ -n "$next" ]; then
			w=''
			read -r w <"$q/wait/$next"
			[[ $w =~ ^#weight\ ([0-9]+)$ ]] && w=${BASH_REMATCH[1]} || w=1
			if [ "$used" -eq 0 ] || [ $((used + w)) -le "$slots" ]; then
				echo "$w" >"$q/run/$next"
				mv "$q/wait/$next" "$q/started-$next"
				( bash "$q/started-$next"; mv "$q/run/$next" "$q/done/$next" ) &
				continue
			fi
		elif [ -f "$q/closed" ] && [ "$used" -eq 0 ]; then
			break
		fi
		mstat_nap 0.5
	done
	wait
}

# mstat_guest_run LOGS NAME KERNEL SCRIPT GUEST_ARG...: one guest, as a
# queued script runs it (MSTAT_GUEST_SH: another guest.sh, for the
# queue's own test, scripts/queue-test.sh).
mstat_guest_run() {
	local logs=$1 name=$2 kernel=$3 script=$4 rc start=$SECONDS cpu0 cpu1
	local guest_sh=${MSTAT_GUEST_SH:-$MSTAT_TOP/scripts/guest.sh}
	shift 4
	mstat_cpu cpu0
	rm -f "$logs/$name.retried"
	"$guest_sh" --kernel "$kernel" --script "$script" \
		--log "$logs/$name.console" "$@" >"$logs/$name.log" 2>&1
	rc=$?
	# A kernel that died before the script started (the 6.12-rt int3
	# oops in early boot under multi-threaded TCG): one more boot, its
	# first console kept, and collect says so.
	if [ "$rc" -eq 126 ]; then
		mv "$logs/$name.console" "$logs/$name.console.boot1"
		echo "$((SECONDS - start))" >"$logs/$name.retried"
		"$guest_sh" --kernel "$kernel" --script "$script" \
			--log "$logs/$name.console" "$@" >>"$logs/$name.log" 2>&1
		rc=$?
	fi
	mstat_cpu cpu1
	echo "$rc $((SECONDS - start)) $(((cpu1 - cpu0) / 100))" >"$logs/$name.rc.new"
	mv "$logs/$name.rc.new" "$logs/$name.rc"
}

# guest NAME KERNEL SCRIPT ARG...: queue a guest run. An ARG of the form
# --file=SRC:DEST, --smp=N, --mem=SIZE, --tcg=MODE, --append=CMDLINE,
# --arch=ARCH, --timeout=SECONDS, --hostfwd=HOSTPORT:GUESTPORT, --numa=N,
# --cpu=FLAGS or --boot=HOW is that option of guest.sh, --prio=N (0 to 9,
# default 5: lower first; the long guests go first, so that none of them
# is the run's tail) the queue's, any other is a module to load.
guest() {
	local name=$1 kernel=$2 script=$3 a guest_args=() prio=5 w=1 spec
	shift 3
	for a; do
		case $a in
		--file=*)	guest_args+=(--file "${a#--file=}") ;;
		--smp=*)	guest_args+=(--smp "${a#--smp=}") ;;
		--mem=*)	guest_args+=(--mem "${a#--mem=}") ;;
		--tcg=*)	guest_args+=(--tcg "${a#--tcg=}")
				[ "${a#--tcg=}" = multi ] && w=2 ;;
		--append=*)	guest_args+=(--append "${a#--append=}") ;;
		--arch=*)	guest_args+=(--arch "${a#--arch=}") ;;
		--timeout=*)	guest_args+=(--timeout "${a#--timeout=}") ;;
		--hostfwd=*)	guest_args+=(--hostfwd "${a#--hostfwd=}") ;;
		--numa=*)	guest_args+=(--numa "${a#--numa=}") ;;
		--cpu=*)	guest_args+=(--cpu "${a#--cpu=}") ;;
		--boot=*)	guest_args+=(--boot "${a#--boot=}") ;;
		--prio=[0-9])	prio=${a#--prio=} ;;
		*)		guest_args+=(--ko "$a") ;;
		esac
	done
	mkdir -p "$MSTAT_LOGS"
	mstat_queue_start || return
	rm -f "$MSTAT_LOGS/$name.rc"
	spec=$MSTAT_QUEUE/$prio-$(date +%s%N)-$name
	{
		echo "#weight $w"
		printf 'export KA64_BUSYBOX=%q MSTAT_GUEST_SH=%q\n' \
			"${KA64_BUSYBOX:-}" "${MSTAT_GUEST_SH:-}"
		printf 'cd %q || exit 1\n' "$PWD"
		printf '. %q\n' "$MSTAT_TOP/scripts/lib.sh"
		printf 'mstat_guest_run'
		printf ' %q' "$MSTAT_LOGS" "$name" "$kernel" "$script" \
			${guest_args[@]+"${guest_args[@]}"}
		echo
	} >"$spec.new" && mv "$spec.new" "$MSTAT_QUEUE/wait/${spec##*/}"
	mstat_guests+=("$name")
}

# mstat_suite_guests NAME IMAGE DIR [ARG...]: queue, booting test kernel
# IMAGE, NAME-kunit (the KUnit suites of build DIR, DIR/kunit/*_kunit.ko,
# on multi-threaded TCG) and NAME-torture (the kernel torture on 4
# vCPUs); each ARG (--arch=, --prio=) goes to both. x86's torture runs
# on multi-threaded TCG, its main run MSTAT_TORTURE_SECONDS long if set
# (make check: 10; else 20); arm64's on single-threaded TCG, 10 s a mode,
# where its busted readers are met (scripts/arm64.sh says why).
mstat_suite_guests() {
	local name=$1 image=$2 dir=$3 a
	local torture=(--tcg=multi
		${MSTAT_TORTURE_SECONDS:+"--append=TORTURE_SECONDS=$MSTAT_TORTURE_SECONDS"})
	shift 3
	for a; do
		[ "$a" != --arch=arm64 ] || torture=(--append=TORTURE_SECONDS=10)
	done
	guest "$name-kunit" "$image" scripts/guest/kunit.sh "$dir/mstat.ko" \
		"$dir"/kunit/*_kunit.ko --tcg=multi "$@"
	guest "$name-torture" "$image" scripts/guest/torture.sh \
		"$dir/mstat.ko" "$dir/tests/torture/mstat_torture.ko" --smp=4 \
		"${torture[@]}" "$@"
}

# mstat_guests_parts NAME KERNEL "PART..." ARG...: queue guest NAME, one
# boot of KERNEL in which the guest scripts PART (scripts/guest/PART.sh:
# "truth caches") run one after the other (scripts/guest/parts.sh), each
# as in a guest of its own. Each ARG is guest's; the --append ones are
# joined into one, with PARTS="PART...". A boot costs a stock kernel's
# guest some 5.5 s of CPU under TCG (scripts/guest.sh), arm64's and the
# debug kernel's more: small guests of one kernel, build and command line
# share one.
mstat_guests_parts() {
	local name=$1 kernel=$2 parts=$3 p a args=() append=''
	shift 3
	for p in $parts; do
		args+=("--file=scripts/guest/$p.sh:/mstat/$p.sh")
	done
	for a; do
		case $a in
		--append=*)	append+=" ${a#--append=}" ;;
		*)		args+=("$a") ;;
		esac
	done
	guest "$name" "$kernel" scripts/guest/parts.sh "${args[@]}" \
		"--append=PARTS=\"$parts\"$append"
}

# mstat_debug_guests NAME IMAGE DIR BROKEN: queue the debug kernel's
# guests (make check's 6a to 6d), booting IMAGE, with mstat and its tests
# from build DIR: NAME-kunit and NAME-torture, NAME-counts,
# NAME-kunit-busted and NAME-faults; NAME-faults-broken with the broken
# build's, from BROKEN, if it was built, whose heap-profile suite
# NAME-kunit-busted runs too. The fault guest's first point
# of mstat's init to fail: MSTAT_FAULTS_START, else drawn (1 to 8).
mstat_debug_guests() {
	local name=$1 image=$2 dir=$3 broken=$4 faults busted=()
	local start=${MSTAT_FAULTS_START:-$((RANDOM % 8 + 1))}

	# The debug kernel: KUnit suites (then kmemleak), and the kernel
	# torture on four vCPUs; both on multi-threaded TCG, for true
	# parallelism (they toggle no tracepoint under load, see guest.sh).
	# The torture's main run 10 s here, 20 s in make soak. On 512 MiB:
	# kmemleak's two scans after the suites walk every page's struct,
	# and took 20 s of the KUnit guest's 62 s against 27 of 70 s on 1
	# GiB, 73.7 s of CPU against 82.4 s; the torture's was the same,
	# 136.5 s and 137.3 s (scripts/guest.sh by hand, one after the
	# other, a 2-CPU machine alone).
	MSTAT_TORTURE_SECONDS=10 mstat_suite_guests "$name" \
		"$image" "$dir" --prio=2 --mem=512M

	# The ground-truth test on the debug kernel (KASAN, lockdep,
	# kmemleak). kmemleak allocates an object of its own cache beside every
	# allocation, and KASAN shadow pages beside every vmalloc. KASAN's
	# quarantine holds freed slab objects back and frees them when a later
	# allocation drains it: a pattern's own allocations then free the
	# earlier patterns' empty slabs, pages of orders 0 to 2 here (CI met 53
	# order-2 frees in one kvfree_rcu_large run, none in its idle windows).
	# So the cache and page sources' totals and orders 0 to 2 are printed,
	# not judged, there; every other row is (kmalloc, its classes, the large
	# class, order 4). 1000 allocations and frees a pattern, not 4000: each
	# pattern's run and its three idle windows are a quarter as long, the
	# same rows judged exactly. On one vCPU, as the per-cache guest: the
	# debug kernel's counting paths under KASAN, lockdep and kmemleak are
	# what they judge; its torture (four vCPUs), KUnit and fault guests
	# (two) run mstat across CPUs. Side by side, beside a CPU hog and
	# another guest (scripts/guest.sh by hand),
	# the truth guest took 61.9 s of CPU on one vCPU against 72.8 s on
	# two, the per-cache guest 27.6 s against 35.4 s, the same checks
	# passing; a debug guest's CPU time grows with the host's load on two
	# vCPUs (the truth guest's 146 s in a cold run, 61 s alone), little
	# on one. The fault guests stay on two: side by side,
	# the good build's OOM part on one vCPU had taken 158 s of CPU,
	# unfinished, when the guest on two had ended it and the rest in 130 s.
	# Then the per-cache test, in the same boot: every row exact here too
	# (kmemleak's own objects are its cache's rows); KASAN's quarantine
	# holds a freed struct kmem_cache back, so the re-created cache's
	# address is not required to be the same (no "-a").
	mstat_guests_parts "$name-counts" "$image" \
		'truth caches' "$dir/mstat.ko" \
		"$dir/tests/truth/mstat_truth.ko" \
		"$dir/tests/caches/mstat_cachetest.ko" --smp=1 \
		--file=build/tools/truth:/mstat/truth \
		--file=build/tools/caches:/mstat/caches \
		--file=build/tools/mstat:/mstat/mstat --timeout=1200 \
		'--append=TRUTH_ARGS="-n 1000 -r cache -r page -r order:0 -r order:1 -r order:2"'

	# The KUnit suites' own test, on the debug kernel: mstat_core's cases
	# with a reader that does not wait must fail, cleanly. And KASAN's: it
	# must report mstat_truth's kasan_probe, a module's access and
	# vsnprintf()'s one byte past an object (kunit/.kunitconfig keeps
	# those instrumented, not the rest of the kernel); kasan_multi_shot,
	# for KASAN reports only its first without. Then the broken build's
	# mstat_profile suite, whose cases that must catch its mutations
	# (MSTAT_MUT_FORGET_ALL, MSTAT_MUT_PAGE_SYMBOLS, tests/mstat_mutants.h)
	# must fail, and they alone.
	[ ! -f "$broken/mstat.ko" ] ||
		busted=("--file=$broken/mstat.ko:/mstat/broken/mstat.ko"
			"--file=$broken/kunit/mstat_profile_kunit.ko:/mstat/broken/mstat_profile_kunit.ko")
	guest "$name-kunit-busted" "$image" \
		scripts/guest/kunit-busted.sh "$dir/mstat.ko" \
		"$dir/kunit/mstat_core_kunit.ko" \
		"$dir/tests/truth/mstat_truth.ko" --tcg=multi \
		--append=kasan_multi_shot ${busted[@]+"${busted[@]}"}

	# Faults (scripts/guest/faults.sh), on the debug kernel's fault
	# injection: every allocation of mstat's init failed in turn, failures
	# injected into reads and control writes under load, failures counted
	# against the truth, the OOM killer at work; and the broken build, whose
	# bug each part must catch (the parts with nothing of it to catch run on
	# it in make soak). The load part fails every eighth point of mstat's
	# init here, from a start drawn each run, so that eight runs between
	# them fail every point (the broken build's, its last points only),
	# every point in make soak; the reads under injection 80 of each file,
	# the control writes 40 of each, against 150 and 60 in make soak (the
	# good build's guest took 365 s of CPU at stride 5 with 150 and 60 in
	# a cold run, its load part 288 s of 608 s).
	# 384 MiB, not 1 GiB: the OOM part's hog fills what is free three
	# times, which took 229 s of a 530 s run on 1 GiB and 49 s of 358 s on
	# 384 MiB (scripts/guest.sh by hand, beside a kernel build), and 288 s
	# of 820 s in a cold run: here once
	# (FAULTS_HOGS=1), three times in make soak, and with no walk of /proc
	# and /sys beside it (FAULTS_OOM_LOAD=0: the part alone took 38 s of
	# the guest's CPU against 83 s with it, by hand; make soak
	# keeps it). These guests and the truth
	# and per-cache ones (above) run on single-threaded TCG: the broken
	# build's fault guest took 123 s of CPU in 134 s, against 144 s in 131 s
	# multi-threaded (scripts/guest.sh by hand, the machine alone): the
	# same time, less CPU.
	faults=(--file=build/tools/faultio:/mstat/faultio
		--file=build/tools/truth:/mstat/truth
		--file=build/tools/mstat:/mstat/mstat --timeout=1500
		--mem=384M --prio=2)
	guest "$name-faults" "$image" \
		scripts/guest/faults.sh "$dir/mstat.ko" \
		"$dir/tests/truth/mstat_truth.ko" "${faults[@]}" \
		"--append=nokaslr FAULTS_STRIDE=8 FAULTS_START=$start FAULTS_READS=80 FAULTS_WRITES=40 FAULTS_HOGS=1 FAULTS_OOM_LOAD=0"
	[ ! -f "$broken/mstat.ko" ] ||
		guest "$name-faults-broken" "$image" \
			scripts/guest/faults.sh "$broken/mstat.ko" \
			"$broken/tests/truth/mstat_truth.ko" "${faults[@]}" \
			'--append=nokaslr FAULTS="broken"'
}

# mstat_guests_counts ID VMLINUZ [PART...] [ARG...]: queue guest-ID-counts,
# the counts against a known truth on the kernel built in build/ID, the
# ground-truth and per-cache tests ("-a": the re-created cache's address
# reused), the whole-memory account's truth (account, exact on 5.10 to
# 7.3, and on 6.12 and 7.3 bulkpages and kinds, where build/ID has
# tests/hold/), then each PART (survive, params), in one boot
# (mstat_guests_parts); each ARG is guest's (a later --timeout, the
# default 900 s's place).
mstat_guests_counts() {
	local id=$1 kernel=$2 parts='truth caches' b=build/$1 holdko=()
	shift 2
	if [ -f "$b/tests/hold/mstat_hold.ko" ]; then
		parts+=' account'
		holdko=("$b/tests/hold/mstat_hold.ko")
		# alloc_pages_exact()'s sample cut to its size, its rows
		# named as before after the unload (exact.sh): on 5.10, 6.1,
		# 6.12 and 7.3 (make_alloc_exact()'s kprobe leaves 5.10's
		# stacks whole, where a kretprobe's trampoline stopped its
		# unwinder). alloc_pages_bulk()'s pages sampled
		# (bulkpages.sh): on 6.1, 6.12 and 7.3 (5.10 has no
		# alloc_pages_bulk()). Each page kind's frames against
		# known allocations (kinds.sh), and the kernel's own page
		# tables against a kprobe's count (ptkernel.sh): on all four.
		case $id in 5.10|6.1|6.12|7.3) parts+=' exact kinds ptkernel' ;; esac
		case $id in 6.1|6.12|7.3) parts+=' bulkpages' ;; esac
	fi
	while [ $# -gt 0 ] && [[ $1 != -* ]]; do
		parts+=" $1"
		shift
	done
	mstat_guests_parts "guest-$id-counts" "$kernel" "$parts" \
		"$b/mstat.ko" "$b/tests/truth/mstat_truth.ko" \
		"$b/tests/caches/mstat_cachetest.ko" "${holdko[@]}" \
		--file=build/tools/truth:/mstat/truth \
		--file=build/tools/caches:/mstat/caches \
		--file=build/tools/mstat:/mstat/mstat \
		--file=build/tools/acct:/mstat/acct \
		--file=build/tools/huge:/mstat/huge \
		'--append=CACHES_ARGS="-a"' --timeout=900 "$@"
}

# mstat_guests_kernel ID VMLINUZ ON [noparams]: queue what every kernel of
# the matrix runs (make check, make canary), on the build in build/ID, in
# one boot (guest-ID-counts): the counts (mstat_guests_counts), the
# survival test with the probes ON that must be on (it loads, reads and
# unloads as the smoke test did, /proc/mstat gone after: no smoke guest
# of its own), and, unless "noparams", the load parameters' limits.
mstat_guests_kernel() {
	local parts=survive
	[ "${4:-}" = noparams ] || parts+=' params'
	# shellcheck disable=SC2086 # the parts, split
	mstat_guests_counts "$1" "$2" $parts "--append=SURVIVE_ON=\"$3\"" \
		--timeout=1200
}

# guest_where CONSOLE: where a guest stopped by its --timeout was: its
# part (scripts/guest/parts.sh's "# part P" lines), its last result line,
# or that its script never started.
guest_where() {
	local part last
	if ! tr -d '\r' <"$1" 2>/dev/null | grep -qx 'MSTAT-GUEST-START'; then
		echo "stopped at its --timeout before its script started"
		return
	fi
	part=$(tr -d '\r' <"$1" | sed -n 's/^# part \([a-z0-9-]*\)$/\1/p' | tail -n 1)
	last=$(tr -d '\r' <"$1" | grep -E '^(not )?ok ' | tail -n 1)
	echo "stopped at its --timeout${part:+ in part $part}, after ${last:-no result line}"
}

# collect NAME: the guest's exit status and times (boot and run, under
# qemu's TCG emulation: wall-clock and CPU), a clean console, and its "ok"/"not ok" lines if
# it prints any (then also that their number is the "# checks=N" it
# announced: kernel messages may garble a line).
collect() {
	local name=$1 logs=$MSTAT_LOGS rc secs cpu want got
	local con=$logs/$1.console rel=${MSTAT_LOGS#"$MSTAT_TOP"/}
	local retried=''
	read -r rc secs cpu <"$logs/$name.rc" 2>/dev/null || rc=1 secs=0
	cpu=${cpu:-0}
	# Never hidden: a retried boot is in the test's own line, and its
	# first console's first oops line is shown.
	if [ -f "$logs/$name.retried" ]; then
		retried=", retried boot: the first died before its script ($(cat "$logs/$name.retried") s), console: $rel/$name.console.boot1"
		grep -m 1 -E 'BUG:|Oops|RIP:|Kernel panic' "$con.boot1" 2>/dev/null |
			show
		mstat_retried_boots=$((${mstat_retried_boots:-0} + 1))
	fi
	if [ "$rc" -eq 0 ]; then
		ok "$name ($secs s TCG, $cpu s CPU$retried)"
	elif [ "$rc" -eq 124 ]; then
		not_ok "$name ($secs s TCG, $cpu s CPU, timeout: $(guest_where "$con")$retried), console: $rel/$name.console"
		tail -n 20 "$logs/$name.log" | show
	else
		not_ok "$name ($secs s TCG, $cpu s CPU, exit $rc$retried), console: $rel/$name.console"
		tail -n 20 "$logs/$name.log" | show
	fi
	t "$name-console-clean" "$MSTAT_TOP/scripts/console-check.sh" "$con"
	# Skips ("ok NAME # SKIP WHY", scripts/guest/lib.sh) are relayed,
	# not counted as checks.
	tr -d '\r' <"$con" 2>/dev/null | grep -E '^(not )?ok ' >"$logs/$name.checks"
	# The summary lines' checks, added up: a guest of several parts
	# (scripts/guest/parts.sh) prints one a part.
	want=$(tr -d '\r' <"$con" 2>/dev/null | awk -F'[= ]' '
		/^# checks=[0-9]+ failed=[0-9]+$/ { n += $3; s = 1 }
		END { if (s) print n }')
	[ -n "$want" ] || return 0
	relay "$logs/$name.checks" "$name"
	got=$(grep -E '^(not )?ok ' "$logs/$name.checks" | grep -vc ' # SKIP ')
	if [ "$want" -eq "$got" ]; then
		ok "$name-checks-reported ($got)"
	else
		not_ok "$name-checks-reported: $got of $want, console: $rel/$name.console"
	fi
}

# collect_kunit NAME: one test per KUnit case, as kunit.py parsed them
# (scripts/ktap.sh).
collect_kunit() {
	local name=$1 logs=$MSTAT_LOGS suite np nf rc
	local rel=${MSTAT_LOGS#"$MSTAT_TOP"/}
	"$MSTAT_TOP/scripts/ktap.sh" "$logs/$name.console" "$logs/$name-ktap" \
		>"$logs/$name-ktap.log" 2>&1
	rc=$?
	sed -n 's/^KTAP \([^ ]*\) passed=\([0-9]*\) failed=\([0-9]*\).*/\1 \2 \3/p' \
		"$logs/$name-ktap.log" >"$logs/$name-ktap.summary"
	while read -r suite np nf; do
		tally "$np" "$nf" "$name $suite"
		echo "# KUnit: $name $suite passed=$np failed=$nf"
	done <"$logs/$name-ktap.summary"
	if [ "$rc" -eq 0 ] && [ -s "$logs/$name-ktap.summary" ]; then
		ok "$name-kunit-parse"
	else
		not_ok "$name-kunit-parse, log: $rel/$name-ktap.log"
		tail -n 30 "$logs/$name-ktap.log" | show
	fi
}

# mstat_guests_wait: wait until every guest this process queued has
# ended (its NAME.rc), the dispatcher started again if it died; after
# three such restarts, a guest still waiting is given "1 0 0".
mstat_guests_wait() {
	local name restarts
	for name in ${mstat_guests[@]+"${mstat_guests[@]}"}; do
		until [ -f "$MSTAT_LOGS/$name.rc" ]; do
			restarts=()
			# 2>/dev/null first: it must be in place before the
			# file, which exists only after a restart, is opened.
			mapfile -t restarts 2>/dev/null <"$MSTAT_QUEUE/restarts"
			if [ "${#restarts[@]}" -ge 3 ]; then
				log "$name: the guest queue's dispatcher died three times"
				echo "1 0 0" >"$MSTAT_LOGS/$name.rc"
				break
			fi
			mstat_queue_start
			mstat_nap 1
		done
	done
}

# mstat_queue_stop: the owner's dispatcher told to end once idle, waited
# for, and its directory removed.
mstat_queue_stop() {
	local pid
	[ -n "$mstat_queue_owner" ] || return 0
	pid=$(cat "$MSTAT_QUEUE/pid" 2>/dev/null)
	touch "$MSTAT_QUEUE/closed"
	# Not wait alone: a subshell of the owner may stop it too.
	while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; do
		mstat_nap 0.2
	done
	[ -z "$pid" ] || wait "$pid" 2>/dev/null
	rm -rf "$MSTAT_QUEUE"
	mstat_queue_owner=
	unset MSTAT_QUEUE
}

# collect_guests: wait for every guest this process queued, then collect
# each, in the order queued; a NAME ending in -kunit also gets
# collect_kunit, one in -kunit-busted scripts/kunit-busted-check.sh.
collect_guests() {
	local name restarts
	mstat_guests_wait
	restarts=$(wc -l 2>/dev/null <"$MSTAT_QUEUE/restarts" || echo 0)
	if [ "$restarts" -eq 0 ]; then
		[ -z "$mstat_queue_owner" ] || ok guest-queue
	else
		not_ok "guest-queue: its dispatcher died and was started again $restarts times"
	fi
	mstat_queue_stop
	for name in ${mstat_guests[@]+"${mstat_guests[@]}"}; do
		collect "$name"
		case $name in
		*-kunit) collect_kunit "$name" ;;
		*-kunit-busted)
			"$MSTAT_TOP/scripts/kunit-busted-check.sh" \
				"$MSTAT_LOGS/$name.console" \
				>"$MSTAT_LOGS/$name-check.log" 2>&1
			relay "$MSTAT_LOGS/$name-check.log" "$name" ;;
		esac
	done
	mstat_guests=()
}

# mstat_free_port VAR: VAR set to a TCP port free on 127.0.0.1 now, never
# one this shell was given before (two servers started one after the
# other may not be given the same; a variable, not output, so that the
# ports given are remembered here, not in a command substitution's
# subshell). (prom-test.sh, serve-test.sh)
declare -A mstat_ports_taken=()
mstat_free_port() {
	local p
	while :; do
		p=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') ||
			return
		[ -z "${mstat_ports_taken[$p]:-}" ] && break
	done
	mstat_ports_taken[$p]=1
	printf -v "$1" '%s' "$p"
}

mstat_prom_port='' mstat_prom_api=''

# mstat_prometheus_start DIR JOB TARGET LOG: Debian's prometheus, on a
# free port of 127.0.0.1, its data in DIR, scraping TARGET (host:port)
# every second as job JOB, its output in LOG; its pid appended to the
# caller's array pids (for stop_servers). Sets mstat_prom_port and
# mstat_prom_api (its HTTP API's base URL); does not wait for it.
mstat_prometheus_start() {
	mkdir -p "$1/data"
	cat >"$1/prometheus.yml" <<-EOF
	global:
	  scrape_interval: 1s
	  scrape_timeout: 1s
	  evaluation_interval: 1s
	scrape_configs:
	  - job_name: $2
	    static_configs:
	      - targets: ['$3']
	EOF
	mstat_free_port mstat_prom_port || return
	prometheus --config.file="$1/prometheus.yml" \
		--storage.tsdb.path="$1/data" \
		--web.listen-address="127.0.0.1:$mstat_prom_port" >"$4" 2>&1 &
	pids+=($!)
	mstat_prom_api=http://127.0.0.1:$mstat_prom_port/api/v1
}

# mstat_prometheus_ready SECONDS: the started prometheus answers /-/ready
# within SECONDS.
mstat_prometheus_ready() {
	local end=$((SECONDS + $1))
	until curl -fsS --max-time 5 -o /dev/null \
		"http://127.0.0.1:$mstat_prom_port/-/ready" 2>/dev/null; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.2
	done
}

# mstat_promq QUERY [TIME]: an instant query of the started prometheus at
# TIME (milliseconds since the epoch; default now), its one series as "TS
# VALUE" lines (a range vector: its samples; else its value), TS in
# milliseconds as prometheus keeps them. Fails unless one series came
# back.
mstat_promq() {
	local at=
	[ -z "${2:-}" ] || at=${2%???}.${2: -3}
	curl -fsS --max-time 10 -G "$mstat_prom_api/query" \
		--data-urlencode "query=$1" \
		${at:+--data-urlencode "time=$at"} | python3 -c '
import json, sys
d = json.load(sys.stdin)
r = d.get("data", {}).get("result")
if d.get("status") != "success" or not isinstance(r, list) or len(r) != 1:
    sys.exit("want one series, got: " + json.dumps(d)[:400])
for ts, v in r[0].get("values") or [r[0]["value"]]:
    print("%d %s" % (round(ts * 1000), v))'
}

# stop_servers: TERM to the servers a host test started (their pids in
# the caller's array pids), KILL after 10 s; then pids is empty.
# (prom-test.sh, serve-test.sh)
stop_servers() {
	local p n
	for p in ${pids[@]+"${pids[@]}"}; do
		kill "$p" 2>/dev/null
	done
	for p in ${pids[@]+"${pids[@]}"}; do
		for ((n = 0; n < 50; n++)); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.2
		done
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	pids=()
}
