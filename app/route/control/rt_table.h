/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_TABLE_H
#define RT_TABLE_H

/**
 * @file
 * The router's state shared by the workers and the control path: per-port
 * interfaces (MAC, IPv4 address/prefix, MTU), the next-hop table and the
 * longest-prefix-match table (rte_lpm) that maps a destination to a next hop.
 *
 * Readers (the workers) never lock. rte_lpm updates its tables with single
 * atomic stores and gives freed tbl8 groups back through an RCU QSBR defer
 * queue; a next hop that loses its last route is retired with an RCU token
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
#include <rte_lpm.h>
#include <rte_rcu_qsbr.h>

#include "rt_types.h"

/** A route as kept by the table (control path). */
struct rt_route {
	uint32_t prefix;
	uint8_t plen;
	uint8_t kind;  /**< enum rt_route_kind */
	uint16_t port; /**< VIA/DEV/CONNECTED/LOCAL/NEIGH: output port */
	uint32_t gw;   /**< VIA: gateway */
	uint32_t nh;   /**< next hop index */
};

/** Parameters of rt_table_create(). */
struct rt_table_params {
	const char *name;     /**< unique name (rte_lpm object name) */
	int socket;           /**< NUMA socket, or SOCKET_ID_ANY */
	uint32_t max_routes;  /**< 0 = 4096 */
	uint32_t max_nh;      /**< next hops (neighbours + special); 0 = 1024 */
	uint32_t tbl8s;       /**< rte_lpm tbl8 groups; 0 = 256 */
	uint32_t max_threads; /**< RCU reader thread ids (lcore ids); 0 = RTE_MAX_LCORE */
};

/** The router's table. Workers use @c lpm, @c nh and @c ports directly. */
struct rt_table {
	struct rte_lpm *lpm;
	struct rt_nh *nh;
	struct rte_rcu_qsbr *qsbr;
	struct rt_port ports[RTE_MAX_ETHPORTS];
	uint32_t max_nh;
	uint32_t max_routes;
	uint32_t n_routes;
	struct rt_route *routes;
	uint32_t nh_local; /**< shared next hops of the special types */
	uint32_t nh_blackhole;
	uint32_t nh_reject;
	uint32_t nh_connected[RTE_MAX_ETHPORTS];
	uint32_t default_nh;  /**< the /0 route (rte_lpm has no depth 0); RT_NH_MISS = none */
	pthread_mutex_t lock; /**< writers only */
	/**
	 * Bumped after every change a cached forwarding decision may depend on
	 * (route added or removed, neighbour MAC set or cleared, MTU): the flow
	 * stage (rt_flowtable.h) treats entries of an older generation as misses.
	 */
	uint32_t gen;
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

/**
 * Add a static route @p prefix/@p plen of @p kind (RT_ROUTE_VIA with @p gw and
 * optionally @p port (-1 = find it from @p gw), RT_ROUTE_DEV with @p port,
 * RT_ROUTE_BLACKHOLE, RT_ROUTE_REJECT). Safe while workers run.
 *
 * Refused (-EINVAL) : prefix length > 32, host bits set, gateway not on a
 * connected network (or on another port than @p port), gateway is the router
 * or its network/broadcast address, on-link port without an address.
 * -EEXIST: a route to the same prefix exists (incl. a connected one).
 *
 * @return 0 or a negative errno with @p err set to one line.
 */
int rt_route_add(struct rt_table *t, uint32_t prefix, uint8_t plen, enum rt_route_kind kind,
	uint32_t gw, int port, char *err, size_t errlen);

/**
 * Delete the static route @p prefix/@p plen (connected and local routes go
 * with their port's address, neighbour routes with the neighbour). Safe while
 * workers run: a more general route takes over at once.
 *
 * @return 0, or -ENOENT / -EPERM with @p err set.
 */
int rt_route_del(struct rt_table *t, uint32_t prefix, uint8_t plen, char *err, size_t errlen);

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
uint32_t rt_nh_neigh_find(const struct rt_table *t, uint32_t ip);

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

/** Format @p ip as a dotted quad into @p buf (16 bytes); returns @p buf. */
const char *rt_ip_str(uint32_t ip, char *buf);

/**
 * Parse "a.b.c.d" (strictly: four decimal octets) into @p ip.
 *
 * @return 0 or -EINVAL.
 */
int rt_ip_parse(const char *s, uint32_t *ip);

/**
 * Parse "a.b.c.d/len" (len 0..32) into @p ip and @p plen; a bare address
 * means /32 when @p need_len is false.
 *
 * @return 0 or -EINVAL.
 */
int rt_prefix_parse(const char *s, uint32_t *ip, uint8_t *plen, bool need_len);

/** Network mask of a prefix length (0..32), host order. */
static inline uint32_t
rt_mask(uint8_t plen)
{
	return plen == 0 ? 0 : UINT32_MAX << (32 - plen);
}

/**
 * True when @p ip, on a network of prefix length @p plen, is that network's
 * network (host part all zeros) or broadcast (all ones) address; a /31 or
 * /32 has neither (RFC 3021).
 */
static inline bool
rt_net_bcast_or_net(uint32_t ip, uint8_t plen)
{
	const uint32_t m = rt_mask(plen);

	return plen <= 30 && ((ip & ~m) == 0 || (ip | m) == UINT32_MAX);
}

/**
 * Why @p ip may not be a next hop or a neighbour on the network
 * @p net_ip/@p plen (the router's address there is @p own): NULL when it
 * may, else "not on ..."-style text. The one rule for gateways and static
 * neighbours, from the config file (before EAL) and the table alike.
 */
static inline const char *
rt_neigh_addr_invalid(uint32_t ip, uint32_t own, uint8_t plen)
{
	if (((ip ^ own) & rt_mask(plen)) != 0)
		return "not on any connected network";
	if (ip == own)
		return "the router's own address";
	if (rt_net_bcast_or_net(ip, plen))
		return "the network or broadcast address of a connected network";
	return NULL;
}

#endif /* RT_TABLE_H */
