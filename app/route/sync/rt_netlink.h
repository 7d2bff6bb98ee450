/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_NETLINK_H
#define RT_NETLINK_H

/**
 * @file
 * rtnetlink route messages (RTM_NEWROUTE / RTM_DELROUTE, AF_INET) as the
 * kernel, `ip monitor route`, BIRD's kernel protocol and FRR zebra's FPM
 * send them, read with libmnl's attribute walkers into a neutral struct
 * (no EAL, nothing allocated), then applied to a table.
 *
 * Taken: RTA_DST, RTA_TABLE (over rtm_table), RTA_GATEWAY, RTA_OIF,
 * RTA_MULTIPATH (struct rtnexthop each with its own RTA_GATEWAY; the weight
 * is rtnh_hops + 1), RTA_PRIORITY (the metric: the netlink sync keeps a
 * prefix's routes by it, rt_nlcands.h), NLM_F_REPLACE; route types unicast,
 * blackhole, unreachable and prohibit. Read and ignored: RTA_PREFSRC,
 * RTA_METRICS and every other attribute. Refused with a reason
 * (RT_NL_REASONS): RTA_NH_ID (zebra's next-hop objects: configure zebra with
 * `no fpm use-next-hop-groups`), source-specific routes, other tables, other
 * types, more than RT_ECMP_MAX hops, encapsulated routes (RTA_ENCAP /
 * RTA_ENCAP_TYPE on the route or inside any hop of RTA_MULTIPATH: the whole
 * route, as a route half-forwarded is worse than none), and anything
 * malformed.
 *
 * Addresses are in host byte order, as in rt_table.h.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_table.h"

/* X(SYM, "name", "what it means") */
#define RT_NL_REASONS(X)                                                                          \
	X(OK, "ok", "taken")                                                                      \
	X(TRUNCATED, "truncated", "shorter than its headers or than its nlmsg_len says")          \
	X(NOT_ROUTE, "not_route", "neither RTM_NEWROUTE nor RTM_DELROUTE")                        \
	X(NOT_INET, "not_inet", "not an AF_INET route")                                           \
	X(BAD_PLEN, "bad_plen", "destination length above 32")                                    \
	X(HOST_BITS, "host_bits", "the destination has bits set past its length")                 \
	X(BAD_ATTR, "bad_attr", "an attribute of the wrong size, or a malformed nexthop")         \
	X(SRC_ROUTE, "src_route", "source-specific route (rtm_src_len or RTA_SRC)")               \
	X(OTHER_TABLE, "other_table", "a table other than the one synchronised")                  \
	X(UNSUPPORTED_TYPE, "unsupported_type",                                                   \
		"not unicast, blackhole, unreachable or prohibit (local, broadcast, throw, ...)") \
	X(NH_ID, "nh_id", "next hop given by id (RTA_NH_ID): next-hop objects are not kept")      \
	X(TOO_MANY_HOPS, "too_many_hops", "more than RT_ECMP_MAX next hops")                      \
	X(NO_NEXTHOP, "no_nexthop", "a unicast route with neither gateway nor output interface")  \
	X(HOP_NO_GW, "hop_no_gw", "a multipath hop without a gateway")                            \
	X(ENCAP, "encap",                                                                         \
		"a tunnel's (RTA_ENCAP on it or a hop, NHA_ENCAP on its next hop): "              \
		"sent plain it would go where it must not")

/** Why a message was refused (RT_NL_OK: it was not). */
enum rt_nl_reason {
#define RT_NL_ENUM(sym, name, desc) RT_NL_##sym,
	RT_NL_REASONS(RT_NL_ENUM)
#undef RT_NL_ENUM
		RT_NL_REASON_MAX
};

/** The main table (RT_TABLE_MAIN), the one a namespace's FIB is in. */
#define RT_NL_TABLE_MAIN 254

/** One next hop of a route message. */
struct rt_nl_hop {
	uint32_t gw;      /**< RTA_GATEWAY, 0 = none (on-link through @c ifindex) */
	uint32_t ifindex; /**< RTA_OIF / rtnh_ifindex, 0 = none */
	uint16_t weight;  /**< 1..256 (rtnh_hops + 1); 1 for a single hop */
};

/** A route message, neutral of where it came from. */
struct rt_nl_route {
	bool del;     /**< RTM_DELROUTE */
	bool replace; /**< NLM_F_REPLACE */
	uint8_t kind; /**< enum rt_route_kind: VIA (unicast), BLACKHOLE or REJECT */
	uint8_t plen;
	uint32_t prefix;
	uint32_t table;   /**< RTA_TABLE, else rtm_table */
	uint8_t protocol; /**< rtm_protocol (RTPROT_BGP = 186, ...) */
	uint8_t n_hops;   /**< 0..RT_ECMP_MAX (always 0 on a delete, or with @c nh_id) */
	uint32_t metric;  /**< RTA_PRIORITY, 0 when absent (as the kernel leaves it out) */
	uint32_t nh_id;   /**< RTA_NH_ID (rt_netlink_parse_nh() only), 0 = none */
	uint16_t encap;   /**< RT_NL_ENCAP: the encap type (LWTUNNEL_ENCAP_*, rt_nl_encap_name()) */
	struct rt_nl_hop hops[RT_ECMP_MAX];
};

/**
 * Parse the one route message at @p buf, of which @p len bytes are readable
 * (a message's nlmsg_len may not exceed it), accepting routes of table
 * @p table only (RT_NL_TABLE_MAIN usually). @p r is filled when the message
 * is taken and undefined otherwise. A RTM_NEWROUTE of type unicast has at
 * least one hop; a delete has none (its hops are read for form, not kept: the table keeps one route a prefix).
 *
 * RT_NL_ENCAP (a new route only: a delete of an encapsulated route is a
 * delete like any other) fills @p r all the same, with @c encap, so that the
 * caller can name the route and withdraw what it held for that key: the
 * kernel's (or zebra's) route there is now one that cannot be forwarded.
 *
 * @return RT_NL_OK, or why the message is refused.
 */
enum rt_nl_reason rt_netlink_parse(
	const void *buf, size_t len, uint32_t table, struct rt_nl_route *r);

/**
 * rt_netlink_parse(), but a route may name its next hop by id (RTA_NH_ID, as
 * FRR zebra's FPM does by default): then @c nh_id is set, @c n_hops is 0
 * whatever else the message carries, and the caller resolves the id
 * (rt_nexthop.h) before applying the route.
 *
 * @return RT_NL_OK, or why the message is refused.
 */
enum rt_nl_reason rt_netlink_parse_nh(
	const void *buf, size_t len, uint32_t table, struct rt_nl_route *r);

/** The counter-style name of @p why ("too_many_hops"), "?" when out of range. */
const char *rt_nl_reason_name(enum rt_nl_reason why);

/** One line saying what @p why means, "?" when out of range. */
const char *rt_nl_reason_desc(enum rt_nl_reason why);

/**
 * The name `ip route` gives encap type @p type (LWTUNNEL_ENCAP_*: "mpls",
 * "ip", "seg6", ...), or NULL for a type it does not know.
 */
const char *rt_nl_encap_name(uint16_t type);

/** A kernel interface that is a port of the table. */
struct rt_nl_ifmap {
	uint32_t ifindex;
	uint16_t port;
};

/**
 * Apply route @p r (from rt_netlink_parse()) to @p t as routes of source
 * @p src (RT_SRC_NETLINK, RT_SRC_FPM), the interfaces named in it mapped to
 * ports through the @p n_map entries of @p map: a delete through
 * rt4_route_del() (of a route of @p src only), a blackhole/unreachable/
 * prohibit, one hop (via GW, or dev PORT when the hop has no gateway) or more
 * (weights are not kept: the table spreads flows evenly) through
 * rt4_route_set().
 *
 * A hop's interface: with a map, its port, and an interface that is not in
 * the map is refused; with no map (@p n_map 0), the port whose connected
 * network holds the hop's gateway, and a hop without one is refused.
 * An entry of ifindex 0 matches no interface: a map of that entry alone is
 * a map that maps nothing (names were given and none was found), which
 * refuses every hop through an interface rather than port it by gateway.
 *
 * With @c replace, an existing route of @p src to the prefix is replaced: not
 * at all when it is the same (same kind, gateways and ports), else replaced
 * in one step (RT_ROUTE_F_REPLACE: workers see the old route or the new,
 * never the covering one), and a refused replacement leaves the old. A route
 * of another source is not replaced. Safe while workers run.
 *
 * @return 0, or a negative errno with @p err set to one line: -ENODEV for an
 *   interface that is no port, -EEXIST for a route to the prefix (without
 *   replace, or of another source), -EPERM for a delete of another source's
 *   route or a replace of a connected or local one, -ENOENT for a delete of
 *   no route, else what the table says (-EINVAL, -ENOSPC, ...).
 */
int rt_netlink_apply_from(struct rt_table *t, enum rt_route_src src, const struct rt_nl_route *r,
	const struct rt_nl_ifmap *map, unsigned int n_map, char *err, size_t errlen);

/** rt_netlink_apply_from() with RT_SRC_NETLINK. */
int rt_netlink_apply(struct rt_table *t, const struct rt_nl_route *r, const struct rt_nl_ifmap *map,
	unsigned int n_map, char *err, size_t errlen);

#endif /* RT_NETLINK_H */
