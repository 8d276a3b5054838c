// SPDX-License-Identifier: GPL-2.0
/*
 * mstat serve: what mstat prom and mstat pprof write, served over HTTP
 * by libmicrohttpd, for Prometheus and for pprof's clients (go tool
 * pprof, Parca, Grafana Alloy's pyroscope.scrape):
 *
 *   /metrics		mstat prom's text, with its --cache-* options, and
 *			mstat leaks' per-cache verdict (mstat_leak_*)
 *   /debug/pprof/heap	/proc/mstat_sites as a gzipped pprof profile,
 *			default sample type inuse_space
 *   /debug/pprof/allocs	the same, default sample type alloc_space
 *
 * GET and HEAD; other methods get 405, other paths 404, a query with a
 * bad %-escape or a known key twice 400. When a file cannot be read, 503
 * and the reason, one line.
 *
 * The profiles take Go's net/http/pprof parameters: ?seconds=N (1 to
 * MSTAT_SERVE_MAX_SECONDS) reads /proc/mstat_sites, waits N seconds,
 * reads it again and serves the difference (Content-Disposition
 * filename "heap-delta"), as Go's serveDeltaProfile() does; ?debug=0 is
 * the only debug accepted, ?gc= is ignored (there is no collector to
 * run), as are unknown keys.
 *
 * /metrics: one snapshot (one open of /proc/mstat) per scrape, at most
 * one every --min-interval ms: a scrape inside the interval gets the
 * answer of the last one, the same libmicrohttpd response queued again
 * (responses are reference-counted). Scrapes take the lock in turn:
 * one reads, the others wait for it and get its answer. With a sites
 * file (--sites, or /proc/mstat_sites beside the live /proc/mstat) that
 * answer's snapshot also reads it once, for mstat memory's raw pages by
 * caller (mstat_memory_sites()).
 *
 * The snapshot's age. Run as the package's unit, without CAP_SYS_ADMIN,
 * mstat serve is a bounded reader: within the module's
 * proc_min_interval_ms (or while four snapshots are held open by such
 * readers) its open of /proc/mstat is served the last snapshot again,
 * already snapshot_age_ms old, while /proc/meminfo, read right after it
 * for the account's VmallocUsed, Percpu and Hugetlb, is new. That age may
 * exceed --min-interval (a proc_min_interval_ms longer than it, or the
 * four held). The answer then is served and held as any other, its age
 * in it: mstat_snapshot_age_seconds, and mstat_memory_snapshot_age_seconds
 * beside the account's from="meminfo" lines (memory_out.c's mstat_memory_moment_prom()),
 * with unexplained's lag bound, mstat_memory_unexplained_bound_bytes.
 * Not read again: a bounded reader's next open within
 * proc_min_interval_ms would be served the same snapshot; not refused
 * with 503: the counters are true of their moment, and the leak window
 * places a snapshot at the time the kernel took it (mstat_snap_taken());
 * never made to look new. A scrape within --min-interval gets the same
 * answer, its figures older by that much at most, both moments alike.
 * The package's rules judge unexplained only from snapshots at most 60 s
 * older than their meminfo (prometheus/mstat.rules.yml).
 *
 * The leak verdict is over the last MSTAT_SERVE_LEAK_READS snapshots the
 * scrapes took (a window that slides: at a 15 s scrape interval, the
 * last 15 minutes), by mstat leaks' per-cache rule (leaks.c) at its
 * --confidence and --min-rate; a cache gets series once the window holds
 * enough reads for a verdict (14).
 *
 * The profiles are bounded the same way: one read of /proc/mstat_sites
 * at most every --min-interval ms, shared (reference-counted, read-only)
 * by the profiles encoded from it; a request inside the interval gets
 * the profile of the last read. The one exception is a ?seconds= delta's
 * second read, which needs a snapshot other than its first: it reads
 * anew if the last read is still that first one (at most one read per
 * delta, at most MSTAT_SERVE_DELTAS of them waiting at once, each for a
 * second at least).
 *
 * Bounds, so that no client, slow or many, can stall a scrape or grow
 * the server: libmicrohttpd runs a thread per connection (a slow client
 * holds up only its own thread), at most MSTAT_SERVE_CONNS connections
 * and as many waiting in the kernel's accept queue, MSTAT_SERVE_PER_IP
 * from one address (further ones are closed at once), each closed
 * after MSTAT_SERVE_TIMEOUT seconds without progress and limited to
 * MSTAT_SERVE_CONN_MEM bytes for its request (larger headers get 431,
 * a longer URI 414, from libmicrohttpd); at most MSTAT_SERVE_DELTAS
 * ?seconds= profiles wait at once (429 beyond).
 *
 * The port, 9754: in the exporters' range (9100-9999), of which the
 * Prometheus wiki's "default port allocations" list had given out every
 * port by 2023, so that no choice there is unclaimed; not the port of
 * the servers this project runs beside it (prometheus 9090, its node
 * exporter 9100). --listen gives another; port 0, one the kernel picks,
 * which the line that says the server is up names (a test's server:
 * test.sh's serve_start).
 * The address is 127.0.0.1: the counters and the profile say much about
 * the machine, so another address only when asked.
 *
 * Two hooks of the tests, environment variables, so that what they judge
 * is judged without the wall clock: MSTAT_LEAK_CLOCK_ENV (leaks_cache.h),
 * the leak window's reads placed at the times a replay recorded; and
 * MSTAT_SERVE_HOLD_ENV, a profile held between its reads and its build
 * (mstat_serve_hold()).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <microhttpd.h>

#include "input.h"
#include "leaks_cache.h"
#include "leaks_prom.h"
#include "memory.h"
#include "parse_snap.h"
#include "pprof.h"
#include "prom.h"
#include "serve.h"
#include "serve_url.h"
#include "util.h"

enum {
	MSTAT_SERVE_CONNS = 64,
	MSTAT_SERVE_PER_IP = 32,
	MSTAT_SERVE_TIMEOUT = 10,		/* seconds */
	MSTAT_SERVE_CONN_MEM = 32 << 10,
	MSTAT_SERVE_STACK = 256 << 10,		/* a connection thread's */
	MSTAT_SERVE_MAX_SECONDS = 300,
	MSTAT_SERVE_DELTAS = 4,
	MSTAT_SERVE_LEAK_READS = 60,
};

/* A FIFO where each profile waits before its build (mstat_serve_hold()). */
#define MSTAT_SERVE_HOLD_ENV	"MSTAT_SERVE_HOLD"

struct mstat_server {
	const struct mstat_opts *o;
	struct mstat_prom_filter filter;	/* compiled once, for every scrape */
	const char *sites;		/* /proc/mstat_sites or --sites */
	/* Everything below; the reads and encodings (mstat_err_keep()). */
	pthread_mutex_t lock;
	pthread_cond_t stop;		/* broadcast once stopping is set */
	bool stopping;
	struct MHD_Response *metrics;	/* the last scrape's answer, or NULL */
	unsigned int metrics_status;
	struct timespec metrics_at;	/* when it was read (CLOCK_MONOTONIC) */
	struct mstat_serve_read *sites_last;	/* the last read, or NULL */
	struct mstat_leak_window *leaks;	/* the last scrapes' caches */
	struct mstat_leak_cgs *cgs;	/* the cgroups' paths seen so far */
	int deltas;			/* ?seconds= profiles waiting */
	char why[256];			/* the last read's error message */
};

/* Answers */

static enum MHD_Result mstat_serve_answer(struct MHD_Connection *c,
					  unsigned int status, void *body,
					  size_t len, enum MHD_ResponseMemoryMode mode,
					  const char *type)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, body, mode);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* An error: one line of text. */
static enum MHD_Result MSTAT_PRINTF(3, 4)
mstat_serve_error(struct MHD_Connection *c, unsigned int status,
		  const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	return mstat_serve_answer(c, status, line, n, MHD_RESPMEM_MUST_COPY,
				  "text/plain; charset=utf-8");
}

/* /metrics */

/* Milliseconds from @a to @b. */
static long long mstat_ms(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000LL +
	       (b->tv_nsec - a->tv_nsec) / 1000000;
}

/*
 * When @s was taken, into @t: mstat_snap_taken(), or on a test's clock
 * (mstat_leak_clock()) less the snapshot's age. False after a message.
 */
static bool mstat_serve_taken(const struct mstat_snap *s, double *t)
{
	int clock = mstat_leak_clock(t);

	if (clock < 0)
		return false;
	if (clock)
		*t -= mstat_snap_age(s);
	else
		*t = mstat_snap_taken(s);
	return true;
}

/* A new answer for the scrapes: a snapshot, or 503. Context: srv->lock. */
static void __mstat_serve_snapshot(struct mstat_server *srv)
{
	unsigned int status = MHD_HTTP_OK;
	const char *type = "text/plain; version=0.0.4; charset=utf-8";
	struct mstat_sites *ss = NULL;
	struct mstat_owners *ow = NULL;
	struct mstat_snap *s;
	struct MHD_Response *r;
	char *body = NULL;
	size_t len = 0;
	double taken;
	FILE *f;
	int err = 1;

	srv->why[0] = '\0';
	mstat_err_keep(srv->why, sizeof(srv->why));
	s = mstat_snap_read(srv->o->file[0]);
	/*
	 * The raw pages' series read the sites file too, once a snapshot:
	 * at most once in --min-interval, as the snapshot.
	 */
	if (s && (mstat_memory_sites(srv->o, &ss) ||
		  mstat_memory_owners(srv->o, &ow) ||
		  !mstat_serve_taken(s, &taken))) {
		mstat_snap_free(s);
		s = NULL;
	}
	if (s) {
		f = open_memstream(&body, &len);
		if (f) {
			mstat_prom(f, s, &srv->filter,
				   mstat_memory_meminfo(srv->o), ss, ow);
			mstat_leak_window_add(srv->leaks, s, taken);
			mstat_leak_prom(f, srv->leaks, srv->o->confidence,
					srv->o->min_rate);
			if (ss)
				mstat_leak_prom_history(f, srv->o, s, ss, taken,
							srv->cgs);
			err = fclose(f);
		}
		mstat_snap_free(s);
	}
	mstat_sites_free(ss);
	mstat_owners_free(ow);
	mstat_err_keep(NULL, 0);
	if (err) {
		free(body);
		status = MHD_HTTP_SERVICE_UNAVAILABLE;
		type = "text/plain; charset=utf-8";
		len = (size_t)snprintf(NULL, 0, "%s\n", srv->why[0] ? srv->why :
				       "cannot format the snapshot");
		body = mstat_alloc(NULL, len + 1);
		snprintf(body, len + 1, "%s\n", srv->why[0] ? srv->why :
			 "cannot format the snapshot");
	}
	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
	} else {
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
		MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	}
	if (srv->metrics)
		MHD_destroy_response(srv->metrics);
	srv->metrics = r;
	srv->metrics_status = status;
	clock_gettime(CLOCK_MONOTONIC, &srv->metrics_at);
}

static enum MHD_Result mstat_serve_metrics(struct mstat_server *srv,
					   struct MHD_Connection *c)
{
	enum MHD_Result ret = MHD_NO;
	struct timespec now;

	pthread_mutex_lock(&srv->lock);
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!srv->metrics ||
	    mstat_ms(&srv->metrics_at, &now) >= srv->o->min_interval)
		__mstat_serve_snapshot(srv);
	if (srv->metrics)
		ret = MHD_queue_response(c, srv->metrics_status, srv->metrics);
	pthread_mutex_unlock(&srv->lock);
	return ret;
}

/* /debug/pprof/heap, /debug/pprof/allocs */

/* A read of the sites file that profiles share: never written after. */
struct mstat_serve_read {
	int refs;			/* under srv->lock */
	struct timespec at;		/* when it was read (CLOCK_MONOTONIC) */
	struct mstat_sites *ss;
};

/* Drop a reference. Context: srv->lock. */
static void __mstat_serve_put(struct mstat_serve_read *r)
{
	if (r && !--r->refs) {
		mstat_sites_free(r->ss);
		free(r);
	}
}

static void mstat_serve_put(struct mstat_server *srv,
			    struct mstat_serve_read *r)
{
	pthread_mutex_lock(&srv->lock);
	__mstat_serve_put(r);
	pthread_mutex_unlock(&srv->lock);
}

/*
 * A read of the sites file, with a reference for the caller: the last
 * one if younger than --min-interval and not @not (a delta's first read),
 * else a new one, which becomes the last; NULL with the reason in @why.
 */
static struct mstat_serve_read *mstat_serve_sites(struct mstat_server *srv,
						  const struct mstat_serve_read *not,
						  char *why, size_t len)
{
	struct mstat_serve_read *r;
	struct mstat_sites *ss;
	struct timespec now;

	pthread_mutex_lock(&srv->lock);
	clock_gettime(CLOCK_MONOTONIC, &now);
	r = srv->sites_last;
	if (r && r != not &&
	    mstat_ms(&r->at, &now) < srv->o->min_interval) {
		r->refs++;
		pthread_mutex_unlock(&srv->lock);
		return r;
	}
	srv->why[0] = '\0';
	mstat_err_keep(srv->why, sizeof(srv->why));
	ss = mstat_sites_read(srv->sites);
	mstat_err_keep(NULL, 0);
	snprintf(why, len, "%s", srv->why[0] ? srv->why : "cannot read");
	r = NULL;
	if (ss) {
		r = mstat_alloc(NULL, sizeof(*r));
		r->refs = 1;
		r->at = now;
		r->ss = ss;
		__mstat_serve_put(srv->sites_last);
		srv->sites_last = NULL;
		if (srv->o->min_interval) {
			r->refs++;
			srv->sites_last = r;
		}
	}
	pthread_mutex_unlock(&srv->lock);
	return r;
}

/* Wait @secs seconds, unless the server stops first (then false). */
static bool mstat_serve_wait(struct mstat_server *srv, long secs)
{
	struct timespec until;
	bool stopped;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += secs;
	pthread_mutex_lock(&srv->lock);
	while (!srv->stopping &&
	       pthread_cond_timedwait(&srv->stop, &srv->lock, &until) != ETIMEDOUT)
		;
	stopped = srv->stopping;
	pthread_mutex_unlock(&srv->lock);
	return !stopped;
}

/*
 * A test's hold (test.sh's serve_pprof_unlocked): with $MSTAT_SERVE_HOLD
 * naming a FIFO, a profile, its reads done and the lock let go, writes
 * "held" into it (its open waits for the test to read), then reads it
 * to its end (its open waits for the test to write): the test scrapes
 * /metrics while every profile is held here, before its build, and the
 * scrape must end, whatever the machine's speed. Unset: nothing.
 */
static void mstat_serve_hold(void)
{
	const char *path = getenv(MSTAT_SERVE_HOLD_ENV);
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "w");
	if (f) {
		fputs("held\n", f);
		fclose(f);
	}
	f = fopen(path, "r");
	if (f) {
		while (fgetc(f) != EOF)
			;
		fclose(f);
	}
}

/* ?seconds=N: 1 to MSTAT_SERVE_MAX_SECONDS. */
static bool mstat_serve_secs(const char *v, long *secs)
{
	unsigned long long n;

	if (!mstat_parse_u64(v, &n) || n == 0 || n > MSTAT_SERVE_MAX_SECONDS)
		return false;
	*secs = n;
	return true;
}

/* The profile, once the query is known good; @secs 0: no delta. */
static enum MHD_Result mstat_serve_profile(struct mstat_server *srv,
					   struct MHD_Connection *c,
					   enum mstat_pprof_kind kind,
					   long secs)
{
	struct mstat_serve_read *base = NULL, *ss = NULL;
	struct mstat_buf z = { 0 };
	char why[256], disp[64];
	enum MHD_Result ret;
	bool waited = true, ok;

	if (secs)
		base = mstat_serve_sites(srv, NULL, why, sizeof(why));
	if (secs && base)
		waited = mstat_serve_wait(srv, secs);
	if (!waited)
		snprintf(why, sizeof(why), "shutting down");
	else if (!secs || base)
		ss = mstat_serve_sites(srv, base, why, sizeof(why));
	if (!ss) {
		mstat_serve_put(srv, base);
		return mstat_serve_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "%s",
					 why);
	}
	/*
	 * Not under the lock, which every scrape takes: the profile's cgroup
	 * walk and gzip take their time (the reads are held, and never
	 * change; mstat_err() keeps each thread's messages apart).
	 */
	mstat_serve_hold();
	ok = mstat_pprof_gz(&z, ss->ss, base ? base->ss : NULL, kind);
	mstat_serve_put(srv, base);
	mstat_serve_put(srv, ss);
	if (!ok) {
		free(z.p);
		return mstat_serve_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR,
					 "cannot gzip the profile");
	}
	/* As Go's net/http/pprof names them. */
	snprintf(disp, sizeof(disp), "attachment; filename=\"%s%s\"",
		 kind == MSTAT_PPROF_HEAP ? "heap" : "allocs",
		 secs ? "-delta" : "");
	{
		struct MHD_Response *r;

		r = MHD_create_response_from_buffer(z.len, z.p,
						    MHD_RESPMEM_MUST_FREE);
		if (!r) {
			free(z.p);
			return MHD_NO;
		}
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
					"application/octet-stream");
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_DISPOSITION,
					disp);
		MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
		ret = MHD_queue_response(c, MHD_HTTP_OK, r);
		MHD_destroy_response(r);
	}
	return ret;
}

static enum MHD_Result mstat_serve_pprof(struct mstat_server *srv,
					 struct MHD_Connection *c,
					 const char *uri,
					 enum mstat_pprof_kind kind)
{
	enum MHD_Result ret;
	long secs = 0;
	char v[64];
	int q;

	q = mstat_serve_query(uri, "debug", v, sizeof(v));
	if (q < 0)
		return mstat_serve_error(c, MHD_HTTP_BAD_REQUEST, "malformed query");
	if (q > 0 && v[0] && strcmp(v, "0"))
		return mstat_serve_error(c, MHD_HTTP_BAD_REQUEST,
					 "debug=%s: only the protobuf profile (debug=0) is served",
					 v);
	q = mstat_serve_query(uri, "seconds", v, sizeof(v));
	if (q < 0)
		return mstat_serve_error(c, MHD_HTTP_BAD_REQUEST, "malformed query");
	/* Go's words; an empty value is no value, as r.FormValue() has it. */
	if (v[0] && !mstat_serve_secs(v, &secs))
		return mstat_serve_error(c, MHD_HTTP_BAD_REQUEST,
					 "invalid value for \"seconds\" - must be a positive integer, at most %d",
					 MSTAT_SERVE_MAX_SECONDS);
	if (!secs)
		return mstat_serve_profile(srv, c, kind, 0);
	pthread_mutex_lock(&srv->lock);
	q = srv->deltas < MSTAT_SERVE_DELTAS;
	srv->deltas += q;
	pthread_mutex_unlock(&srv->lock);
	if (!q)
		return mstat_serve_error(c, MHD_HTTP_TOO_MANY_REQUESTS,
					 "%d profiles with seconds= in progress already",
					 MSTAT_SERVE_DELTAS);
	ret = mstat_serve_profile(srv, c, kind, secs);
	pthread_mutex_lock(&srv->lock);
	srv->deltas--;
	pthread_mutex_unlock(&srv->lock);
	return ret;
}

/* Requests */

/* A request: its raw URI, query and all (MHD_OPTION_URI_LOG_CALLBACK). */
struct mstat_request {
	bool seen;		/* its headers, once: the answer comes after */
	char uri[];
};

static void *mstat_serve_uri(void *cls, const char *uri,
			     struct MHD_Connection *c)
{
	size_t n = strlen(uri);
	struct mstat_request *rq = mstat_alloc(NULL, sizeof(*rq) + n + 1);

	(void)cls;
	(void)c;
	rq->seen = false;
	memcpy(rq->uri, uri, n + 1);
	return rq;
}

static void mstat_serve_done(void *cls, struct MHD_Connection *c,
			     void **req, enum MHD_RequestTerminationCode how)
{
	(void)cls;
	(void)c;
	(void)how;
	free(*req);
	*req = NULL;
}

static enum MHD_Result mstat_serve_request(void *cls, struct MHD_Connection *c,
					   const char *url, const char *method,
					   const char *version,
					   const char *upload,
					   size_t *upload_len, void **req)
{
	static const char *const paths[] = {
		"/metrics", "/debug/pprof/heap", "/debug/pprof/allocs",
	};
	struct mstat_server *srv = cls;
	struct mstat_request *rq = *req;
	const char *uri = rq ? rq->uri : url;
	char v[2];
	size_t i;

	(void)version;
	(void)upload;
	for (i = 0; i < ARRAY_SIZE(paths) && strcmp(url, paths[i]); i++)
		;
	if (i == ARRAY_SIZE(paths))
		return mstat_serve_error(c, MHD_HTTP_NOT_FOUND,
					 "not found: /metrics, /debug/pprof/heap and /debug/pprof/allocs are");
	if (strcmp(method, MHD_HTTP_METHOD_GET) &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD))
		return mstat_serve_error(c, MHD_HTTP_METHOD_NOT_ALLOWED,
					 "method not allowed: GET or HEAD");
	if (mstat_serve_query(uri, NULL, v, sizeof(v)) < 0)
		return mstat_serve_error(c, MHD_HTTP_BAD_REQUEST, "malformed query");
	/*
	 * A good request is answered once it has been read whole, a body
	 * (ignored) included: answered from the first call, libmicrohttpd
	 * would close the connection after it, where a scraper keeps it.
	 */
	if (*upload_len) {
		*upload_len = 0;
		return MHD_YES;
	}
	if (rq && !rq->seen) {
		rq->seen = true;
		return MHD_YES;
	}
	if (i == 0)
		return mstat_serve_metrics(srv, c);
	return mstat_serve_pprof(srv, c, uri,
				 i == 1 ? MSTAT_PPROF_HEAP : MSTAT_PPROF_ALLOCS);
}

/* Set-up */

static struct MHD_Daemon *mstat_serve_start(struct mstat_server *srv,
					    struct sockaddr_storage *sa,
					    unsigned short port)
{
	unsigned int flags = MHD_USE_THREAD_PER_CONNECTION |
			     MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
			     MHD_USE_ERROR_LOG;

	if (sa->ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	return MHD_start_daemon(flags, port, NULL, NULL,
				&mstat_serve_request, srv,
				MHD_OPTION_SOCK_ADDR, (struct sockaddr *)sa,
				MHD_OPTION_CONNECTION_LIMIT,
				(unsigned int)MSTAT_SERVE_CONNS,
				MHD_OPTION_LISTEN_BACKLOG_SIZE,
				(unsigned int)MSTAT_SERVE_CONNS,
				MHD_OPTION_PER_IP_CONNECTION_LIMIT,
				(unsigned int)MSTAT_SERVE_PER_IP,
				MHD_OPTION_CONNECTION_TIMEOUT,
				(unsigned int)MSTAT_SERVE_TIMEOUT,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT,
				(size_t)MSTAT_SERVE_CONN_MEM,
				MHD_OPTION_THREAD_STACK_SIZE,
				(size_t)MSTAT_SERVE_STACK,
				MHD_OPTION_URI_LOG_CALLBACK,
				&mstat_serve_uri, srv,
				MHD_OPTION_NOTIFY_COMPLETED,
				&mstat_serve_done, srv,
				MHD_OPTION_END);
}

int do_serve(const struct mstat_opts *o, int argc, char **argv)
{
	const char *listen = o->listen ? o->listen : MSTAT_SERVE_LISTEN;
	struct mstat_server srv = { .o = o };
	struct sockaddr_storage sa;
	struct MHD_Daemon *d;
	pthread_condattr_t ca;
	const union MHD_DaemonInfo *info;
	unsigned short port;
	sigset_t set;
	int sig;

	(void)argc;
	(void)argv;
	if (!mstat_serve_addr(listen, &sa, &port) ||
	    !mstat_prom_filter_init(&srv.filter, o))
		return EXIT_USAGE;
	srv.sites = o->sites ? o->sites : MSTAT_SITES_PROC;
	srv.leaks = mstat_leak_window_new(MSTAT_SERVE_LEAK_READS);
	srv.cgs = mstat_leak_cgs_new();
	pthread_mutex_init(&srv.lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&srv.stop, &ca);
	pthread_condattr_destroy(&ca);
	/* Blocked before the threads start, so that sigwait() gets them. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	d = mstat_serve_start(&srv, &sa, port);
	if (!d) {
		mstat_err("cannot serve on %s%s%s", listen, errno ? ": " : "",
			  errno ? strerror(errno) : "");
		mstat_prom_filter_free(&srv.filter);
		mstat_leak_window_free(srv.leaks);
		mstat_leak_cgs_free(srv.cgs);
		return EXIT_INPUT;
	}
	/* The port bound: --listen's, or the kernel's pick for port 0. */
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	if (info && info->port)
		port = info->port;
	fprintf(stderr, "mstat: serving %s and %s on http://%.*s:%u/ (/metrics, /debug/pprof/heap, /debug/pprof/allocs)\n",
		o->file[0], srv.sites, (int)(strrchr(listen, ':') - listen),
		listen, port);
	fflush(stderr);
	sigwait(&set, &sig);
	pthread_mutex_lock(&srv.lock);
	srv.stopping = true;
	pthread_cond_broadcast(&srv.stop);
	pthread_mutex_unlock(&srv.lock);
	MHD_stop_daemon(d);
	if (srv.metrics)
		MHD_destroy_response(srv.metrics);
	__mstat_serve_put(srv.sites_last);
	mstat_prom_filter_free(&srv.filter);
	mstat_leak_window_free(srv.leaks);
	mstat_leak_cgs_free(srv.cgs);
	fprintf(stderr, "mstat: %s, stopped\n", strsignal(sig));
	return 0;
}
