# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC3043 # busybox ash has "local"
# Guest side of the reconciliation with the allocator's own counts
# (tests/helpers/reconcile.c, copied in as ./reconcile, measures): per
# kmalloc size class, mstat's change in live objects against the change
# in the kmalloc caches' active objects in /proc/slabinfo, over a window
# with a mixed workload (files made and removed, loopback HTTP, forks),
# and over an empty window beside it, which shows what the reads
# themselves leave. Checks that every class was found, and that the
# mixed window's differences, summed over the classes, are no larger
# than what the empty window and KFENCE's objects explain.
set -u
. ./lib.sh

cat >/tmp/workload.sh <<'EOT'
ip link set lo up
mkdir -p /tmp/www
dd if=/dev/zero of=/tmp/www/f bs=1k count=64 2>/dev/null
httpd -p 127.0.0.1:8080 -h /tmp/www
i=0
while [ $i -lt 100 ]; do
	mkdir -p /tmp/d$i
	echo $i >/tmp/d$i/f
	wget -q -O /dev/null http://127.0.0.1:8080/f
	/bin/true
	i=$((i + 1))
done
rm -rf /tmp/d*
killall httpd
EOT

check insmod insmod ./mstat.ko
sleep 1
./reconcile empty /bin/sleep 1 >/tmp/empty.out 2>&1
./reconcile mixed /bin/sh /tmp/workload.sh >/tmp/mixed.out 2>&1
cat /tmp/empty.out /tmp/mixed.out
n=$(sed -n 's/.* classes \([0-9]*\)$/\1/p' /tmp/mixed.out)
if [ "${n:-0}" -ge 12 ]; then ok "reconcile-classes ($n)"; else not_ok "reconcile-classes: ${n:-none}"; fi
e=$(sed -n 's/.*total |diff| \([0-9]*\) .*/\1/p' /tmp/empty.out)
d=$(sed -n 's/.*total |diff| \([0-9]*\) .*/\1/p' /tmp/mixed.out)
k=$(sed -n 's/.* kfence \(-*[0-9]*\) .*/\1/p' /tmp/mixed.out)
k=${k#-}
if [ -n "$d" ] && [ -n "$e" ] && [ "$d" -le $((2 * e + ${k:-0} + 4)) ]; then
	ok "reconcile-explained (|diff| $d, empty window $e, kfence $k)"
else
	not_ok "reconcile-explained: |diff| ${d:-?}, empty window ${e:-?}, kfence ${k:-?}"
fi
check rmmod rmmod mstat
finish
