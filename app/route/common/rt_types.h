/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_TYPES_H
#define RT_TYPES_H

/**
 * @file
 * What the workers read of the router's table: next hops and interfaces, and
 * their constants. The table that owns them and its control API are in
 * control/rt_table.h; the workers see only these types.
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_ether.h>

#include "rt_addr6.h"

#define RT_MTU_MIN     68   /**< RFC 791: every host must accept 68 bytes */
#define RT_MTU_MAX     9216 /**< largest jumbo frame payload accepted in a config */
#define RT_MTU_DEFAULT 1500
#define RT_NH_MISS     UINT32_MAX          /**< LPM lookup default: no route */
#define RT_NH_F_VALID  (UINT64_C(1) << 48) /**< rt_nh.l2: the MAC is known */
#define RT_NH_MAC_MASK ((UINT64_C(1) << 48) - 1)
#define RT_ERR_LEN     256
#define RT_ECMP_MAX    16 /**< next hops of one ECMP route at most (members of a group) */
/**
 * Slots of an ECMP group's table (struct rt_ecmp_set): a flow's hash picks a
 * slot, the slot a member. 1024 keeps every member within 16/1024 = 1.6 % of
 * its share for any member count up to 16 (256 would give n = 15 +5.5 %).
 */
#define RT_ECMP_SLOTS 1024

/** What a next hop does with a packet. */
enum rt_nh_type {
	RT_NH_FREE = 0,  /**< unused slot */
	RT_NH_GW,        /**< forward to the neighbour rt_nh.ip on rt_nh.port */
	RT_NH_CONNECTED, /**< on-link: resolve the destination itself */
	RT_NH_LOCAL,     /**< for the router: slow path */
	RT_NH_BLACKHOLE, /**< drop and count */
	RT_NH_REJECT,    /**< ICMP host unreachable */
	RT_NH_GROUP,     /**< ECMP: one of the gateways of rt_nh.set, chosen by flow */
};

/** Kinds of route, as listed by rt_route_list(). */
enum rt_route_kind {
	RT_ROUTE_CONNECTED, /**< a port's prefix */
	RT_ROUTE_LOCAL,     /**< a port's address or its subnet broadcast, /32 */
	RT_ROUTE_VIA,       /**< static route to a gateway */
	RT_ROUTE_DEV,       /**< static on-link route out of a port */
	RT_ROUTE_BLACKHOLE,
	RT_ROUTE_REJECT,
	RT_ROUTE_NEIGH, /**< /32 to a resolved neighbour on a connected network */
};

/**
 * Where a route came from (its "proto", as `ip route` and FRR print it): an
 * X-macro table, so the names and the enum cannot drift apart.
 */
#define RT_SRC_TABLE(X)                                                           \
	X(SYSTEM, "kernel")   /* connected, local, neighbour: the router's own */ \
	X(CONFIG, "static")   /* the config file's route lines */                 \
	X(FILE, "file")       /* a route file (routes-file, route load) */        \
	X(SHELL, "shell")     /* route add in the shell */                        \
	X(NETLINK, "netlink") /* a Linux FIB (rtnetlink) */                       \
	X(FPM, "fpm")         /* FRR zebra over FPM */

/** Route sources (struct rt_route.src). */
enum rt_route_src {
#define RT_SRC_ENUM(n, s) RT_SRC_##n,
	RT_SRC_TABLE(RT_SRC_ENUM)
#undef RT_SRC_ENUM
		RT_SRC_MAX
};

/**
 * The active members of an ECMP group, as the workers read them: a flow's
 * hash picks one of RT_ECMP_SLOTS slots, the slot names a member. A set is
 * never changed once published: the control path builds a new one, swaps
 * rt_nh.set with one atomic store and frees the old one after an RCU grace
 * period, so a reader sees the old set or the new one, never half of each.
 * Only the slots of a member that leaves change from one set to the next
 * (and a member that comes back takes back exactly those), so the other
 * flows stay on their member.
 */
struct rt_ecmp_set {
	uint8_t n_members; /**< members of the group (2..RT_ECMP_MAX) */
	uint8_t n_active;  /**< resolved members the slots spread over; 0 = none, all used */
	uint8_t pad[2];
	uint32_t member[RT_ECMP_MAX]; /**< next-hop index (RT_NH_GW) of each member */
	uint8_t slot[RT_ECMP_SLOTS];  /**< the index in @c member of each slot's member */
} __rte_aligned(64);

/**
 * A next hop as the workers read it: what forwarding a frame through it needs
 * (@c type, @c port, @c l2, @c src_w and @c mtu: copies of the output port's,
 * so that forwarding reads this record alone) and @c set of a group, in 32
 * bytes: 64 k next hops take 2 MiB, half the cache lines and pages a random
 * destination's next hop is read from at 64 bytes. What only the control path
 * uses is in the parallel struct rt_nh_info.
 */
struct rt_nh {
	uint64_t l2;    /**< dst MAC in bytes 0-5 (wire order), RT_NH_F_VALID; atomic */
	uint64_t src_w; /**< frame bytes 6-13 out of @c port: its MAC, EtherType IPv4 */
	const struct rt_ecmp_set *set; /**< RT_NH_GROUP: its active members; atomic */
	uint8_t type;                  /**< enum rt_nh_type */
	uint8_t pad;
	uint16_t port; /**< output port */
	uint16_t mtu;  /**< the output port's MTU; atomic */
} __rte_aligned(32);
_Static_assert(sizeof(struct rt_nh) == 32, "rt_nh: a next hop is half a cache line");

/**
 * The control path's part of next hop i (rt_table::nh_info[i] beside
 * rt_table::nh[i]): the neighbour, its references and its RCU token. The
 * burst never reads it (the packet trace does, for the neighbour's address).
 */
struct rt_nh_info {
	uint64_t retired; /**< RCU token when freed, for reuse */
	union {
		uint32_t ip;         /**< the neighbour (RT_NH_GW), RT_NH_FAM_IP4 */
		struct rt6_addr ip6; /**< the neighbour (RT_NH_GW), RT_NH_FAM_IP6 */
	};
	uint32_t refcnt;   /**< routes and neighbour users holding it */
	uint8_t is_static; /**< neighbour from the config: never aged out */
	/**
	 * RT_NH_FAM_*: the family of the neighbour (RT_NH_GW) or of the on-link
	 * destinations (RT_NH_CONNECTED) it stands for: which address above is
	 * valid, ARP or Neighbour Discovery. The specials and ECMP groups are
	 * RT_NH_FAM_IP4 and serve both families.
	 */
	uint8_t family;
};

#define RT_NH_FAM_IP4 0 /**< rt_nh_info.family: IPv4 (the zero of a fresh slot) */
#define RT_NH_FAM_IP6 1 /**< rt_nh_info.family: IPv6 */

/** Per-port interface, as the workers read it. */
struct rt_port {
	uint64_t mac_w; /**< own MAC in bytes 0-5 of a word, for one compare */
	struct rte_ether_addr mac;
	uint16_t mtu;     /**< largest IP datagram sent out of this port */
	uint32_t ip;      /**< own address, 0 = none */
	uint8_t plen;     /**< prefix length of the connected network */
	uint8_t enabled;  /**< the router uses this port */
	uint8_t rx_cksum; /**< the port checks IPv4 header checksums: its RX flags are trusted */
	/**
	 * The port has a kernel twin (the exception path): link-local multicast
	 * (224.0.0.0/24, OSPF hellos) is then for the router, not dropped.
	 */
	uint8_t twin;
};

#endif /* RT_TYPES_H */
