#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb: the Debian packages, built by dpkg-buildpackage (debhelper,
# debian/): mstat-dkms, the module's sources for DKMS, and mstat, the
# tool with its man page, systemd units and configuration files; and the
# source package (3.0 native).
#
#   scripts/deb.sh		(make deb; needs debhelper and dh-dkms)
#
# dpkg-buildpackage builds in the tree it is given and writes its results
# beside it. So it is given a copy of the files git knows of (tracked, or
# untracked and not ignored, as they are in the working tree), in
# build/deb/src/mstat-VERSION: the tree itself is never cleaned nor built
# in. The results are then moved to build/deb/: the .debs, the .dsc and
# its tarball, the .buildinfo and the .changes. The log:
# build/deb/build.log. Unsigned.
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

out=$MSTAT_TOP/build/deb
ver=$(dpkg-parsechangelog -l "$MSTAT_TOP/debian/changelog" -SVersion)
src=$out/src/mstat-$ver

rm -rf "$out"
mkdir -p "$src"
git -C "$MSTAT_TOP" ls-files -z --cached --others --exclude-standard |
	(cd "$MSTAT_TOP" &&
	 while IFS= read -r -d '' f; do
		[ -f "$f" ] && printf '%s\0' "$f"
	 done | tar --null -T - -cf -) |
	tar -xf - -C "$src"
[ -x "$src/debian/rules" ] || die "no debian/rules in the copy: not a git checkout?"

log "dpkg-buildpackage in ${src#"$MSTAT_TOP"/} (log: build/deb/build.log)"
if ! (cd "$src" && dpkg-buildpackage -us -uc) >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	die "dpkg-buildpackage failed"
fi
find "$out/src" -maxdepth 1 -type f -exec mv -t "$out" {} +
rm -rf "$out/src"
(cd "$out" && ls -1 ./*.deb ./*.changes ./*.dsc) | sed 's|^\./|build/deb/|'
