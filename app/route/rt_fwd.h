/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_FWD_H
#define RT_FWD_H

/**
 * @file
 * The router's fast path: one worker's context and rt_route_burst(), which
 * checks, routes and rewrites a burst of frames received on one port.
 *
 * Each frame ends in exactly one of three places: forwarded (left in the
 * burst with its output port), handed to the slow path (an exception, see
 * RT_EXCEPTIONS, on the worker's ring to the control context) or dropped
 * (freed and counted under its rt_drop_reason).
 *
 * The burst is processed in three passes so that the loads of one frame
 * overlap with the work on others: header checks with a prefetch a few
 * frames ahead, LPM lookups four at a time (rte_lpm_lookupx4), then next-hop
 * decisions and rewrites. An exception leaves the frame exactly as received
 * (the slow path quotes its header in ICMP errors); only forwarded frames
 * get a new TTL, checksum and MACs.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_lpm.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring.h>
#include <rte_vect.h>

#include "rt_drop.h"
#include "rt_ipv4.h"
#include "rt_table.h"

/* X(ENUM_SUFFIX, "counter_name", "why the slow path gets it") */
#define RT_EXCEPTIONS(X)                                                     \
	X(ARP, "arp", "ARP frame")                                           \
	X(LOCAL, "local", "for one of the router's addresses")               \
	X(TTL, "ttl", "TTL would expire: ICMP time exceeded")                \
	X(NO_ROUTE, "no_route", "no route: ICMP net unreachable")            \
	X(REJECT, "reject", "reject route: ICMP host unreachable")           \
	X(MTU, "mtu", "larger than the output MTU: fragment or frag needed") \
	X(UNRESOLVED, "unresolved", "next hop MAC unknown: ARP and hold")

enum rt_exception {
#define RT_EXC_ENUM(sym, name, desc) RT_EXC_##sym,
	RT_EXCEPTIONS(RT_EXC_ENUM)
#undef RT_EXC_ENUM
		RT_EXC_MAX
};

/*
 * The exception and its next hop travel in the mbuf's hash.usr (the RSS hash
 * is of no use once the frame is routed): exception in the top 8 bits, next
 * hop index (24 bits, like rte_lpm's) below.
 */
#define RT_PUNT_TAG(exc, nh) ((uint32_t)(exc) << 24 | ((nh)&0xffffff))
#define RT_PUNT_EXC(m)       ((m)->hash.usr >> 24)
#define RT_PUNT_NH(m)        ((m)->hash.usr & 0xffffff)

/** Counters of one worker that are not drops. */
struct rt_worker_stats {
	uint64_t fwd;               /**< frames left in the burst to transmit */
	uint64_t punts[RT_EXC_MAX]; /**< frames handed to the slow path, by exception */
};

/** One worker's routing context; see rt_worker_init(). */
struct rt_worker {
	struct rte_lpm *lpm;
	const struct rt_nh *nh;
	const struct rt_port *ports;
	const uint32_t *default_nh; /**< the table's /0 next hop, read once per burst */
	struct rte_ring *punt;      /**< to the control context; single producer */
	struct rte_rcu_qsbr *qsbr;
	unsigned int thread_id;
	uint64_t *drops; /**< RT_DROP_MAX counters, indexed by enum rt_drop_reason */
	struct rt_worker_stats stats;
	uint64_t own_drops[RT_DROP_MAX]; /**< @c drops when the caller gives none */
};

/**
 * Set up @p w to route with @p t, handing exceptions to @p punt (a ring made
 * by rt_control_add_worker()), reporting quiescent states to the table's RCU
 * as thread @p thread_id (the lcore id: unique among workers, below the
 * table's max_threads), counting drops into @p drops (RT_DROP_MAX counters;
 * NULL = inside @p w). Registers the thread with RCU and puts it online.
 *
 * @return 0 or a negative errno.
 */
int rt_worker_init(struct rt_worker *w, struct rt_table *t, struct rte_ring *punt,
	unsigned int thread_id, uint64_t *drops);

/**
 * The worker stops routing: takes it offline and unregisters it from RCU, so
 * that table updates no longer wait for it.
 */
void rt_worker_fini(struct rt_worker *w);

/**
 * Report that the worker holds no reference into the table. Call once per
 * pass of the poll loop, burst or not: a worker that never reports holds
 * back the reuse of freed next hops and LPM groups.
 */
static __rte_always_inline void
rt_worker_quiescent(struct rt_worker *w)
{
	rte_rcu_qsbr_quiescent(w->qsbr, w->thread_id);
}

/* Remove nothing, move the frame to the slow-path list. */
static __rte_always_inline void
rt_punt(struct rte_mbuf **punts, uint16_t *np, struct rte_mbuf *m, uint16_t in_port,
	enum rt_exception exc, uint32_t nh)
{
	m->port = in_port;
	m->hash.usr = RT_PUNT_TAG(exc, nh);
	punts[(*np)++] = m;
}

/*
 * Bytes 12-14 of an Ethernet frame carrying IPv4 with a 20-byte header:
 * ethertype 0x0800, then version 4 and IHL 5, as one 32-bit load reads them
 * (the fourth byte, the TOS, masked off).
 */
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
#define RT_ETH_IPV4_VHL      UINT32_C(0x00450008)
#define RT_ETH_IPV4_VHL_MASK UINT32_C(0x00ffffff)
#else
#define RT_ETH_IPV4_VHL      UINT32_C(0x08004500)
#define RT_ETH_IPV4_VHL_MASK UINT32_C(0xffffff00)
#endif

/**
 * Pass 1 of rt_route_burst_chunk() for the frames its fast test does not
 * take (shorter than an IPv4 header, not for our MAC, not IPv4 with a 20-byte
 * header): the same checks in the same order, one frame at a time. A
 * group-addressed IPv4 frame is finished here (the router's own addresses
 * take it, nothing forwards it), so the fast passes see unicast only.
 *
 * @return true if @p m goes on to the LPM like a fast-path frame (unicast
 *   IPv4 with options); false if it was punted to @p punts or dropped.
 */
static __rte_noinline bool
rt_classify_slow(struct rt_worker *w, uint16_t in_port, struct rte_mbuf *m, struct rte_mbuf **punts,
	uint16_t *np, uint32_t defv)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const uint64_t mac_w = w->ports[in_port].mac_w;
	const struct rte_ipv4_hdr *ip;
	unsigned int v, type;
	bool group = false;
	uint32_t hop;
	uint64_t d;

	if (unlikely(rte_pktmbuf_data_len(m) < RTE_ETHER_HDR_LEN)) {
		v = 1 + RT_DROP_IP_TRUNCATED;
		goto drop;
	}
	/* the 6 bytes of the destination and 2 of the source: the frame has 14 */
	memcpy(&d, &eth->dst_addr, sizeof(d));
	if (((d ^ mac_w) & RT_NH_MAC_MASK) != 0) {
		if (!rte_is_multicast_ether_addr(&eth->dst_addr)) {
			v = 1 + RT_DROP_OTHER_HOST;
			goto drop;
		}
		group = true;
	}
	if (eth->ether_type != RTE_BE16(RTE_ETHER_TYPE_IPV4)) {
		if (eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_ARP)) {
			rt_punt(punts, np, m, in_port, RT_EXC_ARP, 0);
			return false;
		}
		v = 1 + RT_DROP_NOT_IPV4;
		goto drop;
	}
	v = rt_ipv4_check(m, w->ports[in_port].rx_cksum);
	if (v != RT_CHECK_OK)
		goto drop;
	if (!group)
		return true;
	/* link-layer broadcast or multicast: for one of our addresses, or not at all */
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RT_L2_LEN);
	if (rte_lpm_lookup(w->lpm, rte_be_to_cpu_32(ip->dst_addr), &hop) != 0)
		hop = defv;
	if (hop != RT_NH_MISS) {
		type = __atomic_load_n(&w->nh[hop].type, __ATOMIC_ACQUIRE);
		if (type == RT_NH_LOCAL) {
			rt_punt(punts, np, m, in_port, RT_EXC_LOCAL, hop);
			return false;
		}
	}
	v = 1 + RT_DROP_L2_BCAST;
drop:
	rte_pktmbuf_free(m);
	w->drops[v - 1]++;
	return false;
}

/*
 * The common frame, in one test: long enough, for our MAC, IPv4 with a 20-byte
 * header. Everything else takes rt_classify_slow(). Shared by rt_route_burst()
 * and the flow stage so both classify exactly alike.
 */
static __rte_always_inline bool
rt_common_frame(const struct rte_mbuf *m, const uint8_t *f, uint64_t mac_w)
{
#if defined(RTE_ARCH_X86) && defined(__SSE4_1__) && RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	/* bytes 0-5 and 12-14 of the first 16 against the pattern, one test (mac_w is loop-invariant) */
	const __m128i pat = _mm_set_epi64x((long long)RT_ETH_IPV4_VHL << 32, (long long)mac_w);
	const __m128i mask =
		_mm_set_epi64x((long long)RT_ETH_IPV4_VHL_MASK << 32, (long long)RT_NH_MAC_MASK);

	if (unlikely(rte_pktmbuf_data_len(m) < RT_MIN_FRAME))
		return false;
	return _mm_testz_si128(_mm_xor_si128(_mm_loadu_si128((const __m128i *)f), pat), mask);
#else
	uint64_t d;
	uint32_t et;

	if (unlikely(rte_pktmbuf_data_len(m) < RT_MIN_FRAME))
		return false;
	memcpy(&d, f, sizeof(d));
	memcpy(&et, f + 2 * RTE_ETHER_ADDR_LEN, sizeof(et));
	return (((d ^ mac_w) & RT_NH_MAC_MASK) | ((et & RT_ETH_IPV4_VHL_MASK) ^ RT_ETH_IPV4_VHL)) ==
	       0;
#endif
}

/** What rt_input_fast() made of a frame. */
enum rt_input {
	RT_IN_KEEP,    /**< a good unicast IPv4 frame with a 20-byte header: route it */
	RT_IN_DROPPED, /**< freed and counted under its drop reason */
	RT_IN_SLOW,    /**< another shape: rt_classify_slow() decides */
};

/*
 * The input checks of the common frame, shared by rt_route_burst() and the
 * flow stage so both classify and count exactly alike: the one-test shape
 * (rt_common_frame()), then RFC 1812 5.2.2 on its 20-byte header, with the
 * port's checksum flags trusted or not as @p hw_cksum says
 * (rt_ipv4_check_body()).
 */
static __rte_always_inline enum rt_input
rt_input_fast(
	struct rte_mbuf *m, const uint8_t *f, uint64_t mac_w, const bool hw_cksum, uint64_t *drops)
{
	unsigned int v;

	if (unlikely(!rt_common_frame(m, f, mac_w)))
		return RT_IN_SLOW;
	v = rt_ipv4_check_body(m, (const struct rte_ipv4_hdr *)(f + RT_L2_LEN), 5, hw_cksum);
	if (unlikely(v != RT_CHECK_OK)) {
		rte_pktmbuf_free(m);
		drops[v - 1]++;
		return RT_IN_DROPPED;
	}
	return RT_IN_KEEP;
}

/*
 * Bytes 0-11 of a forwarded frame (destination and source MAC) from a
 * template: @p w0 = bytes 0-7, @p w1 = bytes 8-11. With SSE4.1 they go with
 * the 4 bytes after them as received (EtherType, version/IHL, TOS) in one
 * 16-byte store: stores cost more than the instructions that merge them.
 */
static __rte_always_inline void
rt_eth_store12(void *eth, uint64_t w0, uint32_t w1)
{
#if defined(RTE_ARCH_X86) && defined(__SSE4_1__)
	const __m128i mac = _mm_set_epi64x((long long)w1, (long long)w0);
	const __m128i old = _mm_loadu_si128((const __m128i *)eth);

	/* 16-bit lanes 6 and 7 (bytes 12-15) from the frame */
	_mm_storeu_si128((__m128i *)eth, _mm_blend_epi16(mac, old, 0xc0));
#else
	memcpy(eth, &w0, sizeof(w0));
	memcpy((uint8_t *)eth + sizeof(w0), &w1, sizeof(w1));
#endif
}

/*
 * The Ethernet header of a forwarded frame: destination from the next hop's
 * @p l2 (RT_NH_MAC_MASK bits), source from @p src_w (rt_nh::src_w).
 */
static __rte_always_inline void
rt_eth_rewrite(struct rte_ether_hdr *eth, uint64_t l2, uint64_t src_w)
{
	rt_eth_store12(eth, (l2 & RT_NH_MAC_MASK) | src_w << 48, (uint32_t)(src_w >> 16));
}

/*
 * Pass 1 of rt_route_burst_chunk() for frame @p m, the burst's @p i th: input
 * checks; a frame for the LPM goes to kept[*k] with its destination in host
 * order in dst[*k].
 */
static __rte_always_inline void
rt_pass1_frame(struct rt_worker *w, uint16_t in_port, struct rte_mbuf *m, uint16_t i,
	uint64_t mac_w, const bool hw_cksum, uint32_t defv, struct rte_mbuf **kept, uint32_t *dst,
	uint16_t *k, struct rte_mbuf **punts, uint16_t *np)
{
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(f + RT_L2_LEN);
	enum rt_input r = rt_input_fast(m, f, mac_w, hw_cksum, w->drops);

	if (unlikely(r != RT_IN_KEEP)) {
		if (r == RT_IN_DROPPED || !rt_classify_slow(w, in_port, m, punts, np, defv))
			return;
	}
	dst[*k] = __builtin_bswap32(ip->dst_addr);
	/* the common burst keeps every frame: no store of what is there */
	if (*k != i)
		kept[*k] = m;
	(*k)++;
}

/**
 * Route the burst @p pkts[0..n) received on @p in_port (n <= 64 per call;
 * more is processed in chunks).
 *
 * @param out_port
 *   Receives the output port of each packet left in @p pkts.
 * @param hw_cksum
 *   The input port's rx_cksum, a constant in each copy of the loop.
 * @return
 *   The number of packets left at the start of @p pkts, in arrival order,
 *   ready to transmit (new TTL, checksum and MACs).
 */
static __rte_always_inline uint16_t
rt_route_burst_chunk(struct rt_worker *w, uint16_t in_port, struct rte_mbuf **pkts, uint16_t n,
	uint16_t *out_port, const bool hw_cksum)
{
	uint32_t dst[64] __rte_aligned(16);
	uint32_t hop[64] __rte_aligned(16);
	struct rte_mbuf *punts[64];
	const struct rt_port *ports = w->ports;
	const uint64_t mac_w = ports[in_port].mac_w;
	uint64_t *drops = w->drops;
	const uint32_t defv = __atomic_load_n(w->default_nh, __ATOMIC_ACQUIRE);
	uint16_t i, k = 0, np = 0, kept = 0, sent;

	/*
	 * pass 1: L2 and RFC 1812 5.2.2 checks. One test takes the common frame
	 * (long enough, our MAC, IPv4, 20-byte header); everything else goes
	 * through rt_classify_slow().
	 */
	for (i = 0; i < RTE_MIN(n, 4); i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	/* two loops, so that only the first tests for a frame four ahead */
	for (i = 0; i + 4 < n; i++) {
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 4], void *));
		rt_pass1_frame(
			w, in_port, pkts[i], i, mac_w, hw_cksum, defv, pkts, dst, &k, punts, &np);
	}
	for (; i < n; i++)
		rt_pass1_frame(
			w, in_port, pkts[i], i, mac_w, hw_cksum, defv, pkts, dst, &k, punts, &np);

	/* pass 2: LPM, four at a time */
	for (i = 0; i + 4 <= k; i += 4)
		rte_lpm_lookupx4(w->lpm, *(const xmm_t *)&dst[i], &hop[i], defv);
	for (; i < k; i++)
		if (rte_lpm_lookup(w->lpm, dst[i], &hop[i]) != 0)
			hop[i] = defv;

	/* pass 3: next hop, TTL, MTU, rewrite (unicast frames only) */
	for (i = 0; i < k; i++) {
		struct rte_mbuf *m = pkts[i];
		struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
		const uint32_t h = hop[i];
		const struct rt_nh *nh;
		uint64_t l2;
		uint16_t port;
		uint8_t type;

		if (unlikely(h == RT_NH_MISS)) {
			rt_punt(punts, &np, m, in_port, RT_EXC_NO_ROUTE, 0);
			continue;
		}
		nh = &w->nh[h];
		type = __atomic_load_n(&nh->type, __ATOMIC_ACQUIRE);
		if (unlikely(type != RT_NH_GW)) {
			if (type == RT_NH_LOCAL) {
				rt_punt(punts, &np, m, in_port, RT_EXC_LOCAL, h);
			} else if (type == RT_NH_BLACKHOLE) {
				rte_pktmbuf_free(m);
				drops[RT_DROP_BLACKHOLE]++;
			} else if (type == RT_NH_REJECT) {
				rt_punt(punts, &np, m, in_port, RT_EXC_REJECT, h);
			} else if (ip->time_to_live <= 1) {
				rt_punt(punts, &np, m, in_port, RT_EXC_TTL, h);
			} else {
				rt_punt(punts, &np, m, in_port, RT_EXC_UNRESOLVED, h);
			}
			continue;
		}
		if (unlikely(ip->time_to_live <= 1)) {
			rt_punt(punts, &np, m, in_port, RT_EXC_TTL, h);
			continue;
		}
		l2 = __atomic_load_n(&nh->l2, __ATOMIC_ACQUIRE);
		port = nh->port;
		if (unlikely(!(l2 & RT_NH_F_VALID))) {
			rt_punt(punts, &np, m, in_port, RT_EXC_UNRESOLVED, h);
			continue;
		}
		/* the input checks trimmed the frame to its datagram: no byte swap */
		if (unlikely(rte_pktmbuf_pkt_len(m) - RT_L2_LEN >
			     __atomic_load_n(&nh->mtu, __ATOMIC_RELAXED))) {
			rt_punt(punts, &np, m, in_port, RT_EXC_MTU, h);
			continue;
		}
		rt_ipv4_ttl_dec(ip);
		rt_eth_rewrite(eth, l2, nh->src_w);
		out_port[kept] = port;
		/* the common burst keeps every frame: no store of what is there */
		if (kept != i)
			pkts[kept] = m;
		kept++;
	}

	if (np != 0) {
		sent = (uint16_t)rte_ring_sp_enqueue_burst(w->punt, (void **)punts, np, NULL);
		for (i = 0; i < sent; i++)
			w->stats.punts[RT_PUNT_EXC(punts[i])]++;
		if (unlikely(sent < np)) {
			rte_pktmbuf_free_bulk(&punts[sent], np - sent);
			drops[RT_DROP_PUNT_FULL] += np - sent;
		}
	}
	w->stats.fwd += kept;
	return kept;
}

/*
 * rt_route_burst_chunk() in two copies, one per kind of input port: with a
 * checksumming port the loop reads the RX flags, without one it never does.
 */
static inline uint16_t
rt_route_chunk(struct rt_worker *w, uint16_t in_port, struct rte_mbuf **pkts, uint16_t n,
	uint16_t *out_port)
{
	if (w->ports[in_port].rx_cksum)
		return rt_route_burst_chunk(w, in_port, pkts, n, out_port, true);
	return rt_route_burst_chunk(w, in_port, pkts, n, out_port, false);
}

/**
 * Route the burst @p pkts[0..n) received on @p in_port: see
 * rt_route_burst_chunk(); any @p n.
 *
 * @return the number of packets left in @p pkts, each with its output port
 *   in @p out_port[].
 */
static inline uint16_t
rt_route_burst(struct rt_worker *w, uint16_t in_port, struct rte_mbuf **pkts, uint16_t n,
	uint16_t *out_port)
{
	uint16_t done = 0, kept = 0;

	if (likely(n <= 64))
		return rt_route_chunk(w, in_port, pkts, n, out_port);
	while (done < n) {
		uint16_t c = RTE_MIN(n - done, 64);
		uint16_t left = rt_route_chunk(w, in_port, pkts + done, c, out_port + kept);

		/* keep the survivors contiguous at the front */
		memmove(pkts + kept, pkts + done, left * sizeof(pkts[0]));
		kept += left;
		done += c;
	}
	return kept;
}

#endif /* RT_FWD_H */
