// SPDX-License-Identifier: GPL-2.0
/*
 * truth - judge mstat's counts against a known truth, in a guest: for each
 * pattern of the mstat_truth module (tests/truth/mstat_truth.c), read
 * /proc/mstat, run the pattern (N allocations and N frees through one
 * kernel API), read /proc/mstat again; then take IDLE windows as long as
 * the run, each between two reads as well, with a sleep instead of the
 * pattern. Every row the module says it touched (a source, a size class,
 * a page order) is judged on its allocations and its frees:
 *
 *	error = counted - truth,	background = max |idle delta|
 *	pass iff |error| <= 2 * background + slack
 *
 * (slack: what the module says the kernel's own work beside the pattern
 * may add, 0 for every pattern but vmalloc's page tables)
 *
 * so a row that nothing else touches must be exact, and a double count
 * or a missed free (an error of N) fails wherever the background is
 * smaller than N / 2. A pattern that fails is run again, up to TRIES
 * times in all (see main()).
 *
 * A failure pattern ("fail_...", on a kernel with fault injection; see
 * the module) also says how many of its allocations failed, per source
 * and page order: those rows' failures are judged the same way, on every
 * kernel (nothing allocates beside a failed allocation), and a failure
 * pattern in which nothing failed fails. Failure patterns run only when
 * named (the patterns file marks them, and bulk_fallback, "named"):
 * without fault injection set up, nothing of theirs fails.
 *
 *	truth [-n N] [-i IDLE] [-x PATTERN] [-r ROW] [PATTERN...]
 *
 * A user pattern (msg_msg) is made here, not in the module: N msgsnd()
 * and N msgrcv() on a System V queue of this process's own, in batches,
 * between the two reads; the module is then told what was done ("msg_msg
 * N LEN") and says which rows that should have moved. Its run time is
 * this process's clock, and its idle windows are as long.
 *
 * Prints "ok truth-PATTERN" or "not ok truth-PATTERN: ROW ..." per
 * pattern, and per row a "# row" line with the figures (truth, counted,
 * idle background). -x PATTERN: that pattern must fail (a broken build's
 * test): ok if it does. -r ROW: that row is printed, not judged, on a
 * kernel whose debugging allocates beside each object through it
 * (kmemleak's objects in the cache source, KASAN's vmalloc shadow in the
 * page source). Exits 1 if a check failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <time.h>
#include <unistd.h>

#define RUN	"/sys/kernel/debug/mstat_truth/run"
#define PATS	"/sys/kernel/debug/mstat_truth/patterns"
#define MAXROWS	8
#define MAXPATS	64
#define MAXIDLE	8
#define TRIES	3

struct counts {
	long long allocs, frees, fails;
	int has_fails;		/* the row has a failures count */
};

static char snapbuf[1 << 17];

/* Read all of @path into snapbuf; one open is one snapshot. */
static int slurp(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	if (n < 0)
		return -errno;
	buf[len] = '\0';
	return 0;
}

/*
 * The cache row named @name in the /proc/mstat text @t: "cache ID SIZE
 * ALLOCS FREES FAILURES LIVE LIVE_BYTES STATE NAME", its allocs and
 * frees. Returns 0, or -1 if no row has that name.
 */
static int cache_counts(const char *t, const char *name, struct counts *c)
{
	char rname[300];
	const char *p;

	for (p = strstr(t, "\ncache "); p; p = strstr(p + 1, "\ncache ")) {
		if (sscanf(p + 7, "%*u %*u %lld %lld %*u %*d %*d %*s %299s",
			   &c->allocs, &c->frees, rname) == 3 &&
		    !strcmp(rname, name)) {
			c->has_fails = 0;
			return 0;
		}
	}
	return -1;
}

/* The value of the line "@name N" of @t into @v; 0, or -1 if none. */
static int line_value(const char *t, const char *name, long long *v)
{
	char key[80];
	const char *p;

	snprintf(key, sizeof(key), "\n%s ", name);
	p = strstr(t, key);
	return p && sscanf(p + strlen(key), "%lld", v) == 1 ? 0 : -1;
}

/*
 * The row @row of the /proc/mstat text @t: "SRC" (SRC_allocs,
 * SRC_frees, SRC_failures), "class:SIZE" (that table row's first two
 * counts), "order:N" (its first three: allocs, frees, failures),
 * "cache:NAME" (cache_counts()), "bytes:SRC" (SRC_bytes_allocated and
 * SRC_bytes_freed, as allocs and frees) or "vmbytes:KIND" (the "vm KIND"
 * row's bytes_allocated and bytes_freed).
 * Returns 0, or -1 if it is not there.
 */
static int row_counts(const char *t, const char *row, struct counts *c)
{
	char key[64], pat[80];
	const char *p, *arg = strchr(row, ':');
	int n;

	if (arg && !strncmp(row, "bytes:", 6)) {
		snprintf(key, sizeof(key), "%.31s_bytes_allocated", arg + 1);
		if (line_value(t, key, &c->allocs))
			return -1;
		snprintf(key, sizeof(key), "%.31s_bytes_freed", arg + 1);
		c->has_fails = 0;
		return line_value(t, key, &c->frees);
	}
	if (arg && !strncmp(row, "vmbytes:", 8)) {
		snprintf(pat, sizeof(pat), "\nvm %.31s ", arg + 1);
		p = strstr(t, pat);
		c->has_fails = 0;
		return p && sscanf(p + strlen(pat), "%*u %*u %*d %lld %lld",
				   &c->allocs, &c->frees) == 2 ? 0 : -1;
	}

	if (!arg) {
		snprintf(key, sizeof(key), "\n%s_allocs ", row);
		p = strstr(t, key);
		if (!p || sscanf(p + strlen(key), "%lld", &c->allocs) != 1)
			return -1;
		snprintf(key, sizeof(key), "\n%s_frees ", row);
		p = strstr(t, key);
		if (!p || sscanf(p + strlen(key), "%lld", &c->frees) != 1)
			return -1;
		snprintf(key, sizeof(key), "\n%s_failures ", row);
		p = strstr(t, key);
		c->has_fails = p && sscanf(p + strlen(key), "%lld",
					   &c->fails) == 1;
		return 0;
	}
	n = (int)(arg - row);
	if (!strncmp(row, "cache:", 6))
		return cache_counts(t, arg + 1, c);
	snprintf(pat, sizeof(pat), "\n%.*s %s ", n, row, arg + 1);
	p = strstr(t, pat);
	if (!p)
		return -1;
	n = sscanf(p + strlen(pat), "%lld %lld %lld", &c->allocs, &c->frees,
		   &c->fails);
	if (n < 2)
		return -1;
	c->has_fails = n == 3 && !strncmp(row, "order:", 6);
	return 0;
}

struct row {
	char name[32];
	struct counts truth, run, idle[MAXIDLE];
};

static struct row rows[MAXROWS];
static char *unjudged[MAXROWS];
static int nunjudged;

static int judged(const char *row)
{
	int i;

	for (i = 0; i < nunjudged; i++)
		if (!strcmp(unjudged[i], row))
			return 0;
	return 1;
}
static int nrows;
static char before[1 << 17], after[1 << 17];

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : n < 0 ? -errno : -EIO;
}

/* Read /proc/mstat, write @cmd to the run file, read /proc/mstat again. */
static int window(const char *cmd)
{
	int err;

	err = slurp("/proc/mstat", before, sizeof(before));
	if (err)
		return err;
	err = write_str(RUN, cmd);
	if (err)
		return err;
	return slurp("/proc/mstat", after, sizeof(after));
}

#define MSG_LEN		400	/* 448 bytes with struct msg_msg: class 512 */
#define MSG_BATCH	32	/* 12,800 bytes queued: under msgmnb's 16,384 */

/*
 * msg_msg: @n messages of MSG_LEN bytes sent and received on a private
 * queue, MSG_BATCH at a time, between the two reads; the queue is made
 * and removed outside them. Returns the number of messages that went
 * both ways, or -errno.
 */
static long msg_msg_window(long n, unsigned long long *ns)
{
	struct {
		long mtype;
		char mtext[MSG_LEN];
	} m = { .mtype = 1 };
	struct timespec t0, t1;
	long done = 0, i, k;
	int q, err = 0;

	q = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	if (q < 0)
		return -errno;
	memset(m.mtext, 'm', sizeof(m.mtext));
	err = slurp("/proc/mstat", before, sizeof(before));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; !err && i < n; i += k) {
		for (k = 0; k < MSG_BATCH && i + k < n; k++)
			if (msgsnd(q, &m, MSG_LEN, IPC_NOWAIT)) {
				err = -errno;
				break;
			}
		for (long j = 0; j < k; j++)
			if (msgrcv(q, &m, MSG_LEN, 0, IPC_NOWAIT) != MSG_LEN) {
				err = err ?: -errno;
				break;
			}
		done += k;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!err)
		err = slurp("/proc/mstat", after, sizeof(after));
	msgctl(q, IPC_RMID, NULL);
	*ns = (t1.tv_sec - t0.tv_sec) * 1000000000ULL + t1.tv_nsec -
	      t0.tv_nsec;
	return err ?: done;
}

/*
 * Run @pat: in the module ("PATTERN N") or here, for a user pattern,
 * then tell the module what was done. Returns 0, or -errno.
 */
static int run(const char *pat, long n, unsigned long long *ns)
{
	char cmd[96];
	long done;

	if (strcmp(pat, "msg_msg")) {
		snprintf(cmd, sizeof(cmd), "%s %ld", pat, n);
		return window(cmd);
	}
	done = msg_msg_window(n, ns);
	if (done < 0)
		return done;
	snprintf(cmd, sizeof(cmd), "%s %ld %d", pat, done, MSG_LEN);
	return write_str(RUN, cmd);
}

static int delta(const char *row, struct counts *d)
{
	struct counts a, b;

	/*
	 * A cache's row is claimed at its first event: one that the read
	 * before the run has not got yet counted nothing yet.
	 */
	if (row_counts(before, row, &a)) {
		if (strncmp(row, "cache:", 6))
			return -1;
		memset(&a, 0, sizeof(a));
	}
	if (row_counts(after, row, &b))
		return -1;
	d->allocs = b.allocs - a.allocs;
	d->frees = b.frees - a.frees;
	d->fails = b.fails - a.fails;
	d->has_fails = a.has_fails && b.has_fails;
	return 0;
}

/*
 * Whether @row's source is one this kernel does not give ("SRC_present
 * 0", format 1.6): a vmalloc or percpu row then must count nothing, so
 * its truth is 0, never a guess.
 */
static int row_absent(const char *row)
{
	char key[48];
	long long v;
	const char *src = row, *colon = strchr(row, ':');

	if (colon && (!strncmp(row, "vm:", 3) || !strncmp(row, "vmbytes:", 8)))
		src = "vmalloc";
	else if (colon && !strncmp(row, "bytes:", 6))
		src = colon + 1;
	else if (colon)
		return 0;
	snprintf(key, sizeof(key), "%.31s_present", src);
	return !line_value(before, key, &v) && v == 0;
}

static long long llabs_(long long v)
{
	return v < 0 ? -v : v;
}

/* Run @pat, then @nidle idle windows; judge. Returns 1 if it passed. */
static int judge(const char *pat, long n, int nidle, char *why, size_t wlen)
{
	char cmd[96], *line, *save;
	unsigned long long ns = 0, slack = 0, user_ns = 0;
	long long truth_fails = 0;
	int i, k, err, pass = 1;

	err = run(pat, n, &user_ns);
	if (err) {
		snprintf(why, wlen, "run failed: %s", strerror(-err));
		return 0;
	}
	/* What the module says it did. */
	if (slurp(RUN, snapbuf, sizeof(snapbuf))) {
		snprintf(why, wlen, "cannot read %s", RUN);
		return 0;
	}
	nrows = 0;
	for (line = strtok_r(snapbuf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct row *r = &rows[nrows];

		if (sscanf(line, "pattern %*s n %*d ns %llu slack %llu", &ns,
			   &slack) >= 1)
			continue;
		r->truth.fails = 0;
		if (nrows < MAXROWS &&
		    sscanf(line, "row %31s allocs %lld frees %lld fails %lld",
			   r->name, &r->truth.allocs, &r->truth.frees,
			   &r->truth.fails) >= 3) {
			truth_fails += r->truth.fails;
			nrows++;
		}
	}
	if (user_ns)
		ns = user_ns;
	for (i = 0; i < nrows; i++) {
		if (delta(rows[i].name, &rows[i].run)) {
			snprintf(why, wlen, "no row %.31s in /proc/mstat",
				 rows[i].name);
			return 0;
		}
		if (row_absent(rows[i].name)) {
			printf("# row %s %s: its source is absent on this kernel: it must count nothing\n",
			       pat, rows[i].name);
			rows[i].truth.allocs = 0;
			rows[i].truth.frees = 0;
		}
	}
	for (k = 0; k < nidle; k++) {
		snprintf(cmd, sizeof(cmd), "idle %llu", ns);
		if (window(cmd)) {
			snprintf(why, wlen, "idle window failed");
			return 0;
		}
		for (i = 0; i < nrows; i++)
			delta(rows[i].name, &rows[i].idle[k]);
	}

	why[0] = '\0';
	for (i = 0; i < nrows; i++) {
		struct row *r = &rows[i];
		long long bga = 0, bgf = 0, ea, ef;
		int ok;

		for (k = 0; k < nidle; k++) {
			if (llabs_(r->idle[k].allocs) > bga)
				bga = llabs_(r->idle[k].allocs);
			if (llabs_(r->idle[k].frees) > bgf)
				bgf = llabs_(r->idle[k].frees);
		}
		ea = r->run.allocs - r->truth.allocs;
		ef = r->run.frees - r->truth.frees;
		ok = (llabs_(ea) <= 2 * bga + (long long)slack &&
		      llabs_(ef) <= 2 * bgf + (long long)slack) ||
		     !judged(r->name);
		printf("# row %s %s: allocs truth %lld counted %lld (error %+lld, idle %lld); frees truth %lld counted %lld (error %+lld, idle %lld); live truth %lld counted %lld; %s\n",
		       pat, r->name, r->truth.allocs, r->run.allocs, ea, bga,
		       r->truth.frees, r->run.frees, ef, bgf,
		       r->truth.allocs - r->truth.frees,
		       r->run.allocs - r->run.frees,
		       !judged(r->name) ? "not judged on this kernel" :
		       ok ? (ea || ef ? (llabs_(ea) <= 2 * bga &&
					 llabs_(ef) <= 2 * bgf ?
					 "within background" : "within slack") :
			     "exact") :
		       "WRONG");
		if (!ok) {
			size_t l = strlen(why);

			snprintf(why + l, wlen - l, "%s%.31s allocs %+lld frees %+lld",
				 l ? ", " : "", r->name, ea, ef);
			pass = 0;
		}
		/*
		 * Failures are judged on every kernel: no debugging
		 * allocates beside an allocation that failed.
		 */
		if (r->run.has_fails) {
			long long bgx = 0, ex = r->run.fails - r->truth.fails;

			for (k = 0; k < nidle; k++)
				if (llabs_(r->idle[k].fails) > bgx)
					bgx = llabs_(r->idle[k].fails);
			ok = llabs_(ex) <= 2 * bgx;
			printf("# fails %s %s: truth %lld counted %lld (error %+lld, idle %lld); %s\n",
			       pat, r->name, r->truth.fails, r->run.fails, ex,
			       bgx, ok ? (ex ? "within background" : "exact") :
			       "WRONG");
			if (!ok) {
				size_t l = strlen(why);

				snprintf(why + l, wlen - l, "%s%.31s failures %+lld",
					 l ? ", " : "", r->name, ex);
				pass = 0;
			}
		}
	}
	/* A failure pattern in which nothing failed tested nothing. */
	if (!strncmp(pat, "fail_", 5) && !truth_fails) {
		size_t l = strlen(why);

		snprintf(why + l, wlen - l, "%sno allocation failed (fault injection not set up?)",
			 l ? ", " : "");
		pass = 0;
	}
	printf("# pattern %s: %ld, %llu ns (guest clock), slack %llu\n", pat,
	       n, ns, slack);
	return pass;
}

int main(int argc, char **argv)
{
	char *pats[MAXPATS], *xfail[MAXPATS], why[512], *line, *save;
	int npats = 0, nx = 0, nidle = 3, failed = 0, opt, i, j, t, pass, want;
	long n = 4000;

	while ((opt = getopt(argc, argv, "n:i:x:r:")) != -1) {
		switch (opt) {
		case 'n':
			n = atol(optarg);
			break;
		case 'i':
			nidle = atoi(optarg);
			break;
		case 'x':
			if (nx < MAXPATS)
				xfail[nx++] = optarg;
			break;
		case 'r':
			if (nunjudged < MAXROWS)
				unjudged[nunjudged++] = optarg;
			break;
		default:
			fprintf(stderr, "usage: truth [-n N] [-i IDLE] [-x PATTERN] [-r ROW] [PATTERN...]\n");
			return 2;
		}
	}
	if (n < 1 || nidle < 1 || nidle > MAXIDLE) {
		fprintf(stderr, "truth: -n 1.., -i 1..%d\n", MAXIDLE);
		return 2;
	}
	for (i = optind; i < argc && npats < MAXPATS; i++)
		pats[npats++] = argv[i];
	if (!npats) {
		static char list[4096];

		if (slurp(PATS, list, sizeof(list))) {
			printf("not ok truth-patterns: cannot read %s\n", PATS);
			return 1;
		}
		/* The module says which run only when named. */
		for (line = strtok_r(list, "\n", &save); line && npats < MAXPATS;
		     line = strtok_r(NULL, "\n", &save))
			if (!strchr(line, ' '))
				pats[npats++] = line;
	}
	for (i = 0; i < npats; i++) {
		want = 1;
		for (j = 0; j < nx; j++)
			if (!strcmp(xfail[j], pats[i]))
				want = 0;
		/*
		 * Background that no idle window saw (a deferred free of the
		 * boot's, a timer's work) can land in one run: a pattern
		 * has TRIES runs to come within the background. A counting
		 * bug misses by N in every one.
		 */
		for (t = 1; t <= TRIES; t++) {
			pass = judge(pats[i], n, nidle, why, sizeof(why));
			if (pass)
				break;
			printf("# run %d of %s: %s\n", t, pats[i], why);
		}
		if (pass == want) {
			printf("ok truth-%s%s\n", pats[i],
			       !want ? " (fails, as it must)" :
			       t > 1 ? " (after a run off by background)" : "");
		} else {
			printf("not ok truth-%s: %s\n", pats[i],
			       want ? why : "passed, but must fail");
			failed++;
		}
		fflush(stdout);
	}
	return failed ? 1 : 0;
}
