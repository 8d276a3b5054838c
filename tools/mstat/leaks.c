// SPDX-License-Identifier: GPL-2.0
/*
 * mstat leaks: what grows without bound, whose, and how sure.
 *
 * It reads /proc/mstat and /proc/mstat_sites every --interval seconds
 * for --duration seconds (or the reads a --save left in a directory,
 * --from), then judges two tiers and checks them against each other.
 *
 * Per cache, from the exact counts (every slab cache row of /proc/mstat,
 * and each kmalloc size class as "kmalloc-SIZE"): the live bytes of each
 * read form a series. It is cut into B consecutive blocks (B = min(12,
 * reads / 2)), and each block keeps its minimum: the lower envelope, which
 * a sawtooth (everything freed once a block), a burst or a load that
 * comes and goes leaves flat. The rate is the Theil-Sen slope of the B
 * minima against their times (the median of the slopes of all pairs),
 * its interval Sen's distribution-free one at --confidence C, from the
 * Mann-Kendall statistic's variance B(B-1)(2B+5)/18. A cache is judged
 * when that interval has a low end (B >= 7 at C = 0.99, 9 at 0.999: with
 * fewer blocks no interval at C can exclude 0; mstat_leak_min_reads()),
 * and a suspect when the interval's low end is above --min-rate, the
 * growth persists (the
 * slope of the later half of the minima is at least half the whole
 * one's, so that a cache that fills to a plateau, or objects that live
 * for a finite time shorter than half the watch, are not called leaks),
 * and the steps between consecutive minima have a mean above 0 by
 * Student's t at C (a count that wanders like a random walk, whose runs
 * Mann-Kendall takes for trends, is not called a leak).
 *
 * Per stack, from the samples: an object of s bytes is sampled with p =
 * 1 - exp(-s/R) and stands for s/p bytes. A stack is cut after its first
 * interrupt entry (mstat_leak_irq_entry[]), so that an interrupt's
 * allocation is one stack whatever the interrupt stopped. Each read's
 * live lines give each sampled object's birth (the read's time less its
 * age), the read's time aligned with the last read's by the objects live
 * in both (mstat_leak_align()); an object born during the watch, seen
 * in one read and not in the next, was freed, and its lifetime is learnt,
 * as if freed midway between the two reads; unless the module dropped
 * entries of its address table in between without their frees (its
 * addr_phantoms grew: a source switched off or on, a free probe that
 * missed calls, a reset), when a sample gone may be live: then nothing
 * is learnt, and the stack tier counts births from the read before (the
 * samples born earlier are gone). At the last read, a stack's "leak-like"
 * samples are its live ones born since then and older than A = 1.5 L +
 * 2 dt, dt the interval, L the longest lifetime usual for the stack: the
 * longest learnt at which a tenth at least of its objects that lived as
 * long were freed then or later (the others live at the last read), so
 * that one object that outlived its freed siblings does not stand for a
 * stack whose older objects all live (A = 0 if it freed none, 2 dt if
 * no lifetime is usual): objects of a finite
 * lifetime are gone by then. Over the exposure T' = T - A (T the watch)
 * their count k is Poisson, their bytes (each its weight w) a compound
 * Poisson: the rate is their bytes over T', its interval Fay and Feuer's
 * gamma interval over T' (mstat_weighted_poisson(): Garwood's, w
 * chi2((1-C)/2, 2k)/2 to w chi2((1+C)/2, 2k+2)/2, when the weights are
 * one w; wider when they differ). A stack is a suspect when k >= MSTAT_LEAK_MIN_SAMPLES, the low
 * end is above --min-rate, its leak-like samples are not crowded into
 * the first half of the exposure (a fill that stops: fewer than a third
 * born in the later half, a binomial test at 1 - C, as the caches' later
 * half must rise at half the whole rate) and its cache does not
 * contradict it (below).
 *
 * Checked against each other: a stack suspect whose cache's exact growth
 * has a high end below the stack's low end, over the watch or in its
 * later half (struct mstat_trend's @late_high), "grows while its cache
 * does not" (unexplained, no suspect); a cache suspect that no stack
 * suspect in it accounts for (their high ends summed below its low end)
 * "grows, no sampled stack yet" (still a suspect).
 *
 * Built with -DMSTAT_LEAKS_WEAK (stats.c and leaks_stack.c; make
 * build/mstat-leaks-weak, for the tests only), the detectors are the
 * naive ones the tests must show fail: a difference of the first and
 * last snapshots per cache, and every sample born during the watch per
 * stack.
 *
 * This file is the command: watch or replay, judge, report. The per-cache
 * trend is stats.c's mstat_trend(); the other jobs have files of their
 * own, listed in leaks_int.h.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "leaks.h"
#include "leaks_cache.h"
#include "leaks_int.h"
#include "util.h"

int do_leaks(const struct mstat_opts *o)
{
	struct mstat_leaks lk = { .o = o, .phantoms = -1 };
	int err, suspects;
	bool judged;

	/* 1 is a suspect: running out of memory is an error like any other. */
	mstat_alloc_status(MSTAT_LEAKS_ERROR);
	err = o->from ? mstat_leak_from(&lk, o->from) : mstat_leak_watch(&lk);
	if (err) {
		mstat_leaks_free(&lk);
		return MSTAT_LEAKS_ERROR;
	}
	mstat_leak_judge(&lk);
	err = mstat_leak_report(&lk, &suspects);
	judged = lk.judged;
	mstat_leaks_free(&lk);
	/* A file for the textfile collector: the verdict is in it. */
	if (o->prom_out)
		return !err ? MSTAT_LEAKS_NONE : MSTAT_LEAKS_ERROR;
	if (fflush(stdout) || ferror(stdout)) {
		mstat_err("standard output: %s", strerror(errno));
		return MSTAT_LEAKS_ERROR;
	}
	if (suspects)
		return MSTAT_LEAKS_SUSPECT;
	return judged ? MSTAT_LEAKS_NONE : MSTAT_LEAKS_UNJUDGED;
}

static const struct option mstat_leaks_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "prom", no_argument, NULL, OPT_PROM_OUT },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "interval", required_argument, NULL, 'i' },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "save", required_argument, NULL, OPT_SAVE },
	{ "min-rate", required_argument, NULL, OPT_MIN_RATE },
	{ "confidence", required_argument, NULL, OPT_CONFIDENCE },
	{ "once", no_argument, NULL, OPT_ONCE },
	{ "until-sure", no_argument, NULL, OPT_UNTIL_SURE },
	{ NULL, 0, NULL, 0 }
};

/* -f only to say that --from is what it may have meant. */
static int mstat_leaks_opt(void *o, int c, const char *v)
{
	if (c == 'f')
		return mstat_bad_usage("mstat leaks reads no -f (see --from)", NULL);
	return mstat_opt_value(o, c, v);
}

const struct mstat_optspec mstat_leaks_optspec = {
	.name = "leaks", .shortopts = "-:hf:o:d:i:",
	.longopts = mstat_leaks_longopts, .opt = mstat_leaks_opt,
};

/*
 * A watch of mstat leaks long enough for a verdict: its reads (one every
 * -i over -d, and the first) at least what the confidence asks.
 */
static int mstat_leaks_enough(const struct mstat_opts *o)
{
	long reads = (long)floor(o->duration / o->interval + 1e-9) + 1;
	int need = mstat_leak_min_reads(o->confidence);
	char what[160];

	if (need && reads >= need)
		return 0;
	if (need)
		snprintf(what, sizeof(what),
			 "mstat leaks: -d / -i gives %ld reads; a verdict at confidence %.12g needs %d",
			 reads, o->confidence, need);
	else
		snprintf(what, sizeof(what),
			 "mstat leaks: no watch can give a verdict at confidence %.12g",
			 o->confidence);
	return mstat_bad_usage(what, NULL);
}

/* The options that go together or apart, and the watch's length. */
static int mstat_leaks_check(struct mstat_opts *o)
{
	if (o->prom_out && o->json)
		return mstat_bad_usage("--json and --prom go apart", NULL);
	if (o->out && !o->prom_out)
		return mstat_bad_usage("-o goes with mstat leaks --prom", NULL);
	if (o->from && o->save)
		return mstat_bad_usage("--from and --save go apart", NULL);
	if (o->once && o->delay_set)
		return mstat_bad_usage("--once and -d go apart", NULL);
	if (o->once && o->until_sure)
		return mstat_bad_usage("--once and --until-sure go apart", NULL);
	if (o->once)
		return 0;
	if (o->delay_set)
		o->duration = o->delay;
	if (o->interval > o->duration)
		return mstat_bad_usage("mstat leaks: -i longer than -d", NULL);
	return o->from ? 0 : mstat_leaks_enough(o);
}

int cmd_leaks(int argc, char **argv)
{
	struct mstat_opts o = MSTAT_OPTS_INIT;
	int err = mstat_opts_parse(&mstat_leaks_optspec, argc, argv, &o);

	if (!err)
		err = mstat_leaks_check(&o);
	return err ? err : do_leaks(&o);
}
