/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FEC_RX_TS_H
#define FEC_RX_TS_H

/**
 * @file
 * Fast path of RX timestamps: one frame's ts word, extended to 64-bit ns,
 * into its mbuf (dynamic field and flag) and, for a PTP frame with timesync
 * on, into the port's latch (fec_rx_burst_ts, fec_rx_ts_sg).
 */

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "fec_rx.h"

/**
 * A PTP frame (ether type 0x88F7, untagged or behind one VLAN tag, as the
 * hardware filters of igb/ixgbe match it): flagged, its stamp latched.
 *
 * @param fep
 *   Device.
 * @param m
 *   Frame.
 * @param ns
 *   Its stamp.
 */
static __rte_always_inline void
fec_rx_ts_ptp(struct fec_priv *fep, struct rte_mbuf *m, uint64_t ns)
{
	const struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	uint16_t type;

	if (m->data_len < RTE_ETHER_HDR_LEN)
		return;
	type = eh->ether_type;
	if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN)) {
		if (m->data_len < RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN)
			return;
		type = ((const struct rte_vlan_hdr *)(eh + 1))->eth_proto;
	}
	if (type != rte_cpu_to_be_16(RTE_ETHER_TYPE_1588))
		return;
	m->ol_flags |= RTE_MBUF_F_RX_IEEE1588_PTP | RTE_MBUF_F_RX_IEEE1588_TMST;
	fec_ptp_latch_set(&fep->ptp.rx, ns);
}

/**
 * One received frame's timestamp.
 *
 * @param rxq
 *   RX queue (rxq->ts set).
 * @param tc
 *   The time at the last reading of the counter (a copy taken once a burst).
 * @param m
 *   Frame (its first mbuf).
 * @param ts
 *   The ts word of its last BD (CPU order).
 */
static __rte_always_inline void
fec_rx_ts_frame(
	const struct fec_rxq *rxq, const struct fec_ptp_tc *tc, struct rte_mbuf *m, uint32_t ts)
{
	uint64_t ns = fec_ptp_extend(tc, ts);

	if (rxq->ts_dyn) {
		*RTE_MBUF_DYNFIELD(m, rxq->ts_off, rte_mbuf_timestamp_t *) = ns;
		m->ol_flags |= rxq->ts_flag;
	}
	if (rxq->ts_ptp)
		fec_rx_ts_ptp(rxq->fep, m, ns);
}

#endif /* FEC_RX_TS_H */
