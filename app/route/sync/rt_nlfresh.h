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

/**
 * How many of the last route events heard are kept for the next resync
 * (rt_nlfresh_seed()). The kernel sends a delete's event before it unlinks
 * the route, holding the RTNL between the two, so at most the latest route
 * event (one RTNL hold) can be of a route a dump started after it still
 * sees; the rest is margin.
 */
#define RT_NLRECENT_N 64

/** The last RT_NLRECENT_N route events heard (a ring); zero-initialised is empty. */
struct rt_nlrecent {
	struct rt_nlrecent_ev {
		uint32_t prefix;
		uint32_t metric;
		uint8_t plen;
		bool del;
	} ev[RT_NLRECENT_N];
	uint32_t n; /**< events noted in all (the ring's next slot: n % RT_NLRECENT_N) */
};

/** Note an event of (@p prefix/@p plen, @p metric): a delete if @p del. */
void rt_nlrecent_add(
	struct rt_nlrecent *r, uint32_t prefix, uint8_t plen, uint32_t metric, bool del);

/** Forget every event noted (events were lost: what they said may be stale). */
void rt_nlrecent_clear(struct rt_nlrecent *r);

/**
 * As a resync begins: add to @p f the keys whose latest event in @p r was a
 * delete. Why: a dump asked just after a delete's event was heard can still
 * see the route, the kernel unlinking it after the event (Linux dumps without
 * the RTNL from 6.9); that word is stale, the delete's is the last. A key
 * whose latest event was an add is left to the dump, whose word then marks it.
 *
 * @return 0, or -ENOMEM (and @c overflow set).
 */
int rt_nlfresh_seed(struct rt_nlfresh *f, const struct rt_nlrecent *r);

#endif /* RT_NLFRESH_H */
