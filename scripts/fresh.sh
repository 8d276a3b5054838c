#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make fresh: the README's two commands on a machine that has nothing.
# Builds a pristine Debian 12 root with debootstrap, clones this tree's
# committed HEAD into it (with ../shared beside it, as CI has it), and
# runs there, in a chroot with /proc, /sys and /dev bound and an empty
# /var/cache/mstat:
#
#	apt-get install make	(the one thing the README assumes)
#	make run		must show /proc/mstat
#	make check		must end with "N passed, 0 failed"
#	make soak		with MSTAT_FRESH_SOAK=1 (make fresh SOAK=1):
#				the same, after make check, as a new
#				user's first soak
#
# So every package, package list (arm64's among them), kernel and test
# kernel is fetched or built from nothing, whatever this host has. The
# root's apt reaches the registry this host's apt does: its sources and
# the Acquire settings it needs are copied in, nothing else is.
#
#   scripts/fresh.sh		(make fresh; about an hour on 2 CPUs,
#				make soak's half an hour more)
#
# The root is $MSTAT_FRESH_ROOT (default /var/tmp/mstat-fresh), remade
# each run and left in place afterwards for a look (its mounts are not).
# Logs and times: build/fresh/. Prints one line per step ("ok NAME
# (N s)" or "not ok NAME"), then "N passed, N failed". Not part of make
# check: it takes as long as a cold make check, plus debootstrap.
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

root=${MSTAT_FRESH_ROOT:-/var/tmp/mstat-fresh}
out=$MSTAT_TOP/build/fresh
MSTAT_LOGS=$out
suite=bookworm

[ "$(id -u)" -eq 0 ] || die "fresh.sh: run as root (debootstrap, chroot)"
mstat_root_remakable "$root" || die "MSTAT_FRESH_ROOT=$root: not a root to remake"

# The root is bound onto itself, so that its / is a mount point as a
# machine's or a container's is: unshare --mount (the suites' roots'
# builds) cannot make a / that is none private.
fresh_umount() {
	mstat_root_umount "$root"
	if mountpoint -q "$root"; then
		umount "$root"
	fi
}
trap fresh_umount EXIT

# in_root CMD: run the shell command CMD as root in the fresh root.
in_root() { mstat_in_root "$root" "$1"; }

# step NAME CMD...: one timed step, its output in build/fresh/NAME.log.
step() {
	local name=$1 start=$SECONDS rc=0
	shift
	"$@" >"$out/$name.log" 2>&1 || rc=$?
	echo "$name $rc $((SECONDS - start))" >>"$out/times"
	if [ "$rc" -eq 0 ]; then
		ok "$name ($((SECONDS - start)) s)"
	else
		not_ok "$name ($((SECONDS - start)) s, exit $rc), log: build/fresh/$name.log"
		tail -n 20 "$out/$name.log" | show
	fi
	return "$rc"
}

make_root() {
	mstat_debootstrap "$suite" "$root" "$(mstat_host_mirror "$suite")" &&
		mount --bind "$root" "$root" &&
		mstat_root_mount "$root" || return

	# The tree as CI gets it: a clone of what is committed, with
	# ../shared beside it.
	git clone -q "$MSTAT_TOP" "$root/root/mstat" || return
	# Its contents: a ../shared that is a symbolic link would be copied
	# as one, to a path the root does not have (herd7 then not found).
	if [ -d "$MSTAT_TOP/../shared" ]; then
		mkdir -p "$root/root/shared" &&
			cp -a "$MSTAT_TOP/../shared/." "$root/root/shared/"
	fi
	in_root 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 make'
}

# make run must print /proc/mstat: its version line and a class table.
make_run() {
	in_root 'cd /root/mstat && make run' || return
	grep -q '^# class size ' "$out/make-run.log" ||
		{ echo "no /proc/mstat class table in make run's output"; return 1; }
}

# in_root_passed STEP CMD: CMD in the root (make check as .ci/run runs
# it; make soak as a new user would run it next), whose last line, in
# build/fresh/STEP.log, must say 0 failed.
in_root_passed() {
	local line
	in_root "cd /root/mstat && $2"
	line=$(tail -n 1 "$out/$1.log")
	echo "last line: $line"
	[[ $line =~ ^[0-9]+\ passed,\ 0\ failed ]]
}

rm -rf "$out"
mkdir -p "$out"
start=$SECONDS
{
	echo "# scripts/fresh.sh, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, $(uname -m)"
	echo "# HEAD $(git -C "$MSTAT_TOP" rev-parse --short HEAD)"
} | tee "$out/summary"
if step debootstrap make_root; then
	step make-run make_run
	step make-check in_root_passed make-check "bash .ci/run"
	grep -E '^(not ok|ok arm64-setup|[0-9]+ passed)' "$out/make-check.log" |
		show
	if [ -n "${MSTAT_FRESH_SOAK:-}" ]; then
		step make-soak in_root_passed make-soak "make soak"
		grep -E '^(not ok|[0-9]+ passed)' "$out/make-soak.log" | show
	fi
fi
echo "# fresh total $((SECONDS - start)) s" | tee -a "$out/summary"
cat "$out/times" >>"$out/summary"
summary
