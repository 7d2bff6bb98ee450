/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "fwd_lcore.h"
#include "fwd_modes.h"

static __rte_always_inline void
handle_burst(struct fwd_lcore *lc, struct fwd_rx_source *src, struct rte_mbuf **pkts,
	uint16_t n, const enum fwd_mode mode)
{
	struct fwd_txbuf *b = &lc->txb[src->txb];

	src->rx_pkts += n;
	lc->stats.rx_pkts += n;
	lc->stats.rx_bursts++;

	switch (mode) {
	case FWD_MODE_RXONLY:
		fwd_mode_rxonly(pkts, n, &lc->stats);
		return;
	case FWD_MODE_MAC:
		n = fwd_mode_mac(pkts, n, &b->src, &b->dst, &lc->stats);
		break;
	case FWD_MODE_MACSWAP:
		n = fwd_mode_macswap(pkts, n, &lc->stats);
		break;
	case FWD_MODE_IO:
	default:
		break;
	}
	if (n > 0)
		fwd_txbuf_add(b, pkts, n, &lc->stats);
}

void
fwd_lcore_handle_burst(struct fwd_lcore *lc, struct fwd_rx_source *src, struct rte_mbuf **pkts,
	uint16_t n)
{
	handle_burst(lc, src, pkts, n, lc->mode);
}

void
fwd_lcore_flush_all(struct fwd_lcore *lc, enum fwd_drop_reason reason)
{
	uint16_t i;

	for (i = 0; i < lc->n_txb; i++)
		fwd_txbuf_flush(&lc->txb[i], &lc->stats, reason);
}

/*
 * The poll loop, instantiated once per mode with the mode a constant so that
 * the per-burst switch disappears from each copy.
 */
static __rte_always_inline void
poll_loop(struct fwd_lcore *lc, const enum fwd_mode mode)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	const uint16_t burst = lc->burst;
	const uint64_t drain_tsc = lc->drain_tsc;
	uint64_t last_drain = rte_rdtsc();

	while (!*lc->quit) {
		uint64_t now;
		uint16_t i;

		for (i = 0; i < lc->n_rx; i++) {
			struct fwd_rx_source *src = &lc->rx[i];
			uint16_t n = rte_eth_rx_burst(src->port, src->queue, pkts, burst);

			lc->stats.polls++;
			if (n == 0)
				continue;
			handle_burst(lc, src, pkts, n, mode);
		}

		now = rte_rdtsc();
		if (unlikely(now - last_drain >= drain_tsc)) {
			fwd_lcore_flush_all(lc, FWD_DROP_TX_FULL);
			last_drain = now;
		}
	}
}

static void
poll_io(struct fwd_lcore *lc)
{
	poll_loop(lc, FWD_MODE_IO);
}

static void
poll_mac(struct fwd_lcore *lc)
{
	poll_loop(lc, FWD_MODE_MAC);
}

static void
poll_macswap(struct fwd_lcore *lc)
{
	poll_loop(lc, FWD_MODE_MACSWAP);
}

static void
poll_rxonly(struct fwd_lcore *lc)
{
	poll_loop(lc, FWD_MODE_RXONLY);
}

int
fwd_lcore_main(void *arg)
{
	struct fwd_lcore *lc = arg;

	switch (lc->mode) {
	case FWD_MODE_MAC:
		poll_mac(lc);
		break;
	case FWD_MODE_MACSWAP:
		poll_macswap(lc);
		break;
	case FWD_MODE_RXONLY:
		poll_rxonly(lc);
		break;
	case FWD_MODE_IO:
	default:
		poll_io(lc);
		break;
	}
	fwd_lcore_flush_all(lc, FWD_DROP_STOPPED);
	return 0;
}
