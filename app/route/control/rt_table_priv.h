/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_TABLE_PRIV_H
#define RT_TABLE_PRIV_H

/**
 * @file
 * The table's internals, for the files that extend it (rt_table.c itself,
 * its interfaces in rt_iface.c, ECMP groups): next-hop slots, neighbour and route records. Every function
 * here is called with rt_table::lock held; none takes it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_table.h"

/**
 * Take a free next-hop slot (one no reader can still be using), fill it for
 * @p type on @p port (neighbour @p ip), with no reference yet.
 *
 * @return its index, or RT_NH_MISS with rte_errno = ENOSPC (max-next-hops).
 */
uint32_t rt_nh_alloc_locked(struct rt_table *t, enum rt_nh_type type, uint16_t port, uint32_t ip);

/** The key of rt_table::neigh6_idx: an IPv6 neighbour on a port (link-locals repeat per link). */
struct rt_neigh6_key {
	struct rt6_addr ip;
	uint16_t port;
	uint16_t pad; /**< zero: the whole key is hashed */
};

/**
 * rt_nh_alloc_locked() for IPv6: a next hop of @p type on @p port whose neighbour (RT_NH_GW,
 * then indexed in rt_table::neigh6_idx) or on-link destinations (RT_NH_CONNECTED) are IPv6
 * (rt_nh_info.family RT_NH_FAM_IP6, frames sent with EtherType IPv6).
 *
 * @return its index, or RT_NH_MISS with rte_errno = ENOSPC (max-next-hops), EINVAL (no
 *   IPv6 table).
 */
uint32_t rt_nh_alloc6_locked(
	struct rt_table *t, enum rt_nh_type type, uint16_t port, const struct rt6_addr *ip6);

/** The IPv6 neighbour next hop of @p ip6 on @p port that something refers to, or RT_NH_MISS. */
uint32_t rt_neigh6_find_locked(const struct rt_table *t, const struct rt6_addr *ip6, uint16_t port);

/** Take a reference on next hop @p i (a route or a neighbour user). */
void rt_nh_ref_locked(struct rt_table *t, uint32_t i);

/**
 * Drop a reference on next hop @p i: the last one retires it (reused only
 * after every reader has since passed a quiescent state).
 */
void rt_nh_unref_locked(struct rt_table *t, uint32_t i);

/** The neighbour next hop of @p ip that something refers to, or RT_NH_MISS. */
uint32_t rt_neigh_find_locked(const struct rt_table *t, uint32_t ip);

/**
 * Check a gateway or static neighbour @p ip (@p what names it in the
 * message): on a connected network (port @p port's when >= 0), neither the
 * router's address nor a network or broadcast address. @p out_port gets the
 * port.
 *
 * @return 0 or -EINVAL with @p err set.
 */
int rt_gw_check_locked(const struct rt_table *t, const char *what, uint32_t ip, int port,
	int *out_port, char *err, size_t errlen);

/** The route record of @p prefix/@p plen, or NULL. */
struct rt_route *rt_route_find_locked(const struct rt_table *t, uint32_t prefix, uint8_t plen);

/**
 * Add the record and the lookup entry of a route to next hop @p nh (one
 * reference taken on it).
 *
 * @return 0, or -ENOSPC (max-routes, tbl8-groups) / another negative errno.
 */
int rt_route_insert_locked(struct rt_table *t, uint32_t prefix, uint8_t plen,
	enum rt_route_kind kind, uint16_t port, uint32_t gw, uint32_t nh);

/**
 * Remove route @p r (its lookup entry, then its record; the next hop's
 * reference is dropped). @p r is invalid afterwards.
 */
void rt_route_remove_locked(struct rt_table *t, struct rt_route *r);

/** Why a next hop could not be had: the limit, by its config name (max-next-hops). */
void rt_nh_full_err(const struct rt_table *t, char *err, size_t errlen);

/**
 * Why rt_route_insert_locked() failed with @p ret: the limit reached, by its
 * config name (max-routes, tbl8-groups), or the error.
 */
void rt_route_insert_err(const struct rt_table *t, int ret, char *err, size_t errlen);

/**
 * Give back next hop @p i, allocated but never referenced (no reader can have
 * seen it): out of the neighbour index, onto the free stack. One referenced or
 * retired is left alone. Lock held.
 */
void rt_nh_free_unused_locked(struct rt_table *t, uint32_t i);

/* ECMP groups (rt_nhgroup.c; their readers' API is rt_nhgroup.h) */

/**
 * Find or create the group of the @p n hops @p hops (2..RT_ECMP_MAX), each
 * checked with rt_gw_check_locked(); duplicates are refused. The group gets
 * no reference: the route that uses it takes one. @p port0 and @p gw0 get
 * its first member's port and gateway (the route record's).
 *
 * @return the group's next-hop index, or RT_NH_MISS with @p err set and
 *   rte_errno EINVAL / ENOSPC / ENOMEM.
 */
uint32_t rt_nhgroup_get_locked(struct rt_table *t, const struct rt_hop *hops, unsigned int n,
	uint16_t *port0, uint32_t *gw0, char *err, size_t errlen);

/**
 * The ECMP group of the next hops @p member (2..RT_ECMP_MAX neighbour next hops of either
 * family, in a canonical order: the same set in any order must be given in the same
 * order, as rt_nhgroup_get_locked() sorts IPv4 gateways by address), found or made, for
 * a route to point at (the caller takes its reference). A member marked in @p fresh was
 * just allocated for this call and is given back when the group cannot be had. Lock held.
 *
 * @return the group's next hop, or RT_NH_MISS with rte_errno (ENOSPC, ENOMEM) and @p err.
 */
uint32_t rt_nhgroup_of_members_locked(struct rt_table *t, const uint32_t *member, const bool *fresh,
	unsigned int n, char *err, size_t errlen);

/**
 * Group next hop @p g lost its last reference (from rt_nh_unref_locked()):
 * drop its members' references and forget it; its set is freed once no
 * reader can hold it. A group never referenced is freed at once.
 */
void rt_nhgroup_release_locked(struct rt_table *t, uint32_t g);

/**
 * Neighbour next hop @p nh became resolved or unresolved (from
 * rt_nh_set_mac(), lock not held): republish the active set of every group
 * it is a member of. Takes the table's lock.
 */
void rt_nhgroup_neigh_changed(struct rt_table *t, uint32_t nh);

/** Free everything the groups of @p t hold (rt_table_free(): no reader left). */
void rt_nhgroup_free(struct rt_table *t);

#endif /* RT_TABLE_PRIV_H */
