/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_ROUTE_TX_H
#define FWD_ROUTE_TX_H

/**
 * @file
 * The last stage of a routed burst: TX. What the router forwarded goes to
 * the worker's TX buffer of its output port (in route mode TX buffer k is
 * port k's), in runs of consecutive packets to the same port, the common
 * case, one call each; what is bound for a stopped port is dropped as
 * port_down. The slow path's frames (ICMP, ARP, held and fragmented packets)
 * leave through the first worker's buffers the same way.
 */

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "fwd_lcore_types.h"
#include "fwd_txbuf.h"

/** Send @p pkts[0..n), packet i out of port @p out[i]. */
static __rte_always_inline void
fwd_route_tx(struct fwd_lcore *lc, struct rte_mbuf **pkts, const uint16_t *out, uint16_t n)
{
	uint16_t i = 0, j;

	while (i < n) {
		const uint16_t p = out[i];

		for (j = i + 1; j < n && out[j] == p; j++)
			;
		if (unlikely(lc->out_down[p] != FWD_OUT_UP)) {
			rte_pktmbuf_free_bulk(&pkts[i], j - i);
			lc->stats.drops[lc->out_down[p] == FWD_OUT_PORT_DOWN
						? FWD_DROP_PORT_DOWN
						: FWD_DROP_TXQ_STOPPED] += j - i;
		} else {
			/* in route mode TX buffer k is port k's */
			fwd_txbuf_add(&lc->txb[p], &pkts[i], j - i, &lc->stats);
		}
		i = j;
	}
}

/** The slow path's frames (ICMP, ARP, released and fragmented packets), each out of mbuf->port. */
static __rte_noinline void
fwd_route_tx_slow(struct fwd_lcore *lc, struct rte_mbuf **pkts, uint16_t burst)
{
	unsigned int n = rte_ring_sc_dequeue_burst(lc->ctl_tx, (void **)pkts, burst, NULL);
	unsigned int i;

	lc->stats.slow_tx += n;
	for (i = 0; i < n; i++) {
		uint16_t p = pkts[i]->port;

		if (unlikely(p >= lc->n_txb || lc->out_down[p] != FWD_OUT_UP)) {
			rte_pktmbuf_free(pkts[i]);
			lc->stats.drops[p < lc->n_txb && lc->out_down[p] == FWD_OUT_TXQ_STOPPED
						? FWD_DROP_TXQ_STOPPED
						: FWD_DROP_PORT_DOWN]++;
			continue;
		}
		fwd_txbuf_add(&lc->txb[p], &pkts[i], 1, &lc->stats);
	}
}

#endif /* FWD_ROUTE_TX_H */
