// SPDX-License-Identifier: GPL-2.0
/*
 * tsc-khz: print this x86 host's TSC frequency in kHz, measured against
 * CLOCK_MONOTONIC_RAW over 200 ms.
 *
 * scripts/guest.sh passes it as tsc_early_khz= to a guest kernel built
 * without ACPI: under TCG the guest's TSC is the host's, and such a
 * kernel has no HPET or PM timer to calibrate it against, while its PIT
 * calibration fails on a loaded host, which leaves it on the jiffies
 * clocksource with timers that hang the boot.
 *
 * Each end of the interval is one TSC read between two clock reads that
 * lie at most 20 us apart (retried otherwise), so that a preemption on
 * the loaded host cannot land between the two clocks unseen: the error
 * is at most 40 us in 200 ms, 0.02%.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

#define SPAN_NS		200000000ULL
#define SLACK_NS	20000ULL
#define TRIES		1000

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + t.tv_nsec;
}

/* One TSC read and the clock's midpoint around it; 0 on success. */
static int sample(uint64_t *tsc, uint64_t *ns)
{
	uint64_t a, b;
	int i;

	for (i = 0; i < TRIES; i++) {
		a = now_ns();
		*tsc = __rdtsc();
		b = now_ns();
		if (b - a <= SLACK_NS) {
			*ns = a + (b - a) / 2;
			return 0;
		}
	}
	return -1;
}

int main(void)
{
	struct timespec span = { 0, SPAN_NS };
	uint64_t c0, t0, c1, t1;

	if (sample(&c0, &t0))
		goto busy;
	nanosleep(&span, NULL);
	if (sample(&c1, &t1))
		goto busy;
	printf("%llu\n", (unsigned long long)((c1 - c0) * 1000000ULL / (t1 - t0)));
	return 0;
busy:
	fprintf(stderr, "tsc-khz: no clean read in %d tries\n", TRIES);
	return 1;
}
