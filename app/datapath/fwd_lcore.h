/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_LCORE_H
#define FWD_LCORE_H

/**
 * @file
 * A worker lcore: the (port, queue) pairs it polls, its TX buffers, its
 * counters, and the run-to-completion loop.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>

#include "fwd_types.h"
#include "pktgen.h"
#include "rt_worker.h"
#include "fwd_stats_types.h"
#include "fwd_trace.h"
#include "fwd_txbuf.h"

#define FWD_MAX_RX_PER_LCORE 64
#define FWD_DRAIN_US         100 /* longest a packet waits in a TX buffer (as in l3fwd) */
/* pktgen stop: what comes back is received until the RX queues are quiet this long... */
#define FWD_PKTGEN_QUIET_US 1000
/* ...or for this long at most (a port that always receives, such as net_null) */
#define FWD_PKTGEN_SETTLE_MS 50
/* replaced generators a worker keeps until the ports give their mbufs back */
#define FWD_PKTGEN_RETIRED_MAX 4

/*
 * --idle sleep: a worker arms its RX interrupts after this many passes in a
 * row found every queue empty. An empty pass costs tens of ns, arming and
 * sleeping a few us of syscalls and register writes, and waking up tens of
 * us: 32 passes (1-2 us) is long enough that the gaps between bursts at
 * load never reach it (the rate does not pay for the syscalls), short enough
 * that an idle lcore stops spinning at once.
 */
#define FWD_IDLE_POLLS 32
/* --idle sleep: longest sleep, so that a stop, quit or mode switch is seen this soon */
#define FWD_IDLE_TIMEOUT_MS 100

/** One RX queue polled by a worker, and where its packets go. */
#define FWD_TXB_DOWN UINT16_MAX /* fwd_rx_source.txb: output port stopped, drop "port_down" */
/* fwd_rx_source.txb: output TX queue stopped, drop "txq_stopped" */
#define FWD_TXB_QSTOPPED (UINT16_MAX - 1)

/** fwd_lcore.out_down[]: why route mode may not send out of a port. */
enum { FWD_OUT_UP, FWD_OUT_PORT_DOWN, FWD_OUT_TXQ_STOPPED };

struct fwd_rx_source {
	uint16_t port;
	uint16_t queue;
	uint16_t txb;      /**< index of the output TX buffer in fwd_lcore.txb, or FWD_TXB_DOWN */
	uint16_t txb_up;   /**< the TX buffer index to restore when the output port is up again */
	bool down;         /**< the input port or this queue is stopped: not polled */
	bool count_bytes;  /**< the port's PMD leaves ibytes at 0: count them in rx_bytes */
	bool intr_on;      /**< --idle sleep: in this worker's epoll set for this run */
	uint64_t rx_pkts;  /**< packets received from this queue */
	uint64_t rx_bytes; /**< with count_bytes: bytes received from this queue */
};

struct fwd_lcore {
	unsigned int lcore_id;
	enum fwd_mode mode;
	uint16_t burst;
	uint16_t n_rx;
	uint16_t n_txb;
	/**
	 * A trace records (fwd_trace.h): read once per burst, set by the control
	 * thread with the workers stopped, cleared by this lcore when the
	 * trace's budget is spent.
	 */
	uint32_t trace_on;
	bool idle_sleep; /**< --idle sleep: sleep on the RX interrupts when idle */
	uint64_t drain_tsc;
	volatile bool *quit;
	struct rt_worker *rt;    /**< --fwd route: this worker's routing context */
	struct rt_flow *flow;    /**< --fwd route: its flow stage (fwd_flow.c) */
	struct rte_ring *ctl_tx; /**< --fwd route, first worker: frames the slow path sends */
	struct pktgen_lcore *pg; /**< --fwd pktgen: this worker's generator (TX on txb[0]) */
	struct pktgen_rx *pg_rx; /**< --fwd pktgen: this worker's receive side */
	/** generators replaced by "pktgen set" while a port still held their mbufs */
	struct pktgen_lcore *pg_retired[FWD_PKTGEN_RETIRED_MAX];
	uint16_t n_pg_retired;
	unsigned int *pg_sending; /**< --fwd pktgen: workers still generating (atomic) */
	/**
	 * --fwd pktgen: set while the workers stop for a change in the user's run
	 * (fwd_ctl_pause()): the generator pauses instead of ending its run.
	 */
	volatile bool *pg_keep;
	bool pg_tx_down; /**< --fwd pktgen: the generator's port or TX queue is stopped: hold */
	struct fwd_trace_buf *trace;        /**< this lcore's trace records, or NULL */
	uint8_t out_down[RTE_MAX_ETHPORTS]; /**< --fwd route: FWD_OUT_*, not UP: drop */
	struct fwd_rx_source rx[FWD_MAX_RX_PER_LCORE];
	struct fwd_lcore_stats stats __rte_cache_aligned;
	struct fwd_txbuf txb[]; /**< one per output port this lcore sends to */
};

/**
 * Worker entry point for rte_eal_remote_launch(): poll until *lc->quit, then
 * flush the TX buffers, counting what the ports refuse as "stopped".
 *
 * @param arg a struct fwd_lcore
 * @return 0
 */
int fwd_lcore_main(void *arg);

/**
 * Process one received burst on @p lc as its mode says and queue what is left
 * for transmission. Exposed for unit tests; fwd_lcore_main() inlines it.
 */
void fwd_lcore_handle_burst(
	struct fwd_lcore *lc, struct fwd_rx_source *src, struct rte_mbuf **pkts, uint16_t n);

/**
 * fwd_lcore_handle_burst() without the trace: the traced burst's way back
 * to the plain work (fwd_trace.c).
 */
void fwd_lcore_burst_untraced(
	struct fwd_lcore *lc, struct fwd_rx_source *src, struct rte_mbuf **pkts, uint16_t n);

/**
 * Record the first packets of the burst in @p lc's trace (as many as the
 * trace's budget grants), then do the mode's work on the whole burst.
 * Called only while @p lc->trace_on; out of line.
 */
void fwd_trace_burst(
	struct fwd_lcore *lc, struct fwd_rx_source *src, struct rte_mbuf **pkts, uint16_t n);

/**
 * The RX counters of a burst of @p n from @p src: every mode, traced or not.
 * Returns the burst's bytes when @p src counts them (count_bytes), else 0.
 */
static __rte_always_inline uint64_t
fwd_lcore_count_rx(
	struct fwd_lcore *lc, struct fwd_rx_source *src, struct rte_mbuf *const *pkts, uint16_t n)
{
	uint64_t bytes = 0;

	src->rx_pkts += n;
	if (unlikely(src->count_bytes)) {
		bytes = fwd_burst_bytes(pkts, n);
		src->rx_bytes += bytes;
	}
	lc->stats.rx_pkts += n;
	lc->stats.rx_bursts++;
	return bytes;
}

/** Flush every TX buffer of @p lc, counting refusals under @p reason. */
void fwd_lcore_flush_all(struct fwd_lcore *lc, enum fwd_drop_reason reason);

#endif /* FWD_LCORE_H */
