/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_LCORE_H
#define FWD_LCORE_H

/**
 * @file
 * A worker lcore's run-to-completion loop, and the burst's way through it
 * (the worker's state, struct fwd_lcore, is fwd_lcore_types.h's: the
 * helpers the loop calls, route TX and the trace, need it and not the loop).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>

#include "fwd_lcore_types.h"

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
