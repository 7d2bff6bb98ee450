/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_arp.h>
#include <rte_malloc.h>

#include "rt_control_priv.h"
#include "rt_log.h"

int
rt_arp_parse(const struct rte_mbuf *m, struct rt_arp_info *a)
{
	const struct rte_arp_hdr *h;

	if (rte_pktmbuf_data_len(m) < RTE_ETHER_HDR_LEN + sizeof(*h))
		return -EINVAL;
	h = rte_pktmbuf_mtod_offset(m, const struct rte_arp_hdr *, RTE_ETHER_HDR_LEN);
	if (h->arp_hardware != RTE_BE16(RTE_ARP_HRD_ETHER) ||
		h->arp_protocol != RTE_BE16(RTE_ETHER_TYPE_IPV4) || h->arp_hlen != 6 ||
		h->arp_plen != 4)
		return -EINVAL;
	a->op = rte_be_to_cpu_16(h->arp_opcode);
	if (a->op != RTE_ARP_OP_REQUEST && a->op != RTE_ARP_OP_REPLY)
		return -EINVAL;
	a->sha = h->arp_data.arp_sha;
	a->tha = h->arp_data.arp_tha;
	a->spa = rte_be_to_cpu_32(h->arp_data.arp_sip);
	a->tpa = rte_be_to_cpu_32(h->arp_data.arp_tip);
	return 0;
}

struct rte_mbuf *
rt_arp_build(struct rte_mempool *pool, uint16_t op, const struct rte_ether_addr *eth_dst,
	const struct rte_ether_addr *sha, uint32_t spa, const struct rte_ether_addr *tha,
	uint32_t tpa)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	struct rte_ether_hdr *eth;
	struct rte_arp_hdr *h;

	if (m == NULL)
		return NULL;
	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(m, RTE_ETHER_HDR_LEN + sizeof(*h));
	if (eth == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	rte_ether_addr_copy(eth_dst, &eth->dst_addr);
	rte_ether_addr_copy(sha, &eth->src_addr);
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_ARP);
	h = (struct rte_arp_hdr *)(eth + 1);
	h->arp_hardware = RTE_BE16(RTE_ARP_HRD_ETHER);
	h->arp_protocol = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	h->arp_hlen = RTE_ETHER_ADDR_LEN;
	h->arp_plen = 4;
	h->arp_opcode = rte_cpu_to_be_16(op);
	h->arp_data.arp_sha = *sha;
	h->arp_data.arp_sip = rte_cpu_to_be_32(spa);
	if (tha != NULL)
		h->arp_data.arp_tha = *tha;
	else
		memset(&h->arp_data.arp_tha, 0, sizeof(h->arp_data.arp_tha));
	h->arp_data.arp_tip = rte_cpu_to_be_32(tpa);
	return m;
}

static void
send_request(struct rt_control *ctl, uint32_t nh)
{
	static const struct rte_ether_addr bcast = {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};
	const struct rt_nh *n = &ctl->t->nh[nh];
	const struct rt_port *p = &ctl->t->ports[n->port];
	struct rte_mbuf *m;

	if (p->ip == 0)
		return;
	m = rt_arp_build(ctl->pool, RTE_ARP_OP_REQUEST, &bcast, &p->mac, p->ip, NULL,
		ctl->t->nh_info[nh].ip);
	if (m == NULL) {
		ctl->st.drops[RT_DROP_CTL_NOMEM]++;
		return;
	}
	rt_ctl_tx(ctl, n->port, m);
	ctl->st.c[RT_CTL_ARP_REQUESTS]++;
}

/* The control context keeps a reference while it has state for @p nh. */
static void
entry_ref(struct rt_control *ctl, uint32_t nh)
{
	struct rt_neigh *e = &ctl->neigh[nh];
	const struct rt_nh *n = &ctl->t->nh[nh];

	if (e->has_ref)
		return;
	if (rt_nh_neigh_get(ctl->t, ctl->t->nh_info[nh].ip, n->port, true) == nh)
		e->has_ref = 1;
}

/* Move @p nh to @p state, keeping the set of active (not NONE) entries the timers visit. */
static void
set_state(struct rt_control *ctl, uint32_t nh, enum rt_neigh_state state)
{
	struct rt_neigh *e = &ctl->neigh[nh];

	if (e->state == RT_NEIGH_NONE && state != RT_NEIGH_NONE) {
		e->pos = ctl->n_active;
		ctl->active[ctl->n_active++] = nh;
	} else if (e->state != RT_NEIGH_NONE && state == RT_NEIGH_NONE) {
		uint32_t last = ctl->active[--ctl->n_active];

		ctl->active[e->pos] = last;
		ctl->neigh[last].pos = e->pos;
	}
	e->state = (uint8_t)state;
}

static void
drop_held(struct rt_control *ctl, struct rt_neigh *e, enum rt_drop_reason r)
{
	while (e->n_held > 0) {
		rt_ctl_drop(ctl, e->held[e->head], r);
		e->head = (e->head + 1) % ctl->hold_max;
		e->n_held--;
		ctl->st.held--;
	}
}

void
rt_neigh_drop_all_held(struct rt_control *ctl, enum rt_drop_reason r)
{
	uint32_t i;

	/* only an active (incomplete) entry holds frames */
	for (i = 0; i < ctl->n_active; i++)
		drop_held(ctl, &ctl->neigh[ctl->active[i]], r);
}

/* Forget @p nh: unresolved again, held packets dropped, reference returned. */
static void
entry_reset(struct rt_control *ctl, uint32_t nh, enum rt_drop_reason r)
{
	struct rt_neigh *e = &ctl->neigh[nh];

	drop_held(ctl, e, r);
	if (!ctl->t->nh_info[nh].is_static)
		rt_nh_set_mac(ctl->t, nh, NULL);
	set_state(ctl, nh, RT_NEIGH_NONE);
	e->probes = 0;
	if (e->has_ref) {
		e->has_ref = 0;
		rt_nh_neigh_put(ctl->t, nh);
	}
}

static void
neigh_update(struct rt_control *ctl, uint32_t nh, const struct rte_ether_addr *mac, uint64_t now)
{
	struct rt_neigh *e = &ctl->neigh[nh];
	const struct rt_nh *n = &ctl->t->nh[nh];
	uint64_t l2;

	if (ctl->t->nh_info[nh].is_static)
		return;
	entry_ref(ctl, nh);
	rt_nh_set_mac(ctl->t, nh, mac);
	set_state(ctl, nh, RT_NEIGH_REACHABLE);
	e->confirmed = now;
	e->probes = 0;
	ctl->st.c[RT_CTL_ARP_RESOLVED]++;
	l2 = __atomic_load_n(&n->l2, __ATOMIC_ACQUIRE);
	/* in the order they came */
	while (e->n_held > 0) {
		struct rte_mbuf *m = e->held[e->head];

		e->head = (e->head + 1) % ctl->hold_max;
		e->n_held--;
		ctl->st.held--;
		rt_ctl_xmit_fwd(ctl, n->port, l2, m);
		ctl->st.c[RT_CTL_RELEASED]++;
	}
}

uint32_t
rt_neigh_lookup_create(struct rt_control *ctl, uint32_t ip, uint16_t port)
{
	uint32_t nh = rt_nh_neigh_get(ctl->t, ip, port, true);

	if (nh == RT_NH_MISS)
		return nh;
	if (ctl->neigh[nh].has_ref)
		rt_nh_neigh_put(ctl->t, nh); /* we already had one */
	else
		ctl->neigh[nh].has_ref = 1;
	return nh;
}

void
rt_neigh_input(struct rt_control *ctl, struct rte_mbuf *m, uint16_t port, uint64_t now)
{
	const struct rt_port *p = &ctl->t->ports[port];
	struct rt_arp_info a;
	bool merged = false;
	uint32_t nh;

	if (rt_arp_parse(m, &a) < 0 || p->ip == 0 || rte_is_multicast_ether_addr(&a.sha) ||
		rte_is_zero_ether_addr(&a.sha)) {
		rt_ctl_drop(ctl, m, RT_DROP_ARP_BAD);
		return;
	}
	/* RFC 826: refresh a sender we know, whoever the request is for */
	if (a.spa != 0 && a.spa != p->ip) {
		nh = rt_nh_neigh_find(ctl->t, a.spa);
		if (nh != RT_NH_MISS && ctl->t->nh[nh].port == port) {
			neigh_update(ctl, nh, &a.sha, now);
			merged = true;
		}
	}
	if (a.tpa != p->ip) {
		/* a refresh is a use of the packet; anything else is noise */
		if (merged) {
			ctl->st.c[RT_CTL_ARP_IN]++;
			rte_pktmbuf_free(m);
		} else
			rt_ctl_drop(ctl, m, RT_DROP_ARP_BAD);
		return;
	}
	/* for us: learn the sender too (it is about to talk to us) */
	if (!merged && a.spa != 0 && a.spa != p->ip && rt_iface_lookup_net(ctl->t, a.spa) == port) {
		nh = rt_neigh_lookup_create(ctl, a.spa, port);
		if (nh != RT_NH_MISS)
			neigh_update(ctl, nh, &a.sha, now);
	}
	if (a.op == RTE_ARP_OP_REQUEST) {
		struct rte_mbuf *r = rt_arp_build(
			ctl->pool, RTE_ARP_OP_REPLY, &a.sha, &p->mac, p->ip, &a.sha, a.spa);

		if (r == NULL) {
			ctl->st.drops[RT_DROP_CTL_NOMEM]++;
		} else {
			rt_ctl_tx(ctl, port, r);
			ctl->st.c[RT_CTL_ARP_REPLIES]++;
		}
	}
	ctl->st.c[RT_CTL_ARP_IN]++;
	rte_pktmbuf_free(m);
}

void
rt_neigh_output(struct rt_control *ctl, uint32_t nh, struct rte_mbuf *m, uint64_t now)
{
	const struct rt_nh *n = &ctl->t->nh[nh];
	struct rt_neigh *e = &ctl->neigh[nh];
	uint64_t l2 = __atomic_load_n(&n->l2, __ATOMIC_ACQUIRE);

	if (l2 & RT_NH_F_VALID) {
		rt_ctl_xmit_fwd(ctl, n->port, l2, m);
		return;
	}
	if (e->held == NULL) {
		e->held = rte_zmalloc("rt_hold", ctl->hold_max * sizeof(e->held[0]), 0);
		if (e->held == NULL) {
			/* a queue of no room: not ctl_nomem, which counts frames not built */
			rt_ctl_drop(ctl, m, RT_DROP_ARP_HOLD_FULL);
			return;
		}
	}
	if (e->n_held >= ctl->hold_max) {
		rt_ctl_drop(ctl, m, RT_DROP_ARP_HOLD_FULL);
		return;
	}
	e->held[(e->head + e->n_held) % ctl->hold_max] = m;
	e->n_held++;
	ctl->st.held++;
	ctl->st.c[RT_CTL_HELD]++;
	if (e->state != RT_NEIGH_INCOMPLETE) {
		entry_ref(ctl, nh);
		set_state(ctl, nh, RT_NEIGH_INCOMPLETE);
		e->probes = 1;
		e->next = now + ctl->retrans;
		send_request(ctl, nh);
	}
}

void
rt_neigh_timers(struct rt_control *ctl, uint64_t now)
{
	uint32_t k;

	/* backwards: a reset takes its entry out of the set, moving the last one into its place */
	for (k = ctl->n_active; k-- > 0;) {
		const uint32_t i = ctl->active[k];
		struct rt_neigh *e = &ctl->neigh[i];

		switch (e->state) {
		case RT_NEIGH_REACHABLE:
			if (now - e->confirmed < ctl->reachable)
				break;
			/* still used while we ask again */
			e->state = RT_NEIGH_PROBE;
			e->probes = 0;
			e->next = now;
			/* fall through */
		case RT_NEIGH_PROBE:
		case RT_NEIGH_INCOMPLETE:
			if (now < e->next)
				break;
			if (e->probes >= ctl->probes_max) {
				entry_reset(ctl, i, RT_DROP_ARP_FAILED);
				break;
			}
			send_request(ctl, i);
			e->probes++;
			e->next = now + ctl->retrans;
			break;
		default:
			break;
		}
	}
}

enum rt_neigh_state
rt_neigh_state(const struct rt_control *ctl, uint32_t nh)
{
	return nh < ctl->t->max_nh ? (enum rt_neigh_state)ctl->neigh[nh].state : RT_NEIGH_NONE;
}

uint32_t
rt_neigh_held(const struct rt_control *ctl, uint32_t nh)
{
	return nh < ctl->t->max_nh ? ctl->neigh[nh].n_held : 0;
}
