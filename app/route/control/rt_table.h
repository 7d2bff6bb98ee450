/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_TABLE_H
#define RT_TABLE_H

/**
 * @file
 * The router's state shared by the workers and the control path: per-port
 * interfaces (MAC, IPv4 address/prefix, MTU), the next-hop table and the
 * longest-prefix-match table (rt_fib, DIR-24-8) that maps a destination to
 * a next hop.
 *
 * Readers (the workers) never lock. rt_fib updates its tables with single
 * atomic stores and reuses a freed tbl8 group only after an RCU QSBR grace
 * period; a next hop that loses its last route is retired with an RCU token
 * and reused only after every worker has since reported a quiescent state; a
 * neighbour's MAC and its "resolved" bit live in one 64-bit word written with
 * one atomic store. Writers (configuration, the shell, the control thread)
 * are serialised by a mutex that readers never see.
 *
 * Route kinds and their next hops:
 * - connected (from a port's prefix): next hop "connected" on the port, the
 *   destination itself is resolved by ARP and then gets a /32 "neighbour"
 *   route to its own next hop (so the fast path needs one lookup);
 * - local (the port's address and subnet broadcast): delivered to the control
 *   path;
 * - via GW [dev N]: the gateway's neighbour next hop (shared by every route
 *   through it);
 * - dev N (on-link): like connected;
 * - blackhole: dropped and counted; reject: ICMP host unreachable.
 *
 * Addresses are in host byte order.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pthread.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_rcu_qsbr.h>

#include "rt_addr.h"
#include "rt_fib.h"
#include "rt_route.h"
#include "rt_types.h"

struct rt_rib;
struct rte_hash;

#define RT_DEFAULT_MAX_ROUTES 2097152 /**< a full IPv4 table (about 1 M) twice over */
#define RT_DEFAULT_MAX_NH     131072  /**< next hops: neighbours and groups (8 MiB) */
#define RT_DEFAULT_TBL8S      16384   /**< groups of 256 entries (16 MiB) */

/** Parameters of rt_table_create(). */
struct rt_table_params {
	const char *name;     /**< unique name (of the lookup table's objects) */
	int socket;           /**< NUMA socket, or SOCKET_ID_ANY */
	uint32_t max_routes;  /**< max-routes; 0 = RT_DEFAULT_MAX_ROUTES */
	uint32_t max_nh;      /**< max-next-hops (neighbours + special); 0 = RT_DEFAULT_MAX_NH */
	uint32_t tbl8s;       /**< tbl8-groups: routes longer than /24; 0 = RT_DEFAULT_TBL8S */
	uint32_t max_threads; /**< RCU reader thread ids (lcore ids); 0 = RTE_MAX_LCORE */
};

struct rt_nhgroups;

/** The router's table. Workers use @c fib, @c nh and @c ports directly. */
struct rt_table {
	struct rt_fib *fib;         /**< the lookup (DIR-24-8), written by rt_fib_ctl.h */
	struct rt_nh *nh;           /**< what the workers read of each next hop */
	struct rt_nh_info *nh_info; /**< the rest of each, beside it (control path) */
	struct rte_rcu_qsbr *qsbr;
	struct rt_port ports[RTE_MAX_ETHPORTS];
	uint32_t max_nh;
	uint32_t max_routes;
	uint32_t tbl8s;
	struct rt_rib *rib; /**< the route records (control path) */
	uint32_t n_kind[8]; /**< routes by enum rt_route_kind */
	/* next-hop slots (control path): never used or reusable, and retired in order */
	struct rte_hash *neigh_idx; /**< neighbour address -> next hop */
	uint32_t *nh_free;          /**< stack of slots no reader can be using */
	uint32_t n_free;
	uint32_t *nh_retq; /**< FIFO of slots waiting for their RCU token */
	uint32_t retq_head;
	uint32_t retq_n;
	uint8_t *nh_queued; /**< slot is in nh_retq */
	uint32_t nh_local;  /**< shared next hops of the special types */
	uint32_t nh_blackhole;
	uint32_t nh_reject;
	uint32_t nh_connected[RTE_MAX_ETHPORTS];
	uint32_t default_nh;  /**< the /0 route (the lookup has no depth 0); RT_NH_MISS = none */
	pthread_mutex_t lock; /**< writers only */
	/**
	 * Bumped after every change a cached forwarding decision may depend on
	 * (route added or removed, neighbour MAC set or cleared, MTU): the flow
	 * stage (rt_flowtable.h) treats entries of an older generation as misses.
	 */
	uint32_t gen;
	struct rt_nhgroups *ecmp; /**< ECMP groups (rt_nhgroup.h), NULL until the first */
	/** IPv6 neighbour (struct rt_neigh6_key) -> next hop; made by rt6_table_create() */
	struct rte_hash *neigh6_idx;
	/** owner of the routes being inserted (lock held): rt4_route_set()'s req->src */
	enum rt_route_src add_src;
	uint64_t refused_synced; /**< see rt_route_summary (lock held) */
};

/**
 * Invalidate every cached forwarding decision: called by the writers after
 * the change is visible, so a reader that sees the new generation also sees
 * the change.
 */
static inline void
rt_table_gen_bump(struct rt_table *t)
{
	__atomic_fetch_add(&t->gen, 1, __ATOMIC_RELEASE);
}

/**
 * Create an empty table (no ports, no routes) with its RCU QSBR variable.
 *
 * @return the table, or NULL with rte_errno set.
 */
struct rt_table *rt_table_create(const struct rt_table_params *p);

/** Free @p t (NULL is fine). No worker may use it any more. */
void rt_table_free(struct rt_table *t);

/**
 * Enable port @p port with MAC @p mac; it has no address until
 * rt_iface_set_addr(). MTU defaults to RT_MTU_DEFAULT.
 *
 * @return 0 or -EINVAL.
 */
int rt_iface_enable(struct rt_table *t, uint16_t port, const struct rte_ether_addr *mac);

/**
 * Give port @p port the address @p ip/@p plen: adds the connected route and
 * the local /32 routes (the address, and the subnet broadcast for plen <= 30).
 * The port must be enabled and have no address yet.
 *
 * @return 0, or -EINVAL / -EEXIST / -EBUSY / -ENOSPC with @p err set.
 */
int rt_iface_set_addr(
	struct rt_table *t, uint16_t port, uint32_t ip, uint8_t plen, char *err, size_t errlen);

/**
 * Set the IP MTU of port @p port (RT_MTU_MIN..RT_MTU_MAX); takes effect on
 * the next packet.
 *
 * @return 0 or -EINVAL with @p err set.
 */
int rt_iface_set_mtu(struct rt_table *t, uint16_t port, uint32_t mtu, char *err, size_t errlen);

/**
 * Trust (@p on) or ignore the RX IPv4 checksum flags of port @p port: on
 * when the port was configured with RTE_ETH_RX_OFFLOAD_IPV4_CKSUM. A port
 * without the offload leaves the flags unknown, and the router then checks
 * every header in software without reading them. Takes effect on the next
 * burst.
 *
 * @return 0 or -EINVAL.
 */
int rt_iface_trust_rx_cksum(struct rt_table *t, uint16_t port, bool on);

/**
 * Mark port @p port as having (@p on) a kernel twin: the workers then punt
 * link-local multicast (224.0.0.0/24) received on it as for the router
 * (RT_EXC_LOCAL), where without a twin it is dropped as mcast_dst or
 * l2_bcast_fwd. Takes effect on the next burst.
 *
 * @return 0 or -EINVAL.
 */
int rt_iface_set_twin(struct rt_table *t, uint16_t port, bool on);

/**
 * Port whose connected network holds @p ip, or -1.
 */
int rt_iface_lookup_net(const struct rt_table *t, uint32_t ip);

/**
 * True when @p ip is one of the router's own addresses.
 */
bool rt_iface_is_local(const struct rt_table *t, uint32_t ip);

/**
 * True when @p ip is the network or the broadcast address of a port's
 * connected network (prefixes up to /30): an address of no single host.
 */
bool rt_iface_is_subnet_bcast(const struct rt_table *t, uint32_t ip);

/** One next hop of a route (struct rt4_route_req). */
struct rt_hop {
	uint32_t gw; /**< gateway, on a connected network; 0 for RT_ROUTE_DEV */
	int port;    /**< output port, or -1: the port whose network holds @c gw */
};

/** rt4_route_req.flags: replace the prefix's route if there is one (`ip route replace`). */
#define RT_ROUTE_F_REPLACE (1u << 0)

/**
 * A route to install or delete: what rt4_route_set() and rt4_route_del()
 * take. The owner (@c src) is who asks, and what the route records: the
 * shell, the config and route files share their routes, a sync's are its
 * own (rt_route_src_may_change()). This table has no metric: one route per
 * prefix. Build it with designated initialisers; what a kind does not use
 * stays zero.
 */
struct rt4_route_req {
	uint32_t prefix;         /**< host order, no host bits */
	uint8_t plen;            /**< 0..32 */
	enum rt_route_kind kind; /**< VIA, DEV, BLACKHOLE or REJECT */
	enum rt_route_src src;   /**< the owner asking (enum rt_route_src) */
	uint32_t flags;          /**< RT_ROUTE_F_* */
	/**
	 * VIA: the gateways, 1..RT_ECMP_MAX (more than one: an ECMP route);
	 * DEV: 1, the port in hop[0].port; BLACKHOLE, REJECT: 0.
	 */
	unsigned int n_hops;
	struct rt_hop hop[RT_ECMP_MAX];
};

/**
 * Install the route @p req, or with RT_ROUTE_F_REPLACE replace the static
 * route of its prefix in one step (as `ip route replace`): every lookup
 * entry it owns takes the new next hop with one store, so a worker forwards
 * by the old route or the new one, never by the covering route in between.
 * Safe while workers run.
 *
 * VIA through one gateway shares that gateway's neighbour next hop with
 * every route through it; through several it is an ECMP route whose packets
 * are spread over the hops by flow, and routes through the same set of
 * gateways share one group (rt_nhgroup.h). Each gateway is checked as
 * rt_neigh_static_add() checks a neighbour.
 *
 * Refused, with nothing changed:
 * - -EINVAL: prefix length > 32, host bits set, a gateway not on a connected
 *   network (or on another port than its hop's @c port), the router or a
 *   network/broadcast address, duplicate gateways, n_hops out of range for
 *   the kind, on-link port without an address;
 * - -EEXIST: a route to the prefix exists and is not replaced (no
 *   RT_ROUTE_F_REPLACE, or it is a connected or local route);
 * - -EPERM: the route to replace is another owner's that @c src may not
 *   change (rt_route_src_may_change()), @p err naming the owner; an
 *   operator's refusal is counted (rt_route_summary.refused_synced);
 * - -ENOSPC: max-routes, max-next-hops or tbl8-groups reached.
 *
 * @return 0 or a negative errno with @p err set to one line.
 */
int rt4_route_set(struct rt_table *t, const struct rt4_route_req *req, char *err, size_t errlen);

/**
 * Delete the static route @p req->prefix/@p req->plen for owner
 * @p req->src (the rest of @p req is not read). Connected and local routes
 * go with their port's address, neighbour routes with the neighbour. A route
 * @c src may not change (rt_route_src_may_change(): another sync's, or a
 * sync's when the writer is the operator) is left, -EPERM, with @p err
 * naming its owner; an operator's refusal is counted
 * (rt_route_summary.refused_synced). Safe while workers run: a more general
 * route takes over at once, and a static /32 uncovers the neighbour route
 * it shadowed.
 *
 * @return 0, or -ENOENT / -EPERM with @p err set.
 */
int rt4_route_del(struct rt_table *t, const struct rt4_route_req *req, char *err, size_t errlen);

/** Name of route source @p src ("static", "shell", "netlink"...), "?" when unknown. */
const char *rt_route_src_name(enum rt_route_src src);

/**
 * True when routes of source @p src belong to a sync (RT_SRC_NETLINK,
 * RT_SRC_FPM): what a routing daemon owns only that daemon changes, so the
 * shell, the config and route files neither delete, replace nor flush them,
 * and one sync never touches the other's. The operator's sources (config,
 * file, shell) share their routes: the shell deletes a config route.
 */
static inline bool
rt_route_src_synced(enum rt_route_src src)
{
	return src == RT_SRC_NETLINK || src == RT_SRC_FPM;
}

/**
 * True when a writer of source @p writer may delete or replace a route of
 * source @p owner: its own, or, between the operator's sources, each
 * other's (see rt_route_src_synced()).
 */
static inline bool
rt_route_src_may_change(enum rt_route_src writer, enum rt_route_src owner)
{
	return writer == owner || (!rt_route_src_synced(writer) && !rt_route_src_synced(owner));
}

/** Seconds of a monotonic clock: what struct rt_route.since counts in. */
uint32_t rt_table_now(void);

/** What rt_route_flush() did, by route source. */
struct rt_route_flush_counts {
	uint32_t flushed[RT_SRC_MAX]; /**< deleted: the config's, files', the shell's */
	uint32_t kept[RT_SRC_MAX];    /**< left: the syncs' (rt_route_src_synced()) */
};

/**
 * Delete every static route (via, dev, blackhole, reject) of the operator's
 * sources (config, file, shell); not the connected, local and neighbour
 * routes, and not the routes a sync owns (netlink, FPM: rt_route_src_synced()),
 * which change only through their sync. Safe while workers run. Says in
 * @p c (NULL: not) what it deleted and kept, by source.
 *
 * @return the number of routes deleted.
 */
uint32_t rt_route_flush(struct rt_table *t, struct rt_route_flush_counts *c);

/**
 * Longest-prefix match of @p ip (control path).
 *
 * @return next hop index, or RT_NH_MISS.
 */
uint32_t rt_route_lookup(const struct rt_table *t, uint32_t ip);

/**
 * Copy up to @p max routes into @p out (a consistent copy, under the lock).
 *
 * @return the number of routes in the table (may exceed @p max).
 */
uint32_t rt_route_list(struct rt_table *t, struct rt_route *out, uint32_t max);

/**
 * Copy up to @p max routes, the @p start-th and those after it, into @p out
 * (a consistent copy, under the lock), so that a reader can page through a
 * table of any size.
 *
 * @return the number of routes in the table; min(@p max, that - @p start)
 *   of them were copied (none when @p start is past the end).
 */
uint32_t rt_route_list_at(struct rt_table *t, uint32_t start, struct rt_route *out, uint32_t max);

/**
 * Copy, in (prefix, length) order, up to @p max routes inside
 * @p prefix/@p plen (itself included; 0/0: every route), the @p start-th of
 * them and those after, into @p out: a page of any table costs the same.
 *
 * @return the number of routes inside @p prefix/@p plen; min(@p max, that -
 *   @p start) of them were copied.
 */
uint32_t rt_route_list_within(struct rt_table *t, uint32_t prefix, uint8_t plen, uint32_t start,
	struct rt_route *out, uint32_t max);

/**
 * The route of @p prefix/@p plen itself (@p exact), or the longest route
 * covering the address @p prefix (plen ignored), into @p out.
 *
 * @return 0, or -ENOENT when there is none.
 */
int rt_route_get(
	struct rt_table *t, uint32_t prefix, uint8_t plen, bool exact, struct rt_route *out);

/** What the table holds and what it costs (rt_route_summary_get()). */
struct rt_route_summary {
	uint32_t routes;              /**< every route, of every kind */
	uint32_t max_routes;          /**< max-routes */
	uint32_t by_plen[33];         /**< routes of each prefix length */
	uint32_t by_kind[8];          /**< routes of each enum rt_route_kind */
	uint32_t nh_used, nh_max;     /**< next-hop slots in use, max-next-hops */
	uint32_t nh_retiring;         /**< unused slots the readers may still see: free to reuse */
	uint32_t neighbours;          /**< neighbour next hops */
	uint32_t tbl8_used, tbl8_max; /**< lookup groups of routes longer than /24 */
	uint64_t mem_lookup;          /**< bytes the workers' lookup table holds (DPDK memory) */
	uint64_t mem_nh;              /**< bytes of next hops (DPDK memory) */
	uint64_t mem_records;         /**< bytes of route records and indexes (heap) */
	/** deletes and replaces by the shell, config or a file refused: the route is a sync's */
	uint64_t refused_synced;
};

/** Fill @p s (a consistent copy, under the lock). */
void rt_route_summary_get(struct rt_table *t, struct rt_route_summary *s);

/**
 * Find or create the neighbour next hop for @p ip on port @p port, and take a
 * reference on it. Used for gateways and for destinations on connected
 * networks (then with @p host_route, which adds the /32 neighbour route unless
 * a static /32 to @p ip exists).
 *
 * @return next hop index, or RT_NH_MISS with rte_errno set (ENOSPC).
 */
uint32_t rt_nh_neigh_get(struct rt_table *t, uint32_t ip, uint16_t port, bool host_route);

/**
 * Find the neighbour next hop for @p ip on any port, without a reference.
 *
 * @return next hop index, or RT_NH_MISS.
 */
uint32_t rt_nh_neigh_find(struct rt_table *t, uint32_t ip);

/**
 * Drop the reference of a neighbour user that is not a route (a static
 * entry, the ARP cache); removes its /32 neighbour route when only that is
 * left, and retires the next hop when nothing refers to it.
 */
void rt_nh_neigh_put(struct rt_table *t, uint32_t nh);

/**
 * Publish the MAC of neighbour @p nh (one atomic store: a worker sees the old
 * or the new MAC, never half of each); @p mac NULL marks it unresolved.
 */
void rt_nh_set_mac(struct rt_table *t, uint32_t nh, const struct rte_ether_addr *mac);

/**
 * Add a static neighbour: @p ip (on a connected network) is at @p mac, for
 * good (never aged out, never changed by ARP); it gets its /32 route.
 *
 * @return 0, or -EINVAL / -EEXIST / -ENOSPC with @p err set.
 */
int rt_neigh_static_add(struct rt_table *t, uint32_t ip, const struct rte_ether_addr *mac,
	char *err, size_t errlen);

/**
 * Remove the static neighbour @p ip: it becomes an ordinary unresolved
 * neighbour (resolved again by ARP if traffic needs it) and loses its /32
 * route when nothing else uses it.
 *
 * @return 0, or -ENOENT with @p err set.
 */
int rt_neigh_static_del(struct rt_table *t, uint32_t ip, char *err, size_t errlen);

#endif /* RT_TABLE_H */
