#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (or find in the cache) a test kernel from linux-source-6.12 with
# kunit.py, configured by a kunitconfig fragment.
#
#   scripts/testkernel.sh [--arch x86_64|arm64] [KUNITCONFIG]
#
# (default: x86_64, kunit/.kunitconfig). arm64 is cross-built with
# $CROSS_COMPILE (default aarch64-linux-gnu-, Debian's
# gcc-aarch64-linux-gnu); kunit.py adds its qemu config for the arch (for
# arm64: the PL011 console of qemu's virt machine).
#
# The build directory is DIR/[ARCH-]<fragment's name>-<sha of the
# fragment's settings (its CONFIG_ and "#make" lines, not its comments) +
# source [+ arch]>, DIR $MSTAT_KBUILD or else $MSTAT_CACHE/kbuild (a
# bench that measures a build gives a DIR of its own), so a warm run does
# not rebuild (the fragment's file name and settings count, not its
# directory or comments). Prints that directory on stdout; the kernel image is
# DIR/arch/x86/boot/bzImage or DIR/arch/arm64/boot/Image.gz.
#
# A fragment's lines "#make ARCH VAR=VALUE" (comments to kunit.py) are
# make's variables for its build for ARCH (kunit.py's --make_options),
# such as the x86 debug kernel's KASAN_SANITIZE=n; being in the
# fragment, they are in its key.
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

arch=x86_64
if [ "${1:-}" = --arch ]; then
	[ $# -ge 2 ] || die "--arch needs an argument"
	arch=$2
	shift 2
fi
cross=()
case $arch in
x86_64)	;;
arm64)	cross=(--cross_compile="${CROSS_COMPILE:-aarch64-linux-gnu-}") ;;
*)	die "--arch: x86_64 or arm64, not $arch" ;;
esac

frag=$(realpath "${1:-$MSTAT_TOP/kunit/.kunitconfig}")
ksrc=${KSRC:-$MSTAT_CACHE/linux-source-6.12}
[ -f "$ksrc/Makefile" ] || die "no kernel source in $ksrc: run scripts/setup.sh"

name=$(basename "$frag" | tr -d .)
make_opts=()
while read -r v; do
	[[ $v =~ ^[A-Za-z_][A-Za-z0-9_.]*=[^[:space:]]*$ ]] ||
		die "$frag: \"#make $arch $v\": not a make variable (#make ARCH VAR=VALUE)"
	make_opts+=("--make_options=$v")
done < <(sed -n "s/^#make $arch //p" "$frag")
# What the build takes from the fragment: its options and "#make" lines,
# not its comments (a comment edited rebuilt nothing but the key).
settings() { grep -E '^(CONFIG_|# CONFIG_.* is not set|#make )' "$frag"; }
if [ "$arch" = x86_64 ]; then
	key=$( (settings; head -n 5 "$ksrc/Makefile") | sha256sum | cut -c1-16)
else
	key=$( (settings; head -n 5 "$ksrc/Makefile"; echo "arch=$arch") |
	       sha256sum | cut -c1-16)
	name=$arch-$name
fi
kbuild=${MSTAT_KBUILD:-$MSTAT_CACHE/kbuild}
dir=$kbuild/$name-$key

# One build per directory at a time: a second caller waits for the first.
mkdir -p "$kbuild"
exec 9>"$kbuild/.lock-$(basename "$dir")"
flock 9

if [ -f "$dir/.mstat-done" ]; then
	log "test kernel cached: $dir"
	echo "$dir"
	exit 0
fi

log "building $arch test kernel in $dir (cold: 7 to 10 min on 2 idle CPUs, longer beside other work)"
mkdir -p "$dir"
start=$(date +%s)
mstat_cpu cpu0
(cd "$ksrc" && python3 tools/testing/kunit/kunit.py build \
	--arch="$arch" ${cross[@]+"${cross[@]}"} --build_dir="$dir" \
	--kunitconfig="$frag" ${make_opts[@]+"${make_opts[@]}"} \
	--jobs="$(nproc)") >"$dir/build.log" 2>&1 ||
	{ tail -n 30 "$dir/build.log" >&2; die "test kernel build failed"; }
mstat_cpu cpu1
log "$arch test kernel built in $(( $(date +%s) - start )) s, $(((cpu1 - cpu0) / 100)) s of CPU"
touch "$dir/.mstat-done"
echo "$dir"
