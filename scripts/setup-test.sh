#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The arm64 set-up from no package lists, the first-run path that once
# aborted under set -u before it ever ran apt-get update ("ver: unbound
# variable"): scripts/setup.sh --arm64 with mstat's own apt
# (MSTAT_APT_DIR, scripts/lib.sh) in an empty directory, as on a machine
# that never set up. It must fetch its lists itself and print the KA64_*
# assignments. The cache is the caller's: what is already extracted is not
# downloaded again, only the lists are (make fresh runs the same path from
# an empty cache, in a root debootstrap just made).
#
#   scripts/setup-test.sh
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export MSTAT_APT_DIR=$tmp/apt

"$MSTAT_TOP/scripts/setup.sh" --arm64 >"$tmp/env"
cat "$tmp/env"
grep -q '^KA64_REL=' "$tmp/env" || die "no KA64_REL from setup.sh --arm64"
compgen -G "$tmp/apt/lists/*arm64*" >/dev/null || die "no arm64 lists were fetched"
