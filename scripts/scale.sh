#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The scale bench (make bench's "Scale per possible CPU"; or alone): what
# mstat costs per possible CPU, in memory and in instructions per read of
# /proc/mstat, against /proc/slabinfo's and /proc/vmstat's reads in the
# same guests.
# One vCPU online, under qemu -icount shift=0,sleep=off (a guest ns is
# an instruction), scripts/guest/scale.sh in each guest:
#
# - 6.1, possible CPUs 1, 8, 64 and 255 as empty hotplug slots
#   (--smp 1,maxcpus=P: 6.1 counts QEMU's disabled MADT entries);
# - 6.12, possible CPUs 1, 8 and 64 booted online, all but CPU 0 then
#   taken offline (6.12 counts empty slots only under a hypervisor it
#   knows, which TCG is not), SCALE_612 (default "1 8 64") to change;
# - 7.3, the newest kernel of the matrix (three kretprobes, each an
#   objpool page per possible CPU), the same way, SCALE_73 (default
#   "1 16 64").
# SCALE_KERNELS (default "6.1 6.12 7.3"): only those kernels.
#
# With MSTAT_BENCH_BASE=REF, mstat as of git REF is measured the same way
# in guests of its own, beside. Prints a markdown table and the fitted
# law (least squares over the possible CPUs: a + b x P) to stdout; the
# guests' consoles in build/bench/scale/.
#
#   scripts/scale.sh
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cd "$MSTAT_TOP"
out=build/bench/scale
kernels=${SCALE_KERNELS:-6.1 6.12 7.3}
mkdir -p "$out"
mstat_setup_env || die "set-up failed; log: $mstat_setup_log"
mstat_build_tools readlat
# 7.3 from the kernel matrix (scripts/matrix.sh), in its suite's root.
case " $kernels " in
*" 7.3 "*)
	scripts/matrix.sh >"$out/matrix.env" || die "kernel matrix set-up failed"
	# shellcheck source=/dev/null
	. "$out/matrix.env"
	# shellcheck disable=SC2034 # read as ${!kdir} and ${!vmlinuz}
	K73_KDIR=$(mstat_km 7.3 KDIR) K73_VMLINUZ=$(mstat_km 7.3 VMLINUZ)
	K73_ROOT=$(mstat_km 7.3 ROOT)
	;;
esac
# Built anew: a build left from an older tree would be measured as this one.
for v in $kernels; do
	kdir=K${v/./}_KDIR root=()
	[ "$v" = 7.3 ] && root=(--root "$K73_ROOT")
	scripts/build.sh ${root[@]+"${root[@]}"} "${!kdir}" "build/$v" \
		>"$out/build-$v.log" 2>&1 ||
		die "cannot build for $v, log: $out/build-$v.log"
done
builds=(cur)
if [ -n "${MSTAT_BENCH_BASE:-}" ]; then
	for v in $kernels; do
		[ "$v" = 7.3 ] && continue	# the baseline: 6.1 and 6.12
		kdir=K${v/./}_KDIR
		mstat_build_base "$MSTAT_BENCH_BASE" "${!kdir}" "$out/base-$v" ||
			die "cannot build MSTAT_BENCH_BASE for $v"
	done
	builds+=(base)
fi

# one KERNEL_ID BUILD P ARGS...: a guest; its "scale:" lines, tagged.
one() {
	local v=$1 b=$2 p=$3 ko vmlinuz=K${1/./}_VMLINUZ log
	shift 3
	ko=build/$v/mstat.ko
	[ "$b" = base ] && ko=$out/base-$v/mstat.ko
	log=$out/$v-$b-$p.console
	scripts/guest.sh --kernel "${!vmlinuz}" --script scripts/guest/scale.sh \
		--ko "$ko" --file build/tools/readlat:/mstat/readlat \
		--icount on --mem 2G --timeout 3600 --log "$log" "$@" \
		>"$log.out" 2>&1 || die "guest $v $b P=$p failed: $log"
	tr -d '\r' <"$log" | sed -n "s/^scale: /$v $b /p"
}

lines=$out/lines
: >"$lines"
for b in "${builds[@]}"; do
	case " $kernels " in *" 6.1 "*)
		for p in 1 8 64 255; do
			one 6.1 "$b" "$p" --smp "1,maxcpus=$p" >>"$lines"
		done ;;
	esac
	case " $kernels " in *" 6.12 "*)
		for p in ${SCALE_612:-1 8 64}; do
			one 6.12 "$b" "$p" --smp "$p" --append SCALE_OFFLINE=1 \
				>>"$lines"
		done ;;
	esac
	# The baseline (MSTAT_BENCH_BASE) is measured on 6.1 and 6.12 only.
	case " $kernels " in *" 7.3 "*)
		[ "$b" = base ] ||
		for p in ${SCALE_73:-1 16 64}; do
			one 7.3 "$b" "$p" --smp "$p" --append SCALE_OFFLINE=1 \
				>>"$lines"
		done ;;
	esac
done

# The table: per kernel, build and P, mstat's figures and the files'.
awk '
function kv(k,   i, n, a) {
	for (i = 3; i <= NF; i++) {
		n = split($i, a, "=")
		if (a[1] == k)
			return a[2]
	}
	return ""
}
$3 ~ /^ko=/ { key = $1 " " $2 " " kv("possible"); mem[key] = kv("mem_kib")
	pc[key] = kv("percpu_kib"); vm[key] = kv("vmalloc_kib")
	ipi[key] = kv("read_ipi"); exp_[key] = kv("read_rcu_expedited")
	order[++n] = key; on[key] = kv("online") }
$3 ~ /^file=/ { key = $1 " " $2 " " kv("possible")
	if (kv("file") == "/proc/slabinfo") slab[key] = kv("read")
	else vms[key] = kv("read") }
END {
	print "| kernel | mstat | possible CPUs | online | memory KiB (percpu + vmalloc + slab) | percpu KiB | vmalloc KiB | read /proc/mstat, ipi (insns) | rcu_expedited (insns) | /proc/slabinfo (insns) | /proc/vmstat (insns) | mstat / slabinfo |"
	print "|---|---|---|---|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= n; i++) {
		k = order[i]; split(k, f, " ")
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.2f |\n",
			f[1], f[2], f[3], on[k], mem[k], pc[k], vm[k], ipi[k],
			exp_[k], slab[k], vms[k], ipi[k] / slab[k]
		g = f[1] " " f[2]
		sx[g] += f[3]; sy[g] += mem[k]; sr[g] += ipi[k]
		sxx[g] += f[3] * f[3]; sxy[g] += f[3] * mem[k]
		sxr[g] += f[3] * ipi[k]; cnt[g]++
	}
	print ""
	for (g in cnt) {
		d = cnt[g] * sxx[g] - sx[g] * sx[g]
		if (d == 0) continue
		bm = (cnt[g] * sxy[g] - sx[g] * sy[g]) / d
		am = (sy[g] - bm * sx[g]) / cnt[g]
		br = (cnt[g] * sxr[g] - sx[g] * sr[g]) / d
		ar = (sr[g] - br * sx[g]) / cnt[g]
		printf "- %s: memory = %.0f KiB + %.1f KiB x P; a read (ipi) = %.0f + %.1f x P instructions\n",
			g, am, bm, ar, br
	}
}' "$lines"

# The snapshot's walk of the per-CPU free lists (mstat_pcp_free_pages(),
# in mstat_kernel_read(), once a snapshot): every populated zone of every
# online node, every online CPU. On 6.12, with P vCPUs online in N NUMA
# nodes (scripts/guest/pcp-cost.sh: the function's instructions on the
# guest clock, ftrace's function_graph), SCALE_PCP (default "1:1 4:1
# 16:1 16:2", P:N) to change; the fit is least squares over the lists
# walked, online CPUs x populated zones.
case " $kernels " in *" 6.12 "*)
	pcp=$out/pcp
	: >"$pcp"
	for pn in ${SCALE_PCP:-1:1 4:1 16:1 16:2}; do
		p=${pn%:*} n=${pn#*:} log=$out/pcp-$p-$n.console
		scripts/guest.sh --kernel "$K612_VMLINUZ" \
			--script scripts/guest/pcp-cost.sh --ko build/6.12/mstat.ko \
			--smp "$p" --numa "$n" --mem 2G --icount on --timeout 1800 \
			--log "$log" >"$log.out" 2>&1 ||
			die "guest pcp P=$p N=$n failed: $log"
		tr -d '\r' <"$log" | sed -n 's/^pcp: //p' >>"$pcp"
	done
	echo
	awk '
	function kv(k,   i, n, a) {
		for (i = 1; i <= NF; i++) {
			n = split($i, a, "=")
			if (a[1] == k)
				return a[2]
		}
		return ""
	}
	BEGIN {
		print "| online CPUs | nodes | populated zones | lists walked | mstat_kernel_read() (insns, median of 21) |"
		print "|---|---|---|---|---|"
	}
	{
		x = kv("online") * kv("zones"); y = kv("median")
		printf "| %s | %s | %s | %d | %s |\n", kv("online"), kv("nodes"),
			kv("zones"), x, y
		n++; sx += x; sy += y; sxx += x * x; sxy += x * y
	}
	END {
		d = n * sxx - sx * sx
		if (d == 0) exit
		b = (n * sxy - sx * sy) / d
		a = (sy - b * sx) / n
		printf "\n- mstat_kernel_read() = %.0f + %.1f x lists instructions; at 384 CPUs online in 8 nodes (10 populated zones: DMA, DMA32 and 8 Normal), %.0f instructions a snapshot\n",
			a, b, a + b * 3840
	}' "$pcp"
	;;
esac
