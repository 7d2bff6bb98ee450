/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * A traced burst (fwd_trace.h): out of line and only while a trace records.
 * The first packets of the burst, as many as the budget grants, are recorded:
 * their headers before anything touches them, then what the mode did. In
 * the L2 modes that is known before the work (the mode, a runt, the output
 * buffer), so the burst then runs unchanged. The router's decisions are read
 * off its counters: each traced packet is routed alone (rt_burst() on a
 * burst of one) and the drop or exception counter that moved says what
 * happened; the route, next hop and neighbour are read from the same table
 * the worker used. The rest of the burst is routed as usual.
 */

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "dpdk_compat.h"
#include "fwd_lcore.h"
#include "fwd_modes.h"
#include "fwd_route_tx.h"
#include "fwd_trace.h"
#include "rt_burst.h"

/* What show trace quotes of a frame: L2 and the start of IPv4 and L4. */
#define SNAP_LEN (RT_L2_LEN + 20 + 4)

struct snap {
	uint16_t len; /**< bytes of @c b that are the frame's */
	uint8_t b[SNAP_LEN];
};

static void
snap_take(const struct rte_mbuf *m, struct snap *s)
{
	s->len = RTE_MIN(rte_pktmbuf_data_len(m), (uint16_t)SNAP_LEN);
	memcpy(s->b, rte_pktmbuf_mtod(m, const uint8_t *), s->len);
}

/* The IPv4 header in @p s, or NULL if the frame is not one. */
static const struct rte_ipv4_hdr *
snap_ipv4(const struct snap *s)
{
	uint16_t type;

	if (s->len < RT_L2_LEN + sizeof(struct rte_ipv4_hdr))
		return NULL;
	memcpy(&type, s->b + 12, sizeof(type));
	if (type != RTE_BE16(RTE_ETHER_TYPE_IPV4))
		return NULL;
	return (const struct rte_ipv4_hdr *)(s->b + RT_L2_LEN);
}

/* The parsed header: ethernet, and IPv4 (with the L4 ports when in the snapshot). */
static void
rec_headers(struct fwd_trace_rec *r, const struct snap *s)
{
	const struct rte_ipv4_hdr *ip = snap_ipv4(s);
	struct fwd_trace_stage *st;
	uint16_t type;

	if (s->len < RT_L2_LEN)
		return;
	memcpy(&type, s->b + 12, sizeof(type));
	st = fwd_trace_stage(r, FWD_TRACE_ETH, 0, rte_be_to_cpu_16(type));
	if (st != NULL)
		memcpy(st->w, s->b, 12);
	if (ip == NULL)
		return;
	st = fwd_trace_stage(
		r, FWD_TRACE_IPV4, ip->next_proto_id, rte_be_to_cpu_16(ip->total_length));
	if (st == NULL)
		return;
	st->w[0] = rte_be_to_cpu_32(ip->src_addr);
	st->w[1] = rte_be_to_cpu_32(ip->dst_addr);
	/* TTL, IHL and flags/offset: what the router's checks and fragmenting read */
	st->w[2] = (uint32_t)ip->time_to_live << 24 | (uint32_t)(ip->version_ihl & 0xf) << 16 |
		   rte_be_to_cpu_16(ip->fragment_offset);
	if ((ip->version_ihl & 0xf) == 5 &&
		(ip->next_proto_id == IPPROTO_UDP || ip->next_proto_id == IPPROTO_TCP)) {
		uint32_t ports;

		memcpy(&ports, ip + 1, sizeof(ports));
		st->w[3] = rte_be_to_cpu_32(ports);
	}
}

static void
rec_drop(struct fwd_trace_rec *r, enum fwd_drop_reason reason)
{
	fwd_trace_stage(r, FWD_TRACE_DROP, 0, (uint16_t)reason);
}

static void
rec_tx(struct fwd_trace_rec *r, const struct fwd_txbuf *b)
{
	struct fwd_trace_stage *st = fwd_trace_stage(r, FWD_TRACE_TX, 0, b->port);

	if (st != NULL)
		st->w[0] = b->queue;
}

/* ------------------------------------------------------------ L2 modes */

/* io, mac, macswap, rxonly, pktgen: what the mode will do, then the burst as usual */
static void
trace_l2(struct fwd_lcore *lc, struct fwd_rx_source *src, struct rte_mbuf **pkts, uint16_t k,
	uint32_t seq, uint64_t tsc)
{
	struct fwd_trace_buf *b = lc->trace;
	uint16_t i;

	for (i = 0; i < k; i++) {
		struct fwd_trace_rec *r = fwd_trace_begin(b, seq + i, (uint16_t)lc->lcore_id,
			src->port, src->queue, rte_pktmbuf_pkt_len(pkts[i]), tsc);
		struct fwd_trace_stage *st;
		struct snap s;

		if (r == NULL)
			return;
		snap_take(pkts[i], &s);
		rec_headers(r, &s);
		st = fwd_trace_stage(r, FWD_TRACE_ACTION, (uint8_t)lc->mode, 0);
		if (lc->mode == FWD_MODE_RXONLY) {
			rec_drop(r, FWD_DROP_RXONLY);
		} else if (lc->mode == FWD_MODE_PKTGEN) {
			rec_drop(r, FWD_DROP_PKTGEN_RX);
		} else if (src->txb >= FWD_TXB_QSTOPPED) {
			rec_drop(r, src->txb == FWD_TXB_DOWN ? FWD_DROP_PORT_DOWN
							     : FWD_DROP_TXQ_STOPPED);
		} else if (lc->mode != FWD_MODE_IO && s.len < RTE_ETHER_HDR_LEN) {
			rec_drop(r, FWD_DROP_RUNT);
		} else {
			const struct fwd_txbuf *t = &lc->txb[src->txb];

			/* mac: the two addresses it writes */
			if (st != NULL && lc->mode == FWD_MODE_MAC) {
				memcpy(st->w, &t->dst, RTE_ETHER_ADDR_LEN);
				memcpy((uint8_t *)st->w + RTE_ETHER_ADDR_LEN, &t->src,
					RTE_ETHER_ADDR_LEN);
			}
			rec_tx(r, t);
		}
		fwd_trace_publish(b, r);
	}
}

/* ------------------------------------------------------------ route */

/*
 * The route @p dst matches in @p fib: its next hop in @p nh and its prefix
 * length as return, or -1 for none. rt_fib keeps the matching route's depth
 * in the entry the lookup reads; read the same way the lookup does.
 */
static int
fib_match(const struct rt_fib *fib, uint32_t dst, uint32_t *nh)
{
	uint32_t e = rt_fib_tbl24_entry(fib, dst);

	if (e & RT_FIB_EXT)
		e = rt_fib_tbl8_entry(fib, e, dst);
	if (!(e & RT_FIB_VALID))
		return -1;
	*nh = e & RT_FIB_NH_MASK;
	return (int)RT_FIB_DEPTH(e);
}

/*
 * The ECMP flow hash of the packet in @p s as the worker took it
 * (rt_ecmp.h): the RSS hash @p rss when @p use_rss (the router alone, an
 * mbuf with one, not a fragment), else the software hash of its header.
 */
static uint32_t
snap_ecmp_hash(const struct snap *s, bool *use_rss, uint32_t rss)
{
	const struct rte_ipv4_hdr *ip = snap_ipv4(s);
	uint32_t ports = 0;
	bool frag;

	if (ip == NULL)
		return 0;
	frag = (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK)) !=
	       0;
	*use_rss = *use_rss && !frag;
	if (*use_rss)
		return rss;
	/* a header with options has its ports past the snapshot: rare, and shown as 3-tuple */
	if (!frag && rt_ecmp_has_ports(ip->next_proto_id) && (ip->version_ihl & 0xf) == 5 &&
		s->len == SNAP_LEN)
		memcpy(&ports, ip + 1, sizeof(ports));
	return rt_ecmp_hash_tuple(ip->src_addr, ip->dst_addr, ip->next_proto_id, ports);
}

/* An ECMP group @p h: which member the flow hash @p hash took, and that member. */
static uint32_t
rec_ecmp(struct fwd_trace_rec *r, const struct rt_worker *w, uint32_t h, uint32_t hash, bool by_rss)
{
	const struct rt_ecmp_set *set = __atomic_load_n(&w->nh[h].set, __ATOMIC_ACQUIRE);
	const uint8_t pos = set->slot[rt_ecmp_slot(hash)];
	struct fwd_trace_stage *st = fwd_trace_stage(r, FWD_TRACE_ECMP, by_rss, pos);

	if (st != NULL) {
		st->w[0] = h;
		st->w[1] = hash;
		st->w[2] = set->n_active;
		st->w[3] = set->n_members;
	}
	return set->member[pos];
}

/* route, next hop and neighbour of destination @p dst (an ECMP group's member by @p hash) */
static void
rec_route(struct fwd_trace_rec *r, const struct rt_worker *w, uint32_t dst, uint32_t hash,
	bool by_rss)
{
	struct fwd_trace_stage *st;
	const struct rt_nh *nh;
	uint32_t h = RT_NH_MISS;
	int depth = fib_match(w->fib, dst, &h);
	uint64_t l2;

	if (depth < 0) {
		h = __atomic_load_n(w->default_nh, __ATOMIC_ACQUIRE);
		depth = 0;
	}
	if (h == RT_NH_MISS) {
		/* u8 0xff: no route */
		st = fwd_trace_stage(r, FWD_TRACE_ROUTE, UINT8_MAX, 0);
		if (st != NULL)
			st->w[0] = dst;
		return;
	}
	st = fwd_trace_stage(r, FWD_TRACE_ROUTE, (uint8_t)depth, 0);
	if (st != NULL) {
		st->w[0] = dst;
		st->w[1] = depth == 0 ? 0 : dst & ~((UINT32_C(1) << (32 - depth)) - 1);
		st->w[2] = h;
	}
	if (__atomic_load_n(&w->nh[h].type, __ATOMIC_ACQUIRE) == RT_NH_GROUP)
		h = rec_ecmp(r, w, h, hash, by_rss);
	nh = &w->nh[h];
	st = fwd_trace_stage(
		r, FWD_TRACE_NEXT_HOP, __atomic_load_n(&nh->type, __ATOMIC_ACQUIRE), nh->port);
	if (st == NULL)
		return;
	st->w[0] = h;
	st->w[1] = w->nh_info[h].ip;
	st->w[2] = __atomic_load_n(&nh->mtu, __ATOMIC_RELAXED);
	if (st->u8 != RT_NH_GW && st->u8 != RT_NH_CONNECTED)
		return;
	l2 = __atomic_load_n(&nh->l2, __ATOMIC_ACQUIRE);
	/* u8: 1 resolved (MAC in the words), 0 not yet */
	st = fwd_trace_stage(r, FWD_TRACE_NEIGH, (l2 & RT_NH_F_VALID) != 0, 0);
	if (st != NULL) {
		st->w[0] = st->u8 ? w->nh_info[h].ip : dst;
		memcpy(&st->w[1], &l2, RTE_ETHER_ADDR_LEN);
	}
}

/* What the slow path does with exception @p exc, as rt_control.c's handle() does it. */
static void
rec_slow_path(struct fwd_trace_rec *r, enum rt_exception exc, const struct snap *s, uint16_t mtu)
{
	const struct rte_ipv4_hdr *ip = snap_ipv4(s);
	struct fwd_trace_stage *st;

	switch (exc) {
	case RT_EXC_TTL:
		fwd_trace_stage(r, FWD_TRACE_ICMP, 11, 0); /* time exceeded */
		rec_drop(r, FWD_DROP_TTL_EXCEEDED);
		break;
	case RT_EXC_NO_ROUTE:
		fwd_trace_stage(r, FWD_TRACE_ICMP, 3, 0);
		rec_drop(r, FWD_DROP_NO_ROUTE);
		break;
	case RT_EXC_REJECT:
		fwd_trace_stage(r, FWD_TRACE_ICMP, 3, 1);
		rec_drop(r, FWD_DROP_REJECT);
		break;
	case RT_EXC_MTU:
		if (ip == NULL)
			break;
		if (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_DF_FLAG)) {
			st = fwd_trace_stage(r, FWD_TRACE_ICMP, 3, 4);
			if (st != NULL)
				st->w[0] = mtu;
			rec_drop(r, FWD_DROP_FRAG_NEEDED);
		} else {
			const uint32_t hl = (ip->version_ihl & 0xf) * 4u;
			const uint32_t data = rte_be_to_cpu_16(ip->total_length) - hl;
			const uint32_t per = mtu > hl ? (mtu - hl) & ~7u : 0;

			/* u16: fragments, as rt_frag.c cuts them (8-byte multiples but the last) */
			st = fwd_trace_stage(r, FWD_TRACE_FRAG, 0,
				per == 0 ? 0 : (uint16_t)((data + per - 1) / per));
			if (st != NULL)
				st->w[0] = mtu;
		}
		break;
	case RT_EXC_LOCAL:
		if (ip != NULL && ip->next_proto_id == IPPROTO_ICMP &&
			(ip->version_ihl & 0xf) == 5 && s->len > RT_L2_LEN + 20 &&
			s->b[RT_L2_LEN + 20] == RTE_ICMP_TYPE_ECHO_REQUEST)
			fwd_trace_stage(r, FWD_TRACE_ICMP, 0, 0); /* echo reply */
		break;
	default:
		break;
	}
}

/* Whether @p x and @p y are one flow as flowsort keys it: addresses, protocol, L4 ports. */
static bool
same_flow(const struct snap *x, const struct snap *y)
{
	const struct rte_ipv4_hdr *a = snap_ipv4(x), *b = snap_ipv4(y);
	bool l4;

	if (a == NULL || b == NULL || a->src_addr != b->src_addr || a->dst_addr != b->dst_addr ||
		a->next_proto_id != b->next_proto_id)
		return false;
	l4 = (a->next_proto_id == IPPROTO_UDP || a->next_proto_id == IPPROTO_TCP) &&
	     (a->version_ihl & 0xf) == 5 && x->len == SNAP_LEN && y->len == SNAP_LEN;
	return !l4 || memcmp(a + 1, b + 1, 4) == 0;
}

/* Flowsort groups equal flows: the group of packet @p i among the burst's @p n. */
static void
rec_flow_group(struct fwd_trace_rec *r, const struct snap *all, uint16_t n, uint16_t i)
{
	struct fwd_trace_stage *st;
	uint16_t j, first = i, size = 0, group = 0;

	if (snap_ipv4(&all[i]) == NULL)
		return;
	for (j = 0; j < n; j++) {
		if (!same_flow(&all[j], &all[i]))
			continue;
		if (j < first)
			first = j;
		size++;
	}
	/* the group's index: the flows first seen before this one's first packet */
	for (j = 0; j < first; j++) {
		uint16_t q;
		bool seen = false;

		for (q = 0; q < j && !seen; q++)
			seen = same_flow(&all[q], &all[j]);
		group += !seen;
	}
	st = fwd_trace_stage(r, FWD_TRACE_FLOW_GROUP, 0, group);
	if (st != NULL) {
		st->w[0] = size;
		st->w[1] = n;
	}
}

/* The index of the one counter of @p a[0..n) that moved from @p b, or -1. */
static int
moved(const uint64_t *a, const uint64_t *b, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return (int)i;
	return -1;
}

static void
trace_route(struct fwd_lcore *lc, struct fwd_rx_source *src, struct rte_mbuf **pkts, uint16_t n,
	uint16_t k, uint32_t seq, uint64_t tsc)
{
	struct snap all[FWD_MAX_BURST]; /* the headers, before the router touches them */
	struct fwd_trace_buf *b = lc->trace;
	struct rt_worker *w = lc->rt;
	const uint16_t q = (uint16_t)(src - lc->rx);
	const bool grouped = lc->flow != NULL && rt_flow_wanted(lc->flow);
	uint16_t out[FWD_MAX_BURST];
	uint16_t i, nf = 0, rest = 0;

	{
		for (i = 0; i < (grouped ? n : k); i++)
			snap_take(pkts[i], &all[i]);
		for (i = 0; i < k; i++) {
			struct fwd_trace_rec *r =
				fwd_trace_begin(b, seq + i, (uint16_t)lc->lcore_id, src->port,
					src->queue, rte_pktmbuf_pkt_len(pkts[i]), tsc);
			const struct rte_ipv4_hdr *ip = snap_ipv4(&all[i]);
			uint64_t drops[FWD_DROP_MAX], punts[RT_EXC_MAX];
			struct rte_mbuf *m = pkts[i];
			uint16_t o = 0, kept;
			/* the flow stage decides from the key: never the RSS hash */
			bool by_rss = !grouped && (m->ol_flags & RTE_MBUF_F_RX_RSS_HASH);
			const uint32_t hash = snap_ecmp_hash(&all[i], &by_rss, m->hash.rss);
			int d, e;

			rec_headers(r, &all[i]);
			if (grouped)
				rec_flow_group(r, all, n, i);
			memcpy(drops, lc->stats.drops, sizeof(drops));
			memcpy(punts, w->stats.punts, sizeof(punts));
			kept = rt_burst(w, lc->flow, q, src->port, &m, 1, &o);
			d = moved(lc->stats.drops, drops, FWD_DROP_MAX);
			e = moved(w->stats.punts, punts, RT_EXC_MAX);
			/* reached the lookup: forwarded, or one of its outcomes */
			if (ip != NULL && (kept == 1 || d == FWD_DROP_BLACKHOLE ||
						  (e >= 0 && e != RT_EXC_ARP)))
				rec_route(r, w, rte_be_to_cpu_32(ip->dst_addr), hash, by_rss);
			if (kept == 1) {
				if (lc->out_down[o] != FWD_OUT_UP)
					rec_drop(r, lc->out_down[o] == FWD_OUT_PORT_DOWN
							    ? FWD_DROP_PORT_DOWN
							    : FWD_DROP_TXQ_STOPPED);
				else
					rec_tx(r, &lc->txb[o]);
				pkts[nf] = m;
				out[nf++] = o;
			} else if (e >= 0) {
				uint32_t h = RT_NH_MISS;
				uint16_t mtu = 0;

				fwd_trace_stage(r, FWD_TRACE_PUNT, (uint8_t)e, 0);
				if (ip != NULL &&
					fib_match(w->fib, rte_be_to_cpu_32(ip->dst_addr), &h) < 0)
					h = __atomic_load_n(w->default_nh, __ATOMIC_ACQUIRE);
				if (h != RT_NH_MISS)
					mtu = __atomic_load_n(&w->nh[h].mtu, __ATOMIC_RELAXED);
				rec_slow_path(r, (enum rt_exception)e, &all[i], mtu);
			} else if (d >= 0) {
				rec_drop(r, (enum fwd_drop_reason)d);
			}
			fwd_trace_publish(b, r);
		}
	}
	/* the rest of the burst as usual, after the traced ones, in arrival order */
	if (k < n) {
		rest = rt_burst(w, lc->flow, q, src->port, pkts + k, n - k, out + nf);
		memmove(pkts + nf, pkts + k, rest * sizeof(pkts[0]));
	}
	fwd_route_tx(lc, pkts, out, nf + rest);
}

/* ------------------------------------------------------------ entry */

void
fwd_trace_burst(struct fwd_lcore *lc, struct fwd_rx_source *src, struct rte_mbuf **pkts, uint16_t n)
{
	struct fwd_trace_ctl *ctl = lc->trace->ctl;
	uint32_t seq = 0, k;

	RTE_SET_USED(fwd_route_tx_slow); /* the first worker's, in fwd_lcore.c */
	if (ctl->port != FWD_TRACE_ANY_PORT && ctl->port != src->port) {
		fwd_lcore_burst_untraced(lc, src, pkts, n);
		return;
	}
	k = fwd_trace_claim(ctl, n, &seq);
	if (k == 0) {
		/* the budget is spent: back to the plain loop (this lcore is trace_on's one writer) */
		lc->trace_on = 0;
		fwd_lcore_burst_untraced(lc, src, pkts, n);
		return;
	}
	/* the counters a plain burst keeps, before the mode's work */
	if (lc->mode != FWD_MODE_ROUTE) {
		trace_l2(lc, src, pkts, (uint16_t)k, seq, rte_rdtsc());
		fwd_lcore_burst_untraced(lc, src, pkts, n);
		return;
	}
	fwd_lcore_count_rx(lc, src, pkts, n);
	trace_route(lc, src, pkts, n, (uint16_t)k, seq, rte_rdtsc());
}
