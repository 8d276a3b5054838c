/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat serve: /metrics and /debug/pprof/{heap,allocs} over HTTP. Two
 * units implement it: serve.c, the server (libmicrohttpd), linked into
 * mstat-serve; and serve_exec.c, linked into the static mstat instead,
 * which runs mstat-serve with the same arguments.
 */
#ifndef MSTAT_SERVE_H
#define MSTAT_SERVE_H

#include "opts.h"

/* Default address of mstat serve (see serve.c for the port). */
#define MSTAT_SERVE_LISTEN	"127.0.0.1:9754"

/* Serve until SIGTERM or SIGINT; returns the exit status. */
int do_serve(const struct mstat_opts *o, char **argv);

#endif /* MSTAT_SERVE_H */
