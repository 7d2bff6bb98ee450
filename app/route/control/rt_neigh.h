/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_NEIGH_H
#define RT_NEIGH_H

/**
 * @file
 * ARP (RFC 826) for the router: the packets, and the neighbour cache of the
 * control context, kept per next hop of the table (rt_nh of type RT_NH_GW).
 *
 * A neighbour is NONE (no state), INCOMPLETE (requests sent, packets held,
 * up to arp_hold of them, released in order by the reply), REACHABLE (MAC
 * published to the workers), PROBE (its reachable time ran out: still used,
 * re-asked by unicast-less broadcast requests; unresolved again after
 * arp_probes unanswered requests), or static (from the config: never aged,
 * never changed by ARP).
 */

#include <stdint.h>

#include <rte_arp.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

struct rt_control;

/** Neighbour states (control context). */
enum rt_neigh_state {
	RT_NEIGH_NONE = 0,
	RT_NEIGH_INCOMPLETE,
	RT_NEIGH_REACHABLE,
	RT_NEIGH_PROBE,
};

/** The fields of an Ethernet/IPv4 ARP packet, host order. */
struct rt_arp_info {
	uint16_t op;               /**< RTE_ARP_OP_REQUEST or RTE_ARP_OP_REPLY */
	struct rte_ether_addr sha; /**< sender MAC */
	uint32_t spa;              /**< sender IP */
	struct rte_ether_addr tha;
	uint32_t tpa; /**< target IP */
};

/**
 * Parse the ARP frame @p m (Ethernet header first) into @p a.
 *
 * @return 0, or -EINVAL when it is not Ethernet/IPv4 ARP request or reply.
 */
int rt_arp_parse(const struct rte_mbuf *m, struct rt_arp_info *a);

/**
 * Write an ARP packet of operation @p op into a new frame from @p pool:
 * Ethernet from @p sha to @p eth_dst, sender @p sha/@p spa, target
 * @p tha/@p tpa (@p tha NULL = zeros, as in a request).
 *
 * @return the frame, or NULL when @p pool is empty.
 */
struct rte_mbuf *rt_arp_build(struct rte_mempool *pool, uint16_t op,
	const struct rte_ether_addr *eth_dst, const struct rte_ether_addr *sha, uint32_t spa,
	const struct rte_ether_addr *tha, uint32_t tpa);

/**
 * Handle the ARP frame @p m received on @p port: answer requests for the
 * port's address, learn or refresh the sender (RFC 826 merge), release the
 * packets held for it. Consumes @p m.
 */
void rt_neigh_input(struct rt_control *ctl, struct rte_mbuf *m, uint16_t port, uint64_t now);

/**
 * Send the IPv4 frame @p m (as received, TTL checked) through neighbour
 * next hop @p nh: at once when its MAC is known, else held (and ARP started).
 * Consumes @p m.
 */
void rt_neigh_output(struct rt_control *ctl, uint32_t nh, struct rte_mbuf *m, uint64_t now);

/**
 * Neighbour next hop for the destination @p ip on port @p port's network,
 * created (with its /32 route) if need be; the control context holds a
 * reference while it has state for it.
 *
 * @return next hop index, or RT_NH_MISS.
 */
uint32_t rt_neigh_lookup_create(struct rt_control *ctl, uint32_t ip, uint16_t port);

/** Retransmit requests, age entries, give up on silent neighbours. */
void rt_neigh_timers(struct rt_control *ctl, uint64_t now);

/** State of the neighbour next hop @p nh (for tests and the shell). */
enum rt_neigh_state rt_neigh_state(const struct rt_control *ctl, uint32_t nh);

/** Number of packets held for @p nh. */
uint32_t rt_neigh_held(const struct rt_control *ctl, uint32_t nh);

#endif /* RT_NEIGH_H */
