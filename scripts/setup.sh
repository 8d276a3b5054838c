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
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_pkgs=(build-essential bc bison flex libelf-dev libssl-dev dwarves
	   kmod cpio gzip busybox-static qemu-system-x86 python3 sparse
	   valgrind xz-utils rsync dkms prometheus protobuf-compiler
	   golang-go libgmp10 zlib1g-dev shellcheck)

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

main() {
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
}

main "$@"
