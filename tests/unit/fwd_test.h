/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_TEST_H
#define FWD_TEST_H

/**
 * @file
 * A very small unit-test harness that prints TAP (meson reads it with
 * protocol: 'tap'): every case is a function, every CHECK that fails prints
 * where and why and marks the case failed, and the program's exit status is
 * non-zero when any case failed.
 *
 *	static void test_x(void) { CHECK(1 + 1 == 2); }
 *	static const struct fwd_test_case cases[] = { FWD_TEST(test_x) };
 *	int main(void) { return fwd_test_run(cases, RTE_DIM(cases)); }
 */

#include <stdio.h>
#include <string.h>

struct fwd_test_case {
	const char *name;
	void (*fn)(void);
};

#define FWD_TEST(fn)    \
	{               \
#fn, fn \
	}

extern int fwd_test_case_failed;

#define CHECK(cond)                                                                         \
	do {                                                                                \
		if (!(cond)) {                                                              \
			printf("#   %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
			fwd_test_case_failed = 1;                                           \
		}                                                                           \
	} while (0)

#define CHECK_EQ(a, b)                                                                           \
	do {                                                                                     \
		long long a_ = (long long)(a), b_ = (long long)(b);                              \
		if (a_ != b_) {                                                                  \
			printf("#   %s:%d: CHECK_EQ failed: %s == %lld, %s == %lld\n", __FILE__, \
				__LINE__, #a, a_, #b, b_);                                       \
			fwd_test_case_failed = 1;                                                \
		}                                                                                \
	} while (0)

/* @p hay contains @p needle (both strings). */
#define CHECK_CONTAINS(hay, needle)                                                               \
	do {                                                                                      \
		const char *h_ = (hay), *n_ = (needle);                                           \
		if (strstr(h_, n_) == NULL) {                                                     \
			printf("#   %s:%d: '%s' does not contain '%s'\n", __FILE__, __LINE__, h_, \
				n_);                                                              \
			fwd_test_case_failed = 1;                                                 \
		}                                                                                 \
	} while (0)

/** Run @p n cases, printing TAP; returns 0 when all passed, 1 otherwise. */
int fwd_test_run(const struct fwd_test_case *cases, unsigned int n);

/**
 * The case of @p cases named by the command line's one argument, for a test
 * that runs each case in a process of its own (meson registers one test per
 * case). Case names are the table's names as given (FWD_TEST() gives the
 * function's).
 *
 * @return the case, or NULL after a "Bail out!" line naming the cases
 *   (no argument, or one the table does not hold): exit with status 2.
 */
const struct fwd_test_case *fwd_test_case_named(
	const struct fwd_test_case *cases, unsigned int n, int argc, char **argv);

/** Run the one case @p c as a TAP plan of one; returns 0 when it passed, 1 otherwise. */
int fwd_test_run_one(const struct fwd_test_case *c);

/**
 * Bring EAL up for a test that needs mbufs or lcores: --no-huge, --no-pci,
 * two lcores, a file prefix unique to @p name and this process.
 *
 * @return 0, or -1 (the caller should print "1..0 # SKIP" or fail).
 */
int fwd_test_eal_init(const char *name, unsigned int mem_mb);

#endif /* FWD_TEST_H */
