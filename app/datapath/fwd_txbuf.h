/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_TXBUF_H
#define FWD_TXBUF_H

/**
 * @file
 * Per-lcore, per-output-port TX buffering.
 *
 * Packets bound for one (port, queue) collect here and leave in one
 * rte_eth_tx_burst() once @c burst of them are waiting, or when the worker's
 * drain timer fires, so small RX bursts from several queues still leave in
 * full TX bursts, and latency stays bounded. A full RX burst arriving at an
 * empty buffer goes straight to the port without being copied.
 *
 * What the port does not accept is freed at once and counted: the forwarder
 * never retries (a retry loop only moves the loss upstream into RX misses).
 *
 * The functions are forced inline: left to itself the compiler keeps one
 * out-of-line copy of fwd_txbuf_add() for the several poll loops, and the
 * call with its register saves costs about 20 instructions per burst
 * (docs/benchmarks.md).
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "fwd_types.h"
#include "fwd_stats_types.h"

/** Bytes (pkt_len) of @p pkts[0..n). */
static __rte_always_inline uint64_t
fwd_burst_bytes(struct rte_mbuf *const *pkts, uint16_t n)
{
	uint64_t bytes = 0;
	uint16_t i;

	for (i = 0; i < n; i++)
		bytes += rte_pktmbuf_pkt_len(pkts[i]);
	return bytes;
}

struct fwd_txbuf {
	uint16_t port;
	uint16_t queue;
	uint16_t len;     /**< packets waiting */
	uint16_t burst;   /**< flush threshold */
	uint64_t tx_pkts; /**< packets this (port, queue) accepted from this lcore */
	/**
	 * The port's PMD leaves obytes at 0 (net_null, net_ring): this lcore counts
	 * the bytes the queue accepted into tx_bytes. Fixed at setup, so on ports
	 * whose PMD counts bytes the cost is one predictable branch per burst.
	 */
	bool count_bytes;
	uint64_t tx_bytes;
	struct rte_ether_addr src; /**< --fwd mac: the output port's own MAC */
	struct rte_ether_addr dst; /**< --fwd mac: the output port's peer */
	struct rte_mbuf *pkts[2 * FWD_MAX_BURST];
} __rte_cache_aligned;

/**
 * Send @p n packets from @p pkts on @p b's (port, queue); free what the port
 * refuses, counting it under @p reason. Returns how many were sent.
 */
static __rte_always_inline uint16_t
fwd_tx_burst_or_drop(struct fwd_txbuf *b, struct rte_mbuf **pkts, uint16_t n,
	struct fwd_lcore_stats *st, enum fwd_drop_reason reason)
{
	uint64_t bytes = 0;
	uint16_t sent;

	/* before the send: a sent mbuf may be freed (or reused) at once */
	if (unlikely(b->count_bytes))
		bytes = fwd_burst_bytes(pkts, n);
	sent = rte_eth_tx_burst(b->port, b->queue, pkts, n);
	if (unlikely(sent < n)) {
		if (unlikely(b->count_bytes))
			bytes -= fwd_burst_bytes(&pkts[sent], n - sent);
		rte_pktmbuf_free_bulk(&pkts[sent], n - sent);
		st->drops[reason] += n - sent;
	}
	b->tx_bytes += bytes;
	st->tx_pkts += sent;
	return sent;
}

/** Send everything waiting in @p b; refused packets count under @p reason. */
static __rte_always_inline void
fwd_txbuf_flush(struct fwd_txbuf *b, struct fwd_lcore_stats *st, enum fwd_drop_reason reason)
{
	if (b->len == 0)
		return;
	b->tx_pkts += fwd_tx_burst_or_drop(b, b->pkts, b->len, st, reason);
	b->len = 0;
}

/**
 * Queue @p n (at most FWD_MAX_BURST) packets on @p b, sending when the
 * buffer reaches its burst size.
 */
static __rte_always_inline void
fwd_txbuf_add(struct fwd_txbuf *b, struct rte_mbuf **pkts, uint16_t n, struct fwd_lcore_stats *st)
{
	if (b->len == 0 && n >= b->burst) {
		b->tx_pkts += fwd_tx_burst_or_drop(b, pkts, n, st, FWD_DROP_TX_FULL);
		return;
	}
	rte_memcpy(&b->pkts[b->len], pkts, n * sizeof(pkts[0]));
	b->len += n;
	if (b->len >= b->burst)
		fwd_txbuf_flush(b, st, FWD_DROP_TX_FULL);
}

#endif /* FWD_TXBUF_H */
