/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "fwd_lcore.h"
#include "fwd_modes.h"
#include "fwd_route_tx.h"
#include "rt_burst.h"

/*
 * --fwd route: the router routes the burst (rt_burst(): input checks, flow
 * grouping, lookup, rewrite, punt); what it forwards goes to the TX buffers,
 * port by port (fwd_route_tx.h). The queue's index among this lcore's
 * sources picks its flow-stage state.
 */
static __rte_always_inline void
route_burst(struct fwd_lcore *lc, struct fwd_rx_source *src, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t out[FWD_MAX_BURST];

	n = rt_burst(lc->rt, lc->flow, (uint16_t)(src - lc->rx), src->port, pkts, n, out);
	fwd_route_tx(lc, pkts, out, n);
}

static __rte_always_inline void
handle_burst_untraced(struct fwd_lcore *lc, struct fwd_rx_source *src, struct rte_mbuf **pkts,
	uint16_t n, const enum fwd_mode mode)
{
	struct fwd_txbuf *b;

	fwd_lcore_count_rx(lc, src, pkts, n);

	if (mode == FWD_MODE_ROUTE) {
		route_burst(lc, src, pkts, n);
		return;
	}
	if (mode == FWD_MODE_PKTGEN) {
		pktgen_rx_burst(lc->pg_rx, pkts, n);
		rte_pktmbuf_free_bulk(pkts, n);
		lc->stats.drops[FWD_DROP_PKTGEN_RX] += n;
		return;
	}
	if (mode == FWD_MODE_RXONLY) {
		fwd_mode_rxonly(pkts, n, &lc->stats);
		return;
	}
	if (unlikely(src->txb >= FWD_TXB_QSTOPPED)) {
		rte_pktmbuf_free_bulk(pkts, n);
		lc->stats.drops[src->txb == FWD_TXB_DOWN ? FWD_DROP_PORT_DOWN
							 : FWD_DROP_TXQ_STOPPED] += n;
		return;
	}
	b = &lc->txb[src->txb];
	switch (mode) {
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

/*
 * The burst, traced or not. While no trace records (always, but for the
 * packets a "trace start" asks for) this costs one load of trace_on and a
 * branch never taken; a traced burst goes out of line (fwd_trace.c).
 */
static __rte_always_inline void
handle_burst(struct fwd_lcore *lc, struct fwd_rx_source *src, struct rte_mbuf **pkts, uint16_t n,
	const enum fwd_mode mode)
{
	if (unlikely(lc->trace_on != 0)) {
		fwd_trace_burst(lc, src, pkts, n);
		return;
	}
	handle_burst_untraced(lc, src, pkts, n, mode);
}

void
fwd_lcore_burst_untraced(
	struct fwd_lcore *lc, struct fwd_rx_source *src, struct rte_mbuf **pkts, uint16_t n)
{
	handle_burst_untraced(lc, src, pkts, n, lc->mode);
}

void
fwd_lcore_handle_burst(
	struct fwd_lcore *lc, struct fwd_rx_source *src, struct rte_mbuf **pkts, uint16_t n)
{
	handle_burst(lc, src, pkts, n, lc->mode);
}

static __rte_always_inline void
flush_all(struct fwd_lcore *lc, enum fwd_drop_reason reason)
{
	uint16_t i;

	for (i = 0; i < lc->n_txb; i++)
		fwd_txbuf_flush(&lc->txb[i], &lc->stats, reason);
}

void
fwd_lcore_flush_all(struct fwd_lcore *lc, enum fwd_drop_reason reason)
{
	flush_all(lc, reason);
}

/*
 * The poll loop, instantiated once per mode with the mode a constant so that
 * the per-burst switch disappears from each copy. What does not change while
 * the loop runs (the quit flag's address, the number of sources) is read once:
 * the counter stores through lc would otherwise force a reload every burst.
 */
static __rte_always_inline void
poll_loop(struct fwd_lcore *lc, const enum fwd_mode mode)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	volatile bool *const quit = lc->quit;
	struct fwd_rx_source *const rx = lc->rx;
	const uint16_t n_rx = lc->n_rx;
	const uint16_t burst = lc->burst;
	const uint64_t drain_tsc = lc->drain_tsc;
	uint64_t last_drain = rte_rdtsc();

	while (!*quit) {
		uint64_t now;
		uint16_t i;

		/* one add per pass rather than one per poll: the sum is the same */
		lc->stats.polls += n_rx;
		for (i = 0; i < n_rx; i++) {
			struct fwd_rx_source *src = &rx[i];
			uint16_t n;

			if (unlikely(src->down))
				continue;
			n = rte_eth_rx_burst(src->port, src->queue, pkts, burst);
			if (n == 0)
				continue;
			handle_burst(lc, src, pkts, n, mode);
		}

		if (mode == FWD_MODE_PKTGEN) {
			struct fwd_txbuf *b = &lc->txb[0];

			/* an empty poll too: the receive side applies a pending reset there */
			pktgen_rx_burst(lc->pg_rx, pkts, 0);
			if (!pktgen_lcore_done(lc->pg)) {
				const uint64_t bytes = lc->pg->stats.tx_bytes;
				const uint16_t sent = pktgen_lcore_poll(lc->pg, b->port, b->queue);

				/* the lcore's and its TX queue's lines show the same packets */
				lc->stats.tx_pkts += sent;
				b->tx_pkts += sent;
				/* the generator counts what the port accepted: the PMD may not */
				if (unlikely(b->count_bytes) && lc->pg->stats.tx_bytes >= bytes)
					b->tx_bytes += lc->pg->stats.tx_bytes - bytes;
			}
		}
		if (mode == FWD_MODE_ROUTE) {
			/* the router's table may recycle what this worker no longer holds */
			rt_worker_quiescent(lc->rt);
			if (lc->ctl_tx != NULL)
				fwd_route_tx_slow(lc, pkts, burst);
		}
		now = rte_rdtsc();
		if (unlikely(now - last_drain >= drain_tsc)) {
			flush_all(lc, FWD_DROP_TX_FULL);
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

/*
 * The generator stopped: what it sent and is still on its way back (a
 * loopback ring, a cable, another worker's queue) is received and accounted
 * as the run's, so its mbufs are back in its pools before anything counts
 * them (a rebuild, the leak check at exit). Each worker drains its own
 * queues until they are quiet once every generator stopped: in a ring
 * topology a generator's packets come back to another worker, which may be
 * descheduled for a while when workers share a CPU.
 */
static void
pktgen_settle(struct fwd_lcore *lc)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	const uint64_t hz = rte_get_tsc_hz();
	const uint64_t quiet = hz / 1000000 * FWD_PKTGEN_QUIET_US;
	uint64_t start = rte_rdtsc(), now = start, last_rx = start;

	__atomic_fetch_sub(lc->pg_sending, 1, __ATOMIC_RELEASE);
	while (now - start < hz / 1000 * FWD_PKTGEN_SETTLE_MS) {
		/*
		 * Quiet is judged by a round that began after the quiet time: a
		 * worker descheduled past it still polls once more before it
		 * leaves, or what arrived meanwhile would stay in its queue.
		 */
		const uint64_t round = rte_rdtsc();
		bool got = false;
		uint16_t i;

		for (i = 0; i < lc->n_rx; i++) {
			struct fwd_rx_source *src = &lc->rx[i];
			uint16_t n;

			if (src->down)
				continue;
			n = rte_eth_rx_burst(src->port, src->queue, pkts, lc->burst);
			if (n == 0)
				continue;
			handle_burst(lc, src, pkts, n, FWD_MODE_PKTGEN);
			got = true;
		}
		now = rte_rdtsc();
		/*
		 * Quiet, and the time limit, count from when the last generator
		 * stopped sending: a peer on the same CPU may take a while to.
		 */
		if (__atomic_load_n(lc->pg_sending, __ATOMIC_ACQUIRE) != 0)
			last_rx = start = now;
		else if (got)
			last_rx = now;
		else if (round - last_rx >= quiet)
			break;
	}
}

/* The generator's references are settled on every stop: mempools come back full. */
static void
poll_pktgen(struct fwd_lcore *lc)
{
	poll_loop(lc, FWD_MODE_PKTGEN);
	pktgen_lcore_stop(lc->pg);
	pktgen_settle(lc);
}

/* Online in the table's RCU only while forwarding: a stopped worker holds nothing. */
static void
poll_route(struct fwd_lcore *lc)
{
	rte_rcu_qsbr_thread_online(lc->rt->qsbr, lc->rt->thread_id);
	poll_loop(lc, FWD_MODE_ROUTE);
	rte_rcu_qsbr_thread_offline(lc->rt->qsbr, lc->rt->thread_id);
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
	case FWD_MODE_ROUTE:
		poll_route(lc);
		break;
	case FWD_MODE_PKTGEN:
		poll_pktgen(lc);
		break;
	case FWD_MODE_IO:
	default:
		poll_io(lc);
		break;
	}
	flush_all(lc, FWD_DROP_STOPPED);
	return 0;
}
