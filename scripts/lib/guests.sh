# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Guests, queued and collected: the dispatcher, guest(), the parts and
# suites a guest boots, collect() and the KUnit parse.
# Sourced by scripts/lib.sh (its MSTAT_TOP, log and die), never alone.

## Guests, queued and collected
#
# guest() queues a guest run (scripts/guest.sh) and returns at once. One
# dispatcher (mstat_queue_start, in the background) starts the queued
# guests, by priority and then in the order queued, while their weights
# fit in its slots: a guest on multi-threaded TCG (--tcg=multi) weighs
# 2, any other 1, and one guest runs whenever none does. The slots
# (GUEST_SLOTS, default twice the number of CPUs) may be changed while
# guests run (mstat_queue_slots), so that a caller that has host work of
# its own to do leaves it a CPU. A script started by one that owns a
# dispatcher (arm64.sh from check.sh) queues into the same one: its
# directory is exported as MSTAT_QUEUE. Each guest leaves in its
# caller's $MSTAT_LOGS: NAME.console (the serial console), NAME.log
# (guest.sh's messages), NAME.rc ("STATUS SECONDS CPU_SECONDS": its
# wall-clock time and the CPU time qemu took); collect_guests
# waits for the caller's own and collects them in the order queued.
mstat_guests=()
mstat_queue_owner=

# mstat_queue_start: start the dispatcher, unless this process or its
# parent has one. One that died (it must not) is started again on the
# same queue, so that what waits there runs, and that is counted in
# DIR/restarts, which collect_guests reports as a failure.
mstat_queue_start() {
	local pid
	if [ -n "${MSTAT_QUEUE:-}" ] && [ -d "$MSTAT_QUEUE/wait" ]; then
		pid=''
		read -r pid 2>/dev/null <"$MSTAT_QUEUE/pid"
		! kill -0 "$pid" 2>/dev/null || return 0
		log "the guest queue's dispatcher (${pid:-no pid}) is gone: started again"
		echo "$pid" >>"$MSTAT_QUEUE/restarts"
		mstat_queue_dispatch "$MSTAT_QUEUE" </dev/null >/dev/null 2>&1 &
		echo "$!" >"$MSTAT_QUEUE/pid"
		return 0
	fi
	MSTAT_QUEUE=$(mktemp -d "${TMPDIR:-/tmp}/mstat-queue.XXXXXX") || return
	export MSTAT_QUEUE
	mkdir -p "$MSTAT_QUEUE/wait" "$MSTAT_QUEUE/run" "$MSTAT_QUEUE/done"
	echo "${GUEST_SLOTS:-$((2 * $(nproc)))}" >"$MSTAT_QUEUE/slots"
	mstat_queue_dispatch "$MSTAT_QUEUE" </dev/null >/dev/null 2>&1 &
	echo "$!" >"$MSTAT_QUEUE/pid"
	mstat_queue_owner=1
}

# mstat_queue_slots N: the dispatcher's slots from now on.
mstat_queue_slots() {
	[ -n "${MSTAT_QUEUE:-}" ] || return 0
	echo "$1" >"$MSTAT_QUEUE/slots.new" && mv "$MSTAT_QUEUE/slots.new" "$MSTAT_QUEUE/slots"
}

# mstat_nap SECONDS: sleep without a process of its own: a read that
# times out on a FIFO nobody writes, opened once per shell (a subshell
# shares its parent's: nobody writes it either). The pollers below nap
# so: sleep(1), cat and find, forked twice a second by the dispatcher
# through a whole make check, took 1.26 s of CPU in 30 s idle (`time`
# on an idle queue): some 125 s of a 3000 s run at that rate; the
# guests' phase of a cold run took 138 s less with naps.
mstat_nap_fd=
mstat_nap() {
	local f
	if [ -z "$mstat_nap_fd" ]; then
		f=$(mktemp -u "${TMPDIR:-/tmp}/mstat-nap.XXXXXX")
		if mkfifo -m 600 "$f" 2>/dev/null; then
			exec {mstat_nap_fd}<>"$f"
			rm -f "$f"
		fi
	fi
	if [ -n "$mstat_nap_fd" ]; then
		read -r -t "$1" -u "$mstat_nap_fd" _ 2>/dev/null || :
	else
		sleep "$1"
	fi
	return 0
}

# mstat_queue_dispatch DIR: the dispatcher. A queued guest is a script
# wait/PRIO-NANOSECONDS-NAME whose first line is "#weight N"; it runs
# with a file run/ITS-NAME holding its weight, moved to done/ at its end.
# Starts nothing while DIR/hold exists (a caller queueing a batch whose
# order it wants kept); ends when DIR/closed exists and nothing waits or
# runs. Its loop runs on builtins alone (mstat_nap).
mstat_queue_dispatch() {
	local q=$1 next w used f slots waiting
	local LC_COLLATE=C
	# Its own shell, in the background: a caller's set -e must not end
	# it at the first read of a file a guest moved away.
	set +e
	shopt -s nullglob
	while [ -d "$q" ]; do
		read -r slots 2>/dev/null <"$q/slots" || slots=1
		[[ $slots =~ ^[0-9]+$ ]] || slots=1
		used=0
		# A guest that ends moves its file away at any moment: read
		# each once, and count one gone as 0 (an empty expansion in
		# the arithmetic would end this shell).
		for f in "$q"/run/*; do
			w=0
			read -r w 2>/dev/null <"$f"
			[[ $w =~ ^[0-9]+$ ]] || w=0
			used=$((used + w))
		done
		# Globs sort (LC_COLLATE=C): the lowest priority first, then
		# the first queued. Listed only once the hold is seen gone
		# (listed before, a guest queued just before the hold's end
		# could be missed), and the hold looked at again after: one
		# set while listing holds what was listed.
		next=''
		if [ ! -f "$q/hold" ]; then
			waiting=("$q"/wait/*)
			next=${waiting[0]:+${waiting[0]##*/}}
		fi
		if [ -f "$q/hold" ]; then
			:
		elif [ -n "$next" ]; then
			w=''
			read -r w <"$q/wait/$next"
			[[ $w =~ ^#weight\ ([0-9]+)$ ]] && w=${BASH_REMATCH[1]} || w=1
			if [ "$used" -eq 0 ] || [ $((used + w)) -le "$slots" ]; then
				echo "$w" >"$q/run/$next"
				mv "$q/wait/$next" "$q/started-$next"
				( bash "$q/started-$next"; mv "$q/run/$next" "$q/done/$next" ) &
				continue
			fi
		elif [ -f "$q/closed" ] && [ "$used" -eq 0 ]; then
			break
		fi
		mstat_nap 0.5
	done
	wait
}

# mstat_guest_run LOGS NAME KERNEL SCRIPT GUEST_ARG...: one guest, as a
# queued script runs it (MSTAT_GUEST_SH: another guest.sh, for the
# queue's own test, scripts/queue-test.sh).
mstat_guest_run() {
	local logs=$1 name=$2 kernel=$3 script=$4 rc start=$SECONDS cpu0 cpu1
	local guest_sh=${MSTAT_GUEST_SH:-$MSTAT_TOP/scripts/guest.sh}
	shift 4
	mstat_cpu cpu0
	rm -f "$logs/$name.retried"
	"$guest_sh" --kernel "$kernel" --script "$script" \
		--log "$logs/$name.console" "$@" >"$logs/$name.log" 2>&1
	rc=$?
	# A kernel that died before the script started (the 6.12-rt int3
	# oops in early boot under multi-threaded TCG): one more boot, its
	# first console kept, and collect says so.
	if [ "$rc" -eq 126 ]; then
		mv "$logs/$name.console" "$logs/$name.console.boot1"
		echo "$((SECONDS - start))" >"$logs/$name.retried"
		"$guest_sh" --kernel "$kernel" --script "$script" \
			--log "$logs/$name.console" "$@" >>"$logs/$name.log" 2>&1
		rc=$?
	fi
	mstat_cpu cpu1
	echo "$rc $((SECONDS - start)) $(((cpu1 - cpu0) / 100))" >"$logs/$name.rc.new"
	mv "$logs/$name.rc.new" "$logs/$name.rc"
}

# guest NAME KERNEL SCRIPT ARG...: queue a guest run. An ARG of the form
# --file=SRC:DEST, --prog=NAME, --smp=N, --mem=SIZE, --tcg=MODE, --append=CMDLINE (all
# of them, joined),
# --arch=ARCH, --timeout=SECONDS, --hostfwd=HOSTPORT:GUESTPORT, --numa=N,
# --cpu=FLAGS or --boot=HOW is that option of guest.sh, --prio=N (0 to 9,
# default 5: lower first; the long guests go first, so that none of them
# is the run's tail) the queue's, any other is a module to load.
guest() {
	local name=$1 kernel=$2 script=$3 a guest_args=() prio=5 w=1 spec append=''
	shift 3
	# MSTAT_RUN_NAMES="NAME...": only those (make test's one guest of a
	# function that queues several, scripts/test.sh).
	[ -z "${MSTAT_RUN_NAMES:-}" ] || [[ " $MSTAT_RUN_NAMES " == *" $name "* ]] ||
		return 0
	for a; do
		case $a in
		--file=*)	guest_args+=(--file "${a#--file=}") ;;
		--prog=*)	guest_args+=(--prog "${a#--prog=}") ;;
		--smp=*)	guest_args+=(--smp "${a#--smp=}") ;;
		--mem=*)	guest_args+=(--mem "${a#--mem=}") ;;
		--tcg=*)	guest_args+=(--tcg "${a#--tcg=}")
				[ "${a#--tcg=}" = multi ] && w=2 ;;
		--append=*)	append+="${append:+ }${a#--append=}" ;;
		--arch=*)	guest_args+=(--arch "${a#--arch=}") ;;
		--timeout=*)	guest_args+=(--timeout "${a#--timeout=}") ;;
		--hostfwd=*)	guest_args+=(--hostfwd "${a#--hostfwd=}") ;;
		--numa=*)	guest_args+=(--numa "${a#--numa=}") ;;
		--cpu=*)	guest_args+=(--cpu "${a#--cpu=}") ;;
		--boot=*)	guest_args+=(--boot "${a#--boot=}") ;;
		--prio=[0-9])	prio=${a#--prio=} ;;
		*)		guest_args+=(--ko "$a") ;;
		esac
	done
	[ -z "$append" ] || guest_args+=(--append "$append")
	mkdir -p "$MSTAT_LOGS"
	mstat_queue_start || return
	rm -f "$MSTAT_LOGS/$name.rc"
	spec=$MSTAT_QUEUE/$prio-$(date +%s%N)-$name
	{
		echo "#weight $w"
		printf 'export KA64_BUSYBOX=%q MSTAT_GUEST_SH=%q\n' \
			"${KA64_BUSYBOX:-}" "${MSTAT_GUEST_SH:-}"
		printf 'cd %q || exit 1\n' "$PWD"
		printf '. %q\n' "$MSTAT_TOP/scripts/lib.sh"
		printf 'mstat_guest_run'
		printf ' %q' "$MSTAT_LOGS" "$name" "$kernel" "$script" \
			${guest_args[@]+"${guest_args[@]}"}
		echo
	} >"$spec.new" && mv "$spec.new" "$MSTAT_QUEUE/wait/${spec##*/}"
	mstat_guests+=("$name")
}

# mstat_suite_guests NAME IMAGE DIR [ARG...]: queue, booting test kernel
# IMAGE, NAME-kunit (the KUnit suites of build DIR, DIR/kunit/*_kunit.ko,
# on multi-threaded TCG) and NAME-torture (the kernel torture on 4
# vCPUs); each ARG (--arch=, --prio=) goes to both. x86's torture runs
# on multi-threaded TCG, its main run MSTAT_TORTURE_SECONDS long if set
# (make check: 10; else 20); arm64's on single-threaded TCG, 10 s a mode,
# where its busted readers are met (scripts/arm64.sh says why).
mstat_suite_guests() {
	local name=$1 image=$2 dir=$3 a
	local torture=(--tcg=multi
		${MSTAT_TORTURE_SECONDS:+"--append=TORTURE_SECONDS=$MSTAT_TORTURE_SECONDS"})
	shift 3
	for a; do
		[ "$a" != --arch=arm64 ] || torture=(--append=TORTURE_SECONDS=10)
	done
	guest "$name-kunit" "$image" scripts/guest/kunit.sh "$dir/mstat.ko" \
		"$dir"/kunit/*_kunit.ko --tcg=multi "$@"
	guest "$name-torture" "$image" scripts/guest/torture.sh \
		"$dir/mstat.ko" "$dir/tests/torture/mstat_torture.ko" --smp=4 \
		"${torture[@]}" "$@"
}

# mstat_guests_parts NAME KERNEL "PART..." ARG...: queue guest NAME, one
# boot of KERNEL in which the guest scripts PART (scripts/guest/PART.sh:
# "truth caches") run one after the other (scripts/guest/parts.sh), each
# as in a guest of its own. Each ARG is guest's; the --append ones are
# joined into one, with PARTS="PART...". A boot costs a stock kernel's
# guest some 5.5 s of CPU under TCG (scripts/guest.sh), arm64's and the
# debug kernel's more: small guests of one kernel, build and command line
# share one. MSTAT_RUN_ONLY="PART...": those parts instead (make test's
# one part of such a guest, scripts/test.sh).
mstat_guests_parts() {
	local name=$1 kernel=$2 parts=${MSTAT_RUN_ONLY:-$3} p a args=() append=''
	shift 3
	for p in $parts; do
		args+=("--file=scripts/guest/$p.sh:/mstat/$p.sh")
	done
	for a; do
		case $a in
		--append=*)	append+=" ${a#--append=}" ;;
		*)		args+=("$a") ;;
		esac
	done
	guest "$name" "$kernel" scripts/guest/parts.sh "${args[@]}" \
		"--append=PARTS=\"$parts\"$append"
}

# mstat_debug_guests NAME IMAGE DIR BROKEN: queue the debug kernel's
# guests (make check's 6a to 6d), booting IMAGE, with mstat and its tests
# from build DIR: NAME-kunit and NAME-torture, NAME-counts,
# NAME-kunit-busted and NAME-faults; NAME-faults-broken with the broken
# build's, from BROKEN, if it was built, whose heap-profile suite
# NAME-kunit-busted runs too. The fault guest's first point
# of mstat's init to fail: MSTAT_FAULTS_START, else drawn (1 to 8).
mstat_debug_guests() {
	local name=$1 image=$2 dir=$3 broken=$4 faults busted=()
	local start=${MSTAT_FAULTS_START:-$((RANDOM % 8 + 1))}

	# The debug kernel: KUnit suites (then kmemleak), and the kernel
	# torture on four vCPUs; both on multi-threaded TCG, for true
	# parallelism (they toggle no tracepoint under load, see guest.sh).
	# The torture's main run 10 s here, 20 s in make soak. On 512 MiB:
	# kmemleak's two scans after the suites walk every page's struct,
	# and took 20 s of the KUnit guest's 62 s against 27 of 70 s on 1
	# GiB, 73.7 s of CPU against 82.4 s; the torture's was the same,
	# 136.5 s and 137.3 s (scripts/guest.sh by hand, one after the
	# other, a 2-CPU machine alone).
	MSTAT_TORTURE_SECONDS=10 mstat_suite_guests "$name" \
		"$image" "$dir" --prio=2 --mem=512M

	# The ground-truth test on the debug kernel (KASAN, lockdep,
	# kmemleak). kmemleak allocates an object of its own cache beside every
	# allocation, and KASAN shadow pages beside every vmalloc. KASAN's
	# quarantine holds freed slab objects back and frees them when a later
	# allocation drains it: a pattern's own allocations then free the
	# earlier patterns' empty slabs, pages of orders 0 to 2 here (CI met 53
	# order-2 frees in one kvfree_rcu_large run, none in its idle windows).
	# So the cache and page sources' totals and orders 0 to 2 are printed,
	# not judged, there; every other row is (kmalloc, its classes, the large
	# class, order 4). 1000 allocations and frees a pattern, not 4000: each
	# pattern's run and its three idle windows are a quarter as long, the
	# same rows judged exactly. On one vCPU, as the per-cache guest: the
	# debug kernel's counting paths under KASAN, lockdep and kmemleak are
	# what they judge; its torture (four vCPUs), KUnit and fault guests
	# (two) run mstat across CPUs. Side by side, beside a CPU hog and
	# another guest (scripts/guest.sh by hand),
	# the truth guest took 61.9 s of CPU on one vCPU against 72.8 s on
	# two, the per-cache guest 27.6 s against 35.4 s, the same checks
	# passing; a debug guest's CPU time grows with the host's load on two
	# vCPUs (the truth guest's 146 s in a cold run, 61 s alone), little
	# on one. The fault guests stay on two: side by side,
	# the good build's OOM part on one vCPU had taken 158 s of CPU,
	# unfinished, when the guest on two had ended it and the rest in 130 s.
	# Then the per-cache test, in the same boot: every row exact here too
	# (kmemleak's own objects are its cache's rows); KASAN's quarantine
	# holds a freed struct kmem_cache back, so the re-created cache's
	# address is not required to be the same (no "-a").
	mstat_guests_parts "$name-counts" "$image" \
		'truth caches' "$dir/mstat.ko" \
		"$dir/tests/truth/mstat_truth.ko" \
		"$dir/tests/caches/mstat_cachetest.ko" --smp=1 \
		--file=build/tools/truth:/mstat/truth \
		--file=build/tools/caches:/mstat/caches \
		--file=build/tools/mstat:/mstat/mstat --timeout=1200 \
		'--append=TRUTH_ARGS="-n 1000 -r cache -r page -r order:0 -r order:1 -r order:2"'

	# The KUnit suites' own test, on the debug kernel: mstat_core's cases
	# with a reader that does not wait must fail, cleanly. And KASAN's: it
	# must report mstat_truth's kasan_probe, a module's access and
	# vsnprintf()'s one byte past an object (kunit/.kunitconfig keeps
	# those instrumented, not the rest of the kernel); kasan_multi_shot,
	# for KASAN reports only its first without. Then the broken build's
	# mstat_profile suite, whose cases that must catch its mutations
	# (MSTAT_MUT_FORGET_ALL, MSTAT_MUT_PAGE_SYMBOLS, tests/mstat_mutants.h)
	# must fail, and they alone.
	[ ! -f "$broken/mstat.ko" ] ||
		busted=("--file=$broken/mstat.ko:/mstat/broken/mstat.ko"
			"--file=$broken/kunit/mstat_profile_kunit.ko:/mstat/broken/mstat_profile_kunit.ko")
	guest "$name-kunit-busted" "$image" \
		scripts/guest/kunit-busted.sh "$dir/mstat.ko" \
		"$dir/kunit/mstat_core_kunit.ko" \
		"$dir/tests/truth/mstat_truth.ko" --tcg=multi \
		--append=kasan_multi_shot ${busted[@]+"${busted[@]}"}

	# Faults (scripts/guest/faults.sh), on the debug kernel's fault
	# injection: every allocation of mstat's init failed in turn, failures
	# injected into reads and control writes under load, failures counted
	# against the truth, the OOM killer at work; and the broken build, whose
	# bug each part must catch (the parts with nothing of it to catch run on
	# it in make soak). The load part fails every eighth point of mstat's
	# init here, from a start drawn each run, so that eight runs between
	# them fail every point (the broken build's, its last points only),
	# every point in make soak; the reads under injection 80 of each file,
	# the control writes 40 of each, against 150 and 60 in make soak (the
	# good build's guest took 365 s of CPU at stride 5 with 150 and 60 in
	# a cold run, its load part 288 s of 608 s).
	# 384 MiB, not 1 GiB: the OOM part's hog fills what is free three
	# times, which took 229 s of a 530 s run on 1 GiB and 49 s of 358 s on
	# 384 MiB (scripts/guest.sh by hand, beside a kernel build), and 288 s
	# of 820 s in a cold run: here once
	# (FAULTS_HOGS=1), three times in make soak, and with no walk of /proc
	# and /sys beside it (FAULTS_OOM_LOAD=0: the part alone took 38 s of
	# the guest's CPU against 83 s with it, by hand; make soak
	# keeps it). These guests and the truth
	# and per-cache ones (above) run on single-threaded TCG: the broken
	# build's fault guest took 123 s of CPU in 134 s, against 144 s in 131 s
	# multi-threaded (scripts/guest.sh by hand, the machine alone): the
	# same time, less CPU.
	faults=(--file=build/tools/faultio:/mstat/faultio
		--file=build/tools/truth:/mstat/truth
		--file=build/tools/mstat:/mstat/mstat --timeout=1500
		--mem=384M --prio=2)
	guest "$name-faults" "$image" \
		scripts/guest/faults.sh "$dir/mstat.ko" \
		"$dir/tests/truth/mstat_truth.ko" "${faults[@]}" \
		"--append=nokaslr FAULTS_STRIDE=8 FAULTS_START=$start FAULTS_READS=80 FAULTS_WRITES=40 FAULTS_HOGS=1 FAULTS_OOM_LOAD=0"
	[ ! -f "$broken/mstat.ko" ] ||
		guest "$name-faults-broken" "$image" \
			scripts/guest/faults.sh "$broken/mstat.ko" \
			"$broken/tests/truth/mstat_truth.ko" "${faults[@]}" \
			'--append=nokaslr FAULTS="broken"'
}

# mstat_header FILE FIELD: the words of a guest test's "# FIELD:" header
# line (Kernels, Guest), if it has one (scripts/test.sh reads them too).
mstat_header() { sed -n "1,100s/^# $2: //p" "$1" | head -n 1; }

# mstat_part_on PART ID: scripts/guest/PART.sh's "# Kernels:" line names
# kernel ID, or "all".
mstat_part_on() {
	local k
	k=$(mstat_header "$MSTAT_TOP/scripts/guest/$1.sh" Kernels)
	[[ " $k " == *" $2 "* || " $k " == *" all "* ]]
}

# mstat_guests_counts ID VMLINUZ [PART...] [ARG...]: queue guest-ID-counts,
# the counts against a known truth on the kernel built in build/ID, the
# ground-truth and per-cache tests ("-a": the re-created cache's address
# reused), the whole-memory account's parts (account, exact, kinds,
# ptkernel, bulkpages: where build/ID has tests/hold/, each on the
# kernels its header names), then each PART (survive, params), in one boot
# (mstat_guests_parts); each ARG is guest's (a later --timeout, the
# default 900 s's place).
mstat_guests_counts() {
	local id=$1 kernel=$2 parts='truth caches' b=${MSTAT_RUN_BUILDS:-build}/$1
	local holdko=() p
	shift 2
	if [ -f "$b/tests/hold/mstat_hold.ko" ]; then
		holdko=("$b/tests/hold/mstat_hold.ko")
		# The whole-memory account's parts, each on the kernels its
		# own header names (mstat_part_on).
		for p in account exact kinds ptkernel bulkpages; do
			! mstat_part_on "$p" "$id" || parts+=" $p"
		done
	fi
	while [ $# -gt 0 ] && [[ $1 != -* ]]; do
		parts+=" $1"
		shift
	done
	mstat_guests_parts "guest-$id-counts" "$kernel" "$parts" \
		"$b/mstat.ko" "$b/tests/truth/mstat_truth.ko" \
		"$b/tests/caches/mstat_cachetest.ko" "${holdko[@]}" \
		--file=build/tools/truth:/mstat/truth \
		--file=build/tools/caches:/mstat/caches \
		--file=build/tools/mstat:/mstat/mstat \
		--file=build/tools/acct:/mstat/acct \
		--file=build/tools/huge:/mstat/huge \
		'--append=CACHES_ARGS="-a"' --timeout=900 "$@"
}

# mstat_guests_kernel ID VMLINUZ ON [noparams]: queue what every kernel of
# the matrix runs (make check, make canary), on the build in build/ID, in
# one boot (guest-ID-counts): the counts (mstat_guests_counts), the
# survival test with the probes ON that must be on (it loads, reads and
# unloads as the smoke test did, /proc/mstat gone after: no smoke guest
# of its own), and, unless "noparams", the load parameters' limits.
mstat_guests_kernel() {
	local parts=survive
	[ "${4:-}" = noparams ] || parts+=' params'
	# shellcheck disable=SC2086 # the parts, split
	mstat_guests_counts "$1" "$2" $parts "--append=SURVIVE_ON=\"$3\"" \
		--timeout=1200
}

# mstat_counts_guest ID VMLINUZ: queue guest-ID-counts as make check does
# (scripts/test.sh too, for one of its parts): on a stock kernel of
# make check's first guests (6.1, 6.12, 6.12rt) the counts; on another
# of the matrix with the survival test, the probes on that must be (5.10:
# no alloc_pages_bulk(); kmem_cache_free() counted at its entry), and on
# the oldest, 5.10, the load parameters' limits (the module's own code
# and the kernel's moduleparam, the same from 5.10 to 7.3: judged on the
# oldest, on 6.12 in guest-6.12-parts and on arm64's newest).
mstat_counts_guest() {
	local id=$1 on params=noparams
	case $id in
	6.1|6.12|6.12rt)
		mstat_guests_counts "$id" "$2"
		return ;;
	esac
	on='alloc_pages_bulk alloc_pages_exact kmem_cache_alloc_bulk kmem_cache_free_bulk'
	if [ "$id" = 5.10 ]; then
		on='alloc_pages_exact kmem_cache_alloc_bulk kmem_cache_free_bulk kmem_cache_free'
		params=''
	fi
	# shellcheck disable=SC2086 # none, or noparams
	mstat_guests_kernel "$id" "$2" "$on" $params
}

# guest_where CONSOLE: where a guest stopped by its --timeout was: its
# part (scripts/guest/parts.sh's "# part P" lines), its last result line,
# or that its script never started.
guest_where() {
	local part last
	if ! tr -d '\r' <"$1" 2>/dev/null | grep -qx 'MSTAT-GUEST-START'; then
		echo "stopped at its --timeout before its script started"
		return
	fi
	part=$(tr -d '\r' <"$1" | sed -n 's/^# part \([a-z0-9-]*\)$/\1/p' | tail -n 1)
	last=$(tr -d '\r' <"$1" | grep -E '^(not )?ok ' | tail -n 1)
	echo "stopped at its --timeout${part:+ in part $part}, after ${last:-no result line}"
}

# collect NAME: the guest's exit status and times (boot and run, under
# qemu's TCG emulation: wall-clock and CPU), a clean console, and its "ok"/"not ok" lines if
# it prints any (then also that their number is the "# checks=N" it
# announced: kernel messages may garble a line).
collect() {
	local name=$1 logs=$MSTAT_LOGS rc secs cpu want got
	local con=$logs/$1.console rel=${MSTAT_LOGS#"$MSTAT_TOP"/}
	local retried=''
	read -r rc secs cpu <"$logs/$name.rc" 2>/dev/null || rc=1 secs=0
	cpu=${cpu:-0}
	# Never hidden: a retried boot is in the test's own line, and its
	# first console's first oops line is shown.
	if [ -f "$logs/$name.retried" ]; then
		retried=", retried boot: the first died before its script ($(cat "$logs/$name.retried") s), console: $rel/$name.console.boot1"
		grep -m 1 -E 'BUG:|Oops|RIP:|Kernel panic' "$con.boot1" 2>/dev/null |
			show
		mstat_retried_boots=$((${mstat_retried_boots:-0} + 1))
	fi
	if [ "$rc" -eq 0 ]; then
		ok "$name ($secs s TCG, $cpu s CPU$retried)"
	elif [ "$rc" -eq 124 ]; then
		not_ok "$name ($secs s TCG, $cpu s CPU, timeout: $(guest_where "$con")$retried), console: $rel/$name.console"
		tail -n 20 "$logs/$name.log" | show
	else
		not_ok "$name ($secs s TCG, $cpu s CPU, exit $rc$retried), console: $rel/$name.console"
		tail -n 20 "$logs/$name.log" | show
	fi
	t "$name-console-clean" "$MSTAT_TOP/scripts/console-check.sh" "$con"
	# Skips ("ok NAME # SKIP WHY", scripts/guest/lib.sh) are relayed,
	# not counted as checks.
	tr -d '\r' <"$con" 2>/dev/null | grep -E '^(not )?ok ' >"$logs/$name.checks"
	# The summary lines' checks, added up: a guest of several parts
	# (scripts/guest/parts.sh) prints one a part.
	want=$(tr -d '\r' <"$con" 2>/dev/null | awk -F'[= ]' '
		/^# checks=[0-9]+ failed=[0-9]+$/ { n += $3; s = 1 }
		END { if (s) print n }')
	[ -n "$want" ] || return 0
	relay "$logs/$name.checks" "$name"
	got=$(grep -E '^(not )?ok ' "$logs/$name.checks" | grep -vc ' # SKIP ')
	if [ "$want" -eq "$got" ]; then
		ok "$name-checks-reported ($got)"
	else
		not_ok "$name-checks-reported: $got of $want, console: $rel/$name.console"
	fi
}

# collect_kunit NAME: one test per KUnit case, as kunit.py parsed them
# (scripts/ktap.sh).
collect_kunit() {
	local name=$1 logs=$MSTAT_LOGS suite np nf rc
	local rel=${MSTAT_LOGS#"$MSTAT_TOP"/}
	"$MSTAT_TOP/scripts/ktap.sh" "$logs/$name.console" "$logs/$name-ktap" \
		>"$logs/$name-ktap.log" 2>&1
	rc=$?
	sed -n 's/^KTAP \([^ ]*\) passed=\([0-9]*\) failed=\([0-9]*\).*/\1 \2 \3/p' \
		"$logs/$name-ktap.log" >"$logs/$name-ktap.summary"
	while read -r suite np nf; do
		tally "$np" "$nf" "$name $suite"
		echo "# KUnit: $name $suite passed=$np failed=$nf"
	done <"$logs/$name-ktap.summary"
	if [ "$rc" -eq 0 ] && [ -s "$logs/$name-ktap.summary" ]; then
		ok "$name-kunit-parse"
	else
		not_ok "$name-kunit-parse, log: $rel/$name-ktap.log"
		tail -n 30 "$logs/$name-ktap.log" | show
	fi
}

# mstat_guests_wait: wait until every guest this process queued has
# ended (its NAME.rc), the dispatcher started again if it died; after
# three such restarts, a guest still waiting is given "1 0 0".
mstat_guests_wait() {
	local name restarts
	for name in ${mstat_guests[@]+"${mstat_guests[@]}"}; do
		until [ -f "$MSTAT_LOGS/$name.rc" ]; do
			restarts=()
			# 2>/dev/null first: it must be in place before the
			# file, which exists only after a restart, is opened.
			mapfile -t restarts 2>/dev/null <"$MSTAT_QUEUE/restarts"
			if [ "${#restarts[@]}" -ge 3 ]; then
				log "$name: the guest queue's dispatcher died three times"
				echo "1 0 0" >"$MSTAT_LOGS/$name.rc"
				break
			fi
			mstat_queue_start
			mstat_nap 1
		done
	done
}

# mstat_queue_stop: the owner's dispatcher told to end once idle, waited
# for, and its directory removed.
mstat_queue_stop() {
	local pid
	[ -n "$mstat_queue_owner" ] || return 0
	pid=$(cat "$MSTAT_QUEUE/pid" 2>/dev/null)
	touch "$MSTAT_QUEUE/closed"
	# Not wait alone: a subshell of the owner may stop it too.
	while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; do
		mstat_nap 0.2
	done
	[ -z "$pid" ] || wait "$pid" 2>/dev/null
	rm -rf "$MSTAT_QUEUE"
	mstat_queue_owner=
	unset MSTAT_QUEUE
}

# collect_guests: wait for every guest this process queued, then collect
# each, in the order queued; a NAME ending in -kunit also gets
# collect_kunit, one in -kunit-busted scripts/kunit-busted-check.sh.
collect_guests() {
	local name restarts
	mstat_guests_wait
	restarts=$(wc -l 2>/dev/null <"$MSTAT_QUEUE/restarts" || echo 0)
	if [ "$restarts" -eq 0 ]; then
		[ -z "$mstat_queue_owner" ] || ok guest-queue
	else
		not_ok "guest-queue: its dispatcher died and was started again $restarts times"
	fi
	mstat_queue_stop
	for name in ${mstat_guests[@]+"${mstat_guests[@]}"}; do
		collect "$name"
		case $name in
		*-kunit) collect_kunit "$name" ;;
		*-kunit-busted)
			"$MSTAT_TOP/scripts/kunit-busted-check.sh" \
				"$MSTAT_LOGS/$name.console" \
				>"$MSTAT_LOGS/$name-check.log" 2>&1
			relay "$MSTAT_LOGS/$name-check.log" "$name" ;;
		esac
	done
	mstat_guests=()
}
