# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The set-up environment: scripts/setup.sh run, what it prints loaded.
# Sourced by scripts/lib.sh (its MSTAT_TOP, log and die), never alone.

## The set-up environment

# mstat_setup_env: install what is missing (scripts/setup.sh), then load
# and export what it prints: K61_REL K61_VMLINUZ K61_KDIR K612_REL
# K612_VMLINUZ K612_KDIR K612RT_REL K612RT_VMLINUZ K612RT_KDIR
# K612CLOUD_REL K612CLOUD_VMLINUZ K612CLOUD_KDIR KSRC, and
# the arm64 ones if that part succeeded: KA64_REL KA64_VMLINUZ KA64_KDIR
# KA64_BUSYBOX KA64_ZLIB, else KA64_ERROR (why it failed). Each calling
# script keeps its own log and environment, build/logs/setup-CALLER.log
# and .env (CALLER: the script's name without .sh), so that a later
# set-up in the same run (the mstat tool's live test, say) cannot
# overwrite what an earlier one said; mstat_setup_log names that log.
# Fails, with the log's tail on stderr, if set-up does.
mstat_setup_log=
mstat_setup_env() {
	local caller
	caller=$(basename "$0" .sh)
	local env=$MSTAT_TOP/build/logs/setup-$caller.env
	local err=$MSTAT_TOP/build/logs/setup-$caller.log
	mstat_setup_log=build/logs/setup-$caller.log
	mkdir -p "$MSTAT_TOP/build/logs"
	log "set-up (scripts/setup.sh, log: $mstat_setup_log)"
	if ! "$MSTAT_TOP/scripts/setup.sh" >"$env" 2>"$err"; then
		tail -n 30 "$err" >&2
		return 1
	fi
	set -a
	# shellcheck source=/dev/null
	. "$env"
	set +a
}
