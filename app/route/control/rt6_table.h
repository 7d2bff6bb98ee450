/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT6_TABLE_H
#define RT6_TABLE_H

/**
 * @file
 * The router's IPv6 routes (issue 40), beside the IPv4 table it extends
 * (struct rt_table): the same next hops (one array, one set of slots, one
 * RCU retirement; a neighbour next hop is keyed by family, rt_nh_info.family),
 * the same ECMP groups (rt_nhgroup.h), the same owners and request shape as
 * rt4_route_set()/rt4_route_del(), and the IPv4 table's writer lock.
 *
 * - The lookup the workers read is rte_lpm6 (datapath/rt6_fib.h: why that
 *   one); ::/0, which rte_lpm6 refuses, is @c default_nh, what a miss returns.
 * - The route records are kept in an rte_hash keyed by (prefix, length): set,
 *   delete and get cost the same in a table of any size.
 *
 * What is not here yet (the next steps of issue 40): IPv6 port addresses
 * with their connected and local routes (so a global gateway's port must be
 * given, as a link-local one's always must), Neighbour Discovery, and the
 * listing, summary and flush the IPv4 table has.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_addr6.h"
#include "rt_table.h"
#include "rt_types.h"

struct rte_hash;
struct rte_lpm6;

/** An IPv6 route as the table keeps it (control path). */
struct rt6_route {
	struct rt6_addr prefix;
	struct rt6_addr gw; /**< VIA (one hop): the gateway; the first of an ECMP route's */
	uint32_t nh;        /**< next hop index */
	uint32_t since;     /**< installed at (rt_table_now() seconds) */
	uint16_t port;      /**< VIA/DEV: output port (an ECMP route's first hop's) */
	uint8_t plen;
	uint8_t kind; /**< enum rt_route_kind */
	uint8_t src;  /**< the owner, enum rt_route_src */
};

/** The IPv6 table; the workers read @c lpm and @c default_nh. */
struct rt6_table {
	struct rte_lpm6 *lpm;     /**< the lookup (datapath/rt6_fib.h) */
	uint32_t default_nh;      /**< the ::/0 route's next hop, RT_NH_MISS = none; atomic */
	struct rt_table *t;       /**< the IPv4 table: next hops, groups, ports, lock */
	struct rte_hash *rib;     /**< (prefix, plen) -> index in @c routes */
	struct rt6_route *routes; /**< the records, at their key's hash position */
	uint32_t max_routes;
	uint32_t n_routes;
	uint32_t nh_connected[RTE_MAX_ETHPORTS]; /**< DEV routes' on-link next hop per port */
};

/** Parameters of rt6_table_create(). */
struct rt6_table_params {
	const char *name;    /**< unique name (of the lookup's and the index's objects) */
	int socket;          /**< NUMA socket, or SOCKET_ID_ANY */
	uint32_t max_routes; /**< 0 = RT6_DEFAULT_MAX_ROUTES */
	uint32_t tbl8s;      /**< rte_lpm6 groups of 1 KiB; 0 = RT6_DEFAULT_TBL8S */
};

#define RT6_DEFAULT_MAX_ROUTES 524288 /**< the issue's 500 k, twice today's DFZ (about 230 k) */
/**
 * rte_lpm6 groups (1 KiB each, all allocated at create): a DFZ mix needs about one a route
 * (docs/benchmarks-route6.md: 1.0-1.2), so this holds today's DFZ (about 230 k) with room to
 * spare; 500 k routes need about as many groups as routes.
 */
#define RT6_DEFAULT_TBL8S 327680

/**
 * Create the IPv6 table of @p t (empty) and the index of IPv6 neighbours in @p t.
 * @p t's max-next-hops must fit rte_lpm6's next hop (RT6_FIB_NH_MAX).
 *
 * @return the table, or NULL with rte_errno set (EINVAL, ENOMEM, EEXIST).
 */
struct rt6_table *rt6_table_create(struct rt_table *t, const struct rt6_table_params *p);

/**
 * Free @p t6 (NULL is fine): its routes give their next hops back to the IPv4
 * table, which must still exist. No worker may use @p t6 any more.
 */
void rt6_table_free(struct rt6_table *t6);

/** One next hop of an IPv6 route (struct rt6_route_req). */
struct rt6_hop {
	struct rt6_addr gw; /**< gateway (VIA); not read for DEV */
	int port;           /**< output port (needed until IPv6 port addresses exist) */
};

/**
 * An IPv6 route to install or delete: rt4_route_req's twin, read the same way
 * (RT_ROUTE_F_REPLACE in @c flags, owners as rt_route_src_may_change()).
 */
struct rt6_route_req {
	struct rt6_addr prefix;  /**< network order, no host bits */
	uint8_t plen;            /**< 0..128 */
	enum rt_route_kind kind; /**< VIA, DEV, BLACKHOLE or REJECT */
	enum rt_route_src src;   /**< the owner asking */
	uint32_t flags;          /**< RT_ROUTE_F_* */
	/** VIA: 1..RT_ECMP_MAX gateways (more: ECMP); DEV: 1, its port; BLACKHOLE, REJECT: 0 */
	unsigned int n_hops;
	struct rt6_hop hop[RT_ECMP_MAX];
};

/**
 * Install @p req, or with RT_ROUTE_F_REPLACE replace its prefix's route in one
 * step; safe while workers run. A gateway is a neighbour next hop shared by
 * every route through it (on its port); several make an ECMP route, sharing
 * one group per set of gateways with every route through the same set.
 *
 * Refused, with nothing changed: -EINVAL (length > 128, host bits, a gateway
 * that is ::, ::1, multicast or IPv4-mapped, given twice, a port that is not
 * enabled, a hop count wrong for the kind); -EEXIST (the prefix has a route
 * and no RT_ROUTE_F_REPLACE); -EPERM (another owner's route @c src may not
 * change); -ENOSPC (max-routes, max-next-hops, tbl8 groups).
 *
 * @return 0 or a negative errno with @p err set to one line.
 */
int rt6_route_set(struct rt6_table *t6, const struct rt6_route_req *req, char *err, size_t errlen);

/**
 * Delete the route @p req->prefix/@p req->plen for owner @p req->src; safe
 * while workers run (the covering route takes over at once).
 *
 * @return 0, or -ENOENT / -EPERM / -EINVAL with @p err set.
 */
int rt6_route_del(struct rt6_table *t6, const struct rt6_route_req *req, char *err, size_t errlen);

/**
 * The route of @p prefix/@p plen itself (@p exact), or the longest route
 * covering the address @p prefix (@p plen ignored), into @p out.
 *
 * @return 0, or -ENOENT.
 */
int rt6_route_get(struct rt6_table *t6, const struct rt6_addr *prefix, uint8_t plen, bool exact,
	struct rt6_route *out);

/**
 * Longest-prefix match of @p ip (control path: what a worker's lookup gives).
 *
 * @return next hop index, or RT_NH_MISS.
 */
uint32_t rt6_route_lookup(struct rt6_table *t6, const struct rt6_addr *ip);

/** Routes in @p t6. */
uint32_t rt6_route_count(struct rt6_table *t6);

#endif /* RT6_TABLE_H */
