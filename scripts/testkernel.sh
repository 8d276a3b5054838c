#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (or find in the cache) a test kernel from linux-source-6.12 with
# kunit.py, configured by a kunitconfig fragment.
#
#   scripts/testkernel.sh [KUNITCONFIG]     (default: tests/kunit/.kunitconfig)
#
# The build directory is $MSTAT_CACHE/kbuild/<sha of fragment + source>,
# so a warm run does not rebuild. Prints that directory on stdout.
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

frag=$(realpath "${1:-$MSTAT_TOP/tests/kunit/.kunitconfig}")
ksrc=${KSRC:-$MSTAT_CACHE/linux-source-6.12}
[ -f "$ksrc/Makefile" ] || die "no kernel source in $ksrc: run scripts/setup.sh"

key=$( (cat "$frag"; head -n 5 "$ksrc/Makefile") | sha256sum | cut -c1-16)
dir=$MSTAT_CACHE/kbuild/$(basename "$frag" | tr -d .)-$key

# One build per directory at a time: a second caller waits for the first.
mkdir -p "$MSTAT_CACHE/kbuild"
exec 9>"$MSTAT_CACHE/kbuild/.lock-$(basename "$dir")"
flock 9

if [ -f "$dir/.mstat-done" ]; then
	log "test kernel cached: $dir"
	echo "$dir"
	exit 0
fi

log "building test kernel in $dir (cold: about 8 min on 2 cores)"
mkdir -p "$dir"
start=$(date +%s)
(cd "$ksrc" && python3 tools/testing/kunit/kunit.py build \
	--arch=x86_64 --build_dir="$dir" --kunitconfig="$frag" \
	--jobs="$(nproc)") >"$dir/build.log" 2>&1 ||
	{ tail -n 30 "$dir/build.log" >&2; die "test kernel build failed"; }
log "test kernel built in $(( $(date +%s) - start )) s"
touch "$dir/.mstat-done"
echo "$dir"
