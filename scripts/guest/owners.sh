# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# shellcheck disable=SC3043,SC2016 # busybox ash has "local"; awk programs
# Guest side of whose kernel memory it is: tests/owners/mstat_owntest.ko
# allocates known vm areas, percpu objects and page_pool pages from
# shells in the cgroups of a node-like cgroup2 tree, and raw pages from a
# timer (softirq); its debugfs truth says each tag's caller, cgroup,
# objects and bytes. The tree, with memory charged down to its leaves:
#
#	kubepods.slice/kubepods-burstable.slice/
#	    kubepods-burstable-pod0f3a1c2e_..._0c1d2e3f4a5b.slice/
#	    cri-containerd-ab12cd34...ab12.scope			pod
#	system.slice/nginx.service					nginx
#	system.slice/netd.service					netd
#
#	tag 0	pod	vmalloc 8 x 2 MiB	(16 MiB)
#	tag 1	nginx	vmalloc 12 x 2 MiB	(24 MiB)
#	tag 2	nginx	percpu 1024 x 64 B	(x the possible CPUs)
#	tag 3	netd	page_pool 4096 pages	(16 MiB)
#	tag 4	-	4096 pages in a softirq	(16 MiB)
#	tag 5	nginx	vmalloc 4 x 1 MiB, then freed by a kworker
#	bpf	pod	a 32 MiB BPF array map, by Debian's bpftool
#
# Judged, from /proc/mstat_owners (exact: one hold of each table's lock):
#  - owners-exact-TAGS: for each caller (ot_vmalloc, ot_percpu,
#    [mstat_owntest]) and cgroup of the vm area and percpu tags, its row
#    holds exactly their objects (allocations less frees) and bytes
#    (tags 1 and 5 share nginx's ot_vmalloc row: owners-exact-1+5);
#  - owners-bpf-map: the rows of the BPF maps' callers in the pod's
#    cgroup hold exactly the map's areas, as /proc/vmallocinfo lists
#    them (after its creation and not before);
#  - owners-free-elsewhere: tag 5, freed from a kworker (the root
#    cgroup), leaves nginx's ot_vmalloc row at tag 1's bytes and makes
#    no row of ot_vmalloc in any other cgroup: a free is the allocating
#    cgroup's (the broken build, OWNERS_BROKEN=1, takes it from the
#    freeing task's: caught);
#  - owners-tamper-caller, owners-tamper-cgroup: the same judge of a
#    false truth (tag 1 named ot_percpu; tag 1's bytes moved to the pod's
#    cgroup) must fail;
#  - owners-gone: every tag freed, no live byte left in any row of the
#    module's callers (the broken build's tag 5 leaves them: caught);
#  - owners-unloaded-named: the module unloaded, its rows still name
#    ot_vmalloc and ot_percpu [mstat_owntest] (the broken build's
#    UNLOADED_NAMES names them after whatever is there: caught).
# Judged, from `mstat memory --by caller --cgroup --json` read right after
# (nothing of the module's allocating between the two reads):
#  - tool-vmalloc-caller: "ot_vmalloc [mstat_owntest]" in vmalloc by
#    caller, its bytes in /proc/vmallocinfo and since load (exact) both
#    tags 0, 1 and 5's, in their 24 areas;
#  - tool-percpu-caller: "ot_percpu [mstat_owntest]" in percpu by caller,
#    tag 2's bytes and 1,024 objects (not in the broken build);
#  - tool-cgroup-bpf-charged: the pod's memory.stat charges it for its
#    map (at least its largest area) and not for the rest (at most the
#    map's areas: the page array and the module's are not charged);
#  - tool-cgroup-exact: the pod's container caused tag 0's and the map's
#    vmalloc bytes,
#    nginx tags 1 and 5's and tag 2's percpu bytes, netd no vm area
#    (its page_pool has percpu stats of its own on 7.3): exactly;
#  - tool-cgroup-charged: nginx's memory.stat charges it no vmalloc (the
#    module's vmalloc() is not __GFP_ACCOUNT), so its vmalloc "not
#    charged" is all it caused;
#  - tool-cgroup-sampled: netd's raw pages (tag 3's page_pool pages, and
#    the pool's cache at most) and softirq's (tag 4's, less softirq's
#    before the tags) within 4 standard errors;
#  - tool-page-pool-caller: the raw pages' callers name tag 3's pages
#    "page_pool: ot_pool [mstat_owntest]" (these two not in the broken
#    build, which never samples a page_pool's bulk pages);
#  - tool-tamper-cgroup: the same exact judge with nginx's and the pod's
#    paths swapped fails.
# Kernels: 6.12 7.3
# Guest: --prog=bpftool
# Run: check guest-6.12-owners
# Run: check guest-7.3-owners
# Run: check guest-6.12-owners-broken build=6.12-broken --append=OWNERS_BROKEN=1
set -u
. ./lib.sh

broken=$(sed -n 's/.*OWNERS_BROKEN=\([01]\).*/\1/p' /proc/cmdline)
C=/sys/kernel/debug/mstat_owntest
CG=/sys/fs/cgroup
POD=$CG/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod0f3a1c2e_5b6d_4e7f_8a9b_0c1d2e3f4a5b.slice/cri-containerd-ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12.scope
NGINX=$CG/system.slice/nginx.service
NETD=$CG/system.slice/netd.service
RATE=65536

# ctl CGROUP_DIR COMMAND: COMMAND written to the module's control by a
# shell moved into that cgroup first, so that the allocating task is in it.
ctl() {
	sh -c "echo \$\$ >$1/cgroup.procs && echo $2 >$C/ctl"
}

# owned TRUTH OWNERS: for each caller and cgroup of TRUTH's vm area and
# percpu tags (the module's truth file), its rows in OWNERS (a copy of
# /proc/mstat_owners) against the tags': a line "TAGS WANT_OBJECTS
# WANT_BYTES GOT_OBJECTS GOT_BYTES" (TAGS joined by "+": tags of one
# caller and cgroup share its row); exit 1 if any differs.
owned() {
	awk 'FNR == NR {
		if ($4 != "vmalloc" && $4 != "percpu")
			next
		k = $6 " " $8
		tags[k] = (k in tags ? tags[k] "+" : "") $2
		obj[k] += $10; by[k] += $12
		next
	}
	/^(vmalloc|percpu) / && $8 == "[mstat_owntest]" {
		f = $7; sub(/\+.*/, "", f)
		live[f " " $3] += $4 - $5; bytes[f " " $3] += $6
	}
	END {
		bad = 0
		for (k in tags) {
			print tags[k], obj[k], by[k], live[k] + 0, bytes[k] + 0
			if (obj[k] != live[k] + 0 || by[k] != bytes[k] + 0)
				bad = 1
		}
		exit bad
	}' "$1" "$2"
}

# cgrows JSON: the "by_cgroup" table of JSON (mstat memory --cgroup
# --json) a line a cgroup: "PATH C_VMALLOC C_PERCPU C_SLAB C_PAGES
# SE_VMALLOC ... SE_PAGES CH_VMALLOC CH_PERCPU CH_SLAB CH_PAGES", its
# caused bytes (subtree), their standard errors, its memory.stat's (null
# where it has no such line).
cgrows() {
	awk '/"by_cgroup"/ {
		n = split($0, e, /\{"cgroup": "/)
		for (i = 2; i <= n; i++) {
			label = e[i]; sub(/".*/, "", label)
			line = label
			split("caused caused_se charged", key, " ")
			for (k = 1; k <= 3; k++) {
				if (!match(e[i], "\"" key[k] "\": \\{[^}]*\\}"))
					continue
				v = substr(e[i], RSTART, RLENGTH)
				sub(/^[^{]*\{/, "", v)
				gsub(/"[a-z]*": /, "", v); gsub(/[,}]/, "", v)
				line = line " " v
			}
			print line
		}
	}' "$1"
}

# cgexact ROWS POD NGINX NETD TRUTH BPF: the exact columns of ROWS
# (cgrows') for the three cgroups against TRUTH's tags, and the pod's BPF
# map's BPF bytes (its areas in vmallocinfo).
cgexact() {
	awk -v pod="$2" -v ng="$3" -v netd="$4" -v bpf="$6" 'FNR == NR {
		if (FNR == 1) want[pod " vm"] += bpf
		if ($2 == 0) want[pod " vm"] += $12
		if ($2 == 1 || $2 == 5) want[ng " vm"] += $12
		if ($2 == 2) want[ng " pc"] += $12
		next
	}
	{ got[$1 " vm"] = $2; got[$1 " pc"] = $3 }
	END {
		bad = 0
		split(pod " " ng " " netd, c, " ")
		# netd: vm areas alone (a page_pool has percpu stats of its
		# own on some kernels, allocated by netd: not the truth'"'"'s).
		for (i = 1; i <= 3; i++)
			for (j = 1; j <= 2 - (i == 3); j++) {
				k = c[i] (j == 1 ? " vm" : " pc")
				if (want[k] + 0 != got[k] + 0) {
					print k, want[k] + 0, got[k] + 0
					bad = 1
				}
			}
		exit bad
	}' "$5" "$1"
}

check insmod-owntest insmod ./mstat_owntest.ko
check insmod-mstat insmod ./mstat.ko profile_pages=1 profile_rate=$RATE
check owners-face test -r /proc/mstat_owners
mkdir -p $CG
check mount-cgroup2 mount -t cgroup2 none $CG
# Memory charged down to every leaf, as systemd and the kubelet set it.
bad=0
for d in $CG $CG/kubepods.slice $CG/kubepods.slice/kubepods-burstable.slice \
	 ${POD%/*} $CG/system.slice; do
	mkdir -p "$d" && echo +memory >"$d/cgroup.subtree_control" || bad=1
done
mkdir -p $POD $NGINX $NETD || bad=1
check cgroup-tree [ "$bad" -eq 0 ]
diag "cgroup ids: pod $(stat -c %i $POD), nginx $(stat -c %i $NGINX), netd $(stat -c %i $NETD)"

# The broken build counts a percpu object as charged (PCPU_CHARGED): its
# percpu tag is left out, the rest judged as the product's.
set -- "$POD:vmalloc 0 8 2048" "$NGINX:vmalloc 1 12 2048" \
	"$NETD:pool 3 4096" "$CG:softpages 4 4096" "$NGINX:vmalloc 5 4 1024"
[ "${broken:-0}" = 1 ] || set -- "$@" "$NGINX:percpu 2 1024 64"
# Softirq's raw pages before the tags: the background of tag 4's.
./mstat memory --cgroup --json >/tmp/memory0.json 2>&1
cgrows /tmp/memory0.json >/tmp/cgrows0
bad=0
for cmd in "$@"; do
	ctl "${cmd%%:*}" "${cmd#*:}" || { diag "failed: $cmd"; bad=1; }
done
check owntest-allocated [ "$bad" -eq 0 ]
# A real BPF map (32 MiB array), made by Debian's bpftool from a task in
# the pod's container and pinned; its truth the kernel's own list: the
# areas of BPF maps' callers in /proc/vmallocinfo after and not before.
# Not in the broken build: bpftool's probes free BPF programs' areas
# from other tasks, whose frees its OWNER_AT_FREE takes from rows of
# their own, past what the tool reads (frees above allocations).
cat /proc/vmallocinfo >/tmp/vmi.before
if [ "${broken:-0}" != 1 ]; then
	mkdir -p /sys/fs/bpf
	check bpffs mount -t bpf bpf /sys/fs/bpf
	check bpf-map-created sh -c "echo \$\$ >$POD/cgroup.procs && exec ./bpftool map create \
		/sys/fs/bpf/podmap type array key 4 value 4096 entries 8192 name podmap"
fi
cat /proc/vmallocinfo >/tmp/vmi.after
awk 'FNR == NR { old[$1] = 1; next }
	!($1 in old) {
		c = $3; sub(/\+.*/, "", c)
		p = 0; for (i = 4; i <= NF; i++) if ($i ~ /^pages=/) p = substr($i, 7)
		if (p && c ~ /^(__)?bpf_map_area(_mmapable)?_alloc$|_map_alloc$/) {
			b += p * 4096; n++; if (p * 4096 > big) big = p * 4096
		}
	}
	END { print b + 0, n + 0, big + 0 }' /tmp/vmi.before /tmp/vmi.after >/tmp/truth.bpf
diag "BPF map areas (vmallocinfo after, not before): bytes areas largest $(cat /tmp/truth.bpf)"
read -r bpf_bytes bpf_areas bpf_big </tmp/truth.bpf
cat $C/truth >/tmp/truth.held
show /tmp/truth.held
cat /proc/mstat_owners >/tmp/owners.held
grep -e '^#' -e 'mstat_owntest' /tmp/owners.held | show
owned /tmp/truth.held /tmp/owners.held >/tmp/owned.held
show /tmp/owned.held
while read -r tag wo wb go gb; do
	check "owners-exact-$tag" [ "$wo $wb" = "$go $gb" ]
done </tmp/owned.held
# The map's areas, under the BPF maps' callers, in the pod's cgroup.
awk -v pod="$(stat -c %i $POD)" '$1 == "vmalloc" && $3 == pod {
	c = $7; sub(/\+.*/, "", c)
	if (c ~ /^(__)?bpf_map_area(_mmapable)?_alloc$|_map_alloc$/) {
		b += $6; n += $4 - $5 } }
	END { print b + 0, n + 0 }' /tmp/owners.held >/tmp/owned.bpf
diag "BPF maps' rows in the pod's cgroup: bytes areas $(cat /tmp/owned.bpf)"
bpf_owned() {
	[ "$bpf_bytes" -gt $((32 << 20)) ] &&
		[ "$(cat /tmp/owned.bpf)" = "$bpf_bytes $bpf_areas" ]
}
[ "${broken:-0}" = 1 ] || check owners-bpf-map bpf_owned

# The tool's view of the same moment (read after, nothing allocating).
./mstat memory --by caller --cgroup --top 40 >/tmp/memory.txt 2>&1
./mstat memory --by caller --cgroup --top 40 --json >/tmp/memory.json 2>&1
show /tmp/memory.txt
cgrows /tmp/memory.json >/tmp/cgrows
show /tmp/cgrows
rel() { echo "${1#"$CG"}"; }
pod=$(rel $POD) nginx=$(rel $NGINX) netd=$(rel $NETD)
check tool-cgroup-exact cgexact /tmp/cgrows "$pod" "$nginx" "$netd" /tmp/truth.held "$bpf_bytes"
# Swapped paths: the same judge must fail.
if cgexact /tmp/cgrows "$nginx" "$pod" "$netd" /tmp/truth.held "$bpf_bytes" >/dev/null; then
	not_ok "tool-cgroup-tamper: a false truth passed"
else
	ok tool-cgroup-tamper
fi
check tool-cgroup-charged awk -v ng="$nginx" '$1 == ng && $10 != "null" &&
	$2 - $10 == $2 && $2 > 0 { ok = 1 } END { exit !ok }' /tmp/cgrows
# The pod is charged for its BPF map (bpf_map_area_alloc() asks
# __GFP_ACCOUNT) but not for the map's page array (vmalloc() takes it
# without) nor the module's areas: memory.stat's vmalloc is at least the
# map's largest area and at most the map's areas.
[ "${broken:-0}" = 1 ] ||
	check tool-cgroup-bpf-charged awk -v p="$pod" -v lo="$bpf_big" -v hi="$bpf_bytes" \
	'$1 == p { print "# charged vmalloc", $10; ok = $10 != "null" && $10 >= lo && $10 <= hi }
	END { exit !ok }' /tmp/cgrows
# The sampled columns: netd's raw pages against tag 3's (and its pool's
# cache), softirq's growth against tag 4's, within 4 standard errors.
sampled() {
	awk -v l="$2" -v want="$3" -v slack="$4" 'FNR == NR {
		if ($1 == l) { b0 = $5; s0 = $9 }
		next
	}
	$1 == l {
		# busybox awk has no sqrt(): squares compared.
		d = $5 - b0; v = $9 * $9 + s0 * s0
		print l, "grew", d, "truth", want, "+", slack, "var", v
		if (d < want)
			ok = (want - d) * (want - d) <= 16 * v
		else
			ok = d <= want + slack ||
			     (d - want - slack) * (d - want - slack) <= 16 * v
	}
	END { exit !ok }' "$1" /tmp/cgrows
}
t3=$(awk '$2 == 3 { print $12, $14 * 4096 }' /tmp/truth.held)
t4=$(awk '$2 == 4 { print $12 }' /tmp/truth.held)
# The broken build never samples alloc_pages_bulk()'s pages
# (BULK_UNSAMPLED), which a page_pool takes its pages by.
if [ "${broken:-0}" != 1 ]; then
	# shellcheck disable=SC2086 # bytes, then the pool's cache's bytes
	sampled /tmp/cgrows0 "$netd" $t3 >/tmp/sampled 2>&1 &&
		sampled /tmp/cgrows0 softirq "$t4" 0 >>/tmp/sampled 2>&1
	check tool-cgroup-sampled [ $? -eq 0 ]
	show /tmp/sampled
	check tool-page-pool-caller \
		grep -q 'page_pool: ot_pool \[mstat_owntest\]' /tmp/memory.txt
fi
# The callers: one line of vmalloc_by_caller's and percpu_by_caller's.
owner_row() {
	sed -n "s/.*\"$1\": .*{\"caller\": \"$2\"\([^}]*\)}.*/\1/p" \
		/tmp/memory.json | head -n 1
}
vm=$(owner_row vmalloc_by_caller 'ot_vmalloc \[mstat_owntest\]')
diag "ot_vmalloc: $vm"
want=$(awk '$4 == "vmalloc" { b += $12; n += $10 } END { print b, n }' \
	/tmp/truth.held)
check tool-vmalloc-caller [ "$(echo "$vm" |
	sed 's/.*"bytes": \([0-9]*\), "areas": \([0-9]*\), "since_load_bytes": \([0-9]*\).*/\1 \2 \3/')" = \
	"${want% *} ${want#* } ${want% *}" ]
if [ "${broken:-0}" != 1 ]; then
	pc=$(owner_row percpu_by_caller 'ot_percpu \[mstat_owntest\]')
	diag "ot_percpu: $pc"
	check tool-percpu-caller [ "$(echo "$pc" |
		sed 's/.*"bytes": \([0-9]*\), "objects": \([0-9]*\).*/\1 \2/')" = \
		"$(awk '$2 == 2 { print $12, $10 }' /tmp/truth.held)" ]
fi

# Tag 5 freed by a kworker: its bytes leave nginx's row, and no other
# cgroup's row of ot_vmalloc gets them.
ctl $NGINX "freelater 5"
cat $C/truth >/tmp/truth.later
cat /proc/mstat_owners >/tmp/owners.later
grep 'ot_vmalloc' /tmp/owners.later | show
nginx=$(stat -c %i $NGINX)
pod=$(stat -c %i $POD)
judge owners-free-elsewhere "a kworker's free of nginx's areas taken from another row" \
	awk -v ng="$nginx" -v pod="$pod" '
	$1 == "vmalloc" && $7 ~ /^ot_vmalloc\+/ {
		if ($3 == ng) b += $6; else if ($3 != pod) other++
	}
	END { exit !(b == 12 * 2097152 && !other) }' /tmp/owners.later

# The same judge of a false truth must fail.
sed 's/^\(tag 1 kind vmalloc caller\) ot_vmalloc/\1 ot_percpu/' \
	/tmp/truth.later >/tmp/truth.caller
sed "s/^\\(tag 1 kind vmalloc caller ot_vmalloc cgroup\\) [0-9]*/\\1 $pod/" \
	/tmp/truth.later >/tmp/truth.cgroup
for t in caller cgroup; do
	if cmp -s /tmp/truth.later /tmp/truth.$t; then
		not_ok "owners-tamper-$t: the truth was not changed"
	elif owned /tmp/truth.$t /tmp/owners.later >/dev/null; then
		not_ok "owners-tamper-$t: a false truth passed"
	else
		ok "owners-tamper-$t"
	fi
done

# Everything freed, each tag by its own cgroup: no live byte in the
# module's rows.
for cmd in "$POD:free 0" "$NGINX:free 1" "$NGINX:free 2" "$NETD:free 3" \
	   "$CG:free 4"; do
	ctl "${cmd%%:*}" "${cmd#*:}"
done
cat /proc/mstat_owners >/tmp/owners.gone
judge owners-gone "a free taken from another row left bytes behind" \
	awk '$NF == "[mstat_owntest]" && $6 != 0 { bad = 1 }
	END { exit bad }' /tmp/owners.gone
check rmmod-owntest rmmod mstat_owntest
# Its text gone, its rows still name its callers.
cat /proc/mstat_owners >/tmp/owners.unloaded
grep -F '[mstat_owntest]' /tmp/owners.unloaded | show
judge owners-unloaded-named "an unloaded module's callers lost their names" \
	awk '$7 ~ /^ot_vmalloc\+/ && $8 == "[mstat_owntest]" { v = 1 }
	$7 ~ /^ot_percpu\+/ && $8 == "[mstat_owntest]" { p = 1 }
	END { exit !(v && (p || b)) }' b="${broken:-0}" /tmp/owners.unloaded
check rmmod-mstat rmmod mstat
finish
