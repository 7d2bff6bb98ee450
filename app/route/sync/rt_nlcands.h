/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_NLCANDS_H
#define RT_NLCANDS_H

/**
 * @file
 * The kernel's routes to each prefix, by metric, as the netlink sync
 * (rt_nlsync.c) follows them: Linux keeps one route per (prefix, length,
 * metric) in a table (`ip route add P via A metric 10` and `... metric 20`
 * are two routes) and forwards by the lowest metric; a delete of that one
 * exposes the next. The router's table keeps one route a prefix, so the
 * sync keeps every candidate here and installs the lowest one
 * (rt_netlink_apply_from(), source netlink); when it goes, the next lowest
 * takes its place in one step (a replace: workers never see the covering
 * route meanwhile).
 *
 * Only the main table is followed, so the key is (prefix, length, metric);
 * the TOS, which the kernel also keys by, is not kept (the router does not
 * route by it). A message for a key that is there replaces it, as the
 * kernel's NLM_F_REPLACE does.
 *
 * FPM does not use this: zebra sends only the route it selected for a
 * prefix, so the lowest metric is chosen before the forwarder sees it.
 *
 * The set is chained by (prefix, length), so a prefix's candidates lie in
 * one bucket; each candidate is one allocation of its own size (with its
 * bucket, about 56 bytes for a one-hop route: 28 MB for 500 000 routes).
 * Not thread safe: the sync's thread is its one user.
 */

#include <stdbool.h>
#include <stdint.h>

#include "rt_netlink.h"
#include "rt_table.h"

struct rt_nlcand;

/** The candidates; zero-initialised is empty. */
struct rt_nlcands {
	struct rt_nlcand **bucket;
	uint32_t n_buckets; /**< a power of 2, or 0 */
	uint32_t n;         /**< candidates held */
	uint32_t standby;   /**< of which not installed (a lower metric is) */
	uint32_t gen;       /**< the resync under way: what it sees is marked with it */
};

/**
 * Take route message @p r (rt_netlink_parse(): a new route or a delete, with
 * its metric) into @p c and apply what it changes to @p t, as source
 * netlink, through the interface map @p map / @p n_map:
 * - a new route: kept under its key; installed (rt_netlink_apply_from(),
 *   as a replace) when its metric is the prefix's lowest, else held;
 * - a delete of the installed one: the next lowest installed in its place,
 *   or the route deleted when it was the last (also when the next one is
 *   refused: the kernel no longer has the route);
 * - a delete of a held one: dropped, the table untouched; of a key not held
 *   while the prefix has others: -ENOENT (the table untouched).
 * @p standby (may be NULL) is set when the message changed only what is
 * held, not the table.
 *
 * @return 0, or what rt_netlink_apply_from() returns (-ENOMEM when the set
 *   cannot grow: the route is refused), with @p err set.
 */
int rt_nlcands_apply(struct rt_nlcands *c, struct rt_table *t, const struct rt_nl_route *r,
	const struct rt_nl_ifmap *map, unsigned int n_map, bool *standby, char *err, size_t errlen);

/** A resync begins: what it sees from now on is marked (rt_nlcands_sweep()). */
void rt_nlcands_begin(struct rt_nlcands *c);

/**
 * After a complete dump: drop every candidate the resync did not see, and
 * where one of them was installed put the prefix's next lowest in its place
 * (or delete the route when none is left). Call before rt_syncmarks_sweep(),
 * which then finds nothing of these prefixes to sweep.
 *
 * @return the number of candidates dropped (kernel routes that went while
 *   nobody listened; the sync counts them as swept).
 */
uint32_t rt_nlcands_sweep(struct rt_nlcands *c, struct rt_table *t, const struct rt_nl_ifmap *map,
	unsigned int n_map);

/**
 * The metrics held for @p prefix/@p plen, lowest first, into @p out (up to
 * @p max).
 *
 * @return how many there are (may exceed @p max).
 */
unsigned int rt_nlcands_metrics(
	const struct rt_nlcands *c, uint32_t prefix, uint8_t plen, uint32_t *out, unsigned int max);

/** Free every candidate; @p c is empty afterwards (the table is not touched). */
void rt_nlcands_clear(struct rt_nlcands *c);

#endif /* RT_NLCANDS_H */
