/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * tx_prepare: what the ENET's checksum insertion needs from software. The MAC
 * finds the headers itself (Ethernet II, at most one 802.1Q tag, IPv4) and
 * sums the checksum fields as it finds them, so they must be zero (the
 * reference manual's "the checksum field must be cleared"; Linux's
 * fec_enet_clear_csum). Not rte_net_intel_cksum_prepare: that writes the
 * pseudo-header sum into the L4 field, which this MAC would add again.
 */

#include <errno.h>
#include <netinet/in.h>

#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "fec_tx.h"

/* Flags that only describe the frame (IPV4/IPV6) or ask for what the MAC does. */
#define FEC_TX_OL_OK \
	(RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IPV6 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_L4_MASK)

/* 0, or the -errno saying why the MAC cannot insert what @p m asks for. */
static int
tx_csum_prepare(struct rte_mbuf *m, uint64_t ol)
{
	uint64_t l4 = ol & RTE_MBUF_F_TX_L4_MASK;
	uint32_t l2 = m->l2_len, l3 = m->l3_len, hl, need;
	const uint8_t *eh = rte_pktmbuf_mtod(m, const uint8_t *);
	struct rte_ipv4_hdr *ip;

	/* Tunnels, TSO, VLAN insertion, timestamps, SCTP, outer checksums. */
	if ((ol & RTE_MBUF_F_TX_OFFLOAD_MASK & ~FEC_TX_OL_OK) != 0 ||
		l4 == RTE_MBUF_F_TX_SCTP_CKSUM)
		return -ENOTSUP;
	if (!(ol & (RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_L4_MASK)))
		return 0;
	/* Linux's NETIF_F_IP_CSUM: TCP/UDP over IPv4 only, no IPv6 insertion. */
	if (ol & RTE_MBUF_F_TX_IPV6)
		return -ENOTSUP;
	if (!(ol & RTE_MBUF_F_TX_IPV4))
		return -EINVAL;
	need = l4 == RTE_MBUF_F_TX_UDP_CKSUM   ? sizeof(struct rte_udp_hdr)
	       : l4 == RTE_MBUF_F_TX_TCP_CKSUM ? sizeof(struct rte_tcp_hdr)
					       : 0;
	/* The headers are written here: they must be in the first segment. */
	if (l3 < sizeof(*ip) || m->data_len < l2 + l3 + need)
		return -EINVAL;
	/* Where the MAC looks: after one 802.1Q tag at most (no QinQ, no LLC). */
	if (l2 == RTE_ETHER_HDR_LEN) {
		if (eh[12] != 0x08 || eh[13] != 0x00)
			return -ENOTSUP;
	} else if (l2 == RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN) {
		if (eh[12] != 0x81 || eh[13] != 0x00 || eh[16] != 0x08 || eh[17] != 0x00)
			return -ENOTSUP;
	} else {
		return -ENOTSUP;
	}
	ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, l2);
	hl = (uint32_t)(ip->version_ihl & 0xF) * 4u;
	if ((ip->version_ihl >> 4) != 4 || hl != l3 ||
		l2 + rte_be_to_cpu_16(ip->total_length) > m->pkt_len ||
		rte_be_to_cpu_16(ip->total_length) < l3 + need)
		return -EINVAL;
	if (l4 != 0) {
		uint8_t proto = l4 == RTE_MBUF_F_TX_UDP_CKSUM ? IPPROTO_UDP : IPPROTO_TCP;

		if (ip->next_proto_id != proto)
			return -EINVAL;
		/* The MAC would sum a fragment as if it were the whole datagram. */
		if (rte_be_to_cpu_16(ip->fragment_offset) &
			(RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK))
			return -ENOTSUP;
		if (proto == IPPROTO_UDP)
			((struct rte_udp_hdr *)((uint8_t *)ip + l3))->dgram_cksum = 0;
		else
			((struct rte_tcp_hdr *)((uint8_t *)ip + l3))->cksum = 0;
	}
	if (ol & RTE_MBUF_F_TX_IP_CKSUM)
		ip->hdr_checksum = 0;
	return 0;
}

uint16_t
fec_tx_prepare(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	const struct fec_txq *txq = q;
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint64_t ol = m->ol_flags & RTE_MBUF_F_TX_OFFLOAD_MASK;
		int ret;

		if (ol == 0)
			continue;
		/*
		 * Without the offload configured the burst sets no IINS/PINS
		 * (legacy BDs have no such bits): zeroed fields would go out.
		 */
		if (!txq->csum && (ol & (RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_L4_MASK))) {
			rte_errno = ENOTSUP;
			break;
		}
		ret = tx_csum_prepare(m, ol);
		if (ret != 0) {
			rte_errno = -ret;
			break;
		}
	}
	return i;
}
