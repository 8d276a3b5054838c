# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The one library of mstat's host scripts: where things are and messages
# here, and its parts, a job a file, in scripts/lib/: results.sh (the
# test lines and their count), setup.sh (the set-up environment),
# roots.sh (Debian roots for a chroot), apt.sh (Debian's kernels through
# an apt of mstat's own), tools.sh (the static programs the guests run),
# guests.sh (the guest queue, guest(), collect()), servers.sh (ports,
# Prometheus). Source it, do not run it:
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

# The library's parts, one job a file (scripts/lib/):
# shellcheck source=scripts/lib/results.sh
. "$MSTAT_TOP/scripts/lib/results.sh"
# shellcheck source=scripts/lib/setup.sh
. "$MSTAT_TOP/scripts/lib/setup.sh"
# shellcheck source=scripts/lib/roots.sh
. "$MSTAT_TOP/scripts/lib/roots.sh"
# shellcheck source=scripts/lib/apt.sh
. "$MSTAT_TOP/scripts/lib/apt.sh"
# shellcheck source=scripts/lib/tools.sh
. "$MSTAT_TOP/scripts/lib/tools.sh"
# shellcheck source=scripts/lib/guests.sh
. "$MSTAT_TOP/scripts/lib/guests.sh"
# shellcheck source=scripts/lib/runs.sh
. "$MSTAT_TOP/scripts/lib/runs.sh"
# shellcheck source=scripts/lib/servers.sh
. "$MSTAT_TOP/scripts/lib/servers.sh"
