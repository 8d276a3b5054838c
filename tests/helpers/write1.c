// SPDX-License-Identifier: GPL-2.0
/*
 * write1: write all of standard input to FILE in one write(2), as the
 * tests of strict control files need: an empty write, a long one, one
 * with NUL bytes, which a shell's redirections cannot make.
 *
 *   write1 FILE <DATA
 *
 * Exits 0 if write(2) took every byte; else prints "write1: FILE:
 * <strerror>" (or the short count) and exits 1; 2 on usage, open or
 * input errors.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_INPUT	(1 << 20)

int main(int argc, char **argv)
{
	static char buf[MAX_INPUT];
	size_t len = 0;
	ssize_t n;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: write1 FILE <DATA\n");
		return 2;
	}
	while (len < sizeof(buf)) {
		n = read(0, buf + len, sizeof(buf) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "write1: stdin: %s\n", strerror(errno));
			return 2;
		}
		if (!n)
			break;
		len += n;
	}
	if (len == sizeof(buf)) {
		fprintf(stderr, "write1: more than %d bytes of input\n",
			MAX_INPUT - 1);
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "write1: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	n = write(fd, buf, len);
	if (n < 0) {
		fprintf(stderr, "write1: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if ((size_t)n != len) {
		fprintf(stderr, "write1: %s: wrote %zd of %zu bytes\n",
			argv[1], n, len);
		return 1;
	}
	if (close(fd)) {
		fprintf(stderr, "write1: %s: close: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	return 0;
}
