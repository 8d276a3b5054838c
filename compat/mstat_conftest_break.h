/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The types the compile tests expect in the probed functions' prototypes.
 * A build with -DMSTAT_CONFTEST_WRONG (the test of the tests) expects a
 * prototype no kernel has, so that every probe whose arguments it reads
 * is left out: the module must still load, say so, and count the rest.
 */
#ifdef MSTAT_CONFTEST_WRONG
#define MSTAT_CT_INT	long
#define MSTAT_CT_UINT	unsigned long
#define MSTAT_CT_SIZE	int
#define MSTAT_CT_OBJ	long *
#else
#define MSTAT_CT_INT	int
#define MSTAT_CT_UINT	unsigned int
#define MSTAT_CT_SIZE	size_t
#define MSTAT_CT_OBJ	void *
#endif
