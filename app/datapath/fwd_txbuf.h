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

/**
 * Bytes (pkt_len) of @p pkts[0..n). Four packets a pass into two sums: only
 * ports whose PMD counts no bytes (net_null, net_ring) pay for this, once per
 * packet, and a pass of one packet spent as many instructions on the loop as
 * on the sum (docs/benchmarks.md, "DPDK 24.11").
 */
static __rte_always_inline uint64_t
fwd_burst_bytes(struct rte_mbuf *const *pkts, uint16_t n)
{
	struct rte_mbuf *const *const end = pkts + n;
	struct rte_mbuf *const *const end4 = pkts + (n & ~3u);
	uint64_t b0 = 0, b1 = 0;

	for (; pkts != end4; pkts += 4) {
		b0 += (uint64_t)rte_pktmbuf_pkt_len(pkts[0]) + rte_pktmbuf_pkt_len(pkts[1]);
		b1 += (uint64_t)rte_pktmbuf_pkt_len(pkts[2]) + rte_pktmbuf_pkt_len(pkts[3]);
	}
	for (; pkts != end; pkts++)
		b0 += rte_pktmbuf_pkt_len(*pkts);
	return b0 + b1;
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
	uint64_t len_bytes;        /**< with count_bytes: the bytes of the len packets waiting */
	struct rte_ether_addr src; /**< --fwd mac: the output port's own MAC */
	struct rte_ether_addr dst; /**< --fwd mac: the output port's peer */
	struct rte_mbuf *pkts[2 * FWD_MAX_BURST];
} __rte_cache_aligned;

/**
 * Send @p n packets from @p pkts on @p b's (port, queue); free what the port
 * refuses, counting it under @p reason. @p bytes: the packets' bytes when
 * @p b counts them (count_bytes), else 0. Returns how many were sent.
 */
static __rte_always_inline uint16_t
fwd_tx_burst_or_drop(struct fwd_txbuf *b, struct rte_mbuf **pkts, uint16_t n, uint64_t bytes,
	struct fwd_lcore_stats *st, enum fwd_drop_reason reason)
{
	uint16_t sent = rte_eth_tx_burst(b->port, b->queue, pkts, n);

	if (unlikely(sent < n)) {
		/* the refused mbufs are still ours until the free */
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
	b->tx_pkts += fwd_tx_burst_or_drop(b, b->pkts, b->len, b->len_bytes, st, reason);
	b->len = 0;
	b->len_bytes = 0;
}

/**
 * fwd_txbuf_add() for a caller that has the packets' bytes already: @p bytes
 * is what fwd_burst_bytes(@p pkts, @p n) gives when @p b counts bytes
 * (count_bytes), else 0. io and mac hand on the sum of the RX count, so a
 * packet between two ports without byte counters is summed once, not twice.
 */
static __rte_always_inline void
fwd_txbuf_add_bytes(struct fwd_txbuf *b, struct rte_mbuf **pkts, uint16_t n, uint64_t bytes,
	struct fwd_lcore_stats *st)
{
	if (b->len == 0 && n >= b->burst) {
		b->tx_pkts += fwd_tx_burst_or_drop(b, pkts, n, bytes, st, FWD_DROP_TX_FULL);
		return;
	}
	rte_memcpy(&b->pkts[b->len], pkts, n * sizeof(pkts[0]));
	b->len += n;
	b->len_bytes += bytes;
	if (b->len >= b->burst)
		fwd_txbuf_flush(b, st, FWD_DROP_TX_FULL);
}

/**
 * Queue @p n (at most FWD_MAX_BURST) packets on @p b, sending when the
 * buffer reaches its burst size.
 */
static __rte_always_inline void
fwd_txbuf_add(struct fwd_txbuf *b, struct rte_mbuf **pkts, uint16_t n, struct fwd_lcore_stats *st)
{
	/* summed on the way in: a sent mbuf may be freed (or reused) at once */
	fwd_txbuf_add_bytes(
		b, pkts, n, unlikely(b->count_bytes) ? fwd_burst_bytes(pkts, n) : 0, st);
}

#endif /* FWD_TXBUF_H */
