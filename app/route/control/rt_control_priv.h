/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_CONTROL_PRIV_H
#define RT_CONTROL_PRIV_H

/*
 * The control context's inside, shared by rt_control.c (rings, dispatch,
 * ICMP, TX) and rt_neigh.c (ARP); not for the app. The two call each other
 * (the dispatch hands ARP and unresolved next hops to the neighbours, which
 * send through the context's TX), so they are one module in two files, with
 * this one header between them.
 *
 * ARP (RFC 826) for the router (rt_neigh.c): the packets, and the neighbour
 * cache of the control context, kept per next hop of the table (rt_nh of
 * type RT_NH_GW).
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
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "rt_control.h"
#include "rt_icmp.h"
#include "rt_table.h"

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

#define RT_CTL_TX_BURST  32
#define RT_CTL_MAX_RINGS 128

struct rt_ctl_txq {
	uint16_t n;
	struct rte_mbuf *pkts[RT_CTL_TX_BURST];
};

/* A router port's kernel twin (rt_control_set_twin()). */
struct rt_ctl_twin {
	uint16_t port_id; /* the twin's DPDK port */
	struct rt_tb tb;  /* punt-rate */
};

#define RT_CTL_NO_TWIN UINT16_MAX

struct rt_neigh {
	uint8_t state;   /* enum rt_neigh_state */
	uint8_t has_ref; /* holds a reference on the next hop */
	uint8_t probes;  /* requests sent in this round */
	uint32_t n_held;
	uint32_t head;
	uint64_t next;          /* TSC of the next request */
	uint64_t confirmed;     /* TSC of the last reply */
	struct rte_mbuf **held; /* ring of arp_hold, allocated on first use */
	uint32_t pos;           /* index in rt_control::active while state != NONE */
};

struct rt_control {
	struct rt_table *t;
	struct rte_mempool *pool;
	uint16_t tx_queue;
	struct rte_ring *tx_ring; /* instead of tx_queue: a worker transmits */
	uint16_t ip_id;
	uint32_t hold_max;
	uint32_t probes_max;
	uint64_t hz;
	uint64_t reachable;
	uint64_t retrans;
	uint64_t next_timers;
	struct rt_tb icmp_tb;
	struct rt_tb echo_tb; /* echo replies: rt_control_params::echo_rate */
	unsigned int n_rings;
	unsigned int ring_size;
	struct rte_ring *rings[RT_CTL_MAX_RINGS];
	struct rt_ctl_txq txq[RTE_MAX_ETHPORTS];
	/* by router port; port_id RT_CTL_NO_TWIN = none */
	struct rt_ctl_twin twin[RTE_MAX_ETHPORTS];
	uint16_t n_twins;
	uint16_t twin_ports[RTE_MAX_ETHPORTS]; /* the router ports that have one, to poll */
	struct rt_neigh *neigh;                /* by next hop index */
	/* the next hops whose state is not NONE: what the timers visit, not every slot */
	uint32_t *active;
	uint32_t n_active;
	uint32_t clear_req; /* rt_control_clear_request(): zero st at the next poll */
	struct rt_control_stats st;
};

/* Queue @p m for TX on @p port through the control's queue. */
void rt_ctl_tx(struct rt_control *ctl, uint16_t port, struct rte_mbuf *m);

/* Forward the frame @p m (TTL checked) to MAC word @p l2 out of @p port. */
void rt_ctl_xmit_fwd(struct rt_control *ctl, uint16_t port, uint64_t l2, struct rte_mbuf *m);

/* Drop every held frame of every neighbour, counted under @p r. */
void rt_neigh_drop_all_held(struct rt_control *ctl, enum rt_drop_reason r);

static inline void
rt_ctl_drop(struct rt_control *ctl, struct rte_mbuf *m, enum rt_drop_reason r)
{
	rte_pktmbuf_free(m);
	ctl->st.drops[r]++;
}

#endif /* RT_CONTROL_PRIV_H */
