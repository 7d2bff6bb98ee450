/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_INPUT_H
#define RT_INPUT_H

/**
 * @file
 * Stage 1 of a routed burst: input checks and classification. Every frame is
 * checked as RFC 1812 5.2.2 says (length, version, header length, checksum,
 * total length, martian addresses: rt_ipv4.h) and classified: the common
 * unicast IPv4 frame goes on to the lookup, ARP and what is for the router
 * to the slow path (rt_punt.h), everything else is dropped under its reason.
 * With the flow stage the same checks also read each survivor's flow key
 * and cut the burst into runs of equal keys for the grouping (rt_group.h).
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_vect.h>

#include "flowsort.h"
#include "rt_drop.h"
#include "rt_flowtable.h"
#include "rt_ipv4.h"
#include "rt_punt.h"
#include "rt_worker.h"

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
 * The input checks for the frames its fast test does not
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
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RT_L2_LEN);
	/*
	 * A routing protocol's link-local multicast (OSPF hellos to 224.0.0.5)
	 * is for the router when its kernel twin can take it; it is a good
	 * datagram but for its group destination (the only check left after
	 * mcast_dst is none).
	 */
	if (v == 1 + RT_DROP_MCAST_DST && group && w->ports[in_port].twin &&
		rt_ipv4_link_local_mcast(rte_be_to_cpu_32(ip->dst_addr))) {
		rt_punt(punts, np, m, in_port, RT_EXC_LOCAL, 0);
		return false;
	}
	if (v != RT_CHECK_OK)
		goto drop;
	if (!group)
		return true;
	/* link-layer broadcast or multicast: for one of our addresses, or not at all */
	hop = rt_fib_lookup(w->fib, rte_be_to_cpu_32(ip->dst_addr), defv);
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
 * The input checks of rt_input_burst() for frame @p m, the burst's @p i th
 * (@p mac_w: the input port's MAC word): a frame for the LPM goes to
 * kept[*k] with its destination in host order in dst[*k].
 */
static __rte_always_inline void
rt_pass1_frame(const struct rt_burst_ctx *b, struct rte_mbuf *m, uint16_t i, uint64_t mac_w,
	struct rte_mbuf **kept, uint32_t *dst, uint16_t *k)
{
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(f + RT_L2_LEN);
	enum rt_input r = rt_input_fast(m, f, mac_w, b->hw_cksum, b->w->drops);

	if (unlikely(r != RT_IN_KEEP)) {
		if (r == RT_IN_DROPPED ||
			!rt_classify_slow(b->w, b->in_port, m, b->punts, b->np, b->defv))
			return;
	}
	dst[*k] = __builtin_bswap32(ip->dst_addr);
	/* the common burst keeps every frame: no store of what is there */
	if (*k != i)
		kept[*k] = m;
	(*k)++;
}

/**
 * Stage 1 of the router alone: the input checks of @p pkts[0..n) of burst
 * @p b, with a prefetch four frames ahead. Frames for the LPM are compacted
 * at the front of @p pkts, each with its destination in host order in
 * @p dst; the rest are punted (b->punts) or dropped.
 *
 * @return how many go on to the lookup.
 */
static __rte_always_inline uint16_t
rt_input_burst(const struct rt_burst_ctx *b, struct rte_mbuf **pkts, uint16_t n, uint32_t *dst)
{
	const uint64_t mac_w = b->w->ports[b->in_port].mac_w;
	uint16_t i, k = 0;

	/*
	 * L2 and RFC 1812 5.2.2 checks. One test takes the common frame (long
	 * enough, our MAC, IPv4, 20-byte header); everything else goes through
	 * rt_classify_slow().
	 */
	for (i = 0; i < RTE_MIN(n, 4); i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	/* two loops, so that only the first tests for a frame four ahead */
	for (i = 0; i + 4 < n; i++) {
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 4], void *));
		rt_pass1_frame(b, pkts[i], i, mac_w, pkts, dst, &k);
	}
	for (; i < n; i++)
		rt_pass1_frame(b, pkts[i], i, mac_w, pkts, dst, &k);
	return k;
}

/** Runs of equal flow keys in a burst, as rt_flow_input_checks() cuts them. */
struct rt_flow_runs {
	uint16_t n;                             /**< number of runs */
	uint16_t start[RT_FLOW_CHUNK + 1];      /**< first packet of each, then the end */
	struct flowsort_key key[RT_FLOW_CHUNK]; /**< their keys */
};

/**
 * Stage 1 with the flow stage: the input checks of rt_input_burst() (L2, RFC 1812 5.2.2,
 * group-addressed frames), in the same order with the same counters, and the
 * flow key of each survivor, read while its header is at hand. Ungrouped
 * (@p fs NULL), the key is compared with the previous survivor's: @p runs gets
 * the runs of equal keys (the previous-key hint). Grouped, the key goes to
 * flowsort_stream_key() (@p fs, @p st: stage 2 on the way, one compare per
 * packet when flows take turns or come in trains) and @p runs is left as it is.
 * Survivors (unicast IPv4 for the LPM) are compacted at the front of @p pkts;
 * the rest are punted (b->punts) or dropped.
 *
 * @return how many survived.
 */
static __rte_always_inline uint16_t
rt_flow_input_checks(const struct rt_burst_ctx *b, struct rte_mbuf **pkts, uint16_t n,
	struct rt_flow_runs *runs, struct flowsort_ctx *fs, struct flowsort_stream *st)
{
	struct rt_worker *w = b->w;
	const uint16_t in_port = b->in_port;
	struct rt_flow_out *o = b->o;
	const uint64_t mac_w = w->ports[in_port].mac_w;
	const bool hw_cksum = w->ports[in_port].rx_cksum;
	const uint32_t defv = b->defv;
	uint64_t *drops = w->drops;
	/* type 0 is no key type: the first survivor always starts a run */
	struct flowsort_key prev = {.w = {0, 0}};
	unsigned int i, k = 0, nr = 0;

	for (i = 0; i < RTE_MIN((unsigned int)n, 4u); i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
		struct flowsort_key key;
		enum rt_input r;

		if (i + 4 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 4], void *));
		r = rt_input_fast(m, f, mac_w, hw_cksum, drops);
		if (unlikely(r != RT_IN_KEEP)) {
			if (r == RT_IN_DROPPED)
				continue;
			goto slow;
		}
		/* rt_input_fast() saw EtherType IPv4 at 12 and a 20-byte header */
		flowsort_key_ipv4(m, RT_L2_LEN, sizeof(struct rte_ipv4_hdr),
			flowsort_key_vlan_stripped(m), &key);
	keep:
		if (fs != NULL)
			flowsort_stream_key(fs, st, NULL, &key);
		else
			flowsort_run_cut(&key, k, &prev, runs->key, runs->start, &nr);
		if (k != i)
			pkts[k] = m;
		k++;
		continue;
	slow:
		/* unicast IPv4 with options: the general parser */
		if (rt_classify_slow(w, in_port, m, o->punts, &o->np, defv)) {
			flowsort_key_extract(m, &key);
			goto keep;
		}
	}
	if (fs == NULL) {
		runs->n = (uint16_t)nr;
		runs->start[nr] = (uint16_t)k;
	}
	return (uint16_t)k;
}

#endif /* RT_INPUT_H */
