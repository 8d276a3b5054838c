#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages as an admin meets them: built (make deb), checked by
# lintian, installed with apt-get into a clean Debian 12 root that has the
# 6.1 and 6.12 kernels and headers, where the postinst has DKMS build, sign
# and install mstat.ko for both; removed, then purged, leaving nothing
# behind. lintian fails it on any error or warning, with no override:
# `lintian --info --pedantic` on the .changes gave no tag (lintian
# 2.116.3; --display-experimental adds only
# very-long-line-length-in-source-file, for three Markdown files' tables).
# One "ok"/"not ok" line per test.
#
#   scripts/deb-test.sh [KERNELRELEASE...]
#
# The releases are those scripts/setup.sh installed on the host (make
# check passes K61_REL and K612_REL; with none given, set-up is run for
# them). The root is debootstrap's bookworm (its important packages, made
# by mmdebstrap: scripts/lib.sh) from this host's mirror (its apt set up
# as fresh.sh sets it up, mstat_root_sources), with those
# releases' kernels and headers, dkms and openssl (with which DKMS signs
# what it builds) installed. It is cached as a tarball in
# $MSTAT_CACHE/deb-root/, keyed by the suite, the mirror and the packages,
# so that a warm run only unpacks it into $MSTAT_DEB_ROOT (default
# /var/tmp/mstat-deb-root), which is removed after a run that passed and
# left for a look after one that did not (its mounts are not).
#
# Logs: build/logs/deb/.
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

suite=bookworm
root=${MSTAT_DEB_ROOT:-/var/tmp/mstat-deb-root}
MSTAT_LOGS=$MSTAT_TOP/build/logs/deb
deb=$MSTAT_TOP/build/deb

[ "$(id -u)" -eq 0 ] || die "deb-test.sh: run as root (mmdebstrap, chroot)"
mstat_root_remakable "$root" || die "MSTAT_DEB_ROOT=$root: not a root to remake"
if [ $# -eq 0 ]; then
	mstat_setup_env || die "set-up failed, log: $mstat_setup_log"
	set -- "$K61_REL" "$K612_REL"
fi
rm -rf "$MSTAT_LOGS"
mkdir -p "$MSTAT_LOGS"
trap 'mstat_root_umount "$root"' EXIT

in_root() { mstat_in_root "$root" "$1"; }

## 1. Build, 2. lintian

t deb-build make -C "$MSTAT_TOP" deb
dkms_deb=$(compgen -G "$deb/mstat-dkms_*_all.deb")
tool_deb=$(compgen -G "$deb/mstat_*_$(dpkg --print-architecture).deb")
changes=$(compgen -G "$deb/mstat_*.changes")
if [ -z "$dkms_deb" ] || [ -z "$tool_deb" ] || [ -z "$changes" ]; then
	not_ok "deb-packages: no mstat-dkms, mstat or .changes in build/deb"
	finish
fi

# Errors and warnings fail; any other tag is shown (overrides: debian/).
t deb-lintian lintian --info --fail-on error,warning "$changes"
grep -E '^[EWIPX]: ' "$MSTAT_LOGS/deb-lintian.log" | show

## 3. A clean root with the headers

# Each release's image: Debian's signed one, or, while the mirror has
# none yet, the unsigned one the kernel matrix picked, the same kernel
# (the signed build follows a security upload: linux-image-6.1.0-57-amd64
# was not on the mirror when its -unsigned and headers were, once).
pkgs=(dkms openssl)
for rel; do
	img=linux-image-$rel
	if [ -f "$MSTAT_APT_DIR/index" ] &&
	   ! mstat_apt_lookup bookworm-security,bookworm amd64 "$img" >/dev/null; then
		img=$img-unsigned
	fi
	pkgs+=("$img" "linux-headers-$rel")
done
mirror=$(mstat_host_mirror "$suite")
key=$(printf '%s\n' "$suite" "$mirror" "${pkgs[@]}" no-initramfs mmdebstrap |
	sha256sum | cut -c1-16)
tarball=$MSTAT_CACHE/deb-root/$suite-$key.tar.zst

# make_root: unpack the cached root, or make it and cache it.
make_root() {
	mstat_root_umount "$root" || return
	if [ -f "$tarball" ]; then
		echo "root from ${tarball#"$MSTAT_CACHE"/}"
		rm -rf --one-file-system "$root"
		mkdir -p "$root"
		zstd -dc "$tarball" | tar -x --numeric-owner -C "$root" &&
			mstat_root_mount "$root" && return
		echo "could not unpack it: made again"
		rm -f "$tarball"
	fi
	mstat_mmdebstrap important "$suite" "$root" "$mirror" &&
		mstat_root_sources "$root" && mstat_root_mount "$root" || return
	# The root is never booted: no initramfs. The images' postinst and
	# initramfs-tools' trigger made three, gzip of all of each kernel's
	# modules (in a cold run this step took 218 s of CPU).
	in_root "dpkg-divert --local --rename --add /usr/sbin/update-initramfs &&
		ln -s /bin/true /usr/sbin/update-initramfs" || return
	in_root "apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -o DPkg::Lock::Timeout=600 \
		--no-install-recommends ${pkgs[*]} &&
		apt-get clean" || return
	mstat_root_umount "$root" || return
	mkdir -p "$MSTAT_CACHE/deb-root"
	rm -f "$MSTAT_CACHE/deb-root/$suite-"*.tar.zst
	tar -c --numeric-owner -C "$root" . | zstd -q -T0 -3 >"$tarball.tmp" &&
		mv "$tarball.tmp" "$tarball" &&
		echo "root cached in ${tarball#"$MSTAT_CACHE"/}" &&
		mstat_root_mount "$root"
}
MSTAT_T_SHOW=1 t deb-root make_root
if ! mountpoint -q "$root/proc"; then
	not_ok "deb-root-mounted"
	finish
fi

# root_files: what is in the root, but the mounts and what apt and dpkg
# keep (their state, caches and logs) and /tmp: a line per path, with its
# type, mode and owner, and a file's size.
root_files() {
	(cd "$root" && find . -xdev \( -path ./tmp -o -path ./run \
		-o -path ./var/cache -o -path ./var/log -o -path ./var/lib/apt \
		-o -path ./var/lib/dpkg \) -prune \
		-o -type d -printf '%p d %m %u:%g\n' \
		-o -printf '%p %y %m %u:%g %s\n') | sort
}
root_files >"$MSTAT_LOGS/files-before"

## 4. Install: DKMS builds for every kernel with headers

mkdir -p "$root/tmp/debs"
cp "$dkms_deb" "$tool_deb" "$root/tmp/debs/"
t deb-install in_root "DEBIAN_FRONTEND=noninteractive apt-get install -y \
	-o DPkg::Lock::Timeout=600 --no-install-recommends \
	/tmp/debs/${dkms_deb##*/} /tmp/debs/${tool_deb##*/}"
grep -E '^Building (for|initial module)' "$MSTAT_LOGS/deb-install.log" | show

ver=$(dpkg-deb -f "$dkms_deb" Version)
for rel; do
	ko=$(compgen -G "$root/lib/modules/$rel/updates/dkms/mstat.ko*" | head -n 1)
	if [ -z "$ko" ]; then
		not_ok "deb-dkms-$rel: no /lib/modules/$rel/updates/dkms/mstat.ko*"
		continue
	fi
	ko=${ko#"$root"}
	magic=$(in_root "modinfo -F vermagic $ko" 2>>"$MSTAT_LOGS/modinfo.log")
	if [ "${magic%% *}" = "$rel" ]; then
		ok "deb-dkms-$rel ($ko, vermagic $magic)"
	else
		not_ok "deb-dkms-$rel: $ko has vermagic '$magic'"
	fi
	# DKMS signs with /var/lib/dkms/mok.key, which it made (README).
	signer=$(in_root "modinfo -F signer $ko" 2>>"$MSTAT_LOGS/modinfo.log")
	if [ "$signer" = "DKMS module signing key" ]; then
		ok "deb-dkms-signed-$rel"
	else
		not_ok "deb-dkms-signed-$rel: signer '$signer'"
	fi
	# (DKMS 3.0.10's readelf warns of 6.12's .comment: its log.)
	st=$(in_root "dkms status -m mstat -v $ver -k $rel" 2>>"$MSTAT_LOGS/dkms-status.log")
	check "deb-dkms-status-$rel" grep -q ': installed' <<<"$st"
	# The package builds the product only: no test or bench module.
	# DKMS cleans its build area, but keeps the build's log.
	kos=$(sed -n 's|^ *LD \[M\] *.*/build/\(.*\.ko\)$|\1|p' \
		"$root/var/lib/dkms/mstat/$ver/$rel/"*/log/make.log 2>/dev/null |
	      sort | tr '\n' ' ')
	if [ "$kos" = "mstat.ko " ]; then
		ok "deb-dkms-builds-mstat-only-$rel"
	else
		not_ok "deb-dkms-builds-mstat-only-$rel: built ${kos:-nothing}"
	fi
done

# A kernel installed later: its postinst runs /etc/kernel/postinst.d/dkms,
# which builds and installs what says AUTOINSTALL="yes" (dkms.conf). So,
# as if the first kernel were new: its module removed, then that hook.
t "deb-dkms-kernel-hook-$1" in_root "dkms remove mstat/$ver -k $1 &&
	! compgen -G '/lib/modules/$1/updates/dkms/mstat.ko*' &&
	/etc/kernel/postinst.d/dkms $1 &&
	compgen -G '/lib/modules/$1/updates/dkms/mstat.ko*'"

# files_missing: the files the packages must have installed, that are not.
files_missing() {
	local f
	for f in /usr/sbin/mstat /usr/share/man/man8/mstat.8.gz \
		 /lib/systemd/system/mstat-textfile.service \
		 /lib/systemd/system/mstat-textfile.timer \
		 /etc/systemd/system/timers.target.wants/mstat-textfile.timer \
		 /lib/systemd/system/mstat-leaks.service \
		 /lib/systemd/system/mstat-leaks.timer \
		 /etc/systemd/system/timers.target.wants/mstat-leaks.timer \
		 /lib/systemd/system/mstat-serve.service \
		 /usr/libexec/mstat/mstat-serve /usr/lib/sysusers.d/mstat.conf \
		 /etc/modprobe.d/mstat.conf /etc/modules-load.d/mstat.conf \
		 /usr/share/mstat/prometheus/mstat.rules.yml \
		 "/usr/src/mstat-$ver/dkms.conf" "/usr/src/mstat-$ver/Kbuild"; do
		[ -e "$root$f" ] || [ -L "$root$f" ] || echo "$f"
	done
}
missing=$(files_missing)
if [ -z "$missing" ]; then
	ok deb-files
else
	not_ok "deb-files: missing $(echo "$missing" | tr '\n' ' ')"
fi
# Every line of the configuration files a comment: nothing changes until
# the admin says so.
active=$(grep -hv -e '^#' -e '^$' "$root/etc/modprobe.d/mstat.conf" \
	"$root/etc/modules-load.d/mstat.conf")
check deb-conf-commented [ -z "$active" ]
# Only the product's sources: no tests, tools or scripts but compat/'s
# probes of the target kernel, which its build runs (Kbuild).
extra=$(cd "$root/usr/src/mstat-$ver" &&
	find . -mindepth 1 \( -type d ! -path ./mstat_core ! -path ./compat \) \
		-o \( ! -type d ! -name '*.[ch]' ! -name Makefile ! -name Kbuild \
		! -name dkms.conf ! -path './compat/*.conftest' \
		! -path './compat/*.mk' ! -path './compat/*.sh' \))
[ -z "$extra" ] || show <<<"$extra"
check deb-dkms-sources-only [ -z "$extra" ]
# systemd-analyze fails on a bad unit, an ExecStart= that is not there...,
# but only warns of an unknown key: any line it prints fails too.
t deb-units-verify in_root "out=\$(systemd-analyze verify --man=no \
	/lib/systemd/system/mstat-textfile.service \
	/lib/systemd/system/mstat-textfile.timer \
	/lib/systemd/system/mstat-leaks.service \
	/lib/systemd/system/mstat-leaks.timer \
	/lib/systemd/system/mstat-serve.service 2>&1) && echo \"\$out\" &&
	[ -z \"\$out\" ]"
# mstat-serve.service's group, made by the package (sysusers.d); the
# service installed, not enabled.
t deb-serve-group in_root "getent group mstat"
t deb-serve-not-enabled in_root \
	"! compgen -G '/etc/systemd/system/*.wants/mstat-serve.service'"
# The tool runs (its libraries are there), and says what is wrong when
# the module is not loaded (the host's /proc has no /proc/mstat).
t deb-mstat-help in_root "mstat --help | grep -q '^usage: mstat'"
out=$(in_root 'mstat 2>&1; echo "exit $?"')
if [ "$out" = "mstat: /proc/mstat not found: is the mstat module loaded?
exit 1" ]; then
	ok deb-mstat-no-module
else
	not_ok "deb-mstat-no-module: $(echo "$out" | tr '\n' ' ')"
fi

# mstat serve: the package's mstat runs /usr/libexec/mstat/mstat-serve
# (its libmicrohttpd installed with it), which answers a scrape from here
# with 503 and the reason, the module not being loaded.
serve_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
in_root "exec timeout 20 mstat serve --listen 127.0.0.1:$serve_port" \
	>"$MSTAT_LOGS/deb-mstat-serve.log" 2>&1 &
serve_pid=$!
for ((i = 0; i < 50; i++)); do
	out=$(curl -s -w ' %{http_code}' "http://127.0.0.1:$serve_port/metrics") && break
	sleep 0.2
done
kill "$serve_pid" 2>/dev/null
wait "$serve_pid" 2>/dev/null
if [ "$out" = "/proc/mstat not found: is the mstat module loaded?
 503" ]; then
	ok deb-mstat-serve
else
	not_ok "deb-mstat-serve: $(tr '\n' ' ' <<<"${out:-no answer}")"
	show <"$MSTAT_LOGS/deb-mstat-serve.log"
fi

## 5. Remove, then purge: nothing left

t deb-remove in_root "DEBIAN_FRONTEND=noninteractive apt-get remove -y \
	mstat mstat-dkms"
left=$(cd "$root" && { find lib/modules -name 'mstat.ko*'
	compgen -G "usr/src/mstat-*"; compgen -G var/lib/dkms/mstat; })
check deb-remove-modules-gone [ -z "$left" ]
[ -z "$left" ] || show <<<"$left"

# --autoremove: and what they pulled in (mstat's libmicrohttpd12).
t deb-purge in_root "DEBIAN_FRONTEND=noninteractive apt-get purge -y \
	--autoremove mstat mstat-dkms"
rm -rf "$root/tmp/debs"
# The packages' own files: none left.
left=$(for d in "$dkms_deb" "$tool_deb"; do
	dpkg-deb --fsys-tarfile "$d" | tar -t | sed 's|^\./|/|' |
		grep -v '/$' | while read -r f; do
			[ -e "$root$f" ] || [ -L "$root$f" ] && echo "$f"
		done
done)
check deb-purge-files-gone [ -z "$left" ]
[ -z "$left" ] || show <<<"$left"
# The root as it was, but DKMS's signing key and certificate, made at its
# first build and kept for the MOK the admin enrolled (README), and the
# group mstat (sysusers.d), which stays, as Debian's system groups do.
keep='^\./(var/lib/dkms/mok\.(key|pub)|etc/(group|gshadow)-?) '
root_files | grep -vE "$keep" >"$MSTAT_LOGS/files-after"
grep -vE "$keep" "$MSTAT_LOGS/files-before" |
	diff - "$MSTAT_LOGS/files-after" >"$MSTAT_LOGS/files.diff"
if [ ! -s "$MSTAT_LOGS/files.diff" ]; then
	ok "deb-purge-root-as-before ($(wc -l <"$MSTAT_LOGS/files-after") paths)"
else
	not_ok "deb-purge-root-as-before, diff: build/logs/deb/files.diff"
	head -n 20 "$MSTAT_LOGS/files.diff" | show
fi

mstat_root_umount "$root"
[ "$mstat_failed" -eq 0 ] && rm -rf --one-file-system "$root"
finish
