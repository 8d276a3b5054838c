// SPDX-License-Identifier: GPL-2.0
/*
 * mstat serve's addresses, read from text: --listen's ADDR:PORT, and a
 * request's query, read from the raw URI (libmicrohttpd's own decoding
 * forgives what a query here must not have: a bad %-escape, a control
 * character).
 */
#define _POSIX_C_SOURCE 200809L

#include <netdb.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>

#include "parse.h"
#include "serve_url.h"
#include "util.h"

static int mstat_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * @n bytes at @s, %-decoded ("+" is a space) into @out of @len bytes;
 * false on a bad escape, a control character or no room.
 */
static bool mstat_unescape(const char *s, size_t n, char *out, size_t len)
{
	size_t i, k = 0;
	int hi, lo;

	for (i = 0; i < n; i++) {
		char ch = s[i];

		if (ch == '%') {
			if (i + 2 >= n)
				return false;
			hi = mstat_hex(s[i + 1]);
			lo = mstat_hex(s[i + 2]);
			if (hi < 0 || lo < 0)
				return false;
			ch = (char)(hi << 4 | lo);
			i += 2;
		} else if (ch == '+') {
			ch = ' ';
		}
		if ((unsigned char)ch < 0x20 || ch == 0x7f || k + 1 >= len)
			return false;
		out[k++] = ch;
	}
	out[k] = '\0';
	return true;
}

int mstat_serve_query(const char *uri, const char *key, char *val,
		      size_t len)
{
	const char *q = strchr(uri, '?'), *end, *eq;
	char k[64], v[64];
	int found = 0, skip;

	val[0] = '\0';
	if (!q)
		return 0;
	for (q++; *q; q = *end ? end + 1 : end) {
		end = q + strcspn(q, "&");
		eq = memchr(q, '=', end - q);
		if (!eq)
			eq = end;
		skip = eq < end;	/* the "=" */
		if (!mstat_unescape(q, eq - q, k, sizeof(k)) ||
		    !mstat_unescape(eq + skip, end - eq - skip, v, sizeof(v)))
			return -1;
		if (!key || strcmp(k, key))
			continue;
		if (found++)
			return -1;
		if (strlen(v) >= len)
			return -1;
		memcpy(val, v, strlen(v) + 1);
	}
	return found;
}

bool mstat_serve_addr(const char *spec, struct sockaddr_storage *sa,
		      unsigned short *port)
{
	struct addrinfo hints = {
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE,
		.ai_socktype = SOCK_STREAM,
	};
	const char *colon = strrchr(spec, ':');
	struct addrinfo *ai;
	unsigned long long p;
	char host[INET6_ADDRSTRLEN + 2];
	size_t n;
	int err;

	if (!colon || !mstat_parse_u64(colon + 1, &p) || p > 65535)
		goto bad;
	n = colon - spec;
	if (n && spec[0] == '[' && spec[n - 1] == ']') {
		spec++;
		n -= 2;
	}
	if (!n || n >= sizeof(host))
		goto bad;
	memcpy(host, spec, n);
	host[n] = '\0';
	err = getaddrinfo(host, colon + 1, &hints, &ai);
	if (err) {
		mstat_err("--listen %s: %s", spec, gai_strerror(err));
		return false;
	}
	memcpy(sa, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	*port = p;
	return true;
bad:
	mstat_err("--listen wants ADDR:PORT or [ADDR]:PORT, numeric, got %s (see mstat --help)",
		  spec);
	return false;
}
