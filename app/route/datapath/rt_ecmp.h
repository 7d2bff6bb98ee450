/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_ECMP_H
#define RT_ECMP_H

/**
 * @file
 * ECMP member selection, part of stage 3 (lookup): a next hop of type
 * RT_NH_GROUP stands for up to RT_ECMP_MAX gateways, and each flow takes one
 * of them, always the same while the group's active set does not change.
 *
 * The flow hash: the NIC's RSS hash when the mbuf carries one and the packet
 * is not a fragment, else a hash of the 5-tuple (addresses, protocol, L4
 * ports) for TCP, UDP and SCTP, of the 3-tuple for other protocols, for
 * fragments (so that every fragment of a datagram takes one path: only the
 * first carries ports) and for datagrams whose ports are not in the first
 * segment. The flow stage decides from the flow key (rt_ecmp_hash_key()),
 * which gives the same software hash as rt_ecmp_hash_pkt() for the same
 * packet; it has no mbuf at a miss, so it never uses the RSS hash.
 *
 * The choice: slot = (hash * RT_ECMP_SLOTS) >> 32 (multiply-shift: the top
 * bits, which a finalised hash and the Toeplitz RSS hash both spread), and
 * the slot's member (struct rt_ecmp_set). Only the common non-ECMP path's
 * cost matters here: these functions run only for a group.
 */

#include <stdint.h>
#include <string.h>

#include <rte_hash_crc.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "flowsort.h"
#include "rt_types.h"

/**
 * The software flow hash of (@p src, @p dst, @p proto, @p ports), addresses
 * and ports as in the packet (network order, the two ports as one word; 0
 * for a 3-tuple). CRC32-C is linear: a final multiply-xorshift mix makes its
 * top bits, which pick the slot, depend on every input bit.
 */
static inline uint32_t
rt_ecmp_hash_tuple(uint32_t src, uint32_t dst, uint8_t proto, uint32_t ports)
{
	uint32_t h = rte_hash_crc_8byte((uint64_t)dst << 32 | src, proto);

	h = rte_hash_crc_4byte(ports, h);
	h ^= h >> 16;
	h *= UINT32_C(0x85ebca6b);
	h ^= h >> 13;
	h *= UINT32_C(0xc2b2ae35);
	h ^= h >> 16;
	return h;
}

/** Whether protocol @p proto has the two 16-bit ports of a 5-tuple. */
static inline int
rt_ecmp_has_ports(uint8_t proto)
{
	return proto == IPPROTO_TCP || proto == IPPROTO_UDP || proto == IPPROTO_SCTP;
}

/**
 * The software flow hash of the packet @p m whose IPv4 header @p ip starts
 * @p l3 bytes into its first segment: 5-tuple or 3-tuple (file comment).
 */
static inline uint32_t
rt_ecmp_hash_sw(const struct rte_mbuf *m, const struct rte_ipv4_hdr *ip, uint32_t l3)
{
	const uint32_t hl = (ip->version_ihl & 0xf) * 4u;
	uint32_t ports = 0;

	if (!(ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK)) &&
		rt_ecmp_has_ports(ip->next_proto_id) &&
		rte_pktmbuf_data_len(m) >= l3 + hl + sizeof(ports))
		memcpy(&ports, (const uint8_t *)ip + hl, sizeof(ports));
	return rt_ecmp_hash_tuple(ip->src_addr, ip->dst_addr, ip->next_proto_id, ports);
}

/**
 * The flow hash of a received packet (as rt_ecmp_hash_sw()): the NIC's RSS
 * hash instead when the mbuf has one and the packet is no fragment (a NIC
 * may hash a first fragment's ports, the others have none).
 */
static inline uint32_t
rt_ecmp_hash_pkt(const struct rte_mbuf *m, const struct rte_ipv4_hdr *ip, uint32_t l3)
{
	if ((m->ol_flags & RTE_MBUF_F_RX_RSS_HASH) &&
		!(ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK)))
		return m->hash.rss;
	return rt_ecmp_hash_sw(m, ip, l3);
}

/**
 * The flow hash of flow key @p k (the flow stage's): the software hash
 * rt_ecmp_hash_pkt() gives its packets; a key that is no L4 flow (L3,
 * fragments, BAD) hashes its 3-tuple.
 */
static inline uint32_t
rt_ecmp_hash_key(const struct flowsort_key *k)
{
	uint32_t ports = 0;

	if (k->type == FLOWSORT_KEY_L4)
		memcpy(&ports, &k->src_port, sizeof(ports));
	return rt_ecmp_hash_tuple(k->src_addr, k->dst_addr, k->proto, ports);
}

/** The slot of flow hash @p hash: multiply-shift over RT_ECMP_SLOTS. */
static inline uint32_t
rt_ecmp_slot(uint32_t hash)
{
	return (uint32_t)(((uint64_t)hash * RT_ECMP_SLOTS) >> 32);
}

/**
 * The member of group set @p s that flow hash @p hash takes.
 *
 * @return its next-hop index (an RT_NH_GW next hop, resolved or not).
 */
static inline uint32_t
rt_ecmp_select(const struct rt_ecmp_set *s, uint32_t hash)
{
	return s->member[s->slot[rt_ecmp_slot(hash)]];
}

/**
 * The member of group next hop @p g (type RT_NH_GROUP) for @p hash, reading
 * its current set (RCU: valid until the reader's next quiescent state).
 */
static inline uint32_t
rt_ecmp_member(const struct rt_nh *g, uint32_t hash)
{
	return rt_ecmp_select(__atomic_load_n(&g->set, __ATOMIC_ACQUIRE), hash);
}

#endif /* RT_ECMP_H */
