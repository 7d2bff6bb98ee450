/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FEC_RX_H
#define FEC_RX_H

/**
 * @file
 * net_fec RX: the bursts, their slow paths (errors, the stash, scattered
 * frames, timestamps) and the descriptor-offload table they index.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <ethdev_driver.h>

#include "fec_priv.h"

/**
 * Receive burst.
 *
 * @param q
 *   RX queue.
 * @param pkts
 *   Output array.
 * @param n
 *   Its size.
 * @return
 *   Frames received.
 */
uint16_t fec_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n);

/**
 * Receive burst with RTE_ETH_RX_OFFLOAD_SCATTER (fec_rx_scatter.c): a frame
 * longer than one buffer spans several BDs (L on the last), chained mbufs.
 * Chosen by dev_start, so the single-BD burst keeps no test for it.
 *
 * @param q
 *   RX queue.
 * @param pkts
 *   Output array.
 * @param n
 *   Its size.
 * @return
 *   Frames received.
 */
uint16_t fec_rx_burst_scatter(void *q, struct rte_mbuf **pkts, uint16_t n);

/**
 * Free the frame a scattered RX queue was chaining (queue stop, restart,
 * port stop): its BDs are gone with the ring's reset.
 *
 * @param rxq
 *   RX queue.
 */
void fec_rx_sg_drop(struct fec_rxq *rxq);

/**
 * RTE_ETH_RX_OFFLOAD_SCATTER in the port's configuration.
 *
 * @param dev
 *   Port.
 * @return
 *   Whether the application asked for it.
 */
bool fec_rx_scatter_asked(const struct rte_eth_dev *dev);

/**
 * At dev_start: RX scatter on if the application asked for it (fep->scatter,
 * scattered_rx); a frame of the MTU longer than the smallest RX buffer
 * without it is refused.
 *
 * @param dev
 *   Port.
 * @return
 *   0, or -EINVAL (logged).
 */
int fec_rx_scatter_conf(struct rte_eth_dev *dev);

/**
 * Count a frame dropped for its BD status or, on an enhanced BD, its ESC
 * errors (the first reason of FEC_RX_ERR_TABLE that matches), or for its
 * length if none does.
 *
 * @param rxq
 *   RX queue.
 * @param bd
 *   The frame's last BD (its ESC word is read when @p ex).
 * @param sc
 *   Status of the frame's last BD.
 * @param ex
 *   The ring has enhanced BDs.
 */
void fec_rx_error(struct fec_rxq *rxq, const volatile struct fec_bd *bd, uint16_t sc, bool ex);

/**
 * Refill the queue's stash of replacement mbufs (empty on entry): in bulk,
 * or one when the pool runs low.
 *
 * @param rxq
 *   RX queue.
 * @return
 *   Mbufs now in the stash (0: the pool is empty).
 */
unsigned int fec_rx_stash_refill(struct fec_rxq *rxq);

/**
 * What an enhanced RX BD says of a frame, into its (first) mbuf: packet type,
 * checksum flags, VLAN flag/TCI, the tag stripped (as the single-BD burst).
 *
 * @param m
 *   Frame.
 * @param esc
 *   ESC word of its last BD (CPU order).
 * @param prot
 *   Its prot word.
 * @param csum
 *   Set the checksum flags.
 * @param strip
 *   Strip a VLAN tag.
 * @param ptype
 *   Set packet_type.
 */
void fec_rx_desc_apply(
	struct rte_mbuf *m, uint32_t esc, uint32_t prot, bool csum, bool strip, bool ptype);

/*
 * Packet type and checksum flags of an enhanced RX BD, by one table lookup
 * (fec_rxdesc.c builds it): index = ESC bits FRAG, IPV6, VLAN, PCR, ICE
 * (0x37), a header length in the prot word (bit 3), the protocol's class
 * (bits 7:6: 1 TCP, 2 UDP); entry = packet type (11:0) | checksum flags << 12.
 */
#define FEC_RX_DESC_TAB      256
#define FEC_RX_DESC_ESC      0x37u
#define FEC_RX_DESC_PT_MASK  0xFFFu
#define FEC_RX_DESC_FL_SHIFT 12
extern uint32_t fec_rx_desc_tab[FEC_RX_DESC_TAB];
/** IP protocol number -> its class, already at bits 7:6 of the index. */
extern uint8_t fec_rx_proto_cls[256];

static __rte_always_inline unsigned int
fec_rx_desc_idx(uint32_t esc, uint32_t prot)
{
	return (esc & FEC_RX_DESC_ESC) | ((prot >> FEC_BD_EX_PROT_HLEN_SHIFT) != 0) << 3 |
	       fec_rx_proto_cls[(prot >> FEC_BD_EX_PROT_PROTO_SHIFT) & 0xFF];
}

/**
 * Set what the RX queue reads from the enhanced descriptor (checksum flags,
 * VLAN strip, packet types) from the device's configuration and
 * fep->ptype_off; the burst picks its instance from it.
 *
 * @param dev
 *   Device.
 * @param rxq
 *   RX queue.
 * @param offloads
 *   Its RX offloads (port and queue).
 */
void fec_rxq_desc_conf(const struct rte_eth_dev *dev, struct fec_rxq *rxq, uint64_t offloads);

/**
 * Packet types the RX burst recognises (dev_supported_ptypes_get): from the
 * enhanced descriptor, or L2_ETHER only with legacy BDs.
 *
 * @param dev
 *   Device.
 * @return
 *   RTE_PTYPE_UNKNOWN-terminated list.
 */
const uint32_t *fec_supported_ptypes(struct rte_eth_dev *dev);

/**
 * dev_ptypes_set: a mask of 0 (RTE_PTYPE_UNKNOWN) turns the descriptor's
 * packet types off (L2_ETHER only, the burst without per-frame descriptor
 * reads when no RX offload needs them); any other mask turns them on.
 *
 * @param dev
 *   Device.
 * @param mask
 *   Packet types the application wants.
 * @return
 *   0.
 */
int fec_ptypes_set(struct rte_eth_dev *dev, uint32_t mask);

/**
 * vlan_offload_set: VLAN strip on or off at run time (the others are refused).
 *
 * @param dev
 *   Device.
 * @param mask
 *   RTE_ETH_VLAN_*_MASK: what changed in dev_conf.rxmode.offloads.
 * @return
 *   0 or -ENOTSUP.
 */
int fec_vlan_offload_set(struct rte_eth_dev *dev, int mask);

/**
 * Give the RX queue's spare mbufs back to the pool.
 *
 * @param rxq
 *   RX queue.
 */
void fec_rx_stash_free(struct fec_rxq *rxq);

/**
 * rx_descriptor_status (fast-path op).
 *
 * @param q
 *   RX queue.
 * @param offset
 *   BD after the next one to be received.
 * @return
 *   RTE_ETH_RX_DESC_AVAIL / _DONE / _UNAVAIL, or -EINVAL.
 */
int fec_rx_descriptor_status(void *q, uint16_t offset);

/**
 * Receive burst that also reads each frame's ts word (fec_rx_ts.c): the
 * timestamp dynamic field and flag with RTE_ETH_RX_OFFLOAD_TIMESTAMP, the
 * PTP flags and latch with timesync on. Chosen at dev_start (and by
 * timesync_enable/disable) when a queue needs it, so fec_rx_burst keeps no
 * test for it; a queue that does not behaves as in fec_rx_burst.
 *
 * @param q
 *   RX queue.
 * @param pkts
 *   Output array.
 * @param n
 *   Its size.
 * @return
 *   Frames received.
 */
uint16_t fec_rx_burst_ts(void *q, struct rte_mbuf **pkts, uint16_t n);

/**
 * The timestamp of a scattered frame, from its last BD's ts word, into its
 * first mbuf (fec_rx_burst_scatter, with rxq->ts).
 *
 * @param rxq
 *   RX queue.
 * @param m
 *   First segment.
 * @param ts
 *   The ts word (CPU order).
 */
void fec_rx_ts_sg(struct fec_rxq *rxq, struct rte_mbuf *m, uint32_t ts);

/**
 * dev_configure: with RTE_ETH_RX_OFFLOAD_TIMESTAMP, register the timestamp
 * dynamic field and flag (rte_mbuf_dyn_rx_timestamp_register).
 *
 * @param dev
 *   Port.
 * @return
 *   0 or a negative errno (logged).
 */
int fec_rx_ts_configure(struct rte_eth_dev *dev);

/**
 * dev_start: what each RX queue stamps (RTE_ETH_RX_OFFLOAD_TIMESTAMP from the
 * port's and queue's offloads; PTP frames when timesync is on), the counter
 * started for the offload, the RX burst chosen (scattered, with timestamps,
 * or plain).
 *
 * @param dev
 *   Port.
 */
void fec_rx_ts_start(struct rte_eth_dev *dev);

/**
 * Each RX queue's PTP stamping from fep->ptp.timesync (timesync
 * enable/disable, dev_start), then the RX burst chosen again.
 *
 * @param dev
 *   Port.
 */
void fec_rx_ts_conf(struct rte_eth_dev *dev);

/**
 * dev_stop: the offload no longer keeps the counter running.
 *
 * @param dev
 *   Port.
 */
void fec_rx_ts_stop(struct rte_eth_dev *dev);

/**
 * Set rx_pkt_burst from the port's state (also in rte_eth_fp_ops when
 * started: timesync_enable may come after dev_start, as in ptpclient).
 *
 * @param dev
 *   Port.
 */
void fec_rx_burst_select(struct rte_eth_dev *dev);

#endif /* FEC_RX_H */
