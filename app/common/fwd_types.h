/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_TYPES_H
#define FWD_TYPES_H

/**
 * @file
 * What the workers and the control path both need to know of a run: the
 * forwarding modes and the limits that size the workers' arrays. The rest of
 * the configuration (control/fwd_config.h) is the control path's.
 */

#define FWD_MAX_BURST          512 /**< largest --burst */
#define FWD_MAX_MAP            256 /**< largest number of (port,queue,lcore) entries */
#define FWD_MAX_QUEUES         64  /**< RX queues per port the map may name */
#define FWD_DEFAULT_BURST      32
#define FWD_DEFAULT_RXD        1024
#define FWD_DEFAULT_TXD        1024
#define FWD_DEFAULT_MBUF_CACHE 256

/* X(ENUM_SUFFIX, "name", "description") */
#define FWD_MODES(X)                                                                    \
	X(IO, "io", "forward packets unchanged")                                        \
	X(MAC, "mac", "source MAC := output port's MAC, destination MAC := its peer")   \
	X(MACSWAP, "macswap", "swap source and destination MAC")                        \
	X(RXONLY, "rxonly", "receive and discard")                                      \
	X(ROUTE, "route", "IPv4 router: [port N], [route] and [neigh] config sections") \
	X(PKTGEN, "pktgen", "traffic generator: the [pktgen] config section, pktgen set ...")

enum fwd_mode {
#define FWD_MODE_ENUM(sym, name, desc) FWD_MODE_##sym,
	FWD_MODES(FWD_MODE_ENUM)
#undef FWD_MODE_ENUM
		FWD_MODE_MAX
};

#endif /* FWD_TYPES_H */
