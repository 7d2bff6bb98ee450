/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * What the RX burst takes from the enhanced descriptor, and when: checksum
 * flags (RX checksum offloads), VLAN flag/strip, packet types; the ops that
 * switch them (dev_supported_ptypes_get, dev_ptypes_set, vlan_offload_set).
 */

#include <errno.h>
#include <netinet/in.h>

#include "fec_rx.h"

uint32_t fec_rx_desc_tab[FEC_RX_DESC_TAB];
uint8_t fec_rx_proto_cls[256] = {[IPPROTO_TCP] = 1u << 6, [IPPROTO_UDP] = 2u << 6};

_Static_assert(RTE_PTYPE_L2_MASK == 0xF && RTE_PTYPE_L3_MASK == 0xF0 &&
		       RTE_PTYPE_L4_MASK == 0xF00 &&
		       ((RTE_MBUF_F_RX_IP_CKSUM_MASK | RTE_MBUF_F_RX_L4_CKSUM_MASK) >> 20) == 0 &&
		       FEC_BD_EX_RX_FRAG == 1 && FEC_BD_EX_RX_IPV6 == 2 && FEC_BD_EX_RX_VLAN == 4 &&
		       FEC_BD_EX_RX_PCR == 0x10 && FEC_BD_EX_RX_ICE == 0x20,
	"packet type and checksum flags fit one table entry, the ESC bits its index");

/*
 * One entry: VLAN/IPV6/FRAG from ESC; IPv4 when the accelerator found an
 * IPv4 header (a header length, or ICE, which only an IPv4 frame gets);
 * TCP/UDP from the protocol, which the manual calls valid only when ICE is
 * clear (RM?). Checksum flags only for IPv4, the L4 one only for TCP/UDP.
 */
static uint32_t
desc_entry(unsigned int idx)
{
	uint32_t esc = idx & FEC_RX_DESC_ESC, cls = idx >> 6;
	bool hlen = (idx >> 3) & 1;
	uint32_t pt = (esc & FEC_BD_EX_RX_VLAN) ? RTE_PTYPE_L2_ETHER_VLAN : RTE_PTYPE_L2_ETHER;
	uint64_t fl = 0;

	if (esc & FEC_BD_EX_RX_IPV6)
		pt |= RTE_PTYPE_L3_IPV6_EXT_UNKNOWN;
	else if (hlen || (esc & FEC_BD_EX_RX_ICE))
		pt |= RTE_PTYPE_L3_IPV4_EXT_UNKNOWN;
	else
		return pt;
	if (esc & FEC_BD_EX_RX_FRAG)
		pt |= RTE_PTYPE_L4_FRAG;
	else if (hlen && !(esc & FEC_BD_EX_RX_ICE) && cls == 1)
		pt |= RTE_PTYPE_L4_TCP;
	else if (hlen && !(esc & FEC_BD_EX_RX_ICE) && cls == 2)
		pt |= RTE_PTYPE_L4_UDP;
	if (RTE_ETH_IS_IPV4_HDR(pt)) {
		uint32_t l4 = pt & RTE_PTYPE_L4_MASK;

		fl = (esc & FEC_BD_EX_RX_ICE) ? RTE_MBUF_F_RX_IP_CKSUM_BAD
					      : RTE_MBUF_F_RX_IP_CKSUM_GOOD;
		if (l4 == RTE_PTYPE_L4_TCP || l4 == RTE_PTYPE_L4_UDP)
			fl |= (esc & FEC_BD_EX_RX_PCR) ? RTE_MBUF_F_RX_L4_CKSUM_BAD
						       : RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	}
	return pt | (uint32_t)fl << FEC_RX_DESC_FL_SHIFT;
}

RTE_INIT(fec_rx_desc_tab_init)
{
	unsigned int i;

	for (i = 0; i < FEC_RX_DESC_TAB; i++)
		fec_rx_desc_tab[i] = desc_entry(i);
}

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
