/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_NEXTHOP_H
#define RT_NEXTHOP_H

/**
 * @file
 * Next-hop objects (RTM_NEWNEXTHOP / RTM_DELNEXTHOP, as FRR zebra's FPM
 * sends them by default, and `ip nexthop`): one message read with libmnl
 * into a neutral struct, a table of them by id (a hash), and the resolution
 * of a route's RTA_NH_ID into the hops of a struct rt_nl_route. No EAL.
 *
 * Taken: NHA_ID, NHA_GATEWAY (AF_INET: 4 bytes), NHA_OIF, NHA_BLACKHOLE,
 * NHA_GROUP (struct nexthop_grp: members' ids, 1 to RT_ECMP_MAX, each a
 * single next hop already in the table; the weights are read, not kept),
 * NHA_ENCAP / NHA_ENCAP_TYPE (a tunnel's next hop: kept, with its type, so
 * that a route naming it, or a group holding it, is refused as encap and
 * never sent plain). Read and ignored: NHA_GROUP_TYPE, NHA_FDB and the rest.
 * An IPv6 next hop (a gateway of 16 bytes) is refused (nh_not_inet).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_netlink.h"

/* X(SYM, "name", "what it means") */
#define RT_NH_REASONS(X)                                                                      \
	X(OK, "ok", "taken")                                                                  \
	X(TRUNCATED, "nh_truncated", "shorter than its headers or than its nlmsg_len says")   \
	X(NOT_NEXTHOP, "nh_not_nexthop", "neither RTM_NEWNEXTHOP nor RTM_DELNEXTHOP")         \
	X(NOT_INET, "nh_not_inet", "a next hop that is neither AF_INET nor a group")          \
	X(BAD_ATTR, "nh_bad_attr", "an attribute of the wrong size, or no NHA_ID (or id 0)")  \
	X(EMPTY, "nh_empty", "neither gateway, interface, blackhole nor group")               \
	X(TOO_MANY, "nh_too_many", "a group of more than RT_ECMP_MAX members")                \
	X(UNKNOWN, "nh_unknown", "a group member, or a deleted id, that is not in the table") \
	X(NESTED, "nh_nested", "a group member that is a group or a blackhole")               \
	X(FULL, "nh_full", "the table holds RT_NH_MAX objects already (or no memory)")

/** Why a next-hop message was refused (RT_NH_OK: it was not). */
enum rt_nh_reason {
#define RT_NH_ENUM(sym, name, desc) RT_NH_##sym,
	RT_NH_REASONS(RT_NH_ENUM)
#undef RT_NH_ENUM
		RT_NH_REASON_MAX
};

/** The most next-hop objects a table holds. */
#define RT_NH_MAX 65536

/** What a next-hop object is. */
enum rt_nho_kind {
	RT_NHO_GATEWAY,   /**< a gateway and/or an interface */
	RT_NHO_BLACKHOLE, /**< NHA_BLACKHOLE */
	RT_NHO_GROUP,     /**< NHA_GROUP: ECMP over single next hops */
};

/** One next-hop message. */
struct rt_nh_msg {
	bool del;                      /**< RTM_DELNEXTHOP (only @c id is meaningful) */
	uint8_t kind;                  /**< enum rt_nho_kind */
	uint8_t n;                     /**< group members, 1..RT_ECMP_MAX */
	uint32_t id;                   /**< NHA_ID, never 0 */
	uint32_t gw;                   /**< NHA_GATEWAY, host order, 0 = none */
	uint32_t oif;                  /**< NHA_OIF, 0 = none */
	uint32_t members[RT_ECMP_MAX]; /**< a group's ids */
	bool encap;                    /**< NHA_ENCAP: a tunnel's (RT_NHO_GATEWAY only) */
	uint16_t encap_type;           /**< NHA_ENCAP_TYPE (LWTUNNEL_ENCAP_*) */
};

/**
 * Parse the one next-hop message at @p buf (@p len readable bytes; its
 * nlmsg_len may not exceed them) into @p m (undefined when refused).
 *
 * @return RT_NH_OK, or why it is refused.
 */
enum rt_nh_reason rt_nh_parse(const void *buf, size_t len, struct rt_nh_msg *m);

/** The counter-style name of @p why ("nh_unknown"), "?" when out of range. */
const char *rt_nh_reason_name(enum rt_nh_reason why);

/** One line saying what @p why means, "?" when out of range. */
const char *rt_nh_reason_desc(enum rt_nh_reason why);

struct rt_nh_table;

/** An empty table, or NULL (no memory). */
struct rt_nh_table *rt_nh_table_create(void);

/** Free @p t (NULL is fine). */
void rt_nh_table_free(struct rt_nh_table *t);

/** Forget every object (a new connection: the client sends them all again). */
void rt_nh_table_flush(struct rt_nh_table *t);

/** How many objects @p t holds. */
uint32_t rt_nh_table_count(const struct rt_nh_table *t);

/**
 * Apply @p m to @p t: add or replace the object of its id (a group's
 * members must be single next hops in the table), or delete it.
 *
 * A group keeps its members' ids, not copies: a member replaced later is
 * what the group's routes resolve to from then on.
 *
 * @return RT_NH_OK, RT_NH_UNKNOWN (a member, or a deleted id, not in the
 *   table), RT_NH_NESTED, RT_NH_FULL.
 */
enum rt_nh_reason rt_nh_table_apply(struct rt_nh_table *t, const struct rt_nh_msg *m);

/** True when @p t holds an object of id @p id. */
bool rt_nh_table_has(const struct rt_nh_table *t, uint32_t id);

/**
 * True when @p t holds the object @p m (an add) describes, unchanged: same
 * id, kind, gateway, interface, encap and group members in the same order. Such a
 * message (zebra re-sends its objects) changes nothing, and the routes that
 * name it need not be touched.
 */
bool rt_nh_table_same(const struct rt_nh_table *t, const struct rt_nh_msg *m);

/**
 * True when a route naming @p id depends on object @p changed: it is that
 * object, or a group with it as a member.
 */
bool rt_nh_depends(const struct rt_nh_table *t, uint32_t id, uint32_t changed);

/**
 * Resolve a route's @c nh_id (from rt_netlink_parse_nh()) through @p t into
 * its hops: a gateway object gives one hop, a group one per member, a
 * blackhole makes the route a blackhole. A route without nh_id, a delete, or
 * a route that is no unicast is left as it is.
 *
 * @return 0, -ENOENT when the id (or a member of its group) is not in @p t,
 *   or -ENOTSUP when the object, or a member of its group, is a tunnel's
 *   (NHA_ENCAP): @c r->encap is then its type, and the route is to be
 *   refused whole (RT_NL_ENCAP), not sent plain.
 */
int rt_nh_resolve(const struct rt_nh_table *t, struct rt_nl_route *r);

#endif /* RT_NEXTHOP_H */
