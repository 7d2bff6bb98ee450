/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "rt_control_priv.h"
#include "rt_ecmp.h"
#include "rt_frag.h"
#include "rt_exception.h"
#include "rt_ipv4.h"
#include "rt_log.h"
#include "rt_nhgroup.h"

static const char *const ctl_names[] = {
#define RT_CTL_NAME(sym, name, desc) name,
	RT_CTL_COUNTERS(RT_CTL_NAME)
#undef RT_CTL_NAME
};

const char *
rt_ctl_counter_name(enum rt_ctl_counter c)
{
	return (unsigned int)c < RT_CTL_MAX ? ctl_names[c] : "unknown";
}

struct rt_control *
rt_control_create(const struct rt_control_params *p)
{
	struct rt_control *ctl;
	uint32_t echo_rate;
	unsigned int i;

	if (p == NULL || p->table == NULL || p->pool == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	ctl = rte_zmalloc("rt_control", sizeof(*ctl), RTE_CACHE_LINE_SIZE);
	if (ctl == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	ctl->t = p->table;
	ctl->pool = p->pool;
	ctl->tx_queue = p->tx_queue;
	ctl->tx_ring = p->tx_ring;
	ctl->hz = rte_get_tsc_hz();
	ctl->hold_max = p->arp_hold != 0 ? p->arp_hold : 64;
	ctl->probes_max = p->arp_probes != 0 ? p->arp_probes : 3;
	ctl->reachable = ctl->hz / 1000 * (p->arp_reachable_ms != 0 ? p->arp_reachable_ms : 30000);
	ctl->retrans = ctl->hz / 1000 * (p->arp_retrans_ms != 0 ? p->arp_retrans_ms : 1000);
	ctl->ring_size = p->ring_size != 0 ? p->ring_size : 1024;
	for (i = 0; i < RTE_MAX_ETHPORTS; i++)
		ctl->twin[i].port_id = RT_CTL_NO_TWIN;
	/* starts full: the first refill is capped at the depth */
	rt_tb_init(&ctl->icmp_tb, ctl->hz, p->icmp_rate != 0 ? p->icmp_rate : 100,
		p->icmp_burst != 0 ? p->icmp_burst : 50, 0);
	/* a tenth of a second's worth, as for the twins: a few pings at once pass */
	echo_rate = p->echo_rate != 0 ? p->echo_rate : RT_ECHO_RATE_DEFAULT;
	rt_tb_init(&ctl->echo_tb, ctl->hz, echo_rate,
		p->echo_burst != 0 ? p->echo_burst : RTE_MAX(echo_rate / 10, 32u), 0);
	ctl->neigh = rte_zmalloc("rt_neigh", ctl->t->max_nh * sizeof(ctl->neigh[0]), 0);
	ctl->active = malloc(ctl->t->max_nh * sizeof(ctl->active[0]));
	if (ctl->neigh == NULL || ctl->active == NULL) {
		free(ctl->active);
		rte_free(ctl->neigh);
		rte_free(ctl);
		rte_errno = ENOMEM;
		return NULL;
	}
	return ctl;
}

void
rt_control_free(struct rt_control *ctl)
{
	struct rte_mbuf *m;
	uint32_t i;
	uint16_t p;

	if (ctl == NULL)
		return;
	for (i = 0; i < ctl->n_rings; i++) {
		while (rte_ring_dequeue(ctl->rings[i], (void **)&m) == 0)
			rte_pktmbuf_free(m);
		rte_ring_free(ctl->rings[i]);
	}
	for (p = 0; p < RTE_MAX_ETHPORTS; p++)
		rte_pktmbuf_free_bulk(ctl->txq[p].pkts, ctl->txq[p].n);
	for (i = 0; i < ctl->t->max_nh; i++) {
		struct rt_neigh *e = &ctl->neigh[i];

		while (e->n_held > 0) {
			rte_pktmbuf_free(e->held[e->head]);
			e->head = (e->head + 1) % ctl->hold_max;
			e->n_held--;
		}
		rte_free(e->held);
	}
	rte_free(ctl->neigh);
	free(ctl->active);
	rte_free(ctl);
}

struct rte_ring *
rt_control_add_worker(struct rt_control *ctl, unsigned int id)
{
	char name[RTE_RING_NAMESIZE];
	struct rte_ring *r;

	if (ctl->n_rings >= RT_CTL_MAX_RINGS) {
		rte_errno = ENOSPC;
		return NULL;
	}
	snprintf(name, sizeof(name), "rt%" PRIxPTR "_%u", (uintptr_t)ctl & 0xffffffff, id);
	r = rte_ring_create(name, ctl->ring_size, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (r == NULL)
		return NULL;
	ctl->rings[ctl->n_rings++] = r;
	return r;
}

int
rt_control_set_twin(struct rt_control *ctl, uint16_t port, uint16_t twin, uint32_t rate)
{
	uint32_t burst;

	if (ctl == NULL || port >= RTE_MAX_ETHPORTS || twin >= RTE_MAX_ETHPORTS ||
		!ctl->t->ports[port].enabled || ctl->t->ports[twin].enabled ||
		ctl->twin[port].port_id != RT_CTL_NO_TWIN)
		return -EINVAL;
	if (rate == 0)
		rate = RT_TWIN_RATE_DEFAULT;
	/* a tenth of a second's worth: a BGP update burst passes, a flood does not */
	burst = RTE_MAX(rate / 10, 32u);
	rt_tb_init(&ctl->twin[port].tb, ctl->hz, rate, burst, 0);
	ctl->twin[port].port_id = twin;
	ctl->twin_ports[ctl->n_twins++] = port;
	return 0;
}

const struct rt_control_stats *
rt_control_stats(const struct rt_control *ctl)
{
	return &ctl->st;
}

void
rt_control_clear_request(struct rt_control *ctl)
{
	__atomic_store_n(&ctl->clear_req, 1, __ATOMIC_RELEASE);
}

bool
rt_control_clear_pending(const struct rt_control *ctl)
{
	return __atomic_load_n(&ctl->clear_req, __ATOMIC_ACQUIRE) != 0;
}

uint64_t
rt_control_queued(const struct rt_control *ctl)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < ctl->n_rings; i++)
		n += rte_ring_count(ctl->rings[i]);
	return n;
}

void
rt_control_drain(struct rt_control *ctl)
{
	struct rte_mbuf *m;
	unsigned int i;
	uint16_t p;

	for (i = 0; i < ctl->n_rings; i++)
		while (rte_ring_dequeue(ctl->rings[i], (void **)&m) == 0) {
			rte_pktmbuf_free(m);
			ctl->st.drops[RT_DROP_CTL_QUEUED_AT_EXIT]++;
		}
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		rte_pktmbuf_free_bulk(ctl->txq[p].pkts, ctl->txq[p].n);
		ctl->st.drops[RT_DROP_CTL_QUEUED_AT_EXIT] += ctl->txq[p].n;
		ctl->txq[p].n = 0;
	}
	rt_neigh_drop_all_held(ctl, RT_DROP_ARP_HELD_AT_EXIT);
}

static void
tx_flush(struct rt_control *ctl, uint16_t port)
{
	struct rt_ctl_txq *q = &ctl->txq[port];
	uint16_t sent;

	if (q->n == 0)
		return;
	if (ctl->tx_ring != NULL) {
		uint16_t i;

		/* a worker transmits for us: it reads the output port from the mbuf */
		for (i = 0; i < q->n; i++)
			q->pkts[i]->port = port;
		sent = (uint16_t)rte_ring_enqueue_burst(ctl->tx_ring, (void **)q->pkts, q->n, NULL);
	} else {
		sent = rte_eth_tx_burst(port, ctl->tx_queue, q->pkts, q->n);
	}
	if (sent < q->n) {
		rte_pktmbuf_free_bulk(&q->pkts[sent], q->n - sent);
		ctl->st.drops[RT_DROP_CTL_TX_FULL] += q->n - sent;
	}
	ctl->st.c[RT_CTL_TX] += sent;
	q->n = 0;
}

void
rt_ctl_tx(struct rt_control *ctl, uint16_t port, struct rte_mbuf *m)
{
	struct rt_ctl_txq *q = &ctl->txq[port];

	if (q->n == RT_CTL_TX_BURST)
		tx_flush(ctl, port);
	q->pkts[q->n++] = m;
}

void
rt_ctl_xmit_fwd(struct rt_control *ctl, uint16_t port, uint64_t l2, struct rte_mbuf *m)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);

	rt_ipv4_ttl_dec((struct rte_ipv4_hdr *)(eth + 1));
	memcpy(&eth->dst_addr, &l2, RTE_ETHER_ADDR_LEN);
	rte_ether_addr_copy(&ctl->t->ports[port].mac, &eth->src_addr);
	ctl->st.c[RT_CTL_FWD]++;
	rt_ctl_tx(ctl, port, m);
}

/* An ICMP error about @p m back out of the port it came in on, if allowed. */
static void
icmp_error(struct rt_control *ctl, struct rte_mbuf *m, uint8_t type, uint8_t code, uint16_t mtu,
	uint64_t now)
{
	const struct rt_port *p = &ctl->t->ports[m->port];
	const struct rte_ipv4_hdr *ip =
		rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RT_L2_LEN);
	uint32_t src = rte_be_to_cpu_32(ip->src_addr), dst = rte_be_to_cpu_32(ip->dst_addr);
	struct rte_mbuf *r;

	/*
	 * Nor to or from a connected network's broadcast or network address:
	 * neither names one host (RFC 1812 4.3.2.7), and only the table knows them.
	 */
	if (p->ip == 0 || !rt_icmp_error_allowed(m) || rt_iface_is_subnet_bcast(ctl->t, src) ||
		rt_iface_is_subnet_bcast(ctl->t, dst)) {
		ctl->st.c[RT_CTL_ICMP_SUPPRESSED]++;
		return;
	}
	if (!rt_tb_take(&ctl->icmp_tb, now)) {
		ctl->st.c[RT_CTL_ICMP_RATELIMITED]++;
		return;
	}
	r = rt_icmp_error_build(ctl->pool, m, type, code, mtu, p->ip, &p->mac, ctl->ip_id++);
	if (r == NULL) {
		ctl->st.drops[RT_DROP_CTL_NOMEM]++;
		return;
	}
	rt_ctl_tx(ctl, m->port, r);
	ctl->st.c[RT_CTL_ICMP_ERRORS]++;
}

/*
 * Cut @p m for @p mtu into @p frags (RT_FRAG_MAX), counted.
 *
 * @return the number of fragments, 0 when @p m could not be cut (then it is
 *   dropped as frag_failed).
 */
static int
fragment(struct rt_control *ctl, struct rte_mbuf *m, uint16_t mtu, struct rte_mbuf **frags)
{
	int n = rt_frag_ipv4(m, mtu, ctl->pool, frags, RT_FRAG_MAX);

	if (n < 0) {
		rt_ctl_drop(ctl, m, RT_DROP_FRAG_FAILED);
		return 0;
	}
	ctl->st.c[RT_CTL_FRAGMENTED]++;
	ctl->st.c[RT_CTL_FRAGMENTS] += (uint64_t)n;
	return n;
}

/*
 * An echo reply larger than the port's MTU (the request came in larger, or
 * fragmented and reassembled elsewhere) leaves in fragments, as a host's
 * would: the reply has DF clear.
 */
static void
echo_reply_out(struct rt_control *ctl, uint16_t port, struct rte_mbuf *m)
{
	struct rte_mbuf *frags[RT_FRAG_MAX];
	uint16_t mtu = ctl->t->ports[port].mtu;
	int n, i;

	if (rte_pktmbuf_pkt_len(m) - RT_L2_LEN <= mtu) {
		ctl->st.c[RT_CTL_ECHO_REPLIES]++;
		rt_ctl_tx(ctl, port, m);
		return;
	}
	n = fragment(ctl, m, mtu, frags);
	if (n > 0) /* else dropped as frag_failed: no reply sent */
		ctl->st.c[RT_CTL_ECHO_REPLIES]++;
	for (i = 0; i < n; i++)
		rt_ctl_tx(ctl, port, frags[i]);
}

/*
 * @p m, for the router and received on @p port, to the port's kernel twin
 * (it has one) as it is, within the port's punt-rate. The twin is a TAP: its
 * TX copies the frame to the kernel and frees the mbuf at once.
 */
static void
twin_out(struct rt_control *ctl, uint16_t port, struct rte_mbuf *m, uint64_t now)
{
	struct rt_ctl_twin *tw = &ctl->twin[port];

	if (!rt_tb_take(&tw->tb, now)) {
		rt_ctl_drop(ctl, m, RT_DROP_PUNT_RATE);
		return;
	}
	if (rte_eth_tx_burst(tw->port_id, 0, &m, 1) != 1) {
		rt_ctl_drop(ctl, m, RT_DROP_TWIN_TX_FULL);
		return;
	}
	ctl->st.c[RT_CTL_TO_TWIN]++;
}

/*
 * ARP for the address of @p port, which has a twin: a copy to the twin, so
 * that the kernel learns the neighbours it talks to (it sends its own
 * requests, and the replies come to the router's MAC, which is the twin's).
 * The slow path answers requests itself all the same (the twin's replies to
 * them are duplicates, harmless), so ARP does not depend on the kernel.
 */
static void
arp_to_twin(struct rt_control *ctl, const struct rte_mbuf *m, uint16_t port, uint64_t now)
{
	struct rt_arp_info a;
	struct rte_mbuf *c;

	if (rt_arp_parse(m, &a) < 0 || a.tpa != ctl->t->ports[port].ip || a.tpa == 0)
		return;
	c = rte_pktmbuf_copy(m, ctl->pool, 0, UINT32_MAX);
	if (c == NULL) {
		ctl->st.drops[RT_DROP_CTL_NOMEM]++;
		return;
	}
	ctl->st.c[RT_CTL_ARP_TO_TWIN]++;
	twin_out(ctl, port, c, now);
}

static void
local_input(struct rt_control *ctl, struct rte_mbuf *m, uint64_t now)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(eth + 1);
	uint16_t port = m->port;

	/* a reply to a broadcast or network address would reach a whole network */
	if (rt_iface_is_subnet_bcast(ctl->t, rte_be_to_cpu_32(ip->src_addr))) {
		rt_ctl_drop(ctl, m, RT_DROP_MARTIAN_SRC);
		return;
	}
	/* echo to a subnet broadcast stays unanswered (RFC 1812 4.3.3.6 allows silence) */
	if (ip->next_proto_id == IPPROTO_ICMP &&
		rt_iface_is_local(ctl->t, rte_be_to_cpu_32(ip->dst_addr)) &&
		rt_icmp_echo_reply(m) == 0) {
		/* a well-formed request only costs a token (RFC 1812 4.3.2.8) */
		if (!rt_tb_take(&ctl->echo_tb, now)) {
			rt_ctl_drop(ctl, m, RT_DROP_ECHO_RATE);
			return;
		}
		eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *); /* options gone: moved */
		rte_ether_addr_copy(&ctl->t->ports[port].mac, &eth->src_addr);
		echo_reply_out(ctl, port, m);
		return;
	}
	/* the rest is the kernel's (TCP, UDP, OSPF, ...), if the port has a twin */
	if (ctl->twin[port].port_id != RT_CTL_NO_TWIN) {
		twin_out(ctl, port, m, now);
		return;
	}
	rt_ctl_drop(ctl, m, RT_DROP_LOCAL_OTHER);
}

/* Out through neighbour @p nh, fragmenting for its port's MTU. */
static void
route_out(struct rt_control *ctl, uint32_t nh, struct rte_mbuf *m, uint64_t now)
{
	const struct rte_ipv4_hdr *ip =
		rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, RT_L2_LEN);
	uint16_t mtu = ctl->t->ports[ctl->t->nh[nh].port].mtu;
	struct rte_mbuf *frags[RT_FRAG_MAX];
	int n, i;

	if (rte_be_to_cpu_16(ip->total_length) <= mtu) {
		rt_neigh_output(ctl, nh, m, now);
		return;
	}
	if (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_DF_FLAG)) {
		icmp_error(ctl, m, RT_ICMP_DEST_UNREACH, RT_ICMP_FRAG_NEEDED, mtu, now);
		rt_ctl_drop(ctl, m, RT_DROP_FRAG_NEEDED);
		return;
	}
	n = fragment(ctl, m, mtu, frags);
	for (i = 0; i < n; i++)
		rt_neigh_output(ctl, nh, frags[i], now);
}

/*
 * A packet to forward that the worker could not finish. The table may have
 * changed since the worker looked: look again rather than trust its next hop.
 */
static void
route_slow(struct rt_control *ctl, struct rte_mbuf *m, uint64_t now)
{
	const struct rte_ipv4_hdr *ip =
		rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, RT_L2_LEN);
	uint32_t dst = rte_be_to_cpu_32(ip->dst_addr);
	uint32_t nh = rt_route_lookup(ctl->t, dst);
	const struct rt_nh *n;

	if (nh == RT_NH_MISS) {
		icmp_error(ctl, m, RT_ICMP_DEST_UNREACH, RT_ICMP_NET_UNREACH, 0, now);
		rt_ctl_drop(ctl, m, RT_DROP_NO_ROUTE);
		return;
	}
	n = &ctl->t->nh[nh];
	switch (n->type) {
	case RT_NH_GROUP:
		/*
		 * The worker's member if still active (it may have used the RSS
		 * hash, which the punt tag has overwritten), else the flow's.
		 */
		nh = rt_nhgroup_pick(ctl->t, nh, rt_ecmp_hash_sw(m, ip, RT_L2_LEN), RT_PUNT_NH(m));
		if (nh == RT_NH_MISS)
			rt_ctl_drop(ctl, m, RT_DROP_NO_ROUTE);
		else
			route_out(ctl, nh, m, now);
		break;
	case RT_NH_GW:
		route_out(ctl, nh, m, now);
		break;
	case RT_NH_CONNECTED:
		nh = rt_neigh_lookup_create(ctl, dst, n->port);
		if (nh == RT_NH_MISS)
			rt_ctl_drop(ctl, m, RT_DROP_NH_FULL);
		else
			route_out(ctl, nh, m, now);
		break;
	case RT_NH_LOCAL:
		local_input(ctl, m, now);
		break;
	case RT_NH_REJECT:
		icmp_error(ctl, m, RT_ICMP_DEST_UNREACH, RT_ICMP_HOST_UNREACH, 0, now);
		rt_ctl_drop(ctl, m, RT_DROP_REJECT);
		break;
	default:
		rt_ctl_drop(ctl, m, RT_DROP_BLACKHOLE);
		break;
	}
}

static void
handle(struct rt_control *ctl, struct rte_mbuf *m, uint64_t now)
{
	ctl->st.c[RT_CTL_RX]++;
	switch (RT_PUNT_EXC(m)) {
	case RT_EXC_ARP:
		if (ctl->twin[m->port].port_id != RT_CTL_NO_TWIN)
			arp_to_twin(ctl, m, m->port, now);
		rt_neigh_input(ctl, m, m->port, now);
		break;
	case RT_EXC_LOCAL:
		local_input(ctl, m, now);
		break;
	case RT_EXC_TTL:
		icmp_error(ctl, m, RT_ICMP_TIME_EXCEEDED, RT_ICMP_TTL_EXCEEDED, 0, now);
		rt_ctl_drop(ctl, m, RT_DROP_TTL_EXCEEDED);
		break;
	case RT_EXC_NO_ROUTE:
		icmp_error(ctl, m, RT_ICMP_DEST_UNREACH, RT_ICMP_NET_UNREACH, 0, now);
		rt_ctl_drop(ctl, m, RT_DROP_NO_ROUTE);
		break;
	case RT_EXC_REJECT:
		icmp_error(ctl, m, RT_ICMP_DEST_UNREACH, RT_ICMP_HOST_UNREACH, 0, now);
		rt_ctl_drop(ctl, m, RT_DROP_REJECT);
		break;
	default: /* MTU, UNRESOLVED */
		route_slow(ctl, m, now);
		break;
	}
}

unsigned int
rt_control_poll(struct rt_control *ctl, uint64_t now, unsigned int budget)
{
	struct rte_mbuf *pkts[32];
	unsigned int i, j, n, total = 0;
	uint16_t p;

	if (budget == 0)
		budget = 256;
	if (unlikely(rt_control_clear_pending(ctl))) {
		/* the counters have one writer, us: a clear asked elsewhere is done here */
		memset(ctl->st.c, 0, sizeof(ctl->st.c));
		memset(ctl->st.drops, 0, sizeof(ctl->st.drops));
		ctl->st.carried_queued = rt_control_queued(ctl);
		ctl->st.carried_held = ctl->st.held;
		ctl->st.carried_tx = ctl->tx_ring != NULL ? rte_ring_count(ctl->tx_ring) : 0;
		__atomic_store_n(&ctl->clear_req, 0, __ATOMIC_RELEASE);
	}
	for (i = 0; i < ctl->n_rings && total < budget; i++) {
		do {
			n = rte_ring_sc_dequeue_burst(
				ctl->rings[i], (void **)pkts, RTE_MIN(32u, budget - total), NULL);
			for (j = 0; j < n; j++)
				handle(ctl, pkts[j], now);
			total += n;
		} while (n == 32 && total < budget);
	}
	/*
	 * What the kernel sends on the twins leaves their ports as it is (the
	 * kernel did ARP and L2 with the port's MAC): a burst each per poll.
	 */
	for (i = 0; i < ctl->n_twins; i++) {
		uint16_t port = ctl->twin_ports[i];

		n = rte_eth_rx_burst(ctl->twin[port].port_id, 0, pkts, RTE_DIM(pkts));
		ctl->st.c[RT_CTL_FROM_TWIN] += n;
		for (j = 0; j < n; j++)
			rt_ctl_tx(ctl, port, pkts[j]);
		total += n;
	}
	/* timers every 10 ms are plenty for second-scale ARP timing */
	if (now >= ctl->next_timers) {
		rt_neigh_timers(ctl, now);
		ctl->next_timers = now + ctl->hz / 100;
	}
	for (p = 0; p < RTE_MAX_ETHPORTS; p++)
		tx_flush(ctl, p);
	return total;
}
