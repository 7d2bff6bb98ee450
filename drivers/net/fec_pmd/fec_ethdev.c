/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/* net_fec: vdev probe, devargs, eth_dev_ops (control path). */

#include <errno.h>
#include <stddef.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_kvargs.h>
#include <rte_malloc.h>
#include <ethdev_vdev.h>
#include <bus_vdev_driver.h>

#include "fec_ethdev.h"

/* TX offloads the enhanced descriptor's IINS/PINS do. */
#define FEC_TX_CSUM_OFFLOADS                                            \
	(RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM | \
		RTE_ETH_TX_OFFLOAD_TCP_CKSUM)

RTE_LOG_REGISTER(fec_logtype, pmd.net.fec, NOTICE);

#define FEC_ARG_BACKEND "backend"
#define FEC_ARG_BD      "bd"
#define FEC_ARG_PROFILE "profile"
#define FEC_ARG_MODE    "mode"
#define FEC_ARG_WIRE    "wire"
#define FEC_ARG_PHY     "phy_addr"
#define FEC_ARG_UIO     "uio_name"
#define FEC_ARG_SHIFT16 "shift16"
#define FEC_ARG_MIB_MS  "mib_period_ms"
#define FEC_ARG_STATS   "stats"
#define FEC_ARG_SOC     "soc"
#define FEC_ARG_LSC_MS  "lsc_period_ms"
#define FEC_ARG_TX_TMO  "tx_timeout_ms"
#define FEC_ARG_WD_MS   "watchdog_ms"
#define FEC_ARG_FOLLOW  "pcap_follow"
#define FEC_ARG_RCMR    "rcmr"
#define FEC_ARG_INTR    "intr"
#define FEC_ARG_COAL    "rx_coalesce"
#define FEC_ARG_ITR_CLK "itr_clk_mhz"
#define FEC_ARG_PTP_CLK "ptp_clk_mhz"

static const char *const fec_valid_args[] = {FEC_ARG_BACKEND, FEC_ARG_BD, FEC_ARG_PROFILE,
	FEC_ARG_MODE, FEC_ARG_WIRE, FEC_ARG_PHY, FEC_ARG_UIO, FEC_ARG_SHIFT16, FEC_ARG_MIB_MS,
	FEC_ARG_STATS, FEC_ARG_SOC, FEC_ARG_LSC_MS, FEC_ARG_TX_TMO, FEC_ARG_WD_MS, FEC_ARG_FOLLOW,
	FEC_ARG_RCMR, FEC_ARG_INTR, FEC_ARG_COAL, FEC_ARG_ITR_CLK, FEC_ARG_PTP_CLK, NULL};

struct fec_args {
	char backend[8];
	char bd[12];
	char profile[12];
	char mode[12];
	char wire[PATH_MAX * 2 + 16];
	char uio_name[32];
	char stats[4];
	char rcmr[64];
	char intr[8];
	char coal[24];
	unsigned int itr_clk_mhz;
	unsigned long ptp_clk_mhz; /**< 1588 clock (fec_ptp_clk_parse checks it) */
	unsigned int phy_addr;
	bool phy_set; /**< phy_addr given; else the PHY is looked for on MDIO */
	unsigned int shift16;
	unsigned int pcap_follow; /**< wire=pcap: wait at the end of IN for more frames */
	unsigned int mib_period_ms;
	unsigned int lsc_period_ms;
	unsigned int tx_timeout_ms;
	unsigned int wd_period_ms;
};

static const char *const fec_mib_names[FEC_MIB_NB] = {
#define X(n, o) #n,
	FEC_MIB_TABLE(X)
#undef X
};

/* One PCP value or a range LO-HI into the ring's set; -EINVAL when malformed. */
static int
rcmr_entry(const char *e, size_t len, uint8_t pcps[FEC_MAX_RINGS], uint8_t *ring_max)
{
	unsigned int ring, lo, hi, v;
	char buf[16], tail;

	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, e, len);
	buf[len] = '\0';
	if (sscanf(buf, "%u:%u-%u%c", &ring, &lo, &hi, &tail) == 3) {
		/* LO-HI */
	} else if (sscanf(buf, "%u:%u%c", &ring, &lo, &tail) == 2 && strchr(buf, '-') == NULL) {
		hi = lo;
	} else {
		return -EINVAL;
	}
	if (ring < 1 || ring >= FEC_MAX_RINGS || lo > 7 || hi > 7 || lo > hi)
		return -EINVAL;
	for (v = lo; v <= hi; v++)
		pcps[ring] |= (uint8_t)(1u << v);
	if (ring > *ring_max)
		*ring_max = (uint8_t)ring;
	return 0;
}

int
fec_rcmr_parse(const char *spec, uint32_t rcmr[FEC_MAX_RINGS], uint8_t *ring_max)
{
	uint8_t pcps[FEC_MAX_RINGS] = {0};
	size_t len = strlen(spec);
	const char *p, *end;
	unsigned int q;

	memset(rcmr, 0, FEC_MAX_RINGS * sizeof(rcmr[0]));
	*ring_max = 0;
	/* [a,b]: the brackets keep the commas inside one kvargs value. */
	if (len >= 2 && spec[0] == '[' && spec[len - 1] == ']') {
		spec++;
		len -= 2;
	}
	/* An empty entry (",," or a comma at an end) is a typo, not nothing. */
	if (len == 0 || spec[len - 1] == ',')
		return -EINVAL;
	for (p = spec; p < spec + len; p = end + 1) {
		end = memchr(p, ',', (size_t)(spec + len - p));
		if (end == NULL)
			end = spec + len;
		if (rcmr_entry(p, (size_t)(end - p), pcps, ring_max) < 0)
			return -EINVAL;
	}
	/* A PCP on both rings would go to ring 1 only: refused, not guessed. */
	if (pcps[1] & pcps[2])
		return -EINVAL;
	for (q = 1; q < FEC_MAX_RINGS; q++) {
		unsigned int n = 0, v, first = 0;

		if (pcps[q] == 0)
			continue;
		for (v = 0; v < 8; v++) {
			if (!(pcps[q] & (1u << v)))
				continue;
			/* Four compare fields per register. */
			if (n == 4)
				return -EINVAL;
			if (n == 0)
				first = v;
			rcmr[q] |= FEC_RCMR_CMP(v, n);
			n++;
		}
		/* Unused fields repeat the first value: they must not match PCP 0. */
		for (; n < 4; n++)
			rcmr[q] |= FEC_RCMR_CMP(first, n);
		rcmr[q] |= FEC_RCMR_MATCHEN;
	}
	return 0;
}

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

struct pool_check {
	int bad;
};

static void
check_chunk(struct rte_mempool *mp, void *arg, struct rte_mempool_memhdr *memhdr, unsigned int i)
{
	struct pool_check *c = arg;

	RTE_SET_USED(mp);
	RTE_SET_USED(i);
	if (memhdr->iova == RTE_BAD_IOVA || memhdr->iova + memhdr->len > (1ULL << 32))
		c->bad = 1;
}

/*
 * A pool of packet mbufs, as rte_pktmbuf_pool_create() makes them: its private
 * area holds struct rte_pktmbuf_pool_private (rounded up to a cache line by
 * the mempool library, so not compared for equality: that compare matched no
 * pool, and a pool only transmitted from was never mapped nor checked) and an
 * element is an mbuf, its private area and its data room. Other pools'
 * objects have no buf_iova to check or rewrite.
 */
static bool
is_pktmbuf_pool(struct rte_mempool *mp)
{
	const struct rte_pktmbuf_pool_private *p;

	if (mp->private_data_size < sizeof(*p))
		return false;
	p = rte_mempool_get_priv(mp);
	return mp->elt_size ==
	       sizeof(struct rte_mbuf) + (uint32_t)p->mbuf_priv_size + p->mbuf_data_room_size;
}

/* Hardware: every pktmbuf pool the application may transmit from. */
static void
check_pool_cb(struct rte_mempool *mp, void *arg)
{
	struct fec_priv *fep = arg;
	struct pool_check c = {0};

	if (!is_pktmbuf_pool(mp))
		return;
	rte_mempool_mem_iter(mp, check_chunk, &c);
	if (c.bad) {
		FEC_LOG(ERR,
			"%s: pool %s has IOVAs the 32-bit MAC cannot reach (need IOVA as PA "
			"below 4 GiB)",
			fep->name, mp->name);
		fep->pool_bad = true;
	}
}

static void
map_pool_cb(struct rte_mempool *mp, void *arg)
{
	struct fec_priv *fep = arg;

	if (is_pktmbuf_pool(mp) && fec_model_map_mempool(fep->model, mp) < 0)
		FEC_LOG(WARNING, "%s: pool %s not visible to the model DMA", fep->name, mp->name);
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

	if (!queues_ready(dev))
		return -EINVAL;
	if (fec_rx_scatter_conf(dev) < 0)
		return -EINVAL;
	/* Model: any pool the application may transmit from needs bus addresses. */
	if (fep->model != NULL) {
		rte_mempool_walk(map_pool_cb, fep);
	} else {
		fep->pool_bad = false;
		rte_mempool_walk(check_pool_cb, fep);
		if (fep->pool_bad)
			return -ERANGE;
	}
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
	if (fep->model != NULL) {
		fec_model_free(fep->model);
		fep->model = NULL;
	} else {
		fec_uio_unmap(fep);
	}
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

	/* A 1-ring SoC (i.MX6Q/6UL) has no ring 1: ethdev refuses it by max_rx_queues too. */
	if (qid >= fep->nb_rings || nb_desc > fep->bd_slice >> (fep->ex ? 5 : 3) || nb_desc < 2)
		return -EINVAL;
	if (room <= RTE_PKTMBUF_HEADROOM + 256)
		return -EINVAL;
	mrbr = room - RTE_PKTMBUF_HEADROOM;
	mrbr = RTE_ALIGN_FLOOR(RTE_MIN(mrbr, 2048u), 16u);
	if (fep->model != NULL) {
		int ret = fec_model_map_mempool(fep->model, mp);

		if (ret < 0)
			return ret;
	} else {
		struct pool_check c = {0};

		rte_mempool_mem_iter(mp, check_chunk, &c);
		if (c.bad) {
			FEC_LOG(ERR, "%s: pool %s has IOVAs the 32-bit MAC cannot reach", fep->name,
				mp->name);
			return -EINVAL;
		}
	}
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

/* The driver's counts of every queue, summed for the port's totals. */
struct fec_sums {
	uint64_t rx_pkts, rx_bytes, ierrors;
	uint64_t stop_discards, stop_discard_bytes, restart_discards, restart_discard_bytes;
	uint64_t err[FEC_RX_ERR_NB];
	uint64_t tx_pkts, tx_bytes, stop_drops, restart_drops;
	uint64_t tx_err[FEC_TX_ERR_NB], tx_errs, tx_err_bytes;
};

static void
fec_sums_get(struct rte_eth_dev *dev, struct fec_sums *t)
{
	unsigned int i;
	uint16_t q;

	memset(t, 0, sizeof(*t));
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		const struct fec_rxq *rxq = fec_rxq_at(dev, q);

		if (rxq == NULL)
			continue;
		t->rx_pkts += rxq->sw_pkts;
		t->rx_bytes += rxq->sw_bytes;
		t->ierrors += rxq->ierrors;
		t->stop_discards += rxq->stop_discards;
		t->stop_discard_bytes += rxq->stop_discard_bytes;
		t->restart_discards += rxq->restart_discards;
		t->restart_discard_bytes += rxq->restart_discard_bytes;
		for (i = 0; i < FEC_RX_ERR_NB; i++)
			t->err[i] += rxq->err[i];
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		const struct fec_txq *txq = fec_txq_at(dev, q);

		if (txq == NULL)
			continue;
		t->tx_pkts += txq->sw_pkts;
		t->tx_bytes += txq->sw_bytes;
		t->stop_drops += txq->stop_drops;
		t->restart_drops += txq->restart_drops;
		for (i = 0; i < FEC_TX_ERR_NB; i++) {
			t->tx_err[i] += txq->err[i];
			t->tx_errs += txq->err[i];
		}
		t->tx_err_bytes += txq->err_bytes;
	}
}

static int
fec_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st)
{
	struct fec_priv *fep = dev->data->dev_private;
	struct fec_sums t;
	uint16_t q;

	fec_sums_get(dev, &t);
	rte_spinlock_lock(&fep->mib_lock);
	fec_mib_update(fep);
	if (fep->sw_stats) {
		st->ipackets = t.rx_pkts;
		st->ibytes = t.rx_bytes;
		/* Put on the ring, less what the MAC reported it could not send. */
		st->opackets = t.tx_pkts - RTE_MIN(t.tx_pkts, t.tx_errs);
		st->obytes = t.tx_bytes - RTE_MIN(t.tx_bytes, t.tx_err_bytes);
	} else {
		/* A BD length the driver refused: a good frame for the MAC, not received. */
		st->ipackets =
			fep->mib[FEC_MIB_ieee_r_frame_ok] -
			RTE_MIN(fep->mib[FEC_MIB_ieee_r_frame_ok], t.err[FEC_RX_ERR_BAD_LEN]);
		st->ibytes = fep->mib[FEC_MIB_ieee_r_octets_ok] - RTE_ETHER_CRC_LEN * st->ipackets;
		/* The MAC received them, but a stopped queue or a restart dropped them: missed. */
		if (st->ipackets >= t.stop_discards + t.restart_discards) {
			st->ipackets -= t.stop_discards + t.restart_discards;
			st->ibytes -=
				RTE_MIN(st->ibytes, t.stop_discard_bytes + t.restart_discard_bytes);
		}
		st->opackets = fep->mib[FEC_MIB_ieee_t_frame_ok];
		st->obytes = fep->mib[FEC_MIB_ieee_t_octets_ok] - RTE_ETHER_CRC_LEN * st->opackets;
	}
	/* Frames a queue stop discarded are missed (RX) or not sent (TX). */
	st->imissed = fep->mib[FEC_MIB_ieee_r_macerr] + fep->mib[FEC_MIB_ieee_r_drop] +
		      t.stop_discards + t.restart_discards;
	st->ierrors = t.ierrors;
	/* The MAC's TX errors: from its MIB, or (stats=sw) as the BDs reported them. */
	st->oerrors =
		(fep->sw_stats ? t.tx_errs
			       : fep->mib[FEC_MIB_ieee_t_macerr] + fep->mib[FEC_MIB_ieee_t_lcol] +
					 fep->mib[FEC_MIB_ieee_t_excol]) +
		t.stop_drops + t.restart_drops;
	rte_spinlock_unlock(&fep->mib_lock);
	/* Per queue: the driver's counts (the MIB does not know rings). */
	for (q = 0; q < dev->data->nb_rx_queues && q < RTE_ETHDEV_QUEUE_STAT_CNTRS; q++) {
		const struct fec_rxq *rxq = fec_rxq_at(dev, q);

		if (rxq == NULL)
			continue;
		st->q_ipackets[q] = rxq->sw_pkts;
		st->q_ibytes[q] = rxq->sw_bytes;
		st->q_errors[q] = rxq->ierrors;
	}
	for (q = 0; q < dev->data->nb_tx_queues && q < RTE_ETHDEV_QUEUE_STAT_CNTRS; q++) {
		const struct fec_txq *txq = fec_txq_at(dev, q);

		if (txq == NULL)
			continue;
		st->q_opackets[q] = txq->sw_pkts;
		st->q_obytes[q] = txq->sw_bytes;
	}
	return 0;
}

static int
fec_stats_reset(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	uint16_t q;

	rte_spinlock_lock(&fep->mib_lock);
	fec_mib_update(fep);
	memset(fep->mib, 0, sizeof(fep->mib));
	rte_spinlock_unlock(&fep->mib_lock);
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		struct fec_rxq *rxq = fec_rxq_at(dev, q);

		if (rxq == NULL)
			continue;
		rxq->ierrors = 0;
		rxq->sw_pkts = 0;
		rxq->sw_bytes = 0;
		rxq->stop_discards = 0;
		rxq->stop_discard_bytes = 0;
		rxq->restart_discards = 0;
		rxq->restart_discard_bytes = 0;
		memset(rxq->err, 0, sizeof(rxq->err));
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		struct fec_txq *txq = fec_txq_at(dev, q);

		if (txq == NULL)
			continue;
		txq->sw_pkts = 0;
		txq->sw_bytes = 0;
		txq->stop_drops = 0;
		txq->restart_drops = 0;
		memset(txq->err, 0, sizeof(txq->err));
		txq->err_bytes = 0;
	}
	memset(fep->restarts, 0, sizeof(fep->restarts));
	memset(fep->events, 0, sizeof(fep->events));
	fep->rx_rearms = 0;
	fep->mdio_timeouts = 0;
	fep->gra_timeouts = 0;
	dev->data->rx_mbuf_alloc_failed = 0;
	return 0;
}

/*
 * After the MIB: the driver's own counts, the ones to compare with a MAC that
 * has no MIB (QEMU's ENET reads 0 there).
 */
static const char *const fec_sw_names[] = {"rx_sw_packets", "rx_sw_bytes", "tx_sw_packets",
	"tx_sw_bytes", "rx_queue_stop_discards", "tx_queue_stop_drops",
	/* Faults (fec_watchdog.c): what the restarts threw away, re-arms, MDIO, graceful stops. */
	"rx_restart_discards", "tx_restart_drops", "rx_rdar_rearms", "mdio_timeouts",
	"gra_timeouts",
#define X(k, name, bits) name,
	FEC_RX_ERR_TABLE(X)
#undef X
#define X(k, name) name,
		FEC_RESTART_TABLE(X)
#undef X
#define X(k, name, bit) name,
			FEC_EVENT_TABLE(X)
#undef X
#define X(k, name, bits) name,
				FEC_TX_ERR_TABLE(X)
#undef X
};
#define FEC_XSTATS_NB       (FEC_MIB_NB + RTE_DIM(fec_sw_names))
#define FEC_XSTATS_SW_FIXED 11
_Static_assert(RTE_DIM(fec_sw_names) == FEC_XSTATS_SW_FIXED + FEC_RX_ERR_NB + FEC_RESTART_NB +
						FEC_EVENT_NB + FEC_TX_ERR_NB,
	"fixed driver counts, then the RX error, restart, event and TX error tables");

static int
fec_xstats_get_names(struct rte_eth_dev *dev, struct rte_eth_xstat_name *names, unsigned int n)
{
	unsigned int i;

	RTE_SET_USED(dev);
	if (names == NULL || n < FEC_XSTATS_NB)
		return FEC_XSTATS_NB;
	for (i = 0; i < FEC_MIB_NB; i++)
		snprintf(names[i].name, sizeof(names[i].name), "%s", fec_mib_names[i]);
	for (i = 0; i < RTE_DIM(fec_sw_names); i++)
		snprintf(names[FEC_MIB_NB + i].name, sizeof(names[0].name), "%s", fec_sw_names[i]);
	return FEC_XSTATS_NB;
}

static int
fec_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs, unsigned int n)
{
	struct fec_priv *fep = dev->data->dev_private;
	struct fec_sums t;
	unsigned int i;

	if (xs == NULL || n < FEC_XSTATS_NB)
		return FEC_XSTATS_NB;
	fec_sums_get(dev, &t);
	rte_spinlock_lock(&fep->mib_lock);
	fec_mib_update(fep);
	for (i = 0; i < FEC_MIB_NB; i++) {
		xs[i].id = i;
		xs[i].value = fep->mib[i];
	}
	rte_spinlock_unlock(&fep->mib_lock);
	/* The driver's counts: all queues together. */
	xs[FEC_MIB_NB].value = t.rx_pkts;
	xs[FEC_MIB_NB + 1].value = t.rx_bytes;
	xs[FEC_MIB_NB + 2].value = t.tx_pkts;
	xs[FEC_MIB_NB + 3].value = t.tx_bytes;
	xs[FEC_MIB_NB + 4].value = t.stop_discards;
	xs[FEC_MIB_NB + 5].value = t.stop_drops;
	xs[FEC_MIB_NB + 6].value = t.restart_discards;
	xs[FEC_MIB_NB + 7].value = t.restart_drops;
	xs[FEC_MIB_NB + 8].value = fep->rx_rearms;
	xs[FEC_MIB_NB + 9].value = fep->mdio_timeouts;
	xs[FEC_MIB_NB + 10].value = fep->gra_timeouts;
	for (i = 0; i < FEC_RX_ERR_NB; i++)
		xs[FEC_MIB_NB + FEC_XSTATS_SW_FIXED + i].value = t.err[i];
	for (i = 0; i < FEC_RESTART_NB; i++)
		xs[FEC_MIB_NB + FEC_XSTATS_SW_FIXED + FEC_RX_ERR_NB + i].value =
			__atomic_load_n(&fep->restarts[i], __ATOMIC_ACQUIRE);
	for (i = 0; i < FEC_EVENT_NB; i++)
		xs[FEC_MIB_NB + FEC_XSTATS_SW_FIXED + FEC_RX_ERR_NB + FEC_RESTART_NB + i].value =
			__atomic_load_n(&fep->events[i], __ATOMIC_ACQUIRE);
	for (i = 0; i < FEC_TX_ERR_NB; i++)
		xs[FEC_MIB_NB + FEC_XSTATS_SW_FIXED + FEC_RX_ERR_NB + FEC_RESTART_NB +
			FEC_EVENT_NB + i]
			.value = t.tx_err[i];
	for (i = FEC_MIB_NB; i < FEC_XSTATS_NB; i++)
		xs[i].id = i;
	return FEC_XSTATS_NB;
}

static const struct eth_dev_ops fec_ops = {
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

static int
copy_arg(const char *key, const char *value, void *opaque)
{
	struct fec_args *a = opaque;
	char *dst;
	size_t len;

	if (strcmp(key, FEC_ARG_MIB_MS) == 0 || strcmp(key, FEC_ARG_LSC_MS) == 0 ||
		strcmp(key, FEC_ARG_TX_TMO) == 0 || strcmp(key, FEC_ARG_WD_MS) == 0) {
		char *end;
		unsigned long v = strtoul(value, &end, 0);

		if (*value == '\0' || *end != '\0' || v == 0 || v > FEC_MIB_PERIOD_MAX_MS)
			return -EINVAL;
		if (strcmp(key, FEC_ARG_MIB_MS) == 0)
			a->mib_period_ms = (unsigned int)v;
		else if (strcmp(key, FEC_ARG_LSC_MS) == 0)
			a->lsc_period_ms = (unsigned int)v;
		else if (strcmp(key, FEC_ARG_TX_TMO) == 0)
			a->tx_timeout_ms = (unsigned int)v;
		else
			a->wd_period_ms = (unsigned int)v;
		return 0;
	}
	if (strcmp(key, FEC_ARG_ITR_CLK) == 0) {
		char *end;
		unsigned long v = strtoul(value, &end, 10);

		if (*value == '\0' || *end != '\0' || v == 0 || v > 1000)
			return -EINVAL;
		a->itr_clk_mhz = (unsigned int)v;
		return 0;
	}
	if (strcmp(key, FEC_ARG_PTP_CLK) == 0) {
		char *end;

		a->ptp_clk_mhz = strtoul(value, &end, 10);
		return *value == '\0' || *end != '\0' ? -EINVAL : 0;
	}
	if (strcmp(key, FEC_ARG_PHY) == 0 || strcmp(key, FEC_ARG_SHIFT16) == 0 ||
		strcmp(key, FEC_ARG_FOLLOW) == 0) {
		char *end;
		unsigned long v = strtoul(value, &end, 0);

		if (*value == '\0' || *end != '\0' || v > 31)
			return -EINVAL;
		if (strcmp(key, FEC_ARG_PHY) == 0) {
			a->phy_addr = (unsigned int)v;
			a->phy_set = true;
		} else if (strcmp(key, FEC_ARG_FOLLOW) == 0) {
			a->pcap_follow = (unsigned int)v;
		} else {
			a->shift16 = (unsigned int)v;
		}
		return 0;
	}
	if (strcmp(key, FEC_ARG_BACKEND) == 0) {
		dst = a->backend;
		len = sizeof(a->backend);
	} else if (strcmp(key, FEC_ARG_BD) == 0) {
		dst = a->bd;
		len = sizeof(a->bd);
	} else if (strcmp(key, FEC_ARG_PROFILE) == 0 || strcmp(key, FEC_ARG_SOC) == 0) {
		/* profile= is the older name of soc=. */
		dst = a->profile;
		len = sizeof(a->profile);
	} else if (strcmp(key, FEC_ARG_MODE) == 0) {
		dst = a->mode;
		len = sizeof(a->mode);
	} else if (strcmp(key, FEC_ARG_WIRE) == 0) {
		dst = a->wire;
		len = sizeof(a->wire);
	} else if (strcmp(key, FEC_ARG_STATS) == 0) {
		dst = a->stats;
		len = sizeof(a->stats);
	} else if (strcmp(key, FEC_ARG_RCMR) == 0) {
		dst = a->rcmr;
		len = sizeof(a->rcmr);
	} else if (strcmp(key, FEC_ARG_INTR) == 0) {
		dst = a->intr;
		len = sizeof(a->intr);
	} else if (strcmp(key, FEC_ARG_COAL) == 0) {
		dst = a->coal;
		len = sizeof(a->coal);
	} else {
		dst = a->uio_name;
		len = sizeof(a->uio_name);
	}
	if (strlen(value) >= len)
		return -EINVAL;
	snprintf(dst, len, "%s", value);
	return 0;
}

static int
parse_args(struct rte_vdev_device *vdev, struct fec_args *a)
{
	const char *params = rte_vdev_device_args(vdev);
	struct rte_kvargs *kv;
	int ret;

	memset(a, 0, sizeof(*a));
	snprintf(a->backend, sizeof(a->backend), "model");
	snprintf(a->bd, sizeof(a->bd), "enhanced");
	snprintf(a->profile, sizeof(a->profile), "imx8mm");
	snprintf(a->mode, sizeof(a->mode), "step");
	snprintf(a->wire, sizeof(a->wire), "script");
	snprintf(a->stats, sizeof(a->stats), "mib");
	a->shift16 = 1;
	a->mib_period_ms = FEC_MIB_PERIOD_MS;
	a->lsc_period_ms = FEC_LSC_PERIOD_MS;
	a->tx_timeout_ms = FEC_TX_TIMEOUT_MS;
	a->wd_period_ms = FEC_WD_PERIOD_MS;
	a->itr_clk_mhz = FEC_ITR_CLK_MHZ;
	a->ptp_clk_mhz = FEC_PTP_CLK_MHZ;
	if (params == NULL || params[0] == '\0')
		return 0;
	kv = rte_kvargs_parse(params, fec_valid_args);
	if (kv == NULL)
		return -EINVAL;
	ret = rte_kvargs_process(kv, NULL, copy_arg, a);
	rte_kvargs_free(kv);
	if (ret < 0)
		return -EINVAL;
	if ((strcmp(a->backend, "model") != 0 && strcmp(a->backend, "uio") != 0) ||
		(strcmp(a->bd, "legacy") != 0 && strcmp(a->bd, "enhanced") != 0) ||
		fec_soc_find(a->profile) == NULL ||
		(strcmp(a->mode, "step") != 0 && strcmp(a->mode, "autostep") != 0 &&
			strcmp(a->mode, "thread") != 0) ||
		(strcmp(a->wire, "script") != 0 && strcmp(a->wire, "loop") != 0 &&
			strncmp(a->wire, "ring:", 5) != 0 && strncmp(a->wire, "pcap:", 5) != 0) ||
		(strncmp(a->wire, "ring:", 5) == 0 && a->wire[5] == '\0') || a->shift16 > 1 ||
		a->pcap_follow > 1 || (a->pcap_follow && strncmp(a->wire, "pcap:", 5) != 0) ||
		(strcmp(a->stats, "mib") != 0 && strcmp(a->stats, "sw") != 0))
		return -EINVAL;
	/* RX interrupts: the model's lines, or one UIO IRQ (the only kind on UIO). */
	if (a->intr[0] == '\0')
		snprintf(a->intr, sizeof(a->intr), "%s",
			strcmp(a->backend, "uio") == 0 ? "uio" : "lines");
	if (strcmp(a->intr, "uio") != 0 &&
		(strcmp(a->intr, "lines") != 0 || strcmp(a->backend, "uio") == 0))
		return -EINVAL;
	return 0;
}

/*
 * wire=pcap:[IN,OUT]: the brackets keep the comma inside one kvargs value.
 * Either file may be left empty (receive-only or transmit-only cable).
 */
static int
wire_pcap(struct fec_model *model, const char *spec)
{
	char buf[sizeof(((struct fec_args *)0)->wire)];
	size_t len = strlen(spec);
	char *comma;

	if (len < 3 || spec[0] != '[' || spec[len - 1] != ']')
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%.*s", (int)(len - 2), spec + 1);
	comma = strchr(buf, ',');
	if (comma == NULL)
		return -EINVAL;
	*comma = '\0';
	return fec_model_set_wire_pcap(model, buf, comma + 1);
}

static int
backend_model(struct fec_priv *fep, const struct fec_args *a)
{
	struct fec_model_cfg cfg = {
		.profile = a->profile,
		.phy_addr = a->phy_addr,
		.autostep = strcmp(a->mode, "autostep") == 0,
		.check = 1,
		.itr_clk_mhz = a->itr_clk_mhz,
	};
	int ret = 0;

	fep->model = fec_model_create(fep->name, &cfg);
	if (fep->model == NULL)
		return -rte_errno;
	fep->regs = fec_model_regs(fep->model);
	fep->bd_va = fec_model_bd_area(fep->model, &fep->bd_bus, &fep->bd_len);
	if (strcmp(a->wire, "loop") == 0)
		fec_model_set_wire_loop(fep->model, 1);
	else if (strncmp(a->wire, "ring:", 5) == 0)
		ret = fec_model_set_wire_ring(fep->model, a->wire + 5);
	else if (strncmp(a->wire, "pcap:", 5) == 0)
		ret = wire_pcap(fep->model, a->wire + 5);
	if (ret == 0 && a->pcap_follow)
		fec_model_set_wire_pcap_follow(fep->model, 1);
	if (ret < 0)
		FEC_LOG(ERR, "%s: wire '%s': %s", fep->name, a->wire, strerror(-ret));
	if (ret == 0 && strcmp(a->mode, "thread") == 0)
		ret = fec_model_thread_start(fep->model);
	if (ret < 0) {
		fec_model_free(fep->model);
		fep->model = NULL;
	}
	return ret;
}

/*
 * The PHY on the MAC's MDIO bus: the given address, else the first one that
 * answers with an ID (QEMU's EVK has it at 1, boards anywhere). Then make sure
 * it negotiates: out of power-down/isolation, autonegotiation on, as phylib's
 * genphy start does. Link state is read from it by link_update.
 */
static void
phy_bringup(struct fec_priv *fep, bool given)
{
	unsigned int addr;
	int id = -1, bmcr;

	for (addr = given ? fep->phy_addr : 0; addr < 32; addr++) {
		fep->phy_addr = addr;
		id = fec_mdio_read(fep, FEC_PHY_ID1);
		if ((id >= 0 && id != 0xFFFF && id != 0) || given)
			break;
	}
	if (addr == 32 || id < 0 || id == 0xFFFF) {
		fep->phy_addr = given ? fep->phy_addr : 0;
		FEC_LOG(WARNING, "%s: no PHY %s%u on MDIO", fep->name,
			given ? "at address " : "up to ", given ? fep->phy_addr : 31u);
		return;
	}
	bmcr = fec_mdio_read(fep, FEC_PHY_BMCR);
	if (bmcr >= 0 && ((bmcr & (FEC_BMCR_PDOWN | FEC_BMCR_ISO)) || !(bmcr & FEC_BMCR_ANENA)))
		fec_mdio_write(fep, FEC_PHY_BMCR,
			(uint16_t)((bmcr & ~(FEC_BMCR_PDOWN | FEC_BMCR_ISO)) | FEC_BMCR_ANENA |
				   FEC_BMCR_ANRST));
	FEC_LOG(INFO, "%s: PHY %04x:%04x at MDIO address %u", fep->name, (unsigned int)id,
		(unsigned int)fec_mdio_read(fep, FEC_PHY_ID2) & 0xFFFF, fep->phy_addr);
}

static int
fec_probe(struct rte_vdev_device *vdev)
{
	static const uint8_t def_mac[6] = {0x02, 0x00, 0x00, 0xFE, 0xC0, 0x00};
	const char *name = rte_vdev_device_name(vdev);
	struct rte_eth_dev *dev;
	struct fec_priv *fep;
	struct fec_args a;
	unsigned int i;
	uint32_t inc;
	int ret;

	ret = parse_args(vdev, &a);
	if (ret < 0) {
		FEC_LOG(ERR, "%s: bad devargs '%s'", name, rte_vdev_device_args(vdev));
		return ret;
	}
	dev = rte_eth_vdev_allocate(vdev, sizeof(*fep));
	if (dev == NULL)
		return -ENOMEM;
	fep = dev->data->dev_private;
	snprintf(fep->name, sizeof(fep->name), "%s", name);
	fep->uio_fd = -1;
	fep->intr_uio_fd = -1;
	fep->intr_uio = strcmp(a.intr, "uio") == 0;
	fep->ex = strcmp(a.bd, "enhanced") == 0;
	fep->soc = fec_soc_find(a.profile);
	fep->nb_rings = fep->soc->nb_queues > 1 ? FEC_MAX_RINGS : 1;
	if (a.rcmr[0] != '\0' && (fep->nb_rings == 1 || fec_rcmr_parse(a.rcmr, fep->rcmr,
								&fep->rcmr_ring_max) < 0)) {
		FEC_LOG(ERR,
			"%s: rcmr='%s': want RING:PCP[-PCP] entries, [a,b] for several, rings 1-2, "
			"at most 4 PCPs a ring, none on both (and a 3-ring SoC: %s has %u)",
			name, a.rcmr, a.profile, fep->nb_rings);
		ret = -EINVAL;
		goto fail;
	}
	if (a.coal[0] != '\0') {
		if (!(fep->soc->quirks & FEC_QUIRK_HAS_COALESCE)) {
			FEC_LOG(ERR, "%s: rx_coalesce: soc %s has no RXIC (no HAS_COALESCE quirk)",
				name, a.profile);
			ret = -EINVAL;
			goto fail;
		}
		ret = fec_coalesce_parse(name, a.coal, a.itr_clk_mhz, &fep->rxic);
		if (ret < 0)
			goto fail;
	}
	ret = fec_ptp_clk_parse(name, a.ptp_clk_mhz, &inc);
	if (ret < 0)
		goto fail;
	fec_ptp_init(fep, inc);
	fep->err007885 = (fep->soc->quirks & FEC_QUIRK_ERR007885) != 0;
	fep->err006358 = (fep->soc->quirks & FEC_QUIRK_ERR006358) != 0;
	fep->hard_reset = fec_soc_hard_reset(fep->soc);
	fep->shift16 = a.shift16;
	fep->sw_stats = strcmp(a.stats, "sw") == 0;
	fep->phy_addr = a.phy_addr;
	fep->mib_period_ms = a.mib_period_ms;
	fep->lsc_period_ms = a.lsc_period_ms;
	fep->wd_period_ms = a.wd_period_ms;
	fep->tx_timeout_cycles = a.tx_timeout_ms * rte_get_timer_hz() / 1000;
	rte_spinlock_init(&fep->mib_lock);
	rte_spinlock_init(&fep->restart_lock);
	rte_spinlock_init(&fep->mdio_lock);
	rte_spinlock_init(&fep->eimr_lock);
	fec_fc_init(fep);
	/* MDC = 66 MHz ipg / ((13 + 1) * 2) < 2.5 MHz, hold time 1 cycle. */
	fep->mscr = (13u << 1) | (1u << 8);
	if (strcmp(a.backend, "model") == 0) {
		fep->backend = FEC_BACKEND_MODEL;
		ret = backend_model(fep, &a);
	} else {
		fep->backend = FEC_BACKEND_UIO;
		ret = fec_uio_map(fep, a.uio_name);
	}
	if (ret < 0)
		goto fail;
	fep->bd_slice = fec_bd_slice_size(fep->bd_len);
	dev->data->mac_addrs = rte_zmalloc("fec_mac", RTE_ETHER_ADDR_LEN, 0);
	if (dev->data->mac_addrs == NULL) {
		ret = -ENOMEM;
		goto fail_backend;
	}
	memcpy(dev->data->mac_addrs[0].addr_bytes, def_mac, sizeof(def_mac));
	dev->data->mac_addrs[0].addr_bytes[5] = (uint8_t)dev->data->port_id;
	/* Probe-time reset; the MDC clock is needed for the PHY. */
	fec_wr32(fep, FEC_ECR, FEC_ECR_RESET);
	/* What the MAC holds after a reset: model vs QEMU vs silicon (docs/fec_pmd.md). */
	FEC_LOG(DEBUG,
		"%s: after reset ECR %#x RCR %#x TCR %#x MIBC %#x OPD %#x PAUR %#x FTRL %#x "
		"MRBR %#x RDAR %#x EIMR %#x",
		name, fec_rd32(fep, FEC_ECR), fec_rd32(fep, FEC_RCR), fec_rd32(fep, FEC_TCR),
		fec_rd32(fep, FEC_MIBC), fec_rd32(fep, FEC_OPD), fec_rd32(fep, FEC_PAUR),
		fec_rd32(fep, FEC_FTRL), fec_rd32(fep, FEC_MRBR), fec_rd32(fep, FEC_RDAR),
		fec_rd32(fep, FEC_EIMR));
	fec_wr32(fep, FEC_MSCR, fep->mscr);
	phy_bringup(fep, a.phy_set);
	/* Counters start from what the hardware holds now. */
	fec_mib_update(fep);
	for (i = 0; i < FEC_MIB_NB; i++)
		fep->mib[i] = 0;
	dev->dev_ops = &fec_ops;
	/* Link events come from polling the PHY (fec_lsc.c). */
	dev->data->dev_flags |= RTE_ETH_DEV_INTR_LSC;
	dev->rx_pkt_burst = fec_rx_burst;
	dev->tx_pkt_burst = fec_tx_burst;
	dev->tx_pkt_prepare = fec_tx_prepare;
	dev->rx_descriptor_status = fec_rx_descriptor_status;
	dev->tx_descriptor_status = fec_tx_descriptor_status;
	rte_eth_dev_probing_finish(dev);
	FEC_LOG(INFO, "%s: backend %s, %s BDs, profile %s", name, a.backend, a.bd, a.profile);
	return 0;
fail_backend:
	if (fep->model != NULL)
		fec_model_free(fep->model);
	else
		fec_uio_unmap(fep);
fail:
	rte_eth_dev_release_port(dev);
	return ret;
}

static int
fec_remove(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *dev = rte_eth_dev_allocated(rte_vdev_device_name(vdev));

	if (dev == NULL)
		return 0;
	return rte_eth_dev_close(dev->data->port_id);
}

static struct rte_vdev_driver fec_vdev_drv = {
	.probe = fec_probe,
	.remove = fec_remove,
};

RTE_PMD_REGISTER_VDEV(net_fec, fec_vdev_drv);
RTE_PMD_REGISTER_PARAM_STRING(net_fec,
	"backend=model|uio bd=legacy|enhanced "
	"soc=imx6q|imx6sx|imx6ul|imx8mq|imx8mm|imx8mp mode=step|autostep|thread "
	"wire=script|loop|ring:<name>|pcap:[<in>,<out>] "
	"phy_addr=<0-31> "
	"uio_name=<name> shift16=0|1 mib_period_ms=<1-30000> "
	"stats=mib|sw lsc_period_ms=<1-30000> tx_timeout_ms=<1-30000> watchdog_ms=<1-30000> "
	"pcap_follow=0|1 rcmr=<ring>:<pcp>[-<pcp>]|[<ring>:<pcp>[-<pcp>],...] "
	"ptp_clk_mhz=<MHz>");
