/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_WORKER_H
#define RT_WORKER_H

/**
 * @file
 * One worker's routing context: what it reads of the table (LPM, next hops,
 * interfaces), its ring to the slow path, its RCU thread id and counters;
 * and where a burst's stages put what they forward and what they punt. Set
 * up by the control path (control/rt_worker_setup.h).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include "rt_fib.h"
#include <rte_mbuf.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring.h>

#include "rt_drop.h"
#include "rt_exception.h"
#include "rt_types.h"

/**
 * The last 1/RT_PUNT_ARP_SHARE of each worker's ring to the slow path is
 * ARP's: a flood of other punts (echo requests at the router's address,
 * packets to unresolved next hops) stops short of it, so the ARP that keeps
 * the router's neighbours resolved is never starved by them (rt_punt.h).
 */
#define RT_PUNT_ARP_SHARE 8

/** Counters of one worker that are not drops. */
struct rt_worker_stats {
	uint64_t fwd;               /**< frames left in the burst to transmit */
	uint64_t punts[RT_EXC_MAX]; /**< frames handed to the slow path, by exception */
};

/** One worker's routing context; see rt_worker_init(). */
struct rt_worker {
	const struct rt_fib *fib;
	const struct rt_nh *nh;
	/** the control path's part of each next hop: for the packet trace, never the burst */
	const struct rt_nh_info *nh_info;
	const struct rt_port *ports;
	const uint32_t *default_nh; /**< the table's /0 next hop, read once per burst */
	struct rte_ring *punt;      /**< to the control context; single producer */
	/** slots of @c punt that only ARP may fill (rt_punt_flush()): RT_PUNT_ARP_SHARE of it */
	uint32_t punt_arp_reserve;
	struct rte_rcu_qsbr *qsbr;
	unsigned int thread_id;
	uint64_t *drops; /**< RT_DROP_MAX counters, indexed by enum rt_drop_reason */
	struct rt_worker_stats stats;
	uint64_t own_drops[RT_DROP_MAX]; /**< @c drops when the caller gives none */
};

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

/** Where the stage puts what it forwards and what it hands to the slow path. */
struct rt_flow_out {
	struct rte_mbuf **pkts; /**< forwarded, in arrival order */
	uint16_t *port;         /**< their output ports */
	uint16_t n;
	struct rte_mbuf **punts; /**< for the slow path, in arrival order */
	uint16_t np;
};

struct rt_flow;

/**
 * One burst as its stages see it: who routes it, where it came from, where
 * its frames go. rt_burst.h fills one on the stack per burst and hands the
 * stages a pointer to it instead of the nine to eleven arguments each took.
 * The stages are inlined, so the compiler keeps its fields in registers as
 * it kept those arguments; the few functions that are not inlined (rare
 * paths: rt_classify_slow(), rt_flow_apply_other(), rt_flow_uncached()) take
 * the fields they need, so the context's address never leaves the burst.
 */
struct rt_burst_ctx {
	struct rt_worker *w;
	struct rt_flow *fl; /**< the flow stage; NULL for the router alone */
	/** flow stage: where forwarded frames go; NULL for the router alone */
	struct rt_flow_out *o;
	/**
	 * Where a stage punts: the burst's array on the stack and its count
	 * (the flow stage's are @c o's). Kept here, not read from @c o: a store
	 * into a packet may alias @c o, and the compiler would load them again
	 * for every packet.
	 */
	struct rte_mbuf **punts;
	uint16_t *np;
	uint64_t now;     /**< flow stage: the burst's TSC (entries' last use) */
	uint32_t defv;    /**< the /0 route's next hop (or RT_NH_MISS), read once a burst */
	uint32_t gen;     /**< flow stage: the table's generation before any lookup */
	uint16_t in_port; /**< the port the burst came in on */
	uint16_t q;       /**< flow stage: the worker's RX queue number (rt_flow_conf) */
	bool hw_cksum;    /**< router alone: in_port's rx_cksum, a constant in each copy */
};

#endif /* RT_WORKER_H */
