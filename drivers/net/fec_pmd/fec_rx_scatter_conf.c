/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Control of scattered RX: whether dev_start picks fec_rx_burst_scatter, and
 * the configurations refused without it (a frame of the MTU longer than the
 * smallest RX buffer), as other PMDs refuse them.
 */

#include <errno.h>

#include "fec_rx.h"

bool
fec_rx_scatter_asked(const struct rte_eth_dev *dev)
{
	return (dev->data->dev_conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_SCATTER) != 0;
}

int
fec_rx_scatter_conf(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	uint32_t frame =
		(uint32_t)dev->data->mtu + RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN + RTE_ETHER_CRC_LEN;

	fep->scatter = fec_rx_scatter_asked(dev);
	dev->data->scattered_rx = fep->scatter;
	if (!fep->scatter && frame > fep->rx_frame_max) {
		FEC_LOG(ERR,
			"%s: MTU %u needs %u-byte frames, RX buffers hold %u: enable "
			"RTE_ETH_RX_OFFLOAD_SCATTER or use larger mbufs",
			fep->name, dev->data->mtu, frame, fep->rx_frame_max);
		return -EINVAL;
	}
	return 0;
}
