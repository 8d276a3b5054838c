#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what mstat's build and tests need, idempotently, on Debian 12.
# Kernels are never installed on the host, images nor headers: the host
# kernel is not ours to boot or to load modules into, and a kernel
# package pulls an image into /boot and runs mkinitramfs. Debian's 6.1,
# 6.12, 6.12 PREEMPT_RT and 6.12 -cloud kernels, and arm64's 6.12, come
# from the kernel matrix (scripts/matrix.sh: downloaded through mstat's
# own apt, extracted into the cache, the headers with their common
# headers and build helpers in one directory). linux-source-6.12 is
# installed: it is a tarball, not a kernel.
#
# Prints, as its last lines, shell assignments the other scripts source:
#   K61_REL K61_VMLINUZ K61_KDIR K612_REL K612_VMLINUZ K612_KDIR
#   K612RT_REL K612RT_VMLINUZ K612RT_KDIR (the PREEMPT_RT flavour)
#   K612CLOUD_REL K612CLOUD_VMLINUZ K612CLOUD_KDIR (the -cloud flavour:
#   another config of the same sources, for virtual machines) KSRC
# and, if the arm64 set-up succeeded:
#   KA64_REL KA64_VMLINUZ KA64_KDIR (Debian's arm64 kernel of the 6.12
#   series) KA64_BUSYBOX KA64_ZLIB (a root with usr/include and
#   usr/lib/aarch64-linux-gnu/libz.a, for the static mstat tool)
# or, if it failed, KA64_ERROR: its last message (scripts/arm64.sh
# reports it).
#
#   scripts/setup.sh            everything
#   scripts/setup.sh --arm64    only the arm64 part: run by the above as
#                               a process of its own, so that its failure
#                               is reported, not fatal
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
# libmicrohttpd-dev is mstat serve's HTTP library (tools/mstat/serve.c);
# graphviz (dot) renders go tool pprof's -svg in its test with the real
# clients (scripts/serve-test.sh), which also uses prometheus, golang-go
# and curl.
# bpftool makes real BPF maps from a pod's cgroup in the owners' guest
# (scripts/guest/owners.sh, guest.sh --prog bpftool).
# help2man generates mstat(8) from mstat --help (tools/mstat/man.sh);
# groff-base (groff) and man-db (lexgrog) read it back (scripts/doc-check.sh).
# debhelper, dh-dkms and lintian build and check the Debian packages
# (make deb); mmdebstrap and zstd make and cache the clean root they are
# installed in (scripts/deb-test.sh), and mmdebstrap the kernel matrix's
# build roots (scripts/matrix.sh); debootstrap makes make fresh's root.
need_pkgs=(build-essential bc bison flex libelf-dev libssl-dev dwarves
	   kmod cpio gzip busybox-static qemu-system-x86 python3 sparse
	   valgrind xz-utils rsync dkms prometheus protobuf-compiler
	   golang-go libgmp10 zlib1g-dev shellcheck git
	   clang libbpf-dev prometheus-node-exporter curl iproute2
	   debhelper dh-dkms lintian debootstrap mmdebstrap zstd libmicrohttpd-dev
	   graphviz help2man groff-base man-db bpftool)

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
		-o DPkg::Lock::Timeout=600 --no-install-recommends \
		"${missing[@]}" >/dev/null
}

# matrix ID...: those kernels of the matrix set up (scripts/matrix.sh,
# its messages to stderr); its assignments are sourced here. Fails if one
# of them failed, with its error.
matrix() {
	local env id e
	env=$(mktemp)
	"$MSTAT_TOP/scripts/matrix.sh" "$@" >"$env" || true
	set -a
	# shellcheck source=/dev/null
	. "$env"
	set +a
	rm -f "$env"
	for id; do
		e=$(mstat_km "$id" ERROR)
		if [ -n "$e" ] || [ -z "$(mstat_km "$id" KDIR)" ]; then
			die "kernel $id: ${e:-no KM_* from scripts/matrix.sh}"
		fi
	done
}

# extract_deb PKG ARCH DIR: the newest PKG:ARCH of bookworm, extracted
# into DIR/VERSION (":" as "_") through mstat's apt, once; prints that
# directory.
extract_deb() {
	local v dir
	v=$(mstat_apt_lookup bookworm-security,bookworm "$2" "$1" | cut -d' ' -f2)
	[ -n "$v" ] || die "no $1:$2 in bookworm"
	dir=$3/${v//:/_}
	mstat_deb_extract "$dir" "$dir/.mstat-debs" "$1:$2=$v" >&2 ||
		die "cannot extract $1:$2=$v"
	echo "$dir"
}

## arm64: a cross compiler, qemu-system-aarch64, and Debian's arm64
## packages downloaded and extracted into the cache, never installed.

# setup_arm64: prints the KA64_* assignments.
setup_arm64() {
	local busybox zlib

	# libc6-dev-arm64-cross is only recommended by the compiler, but the
	# static tools of the guests link against it.
	apt_install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm
	# The image (a plain Image) and the headers, with their common
	# headers and the build helpers of the build machine (amd64), which
	# a cross build runs, extracted beside them.
	matrix arm64-6.12
	busybox=$(extract_deb busybox-static arm64 "$MSTAT_CACHE/arm64/busybox")/bin/busybox
	zlib=$(extract_deb zlib1g-dev arm64 "$MSTAT_CACHE/arm64/zlib")
	[ -x "$busybox" ] || die "no $busybox"
	[ -f "$zlib/usr/lib/aarch64-linux-gnu/libz.a" ] || die "no libz.a in $zlib"

	cat <<-EOT
	KA64_REL=$KM_ARM64_6_12_REL
	KA64_VMLINUZ=$KM_ARM64_6_12_VMLINUZ
	KA64_KDIR=$KM_ARM64_6_12_KDIR
	KA64_BUSYBOX=$busybox
	KA64_ZLIB=$zlib
	EOT
}

main() {
	if [ "${1:-}" = --arm64 ]; then
		setup_arm64
		return
	fi
	mkdir -p "$MSTAT_CACHE"
	apt_install "${need_pkgs[@]}" linux-source-6.12

	# The stock kernels: images and headers, extracted.
	matrix 6.1 6.12 6.12rt 6.12cloud

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
	K61_REL=$KM_6_1_REL
	K61_VMLINUZ=$KM_6_1_VMLINUZ
	K61_KDIR=$KM_6_1_KDIR
	K612_REL=$KM_6_12_REL
	K612_VMLINUZ=$KM_6_12_VMLINUZ
	K612_KDIR=$KM_6_12_KDIR
	K612RT_REL=$KM_6_12RT_REL
	K612RT_VMLINUZ=$KM_6_12RT_VMLINUZ
	K612RT_KDIR=$KM_6_12RT_KDIR
	K612CLOUD_REL=$KM_6_12CLOUD_REL
	K612CLOUD_VMLINUZ=$KM_6_12CLOUD_VMLINUZ
	K612CLOUD_KDIR=$KM_6_12CLOUD_KDIR
	KSRC=$ksrc
	EOT
	# The same as mstat_km (scripts/lib/apt.sh) reads them, for
	# mstat_runs' guests of these kernels.
	local id v
	for id in 6_1 6_12 6_12RT 6_12CLOUD; do
		for v in REL VMLINUZ KDIR; do
			v=KM_${id}_$v
			echo "$v=${!v}"
		done
	done

	# arm64 (scripts/arm64.sh): a failure here leaves the KA64_* unset
	# and the x86 tests unharmed; KA64_ERROR is its last message, which
	# scripts/arm64.sh puts in its "not ok" line. Its messages also go to
	# this script's stderr, the caller's set-up log.
	local err rc=0
	err=$(mktemp)
	"$0" --arm64 2>"$err" || rc=$?
	cat "$err" >&2
	if [ "$rc" -ne 0 ]; then
		log "arm64 set-up failed (exit $rc): scripts/arm64.sh will report it"
		printf 'KA64_ERROR=%q\n' \
			"$(grep -v '^$' "$err" | tail -n 1 || true) (exit $rc)"
	fi
	rm -f "$err"
}

main "$@"
