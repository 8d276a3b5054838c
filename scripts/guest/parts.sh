# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Several guest scripts in one boot, one after the other: PARTS on the
# kernel command line names them (PARTS="truth caches": ./truth.sh, then
# ./caches.sh, copied in beside this one), each run as it runs alone in a
# guest of its own, with its own arguments from the command line
# (TRUTH_ARGS, CACHES_ARGS, SURVIVE_ON...), loading and unloading its
# modules itself. Each check's name gets its part's in front
# ("ok caches/insmod-mstat", and a skip's), and each part prints its own
# summary line, "# checks=N failed=N", which scripts/lib.sh's collect()
# adds up. Exits 1 if a part failed or is missing.
#
# A boot costs a stock kernel's guest some 5.5 s of CPU under TCG, the
# debug kernel's more: make check's small guests of one kernel and
# the same boot options share one.
#
# make check's boots of several parts, besides each kernel's counts guest
# (mstat_guests_counts) and the debug kernel's (mstat_debug_guests):
#
# guest-6.12-parts: the guest tests of a stock 6.12 that need no command
# line, CPU option or memory of their own, each as in a boot of its own:
# the whole-memory account with mstat loaded first thing, as at boot,
# the reconciliation against slabinfo and the cache of known live
# objects, the heap profile's known call chains, every load parameter at
# its limits, and, last, the controls under a lockdown raised at runtime,
# which no part after it could lift. On the newest kernel of the matrix
# the account and the chains.
# Run: check guest-6.12-parts --timeout=1200 \
#	parts="memory reconcile slabinfo chains params lockdown"
# Run: check guest-7.3-parts parts="memory chains"
#
# The slab layout mstat finds at load (mstat_slab.c) and reads on every
# kfree, under the boot options that change the allocator, and in
# Debian's -cloud config of 6.12: the ground truth and the per-cache test,
# every count exact (a layout refused, its log line saying why, fails the
# truth's cache_kfree), each checking that its options took effect and
# every named row's object size against /sys/kernel/slab (lib.sh:
# mstat_bootopts, mstat_objsize), on a clean console (slub_debug's and
# KFENCE's reports are splats). Options that do not conflict share a
# guest. Under KFENCE a re-created cache's struct may come from KFENCE's
# pool, so that guest does not require its address reused (no "-a"). No
# guest with slub_debug=-: Debian's 6.12 has CONFIG_SLUB_DEBUG_ON off, so
# that is how the plain 6.12 counts guest boots.
# Run: check guest-6.12-slub-debug-counts parts="truth caches" \
#	--timeout=900 '--append=slub_debug=FZPU CACHES_ARGS="-a"'
# Run: check guest-6.12-slab-opts-counts parts="truth caches" \
#	--timeout=900 \
#	'--append=slab_nomerge init_on_free=1 kfence.sample_interval=1 CACHES_ARGS=""'
# Run: check guest-6.12cloud-counts parts="truth caches" --timeout=900 \
#	'--append=CACHES_ARGS="-a"'
#
# The ground truth's own test: the broken build must fail it, on each
# pattern whose count it breaks (TRUTH_ARGS: "-x PATTERN" for each, then
# the patterns). Its names' offset is off by a word: validation must
# refuse it, and every row count on, by id, with no name (the per-cache
# part, -n). The account's, the exact blocks' and the bulk pages' parts
# expect their catches (ACCOUNT_BROKEN; EXACT_BROKEN: no exact block's
# sample cut, an unloaded module's sites named after the text there
# later; BULKPAGES_BROKEN: bulk pages never sampled); the page kinds'
# part judges each step by a false truth (KINDS_TAMPER).
# Run: check guest-6.12-counts-broken build=6.12-broken --timeout=900 \
#	parts="truth caches account exact bulkpages kinds" \
#	'--append=TRUTH_MEMCG=1 TRUTH_ARGS="-x kmalloc_large_var \
#	-x kmemdup_large -x kvmalloc_large -x cache_kfree -x cache_bulk \
#	-x cache_free_bulk -x kfree_bulk -x kfree_rcu -x memdup_user \
#	-x msg_msg -x bulk_fallback -x pages_exact -x vmalloc_areas \
#	-x vmap_areas -x kvmalloc_vmalloc -x percpu kmalloc_large_var \
#	kmemdup_large kvmalloc_large cache_kfree cache_bulk cache_free_bulk \
#	kfree_bulk kfree_rcu memdup_user msg_msg bulk_fallback pages_exact \
#	vmalloc_areas vmap_areas kvmalloc_vmalloc percpu"' \
#	'--append=CACHES_ARGS="-n -a" ACCOUNT_BROKEN=1 EXACT_BROKEN=1 \
#	BULKPAGES_BROKEN=1 KINDS_TAMPER=1'
set -u
. ./lib.sh

parts=$(sed -n 's/.*PARTS="\([^"]*\)".*/\1/p' /proc/cmdline)
[ -n "$parts" ] || { echo "not ok parts: no PARTS on the command line"; exit 1; }
rc=0
for p in $parts; do
	if [ ! -f "./$p.sh" ]; then
		echo "not ok $p: no ./$p.sh in the guest"
		echo "# checks=1 failed=1"
		rc=1
		continue
	fi
	diag "part $p"
	{ sh "./$p.sh"; echo "$?" >"/tmp/part-$p.rc"; } 2>&1 |
	while IFS= read -r line; do
		case $line in
		"ok "*)		echo "ok $p/${line#ok }" ;;
		"not ok "*)	echo "not ok $p/${line#not ok }" ;;
		*)		echo "$line" ;;
		esac
	done
	r=$(cat "/tmp/part-$p.rc" 2>/dev/null)
	diag "part $p: exit ${r:-none}"
	[ "${r:-1}" = 0 ] || rc=1
done
exit $rc
