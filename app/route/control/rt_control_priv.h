/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_CONTROL_PRIV_H
#define RT_CONTROL_PRIV_H

/*
 * The control context's inside, shared by rt_control.c (rings, dispatch,
 * ICMP, TX) and rt_neigh.c (ARP); not for the app.
 */

#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "rt_control.h"
#include "rt_icmp.h"
#include "rt_neigh.h"
#include "rt_table.h"

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
