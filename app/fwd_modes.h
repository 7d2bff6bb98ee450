/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_MODES_H
#define FWD_MODES_H

/**
 * @file
 * Per-burst work of the L2 forwarding modes. Pure functions of the packets and
 * their arguments, so unit tests drive them with crafted mbufs.
 */

#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "fwd_stats_types.h"

/*
 * Move runts (frames shorter than an Ethernet header) out of @p pkts, free and
 * count them; returns the number of packets left, in their original order.
 * The common case, no runt in the burst, costs one compare per packet.
 */
static inline uint16_t
fwd_drop_runts(struct rte_mbuf **pkts, uint16_t n, struct fwd_lcore_stats *st)
{
	uint16_t i, kept;

	for (i = 0; i < n; i++)
		if (unlikely(rte_pktmbuf_data_len(pkts[i]) < RTE_ETHER_HDR_LEN))
			break;
	if (likely(i == n))
		return n;
	for (kept = i; i < n; i++) {
		if (rte_pktmbuf_data_len(pkts[i]) < RTE_ETHER_HDR_LEN) {
			rte_pktmbuf_free(pkts[i]);
			st->drops[FWD_DROP_RUNT]++;
		} else {
			pkts[kept++] = pkts[i];
		}
	}
	return kept;
}

/**
 * --fwd mac: source MAC := @p src (the output port's), destination := @p dst
 * (its peer). Runts are dropped and counted.
 *
 * @return number of packets left in @p pkts.
 */
static inline uint16_t
fwd_mode_mac(struct rte_mbuf **pkts, uint16_t n, const struct rte_ether_addr *src,
	const struct rte_ether_addr *dst, struct fwd_lcore_stats *st)
{
	uint16_t i;

	n = fwd_drop_runts(pkts, n, st);
	for (i = 0; i < n; i++) {
		struct rte_ether_hdr *eth = rte_pktmbuf_mtod(pkts[i], struct rte_ether_hdr *);

		rte_ether_addr_copy(dst, &eth->dst_addr);
		rte_ether_addr_copy(src, &eth->src_addr);
	}
	return n;
}

/**
 * --fwd macswap: swap source and destination MAC. Runts are dropped and
 * counted.
 *
 * @return number of packets left in @p pkts.
 */
static inline uint16_t
fwd_mode_macswap(struct rte_mbuf **pkts, uint16_t n, struct fwd_lcore_stats *st)
{
	uint16_t i;

	n = fwd_drop_runts(pkts, n, st);
	for (i = 0; i < n; i++) {
		struct rte_ether_hdr *eth = rte_pktmbuf_mtod(pkts[i], struct rte_ether_hdr *);
		struct rte_ether_addr tmp;

		rte_ether_addr_copy(&eth->dst_addr, &tmp);
		rte_ether_addr_copy(&eth->src_addr, &eth->dst_addr);
		rte_ether_addr_copy(&tmp, &eth->src_addr);
	}
	return n;
}

/** --fwd rxonly: free the burst, counted under the "rxonly" reason. */
static inline void
fwd_mode_rxonly(struct rte_mbuf **pkts, uint16_t n, struct fwd_lcore_stats *st)
{
	rte_pktmbuf_free_bulk(pkts, n);
	st->drops[FWD_DROP_RXONLY] += n;
}

#endif /* FWD_MODES_H */
