# SPDX-License-Identifier: GPL-2.0
# Guest side of the KUnit run: load mstat, then every test module; each
# prints its KTAP document to the kernel log. Runs in /mstat.
set -u
insmod ./mstat.ko || exit 1
for t in ./*_kunit.ko; do
	insmod "$t" || echo "insmod $t failed"
done
for t in ./*_kunit.ko; do
	rmmod "$(basename "$t" .ko)"
done
rmmod mstat || exit 1
echo kmemleak-scan
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak
fi
