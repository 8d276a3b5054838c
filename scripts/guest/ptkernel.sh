# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The kernel's own page tables, which NR_PAGETABLE leaves out before 6.16
# (kernel_pte_kernel_uncounted 1): 64 vmalloc(2 MiB + 4 KiB) areas held by
# tests/hold/mstat_hold.ko map a span of kernel address space, and each
# 2 MiB region of it mapped for the first time takes a PTE page from
# __pte_alloc_kernel(). The truth is the kernel's own: a kprobe event on
# __pte_alloc_kernel() (tracefs), one page a call, counted around the
# module's load. `mstat memory`'s "of which kernel page tables, sampled"
# line (page samples whose innermost known frame is that function, at
# profile_rate=4096: a page sampled with probability 1 - 1/e) must move
# by it, within four of its standard errors.
#
#  - ptkernel-no-drops: every sample kept (the profile's addr_drops 0);
#  - ptkernel: the line's move within 4 s.e. of the truth;
#  - ptkernel-tamper: not within them of a false truth, two more PTE
#    pages an area than the kernel took (how many areas land in 2 MiB
#    regions mapped before, by earlier vmalloc()s whose address space
#    was purged and given again, varies: a counts guest once saw 6
#    calls, where three times the truth was within 4 s.e.);
#  - ptkernel-counted: where the kernel counts them (6.16 on), no line.
#
# Groups: account, pages. Runs in /mstat with mstat.ko, mstat_hold.ko.
# Kernels: 6.12 5.10 6.1 7.3
set -u
. ./lib.sh

# At that rate the areas' own 128 MiB of pages are some 32,000 samples:
# room for all of them, so that none is dropped (ptkernel-no-drops), a
# drop the estimate could not tell from a page not allocated.
check insmod-mstat insmod ./mstat.ko profile_pages=1 profile_rate=4096 \
	profile_addrs=131072
un=$(awk '$1 == "kernel_pte_kernel_uncounted" { print $2 }' /proc/mstat)
check read-0 read_account /tmp/k0
if [ "${un:-0}" != 1 ]; then
	check ptkernel-counted [ -z "$(val /tmp/k0 unexplained.pt_kernel_sampled)" ]
	check rmmod-mstat rmmod mstat
	finish
fi
mount -t tracefs nodev "$T" 2>/dev/null
check ptk-probe sh -c "echo 'p:mstat_ptk __pte_alloc_kernel' >>$T/kprobe_events &&
	echo >$T/trace && echo 1 >$T/events/kprobes/mstat_ptk/enable"
n=64 size=$(((2 << 20) + 4096))
check insmod-hold insmod ./mstat_hold.ko vmalloc=$n vmalloc_size=$size
echo 0 >"$T"/events/kprobes/mstat_ptk/enable
calls=$(grep -c 'mstat_ptk:' "$T"/trace)
check read-1 read_account /tmp/k1
echo '-:mstat_ptk' >>"$T"/kprobe_events
want=$((calls * 4096))
est=$(($(val /tmp/k1 unexplained.pt_kernel_sampled) - $(val /tmp/k0 unexplained.pt_kernel_sampled)))
line=$(grep '"line": "unexplained.pt_kernel_sampled"' /tmp/account.json)
se=$(echo "$line" | sed -n 's/.*+-\([0-9]*\) (1 s.e.).*/\1/p')
diag "kernel page tables: estimated $est +- ${se:-none}; truth $want ($calls calls of __pte_alloc_kernel)"
drops=$(sed -n 's/.* addr_drops \([0-9]*\) .*/\1/p' /proc/mstat_sites)
check ptkernel-no-drops [ "${drops:-1}" = 0 ]
check ptkernel within "$est" "$want" $((4 * ${se:-0}))
apart() { ! within "$est" "$1" $((4 * ${se:-0})); }
check ptkernel-tamper apart $((want + 2 * n * 4096))
check rmmod-hold rmmod mstat_hold
check rmmod-mstat rmmod mstat
finish
