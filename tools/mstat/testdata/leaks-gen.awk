# SPDX-License-Identifier: GPL-2.0
#
# A synthetic replay directory for `mstat leaks --from` (test.sh): the
# reads of /proc/mstat and /proc/mstat_sites (format 2.2) a machine would
# have given, every I seconds for D seconds, with allocation patterns
# whose truth is known. Its input: testdata/mstat-1.2.txt (the template
# of /proc/mstat: its kmalloc_class rows get the patterns' live bytes,
# and the patterns' own caches are added after its cache rows), then a
# spec, a pattern a line:
#
#   NAME KIND key=value...
#
# KIND is how its objects die:
#   leak       never
#   life       L seconds after their birth (life=L)
#   sawtooth   all at once, every period=P seconds
#   plateau    the oldest, once cap=N objects are live (a bounded cache
#              that fills, then replaces)
#   risefall   the live count follows cap x (1 - cos(2 pi t / period)) / 2:
#              allocated as it rises, the oldest freed as it falls
#   fill       never, but allocations slow down: rate x exp(-t / tau)
#   churn      after an exponential time of mean life=L (background)
#   walk       the live count a random walk of cap=N steps a second, the
#              oldest freed (background that wanders)
# keys: size (bytes), rate (objects a second), cache (kmalloc-SIZE: the
# kmalloc class; else a cache of its own), cgroup (id, softirq, -), node,
# fn (the leaf function), from / until (seconds: when it allocates),
# jitter (rate's relative noise per step), irq (soft or hard: its stack
# an interrupt's, a timer's, then the frames of the context it
# interrupted), split (N: its sampled objects dealt out among N rows, one
# per interrupted context; with irq=soft, every fourth one ksoftirqd's),
# keep (T:L: one object more, sampled, born at T and freed L seconds
# later), poisson (1: its allocations arrive as a Poisson process of its
# rate, not one every 1/rate seconds).
#
#   awk -v dir=DIR -v D=600 -v I=10 -v R=524288 -v seed=1 -v warm=300 \
#       -v cachecol=0 [-v forget=T[,T...]] -f leaks-gen.awk \
#       testdata/mstat-1.2.txt SPEC
#
# forget: at each time T the module drops every entry of its address
# table, as a source switched off or on, a free probe that missed calls
# or a reset make it: the sampled objects then live leave the reads
# (they stay live, in the exact counts) and addr_phantoms grows by as
# many.
#
# hist=1 (with cachecol=1): the reads are format 2.5, with the module's history: it was
# loaded at -warm (load=T: at T instead), so history_ms and counts_ms
# are the time since then; each forget restarts history_ms (the module
# can no longer vouch for the ages before it), and counts its dropped
# samples freed and in its rows' drops, as the module does (nodrops=1:
# format 2.4, the drops freed alone, as a module before 2.5 did).
#
# Time runs from -warm (patterns start then) to D in steps of 0.1 s; read
# N is taken at N x I; DIR/NNNN.time has 1000 + that time. Every object
# is sampled with probability 1 - exp(-size/R), as the module does.
BEGIN {
	if (!I) I = 10
	if (!D) D = 600
	if (!R) R = 524288
	if (warm == "") warm = 300
	srand(seed ? seed : 1)
	nforget = forget == "" ? 0 : split(forget, fgt, ",")
	step = 0.1
	nextid = 1001
	if (load == "") load = -warm
	hstart = load + 0
}

FNR == NR { tpl[++ntpl] = $0; next }

/^#/ || NF == 0 { next }

{
	p = ++np
	name[p] = $1
	kind[p] = $2
	size[p] = 64; rate[p] = 1; cache[p] = "kmalloc-64"; cg[p] = "-"
	node[p] = 0; fn[p] = $1 "_alloc"; from[p] = -warm; until[p] = 1e9
	life[p] = 60; period[p] = 60; cap[p] = 100; tau[p] = 60; jit[p] = 0
	nsub[p] = 1; irq[p] = ""
	for (i = 3; i <= NF; i++) {
		k = $i; v = $i
		sub(/=.*/, "", k); sub(/^[^=]*=/, "", v)
		if (k == "size") size[p] = v + 0
		else if (k == "rate") rate[p] = v + 0
		else if (k == "cache") cache[p] = v
		else if (k == "cgroup") cg[p] = v
		else if (k == "node") node[p] = v
		else if (k == "fn") fn[p] = v
		else if (k == "from") from[p] = v + 0
		else if (k == "until") until[p] = v + 0
		else if (k == "life") life[p] = v + 0
		else if (k == "period") period[p] = v + 0
		else if (k == "cap") cap[p] = v + 0
		else if (k == "tau") tau[p] = v + 0
		else if (k == "jitter") jit[p] = v + 0
		else if (k == "split") nsub[p] = v + 0
		else if (k == "irq") irq[p] = v
		else if (k == "poisson") pois[p] = v + 0
		else if (k == "keep") { keept[p] = v + 0; sub(/^[^:]*:/, "", v); keepl[p] = v + 0 }
		else { print "leaks-gen: bad key " k > "/dev/stderr"; exit 2 }
	}
	if (cache[p] ~ /^kmalloc-/) {
		cls[p] = substr(cache[p], 9)
		if (cls[p] ~ /k$/) cls[p] = (cls[p] + 0) * 1024
	} else if (!(cache[p] in cid)) {
		cid[cache[p]] = nextid++
		csize[cache[p]] = size[p]
	}
	acc[p] = 0
	head[p] = 1; tail[p] = 0	# the live objects, oldest first
	shead[p] = 1; stail[p] = 0	# the sampled ones among them
}

# Object o: pattern, birth, death ("none": not scheduled), sampled.
function alloc(p, t,   o) {
	o = ++nobj
	opat[o] = p; obirth[o] = t
	osmp[o] = rand() < 1 - exp(-size[p] / R) && t >= load
	q[p, ++tail[p]] = o
	live[p]++
	if (osmp[o]) {
		sallocs[p]++; sbytes[p] += size[p]
		sq[p, ++stail[p]] = o	# the sampled ones, for the reads
	}
	if (kind[p] == "life") odeath[o] = t + life[p]
	else if (kind[p] == "churn") odeath[o] = t - life[p] * log(1 - rand())
	else if (kind[p] == "sawtooth") odeath[o] = (floor(t / period[p] + 1e-9) + 1) * period[p]
	else odeath[o] = "none"
	if (odeath[o] != "none") {
		ds = int(odeath[o] / step + 0.5)
		if (ds <= cur)
			ds = cur + 1	# the tick has freed its own already
		due[ds] = due[ds] " " o
	}
}

function free_obj(o,   p) {
	p = opat[o]
	if (ogone[o]) return
	ogone[o] = 1
	live[p]--
	if (osmp[o]) { sfrees[p]++; sfbytes[p] += size[p] }
}

# Free pattern p's oldest live object.
function free_oldest(p) {
	while (head[p] <= tail[p] && ogone[q[p, head[p]]])
		head[p]++
	if (head[p] <= tail[p])
		free_obj(q[p, head[p]++])
}

function floor(x) { return x == int(x) || x >= 0 ? int(x) : int(x) - 1 }

# Drop every sampled object from the reads (the address table lost).
function forget_all(   p, i, o) {
	for (p = 1; p <= np; p++)
		for (i = shead[p]; i <= stail[p]; i++) {
			o = sq[p, i]
			if (!ogone[o] && !ountr[o]) {
				ountr[o] = 1; phantoms++
				if (hist) { sfrees[p]++; sfbytes[p] += size[p]; sdrops[p]++ }
			}
		}
	hstart = cur * step
}

function tick(t, s,   p, n, want, i, nd, d, o) {
	cur = s
	nd = split(due[s], d, " ")
	for (i = 1; i <= nd; i++)
		free_obj(d[i])
	delete due[s]
	for (i = 1; i <= nforget; i++)
		if (int(fgt[i] / step + 0.5) == s)
			forget_all()
	for (p = 1; p <= np; p++) {
		if ((p in keept) && int(keept[p] / step + 0.5) == s) {
			o = ++nobj
			opat[o] = p; obirth[o] = t; osmp[o] = 1
			q[p, ++tail[p]] = o
			live[p]++
			sallocs[p]++; sbytes[p] += size[p]
			sq[p, ++stail[p]] = o
			due[int((t + keepl[p]) / step + 0.5)] = due[int((t + keepl[p]) / step + 0.5)] " " o
		}
		if (t < from[p] || t >= until[p])
			continue
		if (kind[p] == "risefall") {
			want = int(cap[p] * (1 - cos(2 * 3.141592653589793 * (t - from[p]) / period[p])) / 2)
			while (live[p] < want) alloc(p, t)
			while (live[p] > want) free_oldest(p)
			continue
		}
		if (kind[p] == "walk") {
			want = live[p] + (rand() < 0.5 ? -1 : 1) * int(cap[p] * step + 0.5)
			if (want < 0) want = 0
			while (live[p] < want) alloc(p, t)
			while (live[p] > want) free_oldest(p)
			continue
		}
		r = rate[p]
		if (kind[p] == "fill") r *= exp(-(t - from[p]) / tau[p])
		if (jit[p]) r *= 1 + jit[p] * (2 * rand() - 1)
		if (pois[p]) {
			# Knuth's: the count of uniforms whose product stays
			# above exp(-r step).
			n = 0
			for (i = rand(); i > exp(-r * step); i *= rand())
				n++
			acc[p] += n
		} else {
			acc[p] += r * step
		}
		while (acc[p] >= 1) {
			acc[p]--
			alloc(p, t)
			if (kind[p] == "plateau" && live[p] > cap[p])
				free_oldest(p)
		}
	}
}

function frames(p, v,   f) {
	if (irq[p] == "")
		return "\t" fn[p] "_caller+0x20/0x80 [mstat_leakgen]\n\tprocess_one_work+0x17b/0x330\n\tworker_thread+0x252/0x390\n\tkthread+0xd2/0x100"
	# An interrupt's stack, then what it interrupted: variant v.
	f = "\t" fn[p] "_caller+0x20/0x80 [mstat_leakgen]\n\t__hrtimer_run_queues+0x10d/0x250\n"
	if (irq[p] == "soft" && v % 4 == 3)
		return f "\thrtimer_run_softirq+0x8c/0xd0\n\thandle_softirqs+0xd0/0x2c0\n\trun_ksoftirqd+0x2b/0x40\n\tsmpboot_thread_fn+0xd8/0x1d0\n\tkthread+0xd2/0x100\n\tret_from_fork+0x34/0x50\n\tret_from_fork_asm+0x1a/0x30"
	if (irq[p] == "soft")
		f = f "\thrtimer_run_softirq+0x8c/0xd0\n\thandle_softirqs+0xd0/0x2c0\n\t__irq_exit_rcu+0x91/0xb0\n\tsysvec_apic_timer_interrupt+0x71/0x90\n"
	else
		f = f "\thrtimer_interrupt+0x116/0x250\n\t__sysvec_apic_timer_interrupt+0x52/0x100\n\tsysvec_apic_timer_interrupt+0x3c/0x90\n"
	f = f "\tasm_sysvec_apic_timer_interrupt+0x1a/0x20\n"
	if (v % 3 == 0)
		return f "\tpv_native_safe_halt+0xf/0x20\n\tdefault_idle+0x9/0x20\n\tdo_idle+0x26b/0x2a0\n\tcpu_startup_entry+0x29/0x30"
	if (v % 3 == 1)
		return f "\tclear_page_erms+0x7/0x10\n\tget_page_from_freelist+0x3c4/0x15e0\n\t__alloc_pages_noprof+0x172/0x350"
	return f "\t_raw_spin_unlock_irqrestore+0x1d/0x40\n\ttry_to_wake_up+0x2c2/0x640\n\tkthread+0xd2/0x100\n\tret_from_fork+0x34/0x50"
}

function read_out(nr, t,   f, i, p, w, k, o, n, line, rows, nrows, sb, s) {
	f = sprintf("%s/%04d", dir, nr)
	printf "%.3f\n", 1000 + t > (f ".time")
	close(f ".time")
	# /proc/mstat: the template, the patterns' live bytes in.
	for (k in kb) delete kb[k]
	for (k in ko) delete ko[k]
	for (k in cb) delete cb[k]
	for (k in co) delete co[k]
	for (p = 1; p <= np; p++) {
		if (cls[p] != "") { kb[cls[p]] += live[p] * size[p]; ko[cls[p]] += live[p] }
		else { cb[cache[p]] += live[p] * size[p]; co[cache[p]] += live[p] }
	}
	for (i = 1; i <= ntpl; i++) {
		line = tpl[i]
		split(line, w, " ")
		if (w[1] == "generation")
			line = "generation " (nr + 1)
		else if (w[1] == "kmalloc_class" && (w[2] in kb))
			line = "kmalloc_class " w[2] " " w[3] " " w[4] " " (w[5] + ko[w[2]]) " " (w[6] + kb[w[2]])
		print line > (f ".mstat")
		if (w[1] == "cache" && tpl[i + 1] ~ /^cache_overflow /)
			for (k in cid)
				print "cache " cid[k] " " csize[k] " 0 0 0 " co[k] " " cb[k] " live " k > (f ".mstat")
	}
	close(f ".mstat")
	# /proc/mstat_sites 2.2: a row per pattern, or split=N rows, its
	# objects dealt out among them (an interrupt's stack and the N
	# contexts it interrupted).
	n = 0
	for (p = 1; p <= np; p++) {
		rows[p] = ""
		while (shead[p] <= stail[p] && ogone[sq[p, shead[p]]])
			delete sq[p, shead[p]++]
		for (s = 0; s < nsub[p]; s++) {
			sb = 0
			line = ""
			for (i = shead[p]; i <= stail[p]; i++) {
				o = sq[p, i]
				if (ogone[o] || ountr[o] || obirth[o] > t || o % nsub[p] != s)
					continue
				line = line sprintf("+ %d %d\n", int((t - obirth[o]) * 1000), size[p])
				sb += size[p]
			}
			if (!sallocs[p] || (nsub[p] > 1 && !sb))
				continue
			n++
			# The frames and live lines joined, not formatted: they
			# outgrow some awks' sprintf buffer (mawk's 8 KiB).
			rows[p] = rows[p] sprintf("%d %d %d %d %d %d %d %d %s %s %s%s%s%s+0x1a/0x40 [mstat_leakgen]\n",
				int(sb / (1 - exp(-size[p] / R))), int(sb / size[p] / (1 - exp(-size[p] / R))),
				sb, sb / size[p], int(sallocs[p] / nsub[p]), int(sbytes[p] / nsub[p]),
				int((sfrees[p] + 0) / nsub[p]), int((sfbytes[p] + 0) / nsub[p]),
				cg[p], node[p], cachecol ? cache[p] " " : "",
				hist ? (cls[p] != "" ? "kmalloc " : "cache ") : "",
				hist && !nodrops ? int((sdrops[p] + 0) / nsub[p]) " " : "",
				fn[p]) frames(p, s) "\n" line
		}
	}
	print "mstat_sites - version: " (hist ? (nodrops ? "2.4" : "2.5") : "2.2") > (f ".sites")
	printf "# snapshot %d sample_rate %d stacks %d stack_drops 0 addr_drops 0 addr_live 0 depth 32 leafless 0 reused 0 age_ms 0 addr_phantoms %d", nr + 1, R, n, phantoms > (f ".sites")
	if (hist)
		printf " history_ms %d counts_ms %d", int((t - hstart) * 1000), int((t - load) * 1000) > (f ".sites")
	printf "\n" > (f ".sites")
	print "# est_bytes est_calls sampled_bytes sampled_calls allocs alloc_bytes frees free_bytes cgroup node " (cachecol ? "cache " : "") (hist ? "source " : "") (hist && !nodrops ? "drops " : "") "site" > (f ".sites")
	for (p = 1; p <= np; p++)
		if (sallocs[p])
			printf "%s", rows[p] > (f ".sites")
	close(f ".sites")
}

END {
	if (np == 0) exit 2
	nr = 0
	for (s = int(-warm / step); ; s++) {
		t = s * step
		if (t > D + 1e-9)
			break
		tick(t, s)
		# A read at every multiple of I from 0, after the tick.
		if (t >= -1e-9 && (s % int(I / step + 0.5)) == 0)
			read_out(nr++, t)
	}
}
