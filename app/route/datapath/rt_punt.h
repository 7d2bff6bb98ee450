/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_PUNT_H
#define RT_PUNT_H

/**
 * @file
 * Stage 5 of a routed burst: punt. A frame the workers do not forward (for
 * the router, TTL expiring, no route, too big, next hop unresolved: see
 * RT_EXCEPTIONS) is left exactly as received (the slow path quotes its header
 * in ICMP errors), tagged with its exception and next hop, collected during
 * the burst and handed to the slow path at its end in one ring enqueue. The
 * slow path (control/rt_control.c) answers it with the builders of
 * rt_icmp.h and rt_frag.h.
 */

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "rt_exception.h"
#include "rt_worker.h"

/* Remove nothing, move the frame to the slow-path list. */
static __rte_always_inline void
rt_punt(struct rte_mbuf **punts, uint16_t *np, struct rte_mbuf *m, uint16_t in_port,
	enum rt_exception exc, uint32_t nh)
{
	m->port = in_port;
	m->hash.usr = RT_PUNT_TAG(exc, nh);
	punts[(*np)++] = m;
}

/** Next hop of @p ip's destination, for the exceptions a cached FWD can still take. */
static __rte_noinline uint32_t
rt_flow_nh_of(const struct rt_worker *w, const struct rte_ipv4_hdr *ip)
{
	uint32_t h;

	h = rt_fib_lookup(w->fib, rte_be_to_cpu_32(ip->dst_addr),
		__atomic_load_n(w->default_nh, __ATOMIC_ACQUIRE));
	return h;
}

/** A cached FWD's per-packet exceptions: TTL expiring (first), or too big for the MTU. */
static __rte_noinline void
rt_flow_fwd_exception(struct rt_worker *w, struct rte_mbuf *m, const struct rte_ipv4_hdr *ip,
	uint16_t in_port, struct rt_flow_out *o)
{
	rt_punt(o->punts, &o->np, m, in_port, ip->time_to_live <= 1 ? RT_EXC_TTL : RT_EXC_MTU,
		rt_flow_nh_of(w, ip));
}

/**
 * The end of every burst: hand its punts to the slow path on the worker's ring
 * and count them by exception; what the ring refuses is dropped as punt_full.
 */
static inline void
rt_punt_flush(struct rt_worker *w, struct rte_mbuf **punts, uint16_t np)
{
	uint16_t i, sent;

	if (np == 0)
		return;
	sent = (uint16_t)rte_ring_sp_enqueue_burst(w->punt, (void **)punts, np, NULL);
	for (i = 0; i < sent; i++)
		w->stats.punts[RT_PUNT_EXC(punts[i])]++;
	if (unlikely(sent < np)) {
		rte_pktmbuf_free_bulk(&punts[sent], np - sent);
		w->drops[RT_DROP_PUNT_FULL] += np - sent;
	}
}

#endif /* RT_PUNT_H */
