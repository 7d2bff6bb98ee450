/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_CONTROL_H
#define RT_CONTROL_H

/**
 * @file
 * The router's slow path: everything the workers hand over (ARP, packets for
 * the router, ICMP errors to send, unresolved next hops, packets to
 * fragment), handled off the fast path by rt_control_poll(), which the app
 * calls periodically from one control thread (or lcore).
 *
 * Each worker has its own single-producer/single-consumer ring to the control
 * context, so a worker never waits: when its ring is full it drops and counts
 * (RT_DROP_PUNT_FULL). The ring's last 1/RT_PUNT_ARP_SHARE is ARP's alone, so a
 * flood of other punts cannot starve ARP (RT_DROP_ARP_PUNT_FULL when even that
 * is full); echo replies are limited to echo_rate a second (RT_DROP_ECHO_RATE). The control context transmits on its own TX queue of
 * every router port (the same queue index on each), so it never shares a TX
 * queue with a worker.
 *
 * A port may have a kernel twin (rt_control_set_twin()): what is for the
 * router and not answered here goes to it, rate-limited per port, and what
 * the kernel sends on it leaves the port. The twin's queues are this
 * context's alone, and the workers' rings are separate from forwarding, so a
 * flood at the router's address costs the workers a ring enqueue per frame
 * at most (docs/user-guide.md, "The exception path").
 *
 * Fragmentation runs here rather than on the workers: a packet larger than
 * the output MTU needs a fresh mbuf per fragment and copies its payload, work
 * of an altogether different cost than forwarding; in a network whose MTUs
 * match it never happens, and keeping it out of rt_route_burst() keeps the
 * fast path a short loop with no allocation. The cost is the throughput of
 * one control thread for oversized traffic (and a ring crossing each).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mempool.h>
#include <rte_ring.h>

#include "rt_drop.h"
#include "rt_table.h"

/* X(ENUM_SUFFIX, "counter_name", "what it counts") */
#define RT_CTL_COUNTERS(X)                                                                             \
	X(RX, "ctl_rx", "frames the slow path took from the workers")                                  \
	X(TX, "ctl_tx", "frames the slow path transmitted")                                            \
	X(FWD, "ctl_fwd", "frames forwarded by the slow path (released from hold, fragments)")         \
	X(ICMP_ERRORS, "icmp_errors", "ICMP errors sent")                                              \
	X(ICMP_RATELIMITED, "icmp_ratelimited", "ICMP errors not sent: rate limit")                    \
	X(ICMP_SUPPRESSED, "icmp_suppressed",                                                          \
		"ICMP errors not sent: about an ICMP error, a non-first fragment, or a group address") \
	X(ECHO_REPLIES, "echo_replies",                                                                \
		"ICMP echo replies sent (at most icmp-echo-rate a second)")                            \
	X(ARP_IN, "arp_in", "ARP frames received and used (for us, or refreshing a neighbour)")        \
	X(ARP_REQUESTS, "arp_requests", "ARP requests sent")                                           \
	X(ARP_REPLIES, "arp_replies", "ARP replies sent")                                              \
	X(ARP_RESOLVED, "arp_resolved", "neighbours resolved or refreshed by ARP")                     \
	X(HELD, "arp_held", "packets held waiting for a neighbour")                                    \
	X(RELEASED, "arp_released", "held packets sent when the neighbour answered")                   \
	X(FRAGMENTED, "fragmented", "packets fragmented")                                              \
	X(FRAGMENTS, "fragments", "fragments produced")                                                \
	X(TO_TWIN, "to_twin", "frames for the router sent to the port's kernel twin")                  \
	X(ARP_TO_TWIN, "arp_to_twin", "ARP frames for the router's address copied to the twin")        \
	X(FROM_TWIN, "from_twin", "frames the kernel sent on a twin, out of its port")

enum rt_ctl_counter {
#define RT_CTL_ENUM(sym, name, desc) RT_CTL_##sym,
	RT_CTL_COUNTERS(RT_CTL_ENUM)
#undef RT_CTL_ENUM
		RT_CTL_MAX
};

/**
 * The control context's counters (written by the control thread only).
 *
 * With them every frame the slow path sees is accounted for (its balance,
 * exact whenever it is idle):
 *
 *	ctl_rx + icmp_errors + arp_requests + arp_replies + fragments + ctl_nomem
 *	+ arp_to_twin + from_twin
 *	= ctl_tx + drops (all of them) + arp_in + fragmented + held + to_twin
 *
 * On the left what came in from the workers and the kernel twins and what it
 * built (ctl_nomem counts frames it could not build, dropped as soon as born;
 * arp_to_twin the copies of ARP frames for the twins); on the right what it
 * handed on to be sent (out of a router port, or to a twin), dropped,
 * consumed (ARP frames used, packets cut into fragments) or still holds. At rt_control_drain() @c held becomes
 * arp_held_at_exit drops. After a clear, @c carried_held joins the left.
 */
struct rt_control_stats {
	uint64_t c[RT_CTL_MAX];      /**< by enum rt_ctl_counter */
	uint64_t drops[RT_DROP_MAX]; /**< drops decided on the slow path */
	uint64_t held;               /**< frames in the ARP hold queues now (not a counter) */
	/**
	 * What was in flight at the last clear (rt_control_clear_request()),
	 * which leaves counted without having come in since: on the workers'
	 * rings, held, on the TX ring (tx_ring mode).
	 */
	uint64_t carried_queued, carried_held, carried_tx;
};

/** Parameters of rt_control_create(); zero means the default in brackets. */
struct rt_control_params {
	struct rt_table *table;
	struct rte_mempool *pool; /**< mbufs for ICMP, ARP and fragments */
	uint16_t tx_queue;        /**< the control's TX queue index on every router port */
	/**
	 * If set, the control context transmits nothing itself: it enqueues each
	 * frame on this ring with mbuf->port = its output port, and a worker sends
	 * it (ports with one TX queue per worker and none to spare). tx_queue is
	 * then unused.
	 */
	struct rte_ring *tx_ring;
	uint32_t icmp_rate;  /**< ICMP errors per second [100] */
	uint32_t icmp_burst; /**< token bucket depth [50] */
	/**
	 * ICMP echo replies per second [RT_ECHO_RATE_DEFAULT]: RFC 1812 4.3.2.8 asks a
	 * router to limit the ICMP it originates, and a flood of requests at its
	 * address would otherwise get one reply each from the one slow-path thread.
	 * The excess is dropped as echo_rate.
	 */
	uint32_t echo_rate;
	uint32_t echo_burst; /**< its token bucket depth [echo_rate / 10, at least 32] */
	uint32_t arp_hold;   /**< packets held per unresolved neighbour [64] */
	uint32_t
		arp_reachable_ms; /**< a neighbour is re-probed this long after its last reply [30000] */
	uint32_t arp_retrans_ms; /**< between ARP requests [1000] */
	uint32_t arp_probes;     /**< requests before giving up [3] */
	uint32_t ring_size;      /**< per-worker ring [1024] */
};

struct rt_control;

/**
 * Create the control context.
 *
 * @return the context, or NULL with rte_errno set.
 */
struct rt_control *rt_control_create(const struct rt_control_params *p);

/** Free @p ctl, its rings and every packet it still holds (NULL is fine). */
void rt_control_free(struct rt_control *ctl);

/**
 * Create the ring from a worker (identified by @p id, e.g. its lcore id) to
 * the control context, for rt_worker_init().
 *
 * @return the ring, or NULL with rte_errno set.
 */
struct rte_ring *rt_control_add_worker(struct rt_control *ctl, unsigned int id);

/**
 * Handle what the workers handed over (at most @p budget frames; 0 = 256),
 * take a burst (32) from each kernel twin's RX for its port, run the ARP
 * timers and the token buckets against @p now (TSC cycles; pass
 * rte_rdtsc()), and transmit. Call it periodically from one thread.
 *
 * @return the number of frames taken from the rings and the twins.
 */
unsigned int rt_control_poll(struct rt_control *ctl, uint64_t now, unsigned int budget);

/** The control context's counters. */
const struct rt_control_stats *rt_control_stats(const struct rt_control *ctl);

/**
 * Ask the thread that polls @p ctl to zero its counters (not @c held, which
 * is state): it does so at the start of its next rt_control_poll(), so the
 * counters keep one writer, and notes what is in flight then (the @c carried
 * fields: exact when no worker enqueues meanwhile). Any thread may ask; see
 * rt_control_clear_pending().
 */
void rt_control_clear_request(struct rt_control *ctl);

/** True until the counters asked zeroed by rt_control_clear_request() are. */
bool rt_control_clear_pending(const struct rt_control *ctl);

/** Frames on the workers' rings to @p ctl, not taken yet (any thread may ask). */
uint64_t rt_control_queued(const struct rt_control *ctl);

/**
 * The router is shutting down (no worker enqueues any more): free every
 * frame @p ctl still has and count it, the held ones as arp_held_at_exit,
 * those on the workers' rings and its TX queues as ctl_queued_at_exit, so
 * that the final counters account for every frame. Call from the thread
 * that polls, after its last rt_control_poll().
 */
void rt_control_drain(struct rt_control *ctl);

/** Default icmp-echo-rate: echo replies per second the router sends. */
#define RT_ECHO_RATE_DEFAULT 1000

/** Default punt-rate: frames per second to a port's kernel twin. */
#define RT_TWIN_RATE_DEFAULT 10000

/**
 * Give router port @p port a kernel twin, the started DPDK port @p twin (a
 * net_tap whose interface has the port's MAC and address): what is for the
 * router and not answered by the slow path itself (anything but ARP and ICMP
 * echo, link-local multicast) is sent to it through its TX queue 0, at most
 * @p rate frames per second (burst @p rate / 10, at least 32; 0 = default
 * RT_TWIN_RATE_DEFAULT), the excess dropped as punt_rate; ARP for the port's
 * address is answered as before and copied to it as well, so that the kernel
 * knows its neighbours. What the kernel sends on the twin (its RX queue 0,
 * polled by rt_control_poll()) leaves @p port unchanged. Only the thread
 * that polls @p ctl may use the twin's queues. Call before the first poll.
 *
 * @return 0, or -EINVAL (a port out of range, not a router port, the twin a
 *   router port or @p port's already).
 */
int rt_control_set_twin(struct rt_control *ctl, uint16_t port, uint16_t twin, uint32_t rate);

/** Counter name of @p c ("icmp_errors", ...); "unknown" if out of range. */
const char *rt_ctl_counter_name(enum rt_ctl_counter c);

#endif /* RT_CONTROL_H */
