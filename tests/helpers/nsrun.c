// SPDX-License-Identifier: GPL-2.0
/*
 * nsrun: run a command and print the nanoseconds it took, on
 * CLOCK_MONOTONIC, from before its fork to after its exit: under qemu
 * -icount shift=0,sleep=off (scripts/guest.sh --icount on) a guest
 * nanosecond is one instruction, so the figure is the instructions the
 * guest ran for it (the command's, the kernel's on its behalf, and any
 * other task's meanwhile).
 *
 *   nsrun CMD [ARG...]
 *
 * The command's standard output and error go to /dev/null. Prints
 * "NS" on standard output and exits 0 if the command exited 0; else
 * prints "nsrun: CMD: <why>" on standard error and exits 1; 2 on usage.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long long t0, t1;
	int status, fd;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: nsrun CMD [ARG...]\n");
		return 2;
	}
	t0 = now_ns();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "nsrun: fork: %s\n", strerror(errno));
		return 1;
	}
	if (!pid) {
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "nsrun: waitpid: %s\n", strerror(errno));
			return 1;
		}
	t1 = now_ns();
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "nsrun: %s: %s %d\n", argv[1],
			WIFEXITED(status) ? "exit" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) :
			WTERMSIG(status));
		return 1;
	}
	printf("%llu\n", t1 - t0);
	return 0;
}
