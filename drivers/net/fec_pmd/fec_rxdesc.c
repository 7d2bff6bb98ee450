/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * What the RX burst takes from the enhanced descriptor, and when: checksum
 * flags (RX checksum offloads), VLAN flag/strip, packet types; the ops that
 * switch them (dev_supported_ptypes_get, dev_ptypes_set, vlan_offload_set).
 */

#include <errno.h>

#include "fec_ethdev.h"

void
fec_rxq_desc_conf(const struct rte_eth_dev *dev, struct fec_rxq *rxq, uint64_t offloads)
{
	const struct fec_priv *fep = dev->data->dev_private;

	/* Checksum status, the VLAN bit and the prot word exist only in the enhanced BD. */
	rxq->csum = fep->ex && (offloads & FEC_RX_CSUM_OFFLOADS) != 0;
	rxq->vlan_strip = fep->ex && (offloads & RTE_ETH_RX_OFFLOAD_VLAN_STRIP) != 0;
	rxq->ptype = fep->ex && !fep->ptype_off;
	rxq->desc = rxq->csum || rxq->vlan_strip || rxq->ptype;
}

const uint32_t *
fec_supported_ptypes(struct rte_eth_dev *dev)
{
	/*
	 * IPv4 "EXT_UNKNOWN": the prot word's header length covers IP and L4
	 * headers together, so options cannot be told for TCP; IPv6 likewise,
	 * the MAC does not walk extension headers (RM?).
	 */
	static const uint32_t ex[] = {RTE_PTYPE_L2_ETHER, RTE_PTYPE_L2_ETHER_VLAN,
		RTE_PTYPE_L3_IPV4_EXT_UNKNOWN, RTE_PTYPE_L3_IPV6_EXT_UNKNOWN, RTE_PTYPE_L4_TCP,
		RTE_PTYPE_L4_UDP, RTE_PTYPE_L4_FRAG, RTE_PTYPE_UNKNOWN};
	static const uint32_t legacy[] = {RTE_PTYPE_L2_ETHER, RTE_PTYPE_UNKNOWN};
	const struct fec_priv *fep = dev->data->dev_private;

	return fep->ex ? ex : legacy;
}

/* Every configured RX queue again from the device's state. */
static void
rxqs_conf(struct rte_eth_dev *dev)
{
	uint16_t q;

	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		struct fec_rxq *rxq = fec_rxq_at(dev, q);

		if (rxq != NULL)
			fec_rxq_desc_conf(dev, rxq,
				dev->data->dev_conf.rxmode.offloads | rxq->queue_offloads);
	}
}

int
fec_ptypes_set(struct rte_eth_dev *dev, uint32_t mask)
{
	struct fec_priv *fep = dev->data->dev_private;

	fep->ptype_off = mask == RTE_PTYPE_UNKNOWN;
	rxqs_conf(dev);
	return 0;
}

int
fec_vlan_offload_set(struct rte_eth_dev *dev, int mask)
{
	const struct fec_priv *fep = dev->data->dev_private;
	uint64_t off = dev->data->dev_conf.rxmode.offloads;

	/* No VLAN filter, QinQ or extend in the MAC; strip only with enhanced BDs. */
	if ((mask & ~RTE_ETH_VLAN_STRIP_MASK) != 0 ||
		((off & RTE_ETH_RX_OFFLOAD_VLAN_STRIP) && !fep->ex))
		return -ENOTSUP;
	rxqs_conf(dev);
	return 0;
}
