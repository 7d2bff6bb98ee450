/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * net_fec: eth_dev_ops (control path): configure, info, link, start/stop/close,
 * queue setup and release, address filters, MTU; the table itself. Stats are
 * fec_mib.c's, probe is fec_probe.c's.
 */

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <rte_malloc.h>

#include "fec_backend.h"
#include "fec_ethdev.h"
#include "fec_rx.h"
#include "fec_tx.h"

/* TX offloads the enhanced descriptor's IINS/PINS do. */
#define FEC_TX_CSUM_OFFLOADS                                            \
	(RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM | \
		RTE_ETH_TX_OFFLOAD_TCP_CKSUM)

static int
fec_configure(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	int ret;

	if (dev->data->dev_conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_KEEP_CRC) {
		FEC_LOG(ERR, "KEEP_CRC not supported");
		return -ENOTSUP;
	}
	/* Frames classified to a ring without a queue would be dropped by the MAC. */
	if (fep->rcmr_ring_max != 0 && fep->rcmr_ring_max >= dev->data->nb_rx_queues) {
		FEC_LOG(ERR, "%s: rcmr= sends frames to ring %u but %u RX queues are configured",
			fep->name, fep->rcmr_ring_max, dev->data->nb_rx_queues);
		return -EINVAL;
	}
	ret = fec_rx_ts_configure(dev);
	if (ret < 0)
		return ret;
	return fec_intr_setup(dev);
}

static int
fec_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	struct fec_priv *fep = dev->data->dev_private;

	/* The AVB IPs (i.MX6SX, i.MX8M*) have 3 rings each way, the others 1. */
	info->max_rx_queues = fep->nb_rings;
	info->max_tx_queues = fep->nb_rings;
	info->max_mac_addrs = 1;
	info->min_rx_bufsize = 256;
	/* Beyond one buffer (FEC_MAX_BUF) with RX scatter only (fec_start checks). */
	info->max_rx_pktlen = FEC_MAX_FRAME;
	info->min_mtu = RTE_ETHER_MIN_MTU;
	info->max_mtu = FEC_MAX_FRAME - RTE_ETHER_HDR_LEN - RTE_VLAN_HLEN - RTE_ETHER_CRC_LEN;
	/*
	 * VLAN strip is the PMD's, on the descriptor's VLAN bit (as Linux's fec);
	 * timestamps are the enhanced BD's ts word (fec_rx_ts.c).
	 */
	info->rx_offload_capa = RTE_ETH_RX_OFFLOAD_SCATTER;
	if (fep->ex)
		info->rx_offload_capa |= FEC_RX_CSUM_OFFLOADS | RTE_ETH_RX_OFFLOAD_VLAN_STRIP |
					 RTE_ETH_RX_OFFLOAD_TIMESTAMP;
	info->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS | RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE |
				(fep->ex ? FEC_TX_CSUM_OFFLOADS : 0);
	info->rx_desc_lim.nb_max = FEC_RING_MAX;
	info->rx_desc_lim.nb_min = 8;
	info->rx_desc_lim.nb_align = 1;
	info->tx_desc_lim = info->rx_desc_lim;
	info->default_rxportconf.ring_size = FEC_RING_MAX;
	info->default_txportconf.ring_size = FEC_RING_MAX;
	info->speed_capa = RTE_ETH_LINK_SPEED_10M | RTE_ETH_LINK_SPEED_100M | RTE_ETH_LINK_SPEED_1G;
	return 0;
}

/* 0, or the MDIO error (-ETIMEDOUT): the link is then unknown, not down. */
static int
fec_resolve_link(struct fec_priv *fep, struct rte_eth_link *link)
{
	int bmsr, ctrl1000, stat1000, anar, anlpar, common;

	memset(link, 0, sizeof(*link));
	link->link_autoneg = RTE_ETH_LINK_AUTONEG;
	/* BMSR link status latches low: the second read is the current state. */
	bmsr = fec_mdio_read(fep, FEC_PHY_BMSR);
	if (bmsr >= 0)
		bmsr = fec_mdio_read(fep, FEC_PHY_BMSR);
	if (bmsr < 0)
		return bmsr;
	if (!(bmsr & FEC_BMSR_LINK))
		return 0;
	ctrl1000 = fec_mdio_read(fep, FEC_PHY_CTRL1000);
	stat1000 = fec_mdio_read(fep, FEC_PHY_STAT1000);
	anar = fec_mdio_read(fep, FEC_PHY_ANAR);
	anlpar = fec_mdio_read(fep, FEC_PHY_ANLPAR);
	if (ctrl1000 < 0 || stat1000 < 0 || anar < 0 || anlpar < 0)
		return -ETIMEDOUT;
	link->link_status = RTE_ETH_LINK_UP;
	common = anar & anlpar;
	if ((ctrl1000 & FEC_ADV_1000FD) && (stat1000 & 0x0800)) {
		link->link_speed = RTE_ETH_SPEED_NUM_1G;
		link->link_duplex = RTE_ETH_LINK_FULL_DUPLEX;
	} else if ((ctrl1000 & FEC_ADV_1000HD) && (stat1000 & 0x0400)) {
		link->link_speed = RTE_ETH_SPEED_NUM_1G;
		link->link_duplex = RTE_ETH_LINK_HALF_DUPLEX;
	} else if (common & FEC_ADV_100FD) {
		link->link_speed = RTE_ETH_SPEED_NUM_100M;
		link->link_duplex = RTE_ETH_LINK_FULL_DUPLEX;
	} else if (common & FEC_ADV_100HD) {
		link->link_speed = RTE_ETH_SPEED_NUM_100M;
		link->link_duplex = RTE_ETH_LINK_HALF_DUPLEX;
	} else if (common & FEC_ADV_10FD) {
		link->link_speed = RTE_ETH_SPEED_NUM_10M;
		link->link_duplex = RTE_ETH_LINK_FULL_DUPLEX;
	} else {
		link->link_speed = RTE_ETH_SPEED_NUM_10M;
		link->link_duplex = RTE_ETH_LINK_HALF_DUPLEX;
	}
	return 0;
}

static int
fec_link_update(struct rte_eth_dev *dev, int wait)
{
	struct fec_priv *fep = dev->data->dev_private;
	struct rte_eth_link link;
	bool changed, fc_changed;
	int ret;

	RTE_SET_USED(wait);
	ret = fec_resolve_link(fep, &link);
	if (ret < 0) {
		/*
		 * The PHY did not answer: keep the last state rather than report
		 * a link flap (and restart the MAC when it answers again).
		 */
		FEC_LOG(WARNING, "%s: link state unknown: %s", fep->name, strerror(-ret));
		return ret;
	}
	changed = link.link_status != fep->link_up ||
		  (link.link_status && (link.link_speed != fep->speed ||
					       fep->full_duplex != !!link.link_duplex));
	fep->link_up = link.link_status;
	if (link.link_status) {
		fep->speed = link.link_speed;
		fep->full_duplex = link.link_duplex == RTE_ETH_LINK_FULL_DUPLEX;
	}
	fc_changed = fec_fc_link_update(dev, &link);
	/* Linux's adjust_link: a new speed or duplex means a MAC restart. */
	if (changed && link.link_status && dev->data->dev_started) {
		/*
		 * Serialised with the bursts and with a fault restart
		 * (fec_watchdog.c); the restart applies the resolved pause mode.
		 */
		fec_link_restart(dev);
	} else if (fc_changed) {
		fec_fc_apply(dev);
	}
	return rte_eth_linkstatus_set(dev, &link);
}

static void
fec_rx_free_bufs(struct fec_rxq *rxq)
{
	uint16_t i;

	for (i = 0; i < rxq->nb_desc; i++) {
		if (rxq->sw_ring[i] != NULL) {
			rte_pktmbuf_free_seg(rxq->sw_ring[i]);
			rxq->sw_ring[i] = NULL;
		}
	}
}

/* Every configured queue was set up (ethdev checks it too; a release may undo it). */
static bool
queues_ready(struct rte_eth_dev *dev)
{
	uint16_t q;

	if (dev->data->nb_rx_queues == 0 || dev->data->nb_tx_queues == 0)
		return false;
	for (q = 0; q < dev->data->nb_rx_queues; q++)
		if (fec_rxq_at(dev, q) == NULL)
			return false;
	for (q = 0; q < dev->data->nb_tx_queues; q++)
		if (fec_txq_at(dev, q) == NULL)
			return false;
	return true;
}

static int
rx_bufs_alloc(struct fec_rxq *rxq)
{
	uint16_t i;

	for (i = 0; i < rxq->nb_desc; i++) {
		if (rxq->sw_ring[i] != NULL)
			continue;
		rxq->sw_ring[i] = rte_mbuf_raw_alloc(rxq->mp);
		if (rxq->sw_ring[i] == NULL)
			return -ENOMEM;
	}
	return 0;
}

static int
fec_start(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	uint16_t q;
	int ret;

	if (!queues_ready(dev))
		return -EINVAL;
	if (fec_rx_scatter_conf(dev) < 0)
		return -EINVAL;
	/* Any pool the application may transmit from must be reachable by the DMA. */
	ret = fep->be->tx_pools(fep);
	if (ret < 0)
		return ret;
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		if (rx_bufs_alloc(fec_rxq_at(dev, q)) < 0) {
			uint16_t i;

			for (i = 0; i <= q; i++)
				fec_rx_free_bufs(fec_rxq_at(dev, i));
			return -ENOMEM;
		}
	}
	/* Deferred queues come up stopped: RX BDs parked, TX bursts refused. */
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		struct fec_rxq *rxq = fec_rxq_at(dev, q);

		fec_q_started_set(&rxq->sync, &rxq->started, !rxq->deferred_start);
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		struct fec_txq *txq = fec_txq_at(dev, q);

		fec_q_started_set(&txq->sync, &txq->started, !txq->deferred_start);
		txq->stall_start = 0;
	}
	fec_link_update(dev, 0);
	/* RX interrupts start disabled, as ethdev expects. */
	fep->eimr = 0;
	fec_hw_restart(dev);
	if (fec_mib_alarm_start(fep) < 0)
		FEC_LOG(WARNING, "%s: no MIB alarm: read stats at least every %u s", fep->name,
			FEC_MIB_PERIOD_MAX_MS / 1000);
	if (fec_lsc_start(dev) < 0)
		FEC_LOG(WARNING, "%s: no LSC alarm: no link events", fep->name);
	if (fec_wd_start(dev) < 0)
		FEC_LOG(WARNING, "%s: no watchdog alarm: no recovery from a stuck MAC", fep->name);
	/* The RX burst: scattered, with timestamps, or plain (fec_rx_ts.c). */
	fec_rx_ts_start(dev);
	dev->tx_pkt_burst = fec_tx_burst;
	dev->tx_pkt_prepare = fec_tx_prepare;
	for (q = 0; q < dev->data->nb_rx_queues; q++)
		dev->data->rx_queue_state[q] = fec_rxq_at(dev, q)->started
						       ? RTE_ETH_QUEUE_STATE_STARTED
						       : RTE_ETH_QUEUE_STATE_STOPPED;
	for (q = 0; q < dev->data->nb_tx_queues; q++)
		dev->data->tx_queue_state[q] = fec_txq_at(dev, q)->started
						       ? RTE_ETH_QUEUE_STATE_STARTED
						       : RTE_ETH_QUEUE_STATE_STOPPED;
	return 0;
}

static int
fec_stop(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	uint16_t q;

	dev->data->dev_started = 0;
	fec_wd_stop(dev);
	fec_mib_alarm_stop(fep);
	fec_lsc_stop(dev);
	fec_hw_stop(dev);
	fec_rx_ts_stop(dev);
	/* The MAC is off: every buffer goes back to its pool. */
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		struct fec_rxq *rxq = fec_rxq_at(dev, q);

		if (rxq != NULL) {
			fec_rx_free_bufs(rxq);
			fec_rx_stash_free(rxq);
			fec_rx_sg_drop(rxq);
			rxq->cur = 0;
		}
		dev->data->rx_queue_state[q] = RTE_ETH_QUEUE_STATE_STOPPED;
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		struct fec_txq *txq = fec_txq_at(dev, q);

		if (txq != NULL)
			fec_tx_free_inflight(txq);
		dev->data->tx_queue_state[q] = RTE_ETH_QUEUE_STATE_STOPPED;
	}
	fep->link_up = false;
	return 0;
}

static void
fec_rx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	struct fec_rxq *rxq = fec_rxq_at(dev, qid);

	if (rxq == NULL)
		return;
	fec_rx_free_bufs(rxq);
	fec_rx_stash_free(rxq);
	fec_rx_sg_drop(rxq);
	rte_free(rxq->sw_ring);
	rte_free(rxq);
	dev->data->rx_queues[qid] = NULL;
}

static void
fec_tx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	struct fec_txq *txq = fec_txq_at(dev, qid);

	if (txq == NULL)
		return;
	fec_tx_free_inflight(txq);
	rte_free(txq->sw_ring);
	rte_free(txq);
	dev->data->tx_queues[qid] = NULL;
}

static int
fec_close(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	uint16_t q;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	if (dev->data->dev_started)
		fec_stop(dev);
	/* Whatever the state, no fold may run once the registers are gone. */
	fec_mib_alarm_stop(fep);
	fec_lsc_stop(dev);
	fec_wd_stop(dev);
	/* timesync off: the 1588 alarm goes with the registers. */
	fep->ptp.timesync = false;
	fec_ptp_clock_put(fep, FEC_PTP_USER_TIMESYNC | FEC_PTP_USER_RX_TS);
	for (q = 0; q < dev->data->nb_rx_queues; q++)
		fec_rx_queue_release(dev, q);
	for (q = 0; q < dev->data->nb_tx_queues; q++)
		fec_tx_queue_release(dev, q);
	fec_intr_free(dev);
	fep->be->detach(fep);
	return 0;
}

static int
fec_rx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc, unsigned int socket,
	const struct rte_eth_rxconf *conf, struct rte_mempool *mp)
{
	struct fec_priv *fep = dev->data->dev_private;
	struct rte_mbuf mb_def = {.buf_addr = 0};
	uint32_t room = rte_pktmbuf_data_room_size(mp);
	struct fec_rxq *rxq;
	uint32_t mrbr;
	uint16_t q;
	int ret;

	/* A 1-ring SoC (i.MX6Q/6UL) has no ring 1: ethdev refuses it by max_rx_queues too. */
	if (qid >= fep->nb_rings || nb_desc > fep->bd_slice >> (fep->ex ? 5 : 3) || nb_desc < 2)
		return -EINVAL;
	if (room <= RTE_PKTMBUF_HEADROOM + 256)
		return -EINVAL;
	mrbr = room - RTE_PKTMBUF_HEADROOM;
	mrbr = RTE_ALIGN_FLOOR(RTE_MIN(mrbr, 2048u), 16u);
	ret = fep->be->rx_pool(fep, mp);
	if (ret < 0)
		return ret;
	fec_rx_queue_release(dev, qid);
	rxq = rte_zmalloc_socket("fec_rxq", sizeof(*rxq), RTE_CACHE_LINE_SIZE, socket);
	if (rxq == NULL)
		return -ENOMEM;
	rxq->sw_ring = rte_zmalloc_socket(
		"fec_rxq_sw", nb_desc * sizeof(*rxq->sw_ring), RTE_CACHE_LINE_SIZE, socket);
	if (rxq->sw_ring == NULL) {
		rte_free(rxq);
		return -ENOMEM;
	}
	rxq->fep = fep;
	rxq->mp = mp;
	rxq->nb_desc = nb_desc;
	rxq->ex = fep->ex;
	rxq->queue_offloads = conf != NULL ? conf->offloads : 0;
	fec_rxq_desc_conf(dev, rxq, dev->data->dev_conf.rxmode.offloads | rxq->queue_offloads);
	rxq->bd_shift = fep->ex ? 5 : 3;
	/* Slice 2q + 1 is RX ring q (slice 1 ring 0, as in NXP's UIO descriptor block). */
	rxq->qid = qid;
	rxq->rdar = fec_rdar_off(qid);
	rxq->bd = fep->bd_va + fep->bd_slice * (2u * qid + 1u);
	rxq->bd_bus = fep->bd_bus + (uint32_t)(fep->bd_slice * (2u * qid + 1u));
	rxq->buf_len = (uint16_t)mrbr;
	rxq->trim = RTE_ETHER_CRC_LEN + (fep->shift16 ? 2 : 0);
	rxq->data_off = RTE_PKTMBUF_HEADROOM + (fep->shift16 ? 2 : 0);
	rxq->port_id = dev->data->port_id;
	rxq->deferred_start = conf != NULL && conf->rx_deferred_start;
	mb_def.nb_segs = 1;
	mb_def.data_off = rxq->data_off;
	mb_def.port = rxq->port_id;
	rte_mbuf_refcnt_set(&mb_def, 1);
	memcpy(&rxq->mbuf_init, (char *)&mb_def + offsetof(struct rte_mbuf, rearm_data), 8);
	dev->data->rx_queues[qid] = rxq;
	/* FTRL and MAX_FL are the MAC's: what the smallest buffer of any ring holds. */
	fep->rx_frame_max = 0;
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		const struct fec_rxq *o = fec_rxq_at(dev, q);
		uint16_t max;

		if (o == NULL)
			continue;
		max = (uint16_t)RTE_MIN(
			(uint32_t)o->buf_len - (fep->shift16 ? 2u : 0u), FEC_MAX_BUF);
		if (fep->rx_frame_max == 0 || max < fep->rx_frame_max)
			fep->rx_frame_max = max;
	}
	return 0;
}

static int
fec_tx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc, unsigned int socket,
	const struct rte_eth_txconf *conf)
{
	struct fec_priv *fep = dev->data->dev_private;
	struct fec_txq *txq;

	if (qid >= fep->nb_rings || nb_desc > fep->bd_slice >> (fep->ex ? 5 : 3) || nb_desc < 2)
		return -EINVAL;
	fec_tx_queue_release(dev, qid);
	txq = rte_zmalloc_socket("fec_txq", sizeof(*txq), RTE_CACHE_LINE_SIZE, socket);
	if (txq == NULL)
		return -ENOMEM;
	txq->sw_ring = rte_zmalloc_socket(
		"fec_txq_sw", nb_desc * sizeof(*txq->sw_ring), RTE_CACHE_LINE_SIZE, socket);
	if (txq->sw_ring == NULL) {
		rte_free(txq);
		return -ENOMEM;
	}
	txq->fep = fep;
	txq->nb_desc = nb_desc;
	txq->nb_free = nb_desc;
	txq->ex = fep->ex;
	/* IINS/PINS exist only in the enhanced BD. */
	txq->csum = fep->ex &&
		    ((dev->data->dev_conf.txmode.offloads | (conf != NULL ? conf->offloads : 0)) &
			    FEC_TX_CSUM_OFFLOADS) != 0;
	txq->bd_shift = fep->ex ? 5 : 3;
	/* Slice 2q is TX ring q (slice 0 ring 0). */
	txq->qid = qid;
	txq->tdar = fec_tdar_off(qid);
	txq->bd = fep->bd_va + fep->bd_slice * 2u * qid;
	txq->bd_bus = fep->bd_bus + (uint32_t)(fep->bd_slice * 2u * qid);
	txq->deferred_start = conf != NULL && conf->tx_deferred_start;
	txq->port_id = dev->data->port_id;
	txq->free_thresh = conf != NULL && conf->tx_free_thresh != 0 ? conf->tx_free_thresh : 32;
	txq->offloads = dev->data->dev_conf.txmode.offloads | (conf != NULL ? conf->offloads : 0);
	txq->fast_free = (txq->offloads & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE) != 0;
	txq->count_errs = fep->sw_stats;
	txq->ts_bd = FEC_TS_BD_NONE;
	fec_tx_ts_conf(dev, txq);
	dev->data->tx_queues[qid] = txq;
	return 0;
}

static int
fec_promisc_set(struct rte_eth_dev *dev, bool on)
{
	struct fec_priv *fep = dev->data->dev_private;
	uint32_t rcr = fec_rd32(fep, FEC_RCR);

	fec_wr32(fep, FEC_RCR, on ? rcr | FEC_RCR_PROM : rcr & ~FEC_RCR_PROM);
	return 0;
}

static int
fec_promisc_enable(struct rte_eth_dev *dev)
{
	return fec_promisc_set(dev, true);
}

static int
fec_promisc_disable(struct rte_eth_dev *dev)
{
	return fec_promisc_set(dev, false);
}

static int
fec_allmulti_enable(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;

	fec_wr32(fep, FEC_GAUR, UINT32_MAX);
	fec_wr32(fep, FEC_GALR, UINT32_MAX);
	return 0;
}

static int
fec_allmulti_disable(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;

	fec_wr32(fep, FEC_GAUR, fep->gaur);
	fec_wr32(fep, FEC_GALR, fep->galr);
	return 0;
}

static int
fec_mc_addr_list_set(struct rte_eth_dev *dev, struct rte_ether_addr *list, uint32_t n)
{
	struct fec_priv *fep = dev->data->dev_private;
	uint32_t i;

	fep->gaur = 0;
	fep->galr = 0;
	for (i = 0; i < n; i++) {
		unsigned int bin = fec_hash_bin(list[i].addr_bytes);

		if (bin >= 32)
			fep->gaur |= 1u << (bin - 32);
		else
			fep->galr |= 1u << bin;
	}
	if (!dev->data->all_multicast)
		fec_allmulti_disable(dev);
	return 0;
}

static int
fec_mac_addr_set(struct rte_eth_dev *dev, struct rte_ether_addr *addr)
{
	struct fec_priv *fep = dev->data->dev_private;
	const uint8_t *a = addr->addr_bytes;

	fec_wr32(fep, FEC_PALR,
		((uint32_t)a[0] << 24) | ((uint32_t)a[1] << 16) | ((uint32_t)a[2] << 8) | a[3]);
	fec_wr32(fep, FEC_PAUR, ((uint32_t)a[4] << 24) | ((uint32_t)a[5] << 16));
	return 0;
}

static int
fec_mtu_set(struct rte_eth_dev *dev, uint16_t mtu)
{
	struct fec_priv *fep = dev->data->dev_private;
	uint32_t frame = (uint32_t)mtu + RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN + RTE_ETHER_CRC_LEN;
	uint32_t rcr;

	/* Started, a frame longer than a buffer needs the scattered burst already chosen. */
	if (fep->rx_frame_max != 0 && frame > fep->rx_frame_max &&
		!(dev->data->dev_started ? fep->scatter : fec_rx_scatter_asked(dev)))
		return -EINVAL;
	if (dev->data->dev_started) {
		rcr = fec_rd32(fep, FEC_RCR) & ~FEC_RCR_MAX_FL_MASK;
		fec_wr32(fep, FEC_RCR, rcr | (frame << FEC_RCR_MAX_FL_SHIFT));
	}
	return 0;
}

const struct eth_dev_ops fec_eth_ops = {
	.dev_configure = fec_configure,
	.dev_infos_get = fec_infos_get,
	.dev_start = fec_start,
	.dev_stop = fec_stop,
	.dev_close = fec_close,
	.link_update = fec_link_update,
	.rx_queue_setup = fec_rx_queue_setup,
	.tx_queue_setup = fec_tx_queue_setup,
	.rx_queue_release = fec_rx_queue_release,
	.tx_queue_release = fec_tx_queue_release,
	.promiscuous_enable = fec_promisc_enable,
	.promiscuous_disable = fec_promisc_disable,
	.allmulticast_enable = fec_allmulti_enable,
	.allmulticast_disable = fec_allmulti_disable,
	.set_mc_addr_list = fec_mc_addr_list_set,
	.mac_addr_set = fec_mac_addr_set,
	.mtu_set = fec_mtu_set,
	.stats_get = fec_stats_get,
	.stats_reset = fec_stats_reset,
	.xstats_get = fec_xstats_get,
	.xstats_get_names = fec_xstats_get_names,
	.xstats_reset = fec_stats_reset,
	.rx_queue_start = fec_rx_queue_start,
	.rx_queue_stop = fec_rx_queue_stop,
	.tx_queue_start = fec_tx_queue_start,
	.tx_queue_stop = fec_tx_queue_stop,
	.tx_done_cleanup = fec_tx_done_cleanup,
	.rxq_info_get = fec_rxq_info_get,
	.txq_info_get = fec_txq_info_get,
	.get_reg = fec_get_reg,
	.flow_ctrl_get = fec_flow_ctrl_get,
	.flow_ctrl_set = fec_flow_ctrl_set,
	.rx_queue_intr_enable = fec_rx_intr_enable,
	.rx_queue_intr_disable = fec_rx_intr_disable,
	.dev_supported_ptypes_get = fec_supported_ptypes,
	.dev_ptypes_set = fec_ptypes_set,
	.vlan_offload_set = fec_vlan_offload_set,
	.timesync_enable = fec_timesync_enable,
	.timesync_disable = fec_timesync_disable,
	.timesync_read_rx_timestamp = fec_timesync_read_rx_timestamp,
	.timesync_read_tx_timestamp = fec_timesync_read_tx_timestamp,
	.timesync_adjust_time = fec_timesync_adjust_time,
	.timesync_read_time = fec_timesync_read_time,
	.timesync_write_time = fec_timesync_write_time,
	.read_clock = fec_read_clock,
};
