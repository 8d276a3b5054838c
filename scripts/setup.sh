#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what mstat's build and tests need, idempotently, on Debian 12.
# Kernel images are extracted into the cache, never installed on the host:
# the host kernel is not ours to boot or to load modules into.
#
# Prints, as its last lines, shell assignments the other scripts source:
#   K61_REL K61_VMLINUZ K61_KDIR K612_REL K612_VMLINUZ K612_KDIR
#   K612RT_REL K612RT_VMLINUZ K612RT_KDIR (the PREEMPT_RT flavour) KSRC
# and, if the arm64 set-up succeeded:
#   KA64_REL KA64_VMLINUZ KA64_KDIR (Debian's arm64 kernel of the same
#   6.12 release) KA64_BUSYBOX KA64_ZLIB (a root with usr/include and
#   usr/lib/aarch64-linux-gnu/libz.a, for the static mstat tool)
# or, if it failed, KA64_ERROR: its last message (scripts/arm64.sh
# reports it).
#
#   scripts/setup.sh            everything
#   scripts/setup.sh --arm64 REL  only the arm64 part, for 6.12 release
#                                 REL (6.12.N+deb12): run by the above
#                                 as a process of its own, so that its
#                                 failure is reported, not fatal
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# clang and libbpf-dev are for the eBPF comparison (tests/bpf/): its
# programs built with clang -target bpf, its loader static against
# libbpf.a, libelf-dev's libelf.a and zlib1g-dev's libz.a.
# prometheus-node-exporter (with prometheus, which also gives promtool),
# curl and iproute2 (ss) are for the exporter's test with the real
# servers (scripts/prom-test.sh): both servers started on 127.0.0.1,
# queried over HTTP, their sockets listed.
# debhelper, dh-dkms and lintian build and check the Debian packages
# (make deb); debootstrap and zstd make and cache the clean root they are
# installed in (scripts/deb-test.sh).
need_pkgs=(build-essential bc bison flex libelf-dev libssl-dev dwarves
	   kmod cpio gzip busybox-static qemu-system-x86 python3 sparse
	   valgrind xz-utils rsync dkms prometheus protobuf-compiler
	   golang-go libgmp10 zlib1g-dev shellcheck git
	   clang libbpf-dev prometheus-node-exporter curl iproute2
	   debhelper dh-dkms lintian debootstrap zstd)

apt_updated=
apt_update_once() {
	[ -n "$apt_updated" ] && return 0
	log "apt-get update"
	apt-get update -qq >/dev/null
	apt_updated=1
}

# Install the packages that are not installed yet.
apt_install() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	apt_update_once
	log "apt-get install ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >/dev/null
}

# Newest Debian 6.12 flavour that has both an image and headers.
pick_612() {
	apt-cache search --names-only \
		'^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$' |
		sed -E 's/^linux-image-(6\.12\.[0-9]+\+deb12-amd64)-unsigned .*/\1/' |
		sort -V | while read -r rel; do
			apt-cache show "linux-headers-$rel" >/dev/null 2>&1 &&
				echo "$rel"
		done | tail -n 1
}

pick_61() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -nE 's/.*Depends: linux-image-(6\.1\.[0-9a-z.-]+-amd64)$/\1/p' |
		head -n 1
}

# Extract /boot/vmlinuz-REL of PKG into the cache.
fetch_vmlinuz() {
	local pkg=$1 rel=$2
	local dir="$MSTAT_CACHE/kernels/$rel"

	[ -s "$dir/vmlinuz" ] && return 0
	mkdir -p "$dir/tmp"
	(cd "$dir/tmp" && apt-get download -qq "$pkg" >/dev/null)
	dpkg-deb --fsys-tarfile "$dir"/tmp/*.deb |
		tar -x -C "$dir/tmp" "./boot/vmlinuz-$rel"
	mv "$dir/tmp/boot/vmlinuz-$rel" "$dir/vmlinuz"
	rm -rf "$dir/tmp"
}

## arm64: a cross compiler, qemu-system-aarch64, and Debian's arm64
## packages downloaded and extracted into the cache, never installed.

# candidates PKG...: "PKG VERSION" lines, the candidate of each (for a
# foreign arch, PKG is NAME:arm64). One apt-cache run: each takes seconds.
candidates() {
	apt-cache policy "$@" 2>/dev/null | awk '
		/^[^ ]/ { pkg = $1; sub(/:$/, "", pkg) }
		/^  Candidate: / && $2 != "(none)" { print pkg, $2 }'
}

# extract_deb PKG VERSION DIR: dpkg-deb -x that .deb into DIR/VERSION
# (":" as "_"), once; prints that directory.
extract_deb() {
	local pkg=$1 ver=$2 dir=$3/${2//:/_}
	if [ ! -f "$dir/.done" ]; then
		rm -rf "$dir"
		mkdir -p "$dir/deb"
		(cd "$dir/deb" && apt-get download -qq "$pkg=$ver" >/dev/null)
		dpkg-deb -x "$dir"/deb/*.deb "$dir"
		rm -rf "$dir/deb"
		touch "$dir/.done"
	fi
	echo "$dir"
}

# setup_arm64 BASE: BASE is the 6.12 release without its flavour
# (6.12.117+deb12). Prints the KA64_* assignments.
setup_arm64() {
	local base=$1 rel=$1-arm64 kb=/usr/lib/linux-kbuild-$1
	local dir=$MSTAT_CACHE/arm64 kdir img hdrs common busybox zlib
	local pkgs=("linux-headers-$rel:arm64" busybox-static:arm64
		    zlib1g-dev:arm64) p v
	local -A ver=()

	# libc6-dev-arm64-cross is only recommended by the compiler, but the
	# static tools of the guests link against it.
	apt_install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm
	# The arm64 package lists; nothing arm64 is installed on the host.
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		log "dpkg --add-architecture arm64 (for apt-get download only)"
		dpkg --add-architecture arm64
	fi
	while read -r p v; do ver[$p]=$v; done < <(candidates "${pkgs[@]}")
	if [ ${#ver[@]} -lt ${#pkgs[@]} ]; then
		apt_updated=
		apt_update_once
		while read -r p v; do ver[$p]=$v; done < <(candidates "${pkgs[@]}")
	fi
	for p in "${pkgs[@]}"; do
		[ -n "${ver[$p]:-}" ] || die "no package $p"
	done

	# The image: Debian's arm64 vmlinuz is a plain Image (6.12.117:
	# "Linux kernel ARM64 boot executable Image", 44 MB) or, in other
	# releases, a gzip'd one; qemu -kernel is given the plain Image.
	img=$MSTAT_CACHE/kernels/$rel
	if [ ! -s "$img/Image" ]; then
		fetch_vmlinuz "linux-image-$rel-unsigned:arm64" "$rel"
		if gzip -t "$img/vmlinuz" 2>/dev/null; then
			gzip -dc "$img/vmlinuz" >"$img/Image.tmp"
			mv "$img/Image.tmp" "$img/Image"
		else
			ln -f "$img/vmlinuz" "$img/Image"
		fi
	fi

	# The headers. Their Makefile includes the arch-independent
	# linux-headers-BASE-common, installed on the host for the amd64
	# headers: it must be the same upload. Their scripts/ and tools/ are
	# relative links to ../../lib/linux-kbuild-BASE, the build helpers,
	# which Debian ships per build architecture: the host has the amd64
	# build of the same version (linux-kbuild-BASE, installed for the
	# amd64 headers), which is what a cross build runs. So that link
	# target, inside the extracted tree, points at the host's.
	hdrs=$(extract_deb "${pkgs[0]}" "${ver[${pkgs[0]}]}" "$dir/headers")
	common=$(dpkg-query -W -f='${Version}' "linux-headers-$base-common")
	[ "$common" = "${ver[${pkgs[0]}]}" ] ||
		die "linux-headers-$rel:arm64 is not version $common of linux-headers-$base-common"
	[ "$(dpkg-query -W -f='${Version}' "linux-kbuild-$base")" = "$common" ] ||
		die "linux-kbuild-$base is not version $common"
	mkdir -p "$hdrs/usr/lib"
	ln -sfn "$kb" "$hdrs/usr/lib/linux-kbuild-$base"
	kdir=$hdrs/usr/src/linux-headers-$rel
	[ -f "$kdir/scripts/Makefile.build" ] || die "$kdir/scripts: broken link"

	busybox=$(extract_deb busybox-static:arm64 \
		  "${ver[busybox-static:arm64]}" "$dir/busybox")/bin/busybox
	zlib=$(extract_deb zlib1g-dev:arm64 "${ver[zlib1g-dev:arm64]}" "$dir/zlib")
	[ -f "$zlib/usr/lib/aarch64-linux-gnu/libz.a" ] || die "no libz.a in $zlib"

	cat <<-EOT
	KA64_REL=$rel
	KA64_VMLINUZ=$img/Image
	KA64_KDIR=$kdir
	KA64_BUSYBOX=$busybox
	KA64_ZLIB=$zlib
	EOT
}

main() {
	if [ "${1:-}" = --arm64 ]; then
		setup_arm64 "$2"
		return
	fi
	mkdir -p "$MSTAT_CACHE"
	apt_install "${need_pkgs[@]}"

	if [ ! -f "$MSTAT_CACHE/kernels.env" ] ||
	   [ "$(find "$MSTAT_CACHE/kernels.env" -mmin -1440)" = "" ]; then
		apt_update_once
		k61=$(pick_61)
		k612=$(pick_612)
		if [ -z "$k61" ] || [ -z "$k612" ]; then
			die "cannot find Debian 6.1/6.12 kernel packages"
		fi
		printf 'K61_REL=%s\nK612_REL=%s\n' "$k61" "$k612" \
			>"$MSTAT_CACHE/kernels.env"
	fi
	# shellcheck source=/dev/null
	. "$MSTAT_CACHE/kernels.env"

	# The PREEMPT_RT flavour of the same 6.12 release.
	local k612rt=${K612_REL%-amd64}-rt-amd64

	apt_install "linux-headers-$K61_REL" "linux-headers-$K612_REL" \
		    "linux-headers-$k612rt" linux-source-6.12
	fetch_vmlinuz "linux-image-$K61_REL" "$K61_REL"
	fetch_vmlinuz "linux-image-$K612_REL-unsigned" "$K612_REL"
	fetch_vmlinuz "linux-image-$k612rt-unsigned" "$k612rt"

	# The kernel tree for kunit.py, checkpatch.pl and the test kernel.
	local tarball ksrc="$MSTAT_CACHE/linux-source-6.12"
	if [ ! -f "$ksrc/Makefile" ]; then
		tarball=$(compgen -G '/usr/src/linux-source-6.12*.tar.*' | head -n 1)
		log "unpacking $tarball"
		mkdir -p "$ksrc.tmp"
		tar -xf "$tarball" -C "$ksrc.tmp" --strip-components=1
		mv "$ksrc.tmp" "$ksrc"
	fi

	cat <<-EOT
	K61_REL=$K61_REL
	K61_VMLINUZ=$MSTAT_CACHE/kernels/$K61_REL/vmlinuz
	K61_KDIR=/usr/src/linux-headers-$K61_REL
	K612_REL=$K612_REL
	K612_VMLINUZ=$MSTAT_CACHE/kernels/$K612_REL/vmlinuz
	K612_KDIR=/usr/src/linux-headers-$K612_REL
	K612RT_REL=$k612rt
	K612RT_VMLINUZ=$MSTAT_CACHE/kernels/$k612rt/vmlinuz
	K612RT_KDIR=/usr/src/linux-headers-$k612rt
	KSRC=$ksrc
	EOT

	# arm64 (scripts/arm64.sh): a failure here leaves the KA64_* unset
	# and the x86 tests unharmed; KA64_ERROR is its last message, which
	# scripts/arm64.sh puts in its "not ok" line. Its messages also go to
	# this script's stderr, the caller's set-up log.
	local err rc=0
	err=$(mktemp)
	"$0" --arm64 "${K612_REL%-amd64}" 2>"$err" || rc=$?
	cat "$err" >&2
	if [ "$rc" -ne 0 ]; then
		log "arm64 set-up failed (exit $rc): scripts/arm64.sh will report it"
		printf 'KA64_ERROR=%q\n' \
			"$(grep -v '^$' "$err" | tail -n 1 || true) (exit $rc)"
	fi
	rm -f "$err"
}

main "$@"
