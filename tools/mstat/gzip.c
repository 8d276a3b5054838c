// SPDX-License-Identifier: GPL-2.0
/*
 * The gzip container (RFC 1952) of a pprof profile, compressed with
 * zlib's deflate (RFC 1951), linked statically: MTIME 0, so the same
 * profile gives the same bytes.
 */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <zlib.h>

#include "gzip.h"

bool mstat_gzip(struct mstat_buf *z, const void *p, size_t n)
{
	z_stream zs = { 0 };
	uLong bound;
	int rc;

	/* 15 + 16: a 32 KiB window, in a gzip wrapper rather than zlib's. */
	if (deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		mstat_err("zlib: deflateInit2 failed");
		return false;
	}
	bound = deflateBound(&zs, n);
	if (n > UINT_MAX || bound > UINT_MAX) {
		mstat_err("profile too large to compress (%zu bytes)", n);
		deflateEnd(&zs);
		return false;
	}
	if (z->cap - z->len < bound) {
		z->cap = z->len + bound;
		z->p = mstat_alloc(z->p, z->cap);
	}
	zs.next_in = (Bytef *)p;
	zs.avail_in = n;
	zs.next_out = z->p + z->len;
	zs.avail_out = bound;
	rc = deflate(&zs, Z_FINISH);
	if (rc == Z_STREAM_END)
		z->len += zs.total_out;
	else
		mstat_err("zlib: deflate: %s", zs.msg ? zs.msg : "failed");
	deflateEnd(&zs);
	return rc == Z_STREAM_END;
}
