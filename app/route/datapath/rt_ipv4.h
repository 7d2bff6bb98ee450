/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_IPV4_H
#define RT_IPV4_H

/**
 * @file
 * IPv4 header arithmetic for the router's fast path: the RFC 1812 5.2.2
 * input checks of one frame, the header checksum, the RFC 1624 TTL update,
 * and the address classes a router must not accept or forward.
 *
 * Addresses are in host byte order unless a name says otherwise.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "rt_drop.h"

/** A 32-bit load that may alias anything at any alignment (header words). */
typedef uint32_t rt_u32_alias __attribute__((__may_alias__, __aligned__(1)));

/** Bytes from the start of the frame to the IPv4 header (no VLAN support). */
#define RT_L2_LEN RTE_ETHER_HDR_LEN

/** Smallest frame that can carry an IPv4 header. */
#define RT_MIN_FRAME (RT_L2_LEN + (uint16_t)sizeof(struct rte_ipv4_hdr))

/** Verdict of rt_ipv4_check(): 0 = good, else 1 + the drop reason. */
#define RT_CHECK_OK 0

/**
 * Source addresses a router must not forward from (RFC 1812 5.3.7, 4.2.2.11):
 * this network (0/8), loopback (127/8), multicast (224/4), class E and the
 * limited broadcast (240/4, which holds 255.255.255.255).
 */
static inline bool
rt_ipv4_martian_src(uint32_t src)
{
	uint32_t a = src >> 24;

	return a == 0 || a == 127 || a >= 224;
}

/** Destinations that can never be valid on a wire: 0/8 and loopback 127/8. */
static inline bool
rt_ipv4_martian_dst(uint32_t dst)
{
	uint32_t a = dst >> 24;

	return a == 0 || a == 127;
}

/** Multicast, class E or limited broadcast destination: not unicast-routed. */
static inline bool
rt_ipv4_group_dst(uint32_t dst)
{
	return dst >= 0xe0000000u;
}

/** True for the local network control block, 224.0.0.0/24 (host order): never forwarded. */
static inline bool
rt_ipv4_link_local_mcast(uint32_t dst)
{
	return (dst & 0xffffff00u) == 0xe0000000u;
}

/**
 * One's complement sum of the @p ihl 32-bit words at @p hdr, folded to 16 bits
 * (0xffff for a header whose checksum is right).
 *
 * A sum of 32-bit words folds to the same value as a sum of 16-bit words, and
 * on a 20-byte header that is five loads instead of ten.
 */
static inline uint16_t
rt_ipv4_hdr_sum(const void *hdr, unsigned int ihl)
{
	const rt_u32_alias *w = (const rt_u32_alias *)hdr;
	uint64_t s = 0;
	unsigned int i;

	for (i = 0; i < ihl; i++)
		s += w[i];
	s = (s & 0xffffffff) + (s >> 32);
	s = (s & 0xffffffff) + (s >> 32);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/** Header checksum of @p ip (its checksum field counted as zero), network order. */
static inline rte_be16_t
rt_ipv4_cksum(const struct rte_ipv4_hdr *ip)
{
	unsigned int ihl = ip->version_ihl & RTE_IPV4_HDR_IHL_MASK;
	uint32_t s = (uint32_t)rt_ipv4_hdr_sum(ip, ihl) + (uint16_t)~ip->hdr_checksum;

	s = (s & 0xffff) + (s >> 16);
	return (rte_be16_t) ~(uint16_t)s;
}

/**
 * Decrement the TTL of @p ip and update its checksum incrementally, RFC 1624
 * eqn. 3: HC' = ~(~HC + ~m + m'). With m the (TTL, protocol) word and
 * m' = m - 0x0100, ~m + m' is the constant 0xfeff, so the update is one add
 * and one end-around carry. Unlike a bare "checksum + 0x0100" it never turns
 * a checksum into 0xffff, which a full recomputation never yields either.
 *
 * TTL, protocol and checksum are header bytes 8-11: one load and one store
 * (a store costs more here than the few instructions it saves). The TTL must
 * be at least 1 (the router decrements only TTLs above 1).
 */
static inline void
rt_ipv4_ttl_dec(struct rte_ipv4_hdr *ip)
{
	rt_u32_alias *p = (rt_u32_alias *)&ip->time_to_live;
	uint32_t w = *p; /* TTL | protocol << 8 | checksum as stored << 16 */
	uint16_t s;
	bool carry;

	/* a 16-bit add and its carry added back: the end-around carry */
	carry = __builtin_add_overflow((uint16_t) ~(w >> 16), RTE_BE16(0xfeff), &s);
	s = (uint16_t)(s + carry);
	/* TTL >= 1: the decrement does not borrow from the protocol */
	*p = (uint32_t)(uint16_t)~s << 16 | ((w - 1) & 0xffff);
}

/**
 * True when the 20-byte header at @p hdr (no options) has a right checksum:
 * rt_ipv4_hdr_sum(hdr, 5) == 0xffff, in about a third of the instructions.
 *
 * A one's complement sum is the plain sum modulo 0xffff (2^16 = 1 there), so
 * the five 32-bit words, added exactly in 64 bits, sum to a multiple of
 * 0xffff exactly when the folded 16-bit sum is 0 or 0xffff; 0 needs an
 * all-zero header, which version 4 rules out. Byte order does not matter: a
 * byte swap multiplies by 2^8, which is invertible modulo 0xffff. The
 * compiler turns the remainder test into a multiply and a compare.
 */
static __rte_always_inline bool
rt_ipv4_hdr_ok20(const void *hdr)
{
	const rt_u32_alias *w = (const rt_u32_alias *)hdr;
	uint64_t s = (uint64_t)w[0] + w[1] + w[2] + w[3] + w[4];

	return s % 0xffff == 0;
}

/*
 * Classes of an address's first octet, for rt_ipv4_check(): one load per
 * address. The octets a source must not have (0, 127, 224-255) are exactly
 * those a destination must not have, so every class that is not 0 has
 * RT_OCT_SRC_MARTIAN and one test of both classes OR'ed takes the good frame.
 */
#define RT_OCT_SRC_MARTIAN 1 /**< 0/8, 127/8, 224/4, 240/4: rt_ipv4_martian_src() */
#define RT_OCT_DST_MARTIAN 2 /**< 0/8, 127/8: rt_ipv4_martian_dst() */
#define RT_OCT_DST_GROUP   4 /**< 224/4, 240/4: rt_ipv4_group_dst() */

/** Class bits (RT_OCT_*) of each first octet of an IPv4 address. */
static const uint8_t rt_ipv4_octet_class[256] = {
	[0] = RT_OCT_SRC_MARTIAN | RT_OCT_DST_MARTIAN,
	[127] = RT_OCT_SRC_MARTIAN | RT_OCT_DST_MARTIAN,
	[224 ... 255] = RT_OCT_SRC_MARTIAN | RT_OCT_DST_GROUP,
};

/**
 * Cut the chain @p m to its first @p keep bytes (0 < @p keep <= its length):
 * the last kept segment ends where the bytes end and the segments after it
 * are freed. rte_pktmbuf_trim() cuts in the last segment only, so L2 padding
 * longer than that segment needs this.
 */
static __rte_noinline void
rt_pktmbuf_cut_chain(struct rte_mbuf *m, uint32_t keep)
{
	struct rte_mbuf *s = m, *rest;
	uint32_t left = keep;
	uint16_t n = 1;

	while (left > s->data_len) {
		left -= s->data_len;
		s = s->next;
		n++;
	}
	s->data_len = (uint16_t)left;
	rest = s->next;
	s->next = NULL;
	m->nb_segs = n;
	m->pkt_len = keep;
	rte_pktmbuf_free(rest); /* NULL is fine */
}

/** Cut the frame @p m to its first @p keep bytes (<= its length, > 0), in any number of segments. */
static __rte_always_inline void
rt_pktmbuf_cut(struct rte_mbuf *m, uint32_t keep)
{
	if (likely(m->nb_segs == 1)) {
		m->data_len = (uint16_t)keep;
		m->pkt_len = keep;
	} else {
		rt_pktmbuf_cut_chain(m, keep);
	}
}

/**
 * The part of rt_ipv4_check() after the header's shape: total length (L2
 * padding trimmed), header checksum, martian source, martian or group
 * destination. For the caller that already knows @p ip (in @p m's first
 * segment) has version 4 and a header of @p ihl words (5 to 15), all there.
 *
 * Written for the common header: a datagram that fills its frame takes one
 * compare for both total-length bounds, the checksum is a remainder
 * (rt_ipv4_hdr_ok20()) and the address classes one table load per address.
 *
 * @param hw_cksum
 *   The port checks IPv4 header checksums (RTE_ETH_RX_OFFLOAD_IPV4_CKSUM):
 *   trust @p m's RX flags, GOOD skips the software sum and BAD drops. False:
 *   the flags are not read, every header is summed in software.
 * @return RT_CHECK_OK, or 1 + the rt_drop_reason to count.
 */
static __rte_always_inline unsigned int
rt_ipv4_check_body(
	struct rte_mbuf *m, const struct rte_ipv4_hdr *ip, unsigned int ihl, const bool hw_cksum)
{
	const unsigned int hlen = ihl * 4;
	const uint8_t *src, *dst;
	uint32_t tot, l3_len;
	unsigned int cls;
	uint64_t ck;

	/* __builtin_bswap16 rather than the asm of rte_be_to_cpu_16: the compiler can fold it */
	tot = __builtin_bswap16(ip->total_length);
	l3_len = rte_pktmbuf_pkt_len(m) - RT_L2_LEN;
	/*
	 * A datagram that fills its frame is right (l3_len >= hlen: the header
	 * is in the frame). Otherwise, with l3_len >= hlen, one unsigned compare
	 * is tot < hlen || tot > l3_len; what is left is Ethernet padding, which
	 * goes now, from as many segments as it fills (a frame dropped below is
	 * freed whole anyway).
	 */
	if (unlikely(tot != l3_len)) {
		if (tot - hlen > l3_len - hlen)
			return 1 + RT_DROP_IP_LEN;
		rt_pktmbuf_cut(m, RT_L2_LEN + tot);
	}

	ck = hw_cksum ? m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK : RTE_MBUF_F_RX_IP_CKSUM_UNKNOWN;
	if (ck != RTE_MBUF_F_RX_IP_CKSUM_GOOD) {
		if (unlikely(ck == RTE_MBUF_F_RX_IP_CKSUM_BAD))
			return 1 + RT_DROP_IP_CKSUM;
		if (likely(ihl == 5)) {
			if (unlikely(!rt_ipv4_hdr_ok20(ip)))
				return 1 + RT_DROP_IP_CKSUM;
		} else if (unlikely(rt_ipv4_hdr_sum(ip, ihl) != 0xffff)) {
			return 1 + RT_DROP_IP_CKSUM;
		}
	}

	/* the first octet of an address in network order is its first byte */
	src = (const uint8_t *)&ip->src_addr;
	dst = (const uint8_t *)&ip->dst_addr;
	cls = rt_ipv4_octet_class[src[0]] | rt_ipv4_octet_class[dst[0]];
	if (unlikely(cls != 0)) {
		if (rt_ipv4_octet_class[src[0]] != 0)
			return 1 + RT_DROP_MARTIAN_SRC;
		/* the source's class is 0: cls is the destination's */
		if (cls & RT_OCT_DST_MARTIAN)
			return 1 + RT_DROP_MARTIAN_DST;
		return 1 + RT_DROP_MCAST_DST;
	}
	return RT_CHECK_OK;
}

/**
 * RFC 1812 5.2.2 checks of the IPv4 frame @p m (Ethernet header first, one
 * segment at least as long as the IP header): length, version, IHL, then
 * rt_ipv4_check_body(), @p hw_cksum as there.
 *
 * @return RT_CHECK_OK, or 1 + the rt_drop_reason to count.
 */
static __rte_always_inline unsigned int
rt_ipv4_check(struct rte_mbuf *m, const bool hw_cksum)
{
	const struct rte_ipv4_hdr *ip;
	uint16_t data_len = rte_pktmbuf_data_len(m);
	unsigned int ihl;

	if (unlikely(data_len < RT_MIN_FRAME))
		return 1 + RT_DROP_IP_TRUNCATED;
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RT_L2_LEN);
	if (likely(ip->version_ihl == RTE_IPV4_VHL_DEF))
		return rt_ipv4_check_body(m, ip, 5, hw_cksum);
	if ((ip->version_ihl >> 4) != 4)
		return 1 + RT_DROP_IP_VERSION;
	ihl = ip->version_ihl & RTE_IPV4_HDR_IHL_MASK;
	if (ihl < 5 || RT_L2_LEN + ihl * 4 > data_len)
		return 1 + RT_DROP_IP_IHL;
	return rt_ipv4_check_body(m, ip, ihl, hw_cksum);
}

#endif /* RT_IPV4_H */
