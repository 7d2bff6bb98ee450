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
 * What the table itself calls (find or create a group, release one, a
 * member's neighbour changed, free them all) is the table's internals,
 * declared in rt_table_priv.h: the groups are part of the table, and the
 * table calls them, not the other way round through this header.
 */

#include <stddef.h>
#include <stdint.h>

#include "rt_table.h"

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

#endif /* RT_NHGROUP_H */
