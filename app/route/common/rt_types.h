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

#define RT_MTU_MIN     68   /**< RFC 791: every host must accept 68 bytes */
#define RT_MTU_MAX     9216 /**< largest jumbo frame payload accepted in a config */
#define RT_MTU_DEFAULT 1500
#define RT_NH_MISS     UINT32_MAX          /**< LPM lookup default: no route */
#define RT_NH_F_VALID  (UINT64_C(1) << 48) /**< rt_nh.l2: the MAC is known */
#define RT_NH_MAC_MASK ((UINT64_C(1) << 48) - 1)
#define RT_ERR_LEN     256

/** What a next hop does with a packet. */
enum rt_nh_type {
	RT_NH_FREE = 0,  /**< unused slot */
	RT_NH_GW,        /**< forward to the neighbour rt_nh.ip on rt_nh.port */
	RT_NH_CONNECTED, /**< on-link: resolve the destination itself */
	RT_NH_LOCAL,     /**< for the router: slow path */
	RT_NH_BLACKHOLE, /**< drop and count */
	RT_NH_REJECT,    /**< ICMP host unreachable */
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
 * A next hop. The workers read @c type, @c port, @c l2, @c src_w and @c mtu
 * (copies of the output port's, so that forwarding reads one line);
 * everything else is the control path's.
 */
struct rt_nh {
	uint64_t l2;       /**< dst MAC in bytes 0-5 (wire order), RT_NH_F_VALID; atomic */
	uint64_t src_w;    /**< frame bytes 6-13 out of @c port: its MAC, EtherType IPv4 */
	uint8_t type;      /**< enum rt_nh_type */
	uint8_t is_static; /**< neighbour from the config: never aged out */
	uint16_t port;     /**< output port */
	uint16_t mtu;      /**< the output port's MTU; atomic */
	uint32_t ip;       /**< the neighbour (RT_NH_GW) */
	uint32_t refcnt;   /**< routes and neighbour users holding it */
	uint64_t retired;  /**< RCU token when freed, for reuse */
} __rte_aligned(64);

/** Per-port interface, as the workers read it. */
struct rt_port {
	uint64_t mac_w; /**< own MAC in bytes 0-5 of a word, for one compare */
	struct rte_ether_addr mac;
	uint16_t mtu;     /**< largest IP datagram sent out of this port */
	uint32_t ip;      /**< own address, 0 = none */
	uint8_t plen;     /**< prefix length of the connected network */
	uint8_t enabled;  /**< the router uses this port */
	uint8_t rx_cksum; /**< the port checks IPv4 header checksums: its RX flags are trusted */
};

#endif /* RT_TYPES_H */
