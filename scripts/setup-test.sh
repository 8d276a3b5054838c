#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The arm64 set-up from no arm64 package lists, the first-run path that
# once aborted under set -u before it ever ran apt-get update ("ver:
# unbound variable"): scripts/setup.sh --arm64 REL with apt pointed at an
# empty lists directory (APT_CONFIG: Dir::State::Lists), so that its
# first apt-cache look-up finds nothing, as on a machine that never had
# arm64 lists. It must update those lists itself and print the KA64_*
# assignments. The cache is the caller's: what is already extracted is
# not downloaded again, only the lists are (make fresh runs the same path
# from an empty cache, in a root debootstrap just made).
#
#   scripts/setup-test.sh REL	(REL: the 6.12 release, 6.12.N+deb12)
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: setup-test.sh 6.12.N+deb12"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/lists/partial"
printf 'Dir::State::Lists "%s/lists/";\n' "$tmp" >"$tmp/apt.conf"
export APT_CONFIG=$tmp/apt.conf

n=$(apt-cache policy "linux-headers-$1-arm64:arm64" 2>/dev/null |
    grep -c 'Candidate: [^(]' || true)
[ "$n" -eq 0 ] || die "the empty lists still know linux-headers-$1-arm64:arm64"

"$MSTAT_TOP/scripts/setup.sh" --arm64 "$1" >"$tmp/env"
cat "$tmp/env"
grep -q '^KA64_REL=' "$tmp/env" || die "no KA64_REL from setup.sh --arm64"
compgen -G "$tmp/lists/*arm64*" >/dev/null || die "no arm64 lists were fetched"
