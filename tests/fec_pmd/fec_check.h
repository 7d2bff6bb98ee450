/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */
#ifndef FEC_CHECK_H
#define FEC_CHECK_H

#include <stdio.h>

/*
 * The net_fec tests' assertion: counts into the including file's `checks` and `failures`
 * (each test binary keeps its own) and prints a TAP "not ok" line with the reason.
 */
#define CHECK(cond, ...)                                                           \
	do {                                                                       \
		checks++;                                                          \
		if (!(cond)) {                                                     \
			failures++;                                                \
			printf("not ok - %s:%d: %s: ", __func__, __LINE__, #cond); \
			printf(__VA_ARGS__);                                       \
			printf("\n");                                              \
		}                                                                  \
	} while (0)

#endif /* FEC_CHECK_H */
