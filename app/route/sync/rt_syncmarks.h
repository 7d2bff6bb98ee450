/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_SYNCMARKS_H
#define RT_SYNCMARKS_H

/**
 * @file
 * Mark and sweep of a route source's routes, shared by the netlink sync
 * (rt_nlsync.c) and the FPM listener (rt_fpm_listen.c): while a resync is under
 * way every route the source applies is marked (an open-addressing set of
 * prefix/length), and at its end every route of that source that is not
 * marked is deleted (it went while nobody listened).
 */

#include <stdbool.h>
#include <stdint.h>

#include "rt_table.h"

/** A set of (prefix, length); zero-initialised is empty. */
struct rt_syncmarks {
	uint64_t *slot; /**< key + 1; 0 = empty */
	uint32_t cap;   /**< a power of 2, or 0 */
	uint32_t n;     /**< marks in the set */
	bool overflow;  /**< the set could not grow: the sweep must not run */
};

/** Mark @p prefix/@p plen. @return 0, or -ENOMEM (and @c overflow set). */
int rt_syncmarks_add(struct rt_syncmarks *m, uint32_t prefix, uint8_t plen);

/** True when @p prefix/@p plen is marked. */
bool rt_syncmarks_has(const struct rt_syncmarks *m, uint32_t prefix, uint8_t plen);

/** Empty the set and free its memory. */
void rt_syncmarks_clear(struct rt_syncmarks *m);

/**
 * Delete every route of source @p src in @p t that is not in @p m (nothing
 * when @p m overflowed: a mark may be missing). The routes are collected
 * first, then deleted (the table is paged by position).
 *
 * @return how many were deleted, or -ENOMEM (overflow: nothing deleted).
 */
int rt_syncmarks_sweep(struct rt_table *t, enum rt_route_src src, const struct rt_syncmarks *m);

#endif /* RT_SYNCMARKS_H */
