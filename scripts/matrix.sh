#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel matrix: Debian's kernels from 5.10 to the newest release
# candidate, amd64 and arm64, each with an image qemu boots and headers
# mstat builds against, with the compiler its headers name. Nothing is
# installed on the host: packages come through mstat's own apt
# (mstat_apt_update, scripts/lib.sh) and are extracted (dpkg-deb) into the
# cache.
#
#   scripts/matrix.sh [ID...]	set up those kernels (default: every id
#				but canary, which is make canary's)
#   scripts/matrix.sh --list	the ids and where each comes from
#
# Each id is the newest release of its series in its suites that has both
# an image and headers of the same version, all on the mirror (the picks
# are recorded in $MSTAT_CACHE/matrix.env); canary, experimental's newest
# release candidate, whichever its series. Kernels of bookworm, the host's own release,
# build on the host against headers extracted into $MSTAT_CACHE/headers/
# (arm64: $MSTAT_CACHE/arm64/headers/, where make ARCH=arm64 looks);
# the others in a build root of their suite, $MSTAT_CACHE/roots/SUITE-KEY:
# debootstrap's minbase, made by mmdebstrap, with that suite's compilers
# (the headers' gcc-N, gcc-N-aarch64-linux-gnu for arm64), made once per
# package list (KEY), the kernels' headers extracted into it, so that
# Debian's links (scripts -> ../../lib/linux-kbuild-X) and its helpers
# (fixdep and modpost, linked against that suite's glibc) work as on that
# release.
# scripts/build.sh --root ROOT builds there. The roots of a run are made
# at the same time, in the background.
#
# Prints, on stdout, shell assignments to source:
#   KM_IDS="ID ..."		the ids set up, or tried
# and for each ID, as KM_<V>_FIELD with V the id upper-cased, "." and "-"
# as "_" (KM_ARM64_7_3_REL; mstat_km ID FIELD reads one):
#   REL VERSION SUITE ARCH GCC	the release (uname -r), the packages'
#				version, their suite, amd64 or arm64, the
#				compiler the headers want
#   VMLINUZ			what qemu -kernel boots (arm64: a plain Image)
#   KDIR ROOT			the headers, as the build sees them: in ROOT
#				(chroot), or on the host if ROOT is empty
# or, if that kernel's set-up failed, KM_<V>_ERROR (why): one kernel's
# failure is not the others'. Exits 0 unless nothing could be looked up.
# Messages go to stderr (make check: build/logs/matrix-setup.log).
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# ID ARCH ROOT-SUITE SUITES IMAGE-PACKAGE: the image package is a pattern,
# PREFIX(RELEASE-REGEX)SUFFIX; ROOT-SUITE "-" is the host.
specs=(
	"5.10 amd64 bullseye bullseye-security,bullseye linux-image-(5\.10\.0-[0-9]+-amd64)-unsigned"
	"6.1 amd64 - bookworm-security,bookworm linux-image-(6\.1\.0-[0-9]+-amd64)-unsigned"
	"6.12 amd64 - bookworm-security,bookworm linux-image-(6\.12\.[0-9]+\+deb12-amd64)-unsigned"
	"6.12rt amd64 - bookworm-security,bookworm linux-image-(6\.12\.[0-9]+\+deb12-rt-amd64)-unsigned"
	"6.12cloud amd64 - bookworm-security,bookworm linux-image-(6\.12\.[0-9]+\+deb12-cloud-amd64)-unsigned"
	"7.2 amd64 sid sid linux-binary-(7\.2\.[0-9]+\+deb[0-9]+-amd64)"
	"7.3 amd64 trixie trixie-backports linux-binary-(7\.3\.[0-9]+\+deb13-amd64)"
	"7.3rt amd64 trixie trixie-backports linux-binary-(7\.3\.[0-9]+\+deb13-rt-amd64)"
	"arm64-5.10 arm64 bullseye bullseye-security,bullseye linux-image-(5\.10\.0-[0-9]+-arm64)-unsigned"
	"arm64-6.12 arm64 - bookworm-security,bookworm linux-image-(6\.12\.[0-9]+\+deb12-arm64)-unsigned"
	"arm64-7.3 arm64 trixie trixie-backports linux-binary-(7\.3\.[0-9]+\+deb13-arm64)"
	"canary amd64 sid experimental linux-binary-([0-9]+\.[0-9]+-amd64)"
)
# What every build root has, beside the compilers.
root_base=(make libc6-dev libelf-dev libssl-dev dwarves kmod bc)

table=$MSTAT_APT_DIR/index
declare -A arch rsuite suites pattern rel ver suite gcc image hdrs err \
	root kdir vmlinuz
all=()
for s in "${specs[@]}"; do
	read -r id a r ss p <<<"$s"
	all+=("$id")
	arch[$id]=$a rsuite[$id]=$r suites[$id]=$ss pattern[$id]=$p
done

if [ "${1:-}" = --list ]; then
	for id in "${all[@]}"; do
		printf '%-11s %-5s %s from %s, built %s\n' "$id" "${arch[$id]}" \
			"${pattern[$id]}" "${suites[$id]}" \
			"$([ "${rsuite[$id]}" = - ] && echo "on the host" ||
			   echo "in a ${rsuite[$id]} root")"
	done
	exit 0
fi
ids=("$@")
if [ $# -eq 0 ]; then
	for id in "${all[@]}"; do
		[ "$id" = canary ] || ids+=("$id")
	done
fi
for id in "${ids[@]}"; do
	[ -n "${arch[$id]:-}" ] || die "no kernel id $id (scripts/matrix.sh --list)"
done

## Picks

# candidates ID: "VERSION RELEASE SUITE" for every image of ID's pattern
# with headers of the same version, newest first (sort -V orders Debian's
# kernel versions as dpkg does: "~" first, and they have no epoch).
candidates() {
	local a=${arch[$1]} ss=${suites[$1]} p=${pattern[$1]} pre suf re
	pre=${p%%(*} suf=${p##*)} re=${p#"$pre"}
	re=${re%"$suf"}
	awk -v ss=",$ss," -v a="$a" -v pre="$pre" -v suf="$suf" \
	    -v re="^${pre//\\/\\\\}${re//\\/\\\\}${suf//\\/\\\\}\$" '
		index(ss, "," $1 ",") && $2 == a {
			if ($3 ~ /^linux-headers-/)
				h[$3 " " $4] = 1
			if ($3 ~ re)
				img[++n] = $1 " " $3 " " $4
		}
		END {
			for (i = 1; i <= n; i++) {
				split(img[i], f, " ")
				r = substr(f[2], length(pre) + 1,
					   length(f[2]) - length(pre) - length(suf))
				if (("linux-headers-" r " " f[3]) in h)
					print f[3], r, f[1]
			}
		}' "$table" | sort -V -r -k1,1
}

# resolve ID VERSION RELEASE SUITE: that candidate's packages: sets ver,
# rel, suite, image, hdrs (the headers and what they need: the common
# headers, arch all, and the build helpers, linux-kbuild-*, of the build
# machine, amd64, even for arm64 headers; as NAME[:ARCH]=VERSION) and gcc
# (the compiler the headers depend on).
resolve() {
	local id=$1 v=$2 r=$3 a=${arch[$1]} ss=${suites[$1]} p=${pattern[$1]}
	local h deps d dv n line
	ver[$id]=$v rel[$id]=$r suite[$id]=$4
	image[$id]="${p%%(*}$r${p##*)}:$a=$v"
	h=("linux-headers-$r:$a=$v") deps=("linux-headers-$r")
	gcc[$id]=''
	while [ ${#deps[@]} -gt 0 ]; do
		d=${deps[0]} deps=("${deps[@]:1}")
		line=$(mstat_apt_lookup "$ss" "$a" "$d" "$v") ||
			line=$(mstat_apt_lookup "$ss" amd64 "$d") ||
			{ log "no $d in $ss"; return 1; }
		[ -n "${gcc[$id]}" ] ||
			gcc[$id]=$(grep -oE '\bgcc-[0-9]+' <<<"${line#* * }" | head -n 1)
		for n in $(tr ',|' '\n' <<<"${line#* * }" | awk '{ print $1 }' |
			   grep -E '^linux-(headers|kbuild)-'); do
			# The common headers of the same version; the newest
			# helpers, as apt would install them: 5.10's are one
			# package for every upload (linux-kbuild-5.10 (>= V)),
			# and two kernels in a root must agree on its version.
			case $n in
			linux-kbuild-*)
				line=$(mstat_apt_lookup "$ss" amd64 "$n") ;;
			*)	line=$(mstat_apt_lookup "$ss" amd64 "$n" "$v") ||
				line=$(mstat_apt_lookup "$ss" amd64 "$n") ;;
			esac || { log "no $n in $ss"; return 1; }
			dv=$(cut -d' ' -f2 <<<"$line")
			case $n in
			linux-kbuild-*)	h+=("$n:amd64=$dv") ;;
			*)		h+=("$n=$dv") deps+=("$n") ;;
			esac
		done
	done
	hdrs[$id]=${h[*]}
	[ -n "${gcc[$id]}" ] || { log "linux-headers-$r names no gcc-N"; return 1; }
}

# on_mirror PKG...: each package's .deb is on the mirror (an HTTP HEAD,
# through apt's proxy if it has one); assumed without curl. A mirror may
# list a package it does not have (this one: bullseye-security's arm64
# kernels), and the next older release then does.
on_mirror() {
	local p uri
	command -v curl >/dev/null || return 0
	for p; do
		uri=$(mstat_apt_uri "$p") || { log "no $p in the index"; return 1; }
		curl -sfIL --max-time 30 -o /dev/null "$uri" ||
			{ log "not on the mirror: $uri"; return 1; }
	done
}

# pick ID: the newest candidate whose packages are all on the mirror;
# sets what resolve sets, or err.
pick() {
	local id=$1 v r s n=0
	while read -r v r s; do
		n=$((n + 1))
		# shellcheck disable=SC2086 # packages
		resolve "$id" "$v" "$r" "$s" &&
			on_mirror "${image[$id]}" ${hdrs[$id]} && return
	done < <(candidates "$id")
	rel[$id]=''
	if [ "$n" -eq 0 ]; then
		err[$id]="no ${pattern[$id]//\\/} with its headers in ${suites[$id]} (${arch[$id]})"
	else
		err[$id]="none of the $n releases of ${pattern[$id]//\\/} in ${suites[$id]} (${arch[$id]}) with headers is whole on the mirror"
	fi
	return 1
}

## Build roots

# root_pkgs SUITE: what the root of SUITE needs for the ids picked: the
# base, and each id's compiler (cross for arm64).
root_pkgs() {
	local id p=("${root_base[@]}")
	for id in "${picked[@]}"; do
		if [ "${rsuite[$id]}" != "$1" ] || [ -n "${err[$id]:-}" ]; then
			continue
		fi
		if [ "${arch[$id]}" = arm64 ]; then
			p+=("${gcc[$id]}-aarch64-linux-gnu")
		else
			p+=("${gcc[$id]}")
		fi
	done
	printf '%s\n' "${p[@]}" | sort -u
}

# make_root SUITE DIR PKG...: debootstrap's minbase of SUITE with PKG in
# DIR, unless DIR has it already, made by mmdebstrap (mstat_mmdebstrap,
# scripts/lib.sh: trixie's with the compilers took 31.5 s of CPU against
# debootstrap's 55.2 s, the same packages); made in DIR.new, then moved,
# so that a half-made root is never used. Never leaves a mount behind.
make_root() {
	local s=$1 dir=$2 mirror rc=0 t0=$SECONDS
	shift 2
	mirror=$(mstat_host_mirror bookworm)
	[ -f "$dir/.mstat-root" ] && return
	mstat_mmdebstrap minbase "$s" "$dir.new" "$mirror" "$@" || rc=$?
	mstat_root_umount "$dir.new" 2>/dev/null || rc=1
	if [ "$rc" -ne 0 ]; then
		log "mmdebstrap of $s failed (exit $rc)"
		return 1
	fi
	rm -f "$dir.new"/var/cache/apt/archives/*.deb
	printf '%s\n' "$s" "$mirror" "$@" >"$dir.new/.mstat-root"
	mv "$dir.new" "$dir"
	log "root $dir made in $((SECONDS - t0)) s"
}

## Images and headers

# fetch_image ID: the image's vmlinuz, once per package version, into
# $MSTAT_CACHE/kernels/REL/vmlinuz; for arm64 also Image, a plain one:
# Debian's is plain, gzip'd or an EFI zboot image by release.
fetch_image() {
	local id=$1 dir=$MSTAT_CACHE/kernels/${rel[$1]} tmp deb m='' f=vmlinuz
	[ "${arch[$id]}" = arm64 ] && f=Image
	vmlinuz[$id]=$dir/$f
	if [ "$(cat "$dir/.package" 2>/dev/null)" = "${image[$id]}" ] &&
	   [ -s "$dir/$f" ]; then
		pvh_image "$id"
		return
	fi
	rm -f "$dir/.package" "$dir/vmlinuz" "$dir/Image" "$dir/vmlinux.pvh"
	mkdir -p "$dir" "$MSTAT_APT_DIR/archives" || return
	tmp=$(mktemp -d "$MSTAT_APT_DIR/archives/get.XXXXXX") || return
	log "download ${image[$id]}"
	# Old packages have /boot/vmlinuz-REL, new ones (7.x: linux-binary-*)
	# /usr/lib/modules/REL/vmlinuz; tar fails on the pattern that does
	# not match, what matters is what it extracted.
	if (cd "$tmp" && mstat_apt apt-get download -qq "${image[$id]}" >/dev/null) &&
	   deb=$(compgen -G "$tmp/*.deb"); then
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards \
			'./boot/vmlinuz-*' './usr/lib/modules/*/vmlinuz' 2>/dev/null
		m=$(compgen -G "$tmp/boot/vmlinuz-*" ||
		    compgen -G "$tmp/usr/lib/modules/*/vmlinuz")
	fi
	if [ -z "$m" ] || ! mv "$m" "$dir/vmlinuz"; then
		rm -rf "$tmp"
		log "no vmlinuz from ${image[$id]}"
		return 1
	fi
	rm -rf "$tmp"
	if [ "${arch[$id]}" = arm64 ]; then
		plain_image "$dir/vmlinuz" "$dir/Image.tmp" || return
		mv "$dir/Image.tmp" "$dir/Image"
	fi
	echo "${image[$id]}" >"$dir/.package"
	pvh_image "$id"
}

# pvh_image ID: for an x86 kernel, vmlinux.pvh beside its vmlinuz: the
# ELF kernel its decompressor unpacks, which qemu boots at its PVH entry
# point (the note XEN_ELFNOTE_PHYS32_ENTRY, CONFIG_PVH: Debian's x86
# kernels have it), and scripts/guest.sh boots in its place: the same
# kernel, without the decompressor's work under TCG. Where the image is
# not as expected, nothing is made (log says why) and guests boot the
# bzImage.
pvh_image() {
	local dir=$MSTAT_CACHE/kernels/${rel[$1]} z sects off len size magic
	local out
	[ "${arch[$1]}" = amd64 ] && [ ! -s "$dir/vmlinux.pvh" ] || return 0
	z=$dir/vmlinuz out=$dir/vmlinux.pvh
	# The boot protocol's header (Documentation/arch/x86/boot.rst):
	# "HdrS" at 0x202, its version at 0x206 (the payload's fields since
	# 2.08); setup_sects at 0x1f1 (0 means 4), then the protected-mode
	# code, from which payload_offset (0x248) counts; payload_length at
	# 0x24c. The payload is the compressed ELF kernel, then its size,
	# 4 bytes little-endian (the kernel's "size_append").
	if [ "$(dd if="$z" bs=1 skip=514 count=4 status=none)" != HdrS ] ||
	   [ "$(od -An -t u2 -j 518 -N 2 "$z" | tr -d ' ')" -lt 520 ]; then
		log "$z: not a bzImage of boot protocol 2.08 or later: no PVH image"
		return 0
	fi
	sects=$(od -An -t u1 -j 497 -N 1 "$z" | tr -d ' ')
	[ "$sects" -ne 0 ] || sects=4
	off=$(( (sects + 1) * 512 + $(od -An -t u4 -j 584 -N 4 "$z" | tr -d ' ') ))
	len=$(od -An -t u4 -j 588 -N 4 "$z" | tr -d ' ')
	size=$(od -An -t u4 -j $((off + len - 4)) -N 4 "$z" | tr -d ' ')
	magic=$(od -An -t x1 -j "$off" -N 4 "$z" | tr -d ' ')
	case $magic in
	1f8b*)		magic=gzip ;;
	fd377a58)	magic=xz ;;
	28b52ffd)	magic=zstd ;;
	*)	log "$z: payload compressed as $magic, not gzip, xz or zstd: no PVH image"
		return 0 ;;
	esac
	tail -c +$((off + 1)) "$z" | head -c $((len - 4)) |
		"$magic" -dc >"$out.tmp" 2>/dev/null
	if [ "$(stat -c %s "$out.tmp")" != "$size" ] ||
	   [ "$(head -c 4 "$out.tmp" | od -An -t x1 | tr -d ' ')" != 7f454c46 ] ||
	   ! readelf -n "$out.tmp" 2>/dev/null |
	     grep -Eq '^[[:space:]]*Xen[[:space:]]+0x[0-9a-f]+[[:space:]].*(0x00000012|PHYS32_ENTRY)'; then
		rm -f "$out.tmp"
		log "$z: its payload ($magic) is not an ELF kernel of $size bytes with a PVH entry: no PVH image"
		return 0
	fi
	mv "$out.tmp" "$out"
}

# plain_image VMLINUZ OUT: an arm64 kernel as qemu -kernel boots it.
plain_image() {
	local off size comp
	if gzip -t "$1" 2>/dev/null; then
		gzip -dc "$1" >"$2"
	elif [ "$(dd if="$1" bs=1 skip=4 count=4 status=none)" = zimg ]; then
		# EFI zboot: "MZ", "zimg", then the payload's offset and
		# size, little-endian, and its compression's name at 24.
		off=$(od -An -t u4 -j 8 -N 4 "$1" | tr -d ' ')
		size=$(od -An -t u4 -j 12 -N 4 "$1" | tr -d ' ')
		comp=$(dd if="$1" bs=1 skip=24 count=8 status=none | tr -d '\0')
		case $comp in
		gzip|zstd|xz)	;;
		*)	log "$1: EFI zboot, compressed with '$comp'"; return 1 ;;
		esac
		tail -c +"$((off + 1))" "$1" | head -c "$size" |
			"$comp" -dc >"$2"
	else
		ln -f "$1" "$2" 2>/dev/null || cp "$1" "$2"
	fi
}

# headers_host ID: the headers extracted into a directory of their own in
# the cache, their Makefile's include of the common headers pointed at
# the extracted ones (Debian's names /usr/src).
headers_host() {
	local id=$1 dir
	if [ "${arch[$id]}" = arm64 ]; then
		dir=$MSTAT_CACHE/arm64/headers/${ver[$id]//:/_}
	else
		dir=$MSTAT_CACHE/headers/${rel[$id]}
	fi
	# shellcheck disable=SC2086 # packages
	if [ "$(cat "$dir/.mstat-debs" 2>/dev/null)" != "$(printf '%s\n' ${hdrs[$id]})" ]; then
		rm -rf "$dir"
		mstat_deb_extract "$dir" "$dir/.mstat-debs" ${hdrs[$id]} || return
	fi
	kdir[$id]=$dir/usr/src/linux-headers-${rel[$id]}
	sed -i "s|^include /usr/src/|include $dir/usr/src/|" "${kdir[$id]}/Makefile" &&
		check_kdir "$id" "${kdir[$id]}" || return
	# make ARCH=arm64 takes the newest there: one there is.
	if [ "${arch[$id]}" = arm64 ]; then
		find "${dir%/*}" -mindepth 1 -maxdepth 1 ! -path "$dir" \
			-exec rm -rf {} +
	fi
}

# headers_root ID: the headers extracted into the id's root, where
# Debian's paths are right as they are.
headers_root() {
	local id=$1 r=${root[$1]}
	# shellcheck disable=SC2086 # packages
	mstat_deb_extract "$r" "$r/var/lib/mstat/headers-${rel[$id]}" ${hdrs[$id]} || return
	kdir[$id]=/usr/src/linux-headers-${rel[$id]}
	check_kdir "$id" "$r${kdir[$id]}"
}

# check_kdir ID DIR: the tree is whole: its scripts resolve, and its
# release, as modules built against it will say (vermagic), is the id's.
check_kdir() {
	local r
	[ -f "$2/scripts/Makefile.build" ] || { log "$2/scripts: a broken link"; return 1; }
	r=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$2/include/generated/utsrelease.h" 2>/dev/null)
	[ "$r" = "${rel[$1]}" ] || { log "$2: release '$r', not ${rel[$1]}"; return 1; }
}

# try ID WHAT CMD...: CMD; if it fails, err[ID] is WHAT and its last
# message. CMD's messages go to stderr as well.
try() {
	local id=$1 what=$2 f rc=0
	shift 2
	[ -z "${err[$id]:-}" ] || return 1
	f=$(mktemp)
	"$@" 2>"$f" || rc=$?
	cat "$f" >&2
	if [ "$rc" -ne 0 ]; then
		err[$id]="$what: $(grep -v '^$' "$f" | tail -n 1 | sed 's/^\[mstat\] //')"
		log "$id: ${err[$id]}"
	fi
	rm -f "$f"
	return "$rc"
}

# report: the assignments, on stdout.
report() {
	local id v
	echo "KM_IDS=\"${ids[*]}\""
	for id in "${ids[@]}"; do
		v=$(mstat_km_var "$id" '')
		printf '%sARCH=%s\n' "$v" "${arch[$id]}"
		[ -z "${err[$id]:-}" ] || printf '%sERROR=%q\n' "$v" "${err[$id]}"
		[ -n "${rel[$id]:-}" ] || continue
		printf '%sREL=%s\n%sVERSION=%q\n%sSUITE=%s\n%sGCC=%s\n' \
			"$v" "${rel[$id]}" "$v" "${ver[$id]}" "$v" "${suite[$id]}" \
			"$v" "${gcc[$id]}"
		[ -z "${err[$id]:-}" ] || continue
		printf '%sVMLINUZ=%s\n%sKDIR=%s\n%sROOT=%s\n' "$v" "${vmlinuz[$id]}" \
			"$v" "${kdir[$id]}" "$v" "${root[$id]}"
	done
}

## Main

start=$SECONDS
mkdir -p "$MSTAT_CACHE" || exit 1
if ! mstat_apt_update; then
	log "the private apt-get update failed: no kernel can be looked up"
	for id in "${ids[@]}"; do
		err[$id]="apt-get update (private, $MSTAT_APT_DIR) failed"
	done
	report
	exit 1
fi

# The picks, recorded in $MSTAT_CACHE/matrix.env (with the image's and
# the headers' packages) and kept while the lists and this script are the
# same: a warm run asks the mirror nothing. Every id but canary is picked
# whichever are set up, so that a root's packages (the compilers of all
# the ids it serves) do not depend on which are; canary when asked for.
picks=$MSTAT_CACHE/matrix.env
key=$(cat "$0" "$table" | sha256sum | cut -c1-16)
declare -A rec
if [ "$(sed -n 's/^KM_PICKS_KEY=//p' "$picks" 2>/dev/null)" = "$key" ]; then
	while IFS='=' read -r n v; do
		v=${v#\"} rec[$n]=${v%\"}
	done < <(grep '^KM_' "$picks" | grep -v '^KM_PICKS_KEY=')
fi
eval "$(apt-config shell http_proxy Acquire::http::Proxy)"
[ -z "${http_proxy:-}" ] || export http_proxy
picked=()
for id in "${all[@]}"; do
	[ "$id" != canary ] || [[ " ${ids[*]} " == *" canary "* ]] || continue
	picked+=("$id")
	v=$(mstat_km_var "$id" '')
	if [ -n "${rec[${v}REL]:-}" ]; then
		rel[$id]=${rec[${v}REL]} ver[$id]=${rec[${v}VERSION]}
		suite[$id]=${rec[${v}SUITE]} gcc[$id]=${rec[${v}GCC]}
		image[$id]=${rec[${v}IMAGE]} hdrs[$id]=${rec[${v}HEADERS]}
		continue
	fi
	if pick "$id"; then
		log "$id: ${rel[$id]} ${ver[$id]} from ${suite[$id]}, ${gcc[$id]}"
		rec[${v}REL]=${rel[$id]} rec[${v}VERSION]=${ver[$id]}
		rec[${v}SUITE]=${suite[$id]} rec[${v}GCC]=${gcc[$id]}
		rec[${v}IMAGE]=${image[$id]} rec[${v}HEADERS]=${hdrs[$id]}
	else
		log "$id: ${err[$id]}"
	fi
done
{
	echo "KM_PICKS_KEY=$key"
	for n in "${!rec[@]}"; do
		# Values are words without quotes; HEADERS a list of them.
		printf '%s="%s"\n' "$n" "${rec[$n]}"
	done | sort
} >"$picks.tmp" && mv "$picks.tmp" "$picks"
log "picks: ${#picked[@]} kernels ($((SECONDS - start)) s)"

# The roots, in the background, while the host-side work goes on.
# mmdebstrap installed here, once, not by each root's job at once.
mstat_need_cmd mmdebstrap
mkdir -p "$MSTAT_CACHE/roots"
declare -A root_dir root_pid
for id in "${ids[@]}"; do
	s=${rsuite[$id]}
	if [ "$s" = - ] || [ -n "${err[$id]:-}" ] || [ -n "${root_dir[$s]:-}" ]; then
		continue
	fi
	mapfile -t pkgs < <(root_pkgs "$s")
	rkey=$(printf '%s\n' "$s" "$(mstat_host_mirror bookworm)" "${pkgs[@]}" mmdebstrap |
	       sha256sum | cut -c1-12)
	root_dir[$s]=$MSTAT_CACHE/roots/$s-$rkey
	(
		flock 9 || exit
		make_root "$s" "${root_dir[$s]}" "${pkgs[@]}"
	) 9>"${root_dir[$s]}.lock" >"${root_dir[$s]}.log" 2>&1 &
	root_pid[$s]=$!
done

for id in "${ids[@]}"; do
	try "$id" "image" fetch_image "$id"
	if [ "${rsuite[$id]}" = - ]; then
		root[$id]=''
		try "$id" "headers" headers_host "$id"
	fi
done

for s in "${!root_pid[@]}"; do
	rc=0
	wait "${root_pid[$s]}" || rc=$?
	log "the $s root: $([ "$rc" -eq 0 ] && echo ready || echo "failed (exit $rc)") ($((SECONDS - start)) s)"
	sed 's/^/[root '"$s"'] /' "${root_dir[$s]}.log" >&2
	for id in "${ids[@]}"; do
		[ "${rsuite[$id]}" = "$s" ] || continue
		if [ "$rc" -ne 0 ]; then
			# mmdebstrap's own error ("E: ..."), else the last word.
			[ -n "${err[$id]:-}" ] ||
				err[$id]="the $s root: $({ grep '^E: ' "${root_dir[$s]}.log" ||
					grep -v '^$' "${root_dir[$s]}.log"; } |
					tail -n 1 | sed 's/^\[mstat\] //')"
			continue
		fi
		root[$id]=${root_dir[$s]}
	done
	[ "$rc" -eq 0 ] && touch "${root_dir[$s]}/.mstat-used"
done
for id in "${ids[@]}"; do
	[ "${rsuite[$id]}" = - ] || try "$id" "headers" headers_root "$id"
done

# Roots no run has used for two weeks (an older package list's) go.
find "$MSTAT_CACHE/roots" -mindepth 2 -maxdepth 2 -name .mstat-used -mtime +14 |
while read -r f; do
	mstat_root_umount "${f%/*}" &&
		log "removing ${f%/*}, unused for two weeks" &&
		rm -rf --one-file-system "${f%/*}" "${f%/*}.log" "${f%/*}.lock"
done

report
n=0
for id in "${ids[@]}"; do
	[ -z "${err[$id]:-}" ] && n=$((n + 1))
done
log "matrix: $n of ${#ids[@]} kernels set up in $((SECONDS - start)) s"
exit 0
