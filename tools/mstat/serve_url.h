/* SPDX-License-Identifier: GPL-2.0 */
/* mstat serve's addresses: --listen's and a request's query (serve_url.c). */
#ifndef MSTAT_SERVE_URL_H
#define MSTAT_SERVE_URL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/*
 * The query of @uri: every pair well formed, and @key's value into @val
 * (of @len bytes; "" if absent or empty; @key NULL: none). Returns 1 if
 * @key is there, 0 if not, -1 if the query is malformed or has @key twice.
 */
int mstat_serve_query(const char *uri, const char *key, char *val,
		      size_t len);

/* ADDR:PORT or [ADDR]:PORT, numeric, into @sa; false after a message. */
bool mstat_serve_addr(const char *spec, struct sockaddr_storage *sa,
		      unsigned short *port);

#endif /* MSTAT_SERVE_URL_H */
