/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat check --selftest (check_selftest.c): the checker (check.c) must
 * pass consistent samples and catch every corrupted one.
 */
#ifndef MSTAT_CHECK_SELFTEST_H
#define MSTAT_CHECK_SELFTEST_H

/* 0 if the good samples pass and every corrupted one fails. */
int check_selftest(void);

#endif /* MSTAT_CHECK_SELFTEST_H */
