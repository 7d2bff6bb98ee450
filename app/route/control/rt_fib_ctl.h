/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_FIB_CTL_H
#define RT_FIB_CTL_H

/**
 * @file
 * Writing the router's DIR-24-8 lookup structure (rt_fib.h): create, free,
 * add, delete, and what it uses. One writer at a time (the caller's lock);
 * any number of lock-free readers registered with the structure's RCU. The
 * writer must not be an online reader of that RCU itself: an add that finds
 * no free group waits for the readers.
 *
 * It keeps no rules: the caller's route records say which routes exist and
 * which one covers a prefix being deleted. Every write follows rte_lpm's
 * depth rule: a route of length L rewrites only the entries whose recorded
 * depth is <= L, so a shorter route never hides a longer one, whatever the
 * order of the adds.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_rcu_qsbr.h>

#include "rt_fib.h"

/**
 * Create an empty structure: tbl24 (64 MiB) and @p tbl8_groups groups of
 * tbl8 (1 KiB each), in DPDK memory on @p socket (hugepages when EAL has
 * them).
 *
 * @param name
 *   Names the allocations (for the heap's statistics) and the log lines.
 * @param socket
 *   NUMA socket, or SOCKET_ID_ANY.
 * @param tbl8_groups
 *   Groups for the /24s that hold routes longer than /24 (one per such /24),
 *   1 .. 2^24.
 * @param qsbr
 *   The readers' RCU: a group given back is reused only after every reader
 *   registered with it reported a quiescent state. NULL when nothing reads
 *   the structure while it is written (a benchmark, a load before the
 *   workers start).
 * @return
 *   The structure, or NULL with rte_errno EINVAL (bad argument) or ENOMEM.
 */
struct rt_fib *rt_fib_create(
	const char *name, int socket, uint32_t tbl8_groups, struct rte_rcu_qsbr *qsbr);

/**
 * Free @p f (NULL is accepted). No reader may use it any more: the caller
 * has waited for its readers (e.g. rte_rcu_qsbr_synchronize()).
 */
void rt_fib_free(struct rt_fib *f);

/**
 * Add the route @p prefix/@p plen -> @p nh, or change its next hop: every
 * entry of the prefix's range whose depth is <= @p plen gets (@p nh,
 * @p plen). A route longer than /24 takes a tbl8 group for its /24 if that
 * /24 has none yet.
 *
 * @param prefix
 *   Host order, no bit set beyond @p plen.
 * @param plen
 *   1 .. 32 (the caller keeps a /0 as its miss value).
 * @param nh
 *   0 .. RT_FIB_NH_MASK (2^24 - 1).
 * @return
 *   0; -EINVAL for a bad argument; -ENOSPC when a group is needed and none
 *   is free even after waiting for the readers once ("tbl8-groups" is the
 *   limit reached, logged). Nothing is changed on an error.
 */
int rt_fib_add(struct rt_fib *f, uint32_t prefix, uint8_t plen, uint32_t nh);

/**
 * Delete the route @p prefix/@p plen: the entries of its range that have
 * depth @p plen (those it still decides) get the covering route
 * (@p sub_nh, @p sub_plen), the longest route of the caller's records
 * shorter than @p plen that contains @p prefix, or become empty when
 * @p sub_plen is 0. A tbl8 group left with 256 equal entries of depth <= 24
 * folds back into its tbl24 entry, and is reused once the readers have
 * passed a quiescent state.
 *
 * @return
 *   0; -EINVAL for a bad argument (plen 1..32, no host bit, sub_plen <
 *   plen, sub_nh <= RT_FIB_NH_MASK); -ENOENT for a route longer than /24
 *   whose /24 has no group (it cannot exist). A route of length <= 24
 *   that does not exist (or that longer ones hide entirely) changes
 *   nothing and returns 0: the caller's records are what say it exists.
 */
int rt_fib_del(struct rt_fib *f, uint32_t prefix, uint8_t plen, uint32_t sub_nh, uint8_t sub_plen);

/** Bytes of DPDK memory @p f holds (tables and its own state), for `show route summary`. */
size_t rt_fib_memory(const struct rt_fib *f);

/**
 * tbl8 groups in use: those tbl24 points to. A group given back is not
 * counted, though it is reused only once the readers have passed.
 */
uint32_t rt_fib_tbl8_used(const struct rt_fib *f);

/** tbl8 groups @p f was created with. */
uint32_t rt_fib_tbl8_groups(const struct rt_fib *f);

#endif /* RT_FIB_CTL_H */
