#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel in qemu (TCG) with a busybox initramfs, run a guest script
# in it and keep the serial console log. Never loads anything on the host.
#
#   scripts/guest.sh --kernel VMLINUZ --log LOGFILE --script GUEST_SCRIPT
#	[--ko FILE.ko]... [--file SRC:DEST]... [--prog NAME]... [--smp N] [--mem SIZE]
#	[--timeout SECONDS] [--append "extra cmdline"] [--tcg single|multi]
#	[--icount on] [--arch x86_64|arm64] [--hostfwd HOSTPORT:GUESTPORT]...
#	[--numa N] [--cpu FLAGS] [--boot pvh|bzimage]
#
# Modules are copied to /mstat/<basename>, each --file to its DEST (a
# directory with what it holds, links kept), each --prog (a program of
# this host's, as Debian installed it: bpftool) to /mstat/NAME with the
# libraries ldd says it loads at their paths, the script to /mstat/run.sh
# with the guest-side library scripts/guest/lib.sh beside it as
# /mstat/lib.sh (the script sources it: ". ./lib.sh"), and it runs with
# cwd /mstat; its output and the kernel log (loglevel=7) go to
# the console. Exit status: the script's, 124 on timeout, 125 if the guest
# never reported one (panic, hang in init), 126 if the kernel died or hung
# before the script started (an early-boot oops, a silent console: the
# boot watchdog below; scripts/lib.sh's guest boots it once more, and
# says so). Defaults: --smp 2 --mem 1G
# --timeout 600. --icount on runs qemu with "-icount shift=0,sleep=off"
# (single-threaded TCG): the guest clock then advances one nanosecond per
# instruction, so a guest-side ns figure is an instruction count.
#
# --hostfwd gives the guest a network card, qemu's user-mode network
# (slirp, restrict=on: the guest reaches nothing, not even the host) on a
# virtio-net-pci device, with host TCP port HOSTPORT on 127.0.0.1 only
# forwarded to the guest's GUESTPORT (at 10.0.2.15; it sees the host's
# connections come from 10.0.2.2). Without it the guest has no network.
# The guest script loads the driver (Debian's kernels build it as a
# module: mstat_guest_netmods in lib.sh) and sets eth0 up.
#
# --numa N (x86_64) gives the guest N NUMA nodes: --mem split evenly
# (a RAM backend of MEM/N a node: MEM must divide so, in MiB), and the
# --smp vCPUs (a multiple of N) in N sockets, socket i node i: CPUs of
# one node share a package and its cache (CPUs of one package on two
# nodes make 6.12 warn at boot, "llc-sibling ... is not on the same
# node"). The guest sees them as /sys/devices/system/node/nodeI.
#
# --cpu FLAGS (x86_64) adds qemu CPU flags to "-cpu max,la57=off", as
# "cx16=off": a CPU without CMPXCHG16B, whose kernel then takes the
# emulated per-CPU double-word compare-and-exchange in SLUB's fast path
# (this_cpu_cmpxchg16b_emu).
#
# --boot: an x86 bzImage with vmlinux.pvh beside it (scripts/matrix.sh
# makes one for each of Debian's x86 kernels it fetches: the ELF kernel
# the bzImage's decompressor unpacks) boots that at its PVH entry point,
# by default (pvh): the same kernel without the decompressor's work
# under TCG, and without KASLR, which the decompressor does. A 6.12
# guest's boot to a one-line script took 5.5 s of CPU and 6.6 s against
# 7.2 s and 8.6 s, four boots each, alternating (scripts/guest.sh by
# hand, a 2-CPU machine alone). --boot bzimage boots the image
# as a machine's boot loader does, decompressor and KASLR: make check's
# smoke and module tests on 6.1 and 6.12 boot so.
#
# --arch arm64 boots qemu-system-aarch64's virt machine instead (-cpu max,
# console ttyAMA0) with Debian's arm64 busybox ($KA64_BUSYBOX, see
# scripts/setup.sh) in the initramfs; the kernel is a plain arm64 Image
# (or Image.gz).
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

kernel='' logfile='' script='' smp=2 mem=1G tmo=600 append='' tcg=single
icount=() arch=x86_64 numa=1 cpuflags='' boot=pvh
kos=() files=() fwds=

while [ $# -gt 0 ]; do
	[ $# -ge 2 ] || die "$1 needs an argument"
	case $1 in
	--kernel)	kernel=$2 ;;
	--log)		logfile=$2 ;;
	--script)	script=$2 ;;
	--ko)		kos+=("$2") ;;
	--file)		files+=("$2") ;;
	--prog)		[[ $2 =~ ^[a-z0-9_.-]+$ ]] ||
				die "--prog wants a program's name, got $2"
			p=$(command -v "$2") ||
				die "--prog $2: not installed (scripts/setup.sh installs it)"
			files+=("$p:/mstat/$2")
			while read -r l; do
				files+=("$l:$l")
			done < <(ldd "$p" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
					      $1 ~ /^\// { print $1 }') ;;
	--smp)		smp=$2 ;;
	--mem)		mem=$2 ;;
	--timeout)	tmo=$2 ;;
	--append)	append=$2 ;;
	--tcg)		tcg=$2 ;;
	--icount)	[ "$2" = on ] || die "--icount: only \"on\""
			icount=(-icount "shift=0,sleep=off") tcg=single ;;
	--arch)		arch=$2 ;;
	--boot)		case $2 in
			pvh|bzimage)	boot=$2 ;;
			*)	die "--boot: pvh or bzimage, not $2" ;;
			esac ;;
	--cpu)		[[ $2 =~ ^[a-z0-9_.=-]+(,[a-z0-9_.=-]+)*$ ]] ||
				die "--cpu wants qemu CPU flags (a=b,c=d), got $2"
			cpuflags=,$2 ;;
	--numa)		[[ $2 =~ ^[1-9][0-9]*$ ]] ||
				die "--numa wants a number of nodes, got $2"
			numa=$2 ;;
	--hostfwd)	[[ $2 =~ ^[0-9]+:[0-9]+$ ]] ||
				die "--hostfwd wants HOSTPORT:GUESTPORT, got $2"
			fwds+=",hostfwd=tcp:127.0.0.1:${2%:*}-:${2#*:}" ;;
	*)		die "unknown option $1 (see the header of $0)" ;;
	esac
	shift 2
done
[ -f "$kernel" ] || die "--kernel: no such file: $kernel"
[ -f "$script" ] || die "--script: no such file: $script"
[ -n "$logfile" ] || die "--log is required"
[ -z "$cpuflags" ] || [ "$arch" = x86_64 ] || die "--cpu: x86_64 only"
case $arch in
x86_64)	busybox=/bin/busybox ;;
arm64)	busybox=${KA64_BUSYBOX:-}
	[ -f "$busybox" ] || die "--arch arm64: no arm64 busybox at" \
		"\$KA64_BUSYBOX ($busybox): run scripts/setup.sh" ;;
*)	die "--arch: x86_64 or arm64, not $arch" ;;
esac
numa_args=()
if [ "$numa" -gt 1 ]; then
	[ "$arch" = x86_64 ] || die "--numa: x86_64 only"
	case $mem in
	*[Gg])	mib=$(( ${mem%[Gg]} * 1024 )) ;;
	*[Mm])	mib=${mem%[Mm]} ;;
	*)	mib=$mem ;;
	esac
	[[ $mib =~ ^[0-9]+$ ]] || die "--numa: --mem $mem is not N, NM or NG"
	[ $((mib % numa)) -eq 0 ] ||
		die "--numa $numa: --mem $mem ($mib MiB) does not split evenly"
	[ $((smp % numa)) -eq 0 ] ||
		die "--numa $numa: --smp $smp is not a multiple of it"
	# Node i: MiB/N of RAM, and socket i's CPUs, [i * per, (i + 1) * per).
	per=$((smp / numa))
	for ((i = 0; i < numa; i++)); do
		numa_args+=(-object "memory-backend-ram,id=mstat-ram$i,size=$((mib / numa))M"
			    -numa "node,nodeid=$i,memdev=mstat-ram$i,cpus=$((i * per))-$(((i + 1) * per - 1))")
	done
	smp="$smp,sockets=$numa,cores=$per,threads=1"
fi
mkdir -p "$(dirname "$logfile")"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir -p "$root"/{bin,dev,proc,sys,tmp,mstat}
chmod 1777 "$root/tmp"

# busybox --list names busybox itself: linking it would replace the binary.
# The host's busybox names the applets: an arm64 one does not run here,
# and setup.sh takes both from the same Debian release. One process
# makes the 268 links: an ln each took 0.45 s of CPU a guest, Debian's
# python3 0.06 s (by hand; Debian's, not
# whatever python3 PATH finds first: a pyenv shim took 0.3 s).
cp "$busybox" "$root/bin/busybox"
py=/usr/bin/python3
[ -x "$py" ] || py=python3
# shellcheck disable=SC2046 # the applets' names, split
"$py" -c '
import os, sys
for a in sys.argv[2:]:
    if a != "busybox":
        os.symlink("busybox", os.path.join(sys.argv[1], a))
' "$root/bin" $(busybox --list) || die "cannot link busybox's applets"

cat >"$root/init" <<'EOF'
#!/bin/sh
export PATH=/bin
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
cd /mstat
echo "MSTAT-GUEST-START"
/bin/sh /mstat/run.sh </dev/null
echo "MSTAT-GUEST-EXIT=$?"
reboot -f
EOF
chmod 755 "$root/init"

cp "$script" "$root/mstat/run.sh"
cp "$MSTAT_TOP/scripts/guest/lib.sh" "$root/mstat/lib.sh"
for ko in ${kos[@]+"${kos[@]}"}; do
	cp "$ko" "$root/mstat/"
done
for spec in ${files[@]+"${files[@]}"}; do
	src=${spec%:*} dest=${spec##*:}
	case $spec in
	*:/*)	;;
	*)	die "--file wants SRC:/ABSOLUTE/DEST, got $spec" ;;
	esac
	mkdir -p "$root$(dirname "$dest")"
	if [ -d "$src" ]; then
		cp -a "$src" "$root$dest"
	else
		cp -L "$src" "$root$dest"
	fi
done

# Not compressed: the kernel's inflate of a gzip'd one is instrumented on
# the debug kernel (KASAN), and its smoke guest took 26.1 s of CPU with
# gzip -1 against 14.7 s without, one after the other alone; a stock
# 6.12 guest's, 6.9 and 6.5 against 5.8 and 6.9 s: no difference
# (scripts/guest.sh by hand).
(cd "$root" && find . | cpio -o -H newc -R 0:0 --quiet) >"$tmp/initrd"

# TCG with one host thread for all vCPUs by default: with multi-threaded
# TCG, a 6.12 guest now and then dies of "Oops: int3" when tracepoints are
# switched on or off while other vCPUs run the patched code, with or
# without mstat loaded (cross-modifying code under MTTCG); --tcg multi
# gives true parallelism to tests that do not toggle tracepoints under load.
#
# x86: -cpu max, but without 5-level paging: with LA57 a debug (KASAN) 6.12
# kernel now and then reports a false "BUG: KASAN: wild-memory-access" at
# boot, from an interrupt that lands while identify_cpu() has cleared the
# LA57 capability bit (LKML, "kasan: Fix false-positive wild-memory-access
# on x86 under 5-level paging", June 2026).
# arm64: the virt machine (GICv2, PL011 UART, PSCI for SMP, CPU hotplug
# and reset: "reboot -f" ends qemu under -no-reboot) and -cpu max, with
# the implementation-defined pointer-authentication hash instead of the
# architected QARMA5, which TCG computes slowly (kunit.py's arm64 qemu
# config does the same).
#
# loglevel=7 puts every kernel message but debug on the console, so splats
# and KTAP land in the log even if the guest dies; printk.time=1 stamps
# them on kernels built without PRINTK_TIME; panic=-1 with -no-reboot ends
# qemu on a panic. rcupdate.rcu_cpu_stall_suppress_at_boot=1: no RCU
# stall warning before init starts: under TCG on a loaded host the boot's
# switch to the TSC clocksource can leap the clock, and 6.12's -cloud
# kernel, 67 s into a boot of a cold make check, reported the
# grace-period kthread "starved for 16009 jiffies" as it did, a splat
# with nothing of mstat's loaded yet. Stalls after boot are still caught.
# cryptomgr.notests: no self-test of each crypto algorithm as it
# registers (Debian's kernels run them), which mstat and its tests do
# not use: a 6.12 guest's boot to a one-line script took 5.5 s of CPU
# against 6.4 s, three boots each, alternating, alone, the same 6.6 s of
# wall-clock time (scripts/guest.sh by hand).
#
# x86: qemu's pc machine, or its microvm for a kernel built without ACPI
# (the .config of the build tree the image lies in says so: the debug
# test kernel, kunit/.kunitconfig). On pc, SeaBIOS gives such a kernel an
# MP table of one CPU; microvm's qboot lists every vCPU. Such a kernel
# has no HPET or PM timer to calibrate the TSC against, and its PIT
# calibration fails on a loaded host: it then hung in boot on the
# jiffies clocksource. The TSC under TCG is the host's: its frequency,
# measured here (scripts/tsc-khz.c), is given as tsc_early_khz, and
# tsc=reliable keeps the clocksource watchdog, itself on jiffies, from
# throwing it out. reboot=t: a triple fault, which -no-reboot turns into
# qemu's exit (the kernel's default reboot restarted the guest instead).
# microvm has no PCI and no NUMA, and -icount changes the TSC: --hostfwd,
# --numa and --icount want pc, and a kernel with ACPI.
machine=pc
kconfig=$(dirname "$kernel")/../../../.config
if [ "$arch" = x86_64 ] && [ -f "$kconfig" ] &&
   grep -qx '# CONFIG_ACPI is not set' "$kconfig"; then
	machine=microvm,acpi=off
	if [ "$numa" -gt 1 ] || [ -n "$fwds" ] || [ ${#icount[@]} -gt 0 ]; then
		die "$kernel has no ACPI (microvm): no --numa, --hostfwd or --icount"
	fi
	if ! gcc -O2 -Wall -o "$tmp/tsc-khz" "$MSTAT_TOP/scripts/tsc-khz.c" ||
	   ! khz=$("$tmp/tsc-khz"); then
		die "no TSC frequency for $kernel (scripts/tsc-khz.c)"
	fi
	append="tsc_early_khz=$khz tsc=reliable reboot=t $append"
fi
case $arch in
x86_64)	qemu=(qemu-system-x86_64 -M "$machine" -cpu "max,la57=off$cpuflags")
	console=ttyS0 ;;
arm64)	qemu=(qemu-system-aarch64 -M virt -cpu "max,pauth-impdef=on")
	console=ttyAMA0 ;;
esac
image=$kernel how=
if [ "$arch" = x86_64 ] && [ "$boot" = pvh ] &&
   [ -s "$(dirname "$kernel")/vmlinux.pvh" ]; then
	image=$(dirname "$kernel")/vmlinux.pvh how=", PVH"
fi
nic=(-nic none)
[ -z "$fwds" ] || nic=(-nic "user,model=virtio-net-pci,restrict=on$fwds")
start=$(date +%s%N)
rc=0
timeout --kill-after=10 "$tmo" "${qemu[@]}" \
	-accel "tcg,thread=$tcg" -smp "$smp" -m "$mem" \
	${icount[@]+"${icount[@]}"} ${numa_args[@]+"${numa_args[@]}"} \
	-nographic -monitor none -serial stdio "${nic[@]}" -no-reboot \
	-kernel "$image" -initrd "$tmp/initrd" \
	-append "console=$console loglevel=7 printk.time=1 panic=-1 rcupdate.rcu_cpu_stall_suppress_at_boot=1 cryptomgr.notests $append" \
	</dev/null >"$logfile" &
qpid=$!

# The boot watchdog. Under TCG a kernel now and then hangs silently in
# early boot, before anything of ours runs: 7.3.4 bringing up its second
# vCPU ("smp: Bringing up secondary CPUs ..." the console's last line),
# once in a cold make check, where the guest then sat out its whole
# --timeout (602 s, 342 s of CPU). The longest silence of a boot that
# went on, in that run's 83 guests, was 13 s of guest time (the debug
# kernel unpacking its initramfs under KASAN). So a console that has not
# said MSTAT-GUEST-START and has been silent for BOOT_SILENCE seconds
# (default 120) is a hung boot: qemu is stopped and the exit status is
# 126, the kernel's death before the script (scripts/lib.sh boots it
# once more). Once the script has started, only --timeout applies.
silence=${MSTAT_BOOT_SILENCE:-120} size=-1 quiet=0
while kill -0 "$qpid" 2>/dev/null; do
	sleep 2
	tr -d '\r' <"$logfile" | grep -qx 'MSTAT-GUEST-START' && break
	# The file is made by qemu's shell in the background: 0 until then.
	s=$(stat -c %s "$logfile" 2>/dev/null) || s=0
	if [ "$s" != "$size" ]; then
		size=$s quiet=0
		continue
	fi
	quiet=$((quiet + 2))
	if [ "$quiet" -ge "$silence" ]; then
		log "boot hung: no console output for $quiet s and no MSTAT-GUEST-START; the last line: $(tr -d '\r' <"$logfile" | tail -n 1)"
		# timeout(1) may have gone with qemu already: set -e must
		# not make its absence exit 1 (soak's boot watchdog test,
		# 1 boot in 5 beside other guests, 2026-12-07).
		pkill -KILL -P "$qpid" 2>/dev/null || true
		kill -KILL "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
		exit 126
	fi
done
wait "$qpid" || rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
log "guest $kernel: boot+run $((ms / 1000)).$((ms % 1000 / 100)) s (TCG, $arch$how${cpuflags:+, cpu flags ${cpuflags#,}})"

if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	log "guest timed out after $tmo s"
	exit 124
fi
[ $rc -eq 0 ] || log "qemu exited with $rc"
marker=$(tr -d '\r' <"$logfile" |
	 sed -n 's/^MSTAT-GUEST-EXIT=\([0-9]*\)$/\1/p' | tail -n 1)
if [ -z "$marker" ]; then
	if ! tr -d '\r' <"$logfile" | grep -qx 'MSTAT-GUEST-START'; then
		log "the kernel died before the guest script started (no MSTAT-GUEST-START in $logfile)"
		exit 126
	fi
	log "no MSTAT-GUEST-EXIT marker in $logfile"
	exit 125
fi
exit "$marker"
