/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_TEST_PKT_H
#define RT_TEST_PKT_H

/*
 * Crafting frames for the route tests: a well-formed Ethernet/IPv4 frame from
 * a spec, which a test then breaks one field at a time.
 */

#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "rt_ipv4.h"

#define IP4(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

struct pkt_spec {
	struct rte_ether_addr dst_mac;
	struct rte_ether_addr src_mac;
	uint32_t src, dst;
	uint8_t ttl;
	uint8_t proto;
	uint8_t opt_len; /* bytes of IP options (multiple of 4) */
	uint16_t frag;   /* host order flags+offset */
	uint16_t payload;
	uint16_t pad; /* L2 padding after the datagram */
	uint8_t seq;  /* payload bytes are seq, seq+1, ... */
	const uint8_t *opts;
};

static inline struct rte_ipv4_hdr *
pkt_ip(struct rte_mbuf *m)
{
	return rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
}

static inline struct rte_ether_hdr *
pkt_eth(struct rte_mbuf *m)
{
	return rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
}

/* Recompute the header checksum after a test changed a field. */
static inline void
pkt_fix_cksum(struct rte_mbuf *m)
{
	struct rte_ipv4_hdr *ip = pkt_ip(m);

	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
}

static inline struct rte_mbuf *
pkt_make(struct rte_mempool *pool, const struct pkt_spec *s)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint16_t hl = (uint16_t)(20 + s->opt_len);
	uint16_t len = (uint16_t)(RTE_ETHER_HDR_LEN + hl + s->payload + s->pad);
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	uint8_t *p;
	uint16_t i;

	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, len);
	if (p == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memset(p, 0, len);
	eth = (struct rte_ether_hdr *)p;
	eth->dst_addr = s->dst_mac;
	eth->src_addr = s->src_mac;
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	ip->version_ihl = (uint8_t)(0x40 | (hl / 4));
	ip->total_length = rte_cpu_to_be_16((uint16_t)(hl + s->payload));
	ip->packet_id = RTE_BE16(0x1234);
	ip->fragment_offset = rte_cpu_to_be_16(s->frag);
	ip->time_to_live = s->ttl != 0 ? s->ttl : 64;
	ip->next_proto_id = s->proto != 0 ? s->proto : IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(s->src);
	ip->dst_addr = rte_cpu_to_be_32(s->dst);
	if (s->opt_len != 0 && s->opts != NULL)
		memcpy(ip + 1, s->opts, s->opt_len);
	for (i = 0; i < s->payload; i++)
		p[RTE_ETHER_HDR_LEN + hl + i] = (uint8_t)(s->seq + i);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	m->port = 0;
	return m;
}

/*
 * The frame @p m (one segment, consumed) as a chain of segments of @p seg
 * bytes each (the last one shorter), as a PMD scattering a large frame
 * builds it; NULL when @p pool runs out.
 */
static inline struct rte_mbuf *
pkt_chain(struct rte_mempool *pool, struct rte_mbuf *m, uint16_t seg)
{
	const uint8_t *src = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t len = rte_pktmbuf_pkt_len(m), off;
	struct rte_mbuf *head = NULL, *last = NULL;

	for (off = 0; off < len; off += seg) {
		uint16_t n = (uint16_t)RTE_MIN((uint32_t)seg, len - off);
		struct rte_mbuf *s = rte_pktmbuf_alloc(pool);
		uint8_t *p = s != NULL ? (uint8_t *)rte_pktmbuf_append(s, n) : NULL;

		if (p == NULL) {
			rte_pktmbuf_free(s);
			rte_pktmbuf_free(head);
			rte_pktmbuf_free(m);
			return NULL;
		}
		memcpy(p, src + off, n);
		if (head == NULL) {
			head = s;
		} else {
			last->next = s;
			head->nb_segs++;
			head->pkt_len += n;
		}
		last = s;
	}
	head->port = m->port;
	rte_pktmbuf_free(m);
	return head;
}

#endif /* RT_TEST_PKT_H */
