/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The flow table's miss: decide for a key (filter, LPM, next hop) and install
 * the decision. Runs on the worker that owns the table.
 */

#include <rte_common.h>

#include "rt_ecmp.h"
#include "rt_flowtable.h"

void
__rt_flow_decide(struct rt_flow *fl, struct rt_worker *w, const struct flowsort_key *k,
	uint16_t in_port, struct rt_flow_entry *e)
{
	const struct rt_nh *nh;
	uint32_t h;
	uint64_t l2;

	RTE_SET_USED(in_port);
	e->rule = RT_ACL_NO_RULE;
	e->out_port = 0;
	if (fl->acl != NULL) {
		struct rt_acl_input in = {
			.proto = k->proto,
			.src = k->src_addr,
			.dst = k->dst_addr,
			/* only an L4 key's ports are ports (a fragment's hold its IP id) */
			.sport = k->type == FLOWSORT_KEY_L4 ? k->src_port : 0,
			.dport = k->type == FLOWSORT_KEY_L4 ? k->dst_port : 0,
		};

		if (rt_acl_classify(fl->acl, &in, &e->rule) == RT_ACL_DENY) {
			e->action = RT_FLOW_DROP;
			e->l2 = RT_DROP_FILTER;
			return;
		}
	}
	h = rt_fib_lookup(w->fib, rte_be_to_cpu_32(k->dst_addr),
		__atomic_load_n(w->default_nh, __ATOMIC_ACQUIRE));
	e->action = RT_FLOW_PUNT;
	if (h == RT_NH_MISS) {
		e->l2 = RT_PUNT_TAG(RT_EXC_NO_ROUTE, 0);
		return;
	}
	nh = &w->nh[h];
	switch (__atomic_load_n(&nh->type, __ATOMIC_ACQUIRE)) {
	case RT_NH_GROUP:
		/* ECMP: the flow's member (the key's hash: the same for all its packets) */
		h = rt_ecmp_member(nh, rt_ecmp_hash_key(k));
		nh = &w->nh[h];
		/* fall through - a member is a gateway */
	case RT_NH_GW:
		l2 = __atomic_load_n(&nh->l2, __ATOMIC_ACQUIRE);
		if (!(l2 & RT_NH_F_VALID)) {
			e->l2 = RT_PUNT_TAG(RT_EXC_UNRESOLVED, h);
			return;
		}
		e->action = RT_FLOW_FWD;
		e->l2 = l2;
		e->out_port = (uint8_t)nh->port;
		return;
	case RT_NH_LOCAL:
		e->l2 = RT_PUNT_TAG(RT_EXC_LOCAL, h);
		return;
	case RT_NH_BLACKHOLE:
		e->action = RT_FLOW_DROP;
		e->l2 = RT_DROP_BLACKHOLE;
		return;
	case RT_NH_REJECT:
		e->l2 = RT_PUNT_TAG(RT_EXC_REJECT, h);
		return;
	default:
		/* on-link destination not resolved yet: its /32 comes with its MAC */
		e->l2 = RT_PUNT_TAG(RT_EXC_UNRESOLVED, h);
		return;
	}
}

/* Entry @p i is about to be rewritten: readers retry or skip it until seq_end(). */
static inline void
seq_begin(struct rt_flow *fl, uint32_t i)
{
	__atomic_store_n(&fl->seq[i], fl->seq[i] + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void
seq_end(struct rt_flow *fl, uint32_t i)
{
	__atomic_store_n(&fl->seq[i], fl->seq[i] + 1, __ATOMIC_RELEASE);
}

struct rt_flow_entry *
__rt_flow_miss(struct rt_flow *fl, struct rt_worker *w, const struct flowsort_key *k,
	uint16_t in_port, uint32_t hash, struct rt_flow_entry *e, uint32_t gen, uint64_t now)
{
	uint32_t ei;

	fl->stats.misses++;
	if (e != NULL) {
		ei = (uint32_t)(e - fl->ent);
		seq_begin(fl, ei);
		if (rt_flow_aged(fl, e, now)) {
			fl->stats.aged++;
			e->pkts = 0;
			e->bytes = 0;
			e->first = now;
		} else {
			fl->stats.invalidated++;
		}
	} else {
		const uint32_t b = (hash & fl->mask) * RT_FLOW_WAYS;
		const uint32_t nowc = (uint32_t)(now >> RT_FLOW_SEEN_SHIFT);
		const uint32_t agec =
			(uint32_t)RTE_MIN(fl->timeout >> RT_FLOW_SEEN_SHIFT, (uint64_t)INT32_MAX);
		struct rt_flow_way *s = &fl->way[b];
		unsigned int i, victim = RT_FLOW_WAYS, oldest = 0;
		uint32_t idle, oldest_idle = 0;

		/* the bucket's line only: empty, else idle past the timeout, else LRU */
		for (i = 0; i < RT_FLOW_WAYS; i++) {
			if (s[i].sig == 0) {
				victim = i;
				break;
			}
			idle = nowc - s[i].seen;
			if (idle > oldest_idle) {
				oldest_idle = idle;
				oldest = i;
			}
		}
		if (victim == RT_FLOW_WAYS) {
			victim = oldest;
			/* an entry idle past the timeout is aged, not a live flow evicted */
			if (oldest_idle <= agec && !rt_flow_aged(fl, &fl->ent[b + victim], now))
				fl->stats.evictions++;
		}
		ei = b + victim;
		e = &fl->ent[ei];
		seq_begin(fl, ei);
		s[victim].sig = hash | 1;
		e->key[0] = k->w[0];
		e->key[1] = k->w[1];
		e->in_port = (uint8_t)in_port;
		e->pkts = 0;
		e->bytes = 0;
		e->first = now;
		fl->stats.new_flows++;
	}
	__rt_flow_decide(fl, w, k, in_port, e);
	e->gen = gen;
	e->last = now;
	fl->way[ei].seen = (uint32_t)(now >> RT_FLOW_SEEN_SHIFT);
	seq_end(fl, ei);
	return e;
}
