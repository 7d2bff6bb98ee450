/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_icmp.h>
#include <rte_ip.h>

#include "dpdk_compat.h"
#include "rt_icmp.h"
#include "rt_ipv4.h"

/* ICMP types that are queries or their replies, about which errors may be sent. */
static bool
icmp_is_query(uint8_t type)
{
	switch (type) {
	case 0:  /* echo reply */
	case 8:  /* echo */
	case 13: /* timestamp */
	case 14:
	case 15: /* information */
	case 16:
	case 17: /* address mask */
	case 18:
		return true;
	default:
		return false;
	}
}

bool
rt_icmp_error_allowed(const struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(eth + 1);
	unsigned int hl;
	uint32_t src, dst;

	if (rte_pktmbuf_data_len(m) < RT_MIN_FRAME)
		return false;
	hl = rte_ipv4_hdr_len(ip);
	src = rte_be_to_cpu_32(ip->src_addr);
	dst = rte_be_to_cpu_32(ip->dst_addr);
	if (rte_is_multicast_ether_addr(&eth->dst_addr) || rt_ipv4_group_dst(dst) ||
		rt_ipv4_martian_src(src))
		return false;
	if ((rte_be_to_cpu_16(ip->fragment_offset) & RTE_IPV4_HDR_OFFSET_MASK) != 0)
		return false;
	if (ip->next_proto_id == IPPROTO_ICMP) {
		const uint8_t *icmp = (const uint8_t *)ip + hl;

		/* an ICMP header we cannot see might be an error: stay silent */
		if (RT_L2_LEN + hl + 1 > rte_pktmbuf_data_len(m) || !icmp_is_query(icmp[0]))
			return false;
	}
	return true;
}

struct rte_mbuf *
rt_icmp_error_build(struct rte_mempool *pool, const struct rte_mbuf *m, uint8_t type, uint8_t code,
	uint16_t mtu, uint32_t src_ip, const struct rte_ether_addr *src_mac, uint16_t ip_id)
{
	const struct rte_ether_hdr *oeth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_ipv4_hdr *oip = (const struct rte_ipv4_hdr *)(oeth + 1);
	uint32_t avail = rte_pktmbuf_pkt_len(m) - RT_L2_LEN;
	uint32_t olen = RTE_MIN((uint32_t)rte_be_to_cpu_16(oip->total_length), avail);
	uint32_t quote = RTE_MIN(olen, (uint32_t)(RT_ICMP_ERR_MAX - 20 - 8));
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	struct rte_icmp_hdr *icmp;
	struct rte_mbuf *r;
	const void *q;
	uint32_t room;
	uint8_t *p;

	r = rte_pktmbuf_alloc(pool);
	if (r == NULL)
		return NULL;
	/* and as much as one mbuf holds (--mbuf-size), never less than the IP header and 8 bytes */
	room = rte_pktmbuf_tailroom(r);
	room = room > RT_L2_LEN + 20 + 8 ? room - (RT_L2_LEN + 20 + 8) : 0;
	if (quote > room) {
		if (room < RTE_MIN(olen, rte_ipv4_hdr_len(oip) + 8u)) {
			rte_pktmbuf_free(r);
			return NULL;
		}
		quote = room;
	}
	p = (uint8_t *)rte_pktmbuf_append(r, (uint16_t)(RT_L2_LEN + 20 + 8 + quote));
	if (p == NULL) {
		rte_pktmbuf_free(r);
		return NULL;
	}
	eth = (struct rte_ether_hdr *)p;
	rte_ether_addr_copy(&oeth->src_addr, &eth->dst_addr);
	rte_ether_addr_copy(src_mac, &eth->src_addr);
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);

	ip = (struct rte_ipv4_hdr *)(eth + 1);
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->type_of_service = 0xc0;
	ip->total_length = rte_cpu_to_be_16((uint16_t)(20 + 8 + quote));
	ip->packet_id = rte_cpu_to_be_16(ip_id);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_ICMP;
	ip->src_addr = rte_cpu_to_be_32(src_ip);
	ip->dst_addr = oip->src_addr;
	ip->hdr_checksum = rt_ipv4_cksum(ip);

	icmp = (struct rte_icmp_hdr *)(ip + 1);
	icmp->icmp_type = type;
	icmp->icmp_code = code;
	icmp->icmp_cksum = 0;
	/* unused, or RFC 1191's unused + next-hop MTU */
	icmp->icmp_ident = 0;
	icmp->icmp_seq_nb = rte_cpu_to_be_16(mtu);
	/* rte_pktmbuf_read() copies only when the data is not contiguous */
	q = rte_pktmbuf_read(m, RT_L2_LEN, quote, icmp + 1);
	if (q != NULL && q != (const void *)(icmp + 1))
		memcpy(icmp + 1, q, quote);
	icmp->icmp_cksum = (rte_be16_t)~rte_raw_cksum(icmp, 8 + quote);
	return r;
}

int
rt_icmp_echo_reply(struct rte_mbuf *m)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	unsigned int hl = rte_ipv4_hdr_len(ip);
	uint32_t len = rte_be_to_cpu_16(ip->total_length);
	struct rte_icmp_hdr *icmp;
	struct rte_ether_addr mac;
	uint16_t sum;
	rte_be32_t a;

	/* any number of segments; the headers up to the ICMP one are in the first */
	if (len < hl + 8 || RT_L2_LEN + len > rte_pktmbuf_pkt_len(m) ||
		RT_L2_LEN + hl + 8 > rte_pktmbuf_data_len(m) ||
		(rte_be_to_cpu_16(ip->fragment_offset) &
			(RTE_IPV4_HDR_OFFSET_MASK | RTE_IPV4_HDR_MF_FLAG)) != 0)
		return -EINVAL;
	icmp = (struct rte_icmp_hdr *)((uint8_t *)ip + hl);
	if (icmp->icmp_type != RTE_ICMP_TYPE_ECHO_REQUEST || icmp->icmp_code != 0 ||
		rte_raw_cksum_mbuf(m, RT_L2_LEN + hl, len - hl, &sum) != 0 || sum != 0xffff)
		return -EINVAL;

	/*
	 * Options of the request (record route...) are not echoed: the Ethernet
	 * and fixed IP headers move up over them, so the ICMP message, in as many
	 * segments as it came, stays where it is.
	 */
	if (hl > sizeof(*ip)) {
		uint16_t opt = (uint16_t)(hl - sizeof(*ip));

		memmove((uint8_t *)eth + opt, eth, RT_L2_LEN + sizeof(*ip));
		rte_pktmbuf_adj(m, opt);
		eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
		ip = (struct rte_ipv4_hdr *)(eth + 1);
		len -= opt;
		ip->version_ihl = RTE_IPV4_VHL_DEF;
		ip->total_length = rte_cpu_to_be_16((uint16_t)len);
		icmp = (struct rte_icmp_hdr *)(ip + 1);
	}
	rte_ether_addr_copy(&eth->src_addr, &mac);
	rte_ether_addr_copy(&eth->dst_addr, &eth->src_addr);
	rte_ether_addr_copy(&mac, &eth->dst_addr);
	a = ip->src_addr;
	ip->src_addr = ip->dst_addr;
	ip->dst_addr = a;
	ip->time_to_live = 64;
	ip->fragment_offset = 0;
	ip->hdr_checksum = rt_ipv4_cksum(ip);
	icmp->icmp_type = RTE_ICMP_TYPE_ECHO_REPLY;
	icmp->icmp_cksum = 0;
	rte_raw_cksum_mbuf(m, RT_L2_LEN + sizeof(*ip), len - sizeof(*ip), &sum);
	icmp->icmp_cksum = (rte_be16_t)~sum;
	return 0;
}
