/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_BURST_H
#define RT_BURST_H

/**
 * @file
 * A routed burst, start to end: rt_burst() takes the frames one worker
 * received from one RX queue and calls the stages in order, one file each:
 *
 *   1. rt_input.h   input checks and classification (RFC 1812 5.2.2)
 *   2. rt_group.h   flow grouping (flow stage only: lib/flowsort)
 *   3. rt_lookup.h  lookup (LPM and next hop; with the flow stage, the flow
 *                   table once per group)
 *   4. rt_rewrite.h rewrite (TTL, checksum, MACs)
 *   5. rt_punt.h    punt: exceptions to the slow path (ICMP, ARP,
 *                   fragmentation: control/rt_control.c with rt_icmp.h and
 *                   rt_frag.h)
 *
 * and then 6. TX (app/datapath/fwd_route_tx.h) sends what is left, port by
 * port. The router alone (flowsort off and no filter rule) and the flow stage
 * are two ways through the same stage files: the first does each stage for
 * the whole burst before the next (so that the loads of one frame overlap
 * the work on others: a prefetch four frames ahead, LPM lookups four at a
 * time), the second does stages 3 and 4 per group of a flow.
 *
 * The stages of one burst share its context, struct rt_burst_ctx
 * (rt_worker.h: the worker, the flow stage, the input port and queue, the
 * default route, the flow stage's time and generation, and where frames
 * go), filled here once a burst.
 *
 * Each frame ends in exactly one of three places: forwarded (left in the
 * burst with its output port), handed to the slow path (an exception, see
 * RT_EXCEPTIONS, on the worker's ring to the control context) or dropped
 * (freed and counted under its rt_drop_reason). An exception leaves the frame
 * exactly as received (the slow path quotes its header in ICMP errors); only
 * forwarded frames get a new TTL, checksum and MACs.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "flowsort.h"
#include "rt_flowtable.h"
#include "rt_group.h"
#include "rt_input.h"
#include "rt_lookup.h"
#include "rt_punt.h"
#include "rt_rewrite.h"
#include "rt_worker.h"

/* ---------------------------------------------------------------- the router alone */

/**
 * The router alone on @p pkts[0..n) received on @p in_port (n <= 64): each
 * stage for the whole burst before the next.
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
	uint16_t np = 0;
	/* the router alone forwards into pkts and out_port itself: no output record */
	const struct rt_burst_ctx b = {
		.w = w,
		.punts = punts,
		.np = &np,
		.defv = __atomic_load_n(w->default_nh, __ATOMIC_ACQUIRE),
		.in_port = in_port,
		.hw_cksum = hw_cksum,
	};
	uint16_t i, k, kept = 0;

	/* 1. input checks and classification */
	k = rt_input_burst(&b, pkts, n, dst);
	/* 3. lookup: LPM, four at a time */
	rt_lookup_fib(w, dst, hop, k, b.defv);
	/* 3 and 4, per frame: next hop, then TTL and MACs (unicast frames only) */
	for (i = 0; i < k; i++) {
		struct rte_mbuf *m = pkts[i];
		struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
		const struct rt_nh *nh;
		uint64_t l2;

		nh = rt_lookup_nh(&b, m, ip, hop[i], &l2);
		if (nh == NULL)
			continue;
		rt_rewrite_fwd(eth, ip, nh, l2);
		out_port[kept] = nh->port;
		/* the common burst keeps every frame: no store of what is there */
		if (kept != i)
			pkts[kept] = m;
		kept++;
	}
	/* 5. punt */
	rt_punt_flush(w, punts, np);
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

/* ---------------------------------------------------------------- with the flow stage */

/**
 * A group of burst @p b, key @p k and table hash @p h, that is one run
 * pkts[first .. first + cnt): lookup, template, packets and counters in one
 * go, everything in registers (trains, and every run when flowsort does not
 * group).
 */
static __rte_always_inline void
rt_flow_one_run(const struct rt_burst_ctx *b, const struct flowsort_key *k, uint32_t h,
	struct rte_mbuf *const *pkts, unsigned int first, unsigned int cnt)
{
	struct rt_flow_tmpl t;

	rt_flow_tmpl_get(b, k, h, &t);
	rt_flow_apply_run(b, &t, pkts, first, cnt);
	rt_flow_tmpl_put(b->fl, &t, cnt, b->now);
}

/**
 * A run of one packet, pkts[idx] (every packet when no two neighbours share a
 * flow: many flows, bypassed grouping): rt_flow_one_run() without the
 * template and the run loop. A cached forward is applied straight from the
 * entry and its port; anything else takes rt_flow_one_run().
 */
static __rte_always_inline void
rt_flow_one_pkt(const struct rt_burst_ctx *b, const struct flowsort_key *k, uint32_t h,
	struct rte_mbuf *const *pkts, unsigned int idx)
{
	struct rt_flow *fl = b->fl;
	struct rt_worker *w = b->w;
	const uint16_t in_port = b->in_port;
	const uint64_t now = b->now;
	struct rt_flow_out *o = b->o;
	struct rte_mbuf *m = pkts[idx];
	uint8_t *eth = rte_pktmbuf_mtod(m, uint8_t *);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + RT_L2_LEN);
	const struct rt_port *p;
	struct rt_flow_entry *e;
	uint64_t w0;
	uint32_t w1;

	if (unlikely(k->type != FLOWSORT_KEY_L4 && k->type != FLOWSORT_KEY_L3))
		goto general;
	e = rt_flow_lookup(fl, w, k, in_port, h, b->gen, now);
	if (unlikely(e->action != RT_FLOW_FWD))
		goto general_found;
	p = &w->ports[e->out_port];
	e->pkts++;
	e->bytes += rte_pktmbuf_pkt_len(m);
	e->last = now;
	if (e->rule != RT_ACL_NO_RULE)
		rt_flow_rule_count(fl, e->rule, 1);
	if (unlikely(ip->time_to_live <= 1 || __builtin_bswap16(ip->total_length) >
						      __atomic_load_n(&p->mtu, __ATOMIC_RELAXED))) {
		rt_flow_fwd_exception(w, m, ip, in_port, o);
		return;
	}
	rt_ipv4_ttl_dec(ip);
	rt_flow_mac_words(e, p, &w0, &w1);
	rt_eth_store12(eth, w0, w1);
	o->port[o->n] = e->out_port;
	/* out is pkts: nothing to store while every frame stays */
	if (o->n != idx)
		o->pkts[o->n] = m;
	o->n++;
	return;
general_found:
	/* the lookup is done: the rest of rt_flow_one_run() on this entry */
	{
		struct rt_flow_tmpl t = {.e = e, .bytes = 0, .fwd = 0};

		rt_flow_apply_run(b, &t, pkts, idx, 1);
		rt_flow_tmpl_put(fl, &t, 1, now);
	}
	return;
general:
	rt_flow_one_run(b, k, h, pkts, idx, 1);
}

/** A group that is one run: rt_flow_one_pkt() for a run of one, else rt_flow_one_run(). */
static __rte_always_inline void
rt_flow_run(const struct rt_burst_ctx *b, const struct flowsort_key *k, uint32_t h,
	struct rte_mbuf *const *pkts, unsigned int first, unsigned int cnt)
{
	if (cnt == 1)
		rt_flow_one_pkt(b, k, h, pkts, first);
	else
		rt_flow_one_run(b, k, h, pkts, first, cnt);
}

/**
 * The flow stage on at most RT_FLOW_CHUNK packets received on @p in_port
 * through RX queue number @p q of this worker (an index <
 * rt_flow_conf::n_queues): stages 3 and 4 per group.
 *
 * @return the packets left at the front of @p pkts, ready to transmit, each
 *   with its output port in @p out_port, in arrival order (grouping changes
 *   what is looked up, never the order).
 */
static inline uint16_t
rt_flow_route_chunk(struct rt_flow *fl, struct rt_worker *w, uint16_t q, uint16_t in_port,
	struct rte_mbuf **pkts, uint16_t n, uint16_t *out_port)
{
	struct rte_mbuf *punts[RT_FLOW_CHUNK];
	struct rt_flow_tmpl tm[RT_FLOW_CHUNK];
	struct rt_flow_runs kr;
	struct flowsort_stream st;
	const struct flowsort_run *runs;
	uint32_t hs[RT_FLOW_CHUNK];
	/* in arrival order, the output can overwrite pkts[]: it never overtakes the input */
	struct rt_flow_out o = {.pkts = pkts, .port = out_port, .n = 0, .punts = punts, .np = 0};
	/* the burst's time, and the start of auto mode's measure: grouping is in stage 1 */
	struct rt_burst_ctx b = {
		.w = w,
		.fl = fl,
		.o = &o,
		.punts = punts,
		.np = &o.np,
		.now = rte_rdtsc(),
		.in_port = in_port,
		.q = q,
	};
	unsigned int k, nb, r, first;

	b.defv = __atomic_load_n(w->default_nh, __ATOMIC_ACQUIRE);
	if (!flowsort_stream_begin(fl->fs, fl->fq[q], n, &st)) {
		/* 1. input checks and classification, flow keys and runs of equal keys */
		k = rt_flow_input_checks(&b, pkts, n, &kr, NULL, NULL);
		if (k == 0)
			goto flush;
		/* generation before any lookup: a change after this makes what we install stale */
		b.gen = rt_flow_gen(fl);
		/* 2. not grouped: each run its own group (runs of equal keys share a lookup) */
		rt_group_runs(&b, &kr, k, hs);
		/* 3 and 4, run by run */
		for (r = 0; r < kr.n; r++)
			rt_flow_run(&b, &kr.key[r], hs[r], pkts, kr.start[r],
				kr.start[r + 1] - kr.start[r]);
		goto timed;
	}
	/* 1 and 2. input checks and classification, flow keys, each packet's group */
	k = rt_flow_input_checks(&b, pkts, n, &kr, fl->fs, &st);
	if (k == 0)
		goto flush;
	b.gen = rt_flow_gen(fl);
	nb = rt_group_end(&b, &st, k, hs);
	runs = fl->fs->runs;
	if (fl->fs->in_order) {
		/* every group contiguous (trains, or every packet new): as ungrouped, one pass */
		for (r = 0, first = 0; r < nb; first += runs[r].count, r++)
			rt_flow_run(&b, &runs[r].key, hs[r], pkts, first, runs[r].count);
	} else {
		/* 3. lookup: per group, one lookup and one template */
		for (r = 0; r < nb; r++)
			rt_flow_tmpl_get(&b, &runs[r].key, hs[r], &tm[r]);
		/* 4. rewrite, per packet in arrival order: nothing is reordered, not even across flows */
		rt_flow_apply_groups(&b, tm, nb, fl->fs->group_of, pkts, k);
		/* 3. per group: one counter update */
		for (r = 0; r < nb; r++)
			rt_flow_tmpl_put(fl, &tm[r], runs[r].count, b.now);
	}
timed:
	/* auto mode's measure: input checks, grouping and per-flow work, one burst in several */
	if (unlikely(flowsort_queue_timed(fl->fq[q])))
		flowsort_queue_cost(fl->fq[q], rte_rdtsc() - b.now, (uint16_t)k);
flush:
	/* 5. punt */
	rt_punt_flush(w, punts, o.np);
	w->stats.fwd += o.n;
	return o.n;
}

/**
 * rt_flow_route_chunk() on a burst of any length.
 *
 * @return the number of packets left in @p pkts, with their output ports.
 */
static inline uint16_t
rt_flow_route_burst(struct rt_flow *fl, struct rt_worker *w, uint16_t q, uint16_t in_port,
	struct rte_mbuf **pkts, uint16_t n, uint16_t *out_port)
{
	uint16_t done = 0, kept = 0;

	if (likely(n <= RT_FLOW_CHUNK))
		return rt_flow_route_chunk(fl, w, q, in_port, pkts, n, out_port);
	while (done < n) {
		uint16_t c = RTE_MIN(n - done, RT_FLOW_CHUNK);
		uint16_t left =
			rt_flow_route_chunk(fl, w, q, in_port, pkts + done, c, out_port + kept);

		memmove(pkts + kept, pkts + done, left * sizeof(pkts[0]));
		kept += left;
		done += c;
	}
	return kept;
}

/**
 * Route the burst @p pkts[0..n) that this worker received on @p in_port
 * through its RX queue number @p q: with the flow stage @p fl when it has
 * work to do (rt_flow_wanted()) and is not bypassing its table because
 * nearly every lookup missed (rt_flow_bypass()), else with the router alone.
 * Any @p n.
 *
 * @param fl
 *   The worker's flow stage, or NULL for none.
 * @param out_port
 *   Receives the output port of each packet left in @p pkts.
 * @return
 *   The number of packets left at the start of @p pkts, in arrival order,
 *   ready to transmit.
 */
static __rte_always_inline uint16_t
rt_burst(struct rt_worker *w, struct rt_flow *fl, uint16_t q, uint16_t in_port,
	struct rte_mbuf **pkts, uint16_t n, uint16_t *out_port)
{
	if (fl != NULL && rt_flow_wanted(fl) && !rt_flow_bypass(fl, n)) {
		n = rt_flow_route_burst(fl, w, q, in_port, pkts, n, out_port);
		rt_flow_bypass_check(fl);
		return n;
	}
	return rt_route_burst(w, in_port, pkts, n, out_port);
}

#endif /* RT_BURST_H */
