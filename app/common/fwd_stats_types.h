/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_STATS_TYPES_H
#define FWD_STATS_TYPES_H

/**
 * @file
 * Counters kept by a worker lcore. Each is written by its own lcore only, with
 * plain stores; the main lcore reads them for the periodic print (a torn read
 * is impossible for an aligned 64-bit word on the supported targets), and
 * reads them exactly once the workers have returned.
 */

#include <stdint.h>

#include "fwd_drop.h"

struct fwd_lcore_stats {
	uint64_t rx_pkts;   /**< packets received by this lcore */
	uint64_t tx_pkts;   /**< packets accepted by a TX queue */
	uint64_t rx_bursts; /**< non-empty RX bursts */
	uint64_t polls;     /**< RX burst calls */
	/**
	 * --idle sleep: waits in rte_epoll_wait() on the RX interrupts (after
	 * FWD_IDLE_POLLS empty passes and an empty re-poll with them enabled),
	 * and those of them an interrupt ended (the others timed out).
	 */
	uint64_t idle_sleeps;
	uint64_t idle_wakeups;
	/**
	 * Frames the route slow path handed this lcore to send (ARP, ICMP,
	 * released and fragmented packets): with them, an lcore's rx + slow_tx
	 * = tx + drops + frames punted to the slow path.
	 */
	uint64_t slow_tx;
	/**
	 * Frames "start tx_first" (--tx-first) sent on this lcore's TX queue from
	 * the main lcore before the run: in tx_pkts, never received, so that
	 * rx + slow_tx + tx_first = tx + drops + punted.
	 */
	uint64_t tx_first;
	uint64_t drops[FWD_DROP_MAX];
};

#endif /* FWD_STATS_TYPES_H */
