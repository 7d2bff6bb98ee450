/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * RX timestamps, control: RTE_ETH_RX_OFFLOAD_TIMESTAMP (enhanced BDs only)
 * registers the timestamp dynamic field and flag at dev_start and keeps the
 * 1588 counter running while started; with it, or with timesync on, the RX
 * burst is fec_rx_burst_ts (fec_rxtx.c), which reads each frame's ts word,
 * so that fec_rx_burst keeps no test for it. The scattered burst stamps the
 * first mbuf of a chain from the frame's last BD (fec_rx_ts_sg).
 */

#include <errno.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_mbuf_dyn.h>

#include "fec_ethdev.h"
#include "fec_rx.h"
#include "fec_rx_ts.h"

void
fec_rx_ts_sg(struct fec_rxq *rxq, struct rte_mbuf *m, uint32_t ts)
{
	struct fec_ptp_tc tc;

	fec_ptp_snapshot(&rxq->fep->ptp, &tc);
	fec_rx_ts_frame(rxq, &tc, m, ts);
}

void
fec_rx_burst_select(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	eth_rx_burst_t f = fec_rx_burst;
	uint16_t q;

	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		const struct fec_rxq *rxq = fec_rxq_at(dev, q);

		if (rxq != NULL && rxq->ts)
			f = fec_rx_burst_ts;
	}
	/* The scattered burst stamps in its own loop. */
	if (fep->scatter)
		f = fec_rx_burst_scatter;
	dev->rx_pkt_burst = f;
	/*
	 * ethdev copied the function into rte_eth_fp_ops at dev_start; an lcore
	 * in a burst finishes it with the old one (a frame it takes is then not
	 * stamped: the switch takes effect between bursts).
	 */
	if (dev->data->dev_started)
		__atomic_store_n(
			&rte_eth_fp_ops[dev->data->port_id].rx_pkt_burst, f, __ATOMIC_RELEASE);
}

int
fec_rx_ts_configure(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	int ret;

	if (!(dev->data->dev_conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_TIMESTAMP))
		return 0;
	/* ethdev refuses the offload with legacy BDs: not advertised. */
	ret = rte_mbuf_dyn_rx_timestamp_register(&fep->ptp.rx_ts_off, &fep->ptp.rx_ts_flag);
	if (ret < 0) {
		ret = -rte_errno;
		FEC_LOG(ERR, "%s: RX timestamp dynamic field and flag not registered: %d",
			fep->name, ret);
		return ret;
	}
	return 0;
}

void
fec_rx_ts_conf(struct rte_eth_dev *dev)
{
	const struct fec_priv *fep = dev->data->dev_private;
	uint16_t q;

	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		struct fec_rxq *rxq = fec_rxq_at(dev, q);

		if (rxq == NULL)
			continue;
		rxq->ts_ptp = fep->ex && fep->ptp.timesync;
		rxq->ts = rxq->ts_dyn || rxq->ts_ptp;
	}
	fec_rx_burst_select(dev);
}

void
fec_rx_ts_start(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	bool any = false;
	uint16_t q;

	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		struct fec_rxq *rxq = fec_rxq_at(dev, q);

		/* Registered at configure (fec_rx_ts_configure) when asked. */
		rxq->ts_dyn = fep->ex && fep->ptp.rx_ts_off >= 0 &&
			      ((dev->data->dev_conf.rxmode.offloads | rxq->queue_offloads) &
				      RTE_ETH_RX_OFFLOAD_TIMESTAMP) != 0;
		rxq->ts_off = fep->ptp.rx_ts_off;
		rxq->ts_flag = fep->ptp.rx_ts_flag;
		any |= rxq->ts_dyn;
	}
	if (any && fec_ptp_clock_get(fep, FEC_PTP_USER_RX_TS) < 0)
		FEC_LOG(WARNING, "%s: no 1588 reading alarm: RX timestamps wrong after %u s",
			fep->name, FEC_PTP_PERIOD / 2 / 1000000000u);
	fec_rx_ts_conf(dev);
}

void
fec_rx_ts_stop(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;

	fec_ptp_clock_put(fep, FEC_PTP_USER_RX_TS);
}
