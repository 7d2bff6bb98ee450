/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_ROUTE_H
#define RT_ROUTE_H

/**
 * @file
 * A route's record, on its own: the table (rt_table.h) keeps them in its
 * record store (rt_rib.h), which needs the record and nothing else of the
 * table.
 */

#include <stdint.h>

/** A route as kept by the table (control path). */
struct rt_route {
	uint32_t prefix;
	uint8_t plen;
	uint8_t kind;   /**< enum rt_route_kind */
	uint16_t port;  /**< VIA/DEV/CONNECTED/LOCAL/NEIGH: output port */
	uint32_t gw;    /**< VIA: gateway */
	uint32_t nh;    /**< next hop index */
	uint8_t src;    /**< the owner, enum rt_route_src (a byte: a table holds millions) */
	uint32_t since; /**< installed at (rt_table_now() seconds) */
};

#endif /* RT_ROUTE_H */
