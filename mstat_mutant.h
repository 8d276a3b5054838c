/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test and bench builds' hooks. make check builds mstat once more with
 * KCFLAGS=-DMSTAT_BROKEN_COUNTS=1: a build with known bugs, each of which
 * a test must catch, so that we know the test can. Each bug is a
 * mutation, named where it changes what the product does:
 *
 *	if (mstat_mutant(MSTAT_MUT_NO_WATCH))
 *
 * A product build has none: mstat_mutant() is false and its name is not
 * even looked up. The mutations, what each breaks and which test must
 * catch it, are the test build's own: tests/mstat_mutants.h.
 * A leaf: it includes no mstat header (but that one, in the test build).
 */
#ifndef _MSTAT_MUTANT_H
#define _MSTAT_MUTANT_H

#ifdef MSTAT_BROKEN_COUNTS
#include "tests/mstat_mutants.h"
#else
#define mstat_mutant(name)	false
#endif

/*
 * make bench's floor (scripts/sidebyside.sh's "empty" variant, built with
 * KCFLAGS=-DMSTAT_EMPTY_PROBES=1): every tracepoint probe and kprobe
 * handler attached as the product attaches them, each returning at once
 * (but where the load's learning needs it), so that what remains is what
 * attaching them costs. A product build has none.
 */
#ifdef MSTAT_EMPTY_PROBES
#define mstat_probe_empty()	true
#else
#define mstat_probe_empty()	false
#endif

/*
 * make bench's design floor (scripts/guest/cost.sh's "bare" variant, built
 * with KCFLAGS=-DMSTAT_BARE_CACHE=1): the kmem_cache events counted with
 * the least the design needs, a write section and the cache's row (or its
 * claim), nothing else: no kind or size, no context split, no profile or
 * stream. What the cache probes cost then, against the product's, is
 * what every part but the section and the row costs (docs/RESULTS.md
 * "The bar against a cache event's budget"). Counts only cache rows: not
 * for use. A product build has none.
 */
#ifdef MSTAT_BARE_CACHE
#define mstat_probe_bare()	true
#else
#define mstat_probe_bare()	false
#endif

#endif /* _MSTAT_MUTANT_H */
