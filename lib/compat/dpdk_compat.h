/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/**
 * @file
 * Every difference between the DPDK releases the tree builds against (22.11, the one of
 * Debian 12, and 24.11, the one of Debian 13), in one place, keyed on RTE_VERSION. Code
 * elsewhere calls the fwd_compat_*() names below and carries no version test of its own.
 * Every target that depends on DPDK (dpdk_dep) sees this header; it is no room's (libraries,
 * drivers, control path and datapath may all include it).
 *
 * Header-only: each wrapper is static inline, so nothing here needs a library of its own.
 */

#ifndef DPDK_COMPAT_H
#define DPDK_COMPAT_H

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_icmp.h>
#include <rte_lcore.h>
#include <rte_memzone.h>
#include <rte_telemetry.h>
#include <rte_version.h>

/** The first DPDK whose control threads are rte_thread_t (rte_thread_create_control()). */
#define FWD_COMPAT_DPDK_23_11 RTE_VERSION_NUM(23, 11, 0, 0)

#if RTE_VERSION >= FWD_COMPAT_DPDK_23_11
#include <rte_thread.h>
#endif

/*
 * ICMP types: 23.07 named them RTE_ICMP_TYPE_* and deprecated RTE_IP_ICMP_ECHO_* (a warning on
 * every use in 24.11). The tree uses the new names; 22.11 gets them here.
 */
#if RTE_VERSION < RTE_VERSION_NUM(23, 7, 0, 0) && !defined(RTE_ICMP_TYPE_ECHO_REQUEST)
#define RTE_ICMP_TYPE_ECHO_REPLY   RTE_IP_ICMP_ECHO_REPLY
#define RTE_ICMP_TYPE_ECHO_REQUEST RTE_IP_ICMP_ECHO_REQUEST
#endif

/*
 * Telemetry: 23.03 added rte_tel_data_add_{dict,array}_uint() and deprecated the _u64 ones they
 * replace (same arguments; a warning on every use in 24.11). The tree calls the _u64 names,
 * which 22.11 has; on 23.03 and later they are the _uint calls (rte_telemetry.h is included
 * above, so its declarations keep their own names).
 */
#if RTE_VERSION >= RTE_VERSION_NUM(23, 3, 0, 0)
#define rte_tel_data_add_dict_u64(d, name, val) rte_tel_data_add_dict_uint(d, name, val)
#define rte_tel_data_add_array_u64(d, x)        rte_tel_data_add_array_uint(d, x)
#endif

/*
 * IPv6 addresses in the lookup libraries (rte_lpm6, rte_fib6, rte_rib6): a uint8_t[16] up to
 * 24.07, a struct rte_ipv6_addr (the same 16 bytes, rte_ip6.h) since 24.11. The tree keeps its
 * addresses as 16 bytes in network order (struct rt6_addr) and hands them over through these
 * casts: FWD_COMPAT_IP6() for one address, FWD_COMPAT_IP6_ARRAY() for a bulk lookup's array.
 */
#if RTE_VERSION >= RTE_VERSION_NUM(24, 11, 0, 0)
#include <rte_ip6.h>
#define FWD_COMPAT_IP6(p)       ((const struct rte_ipv6_addr *)(const void *)(p))
#define FWD_COMPAT_IP6_ARRAY(p) ((struct rte_ipv6_addr *)(void *)(p))
#else
#define FWD_COMPAT_IP6(p)       ((const uint8_t *)(const void *)(p))
#define FWD_COMPAT_IP6_ARRAY(p) ((uint8_t(*)[16])(void *)(p))
#endif

/**
 * The number of memzones EAL can hold, the bound of a memzone index. A compile-time constant
 * (RTE_MAX_MEMZONE) up to 23.03; since 23.07 set at run time (rte_memzone_max_set()) and read
 * with rte_memzone_max_get(), the constant gone.
 */
static inline uint64_t
fwd_compat_memzone_max(void)
{
#if RTE_VERSION >= RTE_VERSION_NUM(23, 7, 0, 0)
	return rte_memzone_max_get();
#else
	return RTE_MAX_MEMZONE;
#endif
}

/** What fwd_compat_ctrl_thread_create() hands the new thread (freed by it). */
struct fwd_compat_thread_start {
	void *(*fn)(void *);
	void *arg;
	char name[16]; /**< the kernel's limit: 15 characters and the NUL */
};

/*
 * The thread names itself before it runs fn: both DPDK calls name it from the
 * creator after it started, so on a busy machine fn could run (and show in
 * ps, or read its own name) under the creator's name for a while.
 */
static inline void *
fwd_compat_thread_run(struct fwd_compat_thread_start *p)
{
	struct fwd_compat_thread_start s = *p;

	free(p);
#if RTE_VERSION >= FWD_COMPAT_DPDK_23_11
	rte_thread_set_name(rte_thread_self(), s.name);
#else
	(void)rte_thread_setname(pthread_self(), s.name);
#endif
	return s.fn(s.arg);
}

#if RTE_VERSION >= FWD_COMPAT_DPDK_23_11
/* The rte_thread_t start routine returns uint32_t: call the pthread-style one. */
static inline uint32_t
fwd_compat_thread_trampoline(void *p)
{
	fwd_compat_thread_run(p);
	return 0;
}
#else
static inline void *
fwd_compat_thread_trampoline(void *p)
{
	return fwd_compat_thread_run(p);
}
#endif

/**
 * Start a control thread named @p name (cut to 15 characters) running @p fn(@p arg) on the
 * control-thread CPUs, as rte_ctrl_thread_create() of 22.11 did; join it with pthread_join().
 * The thread has its name before @p fn runs. 24.11 removed rte_ctrl_thread_create(): its
 * rte_thread_create_control() takes an rte_thread_t and a uint32_t start routine, so a
 * trampoline runs @p fn, and the thread's pthread_t (what rte_thread_t holds on Linux, where
 * rte_thread_join() is pthread_join()) is handed back, so callers keep one pthread_t and one
 * join for both releases.
 *
 * @return 0, or a positive errno as pthread_create() (the convention of both DPDK calls).
 */
static inline int
fwd_compat_ctrl_thread_create(pthread_t *thread, const char *name, void *(*fn)(void *), void *arg)
{
	struct fwd_compat_thread_start *s = malloc(sizeof(*s));
	size_t n;
	int ret;

	if (s == NULL)
		return ENOMEM;
	s->fn = fn;
	s->arg = arg;
	/* cut, not refused: the kernel takes 15 characters */
	n = strnlen(name, sizeof(s->name) - 1);
	memcpy(s->name, name, n);
	s->name[n] = '\0';
#if RTE_VERSION >= FWD_COMPAT_DPDK_23_11
	rte_thread_t t;

	ret = rte_thread_create_control(&t, s->name, fwd_compat_thread_trampoline, s);
	if (ret == 0)
		*thread = (pthread_t)t.opaque_id;
#else
	ret = rte_ctrl_thread_create(thread, s->name, NULL, fwd_compat_thread_trampoline, s);
#endif
	if (ret != 0) {
		free(s);
		return ret < 0 ? -ret : ret;
	}
	return 0;
}

#endif /* DPDK_COMPAT_H */
