// SPDX-License-Identifier: GPL-2.0
/*
 * runas: run a command as another user, with no supplementary groups,
 * for tests in guests whose busybox has no setuidgid or chpst.
 *
 *   runas UID GID COMMAND [ARG...]
 *
 * Exits 126 if it cannot switch, 127 if COMMAND cannot be run, else as
 * COMMAND does.
 */
#define _DEFAULT_SOURCE

#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse_id(const char *s, unsigned long *id)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*id = strtoul(s, &end, 10);
	return errno || *end || *id > 0xfffffffeUL ? -1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long uid, gid;

	if (argc < 4 || parse_id(argv[1], &uid) || parse_id(argv[2], &gid)) {
		fprintf(stderr, "usage: runas UID GID COMMAND [ARG...]\n");
		return 126;
	}
	if (setgroups(0, NULL) || setgid(gid) || setuid(uid)) {
		fprintf(stderr, "runas: %s\n", strerror(errno));
		return 126;
	}
	if (getuid() != uid || geteuid() != uid || getegid() != gid) {
		fprintf(stderr, "runas: ids did not change\n");
		return 126;
	}
	execvp(argv[3], &argv[3]);
	fprintf(stderr, "runas: %s: %s\n", argv[3], strerror(errno));
	return 127;
}
