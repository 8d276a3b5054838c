# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Debian roots for a chroot: debootstrap and mmdebstrap roots, mounts,
# commands run in them.
# Sourced by scripts/lib.sh (its MSTAT_TOP, log and die), never alone.

## Debian roots, for a chroot (scripts/fresh.sh, scripts/deb-test.sh)

# mstat_host_mirror SUITE: this host's Debian mirror for SUITE, from a
# one-line or a deb822 source; http://deb.debian.org/debian if it has none.
mstat_host_mirror() {
	local m
	m=$({
		sed -nE "s/^deb +(\[[^]]*\] +)?([^ ]+) +$1 +.*/\2/p" \
			/etc/apt/sources.list 2>/dev/null
		awk -v suite="$1" '
			/^$/ { u = "" }
			/^URIs:/ { u = $2 }
			/^Suites:/ && u {
				for (i = 2; i <= NF; i++)
					if ($i == suite) { print u; exit }
			}' /etc/apt/sources.list.d/*.sources 2>/dev/null
	} | head -n 1)
	echo "${m:-http://deb.debian.org/debian}"
}

# mstat_root_remakable ROOT: ROOT may be removed and made anew: not
# empty, and not /, nor one of the host's own top directories.
mstat_root_remakable() {
	case $(realpath -m "${1:-/}") in
	/|/usr|/var|/tmp|/root|/home|/etc|/boot) return 1 ;;
	esac
}

# mstat_need_cmd CMD [PKG]: CMD, installed from Debian's PKG (default
# CMD) if this host lacks it.
mstat_need_cmd() {
	command -v "$1" >/dev/null && return
	if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	       apt-get install -y -qq -o DPkg::Lock::Timeout=600 "${2:-$1}" \
	       >/dev/null; }; then
		log "cannot install ${2:-$1}"
		return 1
	fi
}

# mstat_apt_acquire: this host's apt configuration files with the
# Acquire settings that reach the registry (proxy, validity of a
# snapshot's Release), one a line.
mstat_apt_acquire() {
	local f
	for f in /etc/apt/apt.conf /etc/apt/apt.conf.d/*; do
		if [ -f "$f" ] && grep -qE 'Proxy|Check-Valid-Until|Check-Date' "$f"; then
			echo "$f"
		fi
	done
}

# mstat_root_sources ROOT: ROOT's apt reaches the registry this host's
# apt does: the host's sources, mstat_apt_acquire's files and
# resolv.conf are copied in, nothing else.
mstat_root_sources() {
	local root=$1 f
	rm -f "$root"/etc/apt/sources.list "$root"/etc/apt/sources.list.d/*
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		 /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && cp "$f" "$root$f"
	done
	mstat_apt_acquire | while read -r f; do cp "$f" "$root$f"; done
	cp /etc/resolv.conf "$root/etc/resolv.conf"
}

# mstat_debootstrap SUITE ROOT MIRROR: a pristine Debian root in ROOT,
# remade by debootstrap, as a fresh machine is (make fresh's), its apt
# set up by mstat_root_sources.
mstat_debootstrap() {
	local suite=$1 root=$2 mirror=$3
	mstat_root_remakable "$root" || { log "$root: not a root to remake"; return 1; }
	mstat_need_cmd debootstrap || return
	mstat_root_umount "$root" || return
	rm -rf --one-file-system "$root"
	mkdir -p "$root"
	log "debootstrap $suite $root $mirror"
	debootstrap "$suite" "$root" "$mirror" || return
	mstat_root_sources "$root"
}

# mstat_mmdebstrap VARIANT SUITE ROOT MIRROR [PKG...]: the roots the tests
# make (the packages' test's, the kernel matrix's build roots): ROOT
# remade, debootstrap's VARIANT of SUITE (important, its default, or
# minbase) with PKG in it, by mmdebstrap, which installs them all in one
# apt run where debootstrap unpacks and configures package by package.
# The same packages as debootstrap's: bookworm's important root 156 of
# them (with the merged-usr hook: without it apt picks usrmerge, and perl
# with it, for usr-is-merged), 41.5 s of CPU against debootstrap's 88.9
# s; trixie's minbase with the matrix's compilers 31.5 s against 55.2 s
# (one after the other on a 2-CPU machine, alone). make fresh's
# root stays debootstrap's (mstat_debootstrap).
mstat_mmdebstrap() {
	local variant=$1 suite=$2 root=$3 mirror=$4 opts=() f
	shift 4
	mstat_root_remakable "$root" || { log "$root: not a root to remake"; return 1; }
	mstat_need_cmd mmdebstrap || return
	[ "$suite" != bookworm ] ||
		opts+=(--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr)
	# Its apt does not read the host's configuration: the settings that
	# reach the registry given (a snapshot's sid, its Release expired, is
	# refused without them).
	while read -r f; do
		opts+=("--aptopt=$f")
	done < <(mstat_apt_acquire)
	[ $# -eq 0 ] || opts+=("--include=$(IFS=,; echo "$*")")
	mstat_root_umount "$root" || return
	rm -rf --one-file-system "$root"
	mkdir -p "$root"
	log "mmdebstrap --variant=$variant ${opts[*]} $suite $root $mirror"
	mmdebstrap --mode=root --variant="$variant" ${opts[@]+"${opts[@]}"} \
		"$suite" "$root" "$mirror"
}

# mstat_root_mount ROOT: /proc, and /sys and /dev bound, for a chroot.
mstat_root_mount() {
	mount -t proc proc "$1/proc" &&
	mount --rbind /sys "$1/sys" && mount --make-rslave "$1/sys" &&
	mount --rbind /dev "$1/dev" && mount --make-rslave "$1/dev"
}

# mstat_root_umount ROOT: the mounts undone, in reverse order (--rbind'ed
# /dev has its own submounts); fails if one is left.
mstat_root_umount() {
	local m
	for m in dev sys proc; do
		mountpoint -q "$1/$m" && umount -R "$1/$m"
	done
	for m in dev sys proc; do
		! mountpoint -q "$1/$m" || { log "$1/$m: still mounted"; return 1; }
	done
}

# mstat_in_root ROOT CMD: the shell command CMD as root in ROOT, with a
# clean environment (CI=true, as CI's run has).
mstat_in_root() {
	chroot "$1" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		CI=true /bin/bash -c "$2"
}

# mstat_in_root_ns ROOT CMD: mstat_in_root, in mount and PID namespaces
# of its own with a /proc of its own (objtool reads it), which vanish
# with CMD: nothing is left mounted, however CMD ends.
mstat_in_root_ns() {
	unshare --mount --pid --fork --mount-proc="$1/proc" \
		chroot "$1" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		CI=true /bin/bash -c "$2"
}
