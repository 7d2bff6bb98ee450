/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_LOOKUP_H
#define RT_LOOKUP_H

/**
 * @file
 * Stage 3 of a routed burst: lookup. The router alone looks every
 * destination up in the LPM (four at a time) and reads its next hop; with
 * the flow stage each group is looked up once in the worker's flow table
 * (rt_flowtable.h: a miss runs the filter, the LPM and the next hop, and
 * caches the decision), and a forward's rewrite template is made ready for
 * its packets. The group's counters are updated once, after its packets.
 */

#include <stdint.h>

#include <rte_atomic.h>
#include <rte_branch_prediction.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_vect.h>

#include "flowsort.h"
#include "rt_ecmp.h"
#include "rt_flowtable.h"
#include "rt_punt.h"
#include "rt_rewrite.h"
#include "rt_worker.h"

/**
 * Stage 3 of the router alone, first half: the longest-prefix match of the
 * @p k destinations @p dst (host order), their tbl24 lines prefetched
 * together, and each next hop's record as soon as it is found, for the
 * second half (rt_fib_lookup_bulk_prefetch()); @p hop gets each next hop,
 * @p defv (the /0 route's, or RT_NH_MISS) where none matches.
 */
static __rte_always_inline void
rt_lookup_fib(
	const struct rt_worker *w, const uint32_t *dst, uint32_t *hop, uint16_t k, uint32_t defv)
{
	rt_fib_lookup_bulk_prefetch(w->fib, dst, hop, k, defv, w->nh, sizeof(*w->nh));
}

/**
 * Stage 3 of the router alone, second half: what next hop @p h does with the
 * frame @p m of burst @p b (an ECMP group first picks the flow's member:
 * rt_ecmp.h). A frame that is not forwarded (no route, for the router,
 * blackhole, reject, TTL expiring, next hop unresolved, too big for the MTU)
 * is punted (to b->punts) or dropped here, untouched.
 *
 * @return the next hop to forward through, with its MAC word in @p l2; NULL
 *   if the frame was punted or dropped.
 */
static __rte_always_inline const struct rt_nh *
rt_lookup_nh(const struct rt_burst_ctx *b, struct rte_mbuf *m, const struct rte_ipv4_hdr *ip,
	uint32_t h, uint64_t *l2)
{
	const struct rt_worker *w = b->w;
	const uint16_t in_port = b->in_port;
	struct rte_mbuf **punts = b->punts;
	uint16_t *np = b->np;
	const struct rt_nh *nh;
	uint8_t type;

	if (unlikely(h == RT_NH_MISS)) {
		rt_punt(punts, np, m, in_port, RT_EXC_NO_ROUTE, 0);
		return NULL;
	}
	nh = &w->nh[h];
	type = __atomic_load_n(&nh->type, __ATOMIC_ACQUIRE);
	if (unlikely(type != RT_NH_GW)) {
		if (type == RT_NH_GROUP) {
			/* ECMP: the flow's member, then the gateway's checks on it */
			h = rt_ecmp_member(nh, rt_ecmp_hash_pkt(m, ip, RT_L2_LEN));
			nh = &w->nh[h];
			goto gw;
		}
		if (type == RT_NH_LOCAL) {
			rt_punt(punts, np, m, in_port, RT_EXC_LOCAL, h);
		} else if (type == RT_NH_BLACKHOLE) {
			rte_pktmbuf_free(m);
			w->drops[RT_DROP_BLACKHOLE]++;
		} else if (type == RT_NH_REJECT) {
			rt_punt(punts, np, m, in_port, RT_EXC_REJECT, h);
		} else if (ip->time_to_live <= 1) {
			rt_punt(punts, np, m, in_port, RT_EXC_TTL, h);
		} else {
			rt_punt(punts, np, m, in_port, RT_EXC_UNRESOLVED, h);
		}
		return NULL;
	}
gw:
	if (unlikely(ip->time_to_live <= 1)) {
		rt_punt(punts, np, m, in_port, RT_EXC_TTL, h);
		return NULL;
	}
	*l2 = __atomic_load_n(&nh->l2, __ATOMIC_ACQUIRE);
	if (unlikely(!(*l2 & RT_NH_F_VALID))) {
		rt_punt(punts, np, m, in_port, RT_EXC_UNRESOLVED, h);
		return NULL;
	}
	/* the input checks trimmed the frame to its datagram: no byte swap */
	if (unlikely(rte_pktmbuf_pkt_len(m) - RT_L2_LEN >
		     __atomic_load_n(&nh->mtu, __ATOMIC_RELAXED))) {
		rt_punt(punts, np, m, in_port, RT_EXC_MTU, h);
		return NULL;
	}
	return nh;
}

/**
 * Per group of burst @p b with key @p k and table hash @p h: the one lookup
 * (a miss decides and installs), and the rewrite template of a forward:
 * destination and source MAC as one 8- and one 4-byte store, the output
 * port and its MTU.
 */
static __rte_always_inline void
rt_flow_tmpl_get(const struct rt_burst_ctx *b, const struct flowsort_key *k, uint32_t h,
	struct rt_flow_tmpl *t)
{
	struct rt_worker *w = b->w;
	struct rt_flow_entry *e;

	t->bytes = 0;
	t->fwd = 0;
	if (unlikely(k->type != FLOWSORT_KEY_L4 && k->type != FLOWSORT_KEY_L3)) {
		t->e = NULL;
		return;
	}
	e = rt_flow_lookup(b->fl, w, k, b->in_port, h, b->gen, b->now);
	t->e = e;
	if (likely(e->action == RT_FLOW_FWD)) {
		const uint16_t port = e->out_port;

		t->fwd = 1;
		t->port = port;
		t->mtu = __atomic_load_n(&w->ports[port].mtu, __ATOMIC_RELAXED);
		rt_flow_mac_words(e, &w->ports[port], &t->w0, &t->w1);
	}
}

/** Per group: the one counter update, for its @p cnt packets. */
static __rte_always_inline void
rt_flow_tmpl_put(struct rt_flow *fl, const struct rt_flow_tmpl *t, unsigned int cnt, uint64_t now)
{
	struct rt_flow_entry *e = t->e;

	if (e == NULL)
		return;
	e->pkts += cnt;
	e->bytes += t->bytes;
	e->last = now;
	if (e->rule != RT_ACL_NO_RULE)
		rt_flow_rule_count(fl, e->rule, cnt);
}

#endif /* RT_LOOKUP_H */
