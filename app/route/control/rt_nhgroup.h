/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_NHGROUP_H
#define RT_NHGROUP_H

/**
 * @file
 * ECMP next-hop groups (control path): a group is a next hop of type
 * RT_NH_GROUP whose members are 2 to RT_ECMP_MAX gateway next hops; the
 * workers pick a member per flow (datapath/rt_ecmp.h).
 *
 * - Sharing: routes with the same set of gateways share one group, found by
 *   a hash of the (sorted) member set; the group holds one reference on each
 *   member, routes hold references on the group, and the group goes (its
 *   members' references with it) when its last route does.
 * - Failover: a member whose neighbour is unresolved leaves the active set
 *   of every group it is in (each next hop has the list of its groups), and
 *   comes back when resolved. With no member resolved the slots spread over
 *   all members, so that the flows' packets reach the slow path as
 *   unresolved on one of them and ARP asks for each member in turn.
 * - Publication: each change builds a new struct rt_ecmp_set (a function
 *   of which members are up: only a lost member's slots move, and they come
 *   back with it), swaps it in with one atomic store and frees the old one
 *   after an RCU grace period.
 *
 * Every function named *_locked is called with rt_table::lock held.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_table.h"

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

/**
 * Copy the members of group @p g into @p nh (next-hop indices, up to
 * RT_ECMP_MAX) and, when @p active is not NULL, whether each is in the
 * active set (resolved).
 *
 * @return the number of members, or 0 when @p g is not a group.
 */
unsigned int rt_nhgroup_members(struct rt_table *t, uint32_t g, uint32_t *nh, uint8_t *active);

/**
 * The member of group @p g the slow path sends a packet of flow hash @p hash
 * through: @p hint (the worker's choice, which used the RSS hash the slow
 * path no longer has) if it is an active member, else the set's choice.
 *
 * @return a member's next-hop index, or RT_NH_MISS when @p g is not a group.
 */
uint32_t rt_nhgroup_pick(struct rt_table *t, uint32_t g, uint32_t hash, uint32_t hint);

/** Free everything the groups of @p t hold (rt_table_free(): no reader left). */
void rt_nhgroup_free(struct rt_table *t);

#endif /* RT_NHGROUP_H */
