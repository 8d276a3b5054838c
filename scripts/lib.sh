# SPDX-License-Identifier: GPL-2.0
# Shared helpers for mstat's scripts. Source it, do not run it.

# Kernel builds, extracted kernel images and guest logs live here, outside
# the clone, so a fresh clone on the same machine reuses them.
MSTAT_CACHE=${MSTAT_CACHE:-/var/cache/mstat}
MSTAT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

log() { printf '[mstat] %s\n' "$*" >&2; }
die() { printf '[mstat] error: %s\n' "$*" >&2; exit 1; }
