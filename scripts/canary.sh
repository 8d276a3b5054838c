#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make canary: mstat on the newest release candidate Debian has
# (experimental's linux-binary-7.N-amd64): the kernel set up
# (scripts/matrix.sh canary: image and headers extracted, a sid root with
# the compiler its headers name), mstat built W=1 in that root, and the
# tests make check runs on every kernel of its matrix booted on it
# (mstat_guests_kernel: truth, caches, survive, params). Not part
# of make check: a release candidate may break what no released kernel
# does, and says so early. One line per test, then
# "N passed, N failed" (scripts/lib.sh).
#
#   scripts/canary.sh		(make canary)
#
# Logs: build/logs/canary/.
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP" || exit 1
MSTAT_LOGS=$MSTAT_TOP/build/logs/canary
logs=$MSTAT_LOGS
rm -rf "$logs"
mkdir -p "$logs"

# The host's packages (qemu, busybox...), as make check has them.
if ! mstat_setup_env; then
	not_ok "setup, log: $mstat_setup_log"
	summary
fi
ok setup

scripts/matrix.sh canary >"$logs/matrix.env" 2>"$logs/matrix-setup.log"
set -a
# shellcheck source=/dev/null
. "$logs/matrix.env"
set +a
if [ -z "${KM_CANARY_KDIR:-}" ]; then
	not_ok "matrix-canary: ${KM_CANARY_ERROR:-no KM_CANARY_* from scripts/matrix.sh}, log: build/logs/canary/matrix-setup.log"
	tail -n 20 "$logs/matrix-setup.log" | show
	summary
fi
ok "matrix-canary ($KM_CANARY_REL, $KM_CANARY_VERSION from $KM_CANARY_SUITE, $KM_CANARY_GCC)"

t build-canary-W1 scripts/build.sh --root "$KM_CANARY_ROOT" "$KM_CANARY_KDIR" \
	build/canary
t build-tools mstat_build_tools mstat truth caches
if [ -f build/canary/mstat.ko ] && [ -x build/tools/truth ]; then
	mstat_guests_kernel canary "$KM_CANARY_VMLINUZ" \
		'alloc_pages_bulk kmem_cache_alloc_bulk kmem_cache_free_bulk'
fi
collect_guests
summary
