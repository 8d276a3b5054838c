// SPDX-License-Identifier: GPL-2.0
/*
 * evpoll - check poll() and O_NONBLOCK on mstat's event stream.
 *
 * Usage: evpoll DEBUGFS_DIR
 * With the stream off and drained, a non-blocking read gives EAGAIN and
 * poll() reports nothing; once kmalloc events are streamed, poll()
 * reports POLLIN within two seconds and a read returns whole lines.
 * Leaves the stream off. One "ok NAME" / "not ok NAME" line per check.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int fails;

static void check(const char *name, int ok)
{
	printf("%sok %s\n", ok ? "" : "not ", name);
	fails += !ok;
}

static int put(const char *dir, const char *file, const char *val)
{
	char path[256];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	static char buf[65536];
	char path[256];
	struct pollfd p;
	ssize_t n;
	int fd, i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DEBUGFS_DIR\n", argv[0]);
		return 2;
	}
	put(argv[1], "events_sources", "0");
	snprintf(path, sizeof(path), "%s/events", argv[1]);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		perror(path);
		return 2;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	check("events-nonblock-eagain", n < 0 && errno == EAGAIN);
	p.fd = fd;
	p.events = POLLIN;
	check("events-poll-empty", poll(&p, 1, 100) == 0);

	check("events-enable", put(argv[1], "events_sources", "1") == 0);
	/* Make kmalloc traffic: every open() allocates. */
	for (i = 0; i < 100; i++)
		close(open("/proc/self/status", O_RDONLY));
	p.revents = 0;
	check("events-poll-ready", poll(&p, 1, 2000) == 1 && (p.revents & POLLIN));
	n = read(fd, buf, sizeof(buf) - 1);
	check("events-read-lines", n > 0 && buf[n - 1] == '\n');
	put(argv[1], "events_sources", "0");
	close(fd);
	return fails != 0;
}
