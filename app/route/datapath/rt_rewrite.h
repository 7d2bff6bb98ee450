/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_REWRITE_H
#define RT_REWRITE_H

/**
 * @file
 * Stage 4 of a routed burst: rewrite. A forwarded frame gets its TTL
 * decremented with an incremental checksum update and its destination and
 * source MACs, in as few stores as the target allows (a store into a packet
 * costs more than the instructions that merge it). With the flow stage the
 * rewrite applies a group's template (rt_lookup.h) to each of its packets in
 * arrival order, with the per-packet TTL and MTU tests; what a cached
 * decision does not forward is punted or dropped per packet here.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_vect.h>

#include "flowsort.h"
#include "rt_flowtable.h"
#include "rt_ipv4.h"
#include "rt_punt.h"
#include "rt_types.h"
#include "rt_worker.h"

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

/**
 * Stage 4 of the router alone: a forwarded frame's TTL and checksum (one
 * 32-bit store) and its MACs (one 16-byte store), from next hop @p nh whose
 * MAC word is @p l2.
 */
static __rte_always_inline void
rt_rewrite_fwd(
	struct rte_ether_hdr *eth, struct rte_ipv4_hdr *ip, const struct rt_nh *nh, uint64_t l2)
{
	rt_ipv4_ttl_dec(ip);
	rt_eth_rewrite(eth, l2, nh->src_w);
}

/**
 * One group's decision made ready for its packets: the entry (for the
 * counters) and, for a forward, the rewrite template.
 */
struct rt_flow_tmpl {
	struct rt_flow_entry *e; /**< NULL: fragments and the like, decided per packet */
	uint64_t w0;             /**< FWD: frame bytes 0-7 (destination MAC, source MAC 0-1) */
	uint64_t bytes;          /**< bytes of the group's packets so far */
	uint32_t w1;             /**< FWD: frame bytes 8-11 (source MAC 2-5) */
	uint32_t mtu;            /**< FWD: output port's MTU */
	uint16_t port;           /**< FWD: output port */
	uint8_t fwd;             /**< a cached FWD: the tight loop */
};

/**
 * Per packet of a group whose decision @p e is not FWD: hand to the slow
 * path or drop.
 */
static __rte_noinline void
rt_flow_apply_other(struct rt_worker *w, const struct rt_flow_entry *e, uint16_t in_port,
	struct rte_mbuf *m, struct rt_flow_out *o)
{
	const struct rte_ipv4_hdr *ip =
		rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RT_L2_LEN);

	if (e->action == RT_FLOW_FWD) {
		/* an uncached decision (fragments): the FWD path, one packet */
		const uint16_t mtu = __atomic_load_n(&w->ports[e->out_port].mtu, __ATOMIC_RELAXED);
		struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);

		if (unlikely(ip->time_to_live <= 1 || __builtin_bswap16(ip->total_length) > mtu)) {
			rt_flow_fwd_exception(w, m, ip, in_port, o);
			return;
		}
		rt_ipv4_ttl_dec((struct rte_ipv4_hdr *)(uintptr_t)ip);
		memcpy(eth, &e->l2, sizeof(e->l2));
		rte_ether_addr_copy(&w->ports[e->out_port].mac, &eth->src_addr);
		o->port[o->n] = e->out_port;
		o->pkts[o->n++] = m;
		return;
	}
	if (e->action == RT_FLOW_PUNT) {
		uint32_t tag = (uint32_t)e->l2;

		/* an unresolved next hop: TTL first, as rt_route_burst() does */
		if (tag >> 24 == RT_EXC_UNRESOLVED && ip->time_to_live <= 1)
			tag = RT_PUNT_TAG(RT_EXC_TTL, tag);
		m->port = in_port;
		m->hash.usr = tag;
		o->punts[o->np++] = m;
		return;
	}
	rte_pktmbuf_free(m);
	w->drops[e->l2]++;
}

/**
 * The MAC header of a cached forward @p e out of port @p p as frame bytes
 * 0-7 (@p w0) and 8-11 (@p w1), for rt_eth_store12(): destination from the
 * entry, source from the port. Built in registers: bytes stored and read back
 * as words stall on store forwarding.
 */
static __rte_always_inline void
rt_flow_mac_words(
	const struct rt_flow_entry *e, const struct rt_port *p, uint64_t *w0, uint32_t *w1)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	*w0 = (e->l2 & RT_NH_MAC_MASK) | p->mac_w << 48;
	*w1 = (uint32_t)(p->mac_w >> 16);
#else
	uint8_t hdr[12];

	memcpy(hdr, &e->l2, RTE_ETHER_ADDR_LEN);
	memcpy(hdr + RTE_ETHER_ADDR_LEN, &p->mac, RTE_ETHER_ADDR_LEN);
	memcpy(w0, hdr, sizeof(*w0));
	memcpy(w1, hdr + sizeof(*w0), sizeof(*w1));
#endif
}

/** Fragments and datagrams too short for their ports: decided one by one, never cached. */
static __rte_noinline void
rt_flow_uncached(struct rt_flow *fl, struct rt_worker *w, uint16_t in_port, struct rte_mbuf *m,
	struct rt_flow_out *o)
{
	const struct rte_ipv4_hdr *ip =
		rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RT_L2_LEN);
	struct rt_flow_entry tmp;
	struct flowsort_key pk;

	/* on addresses and protocol, ports 0 (a key per datagram would only churn the table) */
	pk.src_addr = ip->src_addr;
	pk.dst_addr = ip->dst_addr;
	pk.src_port = 0;
	pk.dst_port = 0;
	pk.proto = ip->next_proto_id;
	pk.type = FLOWSORT_KEY_L3;
	pk.vlan = 0;
	__rt_flow_decide(fl, w, &pk, in_port, &tmp);
	if (tmp.rule != RT_ACL_NO_RULE)
		rt_flow_rule_count(fl, tmp.rule, 1);
	fl->stats.uncached++;
	rt_flow_apply_other(w, &tmp, in_port, m, o);
}

/**
 * Per packet of a run pkts[first .. first + cnt) of group @p t of burst
 * @p b: for a cached forward only the TTL and MTU tests, the TTL decrement
 * with its checksum update and two stores of the MAC header.
 */
static __rte_always_inline void
rt_flow_apply_run(const struct rt_burst_ctx *b, struct rt_flow_tmpl *t,
	struct rte_mbuf *const *pkts, unsigned int first, unsigned int cnt)
{
	struct rt_flow *fl = b->fl;
	struct rt_worker *w = b->w;
	const uint16_t in_port = b->in_port;
	struct rt_flow_out *o = b->o;
	unsigned int j;

	if (likely(t->fwd)) {
		const uint64_t w0 = t->w0;
		const uint32_t w1 = t->w1, mtu = t->mtu;
		const uint16_t port = t->port;
		struct rte_mbuf **out = o->pkts;
		uint16_t *out_port = o->port;
		unsigned int n = o->n;
		uint64_t bytes = 0;

		for (j = first; j < first + cnt; j++) {
			struct rte_mbuf *m = pkts[j];
			uint8_t *eth = rte_pktmbuf_mtod(m, uint8_t *);
			struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + RT_L2_LEN);

			bytes += rte_pktmbuf_pkt_len(m);
			if (unlikely(ip->time_to_live <= 1 ||
				     __builtin_bswap16(ip->total_length) > mtu)) {
				rt_flow_fwd_exception(w, m, ip, in_port, o);
				continue;
			}
			rt_ipv4_ttl_dec(ip);
			rt_eth_store12(eth, w0, w1);
			out_port[n] = port;
			/* out is pkts: nothing to store while every frame stays */
			if (n != j)
				out[n] = m;
			n++;
		}
		o->n = (uint16_t)n;
		t->bytes += bytes;
		return;
	}
	for (j = first; j < first + cnt; j++) {
		if (t->e == NULL) {
			rt_flow_uncached(fl, w, in_port, pkts[j], o);
			continue;
		}
		t->bytes += rte_pktmbuf_pkt_len(pkts[j]);
		rt_flow_apply_other(w, t->e, in_port, pkts[j], o);
	}
}

/*
 * rt_flow_apply_groups() in two copies: @p all_fwd, every group a cached
 * forward, tests no group's kind per packet.
 */
static __rte_always_inline void
rt_flow_apply_groups_loop(const struct rt_burst_ctx *b, struct rt_flow_tmpl *tm, const uint16_t *pg,
	struct rte_mbuf *const *pkts, unsigned int k, const bool all_fwd)
{
	struct rt_worker *w = b->w;
	const uint16_t in_port = b->in_port;
	struct rt_flow_out *o = b->o;
	struct rte_mbuf **out = o->pkts;
	uint16_t *out_port = o->port;
	unsigned int i, n = o->n;

	for (i = 0; i < k; i++) {
		struct rt_flow_tmpl *t = &tm[pg[i]];
		struct rte_mbuf *m = pkts[i];
		uint8_t *eth = rte_pktmbuf_mtod(m, uint8_t *);
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + RT_L2_LEN);
		const uint32_t len = rte_pktmbuf_pkt_len(m);

		if (!all_fwd && unlikely(!t->fwd)) {
			o->n = (uint16_t)n;
			rt_flow_apply_run(b, t, pkts, i, 1);
			n = o->n;
			continue;
		}
		t->bytes += len;
		/* the input checks trimmed the frame to its datagram: the length without a load */
		if (unlikely(ip->time_to_live <= 1 || len - RT_L2_LEN > t->mtu)) {
			rt_flow_fwd_exception(w, m, ip, in_port, o);
			continue;
		}
		rt_ipv4_ttl_dec(ip);
		rt_eth_store12(eth, t->w0, t->w1);
		out_port[n] = t->port;
		/* out is pkts: nothing to store while every frame stays */
		if (n != i)
			out[n] = m;
		n++;
	}
	o->n = (uint16_t)n;
}

/**
 * Packets of interleaved groups of burst @p b, in arrival order: packet i of
 * the @p k of @p pkts belongs to group pg[i] of the @p nb of @p tm. Per
 * packet, the template is read from tm[] (L1) rather than kept in
 * registers; the per-run set-up of rt_flow_apply_run() would cost more when
 * runs are one packet long.
 */
static __rte_always_inline void
rt_flow_apply_groups(const struct rt_burst_ctx *b, struct rt_flow_tmpl *tm, unsigned int nb,
	const uint16_t *pg, struct rte_mbuf *const *pkts, unsigned int k)
{
	unsigned int r, all_fwd = 1;

	for (r = 0; r < nb; r++)
		all_fwd &= tm[r].fwd;
	if (likely(all_fwd))
		rt_flow_apply_groups_loop(b, tm, pg, pkts, k, true);
	else
		rt_flow_apply_groups_loop(b, tm, pg, pkts, k, false);
}

#endif /* RT_REWRITE_H */
