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
#include <string.h>

#include <rte_byteorder.h>
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

/*
 * The runt check and the rewrite share one pass over the burst; at the first
 * runt the rest of the burst goes through fwd_drop_runts() and the pass goes
 * on with what is left, so a runt is never written to.
 */

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
	/* The first 12 bytes of every frame, built once: two stores a packet. */
	uint8_t hdr[2 * RTE_ETHER_ADDR_LEN];
	uint64_t lo;
	uint32_t hi;
	uint16_t i;

	memcpy(hdr, dst, RTE_ETHER_ADDR_LEN);
	memcpy(hdr + RTE_ETHER_ADDR_LEN, src, RTE_ETHER_ADDR_LEN);
	memcpy(&lo, hdr, sizeof(lo));
	memcpy(&hi, hdr + sizeof(lo), sizeof(hi));
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint8_t *p;

		if (unlikely(rte_pktmbuf_data_len(m) < RTE_ETHER_HDR_LEN)) {
			n = i + fwd_drop_runts(&pkts[i], n - i, st);
			if (i == n)
				break;
			m = pkts[i];
		}
		p = rte_pktmbuf_mtod(m, uint8_t *);
		memcpy(p, &lo, sizeof(lo));
		memcpy(p + sizeof(lo), &hi, sizeof(hi));
	}
	return n;
}

/* Swap the two MACs at @p p: 12 bytes read as 8 + 4, written as 8 + 4. */
static __rte_always_inline void
fwd_swap_macs(uint8_t *p)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	const uint64_t mac48 = (UINT64_C(1) << 48) - 1;
	uint64_t lo, dst, src;
	uint32_t hi;

	memcpy(&lo, p, sizeof(lo));
	memcpy(&hi, p + sizeof(lo), sizeof(hi));
	dst = lo & mac48;
	src = (lo >> 48) | ((uint64_t)hi << 16);
	lo = src | (dst << 48);
	hi = (uint32_t)(dst >> 16);
	memcpy(p, &lo, sizeof(lo));
	memcpy(p + sizeof(lo), &hi, sizeof(hi));
#else
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)p;
	struct rte_ether_addr tmp;

	rte_ether_addr_copy(&eth->dst_addr, &tmp);
	rte_ether_addr_copy(&eth->src_addr, &eth->dst_addr);
	rte_ether_addr_copy(&tmp, &eth->src_addr);
#endif
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

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];

		if (unlikely(rte_pktmbuf_data_len(m) < RTE_ETHER_HDR_LEN)) {
			n = i + fwd_drop_runts(&pkts[i], n - i, st);
			if (i == n)
				break;
			m = pkts[i];
		}
		fwd_swap_macs(rte_pktmbuf_mtod(m, uint8_t *));
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
