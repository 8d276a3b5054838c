// SPDX-License-Identifier: GPL-2.0
/*
 * faultio - mstat's files read and written, and mstat loaded, while the
 * kernel's fault injection fails this task's allocations
 * (Documentation/fault-injection/fault-injection.rst). In a guest of the
 * debug test kernel, for scripts/guest/faults.sh:
 *
 *   faultio nth N MODULE.ko [PARAMS]
 *	load the module with this task's fail-nth set to N: the N-th
 *	fault-injection point the load passes (within the stack filter the
 *	script set) fails. Prints "nth N rc RC errno E injected 0|1
 *	left L"; exits 0 if the module loaded, 1 if not, 2 on a usage or
 *	set-up error. "injected 0": the load passed fewer than N points,
 *	N - L of them (the kernel counts fail-nth down at each point).
 *
 *   faultio read -n ROUNDS [-o DIR] FILE...
 *	ROUNDS times, each FILE opened, read to its end and closed with
 *	this task's make-it-fail on (the script sets failslab's and
 *	fail_page_alloc's probability and task filter). A read either
 *	succeeds or fails with an error code; data and then an error is
 *	half a file, a violation. A file named ".../events" (the stream)
 *	is read once per round, without blocking. With -o, each complete
 *	read of /proc/mstat is saved as DIR/NNNNN, for `mstat check`.
 *
 *   faultio write -n ROUNDS FILE VALUE...
 *	ROUNDS writes of the VALUEs in turn, each with make-it-fail on;
 *	after each, the file is read back with it off: a write that
 *	succeeded must have taken effect, one that failed must have left
 *	the old value. Ends by writing the value the file had first.
 *
 *   faultio hog
 *	allocate and touch memory, a MiB at a time, until the OOM killer
 *	kills it (its oom_score_adj is 1000: it is the one chosen).
 *
 * Output: "ok NAME" / "not ok NAME: WHY" lines and "# " figures. The
 * task's memory is locked and touched first, so that only the kernel's
 * allocations for these calls fail, not its own page faults.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BUFSZ	(4 << 20)
#define CHUNK	65536

static char buf[BUFSZ];
static int mif = -1;

static void fault(int on)
{
	if (pwrite(mif, on ? "1" : "0", 1, 0) != 1) {
		perror("faultio: make-it-fail");
		exit(2);
	}
}

/* Lock and touch what we use, stack included, before anything fails. */
static void prepare(void)
{
	volatile char stack[256 << 10];

	memset((char *)stack, 0, sizeof(stack));
	memset(buf, 0, sizeof(buf));
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		perror("faultio: mlockall");
	mif = open("/proc/self/make-it-fail", O_WRONLY);
	if (mif < 0) {
		perror("faultio: /proc/self/make-it-fail");
		exit(2);
	}
}

static int nth(int argc, char **argv)
{
	const char *params = argc > 3 ? argv[3] : "";
	char v[32];
	int fd, f, rc, err;
	ssize_t n;

	if (argc < 3)
		return 2;
	fd = open(argv[2], O_RDONLY);
	f = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fd < 0 || f < 0) {
		perror("faultio nth: open");
		return 2;
	}
	if (write(f, argv[1], strlen(argv[1])) < 0) {
		perror("faultio nth: fail-nth");
		return 2;
	}
	rc = syscall(SYS_finit_module, fd, params, 0);
	err = rc ? errno : 0;
	n = pread(f, v, sizeof(v) - 1, 0);
	v[n > 0 ? n : 0] = '\0';
	/* Whatever is left of it must not fail what follows. */
	if (pwrite(f, "0", 1, 0) < 0)
		perror("faultio nth: fail-nth");
	printf("nth %s rc %d errno %d injected %d left %d\n", argv[1], rc,
	       err, atoi(v) == 0, atoi(v));
	return rc ? 1 : 0;
}

struct tally {
	long ok, open_failed, read_failed, partial, saved;
	long err[4];	/* ENOMEM, EAGAIN (an empty stream), EINTR, other */
};

static void tally_err(struct tally *t, int e)
{
	t->err[e == ENOMEM ? 0 : e == EAGAIN ? 1 : e == EINTR ? 2 : 3]++;
}

static int is_stream(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && !strcmp(s, "/events");
}

/* One read of @path with faults on; saves /proc/mstat into @dir. */
static void read_one(const char *path, struct tally *t, const char *dir)
{
	size_t len = 0;
	ssize_t n = 0;
	int fd, e = 0;

	fault(1);
	fd = open(path, O_RDONLY | (is_stream(path) ? O_NONBLOCK : 0));
	if (fd < 0) {
		e = errno;
		fault(0);
		t->open_failed++;
		tally_err(t, e);
		return;
	}
	do {
		n = read(fd, buf + len, CHUNK < BUFSZ - len ? CHUNK : BUFSZ - len);
		if (n > 0)
			len += n;
	} while (n > 0 && !is_stream(path) && len < BUFSZ);
	if (n < 0)
		e = errno;
	close(fd);
	fault(0);
	if (n < 0 && !(is_stream(path) && e == EAGAIN)) {
		if (len)
			t->partial++;
		else
			t->read_failed++;
		tally_err(t, e);
		return;
	}
	t->ok++;
	if (dir && !strcmp(path, "/proc/mstat")) {
		char name[256];
		int out;

		snprintf(name, sizeof(name), "%s/%05ld", dir, t->saved++);
		out = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (out < 0 || write(out, buf, len) != (ssize_t)len) {
			perror("faultio: save");
			exit(2);
		}
		close(out);
	}
}

static int do_read(int argc, char **argv)
{
	struct tally t[16];
	const char *dir = NULL;
	long rounds = 100, r;
	int opt, i, n, bad = 0;

	while ((opt = getopt(argc, argv, "n:o:")) != -1) {
		if (opt == 'n')
			rounds = atol(optarg);
		else if (opt == 'o')
			dir = optarg;
		else
			return 2;
	}
	n = argc - optind;
	if (n < 1 || n > 16 || rounds < 1)
		return 2;
	memset(t, 0, sizeof(t));
	for (r = 0; r < rounds; r++)
		for (i = 0; i < n; i++)
			read_one(argv[optind + i], &t[i], dir);
	for (i = 0; i < n; i++) {
		const char *f = argv[optind + i];
		long failed = t[i].open_failed + t[i].read_failed;

		printf("# read %s: %ld reads, %ld complete, %ld failed at open, %ld failed at read, %ld half (ENOMEM %ld, EAGAIN %ld, EINTR %ld, other %ld)\n",
		       f, rounds, t[i].ok, t[i].open_failed, t[i].read_failed,
		       t[i].partial, t[i].err[0], t[i].err[1], t[i].err[2],
		       t[i].err[3]);
		if (t[i].partial || t[i].err[3]) {
			printf("not ok faultio-read %s: %ld half reads, %ld other errors\n",
			       f, t[i].partial, t[i].err[3]);
			bad++;
		} else if (!failed || !t[i].ok) {
			printf("not ok faultio-read %s: %ld failed, %ld complete: the injection %s\n",
			       f, failed, t[i].ok,
			       failed ? "failed every read" : "never reached it");
			bad++;
		} else {
			printf("ok faultio-read %s (%ld complete, %ld failed cleanly)\n",
			       f, t[i].ok, failed);
		}
	}
	return bad ? 1 : 0;
}

/* The file's value, read with faults off. */
static int value_of(const char *path, unsigned long long *v)
{
	char b[64];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	n = read(fd, b, sizeof(b) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	b[n] = '\0';
	*v = strtoull(b, NULL, 0);
	return 0;
}

static int do_write(int argc, char **argv)
{
	unsigned long long first, cur, want, got;
	long rounds = 100, r, ok = 0, failed = 0, lost = 0, other = 0;
	const char *path;
	int opt, nv, fd, e;
	ssize_t n;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n')
			return 2;
		rounds = atol(optarg);
	}
	if (argc - optind < 2 || rounds < 1)
		return 2;
	path = argv[optind];
	nv = argc - optind - 1;
	if (value_of(path, &first)) {
		printf("not ok faultio-write %s: cannot read it\n", path);
		return 1;
	}
	cur = first;
	for (r = 0; r < rounds; r++) {
		const char *val = argv[optind + 1 + r % nv];

		want = strtoull(val, NULL, 0);
		fault(1);
		fd = open(path, O_WRONLY);
		e = fd < 0 ? errno : 0;
		n = fd < 0 ? -1 : write(fd, val, strlen(val));
		if (fd >= 0 && n < 0)
			e = errno;
		if (fd >= 0)
			close(fd);
		fault(0);
		if (n == (ssize_t)strlen(val)) {
			ok++;
			cur = want;
		} else if (e == ENOMEM) {
			failed++;
		} else {
			other++;
			printf("# write %s %s: %s\n", path, val, strerror(e));
		}
		if (value_of(path, &got) || got != cur) {
			lost++;
			printf("# write %s %s: %s, but it reads %llu, not %llu\n",
			       path, val, n > 0 ? "succeeded" : "failed", got,
			       cur);
			cur = got;
		}
	}
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		char b[32];

		snprintf(b, sizeof(b), "%llu", first);
		if (write(fd, b, strlen(b)) < 0)
			perror("faultio: restore");
		close(fd);
	}
	printf("# write %s: %ld writes, %ld took effect, %ld failed cleanly (ENOMEM), %ld other errors, %ld not as reported\n",
	       path, rounds, ok, failed, other, lost);
	if (lost || other) {
		printf("not ok faultio-write %s: %ld writes not as reported, %ld other errors\n",
		       path, lost, other);
		return 1;
	}
	printf("ok faultio-write %s (%ld took effect, %ld failed cleanly)\n",
	       path, ok, failed);
	return 0;
}

static __attribute__((noreturn)) int hog(void)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY);
	char *p;

	if (fd < 0 || write(fd, "1000", 4) != 4)
		perror("faultio hog: oom_score_adj");
	for (;;) {
		p = malloc(1 << 20);
		if (p)
			memset(p, 0x5a, 1 << 20);
	}
}

int main(int argc, char **argv)
{
	int rc = 2;

	if (argc < 2)
		goto usage;
	if (!strcmp(argv[1], "hog"))
		return hog();
	if (!strcmp(argv[1], "nth"))
		rc = nth(argc - 1, argv + 1);
	else if (!strcmp(argv[1], "read") || !strcmp(argv[1], "write")) {
		prepare();
		rc = argv[1][0] == 'r' ? do_read(argc - 1, argv + 1) :
					 do_write(argc - 1, argv + 1);
	}
	if (rc != 2)
		return rc;
usage:
	fprintf(stderr, "usage: faultio nth N MODULE.ko [PARAMS]\n"
		"       faultio read -n ROUNDS [-o DIR] FILE...\n"
		"       faultio write -n ROUNDS FILE VALUE...\n"
		"       faultio hog\n");
	return 2;
}
