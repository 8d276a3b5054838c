# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2154,SC2015 # tmp and the helpers are test.sh's; A && B || fail
# Whose memory it is: mstat memory --by caller's since-load figures and
# percpu callers, --cgroup's table, and /proc/mstat_owners' parser, against
# testdata/*-owners.txt and mstat_owners-1.0.txt (one moment of
# scripts/guest/owners.sh's guest, testdata/README.md). Sourced by
# test.sh, which runs owners_tests; each figure is checked against awk's
# own sum of the fixture, never against the tool's output of another run.

own_m=(build/mstat memory -f testdata/mstat-owners.txt
	--meminfo testdata/meminfo-owners.txt)
own_f=testdata/mstat_owners-1.0.txt

# own_awk SRC [KIND]: the owners file's rows of SRC (and KIND) by caller,
# "CALLER|BYTES|LIVE", sorted: the function without +off/len, a module's
# name after it.
own_awk() {
	awk -v src="$1" -v kind="${2:-}" 'NR > 2 && $1 == src &&
		(kind == "" || $2 == kind) {
		c = $7; sub(/\+.*/, "", c); if ($8 ~ /^\[/) c = c " " $8
		b[c] += $6; n[c] += $4 - $5 }
		END { for (c in b) printf "%s|%d|%d\n", c, b[c], n[c] }' \
		"${3:-$own_f}" | sort
}

# The JSON's vmalloc callers as "CALLER|SINCE_BYTES|SINCE_AREAS" (those
# with any), and its percpu callers as "CALLER|BYTES|OBJECTS".
own_vm_rows() {
	sed -n 's/.*"vmalloc_by_caller": //p' "$1" | sed 's/}, {/\n/g' |
		sed -n 's/.*"caller": "\([^"]*\)".*"since_load_bytes": \([0-9]*\), "since_load_areas": \([0-9]*\).*/\1|\2|\3/p' |
		grep -v '|0|0$' | sort
}
own_pc_rows() {
	sed -n 's/.*"percpu_by_caller": //p' "$1" | sed 's/}, {/\n/g' |
		sed -n 's/.*"caller": "\([^"]*\)", "bytes": \([0-9]*\), "objects": \([0-9]*\).*/\1|\2|\3/p' |
		sort
}

# --by caller with an owners file: each vmalloc caller's since-load
# bytes and areas, and each percpu caller's bytes and objects, as awk sums
# the file (mem_cgroup_css_alloc's two rows one caller); a caller's
# vmallocinfo bytes still vmallocinfo's; the text names ot_vmalloc's
# 44 MiB since load beside its 44 MiB.
owners_by_caller() {
	local j=$tmp/own.json want got

	"${own_m[@]}" --by caller --top 10000 --owners "$own_f" \
		--vmallocinfo testdata/vmallocinfo-owners.txt --json >"$j" || return
	want=$(own_awk vmalloc vmalloc) got=$(own_vm_rows "$j")
	echo "vmalloc, awk:"; echo "$want"; echo "mstat:"; echo "$got"
	[ -n "$want" ] && [ "$want" = "$got" ] || return
	want=$(own_awk percpu) got=$(own_pc_rows "$j")
	echo "percpu, awk:"; echo "$want"; echo "mstat:"; echo "$got"
	[ -n "$want" ] && [ "$want" = "$got" ] || return
	grep -q '^mem_cgroup_css_alloc|22176|14$' <<<"$got" || return
	want=$(vm_awk testdata/vmallocinfo-owners.txt | sort)
	[ "$(vm_json_rows "$j" | grep -v '|0|0$')" = "$want" ] || return
	"${own_m[@]}" --by caller --owners "$own_f" \
		--vmallocinfo testdata/vmallocinfo-owners.txt >"$tmp/own.txt" || return
	grep -Eq '^ +44\.0 MiB  ot_vmalloc \[mstat_owntest\] +24 areas +44\.0 MiB since load$' "$tmp/own.txt" &&
		grep -Eq '^ +128\.0 KiB  ot_percpu \[mstat_owntest\] +1,024 objects$' "$tmp/own.txt" &&
		grep -q '^percpu by caller (exact, testdata/mstat_owners-1.0.txt: ' "$tmp/own.txt"
}

# The rows past a full table ("other") and a caller in vmallocinfo no
# more (freed between the reads) are callers of their own; --top keeps N
# and sums the rest.
owners_other() {
	local f=$tmp/own-other.txt j=$tmp/own-other.json
	local n

	n=$(($(sed -n 's/^# rows \([0-9]*\) .*/\1/p' "$own_f") + 2))
	sed -e "2s/rows [0-9]*/rows $n/" "$own_f" >"$f" &&
	printf '%s\n' 'vmalloc vmalloc - 3 1 8192 other' \
		'percpu - softirq 5 0 640 gone_caller+0x1/0x2 [gonemod]' >>"$f" &&
	"${own_m[@]}" --by caller --top 10000 --owners "$f" \
		--vmallocinfo testdata/vmallocinfo-owners.txt --json >"$j" || return
	own_vm_rows "$j" | grep -qx "other (mstat's table full)|8192|2" &&
		own_pc_rows "$j" | grep -qx 'gone_caller \[gonemod\]|640|5' || return
	"${own_m[@]}" --by caller --top 2 --owners "$own_f" \
		--vmallocinfo testdata/vmallocinfo-owners.txt --json >"$j" || return
	own_pc_rows "$j" | tee "$tmp/own-top2"
	[ "$(grep -c . "$tmp/own-top2")" -eq 3 ] &&
		grep -qx "every other caller|$(own_awk percpu | sort -t'|' -k2,2nr |
			tail -n +3 | awk -F'|' '{ b += $2; n += $3 } END { print b "|" n }')" \
			"$tmp/own-top2"
}

# A malformed owners file is an error that says where, never a table.
owners_errors() {
	local f=$tmp/own-bad.txt

	sed '3s/^vmalloc /kmalloc /' "$own_f" >"$f" &&
		expect_err 1 'line 3: malformed owner row' "${own_m[@]}" \
			--by caller --owners "$f" --vmallocinfo testdata/vmallocinfo-owners.txt &&
	sed '3s/ 6 1 81920 / 1 6 81920 /' "$own_f" >"$f" &&
		expect_err 1 'line 3: malformed owner row' "${own_m[@]}" \
			--cgroup --owners "$f" &&
	sed '2s/rows 16/rows 17/' "$own_f" >"$f" &&
		expect_err 1 'truncated or incomplete: 16 owner rows, header says 17' \
			"${own_m[@]}" --cgroup --owners "$f" &&
	sed '2d' "$own_f" >"$f" &&
		expect_err 1 'line 2: no "# rows N capacity N" line' \
			"${own_m[@]}" --cgroup --owners "$f" &&
	sed '1s/1\.0$/2.0/' "$own_f" >"$f" &&
		expect_err 1 'unsupported format version 2.0' \
			"${own_m[@]}" --cgroup --owners "$f" &&
	expect_err 1 'not an mstat_owners file' "${own_m[@]}" --cgroup \
		--owners testdata/meminfo-owners.txt &&
	expect_err 2 '^mstat: --cgroup= wants a path from the cgroup root' \
		"${own_m[@]}" --cgroup=system.slice
}

# own_tree: a cgroup2 tree like the guest's, under $tmp/cg, and the
# owners and sites fixtures with its directories' inode numbers for the
# guest's cgroup ids (pod 180, nginx 218, netd 256), each memory.stat
# with known lines.
own_tree() {
	local r=$tmp/cg pod nginx netd
	local p=kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod0f3a1c2e_5b6d_4e7f_8a9b_0c1d2e3f4a5b.slice/cri-containerd-ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12.scope

	rm -rf "$r" && mkdir -p "$r/$p" "$r/system.slice/nginx.service" \
		"$r/system.slice/netd.service" || return
	printf 'anon 0\nkernel 8192\nslab 4096\npercpu 0\nvmalloc 0\nsock 0\n' \
		>"$r/system.slice/nginx.service/memory.stat"
	printf 'anon 0\nkernel 40960\nslab 12288\npercpu 1024\nvmalloc 0\nsock 512\n' \
		>"$r/system.slice/memory.stat"
	printf 'kernel 4096\nslab 0\npercpu 0\nvmalloc 16777216\n' >"$r/$p/memory.stat"
	pod=$(stat -c %i "$r/$p") nginx=$(stat -c %i "$r/system.slice/nginx.service")
	netd=$(stat -c %i "$r/system.slice/netd.service")
	own_ids="$pod $nginx $netd"
	awk -v a="$pod" -v b="$nginx" -v c="$netd" 'NR > 2 {
		if ($3 == 180) $3 = a; else if ($3 == 218) $3 = b
		else if ($3 == 256) $3 = c }
		{ print }' "$own_f" >"$tmp/own-tree.txt" &&
	awk -v a="$pod" -v b="$nginx" -v c="$netd" -F' ' '!/^[#+\t]/ && NR > 3 {
		if ($9 == 180) $9 = a; else if ($9 == 218) $9 = b
		else if ($9 == 256) $9 = c }
		{ print }' testdata/mstat_sites-2.3-owners.txt >"$tmp/sites-tree.txt"
}

# --cgroup against that tree: each cgroup's exact columns as awk sums the
# owners file (nginx 28 MiB of vm areas and 128 KiB percpu, the pod's
# container 16 MiB), a parent's the sum of its children's and its own,
# memory.stat's lines beside as written (null where a file has none), the
# labels the path says (pod, container, unit); the sampled columns' sum
# over the tree's own rows that of the account's raw pages and slab rows
# by cgroup; --cgroup=PATH its subtree alone; a path not in the tree an
# error.
owners_cgroup() {
	local j=$tmp/cg.json pod nginx netd rows

	own_tree || return
	read -r pod nginx netd <<<"$own_ids"
	MSTAT_CGROUP_ROOT=$tmp/cg "${own_m[@]}" --cgroup --top 100 \
		--owners "$tmp/own-tree.txt" --sites "$tmp/sites-tree.txt" \
		--json >"$j" || return
	# One line a cgroup: label, then caused vmalloc percpu, charged
	# vmalloc percpu slab, charged kernel.
	rows=$(sed -n 's/.*"by_cgroup": //p' "$j" | sed 's/, {"cgroup"/\n{"cgroup"/g' |
		sed -n 's/.*"cgroup": "\([^"]*\)".*"caused": {"vmalloc": \([0-9]*\), "percpu": \([0-9]*\),.*"charged": {"vmalloc": \([0-9a-z]*\), "percpu": \([0-9a-z]*\), "slab": \([0-9a-z]*\),.*"charged_kernel": \(-*[0-9]*\).*/\1|\2|\3|\4|\5|\6|\7/p')
	echo "$rows"
	want() {
		awk -v id="$1" -v k="$2" 'NR > 2 && $3 == id &&
			($1 == "percpu") == (k == "percpu") &&
			($1 != "vmalloc" || $2 == "vmalloc") { s += $6 }
			END { print s + 0 }' "$tmp/own-tree.txt"
	}
	grep -qx "/system.slice/nginx.service|$(want "$nginx" vmalloc)|$(want "$nginx" percpu)|0|0|4096|8192" <<<"$rows" &&
	grep -qx "/system.slice|$(($(want "$nginx" vmalloc) + $(want "$netd" vmalloc)))|$(($(want "$nginx" percpu) + $(want "$netd" percpu)))|0|1024|12288|40960" <<<"$rows" &&
	grep -Eq "^/kubepods.slice/.*/cri-containerd-ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12.scope\|16777216\|0\|16777216\|0\|0\|4096$" <<<"$rows" &&
	grep -Eq "^/system.slice/netd.service\|0\|0\|null\|null\|null\|-1$" <<<"$rows" &&
	grep -q '"pod_uid": "0f3a1c2e-5b6d-4e7f-8a9b-0c1d2e3f4a5b", "container_id": "ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12"' "$j" &&
	grep -q '"cgroup": "/system.slice/nginx.service", "id": '"$nginx"', "pod_uid": "", "container_id": "", "unit": "nginx.service"' "$j" ||
		return
	# The sampled raw pages' own estimates, over every cgroup, are the
	# account's raw pages.
	awk '/"pages_sampled": /{ match($0, /"raw": [0-9]*/); print "account raw", substr($0, RSTART + 7, RLENGTH - 7) }' "$j"
	sed -n 's/.*"by_cgroup": //p' "$j" | sed 's/, {"cgroup"/\n{"cgroup"/g' |
		sed -n 's/.*"own": {[^}]*"pages": \([0-9]*\)}.*/\1/p' |
		awk '{ s += $1 } END { print "cgroups raw", s }' >"$tmp/cg-raw"
	cat "$tmp/cg-raw"
	[ "$(awk '{ print $3 }' "$tmp/cg-raw")" = \
		"$(sed -n 's/.*"pages_sampled": {[^}]*"raw": \([0-9]*\).*/\1/p' "$j")" ] || return
	MSTAT_CGROUP_ROOT=$tmp/cg "${own_m[@]}" --cgroup=/system.slice \
		--owners "$tmp/own-tree.txt" --sites "$tmp/sites-tree.txt" \
		--json >"$j" || return
	sed -n 's/.*"by_cgroup": //p' "$j" | grep -o '"cgroup": "[^"]*"' | sort >"$tmp/cg-only"
	cat "$tmp/cg-only"
	printf '"cgroup": "%s"\n' /system.slice /system.slice/netd.service \
		/system.slice/nginx.service | diff -u - "$tmp/cg-only" || return
	MSTAT_CGROUP_ROOT=$tmp/cg expect_err 1 '^mstat: --cgroup=/nope: no such cgroup under ' \
		"${own_m[@]}" --cgroup=/nope --owners "$tmp/own-tree.txt"
}

# The same judge must fail on a false table: the owners file with
# nginx's and the pod's ids swapped.
owners_cgroup_tamper() {
	local pod nginx netd

	own_tree || return
	read -r pod nginx netd <<<"$own_ids"
	awk -v a="$pod" -v b="$nginx" 'NR > 2 {
		if ($3 == a) $3 = b; else if ($3 == b) $3 = a }
		{ print }' "$tmp/own-tree.txt" >"$tmp/own-swapped.txt" &&
	MSTAT_CGROUP_ROOT=$tmp/cg "${own_m[@]}" --cgroup --top 100 \
		--owners "$tmp/own-swapped.txt" --json >"$tmp/cg-t.json" || return
	! grep -q '"cgroup": "/system.slice/nginx.service", [^}]*}, "own_se": {[^}]*}, "caused": {"vmalloc": 29360128, "percpu": 131072' "$tmp/cg-t.json" &&
	MSTAT_CGROUP_ROOT=$tmp/cg "${own_m[@]}" --cgroup --top 100 \
		--owners "$tmp/own-tree.txt" --json >"$tmp/cg-r.json" &&
	grep -q '"cgroup": "/system.slice/nginx.service", [^}]*}, "own_se": {[^}]*}, "caused": {"vmalloc": 29360128, "percpu": 131072' "$tmp/cg-r.json"
}

# The text: a cgroup's lines, caused beside charged and their difference.
owners_cgroup_text() {
	own_tree || return
	MSTAT_CGROUP_ROOT=$tmp/cg "${own_m[@]}" --cgroup \
		--owners "$tmp/own-tree.txt" >"$tmp/cg.txt" || return
	sed -n '/^kernel memory by cgroup/,$p' "$tmp/cg.txt"
	grep -q '^kernel memory by cgroup (caused: by the cgroup.s tasks and its children.s; vmalloc and percpu exact since load, slab and raw pages not known (no page samples: profile_pages=1); charged: its memory.stat)$' "$tmp/cg.txt" &&
		grep -A6 -x '  /system.slice/nginx.service  unit nginx.service' "$tmp/cg.txt" |
		grep -Eq '^    vmalloc +28\.0 MiB +0 B +28\.0 MiB$'
}

# own_once SITES: the in-use bytes a profile of SITES must hold, one
# count a byte: every row's est_bytes but the page rows whose innermost
# telling frame makes their pages a slab's, a vm area's or a percpu
# chunk's (sampled as those objects); a page table's frame nearer the
# leaf keeps a row. awk's own reading of the stacks, not pages.c's.
own_once() {
	awk 'function fn(f) { sub(/^\t/, "", f); sub(/[+ .].*/, "", f); return f }
	function judge() {
		if (src == "page" && drop) out += est
		else keep += est
	}
	BEGIN {
		n = split("allocate_slab new_slab alloc_slab_page kmalloc_order " \
			"kmalloc_large __kmalloc_large_node __kmalloc_large_node_noprof " \
			"___kmalloc_large_node __kmalloc_large_noprof __vmalloc_area_node " \
			"vm_area_alloc_pages __vmalloc_node_range __vmalloc_node_range_noprof " \
			"pcpu_alloc_pages pcpu_populate_chunk", d, " ")
		for (i = 1; i <= n; i++) D[d[i]] = 1
		n = split("__pte_alloc_kernel pte_alloc_one_kernel __pte_alloc_one_kernel " \
			"__pte_alloc pte_alloc_one __pte_alloc_one __pmd_alloc __pud_alloc " \
			"__p4d_alloc pgd_alloc _pgd_alloc alloc_thread_stack_node", k, " ")
		for (i = 1; i <= n; i++) K[k[i]] = 1
	}
	NR <= 3 || /^\+ / { next }
	/^[0-9]/ {
		if (seen) judge()
		seen = 1; est = $1; src = $12; decided = 0; drop = 0
		f = fn($13)
	}
	/^\t/ { f = fn($0) }
	!decided && (f in D) { decided = 1; drop = 1 }
	!decided && (f in K) { decided = 1 }
	END { if (seen) judge(); print keep, out }' "$1"
}

# A profile counts a byte once: its in-use bytes are the rows' est_bytes
# less the page rows of pages that became slabs, vm areas and percpu
# chunks (awk's reading of the fixture, own_once), those left out and
# said so in a comment; a kept page sample has its kind as a label. The
# fixture's 44 MiB of vmalloc() areas were counted twice before: as the
# areas (source vmalloc) and as their pages.
owners_pprof_once() {
	local want out got

	build/mstat pprof -f testdata/mstat_sites-2.3-owners.txt \
		-o "$tmp/once.pb.gz" || return
	read -r want out <<<"$(own_once testdata/mstat_sites-2.3-owners.txt)"
	got=$(sum_values "$tmp/once.pb.gz")
	echo "in-use bytes: profile ${got##* }, rows kept $want, left out $out"
	[ "${got##* }" = "$want" ] && [ "$out" -gt $((40 << 20)) ] || return
	decode "$tmp/once.pb.gz" >"$tmp/once.txt" &&
	grep -q "^string_table: \"left out, each byte counted once: [0-9]* page rows (est_bytes $out) of pages that became slabs, vm areas or percpu chunks, sampled as those\"" "$tmp/once.txt" &&
	grep -qx 'string_table: "kind"' "$tmp/once.txt" &&
	grep -qx 'string_table: "raw"' "$tmp/once.txt"
}

# The owners as Prometheus series (mstat prom --owners --sites): each
# caller's bytes awk's sum of the owners file; --owner-max 2 keeps two
# callers of each source and one "other", their sum the source's; each
# cgroup's own vm area and percpu bytes, exact, with its pod, container
# and unit; at most --owner-max cgroups and "other", whose sums are
# those of all; promtool takes them.
owners_prom() {
	local p=$tmp/own.prom want got

	own_tree || return
	MSTAT_CGROUP_ROOT=$tmp/cg build/mstat prom -f testdata/mstat-owners.txt \
		--owners "$tmp/own-tree.txt" --sites "$tmp/sites-tree.txt" \
		--owner-max 1000 >"$p" || return
	want=$(own_awk vmalloc vmalloc | awk -F'|' '{ printf "mstat_owner_bytes{source=\"vmalloc\",caller=\"%s\"} %s\n", $1, $2 }' | sort)
	got=$(grep '^mstat_owner_bytes{source="vmalloc"' "$p" | sort)
	echo "$got"
	[ -n "$want" ] && [ "$want" = "$got" ] || return
	grep -q '^mstat_cgroup_kernel_bytes{cgroup="/system.slice/nginx.service",pod_uid="",container_id="",unit="nginx.service",kind="vmalloc",from="exact"} 29360128$' "$p" &&
	grep -q '^mstat_cgroup_kernel_bytes{cgroup="/system.slice/nginx.service",pod_uid="",container_id="",unit="nginx.service",kind="percpu",from="exact"} 131072$' "$p" &&
	grep -q '^mstat_cgroup_kernel_bytes{cgroup="/kubepods.slice/[^"]*cri-containerd-ab12[^"]*",pod_uid="0f3a1c2e-5b6d-4e7f-8a9b-0c1d2e3f4a5b",container_id="ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12",unit="cri-containerd-[^"]*",kind="vmalloc",from="exact"} 16777216$' "$p" &&
	grep -q '^mstat_cgroup_kernel_stderr_bytes{cgroup="softirq",[^}]*kind="pages"} [1-9]' "$p" ||
		{ echo "a cgroup's series is missing"; return 1; }
	{ ! command -v promtool >/dev/null || promtool check metrics <"$p"; } || return
	MSTAT_CGROUP_ROOT=$tmp/cg build/mstat prom -f testdata/mstat-owners.txt \
		--owners "$tmp/own-tree.txt" --sites "$tmp/sites-tree.txt" \
		--owner-max 2 >"$tmp/own2.prom" || return
	for s in vmalloc percpu; do
		[ "$(grep -c "^mstat_owner_bytes{source=\"$s\"" "$tmp/own2.prom")" -eq 3 ] &&
		grep -q "^mstat_owner_bytes{source=\"$s\",caller=\"other\"} " "$tmp/own2.prom" &&
		[ "$(awk -v s="$s" 'index($0, "mstat_owner_bytes{source=\"" s "\"") == 1 { t += $2 } END { print t }' "$tmp/own2.prom")" = \
			"$(awk -v s="$s" 'index($0, "mstat_owner_bytes{source=\"" s "\"") == 1 { t += $2 } END { print t }' "$p")" ] ||
			{ echo "$s: not 2 callers and other, or another sum"; return 1; }
	done
	got=$(sed -n 's/^mstat_cgroup_kernel_bytes{cgroup="\([^"]*\)".*/\1/p' "$tmp/own2.prom" | sort -u)
	echo "cgroups: $got"
	[ "$(grep -c . <<<"$got")" -eq 3 ] && grep -qx other <<<"$got" &&
	for k in vmalloc percpu slab pages; do
		[ "$(awk -v k="$k" 'index($0, "mstat_cgroup_kernel_bytes{") == 1 && index($0, "kind=\"" k "\"") { t += $2 } END { print t }' "$tmp/own2.prom")" = \
			"$(awk -v k="$k" 'index($0, "mstat_cgroup_kernel_bytes{") == 1 && index($0, "kind=\"" k "\"") { t += $2 } END { print t }' "$p")" ] ||
			{ echo "kind $k: another sum with --owner-max 2"; return 1; }
	done
	# Without an owners file or page samples: none of these series.
	! build/mstat prom -f testdata/mstat-owners.txt | grep -q '^mstat_\(owner\|cgroup_kernel\)' &&
	expect_err 2 '^mstat: --owner-max wants 0 to 10000, got -1' \
		build/mstat prom -f testdata/mstat-owners.txt --owner-max -1
}

# --by caller's slab objects by caller (sampled): their sum is that of
# every cgroup's own slab in --cgroup (the same rows, summed another
# way); --top 3 keeps three and the rest, the same sum; no caller is one
# of the allocator's wrappers, though the fixture's rows have kvmalloc's
# and vmalloc()'s page arrays' sites (ot_vmalloc's named instead).
owners_slab_callers() {
	local j=$tmp/slab.json a b

	own_tree || return
	MSTAT_CGROUP_ROOT=$tmp/cg "${own_m[@]}" --by caller --cgroup \
		--top 10000 --owners "$tmp/own-tree.txt" \
		--vmallocinfo testdata/vmallocinfo-owners.txt \
		--sites "$tmp/sites-tree.txt" --json >"$j" || return
	a=$(sed -n 's/.*"slab_by_caller": {"sample_rate": [0-9]*, "bytes": \([0-9]*\),.*/\1/p' "$j")
	b=$(sed -n 's/.*"by_cgroup": //p' "$j" | sed 's/, {"cgroup"/\n{"cgroup"/g' |
		sed -n 's/.*"own": {[^}]*"slab": \([0-9]*\),.*/\1/p' |
		awk '{ s += $1 } END { print s + 0 }')
	echo "slab: callers $a, cgroups $b"
	[ -n "$a" ] && [ "$a" -gt 0 ] && [ "$a" = "$b" ] || return
	grep -q '__kvmalloc_node_noprof+' "$tmp/sites-tree.txt" &&
	grep -q '^[0-9].* __vmalloc_node_range_noprof+' "$tmp/sites-tree.txt" &&
	! grep -Eo '"caller": "(__kvmalloc_node_noprof|__vmalloc_node_range_noprof)"' "$j" &&
	grep -q '"slab_by_caller": .*"caller": "ot_vmalloc \[mstat_owntest\]", "cache": "kmalloc-4k"' "$j" || return
	"${own_m[@]}" --by caller --top 3 --owners "$own_f" \
		--vmallocinfo testdata/vmallocinfo-owners.txt \
		--sites testdata/mstat_sites-2.3-owners.txt --json >"$tmp/slab3.json" || return
	sed -n 's/.*"slab_by_caller": //p' "$tmp/slab3.json" | grep -o '"caller": ' | wc -l | grep -qx 4 &&
	grep -q "\"slab_by_caller\": {\"sample_rate\": [0-9]*, \"bytes\": $a," "$tmp/slab3.json" &&
	sed -n 's/.*"slab_by_caller": //p' "$tmp/slab3.json" | grep -q '"caller": "every other caller"'
}

owners_tests() {
	t owners_slab_callers owners_slab_callers
	t owners_prom owners_prom
	maybe owners_pprof_once protoc "Debian: protobuf-compiler" owners_pprof_once
	t owners_by_caller owners_by_caller
	t owners_other owners_other
	t owners_errors owners_errors
	t owners_cgroup owners_cgroup
	t owners_cgroup_tamper owners_cgroup_tamper
	t owners_cgroup_text owners_cgroup_text
}
