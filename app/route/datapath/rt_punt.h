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

/*
 * Not room for the whole burst and the reserve: take what the ring may hold
 * in arrival order, ARP into the reserve too, and drop the rest, ARP as
 * arp_punt_full (its own reserve full), the others as punt_full.
 *
 * @return how many of @p punts are left at its start, to enqueue.
 */
static __rte_noinline uint16_t
rt_punt_admit(struct rt_worker *w, struct rte_mbuf **punts, uint16_t np)
{
	const unsigned int room = rte_ring_free_count(w->punt);
	uint16_t i, k = 0;

	for (i = 0; i < np; i++) {
		struct rte_mbuf *m = punts[i];
		const bool arp = RT_PUNT_EXC(m) == RT_EXC_ARP;

		if (k < room && (arp || room - k > w->punt_arp_reserve)) {
			punts[k++] = m;
			continue;
		}
		rte_pktmbuf_free(m);
		w->drops[arp ? RT_DROP_ARP_PUNT_FULL : RT_DROP_PUNT_FULL]++;
	}
	return k;
}

/**
 * The end of every burst: hand its punts to the slow path on the worker's ring
 * and count them by exception. Only ARP enters the ring's last
 * punt_arp_reserve slots; what the ring refuses is dropped as punt_full
 * (arp_punt_full for ARP).
 */
static inline void
rt_punt_flush(struct rt_worker *w, struct rte_mbuf **punts, uint16_t np)
{
	uint16_t i, sent;

	if (np == 0)
		return;
	if (unlikely(rte_ring_free_count(w->punt) < (unsigned int)np + w->punt_arp_reserve)) {
		np = rt_punt_admit(w, punts, np);
		if (np == 0)
			return;
	}
	/* one producer, us: the room rt_punt_admit() saw is there still */
	sent = (uint16_t)rte_ring_sp_enqueue_burst(w->punt, (void **)punts, np, NULL);
	for (i = 0; i < sent; i++)
		w->stats.punts[RT_PUNT_EXC(punts[i])]++;
	if (unlikely(sent < np)) {
		rte_pktmbuf_free_bulk(&punts[sent], np - sent);
		w->drops[RT_DROP_PUNT_FULL] += np - sent;
	}
}

#endif /* RT_PUNT_H */
