/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_ICMP_H
#define RT_ICMP_H

/**
 * @file
 * ICMP messages the router originates: errors about a packet it could not
 * forward (RFC 792, RFC 1812 4.3.2), echo replies, and the token bucket
 * that limits the rate of errors (RFC 1812 4.3.2.8).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

/** Largest ICMP error datagram (RFC 1812 4.3.2.3: quote as much as fits in 576 bytes). */
#define RT_ICMP_ERR_MAX 576

#define RT_ICMP_DEST_UNREACH  3
#define RT_ICMP_TIME_EXCEEDED 11
#define RT_ICMP_NET_UNREACH   0
#define RT_ICMP_HOST_UNREACH  1
#define RT_ICMP_FRAG_NEEDED   4
#define RT_ICMP_TTL_EXCEEDED  0

/** A token bucket in TSC cycles: @c cost cycles of credit buy one token. */
struct rt_tb {
	uint64_t credit; /**< cycles of credit, at most @c depth */
	uint64_t depth;  /**< burst * cost */
	uint64_t cost;   /**< cycles per token: hz / rate */
	uint64_t last;   /**< TSC of the last refill */
};

/**
 * Set up @p tb for @p rate tokens per second and bursts of @p burst, full,
 * at time @p now, with a TSC of @p hz cycles per second.
 */
static inline void
rt_tb_init(struct rt_tb *tb, uint64_t hz, uint32_t rate, uint32_t burst, uint64_t now)
{
	tb->cost = hz / (rate != 0 ? rate : 1);
	tb->depth = tb->cost * (burst != 0 ? burst : 1);
	tb->credit = tb->depth;
	tb->last = now;
}

/**
 * Take one token at time @p now.
 *
 * @return true if there was one.
 */
static inline bool
rt_tb_take(struct rt_tb *tb, uint64_t now)
{
	if (now > tb->last) {
		uint64_t c = tb->credit + (now - tb->last);

		tb->credit = c > tb->depth || c < tb->credit ? tb->depth : c;
		tb->last = now;
	}
	if (tb->credit < tb->cost)
		return false;
	tb->credit -= tb->cost;
	return true;
}

/**
 * May the router send an ICMP error about the IPv4 frame @p m (Ethernet
 * header first, as received)? Not about an ICMP error (only about echo,
 * timestamp and other queries, RFC 1812 4.3.2.7), a fragment other than the
 * first, a packet sent to a link-layer or IP broadcast or multicast address,
 * or from an address that does not identify one host.
 */
bool rt_icmp_error_allowed(const struct rte_mbuf *m);

/**
 * Build an ICMP error of @p type / @p code about the frame @p m (Ethernet
 * header first, as received; left untouched), to be sent back out of the
 * port it came in on: Ethernet destination = @p m's source, source =
 * @p src_mac; IP source @p src_ip, destination @p m's source, TTL 64, TOS
 * 0xc0 (RFC 1812 4.3.2.5); the ICMP body quotes @p m's IP header and as much
 * of its data as fits in RT_ICMP_ERR_MAX bytes (at least 8 when present) and
 * in one mbuf of @p pool. @p mtu goes into the "next-hop MTU" field (RFC 1191)
 * when non-zero.
 *
 * @return the new frame, or NULL when @p pool is empty or its mbufs cannot
 *   hold the IP header and 8 bytes of data after the headers.
 */
struct rte_mbuf *rt_icmp_error_build(struct rte_mempool *pool, const struct rte_mbuf *m,
	uint8_t type, uint8_t code, uint16_t mtu, uint32_t src_ip,
	const struct rte_ether_addr *src_mac, uint16_t ip_id);

/**
 * Turn the ICMP echo request frame @p m (Ethernet header first, IPv4 header
 * checked, any number of segments with the headers up to the ICMP one in
 * the first) into its reply in place: MACs and addresses swapped, TTL 64, IP
 * options dropped (then @p m starts later: reload its data pointer), DF
 * clear, type 0, checksums recomputed. The reply is as long as the request:
 * its sender fragments it for the port's MTU if need be.
 *
 * @return 0, or -EINVAL when @p m is not a well-formed echo request (bad ICMP
 *   checksum, truncated, a fragment).
 */
int rt_icmp_echo_reply(struct rte_mbuf *m);

#endif /* RT_ICMP_H */
