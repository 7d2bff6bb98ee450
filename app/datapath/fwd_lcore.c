/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>

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
	const uint16_t n_rx = n;
	const uint64_t rx_bytes = fwd_lcore_count_rx(lc, src, pkts, n);
	struct fwd_txbuf *b;

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
	if (n == 0)
		return;
	/* the burst the RX count summed, unchanged (no runt dropped): its sum serves TX too */
	if (likely(n == n_rx) && src->count_bytes)
		fwd_txbuf_add_bytes(b, pkts, n, b->count_bytes ? rx_bytes : 0, &lc->stats);
	else
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
 * --idle sleep: may this worker sleep now? Not while its generator still
 * sends, nor while the slow path has frames for it to send (they would wait
 * for the next wake-up).
 */
static __rte_always_inline bool
idle_may_sleep(struct fwd_lcore *lc, const enum fwd_mode mode)
{
	if (mode == FWD_MODE_PKTGEN)
		return pktgen_lcore_done(lc->pg);
	if (mode == FWD_MODE_ROUTE)
		return lc->ctl_tx == NULL || rte_ring_empty(lc->ctl_tx);
	return true;
}

/*
 * --idle sleep, after FWD_IDLE_POLLS empty passes: flush what waits in the TX
 * buffers, arm every polled queue's RX interrupt, poll each once more (a
 * frame that landed between the last empty poll and the unmask raised no
 * interrupt on most NICs, so it would wait for the timeout), and only if that
 * finds nothing, wait in rte_epoll_wait() (EAL reads the event fds) for at
 * most FWD_IDLE_TIMEOUT_MS; then disarm and go back to polling. A router
 * worker is offline in the table's RCU while it sleeps, so that no update
 * waits for it. Out of line: the empty path only.
 */
static __rte_noinline void
idle_sleep(struct fwd_lcore *lc, struct rte_mbuf **pkts, enum fwd_mode mode)
{
	struct rte_epoll_event ev[FWD_MAX_RX_PER_LCORE];
	bool got = false;
	uint16_t i;
	int n;

	flush_all(lc, FWD_DROP_TX_FULL);
	for (i = 0; i < lc->n_rx; i++)
		if (!lc->rx[i].down)
			rte_eth_dev_rx_intr_enable(lc->rx[i].port, lc->rx[i].queue);
	for (i = 0; i < lc->n_rx; i++) {
		struct fwd_rx_source *src = &lc->rx[i];
		uint16_t k;

		if (src->down)
			continue;
		lc->stats.polls++;
		k = rte_eth_rx_burst(src->port, src->queue, pkts, lc->burst);
		if (k == 0)
			continue;
		fwd_lcore_handle_burst(lc, src, pkts, k);
		got = true;
	}
	if (!got) {
		lc->stats.idle_sleeps++;
		if (mode == FWD_MODE_ROUTE)
			rte_rcu_qsbr_thread_offline(lc->rt->qsbr, lc->rt->thread_id);
		n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, lc->n_rx, FWD_IDLE_TIMEOUT_MS);
		if (mode == FWD_MODE_ROUTE)
			rte_rcu_qsbr_thread_online(lc->rt->qsbr, lc->rt->thread_id);
		if (n > 0)
			lc->stats.idle_wakeups++;
	}
	for (i = 0; i < lc->n_rx; i++)
		if (!lc->rx[i].down)
			rte_eth_dev_rx_intr_disable(lc->rx[i].port, lc->rx[i].queue);
}

/*
 * The poll loop, instantiated once per mode with the mode a constant so that
 * the per-burst switch disappears from each copy, and once more with --idle
 * sleep: the poll-mode copies are the loop without it, instruction for
 * instruction. What does not change while the loop runs (the quit flag's
 * address, the number of sources) is read once: the counter stores through
 * lc would otherwise force a reload every burst.
 */
static __rte_always_inline void
poll_loop(struct fwd_lcore *lc, const enum fwd_mode mode, const bool idle)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	volatile bool *const quit = lc->quit;
	struct fwd_rx_source *const rx = lc->rx;
	const uint16_t n_rx = lc->n_rx;
	const uint16_t burst = lc->burst;
	const uint64_t drain_tsc = lc->drain_tsc;
	uint64_t last_drain = rte_rdtsc();
	uint64_t bursts_seen = lc->stats.rx_bursts;
	unsigned int empty = 0;

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
			/* a stopped port or queue: the generator holds until it is back */
			if (!pktgen_lcore_done(lc->pg) && likely(!lc->pg_tx_down)) {
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
		/* every non-empty burst counts in rx_bursts: a pass without one was empty */
		if (idle && lc->stats.rx_bursts != bursts_seen) {
			bursts_seen = lc->stats.rx_bursts;
			empty = 0;
		} else if (idle && ++empty >= FWD_IDLE_POLLS) {
			empty = 0;
			if (idle_may_sleep(lc, mode)) {
				idle_sleep(lc, pkts, mode);
				bursts_seen = lc->stats.rx_bursts;
				last_drain = rte_rdtsc();
			}
		}
		now = rte_rdtsc();
		if (unlikely(now - last_drain >= drain_tsc)) {
			flush_all(lc, FWD_DROP_TX_FULL);
			last_drain = now;
		}
	}
}

static void
poll_io(struct fwd_lcore *lc, bool idle)
{
	if (idle)
		poll_loop(lc, FWD_MODE_IO, true);
	else
		poll_loop(lc, FWD_MODE_IO, false);
}

static void
poll_mac(struct fwd_lcore *lc, bool idle)
{
	if (idle)
		poll_loop(lc, FWD_MODE_MAC, true);
	else
		poll_loop(lc, FWD_MODE_MAC, false);
}

static void
poll_macswap(struct fwd_lcore *lc, bool idle)
{
	if (idle)
		poll_loop(lc, FWD_MODE_MACSWAP, true);
	else
		poll_loop(lc, FWD_MODE_MACSWAP, false);
}

static void
poll_rxonly(struct fwd_lcore *lc, bool idle)
{
	if (idle)
		poll_loop(lc, FWD_MODE_RXONLY, true);
	else
		poll_loop(lc, FWD_MODE_RXONLY, false);
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

/*
 * The generator's references are settled on every stop: mempools come back
 * full. A pause (the workers stopped for a change in the user's run) is no
 * stop: the run goes on after it, with what it holds.
 */
static void
poll_pktgen(struct fwd_lcore *lc, bool idle)
{
	if (idle)
		poll_loop(lc, FWD_MODE_PKTGEN, true);
	else
		poll_loop(lc, FWD_MODE_PKTGEN, false);
	if (*lc->pg_keep) {
		pktgen_lcore_pause(lc->pg, rte_rdtsc());
		return;
	}
	pktgen_lcore_stop(lc->pg);
	pktgen_settle(lc);
}

/* Online in the table's RCU only while forwarding: a stopped worker holds nothing. */
static void
poll_route(struct fwd_lcore *lc, bool idle)
{
	rte_rcu_qsbr_thread_online(lc->rt->qsbr, lc->rt->thread_id);
	if (idle)
		poll_loop(lc, FWD_MODE_ROUTE, true);
	else
		poll_loop(lc, FWD_MODE_ROUTE, false);
	rte_rcu_qsbr_thread_offline(lc->rt->qsbr, lc->rt->thread_id);
}

/*
 * --idle sleep: put (op RTE_INTR_EVENT_ADD) or take (DEL) this worker's
 * polled queues in or out of its thread's epoll set. Done on every launch and
 * undone at its end, as ports may be stopped and started (a PCI PMD makes
 * new event fds at dev_start) only while the workers are stopped. @return
 * false if a queue could not be added: this run then polls, as sleeping would
 * leave that queue unwatched until the timeout.
 */
static bool
idle_register(struct fwd_lcore *lc, int op)
{
	bool ok = true;
	uint16_t i;

	for (i = 0; i < lc->n_rx; i++) {
		struct fwd_rx_source *src = &lc->rx[i];
		int ret;

		if (op == RTE_INTR_EVENT_DEL) {
			if (src->intr_on)
				rte_eth_dev_rx_intr_ctl_q(
					src->port, src->queue, RTE_EPOLL_PER_THREAD, op, NULL);
			src->intr_on = false;
			continue;
		}
		if (src->down)
			continue;
		ret = rte_eth_dev_rx_intr_ctl_q(
			src->port, src->queue, RTE_EPOLL_PER_THREAD, op, NULL);
		src->intr_on = ret == 0;
		if (ret < 0 && ret != -EEXIST)
			ok = false;
	}
	return ok;
}

int
fwd_lcore_main(void *arg)
{
	struct fwd_lcore *lc = arg;
	const bool idle = lc->idle_sleep && idle_register(lc, RTE_INTR_EVENT_ADD);

	switch (lc->mode) {
	case FWD_MODE_MAC:
		poll_mac(lc, idle);
		break;
	case FWD_MODE_MACSWAP:
		poll_macswap(lc, idle);
		break;
	case FWD_MODE_RXONLY:
		poll_rxonly(lc, idle);
		break;
	case FWD_MODE_ROUTE:
		poll_route(lc, idle);
		break;
	case FWD_MODE_PKTGEN:
		poll_pktgen(lc, idle);
		break;
	case FWD_MODE_IO:
	default:
		poll_io(lc, idle);
		break;
	}
	if (lc->idle_sleep)
		idle_register(lc, RTE_INTR_EVENT_DEL);
	flush_all(lc, FWD_DROP_STOPPED);
	return 0;
}
