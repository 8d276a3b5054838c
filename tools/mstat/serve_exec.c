// SPDX-License-Identifier: GPL-2.0
/*
 * mstat serve in the static mstat: run mstat-serve, which has the server.
 *
 * The static mstat is what the test guests run: they have no C library
 * of ours. libmicrohttpd cannot be linked statically on Debian: its
 * libmicrohttpd.a calls GnuTLS, and Debian ships no libgnutls.a. So the
 * server is a program of its own, mstat-serve (the same commands, plus
 * serve.c, linked dynamically), and `mstat serve` execs it with its own
 * arguments: first the mstat-serve beside this program (the build
 * directory), then the one in MSTAT_LIBEXECDIR (the Debian package's).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "serve.h"
#include "util.h"

#ifndef MSTAT_LIBEXECDIR
#define MSTAT_LIBEXECDIR "/usr/libexec/mstat"
#endif

int do_serve(const struct mstat_opts *o, int argc, char **argv)
{
	char **args = mstat_alloc(NULL, (argc + 2) * sizeof(*args));
	char path[PATH_MAX];
	ssize_t n;
	char *slash;

	(void)o;
	/* mstat serve ...: @argv begins with the command's name. */
	args[0] = "mstat";
	memcpy(args + 1, argv, argc * sizeof(*args));
	args[argc + 1] = NULL;
	argv = args;
	n = readlink("/proc/self/exe", path, sizeof(path) - sizeof("mstat-serve"));
	if (n > 0)
		path[n] = '\0';
	slash = n > 0 ? strrchr(path, '/') : NULL;
	if (slash) {
		memcpy(slash + 1, "mstat-serve", sizeof("mstat-serve"));
		if (!access(path, X_OK))
			execv(path, argv);
	}
	snprintf(path, sizeof(path), "%s", MSTAT_LIBEXECDIR "/mstat-serve");
	execv(path, argv);
	mstat_err("cannot run %s: %s (the static mstat serves through it)",
		  path, strerror(errno));
	return EXIT_INPUT;
}
