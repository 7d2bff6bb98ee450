/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * lib/compat/dpdk_compat.h on the DPDK this tree is built against (22.11 on Debian 12, 24.11
 * on Debian 13: scripts/test-debian13.sh runs this there): each wrapper does what the call it
 * stands for did in 22.11.
 */

#define _GNU_SOURCE /* pthread_getname_np */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_icmp.h>
#include <rte_memzone.h>

#include "dpdk_compat.h"
#include "fwd_test.h"

struct thread_seen {
	void *arg;
	char name[32];
	int name_ret;
};

static struct thread_seen seen;

static void *
record(void *arg)
{
	seen.arg = arg;
	seen.name_ret = pthread_getname_np(pthread_self(), seen.name, sizeof(seen.name));
	return arg;
}

/* The thread runs fn(arg) under its name, and the pthread_t handed back joins it. */
static void
test_ctrl_thread(void)
{
	pthread_t t;
	int marker = 7, ret;

	memset(&seen, 0, sizeof(seen));
	ret = fwd_compat_ctrl_thread_create(&t, "fwd-compat-t", record, &marker);
	CHECK_EQ(ret, 0);
	if (ret != 0)
		return;
	CHECK_EQ(pthread_join(t, NULL), 0);
	CHECK(seen.arg == &marker);
	CHECK_EQ(seen.name_ret, 0);
	CHECK_CONTAINS(seen.name, "fwd-compat-t");
}

/* A name too long for the kernel's 16 bytes is refused or cut, never a crash or a leak. */
static void
test_ctrl_thread_long_name(void)
{
	pthread_t t;
	int ret = fwd_compat_ctrl_thread_create(&t, "a-name-far-longer-than-fifteen", record, NULL);

	if (ret == 0)
		CHECK_EQ(pthread_join(t, NULL), 0);
	else
		CHECK(ret > 0); /* a positive errno, as pthread_create() */
}

/* The memzone bound is EAL's: every zone's index is below it, and it is not 0. */
static void
test_memzone_max(void)
{
	const struct rte_memzone *mz = rte_memzone_reserve("compat-mz", 64, SOCKET_ID_ANY, 0);

	CHECK(fwd_compat_memzone_max() > 0);
	CHECK(mz != NULL);
	CHECK(rte_memzone_free(mz) == 0);
#if RTE_VERSION < RTE_VERSION_NUM(23, 7, 0, 0)
	CHECK_EQ(fwd_compat_memzone_max(), (uint64_t)RTE_MAX_MEMZONE);
#else
	CHECK_EQ(fwd_compat_memzone_max(), (uint64_t)rte_memzone_max_get());
#endif
}

/* The ICMP type names the tree uses are the RFC 792 numbers on either release. */
static void
test_icmp_names(void)
{
	CHECK_EQ(RTE_ICMP_TYPE_ECHO_REQUEST, 8);
	CHECK_EQ(RTE_ICMP_TYPE_ECHO_REPLY, 0);
}

static const struct fwd_test_case cases[] = {
	FWD_TEST(test_ctrl_thread),
	FWD_TEST(test_ctrl_thread_long_name),
	FWD_TEST(test_memzone_max),
	FWD_TEST(test_icmp_names),
};

int
main(void)
{
	int ret;

	if (fwd_test_eal_init("compat", 64) < 0) {
		printf("Bail out! rte_eal_init failed\n");
		return 1;
	}
	ret = fwd_test_run(cases, RTE_DIM(cases));
	rte_eal_cleanup();
	return ret;
}
