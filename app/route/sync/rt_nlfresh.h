/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_NLFRESH_H
#define RT_NLFRESH_H

/**
 * @file
 * The kernel routes an event spoke of during a resync of the netlink sync
 * (rt_nlsync.c), keyed by (prefix, length, metric): the dump's word on them
 * is not taken.
 *
 * Why: a kernel that dumps its FIB without the RTNL (Linux 6.9 on) may fill
 * a dump part before a change and queue it after the change's event, so the
 * dump can say a route is there after its delete was heard (and it would
 * stay until the next resync). The events of one key come in the order of
 * its changes, none lost while the socket holds, so once a key had an event
 * in the resync its events alone say how it ends; a key with none did not
 * change since the socket subscribed, and the dump says it right.
 */

#include <stdbool.h>
#include <stdint.h>

/** A set of (prefix, length, metric); zero-initialised is empty. */
struct rt_nlfresh {
	struct rt_nlfresh_slot *slot; /**< open addressing; plen 0xff = empty */
	uint32_t cap;                 /**< a power of 2, or 0 */
	uint32_t n;                   /**< keys in the set */
	bool overflow;                /**< the set could not grow: a key may be missing */
};

/** Add (@p prefix/@p plen, @p metric). @return 0, or -ENOMEM (and @c overflow set). */
int rt_nlfresh_add(struct rt_nlfresh *f, uint32_t prefix, uint8_t plen, uint32_t metric);

/** True when (@p prefix/@p plen, @p metric) is in @p f. */
bool rt_nlfresh_has(const struct rt_nlfresh *f, uint32_t prefix, uint8_t plen, uint32_t metric);

/** Empty the set and free its memory. */
void rt_nlfresh_clear(struct rt_nlfresh *f);

#endif /* RT_NLFRESH_H */
