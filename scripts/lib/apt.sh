# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Debian's kernels through an apt of mstat's own: package lists, lookups,
# extraction, and the kernel modules a guest needs from an image.
# Sourced by scripts/lib.sh (its MSTAT_TOP, log and die), never alone.

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
