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
