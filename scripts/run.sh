#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make run: set up, build mstat for the stock Debian 6.12 kernel, boot it
# in a qemu guest, load mstat and show /proc/mstat.
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP"
mstat_setup_env || die "set-up failed; log: $mstat_setup_log"
scripts/build.sh "$K612_KDIR" build/6.12
scripts/guest.sh --kernel "$K612_VMLINUZ" --script scripts/guest/show.sh \
	--ko build/6.12/mstat.ko --log build/logs/run.console >/dev/null || {
	tail -n 40 build/logs/run.console
	die "the guest failed; console: build/logs/run.console"
}
# The guest script frames what the user should see.
sed -n '/^=== mstat guest: begin ===/,/^=== mstat guest: end ===/p' \
	build/logs/run.console | sed '1d;$d' | tr -d '\r'
